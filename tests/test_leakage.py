"""privlib.leakage: definitions against direct computations, hand values, properties, bad input."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlib import leakage, mechanisms


def test_min_entropy_of_uniform_and_point_mass():
    assert leakage.min_entropy(np.full(8, 1 / 8)) == pytest.approx(np.log(8))
    assert leakage.min_entropy([0.0, 1.0, 0.0]) == 0.0


def test_pml_matches_exact_rational_posterior_ratio():
    prior = [Fraction(1, 6), Fraction(1, 3), Fraction(1, 2)]
    channel = [[Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)],
               [Fraction(1, 5), Fraction(3, 5), Fraction(1, 5)],
               [Fraction(1, 10), Fraction(1, 10), Fraction(4, 5)]]
    for y in range(3):
        p_y = sum(prior[x] * channel[x][y] for x in range(3))
        exact = max(channel[x][y] / p_y for x in range(3))
        got = leakage.pml(np.array(prior, dtype=float), np.array(channel, dtype=float))[y]
        assert got == pytest.approx(float(np.log(float(exact))), rel=1e-13)


def test_randomized_response_pml_closed_form():
    eps, prior = 1.3, np.array([0.05, 0.15, 0.3, 0.5])
    rr = mechanisms.RandomizedResponse(eps, 4).matrix()
    expected = np.log(np.exp(eps) / (1 + prior * np.expm1(eps)))
    np.testing.assert_allclose(leakage.pml(prior, rr), expected, rtol=1e-12)


def test_zero_probability_output_has_zero_leakage_and_prior_zero_letters_are_ignored():
    prior = np.array([0.0, 1.0])
    channel = np.array([[0.0, 1.0], [1.0, 0.0]])
    assert leakage.pml(prior, channel).tolist() == [0.0, 0.0]


def test_leakage_capacity_infinite_and_finite():
    assert leakage.leakage_capacity([[0.5, 0.5], [1.0, 0.0]]) == np.inf
    assert leakage.leakage_capacity(mechanisms.RandomizedResponse(0.8, 3).matrix()) == pytest.approx(0.8)


def test_threshold_query_hand_values():
    assert float(leakage.threshold_query_chernoff_bound(100, 0.1)) == pytest.approx(0.36**50, rel=1e-9)
    # exact leakage of 'no' for n = 2, p = 0.3: P(S <= 1) = 1 - 0.09
    assert float(leakage.threshold_query_leakage(2, 0.3)) == pytest.approx(-np.log(0.91))
    assert float(leakage.threshold_query_leakage(2, 0.3, answer=1)) == pytest.approx(-np.log(0.09))


def test_laplace_count_hand_values_and_inverse():
    assert float(leakage.laplace_count_pml_bound(0.5, 1.0)) == pytest.approx(0.379885493, abs=1e-9)
    assert float(leakage.dp_budget_for_pml(0.3, 0.5)) == pytest.approx(0.730565721, abs=1e-9)
    assert float(leakage.laplace_count_pml_bound(0.5, leakage.dp_budget_for_pml(0.3, 0.5))) == pytest.approx(0.3)
    assert leakage.dp_budget_for_pml(1.0, 0.5) == np.inf


def test_laplace_count_tails_are_exactly_the_sup():
    y = np.array([-2.0, -0.5, 1.5, 3.0])
    got = leakage.laplace_count_pml(12, 0.3, 0.8, y)
    right = 0.8 - np.log1p(0.3 * np.expm1(0.8))
    left = 0.8 - np.log1p(0.7 * np.expm1(0.8))
    np.testing.assert_allclose(got, [left, left, right, right], rtol=1e-10)
    inner = leakage.laplace_count_pml(12, 0.3, 0.8, np.linspace(0, 1, 50))
    assert inner.max() <= float(leakage.laplace_count_pml_sup(0.3, 0.8)) + 1e-12


def test_laplace_count_truncated_sum_equals_full_logsumexp():
    from scipy import special, stats

    n, theta, eps = 3000, 0.35, 0.7
    b = 1.0 / (n * eps)
    k = np.arange(n)
    log_w = stats.binom.logpmf(k, n - 1, theta)
    for y in [-0.3, 0.2, 0.35, 0.9, 1.4]:
        a = [special.logsumexp(log_w - np.abs(y - (k + z) / n) / b) for z in (0, 1)]
        full = max(a) - np.logaddexp(np.log(theta) + a[1], np.log1p(-theta) + a[0])
        assert float(leakage.laplace_count_pml(n, theta, eps, y)) == pytest.approx(full, abs=1e-12)


def test_laplace_count_large_n_is_finite():
    assert np.isfinite(leakage.laplace_count_pml(10**6, 0.4, 0.5, [0.2, 1.5])).all()


def test_correlated_count_limits():
    # rho = 0 is the i.i.d. value, flat in n; rho = 1 tends to -log min(theta, 1 - theta)
    flat = leakage.correlated_count_pml_sup([1, 10, 100], 0.2, 0.5, 0.0)
    np.testing.assert_allclose(flat, flat[0], rtol=1e-12)
    assert float(leakage.correlated_count_pml_sup(400, 0.2, 0.5, 1.0)) == pytest.approx(-np.log(0.2), abs=1e-9)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), nx=st.integers(2, 6), ny=st.integers(2, 6))
def test_pml_bounds_and_capacity(seed, nx, ny):
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(nx))
    channel = rng.dirichlet(np.ones(ny), size=nx)
    ell = leakage.pml(prior, channel)
    assert (ell >= 0).all()
    assert (ell <= -np.log(prior.min()) + 1e-9).all()          # at most the clear-release cost
    assert ell.max() <= leakage.leakage_capacity(channel) + 1e-9  # Theorem 2
    # pre-processing: a deterministic attribute leaks no more than X
    kernel = np.eye(2)[rng.integers(0, 2, size=nx)]
    p_z = leakage.attribute_law(prior, kernel)
    if (p_z > 0).all():
        joint_zy = kernel.T @ (prior[:, None] * channel)
        ell_z = np.log((joint_zy / p_z[:, None]).max(axis=0) / joint_zy.sum(axis=0))
        assert (ell_z <= ell + 1e-9).all()


@settings(max_examples=60, deadline=None)
@given(p=st.floats(1e-4, 0.5), eps=st.floats(1e-4, 10.0))
def test_prop12_bound_between_linearization_and_dp(p, eps):
    bound = float(leakage.laplace_count_pml_bound(p, eps))
    assert bound <= (1 - p) * eps + 1e-12   # concave with slope 1 - p at 0
    assert bound <= eps + 1e-12


@pytest.mark.parametrize("call, exc, fragment", [
    (lambda: leakage.pml([0.5, 0.6], [[1, 0], [0, 1]]), ValueError, "prior must sum to 1"),
    (lambda: leakage.pml([0.5, 0.5], [[0.5, 0.6], [0, 1]]), ValueError, "channel must sum to 1"),
    (lambda: leakage.pml([0.5, 0.5], [[1, 0], [0, 1], [1, 0]]), ValueError, "3 input rows but prior has 2"),
    (lambda: leakage.threshold_query_chernoff_bound(10, 0.5), ValueError, "p must differ from 1/2"),
    (lambda: leakage.laplace_count_pml(0, 0.5, 1.0, 0.0), ValueError, "n must be an integer in"),
    (lambda: leakage.laplace_count_pml(5, 1.0, 1.0, 0.0), ValueError, r"theta must lie in \(0, 1\)"),
    (lambda: leakage.laplace_count_pml_bound(0.7, 1.0), ValueError, r"p must lie in \(0, 0.5\]"),
    (lambda: leakage.dp_budget_for_pml(-1.0, 0.2), ValueError, "pml_target must lie in"),
    (lambda: leakage.min_entropy("abc"), TypeError, "p must be a number"),
])
def test_bad_input(call, exc, fragment):
    with pytest.raises(exc, match=fragment):
        call()


def test_quantized_mean_hand_values_and_boundary_trap():
    got = [leakage.quantized_mean_min_entropy(n, [0, 0.25, 1], [0.5, 0.3, 0.2]) for n in (1, 10, 50, 200)]
    np.testing.assert_allclose(got, [np.log(2), 1.1430, 0.5080, 0.2012], atol=5e-5)
    # a mean on a cell edge never becomes predictable
    assert leakage.quantized_mean_min_entropy(1000, [0, 0.5, 1], [0.3, 0.4, 0.3]) == pytest.approx(0.6770, abs=5e-5)


def test_set_partitions_are_the_bell_numbers():
    assert [len(leakage.set_partitions(k)) for k in range(1, 7)] == [1, 2, 5, 15, 52, 203]
