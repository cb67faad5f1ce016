"""Pufferfish privacy on finite instances (Bailie & Gong, "General inferential limits under
differential and Pufferfish privacy", Sections 7-8).

A finite instance is a mechanism given as a row-stochastic matrix ``P[x, t]`` over datasets x and
outputs t, a set of attacker priors ``theta`` over the datasets (rows of ``priors``) and a set of
pairs of competing secrets ``(s_i, s_j)``, each secret a boolean mask over the datasets.
Conditioning an attacker on a secret and pushing it through the mechanism gives the output law
``P(M = t | s, theta)``; Pufferfish asks that the multiplicative distance between the output laws of
the two secrets of every pair be at most epsilon (eq. (16)). Theorem 8.1 restates this as the
Kifer-Machanavajjhala ratio bound on every event and as a Lipschitz condition on the graph metric
``d_Puff``; Theorem 8.5 as a bound on the density ratio metric ``d_R`` between an attacker's
prior and posterior on a partition of the datasets; Theorem 8.7 as a bound on the power of tests
between two secrets. Everything is computed in log-space.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse, special
from scipy.sparse import csgraph

from privlib.core import _validate as v
from privlib.core._logspace import log_binomial_pmf, max_log_ratio
from privlib.papers import intervals
from privlib.core import notions

__all__ = [
    "multiplicative_distance",
    "density_ratio_metric",
    "conditional_output_laws",
    "pufferfish_loss",
    "kifer_machanavajjhala_loss",
    "pufferfish_graph",
    "lipschitz_constant",
    "posterior_odds_ratio",
    "secret_posterior_dR",
    "neyman_pearson_power",
    "pufferfish_power_bounds",
    "level_set_pairs",
    "laplace_sum_pufferfish_loss",
]

#: ``d_mult`` of two measures on a finite space (shared with chapter 000's Sections 2-6).
multiplicative_distance = intervals.multiplicative_distance

_MAX_EVENT_OUTPUTS = 16


def _log_masses(name: str, value: ArrayLike, log: bool) -> NDArray[np.float64]:
    if log:
        return v.real(name, value, high=np.inf, high_open=True, finite=False)
    arr = v.nonnegative(name, value)
    with np.errstate(divide="ignore"):
        return np.log(arr)


def _log_ratio_extremes(lm: NDArray[np.float64], ln: NDArray[np.float64], axis: int):
    """(max, min) of ``lm - ln`` over atoms charged by both, and whether some atom is charged by
    exactly one of the two measures."""
    zero_m, zero_n = np.isneginf(lm), np.isneginf(ln)
    common = ~zero_m & ~zero_n
    with np.errstate(invalid="ignore"):
        diff = lm - ln
    top = np.where(common, diff, -np.inf).max(axis=axis)
    bottom = np.where(common, diff, np.inf).min(axis=axis)
    one_sided = (zero_m != zero_n).any(axis=axis)
    return top, bottom, one_sided, common.any(axis=axis)


def _broadcast(mu: NDArray[np.float64], nu: NDArray[np.float64], axis: int):
    """``mu`` and ``nu`` broadcast against each other on every axis but the atoms' (``axis``),
    where they must have the same number of atoms (one atom does not stretch to many)."""
    if mu.ndim and nu.ndim and -min(mu.ndim, nu.ndim) <= axis < min(mu.ndim, nu.ndim) and mu.shape[axis] != nu.shape[axis]:
        raise ValueError(f"mu and nu must have broadcastable shapes with the same number of atoms along axis, "
                         f"got {mu.shape[axis]} and {nu.shape[axis]} atoms")
    try:
        mu, nu = np.broadcast_arrays(mu, nu)
    except ValueError:
        raise ValueError(f"mu and nu must have broadcastable shapes, got {mu.shape} and {nu.shape}") from None
    if mu.ndim == 0:
        raise ValueError("mu and nu must be arrays of masses (at least one axis), got scalars")
    if not -mu.ndim <= axis < mu.ndim:
        raise ValueError(f"axis must lie in [{-mu.ndim}, {mu.ndim - 1}] for arrays of {mu.ndim} dimensions, got {axis}")
    if mu.shape[axis] == 0:
        raise ValueError("mu and nu must have at least one atom along axis")
    return mu, nu


def density_ratio_metric(mu: ArrayLike, nu: ArrayLike, *, axis: int = -1, log: bool = False) -> NDArray[np.float64] | float:
    """Definition 8.4, eq. (18) of Bailie & Gong: the density ratio metric
    ``d_R(mu, nu) = ess sup log(f/g) - ess inf log(f/g)`` of two measures on a finite space
    (masses along ``axis``, other axes broadcast). It is ``inf`` when the measures are not
    mutually absolutely continuous and 0 when both are zero. With ``log=True`` the inputs are
    log-masses (``-inf`` for a null atom). Scale-invariant: a pseudo-metric on measures, a metric
    on probabilities (Lemma C.5, Proposition C.7)."""
    axis = v.integer("axis", axis)
    lm = _log_masses("mu", mu, log)
    ln = _log_masses("nu", nu, log)
    lm, ln = _broadcast(lm, ln, axis)
    top, bottom, one_sided, any_common = _log_ratio_extremes(lm, ln, axis)
    with np.errstate(invalid="ignore"):
        out = np.where(one_sided, np.inf, np.where(any_common, top - bottom, 0.0))
    return float(out) if out.ndim == 0 else out


def _mechanism_and_priors(P: ArrayLike, priors: ArrayLike, name: str = "priors") -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    P = v.channel("P", P)
    pri = v.pmf(name, np.atleast_2d(v.as_float_array(name, priors)))
    if pri.ndim != 2 or pri.shape[1] != P.shape[0]:
        raise ValueError(f"{name} must have one column per dataset (row of P): expected {P.shape[0]} columns, got shape {pri.shape}")
    if name == "prior" and pri.shape[0] != 1:
        raise ValueError(f"prior must be a single probability vector, got shape {pri.shape}")
    return P, pri


def _secret(name: str, value: ArrayLike, size: int) -> NDArray[np.bool_]:
    arr = np.asarray(value)
    if arr.shape != (size,) or not (arr.dtype == bool or np.isin(arr, (0, 1)).all()):
        raise ValueError(f"{name} must be a boolean mask with one entry per dataset (length {size}), got {arr!r}")
    return arr.astype(bool)


def _pairs(pairs: Sequence, size: int) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
    """Stack the distinct secrets of ``pairs`` and index each pair into the stack."""
    if isinstance(pairs, np.ndarray) and pairs.ndim == 3 and pairs.shape[1] == 2:
        pairs = list(pairs)
    if not isinstance(pairs, (list, tuple)) or len(pairs) == 0:
        raise ValueError("pairs must be a non-empty sequence of (s_i, s_j) pairs of boolean masks")
    secrets: list[NDArray[np.bool_]] = []
    index = []
    for k, pair in enumerate(pairs):
        if len(pair) != 2:
            raise ValueError(f"pairs[{k}] must be a pair (s_i, s_j), got {len(pair)} elements")
        ids = []
        for side in (0, 1):
            s = _secret(f"pairs[{k}][{side}]", pair[side], size)
            for j, known in enumerate(secrets):
                if np.array_equal(known, s):
                    ids.append(j)
                    break
            else:
                secrets.append(s)
                ids.append(len(secrets) - 1)
        index.append(ids)
    return np.array(secrets), np.array(index, dtype=np.int64)


def _log_conditional(P: NDArray[np.float64], pri: NDArray[np.float64], secrets: NDArray[np.bool_]):
    """log P(M = t | X in s, theta) for every prior k and secret m, shape (k, m, t), and the prior
    masses theta(s), shape (k, m) (:func:`privlib.core.notions.log_conditional_laws`)."""
    with np.errstate(divide="ignore"):
        log_cond, log_mass = notions.log_conditional_laws(np.log(pri), np.log(P), secrets)
    return log_cond, np.exp(log_mass)


def conditional_output_laws(P: ArrayLike, prior: ArrayLike, secret: ArrayLike) -> NDArray[np.float64]:
    """Definition 7.3 and eq. (15) of Bailie & Gong: the law ``P(M = t | X in s, theta)`` of the
    output of the data-provision procedure for the attacker ``prior`` conditioned on ``secret``
    (a boolean mask over the datasets with positive prior mass)."""
    P, pri = _mechanism_and_priors(P, prior, "prior")
    s = _secret("secret", secret, P.shape[0])
    log_cond, mass = _log_conditional(P, pri, s[None, :])
    if mass[0, 0] <= 0:
        raise ValueError("secret must have positive prior mass (theta | s is undefined otherwise)")
    return np.exp(log_cond[0, 0])


def pufferfish_loss(P: ArrayLike, priors: ArrayLike, pairs: Sequence, *, return_skipped: bool = False) -> float | tuple[float, int]:
    """Definition 7.3, eq. (16) of Bailie & Gong: the smallest epsilon for which the mechanism
    ``P[x, t]`` satisfies epsilon-Pufferfish(D, S) with attackers D the rows of ``priors`` and S
    the ``pairs`` of boolean masks: the largest ``d_mult(P(M | s_i, theta), P(M | s_j, theta))``.
    A (theta, pair) with zero prior mass on either secret is no constraint (footnote 7.3) and is
    skipped; ``return_skipped=True`` also returns how many were skipped. ``ValueError`` if every
    combination is skipped."""
    P, pri = _mechanism_and_priors(P, priors)
    secrets, index = _pairs(pairs, P.shape[0])
    log_cond, mass = _log_conditional(P, pri, secrets)
    a, b = log_cond[:, index[:, 0]], log_cond[:, index[:, 1]]                  # (k, pairs, t)
    valid = (mass[:, index[:, 0]] > 0) & (mass[:, index[:, 1]] > 0)           # (k, pairs)
    if not valid.any():
        raise ValueError("pairs: no (prior, pair) has positive prior mass on both secrets, so nothing is constrained")
    per = max_log_ratio(a, b, axis=2, both_ways=True)
    loss = float(per[valid].max())
    skipped = int((~valid).sum())
    return (loss, skipped) if return_skipped else loss


def kifer_machanavajjhala_loss(P: ArrayLike, priors: ArrayLike, pairs: Sequence) -> float:
    """Theorem 8.1.II of Bailie & Gong (Kifer and Machanavajjhala's definition): the smallest
    epsilon with ``e^-eps <= P(M in S | s_i, theta) / P(M in S | s_j, theta) <= e^eps`` for every
    event S of outputs, found by enumerating all ``2^|T|`` events (at most 16 outputs). Events null
    under both conditionals are ignored; an event null under exactly one gives ``inf``."""
    P, pri = _mechanism_and_priors(P, priors)
    if P.shape[1] > _MAX_EVENT_OUTPUTS:
        raise ValueError(f"P must have at most {_MAX_EVENT_OUTPUTS} outputs to enumerate its events, got {P.shape[1]}")
    secrets, index = _pairs(pairs, P.shape[0])
    log_cond, mass = _log_conditional(P, pri, secrets)
    events = np.array(list(itertools.product([0, 1], repeat=P.shape[1]))[1:], dtype=bool)   # (E, t)
    log_event = special.logsumexp(np.where(events[None, None], log_cond[:, :, None, :], -np.inf), axis=3)  # (k, m, E)
    a, b = log_event[:, index[:, 0]], log_event[:, index[:, 1]]
    valid = (mass[:, index[:, 0]] > 0) & (mass[:, index[:, 1]] > 0)
    if not valid.any():
        raise ValueError("pairs: no (prior, pair) has positive prior mass on both secrets, so nothing is constrained")
    per = max_log_ratio(a, b, axis=2, both_ways=True)
    return float(per[valid].max())


def pufferfish_graph(priors: ArrayLike, pairs: Sequence, *, atol: float = 1e-12) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Definition 7.3 of Bailie & Gong: the graph on data-generating distributions with an edge
    ``theta|s_i -- theta|s_j`` for every attacker and pair (both conditionals defined), and its
    shortest-path metric ``d_Puff``. Returns the distinct conditionals (rows, over the datasets;
    two conditionals within ``atol`` are one node) and the matrix of ``d_Puff`` (``inf`` between
    unconnected nodes)."""
    pri = v.pmf("priors", np.atleast_2d(v.as_float_array("priors", priors)))
    if pri.ndim != 2:
        raise ValueError(f"priors must be a 2-D array (attackers x datasets), got shape {pri.shape}")
    atol = v.scalar("atol", atol, low=0.0)
    secrets, index = _pairs(pairs, pri.shape[1])
    nodes: list[NDArray[np.float64]] = []

    def node(dist: NDArray[np.float64]) -> int:
        for j, known in enumerate(nodes):
            if np.allclose(known, dist, rtol=0.0, atol=atol):
                return j
        nodes.append(dist)
        return len(nodes) - 1

    edges = set()
    for theta in pri:
        for i, j in index:
            mi, mj = theta[secrets[i]].sum(), theta[secrets[j]].sum()
            if mi > 0 and mj > 0:
                a = node(np.where(secrets[i], theta, 0.0) / mi)
                b = node(np.where(secrets[j], theta, 0.0) / mj)
                if a != b:
                    edges.add((min(a, b), max(a, b)))
    if not nodes:
        raise ValueError("pairs: no (prior, pair) has positive prior mass on both secrets, so the graph is empty")
    m = len(nodes)
    rows = [e[0] for e in edges]
    cols = [e[1] for e in edges]
    adjacency = sparse.csr_matrix((np.ones(len(edges)), (rows, cols)), shape=(m, m))
    dist = csgraph.shortest_path(adjacency, directed=False, unweighted=True)
    return np.array(nodes), dist


def lipschitz_constant(P: ArrayLike, nodes: ArrayLike, distances: ArrayLike) -> float:
    """Theorem 8.1.I/III of Bailie & Gong: the smallest epsilon with
    ``d_mult(P_theta(M), P_theta'(M)) <= eps d_Puff(theta, theta')`` for all connected pairs of
    data-generating distributions ``nodes`` (rows over the datasets) at graph distances
    ``distances``, where ``P_theta(M) = sum_x theta(x) P[x, .]`` (eq. (15)). 0 if no two nodes
    are connected."""
    P = v.channel("P", P)
    nodes = v.pmf("nodes", np.atleast_2d(v.as_float_array("nodes", nodes)))
    if nodes.ndim != 2 or nodes.shape[1] != P.shape[0]:
        raise ValueError(f"nodes must have one column per dataset (row of P): expected {P.shape[0]} columns, got shape {nodes.shape}")
    dist = v.real("distances", distances, low=0.0, finite=False)
    if dist.shape != (nodes.shape[0],) * 2:
        raise ValueError(f"distances must be a square matrix with one row per node, got shape {dist.shape}")
    return intervals.lipschitz_loss(nodes @ P, dist)


def _log_joint(P: ArrayLike, prior: ArrayLike) -> NDArray[np.float64]:
    P, pri = _mechanism_and_priors(P, prior, "prior")
    with np.errstate(divide="ignore"):
        return np.log(pri[0])[:, None] + np.log(P)                           # log theta(x) P[x, t]


def posterior_odds_ratio(P: ArrayLike, prior: ArrayLike, secret_i: ArrayLike, secret_j: ArrayLike, *, log: bool = False) -> NDArray[np.float64]:
    """Remark 8.3, eq. (17) and Proposition E.31 of Bailie & Gong: for every output t, the
    attacker's posterior odds of ``secret_i`` against ``secret_j`` given ``M = t`` divided by
    the prior odds (by Bayes' rule on the joint table ``theta(x) P[x, t]``). Both secrets need
    positive prior mass. An output impossible under both secrets gives 1 (log 0); under exactly
    one, ``0`` or ``inf``."""
    log_joint = _log_joint(P, prior)
    si = _secret("secret_i", secret_i, log_joint.shape[0])
    sj = _secret("secret_j", secret_j, log_joint.shape[0])
    li = special.logsumexp(np.where(si[:, None], log_joint, -np.inf), axis=0)     # log P(s_i, t)
    lj = special.logsumexp(np.where(sj[:, None], log_joint, -np.inf), axis=0)
    prior_i = special.logsumexp(np.where(si[:, None], log_joint, -np.inf))         # log theta(s_i)
    prior_j = special.logsumexp(np.where(sj[:, None], log_joint, -np.inf))
    if not (np.isfinite(prior_i) and np.isfinite(prior_j)):
        raise ValueError("secret_i and secret_j must both have positive prior mass")
    with np.errstate(invalid="ignore"):
        out = np.where(np.isneginf(li) & np.isneginf(lj), 0.0, (li - lj) - (prior_i - prior_j))
    return out if log else np.exp(out)


def secret_posterior_dR(P: ArrayLike, prior: ArrayLike, partition: ArrayLike) -> NDArray[np.float64]:
    """Theorem 8.5, eq. (19) of Bailie & Gong: for every output t, the density ratio metric
    ``d_R(pi_theta(.), pi_theta(. | t))`` between the attacker's prior and posterior on the cells
    of ``partition`` (an integer label per dataset). epsilon-Pufferfish({theta}, all pairs of
    cells) holds exactly when every value is at most epsilon. Outputs of prior-predictive
    probability 0 are no constraint (the theorem holds for almost every t) and get 0."""
    log_joint = _log_joint(P, prior)
    labels = v.as_float_array("partition", partition)
    if labels.shape != (log_joint.shape[0],) or (labels != np.round(labels)).any():
        raise ValueError(f"partition must hold one integer label per dataset (length {log_joint.shape[0]}), got shape {labels.shape}")
    cells = np.unique(labels)
    member = labels[None, :] == cells[:, None]                                  # (K, x)
    log_post = special.logsumexp(np.where(member[:, :, None], log_joint[None], -np.inf), axis=1)   # (K, t) unnormalised
    log_prior = special.logsumexp(log_post, axis=1)                             # (K,) since sum_t P[x, t] = 1
    d = density_ratio_metric(log_prior[:, None], log_post, axis=0, log=True)
    possible = np.isfinite(special.logsumexp(log_joint, axis=0))
    return np.where(possible, d, 0.0)


#: Theorem 8.7 (and Theorem 5.1 for simple hypotheses): the largest (``minimize=True``: smallest)
#: power of a size-alpha test between two laws on a finite output space.
neyman_pearson_power = intervals.neyman_pearson_power


def pufferfish_power_bounds(alpha: ArrayLike, epsilon: float, sharp: bool = False) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Theorem 8.7, eq. (22) of Bailie & Gong: under epsilon-Pufferfish every size-alpha test of
    ``theta|s_j`` against ``theta|s_i`` has power between ``e^-eps alpha`` and ``e^eps alpha``
    (Theorem 5.1's bounds with ``d = 1``; ``sharp=True`` adds the complementary constraints)."""
    return intervals.power_bounds(alpha, epsilon, 1.0, sharp=sharp)


def level_set_pairs(n: int, alphabet: int = 2) -> tuple[NDArray[np.int64], list[tuple[NDArray[np.bool_], NDArray[np.bool_]]]]:
    """Eqs. (20)-(21) of Bailie & Gong: the datasets ``X_0^n`` with ``X_0 = {0, ..., alphabet-1}``
    (rows, in lexicographic order) and the pairs of level sets ``(S_{i,a}, S_{i,b})``,
    ``S_{i,a} = {x : x_i = a}``, for every record i and values a < b."""
    n = v.integer("n", n, low=1, high=16)
    alphabet = v.integer("alphabet", alphabet, low=2)
    if alphabet**n > 2**16:
        raise ValueError(f"alphabet**n must be at most {2**16} datasets, got {alphabet**n}")
    data = np.array(list(itertools.product(range(alphabet), repeat=n)), dtype=np.int64)
    pairs = [(data[:, i] == a, data[:, i] == b) for i in range(n) for a, b in itertools.combinations(range(alphabet), 2)]
    return data, pairs


def laplace_sum_pufferfish_loss(n: int, epsilon: float, rho: ArrayLike) -> NDArray[np.float64] | float:
    """Pufferfish loss of the Laplace-privatised sum of n binary records (noise scale 1/eps) for
    the secret pair ``{X_1 = 1}, {X_1 = 0}`` against the correlated attacker ``X_1 ~
    Bernoulli(1/2)``, every other record equal to ``X_1`` with probability ``rho`` independently
    (a proposed illustration of Sections 7-8 and Remark 8.6 of Bailie & Gong: ``eps`` at
    ``rho = 1/2``, ``n eps`` at ``rho = 1``, ``|n - 2| eps`` at ``rho = 0``). Exact: the two
    output densities are Laplace mixtures with centres ``0..n``, whose log-ratio is monotone
    between centres, so its supremum is attained at a centre or in a tail. O(n) time and memory
    per value of rho (prefix log-sums; about 140 bytes per record, 1.4 GB at n = 10^7);
    ``ValueError`` beyond ``2e7`` (n times the number of rho values) or ``10^4`` rho values,
    before allocating, and where the loss exceeds the largest double (1.8e308). At ``rho`` 0 or 1
    the two output laws are single Laplace laws; where ``eps`` times the distance between their
    centres overflows, the loss is their closed form, ``|n - 2| eps`` or ``n eps``."""
    n = v.integer("n", n, low=1)
    eps = v.scalar("epsilon", epsilon, low=0.0, low_open=True)
    rho = v.probability("rho", rho)
    v.size_limit("rho", rho.size, 10**4, "values")
    v.size_limit("n", n * max(rho.size, 1), 2 * 10**7, "mixture weights (n times the number of rho values)")
    k = np.arange(n)                                                     # number of other records equal to X_1
    centres = np.arange(n + 1, dtype=float)
    out = np.empty(rho.shape)
    for idx, r in np.ndenumerate(rho):
        log_w = log_binomial_pmf(k, n - 1, r)                            # P(k others agree)
        keep = np.isfinite(log_w)
        # X_1 = 1: the sum is 1 + k; X_1 = 0: the sum is n - 1 - k (the disagreeing others)
        log_w1 = np.full(n + 1, -np.inf)
        log_w1[1 + k[keep]] = log_w[keep]
        log_w0 = np.full(n + 1, -np.inf)
        log_w0[n - 1 - k[keep]] = log_w[keep]
        used1, used0 = np.isfinite(log_w1), np.isfinite(log_w0)
        knots = centres
        f1 = intervals._log_laplace_mixture(knots, log_w1[used1], centres[used1], eps)
        f0 = intervals._log_laplace_mixture(knots, log_w0[used0], centres[used0], eps)
        # tails: beyond every centre the log-ratio is constant, log E_1 e^{+-eps S} - log E_0 e^{+-eps S}
        with np.errstate(over="ignore", invalid="ignore"):
            upper = special.logsumexp(log_w1[used1] + eps * (centres[used1] - n)) - special.logsumexp(log_w0[used0] + eps * (centres[used0] - n))
            lower = special.logsumexp(log_w1[used1] - eps * centres[used1]) - special.logsumexp(log_w0[used0] - eps * centres[used0])
            out[idx] = max(float(np.abs(f1 - f0).max()), abs(upper), abs(lower))
            if not np.isfinite(out[idx]) and r in (0.0, 1.0):   # two single Laplace laws, far apart
                out[idx] = (n if r == 1.0 else abs(n - 2)) * eps
    v.representable("epsilon", np.where(np.isnan(out), np.inf, out), "the loss")
    return float(out) if out.ndim == 0 else out
