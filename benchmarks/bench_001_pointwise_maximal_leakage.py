"""Benchmark of privlib.leakage (chapter 001): median of several runs.

- PML of a 1000 x 1000 channel under a given prior (target: under 5 ms), against a Python loop
  over outputs;
- PML of the Laplace counting query for n = 10^6 records at two outputs (target: under 100 ms;
  O(n) in log-space over query values), against summing the binomial mixture with a Python loop
  over a 10^4-record database (scaled to 10^6).
"""

from __future__ import annotations

import math

import numpy as np
from _timing import median_seconds

from privlib import leakage




def loop_pml(prior, channel):
    out = []
    for y in range(channel.shape[1]):
        p_y = sum(prior[x] * channel[x, y] for x in range(channel.shape[0]))
        out.append(math.log(max(channel[:, y]) / p_y))
    return out


def loop_count_pml(n, theta, eps, y):
    b = 1.0 / (n * eps)
    a = [0.0, 0.0]
    for z in (0, 1):
        for k in range(n):
            log_w = math.lgamma(n) - math.lgamma(k + 1) - math.lgamma(n - k) + k * math.log(theta) + (n - 1 - k) * math.log1p(-theta)
            a[z] += math.exp(log_w - abs(y - (k + z) / n) / b) / (2 * b)
    return math.log(max(a) / (theta * a[1] + (1 - theta) * a[0]))


def main() -> None:
    rng = np.random.default_rng(0)
    prior = rng.dirichlet(np.ones(1000))
    channel = rng.dirichlet(np.ones(1000), size=1000)
    fast = median_seconds(lambda: leakage.pml(prior, channel))
    slow = median_seconds(lambda: loop_pml(prior, channel), repeat=1)
    assert np.allclose(leakage.pml(prior, channel)[:5], loop_pml(prior, channel[:, :5]))

    y = np.array([0.3, 1.2])
    fast_count = median_seconds(lambda: leakage.laplace_count_pml(10**6, 0.3, 1.0, y))
    slow_small = median_seconds(lambda: loop_count_pml(10**4, 0.3, 1.0, 0.3), repeat=1)
    assert abs(float(leakage.laplace_count_pml(10**4, 0.3, 1.0, 0.3)) - loop_count_pml(10**4, 0.3, 1.0, 0.3)) < 1e-9
    try:
        loop_count_pml(10**4, 0.3, 1.0, 1.2)
        underflow = "no"
    except ZeroDivisionError:
        underflow = "yes (0/0 at y = 1.2; privlib gives %.6f)" % float(leakage.laplace_count_pml(10**4, 0.3, 1.0, 1.2))

    print("| computation | privlib | straightforward | target |")
    print("|---|---|---|---|")
    print(f"| PML, 1000 x 1000 channel | {fast * 1e3:.2f} ms | {slow * 1e3:.0f} ms (Python loop) | < 5 ms |")
    print(f"| Laplace counting-query PML, n = 10^6, 2 outputs | {fast_count * 1e3:.0f} ms | "
          f"{slow_small * 100 * 2:.0f} s (loop at n = 10^4, x100, x2 outputs) | < 100 ms |")
    print(f"\nlinear-space sum underflows in the tails: {underflow}")


if __name__ == "__main__":
    main()
