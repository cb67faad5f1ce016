"""Unit tests for privlib.mechanisms: densities against scipy.stats, normalisation, sampling."""

import numpy as np
import pytest
from scipy import integrate, stats

from privlib import mechanisms


def test_laplace_logpdf_matches_scipy():
    mech = mechanisms.LaplaceMechanism(epsilon=0.7, sensitivity=2.0)
    y = np.linspace(-10, 10, 41)
    expected = stats.laplace.logpdf(y, loc=1.5, scale=2.0 / 0.7)
    np.testing.assert_allclose(mech.logpdf(y, 1.5), expected, rtol=1e-12)


def test_gaussian_pdf_integrates_to_one():
    mech = mechanisms.GaussianMechanism(sigma=0.3)
    total, _ = integrate.quad(lambda y: float(mech.pdf(y, 2.0)), -np.inf, np.inf)
    assert total == pytest.approx(1.0, abs=1e-10)


def test_randomized_response_matrix_is_stochastic_and_eps_dp():
    rr = mechanisms.RandomizedResponse(epsilon=1.3, k=5)
    m = rr.matrix()
    np.testing.assert_allclose(m.sum(axis=1), 1.0, rtol=1e-14)
    ratios = m[:, None, :] / m[None, :, :]
    assert np.log(ratios).max() == pytest.approx(1.3, rel=1e-12)


def test_randomized_response_large_epsilon_does_not_overflow():
    rr = mechanisms.RandomizedResponse(epsilon=800.0, k=3)
    assert rr.p_truth == 1.0 and np.isfinite(rr.matrix()).all()


def test_randomized_response_sampling_frequencies():
    rr = mechanisms.RandomizedResponse(epsilon=1.0, k=3)
    out = rr.sample(np.zeros(200_000, dtype=int), rng=3)
    freq = np.bincount(out, minlength=3) / out.size
    # 5 standard errors of a proportion from 2e5 draws is below 0.006
    np.testing.assert_allclose(freq, rr.matrix()[0], atol=0.006)


def test_geometric_pmf_sums_to_one_and_matches_sampling():
    mech = mechanisms.GeometricMechanism(epsilon=0.8)
    z = np.arange(-300, 301)
    assert mech.pmf(z).sum() == pytest.approx(1.0, abs=1e-12)
    draws = mech.sample(0, size=200_000, rng=5)
    for value in (0, 1, -2):
        assert np.mean(draws == value) == pytest.approx(float(mech.pmf(value)), abs=0.006)


@pytest.mark.parametrize(
    "factory, message",
    [
        (lambda: mechanisms.LaplaceMechanism(epsilon=0.0), "epsilon must lie in"),
        (lambda: mechanisms.LaplaceMechanism(epsilon=float("nan")), "epsilon must not contain NaN"),
        (lambda: mechanisms.GaussianMechanism(sigma=-1.0), "sigma must lie in"),
        (lambda: mechanisms.RandomizedResponse(epsilon=1.0, k=1), "k must be an integer in"),
        (lambda: mechanisms.GeometricMechanism(epsilon=1.0, sensitivity=0), "sensitivity must be an integer in"),
    ],
)
def test_bad_parameters_raise_value_error(factory, message):
    with pytest.raises(ValueError, match=message):
        factory()


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError, match="epsilon"):
        mechanisms.LaplaceMechanism(epsilon="1")
    with pytest.raises(TypeError, match="k must be an integer"):
        mechanisms.RandomizedResponse(epsilon=1.0, k=2.5)
    with pytest.raises(ValueError, match="x must hold integer symbols"):
        mechanisms.RandomizedResponse(epsilon=1.0, k=2).sample(np.array([0, 2]))
