"""Benchmark of privbook sweep: a 24-point sweep of the foundations chapter with 2 workers,
locally (worker processes) and on a Dask LocalCluster; a resume that checks every run's files;
how fast an interrupt ends a sweep; how fast hostile or oversized grids are refused.

Prints CPU times (this process and the worker and kernel processes it waited for) beside wall
times, runs per minute and the per-run overhead, i.e. the time of a run of a notebook that does
nothing (kernel start, papermill, figure extraction, results.json, files.json); the sweeps run
once each (about a minute each), the refusals are medians of 7 rounds. ``--quick`` skips the two
24-point sweeps (and the Dask one).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from privlib import runs, sweep

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import Timing, children_timing, header, interleaved, row  # noqa: E402

GRID = {"mechanism_epsilon": ["0.25", "0.5", "1", "2", "4", "8"], "sigma": ["0.5", "1", "2", "4"]}  # 24 points


def timed_sweep(out: Path, **kwargs) -> Timing:
    def run():
        summary = sweep.run_sweep("privacy_curves", GRID, out=out, jobs=2, progress=False, **kwargs)
        assert summary["done"] == 24 and summary["failed"] == 0, summary
    return children_timing(run)


def _notebook(path: Path, code: str) -> Path:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("seed: int = 0  # unused\npause: float = 0.0  # seconds")
    cell.metadata["tags"] = ["parameters"]
    nb.cells = [cell, nbformat.v4.new_code_cell(code)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


def empty_run_seconds(work: Path, repeat: int = 3) -> Timing:
    """The run with the median wall time of ``repeat`` runs of an empty notebook."""
    path = _notebook(work / "empty.ipynb", "pass")
    times = [children_timing(lambda i=i: runs.run_notebook(path, {}, out_dir=work / f"empty-{i}")) for i in range(repeat)]
    return sorted(times, key=lambda t: t.wall)[len(times) // 2]


def interrupt_seconds(work: Path) -> float:
    """Seconds from Ctrl-C (SIGINT to the process group) to the exit of a 4-point sweep with two
    points executing (a cell that sleeps 120 s)."""
    project = work / "interrupt"
    (project / "notebooks").mkdir(parents=True)
    (project / "_config.yml").write_text("title: bench\n")
    _notebook(project / "notebooks" / "pause.ipynb", "import time\ntime.sleep(pause)")
    env = {**os.environ, "PRIVBOOK_ROOT": str(project)}
    proc = subprocess.Popen([sys.executable, "-m", "privlib.batch.cli", "sweep", "pause", "--grid", "seed=1,2,3,4",
                             "--grid", "pause=120", "-j", "2", "-q"], cwd=project, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = project / "runs" / "pause"
    while len(list(base.glob(".*.partial/pause.ipynb"))) < 2:
        time.sleep(0.05)
    time.sleep(1.0)  # the kernels are executing the sleeping cell
    start = time.perf_counter()
    os.killpg(proc.pid, signal.SIGINT)
    assert proc.wait(timeout=120) == 130
    return time.perf_counter() - start


def grid_refusals(work: Path) -> list[tuple[str, Timing]]:
    """Median seconds to refuse hostile or oversized grids (parse_grid + expand_grid)."""
    notebook = _notebook(work / "grid.ipynb", "pass")
    laughs = work / "laughs.yaml"
    laughs.write_text("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
        f"{x}: &{x} [{', '.join([f'*{p}'] * 9)}]\n" for p, x in zip("abcdefgh", "bcdefghi")) + "seed: *i\n")
    many = work / "many.yaml"
    many.write_text("seed: [" + ", ".join(map(str, range(100_000))) + "]\n")
    just_under = work / "under.yaml"
    just_under.write_text("seed: [" + ", ".join(map(str, range(9_000))) + "]\n")
    cases = [(f"YAML alias bomb ({laughs.stat().st_size} bytes, 9^9 values)", lambda: sweep.parse_grid([], laughs)),
             (f"grid file of 100,000 values ({many.stat().st_size // 1024} KiB)", lambda: sweep.parse_grid([], many)),
             ("grid file of 9,000 values (under the limits), refused as > 200 points",
              lambda: sweep.expand_grid(notebook, sweep.parse_grid([], just_under))),
             ("--grid with 100,000 values", lambda: sweep.expand_grid(notebook, {"seed": [str(i) for i in range(100_000)]}))]
    timings = []
    for label, call in cases:
        def refuse(call=call):
            try:
                call()
            except runs.ParameterError:
                return
            raise AssertionError("not refused")
        timings.append((label, interleaved({"refuse": refuse}, repeat=7)["refuse"]))
    return timings


def main() -> None:
    quick = "--quick" in sys.argv
    work = Path(tempfile.mkdtemp(prefix="bench-sweep-"))
    try:
        refusals = grid_refusals(work)
        interrupt = interrupt_seconds(work)
        overhead = empty_run_seconds(work)
        if not quick:
            local = timed_sweep(work / "local")
            from dask.distributed import LocalCluster

            def on_dask():  # the workers' CPU is counted when they exit: cluster start and stop included
                with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
                    timed_sweep(work / "dask", scheduler=cluster.scheduler_address)

            dask_time = children_timing(on_dask)
            summary = {}
            resume = children_timing(lambda: summary.update(sweep.run_sweep("privacy_curves", GRID, out=work / "local", jobs=2,
                                                                            progress=False)))
            assert summary["skipped"] == 24
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(header())
    if not quick:
        row(f"24-point sweep of privacy_curves, 2 local worker processes ({24 * 60 / local.wall:.1f} runs per minute)", local,
            "the same on a Dask LocalCluster of 2 workers (its start and stop included)", dask_time)
        row("rerun of the same sweep, all 24 runs skipped (every file's size and SHA-256 checked)", resume)
    row("per-run overhead: a run of an empty notebook (kernel start, papermill, outputs)", overhead)
    row("Ctrl-C to exit, 4-point sweep with 2 points executing (wall only)", Timing(float("nan"), interrupt))
    for label, t in refusals:
        row(f"grid refused: {label}", t)


if __name__ == "__main__":
    main()
