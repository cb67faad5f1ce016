"""The tooling of issue 23's first items, checked cheaply: the committed list of branches no claim
takes (every entry names a real function and gives a reason), the mutation report's tally, and
the ledger's rendering of a report. The measurements themselves run in CI as
`make coverage-claims` and `make mutation-sample`."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import coverage_claims  # noqa: E402
import mutation  # noqa: E402

from privlib.book import mutation_report  # noqa: E402


def _functions(path: Path) -> set[str]:
    """Qualified names of the functions of a module, as coverage.py names them."""
    names: set[str] = set()

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    names.add(name)
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(path.read_text()), "")
    return names


def test_every_uncovered_entry_names_a_function_and_a_reason():
    entries = coverage_claims.read_uncovered()
    assert entries, "the list of uncovered branches is empty or missing"
    for (path, name), (count, reason) in entries.items():
        assert (ROOT / path).exists(), path
        assert name in _functions(ROOT / path) or name == "(module)", f"{path}: no function {name}"
        assert count >= 1
        assert reason and reason != coverage_claims.NO_REASON, f"{path} {name}: no reason"


def test_equivalent_mutants_have_reasons():
    for name, reason in mutation.read_triage().items():
        assert name.startswith("privlib.") and "__mutmut_" in name, name
        assert len(reason) > 10, f"{name}: the reason must say why no input tells it apart"


def test_tally_counts_each_mutant_once():
    codes = {"privlib.core.profiles.x_f__mutmut_1": 1, "privlib.core.profiles.x_f__mutmut_2": 0,
             "privlib.core.profiles.x_f__mutmut_3": 33, "privlib.papers.minimax.x_g__mutmut_1": None,
             "privlib.papers.minimax.x_g__mutmut_2": 0}
    counts = mutation.tally(codes, {"privlib.papers.minimax.x_g__mutmut_2": "same output"})
    assert counts["core/profiles"] == {"generated": 3, "killed_by_claims": 1, "surviving": 2, "no_claim_runs_it": 1}
    assert counts["papers/minimax"] == {"generated": 2, "not_run": 1, "equivalent": 1}


def test_ledger_tables_render_with_and_without_a_report(tmp_path):
    missing = tmp_path / "none.json"
    assert "no report" in mutation_report.table(missing).text
    report = {"modules": [{"module": "core/profiles", "generated": 3, "killed_by_claims": 1, "equivalent": 0,
                           "surviving": 2, "no_claim_runs_it": 1, "not_run": 0}],
              "total": {"module": "total", "generated": 3, "killed_by_claims": 1, "equivalent": 0,
                        "surviving": 2, "no_claim_runs_it": 1, "not_run": 0},
              "equivalent": [], "surviving": [],
              "sample": {"seed": 23, "size": 3, "generated": 3, "killed_by_claims": 1, "equivalent": 0,
                         "not_killed": 2, "by_module": {"core/profiles": {"no_claim_runs_it": 1}}}}
    path = tmp_path / "mutation.json"
    path.write_text(json.dumps(report))
    assert "| core/profiles | 3 | 1 |" in mutation_report.table(path).text
    assert "none triaged" in mutation_report.equivalent_table(path).text
    assert "3 of the 3 generated mutants" in mutation_report.sample_text(path).text


@pytest.mark.parametrize("name, module", [("privlib.core.profiles.x_hockey_stick__mutmut_3", "core/profiles"),
                                          ("privlib.papers.leakage.xǁCǁm__mutmut_1", "papers/leakage")])
def test_module_of_a_mutant(name, module):
    assert mutation.module_of(name) == module


def test_a_triage_line_names_its_edit_and_a_renumbered_mutant_is_caught(tmp_path, monkeypatch):
    module = tmp_path / "mutants" / "privlib" / "core" / "m.py"
    module.parent.mkdir(parents=True)
    module.write_text("def x_f__mutmut_orig(p):\n    return p > 0\n\n"
                      "def x_f__mutmut_1(p):\n    return p >= 0\n\n"
                      "def x_f__mutmut_2(p):\n    return p > 1\n")
    edits = mutation.mutant_edits(tmp_path, ["privlib.core.m.x_f__mutmut_1", "privlib.core.m.x_f__mutmut_9"])
    assert edits == {"privlib.core.m.x_f__mutmut_1": "return p >= 0"}
    triage = tmp_path / "triage.txt"
    monkeypatch.setattr(mutation, "TRIAGE", triage)
    triage.write_text("privlib.core.m.x_f__mutmut_1  `return p >= 0`  p is a count: p >= 0 and p > 0 agree\n")
    assert mutation.resolve_triage(tmp_path) == ({"privlib.core.m.x_f__mutmut_1": "p is a count: p >= 0 and p > 0 agree"}, [])
    # renumbered: the line follows its edit
    triage.write_text("privlib.core.m.x_f__mutmut_2  `return p >= 0`  p is a count: p >= 0 and p > 0 agree\n")
    assert mutation.resolve_triage(tmp_path)[0] == {"privlib.core.m.x_f__mutmut_1": "p is a count: p >= 0 and p > 0 agree"}
    # an edit no mutant makes any more: stale, and refused
    triage.write_text("privlib.core.m.x_f__mutmut_2  `return p != 0`  p is a count\n")
    assert "generated now: `return p > 1`" in mutation.resolve_triage(tmp_path)[1][0]
    with pytest.raises(SystemExit, match="stale"):
        mutation.check_triage(tmp_path)
    triage.write_text("privlib.core.m.x_f__mutmut_1  p is a count\n")
    with pytest.raises(ValueError, match="expected 'name  `edit`  reason'"):
        mutation.read_triage_edits()


def test_a_rerun_keeps_only_kills_and_forgets_what_it_must_remake(tmp_path):
    """``full`` reuses kills (mutmut forgets those of changed functions itself) and runs every other
    mutant again: survivors and mutants no claim ran get no result, and the generated mutant files
    and the map of claims to functions are deleted so that both are made from the current code."""
    meta = tmp_path / "mutants" / "privlib" / "core" / "m.py.meta"
    meta.parent.mkdir(parents=True)
    codes = {"privlib.core.m.x_f__mutmut_1": 1, "privlib.core.m.x_f__mutmut_2": 0,
             "privlib.core.m.x_f__mutmut_3": 33, "privlib.core.m.x_f__mutmut_4": -24,
             "privlib.core.m.x_f__mutmut_5": None}
    meta.write_text(json.dumps({"exit_code_by_key": codes, "hash_by_function_name": {"x_f": "abc"}}))
    (meta.parent / "m.py").write_text("# a generated mutant file\n")
    (tmp_path / "mutants" / "mutmut-stats.json").write_text("{}")
    (tmp_path / "mutants" / "unit-tests.json").write_text("{}")
    (tmp_path / "mutants" / "reused-kills.json").write_text("{}")
    assert mutation.keep_only_results(tmp_path) == 2
    kept = json.loads(meta.read_text())
    assert kept["exit_code_by_key"] == {"privlib.core.m.x_f__mutmut_1": 1, "privlib.core.m.x_f__mutmut_2": None,
                                        "privlib.core.m.x_f__mutmut_3": None, "privlib.core.m.x_f__mutmut_4": -24,
                                        "privlib.core.m.x_f__mutmut_5": None}
    assert kept["hash_by_function_name"] == {"x_f": "abc"}
    assert not (meta.parent / "m.py").exists() and not (tmp_path / "mutants" / "mutmut-stats.json").exists()
    assert (tmp_path / "mutants" / "unit-tests.json").exists() and (tmp_path / "mutants" / "reused-kills.json").exists()
    assert mutation.keep_only_results(tmp_path / "nothing") == 0
