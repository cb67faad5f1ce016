"""Pointwise maximal leakage (PML) and the disclosure measures of Saeidian, Cervia, Oechtering &
Skoglund, "Rethinking disclosure prevention with pointwise maximal leakage".

Conventions: natural logarithms; ``channel[..., x, y] = P(Y = y | X = x)`` (row-stochastic);
``prior[..., x] = P_X(x)``; leading dimensions broadcast. Everything is computed from
log-probabilities so that tiny masses do not underflow.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize, special, stats

from privlib.core import _validate as v
from privlib.core import notions
from privlib.core._logspace import log_binomial_pmf, log_sum_exp, max_log_ratio

__all__ = [
    "min_entropy",
    "renyi_inf_divergence",
    "posterior",
    "pml",
    "pml_sup",
    "leakage_capacity",
    "attribute_law",
    "posterior_min_entropy",
    "posterior_min_entropy_from_likelihood",
    "capacity_entropy_bound",
    "smallest_disclosure_cost",
    "singling_out_threshold",
    "threshold_query_leakage",
    "threshold_query_chernoff_bound",
    "laplace_count_pml",
    "laplace_count_pml_sup",
    "laplace_count_pml_bound",
    "dp_budget_for_pml",
    "randomized_response_epsilon_for_pml",
    "calibrate_to_pml",
    "product_prior",
    "database_dp_epsilon",
    "free_lunch_epsilon",
    "entry_pml",
    "conditional_pml",
    "conditional_entry_pml",
    "correlated_count_pml_sup",
    "quantized_mean_min_entropy",
    "relative_frequencies_min_entropy",
    "set_partitions",
]


def _log(x: NDArray[np.float64]) -> NDArray[np.float64]:
    with np.errstate(divide="ignore"):
        return np.log(x)


def min_entropy(p: ArrayLike) -> NDArray[np.float64]:
    """Min-entropy ``H_inf(P) = -log max_x P(x)`` (Definition 2.2), over the last axis."""
    p = v.pmf("p", p)
    return -np.log(p.max(axis=-1))


def renyi_inf_divergence(p: ArrayLike, q: ArrayLike) -> NDArray[np.float64]:
    """Renyi divergence of order infinity ``log max_{x: p(x) > 0} p(x) / q(x)`` (+inf where
    ``q(x) = 0 < p(x)``); Theorem 1 writes PML as ``D_inf(P_{X|Y=y} || P_X)``."""
    p = v.pmf("p", p)
    q = v.pmf("q", q)
    if p.shape[-1] != q.shape[-1]:
        raise ValueError(f"p and q must have the same alphabet size, got {p.shape[-1]} and {q.shape[-1]}")
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(p > 0, _log(p) - _log(q), -np.inf)
    return ratio.max(axis=-1)


def _prior_channel(prior: ArrayLike, channel: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    prior = v.pmf("prior", prior)
    if np.ndim(channel) < 2:
        raise ValueError(f"channel must be a 2-D row-stochastic matrix (inputs x outputs), got shape {np.shape(channel)}")
    channel = v.pmf("channel", channel)
    if channel.shape[-2] != prior.shape[-1]:
        raise ValueError(f"channel has {channel.shape[-2]} input rows but prior has {prior.shape[-1]} letters")
    return prior, channel


def posterior(prior: ArrayLike, channel: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Posterior ``P(x | y)`` (shape ``[..., x, y]``) and output law ``p_Y`` (shape ``[..., y]``)
    of Section 2's set-up; where ``p_Y(y) = 0`` the posterior is the prior (the paper's
    convention)."""
    prior, channel = _prior_channel(prior, channel)
    joint = prior[..., :, None] * channel
    p_y = joint.sum(axis=-2)
    with np.errstate(divide="ignore", invalid="ignore"):
        post = np.where(p_y[..., None, :] > 0, joint / p_y[..., None, :], prior[..., :, None])
    return post, p_y


def pml(prior: ArrayLike, channel: ArrayLike) -> NDArray[np.float64]:
    """Pointwise maximal leakage ``l(X -> y) = log max_{x in supp P_X} P(y | x) / P_Y(y)`` of every
    output (Theorem 1, the closed form of Definition 2.3); 0 for outputs of probability 0.
    The core's definition, ``privlib.core.notions.prior_channel_pml``, on the validated
    prior and channel (one matrix product; tiny leakages from the gaps ``top - P(y | x)``, so
    they keep their digits; outputs whose terms all underflow redone in log-space)."""
    prior, channel = _prior_channel(prior, channel)
    return notions.prior_channel_pml(prior, channel)


def pml_sup(prior: ArrayLike, channel: ArrayLike) -> NDArray[np.float64]:
    """``max_y l(X -> y)``: the mechanism is epsilon-PML under ``prior`` iff this is at most epsilon."""
    return pml(prior, channel).max(axis=-1)


def leakage_capacity(channel: ArrayLike) -> float:
    """Leakage capacity ``log max_y max_{x, x'} P(y | x) / P(y | x')`` (Definition 2.4), i.e. the
    local-DP parameter of the channel; ``inf`` when some output is impossible for some input but
    not for another. Outputs impossible for every input are ignored."""
    channel = v.channel("channel", channel)
    return float(max_log_ratio(_log(channel.max(axis=0)), _log(channel.min(axis=0))))


def attribute_law(prior: ArrayLike, kernel: ArrayLike) -> NDArray[np.float64]:
    """Law ``P_Z`` of an attribute ``Z`` of ``X`` (Section 2: the Markov chain Z - X - Y) given by
    ``kernel[x, z] = P(Z = z | X = x)``; its min-entropy is the threshold of Theorem 4."""
    prior = v.pmf("prior", prior)
    kernel = v.channel("kernel", kernel)
    if kernel.shape[0] != prior.shape[-1]:
        raise ValueError(f"kernel has {kernel.shape[0]} rows but prior has {prior.shape[-1]} letters")
    return prior @ kernel


def posterior_min_entropy(prior: ArrayLike, channel: ArrayLike, kernel: ArrayLike | None = None) -> NDArray[np.float64]:
    """``H_inf(P_{Z | Y = y})`` for every output ``y`` (``Z = X`` when no kernel is given);
    ``inf_y`` of it is 0 exactly when the mechanism discloses Z (Definition 3.2). Outputs of
    probability 0 get the prior's value (the paper's convention). Computed in log-space (see
    :func:`posterior_min_entropy_from_likelihood`), so a posterior within 1e-300 of certainty
    is not rounded to a disclosure."""
    prior, channel = _prior_channel(prior, channel)
    if channel.ndim != 2 or prior.ndim != 1:
        raise ValueError("posterior_min_entropy takes one prior vector and one 2-D channel")
    with np.errstate(divide="ignore"):
        log_lik = np.log(channel)
    impossible = ~(prior[:, None] * channel > 0).any(axis=0)
    log_lik[:, impossible] = 0.0  # equal likelihoods: the posterior is the prior
    return posterior_min_entropy_from_likelihood(prior, log_lik, kernel)


def posterior_min_entropy_from_likelihood(prior: ArrayLike, log_likelihood: ArrayLike,
                                          kernel: ArrayLike | None = None) -> NDArray[np.float64]:
    """``H_inf(P_{Z | Y = y})`` at outputs ``y_j`` of any mechanism, discrete or continuous, given
    ``log_likelihood[x, j] = log p(y_j | x)`` (a log-density or log-pmf, up to a constant per
    column); Theorem 3 and Definition 3.2. ``kernel[x, z] = P(Z = z | X = x)`` (``Z = X`` by
    default).

    Everything is in log-space: the posterior's largest value ``1 - r`` is handled through the
    log of the remaining mass ``r``, so ``H = -log1p(-r)`` stays accurate (and positive) when the
    posterior is within ``1e-300`` of certainty, as in a disclosure that happens only in the limit
    ``y -> infinity``.
    """
    prior = v.pmf("prior", prior)
    if prior.ndim != 1:
        raise ValueError(f"prior must be one probability vector, got shape {prior.shape}")
    ll = v.real("log_likelihood", log_likelihood, high=np.inf, finite=False)
    if np.isnan(ll).any() or (ll == np.inf).any():
        raise ValueError("log_likelihood must not hold NaN or +inf")
    if ll.ndim != 2 or ll.shape[0] != prior.size:
        raise ValueError(f"log_likelihood must have shape (len(prior), outputs) = ({prior.size}, m), got {ll.shape}")
    support = prior > 0
    log_joint = np.where(support[:, None], _log(prior)[:, None] + ll, -np.inf)
    if not np.isfinite(log_joint.max(axis=0)).all():
        raise ValueError("log_likelihood gives some output probability 0 under every letter of the prior's support")
    log_post = log_joint - log_sum_exp(log_joint, axis=0)  # [x, y]
    if kernel is None:
        log_post_z = log_post
    else:
        kernel = v.channel("kernel", kernel)
        if kernel.shape[0] != prior.size:
            raise ValueError(f"kernel has {kernel.shape[0]} rows but prior has {prior.size} letters")
        log_post_z = log_sum_exp(log_post[:, None, :] + _log(kernel)[:, :, None], axis=0)  # [z, y]
    top = np.argmax(log_post_z, axis=0)
    others = log_post_z.copy()
    others[top, np.arange(others.shape[1])] = -np.inf
    log_rest = log_sum_exp(others, axis=0) if others.shape[0] > 1 else np.full(others.shape[1], -np.inf)
    log_top = log_post_z[top, np.arange(others.shape[1])]
    with np.errstate(divide="ignore"):
        # H = -log(P_top): from the rest where it is small (no cancellation), else directly
        return np.where(log_rest < np.log(0.5), -np.log1p(-np.exp(log_rest)), -log_top) + 0.0


def capacity_entropy_bound(attribute_min_entropy: ArrayLike, capacity: ArrayLike) -> NDArray[np.float64]:
    """Theorem 6: every posterior of a deterministic attribute keeps min-entropy at least
    ``log(1 + (e^{H_inf(Q_Z)} - 1) e^{-C})`` when the leakage capacity ``C`` is finite."""
    h = v.nonnegative("attribute_min_entropy", attribute_min_entropy)
    c = v.real("capacity", capacity, low=0.0, finite=False)
    with np.errstate(over="ignore", divide="ignore"):
        small = np.log1p(np.expm1(np.minimum(h, 700.0)) * np.exp(-c))
        # log(e^(h - c) + 1 - e^-c) where e^h would overflow
        large = np.logaddexp(h - c, np.log(-np.expm1(-c)))
    return np.where(h > 700.0, large, small)


def smallest_disclosure_cost(prior: ArrayLike) -> NDArray[np.float64]:
    """Proposition 7: ``-log(1 - p_min)``, the least PML at which some attribute can be disclosed
    (below it the leakage capacity is finite and nothing is disclosed)."""
    p = v.pmf("prior", prior)
    return -np.log1p(-p.min(axis=-1))


def singling_out_threshold(prior: ArrayLike) -> NDArray[np.float64]:
    """Corollary 8: epsilon-PML with epsilon below ``H_inf(P_X)`` never singles out X."""
    return min_entropy(v.pmf("prior", prior))


def _log_upper_tail(m: int, n: int, p: float) -> float:
    """``log P(S >= m)`` for ``S ~ Bin(n, p)`` with ``m`` above the mean, when the tail is too
    small for scipy's ``sf`` (below 1e-290): the terms from ``m`` on decrease at least
    geometrically with ratio ``r = (n - m) p / ((m + 1)(1 - p))``, so summing ``W`` terms with
    ``r^W / (1 - r) < e^-40`` in log-space loses nothing representable."""
    if m > n:
        return -np.inf
    r = (n - m) * p / ((m + 1) * (1.0 - p))
    if r <= 0.0:
        return float(log_binomial_pmf(m, n, p))
    width = int(np.ceil((40.0 - np.log1p(-r)) / -np.log(r))) + 1 if r < 1.0 else n - m + 1
    j = np.arange(m, min(n, m + width) + 1)
    return float(special.logsumexp(log_binomial_pmf(j, n, p)))


def _log_binomial_sf(k: NDArray[np.float64], n: NDArray[np.float64], p: NDArray[np.float64]) -> NDArray[np.float64]:
    """``(log P(S > k), log P(S <= k))`` for ``S ~ Bin(n, p)``, both accurate: the larger one
    through ``log1p`` of the smaller, the smaller from scipy's tail or, where that underflows,
    from a geometric-window sum in log-space."""
    shape = np.broadcast_shapes(np.shape(k), np.shape(n), np.shape(p))
    k, n, p = (np.atleast_1d(np.broadcast_to(a, shape)).ravel() for a in (k, n, p))
    sf = stats.binom.sf(k, n, p)
    cdf = stats.binom.cdf(k, n, p)
    with np.errstate(divide="ignore"):
        log_sf = np.where(sf <= 0.5, np.log(sf), np.log1p(-np.minimum(cdf, 0.5)))
        log_cdf = np.where(cdf <= 0.5, np.log(cdf), np.log1p(-np.minimum(sf, 0.5)))
    for j in np.flatnonzero(sf < 1e-290):
        # P(S > k) = P(S >= k + 1)
        log_sf[j] = _log_upper_tail(int(k[j]) + 1, int(n[j]), float(p[j]))
    for j in np.flatnonzero(cdf < 1e-290):
        # P(S <= k) = P(n - S >= n - k), n - S ~ Bin(n, 1 - p)
        log_cdf[j] = _log_upper_tail(int(n[j] - k[j]), int(n[j]), float(1.0 - p[j]))
    return log_sf.reshape(shape), log_cdf.reshape(shape)


def threshold_query_leakage(n: ArrayLike, p: ArrayLike, answer: int = 0) -> NDArray[np.float64]:
    """Example 3.3: exact leakage ``-log P(Y = answer)`` of the deterministic answer to
    "are more than n/2 of the n i.i.d. Bernoulli(p) entries equal to 1?" (answer 1 = yes).

    Finite for every valid input: each tail comes from the accurate side (``log1p`` of the
    other tail when it is near 1) and, where scipy's tail underflows, from a log-space sum.
    """
    n_arr = v.real("n", n, low=1.0)
    if not np.all(n_arr == np.round(n_arr)):
        raise ValueError("n must hold whole numbers >= 1")
    p = v.probability("p", p, open_ends=True)
    if isinstance(answer, bool) or answer not in (0, 1):
        raise ValueError(f"answer must be 0 (no) or 1 (yes), got {answer!r}")
    k = np.floor(n_arr / 2.0)
    log_yes, log_no = _log_binomial_sf(k, n_arr, p)
    out = -(log_yes if answer == 1 else log_no)
    return out + 0.0


def threshold_query_chernoff_bound(n: ArrayLike, p: ArrayLike) -> NDArray[np.float64]:
    """Example 3.3 (Figure 1): the Chernoff bound ``-log(1 - (4 p (1 - p))^{n/2})`` on the leakage
    of the typical answer (``no`` for p < 1/2, ``yes`` for p > 1/2)."""
    n_arr = v.real("n", n, low=1.0)
    if not np.all(n_arr == np.round(n_arr)):
        raise ValueError("n must hold whole numbers >= 1")
    p = v.probability("p", p, open_ends=True)
    if np.any(p == 0.5):
        raise ValueError("p must differ from 1/2 (the bound is vacuous there)")
    # 4 p (1 - p) = 1 - (1 - 2p)^2, so log1p keeps it accurate near p = 1/2
    log_tail = 0.5 * n_arr * np.log1p(-((1.0 - 2.0 * p) ** 2))
    # -log(1 - e^t): log1p for small tails, expm1 where e^t is near 1
    with np.errstate(divide="ignore"):
        return np.where(log_tail < -0.7, -np.log1p(-np.exp(log_tail)), -np.log(-np.expm1(log_tail))) + 0.0


def _chernoff_exponent(k: NDArray[np.float64], m: int, p: NDArray[np.float64], q: NDArray[np.float64]) -> NDArray[np.float64]:
    """``m KL(k/m || p) = k log(k / (m p)) + (m - k) log((m - k) / (m q))``: ``P(S <= k) <= e^-E``
    below the mean of ``S ~ Bin(m, p)``, ``P(S >= k) <= e^-E`` above it (rounding ~1e-16 |k - m p|).
    A ratio beyond the largest double (p or q below ~1e-296) gives E = inf, which is what its
    callers compare: far beyond every threshold."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return special.xlogy(k, k / (m * p)) + special.xlogy(m - k, (m - k) / (m * q))


def _log_binomial_mills(k: NDArray[np.float64], m: int, p: NDArray[np.float64],
                        q: NDArray[np.float64], exponent: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log P(S <= k) / P(S = k)`` for ``S ~ Bin(m, p)`` at integers ``0 <= k <= m - 1`` (``q = 1 - p``
    given separately, so that a p within 1e-17 of 1 keeps its digits), by the Chernoff exponent
    ``E = m KL(k/m || p)`` of the count (``exponent``, from :func:`_chernoff_exponent`; a count
    above the mean must have E < 640: :func:`laplace_count_pml` passes none with E >= 80):

    - below the mean with E >= 640 (beyond ~36 standard deviations): the continued fraction of the
      incomplete beta function without its power prefactor, ``I_q(m - k, k + 1) / P(S = k) = p * CF``,
      evaluated backwards at a fixed depth of 7 pairs of terms (6 pairs give the value to the last
      bit there, 5 to 4e-14: measured for m from 300 to 10^12, p from 1e-4 to 0.9999, on grids of k
      up to the mean and every k below 200; it ends exactly after k + 1 pairs);
    - otherwise: the tail as ``P(m - S >= m - k) = I_q(m - k, k + 1)`` (``scipy.special.betainc``,
      Boost's incomplete beta, exact in q whichever of p and q is smaller) over scipy's binomial
      pmf (``scipy.stats.Binomial``, Boost's, taken at the smaller of p and q); neither underflows
      there (``P(S = k) >= e^{-E} / sqrt(8 k (1 - k/m)) > e^-655`` for m <= 10^12).
    """
    deep = exponent >= 640.0
    out = np.empty(k.shape)
    rest = ~deep
    if rest.any():
        kr, pr, qr = k[rest], p[rest], q[rest]
        small_p = pr <= qr
        tail = special.betainc(m - kr, kr + 1.0, qr)
        # scipy's binomial (Boost's pmf, as stats.binom) without the per-call argument checks: k, m, p are valid here
        pmf = stats.Binomial(n=m, p=np.where(small_p, pr, qr), validation_policy="skip_all").pmf(np.where(small_p, kr, m - kr))
        out[rest] = np.log(tail) - np.log(pmf)
    if deep.any():
        a, b, x = m - k[deep], k[deep] + 1.0, q[deep]
        # the partial numerators of NR's betacf, -(a + b) x / (a + 1) then pairs (even i, odd i),
        # in one array; the fraction 1 / (1 + t_1 / (1 + t_2 / ...)) is evaluated backwards
        i = np.arange(1.0, 8.0)[:, None]
        two_i = a + 2.0 * i
        terms = np.zeros((15, a.size))
        terms[0] = -(a + b) * x / (a + 1.0)
        terms[1::2] = i * (b - i) * x / ((two_i - 1.0) * two_i)
        terms[2::2] = -(a + i) * (a + b + i) * x / (two_i * (two_i + 1.0))
        g = np.ones_like(a)
        for t in terms[::-1]:
            np.divide(t, g, out=g)
            g += 1.0
        out[deep] = np.log(p[deep]) - np.log(g)
    return out


def laplace_count_pml(n: int, theta: float, epsilon: float, y: ArrayLike) -> NDArray[np.float64]:
    """``l(X_i -> y)`` for the Laplace mechanism answering the fraction of n i.i.d. entries that
    satisfy a predicate of probability theta, with DP parameter epsilon (noise scale
    ``b = 1 / (n epsilon)``); the set-up of Proposition 12.

    Given entry i = z, the output density is the binomial mixture
    ``A_z(y) = sum_k P(Bin(n-1, theta) = k) Lap_b(y - (k + z) / n)``, proportional to
    ``sum_k P(k) e^{-eps |c_z - k|}`` with ``c_1 = n y - 1`` and ``c_0 = c_1 + 1``. Split at
    ``j = floor(c_1)``: the terms ``k <= j`` sum to ``P(j) e^{-eps f}`` times the ratio
    ``P'(S <= j) / P'(S = j)`` of the binomial exponentially tilted by ``e^{eps k}`` (success
    odds ``theta / (1 - theta) e^eps``), the terms ``k >= j + 2`` to ``P(j + 2) e^{-eps (2 - f)}``
    times the upper-tail ratio of the binomial tilted by ``e^{-eps k}``, and ``k = j + 1`` is
    one term (``f = c_1 - j``). Each part moves by an exact factor (``e^-eps``, ``e^{eps (1 - 2f)}``,
    ``e^eps``) from entry 1 to entry 0, so ``D / A_1 = 1 - A_0 / A_1`` is a weighted mean of
    ``-expm1`` of those exponents (no difference of logs): relative accuracy at tiny epsilon. The
    parts are taken relative to ``P(j + 1)`` (exact ratios of consecutive binomial terms) and the
    tail ratios from ``_log_binomial_mills``, so the cost per output is independent of n and
    nothing overflows at n = 10^8 or beyond. A part whose tail count lies beyond its tilted mean
    by a Chernoff exponent of at least 80 outweighs the rest of its mixture by more than e^50
    (bounds in the code): that output takes the part's tail value, and no tail ratio is computed
    for it. Above epsilon = 700, where ``e^eps`` is not a double, the six parts are combined in
    log-space (``log A_0 - log A_1`` by log-sum-exp of their logarithms, each written without
    ``e^eps``): every finite epsilon is accepted, up to the largest double, where the value tends
    to ``-log theta`` or ``-log(1 - theta)`` (the lattice point nearest to ``n y`` decides the
    entry).
    """
    n = v.integer("n", n, low=1, high=10**12)
    th = v.scalar("theta", theta, low=0.0, high=1.0, low_open=True, high_open=True)
    eps = v.scalar("epsilon", epsilon, low=0.0, low_open=True)
    y_arr = v.real("y", y)
    # entry i = 1 puts the count at k + 1; outputs below 0 (above 1) are all beyond every count
    # (below none), where only the right (left) part is present and the value does not depend on
    # y: clipped into [-1, 2], n y is finite for every finite y
    c = n * np.clip(y_arr.ravel(), -1.0, 2.0) - 1.0
    size = c.size
    m = n - 1                                    # the other entries: S' ~ Bin(n - 1, theta)
    log_odds = np.log(th) - np.log1p(-th)
    j = np.floor(c)
    f = c - j
    # tilted success probabilities and their complements, each from its own logistic
    up, up_c, down, down_c = special.expit(np.array([log_odds + eps, -(log_odds + eps), log_odds - eps, -(log_odds - eps)]))
    # Two tails per output. Left (index < size): the lower tail at j of the binomial tilted up.
    # Right (index >= size): the upper tail at j + 2 of the binomial tilted down, as the lower
    # tail of its complement at m - j - 2. Either exists when its count is in [0, m - 1] (the
    # others are masked out below, whatever their exponent).
    k = np.empty(2 * size)
    k[:size] = j
    np.subtract(m - 2.0, j, out=k[size:])
    exists = (k >= 0.0) & (k <= m - 1.0)
    tilted = np.empty((3, 2 * size))  # success and failure probabilities, and the untilted step's log-odds term
    tilted[0, :size], tilted[1, :size], tilted[2, :size] = up, up_c, -log_odds
    tilted[0, size:], tilted[1, size:], tilted[2, size:] = down_c, down, log_odds
    tilted_p, tilted_q, step = tilted
    exponent = _chernoff_exponent(k, m, tilted_p, tilted_q)
    # A part whose count lies beyond its tilted mean with exponent E >= 80 outweighs the rest of
    # its output's mixture. Left, in the binomial tilted up (P'(k) proportional to P(k) e^{eps k}):
    # its offset below is eps + log(P'(S <= j) / P'(j + 1)) >= eps + E - log 2 (the tail holds half
    # the tilted mass past the median, the count j + 1 at most e^-E of it), the middle term's 0,
    # the right part's at most -eps + log(m + 1) (its tilted step P''(j + 2)/P''(j + 1) is
    # e^{-2 eps} times the up-tilted one, at most 1 past the mean; its tail ratio at most m + 1).
    # So in A_0 / A_1 (about e^-eps) and in D / A_1 (read there only where A_0 / A_1 > 1/2, so
    # eps < log 2) the others weigh at most 2 (m + 3) e^-E relative: below 1e-22 for m <= 10^12.
    # The right part beyond its tilted-down mean likewise (the others then carry a further e^-eps).
    # Such an output takes the tail value, as if every count were on that part's side, as does an
    # output with c beyond [0, m].
    dominant = (k > m * tilted_p) & (exponent >= 80.0) & exists
    left_only = dominant[:size] | (j >= m)         # every count at or below c (or as if)
    right_only = dominant[size:] | (j <= -2.0)     # every count beyond c + 1 (or as if)
    has_mid = ~(left_only | right_only)
    exists[:size] &= has_mid
    exists[size:] &= has_mid
    needed = np.flatnonzero(exists)
    kn = k[needed]
    # each part relative to P(j + 1), without its factor e^{-eps |c - k|} at the nearest k: the
    # untilted step (log((k + 1) / (m - k)) -+ log-odds on either side) and the tilted tail ratio
    offsets = np.full(2 * size, -np.inf)
    offsets[needed] = (np.log((kn + 1.0) / (m - kn)) + step[needed]
                       + _log_binomial_mills(kn, m, tilted_p[needed], tilted_q[needed], exponent[needed]))
    b_left, b_right = offsets[:size], offsets[size:]
    b_left[left_only] = 0.0
    b_right[right_only] = 0.0
    if eps > 700.0:
        return _laplace_count_pml_log_space(eps, f, b_left, b_right, has_mid, th).reshape(y_arr.shape)
    w_left = -eps * f + b_left
    w_mid = np.where(has_mid, -eps * (1.0 - f), -np.inf)
    w_right = -eps * (2.0 - f) + b_right
    top = np.maximum(np.maximum(w_left, w_mid), w_right)
    u_left, u_mid, u_right = np.exp(w_left - top), np.exp(w_mid - top), np.exp(w_right - top)
    total = u_left + u_mid + u_right                               # A_1, up to a common factor
    # each branch of the two np.where below is evaluated everywhere: where it is not taken it may
    # divide by zero (log1p(-1) at q = 0, theta / q), overflow or be 0/0
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        mid_step = eps * (1.0 - 2.0 * f)
        q = (u_left * np.exp(-eps) + u_mid * np.exp(mid_step) + u_right * np.exp(eps)) / total   # A_0 / A_1
        ratio = (-np.expm1(-eps) * u_left - np.expm1(mid_step) * u_mid - np.expm1(eps) * u_right) / total
        # A_1 >= A_0: l = -log(theta + (1 - theta) q) = -log1p(-(1 - theta) D / A_1);
        # A_0 > A_1:  l = -log(1 - theta + theta / q) = -log1p(theta (D / A_1) / q);
        # the log1p forms wherever their argument is within 1/2 of 0 (D / A_1 keeps its digits where
        # q ~ 1, and so does the leakage where theta ~ 1 and q is small), the sums of positive terms beyond
        right_small = (1.0 - th) * np.clip(ratio, 0.0, None)  # (1 - theta) D / A_1 >= 0
        right_l = np.where(right_small < 0.5, -np.log1p(-right_small), -np.log(th + (1.0 - th) * q))
        left_small = th * np.minimum(ratio, 0.0) / q  # theta (1/q - 1) = theta (D / A_1) / q <= 0
        left_l = np.where(np.abs(left_small) < 0.5, -np.log1p(left_small), -np.log((1.0 - th) + th / q))
    out = np.where(q <= 1.0, right_l, left_l)
    return np.maximum(out, 0.0).reshape(y_arr.shape)


def _laplace_count_pml_log_space(eps: float, f: NDArray[np.float64], b_left: NDArray[np.float64],
                                 b_right: NDArray[np.float64], has_mid: NDArray[np.bool_], th: float) -> NDArray[np.float64]:
    """:func:`laplace_count_pml` above epsilon = 700, in log-space. Each of the six parts is
    ``e^{-eps c}`` times ``e^b`` (its offset: ``b_left``, 0 in the middle, ``b_right``), with the
    coefficients c = f, 1 - f, 2 - f (left, middle, right) for entry 1 and 1 + f, f, 1 - f for
    entry 0. Every part is taken relative to the largest ``e^{-eps c}`` present, the
    coefficients subtracted before they are multiplied by epsilon (so ties stay exact and the
    offsets are not lost against exponents near the largest double; a product that overflows
    is ``-inf``, a part ``e^-eps`` below another of its sum). Then ``log A_1`` and ``log A_0`` by
    log-sum-exp, and ``l = -log(theta e^{a_1 - top} + (1 - theta) e^{a_0 - top})``."""
    mid = np.where(has_mid, 0.0, -np.inf)
    parts = [(b_left, f, 1.0 + f), (mid, 1.0 - f, f), (b_right, 2.0 - f, 1.0 - f)]
    ref = np.full(f.shape, np.inf)
    for offset, c1, c0 in parts:
        ref = np.where(offset > -np.inf, np.minimum(ref, np.minimum(c1, c0)), ref)
    with np.errstate(over="ignore", invalid="ignore"):
        a1 = a0 = np.full(f.shape, -np.inf)
        for offset, c1, c0 in parts:
            a1 = np.logaddexp(a1, offset - eps * (c1 - ref))
            a0 = np.logaddexp(a0, offset - eps * (c0 - ref))
        top = np.maximum(a0, a1)
        out = -np.logaddexp(np.log(th) + (a1 - top), np.log1p(-th) + (a0 - top))
    return np.maximum(out, 0.0)


def laplace_count_pml_sup(theta: ArrayLike, epsilon: ArrayLike) -> NDArray[np.float64]:
    """``sup_y l(X_i -> y)`` for the Laplace counting query: the larger of the two tail values
    ``log e^eps / (1 - theta + theta e^eps)`` and ``log e^eps / (theta + (1 - theta) e^eps)``,
    independent of n (derived from Proposition 12's proof: outside [0, 1] the likelihood ratio
    of the entry is exactly e^{+-eps}, inside it lies between)."""
    th = v.probability("theta", theta, open_ends=True)
    eps = v.positive("epsilon", epsilon)
    return np.maximum(_log_tail_ratio(th, 1.0 - th, eps), _log_tail_ratio(1.0 - th, th, eps))


def _log_tail_ratio(p: NDArray[np.float64], q: NDArray[np.float64], eps: NDArray[np.float64]) -> NDArray[np.float64]:
    """``eps - log(1 + p (e^eps - 1)) = -log(p + q e^-eps)`` with ``q = 1 - p`` (given, not
    recomputed): as ``-log1p(q expm1(-eps))`` while that argument is above -1/2 (small epsilon,
    no cancellation), as ``-log(p + q e^-eps)`` beyond (a sum of positive terms; no overflow for
    any epsilon, it tends to ``-log p``)."""
    x = q * np.expm1(-eps)
    with np.errstate(divide="ignore"):  # log1p(-1) where q = 1 and e^-eps underflows: the branch not taken
        return np.where(x > -0.5, -np.log1p(x), -np.log(p + q * np.exp(-eps)))


def laplace_count_pml_bound(p: ArrayLike, epsilon: ArrayLike) -> NDArray[np.float64]:
    """Proposition 12: for every prior with predicate probability in [p, 1 - p],
    ``l(X_i -> y) <= eps - log(1 + p (e^eps - 1))`` (about (1 - p) eps for small eps)."""
    p = v.real("p", p, low=0.0, high=0.5, low_open=True)
    eps = v.positive("epsilon", epsilon)
    return _log_tail_ratio(p, 1.0 - p, eps)


def dp_budget_for_pml(pml_target: ArrayLike, p: ArrayLike) -> NDArray[np.float64]:
    """The largest DP parameter of the Laplace counting query whose PML stays below
    ``pml_target`` for every prior of Proposition 12 (the inverse of
    :func:`laplace_count_pml_bound`); ``inf`` when ``pml_target >= -log p`` (no noise needed)."""
    t = v.positive("pml_target", pml_target)
    p = v.real("p", p, low=0.0, high=0.5, low_open=True)
    inside = t < -np.log(p)
    # eps_P + log(1 - p) - log(1 - p e^{eps_P}) = eps_P - log1p(-x) with x = p (e^{eps_P} - 1) / (1 - p):
    # the log1p form for x <= 1/2 (the difference of two logs near log(1 - p) would lose digits
    # for a small eps_P), the last term as log(-expm1(eps_P + log p)) near the threshold
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        x = p * np.expm1(t) / (1.0 - p)
        near = t + np.log1p(-p) - np.log(-np.expm1(np.where(inside, t + np.log(p), -1.0)))
        budget = np.where(x <= 0.5, t - np.log1p(-np.minimum(x, 0.5)), near)
    return np.where(inside, budget, np.inf) + 0.0


def randomized_response_epsilon_for_pml(pml_target: ArrayLike, prior: ArrayLike) -> NDArray[np.float64]:
    """Calibrate k-ary randomized response to a PML target (Section 3.3, Proposition 12's
    reasoning for finite alphabets): the largest epsilon of ``mechanisms.RandomizedResponse``
    whose leakage ``max_y log e^eps / (1 + P_X(y)(e^eps - 1))`` under ``prior`` stays at most
    ``pml_target``. It is the inverse of the same function of ``p_min = min_x P_X(x)`` as
    :func:`dp_budget_for_pml` (``inf`` when ``pml_target >= -log p_min``: releasing X in the
    clear is then allowed)."""
    prior = v.pmf("prior", prior)
    if prior.shape[-1] < 2:
        raise ValueError("prior must have at least two letters")
    if not (prior > 0).all():
        raise ValueError("prior must have full support (randomized response leaks infinitely about a letter of mass 0)")
    return dp_budget_for_pml(pml_target, prior.min(axis=-1))


def calibrate_to_pml(channel_of: Callable[[float], ArrayLike], prior: ArrayLike, pml_target: float,
                     low: float, high: float) -> float:
    """The largest parameter ``t`` in ``[low, high]`` of a one-parameter family of mechanisms
    ``channel_of(t)`` whose leakage ``pml_sup(prior, channel_of(t))`` stays at most
    ``pml_target`` (Section 3.3: choosing a mechanism for a PML budget). The leakage must
    increase with ``t`` (less noise); found by Brent's method to full precision. Returns ``high``
    when even ``high`` is within the budget; raises ValueError when ``low`` is not."""
    target = v.scalar("pml_target", pml_target, low=0.0, low_open=True)
    lo = v.scalar("low", low)
    hi = v.scalar("high", high)
    if not lo < hi:
        raise ValueError(f"low must be below high, got low={lo:g}, high={hi:g}")
    if not callable(channel_of):
        raise TypeError("channel_of must be a function of the parameter returning a channel")
    prior = v.pmf("prior", prior)

    def excess(t: float) -> float:
        channel = channel_of(t)
        try:
            channel = v.channel("channel", channel)
        except (ValueError, TypeError) as exc:
            # e.g. a family written with exp(t) overflows to inf / inf = NaN beyond t ~ 709.8
            raise ValueError(f"channel_of({t:g}) is not a channel ({exc}); choose low and high "
                             "where channel_of gives one") from None
        return float(pml_sup(prior, channel)) - target

    if excess(hi) <= 0:
        return hi
    if excess(lo) > 0:
        raise ValueError(f"low={lo:g} already leaks more than pml_target={target:g}")
    return float(optimize.brentq(excess, lo, hi, xtol=1e-14, rtol=4 * np.finfo(float).eps))


# --- mechanisms on databases (Section 4) -------------------------------------------------------
# A database of n entries from an alphabet of k letters is indexed by its position in
# lexicographic order (itertools.product(range(k), repeat=n): the first entry varies slowest);
# ``prior[x]`` is a distribution over the k^n databases and ``channel[x, y]`` a mechanism on them.


def _database_shape(name: str, rows: int, alphabet_size: int) -> int:
    k = v.integer("alphabet_size", alphabet_size, low=2, high=1000)
    n = int(round(np.log(rows) / np.log(k))) if rows > 1 else 0
    if n < 1 or k**n != rows:
        raise ValueError(f"{name} must have alphabet_size^n rows (one per database), got {rows} rows for alphabet_size {k}")
    return n


def product_prior(marginals: ArrayLike) -> NDArray[np.float64]:
    """The product distribution over databases (the set of Theorem 9 parts 2-3 and Theorem 11
    part 2): ``marginals[i, a] = P(X_i = a)``; returns the k^n vector in lexicographic order."""
    marg = v.pmf("marginals", marginals)
    if marg.ndim != 2 or marg.shape[-1] < 2:
        raise ValueError(f"marginals must be a 2-D array (entries x letters, at least 2 letters), got shape {marg.shape}")
    v.power_limit("marginals", marg.shape[1], marg.shape[0], 2**24, "databases")
    out = np.ones(1)
    for row in marg:
        out = (out[:, None] * row[None, :]).ravel()
    return out


def database_dp_epsilon(channel: ArrayLike, alphabet_size: int) -> float:
    """Definition 4.1: the DP parameter ``max_y max_i max_{x_-i} max_{a, b}
    log P(y | a, x_-i) / P(y | b, x_-i)`` of a mechanism on databases (replace-one neighbours;
    Theorem 9 parts 1-3 characterise it through PML). ``inf`` when some output is possible for
    a database and impossible for a neighbour."""
    channel = v.channel("channel", channel)
    n = _database_shape("channel", channel.shape[0], alphabet_size)
    k = int(alphabet_size)
    with np.errstate(divide="ignore"):
        log_p = np.log(channel).reshape((k,) * n + (channel.shape[1],))
    worst = 0.0
    for i in range(n):
        worst = max(worst, float(max_log_ratio(log_p.max(axis=i), log_p.min(axis=i))))
    return worst


def free_lunch_epsilon(channel: ArrayLike) -> float:
    """Definition 4.2 (free-lunch privacy): ``max_y max_{x, x'} log P(y | x) / P(y | x')`` over
    all pairs of databases, i.e. the leakage capacity of the mechanism on the database alphabet
    (Theorem 11 part 1 is Theorem 2 applied there); see :func:`leakage_capacity`."""
    return leakage_capacity(channel)


def _entry_checked(prior: ArrayLike, channel: ArrayLike, i: int, alphabet_size: int):
    prior, channel = _prior_channel(prior, channel)
    if prior.ndim != 1 or channel.ndim != 2:
        raise ValueError("prior must be one vector over databases and channel one 2-D matrix")
    n = _database_shape("prior", prior.size, alphabet_size)
    return prior, channel, n, v.integer("i", i, low=0, high=n - 1), int(alphabet_size)


def _entry_axes(prior: ArrayLike, channel: ArrayLike, i: int, alphabet_size: int):
    prior, channel, n, i, k = _entry_checked(prior, channel, i, alphabet_size)
    p = np.moveaxis(prior.reshape((k,) * n), i, 0).reshape(k, -1)                      # [x_i, x_-i]
    ch = np.moveaxis(channel.reshape((k,) * n + (-1,)), i, 0).reshape(k, -1, channel.shape[1])  # [x_i, x_-i, y]
    return p, ch


def entry_pml(prior: ArrayLike, channel: ArrayLike, i: int, alphabet_size: int) -> NDArray[np.float64]:
    """``l(X_i -> y)`` for every output: the PML about entry i of a mechanism on databases under
    a (possibly correlated) prior over databases (Theorem 9 part 3 for product priors, Theorem 11
    part 3 and Theorem 10 for correlated ones). It is the PML of the channel
    ``P(y | X_i = a) = sum_{x_-i} P(x_-i | a) P(y | a, x_-i)`` under the marginal of X_i."""
    prior, channel, n, i, k = _entry_checked(prior, channel, i, alphabet_size)
    entry = np.unravel_index(np.arange(prior.size), (k,) * n)[i]                  # x_i of every database
    laws, marginal = notions.log_conditional_laws(_log(prior), _log(channel), entry[None, :] == np.arange(k)[:, None])
    law, weight = np.exp(laws[0]), np.exp(marginal[0])
    law[weight == 0] = 1.0 / law.shape[1]  # a value the prior excludes: any law (it has no weight)
    return pml(weight, law)


def conditional_pml(prior: ArrayLike, channel: ArrayLike) -> NDArray[np.float64]:
    """Conditional PML (Saeidian et al. 2023b, Def. 3, recalled in Section 2):
    ``l(X -> y | z) = log max_{x: P(x | z) > 0} P(y | x, z) / P(y | z)`` for side information
    Z, from the joint ``prior[x, z] = P(X = x, Z = z)`` and ``channel[x, z, y] = P(y | x, z)``;
    returns ``[z, y]``. Every side-information value must have positive probability."""
    prior = v.real("prior", prior)
    joint = v.pmf("prior", prior.ravel()).reshape(prior.shape)
    if joint.ndim != 2:
        raise ValueError(f"prior must be a 2-D joint pmf P(X = x, Z = z), got shape {joint.shape}")
    ch = v.real("channel", channel, low=0.0)
    if ch.ndim != 3 or ch.shape[:2] != joint.shape:
        raise ValueError(f"channel must have shape (x, z, y) = {joint.shape + ('m',)}, got {ch.shape}")
    v.pmf("channel", ch)
    p_z = joint.sum(axis=0)
    if not (p_z > 0).all():
        raise ValueError("prior gives some side-information value z probability 0 (conditional PML is undefined there)")
    return pml((joint / p_z).T, np.moveaxis(ch, 1, 0))


def conditional_entry_pml(prior: ArrayLike, channel: ArrayLike, i: int, alphabet_size: int) -> NDArray[np.float64]:
    """``l(X_i -> y | X_-i = x_-i)`` for every rest of the database ``x_-i`` (rows, in
    lexicographic order of the other entries) and output (columns): the informed adversary of
    Theorem 9 parts 1-2. The prior must give every ``x_-i`` positive probability."""
    p, ch = _entry_axes(prior, channel, i, alphabet_size)
    return conditional_pml(p, ch)


def correlated_count_pml_sup(n: ArrayLike, theta: float, epsilon: float, rho: ArrayLike) -> NDArray[np.float64]:
    """``sup_y l(X_1 -> y)`` for ``Y = sum_i X_i + Lap(1/eps)`` (epsilon-DP) when, with probability
    rho, all n binary entries equal one Bernoulli(theta) bit and otherwise they are i.i.d.
    Bernoulli(theta); the sup sits in the two tails (a model for the paper's Theorem 10)."""
    n_arr = v.real("n", n, low=1.0)
    if not np.all(n_arr == np.round(n_arr)):
        raise ValueError("n must hold whole numbers >= 1")
    th = v.scalar("theta", theta, low=0.0, high=1.0, low_open=True, high_open=True)
    eps = v.scalar("epsilon", epsilon, low=0.0, low_open=True)
    r = v.probability("rho", rho)
    n_arr, r = np.broadcast_arrays(n_arr, r)
    with np.errstate(divide="ignore"):
        log_r, log_1r = np.log(r), np.log1p(-r)

    def tail(sign: float) -> NDArray[np.float64]:
        # beyond the atoms the two entry-conditional densities are proportional to
        # M_1 = rho e^{s eps n} + (1 - rho) e^{s eps} a^{n-1} and M_0 = rho + (1 - rho) a^{n-1},
        # a = 1 - theta + theta e^{s eps}; both are scaled by a^{-(n-1)} so that delta =
        # log M_1 / M_0 is formed without differences of large numbers
        # log a and d = s eps - log a, each accurate and finite for every epsilon: log1p forms
        # while e^eps is a double, sums of positive terms beyond (1 - theta rounds to 1 for tiny
        # theta, so (1 - theta) expm1(-eps) may round to -1 though d is finite)
        if sign > 0:
            d = _log_tail_ratio(th, 1.0 - th, eps)
            log_a = math.log1p(th * math.expm1(eps)) if eps <= 700.0 else eps - d
        else:
            log_a = math.log1p(th * math.expm1(-eps))
            d = -math.log1p((1.0 - th) * math.expm1(eps)) if eps <= 700.0 else -eps - log_a
        m1 = np.logaddexp(log_r + sign * eps + (n_arr - 1) * d, log_1r + sign * eps)
        m0 = np.logaddexp(log_r - (n_arr - 1) * log_a, log_1r)
        delta = m1 - m0
        small = np.abs(delta) < 0.1
        if small.any():
            # near 0, delta = log1p((M_1 - M_0) / M_0) with M_1 - M_0 = rho a^{-(n-1)} expm1(s eps n)
            # + (1 - rho) expm1(s eps), two terms of one sign (scaled as above)
            with np.errstate(over="ignore", invalid="ignore"):
                w = np.exp(log_r - (n_arr - 1) * log_a)
                fine = np.log1p((w * np.expm1(sign * eps * n_arr) + (1.0 - r) * np.expm1(sign * eps)) / (w + (1.0 - r)))
            delta = np.where(small & np.isfinite(fine), fine, delta)
        # l = -log(theta M_1 / M + (1 - theta) M_0 / M) with M = max(M_0, M_1)
        # (log1p where the argument is small, the direct sum of positive terms elsewhere)
        pos, neg = np.maximum(delta, 0.0), np.minimum(delta, 0.0)
        x_up = (1.0 - th) * np.expm1(-pos)
        x_down = th * np.expm1(neg)
        with np.errstate(divide="ignore"):  # log1p(-1) in a branch not taken
            up = np.where(x_up > -0.5, -np.log1p(x_up), -np.log(th + (1.0 - th) * np.exp(-pos)))
            down = np.where(x_down > -0.5, -np.log1p(x_down), -np.log((1.0 - th) + th * np.exp(neg)))
        return np.where(delta >= 0, up, down)

    return np.maximum(np.maximum(tail(1.0), tail(-1.0)), 0.0)


def _lattice(support: NDArray[np.float64]) -> tuple[int, NDArray[np.int64]]:
    """The smallest ``L <= 1000`` with every support point on ``{k / L}``, and the steps ``k``."""
    for lattice in range(1, 1001):
        steps = support * lattice
        if np.allclose(steps, np.round(steps), rtol=0.0, atol=1e-9):
            return lattice, np.round(steps).astype(np.int64)
    raise ValueError("support must lie on a lattice k / L with L <= 1000")


def _lattice_sum_law(n: int, steps: NDArray[np.int64], probs: NDArray[np.float64]) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Values ``t`` and probabilities of ``T = sum of n i.i.d. draws of steps`` on the window
    ``n mean +- h`` outside which Hoeffding's inequality leaves less than 1e-30 of the mass
    (the whole range when that is shorter). Computed from the characteristic function by one FFT
    of the window's length (the law modulo that length; what wraps around is below 1e-30), so
    the cost is O(sqrt(n) log n) for a fixed support."""
    span = int(steps.max() - steps.min())
    mean = float(probs @ steps)
    if span == 0:
        return np.array([n * int(steps[0])]), np.array([1.0])
    half = int(np.ceil(span * np.sqrt(n * np.log(2e30) / 2.0))) + 1
    lo = max(n * int(steps.min()), int(np.floor(n * mean)) - half)
    hi = min(n * int(steps.max()), int(np.ceil(n * mean)) + half)
    size = int(hi - lo + 1)
    v.size_limit("n", size, 2**25, "lattice points")
    length = 1 << int(np.ceil(np.log2(size)))
    omega = 2.0 * np.pi * np.arange(length // 2 + 1) / length
    # log E exp(-i omega (step - mean)) = log1p(w): w's real part -2 sum p sin^2(theta / 2) and
    # imaginary part -sum p sin(theta) are formed without cancellation, so n log(.) keeps its
    # accuracy where |phi|^n matters (a plain exp(n log phi) would carry n * 1e-16 errors)
    theta = omega[:, None] * (steps[None, :] - mean)
    u = -2.0 * (probs * np.sin(0.5 * theta) ** 2).sum(axis=1)
    w = -(probs * np.sin(theta)).sum(axis=1)
    with np.errstate(divide="ignore"):  # |phi| = 0 at some frequencies of a periodic law
        log_abs = 0.5 * np.log1p(2.0 * u + u * u + w * w)
    angle = np.arctan2(w, 1.0 + u)
    # shift the window to start at index 0: multiply by exp(-i omega (n mean - lo))
    power = np.exp(n * log_abs + 1j * (n * angle - omega * (n * mean - lo)))
    law = np.fft.irfft(power, length)[:size]
    return np.arange(lo, hi + 1), np.maximum(law, 0.0)


def _tilted_cell_log_mass(n: int, steps: NDArray[np.int64], probs: NDArray[np.float64], first: int, last: int,
                          anchor: float) -> float:
    """``log P(first <= T <= last)`` for a range of lattice sums away from the mean, with relative
    accuracy: the step law is exponentially tilted, ``p_lam(s) ~ p(s) e^{lam s}``, so that the
    tilted sum has mean ``anchor`` (the range's end nearest the mean); the tilted law there comes
    from the FFT of :func:`_lattice_sum_law`, and ``P(T = t) = P_lam(T = t) M(lam)^n e^{-lam t}``."""
    keep = probs > 0
    s_k, log_p = steps[keep].astype(float), np.log(probs[keep])
    lo_s, hi_s = s_k.min(), s_k.max()
    target = float(np.clip(anchor / n, lo_s + 0.25 / n, hi_s - 0.25 / n))

    def tilted_mean(lam: float) -> float:
        w = log_p + lam * s_k
        w = np.exp(w - w.max())
        return float((w * s_k).sum() / w.sum()) - target

    bound = 1.0
    while tilted_mean(-bound) > 0 or tilted_mean(bound) < 0:
        bound *= 2.0
        if bound > 1e6:
            break
    lam = float(optimize.brentq(tilted_mean, -bound, bound, xtol=1e-14, rtol=1e-14))
    log_w = log_p + lam * s_k
    log_m = float(special.logsumexp(log_w))
    tilted = np.zeros_like(probs)
    tilted[keep] = np.exp(log_w - log_m)
    t, law = _lattice_sum_law(n, steps, tilted / tilted.sum())
    inside = (t >= first) & (t <= last) & (law > 0)   # none (a cell between the sums reached): log 0 = -inf
    return float(special.logsumexp(np.log(law[inside]) + n * log_m - lam * t[inside]))


def quantized_mean_min_entropy(n: int, support: ArrayLike, probs: ArrayLike, cells: int = 10) -> float:
    """Example 3.1: min-entropy of the sample mean of n i.i.d. draws, quantised to ``cells``
    equal cells of [0, 1] (cell ``min(floor(cells t), cells - 1)``, in exact integer
    arithmetic). The support must lie on a lattice ``k / L``; the law of the sum on that lattice
    comes from its characteristic function by one FFT over the window that holds all but 1e-30
    of the mass, so the cost grows like sqrt(n) (n = 10^7 takes milliseconds). Cells that the
    plain FFT resolves to less than 1e-8 are recomputed under an exponential tilt that centres
    the law on them, so their masses keep relative accuracy; the min-entropy is then
    ``-log1p(-(mass outside the modal cell))`` and stays accurate (not rounded to 0) while it
    is representable."""
    n = v.integer("n", n, low=1, high=10**12)
    support = v.real("support", support, low=0.0, high=1.0)
    probs = v.pmf("probs", probs)
    cells = v.integer("cells", cells, low=1, high=10**4)
    if support.ndim != 1 or support.shape != probs.shape:
        raise ValueError(f"support and probs must be vectors of the same length, got shapes {support.shape} and {probs.shape}")
    lattice, steps = _lattice(support)
    t, law = _lattice_sum_law(n, steps, probs)
    cell = np.minimum((t * cells) // (lattice * n), cells - 1)
    mass = np.bincount(cell, weights=law, minlength=cells)
    modal = int(np.argmax(mass))
    # lattice sums reachable by n draws, and the range of sums falling in each cell
    lo_t, hi_t = n * int(steps[probs > 0].min()), n * int(steps[probs > 0].max())
    c = np.arange(cells)
    firsts = -((-c * lattice * n) // cells)              # smallest t with t cells >= c L n
    lasts = np.append(firsts[1:] - 1, lattice * n)       # the last cell holds the top
    centre = float(probs @ steps) * n
    log_rest = []
    for k in range(cells):
        if k == modal:
            continue
        first, last = max(int(firsts[k]), lo_t), min(int(lasts[k]), hi_t)
        if first > last:
            continue  # no sum of n draws falls in this cell
        if mass[k] > 1e-8:
            log_rest.append(np.log(mass[k]))
            continue
        anchor = first if first > centre else last
        span = float(hi_t - lo_t) / n
        if -2.0 * (anchor - centre) ** 2 / (n * span**2) < -800.0:
            continue  # Hoeffding: below e^-800, nothing representable to add
        log_rest.append(_tilted_cell_log_mass(n, steps, probs, first, last, anchor))
    if not log_rest:
        return 0.0
    rest = float(np.exp(special.logsumexp(log_rest)))
    h = -np.log1p(-rest) if rest < 0.5 else -np.log(mass[modal])
    return float(max(h, 0.0)) + 0.0


def relative_frequencies_min_entropy(n: int, group: float, rate_in_group: float, rate_outside: float,
                                     cells: int = 10) -> float:
    """Example 3.2: min-entropy of the pair of quantised relative frequencies of an event (lung
    disease) among the members of a group (smokers) and among the others, in an i.i.d. database
    of n records where a record is in the group with probability ``group`` and has the event
    with probability ``rate_in_group`` or ``rate_outside``. Each frequency ``d / m`` is
    quantised to ``min(floor(cells d / m), cells - 1)``; an empty group gets its own symbol.

    Exact: given m members, the two event counts are independent binomials, so the joint law
    of the two cells is a mixture over m of products of binomial cell probabilities (scipy's
    accurate cdf at the integer cell edges), summed over the group sizes that carry all but
    1e-30 of the mass; cost O(sqrt(n) cells^2). ``ValueError``, before the work, beyond 10^6
    binomial cell edges (about ``12 sqrt(n)`` group sizes times ``cells + 1``: n up to about
    5e7 at 10 cells) or 5e8 table entries.
    """
    n = v.integer("n", n, low=1, high=10**12)
    g = v.scalar("group", group, low=0.0, high=1.0, low_open=True, high_open=True)
    r_in = v.scalar("rate_in_group", rate_in_group, low=0.0, high=1.0)
    r_out = v.scalar("rate_outside", rate_outside, low=0.0, high=1.0)
    cells = v.integer("cells", cells, low=1, high=1000)
    # group sizes outside [lo, hi] carry less than 1e-31 of the mass together by Hoeffding's
    # inequality (each joint cell changes by less than that; the modal one holds at least
    # 1 / (cells + 1)^2)
    half = np.sqrt(n * np.log(2e31) / 2.0)
    lo = int(max(np.floor(n * g - half), 0))
    hi = int(min(np.ceil(n * g + half), n))
    v.size_limit("n", (hi - lo + 1) * (cells + 1), 10**6, "binomial cell edges (group sizes x (cells + 1))")
    v.size_limit("n", (hi - lo + 1) * (cells + 1) ** 2, 5e8, "table entries")
    sizes = np.arange(lo, hi + 1)
    members = stats.binom.pmf(sizes, n, g)

    def cell_law(rate: float, trials: NDArray[np.int64]) -> NDArray[np.float64]:
        # [m, c]: P(cell c | m trials); column `cells` is the empty-group symbol (m = 0). Each
        # cell's probability is a difference of cdfs below the median and of sfs above it, so
        # that cells in either tail keep their relative accuracy
        edges = -((-np.arange(cells + 1)[None, :] * trials[:, None]) // cells)  # ceil(c m / cells)
        edges[:, -1] = trials + 1                                                # last cell holds d = m
        cdf = stats.binom.cdf(edges - 1, trials[:, None], rate)
        sf = stats.binom.sf(edges - 1, trials[:, None], rate)
        law = np.zeros((trials.size, cells + 1))
        law[:, :cells] = np.where(cdf[:, :-1] < 0.5, np.diff(cdf, axis=1), -np.diff(sf, axis=1))
        law = np.maximum(law, 0.0)
        empty = trials == 0
        law[empty] = 0.0
        law[empty, cells] = 1.0
        return law

    inside, outside = cell_law(r_in, sizes), cell_law(r_out, n - sizes)
    joint = np.einsum("m,mi,mj->ij", members, inside, outside)
    i, j = np.unravel_index(np.argmax(joint), joint.shape)
    # 1 - P(modal cell) from the other cells (no cancellation): given m, the pair misses the
    # modal cell with probability r_s + r_o - r_s r_o, r the other cells' mass of each group
    # (the group sizes outside the window add less than 1e-31)
    r_s = np.delete(inside, i, axis=1).sum(axis=1)
    r_o = np.delete(outside, j, axis=1).sum(axis=1)
    rest = float(members @ (r_s + r_o - r_s * r_o))
    h = -np.log1p(-rest) if rest < 0.5 else -np.log(joint[i, j])
    return float(max(h, 0.0)) + 0.0


def set_partitions(k: int) -> list[NDArray[np.int64]]:
    """Every partition of {0, ..., k-1} as a label vector (restricted growth strings): the
    deterministic attributes ``f(X)`` of a k-letter secret, up to relabelling (Theorem 6)."""
    k = v.integer("k", k, low=1, high=10)
    out: list[NDArray[np.int64]] = []

    def grow(prefix: list[int], top: int) -> None:
        if len(prefix) == k:
            out.append(np.array(prefix))
            return
        for label in range(top + 2):
            grow(prefix + [label], max(top, label))

    grow([0], 0)
    return out
