"""Statistical privacy of property queries (Breutigam & Reischuk, "Statistical privacy").

A database has n independent entries, each positive with probability pi; the property query
returns the fraction of positives. Statistical privacy (SP) compares the output law given that a
critical entry is positive (``mu_+``) with the law given that it is negative (``mu_-``):
``delta(eps) = max(delta_+(eps), delta_-(eps))``, each a hockey-stick divergence (Definition 5).

Every delta here is computed from its definition: the discrete laws of Lemma 4 in log-space
(pure SP is subsampling with ``m = n``), and, with additive noise, the two binomial mixtures of
shifted noise densities, whose likelihood ratio is monotone, so the optimal event is a half-line
found by one root search. The paper's closed forms serve only as cross-checks (see the chapter
notebook for their errata).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize, special, stats

from privlib import _validate as v
from privlib import profiles

__all__ = [
    "subsampling_laws",
    "subsampling_delta",
    "pure_delta",
    "noise_delta",
    "dp_delta",
    "subsampling_utility_loss",
    "equal_utility_scales",
    "laplace_sp_epsilon",
    "normal_approx_delta",
    "amplified_epsilon",
    "output_densities",
]

NOISES = ("gaussian", "laplace")
_WINDOW = 60.0  # binomial terms below max - 60 in log-space are dropped (< e^-60 relative each)


def _check_n_m_pi(n: int, m: int, pi: float) -> tuple[int, int, float]:
    n = v.integer("n", n, low=2)
    m = v.integer("m", m, low=1, high=n)
    pi = float(v.probability("pi", pi, open_ends=True))
    return n, m, pi


def _laws(n: int, m: int, pi: float, j: NDArray[np.int64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    la = stats.binom.logpmf(j - 1, m - 1, pi)
    lb = stats.binom.logpmf(j, m - 1, pi)
    if m == n:
        return la, lb
    lam = m / n
    lc = stats.binom.logpmf(j, m, pi)
    return np.logaddexp(np.log(lam) + la, np.log1p(-lam) + lc), np.logaddexp(np.log(lam) + lb, np.log1p(-lam) + lc)


def subsampling_laws(n: int, m: int, pi: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Lemma 4: log-probabilities of ``m a = j`` (j = 0..m positives in a subsample of size m drawn
    without replacement) given the critical entry positive (``log P_+``) and negative (``log P_-``):
    ``P_+(j) = lam b_{m-1}(j-1) + (1-lam) b_m(j)``, ``P_-(j) = lam b_{m-1}(j) + (1-lam) b_m(j)``,
    ``lam = m / n``. With ``m = n`` these are the laws of pure statistical privacy."""
    n, m, pi = _check_n_m_pi(n, m, pi)
    return _laws(n, m, pi, np.arange(m + 1))


def _discrete_delta(log_p: NDArray[np.float64], log_q: NDArray[np.float64], eps: NDArray[np.float64]) -> NDArray[np.float64]:
    """``max(H(P||Q), H(Q||P))`` at every epsilon, over the outputs that carry mass (the rest
    contribute less than ``e^-60`` relative each)."""
    keep = np.maximum(log_p, log_q) > max(log_p.max(), log_q.max()) - _WINDOW
    p, q = np.exp(log_p[keep]), np.exp(log_q[keep])
    p, q = p / p.sum(), q / q.sum()
    return np.maximum(profiles.hockey_stick(p, q, eps), profiles.hockey_stick(q, p, eps))


def subsampling_delta(epsilon: ArrayLike, n: int, m: int, pi: float) -> NDArray[np.float64]:
    """Theorem 4.1 (from the definition): SP delta of the property query answered on a random
    subsample of m of the n entries, vectorized over epsilon."""
    eps = v.nonnegative("epsilon", epsilon)
    n, m, pi = _check_n_m_pi(n, m, pi)
    # only outputs within 12 standard deviations of the mean: beyond, every binomial term is
    # below e^-60 times the largest
    mean, sd = m * pi, np.sqrt(m * pi * (1.0 - pi))
    j = np.arange(max(0, int(mean - 12 * sd) - 2), min(m, int(mean + 12 * sd) + 3) + 1)
    log_p, log_q = _laws(n, m, pi, j)
    return _discrete_delta(log_p, log_q, np.atleast_1d(eps)).reshape(eps.shape)


def pure_delta(epsilon: ArrayLike, n: int, pi: float) -> NDArray[np.float64]:
    """Theorem 4.2 (from the definition): SP delta of the exact answer (no noise, no sampling)."""
    return subsampling_delta(epsilon, n, n, pi)


def _noise_logsf(noise: str, z: NDArray[np.float64]) -> NDArray[np.float64]:
    """log P(N > z) of the standard noise. The Laplace tail is written out in log-space:
    scipy's ``laplace.logsf`` and ``logpdf`` return -inf beyond |z| of about 745."""
    if noise == "gaussian":
        return stats.norm.logsf(z)
    return np.where(z >= 0, -np.abs(z) - np.log(2.0), np.log1p(-0.5 * np.exp(-np.abs(z))))


_LOG_SQRT_2PI = 0.5 * np.log(2.0 * np.pi)


def _noise_logpdf(noise: str, z: NDArray[np.float64]) -> NDArray[np.float64]:
    if noise == "gaussian":
        return -0.5 * z * z - _LOG_SQRT_2PI
    return -np.abs(z) - np.log(2.0)


def _lse(x: NDArray[np.float64]) -> float:
    top = x.max()
    return float(top + np.log(np.exp(x - top).sum()))


def _noise_delta_plus(eps: float, n: int, pi: float, scale: float, noise: str) -> float:
    """``H_{e^eps}(mu_+ || mu_-)`` for the noisy fraction: the optimal event is ``[t*, inf)`` where
    the log-likelihood ratio of the two mixtures crosses eps (it is non-decreasing in t)."""
    k = np.arange(n)
    log_w = stats.binom.logpmf(k, n - 1, pi)
    keep = log_w > log_w.max() - _WINDOW
    k, log_w = k[keep], log_w[keep]
    if noise == "laplace" and 1.0 / (scale * n) <= eps:
        return 0.0  # Lemma 5: the ratio never exceeds e^{1/(scale n)}

    def g(t: float) -> float:
        up = _lse(log_w + _noise_logpdf(noise, (t - (k + 1) / n) / scale))
        down = _lse(log_w + _noise_logpdf(noise, (t - k / n) / scale))
        return up - down - eps

    lo, hi = -1.0 / n - 10.0 * scale, 1.0 + 1.0 / n + 10.0 * scale
    while g(hi) < 0.0:
        hi += 10.0 * scale
    while g(lo) > 0.0:
        lo -= 10.0 * scale
    # delta_+(t) = P_+[t, inf) - e^eps P_-[t, inf) is stationary at the root (its derivative is
    # -(p_+ - e^eps p_-)(t) = 0), so an error x in t* changes delta by O(x^2): 1e-6 scale suffices
    t_star = optimize.brentq(g, lo, hi, xtol=1e-6 * scale, rtol=1e-12)
    log_a = special.logsumexp(log_w + _noise_logsf(noise, (t_star - (k + 1) / n) / scale))
    log_b = special.logsumexp(log_w + _noise_logsf(noise, (t_star - k / n) / scale))
    return float(max(np.exp(log_a) - np.exp(eps + log_b), 0.0))


def noise_delta(epsilon: ArrayLike, n: int, pi: float, scale: float, noise: str = "gaussian") -> NDArray[np.float64]:
    """SP delta of the fraction of positives plus Gaussian noise (standard deviation ``scale``) or
    Laplace noise (scale ``scale``); Section 5 of the paper, from the definition. The direction
    ``delta_-`` is ``delta_+`` at ``1 - pi`` (the model is symmetric)."""
    eps = v.nonnegative("epsilon", epsilon)
    n = v.integer("n", n, low=2)
    pi = float(v.probability("pi", pi, open_ends=True))
    scale = float(v.positive("scale", scale))
    if noise not in NOISES:
        raise ValueError(f"noise must be one of {NOISES}, got {noise!r}")
    out = [max(_noise_delta_plus(float(e), n, pi, scale, noise), _noise_delta_plus(float(e), n, 1.0 - pi, scale, noise))
           for e in np.atleast_1d(eps)]
    return np.array(out).reshape(eps.shape)


def dp_delta(epsilon: ArrayLike, nu: ArrayLike, noise: str = "gaussian") -> NDArray[np.float64]:
    """The DP baseline: noise parameter ``nu / n`` against sensitivity ``1 / n`` (substitution), so
    Gaussian DP with ``mu = 1 / nu`` and Laplace DP with ``eps0 = 1 / nu``; independent of n."""
    nu = v.positive("nu", nu)
    if noise == "gaussian":
        return profiles.gaussian_delta(epsilon, 1.0 / nu)
    if noise == "laplace":
        return profiles.laplace_delta(epsilon, 1.0 / nu)
    raise ValueError(f"noise must be one of {NOISES}, got {noise!r}")


def subsampling_utility_loss(n: int, m: int, pi: ArrayLike) -> NDArray[np.float64]:
    """Lemma 7 / 8: ``UL = pi (1 - pi) (1/m - 1/n)`` for subsampling m of n i.i.d. entries."""
    n = v.integer("n", n, low=1)
    m = v.integer("m", m, low=1, high=n)
    pi = v.probability("pi", pi)
    return pi * (1.0 - pi) * (1.0 / m - 1.0 / n)


def equal_utility_scales(n: int, m: int, pi: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Section 4.4: Gaussian standard deviation ``sqrt(UL)`` and Laplace scale ``sqrt(UL / 2)`` with
    the utility loss (noise variance, Lemma 9) of subsampling m of n entries."""
    ul = subsampling_utility_loss(n, m, pi)
    return np.sqrt(ul), np.sqrt(ul / 2.0)


def laplace_sp_epsilon(n: int, scale: ArrayLike) -> NDArray[np.float64]:
    """Lemma 5: Laplace noise of scale b gives pure ``(1 / (b n), 0)``-SP."""
    n = v.integer("n", n, low=1)
    return 1.0 / (v.positive("scale", scale) * n)


def normal_approx_delta(epsilon: ArrayLike, n: int, pi: float, sigma: float) -> NDArray[np.float64]:
    """Lemma 6 (normal approximation): the Gaussian DP curve with the total standard deviation
    ``sqrt(sigma^2 + pi (1 - pi) (n - 1) / n^2)`` against sensitivity 1 / n."""
    n = v.integer("n", n, low=2)
    pi = float(v.probability("pi", pi))
    sigma = float(v.nonnegative("sigma", sigma))
    total = np.sqrt(sigma**2 + pi * (1.0 - pi) * (n - 1) / n**2)
    if total == 0:
        raise ValueError("sigma must be positive when pi is 0 or 1")
    return profiles.gaussian_delta(epsilon, (1.0 / n) / total)


def amplified_epsilon(epsilon: ArrayLike, lam: ArrayLike) -> NDArray[np.float64]:
    """Privacy amplification by subsampling at rate lam: ``log(1 + lam (e^eps - 1))``."""
    eps = v.nonnegative("epsilon", epsilon)
    lam = v.probability("lam", lam)
    return np.log1p(lam * np.expm1(eps))


def output_densities(t: ArrayLike, n: int, pi: float, scale: float, noise: str = "gaussian") -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Densities of the noisy fraction at ``t`` given the critical entry positive (``p_+``) and
    negative (``p_-``): binomial mixtures of shifted noise densities."""
    t = np.atleast_1d(v.real("t", t))
    n = v.integer("n", n, low=2)
    pi = float(v.probability("pi", pi, open_ends=True))
    scale = float(v.positive("scale", scale))
    if noise not in NOISES:
        raise ValueError(f"noise must be one of {NOISES}, got {noise!r}")
    k = np.arange(n)
    log_w = stats.binom.logpmf(k, n - 1, pi)
    keep = log_w > log_w.max() - _WINDOW
    k, log_w = k[keep], log_w[keep]
    plus = special.logsumexp(log_w + _noise_logpdf(noise, (t[:, None] - (k + 1) / n) / scale), axis=1)
    minus = special.logsumexp(log_w + _noise_logpdf(noise, (t[:, None] - k / n) / scale), axis=1)
    return np.exp(plus) / scale, np.exp(minus) / scale
