"""Mutants nobody chose: mutmut over the math modules (privlib/core, privlib/papers), with the
claims as the suite (settings in pyproject.toml, [tool.mutmut]).

    python tests/mutation.py full      # every generated mutant (long; reuses earlier kills of unchanged functions, --fresh forgets them)
    python tests/mutation.py tests     # the unit tests against the mutants the claims leave alive
    python tests/mutation.py report    # book/_data/mutation.json from mutants/ and the triage file
    python tests/mutation.py sample [--size 150] [--seed 23] [--min 0.9]
    python tests/mutation.py only NAME [NAME ...]   # these mutants only (claims as they are now)
    python tests/mutation.py edits NAME [NAME ...]  # each mutant's edit, as a triage line starts

``sample`` generates every mutant in a scratch copy of the repository (_build/mutation-sample),
draws a fixed, seeded sample of their names (the ``size`` names of smallest SHA-256 of
``"<seed>:<name>"``: a mutant's place in the draw depends on its own name only, so an edit of one
function changes the sample only where its mutants enter or leave it), runs
the claims against those only, and fails when fewer than ``--min`` of them are killed by the
claims or triaged as equivalent in tests/mutation_equivalent.txt. Mutants of a function no claim
executes count as not killed.

A triage line is ``name  `edit`  reason``: the edit is the mutated line as mutmut writes it. mutmut
numbers the mutants of a function in order, so an edit of the function renumbers them: a line whose
number now names another edit follows its edit to the mutant of the same function that makes it,
and a line whose edit no longer exists fails every command (rather than count the wrong mutant as
equivalent).
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import re
import os
import hashlib
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRIAGE = ROOT / "tests" / "mutation_equivalent.txt"
REPORT = ROOT / "book" / "_data" / "mutation.json"
MUTMUT = Path(sys.executable).parent / "mutmut"
MODULE_DIRS = ("core", "papers")

#: mutmut's exit codes of one mutant's test run, as this report reads them
KILLED = {1, 3, 36, 24, -24, 152, 255}     # a claim failed, errored, or ran out of time
SURVIVED = {0}
NO_TESTS = {5, 33}                          # no claim executes the mutated function


TRIAGE_LINE = re.compile(r"^(?P<name>\S+)\s+`(?P<edit>[^`]*)`\s+(?P<reason>.+)$")


def read_triage_edits() -> dict[str, tuple[str, str]]:
    """Mutants triaged as equivalent (no input changes any output): ``name -> (edit, reason)``."""
    out = {}
    if TRIAGE.exists():
        for number, line in enumerate(TRIAGE.read_text().splitlines(), 1):
            if line.strip() and not line.startswith("#"):
                match = TRIAGE_LINE.match(line)
                if match is None:
                    raise ValueError(f"{TRIAGE.name}:{number}: expected 'name  `edit`  reason', got {line[:80]!r}")
                out[match["name"]] = (match["edit"], match["reason"].strip())
    return out


def read_triage() -> dict[str, str]:
    """Mutants triaged as equivalent, each with its reason."""
    return {name: reason for name, (_, reason) in read_triage_edits().items()}


def mutant_edits(workdir: Path, names) -> dict[str, str]:
    """The edit of each named mutant generated in ``workdir``: the lines its function gains over
    the original (mutmut's ``x_<function>__mutmut_orig``), stripped and joined by `` / ``; a
    deletion reads ``(deleted) <line>``. A name mutmut did not generate is missing."""
    by_file: dict[Path, list[str]] = {}
    for name in names:
        parts = name.split(".")
        by_file.setdefault(workdir / "mutants" / Path(*parts[:-1]).with_suffix(".py"), []).append(parts[-1])
    edits = {}
    for path, functions in by_file.items():
        if not path.exists():
            continue
        text = path.read_text()
        lines = text.splitlines()
        wanted = set(functions) | {f.rsplit("__mutmut_", 1)[0] + "__mutmut_orig" for f in functions}
        source = {node.name: "\n".join(lines[node.lineno - 1:node.end_lineno])
                  for node in ast.walk(ast.parse(text))
                  if isinstance(node, ast.FunctionDef) and node.name in wanted}
        for function in functions:
            if function not in source:
                continue
            orig = source.get(function.rsplit("__mutmut_", 1)[0] + "__mutmut_orig", "")
            before, after = orig.splitlines()[1:], source[function].splitlines()[1:]
            diff = list(difflib.unified_diff(before, after, lineterm="", n=0))[2:]
            added = [line[1:].strip() for line in diff if line.startswith("+")]
            removed = [line[1:].strip() for line in diff if line.startswith("-")]
            module = ".".join(path.relative_to(workdir / "mutants").with_suffix("").parts)
            edits[f"{module}.{function}"] = " / ".join(added) if added else "(deleted) " + " / ".join(removed)
    return edits


def resolve_triage(workdir: Path) -> tuple[dict[str, str], list[str]]:
    """The triage applied to the mutants generated in ``workdir``: ``(name -> reason, stale)``.
    A line whose number now names another edit follows its edit to the mutant of the same function
    that makes it (mutmut renumbers a function's mutants when the function changes); a line whose
    edit no mutant of the function makes, or more than one does, is stale."""
    triage = read_triage_edits()
    edits = mutant_edits(workdir, triage)
    resolved, stale = {}, []
    for name, (edit, reason) in triage.items():
        if edits.get(name) == edit:
            resolved[name] = reason
            continue
        prefix = name.rsplit("__mutmut_", 1)[0]
        path = workdir / "mutants" / Path(*prefix.split(".")[:-1]).with_suffix(".py")
        function = prefix.split(".")[-1]
        siblings = ([f"{prefix.rsplit('.', 1)[0]}.{m}" for m in
                     re.findall(rf"^def ({re.escape(function)}__mutmut_\d+)\(", path.read_text(), re.M)]
                    if path.exists() else [])
        same = [n for n, e in mutant_edits(workdir, siblings).items() if e == edit]
        if len(same) == 1:
            resolved[same[0]] = reason
        else:
            now = f"`{edits[name]}`" if name in edits else "no such mutant"
            stale.append(f"{name}: triaged edit `{edit}`, generated now: {now}; "
                         f"{len(same)} mutants of the function make the triaged edit")
    return resolved, stale


def check_triage(workdir: Path) -> dict[str, str]:
    """:func:`resolve_triage`, refusing a stale line."""
    resolved, stale = resolve_triage(workdir)
    if stale:
        raise SystemExit("mutation: stale lines in tests/mutation_equivalent.txt (triage again):\n  "
                         + "\n  ".join(stale))
    return resolved


#: the unit tests of the math modules (the separate suite of ``tests``)
UNIT_TESTS = ["tests/test_mechanisms.py", "tests/test_profiles.py", "tests/test_notions.py",
              "tests/test_intervals.py", "tests/test_pufferfish.py", "tests/test_leakage.py",
              "tests/test_minimax.py", "tests/test_affiliation.py", "tests/test_statistical.py"]
UNIT_RESULTS = ROOT / "mutants" / "unit-tests.json"
#: how many kills the last ``full`` run reused from the run before it (functions unchanged since)
REUSED = ROOT / "mutants" / "reused-kills.json"
SAMPLE_RESULTS = ROOT / "_build" / "mutation-sample.json"


def read_results(workdir: Path) -> dict[str, int | None]:
    """Exit code of every generated mutant (``None``: not run yet), by mutant name."""
    codes: dict[str, int | None] = {}
    for sub in MODULE_DIRS:
        for meta in sorted((workdir / "mutants" / "privlib" / sub).glob("*.py.meta")):
            if meta.name == "__init__.py.meta":
                continue
            codes.update(json.loads(meta.read_text())["exit_code_by_key"])
    return codes


def module_of(name: str) -> str:
    """``privlib.core.profiles.x_hockey_stick__mutmut_3`` -> ``core/profiles``."""
    parts = name.split(".")
    return f"{parts[1]}/{parts[2]}"


def scratch_copy(workdir: Path, keep_results: bool = False) -> None:
    """The files mutmut needs, copied fresh into ``workdir``. Results there are discarded, or with
    ``keep_results`` kept as mutmut's cache (see :func:`keep_only_results`)."""
    kept = {}
    if keep_results and (workdir / "mutants").exists():
        kept = {meta.relative_to(workdir): meta.read_bytes() for meta in (workdir / "mutants").rglob("*.meta")}
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    for relative, content in kept.items():
        (workdir / relative).parent.mkdir(parents=True, exist_ok=True)
        (workdir / relative).write_bytes(content)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "privlib", workdir / "privlib", ignore=ignore)
    shutil.copytree(ROOT / "tests", workdir / "tests", ignore=ignore)
    shutil.copy2(ROOT / "pyproject.toml", workdir / "pyproject.toml")


def generate(workdir: Path) -> list[str]:
    """Generate every mutant in ``workdir`` (mutmut's own generator) and return their names."""
    code = ("import sys, warnings; warnings.simplefilter('ignore');"
            "from mutmut.__main__ import copy_src_dir, create_mutants;"
            "from mutmut.mutation.trampoline import set_mutant_under_test;"
            "set_mutant_under_test('mutant_generation'); copy_src_dir(); create_mutants(2)")
    subprocess.run([sys.executable, "-c", code], cwd=workdir, check=True, stdout=subprocess.DEVNULL)
    return sorted(read_results(workdir))


def mutmut_run(workdir: Path, names: list[str] | None = None) -> None:
    env = dict(os.environ, PYTHONHASHSEED="0")
    subprocess.run([str(MUTMUT), "run", "--max-children", "2", *(names or [])], cwd=workdir, env=env,
                   check=True, stdout=subprocess.DEVNULL)


def tally(codes: dict[str, int | None], triage: dict[str, str],
          unit: dict[str, int | None] | None = None) -> dict[str, Counter]:
    by_module: dict[str, Counter] = {}
    for name, code in codes.items():
        c = by_module.setdefault(module_of(name), Counter())
        c["generated"] += 1
        if unit is not None and code not in KILLED and code is not None and unit.get(name) in KILLED:
            c["killed_by_tests"] += 1
        if code in KILLED:
            c["killed_by_claims"] += 1
        elif code is None:
            c["not_run"] += 1
        elif name in triage:
            c["equivalent"] += 1
        elif code in NO_TESTS:
            c["no_claim_runs_it"] += 1
            c["surviving"] += 1
        else:
            c["surviving"] += 1
    return by_module


def measured_commit() -> str | None:
    """The commit whose code the results in mutants/ were measured on (None outside git)."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return out or None


def cmd_report(args: argparse.Namespace) -> int:
    codes = read_results(ROOT)
    if not codes:
        print("mutation: no results in mutants/ (run `make mutation` first)")
        return 1
    triage = check_triage(ROOT)
    unit = json.loads(UNIT_RESULTS.read_text()) if UNIT_RESULTS.exists() else None
    counts = tally(codes, triage, unit)
    fields = ["generated", "killed_by_claims", "equivalent", "surviving", "no_claim_runs_it", "not_run"]
    if unit is not None:
        fields.insert(2, "killed_by_tests")
    modules = [{"module": m, **{f: counts[m][f] for f in fields}} for m in sorted(counts)]
    total = {"module": "total", **{f: sum(r[f] for r in modules) for f in fields}}
    equivalent = [{"mutant": n, "module": module_of(n), "reason": r} for n, r in sorted(triage.items()) if n in codes]
    surviving = sorted(n for n, c in codes.items() if c is not None and c not in KILLED and n not in triage)
    previous = json.loads(REPORT.read_text()) if REPORT.exists() else {}
    sample = json.loads(SAMPLE_RESULTS.read_text()) if SAMPLE_RESULTS.exists() else previous.get("sample")
    report = {
        "tool": "mutmut", "suite": "claims (tests/test_claims.py::test_claim_passes)",
        "commit": measured_commit(), "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "reused_kills": json.loads(REUSED.read_text())["reused_kills"] if REUSED.exists() else 0,
        "modules": modules, "total": total, "equivalent": equivalent, "surviving": surviving,
        "sample": sample,
    }
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps(report, indent=1) + "\n")
    width = max(len(r["module"]) for r in modules)
    print(f"{'module':{width}}  " + "  ".join(f"{f:>16}" for f in fields))
    for r in [*modules, total]:
        print(f"{r['module']:{width}}  " + "  ".join(f"{r[f]:16d}" for f in fields))
    print(f"written {REPORT.relative_to(ROOT)}")
    return 0


def cmd_tests(args: argparse.Namespace) -> int:
    """The unit tests (a separate suite) against every mutant the claims did not kill."""
    codes = read_results(ROOT)
    alive = sorted(n for n, c in codes.items() if c is not None and c not in KILLED)
    if not alive:
        print("mutation: no surviving mutant to run the unit tests on")
        return 0
    workdir = ROOT / "_build" / "mutation-tests"
    scratch_copy(workdir, keep_results=True)
    config = (workdir / "pyproject.toml").read_text()
    config = config.replace('pytest_add_cli_args_test_selection = ["tests/test_claims.py::test_claim_passes"]',
                            f"pytest_add_cli_args_test_selection = {json.dumps(UNIT_TESTS)}")
    (workdir / "pyproject.toml").write_text(config)
    generate(workdir)
    previous = json.loads(UNIT_RESULTS.read_text()) if UNIT_RESULTS.exists() else {}
    cached = read_results(workdir)     # None where the function changed since the unit tests ran on it
    todo = [n for n in alive if n not in previous or cached.get(n) is None]
    if todo:
        mutmut_run(workdir, todo)
    print(f"mutation: the unit tests ran on {len(todo)} claim survivors; {len(alive) - len(todo)} results "
          "reused (their functions are unchanged)")
    unit = read_results(workdir)
    UNIT_RESULTS.write_text(json.dumps({n: unit.get(n) for n in alive}, indent=0) + "\n")
    print(f"mutation: {sum(unit.get(n) in KILLED for n in alive)} of {len(alive)} claim survivors killed by the unit tests")
    return 0


def keep_only_results(workdir: Path) -> int:
    """Prepare a rerun of mutmut in ``workdir`` that reuses its kills: keep each mutant's result
    only where the claims killed it (mutmut itself forgets the results of every function whose
    source changed, by a hash of the function), forget every other result (survivors, mutants no
    claim ran) so the current claims run on them, and delete the generated mutant files and the
    map of claims to the functions they execute, so both are made afresh from the current code
    and claims. Returns the number of results kept."""
    mutants = workdir / "mutants"
    if not mutants.exists():
        return 0
    kept = 0
    for path in mutants.rglob("*"):
        if path.is_file() and path.suffix != ".meta" and path.name not in (UNIT_RESULTS.name, REUSED.name):
            path.unlink()
    for meta in mutants.rglob("*.meta"):
        data = json.loads(meta.read_text())
        codes = data["exit_code_by_key"]
        for name, code in codes.items():
            if code not in KILLED:
                codes[name] = None
        kept += sum(code is not None for code in codes.values())
        meta.write_text(json.dumps(data, indent=4))
    return kept


def cmd_full(args: argparse.Namespace) -> int:
    if args.fresh and (ROOT / "mutants").exists():
        shutil.rmtree(ROOT / "mutants")
    kept = keep_only_results(ROOT)
    (ROOT / "mutants").mkdir(exist_ok=True)
    REUSED.write_text(json.dumps({"reused_kills": kept}) + "\n")
    if kept:
        print(f"mutation: {kept} kills reused from the previous run (their functions are unchanged); "
              "every other mutant runs against the current claims")
    mutmut_run(ROOT)
    cmd_tests(args)
    return cmd_report(args)


def cmd_sample(args: argparse.Namespace) -> int:
    workdir = ROOT / "_build" / "mutation-sample"
    start = time.perf_counter()
    scratch_copy(workdir)
    names = generate(workdir)
    triage = check_triage(workdir)
    sample = sorted(sorted(names, key=lambda n: hashlib.sha256(f"{args.seed}:{n}".encode()).hexdigest())[:args.size])
    print(f"mutation-sample: {len(names)} mutants generated, {len(sample)} drawn with seed {args.seed}")
    mutmut_run(workdir, sample)
    codes = read_results(workdir)
    killed = [n for n in sample if codes.get(n) in KILLED]
    equivalent = [n for n in sample if n not in killed and n in triage]
    rest = [n for n in sample if n not in killed and n not in equivalent]
    share = (len(killed) + len(equivalent)) / len(sample)
    print(f"mutation-sample: {len(killed)} killed by the claims, {len(equivalent)} triaged equivalent, "
          f"{len(rest)} not killed ({100 * share:.1f}% killed or equivalent; at least {100 * args.min:g}% "
          f"needed) in {time.perf_counter() - start:.0f} s")
    for n in rest:
        print(f"  not killed: {n} (exit code {codes.get(n)})")
    SAMPLE_RESULTS.write_text(json.dumps({
        "seed": args.seed, "size": len(sample), "generated": len(names),
        "killed_by_claims": len(killed), "equivalent": len(equivalent), "not_killed": len(rest),
        "by_module": {m: dict(c) for m, c in sorted(tally({n: codes.get(n) for n in sample}, triage).items())},
        "not_killed_mutants": {n: codes.get(n) for n in rest}}, indent=1) + "\n")
    return 0 if share >= args.min else 1


def cmd_only(args: argparse.Namespace) -> int:
    """The named mutants against the claims as they are in the working tree."""
    workdir = ROOT / "_build" / "mutation-only"
    scratch_copy(workdir)
    names = set(generate(workdir))
    triage = check_triage(workdir)
    unknown = [n for n in args.names if n not in names]
    if unknown:
        print(f"mutation: no such generated mutant: {', '.join(unknown)}")
        return 2
    mutmut_run(workdir, args.names)
    codes = read_results(workdir)
    for n in args.names:
        verdict = ("killed" if codes.get(n) in KILLED else "equivalent" if n in triage
                   else "no claim runs it" if codes.get(n) in NO_TESTS else "not killed")
        print(f"{n}: {verdict} (exit code {codes.get(n)})")
    return 0


def cmd_edits(args: argparse.Namespace) -> int:
    """Each named mutant's edit on the code as it is, in the triage file's form."""
    workdir = ROOT / "_build" / "mutation-only"
    scratch_copy(workdir)
    generate(workdir)
    edits = mutant_edits(workdir, args.names)
    for name in args.names:
        print(f"{name}  `{edits[name]}`" if name in edits else f"{name}: no such generated mutant")
    return 0 if all(n in edits for n in args.names) else 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    f = sub.add_parser("full")
    f.add_argument("--fresh", action="store_true", help="forget every earlier result (no kill is reused)")
    f.set_defaults(func=cmd_full)
    sub.add_parser("tests").set_defaults(func=cmd_tests)
    sub.add_parser("report").set_defaults(func=cmd_report)
    o = sub.add_parser("only")
    o.add_argument("names", nargs="+")
    o.set_defaults(func=cmd_only)
    e = sub.add_parser("edits")
    e.add_argument("names", nargs="+")
    e.set_defaults(func=cmd_edits)
    s = sub.add_parser("sample")
    s.add_argument("--size", type=int, default=150)
    s.add_argument("--seed", type=int, default=23)
    s.add_argument("--min", type=float, default=0.9)
    s.set_defaults(func=cmd_sample)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
