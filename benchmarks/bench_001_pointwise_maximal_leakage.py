"""Benchmark of privlib.leakage (chapter 001) against the best vectorized numpy/scipy expression
a competent user would write for the same quantity, timed interleaved in one process in rotating
order (CPU time with threads limited to 1, wall time beside it; median of 9 rounds), with the
accuracy of each against a 50-digit mpmath reference.

Rows:
- PML of a generic 1000 x 1000 channel (Dirichlet rows) under a Dirichlet prior, against the
  one-liner ``log(channel.max(0)) - log(prior @ channel)``; and of 4-ary randomized response at
  epsilon = 1e-9 (tiny leakage), where the one-liner's difference of logs loses digits;
- PML of the Laplace counting query (n = 10^6 records, 64 outputs), against the same O(1)
  exponentially tilted binomial tails written with scipy's ``binom.logcdf``/``logsf``, at n = 10^6
  and 10^8 (accuracy against 50- and 30-digit sums); the CPU time at n = 10^4, 10^6, 10^8 and its
  exponent in n;
- the exact leakage of the threshold query's answer 'no' (n = 100, p = 1 - 1e-12), against
  ``-binom.logcdf``;
- the quantised-mean min-entropy (n = 10^5, a mean on a cell edge), against the law of the sum
  by one FFT of the kernel's n-th power (``scipy.fft``, length ``next_fast_len`` of the support);
  accuracy at n = 500 against exact integer arithmetic.
"""

from __future__ import annotations

import sys
from pathlib import Path

import mpmath
import numpy as np
from scipy import fft, stats

from privlib import leakage, mechanisms
# the 30-digit peak walk of claim 001/laplace-count-extremes: the reference at n = 10^8
from privlib.verify.pointwise_maximal_leakage.sec4_1_laplace_count import _count_pml_peak_walk

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing  # noqa: E402
from _timing import header, interleaved, show  # noqa: E402

mpmath.mp.dps = 50
REPEAT = 9


def rel_error(values, reference) -> float:
    v, r = np.asarray(values, dtype=float), np.asarray(reference, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        err = np.where(r != 0, np.abs(v - r) / np.abs(r), np.abs(v - r))
    return float(np.nanmax(np.where(np.isfinite(v), err, np.inf)))


def pml_reference(prior, channel, cols) -> list:
    """log max_x P(y|x) / P_Y(y) in 50 digits, with the float prior normalised exactly (a float
    prior sums to 1 only up to rounding, which matters when the leakage is tiny)."""
    out = []
    total = mpmath.fsum(mpmath.mpf(float(q)) for q in prior)
    for y in cols:
        p_y = mpmath.fsum(mpmath.mpf(float(prior[x])) * mpmath.mpf(float(channel[x, y])) for x in range(prior.size)) / total
        top = max(mpmath.mpf(float(channel[x, y])) for x in range(prior.size))
        out.append(mpmath.log(top / p_y))
    return out


def row(name, t_priv, t_alt, e_priv, e_alt, alternative):
    _timing.row(name, t_priv, alternative, t_alt, e_priv, e_alt)


def bench_pml() -> None:
    rng = np.random.default_rng(0)
    prior = rng.dirichlet(np.ones(1000))
    channel = rng.dirichlet(np.ones(1000), size=1000)

    def one_liner(prior=prior, channel=channel):
        return np.log(channel.max(axis=0)) - np.log(prior @ channel)

    t = interleaved({"privlib": lambda: leakage.pml(prior, channel), "numpy": one_liner}, repeat=REPEAT)
    cols = range(0, 1000, 50)
    ref = pml_reference(prior, channel, cols)
    row("PML, generic 1000 x 1000 channel", t["privlib"], t["numpy"],
        rel_error(leakage.pml(prior, channel)[list(cols)], ref), rel_error(one_liner()[list(cols)], ref),
        "numpy one-liner")

    rr_prior = np.array([0.1, 0.2, 0.3, 0.4])
    rr = mechanisms.RandomizedResponse(1e-9, 4).matrix()

    def rr_one_liner():
        return np.log(rr.max(axis=0)) - np.log(rr_prior @ rr)

    t = interleaved({"privlib": lambda: leakage.pml(rr_prior, rr), "numpy": rr_one_liner}, repeat=REPEAT)
    ref = pml_reference(rr_prior, rr, range(4))
    row("PML, randomized response at eps = 1e-9", t["privlib"], t["numpy"],
        rel_error(leakage.pml(rr_prior, rr), ref), rel_error(rr_one_liner(), ref), "numpy one-liner")


def count_reference(n, theta, eps, y, margin=8000):
    """The two mixture sums in 50 digits over k in [min(mode, ny) - margin, max(mode, ny) + margin];
    at n = 10^6, theta = 0.3 the omitted binomial weights are below e^-150 of the largest."""
    th, e, yy = mpmath.mpf(theta), mpmath.mpf(eps), mpmath.mpf(y)
    mode, centre = int(n * theta), int(n * y)
    ks = range(max(0, min(mode, centre) - margin), min(n - 1, max(mode, centre) + margin) + 1)
    lg = mpmath.loggamma
    log_w = [lg(n) - lg(k + 1) - lg(n - k) + k * mpmath.log(th) + (n - 1 - k) * mpmath.log1p(-th) for k in ks]
    a = []
    for z in (0, 1):
        terms = [lw - e * abs(n * yy - (k + z)) for lw, k in zip(log_w, ks)]
        top = max(terms)
        a.append(top + mpmath.log(mpmath.fsum(mpmath.exp(t - top) for t in terms)))
    return max(a) - mpmath.log(th * mpmath.exp(a[1]) + (1 - th) * mpmath.exp(a[0]))


def tilted_tails_count_pml(n, theta, eps, ys):
    """The O(1) expression a numpy/scipy user would write: each mixture
    ``A_z = sum_k P(k) e^{-eps |ny - k - z|}`` as two exponentially tilted binomial tails,
    ``e^{-eps c} M(eps)^m P'(S <= c) + e^{eps c} M(-eps)^m P''(S > c)``, in log-space with scipy's
    ``binom.logcdf`` and ``binom.logsf`` (one call each for both entries)."""
    m = n - 1
    c1 = n * np.asarray(ys, dtype=float) - 1.0
    cz = np.r_[c1, c1 + 1.0]
    up = theta * np.exp(eps) / (1 - theta + theta * np.exp(eps))
    down = theta * np.exp(-eps) / (1 - theta + theta * np.exp(-eps))
    with np.errstate(all="ignore"):  # where both tails underflow (n = 10^8): -inf - -inf = NaN
        log_a = np.logaddexp(-eps * cz + m * np.log1p(theta * np.expm1(eps)) + stats.binom.logcdf(np.floor(cz), m, up),
                             eps * cz + m * np.log1p(theta * np.expm1(-eps)) + stats.binom.logsf(np.floor(cz), m, down))
        a1, a0 = log_a[:c1.size], log_a[c1.size:]
        return np.maximum(a1, a0) - np.logaddexp(np.log(theta) + a1, np.log1p(-theta) + a0)


def bench_count() -> None:
    theta, eps = 0.3, 0.01
    ys = np.round(np.linspace(0.29, 0.31, 64) * 2**20) / 2**20  # n y exact in binary
    cpu = {}
    for n in (10**4, 10**6, 10**8):
        t = interleaved({"privlib": lambda: leakage.laplace_count_pml(n, theta, eps, ys),
                         "tilted": lambda: tilted_tails_count_pml(n, theta, eps, ys)}, repeat=REPEAT)
        cpu[n] = t["privlib"]
        if n in (10**6, 10**8):
            idx = [0, 31, 40] if n == 10**6 else [0, 20, 40]  # at 10^8 the alternative is NaN at 31, 32
            ref = ([count_reference(n, theta, eps, float(ys[i])) for i in idx] if n == 10**6
                   else [_count_pml_peak_walk(n, theta, eps, float(ys[i])) for i in idx])
            with np.errstate(all="ignore"):
                alt = tilted_tails_count_pml(n, theta, eps, ys[idx])
            row(f"Laplace counting-query PML, n = 10^{int(np.log10(n))}, 64 outputs (O(1) tilted tails)", t["privlib"],
                t["tilted"], rel_error(leakage.laplace_count_pml(n, theta, eps, ys[idx]), ref), rel_error(alt, ref),
                "tilted binomial tails, scipy logcdf/logsf")
    with np.errstate(all="ignore"):
        nan = int(np.isnan(tilted_tails_count_pml(10**8, theta, eps, ys)).sum())
    _timing.row(f"same at n = 10^8: outputs where the tilted-tail expression gives NaN: {nan} of {ys.size}; privlib: 0", None)
    slope = np.polyfit(np.log([1e4, 1e6, 1e8]), np.log([cpu[k] for k in sorted(cpu)]), 1)[0]
    _timing.row(f"same, privlib at n = 10^4 / 10^6 / 10^8: {show(cpu[10**4])} / {show(cpu[10**6])} / {show(cpu[10**8])}; "
                f"exponent of n: {slope:.3f}", None)


def bench_threshold() -> None:
    n, p = 100, 1 - 1e-12

    def scipy_logcdf():
        return -stats.binom.logcdf(n // 2, n, p)

    t = interleaved({"privlib": lambda: leakage.threshold_query_leakage(n, p, 0), "scipy": scipy_logcdf}, repeat=REPEAT)
    pm = mpmath.mpf(p)
    ref = -mpmath.log(mpmath.fsum(mpmath.binomial(n, k) * pm**k * (1 - pm) ** (n - k) for k in range(n // 2 + 1)))
    row("threshold query, answer 'no', n = 100, p = 1 - 1e-12", t["privlib"], t["scipy"],
        rel_error(leakage.threshold_query_leakage(n, p, 0), ref), rel_error(scipy_logcdf(), ref), "-binom.logcdf")


def exact_edge_min_entropy(n: int) -> float:
    """Min-entropy of the quantised mean of n draws from {0, 1/2, 1} with (0.3, 0.4, 0.3), from the
    exact integer coefficients of (3 + 4z + 3z^2)^n."""
    poly = [1]
    for _ in range(n):
        poly = [3 * (poly[i] if i < len(poly) else 0) + 4 * (poly[i - 1] if 0 < i <= len(poly) else 0)
                + 3 * (poly[i - 2] if 1 < i <= len(poly) + 1 else 0) for i in range(len(poly) + 2)]
    masses = [0] * 10
    for t, c in enumerate(poly):
        masses[min(t * 10 // (2 * n), 9)] += c
    return -mpmath.log(mpmath.mpf(max(masses)) / mpmath.mpf(10) ** n)


def fft_power(n, support_steps, probs, lattice):
    """The law of the sum by one FFT of the kernel's n-th power, of length ``next_fast_len`` of
    the sum's support (at least that support, so nothing wraps around)."""
    kernel = np.zeros(max(support_steps) + 1)
    kernel[support_steps] = probs
    size = max(support_steps) * n + 1
    length = fft.next_fast_len(size, real=True)
    law = fft.irfft(fft.rfft(kernel, length) ** n, length)[:size]
    cell = np.minimum((np.arange(size) * 10) // (lattice * n), 9)
    return -np.log(np.bincount(cell, weights=law, minlength=10).max())


def bench_quantized_mean() -> None:
    support, probs = [0.0, 0.5, 1.0], np.array([0.3, 0.4, 0.3])
    n = 10**5
    t = interleaved({"privlib": lambda: leakage.quantized_mean_min_entropy(n, support, probs),
                     "fft": lambda: fft_power(n, [0, 1, 2], probs, 2)}, repeat=REPEAT)
    small = 500
    ref = exact_edge_min_entropy(small)
    row(f"quantised-mean min-entropy, n = 10^5 (accuracy at n = {small})", t["privlib"], t["fft"],
        rel_error(leakage.quantized_mean_min_entropy(small, support, probs), ref), rel_error(fft_power(small, [0, 1, 2], probs, 2), ref),
        "FFT power of the kernel, `scipy.fft` of length `next_fast_len`")


def main() -> None:
    print(header())
    bench_pml()
    bench_count()
    bench_threshold()
    bench_quantized_mean()


if __name__ == "__main__":
    main()
