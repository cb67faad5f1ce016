"""Shared pieces of the fuzz layer (tests/test_*_fuzz.py): strategies for valid inputs at the
extremes and the properties every public function must keep on them.

Valid inputs at the extremes never give NaN, an infinity where the value is finite, a
probability outside [0, 1], or a silent 0 where the value is representable; invalid inputs raise
ValueError/TypeError naming the argument. Each fuzz test is bounded in time (few examples,
derandomized in CI by the profile in conftest.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st

#: settings for one fuzz test: a bounded number of examples, no per-example deadline
FUZZ = settings(max_examples=60, deadline=None)

epsilons = st.floats(1e-12, 50.0)
small_epsilons = st.sampled_from([1e-12, 1e-8, 1e-3])
probabilities = st.floats(1e-12, 1.0 - 1e-12)
sizes = st.sampled_from([1, 2, 3, 10, 100, 10**4, 10**6, 10**7])


def assert_finite(value, what="value"):
    arr = np.asarray(value, dtype=float)
    assert not np.isnan(arr).any(), f"{what} is NaN"
    assert np.isfinite(arr).all(), f"{what} is infinite where it is finite"


def assert_probability(value, what="probability"):
    arr = np.asarray(value, dtype=float)
    assert not np.isnan(arr).any(), f"{what} is NaN"
    assert ((arr >= 0) & (arr <= 1)).all(), f"{what} outside [0, 1]: {arr[(arr < 0) | (arr > 1)][:3]}"


def assert_rejects(func, *args, name: str, **kwargs):
    """``func(*args, **kwargs)`` raises ValueError or TypeError whose message names ``name``."""
    with pytest.raises((ValueError, TypeError)) as info:
        func(*args, **kwargs)
    assert name in str(info.value), f"the error does not name {name!r}: {info.value}"
