"""Benchmark of privlib.statistical (chapter 004) against the best alternatives a competent user has.

Interleaved in one process in rotating order (CPU time with threads limited to 1, wall time beside
it), median of 7 rounds each; accuracy as the largest relative error against 40-digit sums of the
exact laws (mpmath) at a few epsilons from 1e-8 to 40 (at n = 10^8, a 30-digit sum walked from the
threshold until the terms no longer matter).

- pure SP delta at 10^3 epsilons for n = 10^4, 10^6, 10^7, 10^8: against the
  vectorized closed form with scipy's binomial tails, ``sf(J-2) - e^eps sf(J-1)`` at the
  threshold J of Theorem 4.2 (both directions), and against dp-accounting's PLD built from the two
  pmfs (n = 10^4);
- SP delta with Gaussian noise (n = 10^3, 10^5, 10^7, one epsilon): against integration of the two
  mixture densities on a dense grid (vectorized numpy, n = 10^3 only: beyond, it takes minutes);
- the whole chapter notebook (one execution; CPU time of this process and the kernel's).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from scipy import stats

from privlib import statistical
from privlib.verify.statistical_privacy._routes import _grid_delta, mp_delta, mp_pure_delta_window

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import children_timing, header, interleaved, row, worst_relative_error  # noqa: E402


def tails_pure(eps, n, pi):
    """Theorem 4.2 with binomial tails: delta_+ = P(K >= J - 1) - e^eps P(K >= J), K ~ Bin(n-1, pi),
    J the first output above the threshold; delta_- by symmetry."""
    out = []
    for p in (pi, 1 - pi):
        j = np.floor(n * p * np.exp(eps) / (1 - p + p * np.exp(eps))) + 1
        out.append(np.clip(stats.binom.sf(j - 2, n - 1, p) - np.exp(eps) * stats.binom.sf(j - 1, n - 1, p), 0, 1))
    return np.maximum(*out)


def partial_expectation_pure(eps, n, pi):
    """Theorem 4.2 in O(1) per epsilon without the difference of two tails: with ``b`` the pmf and
    ``T(J) = P(K >= J)`` of ``K ~ Bin(n, p)``, ``P_+(j) - e^eps P_-(j) = b(j) kappa (j - j*)``
    (``kappa = 1/(n p) + e^eps/(n q)``, ``j*`` the threshold), and the binomial identity
    ``sum_{j >= J} (j - n p) b(j) = q J b(J)`` gives ``delta_+ = kappa (q J b(J) - (j* - n p) T(J))``
    (scipy's ``binom.pmf`` and ``binom.sf``); delta_- by symmetry. The two terms still cancel, by
    a factor of about z^2 at z standard deviations out."""
    out = []
    e = np.exp(eps)
    for p in (pi, 1 - pi):
        q = 1 - p
        kappa = 1 / (n * p) + e / (n * q)
        j_star = e / (q * kappa)
        j = np.floor(j_star) + 1
        value = kappa * (q * j * stats.binom.pmf(j, n, p) - (j_star - n * p) * stats.binom.sf(j - 1, n, p))
        out.append(np.clip(value, 0, 1))
    return np.maximum(*out)


def dp_accounting_pure(eps, n, pi):
    from dp_accounting.pld import privacy_loss_distribution as pld

    j = np.arange(n + 1)
    out = []
    for p in (pi, 1 - pi):
        upper = dict(enumerate(stats.binom.logpmf(j - 1, n - 1, p)))
        lower = dict(enumerate(stats.binom.logpmf(j, n - 1, p)))
        upper = {k: v for k, v in upper.items() if v > -np.inf}
        lower = {k: v for k, v in lower.items() if v > -np.inf}
        dist = pld.from_two_probability_mass_functions(lower, upper, symmetric=False)
        out.append([dist.get_delta_for_epsilon(float(e)) for e in eps])
    return np.maximum(*np.array(out))


def grid_noise(eps, n, pi, scale, points=20_001):
    """Dense-grid integral of the positive part of the two mixture densities (both directions)."""
    k = np.arange(n)
    w = stats.binom.pmf(k, n - 1, pi)
    keep = w > 1e-16 * w.max()
    k, w = k[keep], w[keep]
    t = np.linspace(k.min() / n - 10 * scale, (k.max() + 1) / n + 10 * scale, points)
    plus = np.zeros_like(t)
    minus = np.zeros_like(t)
    for lo in range(0, k.size, 64):
        kk, ww = k[lo:lo + 64], w[lo:lo + 64]
        plus += (ww * stats.norm.pdf((t[:, None] - (kk + 1) / n) / scale)).sum(axis=1)
        minus += (ww * stats.norm.pdf((t[:, None] - kk / n) / scale)).sum(axis=1)
    dt = (t[1] - t[0]) / scale
    return max(np.maximum(plus - np.exp(eps) * minus, 0).sum() * dt, np.maximum(minus - np.exp(eps) * plus, 0).sum() * dt)


def pure_rows(sizes=(10**4, 10**6, 10**7, 10**8)) -> None:
    """The rows of pure SP at 10^3 epsilons against scipy's binomial tails."""
    eps = np.geomspace(1e-4, 3.0, 1000)
    for n in sizes:
        t = interleaved({"privlib": lambda: statistical.pure_delta(eps, n, 0.3),
                         "tails": lambda: tails_pure(eps, n, 0.3),
                         "partial": lambda: partial_expectation_pure(eps, n, 0.3)})
        # the accuracy at epsilons from the centre to near the largest privacy loss with a double delta
        # (about 38 standard deviations out: 8e-3 at n = 10^8)
        check = np.unique(np.concatenate([CHECK, np.array([0.3, 3.0, 12.0, 27.0, 37.0]) / np.sqrt(n * 0.21)]))
        ref = [mp_delta(e, n, n, 0.3) for e in check] if n <= 10**6 else [mp_pure_delta_window(e, n, 0.3) for e in check]
        ours, theirs = statistical.pure_delta(eps, n, 0.3), tails_pure(eps, n, 0.3)
        representable = statistical.log_pure_delta(eps, n, 0.3) > -700
        zeros = f"{int(((ours == 0) & representable).sum())} / {int(((theirs == 0) & representable).sum())}"
        acc = (f"{worst_relative_error(statistical.pure_delta(check, n, 0.3), ref):.1e} / "
               f"{worst_relative_error(tails_pure(check, n, 0.3), ref):.1e}")
        row(f"pure statistical-privacy delta, n = 10^{int(np.log10(n))}, 10^3 epsilons", t["privlib"],
            "scipy binomial tails (`binom.sf` at the threshold of Theorem 4.2)", t["tails"],
            f"{acc}; exact zeros where delta > 0: {zeros}")
        partial = partial_expectation_pure(check, n, 0.3)
        row("same", t["privlib"], "O(1) partial-expectation form (`binom.pmf`, `binom.sf`; no difference of tails)",
            t["partial"], f"{worst_relative_error(statistical.pure_delta(check, n, 0.3), ref):.1e} / "
                          f"{worst_relative_error(partial, ref):.1e}")


#: epsilons of the accuracy columns (each pure row adds five at 0.3 to 37 standard deviations)
CHECK = np.array([1e-8, 1e-3, 0.05, 1.0])


def main() -> None:
    eps = np.geomspace(1e-4, 3.0, 1000)
    check = CHECK
    print(header())
    pure_rows()

    n = 10**4
    t = interleaved({"privlib": lambda: statistical.pure_delta(eps[::10], n, 0.3),
                     "dp": lambda: dp_accounting_pure(eps[::10], n, 0.3)}, repeat=7)
    ref = [mp_delta(e, n, n, 0.3) for e in check]
    row("pure statistical-privacy delta, n = 10^4, 100 epsilons", t["privlib"], "dp-accounting PLD of the two pmfs", t["dp"],
        worst_relative_error(statistical.pure_delta(check, n, 0.3), ref), worst_relative_error(dp_accounting_pure(check, n, 0.3), ref))

    for n in (10**3, 10**5, 10**7):
        scale = 1.0 / n
        methods = {"privlib": lambda: statistical.noise_delta(0.01, n, 0.3, scale)}
        if n == 10**3:
            methods["grid"] = lambda: grid_noise(0.01, n, 0.3, scale)
        t = interleaved(methods, repeat=7)
        label = f"statistical-privacy delta with Gaussian noise, n = 10^{int(np.log10(n))}, one epsilon"
        if "grid" in t:
            ref = _grid_delta(0.01, n, 0.3, scale, "gaussian", 16)
            row(label, t["privlib"], "numpy dense grid of the two mixture densities (20,001 points)", t["grid"],
                worst_relative_error([statistical.noise_delta(0.01, n, 0.3, scale)], [ref]),
                worst_relative_error([grid_noise(0.01, n, 0.3, scale)], [ref]))
        else:
            row(label, t["privlib"], "(the dense grid takes minutes)")

    notebook = Path(__file__).resolve().parent.parent / "notebooks" / "004_statistical_privacy.ipynb"
    t = children_timing(lambda: subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--stdout", str(notebook)],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ))
    row("the whole chapter notebook, executed once (CPU of the kernel included)", t)
    print("\nAccuracy: largest relative error against 40-digit sums of the exact laws at eps in {1e-8, 1e-3, 0.05, 1} "
          "(pi = 0.3; the pure rows add eps = z / sqrt(n pi (1 - pi)) for z in {0.3, 3, 12, 27, 37}, up to the largest "
          "epsilon whose delta is a normal double); an exact 0 where the truth is positive counts as error 1. The noise rows compare with a "
          "Richardson-extrapolated lattice-aligned trapezoid (relative accuracy about 1e-10); the noise kernel's accuracy "
          "against mpmath is tested in tests/test_statistical.py (relative 1e-9 at eps from 1e-8 to 40).")


if __name__ == "__main__":
    main()
