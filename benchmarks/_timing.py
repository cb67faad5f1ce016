"""Timing and accuracy helpers shared by the benchmark scripts.

The scripts are run as ``python benchmarks/bench_x.py`` from the repository root, so this folder is
on ``sys.path``; each script also inserts it explicitly before ``from _timing import ...``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np


def median_seconds(func: Callable[[], object], repeat: int = 5) -> float:
    """Median wall time of ``repeat`` calls of ``func`` (time.perf_counter)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


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
