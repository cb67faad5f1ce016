"""Independent routes shared by several sections of chapter 000's claims, and the
mistakes several claims declare as mutants."""

from __future__ import annotations

import itertools

import numpy as np
from scipy import optimize


def _events_d_mult(mu: np.ndarray, nu: np.ndarray) -> float:
    """sup over all events S of |log mu(S) - log nu(S)| by enumerating every subset."""
    best = 0.0
    for mask in itertools.product([0, 1], repeat=mu.size):
        m = np.array(mask, dtype=bool)
        a, b = mu[m].sum(), nu[m].sum()
        if a > 0 and b > 0:
            best = max(best, abs(np.log(a) - np.log(b)))
        elif a > 0 or b > 0:
            return float("inf")
    return best


def _hamming(x: np.ndarray) -> np.ndarray:
    """Hamming distances between the rows of x."""
    return np.abs(x[:, None, :] - x[None, :, :]).sum(axis=2).astype(float)


def _cube(n: int) -> np.ndarray:
    return np.array(list(itertools.product([0, 1], repeat=n)))


def _rr_product(n: int, eps: float) -> np.ndarray:
    """Randomized response on each of n bits: rows the 2^n datasets, columns the 2^n outputs."""
    x = _cube(n)
    keep = np.exp(eps) / (1.0 + np.exp(eps))
    agree = (x[:, None, :] == x[None, :, :]).sum(axis=2)
    return keep**agree * (1.0 - keep) ** (n - agree)


# Mistakes that several claims must catch (each claim declares them as its own mutants).


def _d_mult_one_direction(function):
    """``multiplicative_distance`` as the largest ``log(mu/nu)``, without the absolute value."""
    def wrong(mu, nu):
        mu, nu = np.asarray(mu, float), np.asarray(nu, float)
        used = (mu > 0) & (nu > 0)
        return float(max((np.log(mu[used]) - np.log(nu[used])).max(), 0.0))
    return wrong


def _d_mult_ignores_one_sided(function):
    """``multiplicative_distance`` ignoring atoms that only one measure charges (finite, not inf)."""
    def wrong(mu, nu):
        mu, nu = np.asarray(mu, float), np.asarray(nu, float)
        used = (mu > 0) & (nu > 0)
        return float(np.abs(np.log(mu[used]) - np.log(nu[used])).max())
    return wrong


def _mean_abs_log_ratio(function):
    """``multiplicative_distance`` as the mean, not the largest, |log ratio| of the atoms."""
    def wrong(mu, nu):
        mu, nu = np.asarray(mu, float), np.asarray(nu, float)
        if ((mu == 0) != (nu == 0)).any():
            return float("inf")
        used = (mu > 0) & (nu > 0)
        return float(np.abs(np.log(mu[used]) - np.log(nu[used])).mean())
    return wrong


def _d_r_as_d_mult(function):
    """``density_ratio_metric`` as the largest |log ratio| (d_mult) instead of its spread."""
    def wrong(mu, nu, *, axis=-1, log=False):
        lm, ln = (np.asarray(x, float) for x in (mu, nu))
        if not log:
            with np.errstate(divide="ignore"):
                lm, ln = np.log(lm), np.log(ln)
        both = np.isfinite(lm) & np.isfinite(ln)
        out = np.where(both, np.abs(lm - ln), 0.0).max(axis=axis)
        return float(out) if np.ndim(out) == 0 else out
    return wrong


def _distances_replaced(transform):
    """A mutant of ``lipschitz_loss``: the metric passed through ``transform`` first."""
    return lambda function: (lambda P, distances: function(P, transform(np.array(distances, dtype=float))))


def _laplace_bounds_diameter_minus_one(function):
    """``laplace_sum_bounds`` with the diameter n - 1 in place of n."""
    return lambda t, n, epsilon, q_support="interval": tuple(
        b * np.exp(s * epsilon) for b, s in zip(function(t, n, epsilon, q_support), (1.0, -1.0)))


def _scaled_diameter(factor, fixed=None):
    """A mutant of ``power_bounds`` or ``posterior_bounds``: the diameter times ``factor`` (or
    replaced by ``fixed``)."""
    def make(function):
        def wrong(first, epsilon, diameter, *args, **kwargs):
            return function(first, epsilon, fixed if fixed is not None else factor * diameter, *args, **kwargs)
        return wrong
    return make


def _lp_power(null: np.ndarray, alt: np.ndarray, alpha: float, minimize: bool) -> float:
    """Most (or least) powerful randomized test of size exactly alpha, by linear programming."""
    sign = 1.0 if minimize else -1.0
    res = optimize.linprog(sign * alt, A_eq=null[None, :], b_eq=[alpha], bounds=(0, 1), method="highs")
    return float(sign * res.fun)
