"""Timing and accuracy helpers shared by the benchmark scripts.

The scripts are run as ``python benchmarks/bench_x.py`` from the repository root, so this folder is
on ``sys.path``; each script also inserts it explicitly before ``from _timing import ...``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np


class Timing(float):
    """A median CPU time in seconds (the float value, time.process_time, so ratios of Timings are
    CPU-time ratios) that also carries, as ``wall``, the median wall time over the same calls
    (time.perf_counter); ``cpu`` is the float value again."""

    cpu: float
    wall: float

    def __new__(cls, cpu: float, wall: float) -> Timing:
        out = super().__new__(cls, cpu)
        out.cpu = cpu
        out.wall = wall
        return out

    def __format__(self, spec: str) -> str:
        return format(float(self), spec)


def show(t: Timing, unit: str = "ms") -> str:
    """``1.23 ms CPU (1.41 ms wall)``: both medians, three significant digits."""
    scale = {"s": 1.0, "ms": 1e3, "us": 1e6}[unit]
    return f"{t.cpu * scale:.3g} {unit} CPU ({t.wall * scale:.3g} {unit} wall)"


def interleaved(funcs: dict[str, Callable[[], object]], repeat: int = 7) -> dict[str, Timing]:
    """Median CPU time in seconds of each function, timed alternately in one process with the
    BLAS and OpenMP thread pools limited to one thread (threadpoolctl), so that neither side gains
    from the second core nor loses to another process's load on it.

    Every round calls every function once, the order rotating from round to round (round ``r``
    starts with the ``r``-th function), so that no contender always runs first or right after the
    same other one; ``repeat`` rounds (at least 7). Each value is a :class:`Timing`: a float (the
    median CPU time, time.process_time, which a shared machine's load disturbs far less than the
    wall clock) whose ``wall`` attribute is the median wall time (time.perf_counter).
    """
    from threadpoolctl import threadpool_limits

    repeat = max(int(repeat), 7)
    names = list(funcs)
    wall: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    with threadpool_limits(limits=1):
        for r in range(repeat):
            shift = r % len(names) if names else 0
            for name in names[shift:] + names[:shift]:
                f = funcs[name]
                start_cpu = time.process_time()
                start = time.perf_counter()
                f()
                wall[name].append(time.perf_counter() - start)
                cpu[name].append(time.process_time() - start_cpu)
    return {name: Timing(float(np.median(cpu[name])), float(np.median(wall[name]))) for name in names}


def worst_relative_error(values, reference) -> float:
    """Largest relative error; where the reference is 0, the absolute value (an exact 0 where the
    truth is positive counts as error 1)."""
    values, reference = np.asarray(values, dtype=float), np.asarray(reference, dtype=float)
    safe = np.where(reference > 0, reference, 1.0)
    return float(np.max(np.where(reference > 0, np.abs(values - reference) / safe, np.abs(values))))


def children_timing(func: Callable[[], object]) -> Timing:
    """One call of ``func`` that runs other processes (a sweep, a notebook): its CPU time is this
    process's plus that of the child processes it waited for (``resource.RUSAGE_CHILDREN``); the
    wall time beside it. Not repeated (each call takes seconds to minutes)."""
    import resource

    def children() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    start_cpu, start_children, start = time.process_time(), children(), time.perf_counter()
    func()
    wall = time.perf_counter() - start
    return Timing(time.process_time() - start_cpu + children() - start_children, wall)


# --- the table ----------------------------------------------------------------------------------
#
# Every script reports its rows through ``row``: it prints a Markdown row in the one layout of
# COLUMNS and, when ``make bench`` runs it (benchmarks/run_all.py sets BENCH_ROWS to a file and
# BENCH_SECTION to the script's label), appends the same row there, so that the rows of every
# script are assembled into one table (_build/bench.md, copied into the README).

COLUMNS = ("computation", "privlib CPU", "strongest alternative, its CPU", "ratio (alternative / privlib CPU)",
           "wall: privlib / alternative", "relative error: privlib / alternative")


def duration(seconds: float | None) -> str:
    """``0.123 ms``, ``45.6 ms``, ``1.23 s``: three significant digits, the unit chosen by size."""
    if seconds is None or not np.isfinite(seconds):
        return "-"
    if seconds < 1.0:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


def error(value) -> str:
    """A relative error as ``1.2e-15`` (``0`` when exact, ``inf`` when the value is not finite);
    strings pass through (``exact sampler``), None is an empty cell."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    value = float(value)
    if value == 0:
        return "0"
    return f"{value:.1e}" if np.isfinite(value) else "inf"


def header() -> str:
    return "| " + " | ".join(COLUMNS) + " |\n|" + "---|" * len(COLUMNS)


def row(computation: str, privlib: Timing | None, alternative: str = "", alt: Timing | None = None,
        err_privlib=None, err_alt=None, ratio: str | None = None) -> str:
    """Print (and record for ``make bench``) one row: privlib's CPU time, the alternative named
    ``alternative`` with its CPU time, the CPU ratio alternative / privlib (below 1: privlib is
    slower; ``ratio`` replaces it), both wall times and both relative errors. A row without an
    alternative leaves those cells empty."""
    import os

    if ratio is None:
        ratio = f"{alt.cpu / privlib.cpu:.3g}" if privlib is not None and alt is not None and privlib.cpu > 0 else ""
    alt_cell = f"{alternative}, {duration(alt.cpu)}" if alt is not None else alternative
    wall = (f"{duration(privlib.wall if privlib is not None else None)} / {duration(alt.wall)}" if alt is not None
            else duration(privlib.wall if privlib is not None else None))
    errors = " / ".join(e for e in (error(err_privlib), error(err_alt)) if e) if err_alt is not None else error(err_privlib)
    cells = [computation, duration(privlib.cpu if privlib is not None else None), alt_cell, ratio, wall, errors]
    section = os.environ.get("BENCH_SECTION")
    line = "| " + " | ".join([f"{section}: {computation}" if section else computation] + cells[1:]) + " |"
    print(line, flush=True)
    target = os.environ.get("BENCH_ROWS")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            out.write(line + "\n")
    return line
