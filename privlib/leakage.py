"""Pointwise maximal leakage (PML) and the disclosure measures of Saeidian, Cervia, Oechtering &
Skoglund, "Rethinking disclosure prevention with pointwise maximal leakage".

Conventions: natural logarithms; ``channel[..., x, y] = P(Y = y | X = x)`` (row-stochastic);
``prior[..., x] = P_X(x)``; leading dimensions broadcast. Everything is computed from
log-probabilities so that tiny masses do not underflow.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special, stats

from privlib import _validate as v
from privlib._logspace import log_binomial_coefficients, logsumexp_near_max
from privlib.mechanisms import LaplaceMechanism

__all__ = [
    "min_entropy",
    "renyi_inf_divergence",
    "posterior",
    "pml",
    "pml_sup",
    "leakage_capacity",
    "attribute_law",
    "posterior_min_entropy",
    "capacity_entropy_bound",
    "smallest_disclosure_cost",
    "singling_out_threshold",
    "threshold_query_leakage",
    "threshold_query_chernoff_bound",
    "laplace_count_pml",
    "laplace_count_pml_sup",
    "laplace_count_pml_bound",
    "dp_budget_for_pml",
    "correlated_count_pml_sup",
    "quantized_mean_min_entropy",
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
    ``q(x) = 0 < p(x)``)."""
    p = v.pmf("p", p)
    q = v.pmf("q", q)
    if p.shape[-1] != q.shape[-1]:
        raise ValueError(f"p and q must have the same alphabet size, got {p.shape[-1]} and {q.shape[-1]}")
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(p > 0, _log(p) - _log(q), -np.inf)
    return ratio.max(axis=-1)


def _prior_channel(prior: ArrayLike, channel: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    prior = v.pmf("prior", prior)
    channel = v.real("channel", channel, low=0.0)
    if channel.ndim < 2:
        raise ValueError(f"channel must be a 2-D row-stochastic matrix (inputs x outputs), got shape {channel.shape}")
    v.pmf("channel", channel)
    if channel.shape[-2] != prior.shape[-1]:
        raise ValueError(f"channel has {channel.shape[-2]} input rows but prior has {prior.shape[-1]} letters")
    return prior, channel


def posterior(prior: ArrayLike, channel: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Posterior ``P(x | y)`` (shape ``[..., x, y]``) and output law ``p_Y`` (shape ``[..., y]``);
    where ``p_Y(y) = 0`` the posterior is the prior (the paper's convention)."""
    prior, channel = _prior_channel(prior, channel)
    joint = prior[..., :, None] * channel
    p_y = joint.sum(axis=-2)
    with np.errstate(divide="ignore", invalid="ignore"):
        post = np.where(p_y[..., None, :] > 0, joint / p_y[..., None, :], prior[..., :, None])
    return post, p_y


def pml(prior: ArrayLike, channel: ArrayLike) -> NDArray[np.float64]:
    """Pointwise maximal leakage ``l(X -> y) = log max_{x in supp P_X} P(y | x) / P_Y(y)`` of every
    output (Theorem 1, the closed form of Definition 2.3); 0 for outputs of probability 0.

    ``P_Y`` is a sum of non-negative terms, so it is computed in linear space (one matrix
    product, no cancellation); only outputs whose terms all underflow are redone in log-space.
    """
    prior, channel = _prior_channel(prior, channel)
    p_y = np.matmul(prior[..., None, :], channel)[..., 0, :]
    masked = channel if (prior > 0).all() else np.where((prior > 0)[..., :, None], channel, 0.0)
    top = masked.max(axis=-2)
    with np.errstate(divide="ignore", invalid="ignore"):  # 0/0 for impossible outputs, set to 0 below
        out = np.log(top) - np.log(p_y)
    underflow = (p_y == 0) & (top > 0)
    if underflow.any():
        log_joint = _log(prior)[..., :, None] + _log(channel)
        log_py = special.logsumexp(log_joint, axis=-2)
        out = np.where(underflow, _log(top) - log_py, out)
    return np.where(top == 0, 0.0, np.maximum(out, 0.0))


def pml_sup(prior: ArrayLike, channel: ArrayLike) -> NDArray[np.float64]:
    """``max_y l(X -> y)``: the mechanism is epsilon-PML under ``prior`` iff this is at most epsilon."""
    return pml(prior, channel).max(axis=-1)


def leakage_capacity(channel: ArrayLike) -> float:
    """Leakage capacity ``log max_y max_{x, x'} P(y | x) / P(y | x')`` (Definition 2.4), i.e. the
    local-DP parameter of the channel; ``inf`` when some output is impossible for some input but
    not for another. Outputs impossible for every input are ignored."""
    channel = v.channel("channel", channel)
    used = channel.max(axis=0) > 0
    col = channel[:, used]
    if (col.min(axis=0) == 0).any():
        return float("inf")
    return float((np.log(col.max(axis=0)) - np.log(col.min(axis=0))).max())


def attribute_law(prior: ArrayLike, kernel: ArrayLike) -> NDArray[np.float64]:
    """Law ``P_Z`` of an attribute ``Z`` of ``X`` given by ``kernel[x, z] = P(Z = z | X = x)``."""
    prior = v.pmf("prior", prior)
    kernel = v.channel("kernel", kernel)
    if kernel.shape[0] != prior.shape[-1]:
        raise ValueError(f"kernel has {kernel.shape[0]} rows but prior has {prior.shape[-1]} letters")
    return prior @ kernel


def posterior_min_entropy(prior: ArrayLike, channel: ArrayLike, kernel: ArrayLike | None = None) -> NDArray[np.float64]:
    """``H_inf(P_{Z | Y = y})`` for every output ``y`` (``Z = X`` when no kernel is given);
    ``inf_y`` of it is 0 exactly when the mechanism discloses Z (Definition 3.2)."""
    post, _ = posterior(prior, channel)  # [x, y]
    if kernel is None:
        post_z = post
    else:
        kernel = v.channel("kernel", kernel)
        post_z = np.einsum("xz,xy->zy", kernel, post)
    return -np.log(post_z.max(axis=-2))


def capacity_entropy_bound(attribute_min_entropy: ArrayLike, capacity: ArrayLike) -> NDArray[np.float64]:
    """Theorem 6: every posterior of a deterministic attribute keeps min-entropy at least
    ``log(1 + (e^{H_inf(Q_Z)} - 1) e^{-C})`` when the leakage capacity ``C`` is finite."""
    h = v.nonnegative("attribute_min_entropy", attribute_min_entropy)
    c = v.real("capacity", capacity, low=0.0, finite=False)
    return np.log1p(np.expm1(h) * np.exp(-c))


def smallest_disclosure_cost(prior: ArrayLike) -> NDArray[np.float64]:
    """Proposition 7: ``-log(1 - p_min)``, the least PML at which some attribute can be disclosed
    (below it the leakage capacity is finite and nothing is disclosed)."""
    p = v.pmf("prior", prior)
    return -np.log1p(-p.min(axis=-1))


def singling_out_threshold(prior: ArrayLike) -> NDArray[np.float64]:
    """Corollary 8: epsilon-PML with epsilon below ``H_inf(P_X)`` never singles out X."""
    return min_entropy(prior)


def threshold_query_leakage(n: ArrayLike, p: ArrayLike, answer: int = 0) -> NDArray[np.float64]:
    """Example 3.3: exact leakage ``-log P(Y = answer)`` of the deterministic answer to
    "are more than n/2 of the n i.i.d. Bernoulli(p) entries equal to 1?" (answer 1 = yes)."""
    n_arr = v.real("n", n, low=1.0)
    if not np.all(n_arr == np.round(n_arr)):
        raise ValueError("n must hold whole numbers >= 1")
    p = v.probability("p", p, open_ends=True)
    if answer not in (0, 1):
        raise ValueError(f"answer must be 0 (no) or 1 (yes), got {answer!r}")
    k = np.floor(n_arr / 2.0)
    if answer == 1:
        return -stats.binom.logsf(k, n_arr, p)
    # -log(1 - P(S > n/2)) from the small tail, accurate where P(S <= n/2) rounds to 1
    return -np.log1p(-stats.binom.sf(k, n_arr, p))


def threshold_query_chernoff_bound(n: ArrayLike, p: ArrayLike) -> NDArray[np.float64]:
    """Example 3.3 (Figure 1): the Chernoff bound ``-log(1 - (4 p (1 - p))^{n/2})`` on the leakage
    of the typical answer (``no`` for p < 1/2, ``yes`` for p > 1/2)."""
    n_arr = v.real("n", n, low=1.0)
    p = v.probability("p", p, open_ends=True)
    if np.any(p == 0.5):
        raise ValueError("p must differ from 1/2 (the bound is vacuous there)")
    log_tail = 0.5 * n_arr * np.log(4.0 * p * (1.0 - p))
    return -np.log1p(-np.exp(log_tail))


def _log_binomial_weights(m: int, theta: float) -> NDArray[np.float64]:
    """``log P(S = k)`` for ``S ~ Bin(m, theta)``, k = 0..m."""
    k = np.arange(m + 1)
    return log_binomial_coefficients(m) + k * np.log(theta) + (m - k) * np.log1p(-theta)


def laplace_count_pml(n: int, theta: float, epsilon: float, y: ArrayLike) -> NDArray[np.float64]:
    """``l(X_i -> y)`` for the Laplace mechanism answering the fraction of n i.i.d. entries that
    satisfy a predicate of probability theta, with DP parameter epsilon (noise scale
    ``b = 1 / (n epsilon)``); the set-up of Proposition 12.

    Given entry i = z, the output density is the binomial mixture
    ``A_z(y) = sum_k P(Bin(n-1, theta) = k) Lap_b(y - (k + z) / n)``; both mixtures share the
    weights and the Laplace exponents at the positions j / n, so each output costs O(n) cheap
    operations in log-space.
    """
    n = v.integer("n", n, low=1)
    th = float(v.probability("theta", theta, open_ends=True))
    eps = float(v.positive("epsilon", epsilon))
    y_arr = v.real("y", y)
    mech = LaplaceMechanism(eps, sensitivity=1.0 / n)
    log_w = _log_binomial_weights(n - 1, th)
    positions = np.arange(n + 1) / n
    out = np.empty(y_arr.size)
    for idx, y_val in enumerate(np.atleast_1d(y_arr).ravel()):
        # the Laplace log-density at every position; its constant -log(2b) cancels in the ratio
        expo = -np.abs(y_val - positions) / mech.scale
        log_a0 = logsumexp_near_max(log_w + expo[:-1])
        log_a1 = logsumexp_near_max(log_w + expo[1:])
        log_py = np.logaddexp(np.log(th) + log_a1, np.log1p(-th) + log_a0)
        out[idx] = max(max(log_a0, log_a1) - log_py, 0.0)
    return out.reshape(y_arr.shape)


def laplace_count_pml_sup(theta: ArrayLike, epsilon: ArrayLike) -> NDArray[np.float64]:
    """``sup_y l(X_i -> y)`` for the Laplace counting query: the larger of the two tail values
    ``log e^eps / (1 - theta + theta e^eps)`` and ``log e^eps / (theta + (1 - theta) e^eps)``,
    independent of n (derived from Proposition 12's proof: outside [0, 1] the likelihood ratio
    of the entry is exactly e^{+-eps}, inside it lies between)."""
    th = v.probability("theta", theta, open_ends=True)
    eps = v.positive("epsilon", epsilon)
    right = eps - np.log1p(th * np.expm1(eps))
    left = eps - np.log1p((1.0 - th) * np.expm1(eps))
    return np.maximum(right, left)


def laplace_count_pml_bound(p: ArrayLike, epsilon: ArrayLike) -> NDArray[np.float64]:
    """Proposition 12: for every prior with predicate probability in [p, 1 - p],
    ``l(X_i -> y) <= eps - log(1 + p (e^eps - 1))`` (about (1 - p) eps for small eps)."""
    p = v.real("p", p, low=0.0, high=0.5, low_open=True)
    eps = v.positive("epsilon", epsilon)
    return eps - np.log1p(p * np.expm1(eps))


def dp_budget_for_pml(pml_target: ArrayLike, p: ArrayLike) -> NDArray[np.float64]:
    """The largest DP parameter of the Laplace counting query whose PML stays below
    ``pml_target`` for every prior of Proposition 12 (the inverse of
    :func:`laplace_count_pml_bound`); ``inf`` when ``pml_target >= -log p`` (no noise needed)."""
    t = v.positive("pml_target", pml_target)
    p = v.real("p", p, low=0.0, high=0.5, low_open=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        budget = t + np.log1p(-p) - np.log1p(-p * np.exp(t))
    return np.where(t < -np.log(p), budget, np.inf)


def correlated_count_pml_sup(n: ArrayLike, theta: float, epsilon: float, rho: ArrayLike) -> NDArray[np.float64]:
    """``sup_y l(X_1 -> y)`` for ``Y = sum_i X_i + Lap(1/eps)`` (epsilon-DP) when, with probability
    rho, all n binary entries equal one Bernoulli(theta) bit and otherwise they are i.i.d.
    Bernoulli(theta); the sup sits in the two tails (a model for the paper's Theorem 10)."""
    n_arr = v.real("n", n, low=1.0)
    th = float(v.probability("theta", theta, open_ends=True))
    eps = float(v.positive("epsilon", epsilon))
    r = v.probability("rho", rho)
    n_arr, r = np.broadcast_arrays(n_arr, r)
    log_ap = np.log1p(th * np.expm1(eps))      # a_+ = 1 - theta + theta e^eps
    log_am = np.log1p(th * np.expm1(-eps))     # a_- = 1 - theta + theta e^-eps
    with np.errstate(divide="ignore"):
        log_r, log_1r = np.log(r), np.log1p(-r)

    def tail(sign: float, log_a: float) -> NDArray[np.float64]:
        m1 = np.logaddexp(log_r + sign * eps * n_arr, log_1r + sign * eps + (n_arr - 1) * log_a)
        m0 = np.logaddexp(log_r, log_1r + (n_arr - 1) * log_a)
        mix = np.logaddexp(np.log(th) + m1, np.log1p(-th) + m0)
        return np.maximum(m0, m1) - mix

    return np.maximum(tail(1.0, log_ap), tail(-1.0, log_am))


def quantized_mean_min_entropy(n: int, support: ArrayLike, probs: ArrayLike, cells: int = 10) -> float:
    """Example 3.1: min-entropy of the sample mean of n i.i.d. draws, quantised to ``cells``
    equal cells of [0, 1] (cell ``min(floor(cells t), cells - 1)``). The support must lie on a
    lattice ``k / L``; the law of the sum is an exact convolution power on that lattice."""
    n = v.integer("n", n, low=1)
    support = v.real("support", support, low=0.0, high=1.0)
    probs = v.pmf("probs", probs)
    cells = v.integer("cells", cells, low=1)
    if support.shape != probs.shape:
        raise ValueError("support and probs must have the same length")
    for lattice in range(1, 1001):
        steps = support * lattice
        if np.allclose(steps, np.round(steps), atol=1e-9):
            break
    else:
        raise ValueError("support must lie on a lattice k / L with L <= 1000")
    kernel = np.zeros(int(round(steps.max())) + 1)
    np.add.at(kernel, np.round(steps).astype(int), probs)
    law = np.array([1.0])
    power, base, k = law, kernel, n
    while k:  # exponentiation by squaring of the convolution
        if k & 1:
            power = np.convolve(power, base)
        base = np.convolve(base, base)
        k >>= 1
    means = np.arange(power.size) / (lattice * n)
    cell = np.minimum(np.floor(means * cells + 1e-12).astype(int), cells - 1)
    mass = np.bincount(cell, weights=power, minlength=cells)
    return float(-np.log(mass.max()))


def set_partitions(k: int) -> list[NDArray[np.int64]]:
    """Every partition of {0, ..., k-1} as a label vector (restricted growth strings)."""
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
