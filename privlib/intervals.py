"""Intervals of measures and the inferential limits of epsilon-DP (Bailie & Gong, "General
inferential limits under differential and Pufferfish privacy", Sections 2-6).

Pure epsilon-DP is a Lipschitz condition: ``d_mult(P_x, P_x') <= eps d(x, x')``, with the
multiplicative distance ``d_mult(mu, nu) = sup_S |log mu(S) - log nu(S)|``. Integrating the
resulting pointwise sandwich against any data model or prior bounds the density of the released
data (Theorem 4.1, Theorem 6.2), the power of any test (Theorem 5.1) and any posterior
(Theorem 6.4), with ``d`` the diameter of the datasets that could have produced the output.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats

from privlib import _validate as v
from privlib.mechanisms import LaplaceMechanism

__all__ = [
    "multiplicative_distance",
    "density_bounds",
    "laplace_sum_bounds",
    "randomized_response_bounds",
    "power_bounds",
    "posterior_bounds",
    "clamped_count_posterior",
    "clamped_count_predictive",
]


def multiplicative_distance(mu: ArrayLike, nu: ArrayLike) -> float:
    """``d_mult(mu, nu) = sup_S |log mu(S) - log nu(S)|`` for measures on a finite space, equal
    to the largest pointwise log-ratio of the masses (events null under both are ignored; ``inf``
    if one charges an atom the other does not)."""
    mu = v.nonnegative("mu", mu)
    nu = v.nonnegative("nu", nu)
    if mu.shape != nu.shape or mu.ndim != 1:
        raise ValueError(f"mu and nu must be vectors of the same length, got shapes {mu.shape} and {nu.shape}")
    both = (mu > 0) | (nu > 0)
    if ((mu == 0) != (nu == 0))[both].any():
        return float("inf")
    used = (mu > 0) & (nu > 0)
    if not used.any():
        return 0.0
    return float(np.abs(np.log(mu[used]) - np.log(nu[used])).max())


def density_bounds(densities: ArrayLike, epsilon: float, diameter: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Theorem 4.1: for an epsilon-DP mechanism whose output densities at t' are the rows of
    ``densities`` (one row per dataset that could have produced t, of d-diameter ``diameter``),
    every data model's output density lies between ``e^{-eps d} max_x p_x(t')`` and
    ``e^{eps d} min_x p_x(t')``. Returns (lower, upper) per column."""
    dens = v.nonnegative("densities", densities)
    if dens.ndim != 2:
        raise ValueError(f"densities must be a 2-D array (datasets x outputs), got shape {dens.shape}")
    eps = float(v.nonnegative("epsilon", epsilon))
    d = float(v.nonnegative("diameter", diameter))
    return np.exp(-eps * d) * dens.max(axis=0), np.exp(eps * d) * dens.min(axis=0)


def laplace_sum_bounds(t: ArrayLike, n: int, epsilon: float, q_support: str = "interval") -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Example 4.4: Theorem 4.1's bounds for the Laplace-privatised sum of n binary records
    (sensitivity 1, so ``p_q(t) = (eps/2) e^{-eps |t - q|}``) with d = n.

    ``q_support="interval"`` lets q range over [0, n] (the paper's figure, a flat-topped lower
    bound); ``"integer"`` over {0, ..., n} (the exact suprema, a scalloped lower bound)."""
    t = v.real("t", t)
    n = v.integer("n", n, low=1)
    eps = float(v.positive("epsilon", epsilon))
    lap = LaplaceMechanism(eps)
    if q_support == "interval":
        nearest = np.clip(t, 0.0, float(n))
    elif q_support == "integer":
        nearest = np.clip(np.round(t), 0, n)
    else:
        raise ValueError(f"q_support must be 'interval' or 'integer', got {q_support!r}")
    farthest = np.where(t >= n / 2.0, 0.0, float(n))
    lower = np.exp(-eps * n + lap.logpdf(t, nearest))
    upper = np.exp(eps * n + lap.logpdf(t, farthest))
    return lower, upper


def randomized_response_bounds(n: ArrayLike, epsilon: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Example 4.5, eq. (8): under binary randomized response on n records every data model gives
    an output probability between ``(1 + e^eps)^{-n}`` and ``e^{eps n} (1 + e^eps)^{-n}``."""
    n = v.real("n", n, low=1.0)
    eps = float(v.positive("epsilon", epsilon))
    log_norm = -n * np.logaddexp(0.0, eps)
    return np.exp(log_norm), np.exp(eps * n + log_norm)


def power_bounds(alpha: ArrayLike, epsilon: float, diameter: float, sharp: bool = False) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Theorem 5.1 and Corollary 5.3: a size-alpha test on an epsilon-DP release has power between
    ``alpha e^{-eps d}`` and ``alpha e^{eps d}``. With ``sharp=True`` the same argument applied
    to 1 - phi adds ``1 - e^{eps d} (1 - alpha)`` below and ``1 - e^{-eps d}(1 - alpha)`` above."""
    alpha = v.probability("alpha", alpha)
    k = np.exp(float(v.nonnegative("epsilon", epsilon)) * float(v.nonnegative("diameter", diameter)))
    low, high = alpha / k, alpha * k
    if sharp:
        low = np.maximum(low, 1.0 - k * (1.0 - alpha))
        high = np.minimum(high, 1.0 - (1.0 - alpha) / k)
    return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)


def posterior_bounds(prior_density: ArrayLike, epsilon: float, diameter: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Theorem 6.4: every posterior density lies between ``e^{-eps d}`` and ``e^{eps d}`` times the
    prior density."""
    prior = v.nonnegative("prior_density", prior_density)
    k = np.exp(float(v.nonnegative("epsilon", epsilon)) * float(v.nonnegative("diameter", diameter)))
    return prior / k, prior * k


def _clamped_setup(t: ArrayLike, epsilon: float, low: int, high: int):
    t = v.real("t", t)
    eps = float(v.positive("epsilon", epsilon))
    low = v.integer("low", low, low=0)
    high = v.integer("high", high, low=low + 1)
    return t, LaplaceMechanism(eps, sensitivity=float(high - low)), low, high


def clamped_count_predictive(t: ArrayLike, shape: float = 3.0, rate: float = 1.0, epsilon: float = 1.0,
                             low: int = 0, high: int = 6) -> NDArray[np.float64]:
    """Example 6.7: prior-predictive density ``m(t)`` of ``clamp(x; low, high) + Laplace`` when
    ``x | theta ~ Poisson(theta)`` and ``theta ~ Gamma(shape, rate)`` (x is negative binomial)."""
    t, lap, low, high = _clamped_setup(t, epsilon, low, high)
    shape = float(v.positive("shape", shape))
    rate = float(v.positive("rate", rate))
    values = np.arange(low, high + 1)
    nb = stats.nbinom(shape, rate / (1.0 + rate))
    weights = nb.pmf(values).astype(float)
    weights[0] = nb.cdf(low)             # every x <= low is clamped to low
    weights[-1] = nb.sf(high - 1)        # every x >= high is clamped to high
    return (weights[:, None] * lap.pdf(t.reshape(1, -1), values[:, None])).sum(axis=0).reshape(t.shape)


def clamped_count_posterior(theta: ArrayLike, t: float, shape: float = 3.0, rate: float = 1.0, epsilon: float = 1.0,
                            low: int = 0, high: int = 6) -> NDArray[np.float64]:
    """Example 6.7: exact posterior density of theta given the release t (Bayes' rule with the
    likelihood ``sum_c P(clamp(x) = c | theta) Lap(t - c)``)."""
    theta = v.nonnegative("theta", theta)
    tt, lap, low, high = _clamped_setup(t, epsilon, low, high)
    if tt.ndim != 0:
        raise ValueError("t must be a single release")
    shape = float(v.positive("shape", shape))
    rate = float(v.positive("rate", rate))
    values = np.arange(low, high + 1)
    pois = stats.poisson.pmf(values[:, None], theta[None, :])
    pois[0] = stats.poisson.cdf(low, theta)
    pois[-1] = stats.poisson.sf(high - 1, theta)
    likelihood = (pois * lap.pdf(float(tt), values.astype(float))[:, None]).sum(axis=0)
    prior = stats.gamma.pdf(theta, shape, scale=1.0 / rate)
    return prior * likelihood / clamped_count_predictive(float(tt), shape, rate, epsilon, low, high)
