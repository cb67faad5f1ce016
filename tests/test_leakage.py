"""privlib.papers.leakage: definitions against direct computations, hand values, properties, bad input."""

from fractions import Fraction

import mpmath
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


def test_laplace_count_pml_outputs_far_outside_take_the_tail_values():
    # n y overflowed for |y| near the largest double (NaN); every output below 0 or above 1 has
    # the tail value of its side, at any epsilon (the linear and the log-space routes)
    theta = 0.3
    for eps in (1.0, 1000.0):
        far = leakage.laplace_count_pml(10**12, theta, eps, [-1.7e308, -1e297, -0.5, 1.5, 1e297, 1.7e308])
        below = -np.log(1 - theta + theta * np.exp(-eps))     # every count above y: A_0 / A_1 = e^eps
        above = -np.log(theta + (1 - theta) * np.exp(-eps))   # every count below y
        np.testing.assert_allclose(far, [below] * 3 + [above] * 3, rtol=1e-15)


def test_laplace_count_pml_theta_near_one_keeps_relative_accuracy():
    # above 1 the leakage is -log(theta + (1 - theta) e^-eps), about (1 - theta) for theta near 1:
    # it was taken as -log of a sum near 1 (5% off at theta = 1 - 2^-50, epsilon = 3)
    for theta, eps in [(1 - 2.0**-50, 3.0), (0.9999999999999986, 2.438795581309164), (1 - 1e-10, 30.0)]:
        with mpmath.workdps(60):
            ref = float(-mpmath.log1p(-(1 - mpmath.mpf(theta)) * -mpmath.expm1(-mpmath.mpf(eps))))
        assert float(leakage.laplace_count_pml(10**6, theta, eps, [1.5])[0]) == pytest.approx(ref, rel=1e-14)


def test_laplace_count_pml_tilt_below_the_smallest_double_warns_nothing():
    # epsilon = 708.5 tilts the failure probability to about 1e-308: the Chernoff exponent's ratio
    # (m - k) / (m q) overflows to inf (an exponent beyond every threshold), without a warning
    out = leakage.laplace_count_pml(2, 0.699506705515289, 708.4950454225931, [-7.64690476954194, 0.25, 0.75])
    assert np.isfinite(out).all()


def test_laplace_count_pml_untaken_branch_warns_nothing():
    # theta tiny and the output between the tilted means: D / A_1 = 1 / (1 - theta), so the branch
    # not taken computes log1p(-1); the call must not warn (warnings are errors here), nor the
    # supremum's, whose untaken branch is log1p(-1) too (1 - theta rounds to 1, e^-eps tiny)
    out = leakage.laplace_count_pml(191_693_551_082, 1.3731477343481737e-31, 95.85535472017986,
                                    7.531766800464879e-05)
    assert np.isfinite(out) and 0.0 < out <= leakage.laplace_count_pml_sup(1.3731477343481737e-31, 95.85535472017986)


def _mp_correlated_count_pml_sup(n, theta, eps, rho):
    """Both tails' leakage from M_1 and M_0 (the docstring's mixture weights) in 60 digits."""
    with mpmath.workdps(60):
        th, e, r = mpmath.mpf(theta), mpmath.mpf(eps), mpmath.mpf(rho)
        out = mpmath.mpf(0)
        for s in (1, -1):
            a = 1 - th + th * mpmath.exp(s * e)
            delta = mpmath.log((r * mpmath.exp(s * e * n) + (1 - r) * mpmath.exp(s * e) * a ** (n - 1))
                               / (r + (1 - r) * a ** (n - 1)))
            l = -mpmath.log(th + (1 - th) * mpmath.exp(-delta)) if delta >= 0 else -mpmath.log(1 - th + th * mpmath.exp(delta))
            out = max(out, l)
        return float(out)


@pytest.mark.parametrize("theta", [1e-20, 0.3, 1 - 1e-15])
@pytest.mark.parametrize("eps", [1e-9, 0.5, 50.0, 800.0, 1e5])
def test_correlated_count_pml_sup_is_finite_and_exact_at_every_epsilon(theta, eps):
    # (1 - theta) expm1(-eps) rounds to -1 for tiny theta and eps >= 37, e^eps overflows beyond 709:
    # rho = 0 is the i.i.d. supremum, and every value agrees with 60-digit sums of the mixture weights
    np.testing.assert_allclose(leakage.correlated_count_pml_sup([1, 10, 1000], theta, eps, 0.0),
                               leakage.laplace_count_pml_sup(theta, eps), rtol=1e-13)
    for n, rho in ((10, 0.5), (1000, 1e-3)):
        assert float(leakage.correlated_count_pml_sup(n, theta, eps, rho)) == pytest.approx(
            _mp_correlated_count_pml_sup(n, theta, eps, rho), rel=1e-12)


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


# --- mechanisms on databases (Section 4) ---------------------------------------------------------

import itertools  # noqa: E402


def _dbs(k, n):
    return np.array(list(itertools.product(range(k), repeat=n)))


def test_product_prior_is_the_outer_product_in_lexicographic_order():
    got = leakage.product_prior([[0.2, 0.8], [0.5, 0.5], [0.1, 0.9]])
    want = [a * b * c for a, b, c in itertools.product([0.2, 0.8], [0.5, 0.5], [0.1, 0.9])]
    np.testing.assert_allclose(got, want, rtol=1e-15)


def test_database_dp_epsilon_against_neighbour_pairs_and_randomized_response():
    rng = np.random.default_rng(5)
    k, n = 3, 2
    dbs = _dbs(k, n)
    ch = rng.dirichlet(np.ones(4), size=k**n)
    brute = max(np.abs(np.log(ch[a]) - np.log(ch[b])).max()
                for a, b in itertools.combinations(range(k**n), 2) if (dbs[a] != dbs[b]).sum() == 1)
    assert leakage.database_dp_epsilon(ch, k) == pytest.approx(brute, rel=1e-13)
    # per-entry randomized response with eps on 3 binary entries is eps-DP, eps n free-lunch
    rr = mechanisms.RandomizedResponse(0.4, 2).matrix()
    full = rr
    for _ in range(2):
        full = np.kron(full, rr)
    assert leakage.database_dp_epsilon(full, 2) == pytest.approx(0.4, rel=1e-12)
    assert leakage.free_lunch_epsilon(full) == pytest.approx(1.2, rel=1e-12)


def test_database_dp_epsilon_infinite_when_a_neighbour_cannot_produce_an_output():
    ch = np.array([[1.0, 0.0], [0.5, 0.5], [0.5, 0.5], [0.5, 0.5]])
    assert leakage.database_dp_epsilon(ch, 2) == np.inf


def test_entry_and_conditional_pml_against_hand_marginalisation():
    rng = np.random.default_rng(6)
    k, n = 2, 3
    dbs = _dbs(k, n)
    ch = rng.dirichlet(np.ones(3), size=k**n)
    prior = rng.dirichlet(np.ones(k**n))
    for i in range(n):
        joint = prior[:, None] * ch
        rows = np.array([joint[dbs[:, i] == a].sum(axis=0) for a in range(k)])
        hand = np.log((rows / rows.sum(axis=1, keepdims=True)).max(axis=0) / rows.sum(axis=0))
        np.testing.assert_allclose(leakage.entry_pml(prior, ch, i, k), hand, rtol=1e-12)
        cond = leakage.conditional_entry_pml(prior, ch, i, k)
        others = [j for j in range(n) if j != i]
        for r, rest in enumerate(itertools.product(range(k), repeat=n - 1)):
            sel = np.all(dbs[:, others] == rest, axis=1)
            p = prior[sel] / prior[sel].sum()
            np.testing.assert_allclose(cond[r], np.log(ch[sel].max(axis=0) / (p @ ch[sel])), rtol=1e-12, atol=1e-15)


def test_conditional_pml_reduces_to_pml_for_independent_side_information():
    rng = np.random.default_rng(7)
    px, pz = rng.dirichlet(np.ones(3)), rng.dirichlet(np.ones(2))
    ch = rng.dirichlet(np.ones(4), size=3)
    got = leakage.conditional_pml(np.outer(px, pz), np.repeat(ch[:, None, :], 2, axis=1))
    np.testing.assert_allclose(got, np.vstack([leakage.pml(px, ch)] * 2), rtol=1e-13)


def test_randomized_response_calibration_hits_the_target():
    prior = np.array([0.1, 0.2, 0.3, 0.4])
    eps = float(leakage.randomized_response_epsilon_for_pml(0.25, prior))
    rr = mechanisms.RandomizedResponse(eps, 4).matrix()
    assert float(leakage.pml_sup(prior, rr)) == pytest.approx(0.25, rel=1e-12)
    generic = leakage.calibrate_to_pml(lambda e: mechanisms.RandomizedResponse(e, 4).matrix(), prior, 0.25, 1e-6, 30.0)
    assert generic == pytest.approx(eps, rel=1e-10)
    assert leakage.randomized_response_epsilon_for_pml(-np.log(0.1), prior) == np.inf


def test_relative_frequencies_small_n_by_enumeration():
    from math import comb

    n, g, a, b, cells = 4, 0.3, 0.25, 0.05, 10
    probs = [g * a, g * (1 - a), (1 - g) * b, (1 - g) * (1 - b)]
    joint = {}
    for c in itertools.product(range(n + 1), repeat=3):
        if sum(c) > n:
            continue
        d = n - sum(c)
        p = comb(n, c[0]) * comb(n - c[0], c[1]) * comb(n - c[0] - c[1], c[2])
        p *= probs[0] ** c[0] * probs[1] ** c[1] * probs[2] ** c[2] * probs[3] ** d
        m1, m2 = c[0] + c[1], c[2] + d
        key = (cells if m1 == 0 else min(c[0] * cells // m1, cells - 1), cells if m2 == 0 else min(c[2] * cells // m2, cells - 1))
        joint[key] = joint.get(key, 0.0) + p
    assert leakage.relative_frequencies_min_entropy(n, g, a, b, cells) == pytest.approx(-np.log(max(joint.values())), rel=1e-12)


def test_posterior_min_entropy_is_positive_where_the_posterior_is_nearly_certain():
    ys = np.array([100.0, 700.0])
    h = leakage.posterior_min_entropy_from_likelihood([0.5, 0.5], np.vstack([-ys, np.log(2.0) - 2 * ys]))
    np.testing.assert_allclose(h, 2 * np.exp(-ys), rtol=1e-12)


# --- numerics at the edges (issue 15) ------------------------------------------------------------

def test_threshold_query_finite_where_a_tail_rounds_to_one_or_underflows():
    got = leakage.threshold_query_leakage([10.0, 100.0], 1 - 1e-12, answer=0)
    np.testing.assert_allclose(got, [132.62578710195954, 1314.7683202426995], rtol=1e-12)
    tiny = leakage.threshold_query_leakage(1000.0, 1e-9, answer=0)
    assert 0 < tiny < 1e-300 or tiny == pytest.approx(0.0, abs=1e-300)
    assert np.isfinite(leakage.threshold_query_leakage(10**6, 0.1, answer=1))


def test_pml_keeps_relative_accuracy_at_tiny_epsilon():
    eps, prior = 1e-12, np.array([0.1, 0.2, 0.3, 0.4])
    rr = mechanisms.RandomizedResponse(eps, 4).matrix()
    # the PML of y computed from this float channel, exactly (rationals)
    from fractions import Fraction

    for y in range(4):
        p_y = sum(Fraction(prior[x]) * Fraction(rr[x, y]) for x in range(4))
        exact = float(Fraction(rr[:, y].max()) / p_y - 1)  # l = log1p(exact)
        assert float(leakage.pml(prior, rr)[y]) == pytest.approx(np.log1p(exact), rel=1e-9)


def test_laplace_count_pml_matches_mpmath_at_extreme_epsilons():
    import mpmath

    mpmath.mp.dps = 40
    n, th = 40, 0.3

    def ref(eps, y):
        th_, e_, y_ = mpmath.mpf(th), mpmath.mpf(eps), mpmath.mpf(y)
        a = [mpmath.fsum(mpmath.binomial(n - 1, k) * th_**k * (1 - th_) ** (n - 1 - k)
                         * mpmath.exp(-n * e_ * abs(y_ - mpmath.mpf(k + z) / n)) for k in range(n)) for z in (0, 1)]
        return mpmath.log(max(a) / (th_ * a[1] + (1 - th_) * a[0]))

    for eps in (1e-8, 1e-3, 1.0, 10.0, 40.0):
        for y in (-0.25, 0.125, 0.3125, 0.875, 1.5):  # n y exact in binary
            assert float(leakage.laplace_count_pml(n, th, eps, y)) == pytest.approx(float(ref(eps, y)), rel=1e-12, abs=1e-300)


def test_laplace_count_pml_window_equals_full_sum_for_large_n():
    from scipy import special

    from privlib.core._logspace import log_binomial_pmf

    n, theta, eps = 20000, 0.35, 0.05
    k = np.arange(n)
    # the same accurate pmf (scipy's binom.logpmf is off by 1e-11 here, 5e-9 of the PML at y = 0.35)
    log_w = log_binomial_pmf(k, n - 1, theta)
    for y in [-0.3, 0.2, 0.35, 0.9, 1.4]:
        a = [special.logsumexp(log_w - eps * np.abs(n * y - (k + z))) for z in (0, 1)]
        full = max(a) - np.logaddexp(np.log(theta) + a[1], np.log1p(-theta) + a[0])
        assert float(leakage.laplace_count_pml(n, theta, eps, y)) == pytest.approx(full, rel=1e-9, abs=1e-15)


def _laplace_count_pml_mpmath(n: int, theta: float, eps: float, y: float) -> float:
    """A 30-digit sum of the two binomial mixtures ``sum_k P(k) e^{-eps |ny - k - z|}`` walking out
    from the largest summand (which is log-concave in k) until the terms fall below 1e-40 of it."""
    import mpmath

    m = n - 1
    with mpmath.workdps(30):
        th, e, ny = mpmath.mpf(theta), mpmath.mpf(eps), mpmath.mpf(n) * mpmath.mpf(y)
        odds = th / (1 - th)
        c = float(n * y - 1)
        tilt = [theta * np.exp(s) / (1 - theta + theta * np.exp(s)) for s in (eps, -eps)]
        k0 = int(min(max(np.median([m * tilt[0], m * tilt[1], c]), 0), m))  # the summand's peak
        log_p0 = (mpmath.loggamma(m + 1) - mpmath.loggamma(k0 + 1) - mpmath.loggamma(m - k0 + 1)
                  + k0 * mpmath.log(th) + (m - k0) * mpmath.log1p(-th))
        p0 = mpmath.exp(log_p0 - mpmath.floor(log_p0))  # only ratios matter
        a = [mpmath.mpf(0), mpmath.mpf(0)]
        for step in (1, -1):
            k, pk, top = (k0, p0, None) if step == 1 else (k0 - 1, p0 * k0 / ((m - k0 + 1) * odds), None)
            while 0 <= k <= m:
                terms = [pk * mpmath.exp(-e * abs(ny - k - z)) for z in (0, 1)]
                a[0], a[1] = a[0] + terms[0], a[1] + terms[1]
                top = max(top or 0, terms[1])
                if terms[1] < top * mpmath.mpf(10) ** -40:
                    break
                pk = pk * (m - k) * odds / (k + 1) if step == 1 else pk * k / ((m - k + 1) * odds)
                k += step
        return float(mpmath.log(max(a) / (th * a[1] + (1 - th) * a[0])))


def test_laplace_count_pml_matches_mpmath_at_large_n():
    """O(1) tilted tails against a 30-digit sum: at n = 10^8 near the output where the two
    mixtures cross (D a small difference), and at n = 10^6 in the tail where one tilted ratio
    underflows (the continued fraction)."""
    cases = [(10**8, 0.3, 0.01, 0.3 + 2.0**-20, 1e-9), (10**8, 0.3, 0.01, 0.3 + 2.0**-12, 1e-11),
             (10**6, 0.3, 0.5, 0.25, 1e-12), (10**6, 0.3, 0.5, 0.5, 1e-12)]  # n y exact in binary
    for n, theta, eps, y, rtol in cases:
        got = float(leakage.laplace_count_pml(n, theta, eps, y))
        assert got == pytest.approx(_laplace_count_pml_mpmath(n, theta, eps, y), rel=rtol), (n, eps, y)


def test_quantized_mean_large_n_is_fast_and_exact_small_n():
    assert leakage.quantized_mean_min_entropy(10**7, [0, 0.25, 1], [0.5, 0.3, 0.2]) == pytest.approx(0.0, abs=1e-12)
    assert leakage.quantized_mean_min_entropy(10**7, [0, 0.5, 1], [0.3, 0.4, 0.3]) == pytest.approx(np.log(2), abs=1e-3)


@pytest.mark.parametrize("call, fragment", [
    (lambda: leakage.pml_sup([0.5, 0.6], [[1, 0], [0, 1]]), "prior"),
    (lambda: leakage.entry_pml(np.full(8, 1 / 8), np.eye(8), 3, 2), "i must be an integer"),
    (lambda: leakage.entry_pml(np.full(6, 1 / 6), np.eye(6), 0, 2), "alphabet_size"),
    (lambda: leakage.database_dp_epsilon(np.eye(4), 1), "alphabet_size"),
    (lambda: leakage.conditional_pml([[0.5, 0.0], [0.5, 0.0]], np.ones((2, 2, 1))), "prior"),
    (lambda: leakage.laplace_count_pml(5, [0.3, 0.4], 1.0, 0.0), "theta must be a single"),
    (lambda: leakage.calibrate_to_pml(lambda e: np.eye(2), [0.5, 0.5], 0.1, 1.0, 0.5), "low must be below high"),
    (lambda: leakage.randomized_response_epsilon_for_pml(0.2, [1.0, 0.0]), "prior must have full support"),
    (lambda: leakage.quantized_mean_min_entropy(10**12, [0, 0.001, 1], [0.2, 0.3, 0.5]), "n too large"),
])
def test_bad_input_names_the_argument(call, fragment):
    with pytest.raises((ValueError, TypeError), match=fragment):
        call()


# --- accuracy against mpmath at eps in {1e-8, 1e-3, 1, 10, 40} (issue 15) --------------------------

EPSILONS = [1e-8, 1e-3, 1.0, 10.0, 40.0]


@pytest.mark.parametrize("eps", EPSILONS)
def test_pml_of_randomized_response_against_mpmath(eps):
    import mpmath

    mpmath.mp.dps = 60
    prior = np.array([0.1, 0.2, 0.3, 0.4])
    rr = mechanisms.RandomizedResponse(eps, 4).matrix()
    total = mpmath.fsum(mpmath.mpf(q) for q in prior)  # the float prior, normalised exactly
    for y in range(4):
        p_y = mpmath.fsum(mpmath.mpf(prior[x]) * mpmath.mpf(rr[x, y]) for x in range(4)) / total
        ref = mpmath.log(max(mpmath.mpf(rr[x, y]) for x in range(4)) / p_y)
        assert float(leakage.pml(prior, rr)[y]) == pytest.approx(float(ref), rel=1e-12)


@pytest.mark.parametrize("eps", EPSILONS)
def test_count_query_closed_forms_against_mpmath(eps):
    import mpmath

    mpmath.mp.dps = 60
    e = mpmath.mpf(eps)
    for th in (1e-6, 0.3, 0.5):
        t = mpmath.mpf(th)
        right = e - mpmath.log(1 - t + t * mpmath.exp(e))
        left = e - mpmath.log(t + (1 - t) * mpmath.exp(e))
        assert float(leakage.laplace_count_pml_sup(th, eps)) == pytest.approx(float(max(right, left)), rel=1e-13)
    for p in (1e-6, 0.2, 0.5):
        ref = e - mpmath.log(1 + mpmath.mpf(p) * mpmath.expm1(e))
        assert float(leakage.laplace_count_pml_bound(p, eps)) == pytest.approx(float(ref), rel=1e-13)
        # the inverse, at a target inside its domain (-log p is where no noise is needed)
        target = min(eps, 0.5 * -np.log(p))
        tm = mpmath.mpf(target)
        inv = tm + mpmath.log(1 - mpmath.mpf(p)) - mpmath.log(1 - mpmath.mpf(p) * mpmath.exp(tm))
        assert float(leakage.dp_budget_for_pml(target, p)) == pytest.approx(float(inv), rel=1e-12)
    h = mpmath.mpf(0.7)
    ref = mpmath.log(1 + mpmath.expm1(h) * mpmath.exp(-e))
    assert float(leakage.capacity_entropy_bound(0.7, eps)) == pytest.approx(float(ref), rel=1e-13)


@pytest.mark.parametrize("eps", EPSILONS)
def test_correlated_count_sup_against_mpmath(eps):
    import mpmath

    mpmath.mp.dps = 80
    th, n = mpmath.mpf(0.3), 50
    e = mpmath.mpf(eps)
    for rho in (0.0, 0.1, 1.0):
        r = mpmath.mpf(rho)
        vals = []
        for s in (1, -1):
            a = 1 - th + th * mpmath.exp(s * e)
            m1 = r * mpmath.exp(s * e * n) + (1 - r) * mpmath.exp(s * e) * a ** (n - 1)
            m0 = r + (1 - r) * a ** (n - 1)
            vals.append(mpmath.log(max(m0, m1) / (th * m1 + (1 - th) * m0)))
        got = float(leakage.correlated_count_pml_sup(n, 0.3, eps, rho))
        assert got == pytest.approx(float(max(vals)), rel=1e-12, abs=1e-300)


def test_quantized_mean_keeps_relative_accuracy_in_the_tails():
    import mpmath

    mpmath.mp.dps = 50
    # Bernoulli(0.05) draws: the mean leaves the first cell [0, 0.1) with P(Bin(n, 0.05) >= n / 10)
    for n in (400, 2000, 20000):
        p = mpmath.mpf(0.05)
        tail = mpmath.betainc(n // 10, n - n // 10 + 1, 0, p, regularized=True)  # P(Bin >= n/10)
        exact = float(-mpmath.log1p(-tail))
        got = leakage.quantized_mean_min_entropy(n, [0.0, 1.0], [0.95, 0.05])
        assert got == pytest.approx(exact, rel=1e-9)
        assert got > 0


def test_laplace_count_pml_above_epsilon_700_in_log_space():
    """Above epsilon = 700 (``e^eps`` not a double) the parts are combined in log-space: against a
    log-sum-exp of the full mixtures at 800 and 5000, and at 1e300 and the largest double against
    the limit, where only the lattice points nearest to ``n y`` count (exact rationals)."""
    import math
    from fractions import Fraction

    from scipy import special

    from privlib.core._logspace import log_binomial_pmf

    n, th = 40, 0.3
    k = np.arange(n)
    log_w = log_binomial_pmf(k, n - 1, th)
    ys = np.array([-0.3, 0.0, 0.01, 0.3125, 0.33, 0.5, 0.9, 0.97, 1.0, 1.2])
    for eps in (800.0, 5000.0):
        for y in ys:
            dist = [np.abs(n * y - (k + z)) for z in (0, 1)]
            near = min(d.min() for d in dist)  # e^{-eps near} taken out of both mixtures
            a = [special.logsumexp(log_w - eps * (d - near)) for d in dist]
            top = max(a)
            full = -np.logaddexp(np.log(th) + a[1] - top, np.log1p(-th) + a[0] - top)
            assert float(leakage.laplace_count_pml(n, th, eps, y)) == pytest.approx(full, rel=1e-12, abs=1e-15), (eps, y)
    pmf = [Fraction(math.comb(n - 1, j)) * Fraction(3, 10) ** j * Fraction(7, 10) ** (n - 1 - j) for j in range(n)]
    for y in ys:
        ny = Fraction(float(n * y))
        dist = [[abs(ny - (j + z)) for j in range(n)] for z in (0, 1)]
        nearest = min(min(d) for d in dist)
        a = [sum(pmf[j] for j in range(n) if dist[z][j] == nearest) for z in (0, 1)]
        limit = math.log(max(a) / (Fraction(3, 10) * a[1] + Fraction(7, 10) * a[0]))
        for eps in (1e300, 1.7e308):
            assert float(leakage.laplace_count_pml(n, th, eps, y)) == pytest.approx(limit, rel=1e-12, abs=1e-15), (eps, y)
