"""Fuzz layer for privlib.minimax (chapter 002): every public function on valid inputs at the
extremes (no NaN, no infinity where the value is finite, probabilities in [0, 1], no silent 0
where the value is representable) and on invalid inputs (ValueError/TypeError naming the
argument). Bounded: few examples each, derandomized in CI by the profile in conftest.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzing import FUZZ, assert_finite, assert_probability, assert_rejects, epsilons, probabilities, sizes
from privlib import minimax as mm

pmf_pairs = st.integers(2, 4).flatmap(
    lambda m: st.tuples(*[st.lists(st.floats(1e-12, 1.0), min_size=m, max_size=m)] * 2)).map(
    lambda t: (np.array(t[0]) / sum(t[0]), np.array(t[1]) / sum(t[1])))
ks = st.sampled_from([2.0, 2.5, 4.0, 10.0, np.inf])
alphas01 = st.floats(1e-12, 1.0)
gammas = st.floats(1e-6, 1.0)


def _rr(eps: float) -> mm.FiniteChannel:
    e = np.exp(-eps)
    return mm.FiniteChannel(np.array([[1.0, e], [e, 1.0]]) / (1 + e), 2, 1)


COVERED: set[str] = set()


def covers(*names):
    COVERED.update(names)
    return lambda f: f


# --- valid inputs at the extremes -------------------------------------------------------------

@covers("FiniteChannel", "dp_epsilon", "dp_delta", "tv_privacy", "kl_privacy")
@FUZZ
@given(epsilons, epsilons)
def test_levels_of_randomized_response(eps0, eps):
    ch = _rr(eps0)
    assert mm.dp_epsilon(ch) == pytest.approx(eps0, rel=1e-9)
    assert_probability(mm.dp_delta(ch, eps))
    assert_probability(mm.tv_privacy(ch))
    assert_finite(mm.kl_privacy(ch))
    assert mm.tv_privacy(ch) > 0 and mm.kl_privacy(ch) > 0  # representable, never a silent 0


@covers("release_one_channel", "geometric_count_channel")
@FUZZ
@given(st.integers(1, 6), epsilons)
def test_small_channels(n, eps0):
    assert_probability(mm.release_one_channel(2, n).table)
    ch = mm.geometric_count_channel(n, eps0)
    assert_probability(ch.table)
    assert_finite(mm.dp_epsilon(ch))


@covers("canonical_dp_pair", "chtp_beta_exact", "chtp_beta_bound")
@FUZZ
@given(st.floats(0.0, 1e4), probabilities, gammas)
def test_canonical_pair_and_chtp_levels(eps, delta, gamma):
    p, q = mm.canonical_dp_pair(eps, delta)
    assert_probability(p)
    assert p.sum() == pytest.approx(1.0) and q.sum() == pytest.approx(1.0)
    if eps <= 50:
        assert_probability(mm.chtp_beta_exact(eps, delta, gamma))
    if gamma > delta:
        assert_probability(mm.chtp_beta_bound(min(eps, 300.0), delta, gamma))


@covers("min_weighted_test_error", "tradeoff_curve", "conditional_tv", "hard_chtp_sup", "soft_chtp_sup")
@FUZZ
@given(pmf_pairs, st.floats(0.0, 1e6), gammas)
def test_tests_and_conditioning(pq, w, gamma):
    p, q = pq
    assert_finite(mm.min_weighted_test_error(p, q, w))
    assert_probability(mm.tradeoff_curve(p, q, [0.0, 0.3, 1.0]))
    assert_probability(mm.conditional_tv(p, q, np.ones(p.size)))
    hard, soft = mm.hard_chtp_sup(p, q, gamma), mm.soft_chtp_sup(p, q, gamma)
    assert_probability([hard, soft])
    assert soft >= hard - 1e-12


@covers("chtp_level", "dp_from_chtp")
@FUZZ
@given(epsilons, gammas, st.floats(0.0, 0.5 - 1e-12))
def test_chtp_level_and_converse(eps0, gamma, beta):
    assert_probability(mm.chtp_level(_rr(eps0), gamma))
    eps, delta = mm.dp_from_chtp(beta, gamma)
    assert_finite(eps)
    assert delta == gamma


@covers("tv_contraction_bound", "tv_contraction_bound_product", "lower_bound_tv_mean", "lower_bound_tv_support")
@FUZZ
@given(sizes, alphas01, probabilities, ks)
def test_tv_bounds(n, alpha, tv, k):
    assert_probability(mm.tv_contraction_bound(alpha, tv, n))
    assert_probability(mm.tv_contraction_bound_product(alpha, [tv, tv / 2]))
    low = mm.lower_bound_tv_mean(n, alpha, 1.0, k)
    assert_finite(low)
    assert 0 < low <= 1
    sup = mm.lower_bound_tv_support(n, alpha)
    assert 0 < sup <= 1


@covers("binomial_tv", "lower_bound_nonprivate_mean")
@FUZZ
@given(sizes, probabilities, probabilities)
def test_binomial_tv_and_nonprivate_bound(n, p0, p1):
    tv = mm.binomial_tv(n, p0, p1)
    assert_probability(tv)
    if abs(p0 - p1) >= 1e-9:
        assert tv > 0
    b = mm.lower_bound_nonprivate_mean(n)
    assert 1 / 24 < b * n < 1


@covers("theorem3_error_bound", "expmech_packing_error")
@FUZZ
@given(st.sampled_from([1, 2, 10, 1000, 10 ** 5]), probabilities, epsilons, probabilities, st.floats(1.0, 1e300))
def test_packing_error_and_theorem3(n, p, alpha, delta, card_v):
    card_v = float(np.round(card_v))   # a packing's size
    bound = mm.theorem3_error_bound(n, p, alpha, delta, card_v)
    assert_finite(bound)
    assert bound <= 1
    err = mm.expmech_packing_error(n, p, alpha, np.round(card_v) if card_v < 1e15 else 1e15, delta)
    assert_probability(err)


@covers("lower_bound_dp_mean", "lower_bound")
@FUZZ
@given(sizes, st.sampled_from([1, 3, 100, 4096]), st.floats(1e-6, 50.0), ks)
def test_dp_lower_bound(n, d, alpha, k):
    b = mm.lower_bound_dp_mean(n, d, alpha, 0.0, 1.0, k, n_grid=9)
    assert_finite(b)
    assert 0 < b <= 1
    assert_finite(mm.lower_bound("approx_dp", n, d, min(alpha, 1.0), 1e-6, 1.0, k))


@covers("noise_coefficient", "optimal_truncation", "risk_bound_31", "two_point_risk", "worst_two_point_risk",
        "minimax_rate", "rate_exponents")
@FUZZ
@given(sizes, st.sampled_from([1, 10, 1000]), alphas01, ks, st.sampled_from(["none", "kl", "gauss", "laplace"]))
def test_risks(n, d, alpha, k, mech):
    c = mm.noise_coefficient(mech, n, d, alpha, 1e-6)
    assert_finite(c)
    t = mm.optimal_truncation(1.0, k, c) if mech != "none" else np.float64(1e3)
    assert np.isfinite(t) and t > 0
    assert_finite(mm.risk_bound_31(1.0, k, n, t, c))
    if np.isfinite(k):
        assert_finite(mm.two_point_risk(1e-12, 1.0, k, n, t, c))
    risk, p = mm.worst_two_point_risk(1.0, k, n, d, alpha, mech, 1e-6, n_grid=50)
    assert_finite(risk)
    assert risk > 0
    assert_finite(mm.minimax_rate("approx_dp", n, d, alpha, 1e-6, 1.0, k))
    assert_finite(list(mm.rate_exponents(k)["dp"].values()))


@covers("project_l2_ball", "private_mean", "simulate_two_point_risk")
@FUZZ
@given(st.floats(-1e150, 1e150), st.floats(1e-12, 1e12), st.sampled_from(["none", "kl", "gauss", "laplace"]), ks)
def test_estimator(x, T, mech, k):
    X = np.array([[x, 0.5 * x], [0.0, 1.0]])
    proj = mm.project_l2_ball(X, T)
    assert_finite(proj)
    assert (np.linalg.norm(proj, axis=1) <= T * (1 + 1e-12)).all()
    assert_finite(mm.private_mean(X, mech, 0.5, T, 1e-6, rng=0))
    mean, se = mm.simulate_two_point_risk(0.01, 1.0, k, 100, 2, 0.5, mech, 1.0, 1e-6, reps=20, rng=1)
    assert_finite([mean, se])


@covers("private_histogram", "histogram_risk_exact", "histogram_optimal_bins", "bump_packing_density",
        "hamming_packing")
@FUZZ
@given(st.sampled_from([1, 10, 10 ** 4, 10 ** 7]), st.integers(1, 50), st.sampled_from([1e-12, 0.1, 50.0, np.inf]),
       st.integers(1, 12))
def test_density_estimation(n, m, alpha, bits):
    rng = np.random.default_rng(0)
    assert_finite(mm.private_histogram(rng.random((20, 1)), m, alpha, rng))
    cdf = lambda x: x  # noqa: E731
    assert_finite(mm.histogram_risk_exact(cdf, 1.0, n, m, alpha))
    assert_finite(mm.histogram_optimal_bins(cdf, 1.0, n, alpha, m_max=200)[1])
    width = 1.0 / m
    f = mm.bump_packing_density(np.linspace(0, 1, 101), np.ones(m), width)
    assert ((f >= 1 - width / 4 - 1e-12) & (f <= 1 + width / 4 + 1e-12)).all()
    code = mm.hamming_packing(bits, max(1, bits // 3))
    assert code.shape[1] == bits and len(code) >= 1


@covers("support_expmech_log_density", "support_dp_expmech")
@FUZZ
@given(st.sampled_from([1, 2, 100, 10 ** 5]), st.floats(1e-6, 50.0))
def test_support_estimator(n, alpha):
    x = 0.3 + np.random.default_rng(n).random(n)
    assert_finite(mm.support_expmech_log_density([0.0, 0.31, 2.0], x, alpha))
    est = mm.support_dp_expmech(x, alpha, rng=0)
    assert np.isfinite(est) and -1.0 <= est <= 2.0


@covers("table1_slopes", "table1_lower_slopes")
def test_slope_tables_once():
    for row in mm.table1_slopes(4.0):
        assert_finite(row["exact"])
    for row in mm.table1_lower_slopes(4.0):
        assert_finite(row["measured"])


# --- invalid inputs ---------------------------------------------------------------------------

RR = _rr(1.0)
INVALID = [
    (lambda: mm.FiniteChannel(np.ones((2, 2)) / 2, 2.5, 1), "K"),
    (lambda: mm.release_one_channel(1, 3), "K"),
    (lambda: mm.geometric_count_channel(3, np.nan), "eps0"),
    (lambda: mm.canonical_dp_pair(np.nan, 0.1), "eps"),
    (lambda: mm.canonical_dp_pair([0.1, 0.2], 0.1), "eps"),
    (lambda: mm.dp_epsilon("channel"), "channel"),
    (lambda: mm.dp_delta(None, 1.0), "channel"),
    (lambda: mm.dp_delta(RR, -1.0), "eps"),
    (lambda: mm.tv_privacy(np.eye(2)), "channel"),
    (lambda: mm.kl_privacy(None), "channel"),
    (lambda: mm.min_weighted_test_error([0.5, 0.5], [0.5, 0.5], -1.0), "w"),
    (lambda: mm.tradeoff_curve([0.5, 0.5], [0.5, 0.5], 1.5), "type1"),
    (lambda: mm.conditional_tv([0.5, 0.5], [0.5, 0.5], [0.0, 0.0]), "w"),
    (lambda: mm.hard_chtp_sup([0.5, 0.5], [0.5, 0.5], [0.1, 0.2]), "gamma"),
    (lambda: mm.soft_chtp_sup([0.5, 0.5], [0.5, 0.5], 0.5, grid=1), "grid"),
    (lambda: mm.chtp_level(RR, 0.5, soft="yes"), "soft"),
    (lambda: mm.chtp_level(RR, np.nan), "gamma"),
    (lambda: mm.chtp_beta_bound(1.0, 0.5, 0.2), "gamma"),
    (lambda: mm.chtp_beta_exact(1.0, 1.0, 0.5), "delta"),
    (lambda: mm.dp_from_chtp(np.array([0.1, 0.2]), 0.5), "beta"),
    (lambda: mm.tv_contraction_bound(1.5, 0.1, 10), "alpha"),
    (lambda: mm.tv_contraction_bound_product(0.5, 0.1), "tv_records"),
    (lambda: mm.binomial_tv(10.5, 0.1, 0.2), "n"),
    (lambda: mm.binomial_tv(10, 0.1, 1.2), "p1"),
    (lambda: mm.lower_bound_nonprivate_mean(0, 1.0), "n"),
    (lambda: mm.lower_bound_nonprivate_mean(10, [1.0, 2.0]), "r"),
    (lambda: mm.expmech_packing_error(10, 0.1, 0.5, 2.5), "card_V"),
    (lambda: mm.expmech_packing_error(10 ** 8, 0.1, 0.5, 10), "n"),
    (lambda: mm.lower_bound_tv_mean(10, 0.1, k=0.5), "k"),
    (lambda: mm.lower_bound_tv_support(10, 0.0), "alpha"),
    (lambda: mm.theorem3_error_bound(10, 0.1, 0.5, 0.0, 10, k=2.5), "k"),
    (lambda: mm.theorem3_error_bound(10, 0.1, 0.5, 0.0, 0.5), "card_V"),
    (lambda: mm.lower_bound_dp_mean(10, 2, 0.5, [0.1, 0.2]), "delta"),
    (lambda: mm.lower_bound_dp_mean(10, 2, 0.5, n_grid=2), "n_grid"),
    (lambda: mm.lower_bound("dp", 10, 0.5), "d"),
    (lambda: mm.table1_lower_slopes(4.0, delta=1e-40), "delta"),
    (lambda: mm.noise_coefficient("gauss", 10, 1, 0.5, 1.5), "delta"),
    (lambda: mm.optimal_truncation([1.0, 2.0], 4.0, 0.1), "r"),
    (lambda: mm.project_l2_ball([[np.inf, 0.0]], 1.0), "X"),
    (lambda: mm.project_l2_ball([[1.0, 0.0]], 0.0), "T"),
    (lambda: mm.private_mean(np.full((2, 2), np.nan), "kl", 0.5, 1.0), "X"),
    (lambda: mm.private_mean(np.zeros((2, 2)), "kl", np.nan, 1.0), "alpha"),
    (lambda: mm.risk_bound_31(-1.0, 4.0, 10, 1.0, 0.1), "r"),
    (lambda: mm.two_point_risk(0.5, 1.0, np.inf, 10, 1.0, 0.1), "k"),
    (lambda: mm.worst_two_point_risk(1.0, 1.0, 10, 1, 0.5, "laplace"), "k"),
    (lambda: mm.simulate_two_point_risk(0.1, 1.0, -np.inf, 10, 1, 0.5, "laplace", 1.0), "k"),
    (lambda: mm.simulate_two_point_risk(0.1, 1.0, 4.0, 10, 1, 0.5, "laplace", 1.0, reps=10 ** 9), "reps"),
    (lambda: mm.simulate_two_point_risk(0.1, 1.0, 4.0, 10, 1, 0.5, "cauchy", 1.0), "mechanism"),
    (lambda: mm.minimax_rate("dp", 10, 1, 0.5, r=[1.0, 2.0]), "r"),
    (lambda: mm.rate_exponents(0.5), "k"),
    (lambda: mm.table1_slopes(1.0), "k"),
    (lambda: mm.private_histogram([[0.5]], 4, np.nan), "alpha"),
    (lambda: mm.histogram_risk_exact(lambda x: x, -1.0, 10, 2, 1.0), "int_g2"),
    (lambda: mm.histogram_optimal_bins(lambda x: x, 1.0, 10, [1.0, 2.0]), "alpha"),
    (lambda: mm.bump_packing_density([0.5], [1.0] * 4, 0.0), "width"),
    (lambda: mm.hamming_packing(21, 2), "m"),
    (lambda: mm.hamming_packing(8, 9), "min_distance"),
    (lambda: mm.support_expmech_log_density([3.0], [0.5], 1.0), "t"),
    (lambda: mm.support_dp_expmech([0.5, np.nan], 1.0), "X"),
    (lambda: mm.support_dp_expmech([0.5], [1.0, 2.0]), "alpha"),
]


@pytest.mark.parametrize("call, name", INVALID, ids=[f"{i}-{name}" for i, (_, name) in enumerate(INVALID)])
def test_invalid_input_is_refused_naming_the_argument(call, name):
    assert_rejects(call, name=name)


def test_every_public_function_is_fuzzed():
    public = {n for n in mm.__all__ if callable(getattr(mm, n))}
    assert public - COVERED == set()
