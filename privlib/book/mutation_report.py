"""The generated-mutant report shown on the verification ledger: mutmut's mutants of the math
modules (privlib/core, privlib/papers) run against the claims (``make mutation`` writes
book/_data/mutation.json; tests/mutation.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPORT = Path(__file__).resolve().parents[2] / "book" / "_data" / "mutation.json"

COLUMNS = [
    ("module", "module"),
    ("generated", "generated"),
    ("killed_by_claims", "killed by claims"),
    ("equivalent", "equivalent"),
    ("surviving", "surviving the claims"),
    ("killed_by_tests", "of which killed by unit tests"),
    ("no_claim_runs_it", "of which no claim runs the function"),
    ("not_run", "not run yet"),
]


def load(path: Path = REPORT) -> dict[str, Any]:
    """The committed report; without one, an empty report (no module, nothing run)."""
    if not path.exists():
        zero = {k: 0 for k, _ in COLUMNS[1:] if k != "killed_by_tests"}
        return {"modules": [], "total": {"module": "total (no report: run make mutation)", **zero},
                "equivalent": [], "surviving": []}
    return json.loads(path.read_text())


def table(path: Path = REPORT) -> Any:
    """Per module: generated mutants, killed by the claims, equivalent, surviving."""
    from privlib.book import prose

    report = load(path)
    rows = []
    for r in [*report["modules"], report["total"]]:
        rows.append([r["module"], *[str(r[k]) if k in r else "-" for k, _ in COLUMNS[1:]]])
    return prose.table([label for _, label in COLUMNS], rows)


def equivalent_table(path: Path = REPORT) -> Any:
    """The mutants triaged as equivalent, each with the reason no input tells it apart."""
    from privlib.book import prose

    report = load(path)
    rows = [[e["module"], f"`{e['mutant'].rsplit('.', 1)[-1]}`", e["reason"]] for e in report["equivalent"]]
    return prose.table(["module", "mutant", "why no input tells it apart"], rows or [["-", "-", "none triaged"]])


def measured_text(path: Path = REPORT) -> Any:
    """One sentence on when and on which code the full run was measured, from the report."""
    from privlib.book.prose import Markdown

    report = load(path)
    total = report["total"]
    if not report["modules"] or total.get("not_run", 0) == total.get("generated", 0):
        return Markdown("The full run (`make mutation`) has not been recorded in the report yet.")
    where = f" on commit `{report['commit']}`" if report.get("commit") else ""
    when = f" ({report['date']})" if report.get("date") else ""
    return Markdown(f"The full run (`make mutation`) was measured{where}{when}: {total['generated']} "
                    f"mutants generated, {total['killed_by_claims']} killed by the claims"
                    + (f", {total['not_run']} not run yet" if total.get("not_run") else "") + ". "
                    + (f"{report['reused_kills']} of those kills were reused from the run before it, for "
                       "functions whose source had not changed; every other mutant, survivors included, ran "
                       "against the claims of that commit. " if report.get("reused_kills") else "")
                    + "The full run takes hours on two cores, so it trails the code; the sample below "
                      "is measured on the code as it is.")


def sample_text(path: Path = REPORT) -> Any:
    """One sentence on the seeded sample CI runs, from the report."""
    from privlib.book.prose import Markdown

    s = load(path).get("sample")
    if not s:
        return Markdown("The sample CI runs has not been recorded in the report yet.")
    share = 100.0 * (s["killed_by_claims"] + s["equivalent"]) / s["size"]
    return Markdown(
        f"The sample CI runs (seed {s['seed']}): {s['size']} of the {s['generated']} generated mutants, "
        f"of which {s['killed_by_claims']} are killed by the claims and {s['equivalent']} are equivalent "
        f"({share:.0f}%); {s['not_killed']} survive, {sum(m.get('no_claim_runs_it', 0) for m in s['by_module'].values())} "
        f"of them in functions no claim runs.")
