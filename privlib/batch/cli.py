"""The ``privbook`` command: list notebooks and parameters, run one, sweep a grid, build the
book, print the verification ledger.

Exit status (the README and the "Batch regeneration" page document the same):

- 0: done, and every claim the run(s) showed passed;
- 1: a run raised an error (``<folder>.failed/error.txt`` says which), writing files failed (a full
  disk: one line, nothing half written kept), or a build failed;
- 2: bad input, an ``--out`` that is not a new folder or one privbook made, or an unusable
  ``--scheduler``, rejected in one line before anything ran;
- 3: every run finished but a claim FAILED (the runs are kept; the FAILED claims are named);
- 75: another privbook process is writing the same output folder (``sweep --wait`` waits);
- 130 / 143: interrupted by SIGINT (Ctrl-C) / SIGTERM; interrupted runs leave no files.
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from privlib.batch import runs

EXIT_RUN_FAILED = 1
EXIT_USAGE = 2
EXIT_CLAIMS_FAILED = 3
EXIT_BUSY = 75


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"privbook: {message}\n")
        raise SystemExit(EXIT_USAGE)


def _positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1 (argparse reports the value it refuses)."""
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


_positive_int.__name__ = "positive whole number"  # argparse: "invalid positive whole number value: '-1'"


def _cmd_list(args: argparse.Namespace) -> int:
    for nb in runs.notebooks():
        print(nb.stem)
        try:
            params = runs.notebook_parameters(nb)
        except runs.ParameterError as exc:
            print(f"    ({exc})")
            continue
        for p in params.values():
            print(f"    {p.name:<22} {p.type:<12} {p.range or '-':<17} default {p.default!r:<14} {p.help}")
    return 0


def _cmd_run(args: argparse.Namespace) -> int:
    path = runs.find_notebook(args.notebook)
    values = dict(args.param or [])
    runs.validate_parameters(path, values)  # fail fast, before papermill starts a kernel
    if args.out is not None:
        runs.check_out(args.out, notebook=path.name)  # before anything is created (run_notebook checks again)
    try:
        out = runs.run_notebook(path, values, out_dir=args.out, progress=not args.quiet)
    except runs.ParameterError:
        raise
    except OSError as exc:  # a full disk, a read-only folder: nothing half written is kept
        sys.stderr.write(f"privbook: run of {path.stem}: {_os_error(exc)}\n")
        return EXIT_RUN_FAILED
    except runs.RunInterrupted as exc:
        sys.stderr.write(f"privbook: run of {path.stem} {exc}; nothing was kept\n")
        return exc.exit_status
    except runs.RunBusy as exc:
        sys.stderr.write(f"privbook: {exc}\n")
        return EXIT_BUSY
    except Exception as exc:  # the notebook raised: report one line, keep the .failed folder
        first = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        sys.stderr.write(f"privbook: run of {path.stem} failed: {first[:300]}\n")
        return EXIT_RUN_FAILED
    record = json.loads((out / runs.RESULTS).read_text(encoding="utf-8"))
    print(f"run finished: {out}")
    print(f"claims: {record['claims_summary']}")
    return EXIT_CLAIMS_FAILED if record["claims_failed"] else 0


def _os_error(exc: OSError) -> str:
    """One line for an ``OSError``: what failed and the system's reason."""
    if isinstance(exc, runs.OutputError):
        return str(exc)
    reason = exc.strerror or type(exc).__name__
    return f"{exc.filename}: {reason}" if exc.filename else reason


def build_book(root: Path, *, clean: bool = False, strict: bool = True) -> int:
    """Build the HTML book into ``_build/html``.

    Notebook outputs are cached by jupyter-cache; the cache is dropped whenever privlib's source
    changes, so an edited library never leaves stale outputs. ``clean`` removes ``_build`` first.
    """
    build = root / "_build"
    if clean:
        shutil.rmtree(build, ignore_errors=True)
    stamp = build / ".privlib-hash"
    current = runs.privlib_fingerprint(root / "privlib")
    if not stamp.is_file() or stamp.read_text() != current:
        shutil.rmtree(build / ".jupyter_cache", ignore_errors=True)
        shutil.rmtree(build / "html", ignore_errors=True)
        shutil.rmtree(build / ".doctrees", ignore_errors=True)
    jb = Path(sys.executable).with_name("jupyter-book")
    cmd = [str(jb) if jb.exists() else "jupyter-book", "build", str(root), "--builder", "html"]
    if strict:
        cmd += ["-W", "-n", "--keep-going"]
    start = time.time()
    status = subprocess.call(cmd, cwd=root)
    if status != 0:
        sys.stderr.write(f"privbook: book build failed (exit {status})\n")
        return 1
    build.mkdir(exist_ok=True)
    stamp.write_text(current)
    print(f"book built in {time.time() - start:.0f} s; open {build / 'html' / 'index.html'}")
    return 0


def _cmd_build(args: argparse.Namespace) -> int:
    return build_book(runs.project_root(), clean=args.clean, strict=not args.lenient)


def _cmd_sweep(args: argparse.Namespace) -> int:
    from privlib.batch import sweep

    grid = sweep.parse_grid(args.grid or [], args.file)
    try:
        summary = sweep.run_sweep(args.notebook, grid, out=args.out, jobs=args.jobs, scheduler=args.scheduler,
                                  allow_large=args.allow_large, progress=not args.quiet, timeout=args.timeout,
                                  wait=args.wait, log=lambda message: print(message, flush=True))
    except runs.RunBusy as exc:
        sys.stderr.write(f"privbook: {exc}; wait for it (--wait) or use another --out\n")
        return EXIT_BUSY
    except OSError as exc:  # a full disk, a read-only folder: finished points are kept, nothing half written
        sys.stderr.write(f"privbook: sweep of {Path(args.notebook).stem}: {_os_error(exc)}\n")
        return EXIT_RUN_FAILED
    counts = f"{summary['done']} done, {summary['failed']} failed, {summary['skipped']} skipped"
    if summary["stopped_by"]:
        sys.stderr.write(f"privbook: sweep interrupted by {summary['stopped_by']}: {counts}, "
                         f"{summary['interrupted']} interrupted and {summary['not run']} not started (nothing kept of "
                         f"those; the same command resumes); manifest {summary['manifest']}\n")
        return 128 + (summary["signum"] or signal.SIGINT)
    print(f"sweep: {len(summary['records'])} runs: {counts}; claims: {summary['claims']}; "
          f"manifest {summary['manifest']}; gallery {summary['gallery']}")
    for record in summary["records"]:
        if record["status"] == "failed":
            print(f"  failed {record['run']}: {record['error']}", file=sys.stderr)
    if summary["failed"]:
        return EXIT_RUN_FAILED
    return EXIT_CLAIMS_FAILED if summary["claims_failed"] else 0


def _cmd_ledger(args: argparse.Namespace) -> int:
    from privlib.verify import ledger

    entries = ledger.ledger_entries(args.paper, mutants=not args.no_mutants)
    if args.json:
        print(ledger.ledger_json(entries))
    else:
        print(ledger.ledger_markdown(entries), end="")
    ok = all(e.result.passed and e.killed == len(e.mutants) for e in entries)
    return 0 if ok else 1


def _cmd_refresh(args: argparse.Namespace) -> int:
    paths = [runs.find_notebook(name) for name in args.notebook] or runs.notebooks()
    for path in paths:
        print(f"{path.name}: {runs.refresh_notebook(path):.1f} s", flush=True)
    return 0


# the claim registry's paper keys (kept here so that `privbook --help` needs no numerics import)
_PAPERS = ["curves", "000", "001", "002", "003", "004", "notions"]


def make_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="privbook", description="Run and build the privbook companion.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("list", help="notebooks and their parameters (type, range, default, help)")
    p.set_defaults(func=_cmd_list)

    p = sub.add_parser("run", help="run one notebook with papermill; output goes under runs/ (exit 3 if a claim FAILED)")
    p.add_argument("notebook", help="name, stem or unique prefix of a notebook in notebooks/ (e.g. 000)")
    p.add_argument("-p", "--param", nargs=2, action="append", metavar=("NAME", "VALUE"),
                   help="set a parameter (repeatable); values are parsed as the declared type")
    p.add_argument("--out", help="run folder: a new one, or a finished run's (default runs/<notebook>/<parameters>)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_run)

    p = sub.add_parser("sweep", help="one run per point of a parameter grid; resumable, parallel, one sweep per --out")
    p.add_argument("notebook", help="name, stem or unique prefix of a notebook in notebooks/")
    p.add_argument("--grid", action="append", metavar="NAME=V1,V2,...",
                   help="values of one parameter (repeatable); the sweep runs their product")
    p.add_argument("-f", "--file", metavar="GRID.yaml", help="YAML file mapping parameter names to lists of values")
    p.add_argument("-j", "--jobs", type=int, help="local worker processes (default: number of cores)")
    p.add_argument("--out", help="output folder: a new one, or a sweep's (default runs/<notebook>)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask distributed scheduler, e.g. tcp://host:8786")
    p.add_argument("--allow-large", action="store_true", help="allow grids larger than the size limit")
    p.add_argument("--timeout", type=_positive_int, default=600, help="seconds allowed per cell (default 600)")
    p.add_argument("--wait", action="store_true",
                   help="if another sweep is writing the same --out, wait for it (default: exit with status 75)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_sweep)

    p = sub.add_parser("build", help="execute the notebooks and build the HTML book into _build/html")
    p.add_argument("--clean", action="store_true", help="remove _build first")
    p.add_argument("--lenient", action="store_true", help="do not turn warnings into errors")
    p.set_defaults(func=_cmd_build)

    p = sub.add_parser("refresh", help="re-execute chapter notebooks in place (the outputs nbval compares)")
    p.add_argument("notebook", nargs="*", help="names, stems or unique prefixes (default: every notebook)")
    p.set_defaults(func=_cmd_refresh)

    p = sub.add_parser("ledger", help="run every registered claim and its mutants; print the verification ledger"
                       " (exit 1 if a claim fails or a mutant survives)")
    p.add_argument("--paper", choices=_PAPERS, help="one paper only")
    p.add_argument("--json", action="store_true",
                   help="print a JSON list (id, status, checks, mutants_total, mutants_killed, ...)")
    p.add_argument("--no-mutants", action="store_true", help="run the claims only, not their mutants")
    p.set_defaults(func=_cmd_ledger)
    return parser


def _sigterm(signum: int, frame: object) -> None:
    raise runs.RunInterrupted(signum)


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    main_thread = threading.current_thread() is threading.main_thread()
    # SIGTERM ends the command like Ctrl-C does (runs and sweeps install their own handlers)
    previous = signal.signal(signal.SIGTERM, _sigterm) if main_thread else None
    try:
        return args.func(args)
    except runs.ParameterError as exc:
        sys.stderr.write(f"privbook: {exc}\n")
        return EXIT_USAGE
    except runs.RunInterrupted as exc:
        sys.stderr.write(f"privbook: {exc}\n")
        return exc.exit_status
    except KeyboardInterrupt:
        sys.stderr.write("privbook: interrupted\n")
        return 130
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    raise SystemExit(main())
