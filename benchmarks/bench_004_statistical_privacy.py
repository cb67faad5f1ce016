"""Benchmark of privlib.statistical (chapter 004): median of several runs.

- pure statistical privacy delta for n = 10^6 at 10^3 epsilons (target: under 50 ms), against
  the straightforward sum of positive parts over all n + 1 outputs for each epsilon;
- the noise case at n = 1000 per (pi, nu, eps) (target: under 5 ms), against a dense-grid
  integral of the positive part of the two mixture densities;
- all eight figures at the notebook's default grids (target: under 60 s), timed by executing the
  chapter notebook.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from _timing import median_seconds
from scipy import stats

from privlib import statistical




def naive_pure(eps, n, pi):
    j = np.arange(n + 1)
    p = stats.binom.pmf(j - 1, n - 1, pi)
    q = stats.binom.pmf(j, n - 1, pi)
    return np.array([max(np.maximum(p - np.exp(e) * q, 0).sum(), np.maximum(q - np.exp(e) * p, 0).sum()) for e in eps])


def naive_noise(eps, n, pi, scale):
    t = np.linspace(-10 * scale, 1 + 10 * scale, 200_001)
    plus, minus = statistical.output_densities(t, n, pi, scale)
    dt = t[1] - t[0]
    return max(np.maximum(plus - np.exp(eps) * minus, 0).sum() * dt, np.maximum(minus - np.exp(eps) * plus, 0).sum() * dt)


def main() -> None:
    eps = np.linspace(0.0, 0.05, 1000)
    fast_pure = median_seconds(lambda: statistical.pure_delta(eps, 10**6, 0.3))
    slow_pure = median_seconds(lambda: naive_pure(eps[:10], 10**6, 0.3), repeat=1) * 100
    assert np.allclose(statistical.pure_delta(eps[:10], 10**6, 0.3), naive_pure(eps[:10], 10**6, 0.3), atol=1e-12)

    fast_noise = median_seconds(lambda: statistical.noise_delta(0.01, 1000, 0.3, 1 / 1000), repeat=9)
    slow_noise = median_seconds(lambda: naive_noise(0.01, 1000, 0.3, 1 / 1000), repeat=1)
    assert abs(float(statistical.noise_delta(0.01, 1000, 0.3, 1 / 1000)) - naive_noise(0.01, 1000, 0.3, 1 / 1000)) < 1e-5

    notebook = Path(__file__).resolve().parent.parent / "notebooks" / "004_statistical_privacy.ipynb"
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--stdout", str(notebook)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ)
    figures = time.perf_counter() - start

    print("| computation | privlib | straightforward | target |")
    print("|---|---|---|---|")
    print(f"| pure SP delta, n = 10^6, 10^3 epsilons | {fast_pure * 1e3:.1f} ms | {slow_pure:.1f} s (full sums, from 10 epsilons) | < 50 ms |")
    print(f"| SP delta with Gaussian noise, n = 1000, one (pi, nu, eps) | {fast_noise * 1e3:.1f} ms | {slow_noise * 1e3:.0f} ms (dense grid) | < 5 ms |")
    print(f"| the whole chapter notebook (all eight figures and claims) | {figures:.0f} s | - | < 60 s |")


if __name__ == "__main__":
    main()
