"""Log-space sums shared by the paper modules."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from scipy import special


def logsumexp_near_max(t: NDArray[np.float64], width: float = 50.0) -> float:
    """``log sum exp(t)`` exponentiating only the terms within ``width`` of the maximum: each
    dropped term is below ``e^-width`` times the largest, so together they change the sum by less
    than ``len(t) e^-width`` relative (2e-16 at ``len(t) = 10^6`` for the default width)."""
    top = t.max()
    if not np.isfinite(top):
        return float(top)
    near = t[t > top - width]
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
