"""privlib.papers.intervals: the spec's hand values, the integer/interval readings, properties, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlib import intervals


def test_figure_2_values():
    lower, upper = intervals.laplace_sum_bounds([-22.5, -15, 0, 5, 10, 25, 32.5], 10, 0.1)
    np.testing.assert_allclose(lower, [0.001939, 0.004104, 0.018394, 0.018394, 0.018394, 0.004104, 0.001939], atol=1e-6)
    np.testing.assert_allclose(upper, [0.005270, 0.011157, 0.05, 0.082436, 0.05, 0.011157, 0.005270], atol=1e-6)
    lower, upper = intervals.laplace_sum_bounds([5.0], 10, 0.25)
    assert float(upper[0]) == pytest.approx(0.4362929, abs=1e-7) and float(lower[0]) == pytest.approx(0.0102606, abs=1e-7)


def test_integer_reading_dips_at_half_integers_only():
    t = np.array([0.0, 2.0, 2.5, 7.5])
    flat, _ = intervals.laplace_sum_bounds(t, 10, 0.1)
    scalloped, _ = intervals.laplace_sum_bounds(t, 10, 0.1, "integer")
    np.testing.assert_allclose(scalloped[:2], flat[:2], rtol=1e-12)
    np.testing.assert_allclose(scalloped[2:], 0.017497, atol=1e-6)


def test_figure_3_table():
    low, high = intervals.randomized_response_bounds(np.arange(1, 11), 1.0)
    assert low[0] == pytest.approx(0.268941, abs=1e-6) and high[9] == pytest.approx(0.0436035, abs=1e-7)


def test_example_6_7_numbers():
    assert float(intervals.clamped_count_predictive(2.0)) == pytest.approx(0.0646644, abs=1e-7)
    assert float(intervals.clamped_count_posterior([3.0], 2.0)[0]) == pytest.approx(0.231103, abs=1e-6)


def test_power_bounds_paper_and_sharp():
    low, high = intervals.power_bounds(0.5, 1.0, 1.0)
    assert float(high) == 1.0  # 0.5 e = 1.36, clipped
    low, high = intervals.power_bounds(0.5, 1.0, 1.0, sharp=True)
    assert float(high) == pytest.approx(1 - 0.5 / np.e)


def test_multiplicative_distance_infinite_when_supports_differ():
    assert intervals.multiplicative_distance([0.5, 0.5, 0.0], [0.5, 0.25, 0.25]) == np.inf
    assert intervals.multiplicative_distance([0.5, 0.5, 0.0], [0.25, 0.75, 0.0]) == pytest.approx(np.log(2))


@settings(max_examples=50, deadline=None)
# theta: the endpoints and the interior away from subnormals (where scipy's binom.pmf, the
# test's own reference, overflows internally)
@given(theta=st.one_of(st.sampled_from([0.0, 1.0]), st.floats(1e-12, 1.0 - 1e-12)),
       eps=st.floats(0.01, 1.0), n=st.integers(1, 30))
def test_binomial_models_stay_inside_the_bounds(theta, eps, n):
    from scipy import stats

    t = np.linspace(-n, 2 * n, 61)
    p_q = eps / 2 * np.exp(-eps * np.abs(t[None, :] - np.arange(n + 1)[:, None]))
    p_theta = stats.binom.pmf(np.arange(n + 1), n, theta) @ p_q
    lower, upper = intervals.laplace_sum_bounds(t, n, eps)
    assert (lower <= p_theta * (1 + 1e-10)).all() and (p_theta <= upper * (1 + 1e-10)).all()


@pytest.mark.parametrize("call, exc, fragment", [
    (lambda: intervals.laplace_sum_bounds(0.0, 0, 0.1), ValueError, "n must be an integer in"),
    (lambda: intervals.laplace_sum_bounds(0.0, 5, 0.0), ValueError, "epsilon must lie in"),
    (lambda: intervals.laplace_sum_bounds(0.0, 5, 0.1, "real"), ValueError, "q_support must be"),
    (lambda: intervals.power_bounds(1.5, 1.0, 1.0), ValueError, r"alpha must lie in \[0, 1\]"),
    (lambda: intervals.density_bounds([1.0, 2.0], 1.0, 1.0), ValueError, "2-D array"),
    (lambda: intervals.clamped_count_posterior([1.0], [1.0, 2.0]), ValueError, "single release"),
    (lambda: intervals.multiplicative_distance([1.0], [1.0, 2.0]), ValueError, "same length"),
])
def test_bad_input(call, exc, fragment):
    with pytest.raises(exc, match=fragment):
        call()


# --- public functions of issue 14 and the numerics of issue 15 ---------------------------------


def test_laplace_power_section_9_numbers():
    # the reproduction spec's construction 2 (eps = 0.5, n = 3): alpha e^{eps n}, middle branch, complementary line
    np.testing.assert_allclose(intervals.laplace_power([0.05, 0.3, 0.5], 0.5, 3.0), [0.224084, 0.814058, 0.888435], atol=1e-6)
    alphas = np.linspace(0.0, 1.0, 21)
    least = intervals.laplace_power(alphas, 0.5, 3.0, minimize=True)
    np.testing.assert_allclose(least, 1.0 - intervals.laplace_power(1.0 - alphas, 0.5, 3.0), atol=1e-15)


def test_laplace_power_is_the_neyman_pearson_power_of_a_fine_grid():
    from scipy import stats

    t = np.linspace(-30.0, 33.0, 20001)
    f0, f1 = stats.laplace.pdf(t), stats.laplace.pdf(t - 3.0)
    alphas = np.array([0.001, 0.05, 0.3, 0.7])
    for minimize in (False, True):
        np.testing.assert_allclose(intervals.density_power(t, f0, f1, alphas, minimize=minimize),
                                   intervals.laplace_power(alphas, 1.0, 3.0, minimize=minimize), atol=1e-6)


def test_neyman_pearson_power_of_randomized_response():
    keep = np.e / (1 + np.e)
    null, alt = [keep, 1 - keep], [1 - keep, keep]
    assert float(intervals.neyman_pearson_power(null, alt, 0.1)) == pytest.approx(0.1 * np.e)
    assert float(intervals.neyman_pearson_power(null, alt, 0.5)) == pytest.approx(1 - 0.5 / np.e)
    assert float(intervals.neyman_pearson_power(null, alt, 0.1, minimize=True)) == pytest.approx(0.1 / np.e)


def test_laplace_sum_marginal_against_the_direct_sum_and_mpmath():
    import mpmath
    from scipy import stats

    w = stats.binom.pmf(np.arange(11), 10, 0.3)
    t = np.linspace(-25.0, 35.0, 61)
    direct = w @ (0.2 * np.exp(-0.4 * np.abs(t[None, :] - np.arange(11)[:, None])))
    np.testing.assert_allclose(intervals.laplace_sum_marginal(t, w, 0.4), direct, rtol=1e-12)
    # far in the tail the density underflows; its logarithm does not
    for eps in (1e-8, 1e-3, 1.0, 10.0, 40.0):
        with mpmath.workdps(40):
            ref = mpmath.log(sum(mpmath.mpf(float(wk)) * mpmath.mpf(eps) / 2 * mpmath.exp(-mpmath.mpf(eps) * abs(mpmath.mpf(-50.0) - k))
                                 for k, wk in enumerate(w)))
        assert float(intervals.laplace_sum_marginal(-50.0, w, eps, log=True)) == pytest.approx(float(ref), rel=1e-12)


def test_example_6_7_posterior_mean_and_ratio_range():
    # the reproduction spec's numbers
    assert float(intervals.clamped_count_posterior_mean(2.0)) == pytest.approx(2.83684, abs=1e-5)
    lo, hi = intervals.clamped_count_ratio_range([10.0, 0.0, -7.0])
    np.testing.assert_allclose(lo, [0.59677, 0.55586, 0.55586], atol=1e-5)
    np.testing.assert_allclose(hi, [1.62220, 1.51098, 1.51098], atol=1e-5)
    assert (hi <= np.e).all() and (lo >= 1 / np.e).all()


def test_lipschitz_loss_group_privacy_and_unconnected_datasets():
    keep = np.exp(0.7) / (1 + np.exp(0.7))
    rr = np.array([[keep, 1 - keep], [1 - keep, keep]])
    assert intervals.lipschitz_loss(rr, [[0.0, 1.0], [1.0, 0.0]]) == pytest.approx(0.7)
    assert intervals.lipschitz_loss(rr, [[0.0, np.inf], [np.inf, 0.0]]) == 0.0     # eps * inf = inf: no constraint
    assert intervals.lipschitz_loss(rr, [[0.0, 2.0], [2.0, 0.0]]) == pytest.approx(0.35)
    assert intervals.lipschitz_loss([[1.0, 0.0], [0.5, 0.5]], [[0.0, 1.0], [1.0, 0.0]]) == np.inf


def test_bounds_never_nan_beyond_the_overflow_of_e_to_the_eps_d():
    # eps d = 800 > 709: e^{eps d} overflows, the bounds must not become NaN (issue 15)
    low, high = intervals.power_bounds([0.0, 1e-300, 0.05, 1.0], 1.0, 800.0, sharp=True)
    assert not np.isnan(low).any() and not np.isnan(high).any()
    np.testing.assert_array_equal(high, [0.0, 1.0, 1.0, 1.0])
    np.testing.assert_array_equal(low, [0.0, 0.0, 0.0, 1.0])
    low, high = intervals.power_bounds(1e-300, 1.0, 600.0)
    assert float(low) == 0.0 and float(high) == pytest.approx(1e-300 * np.exp(600.0))
    low, high = intervals.posterior_bounds([0.0, 1e-300, 1.0], 1.0, 800.0)
    np.testing.assert_array_equal(high, [0.0, np.exp(800.0 - 690.7755278982137), np.inf])
    assert not np.isnan(low).any()
    assert intervals.power_bounds(0.5, 0.0, np.inf)[1] == 1.0        # eps * inf = inf even at eps = 0


@pytest.mark.parametrize("eps", [1e-8, 1e-3, 1.0, 10.0, 40.0])
def test_laplace_power_against_mpmath(eps):
    import mpmath

    alphas = [1e-300, 1e-12, 1e-3, 0.3, 0.5, 0.9, 1 - 1e-12]
    ours = intervals.laplace_power(alphas, eps, 2.0)
    least = intervals.laplace_power(alphas, eps, 2.0, minimize=True)
    with mpmath.workdps(60):
        r = mpmath.mpf(eps) * 2
        for a, mine, low in zip(alphas, ours, least):
            a = mpmath.mpf(a)
            c = -mpmath.log(2 * a) if a <= 0.5 else mpmath.log(2 * (1 - a))   # P0(T >= c) = a, T ~ Lap(1)
            z = c - r
            most = mpmath.exp(-z) / 2 if z >= 0 else 1 - mpmath.exp(z) / 2
            c = mpmath.log(2 * a) if a <= 0.5 else -mpmath.log(2 * (1 - a))   # P0(T <= c) = a
            z = c - r
            fewest = mpmath.exp(z) / 2 if z <= 0 else 1 - mpmath.exp(-z) / 2
            assert mine == pytest.approx(float(most), rel=1e-12)
            assert low == pytest.approx(float(fewest), rel=1e-12)


def test_neyman_pearson_test_is_randomized_on_the_boundary_only():
    keep = np.e / (1 + np.e)
    null, alt = np.array([keep, 1 - keep]), np.array([1 - keep, keep])
    phi = intervals.neyman_pearson_test(null, alt, 0.1)
    np.testing.assert_allclose(phi, [0.0, 0.1 / (1 - keep)])
    assert null @ phi == pytest.approx(0.1) and alt @ phi == pytest.approx(0.1 * np.e)
    phi = intervals.neyman_pearson_test(null, alt, 0.1, minimize=True)
    assert null @ phi == pytest.approx(0.1) and alt @ phi == pytest.approx(0.1 / np.e)
    # an output impossible under the null is rejected at no cost (and never by the least powerful test)
    phi = intervals.neyman_pearson_test([0.5, 0.5, 0.0], [0.2, 0.3, 0.5], 0.0)
    np.testing.assert_array_equal(phi, [0.0, 0.0, 1.0])
    assert intervals.neyman_pearson_test([0.5, 0.5, 0.0], [0.2, 0.3, 0.5], 0.0, minimize=True).sum() == 0.0


def test_least_powerful_test_keeps_its_digits_at_tiny_alpha():
    keep = np.e / (1 + np.e)
    least = intervals.neyman_pearson_power([keep, 1 - keep], [1 - keep, keep], [1e-300, 1e-15], minimize=True)
    np.testing.assert_allclose(least, np.array([1e-300, 1e-15]) / np.e, rtol=1e-14)
