"""Fuzz layer for privlib.profiles: privacy curves are probabilities, non-increasing in epsilon,
never NaN on valid inputs at the extremes; invalid inputs raise errors naming the argument."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzing import FUZZ, assert_finite, assert_probability, assert_rejects, epsilons
from privlib import profiles

mus = st.floats(1e-6, 50.0)
pmf_sizes = st.integers(1, 60)


@st.composite
def pmf_pairs(draw):
    k = draw(pmf_sizes)
    raw = draw(st.lists(st.floats(0.0, 1.0), min_size=2 * k, max_size=2 * k))
    tiny = draw(st.sampled_from([0.0, 1e-300, 1e-30, 1e-12]))
    a = np.array(raw[:k]) + tiny
    b = np.array(raw[k:]) + tiny
    if a.sum() == 0 or b.sum() == 0:
        a, b = a + 1.0, b + 1.0
    return a / a.sum(), b / b.sum()


@FUZZ
@given(pair=pmf_pairs(), eps=st.lists(st.floats(-5.0, 60.0), min_size=1, max_size=8))
def test_hockey_stick_is_a_nonincreasing_probability(pair, eps):
    p, q = pair
    grid = np.sort(np.r_[eps, np.inf])
    d = profiles.hockey_stick(p, q, grid)
    assert_probability(d, "hockey stick")
    assert (np.diff(d) <= 1e-12).all()
    assert d[-1] == p[q == 0].sum()
    brute = np.array([np.maximum(p - np.exp(e) * q, 0.0).sum() for e in grid[:-1]])
    np.testing.assert_allclose(d[:-1], brute, atol=1e-13)


@FUZZ
@given(eps=epsilons, mu=mus, eps0=st.floats(1e-6, 50.0))
def test_closed_form_curves(eps, mu, eps0):
    g = profiles.gaussian_delta(eps, mu)
    assert_probability(g, "gaussian delta")
    assert_probability(profiles.laplace_delta(eps, eps0), "laplace delta")
    assert_finite(profiles.laplace_epsilon(0.5, eps0))
    if 1e-300 < g < 0.5:
        back = float(profiles.gaussian_epsilon(g, mu))
        assert abs(back - eps) <= 1e-7 * max(1.0, eps)


def test_invalid_inputs_name_the_argument():
    assert_rejects(profiles.gaussian_delta, -1.0, 1.0, name="epsilon")
    assert_rejects(profiles.gaussian_delta, 1.0, 0.0, name="mu")
    assert_rejects(profiles.gaussian_epsilon, 0.1, [1.0, 2.0], name="mu")
    assert_rejects(profiles.laplace_delta, 1.0, np.nan, name="mechanism_epsilon")
    assert_rejects(profiles.hockey_stick, [0.5, 0.5], [0.5, 0.6], 0.0, name="q")
    assert_rejects(profiles.hockey_stick, [0.5, 0.5], [0.5, 0.5], -np.inf, name="epsilon")
    assert_rejects(profiles.privacy_loss, None, [1.0], name="p")
    assert_rejects(profiles.epsilon_for_delta, lambda e: 0.5, 0.1, xtol=np.inf, name="xtol")
    assert_rejects(profiles.epsilon_for_delta, lambda e: 0.5, 0.1, epsilon_max=-1.0, name="epsilon_max")
    assert_rejects(profiles.epsilon_for_delta, "curve", 0.1, name="curve")
    assert_rejects(profiles.neyman_pearson_power, [0.5, 0.5], [1.0, 0.0], 2.0, name="alpha")


@FUZZ
@given(pair=pmf_pairs(), eps=st.floats(0.0, 40.0))
def test_batched_and_log_space_hockey_sticks_agree_with_the_single_pair(pair, eps):
    p, q = pair
    one = float(profiles.hockey_stick(p, q, eps))
    rows = profiles.hockey_stick_rows(np.stack([p, q]), np.stack([q, p]), eps)
    assert rows.shape == (2,)
    np.testing.assert_allclose(rows[0], one, atol=1e-13)
    with np.errstate(divide="ignore"):
        log_d = float(profiles.log_hockey_stick(np.log(p), np.log(q), eps))
    assert not np.isnan(log_d)
    if one > 1e-200:
        np.testing.assert_allclose(np.exp(log_d), one, rtol=1e-9, atol=1e-13)


def test_log_hockey_stick_keeps_deltas_below_the_smallest_double():
    # two outputs, loss 2000 on the first: delta = p1 (1 - e^(eps - 2000)) with p1 = e^-1000
    lp = np.array([-1000.0, 0.0])
    lq = np.array([-3000.0, 0.0])
    assert float(profiles.log_hockey_stick(lp, lq, 1.0)) == pytest.approx(-1000.0 + np.log1p(-np.exp(1.0 - 2000.0)))
    assert profiles.log_hockey_stick(lp, lq, [2500.0]) == -np.inf
    assert_rejects(profiles.log_hockey_stick, lp, lq[:1], 1.0, name="log_p")
    assert_rejects(profiles.hockey_stick_rows, [[0.5, 0.5]], [[0.5, 0.5]], [1.0, 2.0], name="epsilon")
    assert_rejects(profiles.log_privacy_loss, [0.0], [0.0, 0.0], name="log_p")
