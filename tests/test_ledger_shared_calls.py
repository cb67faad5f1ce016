"""The ledger reuses, in a claim's mutant runs, the values of calls that did not reach the mutant's
target in the claim's unmutated run; a call that reached it is recomputed, so every mutant still
meets the mutated code."""

import sys
import types

from privlib import claims
from privlib.verify import ledger

SOURCE = '''
from privlib import profiles

def via_target(x):
    return float(profiles.hockey_stick([0.5, 0.5], [0.5, 0.5], 0.0)) + x

CALLS = []

def plain(x):
    CALLS.append(x)
    return 2.0 * x
'''


def test_calls_that_reach_a_target_are_recomputed_the_others_reused(monkeypatch):
    module = types.ModuleType("privlib.verify._toy_shared_calls")
    exec(SOURCE, module.__dict__)  # a claim module's functions (their __module__ is under privlib.verify)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    plain = module.plain
    c = claims.Claim("curves/toy-shared", "curves", "toy", "s", "m", "verified",
                     lambda: claims.close(module.via_target(module.plain(1.0)), 2.0, atol=1e-12))
    c.mutant("profiles.hockey_stick", "adds one")(lambda f: (lambda *a, **k: f(*a, **k) + 1.0))
    with claims._shared_references():
        with ledger._shared_calls(c, record=True):
            assert c().passed
        reached = {key[2]: targets for key, (_, targets) in claims._REFERENCES.items() if key[0] == "call"}
        assert reached["plain"] == frozenset()
        assert reached["via_target"] == {"profiles.hockey_stick"}  # recomputed by that target's mutants
        assert "hockey_stick" not in reached  # a mutant target is never stored
        with ledger._shared_calls(c, record=False):
            outcome = c.mutation_test()[0]
    assert outcome.killed and outcome.how == "FAILED"
    assert module.CALLS == [1.0]  # the mutant run reused plain's value
    assert module.plain is plain and module.via_target.__name__ == "via_target"  # restored
