"""privlib.papers.pufferfish: hand-derived values, consistency of the equivalent forms, properties of the
two metrics, bad input; the chapter's Pufferfish claims are registered (tests/test_claims.py runs
every registered claim)."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlib import claims, pufferfish


def _rr(eps):
    """Binary randomized response: keep the bit with probability e^eps / (1 + e^eps)."""
    keep = np.exp(eps) / (1 + np.exp(eps))
    return np.array([[keep, 1 - keep], [1 - keep, keep]])


def test_asymmetric_example_of_proposition_e17():
    # P/Q = (2, 1, 1/4): largest |log ratio| is ln 4; max minus min log ratio is ln 2 + ln 4
    p, q = [0.6, 0.3, 0.1], [0.3, 0.3, 0.4]
    assert pufferfish.multiplicative_distance(p, q) == pytest.approx(np.log(4))
    assert pufferfish.density_ratio_metric(p, q) == pytest.approx(np.log(8))
    # P/Q = (5/2, 1, 2/5): the upper inequality of (35) is an equality
    r = [0.5, 0.3, 0.2]
    assert pufferfish.density_ratio_metric(r, r[::-1]) == pytest.approx(2 * pufferfish.multiplicative_distance(r, r[::-1]))


def test_density_ratio_metric_conventions():
    assert pufferfish.density_ratio_metric([0.5, 0.5, 0.0], [0.25, 0.5, 0.25]) == np.inf
    assert pufferfish.density_ratio_metric([0.0, 0.0], [0.0, 0.0]) == 0.0
    assert pufferfish.density_ratio_metric([0.2, 0.0, 0.8], [0.5, 0.0, 0.5]) == pytest.approx(np.log(1.6 / 0.4))
    # scale invariance: a pseudo-metric on measures (Proposition C.7, eq. (29))
    nu = np.array([0.1, 0.7, 0.2])
    assert pufferfish.density_ratio_metric(5.0 * nu, nu) == pytest.approx(0.0, abs=1e-15)
    assert pufferfish.multiplicative_distance(5.0 * nu, nu) == pytest.approx(np.log(5.0))


def test_density_ratio_metric_broadcasts_and_log_input_survives_underflow():
    rng = np.random.default_rng(0)
    a, b = rng.dirichlet(np.ones(5), size=7), rng.dirichlet(np.ones(5), size=7)
    rows = pufferfish.density_ratio_metric(a, b)
    assert rows.shape == (7,)
    np.testing.assert_allclose(rows, [pufferfish.density_ratio_metric(x, y) for x, y in zip(a, b)], rtol=1e-14)
    np.testing.assert_allclose(pufferfish.density_ratio_metric(a.T, b.T, axis=0), rows, rtol=1e-14)
    np.testing.assert_allclose(pufferfish.density_ratio_metric(np.log(a), np.log(b), log=True), rows, rtol=1e-12)
    # masses e^-900 and e^-905 underflow to 0 in floating point, their logs do not
    assert pufferfish.density_ratio_metric([-900.0, -905.0], [-903.0, -903.0], log=True) == pytest.approx(5.0)


def test_pufferfish_loss_of_randomized_response_is_epsilon():
    # one binary record: the secrets {x = 1} and {x = 0} condition every attacker to a point mass
    loss = pufferfish.pufferfish_loss(_rr(0.7), [[0.3, 0.7], [0.9, 0.1]], [([False, True], [True, False])])
    assert loss == pytest.approx(0.7)


def test_pairs_with_a_null_secret_are_skipped_and_counted():
    pairs = [([False, True], [True, False])]
    loss, skipped = pufferfish.pufferfish_loss(_rr(0.7), [[0.5, 0.5], [1.0, 0.0]], pairs, return_skipped=True)
    assert skipped == 1 and loss == pytest.approx(0.7)
    with pytest.raises(ValueError, match="pairs: no"):
        pufferfish.pufferfish_loss(_rr(0.7), [[1.0, 0.0]], pairs)


def test_correlated_attacker_exceeds_the_dp_loss():
    # two records, Laplace-free finite version: RR on each record; the attacker believes X_2 = X_1
    data, pairs = pufferfish.level_set_pairs(2)
    rr = _rr(1.0)
    P = np.array([[rr[a, s] * rr[b, u] for s, u in data] for a, b in data])
    independent = np.full(4, 0.25)
    copied = np.array([0.5, 0.0, 0.0, 0.5])
    assert pufferfish.pufferfish_loss(P, independent, pairs) == pytest.approx(1.0)
    assert pufferfish.pufferfish_loss(P, copied, pairs) == pytest.approx(2.0)


def test_forms_of_theorem_8_1_agree():
    rng = np.random.default_rng(3)
    data, pairs = pufferfish.level_set_pairs(2)
    P = rng.dirichlet(np.ones(4), size=4)
    priors = rng.dirichlet(np.ones(4), size=3)
    loss = pufferfish.pufferfish_loss(P, priors, pairs)
    assert pufferfish.kifer_machanavajjhala_loss(P, priors, pairs) == pytest.approx(loss, rel=1e-12)
    nodes, dist = pufferfish.pufferfish_graph(priors, pairs)
    assert pufferfish.lipschitz_constant(P, nodes, dist) == pytest.approx(loss, rel=1e-12)


def test_graph_of_singleton_secrets_is_the_hamming_graph():
    data, _ = pufferfish.level_set_pairs(3)
    pairs = [(np.arange(8) == a, np.arange(8) == b) for a, b in itertools.combinations(range(8), 2)
             if np.abs(data[a] - data[b]).sum() == 1]
    nodes, dist = pufferfish.pufferfish_graph(np.full((1, 8), 1 / 8), pairs)
    order = nodes.argmax(axis=1)                       # each node is the point mass on one dataset
    hamming = np.abs(data[order][:, None, :] - data[order][None, :, :]).sum(axis=2)
    np.testing.assert_array_equal(dist, hamming)


def test_posterior_forms_of_theorem_8_5_and_eq_17_agree():
    rng = np.random.default_rng(4)
    data, _ = pufferfish.level_set_pairs(3)
    P = rng.dirichlet(np.ones(5), size=8)
    prior = rng.dirichlet(np.ones(8))
    first = data[:, 0]
    odds = pufferfish.posterior_odds_ratio(P, prior, first == 1, first == 0, log=True)
    np.testing.assert_allclose(pufferfish.secret_posterior_dR(P, prior, first), np.abs(odds), rtol=1e-12)
    likelihood = [pufferfish.conditional_output_laws(P, prior, first == k) for k in (1, 0)]
    np.testing.assert_allclose(odds, np.log(likelihood[0] / likelihood[1]), rtol=1e-12)


def test_an_impossible_output_constrains_nothing():
    P = np.array([[0.5, 0.5, 0.0], [0.25, 0.75, 0.0]])
    assert pufferfish.secret_posterior_dR(P, [0.5, 0.5], [0, 1])[2] == 0.0


def test_neyman_pearson_power_randomized_response():
    # one bit, eps = 1: level 0.1 reaches 0.1 e (Theorem 5.1's bound); level 0.5 only 1 - 0.5 / e
    rr = _rr(1.0)
    best = pufferfish.neyman_pearson_power(rr[0], rr[1], [0.1, 0.5, 1.0])
    np.testing.assert_allclose(best, [0.1 * np.e, 1 - 0.5 / np.e, 1.0], rtol=1e-12)
    least = pufferfish.neyman_pearson_power(rr[0], rr[1], 0.1, minimize=True)
    assert float(least) == pytest.approx(0.1 / np.e)
    lo, hi = pufferfish.pufferfish_power_bounds(0.1, 1.0)
    assert float(lo) == pytest.approx(float(least)) and float(hi) == pytest.approx(float(best[0]))


def test_laplace_sum_loss_limits_and_a_grid():
    eps, n = 0.5, 3
    np.testing.assert_allclose(pufferfish.laplace_sum_pufferfish_loss(n, eps, [0.5, 1.0, 0.0]), [eps, n * eps, (n - 2) * eps], rtol=1e-12)
    # rho = 1/2: independent records, the sum shifts by one; rho = 1: sums n and 0; rho = 0: sums 1 and n - 1
    # the same densities by enumerating every dataset under the correlated prior, on a fine grid
    rho = 0.9
    data = np.array(list(itertools.product([0, 1], repeat=n)))
    agree = (data[:, 1:] == data[:, [0]]).sum(axis=1)
    prior = 0.5 * rho**agree * (1 - rho) ** (n - 1 - agree)
    t = np.linspace(-40.0, 43.0, 83001)
    dens = eps / 2 * np.exp(-eps * np.abs(t[None, :] - data.sum(axis=1)[:, None]))
    f1 = (prior * (data[:, 0] == 1)) @ dens / 0.5
    f0 = (prior * (data[:, 0] == 0)) @ dens / 0.5
    grid = np.abs(np.log(f1 / f0)).max()
    exact = pufferfish.laplace_sum_pufferfish_loss(n, eps, rho)
    assert grid <= exact + 1e-12 and grid == pytest.approx(exact, abs=1e-6)


def _pmf(k):
    return st.lists(st.floats(0.01, 1.0), min_size=k, max_size=k).map(lambda w: np.array(w) / sum(w))


@settings(max_examples=100, deadline=None)
@given(p=_pmf(4), q=_pmf(4))
def test_strong_equivalence_on_probabilities(p, q):
    d_mult = pufferfish.multiplicative_distance(p, q)
    d_r = pufferfish.density_ratio_metric(p, q)
    assert d_mult <= d_r + 1e-12 and d_r <= 2 * d_mult + 1e-12


@settings(max_examples=100, deadline=None)
@given(a=_pmf(3), b=_pmf(3), c=_pmf(3), scale=st.floats(0.1, 10.0))
def test_triangle_inequalities(a, b, c, scale):
    d_r = pufferfish.density_ratio_metric
    d_m = pufferfish.multiplicative_distance
    assert d_r(a, c) <= d_r(a, b) + d_r(b, c) + 1e-12
    assert d_m(scale * a, c) <= d_m(scale * a, b) + d_m(b, c) + 1e-12


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), concentration=st.floats(0.05, 3.0))
def test_pufferfish_loss_is_nonnegative_and_at_most_the_worst_pair_of_rows(seed, concentration):
    rng = np.random.default_rng(seed)
    _, pairs = pufferfish.level_set_pairs(2)
    P = rng.dirichlet(np.full(3, concentration), size=4)
    priors = rng.dirichlet(np.full(4, concentration), size=2)
    loss = pufferfish.pufferfish_loss(P, priors, pairs)
    worst = max(pufferfish.multiplicative_distance(x, y) for x, y in itertools.combinations(P, 2))
    assert 0.0 <= loss <= worst * (1 + 1e-12) + 1e-12


NEW_CLAIMS = ["000/thm-6-2", "000/thm-8-1", "000/thm-8-5", "000/thm-8-7", "000/remark-8-6",
              "000/sec9-tightness", "000/appendix-metrics"]


def test_the_pufferfish_claims_are_registered_and_run_by_test_claims():
    ids = {c.id for c in claims.registry("000")}
    assert set(NEW_CLAIMS) <= ids


BAD = [
    (lambda: pufferfish.density_ratio_metric([-0.1, 1.1], [0.5, 0.5]), r"mu must lie in \[0"),
    (lambda: pufferfish.density_ratio_metric([0.5, 0.5], [np.nan, 1.0]), "nu must not contain NaN"),
    (lambda: pufferfish.density_ratio_metric([0.5, 0.5], [0.2, 0.3, 0.5]), "mu and nu must have broadcastable"),
    (lambda: pufferfish.density_ratio_metric([0.5, 0.5], [0.5, 0.5], axis=2), "axis must lie in"),
    (lambda: pufferfish.density_ratio_metric([np.inf, 0.0], [0.0, 0.0], log=True), "mu must lie in"),
    (lambda: pufferfish.pufferfish_loss([[0.5, 0.6], [0.5, 0.5]], [0.5, 0.5], [([1, 0], [0, 1])]), "P must sum to 1"),
    (lambda: pufferfish.pufferfish_loss(_rr(1.0), [0.2, 0.3, 0.5], [([1, 0], [0, 1])]), "priors must have one column"),
    (lambda: pufferfish.pufferfish_loss(_rr(1.0), [0.5, 0.5], [([1, 0], [0, 1, 0])]), r"pairs\[0\]\[1\] must be a boolean mask"),
    (lambda: pufferfish.pufferfish_loss(_rr(1.0), [0.5, 0.5], []), "pairs must be a non-empty"),
    (lambda: pufferfish.kifer_machanavajjhala_loss(np.full((2, 17), 1 / 17), [0.5, 0.5], [([1, 0], [0, 1])]), "P must have at most 16"),
    (lambda: pufferfish.conditional_output_laws(_rr(1.0), [1.0, 0.0], [0, 1]), "secret must have positive prior mass"),
    (lambda: pufferfish.posterior_odds_ratio(_rr(1.0), [1.0, 0.0], [1, 0], [0, 1]), "secret_i and secret_j"),
    (lambda: pufferfish.secret_posterior_dR(_rr(1.0), [0.5, 0.5], [0, 1, 2]), "partition must hold"),
    (lambda: pufferfish.neyman_pearson_power([0.5, 0.5], [0.2, 0.8], 1.5), r"alpha must lie in \[0, 1\]"),
    (lambda: pufferfish.neyman_pearson_power([0.5, 0.5], [0.2, 0.3, 0.5], 0.1), "null and alt must be"),
    (lambda: pufferfish.pufferfish_power_bounds(0.1, -1.0), "epsilon must lie in"),
    (lambda: pufferfish.laplace_sum_pufferfish_loss(3, 0.5, 1.2), r"rho must lie in \[0, 1\]"),
    (lambda: pufferfish.laplace_sum_pufferfish_loss(0, 0.5, 0.9), "n must be an integer in"),
    (lambda: pufferfish.laplace_sum_pufferfish_loss(3, 0.0, 0.9), "epsilon must lie in"),
    (lambda: pufferfish.lipschitz_constant(_rr(1.0), [[0.5, 0.5]], [[0.0, 1.0]]), "distances must be a square"),
]


@pytest.mark.parametrize("call, fragment", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_input(call, fragment):
    with pytest.raises(ValueError, match=fragment):
        call()
