"""Intervals of measures and the inferential limits of epsilon-DP (Bailie & Gong, "General
inferential limits under differential and Pufferfish privacy", Sections 2-6).

Pure epsilon-DP is a Lipschitz condition: ``d_mult(P_x, P_x') <= eps d(x, x')``, with the
multiplicative distance ``d_mult(mu, nu) = sup_S |log mu(S) - log nu(S)|``. Integrating the
resulting pointwise sandwich against any data model or prior bounds the density of the released
data (Theorem 4.1, Theorem 6.2), the power of any test (Theorem 5.1) and any posterior
(Theorem 6.4), with ``d`` the diameter of the datasets that could have produced the output.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize, special, stats

from privlib.core import _validate as v
from privlib.core import profiles
from privlib.core._logspace import max_log_ratio
from privlib.core.mechanisms import LaplaceMechanism

__all__ = [
    "multiplicative_distance",
    "lipschitz_loss",
    "density_bounds",
    "laplace_sum_bounds",
    "laplace_sum_marginal",
    "randomized_response_bounds",
    "power_bounds",
    "neyman_pearson_power",
    "neyman_pearson_test",
    "laplace_power",
    "density_power",
    "posterior_bounds",
    "clamped_count_posterior",
    "clamped_count_predictive",
    "clamped_count_posterior_mean",
    "clamped_count_ratio_range",
]

# refuse pairwise work beyond this many (pairs x outputs) elements, before allocating
_MAX_PAIRWISE = 5e7
# refuse mixtures beyond this many (outputs + components) elements
_MAX_MIXTURE = 1e8


def multiplicative_distance(mu: ArrayLike, nu: ArrayLike) -> float:
    """Definition 2.1, eq. (3) and Proposition E.3 of Bailie & Gong: the multiplicative distance
    ``d_mult(mu, nu) = sup_S |log mu(S) - log nu(S)|`` of two measures on a finite space, equal
    to the largest pointwise log-ratio of the masses (events null under both are ignored,
    ``ln 0 - ln 0 := 0``; ``inf`` if one charges an atom the other does not)."""
    mu = v.nonnegative("mu", mu)
    nu = v.nonnegative("nu", nu)
    if mu.shape != nu.shape or mu.ndim != 1:
        raise ValueError(f"mu and nu must be vectors of the same length, got shapes {mu.shape} and {nu.shape}")
    with np.errstate(divide="ignore"):
        return float(max_log_ratio(np.log(mu), np.log(nu), both_ways=True))


def lipschitz_loss(P: ArrayLike, distances: ArrayLike) -> float:
    """Definition 2.1 and Theorem 3.5 of Bailie & Gong: the privacy loss of the mechanism whose
    output laws are the rows of ``P`` (datasets x outputs, finite output space), the smallest
    epsilon with ``d_mult(P_x, P_x') <= eps d(x, x')`` for every pair, ``distances[x, x']``
    the metric d on the datasets (``inf`` between unconnected datasets: no constraint, even at
    epsilon = 0, Proposition E.21). ``inf`` if two datasets at finite distance have laws that
    are not mutually absolutely continuous, or two at distance 0 have different laws. Under a
    graph metric (Assumption 3.3) this equals the largest ``d_mult`` over neighbours (Theorem
    3.5, II => I); under other metrics it can be larger."""
    P = v.pmf("P", P)            # each row is an output law
    if P.ndim != 2 or 0 in P.shape:
        raise ValueError(f"P must be a non-empty 2-D array (datasets x outputs), got shape {P.shape}")
    dist = v.real("distances", distances, low=0.0, finite=False)
    m = P.shape[0]
    if dist.shape != (m, m):
        raise ValueError(f"distances must be a square matrix with one row per dataset ({m}), got shape {dist.shape}")
    if not np.array_equal(dist, dist.T):
        raise ValueError("distances must be symmetric")
    v.size_limit("P", m * m * P.shape[1] / 2, _MAX_PAIRWISE, "pairwise comparisons")
    with np.errstate(divide="ignore"):
        logp = np.log(P)
    best = 0.0
    for a in range(m - 1):
        others = np.arange(a + 1, m)
        d = dist[a, others]
        keep = np.isfinite(d)
        if not keep.any():
            continue
        others, d = others[keep], d[keep]
        dm = max_log_ratio(logp[a][None, :], logp[others], axis=1, both_ways=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(dm == 0, 0.0, dm / d)
        best = max(best, float(ratio.max()))
    return best


def _eps_d(epsilon: float, diameter: float) -> float:
    """``epsilon * diameter`` with ``eps * inf = inf`` even for ``eps = 0`` (the paper's
    convention: unconnected datasets are unconstrained)."""
    eps = v.scalar("epsilon", epsilon, low=0.0)
    d = v.scalar("diameter", diameter, low=0.0, finite=False)
    return np.inf if np.isinf(d) else eps * d


def density_bounds(densities: ArrayLike, epsilon: float, diameter: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Theorem 4.1 (and Lemma F.7) of Bailie & Gong: for an epsilon-DP mechanism whose output
    densities at t' are the rows of ``densities`` (one row per dataset that could have produced
    t, of d-diameter ``diameter``), every data model's output density lies between
    ``l(t') = e^{-eps d} max_x p_x(t')`` and ``u(t') = e^{eps d} min_x p_x(t')``. Returns
    (lower, upper) per column (computed in log space: no overflow to NaN)."""
    dens = v.nonnegative("densities", densities)
    if dens.ndim != 2 or 0 in dens.shape:
        raise ValueError(f"densities must be a non-empty 2-D array (datasets x outputs), got shape {dens.shape}")
    ed = _eps_d(epsilon, diameter)
    return _times_exp(dens.max(axis=0), -ed), _times_exp(dens.min(axis=0), ed)


def _times_exp(x: NDArray[np.float64], s: float) -> NDArray[np.float64]:
    """``x e^s`` elementwise without NaN: ``0 e^{inf} = 0`` (no mass stays no mass) and the
    product formed in log space, so it is ``inf`` only when not representable."""
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore", over="ignore"):
        out = np.exp(np.log(x) + s)
    return np.where(x == 0, 0.0, out)


def laplace_sum_bounds(t: ArrayLike, n: int, epsilon: float, q_support: str = "interval", *,
                       log: bool = False) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Example 4.4: Theorem 4.1's bounds for the Laplace-privatised sum of n binary records
    (sensitivity 1, so ``p_q(t) = (eps/2) e^{-eps |t - q|}``) with d = n.

    ``q_support="interval"`` lets q range over [0, n] (the paper's figure, a flat-topped lower
    bound); ``"integer"`` over {0, ..., n} (the exact suprema, a scalloped lower bound).
    Without ``log`` the upper bound is ``inf`` where it exceeds the largest double (1.8e308;
    ``eps n`` above about 709): a vacuous bound. ``log=True`` returns the logs of the bounds,
    exact where the bounds over- or underflow (``ValueError`` where a log itself exceeds the
    largest double)."""
    t = v.real("t", t)
    n = v.integer("n", n, low=1)
    eps = v.scalar("epsilon", epsilon, low=0.0, low_open=True)
    if q_support == "interval":
        nearest = np.clip(t, 0.0, float(n))
    elif q_support == "integer":
        nearest = np.clip(np.round(t), 0, n)
    else:
        raise ValueError(f"q_support must be 'interval' or 'integer', got {q_support!r}")
    if not isinstance(log, (bool, np.bool_)):
        raise TypeError(f"log must be a bool, got {type(log).__name__}")
    farthest = np.where(t >= n / 2.0, 0.0, float(n))
    log_half_eps = np.log(eps / 2.0)
    with np.errstate(over="ignore"):                    # e^{eps n} beyond 1e308 is inf: not representable
        log_lower = log_half_eps - eps * (n + np.abs(t - nearest))
        log_upper = log_half_eps + eps * (n - np.abs(t - farthest))
        if log:
            return log_lower, v.representable("epsilon", log_upper, "the log of the upper bound")
        return np.exp(log_lower), np.exp(log_upper)


def _log_laplace_mixture(t: NDArray[np.float64], log_w: NDArray[np.float64], centres: NDArray[np.float64],
                         rate: float) -> NDArray[np.float64]:
    """``log sum_k w_k e^{-rate |t - c_k|}`` for sorted centres, in O((len(t) + len(c)) log len(c))
    by prefix log-sums: ``e^{-rate t} sum_{c_k <= t} w_k e^{rate c_k} + e^{rate t} sum_{c_k > t}
    w_k e^{-rate c_k}``. Exponents are taken relative to the first centre; the absolute error
    of the result is about ``1e-16 rate (c_max - c_min)``. Where ``rate`` times the smallest gap
    between centres exceeds the range of ``log_w`` by 800, every centre but the two neighbours
    of t contributes less than ``e^-800`` of the sum: their two terms alone, to a relative 1e-16
    for every rate up to the largest double."""
    spread = float(log_w.max() - log_w.min()) if log_w.size else 0.0
    if centres.size > 1 and rate * float(np.diff(centres).min()) > spread + 800.0:
        idx = np.searchsorted(centres, t, side="right")                         # centres <= t: [0, idx)
        left_c, right_c = np.maximum(idx - 1, 0), np.minimum(idx, centres.size - 1)
        with np.errstate(over="ignore", invalid="ignore"):
            left = np.where(idx > 0, log_w[left_c] - rate * (t - centres[left_c]), -np.inf)
            right = np.where(idx < centres.size, log_w[right_c] - rate * (centres[right_c] - t), -np.inf)
        return np.logaddexp(left, right)
    if not np.isfinite(rate * (centres[-1] - centres[0])):
        raise ValueError("epsilon too large for these centres: epsilon times their span exceeds the largest double "
                         "while their smallest gap is too narrow for the two-neighbour form")
    shifted = centres - centres[0]
    up = np.logaddexp.accumulate(log_w + rate * shifted)                       # sum_{j <= k}
    down = np.logaddexp.accumulate((log_w - rate * shifted)[::-1])[::-1]        # sum_{j >= k}
    idx = np.searchsorted(centres, t, side="right")                             # centres <= t: [0, idx)
    ts = t - centres[0]
    with np.errstate(invalid="ignore", over="ignore"):
        left = np.where(idx > 0, up[np.maximum(idx - 1, 0)] - rate * ts, -np.inf)
        right = np.where(idx < centres.size, down[np.minimum(idx, centres.size - 1)] + rate * ts, -np.inf)
    return np.logaddexp(left, right)


def laplace_sum_marginal(t: ArrayLike, weights: ArrayLike, epsilon: float, *, sensitivity: float = 1.0,
                         centres: ArrayLike | None = None, log: bool = False) -> NDArray[np.float64]:
    """Eq. (6) of Bailie & Gong (the privatised data probability, Example 4.4): the density
    ``p_theta(t) = sum_k w_k Lap(t; c_k, sensitivity/eps)`` of the Laplace-privatised sum under a
    data model that gives the count k (of n binary records) probability ``weights[k]``,
    k = 0..n; ``centres`` replaces the query values 0..n (any increasing values). Exact, in log
    space (``log=True`` returns ``log p_theta(t)``, finite where the density underflows, ``-inf``
    only where the log density is below -1.8e308), in O((len(t) + n) log n) time."""
    t = v.real("t", t)
    w = v.pmf("weights", weights)
    if w.ndim != 1:
        raise ValueError(f"weights must be one probability vector over the counts 0..n, got shape {w.shape}")
    eps = v.scalar("epsilon", epsilon, low=0.0, low_open=True)
    sens = v.scalar("sensitivity", sensitivity, low=0.0, low_open=True)
    if centres is None:
        c = np.arange(w.size, dtype=float)
    else:
        c = v.real("centres", centres)
        if c.shape != w.shape or (np.diff(c) <= 0).any():
            raise ValueError(f"centres must be increasing, one per weight ({w.size}), got shape {c.shape}")
    v.size_limit("t", t.size + 4 * w.size, _MAX_MIXTURE)
    rate = eps / sens
    keep = w > 0
    with np.errstate(divide="ignore"):
        log_w = np.log(w[keep])
    out = _log_laplace_mixture(t.ravel(), log_w, c[keep], rate).reshape(t.shape) + np.log(rate / 2.0)
    return out if log else np.exp(out)


def randomized_response_bounds(n: ArrayLike, epsilon: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Example 4.5, eq. (8): under binary randomized response on n records every data model gives
    an output probability between ``(1 + e^eps)^{-n}`` and ``e^{eps n} (1 + e^eps)^{-n}``
    (log space: the upper bound is ``e^{-n log(1 + e^-eps)}``, exact for every n)."""
    n = v.real("n", n, low=1.0)
    eps = v.scalar("epsilon", epsilon, low=0.0, low_open=True)
    return np.exp(-n * np.logaddexp(0.0, eps)), np.exp(-n * np.logaddexp(0.0, -eps))


def power_bounds(alpha: ArrayLike, epsilon: float, diameter: float, sharp: bool = False) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Theorem 5.1 and Corollary 5.3 (eq. (10)) of Bailie & Gong: a size-alpha test on an
    epsilon-DP release, its hypotheses' datasets within d-diameter ``diameter``, has power between
    ``alpha e^{-eps d}`` and ``alpha e^{eps d}`` (clipped to [0, 1]). With ``sharp=True`` the same
    argument applied to ``1 - phi`` adds ``1 - e^{eps d} (1 - alpha)`` below and
    ``1 - e^{-eps d}(1 - alpha)`` above: the sharp testing region (attained by randomized
    response, Section 9). Computed in log space, so never NaN, for every eps d up to inf."""
    alpha = v.probability("alpha", alpha)
    if not isinstance(sharp, (bool, np.bool_)):
        raise TypeError(f"sharp must be a bool, got {type(sharp).__name__}")
    ed = _eps_d(epsilon, diameter)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        log_a = np.log(alpha)
        low = np.exp(log_a - ed)
        high = np.minimum(np.exp(log_a + ed), 1.0)
        if sharp:
            log_rest = np.log1p(-alpha)                                  # log(1 - alpha), -inf at 1
            complement_low = np.where(alpha == 1, 1.0, -np.expm1(np.minimum(log_rest + ed, 0.0)))
            low = np.maximum(low, complement_low)
            high = np.minimum(high, -np.expm1(log_rest - ed))
    low = np.where(alpha == 0, 0.0, low)
    high = np.where(alpha == 0, 0.0, high)
    return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)


def neyman_pearson_power(null: ArrayLike, alt: ArrayLike, alpha: ArrayLike, *, minimize: bool = False) -> NDArray[np.float64]:
    """Theorem 5.1, Corollary 5.3 and Theorem 8.7 of Bailie & Gong for simple hypotheses on a
    finite output space: the largest power of a randomized test of level alpha between the
    output laws ``null`` and ``alt`` (Neyman-Pearson lemma, :func:`privlib.core.profiles.neyman_pearson_power`).
    With ``minimize=True``, the smallest power of a size-alpha test (the test that rejects where
    the likelihood ratio is smallest), cumulated directly so that tiny powers keep their digits."""
    if not isinstance(minimize, (bool, np.bool_)):
        raise TypeError(f"minimize must be a bool, got {type(minimize).__name__}")
    if not minimize:
        return profiles.neyman_pearson_power(null, alt, alpha)
    null = v.pmf("null", null)
    alt = v.pmf("alt", alt)
    if null.shape != alt.shape or null.ndim != 1:
        raise ValueError(f"null and alt must be probability vectors of the same length, got shapes {null.shape} and {alt.shape}")
    alpha = v.probability("alpha", alpha)
    # outputs by increasing likelihood ratio, cumulated directly (not 1 - the most powerful test at
    # level 1 - alpha, which cancels for small alpha); outputs impossible under null never rejected
    pos = null > 0
    with np.errstate(divide="ignore"):
        order = np.argsort(np.log(alt[pos]) - np.log(null[pos]), kind="stable")
    xs = np.r_[0.0, np.cumsum(null[pos][order])]
    ys = np.r_[0.0, np.cumsum(alt[pos][order])]
    return np.clip(np.interp(alpha, xs, ys), 0.0, 1.0)


def neyman_pearson_test(null: ArrayLike, alt: ArrayLike, alpha: float, *, minimize: bool = False) -> NDArray[np.float64]:
    """Theorem 5.1, Corollary 5.3 and Section 9 of Bailie & Gong for simple hypotheses on a finite
    output space: the most powerful (``minimize=True``: least powerful) randomized test of size
    alpha of the output law ``null`` against ``alt``, as the probability ``phi[t]`` of rejecting
    at each output (Neyman-Pearson lemma). Outputs are taken by decreasing likelihood ratio
    (increasing for the least powerful test) until the null mass reaches alpha, the boundary
    output randomized; outputs impossible under ``null`` are rejected at no cost by the most
    powerful test and never by the least powerful one. Its size ``null @ phi`` is alpha and its
    power ``alt @ phi`` is :func:`neyman_pearson_power`."""
    null = v.pmf("null", null)
    alt = v.pmf("alt", alt)
    if null.shape != alt.shape or null.ndim != 1:
        raise ValueError(f"null and alt must be probability vectors of the same length, got shapes {null.shape} and {alt.shape}")
    alpha = v.scalar("alpha", alpha, low=0.0, high=1.0)
    if not isinstance(minimize, (bool, np.bool_)):
        raise TypeError(f"minimize must be a bool, got {type(minimize).__name__}")
    phi = np.zeros(null.size)
    free = null == 0
    if not minimize:
        phi[free] = 1.0
    pos = np.nonzero(~free)[0]
    with np.errstate(divide="ignore"):
        key = np.log(alt[pos]) - np.log(null[pos])                   # -inf where alt is 0
    order = pos[np.argsort(key if minimize else -key, kind="stable")]
    mass = null[order]
    before = np.r_[0.0, np.cumsum(mass)[:-1]]                        # null mass of the earlier outputs
    after = np.r_[np.cumsum(mass[::-1])[::-1][1:], 0.0]              # ... and of the later ones
    # alpha - before, computed from the end once the earlier mass is large (no cancellation near 1)
    room = np.where(before <= 0.5, alpha - before, (mass + after) - (mass.sum() - alpha))
    with np.errstate(over="ignore"):                                 # a subnormal mass: the ratio is clipped
        phi[order] = np.clip(room / mass, 0.0, 1.0)
    return phi


def laplace_power(alpha: ArrayLike, epsilon: float, shift: float = 1.0, sensitivity: float = 1.0, *,
                  minimize: bool = False) -> NDArray[np.float64]:
    """Theorem 5.1 and Section 9 of Bailie & Gong: the power of the most powerful size-alpha test
    of ``H0: T ~ q + Lap(b)`` against ``H1: T ~ q + shift + Lap(b)``, ``b = sensitivity/eps``
    (the Neyman-Pearson test rejects for large T), in closed form with ``r = eps shift /
    sensitivity``: ``alpha e^r`` for ``alpha <= e^{-r}/2`` (Theorem 5.1's bound attained),
    ``1 - e^{-r}/(4 alpha)`` up to ``alpha = 1/2``, then ``1 - (1 - alpha) e^{-r}`` (the sharp
    bound of Corollary 5.3). ``minimize=True`` gives the least powerful size-alpha test (reject
    for small T): ``alpha e^{-r}`` up to 1/2, then ``e^{-r}/(4(1 - alpha))`` while
    ``1 - alpha >= e^{-r}/2``, then ``1 - (1 - alpha) e^r``. Log space: exact for every r."""
    alpha = v.probability("alpha", alpha)
    eps = v.scalar("epsilon", epsilon, low=0.0, low_open=True)
    shift = v.scalar("shift", shift, low=0.0)
    sens = v.scalar("sensitivity", sensitivity, low=0.0, low_open=True)
    if not isinstance(minimize, (bool, np.bool_)):
        raise TypeError(f"minimize must be a bool, got {type(minimize).__name__}")
    r = eps * shift / sens
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        log_a, log_rest = np.log(alpha), np.log1p(-alpha)
        if not minimize:
            out = np.where(log_a <= -r - np.log(2.0), np.exp(log_a + r),
                           np.where(alpha <= 0.5, -np.expm1(-r - np.log(4.0) - log_a), -np.expm1(log_rest - r)))
        else:
            out = np.where(alpha <= 0.5, np.exp(log_a - r),
                           np.where(log_rest >= -r - np.log(2.0), np.exp(-r - np.log(4.0) - log_rest),
                                    -np.expm1(log_rest + r)))
    out = np.where(alpha == 0, 0.0, np.where(alpha == 1, 1.0, out))
    return np.clip(out, 0.0, 1.0)


def density_power(t: ArrayLike, null: ArrayLike, alt: ArrayLike, alpha: ArrayLike, *,
                  minimize: bool = False) -> NDArray[np.float64]:
    """Theorem 5.1 and Corollary 5.3 of Bailie & Gong for any mechanism with a continuous output
    on the real line: the largest (``minimize=True``: smallest) power of a size-alpha test of the
    output density ``null`` against ``alt``, both given at the increasing outputs ``t``. The
    densities are integrated over the cells between consecutive outputs (trapezoidal rule, error
    O(h^2) for a grid of spacing h), and the Neyman-Pearson test is found on the cells
    (:func:`neyman_pearson_power`). The grid must carry the mass of both laws: ``ValueError`` if
    either integrates to less than ``1 - 1e-3`` or more than ``1 + 1e-3`` over it (the masses
    are then normalised)."""
    t = v.real("t", t)
    null = v.nonnegative("null", null)
    alt = v.nonnegative("alt", alt)
    if t.ndim != 1 or t.size < 2 or (np.diff(t) <= 0).any():
        raise ValueError("t must be an increasing vector of at least two outputs")
    if null.shape != t.shape or alt.shape != t.shape:
        raise ValueError(f"null and alt must hold one density value per output ({t.size}), got shapes {null.shape} and {alt.shape}")
    h = np.diff(t)
    masses = []
    for name, dens in (("null", null), ("alt", alt)):
        cells = h * (dens[:-1] + dens[1:]) / 2.0
        total = cells.sum()
        if not abs(total - 1.0) <= 1e-3:
            raise ValueError(f"{name} integrates to {total:.6g} over t, not 1: widen or refine the grid t")
        masses.append(cells / total)
    return neyman_pearson_power(masses[0], masses[1], alpha, minimize=minimize)


def posterior_bounds(prior_density: ArrayLike, epsilon: float, diameter: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Theorem 6.4, eq. (12) of Bailie & Gong: every posterior density lies between
    ``e^{-eps d}`` and ``e^{eps d}`` times the prior density (log space: never NaN; ``inf`` only
    where ``e^{eps d}`` times the prior is not representable, 0 where the prior is 0)."""
    prior = v.nonnegative("prior_density", prior_density)
    ed = _eps_d(epsilon, diameter)
    return _times_exp(prior, -ed), _times_exp(prior, ed)


def _clamped_setup(t: ArrayLike, epsilon: float, low: int, high: int):
    t = v.real("t", t)
    eps = v.scalar("epsilon", epsilon, low=0.0, low_open=True)
    low = v.integer("low", low, low=0)
    high = v.integer("high", high, low=low + 1)
    return t, LaplaceMechanism(eps, sensitivity=float(high - low)), low, high


def _clamped_prior(shape: float, rate: float, low: int, high: int):
    """The prior predictive of the count (negative binomial) and the probabilities of the clamped
    values low..high under it."""
    shape = v.scalar("shape", shape, low=0.0, low_open=True)
    rate = v.scalar("rate", rate, low=0.0, low_open=True)
    values = np.arange(low, high + 1)
    nb = stats.nbinom(shape, rate / (1.0 + rate))
    weights = nb.pmf(values).astype(float)
    weights[0] = nb.cdf(low)             # every x <= low is clamped to low
    weights[-1] = nb.sf(high - 1)        # every x >= high is clamped to high
    return shape, rate, values, nb, weights


def clamped_count_predictive(t: ArrayLike, shape: float = 3.0, rate: float = 1.0, epsilon: float = 1.0,
                             low: int = 0, high: int = 6, *, log: bool = False) -> NDArray[np.float64]:
    """Example 6.7 of Bailie & Gong: prior-predictive density ``m(t)`` of
    ``clamp(x; low, high) + Lap((high - low)/eps)`` when ``x | theta ~ Poisson(theta)`` and
    ``theta ~ Gamma(shape, rate)`` (so x is negative binomial; closed form, in log space;
    ``log=True`` returns ``log m(t)``)."""
    t, lap, low, high = _clamped_setup(t, epsilon, low, high)
    shape, rate, values, _, weights = _clamped_prior(shape, rate, low, high)
    return laplace_sum_marginal(t, weights / weights.sum(), lap.epsilon, sensitivity=lap.sensitivity,
                                centres=values.astype(float), log=log)


def _clamped_log_likelihood(theta: NDArray[np.float64], t: float, lap: LaplaceMechanism, low: int, high: int) -> NDArray[np.float64]:
    """``log p_theta(t) = log sum_c P(clamp(x) = c | theta) Lap(t - c)`` for x ~ Poisson(theta)."""
    values = np.arange(low, high + 1)
    log_pois = stats.poisson.logpmf(values[:, None], theta[None, :])
    log_pois[0] = stats.poisson.logcdf(low, theta)
    log_pois[-1] = stats.poisson.logsf(high - 1, theta)
    return special.logsumexp(log_pois + lap.logpdf(t, values.astype(float))[:, None], axis=0)


def clamped_count_posterior(theta: ArrayLike, t: float, shape: float = 3.0, rate: float = 1.0, epsilon: float = 1.0,
                            low: int = 0, high: int = 6) -> NDArray[np.float64]:
    """Example 6.7 of Bailie & Gong: exact posterior density of theta given the release t
    (Bayes' rule with the likelihood ``sum_c P(clamp(x) = c | theta) Lap(t - c)``, in log space)."""
    theta = v.nonnegative("theta", theta)
    tt, lap, low, high = _clamped_setup(t, epsilon, low, high)
    if tt.ndim != 0:
        raise ValueError(f"t must be a single release, got shape {tt.shape}")
    shape, rate, _, _, _ = _clamped_prior(shape, rate, low, high)
    log_prior = stats.gamma.logpdf(theta, shape, scale=1.0 / rate)
    log_m = float(clamped_count_predictive(float(tt), shape, rate, lap.epsilon, low, high, log=True))
    return np.exp(log_prior + _clamped_log_likelihood(theta.ravel(), float(tt), lap, low, high).reshape(theta.shape) - log_m)


def clamped_count_posterior_mean(t: ArrayLike, shape: float = 3.0, rate: float = 1.0, epsilon: float = 1.0,
                                 low: int = 0, high: int = 6) -> NDArray[np.float64]:
    """Example 6.7 of Bailie & Gong: the posterior mean ``E[theta | t]`` in closed form. Given x
    the posterior is Gamma(shape + x, rate + 1), so ``E[theta | t] = sum_x NB(x) Lap(t -
    clamp(x)) (shape + x) / ((rate + 1) m(t))``, the tail ``x >= high`` summed through the
    negative binomial mean ``shape / rate``."""
    t, lap, low, high = _clamped_setup(t, epsilon, low, high)
    shape, rate, values, nb, weights = _clamped_prior(shape, rate, low, high)
    below = np.arange(0, low + 1)
    moment = (shape + values) * nb.pmf(values)                       # E[(shape + X) 1{clamp(X) = c}]
    moment[0] = shape * nb.cdf(low) + (below * nb.pmf(below)).sum()
    # E[X 1{X >= high}] = (shape / rate) P(Y >= high - 1), Y ~ NB(shape + 1, same p), since
    # x NB(x; r, p) = r (1 - p) / p NB(x - 1; r + 1, p): no cancellation against the mean
    tail_mean = shape / rate * stats.nbinom.sf(high - 2, shape + 1.0, rate / (1.0 + rate))
    moment[-1] = shape * nb.sf(high - 1) + tail_mean
    # Laplace weights relative to the nearest clamped value: outside [low, high] the distance
    # |t - c| is |t - clamp(t)| (common to every c, so it cancels) plus |clamp(t) - c|, which is
    # exact; subtracting large distances would lose digits when t is far from the clamp
    near = np.clip(t.reshape(-1, 1), low, high)
    log_lap = lap.logpdf(near, values[None, :].astype(float))               # (t, c)
    lap_t = np.exp(log_lap - log_lap.max(axis=1, keepdims=True))            # relative: no underflow
    return ((lap_t @ moment) / (rate + 1.0) / (lap_t @ weights)).reshape(t.shape)


def clamped_count_ratio_range(t: ArrayLike, shape: float = 3.0, rate: float = 1.0, epsilon: float = 1.0,
                              low: int = 0, high: int = 6) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Example 6.7 and Theorem 6.4 of Bailie & Gong: the range ``(inf, sup)`` over theta > 0 of the
    posterior/prior ratio ``pi(theta | t) / pi(theta) = p_theta(t) / m(t)``, which the theorem puts
    inside ``[e^{-eps}, e^{eps}]`` (d = 1). The limits theta -> 0 and theta -> inf give
    ``Lap(t - low)/m(t)`` and ``Lap(t - high)/m(t)``; interior extrema (for t inside (low, high))
    are found on a log-spaced grid of theta refined by bounded scalar minimisation. At most
    10^4 releases (a loop over t)."""
    t, lap, low, high = _clamped_setup(t, epsilon, low, high)
    shape, rate, _, _, _ = _clamped_prior(shape, rate, low, high)
    v.size_limit("t", t.size, 10**4, "releases")
    log_m = np.atleast_1d(clamped_count_predictive(t, shape, rate, lap.epsilon, low, high, log=True)).ravel()
    releases = np.atleast_1d(t).ravel()
    values = np.arange(low, high + 1).astype(float)
    log_theta = np.linspace(np.log(1e-6), np.log(50.0 * (high + 10.0)), 801)
    theta = np.exp(log_theta)
    log_pois = stats.poisson.logpmf(values[:, None], theta[None, :])          # (c, theta), once for all t
    log_pois[0] = stats.poisson.logcdf(low, theta)
    log_pois[-1] = stats.poisson.logsf(high - 1, theta)
    log_lap = lap.logpdf(releases[:, None], values[None, :])                   # (t, c)
    grid = special.logsumexp(log_pois[None, :, :] + log_lap[:, :, None], axis=1)  # (t, theta)
    ends = log_lap[:, [0, -1]]                                                 # the limits theta -> 0, inf
    lo, hi = np.empty(releases.size), np.empty(releases.size)
    for i, ti in enumerate(releases):
        found = []
        for sign in (1.0, -1.0):
            k = int(np.argmin(sign * grid[i]))
            best = sign * grid[i, k]
            limit = min(sign * ends[i])
            if 0 < k < log_theta.size - 1 and best < limit - 1e-12:             # an interior extremum: refine

                def f(u: float, ti: float = ti, sign: float = sign) -> float:
                    return sign * float(_clamped_log_likelihood(np.array([np.exp(u)]), ti, lap, low, high)[0])

                res = optimize.minimize_scalar(f, bounds=(log_theta[k - 1], log_theta[k + 1]), method="bounded",
                                               options={"xatol": 1e-10})
                best = min(best, res.fun)
            found.append(sign * best)
        lo[i] = np.exp(min(found[0], ends[i].min()) - log_m[i])
        hi[i] = np.exp(max(found[1], ends[i].max()) - log_m[i])
    return lo.reshape(t.shape), hi.reshape(t.shape)
