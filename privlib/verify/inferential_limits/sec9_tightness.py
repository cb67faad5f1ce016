"""Claims of chapter 000, Section 9: the bounds are attained."""

from __future__ import annotations

import numpy as np
from scipy import stats

from privlib.papers import intervals, pufferfish

from privlib.verify.claims import Evidence, all_of, claim, close
from privlib.verify.inferential_limits._routes import (
    _d_r_as_d_mult,
    _laplace_bounds_diameter_minus_one,
    _scaled_diameter,
)


@claim("000/sec9-tightness", item="Section 9 (Theorems 4.1, 5.1, 6.2, 6.4, 8.5, 8.7 are tight)",
       statement="For the Laplace-privatised count of $n$ binary records ($d = n$) the bounds are attained: point-mass models give $p_\\theta = \\ell$ and $p_\\theta = u$ for $t \\le 0$ (Theorems 4.1, 6.2); the Neyman-Pearson test of all-zeros against all-ones has power $\\alpha e^{\\varepsilon n}$ for $\\alpha \\le e^{-\\varepsilon n}/2$ (5.1); the posterior/prior ratio tends to $e^{\\varepsilon n}$ (6.4); for the Remark 8.6 attacker $d_R(\\text{prior}, \\text{posterior}) = \\varepsilon$ for $t \\ge 1$ and the test of the secret has power $\\alpha e^{\\varepsilon}$ (8.5, 8.7).",
       method="the constructions evaluated directly: output densities of the point-mass models, prior-predictive mixtures, Laplace tail probabilities (scipy.stats.laplace) for the Neyman-Pearson tests (and privlib's closed-form Laplace power against them), Bayes' rule on the Laplace likelihoods")
def sec9_tightness(n: int = 3, epsilon: float = 0.5) -> Evidence:
    lap = stats.laplace(scale=1.0 / epsilon)
    observed, reference = [], []
    # Theorems 4.1 and 6.2: point masses on all-ones (lower) and all-zeros (upper), t <= 0
    t = np.linspace(-4.0 * n, 0.0, 41)
    lower, upper = intervals.laplace_sum_bounds(t, n, epsilon, "integer")
    observed += list(lap.pdf(t - n)) + list(lap.pdf(t))
    reference += list(lower) + list(upper)
    prior = np.array([1.0, 0.0])                                       # prior predictive of a point-mass prior
    observed += list(prior @ np.vstack([lap.pdf(t - n), lap.pdf(t)]))
    reference += list(lower)
    # Theorem 5.1: H0 all-zeros (count 0), H1 all-ones (count n), rejection region [c, inf)
    small = np.array([0.1, 0.4, 1.0]) * 0.5 * np.exp(-epsilon * n)      # the levels where it is attained
    for alpha in small:
        c = lap.isf(alpha)
        observed.append(float(lap.sf(c - n)))
        reference.append(float(intervals.power_bounds(alpha, epsilon, n)[1]))
    # Theorem 6.4: Theta = {0, 1}, P_0 = all-zeros, P_1 = all-ones, prior pi(0) -> 0, t <= 0
    for t0 in (-1.0, -5.0):
        pi0 = 1e-10 * np.exp(-epsilon * n)
        post0 = pi0 * lap.pdf(t0) / (pi0 * lap.pdf(t0) + (1 - pi0) * lap.pdf(t0 - n))
        observed.append(post0 / pi0)
        reference.append(float(intervals.posterior_bounds(1.0, epsilon, n)[1]))
    # Theorems 8.5 and 8.7: X_1 ~ Bernoulli(0.3), the other records fixed at 0; secret {X_1 = 1}
    prior_cells = np.array([0.7, 0.3])
    for t0 in (1.0, 2.5, 10.0):
        joint = prior_cells * np.array([lap.pdf(t0), lap.pdf(t0 - 1.0)])
        observed.append(float(pufferfish.density_ratio_metric(prior_cells, joint / joint.sum())))
        reference.append(epsilon)
    for alpha in np.array([0.1, 0.4, 1.0]) * 0.5 * np.exp(-epsilon):
        c = lap.isf(alpha)
        observed.append(float(lap.sf(c - 1.0)))
        reference.append(float(pufferfish.pufferfish_power_bounds(alpha, epsilon)[1]))
    alphas = np.r_[small, 0.3, 0.7]
    return all_of(close(observed, reference, rtol=1e-7, atol=0.0,
                        detail="each construction against the bound it attains (tests at levels up to e^{-eps n}/2; "
                               "the posterior ratio at prior mass 1e-10 e^{-eps n})"),
                  close(intervals.laplace_power(alphas, epsilon, n), [float(lap.sf(lap.isf(a) - n)) for a in alphas], rtol=1e-10,
                        detail="privlib's Laplace Neyman-Pearson power against scipy's Laplace tails"))


sec9_tightness.mutant("intervals.laplace_sum_bounds", "diameter n - 1 in place of n")(_laplace_bounds_diameter_minus_one)


sec9_tightness.mutant("intervals.power_bounds", "the diameter d dropped (e^{eps} in place of e^{eps d})")(_scaled_diameter(1.0, fixed=1.0))


sec9_tightness.mutant("intervals.posterior_bounds", "radius 2 eps d (Lemma F.7 chained twice)")(_scaled_diameter(2.0))


sec9_tightness.mutant("pufferfish.density_ratio_metric", "largest |log ratio| (d_mult) in place of its spread")(_d_r_as_d_mult)


@sec9_tightness.mutant("intervals.laplace_power", "r = eps / shift (scale for rate)")
def _(function):
    return lambda alpha, epsilon, shift=1.0, sensitivity=1.0, *, minimize=False: function(alpha, epsilon, 1.0 / shift, sensitivity, minimize=minimize)
