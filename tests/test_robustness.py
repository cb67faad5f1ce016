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
