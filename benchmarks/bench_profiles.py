"""Benchmark of privlib.profiles: privacy curves evaluated on many epsilons.

Prints the median of several runs for
- hockey_stick on two pmfs of 10^5 outputs at 10^3 epsilons (sort once + cumulative sums),
  against the straightforward sum of positive parts per epsilon;
- gaussian_delta at 10^6 epsilons (vectorized log-space closed form), against a Python loop
  over scipy.stats.norm.cdf.
"""

from __future__ import annotations


import numpy as np
from _timing import median_seconds
from scipy import stats

from privlib import mechanisms, profiles




def main() -> None:
    geo = mechanisms.GeometricMechanism(0.5)
    z = np.arange(-50_000, 50_000)
    p, q = geo.pmf(z, 0), geo.pmf(z, 1)
    p, q = p / p.sum(), q / q.sum()
    eps = np.linspace(0.0, 0.6, 1000)

    def naive_hockey_stick():
        return np.array([np.maximum(p - np.exp(e) * q, 0.0).sum() for e in eps])

    fast = median_seconds(lambda: profiles.hockey_stick(p, q, eps))
    slow = median_seconds(naive_hockey_stick, repeat=3)
    assert np.allclose(profiles.hockey_stick(p, q, eps), naive_hockey_stick(), atol=1e-12)

    eps_many = np.linspace(0.0, 10.0, 1_000_000)
    mu = 1.0
    fast_g = median_seconds(lambda: profiles.gaussian_delta(eps_many, mu))
    eps_few = eps_many[::1000]

    def loop_gaussian():
        return [stats.norm.cdf(-e / mu + mu / 2) - np.exp(e) * stats.norm.cdf(-e / mu - mu / 2) for e in eps_few]

    slow_g = median_seconds(loop_gaussian, repeat=3) * 1000  # scaled to 10^6 epsilons

    print("| computation | privlib | straightforward | speed-up |")
    print("|---|---|---|---|")
    print(f"| hockey_stick, 10^5 outputs x 10^3 epsilons | {fast * 1e3:.1f} ms | {slow * 1e3:.0f} ms | {slow / fast:.0f}x |")
    print(f"| gaussian_delta, 10^6 epsilons | {fast_g * 1e3:.1f} ms | {slow_g:.1f} s (loop, extrapolated from 10^3) | {slow_g / fast_g:.0f}x |")


if __name__ == "__main__":
    main()
