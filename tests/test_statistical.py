"""privlib.statistical: hand values from the paper and its spec, symmetry and floors, properties,
bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlib import statistical


def test_dp_baselines_match_the_printed_values():
    np.testing.assert_allclose(statistical.dp_delta(0.01, [1.0, 3.0]), [0.37984, 0.12807], atol=1e-5)
    np.testing.assert_allclose(statistical.dp_delta(0.01, [1.0, 3.0], "laplace"), [0.39043, 0.14928], atol=1e-5)


def test_sp_with_noise_equals_dp_as_pi_tends_to_zero():
    assert float(statistical.noise_delta(0.01, 1000, 1e-9, 1 / 1000)) == pytest.approx(0.379842, abs=1e-5)


def test_figure_values_quoted_in_the_spec():
    assert float(statistical.noise_delta(0.01, 1000, 0.005, 1 / 1000)) == pytest.approx(0.16, abs=0.005)
    assert float(statistical.subsampling_delta(0.01, 1000, 100, 0.5)) == pytest.approx(0.0040, abs=5e-5)
    assert float(statistical.pure_delta(0.1, 1000, 0.5)) == pytest.approx(0.0016, abs=5e-5)


def test_pure_sp_floor_at_small_pi():
    # the all-negative database reveals the critical entry: delta >= (1 - pi)^(n-1)
    assert float(statistical.pure_delta(5.0, 100, 0.01)) == pytest.approx(0.99**99, rel=1e-10)


def test_laplace_cliff_is_exactly_zero():
    n, scale = 50, 2 / 50
    eps0 = float(statistical.laplace_sp_epsilon(n, scale))
    assert float(statistical.noise_delta(eps0, n, 0.3, scale, "laplace")) == 0.0
    assert float(statistical.noise_delta(0.99 * eps0, n, 0.3, scale, "laplace")) > 0.0


def test_laplace_noise_with_small_scale_has_no_underflow():
    # scale 1e-3 puts the bracket 1000 scale units from most lattice points
    d = float(statistical.noise_delta(0.01, 1000, 0.1, 1e-3, "laplace"))
    assert 0.0 < d < float(statistical.dp_delta(0.01, 1.0, "laplace"))


def test_subsampling_laws_sum_to_one_and_mix_to_binomial():
    from scipy import stats

    lp, lq = statistical.subsampling_laws(200, 40, 0.3)
    assert np.exp(lp).sum() == pytest.approx(1.0) and np.exp(lq).sum() == pytest.approx(1.0)
    np.testing.assert_allclose(0.3 * np.exp(lp) + 0.7 * np.exp(lq), stats.binom.pmf(np.arange(41), 40, 0.3), atol=1e-15)


def test_normal_approximation_is_close_at_half():
    exact = float(statistical.noise_delta(0.01, 1000, 0.5, 1 / 1000))
    approx = float(statistical.normal_approx_delta(0.01, 1000, 0.5, 1 / 1000))
    assert approx == pytest.approx(exact, rel=1e-3)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(5, 300), frac=st.floats(0.05, 1.0), pi=st.floats(0.01, 0.99), eps=st.floats(0.0, 2.0))
def test_subsampling_delta_symmetric_bounded_and_monotone(n, frac, pi, eps):
    m = max(1, int(frac * n))
    d = float(statistical.subsampling_delta(eps, n, m, pi))
    assert 0.0 <= d <= 1.0
    assert d == pytest.approx(float(statistical.subsampling_delta(eps, n, m, 1 - pi)), abs=1e-12)
    assert float(statistical.subsampling_delta(eps + 0.1, n, m, pi)) <= d + 1e-12


@settings(max_examples=15, deadline=None)
@given(pi=st.floats(0.02, 0.98), nu=st.floats(0.5, 5.0), eps=st.floats(0.0, 0.5))
def test_noisy_sp_never_exceeds_dp(pi, nu, eps):
    # the DP baseline is the worst case over all databases, SP averages over them
    for noise in ("gaussian", "laplace"):
        assert float(statistical.noise_delta(eps, 60, pi, nu / 60, noise)) <= float(statistical.dp_delta(eps, nu, noise)) + 1e-9


@pytest.mark.parametrize("call, exc, fragment", [
    (lambda: statistical.subsampling_delta(0.1, 10, 11, 0.5), ValueError, r"m must be an integer in \[1, 10\]"),
    (lambda: statistical.pure_delta(-0.1, 10, 0.5), ValueError, "epsilon must lie in"),
    (lambda: statistical.pure_delta(0.1, 10, 1.0), ValueError, r"pi must lie in \(0, 1\)"),
    (lambda: statistical.noise_delta(0.1, 10, 0.5, 0.0), ValueError, "scale must lie in"),
    (lambda: statistical.noise_delta(0.1, 10, 0.5, 0.1, "cauchy"), ValueError, "noise must be one of"),
    (lambda: statistical.dp_delta(0.1, 1.0, "cauchy"), ValueError, "noise must be one of"),
    (lambda: statistical.subsampling_delta(0.1, 10.5, 3, 0.5), TypeError, "n must be an integer"),
])
def test_bad_input(call, exc, fragment):
    with pytest.raises(exc, match=fragment):
        call()
