"""Claims of the foundations chapter: exact privacy curves of the Laplace, Gaussian and
randomized-response mechanisms, each checked against an independent computation."""

from __future__ import annotations

import itertools

import numpy as np
from scipy import integrate, special

from privlib.core import mechanisms, profiles
from privlib.verify.claims import Evidence, all_of, at_most, claim, close


def _quad_hockey_stick(logp, logq, epsilon: float, kink: float) -> float:
    """``int max(p - e^eps q, 0) dy`` by adaptive quadrature, split at the kink of the integrand."""

    def integrand(y: float) -> float:
        return max(np.exp(logp(y)) - np.exp(epsilon + logq(y)), 0.0)

    left, _ = integrate.quad(integrand, -np.inf, kink, epsabs=1e-13, epsrel=1e-11, limit=200)
    right, _ = integrate.quad(integrand, kink, np.inf, epsabs=1e-13, epsrel=1e-11, limit=200)
    return left + right


@claim("curves/laplace-closed-form", item="Laplace privacy curve",
       statement="For Laplace noise of scale $\\Delta/\\varepsilon_0$, $\\delta(\\varepsilon) = 1 - e^{(\\varepsilon - \\varepsilon_0)/2}$ for $\\varepsilon \\le \\varepsilon_0$, else 0.",
       method="adaptive quadrature of the hockey-stick integral of the two shifted Laplace densities")
def laplace_closed_form(mechanism_epsilon: float = 1.0, sensitivity: float = 2.0) -> Evidence:
    mech = mechanisms.LaplaceMechanism(mechanism_epsilon, sensitivity)
    grid = np.linspace(0.0, 1.2 * mechanism_epsilon, 13)
    reference = []
    for eps in grid:
        # the loss (|y - D| - |y|)/b exceeds eps left of y* = (D - eps b)/2
        kink = (sensitivity - eps * mech.scale) / 2.0
        reference.append(_quad_hockey_stick(lambda y: mech.logpdf(y, 0.0), lambda y: mech.logpdf(y, sensitivity), eps, kink))
    return close(profiles.laplace_delta(grid, mechanism_epsilon), reference, atol=1e-9, rtol=0.0)


@laplace_closed_form.mutant("profiles.laplace_delta", "exponent (eps - eps0) without the factor 1/2")
def _(laplace_delta):
    return lambda eps, eps0: np.where(np.asarray(eps) < eps0, -np.expm1(np.asarray(eps) - eps0), 0.0)


@laplace_closed_form.mutant("profiles.laplace_delta", "not clamped at 0 beyond eps0")
def _(laplace_delta):
    return lambda eps, eps0: -np.expm1((np.asarray(eps, dtype=float) - eps0) / 2)


@claim("curves/gaussian-closed-form", item="Gaussian privacy curve",
       statement="For $N(0, \\sigma^2)$ noise and sensitivity $\\Delta$, $\\delta(\\varepsilon) = \\Phi(-\\varepsilon/\\mu + \\mu/2) - e^\\varepsilon \\Phi(-\\varepsilon/\\mu - \\mu/2)$ with $\\mu = \\Delta/\\sigma$.",
       method="adaptive quadrature of the hockey-stick integral of the two shifted normal densities")
def gaussian_closed_form(sigma: float = 1.5, sensitivity: float = 1.0) -> Evidence:
    mech = mechanisms.GaussianMechanism(sigma, sensitivity)
    grid = np.linspace(0.0, 4.0, 17)
    reference = []
    for eps in grid:
        # the loss (D^2 - 2 y D) / (2 sigma^2) exceeds eps left of y*
        kink = (sensitivity**2 - 2 * sigma**2 * eps) / (2 * sensitivity)
        reference.append(_quad_hockey_stick(lambda y: mech.logpdf(y, 0.0), lambda y: mech.logpdf(y, sensitivity), eps, kink))
    return close(profiles.gaussian_delta(grid, mech.mu), reference, atol=1e-9, rtol=0.0)


@gaussian_closed_form.mutant("profiles.gaussian_delta", "1/mu in place of mu (scale for rate)")
def _(gaussian_delta):
    return lambda eps, mu: gaussian_delta(eps, 1.0 / np.asarray(mu, dtype=float))


@gaussian_closed_form.mutant("profiles.gaussian_delta", "e^{-eps} in place of e^{eps}")
def _(gaussian_delta):
    def wrong(eps, mu):
        eps, mu = np.asarray(eps, dtype=float), np.asarray(mu, dtype=float)
        return special.ndtr(-eps / mu + mu / 2) - np.exp(-eps) * special.ndtr(-eps / mu - mu / 2)
    return wrong


@claim("curves/gaussian-tail-precision", item="Gaussian privacy curve, far tail",
       statement="The log-space evaluation of the Gaussian curve keeps 10 significant digits where delta is far below machine epsilon, down to the smallest normal numbers (where the formula in linear space is off by a factor of 75).",
       method="the same formula in 60-digit arithmetic (mpmath)")
def gaussian_tail_precision(mu: float = 0.5) -> Evidence:
    import mpmath  # high-precision reference; part of the book and test extras

    mpmath.mp.dps = 60
    grid = [2.0, 4.0, 6.0, 8.0, 15.0, 18.8]  # delta from about 1e-14 down to 1.7e-307
    m = mpmath.mpf(mu)
    reference = [float(mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)) for e in map(mpmath.mpf, grid)]
    return close(profiles.gaussian_delta(grid, mu), reference, rtol=1e-10)


@gaussian_tail_precision.mutant("profiles.gaussian_delta", "the formula in linear space (cancellation)")
def _(gaussian_delta):
    def linear(eps, mu):
        eps = np.asarray(eps, dtype=float)
        return special.ndtr(-eps / mu + mu / 2) - np.exp(eps) * special.ndtr(-eps / mu - mu / 2)
    return linear


@claim("curves/hockey-stick-supremum", item="Hockey-stick divergence of k-ary randomized response",
       statement="$\\sum_y (p(y) - e^\\varepsilon q(y))_+$ equals $\\sup_S P(S) - e^\\varepsilon Q(S)$ over output sets $S$, and is 0 at $\\varepsilon$ at least the mechanism's epsilon.",
       method="enumeration of all 2^k output sets, for two rows of k-ary randomized response and for a random asymmetric pair; 50-digit arithmetic for two nearly equal pmfs of 200 outputs (deltas near 1e-10)")
def hockey_stick_supremum(mechanism_epsilon: float = 1.2, k: int = 6, seed: int = 4) -> Evidence:
    if not 2 <= k <= 16:
        raise ValueError(f"k must be between 2 and 16 (all 2^k output sets are enumerated), got {k}")
    rr = mechanisms.RandomizedResponse(mechanism_epsilon, k)
    channel = rr.matrix()
    rng = np.random.default_rng(seed)
    pairs = [(channel[0], channel[1]), tuple(rng.dirichlet(np.ones(k), size=2))]
    grid = np.linspace(0.0, 1.5 * mechanism_epsilon, 10)
    subsets = np.array(list(itertools.product([0, 1], repeat=k)), dtype=float)
    ours, brute = [], []
    for p, q in pairs:
        brute.append((subsets @ p[:, None] - np.exp(grid)[None, :] * (subsets @ q[:, None])).max(axis=0))
        ours.append(profiles.hockey_stick(p, q, grid))
    # two nearly equal pmfs: every output's loss is about 1e-9, delta(0) about 1e-10, far below the
    # partial sums of p and q (reference: 50-digit arithmetic on the same doubles)
    import mpmath

    base = rng.dirichlet(np.ones(200))
    near = base * (1 + 1e-9 * np.sin(np.arange(200)))
    near = near / near.sum()
    tiny_eps = np.array([0.0, 1e-10])
    with mpmath.workdps(50):
        exact = [float(sum(max(mpmath.mpf(a) - mpmath.exp(mpmath.mpf(e)) * mpmath.mpf(b), 0) for a, b in zip(near, base)))
                 for e in tiny_eps]
    return all_of(close(ours, brute, atol=1e-14, rtol=0.0, detail="against the supremum over all output sets"),
                  close(profiles.hockey_stick(near, base, tiny_eps), exact, rtol=1e-9, atol=0.0,
                        detail="nearly equal pmfs: deltas of order 1e-10 to relative 1e-9"))


@hockey_stick_supremum.mutant("profiles.hockey_stick", "arguments swapped (q against p)")
def _(hockey_stick):
    return lambda p, q, eps: hockey_stick(q, p, eps)


@hockey_stick_supremum.mutant("profiles.hockey_stick", "sort by loss and cumulative sums (cancels for small deltas)")
def _(hockey_stick):
    def textbook(p, q, eps):
        p, q, eps = np.asarray(p, dtype=float), np.asarray(q, dtype=float), np.asarray(eps, dtype=float)
        with np.errstate(divide="ignore"):
            loss = np.log(p) - np.log(q)
        order = np.argsort(-loss, kind="stable")
        cum_p, cum_q = np.r_[0.0, np.cumsum(p[order])], np.r_[0.0, np.cumsum(q[order])]
        k = np.searchsorted(-loss[order], -eps, side="left")
        return np.clip(cum_p[k] - np.exp(eps) * cum_q[k], 0.0, 1.0)
    return textbook


@hockey_stick_supremum.mutant("profiles.hockey_stick", "positive part dropped")
def _(hockey_stick):
    return lambda p, q, eps: (np.asarray(p)[None, :] - np.exp(np.asarray(eps))[:, None] * np.asarray(q)[None, :]).sum(axis=1)


@claim("curves/gaussian-dominates-laplace-tail", item="Laplace vs Gaussian at equal variance",
       statement="At equal noise variance and sensitivity, the Gaussian curve lies above the Laplace curve for large $\\varepsilon$ (Laplace reaches $\\delta = 0$, the Gaussian never does), and below it for small $\\varepsilon$.",
       method="Monte Carlo estimates of the Gaussian $E_P[(1 - e^{\\varepsilon - L})_+]$ with 2e5 draws, with 5-standard-error bands (3e-7 per one-sided case, a family-wise error below 1e-5 over the 15 comparisons): gaussian_delta inside the band at every $\\varepsilon$; the Laplace closed form below the band at $\\varepsilon \\ge \\varepsilon_0$ and above it at $\\varepsilon = \\varepsilon_0/4$")
def gaussian_dominates_laplace_tail(mechanism_epsilon: float = 1.0, seed: int = 1) -> Evidence:
    rng = np.random.default_rng(seed)
    lap = mechanisms.LaplaceMechanism(mechanism_epsilon)
    gauss = mechanisms.GaussianMechanism(np.sqrt(2.0) * lap.scale)  # same variance 2 b^2
    eps = np.array([0.25, 0.5, 1.0, 1.5, 2.0]) * mechanism_epsilon
    y = gauss.sample(0.0, size=200_000, rng=rng)
    loss = gauss.logpdf(y, 0.0) - gauss.logpdf(y, 1.0)
    terms = np.clip(1.0 - np.exp(eps[:, None] - loss[None, :]), 0.0, None)
    mc = terms.mean(axis=1)
    band = 5 * terms.std(axis=1, ddof=1) / np.sqrt(y.size)
    laplace = profiles.laplace_delta(eps, mechanism_epsilon)
    large = eps >= mechanism_epsilon
    return all_of(at_most(np.abs(profiles.gaussian_delta(eps, gauss.mu) - mc), band, atol=0.0,
                          detail="|gaussian_delta - Monte Carlo| within 5 standard errors"),
                  at_most(laplace[large], (mc - band)[large], atol=0.0,
                          detail="eps >= eps0: Laplace delta below the Gaussian's band"),
                  at_most((mc + band)[:1], laplace[:1], atol=0.0,
                          detail="eps = eps0 / 4: Laplace delta above the Gaussian's band"))


@gaussian_dominates_laplace_tail.mutant("profiles.gaussian_delta", "mu read as sigma (1 / mu passed)")
def _(gaussian_delta):
    return lambda eps, mu: gaussian_delta(eps, 1.0 / np.asarray(mu, dtype=float))


@gaussian_dominates_laplace_tail.mutant("profiles.laplace_delta", "the curve of 2 eps0 (sensitivity counted twice)")
def _(laplace_delta):
    return lambda eps, eps0: laplace_delta(eps, 2 * np.asarray(eps0))
