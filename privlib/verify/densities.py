"""The noise densities of the claims' independent routes, written out: normal and Laplace
densities and log-densities by plain arithmetic on a number or an array. Quadrature calls an
integrand point by point, and ``scipy.stats`` distributions spend tens of microseconds per call
on argument handling; these spend about one. They depend on nothing in privlib."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["laplace_logpdf", "laplace_pdf", "normal_logpdf", "normal_pdf"]

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


def normal_logpdf(x: ArrayLike, mean: float = 0.0, sd: float = 1.0):
    """``log`` of the density of N(mean, sd^2) at x."""
    z = (x - mean) / sd
    return -0.5 * z * z - (math.log(sd) + _LOG_SQRT_2PI)


def normal_pdf(x: ArrayLike, mean: float = 0.0, sd: float = 1.0):
    """The density of N(mean, sd^2) at x."""
    return np.exp(normal_logpdf(x, mean, sd))


def laplace_logpdf(x: ArrayLike, loc: float = 0.0, scale: float = 1.0):
    """``log`` of the Laplace density ``exp(-|x - loc| / scale) / (2 scale)``."""
    return -np.abs(x - loc) / scale - math.log(2.0 * scale)


def laplace_pdf(x: ArrayLike, loc: float = 0.0, scale: float = 1.0):
    """The Laplace density ``exp(-|x - loc| / scale) / (2 scale)``."""
    return np.exp(laplace_logpdf(x, loc, scale))
