"""Claims of chapter 000, Section 4: the privatised data probability."""

from __future__ import annotations

import itertools

import numpy as np
from scipy import integrate, stats

from privlib.papers import intervals, pufferfish
from privlib.core import mechanisms
from privlib.verify import densities
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, early, reference
from privlib.verify.source_mutants import edit
from privlib.verify.inferential_limits._routes import (
    _cube,
    _events_d_mult,
    _hamming,
    _laplace_bounds_diameter_minus_one,
    _rr_product,
)


@reference
def _laplace_log_sup_inf_over_q(t: np.ndarray, n: int, epsilon: float, points: int) -> tuple[np.ndarray, np.ndarray]:
    """The largest and smallest Laplace log-density log p_q(t) over points equally spaced
    counts q in [0, n], endpoints included (the density written out, 11 blocks of t)."""
    q = np.linspace(0.0, n, points)
    log_sup, log_inf = [], []
    for block in np.array_split(t, 11):
        log_q = densities.laplace_logpdf(block[:, None] - q[None, :], scale=1.0 / epsilon)
        log_sup.append(log_q.max(axis=1))
        log_inf.append(log_q.min(axis=1))
    return np.concatenate(log_sup), np.concatenate(log_inf)


@claim("000/thm-4-1", item="Theorem 4.1 (Example 4.4)",
       statement="For the Laplace-privatised sum of $n = 10$ binary records, every data model's output density lies between $\\ell(t) = e^{-\\varepsilon n} \\sup_x p_x(t)$ and $u(t) = e^{\\varepsilon n} \\inf_x p_x(t)$, and point-mass models touch both for $t \\le 0$.",
       method="the suprema by enumerating all $2^{10}$ datasets; exact output densities of 200 random data models (Dirichlet weights on all datasets, and binomial models) summed over datasets; the all-ones and all-zeros point masses; Figure 2's bounds (the count $q$ ranging over the interval $[0, n]$) against the supremum and infimum of $p_q(t)$ over 100001 equally spaced $q$ in $[0, n]$, endpoints included (tolerance $\\varepsilon h/2$ from the grid's step $h$); the bounds' logarithms at $\\varepsilon = 80$, where $e^{\\varepsilon n}$ overflows, against the log-densities of every count")
def thm_4_1(n: int = 10, epsilon: float = 0.1, seed: int = 2) -> Evidence:
    rng = np.random.default_rng(seed)
    t = np.linspace(-2.0 * n, 3.0 * n, 251)
    counts = _cube(n).sum(axis=1)
    dens_q = stats.laplace(scale=1.0 / epsilon).pdf(t[None, :] - np.arange(n + 1)[:, None])   # p_q(t)
    dens_x = dens_q[counts]                                                                   # every dataset
    brute_lower, brute_upper = np.exp(-epsilon * n) * dens_x.max(axis=0), np.exp(epsilon * n) * dens_x.min(axis=0)
    lower, upper = intervals.laplace_sum_bounds(t, n, epsilon, "integer")
    gen_lower, gen_upper = intervals.density_bounds(dens_x, epsilon, n)
    early(close, np.r_[lower, upper, gen_lower, gen_upper], np.r_[brute_lower, brute_upper, brute_lower, brute_upper],
          rtol=1e-12)
    # the log form, at a DP parameter whose bounds over- and underflow as doubles (e^{+-eps n}
    # beyond 1e308): against the log-densities of every count
    big = 80.0
    log_lower, log_upper = intervals.laplace_sum_bounds(t, n, big, "integer", log=True)
    log_q = np.log(big / 2.0) - big * np.abs(t[None, :] - np.arange(n + 1)[:, None])   # log p_q(t), by hand
    log_ref = np.r_[log_q.max(axis=0) - big * n, log_q.min(axis=0) + big * n]
    early(close, np.r_[log_lower, log_upper], log_ref, rtol=1e-13, atol=0.0)
    ratios = []
    for k in range(200):
        if k % 2:
            p_theta = rng.dirichlet(np.full(2**n, 0.1)) @ dens_x
        else:
            p_theta = stats.binom.pmf(np.arange(n + 1), n, rng.uniform()) @ dens_q
        ratios += [(lower / p_theta).max(), (p_theta / upper).max()]
    left = t <= 0
    # Figure 2 draws the bounds with q over the interval [0, n]: sup and inf over a fine grid of q
    q_points = 100_001
    log_sup, log_inf = _laplace_log_sup_inf_over_q(t, n, epsilon, q_points)
    fig_lower, fig_upper = intervals.laplace_sum_bounds(t, n, epsilon, "interval")
    grid_lower = np.exp(log_sup - epsilon * n)
    grid_upper = np.exp(log_inf + epsilon * n)
    step = n / (q_points - 1)
    return all_of(close(np.r_[fig_lower, fig_upper], np.r_[grid_lower, grid_upper], rtol=epsilon * step / 2 + 1e-12,
                        detail="Figure 2's bounds (q in [0, n]) against the sup and inf over a fine grid of q"),
                  close(np.r_[lower, upper, gen_lower, gen_upper], np.r_[brute_lower, brute_upper, brute_lower, brute_upper],
                        rtol=1e-12, detail="Example 4.4's closed form and the general bounds against the suprema over all datasets"),
                  close(np.r_[log_lower, log_upper], log_ref, rtol=1e-13, atol=0.0,
                        detail="the logs of the bounds at epsilon = 80 (e^{eps n} = e^800 is not a double) "
                               "against the log-densities of every count"),
                  at_most(ratios, 1.0 + 1e-12, atol=0.0, detail="largest ratio of a bound to a model's density, on the wrong side"),
                  close(np.r_[dens_q[n][left], dens_q[0][left]], np.r_[lower[left], upper[left]], rtol=1e-12,
                        detail="the all-ones and all-zeros models equal l and u for t <= 0"))


thm_4_1.mutant("intervals.laplace_sum_bounds", "diameter n - 1 in place of n")(_laplace_bounds_diameter_minus_one)


@thm_4_1.mutant("intervals.laplace_sum_bounds", "interval support: q rounded down to an integer")
def _(function):
    return edit("nearest = np.clip(t, 0.0, float(n))", "nearest = np.clip(np.floor(t), 0.0, float(n))")(function)


@thm_4_1.mutant("intervals.laplace_sum_bounds", "log form: the upper bound's log without the diameter's e^{eps n}")
def _(function):
    return edit("return log_lower, v.representable(\"epsilon\", log_upper,",
                "return log_lower, v.representable(\"epsilon\", log_upper - eps * n,")(function)


@thm_4_1.mutant("intervals.density_bounds", "sup and inf swapped")
def _(function):
    def wrong(densities, epsilon, diameter):
        d = np.asarray(densities, float)
        return np.exp(-epsilon * diameter) * d.min(axis=0), np.exp(epsilon * diameter) * d.max(axis=0)
    return wrong


@claim("000/eq-8", item="Examples 2.3 and 4.5, eq. (8) (Figure 3)",
       statement="Randomized response that keeps each bit with probability $e^\\varepsilon/(1+e^\\varepsilon)$ is $\\varepsilon$-DP with loss exactly $\\varepsilon\\, d_{Ham}$ between any two inputs (Example 2.3); under it every data model gives each output between $(1+e^\\varepsilon)^{-n}$ and $e^{\\varepsilon n}(1+e^\\varepsilon)^{-n}$, and both are attained (eq. (8)).",
       method="every event of every pair of inputs of randomized response on 3 bits enumerated; the minimum and maximum over all $2^n$ inputs of the output probability, by enumeration ($n = 8$), and at $n = 500$ against 50-digit arithmetic (mpmath)")
def eq_8(n: int = 8, epsilon: float = 1.0) -> Evidence:
    import mpmath

    rr = mechanisms.RandomizedResponse(epsilon, 2).matrix()
    x = _cube(n)
    probs = np.prod(rr[x, np.zeros(n, dtype=int)[None, :]], axis=1)
    low, high = intervals.randomized_response_bounds(n, epsilon)
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(epsilon))
        big = [float((1 + e) ** -500), float((e / (1 + e)) ** 500)]
    x3 = _cube(3)
    rr3 = _rr_product(3, epsilon)
    pair_loss = [_events_d_mult(rr3[a], rr3[b]) / _hamming(x3)[a, b] for a, b in itertools.combinations(range(8), 2)]
    return all_of(close([intervals.lipschitz_loss(rr3, _hamming(x3)), min(pair_loss), max(pair_loss)], epsilon, rtol=1e-10,
                        detail="Example 2.3: the loss of randomized response on 3 bits, and d_mult / d_Ham of every pair by events"),
                  close([probs.min(), probs.max()], [float(low), float(high)], rtol=1e-12, atol=0.0,
                        detail="extremes over all inputs (n = 8)"),
                  close(np.r_[intervals.randomized_response_bounds(500, epsilon)], big, rtol=1e-12,
                        detail="n = 500 (a lower bound near 1e-286) against 50-digit arithmetic"))


@eq_8.mutant("intervals.randomized_response_bounds", "upper bound e^{eps n}(1 + e^eps)^{-n} with e^{-eps} in the normaliser")
def _(function):
    return lambda n, epsilon: (function(n, epsilon)[0], np.exp(epsilon * np.asarray(n, float)) * (1 + np.exp(-epsilon)) ** -np.asarray(n, float))


@eq_8.mutant("intervals.randomized_response_bounds", "exponent n - 1")
def _(function):
    return lambda n, epsilon: function(np.asarray(n, float) - 1, epsilon)


@claim("000/e-25-e-29", item="Propositions E.25 and E.29 (eqs. (6), (15))",
       statement="The privatised data probability $p_\\theta(t) = \\int p_x(t)\\, P_\\theta(dx)$ is the law of simulating $X \\sim P_\\theta$ and then the mechanism; likewise the data-provision law $P(M = t \\mid s, \\theta)$ of an attacker conditioned on a secret.",
       method="Monte Carlo with $2 \\times 10^5$ draws: bin frequencies of the Laplace-privatised binomial sum against privlib's density integrated over each bin (adaptive quadrature), and output frequencies of a finite mechanism under a conditioned attacker; every cell within the two-sided binomial z-limit of family-wise level $10^{-6}$")
def e_25_e_29(seed: int = 14, draws: int = 200_000, n: int = 8, epsilon: float = 0.5) -> Evidence:
    rng = np.random.default_rng(seed)
    weights = stats.binom.pmf(np.arange(n + 1), n, 0.3)
    sums = rng.binomial(n, 0.3, draws) + rng.laplace(0.0, 1.0 / epsilon, draws)
    edges = np.r_[-np.inf, np.linspace(-6.0, n + 6.0, 19), np.inf]
    freq = np.histogram(sums, edges)[0] / draws
    density = lambda t: float(intervals.laplace_sum_marginal(t, weights, epsilon))  # noqa: E731
    prob = np.array([integrate.quad(density, a, b, points=list(np.arange(n + 1)[(np.arange(n + 1) > a) & (np.arange(n + 1) < b)]) or None,
                                    limit=200)[0] for a, b in zip(edges[:-1], edges[1:])])
    # a finite mechanism and an attacker conditioned on the secret {x_1 = 1}
    data = _cube(3)
    P = rng.dirichlet(np.ones(5), size=8)
    prior = rng.dirichlet(np.ones(8))
    secret = data[:, 0] == 1
    cond = prior * secret / (prior * secret).sum()
    xs = rng.choice(8, size=draws, p=cond)
    ts = (rng.random(draws)[:, None] > np.cumsum(P[xs], axis=1)).sum(axis=1)
    freq2 = np.bincount(ts, minlength=5) / draws
    law = pufferfish.conditional_output_laws(P, prior, secret)
    cells = prob.size + law.size
    z = stats.norm.isf(1e-6 / (2 * cells))                     # Bonferroni: family-wise 1e-6
    obs = np.r_[freq, freq2]
    ref = np.r_[prob, law]
    se = np.sqrt(ref * (1 - ref) / draws)
    return at_most(np.abs(obs - ref) / np.maximum(se, 1e-300), z, atol=0.0,
                   detail=f"largest |frequency - probability| in standard errors over {cells} cells, against the z-limit")


@e_25_e_29.mutant("intervals.laplace_sum_marginal", "noise scale eps in place of 1/eps")
def _(function):
    return lambda t, weights, epsilon, **k: function(t, weights, 1.0 / epsilon, **k)


@e_25_e_29.mutant("intervals.laplace_sum_marginal", "weights read from the other end (count n - k)")
def _(function):
    return lambda t, weights, epsilon, **k: function(t, np.asarray(weights)[::-1], epsilon, **k)


@e_25_e_29.mutant("pufferfish.conditional_output_laws", "the attacker not conditioned on the secret")
def _(function):
    return lambda P, prior, secret: np.asarray(prior, float) @ np.asarray(P, float)
