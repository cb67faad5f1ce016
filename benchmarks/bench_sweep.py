"""Benchmark of privbook sweep: a 24-point sweep of the foundations chapter with 2 workers,
locally (worker processes) and on a Dask LocalCluster.

Prints wall time, runs per minute and the per-run overhead, i.e. the time of a run of a notebook
that does nothing (kernel start, papermill, figure extraction, results.json).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import nbformat

from privlib import runs, sweep

GRID = {"mechanism_epsilon": ["0.25", "0.5", "1", "2", "4", "8"], "sigma": ["0.5", "1", "2", "4"]}  # 24 points


def timed_sweep(out: Path, **kwargs) -> float:
    start = time.perf_counter()
    summary = sweep.run_sweep("privacy_curves", GRID, out=out, jobs=2, progress=False, **kwargs)
    assert summary["done"] == 24 and summary["failed"] == 0, summary
    return time.perf_counter() - start


def empty_run_seconds(work: Path, repeat: int = 3) -> float:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("seed: int = 0  # unused")
    cell.metadata["tags"] = ["parameters"]
    nb.cells = [cell]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = work / "empty.ipynb"
    nbformat.write(nb, path)
    times = []
    for i in range(repeat):
        start = time.perf_counter()
        runs.run_notebook(path, {}, out_dir=work / f"empty-{i}")
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-sweep-"))
    try:
        overhead = empty_run_seconds(work)
        local = timed_sweep(work / "local")
        from dask.distributed import LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            dask_time = timed_sweep(work / "dask", scheduler=cluster.scheduler_address)
        resume_start = time.perf_counter()
        summary = sweep.run_sweep("privacy_curves", GRID, out=work / "local", jobs=2, progress=False)
        resume = time.perf_counter() - resume_start
        assert summary["skipped"] == 24
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("| 24-point sweep of privacy_curves, 2 workers | wall time | runs per minute |")
    print("|---|---|---|")
    print(f"| local worker processes | {local:.1f} s | {24 * 60 / local:.1f} |")
    print(f"| Dask LocalCluster (2 workers) | {dask_time:.1f} s | {24 * 60 / dask_time:.1f} |")
    print(f"| rerun, all 24 skipped | {resume:.2f} s | - |")
    print(f"\nper-run overhead (an empty notebook: kernel start, papermill, outputs): {overhead:.2f} s")


if __name__ == "__main__":
    main()
