"""privlib.papers.statistical: hand values from the paper and its spec, symmetry and floors, properties,
bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlib import statistical
from privlib.verify.statistical_privacy._routes import mp_pure_delta_window


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


# --- accuracy against mpmath (issue 15) and the public closed forms (issue 14) ---------------

import mpmath  # noqa: E402

EPS_GRID = [1e-8, 1e-3, 1.0, 10.0, 40.0]


def _mp_subsampling_delta(eps, n, m, pi):
    """max of both hockey-stick sums of Lemma 4's laws with exact binomial coefficients, 50 digits."""
    with mpmath.workdps(50):
        p, e, lam = mpmath.mpf(pi), mpmath.exp(mpmath.mpf(eps)), mpmath.mpf(m) / n

        def b(size, k):
            return mpmath.binomial(size, k) * p**k * (1 - p) ** (size - k) if 0 <= k <= size else mpmath.mpf(0)

        plus = minus = mpmath.mpf(0)
        for j in range(m + 1):
            a = lam * b(m - 1, j - 1) + (1 - lam) * b(m, j)
            c = lam * b(m - 1, j) + (1 - lam) * b(m, j)
            plus += max(a - e * c, 0)
            minus += max(c - e * a, 0)
        return max(plus, minus)


@pytest.mark.parametrize("n, m, pi", [(300, 300, 0.5), (300, 300, 0.03), (400, 60, 0.5), (400, 60, 0.02), (50, 49, 0.9)])
def test_discrete_deltas_match_mpmath_at_every_epsilon_scale(n, m, pi):
    for eps in EPS_GRID:
        ref = _mp_subsampling_delta(eps, n, m, pi)
        got = float(statistical.log_subsampling_delta(eps, n, m, pi))
        if ref == 0:
            assert got == -np.inf
            continue
        assert got == pytest.approx(float(mpmath.log(ref)), abs=1e-11), eps
        lin = float(statistical.subsampling_delta(eps, n, m, pi))
        assert lin == pytest.approx(float(ref), rel=1e-11, abs=0.0) or float(ref) < 1e-300


def test_pure_delta_has_no_silent_zeros():
    assert float(statistical.pure_delta(1.0, 1000, 0.5)) == pytest.approx(1.28887528e-52, rel=1e-8)
    eps = np.geomspace(1e-6, 3.0, 300)
    for n in (10**4, 10**6):
        lin, log = statistical.pure_delta(eps, n, 0.3), statistical.log_pure_delta(eps, n, 0.3)
        representable = log > -700
        assert (lin[representable] > 0).all()
        np.testing.assert_allclose(np.log(lin[representable]), log[representable], rtol=1e-12)


def test_pure_delta_at_large_n_matches_its_log_and_the_chernoff_rate():
    n1, n2 = 10**7, 2 * 10**7
    a, b = (float(statistical.log_pure_delta(0.1, size, 0.5)) for size in (n1, n2))
    slope = -((b + 1.5 * np.log(n2)) - (a + 1.5 * np.log(n1))) / (n2 - n1)
    assert slope == pytest.approx(float(statistical.chernoff_rate(0.1, 0.5)), rel=1e-3)


def test_log_binomial_pmf_is_accurate_at_large_size():
    with mpmath.workdps(40):
        for size, p, k in [(10**8, 0.3, 30_012_345), (10**8, 0.3, 31_000_000), (1000, 0.5, 0), (10, 1e-12, 3)]:
            ref = mpmath.log(mpmath.binomial(size, k)) + k * mpmath.log(mpmath.mpf(p)) + (size - k) * mpmath.log(1 - mpmath.mpf(p))
            got = float(statistical.log_binomial_pmf(k, size, p))
            # the condition number of log b(k) in p bounds what any double evaluation can do
            assert got == pytest.approx(float(ref), abs=1e-12 * max(1.0, abs(float(ref))) + 5e-12)


def _mp_noise_delta(eps, n, pi, scale, noise):
    """Both directions at 40 digits: root of the log-likelihood ratio by bisection, then the two
    tail sums (the monotone-ratio reduction, checked against quadrature by the 004 claims)."""
    with mpmath.workdps(40):
        out = []
        for p in (mpmath.mpf(pi), 1 - mpmath.mpf(pi)):
            w = [mpmath.binomial(n - 1, k) * p**k * (1 - p) ** (n - 1 - k) for k in range(n)]
            s = mpmath.mpf(scale)
            if noise == "gaussian":
                pdf = lambda z: mpmath.npdf(z)
                sf = lambda z: mpmath.ncdf(-z)
            else:
                pdf = lambda z: mpmath.exp(-abs(z)) / 2
                sf = lambda z: mpmath.exp(-z) / 2 if z >= 0 else 1 - mpmath.exp(z) / 2

            def g(t):
                return mpmath.log(sum(wk * pdf((t - mpmath.mpf(k + 1) / n) / s) for k, wk in enumerate(w))) - \
                    mpmath.log(sum(wk * pdf((t - mpmath.mpf(k) / n) / s) for k, wk in enumerate(w))) - eps
            lo, hi = mpmath.mpf(-1), mpmath.mpf(2)
            if noise == "laplace" and g(hi) <= 0:
                out.append(mpmath.mpf(0))
                continue
            while g(hi) < 0:
                hi += 1
            for _ in range(140):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if g(mid) < 0 else (lo, mid)
            t = (lo + hi) / 2
            a = sum(wk * sf((t - mpmath.mpf(k + 1) / n) / s) for k, wk in enumerate(w))
            b = sum(wk * sf((t - mpmath.mpf(k) / n) / s) for k, wk in enumerate(w))
            out.append(max(a - mpmath.exp(eps) * b, 0))
        return float(max(out))


@pytest.mark.parametrize("noise", ["gaussian", "laplace"])
def test_noise_delta_matches_mpmath_at_every_epsilon_scale(noise):
    n, pi, scale = 12, 0.3, 0.1
    for eps in EPS_GRID:
        ref = _mp_noise_delta(eps, n, pi, scale, noise)
        got = float(statistical.noise_delta(eps, n, pi, scale, noise))
        # the difference of the two tail sums loses digits when delta is far below them
        assert got == pytest.approx(ref, rel=1e-9, abs=1e-300), eps


def test_closed_form_kernels_match_mpmath():
    with mpmath.workdps(40):
        for eps in EPS_GRID:
            for nu in (0.5, 1.0, 10.0):
                e, m = mpmath.mpf(eps), 1 / mpmath.mpf(nu)
                gauss = mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)
                assert float(statistical.dp_delta(eps, nu)) == pytest.approx(float(gauss), rel=1e-9, abs=1e-300)
                lap = max(1 - mpmath.exp((e - m) / 2), 0)
                assert float(statistical.dp_delta(eps, nu, "laplace")) == pytest.approx(float(lap), rel=1e-12, abs=0)


def test_hockey_stick_keeps_relative_accuracy_for_tiny_deltas():
    from privlib import profiles

    size = 400
    k = np.arange(size + 1)
    p = np.exp(statistical.log_binomial_pmf(k - 1, size - 1, 0.5))
    q = np.exp(statistical.log_binomial_pmf(k, size - 1, 0.5))
    eps = np.array(EPS_GRID[:4] + [3.0, 5.0])
    got = profiles.hockey_stick(p, q, eps)
    with mpmath.workdps(40):
        mp_p = [mpmath.mpf(x) for x in p]
        mp_q = [mpmath.mpf(x) for x in q]
        for e, g in zip(eps, got):
            ref = sum(max(a - mpmath.exp(e) * b, 0) for a, b in zip(mp_p, mp_q))
            assert g == pytest.approx(float(ref), rel=1e-12, abs=1e-300), e


def test_theorem_sums_as_corrected_equal_the_definition_and_as_printed_do_not():
    for n, m, pi in [(1000, 100, 0.5), (200, 200, 0.3), (100, 10, 0.2), (60, 59, 0.05)]:
        eps = np.array([0.0, 0.01, 0.3, 2.0])
        plus, minus = statistical.theorem_deltas(eps, n, m, pi)
        np.testing.assert_allclose(np.maximum(plus, minus), statistical.subsampling_delta(eps, n, m, pi), rtol=1e-10, atol=1e-300)
    printed_plus, _ = statistical.theorem_deltas(0.01, 1000, 100, 0.5, printed=True)
    assert float(printed_plus) == pytest.approx(0.00257, abs=1e-5)  # spec: 0.0026 against the correct 0.0040
    assert float(statistical.theorem_deltas(0.3, 100, 10, 0.2, printed=True)[1]) == pytest.approx(-0.0204, abs=1e-4)


def test_likelihood_ratio_is_the_ratio_of_the_laws():
    for n, m, pi in [(50, 20, 0.3), (30, 30, 0.7)]:
        lp, lq = statistical.subsampling_laws(n, m, pi)
        j = np.arange(m)
        np.testing.assert_allclose(statistical.likelihood_ratio(j, n, m, pi), np.exp(lp - lq)[:m], rtol=1e-12)
        assert float(statistical.likelihood_ratio(pi * m, n, m, pi)) == pytest.approx(1.0)


def test_utility_losses_and_calibration():
    assert float(statistical.statistical_utility_loss(1000, 100, 0.3)) == pytest.approx(0.21 * (0.01 - 0.001))
    assert float(statistical.noise_utility_loss(0.1, "laplace")) == pytest.approx(0.02)
    sigma, b = statistical.equal_utility_scales(1000, 100, 0.3)
    assert float(statistical.noise_utility_loss(sigma)) == pytest.approx(float(statistical.noise_utility_loss(b, "laplace")))
    eps_l = float(statistical.equal_utility_laplace_epsilon(1000, 100, 0.3))
    assert eps_l == pytest.approx(float(statistical.laplace_sp_epsilon(1000, b)))
    assert float(statistical.equal_utility_laplace_epsilon(1000, 1000, 0.3)) == np.inf


def test_lemma10_corrected_is_the_normal_approximation_with_the_corrected_level():
    psi = float(statistical.lemma10_noise_level(1000, 100, 0.4))
    assert psi**2 == pytest.approx(float(statistical.subsampling_utility_loss(1000, 100, 0.4)))
    eps = np.array([0.0, 0.01, 0.05, 0.2])
    np.testing.assert_allclose(statistical.lemma10_delta(eps, 1000, 100, 0.4),
                               statistical.normal_approx_delta(eps, 1000, 0.4, psi), rtol=1e-9)
    assert float(statistical.lemma10_noise_level(1000, 100, 0.4, printed=True)) == pytest.approx(0.24 * (10 - 0.001))


def test_chernoff_rate_series_and_direct_forms_join():
    for pi in (0.5, 0.1, 0.003):
        below, above = statistical.chernoff_rate([0.999e-3, 1.001e-3], pi)
        assert above / below == pytest.approx((1.001 / 0.999) ** 2, rel=1e-4)
        with mpmath.workdps(40):
            p, e = mpmath.mpf(pi), mpmath.mpf("1e-5")
            qs = [p * mpmath.exp(s) / (1 - p + p * mpmath.exp(s)) for s in (e, -e)]
            ref = min(q * mpmath.log(q / p) + (1 - q) * mpmath.log((1 - q) / (1 - p)) for q in qs)
        assert float(statistical.chernoff_rate(1e-5, pi)) == pytest.approx(float(ref), rel=1e-9)


def test_noise_delta_scales_to_large_n():
    d = float(statistical.noise_delta(0.01, 10**7, 0.3, 1e-7))
    approx = float(statistical.normal_approx_delta(0.01, 10**7, 0.3, 1e-7))
    assert d == pytest.approx(approx, rel=1e-3)


def test_pure_delta_keeps_twelve_digits_at_large_n():
    """Near the mean the two tails of a million-entry binomial differ in their fourth digit; the
    summation by parts keeps 1e-12 (the tails' difference loses 1e-10 here, 1e-7 at n = 10^8)."""
    n, pi = 10**6, 0.3
    eps = np.array([1e-8, 1e-3, 0.01])
    ref = [mp_pure_delta_window(float(e), n, pi) for e in eps]
    np.testing.assert_allclose(statistical.pure_delta(eps, n, pi), ref, rtol=1e-12)
    np.testing.assert_allclose(np.exp(statistical.log_pure_delta(eps, n, pi)), ref, rtol=1e-12)


def test_pure_delta_keeps_twelve_digits_far_out_at_ten_million():
    """At n = 10^7, 12 and 33 standard deviations out (delta near 1e-37 and 1e-242), where the
    rounding of 1 - pi, of the means n pi and n (1 - pi), and the first output's share read from
    rounded logs each moved delta by up to 7e-12; each epsilon alone (the grid starts at its
    threshold) and together with one near the mean (the grid starts there)."""
    n, pi = 10**7, 0.3
    eps = np.array([12.0, 33.0]) / np.sqrt(n * pi * (1 - pi))
    ref = [mp_pure_delta_window(float(e), n, pi) for e in eps]
    alone = [float(statistical.pure_delta(e, n, pi)) for e in eps]
    np.testing.assert_allclose(alone, ref, rtol=1e-12)
    np.testing.assert_allclose(statistical.pure_delta(np.append(eps, 1e-4), n, pi)[:2], ref, rtol=1e-12)


def test_many_epsilons_cost_one_setup():
    """10^5 epsilons at a small n: one pass over the outputs, then O(1) each (no window of 256
    outputs per epsilon), the same values as one epsilon at a time."""
    eps = 0.5 * np.linspace(0.5, 1.0, 10**5)
    out = statistical.pure_delta(eps, 20, 0.3)
    some = eps[::9973]
    np.testing.assert_allclose(out[::9973], [statistical.pure_delta(e, 20, 0.3) for e in some], rtol=1e-14)
    sub = statistical.log_subsampling_delta(eps, 20, 5, 0.3)
    np.testing.assert_allclose(sub[::9973], [statistical.log_subsampling_delta(e, 20, 5, 0.3) for e in some], rtol=1e-14)
