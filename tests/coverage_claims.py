"""Branch coverage of the math modules (privlib/core, privlib/papers) by the claims alone.

    python tests/coverage_claims.py [--min 95] [--write-uncovered]

Runs every registered claim once at its default inputs under coverage.py (branch coverage;
settings in pyproject.toml: refusals of bad input are not counted), prints a table per module and
checks two things:

- the share of branches the claims take is at least ``--min`` percent (over all the modules);
- every function with a branch still not taken is listed in tests/coverage_claims_uncovered.txt
  with its number of missing branches and a reason (a list entry may not hide more misses than
  it states).

The full report (every missing branch, line to line) is kept in _build/coverage-claims.json.
``--write-uncovered`` rewrites the list from the run, keeping the reasons already written, and
marks new entries "reason to be written" (which the check refuses). Exit status 1 on a failed
check, and when a claim fails.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import coverage

ROOT = Path(__file__).resolve().parent.parent
UNCOVERED = ROOT / "tests" / "coverage_claims_uncovered.txt"
NO_REASON = "reason to be written"


def measure() -> dict:
    """coverage.py's JSON report of one run of every claim."""
    cov = coverage.Coverage(config_file=str(ROOT / "pyproject.toml"), data_file=None)
    cov.start()
    try:
        from privlib.verify import claims  # imported under coverage: definitions count too

        results = claims.run_all()
    finally:
        cov.stop()
    failed = [r.id for r in results if not r.passed]
    if failed:
        raise SystemExit(f"coverage-claims: claims failed: {', '.join(failed)}")
    out = ROOT / "_build" / "coverage-claims.json"   # kept: the missing branches, line by line
    out.parent.mkdir(exist_ok=True)
    cov.json_report(outfile=str(out))
    return json.loads(out.read_text())


def missing_by_function(report: dict) -> dict[tuple[str, str], int]:
    """Number of branches never taken, per (file, function)."""
    missing: dict[tuple[str, str], int] = {}
    for path, data in report["files"].items():
        rel = Path(path).resolve().relative_to(ROOT).as_posix() if Path(path).is_absolute() else path
        for name, fn in data.get("functions", {}).items():
            n = fn["summary"].get("missing_branches", 0)
            if n:
                missing[(rel, name or "(module)")] = n
    return missing


def read_uncovered() -> dict[tuple[str, str], tuple[int, str]]:
    """The committed list: ``path  function  missing-branches  reason`` per line."""
    entries = {}
    if not UNCOVERED.exists():
        return entries
    for line in UNCOVERED.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        path, name, count, reason = line.split(None, 3)
        entries[(path, name)] = (int(count), reason.strip())
    return entries


def write_uncovered(missing: dict[tuple[str, str], int], old: dict[tuple[str, str], tuple[int, str]]) -> None:
    lines = ["# Branches of the math modules that no claim takes (tests/coverage_claims.py).",
             "# path  function  missing-branches  reason"]
    for (path, name), n in sorted(missing.items()):
        reason = old.get((path, name), (0, NO_REASON))[1]
        lines.append(f"{path}  {name}  {n}  {reason}")
    UNCOVERED.write_text("\n".join(lines) + "\n")


def table(report: dict) -> tuple[str, int, int]:
    rows = [f"{'module':32} {'stmts':>6} {'miss':>5} {'branches':>8} {'missed':>6} {'branch %':>8} {'stmt %':>7}"]
    total_b = total_bc = 0
    for path, data in sorted(report["files"].items()):
        s = data["summary"]
        nb, cb = s["num_branches"], s["covered_branches"]
        total_b, total_bc = total_b + nb, total_bc + cb
        rel = Path(path).as_posix().split("privlib/", 1)[-1]
        bpct = 100.0 * cb / nb if nb else 100.0
        spct = 100.0 * s["covered_lines"] / s["num_statements"] if s["num_statements"] else 100.0
        rows.append(f"{rel:32} {s['num_statements']:6d} {s['missing_lines']:5d} {nb:8d} {nb - cb:6d} "
                    f"{bpct:7.1f}% {spct:6.1f}%")
    t = report["totals"]
    rows.append(f"{'total':32} {t['num_statements']:6d} {t['missing_lines']:5d} {total_b:8d} "
                f"{total_b - total_bc:6d} {100.0 * total_bc / total_b:7.1f}% "
                f"{100.0 * t['covered_lines'] / t['num_statements']:6.1f}%")
    return "\n".join(rows), total_b, total_bc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min", type=float, default=95.0, help="least share of branches taken, in percent")
    parser.add_argument("--write-uncovered", action="store_true", help="rewrite the list of uncovered branches")
    args = parser.parse_args(argv)

    report = measure()
    text, nb, cb = table(report)
    print(text)
    missing = missing_by_function(report)
    old = read_uncovered()
    if args.write_uncovered:
        write_uncovered(missing, old)
        old = read_uncovered()
    status = 0
    share = 100.0 * cb / nb
    if share < args.min:
        print(f"coverage-claims: the claims take {share:.1f}% of the branches, below {args.min:g}%")
        status = 1
    for key, n in sorted(missing.items()):
        listed, reason = old.get(key, (0, ""))
        if n > listed or reason == NO_REASON:
            print(f"coverage-claims: {key[0]} {key[1]}: {n} branches not taken, "
                  f"{'listed without a reason' if reason == NO_REASON else f'{listed} listed'} in {UNCOVERED.name}")
            status = 1
    stale = sorted(set(old) - set(missing))
    if stale:
        print(f"coverage-claims: {len(stale)} entries of {UNCOVERED.name} are now covered (remove them): "
              + ", ".join(f"{p} {f}" for p, f in stale))
    return status


if __name__ == "__main__":
    sys.exit(main())
