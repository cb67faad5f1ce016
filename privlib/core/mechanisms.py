"""Additive-noise and randomized-response mechanisms: densities, log-densities, sampling.

Each mechanism is a small frozen dataclass validated on construction. Densities are vectorized
over outputs ``y`` and true values ``value`` (numpy broadcasting) and are computed in log-space
first, so tails never underflow before they are needed.

References: Dwork & Roth (2014) for the Laplace and Gaussian mechanisms; Warner (1965) and
Kairouz et al. (2016) for k-ary randomized response; Ghosh et al. (2012) for the geometric
mechanism.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special, stats

from privlib.core import _validate as v

__all__ = ["LaplaceMechanism", "GaussianMechanism", "RandomizedResponse", "GeometricMechanism"]


@dataclass(frozen=True)
class LaplaceMechanism:
    """Laplace mechanism ``y = value + Lap(sensitivity / epsilon)``; epsilon-DP for a query of
    the given L1 sensitivity (Dwork & Roth 2014, Thm 3.6)."""

    epsilon: float
    sensitivity: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", v.scalar("epsilon", self.epsilon, low=0.0, low_open=True))
        object.__setattr__(self, "sensitivity", v.scalar("sensitivity", self.sensitivity, low=0.0, low_open=True))

    @property
    def scale(self) -> float:
        """Noise scale ``b = sensitivity / epsilon``."""
        return self.sensitivity / self.epsilon

    def logpdf(self, y: ArrayLike, value: ArrayLike = 0.0) -> NDArray[np.float64]:
        """Log-density of the output ``y`` given the true query value."""
        y = v.real("y", y, finite=False)
        value = v.real("value", value)
        return -np.abs(y - value) / self.scale - np.log(2.0 * self.scale)

    def pdf(self, y: ArrayLike, value: ArrayLike = 0.0) -> NDArray[np.float64]:
        """Density of the output ``y`` given the true query value."""
        return np.exp(self.logpdf(y, value))

    def cdf(self, y: ArrayLike, value: ArrayLike = 0.0) -> NDArray[np.float64]:
        """Probability that the output is at most ``y``."""
        return stats.laplace.cdf(v.real("y", y, finite=False), loc=v.real("value", value), scale=self.scale)

    def sample(self, value: ArrayLike = 0.0, size: int | tuple[int, ...] | None = None,
               rng: np.random.Generator | int | None = None) -> NDArray[np.float64]:
        """Draw outputs for the true value(s) ``value``."""
        value = v.real("value", value)
        return v.rng("rng", rng).laplace(loc=value, scale=self.scale, size=size)


@dataclass(frozen=True)
class GaussianMechanism:
    """Gaussian mechanism ``y = value + N(0, sigma^2)`` for a query of the given L2 sensitivity.

    Its privacy curve is that of ``mu``-Gaussian DP with ``mu = sensitivity / sigma``
    (Dong, Roth & Su 2022; Balle & Wang 2018).
    """

    sigma: float
    sensitivity: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "sigma", v.scalar("sigma", self.sigma, low=0.0, low_open=True))
        object.__setattr__(self, "sensitivity", v.scalar("sensitivity", self.sensitivity, low=0.0, low_open=True))

    @property
    def mu(self) -> float:
        """Gaussian-DP parameter ``sensitivity / sigma``."""
        return self.sensitivity / self.sigma

    def logpdf(self, y: ArrayLike, value: ArrayLike = 0.0) -> NDArray[np.float64]:
        """Log-density of the output ``y`` given the true query value."""
        y = v.real("y", y, finite=False)
        value = v.real("value", value)
        return stats.norm.logpdf(y, loc=value, scale=self.sigma)

    def pdf(self, y: ArrayLike, value: ArrayLike = 0.0) -> NDArray[np.float64]:
        """Density of the output ``y`` given the true query value."""
        return np.exp(self.logpdf(y, value))

    def cdf(self, y: ArrayLike, value: ArrayLike = 0.0) -> NDArray[np.float64]:
        """Probability that the output is at most ``y``."""
        y = v.real("y", y, finite=False)
        return special.ndtr((y - v.real("value", value)) / self.sigma)

    def sample(self, value: ArrayLike = 0.0, size: int | tuple[int, ...] | None = None,
               rng: np.random.Generator | int | None = None) -> NDArray[np.float64]:
        """Draw outputs for the true value(s) ``value``."""
        value = v.real("value", value)
        return v.rng("rng", rng).normal(loc=value, scale=self.sigma, size=size)


@dataclass(frozen=True)
class RandomizedResponse:
    """k-ary randomized response: report the true symbol with probability
    ``e^eps / (e^eps + k - 1)``, otherwise each other symbol with probability
    ``1 / (e^eps + k - 1)``; exactly epsilon-DP (Kairouz, Oh & Viswanath 2016)."""

    epsilon: float
    k: int = 2

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", v.scalar("epsilon", self.epsilon, low=0.0, low_open=True))
        v.integer("k", self.k, low=2)

    @property
    def p_truth(self) -> float:
        """Probability of reporting the true symbol."""
        # e^eps / (e^eps + k - 1) written as 1 / (1 + (k-1) e^-eps): no overflow for large eps.
        return float(1.0 / (1.0 + (self.k - 1) * np.exp(-self.epsilon)))

    @property
    def p_other(self) -> float:
        """Probability of reporting one particular other symbol."""
        return float(np.exp(-self.epsilon) * self.p_truth)

    def matrix(self) -> NDArray[np.float64]:
        """The ``k x k`` row-stochastic channel ``P(y | x)``."""
        m = np.full((self.k, self.k), self.p_other)
        np.fill_diagonal(m, self.p_truth)
        return m

    def logpmf(self, y: ArrayLike, x: ArrayLike) -> NDArray[np.float64]:
        """Log-probability of reporting ``y`` when the truth is ``x`` (symbols 0..k-1)."""
        y = np.asarray(y)
        x = np.asarray(x)
        for name, arr in (("y", y), ("x", x)):
            if not np.issubdtype(arr.dtype, np.integer) or (arr < 0).any() or (arr >= self.k).any():
                raise ValueError(f"{name} must hold integer symbols in [0, {self.k - 1}]")
        return np.where(y == x, np.log(self.p_truth), np.log(self.p_truth) - self.epsilon)

    def pmf(self, y: ArrayLike, x: ArrayLike) -> NDArray[np.float64]:
        """Probability of reporting ``y`` when the truth is ``x``."""
        return np.exp(self.logpmf(y, x))

    def sample(self, x: ArrayLike, rng: np.random.Generator | int | None = None) -> NDArray[np.int64]:
        """Privatize each symbol of ``x`` independently."""
        x = np.asarray(x)
        if not np.issubdtype(x.dtype, np.integer) or (x < 0).any() or (x >= self.k).any():
            raise ValueError(f"x must hold integer symbols in [0, {self.k - 1}]")
        gen = v.rng("rng", rng)
        keep = gen.random(x.shape) < self.p_truth
        # A uniformly chosen *other* symbol: shift by 1..k-1 modulo k.
        other = (x + gen.integers(1, self.k, size=x.shape)) % self.k
        return np.where(keep, x, other)


@dataclass(frozen=True)
class GeometricMechanism:
    """Two-sided geometric mechanism on the integers: ``P(z) = (1-a)/(1+a) a^|z|`` with
    ``a = exp(-epsilon / sensitivity)``; epsilon-DP for integer queries (Ghosh, Roughgarden &
    Sundararajan 2012)."""

    epsilon: float
    sensitivity: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", v.scalar("epsilon", self.epsilon, low=0.0, low_open=True))
        v.integer("sensitivity", self.sensitivity, low=1)

    @property
    def alpha(self) -> float:
        """Decay ratio ``a = exp(-epsilon / sensitivity)``."""
        return float(np.exp(-self.epsilon / self.sensitivity))

    def logpmf(self, y: ArrayLike, value: ArrayLike = 0) -> NDArray[np.float64]:
        """Log-probability of the integer output ``y`` given the integer true value."""
        y = np.asarray(y)
        value = np.asarray(value)
        for name, arr in (("y", y), ("value", value)):
            if not np.issubdtype(arr.dtype, np.integer):
                raise TypeError(f"{name} must be integer-valued")
        t = self.epsilon / self.sensitivity
        # log((1-a)/(1+a)) = log(tanh(t/2)), stable for small and large t.
        return np.log(np.tanh(t / 2.0)) - t * np.abs(y - value)

    def pmf(self, y: ArrayLike, value: ArrayLike = 0) -> NDArray[np.float64]:
        """Probability of the integer output ``y`` given the integer true value."""
        return np.exp(self.logpmf(y, value))

    def sample(self, value: ArrayLike = 0, size: int | tuple[int, ...] | None = None,
               rng: np.random.Generator | int | None = None) -> NDArray[np.int64]:
        """Draw outputs: the difference of two i.i.d. geometric variables added to ``value``."""
        value = np.asarray(value)
        if not np.issubdtype(value.dtype, np.integer):
            raise TypeError(f"value must be integer-valued (the geometric mechanism releases integers), got dtype {value.dtype}")
        gen = v.rng("rng", rng)
        p = -np.expm1(-self.epsilon / self.sensitivity)  # 1 - alpha without cancellation
        shape = np.broadcast_shapes(np.shape(value), () if size is None else np.atleast_1d(size).tolist())
        noise = gen.geometric(p, size=shape) - gen.geometric(p, size=shape)
        return np.asarray(value) + noise
