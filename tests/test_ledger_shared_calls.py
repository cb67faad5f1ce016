"""The ledger reuses, in a claim's mutant runs, the values of calls that did not reach the mutant's
target in the claim's unmutated run; a call that reached it is recomputed, so every mutant still
meets the mutated code."""

import sys
import types

from privlib import claims, profiles
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


CONSTANT_SOURCE = '''
from privlib import profiles

LIMIT = 10

def route(x):
    return float(profiles.hockey_stick([0.5, 0.5], [0.5, 0.5], 0.0)) + x if LIMIT else -1.0
'''


def test_a_patched_module_constant_is_part_of_the_key(monkeypatch):
    module = types.ModuleType("privlib.verify._toy_shared_constant")
    exec(CONSTANT_SOURCE, module.__dict__)
    monkeypatch.setitem(sys.modules, module.__name__, module)

    def check():
        plain = module.route(1.0)
        monkeypatch.setattr(module, "LIMIT", 0)  # the same call, another route (as mock.patch.object does)
        other = module.route(1.0)
        monkeypatch.setattr(module, "LIMIT", 10)
        return claims.close([plain, other], [1.0, -1.0], atol=0.0)

    c = claims.Claim("curves/toy-constant", "curves", "toy", "s", "m", "verified", check)
    c.mutant("profiles.hockey_stick", "adds one")(lambda f: (lambda *a, **k: f(*a, **k) + 1.0))
    with claims._shared_references():
        with ledger._shared_calls(c, record=True):
            assert c().passed
        with ledger._shared_calls(c, record=False):
            assert c.mutation_test()[0].killed


#: claims whose runs share much: a constant patched between two equal calls and three mutant targets
#: (004/thm-4-1), quadrature routes (curves), seven mutants of four targets (001/thm-10)
SHARING_CLAIMS = ("004/thm-4-1", "curves/gaussian-closed-form", "001/thm-10")


def test_sharing_leaves_every_verdict_as_it_is(monkeypatch):
    """The ledger's verdicts with sharing (the default) and with every run recomputed agree."""
    def verdicts(entries):
        return [(e.result.id, e.result.status, e.result.evidence.verdict(),
                 [(m.target, m.description, m.killed, m.how) for m in e.mutants]) for e in entries]

    chosen = [claims.get(i) for i in SHARING_CLAIMS]
    monkeypatch.setattr(claims, "registry", lambda paper=None: chosen)
    shared = verdicts(ledger.ledger_entries())
    assert [v[0] for v in shared] == list(SHARING_CLAIMS)
    assert shared == verdicts(ledger.ledger_entries(shared=False))


def test_a_mutant_run_stops_at_its_first_failed_check():
    """A mutant is killed when one check fails: its run ends there (what follows is not computed),
    the record says FAILED, and no ``except Exception`` in a claim can swallow the stop."""
    later = []

    def check():
        first = claims.close(float(profiles.hockey_stick([0.5, 0.5], [0.5, 0.5], 0.0)), 0.0, atol=1e-12)
        try:
            second = claims.holds(later.append(1) is None)
        except Exception:  # noqa: BLE001 - a claim's own handler must not hide the failed check
            second = claims.holds(True)
        return claims.all_of(first, second)

    c = claims.Claim("curves/toy-stop", "curves", "toy", "s", "m", "verified", check)
    c.mutant("profiles.hockey_stick", "adds one")(lambda f: (lambda *a, **k: f(*a, **k) + 1.0))
    assert c().passed and later == [1]
    outcome = c.mutation_test()[0]
    assert outcome.killed and outcome.how == "FAILED"
    assert later == [1]  # the mutant run ended at the failed first check
    assert not claims._MUTATING  # and the run's state is restored


def test_an_early_check_stops_a_mutant_run_and_changes_no_record():
    """``claims.early`` checks the values gathered so far in a mutant run only: a mutant the
    first values expose ends the run there (FAILED); outside mutant runs it does nothing, even
    where the check would fail, so the record is that of the claim's own checks."""
    later = []

    def check():
        first = [float(profiles.hockey_stick([0.5, 0.5], [0.5, 0.5], 0.0))]
        claims.early(claims.close, first, [0.0], atol=1e-12)
        claims.early(claims.close, [1.0], [0.0], atol=1e-12)   # fails: ignored outside mutant runs
        later.append(1)
        return claims.close(first, [0.0], atol=1e-12)

    c = claims.Claim("curves/toy-early", "curves", "toy", "s", "m", "verified", check)
    c.mutant("profiles.hockey_stick", "adds one")(lambda f: (lambda *a, **k: f(*a, **k) + 1.0))
    record = c()
    assert record.passed and later == [1] and record.evidence.count == 1
    outcome = c.mutation_test()[0]
    assert outcome.killed and outcome.how == "FAILED"
    assert later == [1]  # the mutant run ended at the early check
