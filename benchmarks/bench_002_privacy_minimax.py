"""Benchmark of privlib.minimax (chapter 002) against the best alternative a competent user would
write, interleaved in one process in rotating order (CPU time with threads limited to 1, wall time
beside it), median of 9 rounds, with the accuracy of each against an mpmath reference where the
result is a number.

- ``binomial_tv`` (binomial tails at the likelihood-ratio crossing, O(1)) against the same two
  tails as scipy calls, ``binom.sf(c, n, p1) - binom.sf(c, n, p0)`` at the crossing c, on generic
  rates; reference: the crossing-tail difference summed term by term in 50-digit arithmetic
  (mpmath);
- ``support_dp_expmech`` (partition around the target rank, O(n)) against sorting the sample and
  a Gumbel-max draw over all intervals (O(n log n)); both draw exactly from the same law;
- ``soft_chtp_sup`` (SLSQP with the analytic gradient) against the same grid search refined by
  SLSQP with finite-difference gradients; reference: the analytic optimum ``tanh(L/4)`` of a
  binary pair (derived in the chapter) and the best value either finds on ternary pairs;
- ``worst_two_point_risk`` on the 200 x 150 grid of Figure F4 (10^7 two-point risks) against the
  same closed form written as one numpy broadcast; reference: mpmath at 20 grid cells.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import mpmath
import numpy as np
from scipy import optimize, stats

from privlib import minimax

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import header, interleaved, row  # noqa: E402

REPEAT = 9


def rel_err(x: float, ref: float) -> float:
    return abs(x - ref) / abs(ref) if ref else abs(x)


# --- binomial TV --------------------------------------------------------------------------------

def tv_by_scipy_tails(n: int, p0: float, p1: float) -> float:
    """TV of Bin(n, p0) and Bin(n, p1) as two scipy tails: with lo < hi, the likelihood ratio
    crosses 1 at c = floor(n log((1-lo)/(1-hi)) / log(hi (1-lo) / (lo (1-hi)))), and the TV is
    P_hi(K > c) - P_lo(K > c)."""
    lo, hi = min(p0, p1), max(p0, p1)
    num = np.log1p(-lo) - np.log1p(-hi)
    c = np.floor(n * num / (np.log(hi) - np.log(lo) + num))
    return float(stats.binom.sf(c, n, hi) - stats.binom.sf(c, n, lo))


def tv_reference(n: int, p0: float, p1: float) -> float:
    """TV of the two binomials in 50-digit arithmetic: the difference of the upper tails at the
    likelihood-ratio crossing, each summed term by term (mpmath) over mean +- 40 standard
    deviations (the terms beyond are below 1e-300 of the total)."""
    mpmath.mp.dps = 50
    lo, hi = mpmath.mpf(min(p0, p1)), mpmath.mpf(max(p0, p1))
    num = mpmath.log(1 - lo) - mpmath.log(1 - hi)
    c = int(mpmath.floor(n * num / (mpmath.log(hi) - mpmath.log(lo) + num)))

    def upper_tail(p):
        sd = float(mpmath.sqrt(n * p * (1 - p)))
        first = max(c + 1, int(n * p - 40 * sd))
        last = min(n, int(n * p + 40 * sd) + 1)
        term = mpmath.binomial(n, first) * p ** first * (1 - p) ** (n - first)
        total = mpmath.mpf(0)
        for j in range(first, last + 1):
            total += term
            term *= mpmath.mpf(n - j) / (j + 1) * p / (1 - p)
        return total

    return float(upper_tail(hi) - upper_tail(lo))


# --- exponential mechanism ------------------------------------------------------------------------

def expmech_by_sorting(x: np.ndarray, alpha: float, rng: np.random.Generator) -> float:
    n = x.size
    k = min(n, int(np.ceil(4.0 * np.log(max(n, 2)) / alpha)))
    edges = np.concatenate([[0.0], np.sort(x), [2.0]])
    with np.errstate(divide="ignore"):
        log_w = np.log(np.diff(edges)) - 0.5 * alpha * np.abs(np.arange(n + 1) - k)
    j = int(np.argmax(log_w + rng.gumbel(size=log_w.size)))
    return float(rng.uniform(edges[j], edges[j + 1]) - k / (n + 1))


# --- soft CHTP ------------------------------------------------------------------------------------

def soft_chtp_finite_differences(p: np.ndarray, q: np.ndarray, gamma: float, restarts: int = 4) -> float:
    m = p.size
    grid = {2: 101, 3: 21}[m]
    axis = np.linspace(0.0, 1.0, grid)
    w = np.array(list(itertools.product(axis, repeat=m)))
    w = w[(w @ p >= gamma) & (w @ q > 0) & (w.max(axis=1) == 1.0)]
    tv = 0.5 * np.abs(w * p / (w @ p)[:, None] - w * q / (w @ q)[:, None]).sum(axis=1)
    best = float(tv.max())

    def neg(x):
        x = np.clip(x, 0.0, 1.0)
        if x @ p <= 1e-12 or x @ q <= 1e-12:
            return 0.0
        return -0.5 * float(np.abs(x * p / (x @ p) - x * q / (x @ q)).sum())

    cons = [{"type": "ineq", "fun": lambda x: x @ p - gamma}, {"type": "ineq", "fun": lambda x: x @ q - 1e-12}]
    for x0 in w[np.argsort(-tv, kind="stable")[:restarts]]:
        res = optimize.minimize(neg, x0, method="SLSQP", bounds=[(0.0, 1.0)] * m, constraints=cons,
                                options={"ftol": 1e-15, "maxiter": 200})
        x = np.clip(res.x, 0.0, 1.0)
        if x @ p >= gamma - 1e-9:
            best = max(best, -neg(x))
    return best


# --- worst two-point risk -------------------------------------------------------------------------

N_GRID = np.logspace(1, 9, 200)[None, :]
D_GRID = np.logspace(0, 3, 150)[:, None]
P_GRID = np.geomspace(1e-12, 1.0, 333)


def phase_by_broadcast() -> np.ndarray:
    k, r, alpha = 4.0, 1.0, 1.0
    c = 8.0 * D_GRID ** 2 / (N_GRID ** 2 * alpha ** 2)
    t = r * ((k - 1.0) / c) ** (1.0 / (2.0 * k))
    u = r * P_GRID ** (-1.0 / k)
    cu = np.minimum(u, t[..., None])
    risk = (P_GRID * (cu - u)) ** 2 + cu ** 2 * P_GRID * (1 - P_GRID) / N_GRID[..., None]
    return risk.max(axis=-1) + c * t ** 2


def phase_reference(i: int, j: int) -> float:
    mpmath.mp.dps = 30
    k, n, d = mpmath.mpf(4), mpmath.mpf(N_GRID[0, j]), mpmath.mpf(D_GRID[i, 0])
    c = 8 * d ** 2 / n ** 2
    t = ((k - 1) / c) ** (1 / (2 * k))
    best = mpmath.mpf(0)
    for p in map(mpmath.mpf, P_GRID):
        u = p ** (-1 / k)
        cu = min(u, t)
        best = max(best, (p * (cu - u)) ** 2 + cu ** 2 * p * (1 - p) / n)
    return float(best + c * t ** 2)


def main() -> None:
    rows = []
    rng = np.random.default_rng(0)

    for n in (10 ** 3, 10 ** 6):
        p0, p1 = 0.3137, 0.3137 + 2.9 / np.sqrt(n)
        times = interleaved({"privlib": lambda: minimax.binomial_tv(n, p0, p1), "alternative": lambda: tv_by_scipy_tails(n, p0, p1)},
                            repeat=REPEAT)
        ours, theirs = times["privlib"], times["alternative"]
        ref = tv_reference(n, p0, p1)
        rows.append((f"binomial TV distance, n = 10^{int(np.log10(n))}", "scipy `binom.sf` at the crossing, twice", ours, theirs,
                     rel_err(float(minimax.binomial_tv(n, p0, p1)), ref), rel_err(tv_by_scipy_tails(n, p0, p1), ref)))

    for n in (10 ** 5, 10 ** 6):
        x = 0.3 + rng.random(n)
        times = interleaved({"privlib": lambda: minimax.support_dp_expmech(x, 0.5, rng=rng),
                             "alternative": lambda: expmech_by_sorting(x, 0.5, rng)}, repeat=REPEAT)
        ours, theirs = times["privlib"], times["alternative"]
        rows.append((f"exponential-mechanism draw, n = 10^{int(np.log10(n))}", "sort + Gumbel-max", ours, theirs,
                     "both exact samplers", None))

    pairs = [(np.array([0.9, 0.1]), np.array([0.6, 0.4]), 0.2)]
    pairs += [tuple(rng.dirichlet(np.ones(3), 2)) + (float(rng.uniform(0.1, 0.9)),) for _ in range(20)]
    times = interleaved({"privlib": lambda: [minimax.soft_chtp_sup(p, q, g) for p, q, g in pairs],
                         "alternative": lambda: [soft_chtp_finite_differences(p, q, g) for p, q, g in pairs]}, repeat=REPEAT)
    ours, theirs = times["privlib"], times["alternative"]
    exact = float(np.tanh(np.log(0.9 * 0.4 / (0.6 * 0.1)) / 4))
    ours_v = [minimax.soft_chtp_sup(p, q, g) for p, q, g in pairs]
    theirs_v = [soft_chtp_finite_differences(p, q, g) for p, q, g in pairs]
    best = np.maximum(ours_v, theirs_v)
    rows.append(("soft CHTP level, 21 pairs (analytic gradient)", "SLSQP, finite-difference gradient", ours, theirs,
                 f"{rel_err(ours_v[0], exact):.1e} / {rel_err(theirs_v[0], exact):.1e} (binary pair, against tanh(L/4)); "
                 f"worst shortfall from the better of the two: {np.max(best - ours_v):.1e} / {np.max(best - theirs_v):.1e}", None))

    times = interleaved({"privlib": lambda: minimax.worst_two_point_risk(1.0, 4.0, N_GRID, D_GRID, 1.0, "laplace", n_grid=333),
                         "alternative": phase_by_broadcast}, repeat=REPEAT)
    ours, theirs = times["privlib"], times["alternative"]
    a = minimax.worst_two_point_risk(1.0, 4.0, N_GRID, D_GRID, 1.0, "laplace", n_grid=333)[0]
    b = phase_by_broadcast()
    cells = [(int(i), int(j)) for i, j in zip(np.linspace(0, 149, 5).round(), np.linspace(0, 199, 5).round())]
    refs = [phase_reference(i, j) for i, j in cells]
    rows.append(("worst two-point risk, F4 grid (10^7 risks)", "the same formula as one numpy broadcast", ours, theirs,
                 max(rel_err(a[i, j], ref) for (i, j), ref in zip(cells, refs)),
                 max(rel_err(b[i, j], ref) for (i, j), ref in zip(cells, refs))))

    print(header())
    for name, alt, t_ours, t_alt, e_ours, e_alt in rows:
        row(name, t_ours, alt, t_alt, e_ours, e_alt)


if __name__ == "__main__":
    main()
