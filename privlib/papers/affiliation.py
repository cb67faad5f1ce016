"""Inferential privacy under correlated priors (Ghosh & Kleinberg, "Inferential privacy
guarantees for differentially private mechanisms").

An adversary's prior ``pi`` over databases ``x in {0,1}^n`` may correlate the individuals. The
inferential privacy of individual i is the largest log-factor by which an output can move the
posterior odds of ``x_i`` relative to its prior odds. For positively affiliated priors the worst
case over all epsilon-DP mechanisms has the closed form of Theorem 3.4 (eq. (6)); for other priors
it is a linear program over all epsilon-DP mechanisms (:func:`worst_case_lp`), and for priors with
bounded multiplicative influence Theorem 4.2 bounds it.

Priors on small n are given as probability vectors over the ``2^n`` states, state ``s`` having
``x_j = (s >> j) & 1`` (see :func:`states`). Sums are done in log-space.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize, sparse, special

from privlib.core import _validate as v
from privlib.core._logspace import log_binomial_coefficients
from privlib.core.notions import _exchangeable_formula, beta_binomial_log_weights

__all__ = [
    "states",
    "ising_prior",
    "product_prior",
    "clones_prior",
    "parity_prior",
    "grid_edges",
    "is_affiliated",
    "pairwise_covariances",
    "inferential_privacy",
    "worst_case_lp",
    "exchangeable_inferential_privacy",
    "exchangeable_worst_case_lp",
    "beta_binomial_log_weights",
    "parity_biased_privacy",
    "tree_inferential_privacy",
    "complete_tree_parents",
    "complete_tree_inferential_privacy",
    "regular_tree_sup",
    "tree_spontaneous_privacy",
    "tree_enforceability_bound",
    "influence_matrix",
    "ising_influence",
    "theorem_4_2_bound",
    "row_sum_bound",
    "policy_epsilon",
    "coupling_at_row_sum",
    "log_expectation_shift_bound",
    "onsager_bound",
    "lattice_centre_privacy",
]

#: largest n for which priors are enumerated over their 2^n states
MAX_ENUMERATED = 20
#: largest grid of :func:`grid_edges` (sites)
MAX_GRID_SITES = 10**6
#: largest n of the exchangeable LP of :func:`exchangeable_worst_case_lp`
MAX_EXCHANGEABLE_LP_RECORDS = 5000
#: largest n for the linear program over all epsilon-DP mechanisms on 2^n databases
MAX_LP_RECORDS = 12
#: largest epsilon the linear programs resolve: an optimal mechanism can need acceptance ratios
#: up to e^(2 eps) between databases, beyond what the solver's tolerances (1e-10) separate
MAX_LP_EPSILON = 10.0
#: largest number of (x, y) pairs the affiliation test of a prior with zeros compares
MAX_PAIRS = 2**26


def states(n: int) -> NDArray[np.int64]:
    """All ``2^n`` databases ``x in {0,1}^n`` of Section 2 as rows; row s has ``x_j = (s >> j) & 1``."""
    n = v.integer("n", n, low=1, high=MAX_ENUMERATED)
    s = np.arange(2**n)
    return (s[:, None] >> np.arange(n)[None, :]) & 1


def _bit(n: int, j: int) -> NDArray[np.bool_]:
    """``x_j = 1`` for every state of n records (one boolean vector, no 2^n x n table)."""
    return ((np.arange(2**n) >> j) & 1).astype(bool)


def _weighted_ones(n: int, weights: NDArray[np.float64]) -> NDArray[np.float64]:
    """``sum_j weights_j x_j`` for every state, one pass per record."""
    total = np.zeros(2**n)
    for j in range(n):
        total[_bit(n, j)] += weights[j]
    return total


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
    n = v.integer("n", n, low=1, high=MAX_ENUMERATED)
    edges = [(int(a), int(b)) for a, b in edges]
    for a, b in edges:
        if not (0 <= a < n and 0 <= b < n) or a == b:
            raise ValueError(f"edges must join two different nodes in [0, {n - 1}], got ({a}, {b})")
    coupling = v.real("coupling", coupling)
    if coupling.ndim > 1 or coupling.size not in (1, len(edges)):
        raise ValueError(f"coupling must be a scalar or one value per edge ({len(edges)}), got shape {coupling.shape}")
    coupling = np.broadcast_to(coupling, (len(edges),))
    field = v.real("field", field)
    if field.ndim > 1 or field.size not in (1, n):
        raise ValueError(f"field must be a scalar or one value per node ({n}), got shape {field.shape}")
    field = np.broadcast_to(field, (n,))
    return np.exp(_ising_log_prior(n, edges, coupling, field))


def _ising_log_prior(n: int, edges: list[tuple[int, int]], coupling: NDArray[np.float64], field: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log pi`` of :func:`ising_prior` on validated input (no underflow at strong couplings)."""
    spin = [2.0 * _bit(n, j) - 1.0 for j in range(n)]
    energy = np.zeros(2**n)
    for j in range(n):
        energy += field[j] * spin[j]
    with np.errstate(over="ignore", invalid="ignore"):
        for (a, b), j in zip(edges, coupling):
            energy += j * spin[a] * spin[b]
    if not np.isfinite(energy).all():
        raise ValueError("coupling and field too large: the energy sum_uv |J_uv| + sum_v |h_v| must stay below 1.7e308")
    energy -= energy.max()   # at couplings of 1e300, logsumexp(energy) would round to its top term
    return energy - special.logsumexp(energy)


def product_prior(p: ArrayLike) -> NDArray[np.float64]:
    """Independent bits with ``P(x_j = 1) = p_j`` (Section 2)."""
    p = v.probability("p", p)
    if p.ndim != 1 or p.size == 0:
        raise ValueError(f"p must be a non-empty vector, got shape {p.shape}")
    n = v.integer("len(p)", p.size, high=MAX_ENUMERATED)
    prior = np.ones(2**n)
    for j in range(n):
        prior *= np.where(_bit(n, j), p[j], 1 - p[j])
    return prior


def clones_prior(n: int, p: float = 0.5) -> NDArray[np.float64]:
    """n identical bits ("clones", Section 2): mass p on all-ones and 1 - p on all-zeros."""
    n = v.integer("n", n, low=1, high=MAX_ENUMERATED)
    p = v.scalar("p", p, low=0.0, high=1.0, low_open=True, high_open=True)
    prior = np.zeros(2**n)
    prior[0], prior[-1] = 1 - p, p
    return prior


def parity_prior(k: int, m: int, mixture: float = 0.0) -> NDArray[np.float64]:
    """Appendix A.1: bit 0 and k blocks of m bits, uniform on the strings where every block's
    parity plus ``x_0`` is even (eq. (14)). Pairwise independent (so pairwise positively
    correlated, weakly) but not affiliated. Block b occupies bits ``1 + b m .. (b + 1) m``.

    ``mixture`` = lambda mixes in ``(delta_{0^n} + delta_{1^n}) / 2`` with weight lambda, the
    end of Appendix A.1: every pair then has covariance ``lambda / 4 > 0`` (pairwise strictly
    positively correlated), and every privacy parameter moves continuously with lambda."""
    k = v.integer("k", k, low=1)
    m = v.integer("m", m, low=2)
    mixture = v.scalar("mixture", mixture, low=0.0, high=1.0)
    n = 1 + k * m
    if n > MAX_ENUMERATED:
        raise ValueError(f"k and m give n = 1 + k m = {n} records, more than the {MAX_ENUMERATED} that are enumerated")
    ok = np.ones(2**n, dtype=bool)
    x0 = _bit(n, 0).astype(np.int64)
    for b in range(k):
        block = x0.copy()
        for j in range(1 + b * m, 1 + (b + 1) * m):
            block += _bit(n, j)
        ok &= block % 2 == 0
    prior = (1 - mixture) * ok / ok.sum()
    prior[0] += mixture / 2
    prior[-1] += mixture / 2
    return prior


def grid_edges(rows: int, cols: int) -> list[tuple[int, int]]:
    """Edges of the rows x cols grid graph (free boundary), the finite pieces of Z^2 in Theorem A.2
    part 2; site (r, c) is node r * cols + c."""
    rows = v.integer("rows", rows, low=1)
    cols = v.integer("cols", cols, low=1)
    v.size_limit("rows * cols", rows * cols, MAX_GRID_SITES, "sites")
    return ([(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
            + [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)])


def _check_prior(prior: ArrayLike) -> tuple[NDArray[np.float64], int]:
    prior = v.pmf("prior", prior)
    if prior.ndim != 1:
        raise ValueError(f"prior must be a vector over the 2^n states, got shape {prior.shape}")
    n = int(round(np.log2(prior.size))) if prior.size > 1 else 0
    if n < 1 or 2**n != prior.size:
        raise ValueError(f"prior must be a vector over the 2^n states (n >= 1), got length {prior.size}")
    if n > MAX_ENUMERATED:
        raise ValueError(f"prior has 2^{n} states: at most n = {MAX_ENUMERATED} records are enumerated")
    return prior, n


def is_affiliated(prior: ArrayLike, tol: float = 1e-12) -> bool:
    """Definition 3.1: ``pi(x or y) pi(x and y) >= pi(x) pi(y) - tol`` for all pairs of databases.

    For a prior with full support the local 2 x 2 conditions (x and y differing in two bits)
    imply all others (log-supermodularity is a local property on the cube), O(n^2 2^n). A prior
    with zeros is checked on every pair of states in its support (the local test is wrong there),
    which is refused beyond ``MAX_PAIRS`` pairs."""
    prior, n = _check_prior(prior)
    tol = v.scalar("tol", tol, low=0.0)
    support = np.flatnonzero(prior > 0)
    if support.size == prior.size:
        s = np.arange(prior.size)
        for a in range(n):
            for b in range(a + 1, n):
                base = s[((s >> a) & 1 == 0) & ((s >> b) & 1 == 0)]
                ea, eb = 1 << a, 1 << b
                if (prior[base | ea | eb] * prior[base] < prior[base | ea] * prior[base | eb] - tol).any():
                    return False
        return True
    v.size_limit("prior", float(support.size) ** 2, MAX_PAIRS, "pairs of states in its support")
    chunk = max(1, 2**22 // support.size)
    for start in range(0, support.size, chunk):
        x = support[start:start + chunk, None]
        y = support[None, :]
        if (prior[x | y] * prior[x & y] < prior[x] * prior[y] - tol).any():
            return False
    return True


def pairwise_covariances(prior: ArrayLike) -> NDArray[np.float64]:
    """``Cov(x_a, x_b)`` for every pair of records (Appendix A.1's pairwise positive
    correlation: every off-diagonal entry ``>= 0``; strict when every entry is ``> 0``)."""
    prior, n = _check_prior(prior)
    bits = np.stack([_bit(n, j) for j in range(n)]).astype(float)
    mean = bits @ prior
    second = (bits * prior) @ bits.T
    return second - np.outer(mean, mean)


def inferential_privacy(prior: ArrayLike, epsilon: ArrayLike, i: int) -> float:
    """Theorem 3.4, eq. (6): the worst-case inferential privacy of individual i over all
    epsilon-DP mechanisms when the prior is positively affiliated,

    ``max_z log E_{pi_z}[e^{-eps.|x - z1|}] - log E_{pi_{1-z}}[e^{-eps.|x - z1|}]``

    (the acceptance probability of a maximally z-biased mechanism). For other priors it is the
    inferential privacy of that mechanism, a lower bound on the worst case (:func:`worst_case_lp`)."""
    prior, n = _check_prior(prior)
    i = v.integer("i", i, low=0, high=n - 1)
    return _formula_6(prior, n, _eps_vector(epsilon, n), i)


def _formula_6(prior: NDArray[np.float64], n: int, eps: NDArray[np.float64], i: int) -> float:
    """:func:`inferential_privacy` on validated input (the LPs check their optimum against it)."""
    weighted = _weighted_ones(n, eps)  # eps . x
    with np.errstate(divide="ignore"):
        log_pi = np.log(prior)
    mine = _bit(n, i)
    best = -np.inf
    for z in (0, 1):
        log_accept = -weighted if z == 0 else weighted - eps.sum()  # -eps.|x - z1|
        same, other = mine == bool(z), mine != bool(z)
        if not prior[same].any() or not prior[other].any():
            raise ValueError(f"prior must give both values of x_{i} positive probability")
        num = special.logsumexp(log_pi[same] + log_accept[same]) - special.logsumexp(log_pi[same])
        den = special.logsumexp(log_pi[other] + log_accept[other]) - special.logsumexp(log_pi[other])
        best = max(best, float(num - den))
    return best


def _solve_ratio_lp(num: NDArray[np.bool_], den: NDArray[np.bool_], pairs: NDArray[np.int64],
                    log_gain: NDArray[np.float64]) -> float:
    """``max sum_{num} u`` subject to ``sum_{den} u = 1``, ``u >= 0`` and ``u_p <= e^{log_gain} u_q``
    for every pair (p, q). A pair whose gain exceeds e^20 becomes a chain through auxiliary
    variables, each step within e^20 (the same constraint, with coefficients the solver resolves)."""
    nvar = num.size
    hops = np.maximum(1, np.ceil(np.abs(log_gain) / 20.0)).astype(np.int64)
    total = int(hops.sum())
    owner = np.repeat(np.arange(len(pairs)), hops)
    pos = np.arange(total) - np.repeat(np.cumsum(hops) - hops, hops)
    inner = pos < hops[owner] - 1  # steps that end in an auxiliary variable
    aux = nvar + np.cumsum(inner) - 1
    left = np.where(pos == 0, pairs[owner, 0], np.roll(aux, 1))
    right = np.where(inner, aux, pairs[owner, 1])
    size = nvar + int(inner.sum())
    rows = np.arange(total)
    a_ub = sparse.csr_matrix((np.concatenate([np.ones(total), -np.exp(log_gain[owner] / hops[owner])]),
                              (np.concatenate([rows, rows]), np.concatenate([left, right]))), shape=(total, size))
    cost = np.zeros(size)
    cost[:nvar] = -num
    eq = np.zeros((1, size))
    eq[0, :nvar] = den
    options = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
    for presolve in (True, False):  # HiGHS's presolve can lose nearly degenerate programs (eps -> 0)
        res = optimize.linprog(cost, A_ub=a_ub, b_ub=np.zeros(total), A_eq=eq, b_eq=[1.0], bounds=(0, None),
                               method="highs", options={**options, "presolve": presolve})
        if res.status == 0:
            break
    if res.status != 0:
        raise ValueError(f"epsilon is too large for the linear program on this prior: the worst mechanism needs "
                         f"acceptance ratios the solver cannot resolve ({res.message}); it is reliable while the "
                         f"worst case stays below about 20 nats")
    return float(-res.fun)


def _lp_direction(log_mass: NDArray[np.float64], side: NDArray[np.bool_], log_b: NDArray[np.float64],
                  pairs: NDArray[np.int64], pair_eps: NDArray[np.float64], log_fill: NDArray[np.float64]) -> float:
    """One direction z of the worst-case LP: ``log max E_{pi_z}[g] / E_{pi_{1-z}}[g]`` over
    acceptance functions with ``g_p <= e^{pair_eps} g_q``. ``side`` marks the states with
    ``x_i = z``; ``log_b`` is the maximally z-biased acceptance. The program is solved in
    ``u = law g / b`` (law: the prior tilted by b, normalized on each side), so that the maximally
    biased mechanism is u = law, every coefficient of the objective and of the normalization is 0
    or 1, and the coefficients stay within double range for n up to 10^3 and eps up to
    ``MAX_LP_EPSILON``. ``log_fill`` gives states of zero mass a scale (any positive one is exact)."""
    tilted = log_mass + log_b
    log_scale = np.array([special.logsumexp(tilted[side]), special.logsumexp(tilted[~side])])
    log_law = tilted - np.where(side, log_scale[0], log_scale[1])
    positive = np.isfinite(log_law)
    log_d = np.where(positive, log_law, log_fill)
    log_gain = pair_eps + log_b[pairs[:, 1]] - log_b[pairs[:, 0]] + log_d[pairs[:, 0]] - log_d[pairs[:, 1]]
    best = _solve_ratio_lp((side & positive).astype(float), (~side & positive).astype(float), pairs, log_gain)
    log_marginal = np.array([special.logsumexp(log_mass[side]), special.logsumexp(log_mass[~side])])
    return math.log(best) + (log_scale[0] - log_marginal[0]) - (log_scale[1] - log_marginal[1])


def _lp_epsilon(epsilon: ArrayLike, n: int) -> NDArray[np.float64]:
    eps = _eps_vector(epsilon, n)
    if eps.max() > MAX_LP_EPSILON:
        raise ValueError(f"epsilon must lie in [0, {MAX_LP_EPSILON:g}] for the linear program (an optimal "
                         f"mechanism can need acceptance ratios e^(2 eps), beyond the solver's resolution), "
                         f"got {eps.max():g}")
    return eps


def worst_case_lp(prior: ArrayLike, epsilon: ArrayLike, i: int) -> float:
    """The worst-case inferential privacy of individual i over *every* epsilon-DP mechanism, for
    an arbitrary prior (affiliated or not): ``max`` over mechanisms and output events S of the log
    shift of the posterior odds of x_i (Definition 2.1, eq. (1)).

    Everything depends on the mechanism through its acceptance function ``g(x) = P(M(x) in S)``,
    so the worst case is the linear-fractional program ``max E_{pi_z}[g] / E_{pi_{1-z}}[g]`` over
    ``g >= 0`` with ``g(x) <= e^{eps_j} g(x xor e_j)``, which the Charnes-Cooper transform turns
    into a linear program (2^n variables, n 2^n constraints; HiGHS). Any optimal g scaled down is
    the acceptance function of a binary mechanism, so the value is attained. For affiliated priors
    it equals :func:`inferential_privacy` (Theorem 3.4)."""
    prior, n = _check_prior(prior)
    if n > MAX_LP_RECORDS:
        raise ValueError(f"prior has n = {n} records: the LP over all mechanisms is solved for n <= {MAX_LP_RECORDS}")
    i = v.integer("i", i, low=0, high=n - 1)
    eps = _lp_epsilon(epsilon, n)
    s = np.arange(prior.size)
    pairs = np.concatenate([np.stack([s, s ^ (1 << j)], axis=1) for j in range(n)])
    pair_eps = np.repeat(eps, prior.size)
    weighted = _weighted_ones(n, eps)
    mine = _bit(n, i)
    with np.errstate(divide="ignore"):
        log_mass = np.log(prior)
    if not prior[mine].any() or not prior[~mine].any():
        raise ValueError(f"prior must give both values of x_{i} positive probability")
    best = -np.inf
    for z in (0, 1):
        log_b = -weighted if z == 0 else weighted - eps.sum()
        side = mine == bool(z)
        tilted = log_mass + log_b
        typical = np.median((tilted - log_b)[np.isfinite(tilted)]) - special.logsumexp(tilted[np.isfinite(tilted)])
        best = max(best, _lp_direction(log_mass, side, log_b, pairs, pair_eps, log_b + typical))
    return _checked_lp(best, _formula_6(prior, n, eps, i))


def _checked_lp(value: float, biased: float) -> float:
    """The LP optimum, after checking that it is at least the value of the maximally biased
    mechanism (a feasible point): a smaller optimum means the solver lost accuracy."""
    if not value >= biased - 1e-8 * max(1.0, abs(biased)):
        raise ValueError(f"epsilon is too large for the linear program on this prior: its optimum {value:.6g} fell "
                         f"below the maximally biased mechanism's {biased:.6g} (solver tolerance)")
    return max(value, biased)


def _check_exchangeable(log_weights: ArrayLike, epsilon: float) -> tuple[NDArray[np.float64], float]:
    """Validate the log-weights of an exchangeable prior (one per number of ones) and epsilon."""
    log_w = v.real("log_weights", log_weights, finite=False)
    if log_w.ndim != 1 or log_w.size < 2:
        raise ValueError("log_weights must be a vector of length n + 1 >= 2")
    if log_w.max() == np.inf:
        raise ValueError("log_weights must not contain +inf")
    return log_w, v.scalar("epsilon", epsilon, low=0.0)


def exchangeable_inferential_privacy(log_weights: ArrayLike, epsilon: float) -> float:
    """Eq. (6) for an exchangeable prior ``pi(x) = w_{|x|}`` (``log_weights[k] = log w_k``,
    k = 0..n) with uniform epsilon, in O(n): the sums over databases become sums over the number
    of ones with binomial multiplicities.

    The databases with k ones and ``x_i = 1`` number ``C(n-1, k-1) = C(n, k) k / n``, those with
    ``x_i = 0`` number ``C(n, k) (n - k) / n``. So the odds of ``x_i = 1`` under the prior tilted
    by ``e^{s eps k}`` are ``sum_k C(n, k) w_k e^{s eps k} k / sum_k C(n, k) w_k e^{s eps k} (n - k)``,
    and (6) is ``max(odds(+1) / odds(0), odds(0) / odds(-1))`` in log form: one ``gammaln``
    pass, then one exponential pass per tilt ``s in {0, +1, -1}`` (the tilted passes touch only
    the terms near their maximum). ``ValueError`` where ``n epsilon`` exceeds the largest double
    (1.8e308), or the value does."""
    return _exchangeable_formula(*_check_exchangeable(log_weights, epsilon))


def _exchangeable_pairs(n: int) -> NDArray[np.int64]:
    """Neighbouring (x_i, c) cells of the reduced LP, variable index ``a n + c`` (c ones among
    the other records): ``(a, c) ~ (a, c + 1)`` and ``(0, c) ~ (1, c)``, both directions."""
    idx = np.arange(2 * n).reshape(2, n)
    pairs = np.concatenate([np.stack([idx[:, :-1].ravel(), idx[:, 1:].ravel()], axis=1),
                            np.stack([idx[0], idx[1]], axis=1)])
    return np.concatenate([pairs, pairs[:, ::-1]])


def exchangeable_worst_case_lp(log_weights: ArrayLike, epsilon: float) -> float:
    """The worst case over *all* epsilon-DP mechanisms (uniform epsilon) of the inferential
    privacy of one individual under an exchangeable prior ``pi(x) = w_{|x|}``, affiliated or not,
    as a linear program with ``2n`` variables (n at most ``MAX_EXCHANGEABLE_LP_RECORDS`` = 5000).

    The LP over acceptance functions ``g`` on ``{0,1}^n`` (Charnes-Cooper form of (1)) is invariant
    under the permutations of the other n - 1 records, and its constraints are convex, so an
    optimal g can be averaged over them: g depends only on ``(x_i, c)``, c the number of ones
    among the others. The DP constraints become ``g(a, c) <= e^eps g(a, c +- 1)`` and
    ``g(a, c) <= e^eps g(1 - a, c)``; the weights are ``C(n-1, c) w_{a+c}``. Each direction z is
    solved relative to the maximally z-biased acceptance ``e^{+-eps |x|}`` (a diagonal rescaling
    that keeps the coefficients within double range for n = 10^2..10^3). For affiliated priors the
    value equals :func:`exchangeable_inferential_privacy` (Theorem 3.4).
    """
    log_w, eps = _check_exchangeable(log_weights, epsilon)
    v.size_limit("log_weights", log_w.size - 1, MAX_EXCHANGEABLE_LP_RECORDS, "records (the LP has 2n variables)")
    eps = float(_lp_epsilon(eps, 1)[0])
    n = log_w.size - 1
    log_count = log_binomial_coefficients(n - 1)  # C(n-1, c) databases per (x_i, c)
    log_mass = np.concatenate([log_count + log_w[:-1], log_count + log_w[1:]])  # pi(x_i = a, c)
    side_one = np.repeat([False, True], n)
    if not np.isfinite(log_mass[side_one]).any() or not np.isfinite(log_mass[~side_one]).any():
        raise ValueError("log_weights must give both values of x_i positive probability")
    ones = np.concatenate([np.arange(n), np.arange(1, n + 1)]).astype(float)  # |x| = a + c
    pairs = _exchangeable_pairs(n)
    best = -np.inf
    for z, sign in ((0, -1.0), (1, 1.0)):
        log_b = sign * eps * ones
        log_b -= log_b.max()
        side = side_one == bool(z)
        # zero-mass cells still carry DP constraints: give them the scale of the next
        # positive-mass cell of their row
        tilted = log_mass + log_b
        fill = np.empty(2 * n)
        for a in (0, 1):
            row = tilted[a * n:(a + 1) * n] - special.logsumexp(tilted[(side_one == bool(a))])
            fin = np.flatnonzero(np.isfinite(row))
            fill[a * n:(a + 1) * n] = row[fin[np.minimum(np.searchsorted(fin, np.arange(n)), fin.size - 1)]] if fin.size else 0.0
        best = max(best, _lp_direction(log_mass, side, log_b, pairs, np.full(len(pairs), eps), fill))
    return _checked_lp(best, _exchangeable_formula(log_w, eps))


def parity_biased_privacy(k: int, m: int, epsilon: ArrayLike) -> NDArray[np.float64]:
    """Appendix A.1, eq. (18): the inferential privacy about ``x_0`` of a maximally 0-biased
    mechanism (formula (6)) on the parity prior of k blocks of m bits,
    ``eps + 2 k artanh(tanh(eps / 2)^m)`` (eq. (18) divided, logged): ``eps + O(k eps^m)``, while
    the paper's parity mechanism reaches ``k eps`` and the worst case over all mechanisms is
    ``(k + 1) eps`` (reconstructed: the text we work from lost the formulas). Accurate for every
    epsilon: ``ValueError`` where the value (about ``(k + 1) eps - k log m`` at large eps) exceeds
    the largest double (1.8e308)."""
    k = v.integer("k", k, low=1)
    m = v.integer("m", m, low=2)
    eps = v.nonnegative("epsilon", epsilon)
    power = np.tanh(eps / 2.0) ** m
    # near 1, 2 artanh(y) = log(2 - q) - log(q) with q = 1 - tanh(eps/2)^m from 1 - tanh = 2 / (1 + e^eps);
    # where q is below the smallest normal double (eps beyond ~709), q = 2m e^-eps to a relative
    # 1e-300, so log q = log(2m) + log expit(-eps), finite for every eps
    with np.errstate(over="ignore", divide="ignore"):
        q = -np.expm1(m * np.log1p(-2.0 / (1.0 + np.exp(eps))))
        normal = q >= np.finfo(float).tiny
        log_q = np.where(normal, np.log(np.where(normal, q, 1.0)), np.log(2.0 * m) + special.log_expit(-eps))
    near_one = power >= 0.5
    double_artanh = np.where(near_one, np.log(2.0 - q) - np.where(near_one, log_q, 0.0),
                             2.0 * np.arctanh(np.where(near_one, 0.0, power)))
    with np.errstate(over="ignore"):
        return v.representable("epsilon", eps + k * double_artanh, "the inferential privacy")


def _u(h: NDArray[np.float64] | float, beta: float) -> NDArray[np.float64]:
    """Cavity message ``artanh(tanh(beta) tanh(h))``: directly while the product is below 1/2
    (the log-cosh form would lose digits to cancellation at small fields), and as
    ``(log cosh(h + beta) - log cosh(h - beta)) / 2`` near 1, where artanh loses them. For
    ``beta >= 0`` that difference is ``sign(h) (min(|h|, beta) + (log1p(e^{-2(|h| + beta)}) -
    log1p(e^{-2 ||h| - beta|})) / 2)``, written so: no sum of the two overflows (an infinite field
    sends beta, not NaN), and the minimum is exact."""
    h = np.asarray(h, dtype=float)
    product = np.tanh(beta) * np.tanh(h)
    small = np.abs(product) < 0.5
    a = np.abs(h)
    with np.errstate(over="ignore"):   # |h| + beta beyond the largest double: its term is 0
        far = np.minimum(a, beta) + 0.5 * (np.log1p(np.exp(-2.0 * (a + beta))) - np.log1p(np.exp(-2.0 * np.abs(a - beta))))
    return np.where(small, np.arctanh(np.where(small, product, 0.0)), np.copysign(far, h))


def _u_scalar(h: float, beta: float, t: float) -> float:
    """:func:`_u` for one float, without numpy's per-call overhead (narrow levels of a tree)."""
    product = t * math.tanh(h)
    if abs(product) < 0.5:
        return math.atanh(product)
    a = abs(h)
    far = min(a, beta) + 0.5 * (math.log1p(math.exp(-2.0 * (a + beta))) - math.log1p(math.exp(-2.0 * abs(a - beta))))
    return math.copysign(far, h)


def _tree_depths(parents: NDArray[np.int64]) -> NDArray[np.int64]:
    """Depth of every node by pointer doubling: ``dist[v]`` is the distance from v to its
    ``jump[v]``, and each pass doubles the jump, so O(n log depth) work in whole-array passes."""
    jump = np.where(parents >= 0, parents, 0)
    dist = (parents >= 0).astype(np.int64)
    while (jump != 0).any():
        dist = dist + dist[jump]
        jump = jump[jump]
    return dist


def _check_parents(parents: ArrayLike) -> NDArray[np.int64]:
    arr = np.asarray(parents)
    if arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError("parents must be a non-empty integer vector")
    if arr[0] != -1 or (arr[1:] < 0).any() or (arr[1:] >= np.arange(1, arr.size)).any():
        raise ValueError("parents must list the root (node 0, parent -1) first and every parent before its children")
    return arr.astype(np.int64)


def tree_inferential_privacy(parents: ArrayLike, beta: float, epsilon: float) -> float:
    """Eq. (19) on a zero-field Ising tree (the "Zeus" family of Appendix A.2) by belief
    propagation: the root's worst-case inferential privacy is ``2 H_root``, the cavity field at the
    root under the external field ``eps / 2`` at every node, ``H_v = eps/2 + sum_children u(H_c)``
    with ``u(H) = artanh(tanh(beta) tanh(H))``. ``parents[v]`` is the parent of node v (``-1`` for
    the root, node 0), listed so that parents come before children.

    O(n): a tree that is narrow on average (fewer than 32 nodes per level) is one plain pass over
    the nodes from the last to the first (children come after their parent, so every field is
    complete before it is sent up); a wide one is one vectorized pass per level from the leaves up
    (depths by pointer doubling)."""
    parents = _check_parents(parents)
    beta = v.scalar("beta", beta, low=0.0)
    h = v.scalar("epsilon", epsilon, low=0.0) / 2.0
    if parents.size == 1:
        return 2.0 * h
    t = math.tanh(beta)
    depth = _tree_depths(parents)
    levels = int(depth.max())
    if parents.size < 32 * (levels + 1):
        up = parents.tolist()
        fields = [h] * parents.size
        tanh, atanh = math.tanh, math.atanh
        for node in range(parents.size - 1, 0, -1):
            product = t * tanh(fields[node])
            fields[up[node]] += atanh(product) if product < 0.5 else _u_scalar(fields[node], beta, t)
        return 2.0 * fields[0]
    order = np.argsort(depth, kind="stable")
    ends = np.cumsum(np.bincount(depth))
    field = np.full(parents.size, h)
    for level in range(levels, 0, -1):
        nodes = order[ends[level - 1]:ends[level]]
        if nodes.size < 32:
            for node in nodes.tolist():
                field[parents[node]] += _u_scalar(float(field[node]), beta, t)
        else:
            np.add.at(field, parents[nodes], _u(field[nodes], beta))
    return float(2.0 * field[0])


def complete_tree_parents(branching: int, depth: int) -> NDArray[np.int64]:
    """Parent vector of the complete b-ary tree of the given depth, in breadth-first order (the
    Zeus family tree of Section 1 and Appendix A.2, and the trees of the tightness remark after
    Theorem 4.2)."""
    b = v.integer("branching", branching, low=1)
    depth = v.integer("depth", depth, low=0)
    v.size_limit("branching and depth", depth + 1, 10**8, "nodes")
    v.power_limit("branching and depth", b, depth, 10**8, "nodes")  # b^depth <= size, before the power
    size = depth + 1 if b == 1 else (b ** (depth + 1) - 1) // (b - 1)
    v.size_limit("branching and depth", size, 10**8, "nodes")
    idx = np.arange(size)
    # (idx - 1) // b is 0 for every idx < size <= b: dividing by min(b, size) keeps b within int64
    return np.where(idx == 0, -1, (idx - 1) // min(b, size))


def complete_tree_inferential_privacy(branching: int, depth: ArrayLike, beta: float, epsilon: float) -> float | NDArray[np.float64]:
    """:func:`tree_inferential_privacy` at the root of the complete b-ary tree of each given
    depth (Appendix A.2, the Zeus family tree), by the closed depth recursion: every node at
    distance l from the leaves has the same cavity field ``H_l = eps/2 + b u(H_{l-1})``,
    ``H_0 = eps/2``, so the root of the depth-L tree has ``nu = 2 H_L``. O(max depth), for every
    depth at once."""
    b = v.integer("branching", branching, low=1)
    depths = v.real("depth", depth, low=0.0, high=1e7)
    if not np.array_equal(depths, np.round(depths)):
        raise ValueError("depth must be a non-negative integer (or an array of them)")
    beta = v.scalar("beta", beta, low=0.0)
    h = v.scalar("epsilon", epsilon, low=0.0) / 2.0
    top = int(depths.max()) if depths.size else 0
    fields = np.empty(top + 1)
    fields[0] = h
    t = math.tanh(beta)
    for level in range(1, top + 1):
        fields[level] = h + b * _u_scalar(float(fields[level - 1]), beta, t)
    out = 2.0 * fields[depths.astype(np.int64)]
    return float(out) if out.ndim == 0 else out


def _tree_degree(degree: int) -> int:
    return v.integer("degree", degree, low=2)


def regular_tree_sup(degree: int, beta: float, epsilon: float) -> float:
    """The worst case over all finite trees of maximum degree D (zero-field Ising with coupling
    beta, uniform epsilon): by GKS monotonicity the limit over balls of the D-regular tree around
    their centre, ``2 (h + D u(H*))`` with H* the largest fixed point of ``H = h + (D - 1) u(H)``,
    ``h = eps / 2`` (Appendix A.2; the family sup nu_F(eps) of Definition A.1 and Theorem A.2).

    The fixed point is found by Brent's method on ``[h, h + (D - 1) beta]``, where the map minus
    the identity is concave, positive at h and negative at the top, so it converges at
    criticality too. At eps = 0 the value is 0 (no mechanism is more private than a constant);
    the limit eps -> 0+ is :func:`tree_spontaneous_privacy`. ``ValueError`` where the value (about
    ``2 (h + D beta)`` at large beta) exceeds the largest double (1.8e308)."""
    d = _tree_degree(degree)
    beta = v.scalar("beta", beta, low=0.0)
    h = v.scalar("epsilon", epsilon, low=0.0) / 2.0
    if h == 0.0:
        return 0.0
    if beta == 0.0:
        return 2.0 * h
    t = math.tanh(beta)

    def excess(field: float) -> float:
        return h + (d - 1) * _u_scalar(field, beta, t) - field

    top = v.representable("beta", h + (d - 1) * beta, "the fixed point's bracket h + (D - 1) beta")
    if excess(top) >= 0.0:  # u(top) rounds to beta
        field = top
    else:
        field = optimize.brentq(excess, h, top, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)
    return float(v.representable("beta", 2.0 * (h + d * _u_scalar(field, beta, t)), "the value"))


def tree_spontaneous_privacy(degree: int, beta: float) -> float:
    """``lim_{eps -> 0+}`` of :func:`regular_tree_sup` (Theorem A.2 part 1): 0 when
    ``(D - 1) tanh(beta) <= 1`` (every nu > 0 is differentially enforceable), and otherwise
    ``nu_0 = 2 D u(H_0) > 0`` with H_0 the positive root of ``H = (D - 1) u(H)``: no nu below
    nu_0 can be enforced by any DP level on trees of maximum degree D. ``ValueError`` where the
    value (about ``2 D beta`` at large beta) exceeds the largest double (1.8e308)."""
    d = _tree_degree(degree)
    beta = v.scalar("beta", beta, low=0.0)
    t = math.tanh(beta)
    if (d - 1) * t <= 1.0:
        return 0.0

    def excess(field: float) -> float:
        return (d - 1) * _u_scalar(field, beta, t) - field

    top = v.representable("beta", (d - 1) * beta, "the fixed point's bracket (D - 1) beta")
    low = top
    while excess(low) <= 0.0:
        low /= 4.0
        if low < 1e-300:
            return 0.0  # (D - 1) tanh(beta) is 1 up to rounding
    if excess(top) >= 0.0:
        field = top
    else:
        field = optimize.brentq(excess, low, top, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)
    return float(v.representable("beta", 2.0 * d * _u_scalar(field, beta, t), "the value"))


def tree_enforceability_bound(degree: int, beta: float, epsilon: ArrayLike) -> NDArray[np.float64]:
    """Theorem A.2 part 1 (quantitative, reconstructed: the text we work from breaks off in it): on trees
    of maximum degree D with ``(D - 1) tanh(beta) = 1 - delta < 1``, every eps-DP mechanism has
    ``nu <= (1 + tanh(beta)) eps / delta`` (from ``u(H) <= tanh(beta) H``), so a regulator enforces
    any nu by mandating ``eps = nu delta / (1 + tanh beta)``; tight as eps -> 0. ``ValueError``
    where the bound exceeds the largest double (1.8e308)."""
    d = _tree_degree(degree)
    beta = v.scalar("beta", beta, low=0.0)
    eps = v.nonnegative("epsilon", epsilon)
    t = math.tanh(beta)
    delta = 1.0 - (d - 1) * t
    if delta <= 0.0:
        raise ValueError(f"beta must satisfy (degree - 1) tanh(beta) < 1 (subcritical), got {(d - 1) * t:.6g}")
    with np.errstate(over="ignore"):
        return v.representable("epsilon", (1.0 + t) * eps / delta, "the bound")


def influence_matrix(prior: ArrayLike) -> NDArray[np.float64]:
    """Definition 4.1: ``gamma_ij = 1/2 max log P(x_i = a | x_-i) / P(x_i = a | x'_-i)`` over
    conditioning databases of positive probability that differ only in bit j (binary alphabets;
    ``inf`` where a conditional probability is 0 next to a positive one)."""
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
                both = (total[a_side] > 0) & (total[partner] > 0)
                diff = np.abs(log_cond[:, a_side][:, both] - log_cond[:, partner][:, both])
                gamma[i, j] = 0.5 * np.nan_to_num(diff, nan=np.inf).max() if diff.size else 0.0
    return gamma


def ising_influence(beta: ArrayLike, degree: ArrayLike) -> NDArray[np.float64]:
    """Closed form of Definition 4.1 for a zero-field Ising edge (i, j) with coupling beta and
    node i of degree D: ``(log(1 + e^{2 beta D}) - log(1 + e^{2 beta (D - 2)})) / 2``, between
    beta (D = 1, a leaf) and 2 beta. ``ValueError`` where it exceeds the largest double (1.8e308,
    beta above about 9e307)."""
    beta = v.nonnegative("beta", beta)
    d = v.real("degree", degree, low=1.0)
    if (d != np.round(d)).any():
        raise ValueError(f"degree must be whole numbers >= 1 (a node's degree), got {d[d != np.round(d)].flat[0]:g}")
    beta, d = np.broadcast_arrays(beta, d)
    # log((1 + e^{a + 4 beta}) / (1 + e^a)) = log1p(expm1(4 beta) expit(a)): exact at small beta;
    # beyond e^700, the softplus difference with its linear parts taken exactly
    with np.errstate(over="ignore"):
        low = 2 * beta * (d - 2)
        moderate = 4 * beta < 700
        small_form = 0.5 * np.log1p(np.expm1(np.where(moderate, 4 * beta, 0.0)) * special.expit(low))
        high = 2 * beta * d
        half_linear = np.where(low >= 0, 2 * beta, beta * d)   # half of 4 beta or of high: no overflow before halving
        large_form = half_linear + 0.5 * (np.log1p(np.exp(-np.abs(high))) - np.log1p(np.exp(-np.abs(low))))
    return v.representable("beta", np.where(moderate, small_form, large_form), "the influence")


def _check_gamma(gamma: ArrayLike) -> NDArray[np.float64]:
    gamma = v.real("gamma", gamma, low=0.0, finite=False)
    if gamma.ndim != 2 or gamma.shape[0] != gamma.shape[1] or gamma.shape[0] == 0:
        raise ValueError(f"gamma must be a non-empty square matrix, got shape {gamma.shape}")
    if not np.isfinite(gamma).all():
        raise ValueError("gamma must be finite (an infinite influence: Theorem 4.2 does not apply)")
    return gamma


def _resolvent(gamma: NDArray[np.float64]) -> NDArray[np.float64]:
    """``Phi = (I - Gamma)^-1`` when the spectral norm of Gamma is below 1 (Theorem 4.2)."""
    norm = np.linalg.norm(gamma, 2)
    if norm >= 1:
        raise ValueError(f"gamma must have spectral norm below 1, got {norm:.4g}")
    return np.linalg.inv(np.eye(gamma.shape[0]) - gamma)


def theorem_4_2_bound(gamma: ArrayLike, epsilon: ArrayLike) -> NDArray[np.float64]:
    """Theorem 4.2, eq. (12): if the influence matrix has spectral norm below 1, every mechanism
    with individual DP parameters eps_j has ``nu_i <= 2 sum_j [(I - Gamma)^{-1}]_ij eps_j``
    (``ValueError`` where a bound exceeds the largest double, 1.8e308)."""
    gamma = _check_gamma(gamma)
    eps = _eps_vector(epsilon, gamma.shape[0])
    norm = np.linalg.norm(gamma, 2)
    if norm >= 1:
        raise ValueError(f"gamma must have spectral norm below 1, got {norm:.4g}")
    with np.errstate(over="ignore"):
        return v.representable("epsilon", 2.0 * np.linalg.solve(np.eye(gamma.shape[0]) - gamma, eps), "the bound")


def row_sum_bound(gamma: ArrayLike, epsilon: ArrayLike) -> float:
    """The row-sum corollary of Theorem 4.2: if every row of the influence matrix sums to at most
    ``delta < 1``, every mechanism has ``nu_i <= 2 max_j eps_j / (1 - delta)`` for every i
    (``Phi = sum_k Gamma^k`` has row sums at most ``1 / (1 - delta)``); ``ValueError`` where the
    bound exceeds the largest double (1.8e308)."""
    gamma = _check_gamma(gamma)
    eps = _eps_vector(epsilon, gamma.shape[0])
    delta = float(gamma.sum(axis=1).max())
    if delta >= 1:
        raise ValueError(f"gamma must have row sums below 1, got {delta:.4g}")
    with np.errstate(over="ignore"):
        return float(v.representable("epsilon", 2.0 * float(eps.max()) / (1.0 - delta), "the bound"))


def policy_epsilon(nu: ArrayLike, delta: ArrayLike) -> NDArray[np.float64]:
    """The policy rule of Theorem 4.2 (Section 1): mandating ``eps = nu (1 - delta) / 2`` for every
    record guarantees nu-inferential privacy against every prior whose influence matrix has row
    sums at most ``delta < 1`` (inverting :func:`row_sum_bound`)."""
    nu = v.nonnegative("nu", nu)
    delta = v.real("delta", delta, low=0.0, high=1.0, high_open=True)
    return nu * (1.0 - delta) / 2.0


def coupling_at_row_sum(d: int, delta: float) -> float:
    """The coupling beta at which the largest row sum of the exact influence matrix of the
    zero-field Ising model on a complete d-ary tree, ``(d + 1) gamma(beta, d + 1)`` at an internal
    node (degree d + 1), equals delta (the tightness remark after Theorem 4.2). Since
    ``gamma >= beta``, the root lies below ``delta / (d + 1)``."""
    d = v.integer("d", d, low=1)
    delta = v.scalar("delta", delta, low=0.0, low_open=True)
    top = delta / (d + 1)
    return float(optimize.brentq(lambda b: (d + 1) * float(ising_influence(b, d + 1)) - delta, 0.0, top,
                                 xtol=1e-300, rtol=4 * np.finfo(float).eps))


def log_expectation_shift_bound(gamma: ArrayLike, epsilon: ArrayLike, f: ArrayLike) -> float:
    """Eq. (13) of the proof of Theorem 4.2 (reconstructed: the text we work from lost the formula): for a
    positive function f of the database and the posterior ``pi_hat = pi( . | M(x) in S)`` of any
    mechanism with DP parameters eps_j,
    ``|log pi_hat(f) - log pi(f)| <= sum_{k,j} rho_k(f) [(I - Gamma)^-1]_kj eps_j``,
    with ``rho_k(f) = max_{x ~_k y} log(f(x) / f(y))`` the multiplicative Lipschitz constants of f.
    Returns the right-hand side; ``f`` is a vector over the 2^n states. ``ValueError`` where it
    exceeds the largest double (1.8e308)."""
    gamma = _check_gamma(gamma)
    n = gamma.shape[0]
    eps = _eps_vector(epsilon, n)
    f = v.positive("f", f)
    if f.shape != (2**n,):
        raise ValueError(f"f must be a vector over the 2^{n} states, got shape {f.shape}")
    log_f = np.log(f)
    s = np.arange(2**n)
    rho = np.array([np.abs(log_f - log_f[s ^ (1 << k)]).max() for k in range(n)])
    with np.errstate(over="ignore", invalid="ignore"):
        bound = float(rho @ _resolvent(gamma) @ eps)
    if np.isnan(bound):      # 0 * inf: a constant f (rho = 0) with an overflowing Phi eps
        bound = 0.0 if not rho.any() else np.inf
    return float(v.representable("epsilon", bound, "the bound"))


def onsager_bound(beta: float) -> float:
    """Theorem A.2 part 2 (reconstructed): on finite subgraphs of Z^2 with beta above
    ``beta_c = log(1 + sqrt 2) / 2`` the worst case is at least ``log((1 + m*)/(1 - m*))`` for
    every eps > 0, with Onsager and Yang's spontaneous magnetization
    ``m* = (1 - sinh(2 beta)^-4)^(1/8)`` (0 at or below beta_c). About ``8 beta`` at large beta:
    ``ValueError`` where it exceeds the largest double (1.8e308, beta above about 2.2e307)."""
    beta = v.scalar("beta", beta, low=0.0)
    if beta <= math.log(1 + math.sqrt(2)) / 2:
        return 0.0
    # log s = -4 log sinh(2 beta); q = 1 - m* = 1 - (1 - s)^(1/8); nu = log((2 - q) / q)
    log_s = -4.0 * (2 * beta + math.log1p(-math.exp(-4 * beta)) - math.log(2.0))
    if log_s >= 0.0:
        return 0.0
    s = math.exp(log_s)
    if s < 1e-8:
        log_q = log_s - math.log(8.0) + math.log1p(7 * s / 16)
    else:
        log_q = math.log(-math.expm1(math.log1p(-s) / 8))
    q = math.exp(log_q)
    return float(v.representable("beta", math.log(2.0 - q) - log_q, "the bound"))


def lattice_centre_privacy(rows: int, cols: int, beta: float, epsilon: float, boundary: str = "free") -> float:
    """Worst-case inferential privacy at the centre site of a rows x cols box of the zero-field
    Ising model with coupling beta, by enumeration (Theorem A.2 part 2): ``boundary="free"`` is
    formula (6) for the box itself (a member of the family, so a lower bound on its sup);
    ``"plus"`` is ``2 artanh`` of the centre magnetization under the field eps/2 with every spin
    outside the box fixed to +1, which bounds the value of every finite subgraph of Z^2 that
    contains the box around its centre from above (GKS: adding sites and edges raises the
    magnetization; FKG: the all-plus outside is the most favourable boundary). ``ValueError``
    where the Ising energy (``beta`` times the number of edges, plus boundary and field terms)
    reaches the largest double."""
    rows = v.integer("rows", rows, low=1)
    cols = v.integer("cols", cols, low=1)
    n = rows * cols
    if n > 16:
        raise ValueError(f"rows * cols must be at most 16 sites to enumerate, got {n}")
    beta = v.scalar("beta", beta, low=0.0)
    epsilon = v.scalar("epsilon", epsilon, low=0.0)
    centre = (rows // 2) * cols + (cols - 1) // 2
    edges = grid_edges(rows, cols)
    if boundary not in ("free", "plus"):
        raise ValueError(f"boundary must be 'free' or 'plus', got {boundary!r}")
    r, c = np.divmod(np.arange(n), cols)
    outside = (r == 0).astype(float) + (r == rows - 1) + (c == 0) + (c == cols - 1)  # plus neighbours
    energy = beta * len(edges) + (beta * float(outside.sum()) + n * epsilon / 2 if boundary == "plus" else 0.0)
    if not energy < 1.7e308:
        raise ValueError(f"beta and epsilon too large: the Ising energy beta x edges (+ boundary and field terms) "
                         f"must stay below 1.7e308, got {energy:.3g}")
    if boundary == "free":
        return inferential_privacy(ising_prior(n, edges, beta), epsilon, centre)
    # 2 artanh(M) = log P(x_centre = 1) - log P(x_centre = 0) under the Gibbs measure
    log_gibbs = _ising_log_prior(n, edges, np.full(len(edges), beta), beta * outside + epsilon / 2)
    up = _bit(n, centre)
    return float(special.logsumexp(log_gibbs[up]) - special.logsumexp(log_gibbs[~up]))
