"""Log-space sums shared by the paper modules."""

from __future__ import annotations

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
