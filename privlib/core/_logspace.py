"""Log-space helpers shared by the core and the paper modules: the log-ratio of two laws with the
convention 0/0 := 0 and its maximum, the binomial log-pmf, log-sums, log binomial coefficients and
log rising factorials. Kernels without argument checks: the public functions calling them check."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
_SMALL = np.arange(16.0)
with np.errstate(divide="ignore"):
    _STIRLERR_SMALL = special.gammaln(_SMALL + 1) - (_SMALL + 0.5) * np.log(np.maximum(_SMALL, 1.0)) + _SMALL - _LOG_SQRT_2PI


def _stirlerr(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log x! - log(sqrt(2 pi x) (x/e)^x)`` for integers x >= 1 (exact table below 16, the
    Stirling series above)."""
    big = np.maximum(x, 16.0)
    i2 = 1.0 / (big * big)
    series = (1 / 12 - i2 * (1 / 360 - i2 * (1 / 1260 - i2 * (1 / 1680 - i2 / 1188)))) / big
    return np.where(x < 16, _STIRLERR_SMALL[np.minimum(x, 15.0).astype(np.int64)], series)


def _bd0(x: NDArray[np.float64], mean: float) -> NDArray[np.float64]:
    """``x log(x / mean) + mean - x`` without cancellation near ``x = mean`` (a series in
    ``(x - mean) / (x + mean)`` there)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = x * np.log(x / mean) + mean - x
    near = np.abs(x - mean) < 0.1 * (x + mean)
    if near.any():
        xn = x[near]
        u = (xn - mean) / (xn + mean)
        total = (xn - mean) * u
        term = 2.0 * xn * u
        u2 = u * u
        # u^2 <= 0.01: the terms fall by u^2 each; stop when they are below one ulp
        top = float(u2.max())
        for j in range(1, 1 + (int(np.ceil(37.0 / -np.log(top))) if top > 0 else 0)):
            term = term * u2
            total = total + term / (2 * j + 1)
        out[near] = total
    return np.where(x == 0, mean, out)


def exact_pair(p: float, q: float) -> tuple[Fraction, Fraction]:
    """The exact success and failure probabilities that the doubles ``p`` and ``q = 1 - p`` stand
    for: the smaller of the two is exact (a caller's pi, or ``1 - pi``, which is exact for
    pi >= 1/2), the larger is one minus it (``1 - pi`` rounds for pi < 1/2: at n = 10^8 that
    rounding alone moves the log-binomial by 3e-11)."""
    if p <= q:
        return Fraction(p), 1 - Fraction(p)
    return 1 - Fraction(q), Fraction(q)


def _mean_offsets(n: int, p: float, q: float) -> tuple[float, float]:
    """``n p* - fl(n p)`` and ``n q* - fl(n q)``: how far the means Loader's deviance takes (the
    rounded products of the doubles) are from those of the exact law of :func:`exact_pair`."""
    p_exact, q_exact = exact_pair(p, q)
    nf = float(n)
    return float(n * p_exact - Fraction(nf * p)), float(n * q_exact - Fraction(nf * q))


def log_binomial_pmf(k: ArrayLike, n: int, p: float, q: float | None = None) -> NDArray[np.float64]:
    """``log P(K = k)`` for ``K ~ Bin(n, p)``, vectorised over k (``-inf`` outside 0..n), by
    Loader's saddle-point form ("Fast and accurate computation of binomial probabilities", 2000),
    for the exact law the doubles stand for (:func:`exact_pair`: the smaller of p and q is exact,
    the other is one minus it): the deviance's means ``n p`` and ``n q`` round, and the form is
    corrected to first order for that (``d bd0(x, M) / dM = 1 - x / M``; the means are off by at
    most an ulp, so the neglected second order is below 1e-20), which would otherwise move the
    value by up to 3e-11 at n = 10^8, 30 standard deviations out. The absolute error is within
    about 20 ulps of ``|log P(K = k)|`` for any n up to 10^12 (measured against mpmath), where
    ``scipy.stats.binom.logpmf`` subtracts log-gamma values and loses about ``1e-16 n log n``
    (1e-7 at n = 1e8). The ends ``k = 0`` and ``k = n`` are ``n log1p(-p)`` and ``n log p`` to a
    few ulps (``log1p`` of the smaller of p and q, so ``log_binomial_pmf(0, 10**7, 1e-12)`` keeps
    the digits that ``log(1 - p)`` loses). ``q = 1 - p`` may be given
    when the caller holds it more accurately than ``1 - p`` rounds; ``0 < p < 1`` and an
    integer n >= 0 are the caller's to check (``0 <= p <= 1``); p = 0 and p = 1 give the point masses at 0 and n."""
    q = 1.0 - p if q is None else q
    k = np.asarray(k, dtype=float)
    if p == 0.0 or q == 0.0:
        return np.where(k == (0 if p == 0.0 else n), 0.0, -np.inf)
    out = np.full(k.shape, -np.inf)
    inside = (k >= 0) & (k <= n)
    kk = k[inside]
    res = np.empty_like(kk)
    lo, hi = kk == 0, kk == n
    mid = ~(lo | hi)
    log_p, log_q = (math.log(p), math.log1p(-p)) if p <= q else (math.log1p(-q), math.log(q))
    res[lo] = n * log_q
    res[hi] = n * log_p
    km = kk[mid]
    if km.size:
        nf = float(n)
        mean_p, mean_q = nf * p, nf * q
        off_p, off_q = _mean_offsets(n, p, q)
        res[mid] = (_stirlerr(np.array([nf]))[0] - _stirlerr(km) - _stirlerr(nf - km)
                    - _bd0(km, mean_p) - _bd0(nf - km, mean_q)
                    - ((1.0 - km / mean_p) * off_p + (1.0 - (nf - km) / mean_q) * off_q)
                    + 0.5 * (math.log(nf) - np.log(km) - np.log(nf - km)) - _LOG_SQRT_2PI)
    out[inside] = res
    return out


def log_ratio(log_p: ArrayLike, log_q: ArrayLike) -> NDArray[np.float64]:
    """``log p - log q`` from log-masses (``-inf`` for no mass), 0 where both are ``-inf`` (an
    atom null under both carries no constraint: 0/0 := 0), ``+inf`` where only q is null and
    ``-inf`` where only p is: the privacy loss."""
    lp, lq = np.asarray(log_p, dtype=float), np.asarray(log_q, dtype=float)
    with np.errstate(invalid="ignore"):
        d = lp - lq
    return np.where((lp == -np.inf) & (lq == -np.inf), 0.0, d)


def max_log_ratio(log_p: ArrayLike, log_q: ArrayLike, axis: int | tuple[int, ...] | None = None, *,
                  both_ways: bool = False) -> NDArray[np.float64]:
    """The smallest epsilon >= 0 with ``p(y) <= e^epsilon q(y)`` for every atom y along ``axis``
    (all axes by default): the largest :func:`log_ratio` (0/0 := 0; ``+inf`` when p charges an
    atom q does not). ``both_ways`` also bounds q by p: the largest ``|log p - log q|``, the
    multiplicative distance of two measures. For a stack of laws, the largest ratio over every
    ordered pair of them is ``max_log_ratio(stack.max(axis=0), stack.min(axis=0))``."""
    loss = log_ratio(log_p, log_q)
    return np.max(np.abs(loss) if both_ways else loss, axis=axis, initial=0.0)


def log_sum_exp(a: ArrayLike, axis: int | tuple[int, ...] | None = None) -> NDArray[np.float64]:
    """``log sum exp(a)`` along ``axis`` (all axes by default), relative to the largest term:
    ``-inf`` (no NaN, no warning) for an all ``-inf`` slice. scipy's ``special.logsumexp`` does the
    same with weights, complex input and array-API dispatch, at about 30 times the cost of this
    on the short arrays of the posterior and conditional-law computations."""
    a = np.asarray(a, dtype=float)
    top = np.max(a, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(a - top), axis=axis, keepdims=True)) + top
    return out.reshape(()) if axis is None else np.squeeze(out, axis=axis)


def logsumexp_near_max(t: NDArray[np.float64], width: float = 50.0) -> float:
    """``log sum exp(t)`` exponentiating only the terms within ``width`` of the maximum: each
    dropped term is below ``e^-width`` times the largest, so together they change the sum by less
    than ``len(t) e^-width`` relative (2e-16 at ``len(t) = 10^6`` for the default width)."""
    top = t.max()
    if not np.isfinite(top):
        return float(top)
    near = t[t >= top - width]  # >=: where |top| > 1e17, top - width rounds to top
    return float(top + np.log(np.exp(near - top).sum()))


def log_binomial_coefficients(n: int) -> NDArray[np.float64]:
    """``log C(n, k)`` for k = 0..n from one ``gammaln`` evaluation."""
    g = special.gammaln(np.arange(1, n + 2, dtype=float))  # g[i] = log i!
    return g[n] - g - g[::-1]


def log_rising(c: float, m: NDArray[np.int64]) -> NDArray[np.float64]:
    """``log (c)_m = log Gamma(c + m) - log Gamma(c)`` (0 at m = 0), accurate for tiny and huge c:
    ``log c + log Gamma(c + m) - log Gamma(1 + c)`` for c < 1 (``(c)_m = c (c + 1)_{m-1}``, so a
    tiny c is not lost); the plain difference for moderate c; for c > 10^3, where the two
    log-gammas would cancel, ``log Gamma(m) - log B(c, m)`` (scipy's betaln keeps its digits) and a
    running sum of ``log(c + j)`` for m <= 1000."""
    mm = m.astype(float)
    if c < 1.0:
        out = special.gammaln(c + mm)
        out += math.log(c) - special.gammaln(1.0 + c)
        out[m == 0] = 0.0
    elif c <= 1e3:
        out = special.gammaln(c + mm)
        out -= special.gammaln(c)  # exactly 0 at m = 0
    else:
        pos = m > 0
        out = np.zeros(m.shape)
        out[pos] = special.gammaln(mm[pos]) - special.betaln(c, mm[pos])
        short = pos & (m <= 1000)
        if short.any():
            partial = np.concatenate([[0.0], np.cumsum(np.log(c + np.arange(int(m[short].max()))))])
            out[short] = partial[m[short]]
    return out


def log_rising_ratio(c: float, d: float, m: int) -> float:
    """``log (c)_m - log (c + d)_m = -sum_{j<m} log1p(d / (c + j))``, with full relative accuracy
    when d is tiny against c (a series in d of polygamma differences) and by betaln otherwise."""
    if m == 0:
        return 0.0
    if d <= c / 4:
        total, power = 0.0, 1.0
        for r in range(1, 40):
            power *= d / r
            term = power * (special.polygamma(r - 1, c + m) - special.polygamma(r - 1, c))
            total += term
            if abs(term) <= 1e-18 * abs(total):
                break
        return float(-total)
    return float(log_rising(c, np.array([m]))[0] - log_rising(c + d, np.array([m]))[0])
