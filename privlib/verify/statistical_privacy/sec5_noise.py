"""Claims of chapter 004, Section 5: noise."""

from __future__ import annotations

import numpy as np

from privlib.papers import statistical
from privlib.verify.claims import Evidence, all_of, at_most, claim, close
from privlib.verify.statistical_privacy._routes import (
    _grid_delta,
    _normal_pair_delta,
    _only_plus,
    _quad_delta,
)


@claim("004/noise-sp", item="Section 5 (SP with Gaussian and Laplace noise)",
       statement="With additive noise the likelihood ratio of the two output laws is monotone, so $\\delta$ is attained on a half-line found by one root search (`noise_delta`), in both directions.",
       method="trapezoid integration (lattice-aligned grids, Richardson-extrapolated) of the positive part of the two binomial mixtures of noise densities (n = 30 and 300), both directions, pi in {0.1, 0.5}")
def noise_sp(n: int = 30, epsilon: float = 0.05) -> Evidence:
    observed, reference = [], []
    for size in (n, 10 * n):
        for noise in ("gaussian", "laplace"):
            for pi in (0.1, 0.5):
                scale = 1.5 / size
                observed.append(float(statistical.noise_delta(epsilon, size, pi, scale, noise)))
                reference.append(_grid_delta(epsilon, size, pi, scale, noise, 16))
    return close(observed, reference, rtol=1e-7, atol=0.0)


@noise_sp.mutant("statistical.noise_delta", "one direction only (delta_+)")
def _(noise_delta):
    return _only_plus


@noise_sp.mutant("statistical._noise_logsf", "Laplace tail e^-z without the factor 1/2")
def _(logsf):
    return lambda noise, z: logsf(noise, z) + (np.log(2.0) * (np.asarray(z) >= 0) if noise == "laplace" else 0.0)


@noise_sp.mutant("statistical._noise_logpdf", "Gaussian density of variance 2 (scale read as variance / 2)")
def _(logpdf):
    return lambda noise, z: logpdf(noise, np.asarray(z) / np.sqrt(2.0) if noise == "gaussian" else z)


@claim("004/lemma-5", item="Lemma 5",
       statement="Laplace noise of scale $\\psi$ gives pure $(1/(\\psi n), 0)$-SP, and no smaller $\\varepsilon$ has $\\delta = 0$.",
       method="`laplace_sp_epsilon` and `noise_delta` at that epsilon, against adaptive quadrature of the positive part of the mixture densities at it (0) and at 0.999 of it (positive)")
def lemma_5(n: int = 30, pi: float = 0.3, nu: float = 2.0) -> Evidence:
    scale = nu / n
    eps0 = float(statistical.laplace_sp_epsilon(n, scale))
    at, below = _quad_delta(eps0, n, pi, scale, "laplace"), _quad_delta(0.999 * eps0, n, pi, scale, "laplace")
    return all_of(close([float(statistical.noise_delta(eps0, n, pi, scale, "laplace")), at], [0.0, 0.0], atol=1e-10,
                        detail="delta at 1/(psi n): privlib and quadrature"),
                  at_most(1e-9, below, atol=0.0, detail="quadrature: delta at 0.999/(psi n) is positive"))


@lemma_5.mutant("statistical.laplace_sp_epsilon", "1 / (2 psi n) (half the epsilon)")
def _(laplace_sp_epsilon):
    return lambda n, scale: laplace_sp_epsilon(n, scale) / 2


@lemma_5.mutant("statistical.laplace_sp_epsilon", "1 / psi (n forgotten)")
def _(laplace_sp_epsilon):
    return lambda n, scale: laplace_sp_epsilon(n, scale) * n


@claim("004/lemma-6", item="Lemma 6",
       statement="With Gaussian noise the SP delta is approximately the Gaussian DP curve with the internal noise added: standard deviation $\\sqrt{\\sigma^2 + \\pi(1-\\pi)(n-1)/n^2}$. Good when $n\\pi$ is large, poor when $n\\pi$ is near 1.",
       method="`normal_approx_delta` against quadrature of the hockey stick of the two approximating normals; its relative error against the exact delta (`noise_delta`, checked by noise-sp) at n = 1000, nu = 1: below 1e-3 at pi = 0.5 and above 1% at pi = 0.001")
def lemma_6(n: int = 1000, epsilon: float = 0.01) -> Evidence:
    errors, approx, quad = [], [], []
    for pi in (0.5, 0.001):
        sigma = np.sqrt((1.0 / n) ** 2 + pi * (1 - pi) * (n - 1) / n**2)
        a = float(statistical.normal_approx_delta(epsilon, n, pi, 1.0 / n))
        approx.append(a)
        quad.append(_normal_pair_delta(epsilon, pi * (1 - 1 / n) + 1 / n, pi * (1 - 1 / n), sigma))
        exact = float(statistical.noise_delta(epsilon, n, pi, 1.0 / n))
        errors.append(abs(a - exact) / exact)
    return all_of(close(approx, quad, rtol=1e-8, atol=0.0, detail="the approximation = hockey stick of the two normals"),
                  at_most(errors[0], 1e-3, atol=0.0, detail="relative error at pi = 0.5"),
                  at_most(1e-2, errors[1], atol=0.0, detail="relative error at pi = 0.001"))


@lemma_6.mutant("statistical.normal_approx_delta", "internal noise dropped (DP curve of sigma alone)")
def _(normal_approx_delta):
    return lambda epsilon, n, pi, sigma: statistical.dp_delta(epsilon, sigma * n)


@lemma_6.mutant("statistical.normal_approx_delta", "internal variance pi (1 - pi) / n (the n-1 and 1/n lost)")
def _(normal_approx_delta):
    from privlib.core import profiles
    return lambda epsilon, n, pi, sigma: profiles.gaussian_delta(epsilon, (1 / n) / np.sqrt(sigma**2 + pi * (1 - pi) / n))


@claim("004/dp-baselines", item="Section 5 (DP baselines)",
       statement="At $\\varepsilon = 0.01$ the DP delta of Gaussian noise with standard deviation $\\nu/n$ is 0.38 for $\\nu = 1$ and 0.128 for $\\nu = 3$, as the text quotes.",
       method="`dp_delta` against adaptive quadrature of the hockey-stick integral of N(0, nu^2) against N(1, nu^2), and the quadrature values against the printed ones to their last digit")
def dp_baselines(epsilon: float = 0.01) -> Evidence:
    quad = [_normal_pair_delta(epsilon, 1.0, 0.0, nu) for nu in (1.0, 3.0)]
    return all_of(close(statistical.dp_delta(epsilon, [1.0, 3.0]), quad, atol=1e-10, rtol=0.0, detail="dp_delta = quadrature"),
                  close(quad, [0.38, 0.128], atol=[0.005, 0.0005], rtol=0.0, detail="quadrature values rounded as printed"))


@dp_baselines.mutant("statistical.dp_delta", "mu = nu instead of 1 / nu")
def _(dp_delta):
    return lambda epsilon, nu, noise="gaussian": dp_delta(epsilon, 1.0 / np.asarray(nu, dtype=float), noise)


@dp_baselines.mutant("statistical.dp_delta", "the Laplace curve for Gaussian noise")
def _(dp_delta):
    return lambda epsilon, nu, noise="gaussian": dp_delta(epsilon, nu, "laplace")


@claim("004/ratio-nu10", item="Section 5 (ratio at nu = 10, Figure 2)",
       statement="The text: 'even for the maximum [$\\nu$ =] 10 the ratio $\\delta_{DP}/\\delta_{SP}$ is significantly larger than 1' (Gaussian noise, n = 1000, $\\varepsilon = 0.01$). Every ratio exceeds 1; whether it is 'significantly' larger depends on $\\pi$ (the record lists them).",
       method="`noise_delta` against trapezoid integration of the mixture densities on a lattice-aligned grid, `dp_delta` against quadrature, and the ratios at least 1, at pi in {0.5, 0.1, 0.01}")
def ratio_nu10(n: int = 1000, epsilon: float = 0.01, nu: float = 10.0) -> Evidence:
    pis = (0.5, 0.1, 0.01)
    sp = [float(statistical.noise_delta(epsilon, n, p, nu / n)) for p in pis]
    grid = [_grid_delta(epsilon, n, p, nu / n, "gaussian") for p in pis]
    dp = float(statistical.dp_delta(epsilon, nu))
    ratios = [dp / s for s in sp]
    return all_of(close(sp, grid, rtol=1e-6, atol=0.0, detail="SP delta = grid integration"),
                  close(dp, _normal_pair_delta(epsilon, 1.0, 0.0, nu), rtol=1e-9, atol=0.0, detail="DP delta = quadrature"),
                  at_most(1.0, ratios, atol=0.0, detail="ratios " + ", ".join(f"{r:.3g}" for r in ratios)))


@ratio_nu10.mutant("statistical.noise_delta", "one direction only (delta_+)")
def _(noise_delta):
    return _only_plus


@ratio_nu10.mutant("statistical._noise_logsf", "Gaussian tail log Phi(z) for log Phi(-z) (direction swapped)")
def _(logsf):
    from scipy import special
    return lambda noise, z: special.log_ndtr(np.asarray(z)) if noise == "gaussian" else logsf(noise, z)
