"""Fuzz layer for privlib.affiliation (chapter 003): every public function on valid inputs at
the extremes (eps in [1e-12, 50], probabilities in [1e-12, 1 - 1e-12], n up to 10^7 where the
function is O(n)) returns finite values in range, and invalid inputs raise ValueError/TypeError
naming the argument. Bounded: few examples, small enumerated priors."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzing import FUZZ, assert_finite, assert_probability, assert_rejects, epsilons, probabilities
from privlib import affiliation

small_n = st.integers(1, 6)
couplings = st.floats(-3.0, 3.0)
betas = st.floats(0.0, 20.0)
lp_epsilons = st.floats(1e-12, 3.0)


@st.composite
def ising_priors(draw, n=None):
    n = draw(small_n) if n is None else n
    edges = [(a, b) for a in range(n) for b in range(a + 1, n) if draw(st.booleans())]
    coupling = draw(st.lists(couplings, min_size=len(edges), max_size=len(edges))) if edges else 0.0
    field = draw(st.floats(-3.0, 3.0))
    return affiliation.ising_prior(n, edges, coupling if edges else 0.0, field)


def test_every_public_function_is_fuzzed():
    fuzzed = {name.split("_fuzz_")[-1] for name in globals() if name.startswith("test_fuzz_")}
    assert set(affiliation.__all__) <= fuzzed, sorted(set(affiliation.__all__) - fuzzed)


@FUZZ
@given(n=st.integers(1, 12))
def test_fuzz_states(n):
    x = affiliation.states(n)
    assert x.shape == (2**n, n) and set(np.unique(x)) <= {0, 1}


@FUZZ
@given(prior=ising_priors())
def test_fuzz_ising_prior(prior):
    assert_probability(prior)
    assert prior.sum() == pytest.approx(1.0)


@FUZZ
@given(p=st.lists(probabilities, min_size=1, max_size=8))
def test_fuzz_product_prior(p):
    prior = affiliation.product_prior(p)
    assert_probability(prior)
    assert prior.sum() == pytest.approx(1.0)


@FUZZ
@given(n=st.integers(1, 12), p=probabilities)
def test_fuzz_clones_prior(n, p):
    prior = affiliation.clones_prior(n, p)
    assert_probability(prior)
    assert prior[0] > 0 and prior[-1] > 0 or n == 0


@FUZZ
@given(k=st.integers(1, 3), m=st.integers(2, 4), mixture=st.floats(0.0, 1.0))
def test_fuzz_parity_prior(k, m, mixture):
    prior = affiliation.parity_prior(k, m, mixture)
    assert_probability(prior)
    assert prior.sum() == pytest.approx(1.0)


@FUZZ
@given(rows=st.integers(1, 6), cols=st.integers(1, 6))
def test_fuzz_grid_edges(rows, cols):
    edges = affiliation.grid_edges(rows, cols)
    assert len(edges) == rows * (cols - 1) + (rows - 1) * cols


@FUZZ
@given(prior=ising_priors(), tol=st.floats(0.0, 1e-6))
def test_fuzz_is_affiliated(prior, tol):
    assert affiliation.is_affiliated(prior, tol) in (True, False)


@FUZZ
@given(prior=ising_priors())
def test_fuzz_pairwise_covariances(prior):
    cov = affiliation.pairwise_covariances(prior)
    assert_finite(cov)
    assert (np.abs(cov) <= 0.25 + 1e-12).all()


@FUZZ
@given(prior=ising_priors(), eps=epsilons, data=st.data())
def test_fuzz_inferential_privacy(prior, eps, data):
    n = int(round(math.log2(prior.size)))
    i = data.draw(st.integers(0, n - 1))
    nu = affiliation.inferential_privacy(prior, eps, i)
    assert_finite(nu)
    assert nu <= n * eps * (1 + 1e-9) + 1e-12  # no two databases are further apart than n flips


@FUZZ
@given(prior=ising_priors(n=3), eps=lp_epsilons)
def test_fuzz_worst_case_lp(prior, eps):
    try:
        nu = affiliation.worst_case_lp(prior, eps, 0)
    except ValueError as err:  # a prior whose odds move beyond what the LP resolves is refused
        assert "epsilon" in str(err)
        return
    assert_finite(nu)
    assert affiliation.inferential_privacy(prior, eps, 0) - 1e-8 * max(1, eps) <= nu <= 3 * eps + 1e-8


@FUZZ
@given(n=st.sampled_from([1, 2, 3, 10, 100, 10**4, 10**6]), a=st.floats(1e-12, 1e6), b=st.floats(1e-12, 1e6), eps=epsilons)
def test_fuzz_exchangeable_inferential_privacy(n, a, b, eps):
    nu = affiliation.exchangeable_inferential_privacy(affiliation.beta_binomial_log_weights(n, a, b), eps)
    assert_finite(nu)
    assert -1e-9 * max(1, n * eps) <= nu <= n * eps * (1 + 1e-9) + 1e-12


def test_fuzz_exchangeable_at_ten_million():
    log_w = affiliation.beta_binomial_log_weights(10**7, 2.0, 2.0)
    nu = affiliation.exchangeable_inferential_privacy(log_w, 1e-12)
    assert_finite(nu)
    assert 0 < nu < 1e-4


@FUZZ
@given(n=st.integers(1, 60), a=st.floats(0.05, 50), b=st.floats(0.05, 50), eps=st.floats(1e-12, 10.0))
def test_fuzz_exchangeable_worst_case_lp(n, a, b, eps):
    log_w = affiliation.beta_binomial_log_weights(n, a, b)
    nu = affiliation.exchangeable_worst_case_lp(log_w, eps)
    assert_finite(nu)
    assert nu == pytest.approx(affiliation.exchangeable_inferential_privacy(log_w, eps), abs=1e-7 * max(1.0, eps))


@FUZZ
@given(n=st.sampled_from([1, 2, 3, 10, 100, 10**4, 10**6, 10**7]), a=st.floats(1e-12, 1e12), b=st.floats(1e-12, 1e12))
def test_fuzz_beta_binomial_log_weights(n, a, b):
    log_w = affiliation.beta_binomial_log_weights(n, a, b)
    assert not np.isnan(log_w).any() and (log_w < np.inf).all()
    assert (log_w <= 0).all()  # the probability of one database is at most 1


@FUZZ
@given(k=st.integers(1, 50), m=st.integers(2, 50), eps=epsilons)
def test_fuzz_parity_biased_privacy(k, m, eps):
    nu = affiliation.parity_biased_privacy(k, m, eps)
    assert_finite(nu)
    assert eps * (1 - 1e-12) <= nu <= (k + 1) * eps * (1 + 1e-12)


@FUZZ
@given(parents=st.lists(st.integers(0, 10**6), min_size=0, max_size=200), beta=betas, eps=epsilons)
def test_fuzz_tree_inferential_privacy(parents, beta, eps):
    tree = np.array([-1] + [p % (v + 1) for v, p in enumerate(parents)])
    nu = affiliation.tree_inferential_privacy(tree, beta, eps)
    assert_finite(nu)
    assert eps * (1 - 1e-12) <= nu <= tree.size * eps * (1 + 1e-9)


@FUZZ
@given(b=st.integers(1, 6), depth=st.integers(0, 6))
def test_fuzz_complete_tree_parents(b, depth):
    parents = affiliation.complete_tree_parents(b, depth)
    assert parents[0] == -1 and (parents[1:] < np.arange(1, parents.size)).all()


@FUZZ
@given(b=st.integers(1, 10**4), depth=st.integers(0, 10**4), beta=betas, eps=epsilons)
def test_fuzz_complete_tree_inferential_privacy(b, depth, beta, eps):
    nu = affiliation.complete_tree_inferential_privacy(b, depth, beta, eps)
    assert_finite(nu)
    assert nu >= eps * (1 - 1e-12)


@FUZZ
@given(degree=st.integers(2, 10**4), beta=betas, eps=epsilons)
def test_fuzz_regular_tree_sup(degree, beta, eps):
    nu = affiliation.regular_tree_sup(degree, beta, eps)
    assert_finite(nu)
    assert eps * (1 - 1e-9) <= nu <= (eps + 2 * degree * beta) * (1 + 1e-12)  # u <= beta


@FUZZ
@given(degree=st.integers(2, 10**4), beta=betas)
def test_fuzz_tree_spontaneous_privacy(degree, beta):
    nu = affiliation.tree_spontaneous_privacy(degree, beta)
    assert_finite(nu)
    assert 0 <= nu <= 2 * degree * beta * (1 + 1e-12)


@FUZZ
@given(degree=st.integers(2, 100), frac=st.floats(0.0, 0.999), eps=epsilons)
def test_fuzz_tree_enforceability_bound(degree, frac, eps):
    beta = math.atanh(frac / (degree - 1))
    bound = affiliation.tree_enforceability_bound(degree, beta, eps)
    assert_finite(bound)
    assert bound >= affiliation.regular_tree_sup(degree, beta, eps) * (1 - 1e-9)


@FUZZ
@given(prior=ising_priors())
def test_fuzz_influence_matrix(prior):
    gamma = affiliation.influence_matrix(prior)
    assert_finite(gamma)
    assert (gamma >= 0).all() and (np.diag(gamma) == 0).all()


@FUZZ
@given(beta=betas, degree=st.integers(1, 10**6))
def test_fuzz_ising_influence(beta, degree):
    g = affiliation.ising_influence(beta, degree)
    assert_finite(g)
    assert beta * (1 - 1e-12) <= g <= 2 * beta * (1 + 1e-12) or beta == 0


@st.composite
def small_gammas(draw):
    n = draw(st.integers(1, 5))
    raw = np.array(draw(st.lists(st.floats(0.0, 1.0), min_size=n * n, max_size=n * n))).reshape(n, n)
    np.fill_diagonal(raw, 0.0)
    scale = draw(st.floats(0.0, 0.999))
    total = max(raw.sum(axis=1).max(), np.linalg.norm(raw, 2))  # row sums and spectral norm below 1
    return raw * (scale / total) if total > 0 else raw


@FUZZ
@given(gamma=small_gammas(), eps=epsilons)
def test_fuzz_theorem_4_2_bound(gamma, eps):
    b = affiliation.theorem_4_2_bound(gamma, eps)
    assert_finite(b)
    assert (b >= 2 * eps * (1 - 1e-12)).all()


@FUZZ
@given(gamma=small_gammas(), eps=epsilons)
def test_fuzz_row_sum_bound(gamma, eps):
    b = affiliation.row_sum_bound(gamma, eps)
    assert_finite(b)
    assert (affiliation.theorem_4_2_bound(gamma, eps) <= b * (1 + 1e-9)).all()


@FUZZ
@given(nu=st.floats(0.0, 50.0), delta=st.floats(0.0, 1 - 1e-12))
def test_fuzz_policy_epsilon(nu, delta):
    eps = affiliation.policy_epsilon(nu, delta)
    assert_finite(eps)
    assert 0 <= eps <= nu / 2 + 1e-15


@FUZZ
@given(d=st.integers(1, 10**4), delta=st.floats(1e-12, 50.0))
def test_fuzz_coupling_at_row_sum(d, delta):
    beta = affiliation.coupling_at_row_sum(d, delta)
    assert_finite(beta)
    assert 0 < beta <= delta / (d + 1) * (1 + 1e-12)
    assert (d + 1) * affiliation.ising_influence(beta, d + 1) == pytest.approx(delta, rel=1e-9)


@FUZZ
@given(gamma=small_gammas(), eps=epsilons, data=st.data())
def test_fuzz_log_expectation_shift_bound(gamma, eps, data):
    n = gamma.shape[0]
    f = np.array(data.draw(st.lists(st.floats(1e-12, 1e12), min_size=2**n, max_size=2**n)))
    b = affiliation.log_expectation_shift_bound(gamma, eps, f)
    assert_finite(b)
    assert b >= 0


@FUZZ
@given(beta=st.floats(0.0, 50.0))
def test_fuzz_onsager_bound(beta):
    b = affiliation.onsager_bound(beta)
    assert_finite(b)
    assert b >= 0 and (b == 0) == (beta <= math.log(1 + math.sqrt(2)) / 2 + 1e-15 or b == 0)


@FUZZ
@given(rows=st.integers(1, 3), cols=st.integers(1, 3), beta=st.floats(0.0, 3.0), eps=epsilons,
       boundary=st.sampled_from(["free", "plus"]))
def test_fuzz_lattice_centre_privacy(rows, cols, beta, eps, boundary):
    nu = affiliation.lattice_centre_privacy(rows, cols, beta, eps, boundary)
    assert_finite(nu)
    assert nu >= 0


@pytest.mark.parametrize("call, name", [
    (lambda: affiliation.states(21), "n"),
    (lambda: affiliation.states(2.5), "n"),
    (lambda: affiliation.ising_prior(3, [(0, 1)], [0.1, 0.2]), "coupling"),
    (lambda: affiliation.ising_prior(3, [(0, 1)], 0.1, [0.0, np.nan, 0.0]), "field"),
    (lambda: affiliation.product_prior([0.5, 1.5]), "p"),
    (lambda: affiliation.clones_prior(3, 1.0), "p"),
    (lambda: affiliation.parity_prior(2, 1), "m"),
    (lambda: affiliation.parity_prior(2, 2, 1.5), "mixture"),
    (lambda: affiliation.grid_edges(0, 3), "rows"),
    (lambda: affiliation.is_affiliated(np.full(4, 0.25), tol=np.inf), "tol"),
    (lambda: affiliation.is_affiliated(np.full(4, 0.3)), "prior"),
    (lambda: affiliation.pairwise_covariances(np.full(3, 1 / 3)), "prior"),
    (lambda: affiliation.inferential_privacy(np.full(4, 0.25), np.inf, 0), "epsilon"),
    (lambda: affiliation.inferential_privacy(np.full(4, 0.25), 0.1, -1), "i"),
    (lambda: affiliation.worst_case_lp(np.full(4, 0.25), 50.0, 0), "epsilon"),
    (lambda: affiliation.exchangeable_inferential_privacy([0.0, 0.0], [0.1, 0.2]), "epsilon"),
    (lambda: affiliation.exchangeable_worst_case_lp([0.0, np.inf], 0.1), "log_weights"),
    (lambda: affiliation.beta_binomial_log_weights(0, 1.0, 1.0), "n"),
    (lambda: affiliation.beta_binomial_log_weights(5, 1.0, np.nan), "b"),
    (lambda: affiliation.parity_biased_privacy(1, 2, -1.0), "epsilon"),
    (lambda: affiliation.tree_inferential_privacy([-1, 1], 0.1, 0.1), "parents"),
    (lambda: affiliation.tree_inferential_privacy([-1, 0], -0.1, 0.1), "beta"),
    (lambda: affiliation.complete_tree_parents(0, 2), "branching"),
    (lambda: affiliation.complete_tree_inferential_privacy(2, 1.5, 0.1, 0.1), "depth"),
    (lambda: affiliation.regular_tree_sup(3, 0.1, [0.1, 0.2]), "epsilon"),
    (lambda: affiliation.tree_spontaneous_privacy(3, np.inf), "beta"),
    (lambda: affiliation.tree_enforceability_bound(3, 1.0, 0.1), "beta"),
    (lambda: affiliation.influence_matrix(np.full(3, 1 / 3)), "prior"),
    (lambda: affiliation.ising_influence(0.1, 0.5), "degree"),
    (lambda: affiliation.theorem_4_2_bound(np.ones((2, 3)), 0.1), "gamma"),
    (lambda: affiliation.row_sum_bound(np.zeros((2, 2)), [0.1]), "epsilon"),
    (lambda: affiliation.policy_epsilon(-1.0, 0.5), "nu"),
    (lambda: affiliation.coupling_at_row_sum(2, 0.0), "delta"),
    (lambda: affiliation.log_expectation_shift_bound(np.zeros((1, 1)), 0.1, [1.0, -1.0]), "f"),
    (lambda: affiliation.onsager_bound(-0.1), "beta"),
    (lambda: affiliation.lattice_centre_privacy(2, 2, 0.5, 0.1, boundary="minus"), "boundary"),
])
def test_invalid_input_names_the_argument(call, name):
    assert_rejects(call, name=name)
