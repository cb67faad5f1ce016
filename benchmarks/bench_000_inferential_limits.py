"""Benchmark of privlib.intervals (chapter 000): median of several runs.

Theorem 4.1's bounds for the Laplace-privatised sum of n = 10^5 records at 10^4 outputs
(target: under 100 ms). privlib evaluates the suprema in closed form at the nearest and farthest
count (the mixture centres); the straightforward route takes the max and min over all n + 1
count densities at every output (timed at n = 10^3 and scaled linearly in n).
"""

from __future__ import annotations


import numpy as np
from _timing import median_seconds

from privlib import intervals, mechanisms




def straightforward(t, n, eps):
    dens = mechanisms.LaplaceMechanism(eps).pdf(t[None, :], np.arange(n + 1)[:, None])
    return intervals.density_bounds(dens, eps, n)


def main() -> None:
    n, eps = 10**5, 1e-4
    t = np.linspace(-n, 2 * n, 10**4)
    fast = median_seconds(lambda: intervals.laplace_sum_bounds(t, n, eps, "integer"))
    small = 10**3
    t_small = np.linspace(-small, 2 * small, 10**4)
    slow = median_seconds(lambda: straightforward(t_small, small, 1e-2), repeat=3) * (n / small)
    lo, hi = intervals.laplace_sum_bounds(t_small, small, 1e-2, "integer")
    blo, bhi = straightforward(t_small, small, 1e-2)
    assert np.allclose(lo, blo, rtol=1e-12) and np.allclose(hi, bhi, rtol=1e-12)
    print("| computation | privlib | straightforward | target |")
    print("|---|---|---|---|")
    print(f"| Theorem 4.1 bounds, Laplace sum, n = 10^5, 10^4 outputs | {fast * 1e3:.2f} ms | "
          f"{slow:.0f} s (max/min over all counts, from n = 10^3) | < 100 ms |")


if __name__ == "__main__":
    main()
