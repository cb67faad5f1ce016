"""Benchmark of privlib.profiles against the best alternatives a competent user has.

Interleaved in one process in rotating order, median of 7 rounds each; accuracy as the largest relative error
against an mpmath reference (40 digits) on an instance where the reference is computable.

- hockey_stick, generic pmfs (10^7 outputs, 10^3 uniform epsilons): against the same binning
  written plainly in numpy (searchsorted + bincount + suffix sums), the vectorized sort +
  cumulative-sum expression, and ``np.add`` on the same arrays (a floor: at most 15x); 401 outputs
  against sort + cumsum and dp-accounting's PLD asked for all epsilons in one call; accuracy on a
  binomial pair whose deltas reach 1e-32;
- gaussian_delta at 10^6 epsilons: against the scipy expression
  ``ndtr(-e/mu + mu/2) - exp(e) ndtr(-e/mu - mu/2)`` and dp-accounting's
  ``GaussianPrivacyLoss.get_delta_for_epsilon`` (one vectorised call); accuracy where delta goes
  down to 1e-300. Times are CPU times with threads limited to 1 (wall beside them).
"""

from __future__ import annotations

import sys
from pathlib import Path

import mpmath
import numpy as np
from scipy import special, stats

from privlib import profiles

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import header, interleaved, row, worst_relative_error  # noqa: E402


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
    """dp-accounting's PLD of the pair, asked for every epsilon in one (vectorised) call."""
    from dp_accounting.pld import privacy_loss_distribution as pld

    upper = {i: float(np.log(x)) for i, x in enumerate(p) if x > 0}
    lower = {i: float(np.log(x)) for i, x in enumerate(q) if x > 0}
    dist = pld.from_two_probability_mass_functions(lower, upper, symmetric=False)
    return np.asarray(dist.get_delta_for_epsilon(np.asarray(eps, dtype=float)), dtype=float)


def numpy_binning_hockey_stick(p, q, eps):
    """The same binning written plainly in numpy: each loss binned into the sorted epsilon grid
    (searchsorted), bin sums of p and q (bincount), suffix sums, ``P - e^eps Q``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = np.log(p) - np.log(q)
    bins = np.searchsorted(eps, loss, side="left")
    k = eps.size
    tail_p = np.cumsum(np.bincount(bins, weights=p, minlength=k + 1)[::-1])[::-1]
    tail_q = np.cumsum(np.bincount(bins, weights=q, minlength=k + 1)[::-1])[::-1]
    return np.maximum(tail_p[1:] - np.exp(eps) * tail_q[1:], 0.0)


def main() -> None:
    rng = np.random.default_rng(0)
    n = 10**7
    p, q = rng.random(n), rng.random(n)
    p, q = p / p.sum(), q / q.sum()
    eps = np.linspace(0.0, 2.0, 1000)
    t = interleaved({"privlib": lambda: profiles.hockey_stick(p, q, eps),
                     "numpy binning": lambda: numpy_binning_hockey_stick(p, q, eps),
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
           "numpy binning": worst_relative_error(numpy_binning_hockey_stick(a, b, grid), ref),
           "sort + cumsum": worst_relative_error(sorted_cumsum_hockey_stick(a, b, grid), ref),
           "dp-accounting PLD": worst_relative_error(dp_accounting_hockey_stick(a, b, grid), ref)}
    t_small = interleaved({"privlib": lambda: profiles.hockey_stick(a, b, eps),
                           "sort + cumsum": lambda: sorted_cumsum_hockey_stick(a, b, eps),
                           "dp-accounting PLD": lambda: dp_accounting_hockey_stick(a, b, eps)})

    print(header())
    row("hockey-stick divergence, 10^7 random outputs x 10^3 uniform epsilons", t["privlib"],
        "the same binning in plain numpy (`searchsorted` + `bincount`)", t["numpy binning"], acc["privlib"], acc["numpy binning"])
    row("same", t["privlib"], "sort + cumulative sums", t["sort + cumsum"], acc["privlib"], acc["sort + cumsum"])
    row("same, against `np.add` over the same arrays (a floor, not an alternative; target <= 15x its time)", t["privlib"],
        "`np.add`", t["np.add"], ratio=f"{t['np.add'] / t['privlib']:.3f} ({t['privlib'] / t['np.add']:.1f}x `np.add`)")
    row("hockey-stick divergence, 401 outputs x 10^3 epsilons", t_small["privlib"], "sort + cumulative sums", t_small["sort + cumsum"],
        acc["privlib"], acc["sort + cumsum"])
    row("same", t_small["privlib"], "dp-accounting PLD, all epsilons in one call", t_small["dp-accounting PLD"],
        acc["privlib"], acc["dp-accounting PLD"])

    from dp_accounting.pld import privacy_loss_mechanism as plm

    eps_many = np.linspace(0.0, 10.0, 10**6)
    mu = 1.0
    gauss = plm.GaussianPrivacyLoss(1.0 / mu, 1.0, pessimistic_estimate=False, adjacency_type=plm.AdjacencyType.REMOVE)

    def scipy_gaussian(e, mu=mu):
        return special.ndtr(-e / mu + mu / 2) - np.exp(e) * special.ndtr(-e / mu - mu / 2)

    def dp_gaussian(e):
        return np.asarray(gauss.get_delta_for_epsilon(np.asarray(e, dtype=float)), dtype=float)  # one vectorised call

    tg = interleaved({"privlib": lambda: profiles.gaussian_delta(eps_many, mu), "scipy": lambda: scipy_gaussian(eps_many),
                      "dp-accounting": lambda: dp_gaussian(eps_many)})
    tail = np.array([1e-8, 1e-3, 1.0, 10.0, 20.0, 40.0])  # delta from 0.38 to about 1e-300 at mu = 2.5
    mu_tail = 2.5
    with mpmath.workdps(60):
        m = mpmath.mpf(mu_tail)
        ref_g = [float(mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)) for e in map(mpmath.mpf, tail)]
    gauss_tail = plm.GaussianPrivacyLoss(1.0 / mu_tail, 1.0, pessimistic_estimate=False, adjacency_type=plm.AdjacencyType.REMOVE)
    acc_g = {"privlib": worst_relative_error(profiles.gaussian_delta(tail, mu_tail), ref_g),
             "scipy": worst_relative_error(scipy_gaussian(tail, mu_tail), ref_g),
             "dp-accounting": worst_relative_error([gauss_tail.get_delta_for_epsilon(float(e)) for e in tail], ref_g)}
    row("Gaussian privacy curve, 10^6 epsilons (log-space)", tg["privlib"], "scipy `ndtr` expression", tg["scipy"],
        acc_g["privlib"], acc_g["scipy"])
    row("same", tg["privlib"], "dp-accounting `GaussianPrivacyLoss`, all epsilons in one call", tg["dp-accounting"],
        acc_g["privlib"], acc_g["dp-accounting"])
    print("\nAccuracy: largest relative error against mpmath over eps in {1e-8, 1e-3, 0.1, 1, 2, 3} (hockey stick, deltas "
          "down to 1e-32) and {1e-8, 1e-3, 1, 10, 20, 40} (Gaussian, mu = 2.5, deltas down to 1e-300); an exact 0 "
          "where the truth is positive counts as error 1.")


if __name__ == "__main__":
    main()
