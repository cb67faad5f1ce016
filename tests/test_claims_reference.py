"""The ledger computes a claim's reference functions once and its mutant runs reuse them."""

import numpy as np

from privlib.verify import claims


def test_reference_is_computed_once_per_claim_and_reused_by_mutants():
    calls = []

    @claims.reference
    def slow_sum(values):
        calls.append(1)
        return [float(np.sum(values))]

    assert slow_sum(np.arange(3.0)) == [3.0] and slow_sum(np.arange(3.0)) == [3.0]
    assert len(calls) == 2  # outside the ledger: no store
    calls.clear()
    with claims._shared_references():
        first = slow_sum(np.arange(3.0))
        first.append("changed by the caller")      # the stored value is a copy
        assert slow_sum(np.arange(3.0)) == [3.0]
        assert slow_sum(np.arange(4.0)) == [6.0]   # other arguments: computed
        assert len(calls) == 2
        claims._MUTATING = True
        try:
            assert slow_sum(np.arange(5.0)) == [10.0]
            assert slow_sum(np.arange(5.0)) == [10.0]  # a mutant run never stores
        finally:
            claims._MUTATING = False
        assert len(calls) == 4
    with claims._shared_references():              # a new claim: nothing stored
        slow_sum(np.arange(3.0))
    assert len(calls) == 5


def test_reference_is_not_stored_under_an_object_argument():
    calls = []

    @claims.reference
    def draw(rng):
        calls.append(1)
        return rng.random()

    with claims._shared_references():
        rng = np.random.default_rng(0)
        assert draw(rng) != draw(rng)              # a generator is not a value: every call runs
    assert len(calls) == 2


def test_reference_is_not_stored_under_a_large_array():
    """Keying an array copies its bytes twice per call: beyond ``_LARGEST_KEY`` the call runs."""
    calls = []

    @claims.reference
    def total(values):
        calls.append(1)
        return float(np.sum(values))

    small = np.ones(claims._LARGEST_KEY // 8)
    large = np.ones(claims._LARGEST_KEY // 8 + 1)
    with claims._shared_references():
        assert total(small) == total(small) == small.size
        assert len(calls) == 1                     # stored once, reused
        assert total(large) == total(large) == large.size
        assert len(calls) == 3                     # every call runs
