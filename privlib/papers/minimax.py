"""Privacy definitions on finite channels, minimax lower bounds and private mean estimators of
Barber & Duchi, "Privacy and statistical risk: formalisms and minimax bounds" (2014).

Conventions (chapter 002): neighbours differ in one record (replacement, ``n`` fixed); total
variation is ``sup_S |P(S) - Q(S)|`` (half the L1 distance); KL is in nats. The privacy level of
DP, TV and KL privacy is ``alpha``, the approximate-DP slack ``delta``, and the two parameters of
conditional hypothesis testing privacy (CHTP) are ``beta`` (error bound) and ``gamma`` (mass of
the conditioning set). Constants the paper's extracted text no longer shows are *derived here*
and marked so in the docstrings.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special, stats

from privlib.core import _validate as v
from privlib.core import notions
from privlib.core.chtp import (_canonical_pairs, conditional_tv, hard_chtp_sup, min_weighted_test_error,
                               soft_chtp_sup, tradeoff_curve)
from privlib.core.notions import FiniteChannel

__all__ = [
    "FiniteChannel",
    "release_one_channel",
    "geometric_count_channel",
    "canonical_dp_pair",
    "dp_epsilon",
    "dp_delta",
    "tv_privacy",
    "kl_privacy",
    "min_weighted_test_error",
    "tradeoff_curve",
    "conditional_tv",
    "hard_chtp_sup",
    "soft_chtp_sup",
    "chtp_level",
    "chtp_beta_bound",
    "chtp_beta_exact",
    "dp_from_chtp",
    "tv_contraction_bound",
    "tv_contraction_bound_product",
    "binomial_tv",
    "lower_bound_nonprivate_mean",
    "expmech_packing_error",
    "lower_bound_tv_mean",
    "lower_bound_tv_support",
    "theorem3_error_bound",
    "lower_bound_dp_mean",
    "LOWER_SLOPE_GRIDS",
    "lower_bound",
    "table1_lower_slopes",
    "MECHANISMS",
    "noise_coefficient",
    "optimal_truncation",
    "project_l2_ball",
    "private_mean",
    "risk_bound_31",
    "two_point_risk",
    "worst_two_point_risk",
    "simulate_two_point_risk",
    "PRIVACY_TYPES",
    "minimax_rate",
    "rate_exponents",
    "SLOPE_GRIDS",
    "table1_slopes",
    "private_histogram",
    "histogram_risk_exact",
    "histogram_optimal_bins",
    "bump_packing_density",
    "hamming_packing",
    "support_expmech_log_density",
    "support_dp_expmech",
]

MAX_ROWS = 1_000_000
#: largest radius r and truncation T: risks are of order r^2 and T^2, which must stay doubles
MAX_SCALE = 1e150
#: largest number of broadcast values of a function that loops over them in Python
MAX_EVALUATIONS = 20_000


# ---------------------------------------------------------------------------------------------
# Finite channels (Section 2): the shared core's FiniteChannel (privlib.core.notions), one class for
# every chapter; Barber & Duchi's Q(z | x_{1:n}) is its table.
# ---------------------------------------------------------------------------------------------

def release_one_channel(K: int, n: int) -> FiniteChannel:
    """Example 2 of Barber & Duchi: release one record chosen uniformly at random."""
    K = v.integer("K", K, low=2)
    n = v.integer("n", n, low=1)
    return FiniteChannel.from_function(lambda x: np.bincount(x, minlength=K) / n, K, n)


def geometric_count_channel(n: int, eps0: float) -> FiniteChannel:
    """A noisy count of ones in ``{0,1}^n``: ``Q(z|x) ~ exp(-eps0 |z - sum x|)`` on ``z = 0..n``,
    truncated and renormalised (its DP level exceeds ``eps0`` because of the normalisers)."""
    n = v.integer("n", n, low=1)
    e0 = v.scalar("eps0", eps0, low=0.0, low_open=True)
    v.power_limit("n", 2, n, notions.MAX_DATABASES, "databases")
    v.size_limit("n", 2**n * (n + 1), notions.MAX_CELLS, "table entries (2**n databases x n + 1 outputs)")
    # one row per count (the law depends on x through sum x only), then one row per database
    z = np.arange(n + 1)
    w = np.exp(-e0 * np.abs(z[:, None] - z[None, :]))
    w /= w.sum(axis=1, keepdims=True)
    counts = ((np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1).sum(axis=1)
    return FiniteChannel(w[counts], 2, n)


def canonical_dp_pair(eps: float, delta: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The pair of output laws that every (eps, delta)-DP pair is a post-processing of
    (Kairouz, Oh & Viswanath 2015): four outputs."""
    e = v.scalar("eps", eps, low=0.0, finite=False)
    d = v.scalar("delta", delta, low=0.0, high=1.0, high_open=True)
    a, b = (1 - d) * special.expit(e), (1 - d) * special.expit(-e)  # no overflow at large eps
    return np.array([d, a, b, 0.0]), np.array([0.0, b, a, d])


def _finite_channel(channel: object) -> FiniteChannel:
    if not isinstance(channel, FiniteChannel):
        raise TypeError(f"channel must be a FiniteChannel, got {type(channel).__name__}")
    return channel


def dp_epsilon(channel: FiniteChannel) -> float:
    """Smallest alpha with ``channel`` alpha-DP (Definition 1): the largest log-ratio of output
    probabilities over neighbours (``inf`` when supports differ); :func:`privlib.core.notions.dp_epsilon`."""
    return notions.dp_epsilon(_finite_channel(channel))


def dp_delta(channel: FiniteChannel, eps: ArrayLike) -> NDArray[np.float64]:
    """Privacy profile (Definition 3): the smallest delta with ``channel`` (eps, delta)-DP,
    ``max over neighbours of sum_z (q(z|x) - e^eps q(z|x'))_+``, vectorised over ``eps``;
    :func:`privlib.core.notions.dp_delta`."""
    channel = _finite_channel(channel)
    return notions.dp_delta(channel, v.nonnegative("eps", eps))


def tv_privacy(channel: FiniteChannel) -> float:
    """Smallest alpha with ``channel`` alpha-TV private (Definition 4); :func:`privlib.core.notions.tv_level`."""
    return notions.tv_level(_finite_channel(channel))


def kl_privacy(channel: FiniteChannel) -> float:
    """Smallest alpha with ``channel`` alpha-KL private (eq. (6)), in nats; ``inf`` when a
    neighbour's output law does not dominate; :func:`privlib.core.notions.kl_level`."""
    return notions.kl_level(_finite_channel(channel))


# ---------------------------------------------------------------------------------------------
# Tests and conditional hypothesis testing privacy (Proposition 1, Definition 8, Theorem 1)
# ---------------------------------------------------------------------------------------------

def chtp_level(channel: FiniteChannel, gamma: float, *, soft: bool = False) -> float:
    """Smallest beta with ``channel`` (beta, gamma)-CHTP (Definition 8) over all ordered
    neighbours; ``soft=True`` gives the level that every less informative channel must meet.
    ``ValueError`` for a channel whose neighbour pairs would need more than 3.4e7 entries
    (``n K^n (K - 1)`` times the outputs), before allocating them."""
    p, q = _finite_channel(channel).distinct_neighbour_rows()
    g = v.scalar("gamma", gamma, low=0.0, high=1.0, low_open=True)
    if not isinstance(soft, (bool, np.bool_)):
        raise TypeError(f"soft must be a bool, got {type(soft).__name__}")
    p, q = _canonical_pairs(p, q)
    level = soft_chtp_sup if soft else hard_chtp_sup
    return max(level(pi, qi, g) for pi, qi in zip(p, q))


def chtp_beta_bound(eps: ArrayLike, delta: ArrayLike, gamma: ArrayLike) -> NDArray[np.float64]:
    """Theorem 1(a), constant derived here: an (eps, delta)-DP channel is (beta, gamma)-CHTP with
    ``beta = 1 - (1 - delta/gamma) / (e^{2 eps} + e^eps delta/gamma)`` for ``gamma > delta``, evaluated
    as ``(-expm1(-2 eps) + r (e^-eps + e^{-2 eps})) / (1 + r e^-eps)`` (``r = delta/gamma``): positive
    terms only, so it keeps its digits at tiny eps and does not overflow at large eps."""
    e = v.nonnegative("eps", eps)
    d = v.real("delta", delta, low=0.0, high=1.0, high_open=True)
    g = v.real("gamma", gamma, low=0.0, high=1.0, low_open=True)
    if (g <= d).any():
        raise ValueError("gamma must exceed delta (otherwise CHTP holds for no beta < 1)")
    r = d / g
    down = np.exp(-e)
    return (-np.expm1(-2.0 * e) + r * (down + down * down)) / (1.0 + r * down)


def chtp_beta_exact(eps: float, delta: float, gamma: float) -> float:
    """Sharp CHTP level of every (eps, delta)-DP channel and its post-processings: the
    soft-conditioning level of the canonical pair (:func:`canonical_dp_pair`)."""
    p, q = canonical_dp_pair(eps, delta)
    return soft_chtp_sup(p, q, gamma)


def dp_from_chtp(beta: float, gamma: float) -> tuple[float, float]:
    """Theorem 1(b): if every less informative channel is (beta, gamma)-CHTP with beta < 1/2,
    the channel is (eps, delta)-DP with ``eps = log((1 + 2 beta) / (1 - 2 beta))``,
    ``delta = gamma``."""
    b = v.scalar("beta", beta, low=0.0, high=0.5, high_open=True)
    g = v.scalar("gamma", gamma, low=0.0, high=1.0, low_open=True)
    return float(np.log1p(2 * b) - np.log1p(-2 * b)), g


# ---------------------------------------------------------------------------------------------
# Lower bounds (Section 3)
# ---------------------------------------------------------------------------------------------

def _whole(name: str, value: ArrayLike) -> NDArray[np.float64]:
    """Validate positive whole numbers (sample sizes), kept as floats for broadcasting."""
    arr = v.real(name, value, low=1.0)
    if (arr != np.round(arr)).any():
        raise ValueError(f"{name} must be whole numbers >= 1, got {arr[arr != np.round(arr)].flat[0]:g}")
    return arr


#: the largest sample size of the binomial law in Theorem 3's bracket: beyond 2^53 whole numbers
#: are not all doubles (k + 1 == k), and scipy's binomial tail and pmf return NaN or lose every
#: digit (``binom.sf(1e20, 1e30, 1e-10)`` is NaN; ``binom.logpmf`` at the mean of Bin(10^30, 1/2)
#: is -1.8e15 instead of -35)
MAX_BINOMIAL_N = 2.0**53


def _binomial_size(name: str, value: ArrayLike) -> NDArray[np.float64]:
    """:func:`_whole`, at most :data:`MAX_BINOMIAL_N` (the size of a binomial law computed here)."""
    arr = _whole(name, value)
    if (arr > MAX_BINOMIAL_N).any():
        raise ValueError(f"{name} must be at most 2^53 = {MAX_BINOMIAL_N:.0f} (Theorem 3's binomial law), got {arr.max():g}")
    return arr


def _k_exponent(k: ArrayLike) -> NDArray[np.float64]:
    """``a = 2 (k - 1) / k`` (2 for k = inf) for moment orders ``k > 1``."""
    return 2.0 - 2.0 / v.real("k", k, low=1.0, low_open=True, finite=False)


def tv_contraction_bound(alpha: ArrayLike, tv_p: ArrayLike, n: ArrayLike) -> NDArray[np.float64]:
    """Theorem 2: under alpha-TV privacy, ``||M_0 - M_1||_TV <= alpha n ||P_0 - P_1||_TV``
    (clipped at 1).
    ``n``: real >= 1 (the bound is a function of a real sample size)."""
    a = v.probability("alpha", alpha)
    t = v.probability("tv_p", tv_p)
    n_ = v.real("n", n, low=1.0)
    return np.minimum(a * n_ * t, 1.0)


def tv_contraction_bound_product(alpha: ArrayLike, tv_records: ArrayLike) -> NDArray[np.float64]:
    """Eq. (26), the general form of Theorem 2: under alpha-TV privacy, records drawn
    independently but not identically (``P_{0,i}`` against ``P_{1,i}``) give release marginals
    with ``||M_0 - M_1||_TV <= alpha sum_i ||P_{0,i} - P_{1,i}||_TV`` (sum over the last axis of
    ``tv_records``; clipped at 1)."""
    a = v.probability("alpha", alpha)
    t = v.probability("tv_records", tv_records)
    if t.ndim == 0:
        raise ValueError("tv_records must have one entry per record along its last axis")
    return np.minimum(a * t.sum(axis=-1), 1.0)


def binomial_tv(n: ArrayLike, p0: ArrayLike, p1: ArrayLike) -> NDArray[np.float64]:
    """Total variation between ``Bin(n, p0)`` and ``Bin(n, p1)``, which equals that between the
    products ``Bern(p0)^n`` and ``Bern(p1)^n`` (the count is sufficient): the non-private
    channel's ``||M_0 - M_1||_TV`` in Lemma 1, whose best test errs with probability
    ``(1 - TV)/2``. Exact in O(1) per value: the likelihood ratio is monotone in the count, so
    ``TV = P_1(B > c) - P_0(B > c)`` at the crossing ``c`` (binomial tails from scipy)."""
    n_ = _whole("n", n)
    a = v.probability("p0", p0)
    b = v.probability("p1", p1)
    n_, a, b = np.broadcast_arrays(n_, a, b)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    with np.errstate(divide="ignore", invalid="ignore"):
        num = np.log1p(-lo) - np.log1p(-hi)
        crossing = n_ * num / (np.log(hi) - np.log(lo) + num)  # ratio P_hi/P_lo > 1 above it
    c = np.where(hi == 1.0, n_ - 1.0, np.where(lo == 0.0, 0.0, np.floor(crossing)))
    c = np.clip(np.nan_to_num(c), 0.0, n_)
    sf_hi, sf_lo = stats.binom.sf(c, n_, hi), stats.binom.sf(c, n_, lo)
    cdf_lo, cdf_hi = stats.binom.cdf(c, n_, lo), stats.binom.cdf(c, n_, hi)
    tv = np.where(sf_hi <= 0.5, sf_hi - sf_lo, cdf_lo - cdf_hi)  # the form without cancellation
    # nearly equal p0, p1: the two tails cancel; their difference is the integral over [lo, hi]
    # of d/dt P_t(B > c) = n P(Bin(n - 1, t) = c), by 12-point Gauss-Legendre (exact to
    # rounding when hi - lo is below a tenth of the standard deviation of the estimate of p)
    sd = np.sqrt(np.maximum(lo * (1.0 - lo), 1e-300) / np.maximum(n_, 1.0))
    narrow = (hi - lo) < 0.1 * sd
    if narrow.any():
        nodes, weights = np.polynomial.legendre.leggauss(12)
        half = (hi - lo)[..., None] / 2.0
        t = (lo + hi)[..., None] / 2.0 + half * nodes
        density = n_[..., None] * stats.binom.pmf(c[..., None], n_[..., None] - 1.0, t)
        tv = np.where(narrow, (density @ weights) * half[..., 0], tv)
    return np.where(lo == hi, 0.0, np.clip(tv, 0.0, 1.0))


def lower_bound_nonprivate_mean(n: ArrayLike, r: float = 1.0) -> NDArray[np.float64]:
    """The non-private term ``r^2/n`` of Proposition 2 and of Table 1, by Le Cam's two-point
    method (Lemma 1 with the channel that releases the sample, and (10)): the laws
    ``P_+- = (1 +- eta)/2 delta_{r e_1} + (1 -+ eta)/2 delta_{-r e_1}`` (in every moment class,
    means ``2 eta r`` apart) give minimax squared error at least
    ``max over eta of (eta r)^2 (1 - TV(Bin(n, (1+eta)/2), Bin(n, (1-eta)/2))) / 2``, computed
    exactly (:func:`binomial_tv`; the maximum by a grid in ``eta sqrt(n)`` refined twice). It
    tends to ``r^2/n max_c c^2 (1 - Phi(c))``, about ``0.166 r^2/n``."""
    n_ = _whole("n", n)
    r_ = v.scalar("r", r, low=0.0, low_open=True, high=MAX_SCALE)
    root = np.sqrt(n_)[..., None]

    def value(c: NDArray[np.float64]) -> NDArray[np.float64]:
        eta = np.minimum(c / root, 1.0)
        return eta ** 2 * (1.0 - binomial_tv(n_[..., None], (1.0 - eta) / 2.0, (1.0 + eta) / 2.0)) / 2.0

    c = np.broadcast_to(np.geomspace(1e-2, 20.0, 241), n_.shape + (241,))
    for _ in range(3):
        vals = value(c)
        i = np.argmax(vals, axis=-1)[..., None]
        lo = np.take_along_axis(c, np.maximum(i - 1, 0), axis=-1)
        hi = np.take_along_axis(c, np.minimum(i + 1, c.shape[-1] - 1), axis=-1)
        c = lo + (hi - lo) * np.linspace(0.0, 1.0, 241)
    return r_ ** 2 * value(c).max(axis=-1)


def expmech_packing_error(n: ArrayLike, p: ArrayLike, alpha: ArrayLike, card_V: ArrayLike,
                          delta: ArrayLike = 0.0) -> NDArray[np.float64]:
    """Exact average error probability, on Theorem 3's packing of labels, of an estimator that
    meets its privacy constraint: records are i.i.d. from ``(1-p) delta_0 + p delta_v`` with
    ``v`` one of ``card_V`` labels, and the estimator draws a label with probability
    proportional to ``exp(alpha c_u / 2)`` (``c_u`` the count of label ``u``: the exponential
    mechanism, alpha-DP). With ``delta > 0`` it instead releases the sample's most frequent label
    (ties uniformly) with probability ``delta``, which is (alpha, delta)-DP. With the count
    ``B ~ Bin(n, p)`` of ``v``, the error is ``1 - (1 - delta) E[e^{alpha B/2} /
    (e^{alpha B/2} + |V| - 1)] - delta (1 - (1-p)^n (1 - 1/|V|))``. Cost O(n) (``n <= 10^7``)."""
    n_ = _whole("n", n)
    p_ = v.probability("p", p)
    a_ = v.positive("alpha", alpha)
    V = _whole("card_V", card_V)
    d_ = v.probability("delta", delta)
    n_, p_, a_, V, d_ = np.broadcast_arrays(n_, p_, a_, V, d_)
    v.size_limit("n", int(n_.max(initial=0.0)) * max(n_.size, 1), 10**7, "binomial terms")
    v.size_limit("n, p, alpha, card_V and delta", n_.size, MAX_EVALUATIONS, "broadcast values (one binomial sum each)")
    win = np.empty(n_.shape)
    for idx in np.ndindex(n_.shape):
        j = np.arange(n_[idx] + 1.0)
        pick = special.expit(a_[idx] * j / 2.0 - np.log(V[idx] - 1.0)) if V[idx] > 1 else np.ones_like(j)
        win[idx] = stats.binom.pmf(j, n_[idx], p_[idx]) @ pick
    mode = -np.expm1(n_ * np.log1p(-p_)) + np.exp(n_ * np.log1p(-p_)) / V  # P(mode finds v)
    return np.clip(1.0 - (1.0 - d_) * win - d_ * mode, 0.0, 1.0)


def lower_bound_tv_mean(n: ArrayLike, alpha: ArrayLike, r: float = 1.0, k: ArrayLike = np.inf) -> NDArray[np.float64]:
    """Proposition 2, explicit constant derived here: minimax squared error of mean estimation
    over ``E||X||^k <= r^k`` under alpha-TV privacy is at least
    ``r^2 / 8 * p^a (1 - alpha n p)`` with ``a = 2(k-1)/k`` and ``p = min(1, a / ((a+1) alpha n))``.
    ``n``: real >= 1 (the bound is a function of a real sample size)."""
    n_ = v.real("n", n, low=1.0)
    a_ = v.real("alpha", alpha, low=0.0, high=1.0, low_open=True)
    r_ = v.real("r", r, low=0.0, low_open=True, high=MAX_SCALE)
    a = _k_exponent(k)
    p = np.minimum(1.0, a / ((a + 1.0) * a_ * n_))
    return r_ ** 2 / 8.0 * p ** a * np.clip(1.0 - a_ * n_ * p, 0.0, None)


def lower_bound_tv_support(n: ArrayLike, alpha: ArrayLike) -> NDArray[np.float64]:
    """Proposition 3: minimax absolute error of the support of ``Unif[theta, theta + 1]`` under
    alpha-TV privacy is at least ``max_p p/4 (1 - alpha n p)`` (``p = min(1, 1/(2 alpha n))``).
    ``n``: real >= 1 (the bound is a function of a real sample size)."""
    n_ = v.real("n", n, low=1.0)
    a_ = v.real("alpha", alpha, low=0.0, high=1.0, low_open=True)
    p = np.minimum(1.0, 1.0 / (2.0 * a_ * n_))
    return p / 4.0 * np.clip(1.0 - a_ * n_ * p, 0.0, None)


def _maximise_on_grid(f: Callable[[NDArray[np.float64]], NDArray[np.float64]], lo: NDArray[np.float64],
                      hi: NDArray[np.float64], points: int = 161, rounds: int = 3) -> NDArray[np.float64]:
    """``max over x in [lo, hi] of f(x)`` elementwise (``f`` maps an array with a trailing grid axis
    to values of the same shape): a grid, then ``rounds`` finer grids between the neighbours of
    the best point (exact for unimodal ``f`` up to ``(hi - lo) / points^(rounds + 1)``)."""
    lo, hi = np.broadcast_arrays(np.asarray(lo, float), np.asarray(hi, float))
    x = lo[..., None] + (hi - lo)[..., None] * np.linspace(0.0, 1.0, points)
    best = np.full(lo.shape, -np.inf)
    for _ in range(rounds + 1):
        vals = f(x)
        best = np.maximum(best, vals.max(axis=-1))
        i = np.argmax(vals, axis=-1)[..., None]
        left = np.take_along_axis(x, np.maximum(i - 1, 0), axis=-1)
        right = np.take_along_axis(x, np.minimum(i + 1, points - 1), axis=-1)
        x = left + (right - left) * np.linspace(0.0, 1.0, points)
    return best


def _theorem3_bracket(kk, n, p, alpha, delta, log_card_v):
    """The bracket of Theorem 3 at integer ``kk`` (log-space in ``e^{k alpha}`` and ``|V|``)."""
    tail = stats.binom.sf(kk, n, p)
    with np.errstate(over="ignore"):
        group = np.exp(np.minimum(kk * alpha - log_card_v, 700.0))
        slack = np.where(delta > 0, delta * np.expm1(np.minimum(kk * alpha, 700.0)) / np.expm1(alpha), 0.0)
    return 1.0 - tail - group - slack


def _theorem3_best(n, p, alpha, delta, log_card_v):
    """Theorem 3's bracket at the best integer ``k`` in ``0..n``.

    From ``k`` to ``k + 1`` the bracket gains ``P(Bin(n,p) = k+1)`` and loses
    ``c e^{k alpha}`` with ``c = (e^alpha - 1)/|V| + delta``, so it increases exactly where
    ``h(k) = log P(Bin = k+1) - k alpha - log c > 0``. ``h`` is concave (the binomial pmf is
    log-concave), so that set is an interval of integers and the best ``k`` is 0 or one past the
    interval's last integer: ``h``'s peak is found in closed form and the end of the interval by
    bisection on integers."""
    n, p, alpha, delta, log_card_v = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (n, p, alpha, delta, log_card_v)))
    with np.errstate(divide="ignore"):
        log_c = np.logaddexp(np.log(np.expm1(alpha)) - log_card_v, np.log(delta))

    def rising(k):                      # h(k) > 0: the bracket increases from k to k + 1
        with np.errstate(divide="ignore", invalid="ignore"):
            return (k < n) & (stats.binom.logpmf(k + 1, n, p) - k * alpha > log_c)

    # h(k + 1) - h(k) = log((n - k - 1) p / ((k + 2) (1 - p))) - alpha decreases in k; h peaks at
    # the first k where it is <= 0
    odds = np.exp(alpha) * (1.0 - p)
    with np.errstate(divide="ignore", invalid="ignore"):
        peak = np.ceil((n * p - p - 2.0 * odds) / (p + odds))
    peak = np.clip(np.nan_to_num(peak, nan=0.0), 0.0, np.maximum(n - 1.0, 0.0))
    for shift in (-1.0, 1.0):           # the closed form's rounding: look one integer either side
        other = np.clip(peak + shift, 0.0, np.maximum(n - 1.0, 0.0))
        with np.errstate(divide="ignore", invalid="ignore"):
            better = (stats.binom.logpmf(other + 1, n, p) - other * alpha
                      > stats.binom.logpmf(peak + 1, n, p) - peak * alpha)
        peak = np.where(better, other, peak)
    # the last rising integer at or after the peak: bisection on [peak, n] (rising(lo) or lo = peak)
    lo, hi = peak.copy(), n.copy()
    for _ in range(64):
        mid = np.floor((lo + hi) / 2.0)
        up = rising(mid) & (mid > lo)
        lo = np.where(up, mid, lo)
        hi = np.where(up | (mid <= lo), hi, mid)
        if ((hi - lo) <= 1.0).all():
            break
    best_k = np.where(rising(lo), lo + 1.0, lo)
    return np.maximum(_theorem3_bracket(np.zeros_like(n), n, p, alpha, delta, log_card_v),
                      _theorem3_bracket(np.minimum(best_k, n), n, p, alpha, delta, log_card_v))


def theorem3_error_bound(n: ArrayLike, p: ArrayLike, alpha: ArrayLike, delta: ArrayLike, card_V: ArrayLike,
                         k: ArrayLike | str = "best") -> NDArray[np.float64]:
    """Theorem 3, form derived here: for an (alpha, delta)-DP estimator and the mixtures
    ``(1-p) P_0 + p P_v``, the average probability of missing ``theta_v`` by ``rho*/2`` is at least
    ``1 - P(Bin(n,p) > k) - e^{k alpha}/|V| - delta (e^{k alpha} - 1)/(e^alpha - 1)`` for every
    integer ``k`` (``"median"``: ``k = ceil(np)``, the paper's choice; ``"best"``: the best
    ``k`` among the binomial's quantiles, where the tail term changes). ``card_V`` may be
    ``inf`` (the bound is then that of an unbounded packing). Where the bracket is negative the
    theorem says nothing and the bound is 0 (never a negative probability)."""
    n_ = _binomial_size("n", n)
    p_ = v.probability("p", p)
    a_ = v.positive("alpha", alpha)
    d_ = v.real("delta", delta, low=0.0, high=1.0, high_open=True)
    card = v.real("card_V", card_V, low=1.0, finite=False)
    if (np.isfinite(card) & (card != np.round(card))).any():
        raise ValueError(f"card_V must be whole numbers >= 1 or inf (a packing's size), got {card[card != np.round(card)].flat[0]:g}")
    log_v = np.log(card)
    if isinstance(k, str):
        if k == "median":
            bound = _theorem3_bracket(np.ceil(n_ * p_), n_, p_, a_, d_, log_v)
        elif k == "best":
            bound = _theorem3_best(n_, p_, a_, d_, log_v)
        else:
            raise ValueError(f"k must be an integer, 'median' or 'best', got {k!r}")
    else:
        kk = v.real("k", k, low=0.0)
        if (kk != np.round(kk)).any():
            raise ValueError("k must be a whole number, 'median' or 'best'")
        bound = _theorem3_bracket(kk, n_, p_, a_, d_, log_v)
    # a lower bound on a probability: where the bracket is negative it says nothing, 0
    return np.maximum(bound, 0.0)


def lower_bound_dp_mean(n: ArrayLike, d: ArrayLike, alpha: ArrayLike, delta: float = 0.0, r: float = 1.0,
                        k: float = np.inf, n_grid: int = 25) -> NDArray[np.float64]:
    """Proposition 4, explicit constant derived here: mean estimation over ``E||X||^k <= r^k`` in
    ``d`` dimensions under (alpha, delta)-DP has minimax squared error at least
    ``max over p of r^2 p^a / 16 * [Theorem 3 bracket with |V| = 2^d]_+`` with ``a = 2(k-1)/k``
    (mixtures ``(1-p) delta_0 + p delta_{r p^{-1/k} v}``, ``v`` in a 1/2-packing of the unit ball,
    whose separation is at least ``r p^{(k-1)/k} / 2``). The maximum over ``log p`` in
    ``[log(10^-4/n), 0]`` is taken on a grid of ``n_grid`` points refined three times."""
    n_ = _binomial_size("n", n)
    d_ = _whole("d", d)   # |V| = 2^d: a packing in d dimensions
    a_ = v.positive("alpha", alpha)
    dl = v.scalar("delta", delta, low=0.0, high=1.0, high_open=True)
    a = float(_k_exponent(k))
    r_ = v.scalar("r", r, low=0.0, low_open=True, high=MAX_SCALE)
    n_grid = v.integer("n_grid", n_grid, low=3, high=10_000)
    n_, d_, a_ = np.broadcast_arrays(n_, d_, a_)
    v.size_limit("n, d and alpha", n_.size * n_grid, 25_000, "bound evaluations (broadcast values x n_grid)")

    def value(log_p: NDArray[np.float64]) -> NDArray[np.float64]:
        p = np.exp(log_p)
        err = _theorem3_best(n_[..., None], p, a_[..., None], dl, d_[..., None] * np.log(2.0))
        return r_ ** 2 * p ** a / 16.0 * np.clip(err, 0.0, None)

    return _maximise_on_grid(value, np.log(1e-4 / n_), np.zeros(n_.shape), n_grid)


# ---------------------------------------------------------------------------------------------
# Upper bounds: the truncated, noisy mean (Section 4)
# ---------------------------------------------------------------------------------------------

MECHANISMS = ("none", "kl", "gauss", "laplace")
"""Noise laws of estimator (20): none; Gaussian calibrated to alpha-KL privacy (i); Gaussian
calibrated to (alpha, delta)-DP (ii, classical calibration, alpha <= 1); i.i.d. Laplace
coordinates, alpha-DP and alpha-smooth-DP (iii)."""


def _mechanism(mechanism: str) -> str:
    if mechanism not in MECHANISMS:
        raise ValueError(f"mechanism must be one of {MECHANISMS}, got {mechanism!r}")
    return mechanism


def noise_coefficient(mechanism: str, n: ArrayLike, d: ArrayLike, alpha: ArrayLike,
                      delta: float | None = None) -> NDArray[np.float64]:
    """``c_W`` with ``E||W||^2 = c_W T^2`` for estimator (20) at truncation level ``T``
    (sensitivity ``2T/n`` in l2, ``2T sqrt(d)/n`` in l1): ``2d/(n^2 alpha)`` (KL),
    ``8 d log(1.25/delta)/(n^2 alpha^2)`` (Gaussian, alpha <= 1), ``8 d^2/(n^2 alpha^2)`` (Laplace).
    ``ValueError`` where ``c_W`` exceeds the largest double (1.8e308; e.g. Laplace noise at
    ``n alpha / d`` below about 2e-154).
    ``n`` and ``d``: real >= 1 (the coefficient is a function of a real sample size and dimension)."""
    mech = _mechanism(mechanism)
    n_ = v.real("n", n, low=1.0)
    d_ = v.real("d", d, low=1.0)
    a_ = v.positive("alpha", alpha)
    if mech == "none":
        return np.zeros(np.broadcast_shapes(n_.shape, d_.shape, a_.shape))
    if mech == "gauss":
        if delta is None:
            raise ValueError("delta must be given for the Gaussian (alpha, delta)-DP mechanism")
        dl = v.scalar("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True)
        v.real("alpha", a_, low=0.0, high=1.0, low_open=True)
    # where a square over- or underflows (huge n or d, tiny alpha), the ratios are taken first
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        if mech == "kl":
            c = 2.0 * d_ / (n_ ** 2 * a_)
            stable = 2.0 * (d_ / n_) / (n_ * a_)
        elif mech == "laplace":
            c = 8.0 * d_ ** 2 / (n_ ** 2 * a_ ** 2)
            stable = 8.0 * (d_ / n_ / a_) ** 2
        else:
            c = 8.0 * d_ * np.log(1.25 / dl) / (n_ ** 2 * a_ ** 2)
            stable = 8.0 * np.log(1.25 / dl) * (d_ / n_) / n_ / a_ ** 2
        c = np.where(np.isfinite(c) & (c > 0), c, stable)
    return v.representable("n, d and alpha", c, "c_W", too="extreme")


def optimal_truncation(r: float, k: ArrayLike, c_W: ArrayLike) -> NDArray[np.float64]:
    """Minimiser ``T = r ((k-1)/c_W)^{1/(2k)}`` of bound (31) (``r`` for ``k = inf``; ``inf``, no
    truncation, for ``c_W = 0``: without noise the bound decreases in T)."""
    r_ = v.scalar("r", r, low=0.0, low_open=True, high=MAX_SCALE)
    k_ = v.real("k", k, low=2.0, finite=False)
    c = v.nonnegative("c_W", c_W)
    with np.errstate(divide="ignore"):
        t = r_ * ((k_ - 1.0) / c) ** (1.0 / (2.0 * k_))
    return np.where(np.isinf(k_), r_, t)


def project_l2_ball(X: ArrayLike, T: float) -> NDArray[np.float64]:
    """Euclidean projection of the rows of ``X`` (last axis: coordinates) onto the ball of
    radius ``T``."""
    x = v.real("X", X)
    if x.ndim == 0:
        raise ValueError("X must have at least one axis (the coordinates)")
    t = v.scalar("T", T, low=0.0, low_open=True, high=MAX_SCALE)
    norm = np.linalg.norm(x, axis=-1, keepdims=True)
    return x * (t / np.where(norm > t, norm, t))


def _sample_noise(mechanism: str, T: float, n: int, d: int, alpha: float, delta: float | None, size: tuple[int, ...],
                  gen: np.random.Generator) -> NDArray[np.float64]:
    """Noise ``W`` of estimator (20) with ``E||W||^2 = c_W T^2`` (:func:`noise_coefficient`)."""
    c = float(noise_coefficient(mechanism, n, d, alpha, delta))
    if mechanism == "laplace":
        return gen.laplace(0.0, T * np.sqrt(c / (2 * d)), size)
    return gen.normal(0.0, T * np.sqrt(c / d), size)  # zeros for "none" (c = 0)


def private_mean(X: ArrayLike, mechanism: str, alpha: float, T: float, delta: float | None = None,
                 rng: np.random.Generator | int | None = None) -> NDArray[np.float64]:
    """Estimator (20): the mean of the projections onto the ball of radius ``T`` plus noise of
    the chosen ``mechanism``. ``X`` has shape ``(n, d)`` or ``(reps, n, d)``."""
    x = v.real("X", X)
    if x.ndim not in (2, 3) or 0 in x.shape:
        raise ValueError(f"X must have shape (n, d) or (reps, n, d) with no empty axis, got {x.shape}")
    n, d = x.shape[-2:]
    t = v.scalar("T", T, low=0.0, low_open=True, high=MAX_SCALE)
    v.scalar("alpha", alpha, low=0.0, low_open=True)
    mean = project_l2_ball(x, t).mean(axis=-2)
    if _mechanism(mechanism) == "none":
        return mean
    return mean + _sample_noise(mechanism, t, n, d, alpha, delta, mean.shape, v.rng("rng", rng))


def risk_bound_31(r: float, k: ArrayLike, n: ArrayLike, T: ArrayLike, c_W: ArrayLike) -> NDArray[np.float64]:
    """Bound (31) on the squared error of estimator (20) over ``E||X||^k <= r^k``, ``k >= 2``:
    ``r^{2k} / T^{2(k-1)} + r^2/n + c_W T^2`` (Lemmas 3 and 4); ``inf`` for ``k = inf`` and
    ``T < r``. ``ValueError`` where a finite bound exceeds the largest double (1.8e308: T far
    below r, or ``c_W T^2`` beyond it).
    ``n``: real >= 1 (the bound is a function of a real sample size)."""
    r_ = v.scalar("r", r, low=0.0, low_open=True, high=MAX_SCALE)
    k_ = v.real("k", k, low=2.0, finite=False)
    n_ = v.real("n", n, low=1.0)
    t = v.real("T", T, low=0.0, low_open=True, high=MAX_SCALE)
    c = v.nonnegative("c_W", c_W)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        bias2 = np.where(np.isinf(k_), np.where(t >= r_, 0.0, np.inf), r_ ** 2 * (r_ / t) ** (2 * (k_ - 1)))
        bound = bias2 + r_ ** 2 / n_ + c * t ** 2
    v.representable("T and c_W", np.where(np.isinf(k_) & (t < r_), 0.0, bound), "the bound", too="extreme")
    return bound


def two_point_risk(p: ArrayLike, r: float, k: ArrayLike, n: ArrayLike, T: ArrayLike, c_W: ArrayLike) -> NDArray[np.float64]:
    """Exact squared error of estimator (20) on ``X ~ (1-p) delta_0 + p delta_{u e_1}`` with
    ``u = r p^{-1/k}`` (k-th moment exactly ``r^k``): with ``c = min(u, T)``,
    ``p^2 (c - u)^2 + c^2 p (1-p)/n + c_W T^2`` (finite ``k >= 2``; broadcasts).
    ``n``: real >= 1 (the risk is a function of a real sample size). ``ValueError`` where the
    risk exceeds the largest double (``c_W T^2`` beyond 1.8e308)."""
    p_ = v.real("p", p, low=0.0, high=1.0, low_open=True)
    r_ = v.scalar("r", r, low=0.0, low_open=True, high=MAX_SCALE)
    k_ = v.real("k", k, low=2.0)
    n_ = v.real("n", n, low=1.0)
    t = v.real("T", T, low=0.0, low_open=True, high=MAX_SCALE)
    c = v.nonnegative("c_W", c_W)
    with np.errstate(over="ignore"):
        risk = _two_point_error(p_, r_, k_, n_, t) + c * t ** 2
    return v.representable("c_W", risk, "the risk c_W T^2")


def _two_point_error(p, r, k, n, T):
    """Squared bias plus sampling variance of the truncated mean on the two-point law
    (:func:`two_point_risk` without the noise; ``T = inf`` means no truncation)."""
    u = r * p ** (-1.0 / k)
    cu = np.minimum(u, T)
    return (p * (cu - u)) ** 2 + cu ** 2 * p * (1.0 - p) / n


def worst_two_point_risk(r: float, k: float, n: ArrayLike, d: ArrayLike, alpha: ArrayLike, mechanism: str,
                         delta: float | None = None, n_grid: int = 3000) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``sup over p`` of :func:`two_point_risk` at the truncation level minimising (31), for
    every ``(n, d, alpha)`` of the broadcast inputs in one evaluation (``n_grid`` log-spaced
    values of ``p`` in [1e-12, 1]). Returns ``(risk, argmax p)``. For ``k = inf`` the least
    favourable law is ``+-r e_1`` with probability 1/2 and the risk is ``r^2/n + c_W r^2``.
    ``n_grid`` is at most 10^6, and the broadcast inputs times ``n_grid`` at most 10^7.
    ``n`` and ``d``: real >= 1 (the risk is a function of a real sample size and dimension)."""
    r_ = v.scalar("r", r, low=0.0, low_open=True, high=MAX_SCALE)
    k_ = v.scalar("k", k, low=2.0, finite=False)
    c = noise_coefficient(mechanism, n, d, alpha, delta)
    n_ = np.broadcast_to(v.real("n", n, low=1.0), c.shape)
    if np.isinf(k_):
        return r_ ** 2 / n_ + c * r_ ** 2, np.full(c.shape, 0.5)
    if mechanism == "none":
        t = np.full(c.shape, np.inf)
    else:
        t = optimal_truncation(r_, k_, c)
    n_grid = v.integer("n_grid", n_grid, low=2, high=10**6)
    v.size_limit("n_grid", c.size * n_grid, 10**7, "risk evaluations (broadcast values x n_grid)")
    p = np.geomspace(1e-12, 1.0, n_grid)
    risk = _two_point_error(p, r_, k_, n_[..., None], t[..., None])
    i = np.argmax(risk, axis=-1)
    best = np.take_along_axis(risk, i[..., None], axis=-1)[..., 0]
    return best + c * np.where(np.isinf(t), 0.0, t) ** 2, p[i]


def simulate_two_point_risk(p: float, r: float, k: float, n: int, d: int, alpha: float, mechanism: str,
                            T: float, delta: float | None = None, reps: int = 2000,
                            rng: np.random.Generator | int | None = None) -> tuple[float, float]:
    """Monte Carlo squared error of estimator (20) on the two-point law of
    :func:`two_point_risk` (``k = inf``: ``+-r e_1``), through the sufficient statistic
    ``B ~ Bin(n, p)`` and the noise; returns ``(mean, standard error)``. ``n`` is at most 10^18
    (numpy's binomial sampler takes 64-bit counts)."""
    n = v.integer("n", n, low=1, high=10**18)
    d = v.integer("d", d, low=1)
    reps = v.integer("reps", reps, low=2)
    r_ = v.scalar("r", r, low=0.0, low_open=True, high=MAX_SCALE)
    t = v.scalar("T", T, low=0.0, low_open=True, high=MAX_SCALE)
    k = v.scalar("k", k, low=2.0, finite=False)
    v.scalar("alpha", alpha, low=0.0, low_open=True)
    _mechanism(mechanism)
    v.size_limit("reps * d", float(reps) * d, 1e8)
    gen = v.rng("rng", rng)
    if np.isinf(k):
        b = gen.binomial(n, 0.5, reps)
        mean_err = min(r_, t) * (2.0 * b / n - 1.0)
    else:
        p_ = v.scalar("p", p, low=0.0, high=1.0, low_open=True)
        u = r_ * p_ ** (-1.0 / k)
        mean_err = min(u, t) * gen.binomial(n, p_, reps) / n - p_ * u
    w = _sample_noise(mechanism, t, n, d, alpha, delta, (reps, d), gen)
    w[:, 0] += mean_err
    loss = (w ** 2).sum(axis=1)
    return float(loss.mean()), float(loss.std(ddof=1) / np.sqrt(reps))


# ---------------------------------------------------------------------------------------------
# Table 1
# ---------------------------------------------------------------------------------------------

PRIVACY_TYPES = ("none", "dp", "smooth_dp", "approx_dp", "tv", "kl")


def minimax_rate(privacy: str, n: ArrayLike, d: ArrayLike = 1, alpha: ArrayLike = 1.0, delta: float = 0.0,
                 r: float = 1.0, k: float = np.inf) -> NDArray[np.float64]:
    """Table 1 of Barber & Duchi as a function with every constant set to 1: the lower-bound
    rate ``r^2/n + r^2 min(1, (m / (n alpha))^{2(k-1)/k})`` with ``m = d`` (DP, smooth DP),
    ``min(d, log(1/delta))`` (approximate DP), 1 (TV); KL privacy alpha is read as TV level
    ``sqrt(alpha/2)`` (Pinsker).
    ``n`` and ``d``: real >= 1 (the rate is a function of a real sample size and dimension)."""
    if privacy not in PRIVACY_TYPES:
        raise ValueError(f"privacy must be one of {PRIVACY_TYPES}, got {privacy!r}")
    n_ = v.real("n", n, low=1.0)
    d_ = v.real("d", d, low=1.0)
    a_ = v.positive("alpha", alpha)
    r_ = v.scalar("r", r, low=0.0, low_open=True, high=MAX_SCALE)
    a = float(_k_exponent(k))
    base = r_ ** 2 / n_
    if privacy == "none":
        return np.broadcast_to(base, np.broadcast_shapes(n_.shape, d_.shape, a_.shape)).copy()
    if privacy in ("dp", "smooth_dp"):
        m = d_
    elif privacy == "approx_dp":
        dl = v.scalar("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True)
        m = np.minimum(d_, np.log(1.0 / dl))
    else:
        m = np.ones_like(d_)
        if privacy == "kl":
            a_ = np.sqrt(a_ / 2.0)
    return base + r_ ** 2 * np.minimum(1.0, (m / (n_ * a_)) ** a)


def rate_exponents(k: float) -> dict[str, dict[str, float]]:
    """Exponents of ``n``, ``d`` and ``alpha`` in the privacy term of the upper bounds of
    Table 1 / Proposition 6 (the rates the Section 4 estimators attain)."""
    a = float(_k_exponent(v.scalar("k", k, low=1.0, low_open=True, finite=False)))
    return {
        "dp": {"n": -a, "d": a, "alpha": -a},
        "approx_dp": {"n": -a, "d": a / 2, "alpha": -a},
        "kl": {"n": -a, "d": a / 2, "alpha": -a / 2},
    }


SLOPE_GRIDS: dict[str, dict[str, dict[str, object]]] = {
    # variable -> grid and the other parameters, for DP / approximate DP and for KL privacy
    "private": {
        "n": {"n": np.logspace(2, 9, 29), "d": 100, "alpha": 0.1},
        "d": {"n": 1e4, "d": 2.0 ** np.arange(11), "alpha": 0.2},
        "alpha": {"n": 1e4, "d": 10, "alpha": np.logspace(-3, 0, 40)},
    },
    "kl": {
        "n": {"n": np.logspace(2, 9, 29), "d": 100, "alpha": 1e-3},
        "d": {"n": 100, "d": 2.0 ** np.arange(11), "alpha": 1e-2},
        "alpha": {"n": 100, "d": 10, "alpha": np.logspace(-3, 0, 40)},
    },
}
"""Parameter grids of the Table 1 slope fits (KL privacy is far cheaper, so its grids are
chosen where the privacy term dominates)."""

_PRIVACY_OF = {"laplace": "dp", "gauss": "approx_dp", "kl": "kl"}


def _excess_slope(x: NDArray[np.float64], risk: NDArray[np.float64], base: NDArray[np.float64]) -> tuple[float | None, int]:
    """Least-squares slope of ``log(risk - base)`` on ``log x`` over the points where the excess
    is at least ``10 base`` (None, no slope, with fewer than 4 such points)."""
    excess = risk - base
    ok = excess >= 10.0 * base
    if ok.sum() < 4:
        return None, int(ok.sum())
    return float(np.polyfit(np.log(x[ok]), np.log(excess[ok]), 1)[0]), int(ok.sum())


def table1_slopes(k: float, r: float = 1.0, delta: float = 1e-6, reps: int = 0,
                  rng: np.random.Generator | int | None = None) -> list[dict[str, object]]:
    """Table 1 as rates: for each mechanism of Proposition 6 and each of ``n``, ``d``, ``alpha``,
    the slope of the privacy excess ``log(sup_p R - r^2/n)`` against the log of the variable on
    :data:`SLOPE_GRIDS`, next to the exponent of Table 1 (:func:`rate_exponents`). With
    ``reps > 0`` the slope is also fitted to Monte Carlo risks of the estimator
    (:func:`simulate_two_point_risk` at the least favourable ``p`` of each grid point). A slope
    is None (not NaN) where fewer than 4 grid points have an excess of at least 10 times
    ``r^2/n`` (e.g. ``delta`` near 1: the Gaussian mechanism then adds almost no noise); ``points``
    says how many were used."""
    gen = v.rng("rng", rng)
    theory = rate_exponents(k)
    rows = []
    for mech in ("laplace", "gauss", "kl"):
        grids = SLOPE_GRIDS["kl" if mech == "kl" else "private"]
        dl = delta if mech == "gauss" else None
        for var, grid in grids.items():
            n, d, alpha = (np.asarray(grid[key], float) for key in ("n", "d", "alpha"))
            risk, p_star = worst_two_point_risk(r, k, n, d, alpha, mech, dl)
            x = np.broadcast_to(np.asarray(grid[var], float), risk.shape)
            base = np.broadcast_to(r ** 2 / n, risk.shape)
            slope, used = _excess_slope(x, risk, base)
            row = {"mechanism": mech, "privacy": _PRIVACY_OF[mech], "variable": var,
                   "theory": theory[_PRIVACY_OF[mech]][var], "exact": slope, "points": used}
            if reps:
                nn, dd, aa = np.broadcast_arrays(n, d, alpha)
                t_opt = np.broadcast_to(optimal_truncation(r, k, noise_coefficient(mech, n, d, alpha, dl)), risk.shape)
                mc = np.array([simulate_two_point_risk(p_star[i], r, k, int(nn[i]), int(dd[i]), float(aa[i]), mech,
                                                       float(t_opt[i]), dl, reps, gen)[0] for i in range(x.size)])
                row["monte_carlo"] = _excess_slope(x, mc, base)[0]
            rows.append(row)
    return rows


#: Grids on which :func:`table1_lower_slopes` measures Table 1's lower-bound exponents, in the
#: regime where they are asymptotic (``n alpha >> d``; for approximate DP ``d >> log(1/delta)``,
#: where ``min(d, log(1/delta))`` no longer grows with ``d``)
LOWER_SLOPE_GRIDS: dict[str, dict[str, dict[str, object]]] = {
    "dp": {"n": {"n": np.logspace(6, 12, 7), "d": 10, "alpha": 0.5},
           "d": {"n": 1e12, "d": 2.0 ** np.arange(10, 15), "alpha": 0.5},
           "alpha": {"n": 1e12, "d": 10, "alpha": np.logspace(-5, -3, 5)}},
    "approx_dp": {"n": {"n": np.logspace(6, 12, 7), "d": 10, "alpha": 0.5},
                  "d": {"n": 1e12, "d": 2.0 ** np.arange(6, 11), "alpha": 0.5}},
    "tv": {"n": {"n": np.logspace(6, 12, 7), "d": 1, "alpha": 0.5},
           "alpha": {"n": 1e12, "d": 1, "alpha": np.logspace(-5, -3, 5)}},
    "none": {"n": {"n": np.logspace(2, 9, 8), "d": 1, "alpha": 1.0}},
}


def lower_bound(privacy: str, n: ArrayLike, d: ArrayLike = 1, alpha: ArrayLike = 1.0, delta: float = 1e-30,
                r: float = 1.0, k: float = np.inf) -> NDArray[np.float64]:
    """The explicit lower bound behind one entry of Table 1's lower-bound column: the larger of
    the non-private term (:func:`lower_bound_nonprivate_mean`) and the privacy term, which is
    :func:`lower_bound_dp_mean` (``"dp"`` with delta = 0, ``"approx_dp"`` with ``delta``) or
    :func:`lower_bound_tv_mean` (``"tv"``); ``"none"`` is the non-private term alone."""
    if privacy not in ("none", "dp", "approx_dp", "tv"):
        raise ValueError(f"privacy must be one of ('none', 'dp', 'approx_dp', 'tv'), got {privacy!r}")
    n_ = _whole("n", n)
    base = lower_bound_nonprivate_mean(n_, r)
    if privacy == "none":
        return np.broadcast_to(base, np.broadcast_shapes(n_.shape, np.shape(d), np.shape(alpha))).copy()
    if privacy == "tv":
        term = lower_bound_tv_mean(n_, alpha, r, k) + 0.0 * _whole("d", d)
    else:
        dl = 0.0 if privacy == "dp" else v.scalar("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True)
        term = lower_bound_dp_mean(n_, d, alpha, dl, r, k)
    return np.maximum(base, term)


def table1_lower_slopes(k: float, r: float = 1.0, delta: float = 1e-6) -> list[dict[str, object]]:
    """Table 1's lower-bound column measured: for each privacy notion and each of ``n``, ``d``,
    ``alpha``, the least-squares slope of ``log`` of the explicit lower bound
    (:func:`lower_bound`; the privacy term alone for the private rows) against the log of the
    variable on :data:`LOWER_SLOPE_GRIDS`, next to Table 1's exponent (for approximate DP the
    ``d``-exponent is 0: the grid has ``d > log(1/delta)``). The bounds come from maximising
    Theorem 3's or Le Cam's bound over the mixture weight ``p``, so the exponents are measured,
    not read off a formula."""
    a = float(_k_exponent(k))
    delta = v.scalar("delta", delta, low=np.exp(-64.0), high=1.0, high_open=True)  # log(1/delta) < min d
    theory = {"dp": {"n": -a, "d": a, "alpha": -a}, "approx_dp": {"n": -a, "d": 0.0},
              "tv": {"n": -a, "alpha": -a}, "none": {"n": -1.0}}
    r = v.scalar("r", r, low=0.0, low_open=True, high=MAX_SCALE)
    rows = []
    for privacy, grids in LOWER_SLOPE_GRIDS.items():
        for var, grid in grids.items():
            n, d, alpha = (np.asarray(grid[key], float) for key in ("n", "d", "alpha"))
            if privacy == "none":
                bound = lower_bound_nonprivate_mean(n, r)
            elif privacy == "tv":
                bound = np.broadcast_to(lower_bound_tv_mean(n, alpha, r, k), np.broadcast_shapes(n.shape, alpha.shape))
            else:
                bound = lower_bound_dp_mean(n, d, alpha, 0.0 if privacy == "dp" else delta, r, k)
            x = np.broadcast_to(np.asarray(grid[var], float), bound.shape)
            slope = float(np.polyfit(np.log(x), np.log(bound), 1)[0])
            rows.append({"privacy": privacy, "variable": var, "theory": theory[privacy][var], "measured": slope,
                         "points": int(x.size)})
    return rows


# ---------------------------------------------------------------------------------------------
# Density estimation (Proposition 5)
# ---------------------------------------------------------------------------------------------

def private_histogram(X: ArrayLike, m: int, alpha: float, rng: np.random.Generator | int | None = None) -> NDArray[np.float64]:
    """The alpha-DP histogram density estimate on ``[0, 1]^d`` with ``m`` bins per axis
    (Wasserman & Zhou; Proposition 5): bin proportions plus i.i.d. Laplace noise of scale
    ``2/(n alpha)`` (l1-sensitivity 2/n under replacement), divided by the bin volume.
    ``alpha = inf`` gives the non-private histogram. Returns an array of shape ``(m,) * d``."""
    x = v.real("X", X, low=0.0, high=1.0)
    if x.ndim != 2:
        raise ValueError(f"X must have shape (n, d), got {x.shape}")
    m = v.integer("m", m, low=1)
    a = v.scalar("alpha", alpha, low=0.0, low_open=True, finite=False)
    n, d = x.shape
    if m ** d > MAX_ROWS:
        raise ValueError(f"m**d must be at most {MAX_ROWS} bins, got {m}**{d}")
    idx = np.minimum((x * m).astype(np.int64), m - 1)
    counts = np.bincount(np.ravel_multi_index(idx.T, (m,) * d), minlength=m ** d).reshape((m,) * d)
    props = counts / n
    if np.isfinite(a):
        props = props + v.rng("rng", rng).laplace(0.0, 2.0 / (n * a), props.shape)
    return props * float(m) ** d


def histogram_risk_exact(cdf: Callable[[NDArray[np.float64]], NDArray[np.float64]], int_g2: float, n: ArrayLike,
                         m: ArrayLike, alpha: float, d: int = 1) -> NDArray[np.float64]:
    """Exact mean integrated squared error (19) of :func:`private_histogram` for the product
    density ``f(x) = prod_j g(x_j)`` on ``[0, 1]^d``, given the CDF of ``g`` and ``int g^2``:
    ``(int g^2)^d - m^d S^d + (1 - S^d) m^d / n + 8 m^{2d} / (n alpha)^2`` with
    ``S = sum of squared bin masses of g`` (bias, sampling variance, Laplace noise); vectorised
    over ``m`` and ``n``. ``ValueError`` for ``m`` beyond 10^7 bins per axis or 10^9 CDF
    evaluations in all (the sum of ``m + 1`` over the values of ``m``), and where the risk
    exceeds the largest double (1.8e308: the noise term at tiny ``n alpha``).
    ``n``: real >= 1 (the risk is a function of a real sample size)."""
    n_ = v.real("n", n, low=1.0)
    m_ = _whole("m", m)
    a = v.scalar("alpha", alpha, low=0.0, low_open=True, finite=False)
    d = v.integer("d", d, low=1)
    A = v.scalar("int_g2", int_g2, low=0.0, low_open=True)
    flat = m_.ravel()
    if flat.size:
        v.size_limit("m", int(flat.max()), 10**7, "bins per axis")
        v.size_limit("m", int(flat.sum()) + flat.size, 10**9, "CDF evaluations (the sum of m + 1)")
    S = np.array([np.sum(np.diff(cdf(np.linspace(0.0, 1.0, int(mi) + 1))) ** 2) for mi in flat]).reshape(m_.shape)
    bias1 = np.clip(A - m_ * S, 0.0, None)  # one-dimensional bias, >= 0 by Cauchy-Schwarz
    bias = -A ** d * np.expm1(d * np.log1p(-bias1 / A))
    variance = (1.0 - S ** d) * m_ ** d / n_
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        noise = 0.0 if np.isinf(a) else 8.0 * m_ ** (2 * d) / (n_ * a) ** 2
        risk = bias + variance + noise
    return v.representable("m, n, d and alpha", np.where(np.isnan(risk), np.inf, risk), "the risk", too="extreme")


def bump_packing_density(x: ArrayLike, signs: ArrayLike, width: float) -> NDArray[np.float64]:
    """A member ``f_v = 1 + sum_j v_j psi_j`` of the packing behind Proposition 5's lower
    bound (d = 1, constants ours): ``psi_j`` is an antisymmetric tent of width ``width`` and
    height ``width/4`` on the j-th cell, so ``f_v`` is 1-Lipschitz, integrates to 1 and is
    ``(1 - width) 1 + width g_v`` with ``g_v >= 3/4`` a density (only the mixture must be in the
    class)."""
    xx = v.real("x", x, low=0.0, high=1.0)
    s = v.real("signs", signs, low=-1.0, high=1.0)
    w = v.scalar("width", width, low=0.0, high=1.0, low_open=True)
    if s.ndim != 1 or s.size != int(np.floor(1.0 / w)):
        raise ValueError(f"signs must have floor(1/width) = {int(np.floor(1.0 / w))} entries, got {s.size}")
    cell = np.floor(xx / w).astype(np.int64)
    t = xx / w - cell
    tent = np.where(t < 0.25, t, np.where(t < 0.75, 0.5 - t, t - 1.0))
    inside = cell < s.size
    return 1.0 + np.where(inside, s[np.minimum(cell, s.size - 1)] * w * tent, 0.0)


def hamming_packing(m: int, min_distance: int) -> NDArray[np.float64]:
    """Sign vectors ``v`` in ``{-1, +1}^m`` with pairwise Hamming distance at least
    ``min_distance``: the index set of Proposition 5's packing (30) (bump signs of
    :func:`bump_packing_density`), built greedily in lexicographic order (the *lexicode*). Greedy
    codes have at least ``2^m / sum_{i < min_distance} C(m, i)`` words (Gilbert-Varshamov), so
    ``min_distance = m/8`` gives ``|V| >= e^{c_0 m}``. Rows are words, ``m <= 20``."""
    m = v.integer("m", m, low=1, high=20)
    D = v.integer("min_distance", min_distance, low=1, high=m)
    words = np.arange(2 ** m, dtype=np.int64)
    weight = np.zeros(2 ** m, dtype=np.int64)
    for bit in range(m):
        weight += (words >> bit) & 1
    near = words[weight < D]             # XOR offsets of the words closer than min_distance
    available = np.ones(2 ** m, dtype=bool)
    code, w = [], 0
    while True:                          # O(2^m + |code| |near|): each word is passed once
        w += int(np.argmax(available[w:]))
        if not available[w]:
            break
        code.append(w)
        available[w ^ near] = False
    bits = (np.array(code)[:, None] >> np.arange(m - 1, -1, -1)[None, :]) & 1
    return 2.0 * bits - 1.0


def histogram_optimal_bins(cdf: Callable[[NDArray[np.float64]], NDArray[np.float64]], int_g2: float, n: float,
                           alpha: float, d: int = 1, m_max: int = 20_000) -> tuple[int, float]:
    """The number of bins per axis in ``1..min(m_max, 3 n^{1/d})`` minimising
    :func:`histogram_risk_exact`, and the minimal risk: 40 log-spaced candidates, then finer
    candidates between the neighbours of the best one until they are consecutive integers (exact
    when the risk is unimodal in the number of bins, as bias, variance and noise make it).
    ``m_max`` is at most 10^5."""
    n_ = v.scalar("n", n, low=1.0)
    d = v.integer("d", d, low=1)
    top = max(1, int(min(float(v.integer("m_max", m_max, low=1, high=10**5)), 3 * n_ ** (1.0 / d))))
    cand = np.unique(np.round(np.geomspace(1, top, 40)))
    while True:
        risk = histogram_risk_exact(cdf, int_g2, n_, cand, alpha, d)
        i = int(np.argmin(risk))
        left, right = cand[max(i - 1, 0)], cand[min(i + 1, cand.size - 1)]
        if right - left <= 2:
            return int(cand[i]), float(risk[i])
        cand = np.unique(np.round(np.linspace(left, right, 41)))


# ---------------------------------------------------------------------------------------------
# Support estimation (Proposition 3; estimators ours)
# ---------------------------------------------------------------------------------------------

#: half-width of the exponential mechanism's window of ranks, times alpha (weights beyond it are
#: below e^{-window/2} of the peak's; see :func:`support_dp_expmech`)
_EXPMECH_WINDOW = 60.0


def _support_params(X: ArrayLike, alpha: float, lo: float, hi: float):
    """Validated ``(alpha, lo, hi, X, n, k)`` of the exponential mechanism, with the target rank
    ``k = min(n, ceil(4 log n / alpha))``."""
    a = v.scalar("alpha", alpha, low=0.0, low_open=True)
    lo_, hi_ = v.scalar("lo", lo), v.scalar("hi", hi)
    if not lo_ < hi_:
        raise ValueError(f"lo must be below hi, got lo = {lo_:g}, hi = {hi_:g}")
    x = v.real("X", X, low=lo_, high=hi_)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"X must be a non-empty 1-D sample, got shape {x.shape}")
    n = x.size
    k = min(n, int(np.ceil(4.0 * np.log(max(n, 2)) / a)))
    return a, lo_, hi_, x, n, k


def _support_setup(X: ArrayLike, alpha: float, lo: float, hi: float):
    a, lo_, hi_, x, n, k = _support_params(X, alpha, lo, hi)
    edges = np.concatenate([[lo_], np.sort(x), [hi_]])
    # on the j-th interval between order statistics, j records lie below t
    with np.errstate(divide="ignore"):  # an empty interval (tied records) gets weight 0
        log_w = np.log(np.diff(edges)) - 0.5 * a * np.abs(np.arange(n + 1) - k)
    return edges, log_w, k, n, a


def support_expmech_log_density(t: ArrayLike, X: ArrayLike, alpha: float, lo: float = 0.0, hi: float = 2.0) -> NDArray[np.float64]:
    """Log density on ``[lo, hi]`` of the alpha-DP exponential mechanism behind
    :func:`support_dp_expmech`: ``t`` has density proportional to
    ``exp(-alpha/2 |#{i: X_i < t} - k|)`` with ``k = min(n, ceil(4 log n / alpha))``
    (utility of sensitivity 1 under replacement)."""
    edges, log_w, k, n, a = _support_setup(X, alpha, lo, hi)
    tt = v.real("t", t, low=edges[0], high=edges[-1])
    log_norm = special.logsumexp(log_w)
    rank = np.searchsorted(edges[1:-1], tt, side="left")
    return -0.5 * a * np.abs(rank - k) - log_norm


def support_dp_expmech(X: ArrayLike, alpha: float, lo: float = 0.0, hi: float = 2.0,
                       rng: np.random.Generator | int | None = None) -> float:
    """An alpha-DP estimate of the lower support end of a uniform law from a sample in
    ``[lo, hi]`` (ours, attaining Proposition 3's rate up to a log factor): draw ``t`` from
    :func:`support_expmech_log_density` and return ``t - k/(n + 1)``.

    The draw is exact and costs O(n) instead of a sort: the weights of the intervals between
    order statistics decay like ``exp(-alpha/2 |rank - k|)``, so only the ``60/alpha`` ranks on
    either side of ``k`` are selected (``np.partition``) and sorted; the intervals beyond them are
    proposed with an upper bound on their total weight (at most ``e^{-30}`` of the window's) and,
    in the rare event one is proposed, drawn exactly from the full sort and accepted with
    probability true weight / bound (rejection sampling)."""
    a, lo_, hi_, x, n, k = _support_params(X, alpha, lo, hi)
    gen = v.rng("rng", rng)
    half = int(np.ceil(_EXPMECH_WINDOW / a))
    jlo, jhi = max(0, k - half), min(n, k + half)  # intervals j = jlo..jhi are in the window
    first, last = max(jlo - 1, 0), min(jhi, n - 1)  # 0-based ranks of the order statistics needed
    part = np.partition(x, [first, last]) if (jlo > 0 or jhi < n) else x
    edges = np.concatenate([[lo_] if jlo == 0 else [], np.sort(part[first:last + 1]), [hi_] if jhi == n else []])
    j = np.arange(jlo, jhi + 1)
    with np.errstate(divide="ignore"):  # an empty interval (tied records) gets weight 0
        log_w = np.log(np.diff(edges)) - 0.5 * a * np.abs(j - k)
        log_low = np.log(edges[0] - lo_) - 0.5 * a * (k - jlo + 1) if jlo > 0 else -np.inf
        log_high = np.log(hi_ - edges[-1]) - 0.5 * a * (jhi + 1 - k) if jhi < n else -np.inf
    proposal = np.concatenate([log_w, [log_low, log_high]])
    cum = np.cumsum(np.exp(proposal - proposal.max()))
    full = None
    while True:
        i = int(np.searchsorted(cum, gen.uniform(0.0, cum[-1]), side="right"))
        i = min(i, cum.size - 1)
        if i < log_w.size:
            return float(gen.uniform(edges[i], edges[i + 1]) - k / (n + 1))
        if full is None:  # probability below e^-30: the exact weights of every interval
            full_edges, full_log_w, *_ = _support_setup(x, a, lo_, hi_)
            full = full_edges, full_log_w
        full_edges, full_log_w = full
        region = np.arange(0, jlo) if i == log_w.size else np.arange(jhi + 1, n + 1)
        bound = log_low if i == log_w.size else log_high
        region_w = full_log_w[region]
        total = special.logsumexp(region_w)
        if gen.uniform() < np.exp(total - bound):
            c = np.cumsum(np.exp(region_w - region_w.max()))
            jj = region[min(int(np.searchsorted(c, gen.uniform(0.0, c[-1]), side="right")), region.size - 1)]
            return float(gen.uniform(full_edges[jj], full_edges[jj + 1]) - k / (n + 1))
