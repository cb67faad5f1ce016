"""Benchmark of privlib.minimax (chapter 002): median of several runs.

- the phase diagram of Figure F4: worst two-point risk of the alpha-DP estimator over a
  200 x 150 grid of (n, d) and 333 values of p, i.e. 10^7 two-point risks (target: under 2 s,
  one broadcast evaluation), against a Python loop over the grid cells (each cell vectorised
  over p, measured on 1/10 of the grid and scaled);
- Monte Carlo of estimator (20) for n = 10^6, d = 100, 2000 replicates through the sufficient
  statistic Bin(n, p), against simulating full (n, d) samples (measured on 2 replicates and
  scaled).
"""

from __future__ import annotations

import numpy as np
from _timing import median_seconds

from privlib import minimax

N_GRID = np.logspace(1, 9, 200)[None, :]
D_GRID = np.logspace(0, 3, 150)[:, None]


def phase_diagram() -> np.ndarray:
    return minimax.worst_two_point_risk(1.0, 4.0, N_GRID, D_GRID, 1.0, "laplace", n_grid=333)[0]


def loop_phase_diagram(rows: int) -> np.ndarray:
    p = np.geomspace(1e-12, 1.0, 333)
    out = np.empty((rows, N_GRID.size))
    for i in range(rows):
        for j in range(N_GRID.size):
            n, d = N_GRID[0, j], D_GRID[i, 0]
            c = minimax.noise_coefficient("laplace", n, d, 1.0)
            t = minimax.optimal_truncation(1.0, 4.0, c)
            out[i, j] = minimax.two_point_risk(p, 1.0, 4.0, n, t, c).max()
    return out


def full_sample_mc(reps: int, n: int, d: int, p: float, t: float, rng: np.random.Generator) -> float:
    u = p ** -0.25
    losses = []
    for _ in range(reps):
        x = np.zeros((n, d))
        x[:, 0] = u * (rng.random(n) < p)
        est = minimax.private_mean(x, "laplace", 0.5, t, rng=rng)
        losses.append(np.sum((est - np.r_[p * u, np.zeros(d - 1)]) ** 2))
    return float(np.mean(losses))


def main() -> None:
    fast = median_seconds(phase_diagram)
    rows = 15
    slow = median_seconds(lambda: loop_phase_diagram(rows), repeat=1) * D_GRID.size / rows
    assert np.allclose(phase_diagram()[:rows], loop_phase_diagram(rows), rtol=1e-12)

    n, d, reps = 10**6, 100, 2000
    c = float(minimax.noise_coefficient("laplace", n, d, 0.5))
    t = float(minimax.optimal_truncation(1.0, 4.0, c))
    _, p = minimax.worst_two_point_risk(1.0, 4.0, n, d, 0.5, "laplace")
    rng = np.random.default_rng(0)
    mc = median_seconds(lambda: minimax.simulate_two_point_risk(float(p), 1.0, 4.0, n, d, 0.5, "laplace", t, reps=reps, rng=rng))
    mc_full = median_seconds(lambda: full_sample_mc(2, n, d, float(p), t, rng), repeat=1) * reps / 2

    print("| computation | privlib | straightforward | target |")
    print("|---|---|---|---|")
    print(f"| 002: phase diagram F4, 10^7 two-point risks | {fast * 1e3:.0f} ms | {slow:.1f} s (loop over the grid cells) | < 2 s |")
    print(f"| 002: Monte Carlo of estimator (20), n = 10^6, d = 100, 2000 replicates | {mc * 1e3:.0f} ms | "
          f"{mc_full:.0f} s (full samples, extrapolated) | |")


if __name__ == "__main__":
    main()
