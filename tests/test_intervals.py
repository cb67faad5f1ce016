"""privlib.intervals: the spec's hand values, the integer/interval readings, properties, bad input."""

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
