"""Regression tests for the public API at the extremes (issue 21): every case that once gave a
silent wrong value, an inaccurate one, a hang, an unbounded allocation or an internal message
is now right (checked against an independent route: mpmath at high precision, exact rational
arithmetic or a brute-force sum) or refused by a ValueError/TypeError that names the argument."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest

from fuzzing import assert_rejects
from privlib import profiles


def _rel(got: float, true) -> float:
    return float(abs(mp.mpf(got) - true) / abs(true))


# --- profiles --------------------------------------------------------------------------------

def _gaussian_delta_mp(eps: float, mu: float):
    with mp.workdps(800):
        eps, mu = mp.mpf(eps), mp.mpf(mu)
        return mp.ncdf(-eps / mu + mu / 2) - mp.exp(eps) * mp.ncdf(-eps / mu - mu / 2)


@pytest.mark.parametrize("eps, mu", [(0.0, 1e-300), (0.0, 1e-12), (1e-9, 1e-6), (0.001, 0.001), (0.5, 0.04),
                                     (0.5, 0.06), (0.5, 0.1), (1.0, 0.2), (5.0, 0.3), (0.5, 1.0), (30.0, 2.0),
                                     (200.0, 10.0)])
def test_gaussian_delta_keeps_its_relative_accuracy_for_tiny_mu(eps, mu):
    # the two log-tails cancelled: gaussian_delta(0, 1e-300) was 0, gaussian_delta(0, 1e-12) off by 1e-4
    assert _rel(float(profiles.gaussian_delta(eps, mu)), _gaussian_delta_mp(eps, mu)) < 1e-11


@pytest.mark.parametrize("eps, mu", [(0.5, 1e-300), (2.0, 0.01), (800.0, 1.0), (1.7e308, 1.0)])
def test_gaussian_delta_underflows_to_zero_not_nan(eps, mu):
    # gaussian_delta(0.5, 1e-300) was NaN; the true values are below the smallest double (delta
    # is at most Phi(-eps/mu + mu/2) < exp(-(eps/mu - mu/2)^2 / 2), here below e^-745)
    assert eps / mu - mu / 2 > 38.61  # 38.61^2 / 2 > 745.2
    assert profiles.gaussian_delta(eps, mu) == 0.0


def test_epsilon_for_delta_refuses_a_nan_curve():
    # it returned 1.0
    assert_rejects(profiles.epsilon_for_delta, lambda e: float("nan"), 0.1, name="curve")


def test_log_hockey_stick_refuses_log_probabilities_above_zero():
    # log_p = [700, -1] returned 1e300
    assert_rejects(profiles.log_hockey_stick, [700.0, -1.0], [-0.7, -0.7], 0.5, name="log_p")
    assert_rejects(profiles.log_hockey_stick, np.log([0.5, 0.5]), [-0.1, -0.1], 0.5, name="log_q")


# --- statistical -----------------------------------------------------------------------------

from privlib import statistical  # noqa: E402


def _chernoff_mp(eps: float, pi: float):
    with mp.workdps(400 + int(eps / 2)):  # digits for 1 - pi at pi = 1e-300 and 1 - q at q = 1 - e^-eps
        eps, pi = mp.mpf(eps), mp.mpf(pi)

        def kl(s):
            q = pi * mp.exp(s) / (1 - pi + pi * mp.exp(s))
            return q * mp.log(q / pi) + (1 - q) * mp.log((1 - q) / (1 - pi))
        return min(kl(eps), kl(-eps))


@pytest.mark.parametrize("eps", [1e-4, 1e-3, 2e-3, 0.1, 1.0, 20.0, 700.0, 800.0])
@pytest.mark.parametrize("pi", [1e-300, 1e-12, 0.3, 0.5, 1 - 1e-9, 1 - 1e-12])
def test_chernoff_rate_is_accurate_up_to_huge_epsilon(eps, pi):
    # chernoff_rate(800, 0.5) was NaN, chernoff_rate(1e-3, 0.999999999) off by 1e-4
    assert _rel(float(statistical.chernoff_rate(eps, pi)), _chernoff_mp(eps, pi)) < 1e-11


def test_chernoff_rate_at_the_largest_double():
    # the limit eps -> inf is min(-log pi, -log(1 - pi))
    assert statistical.chernoff_rate(1.7e308, 0.3) == pytest.approx(-np.log(0.7), rel=1e-15)


@pytest.mark.parametrize("eps, lam", [(800.0, 0.1), (0.5, 0.1), (2.0, 1e-9), (700.5, 1e-300), (710.0, 1e-310),
                                      (1e-12, 0.5), (800.0, 1.0)])
def test_amplified_epsilon_is_accurate_beyond_709(eps, lam):
    # amplified_epsilon(800, 0.1) was inf (true 797.7)
    with mp.workdps(60):
        true = mp.log(1 + mp.mpf(lam) * mp.expm1(mp.mpf(eps)))
    assert _rel(float(statistical.amplified_epsilon(eps, lam)), true) < 1e-11


def test_amplified_epsilon_limits():
    assert statistical.amplified_epsilon(800.0, 0.0) == 0.0
    assert statistical.amplified_epsilon(1.7e308, 0.1) == 1.7e308


def test_theorem_thresholds_beyond_709():
    # theorem_thresholds(800, ...) was (nan, -270); at eps -> inf they tend to (lam + 1/xi) n pi
    # and (lam - 1) n pi
    n, m, pi = 20, 5, 0.3
    up, down = statistical.theorem_thresholds(800.0, n, m, pi)
    xi = pi / (1 - pi)
    assert up == pytest.approx((m / n + 1 / xi) * n * pi, rel=1e-15)
    assert down == pytest.approx((m / n - 1) * n * pi, rel=1e-15)
    # and the closed-form summands, which carry e^eps, refuse what is not a double
    assert_rejects(statistical.theorem_summands, 800.0, n, m, pi, name="epsilon")
    assert_rejects(statistical.theorem_deltas, 800.0, n, m, pi, name="epsilon")


# --- leakage ---------------------------------------------------------------------------------

from privlib import leakage, mechanisms, minimax, notions  # noqa: E402


@pytest.mark.parametrize("theta, eps", [(0.3, 800.0), (0.3, 709.8), (1e-6, 50.0), (0.5, 1e-12), (0.3, 1.7e308)])
def test_laplace_count_pml_sup_beyond_709(theta, eps):
    # laplace_count_pml_sup(0.3, 800) was -inf (true 1.204)
    with mp.workdps(60):
        e, t = mp.mpf(eps if eps < 1e4 else 1e4), mp.mpf(theta)
        true = max(e - mp.log(1 - t + t * mp.exp(e)), e - mp.log(t + (1 - t) * mp.exp(e)))
    assert _rel(float(leakage.laplace_count_pml_sup(theta, eps)), true) < 1e-13


@pytest.mark.parametrize("h, c", [(710.0, 1.0), (2.0, 1.0), (800.0, 0.0), (1e300, 5.0), (1e-12, 1e-12)])
def test_capacity_entropy_bound_beyond_709(h, c):
    # capacity_entropy_bound(710, 1) was inf (true 709)
    with mp.workdps(60):
        true = mp.log(1 + mp.expm1(mp.mpf(h)) * mp.exp(-mp.mpf(c))) if h < 1e4 else mp.mpf(h) - c
    assert _rel(float(leakage.capacity_entropy_bound(h, c)), true) < 1e-13


# --- sizes checked in integers, before allocating ----------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: notions.randomized_response(2000, 1.0), "n"),           # was OverflowError from float(K)**n
    (lambda: notions.ising_chain_model(10**30, 0.5), "n"),            # was unbounded memory
    (lambda: notions.iid_model(10**9, 0.3), "n"),
    (lambda: notions.FiniteChannel(np.ones((2, 1)), 2, 10**6), "n"),
    (lambda: notions.geometric_count(10**9, 1.0), "n"),
])
def test_sizes_are_refused_by_name_before_allocating(call, name):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value).startswith(f"{name} ")
    assert "limit" in str(info.value) or "[1, " in str(info.value)


def test_valid_inputs_once_refused_with_an_internal_message():
    # subsampled_count(10**6, 2): "row 163753 sums to 0.999999996353"
    ch = notions.subsampled_count(10**6, 2)
    assert np.allclose(np.exp(ch.log_table).sum(axis=1), 1.0, rtol=0, atol=1e-14)
    # exact hypergeometric row for k = 163753 positives of 10^6, subsample of 2 (fractions)
    from fractions import Fraction
    k, n = 163753, 10**6
    exact = [Fraction((n - k) * (n - k - 1), n * (n - 1)), Fraction(2 * k * (n - k), n * (n - 1)),
             Fraction(k * (k - 1), n * (n - 1))]
    assert np.allclose(np.exp(ch.log_table[k]), [float(x) for x in exact], rtol=1e-7)
    # gaussian_count(5, 1e-300): the exact count
    assert np.array_equal(np.exp(notions.gaussian_count(5, 1e-300).log_table), np.eye(6))
    # ising_chain_model(5, 1e300): the two aligned databases, 1/2 each
    prob = np.exp(notions.ising_chain_model(5, 1e300).log_prob)
    assert prob[0] == prob[-1] == 0.5 and prob.sum() == 1.0


@pytest.mark.parametrize("bad", [True, np.bool_(False), np.array([True, False])])
def test_booleans_are_not_numbers(bad):
    assert_rejects(profiles.laplace_delta, bad, 1.0, name="epsilon")
    assert_rejects(minimax.tv_contraction_bound, 0.3, bad, 10, name="tv_p")


@pytest.mark.parametrize("seed", [-1, "yes", 2.5, True])
def test_bad_seeds_are_refused_by_name(seed):
    assert_rejects(minimax.support_dp_expmech, [0.2, 0.9], 1.0, rng=seed, name="rng")
    assert_rejects(mechanisms.LaplaceMechanism(1.0).sample, 0.0, rng=seed, name="rng")


# --- hangs and unbounded allocations ---------------------------------------------------------

from privlib import affiliation  # noqa: E402


def test_hamming_packing_at_its_documented_maximum():
    # hamming_packing(20, 3) took more than 10 s; the lexicode must be the one the quadratic
    # greedy builds (checked against a plain greedy on m = 10) and have distance >= 3
    code = minimax.hamming_packing(20, 3)
    assert code.shape == (2**15, 20)   # the lexicode of distance 3 is the [20, 15] shortened Hamming code
    words = ((code[:200] + 1) / 2).astype(int)
    dist = (words[:, None, :] != words[None, :, :]).sum(axis=2)
    assert dist[~np.eye(200, dtype=bool)].min() >= 3
    greedy = []
    for w in range(2**10):
        if all(bin(w ^ c).count("1") >= 3 for c in greedy):
            greedy.append(w)
    bits = ((np.array(greedy)[:, None] >> np.arange(9, -1, -1)) & 1) * 2.0 - 1.0
    assert np.array_equal(minimax.hamming_packing(10, 3), bits)


@pytest.mark.parametrize("call, name", [
    (lambda: minimax.release_one_channel(1000, 2), "n"),
    (lambda: minimax.chtp_level(minimax.geometric_count_channel(20, 1.0), 0.5), "channel"),
    (lambda: minimax.geometric_count_channel(10**9, 1.0), "n"),
    (lambda: affiliation.grid_edges(10**4, 10**4), "rows * cols"),
    (lambda: affiliation.complete_tree_parents(2, 10**30), "branching and depth"),
    (lambda: affiliation.exchangeable_worst_case_lp(np.zeros(10**5), 0.5), "log_weights"),
])
def test_work_beyond_the_limits_is_refused_before_it_starts(call, name):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value).startswith(f"{name} too large") and "limit" in str(info.value)


def test_lattice_centre_privacy_at_a_huge_coupling():
    # lattice_centre_privacy(3, 3, 1e12, 0.2): "prior must sum to 1"; at infinite coupling the 9
    # spins are clones, so the centre's inferential privacy is 9 epsilon
    assert affiliation.lattice_centre_privacy(3, 3, 1e12, 0.2) == pytest.approx(1.8, rel=1e-12)
    assert_rejects(affiliation.ising_prior, 3, [(0, 1), (1, 2)], 1.7e308, name="coupling")


# --- arrays of 10^5 values ---------------------------------------------------------------------

import time  # noqa: E402

from privlib import pufferfish  # noqa: E402


def test_statistical_delta_of_1e5_epsilons_in_one_pass():
    # it looped over epsilon in Python (> 10 s); now one vectorised pass, equal to the loop
    channel, model = notions.geometric_count(4, 1.0), notions.iid_model(4, 0.3)
    eps = np.linspace(0.0, 5.0, 10**5)
    start = time.process_time()
    many = notions.statistical_delta(channel, model, eps)
    assert time.process_time() - start < 5.0  # generous: ~0.05 s
    few = np.array([notions.statistical_delta(channel, model, e) for e in eps[::9973]])
    assert np.array_equal(many[::9973], few)


def test_log_hockey_stick_against_exact_sums():
    from fractions import Fraction
    p = [Fraction(1, 2), Fraction(3, 10), Fraction(1, 5)]
    q = [Fraction(1, 5), Fraction(3, 10), Fraction(1, 2)]
    lp, lq = np.log([float(x) for x in p]), np.log([float(x) for x in q])
    for eps in (0.0, 0.1, 0.5, 0.9):
        with mp.workdps(50):
            true = sum(max(mp.mpf(a.numerator) / a.denominator - mp.exp(eps) * mp.mpf(b.numerator) / b.denominator, 0)
                       for a, b in zip(p, q))
        assert _rel(float(np.exp(profiles.log_hockey_stick(lp, lq, eps))), true) < 1e-14
    assert profiles.log_hockey_stick(lp, lq, 1.0) == -np.inf   # beyond the largest loss log 2.5


@pytest.mark.parametrize("call, name", [
    (lambda: notions.correlation_sweep(notions.geometric_count(4, 1.0), 0.3, np.linspace(0, 1, 10**5)), "rho"),
    (lambda: pufferfish.laplace_sum_pufferfish_loss(4, 1.0, np.linspace(0, 1, 10**5)), "rho"),
    (lambda: statistical.noise_delta(np.linspace(0, 5, 10**5), 20, 0.3, 1.0), "epsilon"),
    (lambda: profiles.gaussian_epsilon(np.linspace(0.01, 0.5, 10**5), 1.0), "delta"),
])
def test_arrays_beyond_the_per_value_loops_are_refused_by_name(call, name):
    start = time.process_time()
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value).startswith(f"{name} too large") and "limit" in str(info.value)
    assert time.process_time() - start < 1.0


# --- minimax ---------------------------------------------------------------------------------

def _binomial_tv_mp(n, a, b):
    with mp.workdps(50):
        a, b = mp.mpf(a), mp.mpf(b)
        return sum(abs(mp.binomial(n, k) * (a**k * (1 - a) ** (n - k) - b**k * (1 - b) ** (n - k)))
                   for k in range(n + 1)) / 2


@pytest.mark.parametrize("n, p0, p1", [(10, 0.5, 0.500000001), (100, 0.2, 0.2000001), (1000, 0.01, 0.0100001),
                                       (1, 0.5, 0.5000001), (5, 1e-9, 2e-9), (10, 0.3, 0.6), (10, 0.5, 0.51)])
def test_binomial_tv_for_nearly_equal_laws(n, p0, p1):
    # binomial_tv(10, 0.5, 0.500000001) was off by 4e-8 relative (two tails cancelling)
    assert _rel(float(minimax.binomial_tv(n, p0, p1)), _binomial_tv_mp(n, p0, p1)) < 1e-13


def test_theorem3_error_bound_is_never_a_negative_probability():
    # theorem3_error_bound(30, 0.5, 0.5, 0, 100) was -0.0099
    assert minimax.theorem3_error_bound(30, 0.5, 0.5, 0.0, 100) == 0.0
    assert minimax.theorem3_error_bound(30, 0.5, 0.5, 0.0, 100, k="median") >= 0.0


def test_table1_slopes_without_a_fit_say_none_not_nan():
    # table1_slopes(4, delta=0.999999) had an exact: nan
    for row in minimax.table1_slopes(4.0, delta=0.999999):
        assert row["exact"] is None or np.isfinite(row["exact"])
        assert (row["exact"] is None) == (row["points"] < 4)


def test_radius_beyond_1e150_is_refused_by_name():
    # worst_two_point_risk(1e300, ...) was NaN: the risk is of order r^2
    assert_rejects(minimax.worst_two_point_risk, 1e300, 4.0, 100, 1, 1.0, "laplace", name="r")
    risk, _ = minimax.worst_two_point_risk(1e150, 4.0, 100, 1, 1.0, "laplace", n_grid=200)
    small, _ = minimax.worst_two_point_risk(1.0, 4.0, 100, 1, 1.0, "laplace", n_grid=200)
    assert risk == pytest.approx(small * 1e300, rel=1e-9)   # the risk scales as r^2


@pytest.mark.parametrize("bad", [None, "yes"])
def test_a_channel_that_is_not_one_is_refused_by_name(bad):
    # notions.chtp_level(None, 0.5) raised AttributeError
    assert_rejects(notions.chtp_level, bad, 0.5, name="channel")
    assert_rejects(minimax.chtp_level, bad, 0.5, name="channel")
    assert_rejects(notions.pufferfish_loss, bad, notions.iid_model(3, 0.3), name="channel")


# --- refusals that name the caller's argument ------------------------------------------------

@pytest.mark.parametrize("bad", [None, "yes", [np.nan, 0.5, 0.5], [0.1, 0.2, 0.3]])
def test_singling_out_threshold_names_prior(bad):
    # the refusal named min_entropy's p
    assert_rejects(leakage.singling_out_threshold, bad, name="prior")


def test_conditional_pml_names_prior():
    # prior='yes' gave numpy's "could not convert string to float"
    assert_rejects(leakage.conditional_pml, "yes", np.full((2, 2, 3), 1 / 3), name="prior")


@pytest.mark.parametrize("high", [709.8, 800.0, 1e300, 1.7e308])
def test_calibrate_to_pml_names_channel_of_where_the_family_is_not_a_channel(high):
    # exp(t) / (1 + exp(t)) is inf / inf = NaN beyond t ~ 709.78: "channel must not contain NaN"
    def channel_of(t):
        with np.errstate(over="ignore", invalid="ignore"):
            return np.array([[np.exp(t), 1.0], [1.0, np.exp(t)]]) / (1 + np.exp(t))
    assert_rejects(leakage.calibrate_to_pml, channel_of, [0.3, 0.7], 0.5, 1e-6, high, name="channel_of")
    # where the family is a channel, the calibration is unchanged
    t = leakage.calibrate_to_pml(channel_of, [0.3, 0.7], 0.5, 1e-6, 700.0)
    assert float(leakage.pml_sup([0.3, 0.7], channel_of(t))) == pytest.approx(0.5, rel=1e-12)


@pytest.mark.parametrize("n", [2.5, [10, 10.5]])
def test_threshold_query_chernoff_bound_refuses_a_fractional_count(n):
    # like threshold_query_leakage: n is a number of records
    assert_rejects(leakage.threshold_query_chernoff_bound, n, 0.3, name="n")


@pytest.mark.parametrize("sigma", [1e149, 1e151, 1e300, 1.7e308])
def test_normal_approx_delta_at_a_huge_sigma(sigma):
    # sigma**2 raised OverflowError at sigma = 1e300; at eps = 0 the curve is
    # 2 Phi(mu / 2) - 1 = erf(mu / (2 sqrt 2))
    n, pi = 20, 0.3
    with mp.workdps(60):
        total = mp.sqrt(mp.mpf(sigma) ** 2 + mp.mpf(pi) * (1 - mp.mpf(pi)) * (n - 1) / n**2)
        mu = 1 / (n * total)
        true = mp.erf(mu / (2 * mp.sqrt(2)))
    assert _rel(float(statistical.normal_approx_delta(0.0, n, pi, sigma)), true) < 1e-11   # 1.2e-310 is subnormal: 4e-14 relative spacing
    assert float(statistical.normal_approx_delta(0.5, n, pi, sigma)) == 0.0   # e^-(eps/mu)^2/2 underflows


@pytest.mark.parametrize("noise", ["gaussian", "laplace"])
def test_output_densities_keep_the_shape_of_t(noise):
    # a 2-D t raised numpy's broadcast error
    t = np.array([[0.0, 0.0, 0.0], [5.0, 5.0, 5.0]])
    plus, minus = statistical.output_densities(t, 20, 0.3, 1.0, noise)
    flat = statistical.output_densities([0.0, 5.0], 20, 0.3, 1.0, noise)
    assert plus.shape == minus.shape == t.shape
    np.testing.assert_array_equal(plus, np.repeat(flat[0][:, None], 3, axis=1))
    np.testing.assert_array_equal(minus, np.repeat(flat[1][:, None], 3, axis=1))


def _gaussian_epsilon_mp(delta: float, mu: float):
    """The root in high-precision arithmetic (60 digits beyond those of eps ~ mu^2 / 2, which
    cancel): eps = mu (mu / 2 + z) with Phi(-z) - e^eps Phi(-z - mu) = delta (the curve at eps)."""
    from scipy import stats
    with mp.workdps(60 + int(2 * np.log10(mu))):
        mu_, d = mp.mpf(mu), mp.mpf(delta)
        z = mp.findroot(lambda z: mp.ncdf(-z) - mp.exp(mu_ * (mu_ / 2 + z)) * mp.ncdf(-z - mu_) - d,
                        mp.mpf(float(stats.norm.isf(delta))), tol=mp.mpf(10) ** -60)
        return mu_ * (mu_ / 2 + z)


@pytest.mark.parametrize("mu", [1e4, 1e6, 1e10, 1e20, 1e100, 1e150, 1.8e154])
@pytest.mark.parametrize("delta", [1e-300, 1e-12, 0.1, 0.5])
def test_gaussian_epsilon_at_a_huge_mu(mu, delta):
    # at mu = 1e300 Brent's method did not converge; from mu ~ 1e10 on the root was off by 1e-9
    # to 1e-8 (eps / mu and mu / 2 cancelled in the curve)
    assert _rel(float(profiles.gaussian_epsilon(delta, mu)), _gaussian_epsilon_mp(delta, mu)) < 1e-14


@pytest.mark.parametrize("mu", [1.9e154, 1e300, 1.7e308])
def test_gaussian_epsilon_beyond_the_largest_double_is_refused_by_name(mu):
    assert_rejects(profiles.gaussian_epsilon, 0.1, mu, name="mu")


@pytest.mark.parametrize("coupling, field, name", [(np.full(10**5, 0.5), 0.0, "coupling"), (0.5, np.zeros(10**5), "field"),
                                                   ([0.5, 0.4, 0.3], 0.0, "coupling"), (0.5, [[0.0, 0.0, 0.0]], "field")])
def test_ising_model_names_a_coupling_or_field_of_the_wrong_length(coupling, field, name):
    # 10^5 couplings for 2 edges raised numpy's broadcast error
    assert_rejects(notions.ising_model, 3, [(0, 1), (1, 2)], coupling, field, name=name)


def test_ising_model_takes_one_coupling_per_edge_and_one_field_per_record():
    one = notions.ising_model(3, [(0, 1), (1, 2)], [0.5, 0.5], [0.1, 0.1, 0.1]).log_prob
    np.testing.assert_array_equal(one, notions.ising_model(3, [(0, 1), (1, 2)], 0.5, 0.1).log_prob)


# --- integers by nature, reals by design -----------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: minimax.theorem3_error_bound(30, 0.5, 0.5, 0.0, 2.5), "card_V"),          # a packing's size
    (lambda: minimax.lower_bound_dp_mean(100, 2.5, 1.0), "d"),                         # |V| = 2^d
    (lambda: minimax.lower_bound("dp", 100, 2.5, 1.0), "d"),
    (lambda: minimax.lower_bound("tv", 100, 2.5, 0.5), "d"),
    (lambda: affiliation.ising_influence(0.5, 2.5), "degree"),                         # a node's degree
    (lambda: affiliation.ising_influence(0.5, [1, 2, 2.5]), "degree"),
])
def test_fractional_counts_are_refused_by_name(call, name):
    with pytest.raises(ValueError, match=f"^{name} must be whole numbers"):
        call()


def test_whole_counts_still_pass():
    assert float(minimax.theorem3_error_bound(30, 0.5, 0.5, 0.0, np.inf)) >= 0.0   # an unbounded packing
    assert float(minimax.theorem3_error_bound(30, 0.5, 0.5, 0.0, 1000.0)) >= 0.0
    np.testing.assert_array_equal(affiliation.ising_influence(0.5, [1.0, 2.0]), affiliation.ising_influence(0.5, [1, 2]))


def test_rates_and_bounds_of_a_real_sample_size_interpolate():
    # real by design (the slope grids use np.logspace): between the values at the integers around it
    n = np.array([2.0, 2.5, 3.0])
    for values in (minimax.minimax_rate("dp", n, 4.0, 1.0), minimax.noise_coefficient("laplace", n, 4.0, 1.0),
                   minimax.worst_two_point_risk(1.0, 4.0, n, 1.0, 1.0, "laplace", n_grid=200)[0],
                   minimax.lower_bound_tv_support(n, 0.1), minimax.risk_bound_31(1.0, 4.0, n, 1.0, 0.1)):
        assert min(values[0], values[2]) <= values[1] <= max(values[0], values[2])
