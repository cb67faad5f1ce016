"""Regression tests for faults found in the kernels by probes and reference values, each against
an independent route (high-precision summation, enumeration of every integer)."""

import mpmath
import numpy as np
import pytest

from privlib import intervals
from privlib import minimax as mm


def _posterior_mean_by_summation(t, shape, rate, epsilon, low, high):
    """``E[theta | t]`` summed term by term over the negative binomial count in 60-digit
    arithmetic, until the terms are below 1e-70 of the sum."""
    with mpmath.workdps(60):
        b = mpmath.mpf(high - low) / epsilon
        p = mpmath.mpf(rate) / (1 + rate)
        num = den = mpmath.mpf(0)
        x = 0
        while True:
            nb = mpmath.exp(mpmath.loggamma(shape + x) - mpmath.loggamma(shape) - mpmath.loggamma(x + 1)) \
                * p**shape * (1 - p) ** x
            lap = mpmath.exp(-abs(mpmath.mpf(t) - min(max(x, low), high)) / b)
            num += nb * lap * (shape + x)
            den += nb * lap
            if x > high and nb * lap * (shape + x) < mpmath.mpf(10) ** -70 * num:  # lap is constant beyond high
                return float(num / den / (rate + 1))
            x += 1


@pytest.mark.parametrize("shape, rate, epsilon, low, high, t", [
    (3.0, 1.0, 1.0, 0, 6, 1e5),       # release far above the clamp
    (2.0, 3.0, 2.0, 1, 15, 1e5),
    (3.0, 1.0, 1.0, 0, 6, -1e5),      # far below
    (3.0, 100.0, 20.0, 0, 6, 50.0),   # tail mass beyond `high` tiny, and it dominates
    (0.5, 20.0, 10.0, 0, 10, 1e8),
    (3.0, 1.0, 1.0, 0, 6, 2.0),       # Example 6.7's instance
])
def test_clamped_count_posterior_mean_far_from_the_clamp(shape, rate, epsilon, low, high, t):
    got = float(intervals.clamped_count_posterior_mean(t, shape, rate, epsilon, low, high))
    assert got == pytest.approx(_posterior_mean_by_summation(t, shape, rate, epsilon, low, high), rel=4e-15)


def _theorem3_bracket_every_k(n, p, alpha, delta, card_v):
    """Theorem 3's bracket at every integer k = 0..n, the binomial tail summed from the pmf."""
    from scipy import stats

    ks = np.arange(n + 1)
    pmf = stats.binom.pmf(ks, n, p)
    tail = np.concatenate([np.cumsum(pmf[::-1])[::-1][1:], [0.0]])      # P(Bin > k)
    with np.errstate(over="ignore"):
        group = np.exp(ks * alpha - np.log(card_v))                  # 0 for an infinite card_v; inf beyond e^709
        slack = delta * np.expm1(ks * alpha) / np.expm1(alpha) if delta > 0 else np.zeros(ks.size)
    return 1.0 - tail - group - slack


def test_theorem3_best_k_is_the_best_integer():
    """``k="best"`` is the maximum of the bracket over every integer (it once looked only at
    quantiles 0.25 standard deviations apart and missed the optimum by up to 1e-5)."""
    rng = np.random.default_rng(23)
    cases = [(3000, 0.1743675687195556, 0.0015401087719127734, 3.786438234928668e-08, np.inf),
             (200, 0.5545568602357631, 0.010750437465577505, 6.475077885670043e-06, np.inf),
             (1, 0.5, 1.0, 0.0, 2.0), (5, 1.0, 0.3, 0.0, 10.0), (40, 0.0, 0.3, 0.1, 10.0)]
    for _ in range(60):
        n = int(rng.choice([1, 2, 7, 60, 400, 5000]))
        p = float(rng.choice([rng.uniform(0, 1), 10 ** rng.uniform(-5, 0)]))
        cases.append((n, p, 10 ** rng.uniform(-3, 0.5), float(rng.choice([0.0, 10 ** rng.uniform(-9, -1)])),
                      float(rng.choice([np.inf, np.round(10 ** rng.uniform(0, 8)), 2.0]))))   # a packing's size is whole
    for n, p, alpha, delta, card_v in cases:
        # the bound is a probability: a bracket below 0 at every k gives the trivial bound 0
        best = max(_theorem3_bracket_every_k(n, p, alpha, delta, card_v).max(), 0.0)
        got = float(mm.theorem3_error_bound(n, p, alpha, delta, card_v))
        assert got == pytest.approx(best, abs=1e-13), (n, p, alpha, delta, card_v)


def test_theorem3_best_vectorised_equals_elementwise():
    n = np.array([[10.0], [3000.0]])
    p = np.array([0.01, 0.3, 0.9])
    got = mm.theorem3_error_bound(n, p, 0.05, 1e-7, 1e4)
    for i in range(2):
        for j in range(3):
            assert got[i, j] == float(mm.theorem3_error_bound(n[i, 0], p[j], 0.05, 1e-7, 1e4))


@pytest.mark.parametrize("p_min", [1e-6, 0.1, 0.3, 0.5])
@pytest.mark.parametrize("target", [1e-15, 1e-12, 1e-9, 1e-6, 0.1])
def test_randomized_response_epsilon_for_pml_tiny_targets(p_min, target):
    """The calibrated epsilon keeps full relative accuracy at tiny PML targets (the difference of
    two logarithms near log(1 - p) lost it: 1e-5 relative error at 1e-12), against the inverse
    solved in 50-digit arithmetic."""
    from privlib import leakage

    k = 4
    prior = np.full(k, (1.0 - p_min) / (k - 1))
    prior[0] = p_min
    prior /= prior.sum()
    got = float(leakage.randomized_response_epsilon_for_pml(target, prior))
    with mpmath.workdps(50):
        p = mpmath.mpf(float(prior.min()))
        leak = lambda eps: mpmath.log(mpmath.exp(eps) / (1 + p * mpmath.expm1(eps)))   # noqa: E731
        exact = mpmath.findroot(lambda eps: leak(eps) - target, mpmath.mpf(target))
    assert got == pytest.approx(float(exact), rel=1e-14)


def test_log_statistical_delta_where_delta_underflows():
    """The cross-paper chapter's million-record table shows ln delta_SP: e^-22471 under
    independence, where delta itself is 0 in double precision. At n = 200 and 500 against the
    hockey stick summed in 40-digit arithmetic from the
    record's laws built count by count; at n = 10^6, finite and consistent with delta = 0."""
    from privlib import notions

    for n, eps in ((200, 0.5), (500, 0.5)):
        mech = notions.geometric_count(n, 1.0)
        model = notions.iid_model(n, 0.3)
        got = float(notions.log_statistical_delta(mech, model, eps, 0))
        table = mech.log_table                                        # (n + 1, outputs)
        with mpmath.workdps(40):
            p = mpmath.mpf(0.3)
            others = [mpmath.binomial(n - 1, j) * p**j * (1 - p) ** (n - 1 - j) for j in range(n)]
            laws = []
            for a in (0, 1):
                laws.append([mpmath.fsum(others[j] * mpmath.exp(mpmath.mpf(float(table[j + a, y])))
                                         for j in range(n)) for y in range(table.shape[1])])
            e = mpmath.exp(mpmath.mpf(eps))
            hockey = max(mpmath.fsum(max(x - e * z, 0) for x, z in zip(laws[a], laws[1 - a])) for a in (0, 1))
            exact = float(mpmath.log(hockey))
        assert got == pytest.approx(exact, rel=1e-9), (n, got, exact)
    big = notions.geometric_count(10**6, 1.0)
    log_sp = float(notions.log_statistical_delta(big, notions.iid_model(10**6, 0.3), 0.5, 0))
    assert -23000 < log_sp < -22000
    assert float(notions.statistical_delta(big, notions.iid_model(10**6, 0.3), 0.5, 0)) == 0.0
