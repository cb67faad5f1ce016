"""Claims of chapter 000, Section 8: Theorem 8.7, worked example (and Remark 8.6)."""

from __future__ import annotations

import itertools

import numpy as np
from scipy import stats

from privlib.papers import intervals, pufferfish

from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds


def _sum_given_first(n: int, rho: float, first: int) -> np.ndarray:
    """Weights over the sum 0..n given X_1 = first, when every other record equals X_1 with
    probability rho independently."""
    k = np.arange(n)                                        # other records equal to X_1
    w = np.zeros(n + 1)
    pos = 1 + k if first else n - 1 - k
    w[pos] = stats.binom.pmf(k, n - 1, rho)
    return w


@claim("000/thm-8-7-example", item="Theorem 8.7, worked example (and Remark 8.6)",
       statement="Under $\\varepsilon$-Pufferfish every level-0.05 test of $X_1 = 0$ against $X_1 = 1$ has power at most $0.05\\,e^{\\varepsilon}$. For the Laplace-privatised sum of $n = 3$ records ($\\varepsilon$-DP, $\\varepsilon = 0.5$) and an attacker who believes the other records copy $X_1$ with probability $\\rho$, the Pufferfish loss is $\\varepsilon$ at $\\rho = 1/2$ and $n\\varepsilon$ at $\\rho = 1$; the most powerful level-0.05 test stays below $0.05\\,e^{\\text{loss}}$ at $\\rho$ = 1/2, 7/10, 9/10 and 1, and exceeds the DP value $0.05\\,e^{\\varepsilon}$ at the three correlated ones.",
       method="the loss against the largest $|\\log f_1/f_0|$ of the two output densities, each summed over the $2^n$ datasets with the attacker's probabilities, on a grid of step 1/1000 reaching 10 beyond both ends (it contains every mixture centre, where the supremum lies; the grid does not assume it); the test powers by privlib's grid Neyman-Pearson on the densities of the sum",
       checks=("intervals.laplace_sum_marginal", "intervals.density_power"))
def thm_8_7_example(n: int = 3, epsilon: float = 0.5) -> Evidence:
    rhos = np.array([0.5, 0.7, 0.9, 1.0])
    t_dense = np.arange(-10_000, (n + 10) * 1000 + 1) / 1000.0  # step 1/1000, reaching 10 beyond both ends
    datasets = np.array(list(itertools.product([0, 1], repeat=n)))
    grid = np.linspace(-40.0 / epsilon, n + 40.0 / epsilon, 60001)
    direct, losses, powers = [], [], []
    for rho in rhos:
        # every dataset x with its attacker probability given X_1, and its Laplace density at each t
        agree = (datasets[:, 1:] == datasets[:, :1]).sum(axis=1)
        prob = rho ** agree * (1 - rho) ** (n - 1 - agree)
        dens = np.exp(-epsilon * np.abs(t_dense[None, :] - datasets.sum(axis=1)[:, None]))
        f = [prob[datasets[:, 0] == a] @ dens[datasets[:, 0] == a] for a in (0, 1)]
        direct.append(float(np.abs(np.log(f[1]) - np.log(f[0])).max()))
        w1, w0 = _sum_given_first(n, rho, 1), _sum_given_first(n, rho, 0)
        losses.append(float(pufferfish.laplace_sum_pufferfish_loss(n, epsilon, rho)))
        f1 = intervals.laplace_sum_marginal(grid, w1, epsilon)
        f0 = intervals.laplace_sum_marginal(grid, w0, epsilon)
        powers.append(float(intervals.density_power(grid, f0, f1, 0.05)))
    return all_of(close(losses, direct, rtol=1e-10, detail="the loss against the densities summed over all datasets on the dense grid"),
                  close([losses[0], losses[-1]], [epsilon, n * epsilon], rtol=1e-10, detail="eps at rho = 1/2, n eps at rho = 1"),
                  at_most(powers, 0.05 * np.exp(losses), atol=1e-6, detail="level-0.05 power against 0.05 e^loss"),
                  holds(bool(powers[0] <= 0.05 * np.exp(epsilon) + 1e-6 and min(powers[1:]) > 0.05 * np.exp(epsilon)),
                        detail="independent attacker within 0.05 e^eps; correlated attackers beyond it"))


@thm_8_7_example.mutant("pufferfish.laplace_sum_pufferfish_loss", "given X_1 = 0 the sum counts the agreeing records (k, not n - 1 - k)")
def _(function):
    def wrong(n, epsilon, rho):
        rho = np.atleast_1d(np.asarray(rho, float))
        out = []
        for r in rho:
            k = np.arange(n)
            w1, w0 = np.zeros(n + 1), np.zeros(n + 1)
            w1[1 + k] = stats.binom.pmf(k, n - 1, r)
            w0[k] = stats.binom.pmf(k, n - 1, r)
            t = np.r_[-1.0, np.arange(n + 1.0), n + 1.0]
            kernel = np.exp(-epsilon * np.abs(t[None, :] - np.arange(n + 1)[:, None]))
            out.append(float(np.abs(np.log(w1 @ kernel) - np.log(w0 @ kernel)).max()))
        return out[0] if len(out) == 1 else np.array(out)
    return wrong


@thm_8_7_example.mutant("pufferfish.laplace_sum_pufferfish_loss", "rho and 1 - rho swapped")
def _(function):
    return lambda n, epsilon, rho: function(n, epsilon, 1.0 - np.asarray(rho, float))
