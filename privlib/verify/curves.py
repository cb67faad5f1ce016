"""Claims of the foundations chapter: exact privacy curves of the Laplace, Gaussian and
randomized-response mechanisms, each checked against an independent computation."""

from __future__ import annotations

import itertools
import math

import numpy as np
from scipy import integrate, optimize, special, stats

from privlib.core import mechanisms, profiles
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, reference
from privlib.verify import densities
from privlib.verify.source_mutants import edit


def _laplace_logpdf(scale: float, value: float):
    """The Laplace log-density centred at ``value``, as a function of the output alone."""
    return lambda y: densities.laplace_logpdf(y, value, scale)


def _normal_logpdf(sigma: float, value: float):
    """The normal log-density centred at ``value``, as a function of the output alone."""
    return lambda y: densities.normal_logpdf(y, value, sigma)


def _quad_hockey_stick(logp, logq, epsilon: float, kink: float) -> float:
    """``int max(p - e^eps q, 0) dy`` by adaptive quadrature, split at the kink of the integrand."""

    def integrand(y: float) -> float:
        return max(math.exp(logp(y)) - math.exp(epsilon + logq(y)), 0.0)

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
        reference.append(_quad_hockey_stick(_laplace_logpdf(mech.scale, 0.0), _laplace_logpdf(mech.scale, sensitivity), eps, kink))
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
        reference.append(_quad_hockey_stick(_normal_logpdf(sigma, 0.0), _normal_logpdf(sigma, sensitivity), eps, kink))
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
       statement="The log-space evaluation of the Gaussian curve keeps 10 significant digits where delta is far below machine epsilon, down to the smallest normal numbers (where the formula in linear space is off by a factor of 75), and is exactly 0 (not NaN) where even $\\log \\Phi(-\\varepsilon/\\mu + \\mu/2)$ is beyond the doubles ($\\varepsilon/\\mu > 10^{154}$).",
       method="the same formula in 60-digit arithmetic (mpmath); where $x = \\varepsilon/\\mu - \\mu/2 > 10^{154}$, the bound $\\delta \\le \\Phi(-x) \\le e^{-x^2/2}$ in 60-digit arithmetic, which rounds to the double 0")
def gaussian_tail_precision(mu: float = 0.5) -> Evidence:
    import mpmath  # high-precision reference; part of the book and test extras

    mpmath.mp.dps = 60
    grid = [2.0, 4.0, 6.0, 8.0, 15.0, 18.8]  # delta from about 1e-14 down to 1.7e-307
    m = mpmath.mpf(mu)
    reference = [float(mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)) for e in map(mpmath.mpf, grid)]
    # log Phi(-eps/mu + mu/2) itself beyond the doubles: a wide (mu >= 0.1) and a narrow (mu < 0.1) case
    far_eps, far_mu = [1e155, 1.0], [1.0, 1e-160]
    bound = [float(mpmath.exp(-(mpmath.mpf(e) / mpmath.mpf(s) - mpmath.mpf(s) / 2) ** 2 / 2)) for e, s in zip(far_eps, far_mu)]
    return all_of(close(profiles.gaussian_delta(grid, mu), reference, rtol=1e-10, detail="deltas from 1e-14 to 1.7e-307"),
                  close(profiles.gaussian_delta(far_eps, far_mu), bound, atol=1e-300, rtol=0.0,
                        detail="epsilon / mu above 1e154: 0, as the bound rounds"))


@gaussian_tail_precision.mutant("profiles._log_gaussian_delta", "no guard where Phi(a + h) underflows (-inf minus -inf)")
def _(log_gaussian_delta):
    return edit("    if gone.any():\n        excess[gone] = -np.inf\n", "")(log_gaussian_delta)


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


@reference
def _equal_variance_crossing(mechanism_epsilon: float) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """The crossing of the Laplace and Gaussian curves at equal variance (sensitivity 1), both by
    adaptive quadrature of their hockey-stick integrals, located by Brent's method; with the two
    quadrature curves on a grid of ``[0, 1.5 eps0]`` that holds the crossing's neighbours."""
    lap = mechanisms.LaplaceMechanism(mechanism_epsilon)
    sigma = np.sqrt(2.0) * lap.scale
    gauss = mechanisms.GaussianMechanism(sigma)

    def lap_quad(eps: float) -> float:
        return _quad_hockey_stick(_laplace_logpdf(lap.scale, 0.0), _laplace_logpdf(lap.scale, 1.0), eps,
                                  (1.0 - eps * lap.scale) / 2.0)

    def gauss_quad(eps: float) -> float:
        return _quad_hockey_stick(_normal_logpdf(sigma, 0.0), _normal_logpdf(sigma, 1.0), eps,
                                  (1.0 - 2.0 * sigma**2 * eps) / 2.0)

    if lap_quad(0.0) <= gauss_quad(0.0):
        # eps0 above about 4.75: the Gaussian's total variation is the larger, no crossing
        cross = 0.0
    else:
        cross = optimize.brentq(lambda e: lap_quad(e) - gauss_quad(e), 0.0, mechanism_epsilon,
                                xtol=1e-15, rtol=1e-13)
    grid = np.concatenate([np.linspace(0.0, 1.5, 16) * mechanism_epsilon, cross * (1.0 + np.array([-1e-3, 1e-3]))])
    return cross, grid, np.array([lap_quad(e) for e in grid]), np.array([gauss_quad(e) for e in grid])


@claim("curves/gaussian-dominates-laplace-tail", item="Laplace vs Gaussian at equal variance",
       statement="At equal noise variance and sensitivity, the Gaussian curve lies above the Laplace curve for large $\\varepsilon$ (Laplace reaches $\\delta = 0$, the Gaussian never does), and, when $\\varepsilon_0$ is below about 4.75 (where the Laplace mechanism's total variation $1 - e^{-\\varepsilon_0/2}$ still exceeds the Gaussian's), below it for small $\\varepsilon$: the two cross once, at $\\varepsilon^* < \\varepsilon_0$; above that $\\varepsilon_0$ the Gaussian curve lies above everywhere.",
       method="both curves by adaptive quadrature of their hockey-stick integrals (the mechanisms' densities, not the closed forms) on 16 points of $[0, 1.5\\varepsilon_0]$ and at $\\varepsilon^*(1 \\pm 10^{-3})$, with $\\varepsilon^*$ the quadrature curves' crossing (Brent; none, and the Gaussian curve above on the whole grid, when the quadrature's total variations are in that order): laplace_delta and gaussian_delta against them (atol 1e-9), their order on each side of $\\varepsilon^*$, even $10^{-3}$ from it, and the crossing of the closed forms against the quadrature's (rtol 1e-6); at $\\varepsilon_0$ and at $\\varepsilon_0/20$ (where gaussian_delta integrates its narrow tail difference); a Monte Carlo check of gaussian_delta with 2e5 draws and a 5-standard-error band (3e-7 per case) at the four $\\varepsilon = \\mu^2/2 + z\\mu$, $z = -1, 0, 1, 2$ (not below 0), where $\\delta \\approx \\Phi(-z)$")
def gaussian_dominates_laplace_tail(mechanism_epsilon: float = 1.0, seed: int = 1) -> Evidence:
    rng = np.random.default_rng(seed)
    lap = mechanisms.LaplaceMechanism(mechanism_epsilon)
    gauss = mechanisms.GaussianMechanism(np.sqrt(2.0) * lap.scale)  # same variance 2 b^2
    # Monte Carlo points where the Gaussian curve is about Phi(-z), z = -1, 0, 1, 2 (eps = mu^2/2 + z mu,
    # not below 0): deltas a 2e5-draw average resolves at any eps0 (rare-event tails it does not)
    eps = np.maximum(gauss.mu**2 / 2 + np.array([-1.0, 0.0, 1.0, 2.0]) * gauss.mu, 0.0)
    y = gauss.sample(0.0, size=200_000, rng=rng)
    loss = gauss.logpdf(y, 0.0) - gauss.logpdf(y, 1.0)
    terms = np.clip(1.0 - np.exp(eps[:, None] - loss[None, :]), 0.0, None)
    mc = terms.mean(axis=1)
    band = 5 * terms.std(axis=1, ddof=1) / np.sqrt(y.size)
    curves_ours, curves_quad, below, above, cross_ours, cross_quad = [], [], [], [], [], []
    for eps0 in (mechanism_epsilon, mechanism_epsilon / 20):
        cross, grid, lap_q, gauss_q = _equal_variance_crossing(eps0)
        mu = eps0 / np.sqrt(2.0)
        lap_c, gauss_c = profiles.laplace_delta(grid, eps0), profiles.gaussian_delta(grid, mu)
        curves_ours += [lap_c, gauss_c]
        curves_quad += [lap_q, gauss_q]
        left = grid < cross
        below.append(np.concatenate([gauss_c[left], lap_c[~left]]))
        above.append(np.concatenate([lap_c[left], gauss_c[~left]]))
        diff = lambda e, eps0=eps0, mu=mu: float(profiles.laplace_delta(e, eps0) - profiles.gaussian_delta(e, mu))
        cross_ours.append(optimize.brentq(diff, 0.0, eps0, xtol=1e-15, rtol=1e-13)
                          if diff(0.0) > 0 > diff(eps0) else 0.0)
        cross_quad.append(cross)
    return all_of(close(np.concatenate(curves_ours), np.concatenate(curves_quad), atol=1e-9, rtol=0.0,
                        detail="both closed forms against quadrature, eps0 and eps0/20"),
                  at_most(np.concatenate(below), np.concatenate(above), atol=0.0,
                          detail="the lower curve on each side of the crossing: Gaussian before, Laplace after"),
                  close(cross_ours, cross_quad, rtol=1e-6, atol=0.0,
                        detail="the closed forms' crossing against the quadrature's"),
                  at_most(np.abs(profiles.gaussian_delta(eps, gauss.mu) - mc), band, atol=0.0,
                          detail="|gaussian_delta - Monte Carlo| within 5 standard errors"))


@gaussian_dominates_laplace_tail.mutant("profiles.laplace_delta", "exponent's factor 1/2 dropped")
def _(laplace_delta):
    return edit("out *= 0.5", "out *= 1.0")(laplace_delta)


@gaussian_dominates_laplace_tail.mutant("profiles._log_gaussian_delta", "narrow branch: Gauss-Legendre half-width h/2 in place of h")
def _(log_gaussian_delta):
    return edit("excess[narrow] = h[narrow] * (", "excess[narrow] = h[narrow] / 2 * (")(log_gaussian_delta)


@gaussian_dominates_laplace_tail.mutant("profiles._log_gaussian_delta", "wide branch: e^eps factor dropped (eps not subtracted)")
def _(log_gaussian_delta):
    return edit("excess -= eps\n", "excess -= 0.0\n")(log_gaussian_delta)


@gaussian_dominates_laplace_tail.mutant("profiles.gaussian_delta", "mu read as sigma (1 / mu passed)")
def _(gaussian_delta):
    return lambda eps, mu: gaussian_delta(eps, 1.0 / np.asarray(mu, dtype=float))


@gaussian_dominates_laplace_tail.mutant("profiles.laplace_delta", "the curve of 2 eps0 (sensitivity counted twice)")
def _(laplace_delta):
    return lambda eps, eps0: laplace_delta(eps, 2 * np.asarray(eps0))


@claim("curves/discrete-mechanism-masses", item="Randomized response and the geometric mechanism",
       statement="$k$-ary randomized response reports the truth with probability $e^\\varepsilon/(e^\\varepsilon + k - 1)$ and each other symbol with $1/(e^\\varepsilon + k - 1)$, and its sampler draws those frequencies (truth 0 included); the two-sided geometric mechanism of sensitivity $\\Delta$ has mass $\\frac{1-a}{1+a} a^{|y - v|}$ with $a = e^{-\\varepsilon/\\Delta}$.",
       method="the definitions in 40-digit arithmetic (mpmath) against privlib's log-masses, for every pair of symbols ($k = 3$) and outputs $-15 .. 15$ around the values $0, 3, -5$ ($\\Delta = 2$); $2 \\times 10^4$ draws of the sampler from each truth $0 .. k-1$ against the masses, within the z-score of family-wise false-alarm probability $10^{-6}$",
       checks=("mechanisms.RandomizedResponse.logpmf", "mechanisms.GeometricMechanism.logpmf",
               "mechanisms.RandomizedResponse.sample"))
def discrete_mechanism_masses(mechanism_epsilon: float = 0.7, k: int = 3, sensitivity: int = 2,
                              seed: int = 27) -> Evidence:
    import mpmath

    rr = mechanisms.RandomizedResponse(mechanism_epsilon, k)
    y, x = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
    geo = mechanisms.GeometricMechanism(mechanism_epsilon, sensitivity)
    out, value = np.arange(-15, 16), np.array([0, 3, -5])
    with mpmath.workdps(40):
        e = mpmath.exp(mpmath.mpf(mechanism_epsilon))
        rr_ref = [[float(mpmath.log((e if a == b else 1) / (e + k - 1))) for b in range(k)] for a in range(k)]
        a = mpmath.exp(-mpmath.mpf(mechanism_epsilon) / sensitivity)
        geo_ref = [[float(mpmath.log((1 - a) / (1 + a)) + abs(int(o) - int(v)) * mpmath.log(a)) for o in out]
                   for v in value]
    draws, truths = 20_000, range(k)
    rng = np.random.default_rng(seed)
    z = []
    for t in truths:
        released = rr.sample(np.full(draws, t), rng)
        freq = np.bincount(released, minlength=k) / draws
        mass = np.exp(np.array(rr_ref)[:, t])
        z.extend(np.abs(freq - mass) / np.sqrt(mass * (1 - mass) / draws))
    z_max = float(stats.norm.isf(1e-6 / (2 * len(z))))
    return all_of(close(rr.logpmf(y, x), rr_ref, atol=1e-13, rtol=0.0, detail="randomized response, every (y, x)"),
                  close(geo.logpmf(out[None, :], value[:, None]), geo_ref, atol=1e-12, rtol=0.0,
                        detail="geometric mechanism, |y - v| <= 20"),
                  at_most(z, z_max, atol=0.0, detail="sampler's frequencies against the masses (z-scores)"))


@discrete_mechanism_masses.mutant("mechanisms.RandomizedResponse.logpmf", "truth and other symbols swapped")
def _(logpmf):
    return lambda self, y, x: logpmf(self, np.asarray(y), (np.asarray(x) + 1) % self.k)


@discrete_mechanism_masses.mutant("mechanisms.GeometricMechanism.logpmf", "decay e^-epsilon (sensitivity ignored)")
def _(logpmf):
    def wrong(self, y, value=0):
        t = self.epsilon
        return np.log(np.tanh(t / 2.0)) - t * np.abs(np.asarray(y) - np.asarray(value))
    return wrong


@discrete_mechanism_masses.mutant("mechanisms.RandomizedResponse.sample", "the other symbol drawn among all k (the truth again included)")
def _(sample):
    def wrong(self, x, rng=None):
        x = np.asarray(x)
        gen = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
        keep = gen.random(x.shape) < self.p_truth
        return np.where(keep, x, (x + gen.integers(0, self.k, size=x.shape)) % self.k)
    return wrong
