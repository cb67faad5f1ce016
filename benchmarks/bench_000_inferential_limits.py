"""Benchmark of chapter 000 (privlib.intervals, privlib.pufferfish) against the best alternative a
competent user would write with numpy/scipy, on generic inputs.

Each row times privlib and the alternative interleaved in one process in rotating order (CPU
time with threads limited to 1, wall time beside it; median of 9 rounds) and prints their ratio
and the accuracy of each (largest relative error) against a 40-digit mpmath reference on a
subsample of the outputs:

- Theorem 4.1's bounds for the Laplace sum (n = 10^5, 10^4 outputs, eps n = 10) against the same
  closed form written as a numpy expression;
- the privatised data density p_theta(t) of the Laplace sum under a Binomial(n, 0.3) model
  (n = 10^4, 10^3 outputs over [-0.1 n, 1.1 n], eps = 0.5) against the numpy matrix expression
  ``w @ (eps/2) exp(-eps |t - k|)`` and its scipy log-sum-exp version;
- the Neyman-Pearson power of the Laplace mechanism (10^5 levels alpha in [1e-12, 1], eps d = 3)
  against scipy's ``laplace.sf(laplace.isf(alpha) - eps d)``;
- the Pufferfish loss of the Laplace sum under the correlated attacker (n = 400, rho = 0.8,
  eps = 0.5) against the direct evaluation of the two mixture densities at every centre (an
  (n + 1) x n matrix) and in both tails.
"""

from __future__ import annotations

import sys
from pathlib import Path

import mpmath
import numpy as np
from scipy import special, stats

from privlib import intervals, pufferfish

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import header, interleaved, row  # noqa: E402

mpmath.mp.dps = 40
REPEAT = 9


def rel_error(values, reference):
    values, reference = np.asarray(values, float), np.asarray(reference, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        err = np.where(reference == values, 0.0, np.abs(values - reference) / np.abs(reference))
    return float(np.nanmax(np.where(np.isfinite(err), err, np.inf)))


def bounds_row():
    n, eps = 10**5, 1e-4
    t = np.linspace(-n, 2 * n, 10**4)

    def numpy_bounds():
        near = np.clip(np.round(t), 0, n)
        far = np.where(t >= n / 2, 0.0, n)
        return eps / 2 * np.exp(-eps * (n + np.abs(t - near))), eps / 2 * np.exp(eps * (n - np.abs(t - far)))

    times = interleaved({"privlib": lambda: intervals.laplace_sum_bounds(t, n, eps, "integer"), "numpy": numpy_bounds}, repeat=REPEAT)
    ours, alt = times["privlib"], times["numpy"]
    idx = np.arange(0, t.size, 50)
    ref_lo, ref_hi = [], []
    for ti in t[idx]:
        ti = mpmath.mpf(float(ti))
        near = min(max(mpmath.nint(ti), 0), n)
        far = 0 if ti >= n / 2 else n
        ref_lo.append(mpmath.mpf(eps) / 2 * mpmath.exp(-mpmath.mpf(eps) * (n + abs(ti - near))))
        ref_hi.append(mpmath.mpf(eps) / 2 * mpmath.exp(mpmath.mpf(eps) * (n - abs(ti - far))))
    ref = np.r_[[float(x) for x in ref_lo], [float(x) for x in ref_hi]]
    a = np.r_[[b[idx] for b in intervals.laplace_sum_bounds(t, n, eps, "integer")]].ravel()
    b = np.r_[[b[idx] for b in numpy_bounds()]].ravel()
    return ("Theorem 4.1 bounds, Laplace sum, n = 10^5, 10^4 outputs", ours, "numpy closed form", alt,
            rel_error(a, ref), rel_error(b, ref))


def marginal_row():
    n, eps = 10**4, 0.5
    k = np.arange(n + 1)
    w = stats.binom.pmf(k, n, 0.3)
    t = np.linspace(-0.1 * n, 1.1 * n, 10**3)

    def matrix():
        return w @ (eps / 2 * np.exp(-eps * np.abs(t[None, :] - k[:, None])))

    def logsumexp():
        with np.errstate(divide="ignore"):                  # weights below 1e-308 are 0: log -inf
            log_w = np.log(w)
        return np.exp(special.logsumexp(log_w[:, None] - eps * np.abs(t[None, :] - k[:, None]), axis=0) + np.log(eps / 2))

    times = interleaved({"privlib": lambda: intervals.laplace_sum_marginal(t, w, eps), "matrix": matrix, "logsumexp": logsumexp},
                        repeat=REPEAT)
    ours, alt1, alt2 = times["privlib"], times["matrix"], times["logsumexp"]
    idx = np.arange(0, t.size, 50)
    lw = [mpmath.log(mpmath.binomial(n, j)) + j * mpmath.log(mpmath.mpf("0.3")) + (n - j) * mpmath.log(mpmath.mpf("0.7"))
          for j in range(n + 1)]
    ref = []
    for ti in t[idx]:
        ti = mpmath.mpf(float(ti))
        terms = [lw[j] - mpmath.mpf(eps) * abs(ti - j) for j in range(n + 1)]
        top = max(terms)
        ref.append(float(mpmath.mpf(eps) / 2 * mpmath.exp(top) * mpmath.fsum(mpmath.exp(x - top) for x in terms)))
    errs = [rel_error(f()[idx], ref) for f in (lambda: intervals.laplace_sum_marginal(t, w, eps), matrix, logsumexp)]
    return [("privatised density p_theta(t), Binomial(10^4, 0.3) model, 10^3 outputs", ours, "numpy matrix w @ Lap", alt1, errs[0], errs[1]),
            ("same", ours, "scipy logsumexp over counts", alt2, errs[0], errs[2])]


def power_row():
    r = 3.0
    alpha = np.logspace(-12, 0, 10**5)

    def scipy_power():
        return stats.laplace.sf(stats.laplace.isf(alpha) - r)

    times = interleaved({"privlib": lambda: intervals.laplace_power(alpha, 1.0, r), "scipy": scipy_power}, repeat=REPEAT)
    ours, alt = times["privlib"], times["scipy"]
    idx = np.arange(0, alpha.size, 500)
    ref = []
    for a in alpha[idx]:
        a = mpmath.mpf(float(a))
        c = -mpmath.log(2 * a) if a <= 0.5 else mpmath.log(2 * (1 - a))
        z = c - r
        ref.append(float(mpmath.exp(-z) / 2 if z >= 0 else 1 - mpmath.exp(z) / 2))
    return ("Laplace Neyman-Pearson power, 10^5 levels, eps d = 3", ours, "scipy laplace.sf(isf(alpha) - eps d)", alt,
            rel_error(intervals.laplace_power(alpha, 1.0, r)[idx], ref), rel_error(scipy_power()[idx], ref))


def loss_row():
    n, eps, rho = 400, 0.5, 0.8
    k = np.arange(n)
    w = stats.binom.pmf(k, n - 1, rho)

    def direct():
        knots = np.r_[-1.0, np.arange(n + 1.0), n + 1.0]
        f1 = (w[None, :] * np.exp(-eps * np.abs(knots[:, None] - (1 + k)[None, :]))).sum(axis=1)
        f0 = (w[None, :] * np.exp(-eps * np.abs(knots[:, None] - (n - 1 - k)[None, :]))).sum(axis=1)
        return float(np.abs(np.log(f1) - np.log(f0)).max())

    times = interleaved({"privlib": lambda: pufferfish.laplace_sum_pufferfish_loss(n, eps, rho), "direct": direct}, repeat=REPEAT)
    ours, alt = times["privlib"], times["direct"]
    lw = [mpmath.log(mpmath.binomial(n - 1, j)) + j * mpmath.log(mpmath.mpf(rho)) + (n - 1 - j) * mpmath.log(1 - mpmath.mpf(rho))
          for j in range(n)]
    best = mpmath.mpf(0)
    for x in [-1] + list(range(n + 1)) + [n + 1]:
        f1 = mpmath.fsum(mpmath.exp(lw[j] - mpmath.mpf(eps) * abs(x - 1 - j)) for j in range(n))
        f0 = mpmath.fsum(mpmath.exp(lw[j] - mpmath.mpf(eps) * abs(x - (n - 1 - j))) for j in range(n))
        best = max(best, abs(mpmath.log(f1) - mpmath.log(f0)))
    ref = float(best)
    return ("Pufferfish loss of the Laplace sum, n = 400, correlated attacker", ours, "direct (n + 1) x n evaluation", alt,
            rel_error(pufferfish.laplace_sum_pufferfish_loss(n, eps, rho), ref), rel_error(direct(), ref))


def main() -> None:
    rows = [bounds_row(), *marginal_row(), power_row(), loss_row()]
    print(header())
    for name, ours, alt_name, alt, err_ours, err_alt in rows:
        row(name, ours, alt_name, alt, err_ours, err_alt)


if __name__ == "__main__":
    main()
