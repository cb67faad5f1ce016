"""A claim's ``checks`` names only privlib functions the claim really calls: each claim runs once
with every function it lists wrapped to record its calls (directly or through other privlib
functions), and a listed function that was never called fails the test."""

import contextlib
import functools

import numpy as np
import pytest

from privlib.verify import claims

CLAIMS = claims.registry()


def _recording(target: str, called: set[str]):
    def make(original):
        @functools.wraps(original)
        def wrapper(*args, **kwargs):
            called.add(target)
            return original(*args, **kwargs)
        return wrapper
    return make


def calls_of(claim: claims.Claim) -> tuple[set[str], claims.ClaimResult]:
    """The functions of ``claim.checks`` called while the claim runs at its default inputs."""
    called: set[str] = set()
    with contextlib.ExitStack() as stack:
        for target in claim.checks:
            stack.enter_context(claims._replaced(target, _recording(target, called)))
        with np.errstate(all="ignore"):
            result = claim()
    return called, result


@pytest.mark.parametrize("claim", [c for c in CLAIMS if c.checks], ids=lambda c: c.id)
def test_claim_calls_every_function_it_lists(claim):
    called, result = calls_of(claim)
    assert result.passed, f"{claim.id} fails with its checked functions wrapped"
    never = [t for t in claim.checks if t not in called]
    assert not never, f"{claim.id} lists {never} in checks but never calls them"


def test_the_recorder_sees_a_function_that_is_not_called():
    """The test above can fail: a claim that checks ``intervals.posterior_bounds`` does not
    call ``intervals.power_bounds``."""
    c = claims.get("000/thm-6-4")
    called: set[str] = set()
    with claims._replaced("intervals.power_bounds", _recording("intervals.power_bounds", called)), \
            claims._replaced("intervals.posterior_bounds", _recording("intervals.posterior_bounds", called)):
        c()
    assert called == {"intervals.posterior_bounds"}
