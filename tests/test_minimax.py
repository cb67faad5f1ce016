"""privlib.minimax: hand-derived anchors, properties on random inputs, bad input."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlib import minimax as mm
from privlib import profiles

pmfs = st.integers(2, 5).flatmap(
    lambda m: st.tuples(*[st.lists(st.floats(0.01, 1.0), min_size=m, max_size=m)] * 2)).map(
    lambda t: (np.array(t[0]) / sum(t[0]), np.array(t[1]) / sum(t[1])))


def test_randomized_response_levels_by_hand():
    eps = 0.8
    e = np.exp(eps)
    rr = mm.FiniteChannel(np.array([[e, 1.0], [1.0, e]]) / (1 + e), 2, 1)
    assert mm.dp_epsilon(rr) == pytest.approx(eps)
    assert mm.tv_privacy(rr) == pytest.approx((e - 1) / (e + 1))
    kl = (e * np.log(e) + 1 * np.log(1 / e)) / (1 + e)
    assert mm.kl_privacy(rr) == pytest.approx(kl)
    assert mm.dp_delta(rr, [0.0, eps, 2.0]) == pytest.approx([(e - 1) / (e + 1), 0.0, 0.0], abs=1e-15)


def test_neighbour_pairs_match_a_plain_loop():
    ch = mm.release_one_channel(3, 3)
    samples = [tuple(s) for s in ch.samples]
    expected = {(a, b) for a, x in enumerate(samples) for b, y in enumerate(samples)
                if sum(i != j for i, j in zip(x, y)) == 1}
    got = {tuple(p) for p in ch.neighbour_pairs()}
    assert got == expected and len(expected) == 27 * 3 * 2


def test_marginal_of_release_one_is_the_record_law():
    ch = mm.release_one_channel(3, 4)
    P = np.array([0.2, 0.5, 0.3])
    assert ch.marginal(P) == pytest.approx(P)


def test_canonical_pair_is_eps_delta_dp_and_tight():
    p, q = mm.canonical_dp_pair(0.7, 0.05)
    assert p.sum() == pytest.approx(1) and q.sum() == pytest.approx(1)
    assert profiles.hockey_stick(p, q, 0.7) == pytest.approx(0.05)
    assert profiles.hockey_stick(q, p, 0.7) == pytest.approx(0.05)


def test_tradeoff_curve_of_randomized_response():
    e = np.exp(1.0)
    p, q = np.array([e, 1]) / (1 + e), np.array([1, e]) / (1 + e)
    a = np.array([0.0, 1 / (1 + e), 1.0])
    # reject on output 1 only: type I 1/(1+e), type II 1/(1+e)
    assert mm.tradeoff_curve(p, q, a) == pytest.approx([1.0, 1 / (1 + e), 0.0])


def test_tradeoff_curve_rejects_impossible_outputs_for_free():
    p, q = np.array([0.5, 0.5, 0.0]), np.array([0.0, 0.5, 0.5])
    assert mm.tradeoff_curve(p, q, [0.0, 0.5, 1.0]) == pytest.approx([0.5, 0.0, 0.0])


def test_min_weighted_test_error_against_enumeration():
    rng = np.random.default_rng(0)
    p, q = rng.dirichlet(np.ones(5)), rng.dirichlet(np.ones(5))
    tests = np.array(list(itertools.product((0, 1), repeat=5)))
    for w in (0.3, 1.0, 2.7):
        assert mm.min_weighted_test_error(p, q, w) == pytest.approx((tests @ p + w * (1 - tests @ q)).min())


def test_chtp_bound_limits():
    # gamma -> 1, delta = 0: 1 - e^{-2 eps}
    assert mm.chtp_beta_bound(0.5, 0.0, 1.0) == pytest.approx(1 - np.exp(-1.0))
    eps, gamma = mm.dp_from_chtp(0.25, 0.1)
    assert eps == pytest.approx(np.log(3)) and gamma == 0.1


def test_two_point_risk_by_enumeration_of_the_binomial():
    r, k, n, T, c = 1.0, 4.0, 7, 1.3, 0.01
    p = 0.05
    u = r * p ** (-1 / k)
    b = np.arange(n + 1)
    from scipy import stats
    mse = stats.binom.pmf(b, n, p) @ (min(u, T) * b / n - p * u) ** 2 + c * T ** 2
    assert mm.two_point_risk(p, r, k, n, T, c) == pytest.approx(mse)


def test_worst_two_point_risk_broadcasts_and_matches_loop():
    n = np.array([100.0, 1e4])[:, None]
    d = np.array([1.0, 10.0, 100.0])[None, :]
    risk, _ = mm.worst_two_point_risk(1.0, 4.0, n, d, 0.5, "laplace")
    assert risk.shape == (2, 3)
    for i, j in itertools.product(range(2), range(3)):
        c = mm.noise_coefficient("laplace", n[i, 0], d[0, j], 0.5)
        T = mm.optimal_truncation(1.0, 4.0, c)
        p = np.geomspace(1e-12, 1, 20001)
        assert risk[i, j] == pytest.approx(mm.two_point_risk(p, 1.0, 4.0, n[i, 0], T, c).max(), rel=1e-4)


def test_optimal_truncation_minimises_bound_31():
    c = 1e-3
    T = float(mm.optimal_truncation(1.0, 4.0, c))
    grid = np.linspace(0.5 * T, 2 * T, 2001)
    assert mm.risk_bound_31(1.0, 4.0, 100, grid, c).min() >= mm.risk_bound_31(1.0, 4.0, 100, T, c) - 1e-15


def test_private_mean_noise_has_the_stated_second_moment():
    rng = np.random.default_rng(1)
    X = np.zeros((20000, 10, 3))
    for mech in ("kl", "gauss", "laplace"):
        est = mm.private_mean(X, mech, 0.5, 2.0, 1e-5, rng)
        expected = mm.noise_coefficient(mech, 10, 3, 0.5, 1e-5) * 4.0
        assert (est ** 2).sum(axis=1).mean() == pytest.approx(expected, rel=0.03)


def test_minimax_rate_table_saturates_and_orders():
    n, d = 1e4, 100
    rates = {p: float(mm.minimax_rate(p, n, d, 0.1, 1e-6, 1.0, 4.0)) for p in mm.PRIVACY_TYPES}
    assert rates["none"] == pytest.approx(1e-4)
    assert rates["dp"] >= rates["approx_dp"] >= rates["tv"] >= rates["none"]
    assert mm.minimax_rate("dp", 10, 1000, 0.01) == pytest.approx(1.1)


def test_histogram_risk_of_the_uniform_density_by_hand():
    # g = 1: no bias; each bin proportion has variance (1/B)(1 - 1/B)/n with B = m^d bins
    n, m, alpha, d = 500, 4, 0.5, 2
    B = m ** d
    by_hand = B * ((1 / B) * (1 - 1 / B) / n + 2 * (2 / (n * alpha)) ** 2) * B ** 2 / B
    assert mm.histogram_risk_exact(lambda x: x, 1.0, n, m, alpha, d) == pytest.approx(by_hand)


def test_private_histogram_integrates_to_one_without_noise():
    rng = np.random.default_rng(3)
    est = mm.private_histogram(rng.random((1000, 2)), 7, np.inf)
    assert est.shape == (7, 7) and est.sum() / 49 == pytest.approx(1.0)


def test_optimal_bins_balance_bias_and_noise():
    a = 0.45
    cdf = lambda x: x - a * (np.cos(2 * np.pi * x) - 1) / (2 * np.pi)  # noqa: E731
    m_small, _ = mm.histogram_optimal_bins(cdf, 1 + a * a / 2, 1e6, 0.01)
    m_large, _ = mm.histogram_optimal_bins(cdf, 1 + a * a / 2, 1e6, np.inf)
    assert 1 <= m_small < m_large


def test_support_expmech_is_alpha_dp_on_neighbouring_samples():
    rng = np.random.default_rng(4)
    t = np.linspace(0.0, 2.0, 20001)
    for _ in range(20):
        x = 0.3 + rng.random(30)
        y = x.copy()
        y[rng.integers(30)] = rng.uniform(0, 2)
        ratio = mm.support_expmech_log_density(t, x, 0.7) - mm.support_expmech_log_density(t, y, 0.7)
        assert np.abs(ratio).max() <= 0.7 + 1e-12


def test_support_expmech_sampler_follows_its_density():
    from scipy import stats
    x = 0.3 + np.random.default_rng(5).random(40)
    n, alpha = 40, 1.0
    k = min(n, int(np.ceil(4 * np.log(n) / alpha)))
    t = np.linspace(0.0, 2.0, 200001)
    dens = np.exp(mm.support_expmech_log_density(t, x, alpha))
    cdf = np.concatenate([[0.0], np.cumsum((dens[1:] + dens[:-1]) / 2 * np.diff(t))])
    assert cdf[-1] == pytest.approx(1.0, abs=1e-4)
    rng = np.random.default_rng(6)
    draws = np.array([mm.support_dp_expmech(x, alpha, rng=rng) for _ in range(3000)]) + k / (n + 1)
    assert stats.kstest(draws, lambda s: np.interp(s, t, cdf)).pvalue > 0.001


@settings(max_examples=60, deadline=None)
@given(pmfs, st.floats(0.05, 1.0))
def test_soft_conditioning_dominates_sets(pq, gamma):
    p, q = pq
    assert mm.soft_chtp_sup(p, q, gamma) >= mm.hard_chtp_sup(p, q, gamma) - 1e-12


@settings(max_examples=60, deadline=None)
@given(pmfs, st.floats(0.0, 3.0))
def test_tradeoff_curve_respects_dp_region(pq, eps):
    p, q = pq
    delta = max(profiles.hockey_stick(p, q, eps).item(), profiles.hockey_stick(q, p, eps).item())
    a = np.linspace(0, 1, 51)
    beta = mm.tradeoff_curve(p, q, a)
    region = np.maximum.reduce([np.zeros_like(a), 1 - delta - np.exp(eps) * a, np.exp(-eps) * (1 - delta - a)])
    assert (beta >= region - 1e-12).all()


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10**6), st.floats(1e-3, 1.0), st.sampled_from([2.0, 3.0, 4.0, np.inf]))
def test_tv_lower_bound_below_tv_private_estimator(n, alpha, k):
    lower = mm.lower_bound_tv_mean(n, alpha, 1.0, k)
    risk, _ = mm.worst_two_point_risk(1.0, k, n, 1, 2 * alpha ** 2, "kl")
    assert lower <= min(risk, 1.0) + 1e-15


@pytest.mark.parametrize("call, match", [
    (lambda: mm.FiniteChannel(np.ones((3, 2)) / 2, 2, 2), "rows"),
    (lambda: mm.FiniteChannel(np.ones((4, 2)), 2, 2), "table"),
    (lambda: mm.release_one_channel(3, 20), "K\\*\\*n"),
    (lambda: mm.geometric_count_channel(3, -1.0), "eps0"),
    (lambda: mm.canonical_dp_pair(0.5, 1.0), "delta"),
    (lambda: mm.chtp_beta_bound(0.5, 0.2, 0.1), "gamma"),
    (lambda: mm.dp_from_chtp(0.5, 0.1), "beta"),
    (lambda: mm.soft_chtp_sup([0.5, 0.5], [1.0, 0.0], 0.0), "gamma"),
    (lambda: mm.hard_chtp_sup(np.ones(17) / 17, np.ones(17) / 17, 0.5), "at most 16"),
    (lambda: mm.lower_bound_tv_mean(100, 1.5), "alpha"),
    (lambda: mm.lower_bound_tv_mean(100, 0.1, k=1.0), "k"),
    (lambda: mm.theorem3_error_bound(10.5, 0.1, 0.5, 0.0, 10), "whole"),
    (lambda: mm.theorem3_error_bound(10, 0.1, 0.5, 0.0, 10, k="mean"), "k must be"),
    (lambda: mm.noise_coefficient("cauchy", 10, 1, 0.5), "mechanism"),
    (lambda: mm.noise_coefficient("gauss", 10, 1, 0.5), "delta"),
    (lambda: mm.noise_coefficient("gauss", 10, 1, 2.0, 1e-5), "alpha"),
    (lambda: mm.two_point_risk(0.0, 1.0, 4.0, 10, 1.0, 0.1), "p"),
    (lambda: mm.risk_bound_31(1.0, 1.5, 10, 1.0, 0.1), "k"),
    (lambda: mm.private_mean(np.zeros(5), "kl", 0.5, 1.0), "X"),
    (lambda: mm.minimax_rate("renyi", 10), "privacy"),
    (lambda: mm.project_l2_ball([[1.0, np.nan]], 1.0), "X"),
    (lambda: mm.private_histogram([[1.5]], 4, 1.0), "X"),
    (lambda: mm.private_histogram([[0.5]], 0, 1.0), "m"),
    (lambda: mm.histogram_risk_exact(lambda x: x, 1.0, 10, 2.5, 1.0), "m"),
    (lambda: mm.bump_packing_density([0.5], [1.0, 1.0], 0.25), "signs"),
    (lambda: mm.support_dp_expmech([2.5], 1.0), "X"),
    (lambda: mm.support_dp_expmech([0.5], 1.0, lo=1.0, hi=0.0), "lo"),
])
def test_bad_input_raises_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()
