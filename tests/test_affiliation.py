"""privlib.papers.affiliation: anchor values, brute force against the fast paths, properties, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlib import affiliation
from privlib.verify import claims
from privlib.verify.networked_inferential_privacy import _routes as nip


def test_anchor_values():
    path = affiliation.ising_prior(4, [(0, 1), (1, 2), (2, 3)], 0.5)
    assert affiliation.inferential_privacy(path, 0.5, 0) == pytest.approx(0.8649454596814774, abs=1e-12)
    grid_edges = [(r * 3 + c, r * 3 + c + 1) for r in range(3) for c in range(2)] + [(r * 3 + c, (r + 1) * 3 + c) for r in range(2) for c in range(3)]
    grid = affiliation.ising_prior(9, grid_edges, 0.5)
    assert affiliation.inferential_privacy(grid, 0.2, 4) == pytest.approx(1.0677511014162206, abs=1e-12)


def test_clones_and_product():
    assert affiliation.inferential_privacy(affiliation.clones_prior(4), 0.25, 2) == pytest.approx(1.0)
    prior = affiliation.product_prior([0.2, 0.5, 0.9])
    assert affiliation.inferential_privacy(prior, [0.1, 0.2, 0.3], 1) == pytest.approx(0.2)


def test_exchangeable_matches_enumeration():
    n = 8
    log_w = affiliation.beta_binomial_log_weights(n, 1.5, 3.0)
    x = affiliation.states(n)
    prior = np.exp(log_w[x.sum(axis=1)])
    assert prior.sum() == pytest.approx(1.0)
    assert affiliation.exchangeable_inferential_privacy(log_w, 0.3) == pytest.approx(affiliation.inferential_privacy(prior, 0.3, 0), abs=1e-12)


def test_exchangeable_dragnet_grows_like_log_n():
    values = [affiliation.exchangeable_inferential_privacy(affiliation.beta_binomial_log_weights(n, 2, 2), 0.2) for n in (10, 100, 1000)]
    np.testing.assert_allclose(values, [0.5514983168795509, 2.377373301777485, 4.703389485727968], atol=1e-10)


def test_zeus_tree_anchors():
    beta = 0.5 * np.log(0.7 / 0.3)
    got = [affiliation.tree_inferential_privacy(affiliation.complete_tree_parents(2, depth), beta, 0.1) for depth in (0, 1, 2, 5)]
    np.testing.assert_allclose(got, [0.1, 0.1799, 0.2436, 0.365], atol=5e-5)


def test_affiliation_checks():
    assert affiliation.is_affiliated(affiliation.ising_prior(4, [(0, 1), (2, 3)], 0.4, [0.3, -0.1, 0, 0.2]))
    assert not affiliation.is_affiliated(affiliation.ising_prior(3, [(0, 1)], -0.4))
    assert not affiliation.is_affiliated(affiliation.parity_prior(1, 2))
    assert affiliation.is_affiliated(affiliation.clones_prior(3))


def test_ising_influence_range():
    g = affiliation.ising_influence(0.3, np.arange(1, 8))
    assert g[0] == pytest.approx(0.3) and (g >= 0.3 - 1e-15).all() and (g <= 0.6).all()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), eps=st.floats(0.01, 2.0))
def test_ferromagnetic_formula_between_eps_and_n_eps(seed, eps):
    rng = np.random.default_rng(seed)
    n = 5
    edges = [(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.5]
    prior = affiliation.ising_prior(n, edges, rng.uniform(0, 1, len(edges)), rng.normal(0, 0.5, n))
    nu = affiliation.inferential_privacy(prior, eps, int(rng.integers(n)))
    # at least the individual's own epsilon (FKG), at most the clones' n epsilon
    assert eps - 1e-9 <= nu <= n * eps + 1e-9


@pytest.mark.parametrize("call, exc, fragment", [
    (lambda: affiliation.states(0), ValueError, "n must be an integer in"),
    (lambda: affiliation.inferential_privacy(np.full(8, 1 / 8), -0.1, 0), ValueError, "epsilon must lie in"),
    (lambda: affiliation.inferential_privacy(np.full(8, 1 / 8), 0.1, 3), ValueError, r"i must be an integer in \[0, 2\]"),
    (lambda: affiliation.inferential_privacy(np.full(6, 1 / 6), 0.1, 0), ValueError, "2\\^n states"),
    (lambda: affiliation.inferential_privacy(np.full(8, 1 / 8), [0.1, 0.2], 0), ValueError, "vector of length 3"),
    (lambda: affiliation.ising_prior(3, [(0, 3)], 0.5), ValueError, "edges must join"),
    (lambda: affiliation.theorem_4_2_bound(np.array([[0, 2.0], [2.0, 0]]), 0.1), ValueError, "spectral norm below 1"),
    (lambda: affiliation.tree_inferential_privacy([0, 0], 0.5, 0.1), ValueError, "parents must list the root"),
])
def test_bad_input(call, exc, fragment):
    with pytest.raises(exc, match=fragment):
        call()


def _exchangeable_by_conditional_sums(log_w, eps):
    """Eq. (6) for pi(x) = w_{|x|} summed the plain way: C(n-1, k-1) and C(n-1, k) databases
    with k ones given x_i = 1 and x_i = 0, one scipy logsumexp per sum."""
    from scipy import special
    n = len(log_w) - 1
    k = np.arange(n + 1)
    with np.errstate(divide="ignore"):
        log_c1 = np.where(k >= 1, special.gammaln(n) - special.gammaln(np.maximum(k, 1)) - special.gammaln(n - k + 1), -np.inf) + log_w
        log_c0 = np.where(k <= n - 1, special.gammaln(n) - special.gammaln(k + 1) - special.gammaln(np.maximum(n - k, 1)), -np.inf) + log_w

    def log_mean(log_c, s):
        return special.logsumexp(log_c + s * eps * k) - special.logsumexp(log_c)

    return max(log_mean(log_c1, 1) - log_mean(log_c0, 1), log_mean(log_c0, -1) - log_mean(log_c1, -1))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 3000), a=st.floats(0.05, 20), b=st.floats(0.05, 20), eps=st.floats(0.0, 5.0))
def test_exchangeable_matches_plain_conditional_sums(n, a, b, eps):
    log_w = affiliation.beta_binomial_log_weights(n, a, b)
    assert affiliation.exchangeable_inferential_privacy(log_w, eps) == pytest.approx(_exchangeable_by_conditional_sums(log_w, eps), rel=1e-10, abs=1e-10)


@pytest.mark.parametrize("log_w", [
    # two separated modes: the terms near the maximum do not form one slice
    np.logaddexp(-0.5 * ((np.arange(401) - 40) / 5.0) ** 2, -0.5 * ((np.arange(401) - 360) / 5.0) ** 2),
    # almost all mass on the all-zero database: the x_i = 1 side is summed on its own
    np.concatenate([[0.0], np.full(30, -60.0)]),
])
def test_exchangeable_unusual_weight_shapes(log_w):
    from scipy import special
    n = len(log_w) - 1
    log_w = log_w - special.logsumexp(log_w + special.gammaln(n + 1) - special.gammaln(np.arange(1, n + 2)) - special.gammaln(np.arange(n + 1, 0, -1)))
    for eps in (0.05, 1.0):
        assert affiliation.exchangeable_inferential_privacy(log_w, eps) == pytest.approx(_exchangeable_by_conditional_sums(log_w, eps), rel=1e-11, abs=1e-11)


@pytest.mark.parametrize("log_w, fragment", [
    (np.array([0.0, -np.inf, -np.inf]), "both values of x_i positive probability"),
    (np.array([0.0, np.inf]), "log_weights must not contain"),
    (np.array([0.0]), "log_weights must be a vector"),
    (np.array([0.0, np.nan, 0.0]), "log_weights must not contain NaN"),
])
def test_exchangeable_bad_weights(log_w, fragment):
    with pytest.raises(ValueError, match=fragment):
        affiliation.exchangeable_inferential_privacy(log_w, 0.1)


def test_exchangeable_lp_equals_full_lp_and_formula():
    n = 6
    x = affiliation.states(n)
    for log_w in (affiliation.beta_binomial_log_weights(n, 2.0, 0.5), -0.4 * (np.arange(n + 1) - 2.5) ** 2):
        log_w = log_w - np.log(np.exp(log_w[x.sum(axis=1)]).sum())
        prior = np.exp(log_w[x.sum(axis=1)])
        assert affiliation.exchangeable_worst_case_lp(log_w, 0.4) == pytest.approx(nip._reference_worst_case(prior, 0.4, 0), abs=1e-9)
    beta_binomial = affiliation.beta_binomial_log_weights(40, 2.0, 0.5)
    assert affiliation.exchangeable_worst_case_lp(beta_binomial, 0.3) == pytest.approx(affiliation.exchangeable_inferential_privacy(beta_binomial, 0.3), abs=1e-9)


def test_exchangeable_lp_exactly_m_ones():
    # uniform on the databases with exactly m ones (sampling without replacement): swapping x_i
    # with one other record maps x_i = 1 onto x_i = 0 at Hamming distance 2, so no eps-DP
    # mechanism exceeds 2 eps, and g(x) = exp(eps x_i - eps sum_{j != i} x_j) reaches it.
    # Formula (6) sees a constant |x| and gives 0: the prior is not affiliated.
    n, m, eps = 30, 12, 0.35
    log_w = np.where(np.arange(n + 1) == m, 0.0, -np.inf)
    assert affiliation.exchangeable_worst_case_lp(log_w, eps) == pytest.approx(2 * eps, abs=1e-9)
    assert affiliation.exchangeable_inferential_privacy(log_w, eps) == pytest.approx(0.0, abs=1e-12)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 60), eps=st.floats(0.01, 2.0))
def test_exchangeable_lp_between_formula_and_n_eps(seed, n, eps):
    rng = np.random.default_rng(seed)
    steps = rng.normal(0, 1.0, n)
    log_w = np.concatenate([[0.0], np.cumsum(steps)])  # any exchangeable prior (need not be affiliated)
    lp = affiliation.exchangeable_worst_case_lp(log_w, eps)
    formula = affiliation.exchangeable_inferential_privacy(log_w, eps)
    assert formula - 1e-9 <= lp <= n * eps + 1e-9
    convex = np.concatenate([[0.0], np.cumsum(np.sort(steps))])  # log w convex: affiliated
    assert affiliation.exchangeable_worst_case_lp(convex, eps) == pytest.approx(affiliation.exchangeable_inferential_privacy(convex, eps), abs=1e-8)


@pytest.mark.parametrize("log_w, eps, fragment", [
    (np.zeros(5), -0.1, "epsilon must lie in"),
    (np.zeros(1), 0.1, "log_weights must be a vector"),
    (np.array([0.0, -np.inf, -np.inf]), 0.1, "log_weights must give both values"),
    (np.array([0.0, np.nan]), 0.1, "log_weights must not contain NaN"),
])
def test_exchangeable_lp_bad_input(log_w, eps, fragment):
    with pytest.raises(ValueError, match=fragment):
        affiliation.exchangeable_worst_case_lp(log_w, eps)


def test_bp_message_exact_at_small_fields():
    import mpmath
    # root and one child: nu = eps + 2 artanh(tanh(beta) tanh(eps / 2)), exactly (eq. (19))
    beta, eps = 1e-5, 1e-6
    exact = float(eps + 2 * mpmath.atanh(mpmath.tanh(mpmath.mpf(beta)) * mpmath.tanh(mpmath.mpf(eps) / 2)))
    assert affiliation.tree_inferential_privacy([-1, 0], beta, eps) == pytest.approx(exact, rel=1e-13)


def test_lattice_helpers():
    assert affiliation.grid_edges(2, 3) == [(0, 1), (1, 2), (3, 4), (4, 5), (0, 3), (1, 4), (2, 5)]
    # a single site: alone it is an independent bit (nu = eps); with four plus neighbours its
    # field is 4 beta + eps/2 and nu = 2 artanh(tanh(4 beta + eps/2)) = 8 beta + eps
    assert affiliation.lattice_centre_privacy(1, 1, 0.3, 0.2, "free") == pytest.approx(0.2, abs=1e-12)
    assert affiliation.lattice_centre_privacy(1, 1, 0.3, 0.2, "plus") == pytest.approx(8 * 0.3 + 0.2, abs=1e-12)
    assert affiliation.lattice_centre_privacy(3, 3, 0.5, 0.2, "free") == pytest.approx(1.0677511014162206, abs=1e-12)
    assert affiliation.onsager_bound(0.3) == 0.0
    assert affiliation.onsager_bound(0.6) == pytest.approx(4.314583312782519, abs=1e-12)


@settings(max_examples=15, deadline=None)
@given(beta=st.floats(0.0, 1.0), eps=st.floats(1e-4, 2.0), rows=st.integers(1, 3), cols=st.integers(1, 3))
def test_lattice_free_below_plus_boundary(beta, eps, rows, cols):
    assert affiliation.lattice_centre_privacy(rows, cols, beta, eps, "free") <= affiliation.lattice_centre_privacy(rows, cols, beta, eps, "plus") + 1e-9


def test_coupling_at_row_sum_matches_enumerated_influences():
    for d, delta in ((1, 0.5), (2, 0.9)):
        beta = affiliation.coupling_at_row_sum(d, delta)
        parents = affiliation.complete_tree_parents(d, 2)
        prior = affiliation.ising_prior(parents.size, [(int(parents[u]), u) for u in range(1, parents.size)], beta)
        assert affiliation.influence_matrix(prior).sum(axis=1).max() == pytest.approx(delta, abs=1e-10)


@pytest.mark.parametrize("call, fragment", [
    (lambda: affiliation.lattice_centre_privacy(2, 2, 0.5, 0.1, "fixed"), "boundary must be"),
    (lambda: claims.run("003/thm-a-2-lattice", beta=0.3), "beta must exceed"),
])
def test_lattice_bad_input(call, fragment):
    with pytest.raises(ValueError, match=fragment):
        call()


# --- the LP over all mechanisms, public ---------------------------------------------------------

def test_worst_case_lp_matches_plain_lp_and_known_values():
    rng = np.random.default_rng(11)
    prior = affiliation.ising_prior(5, [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4)], rng.uniform(-0.6, 0.6, 5), rng.normal(0, 0.4, 5))
    eps = rng.uniform(0.1, 1.0, 5)
    for i in range(5):
        assert affiliation.worst_case_lp(prior, eps, i) == pytest.approx(nip._reference_worst_case(prior, eps, i), abs=1e-8)
    # product prior: eps_i; clones: n eps; parity: (k + 1) eps, also at large eps (the rescaled LP)
    assert affiliation.worst_case_lp(affiliation.product_prior([0.2, 0.5, 0.9]), [0.1, 3.0, 0.3], 1) == pytest.approx(3.0, abs=1e-9)
    assert affiliation.worst_case_lp(affiliation.clones_prior(5, 0.4), 10.0, 0) == pytest.approx(50.0, abs=1e-8)
    assert affiliation.worst_case_lp(affiliation.parity_prior(2, 2), 5.0, 0) == pytest.approx(15.0, abs=1e-8)


@pytest.mark.parametrize("call, fragment", [
    (lambda: affiliation.worst_case_lp(affiliation.clones_prior(3), 10.5, 0), r"epsilon must lie in \[0, 10\]"),
    (lambda: affiliation.worst_case_lp(affiliation.clones_prior(13), 0.1, 0), "n <= 12"),
    (lambda: affiliation.worst_case_lp(affiliation.clones_prior(3), 0.1, 3), "i must be an integer"),
    (lambda: affiliation.worst_case_lp(affiliation.parity_prior(3, 2), 8.0, 0), "epsilon is too large for the linear program"),
    (lambda: affiliation.exchangeable_worst_case_lp(np.zeros(5), 16.0), r"epsilon must lie in \[0, 10\]"),
])
def test_lp_refuses_what_it_cannot_resolve(call, fragment):
    with pytest.raises(ValueError, match=fragment):
        call()


def test_exchangeable_lp_at_large_epsilon():
    # eps = 10: coefficients up to e^30 (issue: every eps >= 16 used to fail with a model error,
    # and eps in [15, 16) too); the rescaled LP with chained constraints resolves them
    for n in (20, 300):
        log_w = affiliation.beta_binomial_log_weights(n, 2.0, 0.5)
        assert affiliation.exchangeable_worst_case_lp(log_w, 10.0) == pytest.approx(affiliation.exchangeable_inferential_privacy(log_w, 10.0), abs=1e-8)
    m_ones = np.where(np.arange(51) == 17, 0.0, -np.inf)
    assert affiliation.exchangeable_worst_case_lp(m_ones, 10.0) == pytest.approx(20.0, abs=1e-8)


# --- numerics (issue 15) ------------------------------------------------------------------------

def test_beta_binomial_keeps_tiny_parameters():
    import mpmath
    log_w = affiliation.beta_binomial_log_weights(10, 2.0, 1e-12)
    exact = float(mpmath.log(mpmath.beta(12, mpmath.mpf(1e-12)) / mpmath.beta(2, mpmath.mpf(1e-12))))
    assert log_w[10] == pytest.approx(exact, rel=1e-12)
    assert log_w[9] == pytest.approx(float(mpmath.log(mpmath.beta(11, 1 + mpmath.mpf(1e-12)) / mpmath.beta(2, mpmath.mpf(1e-12)))), rel=1e-13)
    big = affiliation.beta_binomial_log_weights(10**4, 2.0, 1e-13)
    assert np.isfinite(big).all() and (big <= 0).all() and big[-1] < 0


def test_regular_tree_sup_converges_at_criticality():
    beta_c = np.arctanh(0.5)
    assert affiliation.regular_tree_sup(3, beta_c, 0.0) == 0.0  # was 0.0424 (unconverged iteration)
    # at criticality H ~ (3 h / (2 t^3 ...))^(1/3): the value falls like eps^(1/3), never stalls
    values = [affiliation.regular_tree_sup(3, beta_c, e) for e in (1e-12, 1e-9, 1e-6)]
    assert values[0] < values[1] < values[2] < 0.05
    # the fixed point is ill-conditioned there (slope of the map 1 - O(H^2)): 1e-8 relative
    assert values[0] == pytest.approx(nip._mp_tree(3, beta_c, 1e-12), rel=1e-7)
    assert affiliation.tree_spontaneous_privacy(3, beta_c) < 1e-7  # tanh(beta_c) rounds to 1/2 + 1 ulp
    assert affiliation.tree_spontaneous_privacy(3, np.arctanh(0.4999)) == 0.0
    assert affiliation.tree_spontaneous_privacy(3, np.arctanh(0.6)) == pytest.approx(nip._mp_tree(3, np.arctanh(0.6), 0.0, spontaneous=True), rel=1e-10)


def test_tree_anchor_and_bound():
    assert affiliation.regular_tree_sup(3, np.arctanh(0.45), 0.05) == pytest.approx(0.6458481237537252, rel=1e-12)
    assert affiliation.tree_enforceability_bound(3, np.arctanh(0.45), 0.05) == pytest.approx(1.45 * 0.05 / 0.1)
    # critical and beyond are refused; exactly at arctanh(1/2) the double decides (np.arctanh(0.5)
    # differs by an ulp between numpy's SIMD paths, and so does which side of 1 (D - 1) tanh lands)
    for beta in (np.arctanh(0.5) + 1e-12, np.arctanh(0.6)):
        with pytest.raises(ValueError, match="subcritical"):
            affiliation.tree_enforceability_bound(3, beta, 0.1)


def test_tree_bp_chain_and_complete_trees():
    beta = 0.5 * np.log(0.7 / 0.3)
    chain = np.arange(-1, 10**4 - 1)
    # a chain of 10^4 nodes is the complete unary tree of depth 10^4 - 1
    assert affiliation.tree_inferential_privacy(chain, beta, 0.1) == pytest.approx(
        affiliation.complete_tree_inferential_privacy(1, 10**4 - 1, beta, 0.1), rel=1e-12)
    depths = np.arange(0, 9)
    closed = affiliation.complete_tree_inferential_privacy(2, depths, beta, 0.1)
    generic = [affiliation.tree_inferential_privacy(affiliation.complete_tree_parents(2, int(d)), beta, 0.1) for d in depths]
    np.testing.assert_allclose(closed, generic, rtol=1e-13)
    np.testing.assert_allclose(affiliation.complete_tree_inferential_privacy(2, [0, 1, 2, 5, 10, 20], beta, 0.1),
                               [0.1, 0.1799, 0.2436, 0.365, 0.4427, 0.4693], atol=5e-5)


def test_is_affiliated_memory_is_bounded():
    # 2^15 states: 4^15 pairs would need terabytes; full support uses the local 2 x 2 test
    assert affiliation.is_affiliated(affiliation.product_prior(np.full(15, 0.3)))
    # with zeros: pairs within the support only
    assert affiliation.is_affiliated(affiliation.clones_prior(15))
    big_support = np.full(2**14, 1.0)
    big_support[0] = 0.0
    with pytest.raises(ValueError, match="prior too large"):
        affiliation.is_affiliated(big_support / big_support.sum())


def test_is_affiliated_zeros_need_the_pairwise_test():
    support_example = np.where(np.isin(np.arange(8), [1, 6]), 0.5, 0.0)  # x = 100 and 011: local test passes
    assert not affiliation.is_affiliated(support_example)


@pytest.mark.parametrize("call, exc, fragment", [
    (lambda: affiliation.is_affiliated(affiliation.clones_prior(3), tol=np.nan), ValueError, "tol must not contain NaN"),
    (lambda: affiliation.is_affiliated(affiliation.clones_prior(3), tol=-1.0), ValueError, "tol must lie in"),
    (lambda: affiliation.regular_tree_sup(3, 0.5, 0.1, iterations=-1), TypeError, "iterations"),
    (lambda: affiliation.regular_tree_sup(1, 0.5, 0.1), ValueError, "degree must be an integer"),
    (lambda: affiliation.beta_binomial_log_weights(10, 0.0, 1.0), ValueError, "a must lie in"),
    (lambda: affiliation.row_sum_bound(np.array([[0, 0.6], [0.6, 0]]) * 2, 0.1), ValueError, "row sums below 1"),
    (lambda: affiliation.policy_epsilon(1.0, 1.0), ValueError, r"delta must lie in \[0, 1\)"),
    (lambda: affiliation.theorem_4_2_bound(np.array([[0, np.inf], [0.1, 0]]), 0.1), ValueError, "gamma must be finite"),
    (lambda: affiliation.log_expectation_shift_bound(np.zeros((2, 2)), 0.1, np.ones(3)), ValueError, "f must be a vector over the 2"),
    (lambda: affiliation.parity_prior(5, 4), ValueError, "more than the 20"),
    (lambda: affiliation.lattice_centre_privacy(4, 5, 0.5, 0.1), ValueError, "at most 16 sites"),
    (lambda: affiliation.complete_tree_parents(10, 10), ValueError, "too large"),
])
def test_more_bad_input(call, exc, fragment):
    with pytest.raises(exc, match=fragment):
        call()


def test_row_sum_bound_and_policy():
    gamma = np.array([[0.0, 0.3, 0.2], [0.1, 0.0, 0.4], [0.25, 0.25, 0.0]])
    assert affiliation.row_sum_bound(gamma, [0.1, 0.2, 0.05]) == pytest.approx(2 * 0.2 / 0.5)
    # the row-sum bound is never below the spectral one (Phi's rows sum to at most 1 / (1 - delta))
    assert (affiliation.theorem_4_2_bound(gamma, 0.2) <= affiliation.row_sum_bound(gamma, 0.2) + 1e-12).all()
    nu = 0.7
    assert affiliation.row_sum_bound(gamma, affiliation.policy_epsilon(nu, 0.5)) == pytest.approx(nu)


def test_parity_helpers():
    # eq. (18) at k = 2, m = 2, eps = 0.5 (spec anchor 0.7402290139165553)
    assert affiliation.parity_biased_privacy(2, 2, 0.5) == pytest.approx(0.7402290139165553, abs=1e-12)
    cov = affiliation.pairwise_covariances(affiliation.parity_prior(2, 3, 0.2))
    off = cov[~np.eye(7, dtype=bool)]
    np.testing.assert_allclose(off, 0.05, atol=1e-15)


# --- accuracy against mpmath at eps in {1e-8, 1e-3, 1, 10, 40} (issue 15) ---------------------

ACCURACY_EPS = [1e-8, 1e-3, 1.0, 10.0, 40.0]


def _mp_exchangeable(n, a, b, eps):
    import mpmath as mp

    with mp.workdps(40):
        a, b, e = mp.mpf(a), mp.mpf(b), mp.mpf(eps)
        w = [mp.beta(a + k, b + n - k) / mp.beta(a, b) for k in range(n + 1)]

        def mean(side, s):
            pairs = [(mp.binomial(n - 1, k - 1) if side else mp.binomial(n - 1, k), k) for k in range(n + 1)]
            num = sum(c * w[k] * mp.exp(s * e * k) for c, k in pairs)
            return num / sum(c * w[k] for c, k in pairs)

        return float(max(mp.log(mean(1, 1) / mean(0, 1)), mp.log(mean(0, -1) / mean(1, -1))))


@pytest.mark.parametrize("eps", ACCURACY_EPS)
def test_exchangeable_formula_against_mpmath(eps):
    log_w = affiliation.beta_binomial_log_weights(40, 2.0, 3.0)
    assert affiliation.exchangeable_inferential_privacy(log_w, eps) == pytest.approx(_mp_exchangeable(40, 2.0, 3.0, eps), rel=1e-11)


@pytest.mark.parametrize("eps", ACCURACY_EPS)
def test_tree_kernels_against_mpmath(eps):
    import mpmath as mp

    for beta in (0.2, np.arctanh(0.55)):
        assert affiliation.regular_tree_sup(3, beta, eps) == pytest.approx(nip._mp_tree(3, beta, eps), rel=1e-11)
    beta = 0.5 * np.log(0.8 / 0.2)
    with mp.workdps(40):
        t, h = mp.tanh(mp.mpf(beta)), mp.mpf(eps) / 2
        field = h
        for _ in range(6):
            field = h + 2 * mp.atanh(t * mp.tanh(field))
    assert affiliation.complete_tree_inferential_privacy(2, 6, beta, eps) == pytest.approx(float(2 * field), rel=1e-13)
    assert affiliation.tree_inferential_privacy(affiliation.complete_tree_parents(2, 6), beta, eps) == pytest.approx(float(2 * field), rel=1e-13)


@pytest.mark.parametrize("eps", ACCURACY_EPS)
def test_parity_closed_form_against_mpmath(eps):
    import mpmath as mp

    with mp.workdps(60):
        e = mp.mpf(eps)
        exact = float(e + 2 * 3 * mp.atanh(mp.tanh(e / 2) ** 2))
    assert affiliation.parity_biased_privacy(3, 2, eps) == pytest.approx(exact, rel=1e-13)


def test_log_expectation_shift_bound_by_hand():
    # independent records (Gamma = 0): the bound is sum_k rho_k(f) eps_k; f = e^{c x_0} has rho_0 = c
    x = affiliation.states(3)
    f = np.exp(0.7 * x[:, 0] - 0.2 * x[:, 2])
    assert affiliation.log_expectation_shift_bound(np.zeros((3, 3)), [0.1, 0.5, 0.3], f) == pytest.approx(0.7 * 0.1 + 0.2 * 0.3)
    gamma = np.array([[0.0, 0.2, 0.0], [0.1, 0.0, 0.1], [0.0, 0.3, 0.0]])
    phi = np.linalg.inv(np.eye(3) - gamma)
    assert affiliation.log_expectation_shift_bound(gamma, [0.1, 0.5, 0.3], f) == pytest.approx(np.array([0.7, 0.0, 0.2]) @ phi @ [0.1, 0.5, 0.3])


@pytest.mark.parametrize("beta", [40.0, 1e17, 1e300, 1.7e308])
def test_trees_at_couplings_that_absorb_the_fields(beta):
    """At tanh(beta) = 1 every node agrees, so the root's worst case is n eps; beyond beta = 2^53 h
    the sum h + beta rounds to beta, and a log-cosh difference of the two sums gave 0 messages."""
    assert affiliation.tree_inferential_privacy([-1, 0, 0, 1], beta, 1.0) == pytest.approx(4.0, rel=1e-15)
    assert affiliation.complete_tree_inferential_privacy(2, 3, beta, 1.0) == pytest.approx(15.0, rel=1e-15)
    # an infinite field (fields beyond the largest double) sends beta, not NaN
    assert affiliation._u_scalar(float("inf"), beta, 1.0) == beta
    assert float(affiliation._u(np.array([np.inf]), beta)[0]) == beta


def test_cavity_message_against_mpmath_near_one():
    import mpmath

    rng = np.random.default_rng(7)
    for _ in range(300):
        h = float(rng.choice([-1.0, 1.0]) * 10 ** rng.uniform(-1, 2.5))
        beta = float(10 ** rng.uniform(-1, 2.5))
        with mpmath.workdps(40 + int(2 * max(abs(h), beta))):
            ref = float(mpmath.atanh(mpmath.tanh(beta) * mpmath.tanh(h)))
        assert affiliation._u_scalar(h, beta, float(np.tanh(beta))) == pytest.approx(ref, rel=1e-15)
        assert float(affiliation._u(np.array([h]), beta)[0]) == pytest.approx(ref, rel=1e-15)


def test_complete_tree_of_depth_zero_takes_any_branching():
    # one node whatever the branching: a branching beyond int64 is not an OverflowError
    assert affiliation.complete_tree_parents(10**30, 0).tolist() == [-1]
