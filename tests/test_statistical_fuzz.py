"""Fuzz layer for privlib.statistical: valid inputs at the extremes (n up to 10^7 or 10^12, eps in
[1e-12, 50], pi in [1e-12, 1 - 1e-12]) give probabilities, never NaN, and no silent zero where
the value is representable; invalid inputs raise errors naming the argument."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from fuzzing import FUZZ, assert_finite, assert_probability, assert_rejects, epsilons, probabilities, sizes
from privlib import statistical

big_sizes = st.sampled_from([2, 3, 10, 1000, 10**6, 10**8, 10**10])


@FUZZ
@given(n=big_sizes, frac=st.floats(0.0, 1.0), pi=probabilities, eps=epsilons)
def test_subsampling_and_pure_deltas(n, frac, pi, eps):
    m = max(1, min(n, int(round(frac * n))))
    d = statistical.subsampling_delta(eps, n, m, pi)
    assert_probability(d, "subsampling delta")
    log_d = statistical.log_subsampling_delta(eps, n, m, pi)
    assert not np.isnan(log_d) and log_d <= 1e-12
    if log_d > -700:
        assert d > 0, "silent zero"
        assert np.log(d) == np.float64(log_d) or abs(np.log(d) - log_d) <= 1e-9 * abs(log_d) + 1e-12
    p = statistical.pure_delta(eps, n, pi)
    assert_probability(p, "pure delta")
    floor = max((n - 1) * np.log(pi), (n - 1) * np.log1p(-pi))
    assert statistical.log_pure_delta(eps, n, pi) >= floor - 1e-9 * abs(floor) - 1e-12


@FUZZ
@given(n=st.sampled_from([2, 3, 10, 1000, 10**5]), pi=probabilities, eps=epsilons,
       nu=st.floats(1e-3, 1e3), noise=st.sampled_from(["gaussian", "laplace"]))
def test_noise_delta(n, pi, eps, nu, noise):
    d = statistical.noise_delta(eps, n, pi, nu / n, noise)
    assert_probability(d, "noise delta")
    assert d <= float(statistical.dp_delta(eps, nu, noise)) + 1e-9


@FUZZ
@given(n=sizes, pi=probabilities, eps=epsilons, nu=st.floats(1e-6, 1e6))
def test_closed_forms(n, pi, eps, nu):
    n = max(n, 2)
    m = max(1, n // 3)
    assert_probability(statistical.dp_delta(eps, nu), "dp delta")
    assert_probability(statistical.normal_approx_delta(eps, n, pi, nu / n), "normal approximation")
    assert_probability(statistical.lemma10_delta(eps, n, m, pi), "lemma 10 delta")
    assert_finite(statistical.chernoff_rate(eps, pi), "chernoff rate")
    assert statistical.chernoff_rate(eps, pi) >= 0
    for value in (statistical.subsampling_utility_loss(n, m, pi), statistical.statistical_utility_loss(n, m, pi),
                  statistical.lemma10_noise_level(n, m, pi), statistical.amplified_epsilon(eps, m / n)):
        assert_finite(value)
    assert statistical.amplified_epsilon(eps, m / n) <= eps * (1 + 1e-12)


@FUZZ
@given(n=st.sampled_from([2, 5, 40, 300]), frac=st.floats(0.0, 1.0), pi=probabilities, eps=epsilons,
       printed=st.booleans())
def test_theorem_closed_forms(n, frac, pi, eps, printed):
    m = max(1, min(n, int(round(frac * n))))
    j_plus, j_minus = statistical.theorem_thresholds(eps, n, m, pi, printed=printed)
    assert_finite([j_plus, j_minus])
    plus, minus = statistical.theorem_deltas(eps, n, m, pi, printed=printed)
    assert_finite([plus, minus])
    if not printed:
        assert abs(max(plus, minus) - float(statistical.subsampling_delta(eps, n, m, pi))) <= 1e-9
    ratio = statistical.likelihood_ratio(np.arange(m), n, m, pi)
    assert not np.isnan(ratio).any() and (np.diff(ratio) >= 0).all()


def test_invalid_inputs_name_the_argument():
    assert_rejects(statistical.pure_delta, -0.1, 10, 0.5, name="epsilon")
    assert_rejects(statistical.pure_delta, np.nan, 10, 0.5, name="epsilon")
    assert_rejects(statistical.pure_delta, 0.1, [10, 20], 0.5, name="n")
    assert_rejects(statistical.pure_delta, 0.1, 10, [0.2, 0.3], name="pi")
    assert_rejects(statistical.pure_delta, 0.1, 10, 0.0, name="pi")
    assert_rejects(statistical.subsampling_delta, 0.1, 10, 0, 0.5, name="m")
    assert_rejects(statistical.subsampling_delta, 0.1, 10**13, 10, 0.5, name="n")
    assert_rejects(statistical.noise_delta, 0.1, 10, 0.5, np.inf, name="scale")
    assert_rejects(statistical.noise_delta, 0.1, 10, 0.5, [0.1, 0.2], name="scale")
    assert_rejects(statistical.noise_delta, 0.1, 10, 0.5, 0.1, "cauchy", name="noise")
    assert_rejects(statistical.dp_delta, 0.1, None, name="nu")
    assert_rejects(statistical.theorem_deltas, 0.1, 10**8, 10**8, 0.5, name="m")  # summands of 10^8 outputs: refused
    assert_rejects(statistical.log_binomial_pmf, 1.5, 10, 0.5, name="k")
    assert_rejects(statistical.output_densities, np.zeros(10**5), 10**7, 0.5, 0.1, name="t")
    assert_rejects(statistical.chernoff_rate, 0.1, 1.0, name="pi")
    assert_rejects(statistical.lemma10_delta, 0.1, 100, 200, 0.5, name="m")
