"""Regression tests for the kernels at the extremes the fork-per-call fuzz layer
(tests/fuzzing.py) found silent, hanging or allocating without bound: epsilon and beta up to the
largest double, alpha and T down to 1e-300, huge grids. Each value is checked against mpmath at
50 digits (an independent, high-precision evaluation of the defining sum or formula); each
refusal must name the argument."""

import math

import mpmath as mp
import numpy as np
import pytest

from fuzzing import assert_rejects
from privlib import affiliation, intervals, leakage, minimax, notions, profiles, pufferfish, statistical
from privlib.core._logspace import logsumexp_near_max

mp.mp.dps = 50
BIG = 1.7e308


def rel_err(value, exact) -> float:
    return float(abs((mp.mpf(float(value)) - exact) / exact))


# --- Bailie & Gong: the Laplace-privatised sum --------------------------------------------------

def _log_mixture(t, weights, eps):
    E = mp.mpf(eps)
    return mp.log(E / 2 * mp.fsum(mp.mpf(float(w)) * mp.exp(-E * abs(mp.mpf(float(t)) - k))
                                  for k, w in enumerate(weights) if w > 0))


@pytest.mark.parametrize("eps", [0.5, 801.0, 1e5, 1e300, BIG])
def test_laplace_sum_marginal_log_density_at_huge_epsilon(eps):
    weights = [0.25, 0.5, 0.25]
    t = np.array([0.5, 1.0, 1.5, 1.75])
    got = intervals.laplace_sum_marginal(t, weights, eps, log=True)
    for value, ti in zip(got, t):
        assert rel_err(value, _log_mixture(ti, weights, eps)) < 1e-14
    assert (intervals.laplace_sum_marginal(t, weights, eps) >= 0).all()       # no NaN


def test_laplace_sum_marginal_tiny_weights_keep_the_prefix_form():
    # a weight far below its neighbours': the two-neighbour form must not be used
    weights = np.array([0.5, 1e-300, 0.5 - 1e-300])
    got = intervals.laplace_sum_marginal([0.9], weights, 900.0, log=True)[0]
    assert rel_err(got, _log_mixture(0.9, weights, 900.0)) < 1e-13


@pytest.mark.parametrize("eps", [709.8, 800.0, 1e300])
def test_laplace_sum_bounds_in_log_space_beyond_the_largest_double(eps):
    t, n = np.array([0.5, 1.5]), 3
    log_lower, log_upper = intervals.laplace_sum_bounds(t, n, eps, log=True)
    E = mp.mpf(eps)
    assert rel_err(log_upper[0], mp.log(E / 2) + E * (n - mp.mpf(2.5))) < 1e-15   # farthest q = n
    assert rel_err(log_upper[1], mp.log(E / 2) + E * (n - mp.mpf(1.5))) < 1e-15   # farthest q = 0
    assert rel_err(log_lower[0], mp.log(E / 2) - E * n) < 1e-15
    lower, upper = intervals.laplace_sum_bounds(t, n, eps)
    assert upper[1] == np.inf and np.array_equal(lower, np.exp(log_lower))     # documented: inf beyond 1.8e308


def test_laplace_sum_bounds_linear_equals_log_form():
    lower, upper = intervals.laplace_sum_bounds(np.linspace(-1, 4, 11), 3, 0.7)
    log_lower, log_upper = intervals.laplace_sum_bounds(np.linspace(-1, 4, 11), 3, 0.7, log=True)
    assert np.array_equal(lower, np.exp(log_lower)) and np.array_equal(upper, np.exp(log_upper))
    assert_rejects(intervals.laplace_sum_bounds, [1.5], 3, BIG, log=True, name="epsilon")   # log u = 1.5 eps


def _pufferfish_loss(n, eps, rho):
    """sup over t of |log f1(t) / f0(t)|: at the centres and in the two tails."""
    E, r = mp.mpf(eps), mp.mpf(rho)
    w = [mp.binomial(n - 1, k) * r**k * (1 - r) ** (n - 1 - k) for k in range(n)]
    w1 = {1 + k: w[k] for k in range(n)}
    w0 = {n - 1 - k: w[k] for k in range(n)}

    def f(ws, t):
        return mp.fsum(x * mp.exp(-E * abs(t - c)) for c, x in ws.items())
    values = [abs(mp.log(f(w1, t) / f(w0, t))) for t in range(n + 1)]
    for s in (1, -1):
        tail = mp.fsum(x * mp.exp(s * E * c) for c, x in w1.items()) / mp.fsum(x * mp.exp(s * E * c) for c, x in w0.items())
        values.append(abs(mp.log(tail)))
    return max(values)


@pytest.mark.parametrize("n,eps,rho", [(4, 800.0, 0.3), (4, 1e300, 0.3), (3, 1e5, 0.5), (4, BIG, 0.5),
                                       (3, BIG, 0.0), (4, 1e300, 1.0), (1, BIG, 1.0)])
def test_pufferfish_loss_at_huge_epsilon(n, eps, rho):
    got = pufferfish.laplace_sum_pufferfish_loss(n, eps, rho)
    assert rel_err(got, _pufferfish_loss(n, eps, rho)) < 1e-14


@pytest.mark.parametrize("n,rho", [(4, 1.0), (4, 0.0), (2, 1.0)])
def test_pufferfish_loss_beyond_the_largest_double_is_refused(n, rho):
    assert_rejects(pufferfish.laplace_sum_pufferfish_loss, n, BIG, rho, name="epsilon")


# --- Ghosh & Kleinberg: affiliation -------------------------------------------------------------

def _parity(k, m, eps):
    E = mp.mpf(eps)
    u = mp.exp(-E) / (1 + mp.exp(-E))                 # 1 - tanh(eps / 2) = 2u
    q = -mp.expm1(m * mp.log1p(-2 * u))               # 1 - tanh(eps / 2)^m
    return E + k * mp.log((2 - q) / q)


@pytest.mark.parametrize("k,m", [(2, 2), (1, 5), (3, 50)])
@pytest.mark.parametrize("eps", [1e-8, 0.5, 30.0, 40.0, 709.8, 800.0, 1e300])
def test_parity_biased_privacy_against_mpmath(k, m, eps):
    assert rel_err(affiliation.parity_biased_privacy(k, m, eps), _parity(k, m, eps)) < 1e-15


def _exchangeable(log_w, eps):
    n, E = len(log_w) - 1, mp.mpf(eps)
    base = [mp.binomial(n, k) * mp.exp(log_w[k]) for k in range(n + 1)]

    def log_odds(s):
        return mp.log(mp.fsum(b * mp.exp(s * E * k) * k for k, b in enumerate(base))
                      / mp.fsum(b * mp.exp(s * E * k) * (n - k) for k, b in enumerate(base)))
    prior = log_odds(0)
    return max(log_odds(1) - prior, prior - log_odds(-1))


@pytest.mark.parametrize("eps", [0.5, 800.0, 1e300])
def test_exchangeable_inferential_privacy_at_huge_epsilon(eps):
    log_w = [-1.0, -2.0, -1.5]
    assert rel_err(affiliation.exchangeable_inferential_privacy(log_w, eps), _exchangeable(log_w, eps)) < 1e-14
    assert_rejects(affiliation.exchangeable_inferential_privacy, log_w, BIG, name="epsilon")


@pytest.mark.parametrize("beta", [0.3, 200.0, 1e5, 1e300, 5e307])
@pytest.mark.parametrize("degree", [1.0, 2.0, 3.0])
def test_ising_influence_at_huge_beta(beta, degree):
    B, D = mp.mpf(beta), mp.mpf(degree)
    exact = (mp.log(1 + mp.exp(2 * B * D)) - mp.log(1 + mp.exp(2 * B * (D - 2)))) / 2
    assert rel_err(affiliation.ising_influence(beta, degree), exact) < 1e-14


def test_onsager_bound_at_huge_beta():
    for beta in (1.0, 30.0, 1e300):
        s = mp.sinh(2 * mp.mpf(beta)) ** -4
        q = -mp.expm1(mp.log1p(-s) / 8)                  # 1 - m*
        assert rel_err(affiliation.onsager_bound(beta), mp.log((2 - q) / q)) < 1e-14
    assert_rejects(affiliation.onsager_bound, BIG, name="beta")


def test_bounds_beyond_the_largest_double_are_refused():
    gamma = [[0.0, 0.2], [0.2, 0.0]]
    assert_rejects(affiliation.ising_influence, BIG, 3, name="beta")
    assert_rejects(affiliation.parity_biased_privacy, 2, 2, BIG, name="epsilon")
    assert_rejects(affiliation.tree_enforceability_bound, 3, 0.5, BIG, name="epsilon")
    assert_rejects(affiliation.theorem_4_2_bound, gamma, BIG, name="epsilon")
    assert_rejects(affiliation.row_sum_bound, gamma, BIG, name="epsilon")
    assert_rejects(affiliation.log_expectation_shift_bound, gamma, BIG, [0.5, 0.2, 0.1, 0.3], name="epsilon")
    # just below: finite (2 Phi eps with Phi = (I - Gamma)^-1, row sums 1.25)
    assert math.isclose(affiliation.row_sum_bound(gamma, 5e307), 1.25e308, rel_tol=1e-15)


def test_logsumexp_near_max_keeps_its_top_term_at_huge_values():
    assert logsumexp_near_max(np.array([1e300, 2e300])) == 2e300
    assert logsumexp_near_max(np.array([-1e300, -1e300])) == -1e300


# --- Breutigam & Reischuk, Saeidian et al. --------------------------------------------------------

def test_noise_utility_loss_up_to_the_largest_double():
    assert statistical.noise_utility_loss(1.3e154) == 1.3e154**2
    assert statistical.noise_utility_loss(9.4e153, "laplace") == 2 * 9.4e153**2
    assert_rejects(statistical.noise_utility_loss, 1e300, name="scale")
    assert_rejects(statistical.noise_utility_loss, 1e154, "laplace", name="scale")


def test_relative_frequencies_min_entropy_refuses_before_the_work():
    assert_rejects(leakage.relative_frequencies_min_entropy, 10**9, 0.3, 0.5, 0.2, 10, name="n")
    assert_rejects(leakage.relative_frequencies_min_entropy, 10**6, 0.3, 0.5, 0.2, 100, name="n")
    assert 0 < leakage.relative_frequencies_min_entropy(10**9, 0.3, 0.5, 0.2, 1) + 1.0   # one cell: cheap


# --- Barber & Duchi: minimax rates ----------------------------------------------------------------

def test_dp_delta_of_many_epsilons_equals_one_epsilon_at_a_time():
    eps = np.concatenate([[0.0, 1e-12, 0.5, 1.0, 2.0, 800.0], np.linspace(0.0, 3.0, 200)])
    for channel in (minimax.geometric_count_channel(3, 1.0), notions.randomized_response(3, 1.0), notions.geometric_count(4, 1.0)):
        one = np.array([max(float(profiles.hockey_stick_rows(p, q, e).max()) for _, _, p, q in
                            notions._neighbour_blocks(channel)) for e in eps])
        assert np.array_equal(notions.dp_delta(channel, eps), np.clip(one, 0.0, 1.0))
    big = minimax.dp_delta(minimax.geometric_count_channel(3, 1.0), 0.5 * np.linspace(0.5, 1.0, 10**5))
    assert big.shape == (10**5,) and (np.diff(big) <= 0).all()      # decreasing in epsilon


def test_noise_coefficient_extremes():
    assert_rejects(minimax.noise_coefficient, "laplace", 100, 1, 1e-300, name="alpha")
    assert math.isclose(minimax.noise_coefficient("laplace", 1e300, 1e300, 1.0), 8.0, rel_tol=1e-15)
    assert math.isclose(minimax.noise_coefficient("kl", 1e200, 1.0, 1e-200), 2e-200, rel_tol=1e-15)
    assert_rejects(minimax.private_mean, [[0.5, 2.0], [3.0, 0.1]], "laplace", 1e-300, 1.0, rng=0, name="alpha")


def test_minimax_refusals_and_documented_infinities():
    cdf = lambda x: np.clip(x, 0.0, 1.0) ** 2  # noqa: E731
    assert minimax.optimal_truncation(1.0, 4.0, 0.0) == np.inf          # no noise: no truncation
    assert_rejects(minimax.risk_bound_31, 1.0, 4.0, 100, 1e-300, 0.1, name="T")
    assert minimax.risk_bound_31(1.0, np.inf, 100, 0.5, 0.1) == np.inf  # k = inf, T < r
    assert_rejects(minimax.worst_two_point_risk, 1.0, 4.0, 100, 1, 1.0, "laplace", n_grid=10**9, name="n_grid")
    assert_rejects(minimax.histogram_risk_exact, cdf, 4.0, 100, 10**9, 1.0, name="m")
    assert_rejects(minimax.histogram_risk_exact, cdf, 4.0, 100, np.full(200, 10.0**7), 1.0, name="m")
    assert_rejects(minimax.histogram_risk_exact, cdf, 4.0, 100, 4, 1e-300, name="alpha")
    assert_rejects(minimax.histogram_optimal_bins, cdf, 4.0, 100.0, 1.0, m_max=10**9, name="m_max")
    assert_rejects(minimax.histogram_optimal_bins, cdf, 4.0, 100.0, 1e-300, name="alpha")
    assert_rejects(minimax.chtp_level, minimax.geometric_count_channel(20, 1.0), 0.5, name="channel")


def test_tree_and_lattice_values_at_huge_beta():
    # u(H) = artanh(tanh(beta) tanh(H)) is beta up to rounding once H >> beta >> 1
    assert math.isclose(affiliation.regular_tree_sup(3, 1e300, 1.0), 6e300, rel_tol=1e-15)
    assert math.isclose(affiliation.tree_spontaneous_privacy(3, 1e300), 6e300, rel_tol=1e-15)
    assert_rejects(affiliation.regular_tree_sup, 3, BIG, 1.0, name="beta")
    assert_rejects(affiliation.regular_tree_sup, 3, 5e307, 1.0, name="beta")
    assert_rejects(affiliation.tree_spontaneous_privacy, 3, BIG, name="beta")
    for boundary in ("free", "plus"):
        assert_rejects(affiliation.lattice_centre_privacy, 3, 3, BIG, 1.0, boundary, name="beta")


def test_minimax_scalar_and_count_arguments():
    assert_rejects(minimax.rate_exponents, 4 * np.linspace(0.5, 1, 10), name="k")
    assert_rejects(minimax.simulate_two_point_risk, 0.1, 1.0, 4.0, 10**30, 1, 1.0, "laplace", 1.0, reps=50, rng=0, name="n")
    cdf = lambda x: np.clip(x, 0.0, 1.0) ** 2  # noqa: E731
    assert minimax.histogram_optimal_bins(cdf, 4.0, BIG, 1.0, m_max=200)[0] <= 200


def test_density_ratio_metric_does_not_stretch_one_atom_to_many():
    assert_rejects(pufferfish.density_ratio_metric, [0.5], [0.2, 0.8], name="mu and nu")
    assert_rejects(pufferfish.density_ratio_metric, [0.5, 0.5], [0.2], name="mu and nu")
    assert pufferfish.density_ratio_metric([[0.5, 0.5]], [[0.2, 0.8], [0.5, 0.5]]).shape == (2,)  # other axes broadcast
