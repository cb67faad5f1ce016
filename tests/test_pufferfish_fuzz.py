"""Fuzz layer for privlib.pufferfish (chapter 000, Sections 7-8): finite mechanisms whose masses
span the whole double range (exact zeros, 1e-300 and 1 - 1e-12), attackers at the extremes, and
the Laplace sum up to n = 10^6 (10^7 once): no NaN, no infinity where the value is finite,
probabilities in [0, 1]; invalid inputs raise ValueError/TypeError naming the argument."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzing import FUZZ, assert_finite, assert_probability, assert_rejects, epsilons, probabilities
from privlib import pufferfish

masses = st.one_of(st.floats(1e-300, 1.0), st.sampled_from([1e-300, 1e-12, 1 - 1e-12]))


def _channel(rng, rows, cols, spread):
    """Rows whose masses span e^{-spread}: log-normal logits, normalised in log space."""
    logits = rng.normal(size=(rows, cols)) * spread
    P = np.exp(logits - logits.max(axis=1, keepdims=True))
    return P / P.sum(axis=1, keepdims=True)


instances = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from([0.1, 5.0, 60.0]), probabilities)   # masses down to ~1e-200


def _instance(seed, spread, p):
    rng = np.random.default_rng(seed)
    data, pairs = pufferfish.level_set_pairs(2)
    P = _channel(rng, 4, 5, spread)
    product = np.array([(p if a else 1 - p) * (0.5) for a, b in data])
    priors = np.vstack([_channel(rng, 1, 4, spread)[0], product / product.sum()])
    return data, pairs, P, priors


@FUZZ
@given(st.lists(masses, min_size=1, max_size=6), st.data(), st.booleans())
def test_density_ratio_metric(mu, data, log):
    nu = data.draw(st.lists(masses, min_size=len(mu), max_size=len(mu)))
    a, b = (np.log(mu), np.log(nu)) if log else (mu, nu)
    d = pufferfish.density_ratio_metric(a, b, log=log)
    assert_finite(d)
    assert d >= 0


@FUZZ
@given(instances)
def test_losses_and_laws(inst):
    data, pairs, P, priors = _instance(*inst)
    for theta in priors:
        for si, _ in pairs:
            law = pufferfish.conditional_output_laws(P, theta, si)
            assert_probability(law, "conditional law")
            assert abs(law.sum() - 1) < 1e-9
    loss, skipped = pufferfish.pufferfish_loss(P, priors, pairs, return_skipped=True)
    km = pufferfish.kifer_machanavajjhala_loss(P, priors, pairs)
    assert_finite([loss, km], "loss")
    assert km == pytest.approx(loss, rel=1e-9, abs=1e-9) and skipped == 0
    nodes, dist = pufferfish.pufferfish_graph(priors, pairs)
    lip = pufferfish.lipschitz_constant(P, nodes, dist)
    assert_finite(lip) and lip <= loss * (1 + 1e-9) + 1e-12


@FUZZ
@given(instances)
def test_posterior_forms(inst):
    data, pairs, P, priors = _instance(*inst)
    theta = priors[0]
    odds = pufferfish.posterior_odds_ratio(P, theta, data[:, 0] == 1, data[:, 0] == 0, log=True)
    assert_finite(odds, "log odds ratio")
    dr = pufferfish.secret_posterior_dR(P, theta, data[:, 0])
    assert_finite(dr, "d_R")
    np.testing.assert_allclose(dr, np.abs(odds), rtol=1e-9, atol=1e-9)      # two cells: d_R = |log odds ratio|


@FUZZ
@given(st.lists(probabilities, min_size=1, max_size=5), epsilons, st.booleans(), instances)
def test_powers(alpha, eps, sharp, inst):
    data, pairs, P, priors = _instance(*inst)
    low, high = pufferfish.pufferfish_power_bounds(alpha, eps, sharp=sharp)
    assert_probability(low)
    assert_probability(high)
    null = pufferfish.conditional_output_laws(P, priors[0], pairs[0][1])
    alt = pufferfish.conditional_output_laws(P, priors[0], pairs[0][0])
    most = pufferfish.neyman_pearson_power(null, alt, alpha)
    least = pufferfish.neyman_pearson_power(null, alt, alpha, minimize=True)
    assert_probability(most)
    assert_probability(least)
    assert (least <= most + 1e-12).all()


@FUZZ
@given(st.sampled_from([1, 2, 3, 10, 1000, 10**5, 10**6]), epsilons, st.one_of(probabilities, st.sampled_from([0.0, 0.5, 1.0])))
def test_laplace_sum_pufferfish_loss(n, eps, rho):
    loss = pufferfish.laplace_sum_pufferfish_loss(n, eps, rho)
    assert_finite(loss)
    # group privacy: the two conditional laws are mixtures of count densities at most n apart
    assert 0 <= loss <= n * eps * (1 + 1e-9) + 1e-12
    if rho == 0.5:
        assert loss == pytest.approx(eps, rel=1e-6)
    if rho == 1.0:
        assert loss == pytest.approx(n * eps, rel=1e-9)


def test_laplace_sum_pufferfish_loss_at_ten_million_records():
    # O(n) memory: a few arrays of 10^7 doubles (the former (n + 1) x n matrix needed 728 TiB)
    assert pufferfish.laplace_sum_pufferfish_loss(10**7, 1e-6, 0.5) == pytest.approx(1e-6, rel=1e-6)


def test_level_set_pairs_extremes():
    data, pairs = pufferfish.level_set_pairs(16)
    assert data.shape == (2**16, 16) and len(pairs) == 16


@pytest.mark.parametrize("call, name", [
    (lambda: pufferfish.density_ratio_metric([0.5, -0.5], [0.5, 0.5]), "mu"),
    (lambda: pufferfish.density_ratio_metric([0.5, 0.5], [0.5, 0.5], axis=1.5), "axis"),
    (lambda: pufferfish.conditional_output_laws([[1.0]], [[0.5], [0.5]], [True]), "prior"),
    (lambda: pufferfish.conditional_output_laws([[1.0], [1.0]], [0.3, 0.3], [True, False]), "prior"),
    (lambda: pufferfish.conditional_output_laws([[1.0], [1.0]], [0.5, 0.5], [True]), "secret"),
    (lambda: pufferfish.pufferfish_loss([[0.5, 0.6], [0.5, 0.5]], [0.5, 0.5], [([1, 0], [0, 1])]), "P"),
    (lambda: pufferfish.pufferfish_loss([[0.5, 0.5], [0.5, 0.5]], [0.5, 0.5], []), "pairs"),
    (lambda: pufferfish.kifer_machanavajjhala_loss(np.full((2, 17), 1 / 17), [0.5, 0.5], [([1, 0], [0, 1])]), "P"),
    (lambda: pufferfish.pufferfish_graph([0.5, 0.5], [([1, 0], [0, 1])], atol=[0.1, 0.2]), "atol"),
    (lambda: pufferfish.lipschitz_constant([[1.0], [1.0]], [[0.5, 0.5]], [[0.0, 1.0]]), "distances"),
    (lambda: pufferfish.posterior_odds_ratio([[1.0], [1.0]], [1.0, 0.0], [False, True], [True, False]), "secret_i"),
    (lambda: pufferfish.secret_posterior_dR([[1.0], [1.0]], [0.5, 0.5], [0.5, 1.0]), "partition"),
    (lambda: pufferfish.neyman_pearson_power([0.5, 0.5], [0.5, 0.5], 0.1, minimize=1), "minimize"),
    (lambda: pufferfish.pufferfish_power_bounds(0.1, [1.0, 2.0]), "epsilon"),
    (lambda: pufferfish.level_set_pairs(17), "n"),
    (lambda: pufferfish.level_set_pairs(2, alphabet=1), "alphabet"),
    (lambda: pufferfish.laplace_sum_pufferfish_loss(0, 1.0, 0.5), "n"),
    (lambda: pufferfish.laplace_sum_pufferfish_loss(3, np.array([1.0, 2.0]), 0.5), "epsilon"),
    (lambda: pufferfish.laplace_sum_pufferfish_loss(3, 1.0, 1.5), "rho"),
    (lambda: pufferfish.laplace_sum_pufferfish_loss(10**8, 1.0, 0.5), "n"),
])
def test_invalid_input_is_named(call, name):
    assert_rejects(call, name=name)
