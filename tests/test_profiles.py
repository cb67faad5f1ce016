"""privlib.core.profiles against dp-accounting (an independent implementation) and scipy quadrature,
plus property tests of the curves' shape."""

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_mechanism as plm
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate

from privlib import mechanisms, profiles

EPS = np.array([0.0, 0.05, 0.3, 0.9, 1.7, 3.0])


@pytest.mark.parametrize("mu", [0.2, 1.0, 3.0])
def test_gaussian_delta_matches_dp_accounting(mu):
    # dp-accounting's GaussianPrivacyLoss with standard deviation 1/mu and sensitivity 1
    pl = plm.GaussianPrivacyLoss(standard_deviation=1.0 / mu, sensitivity=1.0)
    expected = [pl.get_delta_for_epsilon(float(e)) for e in EPS]
    np.testing.assert_allclose(profiles.gaussian_delta(EPS, mu), expected, rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize("eps0", [0.1, 1.0, 2.5])
def test_laplace_delta_matches_dp_accounting(eps0):
    pl = plm.LaplacePrivacyLoss(parameter=1.0 / eps0, sensitivity=1.0)
    expected = [pl.get_delta_for_epsilon(float(e)) for e in EPS]
    np.testing.assert_allclose(profiles.laplace_delta(EPS, eps0), expected, rtol=1e-9, atol=1e-15)


def test_hockey_stick_of_geometric_matches_dp_accounting_discrete_laplace():
    # the two-sided geometric mechanism is dp-accounting's discrete Laplace
    eps0 = 0.9
    mech = mechanisms.GeometricMechanism(eps0)
    z = np.arange(-400, 402)
    p, q = mech.pmf(z, 0), mech.pmf(z, 1)
    pl = plm.DiscreteLaplacePrivacyLoss(parameter=eps0, sensitivity=1)
    expected = [pl.get_delta_for_epsilon(float(e)) for e in EPS]
    np.testing.assert_allclose(profiles.hockey_stick(p / p.sum(), q / q.sum(), EPS), expected, atol=1e-12)


def test_hockey_stick_equals_direct_sum_for_randomized_response():
    m = mechanisms.RandomizedResponse(epsilon=1.1, k=4).matrix()
    direct = [np.maximum(m[0] - np.exp(e) * m[1], 0).sum() for e in EPS]
    np.testing.assert_allclose(profiles.hockey_stick(m[0], m[1], EPS), direct, atol=1e-15)


def test_hockey_stick_of_discretized_gaussian_approaches_closed_form():
    # fine discretization of two unit-variance normals one apart
    y = np.linspace(-12, 13, 250_001)
    g = mechanisms.GaussianMechanism(1.0)
    p = g.pdf(y, 0.0)
    q = g.pdf(y, 1.0)
    p, q = p / p.sum(), q / q.sum()
    np.testing.assert_allclose(profiles.hockey_stick(p, q, EPS), profiles.gaussian_delta(EPS, 1.0), atol=2e-5)


def test_laplace_delta_against_quadrature_of_privacy_loss_expectation():
    eps0 = 0.8
    lap = mechanisms.LaplaceMechanism(eps0)
    for e in [0.0, 0.2, 0.5]:
        def integrand(t):
            loss = float(lap.logpdf(t, 0.0) - lap.logpdf(t, 1.0))
            return float(lap.pdf(t, 0.0)) * max(1.0 - np.exp(e - loss), 0.0)
        val = sum(integrate.quad(integrand, a, b, epsabs=1e-13)[0] for a, b in [(-np.inf, 0), (0, 1), (1, np.inf)])
        assert float(profiles.laplace_delta(e, eps0)) == pytest.approx(val, abs=1e-10)


def test_privacy_loss_handles_zero_mass_without_nan():
    loss = profiles.privacy_loss([0.5, 0.5, 0.0, 0.0], [0.5, 0.0, 0.5, 0.0])
    assert loss[0] == 0.0 and loss[1] == np.inf and loss[2] == -np.inf and loss[3] == 0.0


def test_inverse_functions_round_trip():
    deltas = np.array([1e-2, 1e-5, 1e-10, 1e-40])
    eps = profiles.gaussian_epsilon(deltas, 0.7)
    np.testing.assert_allclose(profiles.gaussian_delta(eps, 0.7), deltas, rtol=1e-8)
    assert profiles.laplace_epsilon(0.1, 1.0) == pytest.approx(1.0 + 2 * np.log(0.9))
    root = profiles.epsilon_for_delta(lambda e: float(profiles.laplace_delta(e, 1.0)), 0.1)
    assert root == pytest.approx(float(profiles.laplace_epsilon(0.1, 1.0)), abs=1e-10)


def test_gaussian_delta_tiny_mu_and_tiny_delta_are_accurate():
    # for mu -> 0: delta(0) = 2 Phi(mu/2) - 1 ~ mu / sqrt(2 pi)
    assert float(profiles.gaussian_delta(0.0, 1e-8)) == pytest.approx(1e-8 / np.sqrt(2 * np.pi), rel=1e-6)
    assert 0 < float(profiles.gaussian_delta(30.0, 1.0)) < 1e-100


@settings(max_examples=60, deadline=None)
@given(mu=st.floats(0.01, 10.0), e1=st.floats(0.0, 20.0), e2=st.floats(0.0, 20.0))
def test_gaussian_curve_is_nonincreasing_and_in_unit_interval(mu, e1, e2):
    lo, hi = sorted([e1, e2])
    d_lo, d_hi = profiles.gaussian_delta([lo, hi], mu)
    assert 0.0 <= d_hi <= d_lo + 1e-15 <= 1.0 + 1e-15


@settings(max_examples=60, deadline=None)
@given(probs=st.lists(st.floats(0.0, 1.0), min_size=4, max_size=12), eps=st.floats(0.0, 5.0))
def test_hockey_stick_is_between_zero_and_tv(probs, eps):
    arr = np.array(probs)
    half = len(arr) // 2
    p, q = arr[:half] + 1e-3, arr[half:2 * half] + 1e-3
    p, q = p / p.sum(), q / q.sum()
    tv = 0.5 * np.abs(p - q).sum()
    d = float(profiles.hockey_stick(p, q, eps))
    assert -1e-15 <= d <= tv + 1e-12


@pytest.mark.parametrize(
    "call, exc, message",
    [
        (lambda: profiles.laplace_delta(-0.1, 1.0), ValueError, "epsilon must lie in"),
        (lambda: profiles.gaussian_delta(1.0, 0.0), ValueError, "mu must lie in"),
        (lambda: profiles.gaussian_epsilon(1.0, 1.0), ValueError, r"delta must lie in \(0, 1\)"),
        (lambda: profiles.hockey_stick([0.5, 0.5], [1.0], 0.0), ValueError, "same length"),
        (lambda: profiles.hockey_stick([0.5, 0.6], [0.5, 0.5], 0.0), ValueError, "p must sum to 1"),
        (lambda: profiles.hockey_stick([0.5, 0.5], [0.5, 0.5], np.nan), ValueError, "epsilon must not contain NaN"),
        (lambda: profiles.laplace_delta("x", 1.0), TypeError, "epsilon must be a number"),
    ],
)
def test_bad_input_raises(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_hockey_stick_at_huge_epsilon_and_where_q_vanishes():
    np.testing.assert_array_equal(profiles.hockey_stick([0.5, 0.5], [1.0, 0.0], [0.0, 800.0, np.inf]), [0.5, 0.5, 0.5])
    p, q = [0.5, 0.5 - 1e-300, 1e-300], [1e-320, 0.5, 0.5 - 1e-320]
    np.testing.assert_allclose(profiles.hockey_stick(p, q, [700.0, 750.0]), [0.5, 0.0], rtol=1e-12)


def test_hockey_stick_does_not_depend_on_the_other_epsilons_of_the_grid():
    rng = np.random.default_rng(3)
    p, q = rng.dirichlet(np.ones(300)), rng.dirichlet(np.ones(300))
    grid = np.linspace(-1.0, 4.0, 50)
    alone = np.array([float(profiles.hockey_stick(p, q, e)) for e in grid])
    np.testing.assert_allclose(profiles.hockey_stick(p, q, grid), alone, rtol=1e-12, atol=1e-300)


def test_epsilon_for_delta_finds_the_start_of_a_flat_curve_up_to_epsilon_max():
    # the curve reaches 0 at 1.2 and stays there; epsilon_max = 1.5 is not a power of two
    assert profiles.epsilon_for_delta(lambda e: max(0.0, 1.2 - e), 0.0, epsilon_max=1.5) == pytest.approx(1.2, abs=1e-9)
    assert profiles.epsilon_for_delta(lambda e: profiles.laplace_delta(e, 1.0), 0.0) == pytest.approx(1.0, abs=1e-9)
    with pytest.raises(ValueError, match="no epsilon <= epsilon_max"):
        profiles.epsilon_for_delta(lambda e: max(0.0, 1.6 - e), 0.0, epsilon_max=1.5)


@pytest.mark.parametrize("grid", [np.linspace(0.0, 2.0, 101), np.linspace(-1.0, 1.0, 7), np.geomspace(1e-3, 3.0, 50),
                                  np.array([0.0, 0.1, 0.5, 2.0]), np.linspace(0.0, 800.0, 9)])
def test_hockey_stick_binning_matches_searchsorted(grid):
    """The O(1) binning on uniform and log-uniform grids places every output where searchsorted
    puts its loss, also losses exactly on a grid point, outputs of no mass under one law (+-inf)
    and losses beyond both ends; outputs of no mass under either law (0/0, no contribution) get
    some bin in range. Any other grid goes through searchsorted."""
    from privlib.core.profiles import _bin_losses, _losses

    rng = np.random.default_rng(3)
    q = rng.random(4000) + 0.1
    loss = np.concatenate([rng.uniform(grid[0] - 1.0, grid[-1] + 1.0, 3000), np.repeat(grid, 2),
                           np.zeros(1000 - 2 * grid.size)])
    p = q * np.exp(np.minimum(loss, 700.0))
    p[:5], q[5:10], p[10:15], q[10:15] = 0.0, 0.0, 0.0, 0.0
    bins, _ = _bin_losses(grid, p, q)
    mass = (p > 0) | (q > 0)
    np.testing.assert_array_equal(bins[mass], np.searchsorted(grid, _losses(p, q), side="left")[mass])
    assert ((bins >= 0) & (bins <= grid.size)).all()


def test_neyman_pearson_power_sums_tied_outputs_as_one_piece():
    # twelve outputs of one likelihood ratio (alt = 0.5 null there) with unequal masses, and one other
    # output: the tied outputs are one straight piece of the curve (summed per distinct ratio, so a
    # sort's order of ties cannot enter); a permutation of the outputs changes only rounding
    rng = np.random.default_rng(3)
    tied = rng.random(12)
    null = np.r_[tied, 0.0] / (tied.sum() + 1.0)
    null[-1] = 1.0 - null[:-1].sum()
    alt = np.r_[0.5 * null[:-1], 0.0]
    alt[-1] = 1.0 - alt[:-1].sum()
    alpha = np.linspace(0.0, 1.0, 101)
    first = profiles.neyman_pearson_power(null, alt, alpha)
    xs = np.array([0.0, null[-1], 1.0])         # the other output (ratio alt/null > 1) first
    ys = np.array([0.0, alt[-1], 1.0])
    np.testing.assert_allclose(first, np.interp(alpha, xs, ys), rtol=1e-14, atol=1e-15)
    for _ in range(50):
        perm = rng.permutation(null.size)
        np.testing.assert_allclose(profiles.neyman_pearson_power(null[perm], alt[perm], alpha), first,
                                   rtol=4e-16, atol=1e-16)
