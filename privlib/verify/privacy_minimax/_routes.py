"""Independent routes shared by several sections of chapter 002's claims, and the
mistakes several claims declare as mutants."""

from __future__ import annotations

from privlib.verify.claims import reference

import itertools
import math

import numpy as np
from scipy import stats

from privlib.papers import minimax as mm


FAMILY_WISE = 1e-6


def _z_max(cases: int) -> float:
    """The two-sided normal quantile whose tail over ``cases`` z-scores is :data:`FAMILY_WISE`."""
    return float(stats.norm.isf(FAMILY_WISE / (2 * cases)))


def _subsets(m: int) -> np.ndarray:
    """Indicator rows of every subset of ``m`` outputs."""
    return np.array(list(itertools.product((0.0, 1.0), repeat=m)))


@reference
def _worst_event(p: np.ndarray, q: np.ndarray, eps: float) -> float:
    """``max over every event S of p(S) - e^eps q(S)`` by enumeration."""
    s = _subsets(p.size)
    return float(max((s @ p - np.exp(eps) * (s @ q)).max(), 0.0))


def _random_channel(rng: np.random.Generator, K: int, n: int, m: int, concentration: float = 1.0) -> mm.FiniteChannel:
    return mm.FiniteChannel(rng.dirichlet(np.full(m, concentration), K ** n), K, n)


def _samples(K: int, n: int) -> list[tuple[int, ...]]:
    """Every sample in lexicographic order (the rows of a FiniteChannel)."""
    return list(itertools.product(range(K), repeat=n))


@reference
def _neighbours_by_loop(K: int, n: int) -> list[tuple[int, int]]:
    """Ordered pairs of row indices of samples at Hamming distance 1, by a plain double loop."""
    samples = _samples(K, n)
    return [(a, b) for a, x in enumerate(samples) for b, y in enumerate(samples)
            if sum(u != w for u, w in zip(x, y)) == 1]


@reference
def _levels_by_events(table: np.ndarray, K: int, n: int, eps: np.ndarray) -> np.ndarray:
    """``(delta*(eps) for each eps, TV level, KL level)`` of a channel table by enumeration: every
    event for delta* and TV, a plain sum for KL, over neighbours found by a double loop."""
    s = _subsets(table.shape[1])
    deltas, tv, kl = np.zeros(eps.size), 0.0, 0.0
    for a, b in _neighbours_by_loop(K, n):
        pa, pb = s @ table[a], s @ table[b]
        deltas = np.maximum(deltas, (pa[None, :] - np.exp(eps)[:, None] * pb[None, :]).max(axis=1))
        tv = max(tv, float((pa - pb).max()))
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(table[a] > 0, table[a] * np.log(table[a] / table[b]), 0.0)
        kl = max(kl, float(terms.sum()))
    return np.concatenate([deltas, [tv, kl]])


@reference
def _marginal_by_loop(table: np.ndarray, laws: np.ndarray) -> np.ndarray:
    """Law of the release when record ``i`` is drawn from ``laws[i]``, by summing over every
    sample with a plain loop."""
    n, K = laws.shape
    out = np.zeros(table.shape[1])
    for row, x in enumerate(_samples(K, n)):
        out += math.prod(laws[i, xi] for i, xi in enumerate(x)) * table[row]
    return out


def _tv(a: np.ndarray, b: np.ndarray) -> float:
    return float(0.5 * np.abs(a - b).sum())


def _noise_coefficient_by_calibration(mechanism: str, n: int, d: int, alpha: float, delta: float) -> float:
    """``E||W||^2 / T^2`` of estimator (20)'s noise, from each mechanism's own calibration and the
    sensitivities of the projected mean measured on two extreme samples (one record moved across
    the ball): KL-Gaussian ``sigma^2 = D_2^2 / (2 alpha)`` (KL of two normals = alpha), classical
    Gaussian ``sigma = D_2 sqrt(2 log(1.25/delta)) / alpha``, Laplace scale ``D_1 / alpha`` per
    coordinate (variance twice its square)."""
    T = 1.0
    x = np.zeros((n, d))
    gaps = []
    for direction in (np.eye(d)[0], np.ones(d) / np.sqrt(d)):  # the l2 and the l1 worst directions
        a, b = x.copy(), x.copy()
        a[0], b[0] = -3 * T * direction, 3 * T * direction
        proj = [row * min(1.0, T / np.linalg.norm(row)) if np.linalg.norm(row) > 0 else row for row in (a[0], b[0])]
        gaps.append((proj[1] - proj[0]) / n)
    d2, d1 = float(np.linalg.norm(gaps[0])), float(np.abs(gaps[1]).sum())
    if mechanism == "kl":
        return d * d2 ** 2 / (2 * alpha) / T ** 2
    if mechanism == "gauss":
        return d * (d2 * np.sqrt(2 * np.log(1.25 / delta)) / alpha) ** 2 / T ** 2
    if mechanism == "laplace":
        return d * 2 * (d1 / alpha) ** 2 / T ** 2
    raise ValueError(f"unknown mechanism {mechanism!r}")


@reference
def _canonical_soft_level(eps: float, delta: float, gammas: tuple[float, ...], grid: int = 26) -> np.ndarray:
    """The soft-conditioning CHTP level of the canonical (eps, delta)-DP pair (Kairouz, Oh &
    Viswanath: atoms delta, (1 - delta) e^eps/(1 + e^eps), (1 - delta)/(1 + e^eps), 0 and their
    mirror) at each gamma, without privlib's search: the conditional TV on a grid of ``grid``
    points per axis of weights in [0, 1]^4, polished by Nelder-Mead (no gradient; the constraint
    <w, p> >= gamma as a penalty) from the three best feasible grid points."""
    from scipy import optimize

    e = np.exp(eps)
    a, b = (1 - delta) * e / (1 + e), (1 - delta) / (1 + e)
    p, q = np.array([delta, a, b, 0.0]), np.array([0.0, b, a, delta])
    axis = np.linspace(0.0, 1.0, grid)
    w = np.stack(np.meshgrid(*[axis] * 4, indexing="ij"), axis=-1).reshape(-1, 4)
    mass_p, mass_q = w @ p, w @ q
    keep = (mass_p > 0) & (mass_q > 0)
    w, mass_p, mass_q = w[keep], mass_p[keep], mass_q[keep]
    tv = 0.5 * np.abs(w * p / mass_p[:, None] - w * q / mass_q[:, None]).sum(axis=1)
    out = []
    for gamma in gammas:
        feasible = np.flatnonzero(mass_p >= gamma)
        starts = feasible[np.argsort(-tv[feasible], kind="stable")[:3]]

        def negative(x, gamma=gamma, p=tuple(p.tolist()), q=tuple(q.tolist())):
            # four weights: Python floats (numpy's per-call cost is most of a Nelder-Mead step)
            x = [min(max(v, 0.0), 1.0) for v in x.tolist()]
            A = x[0] * p[0] + x[1] * p[1] + x[2] * p[2] + x[3] * p[3]
            B = x[0] * q[0] + x[1] * q[1] + x[2] * q[2] + x[3] * q[3]
            if A <= 0 or B <= 0:
                return 10.0
            gap = sum(abs(xi * pi / A - xi * qi / B) for xi, pi, qi in zip(x, p, q))
            return -0.5 * gap + 1e3 * max(0.0, gamma - A)

        best = float(tv[starts[0]])
        for j in starts:
            res = optimize.minimize(negative, w[j], method="Nelder-Mead",
                                    options={"xatol": 1e-13, "fatol": 1e-15, "maxfev": 20000})
            x = np.clip(res.x, 0.0, 1.0)
            if x @ p >= gamma - 1e-12:
                best = max(best, -negative(x))
        out.append(best)
    return np.array(out)


@reference
def _subsample_le_cam(n: int, m: int, a: float, r: float = 1.0) -> tuple[float, float]:
    """Le Cam's two-point bound for the channel that releases how many of ``m`` records drawn
    without replacement equal ``u`` (P_0 = delta_0, P_1 = (1 - p) delta_0 + p delta_u, u = r
    p^{-1/k}, a = 2(k-1)/k), maximised over p: ``max_p r^2/8 p^a (1 - TV)`` with TV that of the
    released counts, summed exactly over the samples' counts (binomial times hypergeometric),
    on 20001 log-spaced p in [1e-6, 1] (the maximum's relative error below 1e-7). Returns ``(the maximum, the channel's TV level)``: the largest TV of
    the release between samples with s and s + 1 records equal to u (m/n)."""
    s = np.arange(n + 1)
    release = stats.hypergeom.pmf(np.arange(m + 1)[None, :], n, s[:, None], m)     # row s: law of the count
    level = float(max(0.5 * np.abs(release[i + 1] - release[i]).sum() for i in range(n)))
    p = np.geomspace(1e-6, 1.0, 20_001)
    law1 = stats.binom.pmf(s[None, :], n, p[:, None]) @ release                     # under P_1^n
    law0 = release[0]                                                                # under P_0^n
    tv = 0.5 * np.abs(law1 - law0[None, :]).sum(axis=1)
    return float(np.max(r ** 2 / 8 * p ** a * (1.0 - tv))), level


@reference
def _shifted_uniform_le_cam() -> float:
    """Le Cam's bound for the support of Unif[theta, theta + 1] through the channel that releases
    one record: ``max_p p/4 (1 - TV(Unif[0, 1], Unif[p, 1 + p]))``, the TV by quadrature and the
    maximum by bounded scalar search."""
    from scipy import integrate, optimize

    def tv(p: float) -> float:
        return integrate.quad(lambda x: 0.5 * abs(float(0 <= x <= 1) - float(p <= x <= 1 + p)), -1, 3,
                              points=[0, p, 1, 1 + p])[0]

    res = optimize.minimize_scalar(lambda p: -p / 4 * (1 - tv(p)), bounds=(1e-6, 1.0), method="bounded",
                                   options={"xatol": 1e-10})
    return float(-res.fun)
