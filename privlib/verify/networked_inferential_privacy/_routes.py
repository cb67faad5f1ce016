"""Independent routes shared by several sections of chapter 003's claims, and the
mistakes several claims declare as mutants."""

from __future__ import annotations

from privlib.verify.claims import reference

import itertools
import math

import numpy as np
from scipy import optimize, sparse, special

from privlib.papers import affiliation


@reference
def _ratio_lp(num: np.ndarray, den: np.ndarray, eps: np.ndarray) -> float:
    """``log max sum(num g) / sum(den g)`` over acceptance functions g >= 0 on the 2^n databases
    with ``g(x) <= e^{eps_j} g(x xor e_j)``: the Charnes-Cooper LP written out plainly (no
    rescaling, small n and moderate eps only), independent of privlib's LPs."""
    size = num.size
    n = int(round(np.log2(size)))
    s = np.arange(size)
    rows = np.arange(n * size)
    cols_u = np.tile(s, n)
    cols_v = np.concatenate([s ^ (1 << j) for j in range(n)])
    gains = np.repeat(np.exp(eps), size)
    a_ub = sparse.csr_matrix((np.concatenate([np.ones(n * size), -gains]),
                              (np.concatenate([rows, rows]), np.concatenate([cols_u, cols_v]))), shape=(n * size, size))
    res = optimize.linprog(-num, A_ub=a_ub, b_ub=np.zeros(n * size), A_eq=den[None, :], b_eq=[1.0],
                           bounds=(0, None), method="highs")
    if res.status != 0:
        raise RuntimeError(f"reference LP failed: {res.message}")
    return float(np.log(-res.fun))


def _reference_worst_case(prior: np.ndarray, eps, i: int) -> float:
    """The worst case over all eps-DP mechanisms by :func:`_ratio_lp`, both directions."""
    n = int(round(np.log2(prior.size)))
    eps = np.broadcast_to(np.asarray(eps, dtype=float), (n,))
    mine = affiliation.states(n)[:, i] == 1
    one = np.where(mine, prior, 0.0) / prior[mine].sum()
    zero = np.where(~mine, prior, 0.0) / prior[~mine].sum()
    return max(_ratio_lp(one, zero, eps), _ratio_lp(zero, one, eps))


def noisy_statistic_privacy(prior: np.ndarray, statistic: np.ndarray, i: int, epsilon: float, top: int) -> float:
    """Inferential privacy about x_i of ``statistic(x) + Lap(1/eps)`` (statistic values 0..top):
    the ess-sup of the log-ratio of the output densities given x_i = 1 and x_i = 0, on a dense grid."""
    x = affiliation.states(int(round(np.log2(prior.size))))
    t = np.linspace(-20.0, top + 20.0, 40001)
    log_lap = np.log(epsilon / 2) - epsilon * np.abs(t[None, :] - np.arange(top + 1)[:, None])
    laws = []
    for z in (0, 1):
        mask = (x[:, i] == z) & (prior > 0)
        counts = np.bincount(statistic[mask], weights=prior[mask], minlength=top + 1) / prior[mask].sum()
        with np.errstate(divide="ignore"):
            laws.append(special.logsumexp(np.log(counts)[:, None] + log_lap, axis=0))
    ratio = laws[1] - laws[0]
    return float(max(ratio.max(), -ratio.min()))


def _random_ising(rng: np.random.Generator, n: int, sign: float = 1.0) -> np.ndarray:
    edges = [(a, b) for a, b in itertools.combinations(range(n), 2) if rng.random() < 0.5]
    couplings = sign * rng.uniform(0.1, 0.8, len(edges))
    return affiliation.ising_prior(n, edges, couplings, rng.normal(0, 0.4, n))


@reference
def _mp_tree(degree: int, beta: float, epsilon: float, spontaneous: bool = False) -> float:
    """The sup over trees of maximum degree D in 40-digit arithmetic: the largest root of
    ``H = h + (D - 1) artanh(tanh(beta) tanh(H))`` by bisection on a bracket
    where the map minus the identity changes sign, then ``2 (h + D u(H))`` (or, for
    ``spontaneous``, the positive root at h = 0)."""
    import mpmath as mp

    with mp.workdps(40):
        t, h = mp.tanh(mp.mpf(beta)), mp.mpf(epsilon) / 2

        def u(x):
            return mp.atanh(t * mp.tanh(x))

        def excess(x):
            return h + (degree - 1) * u(x) - x

        top = h + (degree - 1) * mp.mpf(beta)
        low = h
        if spontaneous:
            low = top
            while excess(low) <= 0:
                low /= 4
                if low < mp.mpf(10) ** -30:
                    return 0.0
        # bisection: the excess is positive at low and not positive at top; 140 halvings shrink
        # the bracket below 10^-40 of its width
        for _ in range(140):
            mid = (low + top) / 2
            if excess(mid) > 0:
                low = mid
            else:
                top = mid
        return float(2 * (h + degree * u((low + top) / 2)))


def _halved_eps_lp(worst_case_lp):
    return lambda prior, eps, i: worst_case_lp(prior, np.asarray(eps) / 2, i)


_HALVED = "DP constraints with e^(eps/2) (sensitivity counted twice)"


def _wrong_formula(directions: tuple[int, ...], normalised: bool):
    """A mutant of formula (6): only the given directions z, and with or without dividing the
    conditional expectations by the prior odds."""
    def make(inferential_privacy):
        def wrong(prior, eps, i):
            prior = np.asarray(prior, dtype=float)
            n = int(round(np.log2(prior.size)))
            eps = np.broadcast_to(np.asarray(eps, dtype=float), (n,))
            x = affiliation.states(n)
            with np.errstate(divide="ignore"):
                log_pi = np.log(prior)
            best = -np.inf
            for z in directions:
                log_accept = -(np.abs(x - z) @ eps)
                same, other = x[:, i] == z, x[:, i] != z
                value = special.logsumexp(log_pi[same] + log_accept[same]) - special.logsumexp(log_pi[other] + log_accept[other])
                if normalised:
                    value += special.logsumexp(log_pi[other]) - special.logsumexp(log_pi[same])
                best = max(best, float(value))
            return best
        return wrong
    return make


_one_direction = {z: _wrong_formula((z,), normalised=True) for z in (0, 1)}


_unnormalised = _wrong_formula((0, 1), normalised=False)


@reference
def _balls_limit(degree: np.ndarray, beta: np.ndarray, epsilon: np.ndarray, plus: bool = False,
                 levels: int = 200_000) -> np.ndarray:
    """The root's worst case on balls of the D-regular tree, level by level from the leaves, for
    balls so deep (``levels``) that the sequence has stopped moving: the cavity field of a leaf is
    ``h = eps/2`` (free boundary; the balls increase to the sup over the family) or, for ``plus``,
    ``+inf`` (every leaf pinned; at h = 0 the balls decrease to the spontaneous value); each level
    adds ``(D - 1) artanh(tanh(beta) tanh(H))``, the root ``D`` such terms. No fixed-point solver:
    the finite trees themselves, one case at a time in Python floats (each stops at its own
    fixed point: the near-critical cases need about 30,000 levels, the others far fewer)."""
    d, b, h = (a.ravel() for a in np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (degree, beta, epsilon))))
    h = h / 2.0

    def message(t: float, field: float) -> float:
        x = t * math.tanh(field)
        return math.inf if x >= 1.0 else math.atanh(x)

    out = np.empty(b.size)
    for i in range(b.size):
        t, leaf = math.tanh(b[i]), float(h[i])
        field = leaf + (d[i] - 1.0) * b[i] if plus else leaf  # u(+inf) = beta
        for _ in range(levels):
            new = leaf + (d[i] - 1.0) * message(t, field)
            if new == field:
                break
            field = new
        out[i] = 2.0 * (leaf + d[i] * message(t, field))
    return out.reshape(np.broadcast_shapes(np.shape(degree), np.shape(beta), np.shape(epsilon)))


@reference
def _exact_solve(gamma: np.ndarray, eps: np.ndarray) -> np.ndarray:
    """``(I - Gamma)^{-1} eps`` by Gauss-Jordan elimination in exact rational arithmetic on the
    floats' exact values (no floating-point solver, no series), rounded once at the end."""
    from fractions import Fraction

    n = gamma.shape[0]
    rows = [[Fraction(int(i == j)) - Fraction(float(gamma[i, j])) for j in range(n)] + [Fraction(float(eps[i]))]
            for i in range(n)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return np.array([float(row[-1]) for row in rows])


def _near_independent_instances() -> list[tuple[np.ndarray, np.ndarray]]:
    """Weakly coupled Ising priors (|beta| <= 0.02, a field on one record) with small and large
    eps: Gamma is nearly 0, where the worst case over all mechanisms tends to eps_i."""
    out = []
    for beta, eps in ((0.01, [0.05, 0.3, 1.0]), (0.02, [1.0, 0.4, 0.5]), (-0.015, [2.0, 2.0, 0.1])):
        prior = affiliation.ising_prior(3, [(0, 1), (1, 2)], beta, [0.0, 0.3, 0.0])
        out.append((prior, np.array(eps)))
    return out
