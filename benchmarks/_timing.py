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
    """A median wall time in seconds (the float value) that also carries, as ``cpu``, the median
    CPU time of the process over the same calls."""

    cpu: float

    def __new__(cls, wall: float, cpu: float) -> Timing:
        out = super().__new__(cls, wall)
        out.cpu = cpu
        return out


def interleaved(funcs: dict[str, Callable[[], object]], repeat: int = 7) -> dict[str, float]:
    """Median wall time in seconds of each function, timed alternately in one process.

    Every round calls every function once, the order rotating from round to round (round ``r``
    starts with the ``r``-th function), so that no contender always runs first or right after the
    same other one; ``repeat`` rounds. Each value is a :class:`Timing`: a float (the median wall
    time, time.perf_counter) whose ``cpu`` attribute is the median CPU time (time.process_time),
    which a shared machine's load disturbs less. The CPU clock is read outside the wall interval.
    """
    names = list(funcs)
    wall: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for r in range(repeat):
        shift = r % len(names) if names else 0
        for name in names[shift:] + names[:shift]:
            f = funcs[name]
            start_cpu = time.process_time()
            start = time.perf_counter()
            f()
            wall[name].append(time.perf_counter() - start)
            cpu[name].append(time.process_time() - start_cpu)
    return {name: Timing(float(np.median(wall[name])), float(np.median(cpu[name]))) for name in names}


def worst_relative_error(values, reference) -> float:
    """Largest relative error; where the reference is 0, the absolute value (an exact 0 where the
    truth is positive counts as error 1)."""
    values, reference = np.asarray(values, dtype=float), np.asarray(reference, dtype=float)
    safe = np.where(reference > 0, reference, 1.0)
    return float(np.max(np.where(reference > 0, np.abs(values - reference) / safe, np.abs(values))))
