"""privlib.papers.minimax: hand-derived anchors, properties on random inputs, bad input."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlib import minimax as mm
from privlib import profiles
from privlib.core import chtp

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


def _expmech_draws_against_density(x, alpha, seed):
    """The support exponential mechanism's density integrated by the trapezoid rule (its total
    mass, which should be 1) and the KS p-value of 3000 draws against that CDF."""
    from scipy import stats
    n = len(x)
    k = min(n, int(np.ceil(4 * np.log(n) / alpha)))
    t = np.linspace(0.0, 2.0, 200001)
    dens = np.exp(mm.support_expmech_log_density(t, x, alpha))
    cdf = np.concatenate([[0.0], np.cumsum((dens[1:] + dens[:-1]) / 2 * np.diff(t))])
    rng = np.random.default_rng(seed)
    draws = np.array([mm.support_dp_expmech(x, alpha, rng=rng) for _ in range(3000)]) + k / (n + 1)
    return cdf[-1], stats.kstest(draws, lambda s: np.interp(s, t, cdf / cdf[-1])).pvalue


def test_support_expmech_sampler_follows_its_density():
    mass, pvalue = _expmech_draws_against_density(0.3 + np.random.default_rng(5).random(40), 1.0, seed=6)
    assert mass == pytest.approx(1.0, abs=1e-4)
    assert pvalue > 0.001


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
    # Theorem 3's binomial law beyond 2^53: scipy's tail is NaN at n = 1e30 (the bound was NaN)
    (lambda: mm.lower_bound("dp", 10**30, 1, 1e-300), "n must be at most 2"),
    (lambda: mm.lower_bound_dp_mean(2.0**53 + 2, 1, 1.0), "n must be at most 2"),
    (lambda: mm.theorem3_error_bound(1e17, 0.5, 1.0, 0.0, 4), "n must be at most 2"),
    # a risk beyond the largest double (it was inf, with an overflow warning)
    (lambda: mm.two_point_risk(0.5, 1.0, 4.0, 10, 2.0, 1.7e308), "c_W too large"),
])
def test_bad_input_raises_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_binomial_bounds_keep_their_largest_sample_size():
    # n = 2^53 is accepted (a finite bound) and the bounds without a binomial law take any n
    assert np.isfinite(mm.lower_bound_dp_mean(2.0**53, 1, 1.0)).all()
    assert np.isfinite(mm.theorem3_error_bound(2.0**53, 0.5, 1e-12, 0.0, 4)).all()
    assert np.isfinite(mm.lower_bound("tv", 10**30, 1, 0.5)).all()


# --- issue 14: public functions for the lower bounds, eq. (26) and Proposition 5's packing ---

def test_binomial_tv_matches_the_product_laws_summed_over_every_sample():
    for n, p0, p1 in ((1, 0.2, 0.9), (6, 0.3, 0.35), (9, 0.0, 0.4), (7, 0.5, 1.0), (8, 0.6, 0.6)):
        x = np.array(list(itertools.product((0, 1), repeat=n))).sum(axis=1)
        brute = 0.5 * np.abs(p0 ** x * (1 - p0) ** (n - x) - p1 ** x * (1 - p1) ** (n - x)).sum()
        assert mm.binomial_tv(n, p0, p1) == pytest.approx(brute, abs=1e-14)
        assert mm.binomial_tv(n, p1, p0) == pytest.approx(brute, abs=1e-14)


def test_binomial_tv_keeps_relative_accuracy_in_the_far_tail():
    # n = 10^9 records, rates 1e-9 apart: TV is tiny but representable, never 0 or NaN
    tv = mm.binomial_tv(1e9, 0.5, 0.5 + 1e-9)
    from scipy import stats
    assert tv == pytest.approx(2 * stats.norm.cdf(1e-9 * np.sqrt(1e9)) - 1, rel=1e-3)


def test_nonprivate_lower_bound_by_hand_at_one_record():
    # n = 1: TV(Bern((1-eta)/2), Bern((1+eta)/2)) = eta, so max eta^2 (1 - eta)/2 = 2/27 at eta = 2/3
    assert mm.lower_bound_nonprivate_mean(1, 2.0) == pytest.approx(4 * 2 / 27, rel=1e-9)
    n = np.array([10.0, 1e4, 1e9])
    b = mm.lower_bound_nonprivate_mean(n)
    assert ((b * n > 1 / 24) & (b * n < 1)).all()


def test_expmech_packing_error_limits():
    # delta = 1: the mode errs only when no record is v, then with probability 1 - 1/|V|
    assert mm.expmech_packing_error(10, 0.2, 0.5, 7, 1.0) == pytest.approx(0.8 ** 10 * (1 - 1 / 7))
    # alpha -> 0: a uniform guess among |V| labels
    assert mm.expmech_packing_error(10, 0.2, 1e-12, 7) == pytest.approx(1 - 1 / 7)
    assert mm.theorem3_error_bound(30, 0.1, 0.5, 0.0, 100) <= mm.expmech_packing_error(30, 0.1, 0.5, 100)


def test_marginal_of_non_identical_records_and_bound_26():
    ch = mm.release_one_channel(3, 3)
    laws = np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2], [1 / 3, 1 / 3, 1 / 3]])
    assert ch.marginal(laws) == pytest.approx(laws.mean(axis=0))
    assert mm.tv_contraction_bound_product(0.1, [0.5, 0.25, 0.25]) == pytest.approx(0.1)
    assert mm.tv_contraction_bound_product([0.5, 1.0], [[0.9, 0.9]] * 2) == pytest.approx([0.9, 1.0])
    with pytest.raises(ValueError, match="P"):
        ch.marginal(laws[:2])


def test_hamming_packing_is_a_code_with_the_greedy_guarantee():
    import math
    code = mm.hamming_packing(10, 3)
    bits = code > 0
    dist = (bits[:, None, :] != bits[None, :, :]).sum(axis=2) + 11 * np.eye(len(code), dtype=int)
    assert dist.min() == 3
    assert len(code) >= 2 ** 10 / sum(math.comb(10, i) for i in range(3))
    assert set(np.unique(code)) == {-1.0, 1.0}


def test_lower_bound_is_the_larger_of_the_two_terms():
    n = np.array([1e2, 1e6])
    none = mm.lower_bound("none", n)
    dp = mm.lower_bound("dp", n, 50, 0.5, k=4.0)
    assert (dp >= none).all() and dp[0] > none[0]
    assert mm.lower_bound("tv", n, 1, 0.5, k=4.0) == pytest.approx(
        np.maximum(none, mm.lower_bound_tv_mean(n, 0.5, 1.0, 4.0)))
    with pytest.raises(ValueError, match="privacy"):
        mm.lower_bound("renyi", 10)


def test_table1_lower_slopes_rows():
    rows = mm.table1_lower_slopes(np.inf)
    assert {(r["privacy"], r["variable"]) for r in rows} >= {("dp", "d"), ("approx_dp", "d"), ("none", "n")}
    assert all(abs(r["measured"] - r["theory"]) < 0.05 for r in rows)


def test_lower_bound_dp_mean_handles_huge_dimensions():
    b = mm.lower_bound_dp_mean(1e12, 4096, 0.5, 0.0, 1.0, np.inf)
    assert np.isfinite(b) and 0 < b < 1


# --- issue 15: numerics, validation and the faster algorithms ---

def test_canonical_pair_does_not_overflow():
    p, q = mm.canonical_dp_pair(1000.0, 0.1)
    assert np.isfinite(p).all() and np.isfinite(q).all()
    assert p == pytest.approx([0.1, 0.9, 0.0, 0.0]) and q == pytest.approx([0.0, 0.0, 0.9, 0.1])


def test_invalid_inputs_that_were_silently_accepted():
    with pytest.raises(ValueError, match="k"):
        mm.simulate_two_point_risk(0.1, 1.0, -np.inf, 10, 1, 0.5, "laplace", 1.0)
    with pytest.raises(ValueError, match="X"):
        mm.project_l2_ball([[1.0, np.inf]], 1.0)
    with pytest.raises(ValueError, match="X"):
        mm.private_mean(np.full((3, 2), np.nan), "kl", 0.5, 1.0)
    with pytest.raises(TypeError, match="FiniteChannel"):
        mm.dp_delta(None, 1.0)
    with pytest.raises(TypeError, match="gamma"):
        mm.hard_chtp_sup([0.5, 0.5], [0.5, 0.5], np.array([0.1, 0.2]))
    with pytest.raises(TypeError, match="T"):
        mm.project_l2_ball([[1.0]], [1.0, 2.0])


def test_soft_chtp_gradient_matches_finite_differences():
    rng = np.random.default_rng(7)
    p, q = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
    w = rng.uniform(0.2, 0.9, 4)
    tv, grad = chtp._conditional_tv_and_gradient(p, q, w)
    h = 1e-7
    fd = [(chtp._conditional_tv(p, q, w + h * e) - chtp._conditional_tv(p, q, w - h * e)) / (2 * h) for e in np.eye(4)]
    assert tv == pytest.approx(float(chtp._conditional_tv(p, q, w)))
    assert grad == pytest.approx(fd, abs=1e-6)


def test_chtp_level_is_unchanged_by_merging_relabelled_pairs():
    ch = mm.release_one_channel(3, 4)
    p, q = ch.distinct_neighbour_rows()
    direct = max(mm.hard_chtp_sup(a, b, 0.6) for a, b in zip(p, q))
    assert mm.chtp_level(ch, 0.6) == pytest.approx(direct, abs=1e-15)


def test_support_expmech_rejection_path_is_exact(monkeypatch):
    # a window of one rank around k sends many proposals outside it: the draws must still
    # follow the exact density
    monkeypatch.setattr(mm, "_EXPMECH_WINDOW", 1.0)
    _, pvalue = _expmech_draws_against_density(0.3 + np.random.default_rng(8).random(40), 2.0, seed=9)
    assert pvalue > 0.001


# --- accuracy against mpmath --------------------------------------------------------------------

def _binomial_tv_mpmath(n, p0, p1):
    import mpmath
    mpmath.mp.dps = 40
    lo, hi = mpmath.mpf(min(p0, p1)), mpmath.mpf(max(p0, p1))
    j = [mpmath.mpf(i) for i in range(n + 1)]
    return float(sum(abs(mpmath.binomial(n, i) * (lo ** i * (1 - lo) ** (n - i) - hi ** i * (1 - hi) ** (n - i)))
                     for i in j) / 2)


@pytest.mark.parametrize("n, p0, p1", [(10, 0.3, 0.3 + 1e-8), (200, 0.5, 0.5 + 1e-3), (200, 0.01, 0.4),
                                       (1000, 0.2, 0.25), (1000, 1e-6, 2e-6)])
def test_binomial_tv_against_mpmath(n, p0, p1):
    ref = _binomial_tv_mpmath(n, p0, p1)
    # the difference of two tails loses at most ~1e-16 absolutely: relative 1e-7 at TV = 1e-8
    assert mm.binomial_tv(n, p0, p1) == pytest.approx(ref, rel=1e-6, abs=1e-15)


@pytest.mark.parametrize("eps", [1e-8, 1e-3, 1.0, 10.0, 40.0])
def test_sharp_chtp_level_of_pure_dp_against_mpmath(eps):
    import mpmath
    ref = float(mpmath.tanh(mpmath.mpf(eps) / 2))
    # computed in linear space: absolute accuracy 1e-15 (relative 1e-7 at eps = 1e-8)
    assert mm.chtp_beta_exact(eps, 0.0, 0.5) == pytest.approx(ref, rel=1e-12, abs=1e-15)
    if ref < 1.0:  # beta = tanh(eps/2)/2 inverts to eps (at eps = 40 it rounds to 1/2)
        assert mm.dp_from_chtp(ref / 2, 0.5)[0] == pytest.approx(eps, rel=1e-7)


def test_optimal_bins_is_the_integer_minimum():
    a = 0.45
    cdf = lambda x: x - a * (np.cos(2 * np.pi * x) - 1) / (2 * np.pi)  # noqa: E731
    for n, alpha, d in ((1e4, 0.1, 1), (1e6, np.inf, 1), (1e5, 1.0, 2), (300.0, 0.01, 1)):
        m, risk = mm.histogram_optimal_bins(cdf, 1 + a * a / 2, n, alpha, d)
        top = min(20_000, int(3 * n ** (1 / d)))
        every = mm.histogram_risk_exact(cdf, 1 + a * a / 2, n, np.arange(1.0, top + 1), alpha, d)
        assert m == int(np.argmin(every)) + 1 and risk == pytest.approx(every.min(), rel=1e-12)


def test_dp_delta_refuses_an_infinite_epsilon_naming_it():
    with pytest.raises(ValueError, match="eps must be finite"):
        mm.dp_delta(mm.geometric_count_channel(3, 1.0), [0.5, np.inf])


def test_chtp_levels_at_a_tiny_gamma_admit_no_set_below_it():
    """p(A) >= gamma is checked relative to gamma: at delta = 1e-9, gamma = 1.001e-9 the set of
    the delta atom alone (mass 1e-9 < gamma, conditional TV 1) is not admitted. Reference: every
    set enumerated with exact rational masses."""
    import itertools
    from fractions import Fraction

    e = Fraction(np.exp(1.0))
    d, gamma = Fraction(1, 10**9), Fraction(1001, 10**12)
    pf = [d, (1 - d) * e / (1 + e), (1 - d) / (1 + e), Fraction(0)]
    qf = pf[::-1]
    best = Fraction(0)
    for s in itertools.product((0, 1), repeat=4):
        a, b = sum(x for x, k in zip(pf, s) if k), sum(x for x, k in zip(qf, s) if k)
        if a >= gamma and b > 0:
            best = max(best, sum(abs(x / a - y / b) for x, y, k in zip(pf, qf, s) if k) / 2)
    p, q = np.array([float(x) for x in pf]), np.array([float(x) for x in qf])
    assert mm.hard_chtp_sup(p, q, float(gamma)) == pytest.approx(float(best), rel=1e-12)
    assert float(best) < 0.5
    soft = mm.soft_chtp_sup(p, q, float(gamma))
    assert float(best) - 1e-12 <= soft < 0.95        # an absolute slack had returned 1.0 for both



@pytest.mark.parametrize("eps, delta, gamma", [(1e-12, 0.0, 0.5), (1e-9, 0.3, 0.6), (0.5, 0.1, 0.5), (3.0, 0.49, 0.5),
                                                (709.8, 0.0, 0.5), (1e300, 0.2, 0.5)])
def test_chtp_beta_bound_against_mpmath(eps, delta, gamma):
    """Tiny eps keeps its digits (no 1 - e^{-2 eps} cancellation); large eps is 1, not NaN (inf * 0)."""
    import mpmath

    with mpmath.workdps(50):
        e, r = mpmath.mpf(eps), mpmath.mpf(delta) / mpmath.mpf(gamma)
        ref = float(1 - (1 - r) / (mpmath.exp(2 * e) + mpmath.exp(e) * r))
    assert float(mm.chtp_beta_bound(eps, delta, gamma)) == pytest.approx(ref, rel=1e-15)
