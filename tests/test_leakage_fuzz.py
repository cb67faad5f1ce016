"""Fuzz layer for privlib.leakage (chapter 001): every public function on valid inputs at the
extremes (probabilities down to 1e-12, epsilon in [1e-12, 50], n up to 10^7) returns finite
values in range, never NaN; invalid inputs raise ValueError/TypeError naming the argument."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzing import FUZZ, assert_finite, assert_rejects, epsilons, probabilities, sizes
from privlib import leakage, mechanisms

alphabets = st.integers(2, 6)


@st.composite
def priors(draw, k=None):
    """A full-support prior with some letters at the extremes (1e-12)."""
    k = k or draw(alphabets)
    raw = np.array([draw(st.sampled_from([1e-12, 1e-6, 0.3, 1.0, 5.0])) for _ in range(k)])
    return raw / raw.sum()


@st.composite
def channels(draw, k):
    """Randomized response at an extreme epsilon, or a random channel with tiny entries."""
    if draw(st.booleans()):
        return mechanisms.RandomizedResponse(draw(epsilons), k).matrix()
    seed = draw(st.integers(0, 2**32 - 1))
    ch = np.random.default_rng(seed).dirichlet(np.full(draw(st.integers(2, 5)), draw(st.sampled_from([0.05, 1.0]))), size=k)
    ch = np.maximum(ch, 1e-300)
    return ch / ch.sum(axis=1, keepdims=True)


@FUZZ
@given(data=st.data())
def test_finite_alphabet_measures_stay_finite_and_in_range(data):
    prior = data.draw(priors())
    channel = data.draw(channels(prior.size))
    ell = leakage.pml(prior, channel)
    assert_finite(ell, "pml")
    assert (ell >= 0).all() and (ell <= -np.log(prior.min()) * (1 + 1e-12) + 1e-12).all()
    assert float(leakage.pml_sup(prior, channel)) == pytest.approx(ell.max())
    cap = leakage.leakage_capacity(channel)
    assert ell.max() <= cap * (1 + 1e-9) + 1e-12
    h = leakage.posterior_min_entropy(prior, channel)
    assert_finite(h, "posterior_min_entropy")
    assert (h >= 0).all() and (h <= np.log(prior.size) + 1e-12).all()
    assert_finite(leakage.min_entropy(prior))
    assert_finite(leakage.smallest_disclosure_cost(prior))
    assert_finite(leakage.singling_out_threshold(prior))
    assert_finite(leakage.renyi_inf_divergence(prior, np.full(prior.size, 1.0 / prior.size)))
    post, p_y = leakage.posterior(prior, channel)
    assert np.allclose(post.sum(axis=0), 1.0) and np.isclose(p_y.sum(), 1.0)
    kernel = np.eye(2)[np.arange(prior.size) % 2]
    assert np.isclose(leakage.attribute_law(prior, kernel).sum(), 1.0)


@FUZZ
@given(eps=epsilons, data=st.data())
def test_randomized_response_pml_matches_its_closed_form_at_every_epsilon(eps, data):
    prior = data.draw(priors())
    rr = mechanisms.RandomizedResponse(eps, prior.size).matrix()
    rest = np.array([np.delete(prior, y).sum() for y in range(prior.size)])  # 1 - P_X(y), no cancellation
    closed = -np.log(rest * np.exp(-eps) + prior)  # log e^eps / (1 + P_X(y)(e^eps - 1)), positive terms
    # the float channel itself carries relative errors of 1e-16 in each entry
    np.testing.assert_allclose(leakage.pml(prior, rr), closed, rtol=1e-6, atol=4e-16)
    target = float(closed.max())
    if target > 0:
        back = float(leakage.randomized_response_epsilon_for_pml(target, prior))
        # the inverse is ill-conditioned near -log p_min: compare in the forward direction
        forward = -np.log(rest.max() * np.exp(-back) + prior.min()) if np.isfinite(back) else -np.log(prior.min())
        assert forward == pytest.approx(target, rel=1e-9)


@FUZZ
@given(h=st.floats(0.0, 50.0), c=st.floats(0.0, 50.0))
def test_capacity_entropy_bound_between_zero_and_the_prior_entropy(h, c):
    b = float(leakage.capacity_entropy_bound(h, c))
    assert 0.0 <= b <= h + 1e-12
    assert b > 0 or h == 0 or h * np.exp(-c) < 1e-300


@FUZZ
@given(n=sizes, p=probabilities, answer=st.sampled_from([0, 1]))
def test_threshold_query_leakage_is_finite_and_non_negative(n, p, answer):
    ell = leakage.threshold_query_leakage(float(n), p, answer)
    assert_finite(ell, "threshold_query_leakage")
    assert ell >= 0
    if p != 0.5:
        bound = leakage.threshold_query_chernoff_bound(n, p)
        assert not np.isnan(bound) and bound >= 0


@FUZZ
@given(n=st.sampled_from([1, 2, 3, 10, 100, 10**4, 10**6, 10**7]), theta=probabilities, eps=epsilons,
       y=st.lists(st.floats(-3.0, 4.0), min_size=1, max_size=4))
def test_laplace_count_pml_is_finite_and_below_its_supremum(n, theta, eps, y):
    ell = leakage.laplace_count_pml(n, theta, eps, np.array(y))
    assert_finite(ell, "laplace_count_pml")
    sup = float(leakage.laplace_count_pml_sup(theta, eps))
    assert (ell >= 0).all() and (ell <= sup * (1 + 1e-9) + 1e-300).all()
    assert sup <= eps * (1 + 1e-12)


@FUZZ
@given(p=st.floats(1e-12, 0.5), eps=epsilons)
def test_prop12_bound_and_its_inverse(p, eps):
    bound = float(leakage.laplace_count_pml_bound(p, eps))
    assert 0 < bound <= eps * (1 + 1e-12)
    budget = float(leakage.dp_budget_for_pml(bound, p))
    forward = float(leakage.laplace_count_pml_bound(p, budget)) if np.isfinite(budget) else -np.log(p)
    assert forward == pytest.approx(bound, rel=1e-9)


@FUZZ
@given(n=sizes, theta=probabilities, eps=epsilons, rho=st.floats(0.0, 1.0))
def test_correlated_count_pml_sup_between_zero_and_the_ceiling(n, theta, eps, rho):
    val = float(leakage.correlated_count_pml_sup(n, theta, eps, rho))
    assert_finite(val, "correlated_count_pml_sup")
    assert 0 <= val <= -np.log(min(theta, 1 - theta)) * (1 + 1e-12) + 1e-12


@FUZZ
@given(n=sizes, probs=st.lists(st.sampled_from([1e-12, 0.1, 1.0, 3.0]), min_size=3, max_size=3),
       support=st.sampled_from([[0.0, 0.25, 1.0], [0.0, 0.5, 1.0], [0.1, 0.2, 0.7]]))
def test_quantized_mean_min_entropy_in_range(n, probs, support):
    probs = np.array(probs) / np.sum(probs)
    h = leakage.quantized_mean_min_entropy(n, support, probs)
    assert 0.0 <= h <= np.log(10) + 1e-12


@FUZZ
@given(n=sizes, group=probabilities, a=st.floats(0.0, 1.0), b=st.floats(0.0, 1.0))
def test_relative_frequencies_min_entropy_in_range(n, group, a, b):
    h = leakage.relative_frequencies_min_entropy(n, group, a, b)
    assert 0.0 <= h <= np.log(11**2) + 1e-12


@FUZZ
@given(data=st.data(), k=st.sampled_from([2, 3]), n=st.sampled_from([1, 2, 3]))
def test_database_measures(data, k, n):
    marg = np.vstack([data.draw(priors(k)) for _ in range(n)])
    prior = leakage.product_prior(marg)
    assert prior.size == k**n and np.isclose(prior.sum(), 1.0)
    channel = data.draw(channels(k**n))
    eps = leakage.database_dp_epsilon(channel, k)
    assert eps <= leakage.free_lunch_epsilon(channel) * (1 + 1e-12) + 1e-12
    for i in range(n):
        ell = leakage.entry_pml(prior, channel, i, k)
        assert_finite(ell, "entry_pml")
        assert ell.max() <= eps * (1 + 1e-9) + 1e-12          # Theorem 9 part 3
        cond = leakage.conditional_entry_pml(prior, channel, i, k)
        assert_finite(cond, "conditional_entry_pml")
        assert cond.max() <= eps * (1 + 1e-9) + 1e-12         # Theorem 9 part 2


@FUZZ
@given(y=st.lists(st.floats(0.0, 740.0), min_size=1, max_size=5), q=probabilities)
def test_posterior_min_entropy_from_likelihood_never_rounds_to_zero(y, q):
    ys = np.array(y)
    h = leakage.posterior_min_entropy_from_likelihood([1 - q, q], np.vstack([-ys, np.log(2.0) - 2 * ys]))
    assert_finite(h)
    # exact: log1p(t) or log1p(1 / t) with t = 2 q / (1 - q) e^{-y}, the posterior odds of X = 1
    log_t = np.log(2 * q) - np.log1p(-q) - ys
    exact = np.log1p(np.exp(-np.abs(log_t)))
    np.testing.assert_allclose(h, exact, rtol=1e-9, atol=0)
    assert (h > 0).all() or (exact < 1e-300).any()


def test_invalid_inputs_name_the_argument():
    good_prior, good_channel = np.array([0.5, 0.5]), np.eye(2)
    assert_rejects(leakage.pml, [0.5, 0.6], good_channel, name="prior")
    assert_rejects(leakage.pml, good_prior, [[0.5, 0.6], [0, 1]], name="channel")
    assert_rejects(leakage.pml_sup, [np.nan, 1.0], good_channel, name="prior")
    assert_rejects(leakage.posterior_min_entropy, good_prior, good_channel, np.ones((3, 2)) / 2, name="kernel")
    assert_rejects(leakage.posterior_min_entropy_from_likelihood, good_prior, np.full((2, 2), np.nan), name="log_likelihood")
    assert_rejects(leakage.leakage_capacity, [[1.0, 0.5]], name="channel")
    assert_rejects(leakage.capacity_entropy_bound, -1.0, 1.0, name="attribute_min_entropy")
    assert_rejects(leakage.smallest_disclosure_cost, [0.2, 0.2], name="prior")
    assert_rejects(leakage.threshold_query_leakage, 2.5, 0.3, name="n")
    assert_rejects(leakage.threshold_query_leakage, 10, 1.0, name="p")
    assert_rejects(leakage.threshold_query_leakage, 10, 0.3, 2, name="answer")
    assert_rejects(leakage.threshold_query_chernoff_bound, 10, 0.5, name="p")
    assert_rejects(leakage.laplace_count_pml, 10, 0.3, 0.0, 0.5, name="epsilon")
    assert_rejects(leakage.laplace_count_pml, 10, np.array([0.3, 0.4]), 1.0, 0.5, name="theta")
    assert_rejects(leakage.laplace_count_pml, 10.5, 0.3, 1.0, 0.5, name="n")
    assert_rejects(leakage.laplace_count_pml, 10, 0.3, 1.0, np.inf, name="y")
    assert_rejects(leakage.laplace_count_pml_sup, 0.0, 1.0, name="theta")
    assert_rejects(leakage.laplace_count_pml_bound, 0.6, 1.0, name="p")
    assert_rejects(leakage.dp_budget_for_pml, 0.0, 0.3, name="pml_target")
    assert_rejects(leakage.randomized_response_epsilon_for_pml, 0.3, [1.0], name="prior")
    assert_rejects(leakage.calibrate_to_pml, "rr", good_prior, 0.3, 0.1, 1.0, name="channel_of")
    assert_rejects(leakage.calibrate_to_pml, lambda t: good_channel, good_prior, -1.0, 0.1, 1.0, name="pml_target")
    assert_rejects(leakage.product_prior, [0.5, 0.5], name="marginals")
    assert_rejects(leakage.database_dp_epsilon, np.eye(3), 2, name="channel")
    assert_rejects(leakage.database_dp_epsilon, np.eye(4), 1.5, name="alphabet_size")
    assert_rejects(leakage.entry_pml, np.full(4, 0.25), np.eye(4), -1, 2, name="i")
    assert_rejects(leakage.conditional_pml, [0.5, 0.5], np.ones((2, 1, 1)), name="prior")
    assert_rejects(leakage.conditional_entry_pml, np.full(4, 0.25), np.ones((4, 2)), 0, 2, name="channel")
    assert_rejects(leakage.correlated_count_pml_sup, 10, 0.3, 1.0, 1.5, name="rho")
    assert_rejects(leakage.correlated_count_pml_sup, 10, 0.3, -1.0, 0.5, name="epsilon")
    assert_rejects(leakage.quantized_mean_min_entropy, 10, [0.0, 2.0], [0.5, 0.5], name="support")
    assert_rejects(leakage.quantized_mean_min_entropy, 10, [0.0, 1.0], [0.5, 0.6], name="probs")
    assert_rejects(leakage.quantized_mean_min_entropy, 10, [0.0, 1.0], [0.5, 0.5], 0, name="cells")
    assert_rejects(leakage.relative_frequencies_min_entropy, 10, 1.0, 0.2, 0.1, name="group")
    assert_rejects(leakage.relative_frequencies_min_entropy, 10, 0.5, 1.2, 0.1, name="rate_in_group")
    assert_rejects(leakage.min_entropy, "abc", name="p")
    assert_rejects(leakage.renyi_inf_divergence, [0.5, 0.5], [1.0], name="q")
    assert_rejects(leakage.set_partitions, 0, name="k")


def test_sizes_beyond_the_limit_are_refused_before_allocating():
    assert_rejects(leakage.quantized_mean_min_entropy, 10**12, [0.0, 0.001, 1.0], [0.2, 0.3, 0.5], name="n")
    assert_rejects(leakage.product_prior, np.full((30, 2), 0.5), name="marginals")
    assert_rejects(leakage.set_partitions, 11, name="k")
