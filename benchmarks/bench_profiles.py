"""Benchmark of privlib.profiles against the best alternatives a competent user has.

Interleaved in one process, median of 7 repetitions each; accuracy as the largest relative error
against an mpmath reference (40 digits) on an instance where the reference is computable.

- hockey_stick, generic pmfs (10^7 outputs, 10^3 epsilons): against the vectorized
  sort + cumulative-sum + searchsorted expression, and against ``np.add`` on the same arrays (the
  issue's yardstick: at most 60x); accuracy on a binomial pair whose deltas reach 1e-32, also
  against dp-accounting's PLD built from the two pmfs (10^3 outputs);
- gaussian_delta at 10^6 epsilons: against the scipy expression
  ``ndtr(-e/mu + mu/2) - exp(e) ndtr(-e/mu - mu/2)`` and dp-accounting's
  ``GaussianPrivacyLoss.get_delta_for_epsilon``; accuracy where delta goes down to 1e-300.
"""

from __future__ import annotations

import sys
from pathlib import Path

import mpmath
import numpy as np
from scipy import special, stats

from privlib import profiles

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import interleaved, worst_relative_error  # noqa: E402


def sorted_cumsum_hockey_stick(p, q, eps):
    """The best plain numpy expression: sort by privacy loss, cumulative sums, binary search."""
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = np.log(p) - np.log(q)
    order = np.argsort(-loss)
    loss_desc = loss[order]
    cum_p = np.r_[0.0, np.cumsum(p[order])]
    cum_q = np.r_[0.0, np.cumsum(q[order])]
    k = np.searchsorted(-loss_desc, -eps, side="left")
    return np.clip(cum_p[k] - np.exp(eps) * cum_q[k], 0.0, 1.0)


def dp_accounting_hockey_stick(p, q, eps):
    from dp_accounting.pld import privacy_loss_distribution as pld

    upper = {i: float(np.log(x)) for i, x in enumerate(p) if x > 0}
    lower = {i: float(np.log(x)) for i, x in enumerate(q) if x > 0}
    dist = pld.from_two_probability_mass_functions(lower, upper, symmetric=False)
    return np.array([dist.get_delta_for_epsilon(float(e)) for e in eps])


def main() -> None:
    rng = np.random.default_rng(0)
    n = 10**7
    p, q = rng.random(n), rng.random(n)
    p, q = p / p.sum(), q / q.sum()
    eps = np.linspace(0.0, 2.0, 1000)
    t = interleaved({"privlib": lambda: profiles.hockey_stick(p, q, eps),
                     "sort + cumsum": lambda: sorted_cumsum_hockey_stick(p, q, eps),
                     "np.add": lambda: np.add(p, q)})

    # accuracy: Bin(399) shifted by one against Bin(399): deltas from 0.04 down to 1e-32
    size = 400
    k = np.arange(size + 1)
    a, b = stats.binom.pmf(k - 1, size - 1, 0.5), stats.binom.pmf(k, size - 1, 0.5)
    a, b = a / a.sum(), b / b.sum()
    grid = np.array([1e-8, 1e-3, 0.1, 1.0, 2.0, 3.0])
    with mpmath.workdps(40):
        ref = [float(sum(max(mpmath.mpf(x) - mpmath.exp(e) * mpmath.mpf(y), 0) for x, y in zip(a, b))) for e in grid]
    acc = {"privlib": worst_relative_error(profiles.hockey_stick(a, b, grid), ref),
           "sort + cumsum": worst_relative_error(sorted_cumsum_hockey_stick(a, b, grid), ref),
           "dp-accounting PLD": worst_relative_error(dp_accounting_hockey_stick(a, b, grid), ref)}
    t_dp = interleaved({"dp-accounting PLD": lambda: dp_accounting_hockey_stick(a, b, eps)}, repeat=7)
    t_small = interleaved({"privlib": lambda: profiles.hockey_stick(a, b, eps)})

    print("| computation | privlib | alternative | ratio (alternative / privlib) | worst relative error (privlib / alternative) |")
    print("|---|---|---|---|---|")
    print(f"| hockey_stick, 10^7 random outputs x 10^3 epsilons | {t['privlib'] * 1e3:.0f} ms | sort + cumsum {t['sort + cumsum'] * 1e3:.0f} ms "
          f"| {t['sort + cumsum'] / t['privlib']:.2f} | {acc['privlib']:.1e} / {acc['sort + cumsum']:.1e} |")
    print(f"| hockey_stick against np.add on the same arrays | {t['privlib'] * 1e3:.0f} ms | np.add {t['np.add'] * 1e3:.1f} ms "
          f"| {t['privlib'] / t['np.add']:.0f}x the time of np.add (target <= 60x) | - |")
    print(f"| hockey_stick, 401 outputs x 10^3 epsilons | {t_small['privlib'] * 1e3:.2f} ms | dp-accounting PLD {t_dp['dp-accounting PLD'] * 1e3:.0f} ms "
          f"| {t_dp['dp-accounting PLD'] / t_small['privlib']:.0f} | {acc['privlib']:.1e} / {acc['dp-accounting PLD']:.1e} |")

    from dp_accounting.pld import privacy_loss_mechanism as plm

    eps_many = np.linspace(0.0, 10.0, 10**6)
    mu = 1.0
    gauss = plm.GaussianPrivacyLoss(1.0 / mu, 1.0, pessimistic_estimate=False, adjacency_type=plm.AdjacencyType.REMOVE)

    def scipy_gaussian(e, mu=mu):
        return special.ndtr(-e / mu + mu / 2) - np.exp(e) * special.ndtr(-e / mu - mu / 2)

    def dp_gaussian(e):
        return np.array([gauss.get_delta_for_epsilon(float(x)) for x in np.atleast_1d(e)])

    tg = interleaved({"privlib": lambda: profiles.gaussian_delta(eps_many, mu), "scipy": lambda: scipy_gaussian(eps_many)})
    few = eps_many[::1000]
    td = interleaved({"dp-accounting": lambda: dp_gaussian(few)})["dp-accounting"] * 1000
    tail = np.array([1e-8, 1e-3, 1.0, 10.0, 20.0, 40.0])  # delta from 0.38 to about 1e-300 at mu = 2.5
    mu_tail = 2.5
    with mpmath.workdps(60):
        m = mpmath.mpf(mu_tail)
        ref_g = [float(mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)) for e in map(mpmath.mpf, tail)]
    gauss_tail = plm.GaussianPrivacyLoss(1.0 / mu_tail, 1.0, pessimistic_estimate=False, adjacency_type=plm.AdjacencyType.REMOVE)
    acc_g = {"privlib": worst_relative_error(profiles.gaussian_delta(tail, mu_tail), ref_g),
             "scipy": worst_relative_error(scipy_gaussian(tail, mu_tail), ref_g),
             "dp-accounting": worst_relative_error([gauss_tail.get_delta_for_epsilon(float(e)) for e in tail], ref_g)}
    print(f"| gaussian_delta, 10^6 epsilons | {tg['privlib'] * 1e3:.0f} ms | scipy ndtr expression {tg['scipy'] * 1e3:.0f} ms "
          f"| {tg['scipy'] / tg['privlib']:.2f} | {acc_g['privlib']:.1e} / {acc_g['scipy']:.1e} |")
    print(f"| gaussian_delta, 10^6 epsilons | {tg['privlib'] * 1e3:.0f} ms | dp-accounting {td:.1f} s (extrapolated from 10^3) "
          f"| {td / tg['privlib']:.0f} | {acc_g['privlib']:.1e} / {acc_g['dp-accounting']:.1e} |")
    print("\nAccuracy: largest relative error against mpmath over eps in {1e-8, 1e-3, 0.1, 1, 2, 3} (hockey stick, deltas "
          "down to 1e-32) and {1e-8, 1e-3, 1, 10, 20, 40} (Gaussian, mu = 2.5, deltas down to 1e-300); an exact 0 "
          "where the truth is positive counts as error 1.")


if __name__ == "__main__":
    main()
