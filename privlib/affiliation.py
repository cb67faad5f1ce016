"""Inferential privacy under correlated priors (Ghosh & Kleinberg, "Inferential privacy
guarantees for differentially private mechanisms").

An adversary's prior ``pi`` over databases ``x in {0,1}^n`` may correlate the individuals. The
inferential privacy of individual i is the largest log-factor by which an output can move the
posterior odds of ``x_i`` relative to its prior odds. For positively affiliated priors the worst
case over all epsilon-DP mechanisms has the closed form of Theorem 3.4 (eq. (6)); for priors with
bounded multiplicative influence Theorem 4.2 bounds it.

Priors on small n are given as probability vectors over the ``2^n`` states, state ``s`` having
``x_j = (s >> j) & 1`` (see :func:`states`). Sums are done in log-space.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize, sparse, special

from privlib import _validate as v
from privlib._logspace import log_binomial_coefficients, logsumexp_near_max

__all__ = [
    "states",
    "ising_prior",
    "product_prior",
    "clones_prior",
    "parity_prior",
    "is_affiliated",
    "inferential_privacy",
    "exchangeable_inferential_privacy",
    "exchangeable_worst_case_lp",
    "beta_binomial_log_weights",
    "tree_inferential_privacy",
    "complete_tree_parents",
    "regular_tree_sup",
    "influence_matrix",
    "ising_influence",
    "theorem_4_2_bound",
]

MAX_ENUMERATED = 20


def states(n: int) -> NDArray[np.int64]:
    """All ``2^n`` databases as rows; row s has ``x_j = (s >> j) & 1``."""
    n = v.integer("n", n, low=1, high=MAX_ENUMERATED)
    s = np.arange(2**n)
    return (s[:, None] >> np.arange(n)[None, :]) & 1


def _eps_vector(epsilon: ArrayLike, n: int) -> NDArray[np.float64]:
    eps = v.nonnegative("epsilon", epsilon)
    if eps.ndim == 0:
        return np.full(n, float(eps))
    if eps.shape != (n,):
        raise ValueError(f"epsilon must be a scalar or a vector of length {n}, got shape {eps.shape}")
    return eps


def ising_prior(n: int, edges: Sequence[tuple[int, int]], coupling: ArrayLike, field: ArrayLike = 0.0) -> NDArray[np.float64]:
    """Ising prior ``pi(x) ∝ exp(sum_{uv} J_uv s_u s_v + sum_v h_v s_v)`` with spins ``s = 2x - 1``;
    ferromagnetic (all ``J >= 0``) priors are positively affiliated (Remark 3.7)."""
    x = states(n)
    spins = 2 * x - 1
    edges = [(int(a), int(b)) for a, b in edges]
    for a, b in edges:
        if not (0 <= a < n and 0 <= b < n) or a == b:
            raise ValueError(f"edges must join two different nodes in [0, {n - 1}], got ({a}, {b})")
    coupling = np.broadcast_to(v.real("coupling", coupling), (len(edges),))
    field = np.broadcast_to(v.real("field", field), (n,))
    energy = spins @ field
    for (a, b), j in zip(edges, coupling):
        energy = energy + j * spins[:, a] * spins[:, b]
    return np.exp(energy - special.logsumexp(energy))


def product_prior(p: ArrayLike) -> NDArray[np.float64]:
    """Independent bits with ``P(x_j = 1) = p_j``."""
    p = v.probability("p", p)
    x = states(p.size)
    return np.prod(np.where(x == 1, p, 1 - p), axis=1)


def clones_prior(n: int, p: float = 0.5) -> NDArray[np.float64]:
    """n identical bits ("clones", Section 2): mass p on all-ones and 1 - p on all-zeros."""
    n = v.integer("n", n, low=1, high=MAX_ENUMERATED)
    p = float(v.probability("p", p, open_ends=True))
    prior = np.zeros(2**n)
    prior[0], prior[-1] = 1 - p, p
    return prior


def parity_prior(k: int, m: int) -> NDArray[np.float64]:
    """Appendix A.1: bit 0 and k blocks of m bits, uniform on the strings where every block's
    parity plus ``x_0`` is even. Pairwise independent (so pairwise positively correlated, weakly)
    but not affiliated. Block b occupies bits ``1 + b m .. (b + 1) m``."""
    k = v.integer("k", k, low=1)
    m = v.integer("m", m, low=2)
    n = 1 + k * m
    x = states(n)
    ok = np.ones(len(x), dtype=bool)
    for b in range(k):
        ok &= (x[:, 0] + x[:, 1 + b * m:1 + (b + 1) * m].sum(axis=1)) % 2 == 0
    return ok / ok.sum()


def _check_prior(prior: ArrayLike) -> tuple[NDArray[np.float64], int]:
    prior = v.pmf("prior", prior)
    n = int(round(np.log2(prior.size)))
    if prior.ndim != 1 or 2**n != prior.size:
        raise ValueError(f"prior must be a vector over the 2^n states, got length {prior.size}")
    return prior, n


def is_affiliated(prior: ArrayLike, tol: float = 1e-12) -> bool:
    """Definition 3.1: ``pi(x or y) pi(x and y) >= pi(x) pi(y)`` for all pairs of databases
    (checked on all pairs, so priors with zeros are handled)."""
    prior, n = _check_prior(prior)
    s = np.arange(prior.size)
    join = s[:, None] | s[None, :]
    meet = s[:, None] & s[None, :]
    return bool((prior[join] * prior[meet] >= prior[:, None] * prior[None, :] - tol).all())


def inferential_privacy(prior: ArrayLike, epsilon: ArrayLike, i: int) -> float:
    """Theorem 3.4, eq. (6): the worst-case inferential privacy of individual i over all
    epsilon-DP mechanisms when the prior is positively affiliated,

    ``max_z log E_{pi_z}[e^{-eps.|x - z1|}] - log E_{pi_{1-z}}[e^{-eps.|x - z1|}]``

    (the acceptance probability of a maximally z-biased mechanism). For other priors it is the
    inferential privacy of that mechanism, a lower bound on the worst case."""
    prior, n = _check_prior(prior)
    i = v.integer("i", i, low=0, high=n - 1)
    eps = _eps_vector(epsilon, n)
    x = states(n)
    with np.errstate(divide="ignore"):
        log_pi = np.log(prior)
    best = -np.inf
    for z in (0, 1):
        log_accept = -(np.abs(x - z) @ eps)
        same, other = x[:, i] == z, x[:, i] != z
        num = special.logsumexp(log_pi[same] + log_accept[same]) - special.logsumexp(log_pi[same])
        den = special.logsumexp(log_pi[other] + log_accept[other]) - special.logsumexp(log_pi[other])
        best = max(best, float(num - den))
    return best


def beta_binomial_log_weights(n: int, a: float, b: float) -> NDArray[np.float64]:
    """``log w_k``: the probability of one particular database with k ones under the
    Beta(a, b) mixture of i.i.d. Bernoulli bits (an exchangeable, affiliated prior)."""
    n = v.integer("n", n, low=1)
    a = float(v.positive("a", a))
    b = float(v.positive("b", b))
    k = np.arange(n + 1)
    return special.betaln(a + k, b + n - k) - special.betaln(a, b)


def _log_odds_of_one(t: NDArray[np.float64], k: NDArray[np.float64], n_minus_k: NDArray[np.float64]) -> float:
    """``log(sum_k e^{t_k} k / sum_k e^{t_k} (n - k))``, the log odds of ``x_i = 1`` when the
    number of ones has log-weights ``t`` (up to a constant), from one exponential pass.

    Only the terms within ``width`` of the largest exponent are exponentiated (a contiguous
    slice when they form one, as for unimodal sequences); the maximum cancels in the ratio. When
    both sums have a term within ``slack`` of that maximum, the dropped terms change each sum by
    less than ``n (n + 1) e^(slack - width) = e^-40`` relative; otherwise each sum is taken on
    its own."""
    n = k.size - 1
    peak = int(t.argmax())
    top = t[peak]
    if not np.isfinite(top):
        raise ValueError("log_weights must contain a finite value")
    slack = 30.0
    # a peak inside 1..n-1 is a term of both sums; at an end, look at the other sum's largest term
    if (peak == 0 and t[1:].max() < top - slack) or (peak == n and t[:-1].max() < top - slack):
        with np.errstate(divide="ignore"):
            return logsumexp_near_max(t[1:] + np.log(k[1:])) - logsumexp_near_max(t[:-1] + np.log(n_minus_k[:-1]))
    width = slack + 40.0 + 2.0 * np.log(n + 1.0)
    keep = t > top - width
    lo, hi = int(keep.argmax()), n + 1 - int(keep[::-1].argmax())
    near = slice(lo, hi) if np.count_nonzero(keep[lo:hi]) == hi - lo else keep
    terms = t[near] - top
    np.exp(terms, out=terms)
    return float(np.log((terms @ k[near]) / (terms @ n_minus_k[near])))


def _check_exchangeable(log_weights: ArrayLike, epsilon: float) -> tuple[NDArray[np.float64], float]:
    """Validate the log-weights of an exchangeable prior (one per number of ones) and epsilon."""
    log_w = v.real("log_weights", log_weights, finite=False)
    if log_w.ndim != 1 or log_w.size < 2:
        raise ValueError("log_weights must be a vector of length n + 1 >= 2")
    if log_w.max() == np.inf:
        raise ValueError("log_weights must not contain +inf")
    return log_w, float(v.nonnegative("epsilon", epsilon))


def exchangeable_inferential_privacy(log_weights: ArrayLike, epsilon: float) -> float:
    """Eq. (6) for an exchangeable prior ``pi(x) = w_{|x|}`` (``log_weights[k] = log w_k``,
    k = 0..n) with uniform epsilon, in O(n): the sums over databases become sums over the number
    of ones with binomial multiplicities.

    The databases with k ones and ``x_i = 1`` number ``C(n-1, k-1) = C(n, k) k / n``, those with
    ``x_i = 0`` number ``C(n, k) (n - k) / n``. So the odds of ``x_i = 1`` under the prior tilted
    by ``e^{s eps k}`` are ``sum_k C(n, k) w_k e^{s eps k} k / sum_k C(n, k) w_k e^{s eps k} (n - k)``,
    and (6) is ``max(odds(+1) / odds(0), odds(0) / odds(-1))`` in log form: one ``gammaln``
    pass, then one exponential pass per tilt ``s in {0, +1, -1}`` (the tilted passes touch only
    the terms near their maximum)."""
    log_w, eps = _check_exchangeable(log_weights, epsilon)
    n = log_w.size - 1
    base = log_binomial_coefficients(n)
    base += log_w  # log(C(n, k) w_k)
    k = np.arange(n + 1, dtype=float)
    n_minus_k = np.subtract(float(n), k)
    prior_odds = _log_odds_of_one(base, k, n_minus_k)
    if not np.isfinite(prior_odds):
        raise ValueError("log_weights must give both values of x_i positive probability")
    if eps == 0.0:
        return 0.0
    # z = 1: acceptance e^{-eps (n - k)} ∝ e^{eps k}; z = 0: acceptance e^{-eps k}
    tilted = np.multiply(k, eps)
    tilted += base
    nu_1 = _log_odds_of_one(tilted, k, n_minus_k) - prior_odds
    np.multiply(k, -eps, out=tilted)
    tilted += base
    nu_0 = prior_odds - _log_odds_of_one(tilted, k, n_minus_k)
    return max(nu_0, nu_1)


def exchangeable_worst_case_lp(log_weights: ArrayLike, epsilon: float) -> float:
    """The worst case over *all* epsilon-DP mechanisms (uniform epsilon) of the inferential
    privacy of one individual under an exchangeable prior ``pi(x) = w_{|x|}``, affiliated or not,
    as a linear program with ``2n`` variables.

    The LP over acceptance functions ``g`` on ``{0,1}^n`` (Charnes-Cooper form of (1)) is invariant
    under the permutations of the other n - 1 records, and its constraints are convex, so an
    optimal g can be averaged over them: g depends only on ``(x_i, c)``, c the number of ones
    among the others. The DP constraints become ``g(a, c) <= e^eps g(a, c +- 1)`` and
    ``g(a, c) <= e^eps g(1 - a, c)``; the weights are ``C(n-1, c) w_{a+c}``. Each direction z is
    solved in the variables ``y = g / b_z``, b_z the maximally z-biased acceptance ``e^{+-eps |x|}``
    (a diagonal rescaling that keeps the coefficients of the n = 10^2..10^3 program within double
    range; y = 1 is the maximally biased mechanism, so the optimum is at least formula (6)).
    For affiliated priors the value equals :func:`exchangeable_inferential_privacy` (Theorem 3.4).
    """
    log_w, eps = _check_exchangeable(log_weights, epsilon)
    n = log_w.size - 1
    c = np.arange(n, dtype=float)
    log_count = log_binomial_coefficients(n - 1)  # C(n-1, c) databases per (x_i, c)
    log_mass = np.stack([log_count + log_w[:-1], log_count + log_w[1:]])  # [a, c]: pi(x_i = a, c)
    log_marginal = special.logsumexp(log_mass, axis=1)
    if not np.isfinite(log_marginal).all():
        raise ValueError("log_weights must give both values of x_i positive probability")
    # variable index a * n + c; neighbours: (a, c) ~ (a, c + 1) and (0, c) ~ (1, c)
    idx = np.arange(2 * n).reshape(2, n)
    pairs = np.concatenate([np.stack([idx[:, :-1].ravel(), idx[:, 1:].ravel()], axis=1),
                            np.stack([idx[0], idx[1]], axis=1)])
    pairs = np.concatenate([pairs, pairs[:, ::-1]])  # g(u) <= e^eps g(v), both ways
    ones = (idx // n + idx % n).astype(float)  # |x| = a + c for every variable
    rows = np.arange(len(pairs))
    best = -np.inf
    for z, sign in ((0, -1.0), (1, 1.0)):
        # maximally z-biased acceptance b = e^{+-eps |x|}; laws of c given x_i = a tilted by b
        log_b = sign * eps * ones.reshape(2, n)
        tilted = log_mass + log_b
        log_scale = special.logsumexp(tilted, axis=1)
        log_law = tilted - log_scale[:, None]
        # variables u = law * g / b: the objective and the normalization become plain sums of u,
        # and g = b is u = law. Zero-mass (a, c) still carry DP constraints: give them the
        # scale of the next positive-mass entry of their row (any positive scale is exact).
        log_d = log_law.copy()
        for a in (0, 1):
            fin = np.flatnonzero(np.isfinite(log_law[a]))
            log_d[a] = log_law[a][fin[np.minimum(np.searchsorted(fin, np.arange(n)), fin.size - 1)]]
        log_d, log_b = log_d.ravel(), log_b.ravel()
        # g_u <= e^eps g_v  <=>  u_u <= e^(eps + log b_v - log b_u + log d_u - log d_v) u_v
        gain = np.exp(eps + log_b[pairs[:, 1]] - log_b[pairs[:, 0]] + log_d[pairs[:, 0]] - log_d[pairs[:, 1]])
        a_ub = sparse.csr_matrix((np.concatenate([np.ones(len(pairs)), -gain]),
                                  (np.concatenate([rows, rows]), np.concatenate([pairs[:, 0], pairs[:, 1]]))),
                                 shape=(len(pairs), 2 * n))
        mass = np.isfinite(log_law).astype(float)
        cost = np.zeros((2, n))
        cost[z] = -mass[z]
        eq = np.zeros((2, n))
        eq[1 - z] = mass[1 - z]
        res = optimize.linprog(cost.ravel(), A_ub=a_ub, b_ub=np.zeros(len(pairs)), A_eq=eq.ravel()[None, :],
                               b_eq=[1.0], bounds=(0, None), method="highs",
                               options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
        if res.status != 0:
            raise RuntimeError(f"LP failed: {res.message}")
        shift = (log_scale[z] - log_marginal[z]) - (log_scale[1 - z] - log_marginal[1 - z])
        best = max(best, float(np.log(-res.fun) + shift))
    return best


def _u(h: NDArray[np.float64], beta: NDArray[np.float64]) -> NDArray[np.float64]:
    """Cavity message ``artanh(tanh(beta) tanh(h))``: directly while the product is below 1/2
    (the log-cosh form would lose digits to cancellation at small fields), and as
    ``(log cosh(h + beta) - log cosh(h - beta)) / 2`` near 1, where artanh loses them."""
    def log_cosh(t: NDArray[np.float64]) -> NDArray[np.float64]:
        t = np.abs(t)
        return t + np.log1p(np.exp(-2 * t)) - np.log(2.0)

    product = np.tanh(beta) * np.tanh(h)
    small = np.abs(product) < 0.5
    return np.where(small, np.arctanh(np.where(small, product, 0.0)), 0.5 * (log_cosh(h + beta) - log_cosh(h - beta)))


def tree_inferential_privacy(parents: ArrayLike, beta: float, epsilon: float) -> float:
    """Eq. (19) on a zero-field Ising tree (the "Zeus" family) by belief propagation, O(n):
    the root's worst-case inferential privacy is ``2 H_root``, the cavity field at the root under
    the external field ``eps / 2`` at every node. ``parents[v]`` is the parent of node v
    (``-1`` for the root, node 0), listed so that parents come before children."""
    parents = np.asarray(parents)
    if parents.ndim != 1 or parents.size == 0 or not np.issubdtype(parents.dtype, np.integer):
        raise ValueError("parents must be a non-empty integer vector")
    if parents[0] != -1 or (parents[1:] < 0).any() or (parents[1:] >= np.arange(1, parents.size)).any():
        raise ValueError("parents must list the root (node 0, parent -1) first and every parent before its children")
    beta = float(v.nonnegative("beta", beta))
    h = float(v.nonnegative("epsilon", epsilon)) / 2.0
    field = np.full(parents.size, h)
    # depth of every node by vector passes (parents come first), then leaves to root level by level
    depth = np.zeros(parents.size, dtype=np.int64)
    safe_parent = np.where(parents < 0, 0, parents)
    for _ in range(parents.size):
        new_depth = np.where(parents < 0, 0, depth[safe_parent] + 1)
        if np.array_equal(new_depth, depth):
            break
        depth = new_depth
    for level in range(int(depth.max()), 0, -1):
        nodes = np.flatnonzero(depth == level)
        np.add.at(field, parents[nodes], _u(field[nodes], beta))
    return float(2.0 * field[0])


def complete_tree_parents(branching: int, depth: int) -> NDArray[np.int64]:
    """Parent vector of the complete b-ary tree of the given depth, in breadth-first order."""
    b = v.integer("branching", branching, low=1)
    depth = v.integer("depth", depth, low=0)
    size = sum(b**level for level in range(depth + 1))
    idx = np.arange(size)
    return np.where(idx == 0, -1, (idx - 1) // b)


def regular_tree_sup(degree: int, beta: float, epsilon: float, iterations: int = 10_000) -> float:
    """Worst case over finite trees of maximum degree D (zero-field Ising, uniform epsilon): the
    limit over balls of the D-regular tree, ``2 (h + D u(H*))`` with H* the largest fixed point of
    ``H = h + (D - 1) u(H)``, ``h = eps / 2`` (iterated from above)."""
    d = v.integer("degree", degree, low=2)
    beta = float(v.nonnegative("beta", beta))
    h = float(v.nonnegative("epsilon", epsilon)) / 2.0
    field = h + (d - 1) * beta + 1.0  # above every fixed point, since u(H) <= beta
    for _ in range(iterations):
        new = h + (d - 1) * _u(field, beta)
        if abs(new - field) < 1e-15:
            break
        field = new
    return float(2.0 * (h + d * _u(field, beta)))


def influence_matrix(prior: ArrayLike) -> NDArray[np.float64]:
    """Definition 4.1: ``gamma_ij = 1/2 max log P(x_i = a | x_-i) / P(x_i = a | x'_-i)`` over
    conditioning databases that differ only in bit j (binary alphabets; ``inf`` where a
    conditional probability is 0)."""
    prior, n = _check_prior(prior)
    s = np.arange(prior.size)
    gamma = np.zeros((n, n))
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(n):
            bit_i = 1 << i
            low = s[(s & bit_i) == 0]  # states with x_i = 0; partner low | bit_i has x_i = 1
            total = prior[low] + prior[low | bit_i]
            log_cond = np.log(np.stack([prior[low], prior[low | bit_i]]) / total)  # [a, configuration of x_-i]
            for j in range(n):
                if j == i:
                    continue
                bit_j = 1 << j
                a_side = (low & bit_j) == 0
                partner = np.searchsorted(low, low[a_side] | bit_j)
                diff = np.abs(log_cond[:, a_side] - log_cond[:, partner])
                gamma[i, j] = 0.5 * np.nan_to_num(diff, nan=np.inf).max()
    return gamma


def ising_influence(beta: ArrayLike, degree: ArrayLike) -> NDArray[np.float64]:
    """Closed form of Definition 4.1 for a zero-field Ising edge (i, j) with coupling beta and
    node i of degree D: ``(log(1 + e^{2 beta D}) - log(1 + e^{2 beta (D - 2)})) / 2``."""
    beta = v.nonnegative("beta", beta)
    d = v.real("degree", degree, low=1.0)
    return 0.5 * (np.logaddexp(0.0, 2 * beta * d) - np.logaddexp(0.0, 2 * beta * (d - 2)))


def theorem_4_2_bound(gamma: ArrayLike, epsilon: ArrayLike) -> NDArray[np.float64]:
    """Theorem 4.2: if the influence matrix has spectral norm below 1, every mechanism with
    individual DP parameters eps_j has ``nu_i <= 2 sum_j [(I - Gamma)^{-1}]_ij eps_j``."""
    gamma = v.real("gamma", gamma, low=0.0)
    if gamma.ndim != 2 or gamma.shape[0] != gamma.shape[1]:
        raise ValueError(f"gamma must be a square matrix, got shape {gamma.shape}")
    norm = np.linalg.norm(gamma, 2)
    if norm >= 1:
        raise ValueError(f"gamma must have spectral norm below 1, got {norm:.4g}")
    eps = _eps_vector(epsilon, gamma.shape[0])
    return 2.0 * np.linalg.solve(np.eye(gamma.shape[0]) - gamma, eps)
