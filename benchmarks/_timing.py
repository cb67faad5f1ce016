"""Timing helper shared by the benchmark scripts."""

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
