"""The core's log-space helpers against high-precision arithmetic (mpmath)."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from privlib.core._logspace import log_binomial_pmf


def _exact(k: int, n: int, p: float) -> float:
    with mpmath.workdps(60):
        p_ = mpmath.mpf(p)
        return float(mpmath.log(mpmath.binomial(n, k)) + k * mpmath.log(p_) + (n - k) * mpmath.log1p(-p_))


@pytest.mark.parametrize("k, n, p", [
    (0, 10**7, 1e-12), (10**7, 10**7, 1e-12), (1, 10**7, 1e-12), (10**7, 10**7, 1 - 1e-12),
    (3, 10**7, 1e-6), (5 * 10**5, 10**6, 0.5), (123456, 10**9, 1e-4), (0, 10, 0.3), (10, 10, 0.3),
    (7, 10, 0.3), (1, 1, 0.5), (0, 1, 1e-300), (40, 10**12, 4e-11), (2, 3, 0.999999)])
def test_log_binomial_pmf_is_accurate_to_a_few_ulps(k, n, p):
    exact = _exact(k, n, p)
    got = float(log_binomial_pmf(k, n, p)[()])
    ulp = np.finfo(float).eps
    # the documented bound: ~20 ulps of |log pmf| + sqrt(n) (from rounding n p), a few at the ends
    bound = 4 * ulp * abs(exact) if k in (0, n) else 32 * ulp * (abs(exact) + np.sqrt(n))
    assert abs(got - exact) <= bound


def test_log_binomial_pmf_within_its_bound_on_random_instances():
    rng = np.random.default_rng(20261126)
    ulp = np.finfo(float).eps
    for _ in range(200):
        n = int(10 ** rng.uniform(0, 12))
        p = float(10 ** rng.uniform(-12, -0.01)) if rng.random() < 0.5 else float(rng.uniform(0.01, 0.99))
        spread = np.sqrt(max(n * p * (1 - p), 1.0)) * rng.choice([0.5, 3.0, 30.0])
        k = int(np.clip(round(n * p + rng.normal() * spread), 0, n))
        exact = _exact(k, n, p)
        assert abs(float(log_binomial_pmf(k, n, p)[()]) - exact) <= 32 * ulp * (abs(exact) + np.sqrt(n)), (k, n, p)


def test_log_binomial_pmf_at_the_ends_keeps_the_digits_log_of_one_minus_p_loses():
    # log(1 - p) rounds 1 - 1e-12 first: relative error 1e-4 of the result; log1p does not
    exact = _exact(0, 10**7, 1e-12)
    assert abs(10**7 * np.log(1.0 - 1e-12) - exact) > 1e-6 * abs(exact)
    assert float(log_binomial_pmf(0, 10**7, 1e-12)[()]) == pytest.approx(exact, rel=4e-16)


def test_log_binomial_pmf_outside_the_support_and_point_masses():
    assert np.all(log_binomial_pmf(np.array([-1, 11]), 10, 0.3) == -np.inf)
    np.testing.assert_array_equal(log_binomial_pmf(np.arange(3), 2, 0.0), [0.0, -np.inf, -np.inf])
    np.testing.assert_array_equal(log_binomial_pmf(np.arange(3), 2, 1.0), [-np.inf, -np.inf, 0.0])
    total = np.logaddexp.reduce(log_binomial_pmf(np.arange(101), 100, 0.37))
    assert total == pytest.approx(0.0, abs=1e-14)
