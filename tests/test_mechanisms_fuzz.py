"""Fuzz layer for privlib.mechanisms: densities and pmfs finite and normalised at extreme
parameters; parameters that must be single numbers refuse arrays; invalid values name the
argument."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from fuzzing import FUZZ, assert_finite, assert_probability, assert_rejects, epsilons
from privlib import mechanisms


@FUZZ
@given(eps=epsilons, sens=st.floats(1e-6, 1e6), y=st.floats(-1e6, 1e6), value=st.floats(-1e6, 1e6))
def test_laplace_and_gaussian(eps, sens, y, value):
    lap = mechanisms.LaplaceMechanism(eps, sens)
    assert_finite(lap.logpdf(y, value))
    assert_probability(lap.cdf(y, value))
    gauss = mechanisms.GaussianMechanism(sens / eps if sens / eps < 1e300 else 1e300, sens)
    assert_finite(gauss.logpdf(y, value))
    assert_probability(gauss.cdf(y, value))
    assert_finite(lap.sample(value, size=3, rng=0))
    assert_finite(gauss.sample(value, size=3, rng=0))


@FUZZ
@given(eps=epsilons, k=st.integers(2, 50))
def test_randomized_response(eps, k):
    rr = mechanisms.RandomizedResponse(eps, k)
    m = rr.matrix()
    assert_probability(m)
    np.testing.assert_allclose(m.sum(axis=1), 1.0, rtol=1e-12)
    assert_finite(rr.logpmf(np.arange(k), 0))
    assert ((rr.sample(np.arange(k), rng=1) >= 0) & (rr.sample(np.arange(k), rng=1) < k)).all()


@FUZZ
@given(eps=epsilons, sens=st.integers(1, 100), value=st.integers(-10**6, 10**6))
def test_geometric(eps, sens, value):
    geo = mechanisms.GeometricMechanism(eps, sens)
    z = np.arange(-50, 51)
    p = geo.pmf(value + z, value)
    assert_probability(p)
    assert p.sum() <= 1 + 1e-12
    out = geo.sample(value, size=5, rng=2)
    assert np.issubdtype(out.dtype, np.integer)


def test_invalid_inputs_name_the_argument():
    assert_rejects(mechanisms.LaplaceMechanism, [1.0, 2.0], name="epsilon")
    assert_rejects(mechanisms.LaplaceMechanism, 1.0, np.inf, name="sensitivity")
    assert_rejects(mechanisms.GaussianMechanism, 0.0, name="sigma")
    assert_rejects(mechanisms.GaussianMechanism, np.array([1.0]), name="sigma")
    assert_rejects(mechanisms.RandomizedResponse, np.nan, 3, name="epsilon")
    assert_rejects(mechanisms.RandomizedResponse, 1.0, 2.5, name="k")
    assert_rejects(mechanisms.GeometricMechanism, True, name="epsilon")
    assert_rejects(mechanisms.GeometricMechanism(1.0).sample, 0.5, name="value")
    assert_rejects(mechanisms.GeometricMechanism(1.0).logpmf, 0.5, name="y")
    assert_rejects(mechanisms.LaplaceMechanism(1.0).logpdf, np.nan, name="y")
    assert_rejects(mechanisms.LaplaceMechanism(1.0).sample, 0.0, 3, "seed", name="rng")
    assert_rejects(mechanisms.RandomizedResponse(1.0, 3).sample, [0, 3], name="x")
