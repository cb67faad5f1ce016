"""Fuzz layer for privlib.intervals (chapter 000): valid inputs at the extremes (eps in
[1e-12, 50], probabilities in [1e-12, 1 - 1e-12], counts up to 10^7) never give NaN, an infinity
where the value is finite, a probability outside [0, 1] or a silent 0 where the value is
representable; invalid inputs raise ValueError/TypeError naming the argument."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzing import FUZZ, assert_finite, assert_probability, assert_rejects, epsilons, probabilities, sizes
from privlib import intervals

TINY = math.log(np.finfo(float).tiny)         # below this log-value a double is 0
HUGE = math.log(np.finfo(float).max)          # above it, inf

diameters = st.one_of(st.floats(0.0, 1e4), st.sampled_from([0.0, 1.0, 1e6, math.inf]))
alphas = st.one_of(probabilities, st.sampled_from([0.0, 1.0]))


def _representable(log_value):
    return (np.asarray(log_value) > TINY + 1.0) & (np.asarray(log_value) < HUGE - 1.0)


@FUZZ
@given(st.lists(st.floats(1e-300, 1e300), min_size=1, max_size=8), st.data())
def test_multiplicative_distance(mu, data):
    nu = data.draw(st.lists(st.floats(1e-300, 1e300), min_size=len(mu), max_size=len(mu)))
    d = intervals.multiplicative_distance(mu, nu)
    assert_finite(d)
    assert d == pytest.approx(np.abs(np.log(mu) - np.log(nu)).max(), rel=1e-12, abs=1e-12)


@FUZZ
@given(st.integers(2, 12), epsilons, st.integers(0, 2**32 - 1))
def test_lipschitz_loss(m, eps, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2, (m, 3))
    dist = np.abs(x[:, None, :] - x[None, :, :]).sum(axis=2).astype(float)
    dist[dist == 0] = np.where(np.eye(m, dtype=bool), 0.0, np.inf)[dist == 0]   # duplicates: unconnected
    logits = rng.normal(size=(m, 5)) * min(eps, 50.0)
    P = np.exp(logits - logits.max(axis=1, keepdims=True))
    P /= P.sum(axis=1, keepdims=True)
    loss = intervals.lipschitz_loss(P, dist)
    assert not np.isnan(loss) and loss >= 0


@FUZZ
@given(epsilons, diameters, st.floats(1e-300, 1e300), st.integers(0, 2**32 - 1))
def test_density_bounds(eps, d, level, seed):
    dens = level * np.random.default_rng(seed).uniform(0.5, 2.0, (3, 4))
    lower, upper = intervals.density_bounds(dens, eps, d)
    ed = math.inf if math.isinf(d) else eps * d
    assert not np.isnan(lower).any() and not np.isnan(upper).any()
    assert (lower[_representable(np.log(dens.max(axis=0)) - ed)] > 0).all()
    assert np.isfinite(upper[_representable(np.log(dens.min(axis=0)) + ed)]).all()


@FUZZ
@given(sizes, epsilons, st.sampled_from(["interval", "integer"]), st.floats(-1e7, 2e7))
def test_laplace_sum_bounds(n, eps, q_support, t0):
    t = np.array([t0, -1.0, 0.0, n / 2.0, float(n), n + 1.0])
    nearest = np.clip(np.round(t) if q_support == "integer" else t, 0, n)
    log_lower = math.log(eps / 2) - eps * (n + np.abs(t - nearest))
    log_upper = math.log(eps / 2) + eps * (n - np.maximum(np.abs(t), np.abs(t - n)))
    got_lower, got_upper = intervals.laplace_sum_bounds(t, n, eps, q_support, log=True)   # exact everywhere
    np.testing.assert_allclose(got_lower, log_lower, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got_upper, log_upper, rtol=1e-12, atol=1e-12)
    lower, upper = intervals.laplace_sum_bounds(t, n, eps, q_support)
    assert not np.isnan(lower).any() and not np.isnan(upper).any()
    ok = _representable(log_lower)
    np.testing.assert_allclose(np.log(lower[ok]), log_lower[ok], rtol=1e-9, atol=1e-9)
    ok = _representable(log_upper)
    np.testing.assert_allclose(np.log(upper[ok]), log_upper[ok], rtol=1e-9, atol=1e-9)
    assert (upper[log_upper > HUGE + 1.0] == np.inf).all()       # beyond the largest double: inf, documented


@FUZZ
@given(st.sampled_from([1, 2, 10, 1000, 10**5, 10**6]), epsilons, probabilities, st.floats(-1e6, 2e6))
def test_laplace_sum_marginal(n, eps, theta, t0):
    from scipy import stats

    w = stats.binom.pmf(np.arange(n + 1), n, theta)
    w /= w.sum()
    t = np.array([t0, 0.0, n * theta, float(n)])
    log_p = intervals.laplace_sum_marginal(t, w, eps, log=True)
    assert_finite(log_p, "log density")
    p = intervals.laplace_sum_marginal(t, w, eps)
    assert not np.isnan(p).any()
    assert (p[_representable(log_p)] > 0).all()
    # within Theorem 4.1's hull: between the smallest and largest component density
    centre = np.log(eps / 2)
    assert (log_p <= centre + 1e-9 * max(1.0, abs(centre))).all()


@FUZZ
@given(st.one_of(sizes, st.floats(1.0, 1e7)), epsilons)
def test_randomized_response_bounds(n, eps):
    low, high = intervals.randomized_response_bounds(n, eps)
    assert_probability(low, "lower bound")
    assert_probability(high, "upper bound")
    assert low <= high
    if -n * np.logaddexp(0, eps) > TINY + 1:
        assert low > 0
    if -n * np.logaddexp(0, -eps) > TINY + 1:
        assert high > 0


@FUZZ
@given(st.lists(alphas, min_size=1, max_size=5), epsilons, diameters, st.booleans())
def test_power_bounds(alpha, eps, d, sharp):
    low, high = intervals.power_bounds(alpha, eps, d, sharp=sharp)
    assert_probability(low)
    assert_probability(high)
    assert (low <= high + 1e-15).all()
    a = np.asarray(alpha)
    ed = math.inf if math.isinf(d) else eps * d
    with np.errstate(divide="ignore"):
        log_low = np.log(a) - ed
    assert (low[_representable(log_low)] > 0).all()


@FUZZ
@given(alphas, st.integers(1, 8), st.floats(0.1, 300.0), st.booleans(), st.integers(0, 2**32 - 1))
def test_neyman_pearson_test(alpha, k, spread, minimize, seed):
    rng = np.random.default_rng(seed)
    logits = rng.normal(size=(2, k)) * spread
    laws = np.exp(logits - logits.max(axis=1, keepdims=True))
    null, alt = laws / laws.sum(axis=1, keepdims=True)
    phi = intervals.neyman_pearson_test(null, alt, alpha, minimize=minimize)
    assert_probability(phi, "test")
    assert null @ phi == pytest.approx(min(alpha, null.sum()), abs=1e-12)
    power = intervals.neyman_pearson_power(null, alt, alpha, minimize=minimize)
    assert alt @ phi == pytest.approx(float(power), abs=1e-9)


@FUZZ
@given(st.lists(alphas, min_size=1, max_size=5), epsilons, st.floats(0.0, 1e4), st.floats(1e-3, 1e3))
def test_laplace_power(alpha, eps, shift, sens):
    most = intervals.laplace_power(alpha, eps, shift, sens)
    least = intervals.laplace_power(alpha, eps, shift, sens, minimize=True)
    assert_probability(most)
    assert_probability(least)
    a = np.asarray(alpha)
    assert (least <= a * (1 + 1e-12) + 1e-300).all() and (a <= most * (1 + 1e-12) + 1e-300).all()
    lo, hi = intervals.power_bounds(alpha, eps, shift / sens, sharp=True)
    assert (most <= hi * (1 + 1e-9) + 1e-300).all() and (lo <= least * (1 + 1e-9) + 1e-300).all()
    r = eps * shift / sens
    small = (a > 0) & (np.log(np.where(a > 0, a, 1.0)) - r > TINY + 1)
    assert (least[small] > 0).all()


@FUZZ
@given(st.lists(alphas, min_size=1, max_size=5), st.floats(0.05, 5.0), st.floats(0.0, 5.0), st.booleans())
def test_density_power(alpha, eps, shift, minimize):
    from scipy import stats

    t = np.linspace(-40.0 / eps, shift + 40.0 / eps, 4001)
    f0, f1 = stats.laplace(scale=1 / eps).pdf(t), stats.laplace(loc=shift, scale=1 / eps).pdf(t)
    power = intervals.density_power(t, f0, f1, alpha, minimize=minimize)
    assert_probability(power)
    exact = intervals.laplace_power(alpha, eps, shift, minimize=minimize)
    np.testing.assert_allclose(power, exact, atol=1e-3)


@FUZZ
@given(st.lists(st.floats(0.0, 1e300), min_size=1, max_size=5), epsilons, diameters)
def test_posterior_bounds(prior, eps, d):
    low, high = intervals.posterior_bounds(prior, eps, d)
    assert not np.isnan(low).any() and not np.isnan(high).any()
    p = np.asarray(prior)
    ed = math.inf if math.isinf(d) else eps * d
    with np.errstate(divide="ignore"):
        logs = np.log(p)
    assert (low[_representable(logs - ed) & (p > 0)] > 0).all()
    assert np.isfinite(high[_representable(logs + ed) | (p == 0)]).all()


releases = st.floats(-1e4, 1e4)
shapes = st.floats(1e-3, 1e3)


@FUZZ
@given(releases, shapes, shapes, epsilons, st.integers(0, 20), st.integers(1, 30))
def test_clamped_count_functions(t, shape, rate, eps, low, width):
    high = low + width
    m = intervals.clamped_count_predictive(t, shape, rate, eps, low, high)
    log_m = intervals.clamped_count_predictive(t, shape, rate, eps, low, high, log=True)
    assert_finite(log_m, "log m(t)")
    assert not np.isnan(m) and (m > 0 or not _representable(log_m))
    post = intervals.clamped_count_posterior([1e-3, 1.0, shape / rate, 100.0], t, shape, rate, eps, low, high)
    assert_finite(post, "posterior")
    mean = intervals.clamped_count_posterior_mean(t, shape, rate, eps, low, high)
    assert_finite(mean, "posterior mean")
    assert mean > 0
    lo, hi = intervals.clamped_count_ratio_range(t, shape, rate, eps, low, high)
    assert_finite([lo, hi], "ratio range")
    # Theorem 6.4 with d = 1
    assert lo >= math.exp(-eps) * (1 - 1e-9) and hi <= math.exp(eps) * (1 + 1e-9)


@pytest.mark.parametrize("call, name", [
    (lambda: intervals.multiplicative_distance([1.0, np.nan], [1.0, 1.0]), "mu"),
    (lambda: intervals.multiplicative_distance([1.0], [-1.0]), "nu"),
    (lambda: intervals.lipschitz_loss([[0.5, 0.5]], [[0.0, 1.0]]), "distances"),
    (lambda: intervals.lipschitz_loss([[0.5, -0.5]], [[0.0]]), "P"),
    (lambda: intervals.lipschitz_loss([[0.7], [0.2]], [[0.0, 1.0], [1.0, 0.0]]), "P"),   # rows must be laws
    (lambda: intervals.lipschitz_loss([[0.5, 0.5], [0.2, 0.8]], [[0.0, 1.0], [2.0, 0.0]]), "distances"),
    (lambda: intervals.density_bounds([[1.0]], [1.0, 2.0], 1.0), "epsilon"),
    (lambda: intervals.density_bounds([[1.0]], 1.0, -1.0), "diameter"),
    (lambda: intervals.density_bounds([[1.0]], np.inf, 1.0), "epsilon"),
    (lambda: intervals.laplace_sum_bounds(0.0, 2.5, 1.0), "n"),
    (lambda: intervals.laplace_sum_bounds(0.0, 5, [1.0, 2.0]), "epsilon"),
    (lambda: intervals.laplace_sum_bounds(np.nan, 5, 1.0), "t"),
    (lambda: intervals.laplace_sum_marginal(0.0, [0.5, 0.6], 1.0), "weights"),
    (lambda: intervals.laplace_sum_marginal(0.0, [0.5, 0.5], 0.0), "epsilon"),
    (lambda: intervals.laplace_sum_marginal(0.0, [0.5, 0.5], 1.0, sensitivity=-1.0), "sensitivity"),
    (lambda: intervals.laplace_sum_marginal(0.0, [0.5, 0.5], 1.0, centres=[1.0, 0.0]), "centres"),
    (lambda: intervals.randomized_response_bounds(0.5, 1.0), "n"),
    (lambda: intervals.randomized_response_bounds(3, "1"), "epsilon"),
    (lambda: intervals.power_bounds([0.1, 1.1], 1.0, 1.0), "alpha"),
    (lambda: intervals.power_bounds(0.1, -1.0, 1.0), "epsilon"),
    (lambda: intervals.power_bounds(0.1, 1.0, 1.0, sharp="yes"), "sharp"),
    (lambda: intervals.neyman_pearson_power([0.5, 0.5], [0.2, 0.8], 2.0), "alpha"),
    (lambda: intervals.neyman_pearson_power([0.5, 0.6], [0.2, 0.8], 0.1), "null"),
    (lambda: intervals.neyman_pearson_test([0.5, 0.5], [0.2, 0.8], [0.1, 0.2]), "alpha"),
    (lambda: intervals.neyman_pearson_test([0.5, 0.5], [0.2, 0.7], 0.1), "alt"),
    (lambda: intervals.laplace_power(0.1, 1.0, -1.0), "shift"),
    (lambda: intervals.laplace_power(0.1, 1.0, 1.0, 0.0), "sensitivity"),
    (lambda: intervals.laplace_power(0.1, [1.0], 1.0), "epsilon"),
    (lambda: intervals.density_power([0.0, 1.0], [1.0, 1.0], [1.0, 1.0, 1.0], 0.1), "null"),
    (lambda: intervals.density_power([1.0, 0.0], [1.0, 1.0], [1.0, 1.0], 0.1), "t"),
    (lambda: intervals.density_power([0.0, 1.0], [0.1, 0.1], [1.0, 1.0], 0.1), "null"),
    (lambda: intervals.posterior_bounds([-1.0], 1.0, 1.0), "prior_density"),
    (lambda: intervals.posterior_bounds([1.0], 1.0, np.array([1.0, 2.0])), "diameter"),
    (lambda: intervals.clamped_count_predictive(0.0, shape=0.0), "shape"),
    (lambda: intervals.clamped_count_predictive(0.0, rate=[1.0, 2.0]), "rate"),
    (lambda: intervals.clamped_count_predictive(0.0, low=3, high=3), "high"),
    (lambda: intervals.clamped_count_posterior([1.0], [1.0, 2.0]), "t"),
    (lambda: intervals.clamped_count_posterior([-1.0], 1.0), "theta"),
    (lambda: intervals.clamped_count_posterior_mean(1.0, epsilon=0.0), "epsilon"),
    (lambda: intervals.clamped_count_ratio_range(np.zeros(10**4 + 1)), "t"),
    (lambda: intervals.clamped_count_ratio_range(1.0, low=-1), "low"),
])
def test_invalid_input_is_named(call, name):
    assert_rejects(call, name=name)


def test_mixtures_refuse_sizes_they_cannot_hold():
    assert_rejects(lambda: intervals.lipschitz_loss(np.full((10**4, 2), 0.5), np.zeros((10**4, 10**4))), name="P")
