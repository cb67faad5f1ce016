"""Independent routes shared by several sections of chapter 004's claims, and the
mistakes several claims declare as mutants."""

from __future__ import annotations

from privlib.verify.claims import reference

import functools
import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
from scipy import integrate, stats

from privlib.papers import statistical
from privlib.verify import densities


@reference
def exact_laws(n: int, m: int, pi: Fraction) -> tuple[list[Fraction], list[Fraction]]:
    """``P_+(j)`` and ``P_-(j)`` by enumerating every pattern of the other n-1 entries and every
    subsample of size m (entry 0 is the critical one), in exact rational arithmetic."""
    plus = [Fraction(0)] * (m + 1)
    minus = [Fraction(0)] * (m + 1)
    subsets = list(itertools.combinations(range(n), m))
    share = Fraction(1, len(subsets))
    for others in itertools.product([0, 1], repeat=n - 1):
        weight = math.prod(pi if o else 1 - pi for o in others) * share
        for critical, law in ((1, plus), (0, minus)):
            db = (critical, *others)
            counts = [0] * (m + 1)  # how many subsamples hold j positives (integers)
            for sub in subsets:
                counts[sum(db[i] for i in sub)] += 1
            for j, c in enumerate(counts):
                if c:
                    law[j] += weight * c
    return plus, minus


@reference
def exact_errors(n: int, m: int, pi: Fraction) -> tuple[Fraction, Fraction, Fraction]:
    """Over every database and every subsample of size m, in exact rational arithmetic:
    ``E[(a - y)^2]``, ``E[(a - pi)^2]`` and ``E[(y - pi)^2]`` (a the subsample fraction, y the
    database fraction)."""
    subsets = list(itertools.combinations(range(n), m))
    loss = mse_sample = mse_full = Fraction(0)
    for db in itertools.product([0, 1], repeat=n):
        weight = math.prod(pi if x else 1 - pi for x in db)
        y = Fraction(sum(db), n)
        fractions = [Fraction(sum(db[i] for i in s), m) for s in subsets]
        loss += weight * sum((a - y) ** 2 for a in fractions) / len(subsets)
        mse_sample += weight * sum((a - pi) ** 2 for a in fractions) / len(subsets)
        mse_full += weight * (y - pi) ** 2
    return loss, mse_sample, mse_full


def _exact_delta(p: list[Fraction], q: list[Fraction], eps: float) -> float:
    """max of both hockey-stick sums, each term exact up to the one rounding of e^eps."""
    e = Fraction(math.exp(eps))
    d_plus = sum(max(a - e * b, Fraction(0)) for a, b in zip(p, q))
    d_minus = sum(max(b - e * a, Fraction(0)) for a, b in zip(p, q))
    return float(max(d_plus, d_minus))


@reference
def mp_delta(eps: float, n: int, m: int, pi: float, direction: str = "max", log: bool = False) -> float:
    """The SP delta of subsampling m of n (pure SP at m = n) as a 40-digit sum of Lemma 4's
    exact laws, term by term from below the threshold until the terms no longer matter (the
    binomial terms by exact ratios from one log-gamma start)."""
    with mpmath.workdps(40):
        e = mpmath.exp(mpmath.mpf(eps))
        lam = mpmath.mpf(m) / n
        results = []
        for d in ("plus", "minus"):
            if direction not in (d, "max"):
                continue
            p = mpmath.mpf(pi) if d == "plus" else 1 - mpmath.mpf(pi)  # delta_- mirrors delta_+
            q = 1 - p

            def b(size: int, k: int) -> mpmath.mpf:
                if k < 0 or k > size:
                    return mpmath.mpf(0)
                return mpmath.exp(mpmath.loggamma(size + 1) - mpmath.loggamma(k + 1) - mpmath.loggamma(size - k + 1)
                                  + k * mpmath.log(p) + (size - k) * mpmath.log(q))

            x = mpmath.exp(-mpmath.mpf(eps))  # start just below the threshold Q_+(j) = e^eps
            j = max(0, int(mpmath.floor(m * p * (lam + (1 - x) * (1 - lam) * q) / (lam * (q * x + p)))) - 2)
            bm, bm1, bm1_prev = b(m, j), b(m - 1, j), b(m - 1, j - 1)
            total, seen = mpmath.mpf(0), False
            odds, negligible = p / q, mpmath.mpf(10) ** -22
            while j <= m:
                plus = lam * bm1_prev + (1 - lam) * bm
                minus = lam * bm1 + (1 - lam) * bm
                term = plus - e * minus
                if term > 0:
                    total += term
                    seen = True
                elif seen:
                    raise AssertionError("terms changed sign twice: the ratio is not monotone")
                if seen and term < total * negligible:
                    break
                # next j: b_m(j+1), b_{m-1}(j+1), b_{m-1}(j)
                bm_next = bm * (m - j) * odds / (j + 1) if j < m else mpmath.mpf(0)
                bm1_next = (bm1 * (m - 1 - j) * odds / (j + 1) if j < m - 1 else mpmath.mpf(0)) if bm1 != 0 else b(m - 1, j + 1)
                bm, bm1_prev, bm1 = bm_next, bm1, bm1_next
                j += 1
            results.append(total)
        best = max(results)
        return float(mpmath.log(best)) if log else float(best)


@reference
def _grid_delta(eps: float, n: int, pi: float, scale: float, noise: str, k_per_cell: int = 2) -> float:
    """max of both directions of ``int (p_+ - e^eps p_-)_+`` by the trapezoid rule on grids
    aligned to the lattice (``k_per_cell`` and twice as many points per 1/n), Richardson-
    extrapolated, with the mixture densities built from scipy's binomial pmf and noise pdf."""
    coarse = _trapezoid_delta(eps, n, pi, scale, noise, k_per_cell)
    fine = _trapezoid_delta(eps, n, pi, scale, noise, 2 * k_per_cell)
    return (4 * fine - coarse) / 3


def _grid_delta_bounded(eps: float, n: int, pi: float, scale: float, noise: str,
                        k_per_cell: int = 2) -> tuple[float, float]:
    """``_grid_delta`` at ``2 k_per_cell`` points per 1/n and its error bound: twice its change from
    ``k_per_cell`` (the extrapolated rule converges at least that fast once the noise is resolved),
    plus the trapezoid sums' rounding floor 1e-13."""
    coarse = _grid_delta(eps, n, pi, scale, noise, k_per_cell)
    fine = _grid_delta(eps, n, pi, scale, noise, 2 * k_per_cell)
    return fine, 2.0 * abs(fine - coarse) + 1e-13


def _noise_pdf(noise: str):
    """The standard noise density (written out: no per-call argument handling)."""
    return densities.normal_pdf if noise == "gaussian" else densities.laplace_pdf


@functools.lru_cache(maxsize=64)
def _trapezoid_delta(eps: float, n: int, pi: float, scale: float, noise: str, k_per_cell: int) -> float:
    k = np.arange(n)
    w = stats.binom.pmf(k, n - 1, pi)
    keep = w > 1e-30 * w.max()
    k, w = k[keep], w[keep]
    dens = _noise_pdf(noise)
    reach = 25 * scale
    first = np.floor((k.min() / n - reach) * n * k_per_cell)
    index = np.arange(first - k_per_cell, np.ceil(((k.max() + 1) / n + reach) * n * k_per_cell) + 1)
    # the minus mixture sum_k w_k f((t - k/n)/s)/s on the grid extended by one lattice step to the
    # left: the plus mixture (centres (k + 1)/n) is the same sum k_per_cell grid points earlier
    grid = index / (n * k_per_cell)
    mixture = np.zeros_like(grid)
    for lo in range(0, k.size, 256):
        kk, ww = k[lo:lo + 256], w[lo:lo + 256]
        mixture += (ww[None, :] * dens((grid[:, None] - kk[None, :] / n) / scale)).sum(axis=1) / scale
    t = grid[k_per_cell:]
    plus, minus = mixture[:-k_per_cell], mixture[k_per_cell:]
    total = []
    h = t[1] - t[0]
    for a, b in ((plus, minus), (minus, plus)):
        f = a - np.exp(eps) * b
        area = integrate.trapezoid(np.maximum(f, 0.0), t)
        # cells where f changes sign: the exact area under the linear interpolant, not the trapezoid
        left, right = f[:-1], f[1:]
        cross = (left < 0) != (right < 0)
        pos = np.where(right[cross] > 0, right[cross], left[cross])
        area += np.sum(pos * h / 2 * (np.abs(pos) / np.abs(right[cross] - left[cross]) - 1))
        total.append(area)
    return max(total)


@reference
def _quad_delta(eps: float, n: int, pi: float, scale: float, noise: str) -> float:
    """max of both directions of int (p_+ - e^eps p_-)_+ by adaptive quadrature of the mixture
    densities, split at the lattice points (small n)."""
    k = np.arange(n)
    w = stats.binom.pmf(k, n - 1, pi)
    dens = _noise_pdf(noise)

    def mix(t: float, shift: int) -> float:
        return float((w * dens((t - (k + shift) / n) / scale)).sum() / scale)

    edges = np.concatenate([[-1.0 - 40 * scale], np.arange(n + 2) / n, [2.0 + 40 * scale]])
    total = []
    for a, b in ((1, 0), (0, 1)):
        total.append(sum(integrate.quad(lambda t: max(mix(t, a) - np.exp(eps) * mix(t, b), 0.0), lo, hi,
                                        epsabs=1e-12, limit=100)[0] for lo, hi in zip(edges[:-1], edges[1:])))
    return max(total)


def _normal_pair_delta(eps: float, mean_plus: float, mean_minus: float, sigma: float) -> float:
    """max of both directions of the hockey stick of N(mean_plus, sigma^2) against
    N(mean_minus, sigma^2) by adaptive quadrature, split where the density ratio is e^{+-eps}."""
    shift = mean_plus - mean_minus
    out = []
    for a, b, sign in ((mean_plus, mean_minus, 1), (mean_minus, mean_plus, -1)):
        kink = (mean_plus + mean_minus) / 2 + sign * eps * sigma**2 / shift
        f = lambda t, a=a, b=b: max(densities.normal_pdf(t, a, sigma) - np.exp(eps) * densities.normal_pdf(t, b, sigma), 0.0)
        # a finite range, 40 standard deviations past both means (the rest is below e^-800): on an
        # infinite range quad misses peaks narrow against their distance from 0
        lo, hi = min(mean_plus, mean_minus) - 40 * sigma, max(mean_plus, mean_minus) + 40 * sigma
        cut = min(max(kink, lo), hi)
        out.append(integrate.quad(f, lo, cut, epsabs=1e-14)[0] + integrate.quad(f, cut, hi, epsabs=1e-14)[0])
    return max(out)


def _only_plus(eps, n, pi, scale, noise="gaussian"):
    """``delta_+`` alone of the noisy fraction (a mutant forgetting the other direction)."""
    return statistical._noise_deltas_plus(np.ravel(np.asarray(eps, dtype=float)), n, pi, scale, noise).reshape(np.shape(eps))


@reference
def mp_pure_delta_window(eps: float, n: int, pi: float) -> float:
    """Pure SP delta at large n in 30 digits: ``sum_{j >= J} P_+(j) (1 - e^{eps - L(j)})`` with
    ``P_+(j) = b_{n-1}(j - 1)``, ``L(j) = log(j q / ((n - j) p))``, walked from the first output J
    above the threshold until the terms fall below 1e-40 of the sum (both directions)."""
    out = []
    with mpmath.workdps(30):
        e = mpmath.mpf(eps)
        for p in (mpmath.mpf(pi), 1 - mpmath.mpf(pi)):
            q, size = 1 - p, n - 1
            big_j = int(mpmath.floor(n * p * mpmath.exp(e) / (q + p * mpmath.exp(e))))
            while big_j > 1 and mpmath.log(big_j * q / ((n - big_j) * p)) > e:
                big_j -= 1
            while big_j < n and mpmath.log(big_j * q / ((n - big_j) * p)) <= e:
                big_j += 1
            k = big_j - 1
            term_b = mpmath.exp(mpmath.loggamma(size + 1) - mpmath.loggamma(k + 1) - mpmath.loggamma(size - k + 1)
                                + k * mpmath.log(p) + (size - k) * mpmath.log(q))
            # 1 - e^{eps - L(j)} = 1 - e^eps (n - j) p / (j q): one product per output, no logarithm
            total, j = mpmath.mpf(0), big_j
            odds, grow, negligible = p / q, mpmath.exp(e) * p / q, mpmath.mpf(10) ** -40
            while j <= n:
                term = term_b * (1 - grow * (n - j) / j)
                total += term
                if j > big_j + 10 and term < total * negligible:
                    break
                term_b, k, j = term_b * (size - k) * odds / (k + 1), k + 1, j + 1
            out.append(total)
    return float(max(out))


@reference
def _mp_gaussian_noise_delta(eps: float, n: int, pi: float, scale: float) -> float:
    """SP delta of the fraction of positives plus Gaussian noise in 50-digit arithmetic, both
    directions: each is ``P_+[t, inf) - e^eps P_-[t, inf)`` at the root t of the log-likelihood
    ratio minus eps (the optimal half-line), the mixtures summed over every count."""
    out = []
    with mpmath.workdps(50):
        s, e = mpmath.mpf(scale), mpmath.mpf(eps)
        for p in (mpmath.mpf(pi), 1 - mpmath.mpf(pi)):
            w = [mpmath.binomial(n - 1, k) * p ** k * (1 - p) ** (n - 1 - k) for k in range(n)]

            def density(t, shift, w=w):
                return mpmath.fsum(w[k] * mpmath.npdf((t - mpmath.mpf(k + shift) / n) / s) for k in range(n))

            def tail(t, shift, w=w):
                return mpmath.fsum(w[k] * mpmath.ncdf(-(t - mpmath.mpf(k + shift) / n) / s) for k in range(n))

            def excess(t):
                return mpmath.log(density(t, 1)) - mpmath.log(density(t, 0)) - e

            lo, hi = mpmath.mpf(-1), mpmath.mpf(1)
            while excess(hi) < 0:
                hi *= 2
            while excess(lo) > 0:
                lo *= 2
            t = mpmath.findroot(excess, (lo, hi), solver="anderson")
            out.append(max(tail(t, 1) - mpmath.exp(e) * tail(t, 0), 0))
    return float(max(out))
