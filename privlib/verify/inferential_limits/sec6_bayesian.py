"""Claims of chapter 000, Section 6: Bayesian limits."""

from __future__ import annotations

import math

import numpy as np
from scipy import integrate, special, stats

from privlib.papers import intervals
from privlib.core import mechanisms
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, early, reference
from privlib.verify.inferential_limits._routes import (
    _cube,
    _events_d_mult,
    _hamming,
    _laplace_bounds_diameter_minus_one,
    _rr_product,
    _scaled_diameter,
)
from privlib.verify.source_mutants import edit


@claim("000/thm-6-4", item="Theorem 6.4",
       statement="Every posterior lies within $e^{-\\varepsilon d}$ and $e^{\\varepsilon d}$ times the prior, whatever the data models and the prior; both factors are approached as the prior mass of a point-mass model goes to 0.",
       method="Bayes' rule on 300 random finite models: random $\\varepsilon$-DP channels on $\\{0,1\\}^2$ (Hamming, $d = 2$; $\\varepsilon$ the largest $d_{mult}$ over edges, by events), random data models over the 4 datasets and random priors over 5 parameter values; and randomized response with point-mass models at distance 2 and prior mass $10^{-12} e^{-\\varepsilon d}$, where both factors are nearly attained (upper and lower)")
def thm_6_4(seed: int = 4, epsilon: float = 0.5) -> Evidence:
    rng = np.random.default_rng(seed)
    x = _cube(2)
    edges = [(a, b) for a in range(4) for b in range(a + 1, 4) if _hamming(x)[a, b] == 1]
    rr = _rr_product(2, epsilon)
    pi0 = 1e-12 * np.exp(-2.0 * epsilon)  # the ratios miss the factors by pi0 e^{eps d} (relative)
    # a parameter of prior mass pi0 whose model is a point mass at 00 (or at 11), the other one at
    # distance 2; the output t = 00: the posterior/prior ratio tends to e^{+eps d} (or e^{-eps d})
    ratio_up = rr[0, 0] / (pi0 * rr[0, 0] + (1 - pi0) * rr[3, 0])     # pi(0 | t = 00) / pi(0)
    ratio_down = rr[3, 0] / (pi0 * rr[3, 0] + (1 - pi0) * rr[0, 0])
    lo_factor, hi_factor = (float(b) / pi0 for b in intervals.posterior_bounds(pi0, epsilon, 2.0))
    early(close, [hi_factor, lo_factor], [ratio_up, ratio_down], rtol=1e-9)
    post_all, low_all, high_all = [], [], []
    for trial in range(300):
        base = rng.dirichlet(np.ones(5))
        channel = base * np.exp(rng.uniform(-epsilon / 2, epsilon / 2, (4, 5)))
        channel /= channel.sum(axis=1, keepdims=True)
        eps = max(_events_d_mult(channel[a], channel[b]) for a, b in edges)
        models = rng.dirichlet(np.ones(4), size=5)         # P_theta over the 4 datasets
        prior = rng.dirichlet(np.ones(5))
        p_t = models @ channel                             # p_theta(t) for every output
        post = prior[:, None] * p_t / (prior @ p_t)[None, :]
        lo, hi = intervals.posterior_bounds(prior, eps, 2.0)
        post_all += list(post.ravel())
        low_all += list(np.repeat(lo, 5))
        high_all += list(np.repeat(hi, 5))
        if trial % 50 == 0:
            early(at_most, post_all, high_all, atol=1e-15)
            early(at_most, low_all, post_all, atol=1e-15)
    return all_of(at_most(post_all, high_all, atol=1e-15, detail="posteriors against e^{eps d} times the prior"),
                  at_most(low_all, post_all, atol=1e-15, detail="e^{-eps d} times the prior against posteriors"),
                  close([hi_factor, lo_factor], [ratio_up, ratio_down], rtol=1e-9,
                        detail="both factors against the posterior/prior ratios at prior mass 1e-12 e^{-eps d} (upper, lower)"))


thm_6_4.mutant("intervals.posterior_bounds", "radius eps d / 2")(_scaled_diameter(0.5))


thm_6_4.mutant("intervals.posterior_bounds", "radius 2 eps d (Lemma F.7 chained twice)")(_scaled_diameter(2.0))


@thm_6_4.mutant("intervals.posterior_bounds", "lower factor linearised: 1 - eps d (clipped at 0)")
def _(function):
    def wrong(prior_density, epsilon, diameter):
        lo, hi = function(prior_density, epsilon, diameter)
        return np.asarray(prior_density) * max(1.0 - epsilon * diameter, 0.0), hi
    return wrong


@claim("000/thm-6-2", item="Theorem 6.2",
       statement="Whatever the prior and the data model, the prior-predictive density of the Laplace-privatised sum of $n$ binary records lies between $\\ell(t) = e^{-\\varepsilon n} \\sup_x p_x(t)$ and $u(t) = e^{\\varepsilon n} \\inf_x p_x(t)$; a point-mass prior on the all-ones model touches $\\ell$.",
       method="Beta(a, b) priors on iid Bernoulli records, the prior predictive of the count by adaptive quadrature over $\\theta$ (not the beta-binomial closed form); 100 random finite priors over random data models, summed over all $2^n$ datasets; and the point-mass prior")
def thm_6_2(n: int = 6, epsilon: float = 0.25, seed: int = 5) -> Evidence:
    rng = np.random.default_rng(seed)
    t = np.linspace(-2.0 * n, 3.0 * n, 181)
    dens_q = stats.laplace(scale=1.0 / epsilon).pdf(t[None, :] - np.arange(n + 1)[:, None])
    lower, upper = intervals.laplace_sum_bounds(t, n, epsilon, "integer")
    predictive, masses = [], []
    for a, b in ((0.5, 0.5), (1.0, 1.0), (3.0, 0.7), (20.0, 2.0)):
        beta = special.beta(a, b)   # the binomial and beta densities written out (quadrature calls them point by point)
        w = np.array([integrate.quad(lambda th, k=k: math.comb(n, k) * th ** (k + a - 1.0) * (1.0 - th) ** (n - k + b - 1.0) / beta,
                                     0.0, 1.0, points=[0.5], limit=200)[0] for k in range(n + 1)])
        masses.append(w.sum())
        predictive.append(w @ dens_q)
    dens_x = dens_q[_cube(n).sum(axis=1)]
    for _ in range(100):
        models = rng.dirichlet(np.full(2**n, 0.2), size=4)      # P_theta over the datasets
        prior = rng.dirichlet(np.ones(4))
        predictive.append(prior @ models @ dens_x)
    predictive.append(dens_q[n])                                 # point-mass prior on the all-ones model
    predictive = np.array(predictive)
    left = t <= 0
    return all_of(close(masses, 1.0, atol=1e-9, detail="the quadrature weights of the count sum to 1"),
                  at_most(np.r_[(lower / predictive).max(axis=1), (predictive / upper).max(axis=1)], 1.0 + 1e-12, atol=0.0,
                          detail="largest ratio of a bound to a prior predictive density, on the wrong side"),
                  close(predictive[-1][left], lower[left], rtol=1e-12, detail="the point-mass prior equals l for t <= 0"))


thm_6_2.mutant("intervals.laplace_sum_bounds", "diameter n - 1 in place of n")(_laplace_bounds_diameter_minus_one)


@thm_6_2.mutant("intervals.laplace_sum_bounds", "lower bound e^{-2 eps n} sup_x p_x")
def _(function):
    def wrong(t, n, epsilon, q_support="interval"):
        lo, hi = function(t, n, epsilon, q_support)
        return lo * np.exp(-epsilon * n), hi
    return wrong


@claim("000/remark-6-6", item="Remark 6.6", kind="illustrated",
       statement="Without a bounded density ratio there is no prior-to-posterior bound: under the Gaussian mechanism ($\\sigma = 1$) with point-mass models at $q = 0$ and $q = 1$ the posterior odds move by $e^{(2t - 1)/(2\\sigma^2)}$, unbounded in $t$, while under the Laplace mechanism they stay within $e^{\\pm\\varepsilon}$.",
       method="log-density ratios of privlib's Gaussian and Laplace mechanisms at outputs up to $t = 40$ against the closed forms",
       checks=("mechanisms.GaussianMechanism.logpdf", "mechanisms.LaplaceMechanism.logpdf"))
def remark_6_6(sigma: float = 1.0, epsilon: float = 1.0) -> Evidence:
    t = np.array([0.0, 2.0, 5.0, 10.0, 20.0, 40.0])
    gauss = mechanisms.GaussianMechanism(sigma)
    lap = mechanisms.LaplaceMechanism(epsilon)
    g = gauss.logpdf(t, 1.0) - gauss.logpdf(t, 0.0)
    lp = lap.logpdf(t, 1.0) - lap.logpdf(t, 0.0)
    return all_of(close(g, (2 * t - 1) / (2 * sigma**2), rtol=1e-12, atol=1e-12, detail="Gaussian log odds ratio grows linearly in t"),
                  at_most(np.abs(lp), epsilon, atol=1e-12, detail="Laplace log odds ratio stays within eps"))


@reference
def _clamped_count_quadrature(epsilon: float, theta: np.ndarray, releases: np.ndarray, low_releases: np.ndarray):
    """Example 6.7 by Simpson's rule over ``theta`` (Gamma(3, 1) prior, Poisson counts clamped to
    [0, 6], Laplace noise of scale 6/eps): per release its normaliser m(t), posterior mean,
    posterior density at every 400th theta, and the smallest and largest likelihood ratio over
    theta < 40; with the clamp [2, 6] (scale 4/eps), m(t) and the posterior mean at ``low_releases``."""
    prior = stats.gamma.pdf(theta, 3.0)
    values = np.arange(7)
    pois = stats.poisson.pmf(values[:, None], theta[None, :])
    pois[-1] = stats.poisson.sf(5, theta)
    z_all, mean_q, post_q, rng_q = [], [], [], []
    inside = theta < 40.0
    for t in releases:
        lik = stats.laplace(scale=6.0 / epsilon).pdf(t - values) @ pois
        unnorm = prior * lik
        z = integrate.simpson(unnorm, x=theta)
        z_all.append(z)
        post = unnorm / z
        mean_q.append(integrate.simpson(theta * post, x=theta))
        post_q += list(post[::400])
        ratio = lik[inside] / z
        rng_q += [ratio.min(), ratio.max()]
    # a clamp from below too (low = 2, high = 6): the lowest clamped value collects x = 0, 1, 2
    low_values = np.arange(2, 7)
    low_pois = stats.poisson.pmf(low_values[:, None], theta[None, :])
    low_pois[0], low_pois[-1] = stats.poisson.cdf(2, theta), stats.poisson.sf(5, theta)
    low_mean_q, low_z = [], []
    for t in low_releases:
        unnorm = prior * (stats.laplace(scale=4.0 / epsilon).pdf(t - low_values) @ low_pois)
        low_z.append(integrate.simpson(unnorm, x=theta))
        low_mean_q.append(integrate.simpson(theta * unnorm, x=theta) / low_z[-1])
    return z_all, mean_q, post_q, rng_q, low_z, low_mean_q


@claim("000/ex-6-7", item="Example 6.7 (Figure 4)",
       statement="For a Laplace-privatised clamped Poisson count with a Gamma(3, 1) prior (one record, $d = 1$) every posterior stays within $e^{\\pm \\varepsilon}$ of the prior; privlib's prior predictive $m(t)$, posterior, posterior mean and range of the posterior/prior ratio are exact (at $\\varepsilon = 1$ also against the reproduction spec's $m(2)$ and $\\pi(3 \\mid t = 2)$).",
       method="the unnormalised posterior built with scipy (Gamma prior, Poisson masses, Laplace density), normalised by Simpson's rule over $\\theta \\in [0, 60]$ (24001 points), on 29 releases $t \\in [-30, 40]$: the normaliser against $m(t)$, the posterior and its mean against the quadrature (the mean also at $t = -10^{300}, 10^{17}, 10^{300}$, where the posterior is the one at $t = -30$, resp. $40$, both outside the clamp; and with the clamp $[2, 6]$ at $t = -5, 3, 12$, with $m(t)$ too); $m(2)$ at $\\varepsilon = 10^4$ against the mass of $x = 2$ times $\\varepsilon/12$, the ratio's range against its extremes on the $\\theta$ grid",
       checks=("intervals.clamped_count_posterior",))
def ex_6_7(epsilon: float = 1.0) -> Evidence:
    theta = np.linspace(1e-9, 60.0, 24001)
    releases = np.linspace(-30.0, 40.0, 29)
    low_releases = np.array([-5.0, 3.0, 12.0])
    z_all, mean_q, post_q, rng_q, low_z, low_mean_q = _clamped_count_quadrature(epsilon, theta, releases, low_releases)
    post_ours = []
    for t in releases:
        post_ours += list(intervals.clamped_count_posterior(theta[::400], t, epsilon=epsilon))
    # at eps = 10^4 (Laplace scale 6e-4) m(2) is the mass of x = 2 times the Laplace density at 0,
    # NB(2; 3, 1/2) eps / 12, the other clamped values adding less than e^-1600 of it
    sharp = float(intervals.clamped_count_predictive(2.0, epsilon=1e4))
    sharp_ref = float(stats.nbinom.pmf(2, 3.0, 0.5)) * 1e4 / 12.0
    m_all = list(intervals.clamped_count_predictive(releases, epsilon=epsilon))
    mean_ours = list(intervals.clamped_count_posterior_mean(releases, epsilon=epsilon))
    lo, hi = intervals.clamped_count_ratio_range(releases, epsilon=epsilon)
    rng_ours = list(np.c_[lo, hi].ravel())
    return all_of(close(m_all, z_all, rtol=1e-9, detail="m(t) against Simpson's normaliser"),
                  close(post_ours, post_q, rtol=1e-8, atol=1e-12, detail="posterior densities against the normalised quadrature posterior"),
                  close(mean_ours, mean_q, rtol=1e-8, detail="posterior means against Simpson's rule"),
                  close(intervals.clamped_count_posterior_mean(low_releases, epsilon=epsilon, low=2, high=6), low_mean_q,
                        rtol=1e-8, detail="posterior means with the clamp [2, 6] against Simpson's rule"),
                  close(intervals.clamped_count_predictive(low_releases, epsilon=epsilon, low=2, high=6), low_z,
                        rtol=1e-9, detail="m(t) with the clamp [2, 6] against Simpson's normaliser"),
                  close(sharp, sharp_ref, rtol=1e-13, detail="m(2) at eps = 1e4: the mass of x = 2 times eps / 12"),
                  # beyond [low, high] = [0, 6] the Laplace likelihood's dependence on t is a common
                  # factor, so the posterior at t = -1e300, 1e17, 1e300 is the one at t = -30, 40
                  close(intervals.clamped_count_posterior_mean(np.array([-1e300, 1e17, 1e300]), epsilon=epsilon),
                        [mean_q[0], mean_q[-1], mean_q[-1]], rtol=1e-8,
                        detail="posterior means far outside the clamp against Simpson's rule at t = -30, 40"),
                  close(rng_ours, rng_q, rtol=1e-6, detail="range of the posterior/prior ratio against the theta grid"),
                  at_most(np.r_[hi, 1.0 / lo], np.exp(epsilon), atol=0.0, detail="the ratio within e^{+-eps d}, d = 1"),
                  *([close([float(intervals.clamped_count_predictive(2.0, epsilon=epsilon)),
                            float(intervals.clamped_count_posterior([3.0], 2.0, epsilon=epsilon)[0])],
                           [0.0646644, 0.231103], atol=5e-7, rtol=0.0,
                           detail="m(2) and pi(3 | t = 2) against the reproduction spec's values (at eps = 1)")]
                    if epsilon == 1.0 else []))


@ex_6_7.mutant("intervals.clamped_count_predictive", "no clamping at the top (every x >= high dropped)")
def _(function):
    def wrong(t, shape=3.0, rate=1.0, epsilon=1.0, low=0, high=6, *, log=False):
        lap = stats.laplace(scale=(high - low) / epsilon)
        values = np.arange(low, high + 1)
        w = stats.nbinom.pmf(values, shape, rate / (1 + rate))
        m = (w[:, None] * lap.pdf(np.atleast_1d(t)[None, :] - values[:, None])).sum(axis=0).reshape(np.shape(t))
        return np.log(m) if log else m
    return wrong


@ex_6_7.mutant("intervals.clamped_count_posterior_mean", "Laplace weights at t itself above the clamp (not at high)")
def _(function):
    return edit("near = np.clip(t.reshape(-1, 1), low, high)", "near = np.clip(t.reshape(-1, 1), low, None)")(function)


@ex_6_7.mutant("intervals.clamped_count_posterior_mean", "lowest clamped value: x = 0 .. low - 2 only, not 0 .. low")
def _(function):
    return edit("below = np.arange(0, low + 1)", "below = np.arange(0, low - 1)")(function)


@ex_6_7.mutant("intervals.clamped_count_predictive", "Laplace centres 0 .. high - low, not the clamped values low .. high")
def _(function):
    return edit("centres=values.astype(float), log=log)", "centres=None, log=log)")(function)


@ex_6_7.mutant("intervals.clamped_count_posterior_mean", "posterior Gamma rate 'rate' in place of 'rate + 1'")
def _(function):
    return lambda t, shape=3.0, rate=1.0, epsilon=1.0, low=0, high=6: function(t, shape, rate, epsilon, low, high) * (rate + 1.0) / rate


@ex_6_7.mutant("intervals.clamped_count_ratio_range", "only the limits theta -> 0 and theta -> inf (interior extrema missed)")
def _(function):
    def wrong(t, shape=3.0, rate=1.0, epsilon=1.0, low=0, high=6):
        t = np.asarray(t, float)
        lap = stats.laplace(scale=(high - low) / epsilon)
        m = intervals.clamped_count_predictive(t, shape, rate, epsilon, low, high)
        a, b = lap.pdf(t - low) / m, lap.pdf(t - high) / m
        return np.minimum(a, b), np.maximum(a, b)
    return wrong


@ex_6_7.mutant("mechanisms.LaplaceMechanism.logpdf", "noise scale 1/eps in place of (high - low)/eps")
def _(function):
    return lambda self, y, value=0.0: function(mechanisms.LaplaceMechanism(self.epsilon), y, value)
