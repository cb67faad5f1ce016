"""Claims of chapter 004 (Breutigam & Reischuk, statistical privacy), checked against exact
enumeration of databases and subsamples in rational arithmetic, high-precision sums (mpmath) of
the exact laws, numerical integration of the noisy output densities, and the paper's printed
formulas (for the errata). Each verified or erratum claim declares mutants of the privlib
functions it checks."""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
from scipy import integrate, stats

from privlib.papers import statistical
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds, reference

# --- independent references ------------------------------------------------------------------


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
            while j <= m:
                plus = lam * bm1_prev + (1 - lam) * bm
                minus = lam * bm1 + (1 - lam) * bm
                term = plus - e * minus
                if term > 0:
                    total += term
                    seen = True
                elif seen:
                    raise AssertionError("terms changed sign twice: the ratio is not monotone")
                if seen and term < total * mpmath.mpf(10) ** -22:
                    break
                # next j: b_m(j+1), b_{m-1}(j+1), b_{m-1}(j)
                bm_next = bm * (m - j) / (j + 1) * p / q if j < m else mpmath.mpf(0)
                bm1_next = (bm1 * (m - 1 - j) / (j + 1) * p / q if j < m - 1 else mpmath.mpf(0)) if bm1 != 0 else b(m - 1, j + 1)
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


def _trapezoid_delta(eps: float, n: int, pi: float, scale: float, noise: str, k_per_cell: int) -> float:
    k = np.arange(n)
    w = stats.binom.pmf(k, n - 1, pi)
    keep = w > 1e-30 * w.max()
    k, w = k[keep], w[keep]
    dens = stats.norm.pdf if noise == "gaussian" else stats.laplace.pdf
    reach = 25 * scale
    t = np.arange(np.floor((k.min() / n - reach) * n * k_per_cell), np.ceil(((k.max() + 1) / n + reach) * n * k_per_cell) + 1)
    t = t / (n * k_per_cell)
    total = []
    plus = np.zeros_like(t)
    minus = np.zeros_like(t)
    for lo in range(0, k.size, 256):
        kk, ww = k[lo:lo + 256], w[lo:lo + 256]
        plus += (ww[None, :] * dens((t[:, None] - (kk[None, :] + 1) / n) / scale)).sum(axis=1) / scale
        minus += (ww[None, :] * dens((t[:, None] - kk[None, :] / n) / scale)).sum(axis=1) / scale
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
    dens = stats.norm.pdf if noise == "gaussian" else stats.laplace.pdf

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
        f = lambda t, a=a, b=b: max(stats.norm.pdf(t, a, sigma) - np.exp(eps) * stats.norm.pdf(t, b, sigma), 0.0)
        out.append(integrate.quad(f, -np.inf, kink, epsabs=1e-14)[0] + integrate.quad(f, kink, np.inf, epsabs=1e-14)[0])
    return max(out)


def _only_plus(eps, n, pi, scale, noise="gaussian"):
    """``delta_+`` alone of the noisy fraction (a mutant forgetting the other direction)."""
    return statistical._noise_deltas_plus(np.ravel(np.asarray(eps, dtype=float)), n, pi, scale, noise).reshape(np.shape(eps))


# --- Section 4: subsampling and pure SP ----------------------------------------------------------

@claim("004/lemma-4", item="Lemma 4",
       statement="For i.i.d. entries the number of positives in a subsample of size $m$ given the critical entry is the mixture $P_\\pm(j) = \\lambda b_{m-1}(j - [\\pm]) + (1-\\lambda) b_m(j)$, exactly, and its likelihood ratio is $Q_+(j) = \\frac{\\lambda j + (1-\\lambda) m\\pi}{\\lambda (m-j)\\xi + (1-\\lambda) m\\pi}$.",
       method="enumeration of all databases and all subsamples (n = 7, m = 3 and m = 7) in exact rational arithmetic, against `subsampling_laws` and the closed form `likelihood_ratio`")
def lemma_4(n: int = 7, m: int = 3) -> Evidence:
    pi = Fraction(3, 10)
    laws, ratios, exact_l, exact_r = [], [], [], []
    for size in (m, n):
        plus, minus = exact_laws(n, size, pi)
        log_p, log_q = statistical.subsampling_laws(n, size, float(pi))
        laws.append(np.exp(np.concatenate([log_p, log_q])))
        exact_l += [float(x) for x in plus + minus]
        j = np.arange(size)  # Q_+(m) is infinite at m = n
        ratios.append(statistical.likelihood_ratio(j, n, size, float(pi)))
        exact_r += [float(plus[i] / minus[i]) for i in j]
    return all_of(close(np.concatenate(laws), exact_l, rtol=1e-13, atol=1e-30, detail="the laws P_+ and P_-"),
                  close(np.concatenate(ratios), exact_r, rtol=1e-13, atol=1e-30, detail="the ratio Q_+(j), j < m"))


@lemma_4.mutant("statistical.subsampling_laws", "directions swapped (P_- returned for P_+)")
def _(subsampling_laws):
    return lambda n, m, pi: subsampling_laws(n, m, pi)[::-1]


@lemma_4.mutant("statistical.subsampling_laws", "sampling rate m / (n + 1) (off by one in n)")
def _(subsampling_laws):
    return lambda n, m, pi: subsampling_laws(n + 1, m, pi)


@lemma_4.mutant("statistical.likelihood_ratio", "odds xi = (1 - pi) / pi inverted")
def _(likelihood_ratio):
    def wrong(j, n, m, pi):
        lam, xi, j = m / n, (1 - pi) / pi, np.asarray(j, dtype=float)
        return (lam * j + (1 - lam) * m * pi) / (lam * (m - j) * xi + (1 - lam) * m * pi)
    return wrong


@lemma_4.mutant("statistical.likelihood_ratio", "lam and 1 - lam swapped")
def _(likelihood_ratio):
    def wrong(j, n, m, pi):
        lam, xi, j = 1 - m / n, pi / (1 - pi), np.asarray(j, dtype=float)
        return (lam * j + (1 - lam) * m * pi) / (lam * (m - j) * xi + (1 - lam) * m * pi)
    return wrong


@claim("004/lemma-2-3", item="Lemmas 2 and 3",
       statement="$\\sup_S P_+(S) - e^\\varepsilon P_-(S)$ is the hockey-stick sum, attained at $S = \\{P_+ \\ge e^\\varepsilon P_-\\}$; $(\\varepsilon, \\delta)$-SP holds iff $\\delta$ is at least both directions.",
       method="enumeration of all $2^{m+1}$ output events of subsampling (n = 40, m = 10) at 4 epsilons and 3 values of pi, against `subsampling_delta`")
def lemma_2_3(n: int = 40, m: int = 10) -> Evidence:
    events = np.array(list(itertools.product([0, 1], repeat=m + 1)), dtype=float)
    observed, reference = [], []
    for pi in (0.1, 0.3, 0.5):
        p, q = (np.array([float(x) for x in law]) for law in exact_laws_fast(n, m, pi))
        for eps in (0.0, 0.05, 0.2, 0.8):
            brute = max((events @ p - np.exp(eps) * (events @ q)).max(), (events @ q - np.exp(eps) * (events @ p)).max())
            observed.append(float(statistical.subsampling_delta(eps, n, m, pi)))
            reference.append(float(brute))
    return close(observed, reference, atol=1e-14, rtol=0.0)


@reference
def exact_laws_fast(n: int, m: int, pi: float) -> tuple[list[float], list[float]]:
    """Lemma 4's laws from exact integer binomial coefficients (math.comb), for n too large to
    enumerate databases (the mixture form is what Lemma 4 proves; lemma-4 checks it)."""
    lam = Fraction(m, n)
    p = Fraction(pi)

    def b(size: int, k: int) -> Fraction:
        return Fraction(math.comb(size, k)) * p**k * (1 - p) ** (size - k) if 0 <= k <= size else Fraction(0)

    plus = [float(lam * b(m - 1, j - 1) + (1 - lam) * b(m, j)) for j in range(m + 1)]
    minus = [float(lam * b(m - 1, j) + (1 - lam) * b(m, j)) for j in range(m + 1)]
    return plus, minus


@lemma_2_3.mutant("statistical.subsampling_delta", "one direction only (delta_-)")
def _(subsampling_delta):
    def wrong(epsilon, n, m, pi):
        eps = np.atleast_1d(np.asarray(epsilon, dtype=float))
        return np.exp(statistical._log_delta_plus(eps, m, m / n, 1 - pi, pi)).reshape(np.shape(epsilon))
    return wrong


@lemma_2_3.mutant("statistical.subsampling_delta", "sample size m - 1 (off by one)")
def _(subsampling_delta):
    return lambda epsilon, n, m, pi: subsampling_delta(epsilon, n, m - 1, pi)


@claim("004/thm-4-1", item="Theorem 4.1", checks=("statistical.subsampling_delta",),
       statement="The SP delta of subsampling is the hockey-stick divergence of the two laws of Lemma 4, in both directions; `subsampling_delta` computes it for any $n$ at a cost independent of $n$.",
       method="exact laws from enumeration (n = 8, every m) with the hockey-stick sum in rational arithmetic, at 5 epsilons and 3 values of pi; and a 40-digit sum of the exact laws at n = 2e6, m = 1e6, eps = 0.005 (where terms past the first 256 come from binomial tails)")
def thm_4_1(n: int = 8) -> Evidence:
    observed, reference = [], []
    for pi in (Fraction(1, 10), Fraction(3, 10), Fraction(1, 2)):
        for m in range(1, n + 1):
            plus, minus = exact_laws(n, m, pi)
            for eps in (0.0, 0.01, 0.1, 0.5, 1.0):
                observed.append(float(statistical.subsampling_delta(eps, n, m, float(pi))))
                reference.append(_exact_delta(plus, minus, eps))
    big_eps = [0.005]
    big = statistical.subsampling_delta(big_eps, 2 * 10**6, 10**6, 0.3)
    big_ref = [mp_delta(e, 2 * 10**6, 10**6, 0.3) for e in big_eps]
    return all_of(close(observed, reference, atol=1e-13, rtol=0.0, detail="enumeration, n = 8"),
                  close(big, big_ref, rtol=1e-9, atol=0.0, detail="40-digit sums, n = 2e6, m = 1e6"))


@thm_4_1.mutant("statistical._threshold_plus", "the window starts two outputs above the threshold")
def _(threshold):
    return lambda eps, m, lam, p, q: threshold(eps, m, lam, p, q) + 3.0


@thm_4_1.mutant("statistical._sf", "binomial tail P(X >= k) for P(X > k) (off by one)")
def _(sf):
    return lambda k, size, p: sf(np.asarray(k, dtype=float) - 1.0, size, p)


@thm_4_1.mutant("statistical._log_factors", "lam and 1 - lam swapped in the mixture")
def _(log_factors):
    return lambda j, m, lam, p, q: log_factors(j, m, 1.0 - lam if lam < 1 else lam, p, q)


@functools.lru_cache(maxsize=16)
@reference
def _exact_laws_rational(n: int, m: int, pi: float) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Lemma 4's laws from exact integer binomial coefficients, in rational arithmetic."""
    lam, p = Fraction(m, n), Fraction(pi)

    def b(size: int, k: int) -> Fraction:
        return Fraction(math.comb(size, k)) * p**k * (1 - p) ** (size - k) if 0 <= k <= size else Fraction(0)

    plus = tuple(lam * b(m - 1, j - 1) + (1 - lam) * b(m, j) for j in range(m + 1))
    minus = tuple(lam * b(m - 1, j) + (1 - lam) * b(m, j) for j in range(m + 1))
    return plus, minus


@reference
def _exact_theorem_sums(eps: float, n: int, m: int, pi: float) -> tuple[float, float]:
    """(delta_+, delta_-) from the definition: positive parts of the exact laws (exact integer
    binomials, rational arithmetic up to the one rounding of e^eps)."""
    e = Fraction(math.exp(eps))
    laws = _exact_laws_rational(n, m, pi)
    plus = sum(max(a - e * c, Fraction(0)) for a, c in zip(*laws))
    minus = sum(max(c - e * a, Fraction(0)) for a, c in zip(*laws))
    return float(plus), float(minus)


@claim("004/erratum-e1", item="Theorem 4.1 (threshold cap)", kind="erratum", checks=("statistical.theorem_deltas",),
       statement="The printed cap $j_+^\\star = \\min\\{\\lambda, \\lambda + \\frac{e^\\varepsilon-1}{1+e^\\varepsilon\\xi}\\} n\\pi$ always returns $\\lambda n\\pi$, so the sum starts at the mean and adds negative terms; uncapped (a cap at $m$), Theorem 4.1's threshold sum equals the definition.",
       method="`theorem_deltas` (Theorem 4.1's closed-form summands summed from its threshold), printed and corrected, against the definition in exact rational arithmetic (n = 1000, m = 100, pi = 0.5, eps = 0.01)")
def erratum_e1(n: int = 1000, m: int = 100, pi: float = 0.5, epsilon: float = 0.01) -> Evidence:
    exact_plus, _ = _exact_theorem_sums(epsilon, n, m, pi)
    corrected = float(statistical.theorem_deltas(epsilon, n, m, pi)[0])
    printed = float(statistical.theorem_deltas(epsilon, n, m, pi, printed=True)[0])
    return all_of(close(corrected, exact_plus, rtol=1e-10, atol=0.0, detail="corrected threshold sum = definition"),
                  at_most(printed, exact_plus - 1e-4, atol=0.0,
                          detail="the printed threshold sum falls short of the definition by more than 1e-4"))


@erratum_e1.mutant("statistical.theorem_thresholds", "the printed cap min{lam, ...} kept")
def _(thresholds):
    def wrong(epsilon, n, m, pi, *, printed=False):
        plus, minus = thresholds(epsilon, n, m, pi, printed=printed)
        return np.minimum(plus, m / n * n * pi), minus
    return wrong


@erratum_e1.mutant("statistical.theorem_summands", "the (1 - lam)(1 - e^eps) term dropped")
def _(summands):
    def wrong(epsilon, n, m, pi, *, printed=False):
        plus, minus = summands(epsilon, n, m, pi, printed=printed)
        j = np.arange(m + 1.0)
        lam = m / n
        b = stats.binom.pmf(j, m - 1, pi) / pi
        drop = np.where(j < m, b * (1 - lam) * (1 - np.exp(epsilon)) * m * pi * (1 - pi) / np.maximum(m - j, 1), 0.0)
        return plus - drop, minus - drop
    return wrong


@claim("004/erratum-e2-e3", item="Theorem 4.1 (delta_- limit and binding caps)", kind="erratum", checks=("statistical.theorem_deltas",),
       statement="The printed $\\delta_-$ sums up to $\\lceil j_-^\\star \\rceil$ with capped thresholds; the ceiling adds a negative term and a binding cap yields a negative 'delta'. Summing up to $\\lfloor j_-^\\star \\rfloor$ (nothing when the threshold leaves $[0, m]$) equals the definition.",
       method="`theorem_deltas`, printed and corrected, against the definition in exact rational arithmetic at (n, m, pi, eps) = (1000, 100, 0.3, 0.05) and (100, 10, 0.2, 0.3)")
def erratum_e2_e3() -> Evidence:
    observed, reference, printed = [], [], []
    for n, m, pi, eps in ((1000, 100, 0.3, 0.05), (100, 10, 0.2, 0.3)):
        observed.append(float(statistical.theorem_deltas(eps, n, m, pi)[1]))
        printed.append(float(statistical.theorem_deltas(eps, n, m, pi, printed=True)[1]))
        reference.append(_exact_theorem_sums(eps, n, m, pi)[1])
    return all_of(close(observed, reference, rtol=1e-10, atol=1e-15, detail="corrected delta_- = definition"),
                  at_most(printed, 0.999 * np.array(reference), atol=0.0,
                          detail="the printed delta_- falls short of the definition (negative at the second point)"))


@erratum_e2_e3.mutant("statistical.theorem_thresholds", "j_-* one output too high (ceil for floor)")
def _(thresholds):
    def wrong(epsilon, n, m, pi, *, printed=False):
        plus, minus = thresholds(epsilon, n, m, pi, printed=printed)
        return plus, minus + 1.0
    return wrong


@erratum_e2_e3.mutant("statistical.theorem_summands", "e^eps on the wrong law in the delta_- summand")
def _(summands):
    def wrong(epsilon, n, m, pi, *, printed=False):
        plus, minus = summands(epsilon, n, m, pi, printed=printed)
        return plus, -plus * np.exp(-np.asarray(epsilon, dtype=float))[..., None]
    return wrong


@claim("004/thm-4-2", item="Theorem 4.2",
       statement="Pure statistical privacy: $\\delta$ is the hockey-stick divergence of Bin(n-1) shifted by one against Bin(n-1); it never falls below the floors $\\pi^{n-1}$ and $(1-\\pi)^{n-1}$, and `pure_delta` returns it without silent zeros (e.g. $1.29 \\times 10^{-52}$ at n = 1000, pi = 0.5, eps = 1).",
       method="exact rational enumeration of all databases (n = 10) at 5 epsilons and 3 values of pi, the floors at epsilon = 50, and 40-digit sums of the exact laws at n = 1000 and n = 10^5 (eps = 1 and 0.01)")
def thm_4_2(n: int = 10) -> Evidence:
    observed, reference = [], []
    for pi in (Fraction(1, 20), Fraction(1, 4), Fraction(1, 2)):
        plus, minus = exact_laws(n, n, pi)
        for eps in (0.0, 0.05, 0.2, 0.7, 50.0):
            observed.append(float(statistical.pure_delta(eps, n, float(pi))))
            reference.append(_exact_delta(plus, minus, eps))
        observed.append(float(statistical.pure_delta(50.0, n, float(pi))))
        reference.append(float(max(pi ** (n - 1), (1 - pi) ** (n - 1))))
    tiny = [(1.0, 1000, 0.5), (0.01, 10**5, 0.3), (1.0, 10**5, 0.5)]
    logs = [float(statistical.log_pure_delta(e, size, p)) for e, size, p in tiny]
    logs_ref = [mp_delta(e, size, size, p, log=True) for e, size, p in tiny]
    return all_of(close(observed, reference, rtol=1e-12, atol=1e-15, detail="enumeration and floors, n = 10"),
                  close(float(statistical.pure_delta(1.0, 1000, 0.5)), mp_delta(1.0, 1000, 1000, 0.5), rtol=1e-10,
                        atol=0.0, detail="n = 1000, eps = 1: no silent zero"),
                  close(logs, logs_ref, rtol=1e-12, atol=0.0, detail="log delta down to e^-6000 (n = 1e5)"))


@thm_4_2.mutant("statistical.pure_delta", "outputs beyond 12 standard deviations dropped (the old window)")
def _(pure_delta):
    def wrong(epsilon, n, pi):
        eps = np.atleast_1d(np.asarray(epsilon, dtype=float))
        j = np.arange(n + 1.0)
        keep = np.abs(j - n * pi) <= 12 * np.sqrt(n * pi * (1 - pi))
        p = np.exp(statistical.log_binomial_pmf(j - 1, n - 1, pi))[keep]
        q = np.exp(statistical.log_binomial_pmf(j, n - 1, pi))[keep]
        out = [max(np.maximum(p - np.exp(e) * q, 0).sum(), np.maximum(q - np.exp(e) * p, 0).sum()) for e in eps]
        return np.array(out).reshape(np.shape(epsilon))
    return wrong


@thm_4_2.mutant("statistical._log_binom_run", "binomial support taken as 0..size-1 (the all-positive output lost)")
def _(run):
    def wrong(start, count, size, p, q):
        j = np.asarray(start, dtype=float)[:, None] + np.arange(count)[None, :]
        return np.where(j >= size, -np.inf, run(start, count, size, p, q))
    return wrong


@thm_4_2.mutant("statistical.log_pure_delta", "the log of the linear delta (underflows to -inf)")
def _(log_pure_delta):
    return lambda epsilon, n, pi: np.log(statistical.pure_delta(epsilon, n, pi))


@claim("004/erratum-e5-e6", item="Theorem 4.2 (thresholds)", kind="erratum", checks=("statistical.theorem_deltas",),
       statement="Theorem 4.2's threshold is printed as $1 + \\frac{e^\\varepsilon - 1}{1 + e^\\varepsilon \\xi} n\\pi$; it must be $(1 + \\frac{e^\\varepsilon - 1}{1 + e^\\varepsilon \\xi}) n\\pi$. The restriction $\\varepsilon \\le \\ln 2$ is not needed: the corrected sums equal the definition for $\\varepsilon$ = 1, 2 and 20 too.",
       method="`theorem_deltas` with m = n, corrected and printed, against the definition in exact rational arithmetic (n = 120, pi = 0.3)")
def erratum_e5_e6(n: int = 120, pi: float = 0.3) -> Evidence:
    observed, reference, printed = [], [], []
    for eps in (0.05, 0.3, 1.0, 2.0, 20.0):
        plus, minus = statistical.theorem_deltas(eps, n, n, pi)
        observed += [float(plus), float(minus)]
        reference += list(_exact_theorem_sums(eps, n, n, pi))
        if eps <= 2.0:  # at eps = 20 the printed sum is within 1e-11 of 0, where its sign is rounding
            printed.append(float(statistical.theorem_deltas(eps, n, n, pi, printed=True)[0]))
    return all_of(close(observed, reference, rtol=1e-10, atol=0.0, detail="corrected delta_+ and delta_- = definition"),
                  at_most(printed, np.full(len(printed), -1e-5), atol=0.0,
                          detail="the printed threshold's delta_+ is negative (below -1e-5) for eps <= 2"))


@erratum_e5_e6.mutant("statistical.theorem_thresholds", "the printed threshold (parentheses lost)")
def _(thresholds):
    return lambda epsilon, n, m, pi, *, printed=False: thresholds(epsilon, n, m, pi, printed=True)


@erratum_e5_e6.mutant("statistical.theorem_summands", "the j = m summand read as 0 (the printed 0 * inf)")
def _(summands):
    return lambda epsilon, n, m, pi, *, printed=False: summands(epsilon, n, m, pi, printed=True)


@claim("004/chernoff", item="Section 4.2 (Chernoff remark)",
       statement="Pure SP decays exponentially in $n$: $-\\frac{1}{n}\\log\\delta(\\varepsilon) \\to \\min_\\pm \\mathrm{KL}(\\mathrm{Bern}(q_\\pm) \\Vert \\mathrm{Bern}(\\pi))$ with $q_\\pm = \\pi e^{\\pm\\varepsilon}/(1 - \\pi + \\pi e^{\\pm\\varepsilon})$ (our derivation of the rate the text leaves implicit).",
       method="`chernoff_rate` against the KL divergence in 40-digit arithmetic; `log_pure_delta` against 40-digit sums at n = 3000; and the slope of $\\log\\delta + \\frac32\\log n$ (the tail's prefactor) between $n_1$ and $2n_1$ against the rate (within 2%, the lattice's wobble), $n_1$ the larger of 5e5 and 25 / rate (the exponential regime), for pi in {0.5, 0.1, 0.01}")
def chernoff(epsilon: float = 0.1) -> Evidence:
    pis = (0.5, 0.1, 0.01)
    rates, kl = [], []
    with mpmath.workdps(40):
        for p in pis:
            pm, e = mpmath.mpf(p), mpmath.mpf(epsilon)
            values = []
            for s in (e, -e):
                qq = pm * mpmath.exp(s) / (1 - pm + pm * mpmath.exp(s))
                values.append(qq * mpmath.log(qq / pm) + (1 - qq) * mpmath.log((1 - qq) / (1 - pm)))
            kl.append(float(min(values)))
            rates.append(float(statistical.chernoff_rate(epsilon, p)))
    logs = [float(statistical.log_pure_delta(epsilon, 3000, p)) for p in pis]
    logs_ref = [mp_delta(epsilon, 3000, 3000, p, log=True) for p in pis]
    slopes = []
    for p, rate in zip(pis, kl):
        # the exponential regime: n1 at least 5e5 and with n1 * rate >= 25 (small eps and pi need more records)
        n1 = max(5 * 10**5, math.ceil(25 / rate))
        n2 = 2 * n1
        a, b = statistical.log_pure_delta(epsilon, n1, p), statistical.log_pure_delta(epsilon, n2, p)
        slopes.append(float(-((b + 1.5 * np.log(n2)) - (a + 1.5 * np.log(n1))) / (n2 - n1)))
    return all_of(close(rates, kl, rtol=1e-10, atol=0.0, detail="chernoff_rate = KL(q || pi)"),
                  close(logs, logs_ref, rtol=1e-12, atol=0.0, detail="log delta at n = 3000"),
                  close(slopes, kl, rtol=0.02, atol=0.0, detail="decay rate of delta between n_1 and 2 n_1"))


@chernoff.mutant("statistical.chernoff_rate", "KL(pi || q) (arguments swapped)")
def _(chernoff_rate):
    def wrong(epsilon, pi):
        out = []
        for s in (epsilon, -epsilon):
            q = pi * np.exp(s) / (1 - pi + pi * np.exp(s))
            out.append(pi * np.log(pi / q) + (1 - pi) * np.log((1 - pi) / (1 - q)))
        return np.minimum(*out)
    return wrong


@chernoff.mutant("statistical.chernoff_rate", "the + tilt only (no minimum over the two directions)")
def _(chernoff_rate):
    def wrong(epsilon, pi):
        q = pi * np.exp(epsilon) / (1 - pi + pi * np.exp(epsilon))
        return q * np.log(q / pi) + (1 - q) * np.log((1 - q) / (1 - pi))
    return wrong


@chernoff.mutant("statistical.log_pure_delta", "the log of the linear delta (underflows)")
def _(log_pure_delta):
    return lambda epsilon, n, pi: np.log(statistical.pure_delta(epsilon, n, pi))


# --- Section 5: noise ----------------------------------------------------------------------------

@claim("004/noise-sp", item="Section 5 (SP with Gaussian and Laplace noise)",
       statement="With additive noise the likelihood ratio of the two output laws is monotone, so $\\delta$ is attained on a half-line found by one root search (`noise_delta`), in both directions.",
       method="trapezoid integration (lattice-aligned grids, Richardson-extrapolated) of the positive part of the two binomial mixtures of noise densities (n = 30 and 300), both directions, pi in {0.1, 0.5}")
def noise_sp(n: int = 30, epsilon: float = 0.05) -> Evidence:
    observed, reference = [], []
    for size in (n, 10 * n):
        for noise in ("gaussian", "laplace"):
            for pi in (0.1, 0.5):
                scale = 1.5 / size
                observed.append(float(statistical.noise_delta(epsilon, size, pi, scale, noise)))
                reference.append(_grid_delta(epsilon, size, pi, scale, noise, 16))
    return close(observed, reference, rtol=1e-7, atol=0.0)


@noise_sp.mutant("statistical.noise_delta", "one direction only (delta_+)")
def _(noise_delta):
    return _only_plus


@noise_sp.mutant("statistical._noise_logsf", "Laplace tail e^-z without the factor 1/2")
def _(logsf):
    return lambda noise, z: logsf(noise, z) + (np.log(2.0) * (np.asarray(z) >= 0) if noise == "laplace" else 0.0)


@noise_sp.mutant("statistical._noise_logpdf", "Gaussian density of variance 2 (scale read as variance / 2)")
def _(logpdf):
    return lambda noise, z: logpdf(noise, np.asarray(z) / np.sqrt(2.0) if noise == "gaussian" else z)


@claim("004/lemma-5", item="Lemma 5",
       statement="Laplace noise of scale $\\psi$ gives pure $(1/(\\psi n), 0)$-SP, and no smaller $\\varepsilon$ has $\\delta = 0$.",
       method="`laplace_sp_epsilon` and `noise_delta` at that epsilon, against adaptive quadrature of the positive part of the mixture densities at it (0) and at 0.999 of it (positive)")
def lemma_5(n: int = 30, pi: float = 0.3, nu: float = 2.0) -> Evidence:
    scale = nu / n
    eps0 = float(statistical.laplace_sp_epsilon(n, scale))
    at, below = _quad_delta(eps0, n, pi, scale, "laplace"), _quad_delta(0.999 * eps0, n, pi, scale, "laplace")
    return all_of(close([float(statistical.noise_delta(eps0, n, pi, scale, "laplace")), at], [0.0, 0.0], atol=1e-10,
                        detail="delta at 1/(psi n): privlib and quadrature"),
                  at_most(1e-9, below, atol=0.0, detail="quadrature: delta at 0.999/(psi n) is positive"))


@lemma_5.mutant("statistical.laplace_sp_epsilon", "1 / (2 psi n) (half the epsilon)")
def _(laplace_sp_epsilon):
    return lambda n, scale: laplace_sp_epsilon(n, scale) / 2


@lemma_5.mutant("statistical.laplace_sp_epsilon", "1 / psi (n forgotten)")
def _(laplace_sp_epsilon):
    return lambda n, scale: laplace_sp_epsilon(n, scale) * n


@claim("004/lemma-6", item="Lemma 6",
       statement="With Gaussian noise the SP delta is approximately the Gaussian DP curve with the internal noise added: standard deviation $\\sqrt{\\sigma^2 + \\pi(1-\\pi)(n-1)/n^2}$. Good when $n\\pi$ is large, poor when $n\\pi$ is near 1.",
       method="`normal_approx_delta` against quadrature of the hockey stick of the two approximating normals; its relative error against the exact delta (`noise_delta`, checked by noise-sp) at n = 1000, nu = 1: below 1e-3 at pi = 0.5 and above 1% at pi = 0.001")
def lemma_6(n: int = 1000, epsilon: float = 0.01) -> Evidence:
    errors, approx, quad = [], [], []
    for pi in (0.5, 0.001):
        sigma = np.sqrt((1.0 / n) ** 2 + pi * (1 - pi) * (n - 1) / n**2)
        a = float(statistical.normal_approx_delta(epsilon, n, pi, 1.0 / n))
        approx.append(a)
        quad.append(_normal_pair_delta(epsilon, pi * (1 - 1 / n) + 1 / n, pi * (1 - 1 / n), sigma))
        exact = float(statistical.noise_delta(epsilon, n, pi, 1.0 / n))
        errors.append(abs(a - exact) / exact)
    return all_of(close(approx, quad, rtol=1e-8, atol=0.0, detail="the approximation = hockey stick of the two normals"),
                  at_most(errors[0], 1e-3, atol=0.0, detail="relative error at pi = 0.5"),
                  at_most(1e-2, errors[1], atol=0.0, detail="relative error at pi = 0.001"))


@lemma_6.mutant("statistical.normal_approx_delta", "internal noise dropped (DP curve of sigma alone)")
def _(normal_approx_delta):
    return lambda epsilon, n, pi, sigma: statistical.dp_delta(epsilon, sigma * n)


@lemma_6.mutant("statistical.normal_approx_delta", "internal variance pi (1 - pi) / n (the n-1 and 1/n lost)")
def _(normal_approx_delta):
    from privlib.core import profiles
    return lambda epsilon, n, pi, sigma: profiles.gaussian_delta(epsilon, (1 / n) / np.sqrt(sigma**2 + pi * (1 - pi) / n))


@claim("004/dp-baselines", item="Section 5 (DP baselines)",
       statement="At $\\varepsilon = 0.01$ the DP delta of Gaussian noise with standard deviation $\\nu/n$ is 0.38 for $\\nu = 1$ and 0.128 for $\\nu = 3$, as the text quotes.",
       method="`dp_delta` against adaptive quadrature of the hockey-stick integral of N(0, nu^2) against N(1, nu^2), and the quadrature values against the printed ones to their last digit")
def dp_baselines(epsilon: float = 0.01) -> Evidence:
    quad = [_normal_pair_delta(epsilon, 1.0, 0.0, nu) for nu in (1.0, 3.0)]
    return all_of(close(statistical.dp_delta(epsilon, [1.0, 3.0]), quad, atol=1e-10, rtol=0.0, detail="dp_delta = quadrature"),
                  close(quad, [0.38, 0.128], atol=[0.005, 0.0005], rtol=0.0, detail="quadrature values rounded as printed"))


@dp_baselines.mutant("statistical.dp_delta", "mu = nu instead of 1 / nu")
def _(dp_delta):
    return lambda epsilon, nu, noise="gaussian": dp_delta(epsilon, 1.0 / np.asarray(nu, dtype=float), noise)


@dp_baselines.mutant("statistical.dp_delta", "the Laplace curve for Gaussian noise")
def _(dp_delta):
    return lambda epsilon, nu, noise="gaussian": dp_delta(epsilon, nu, "laplace")


@claim("004/ratio-nu10", item="Section 5 (ratio at nu = 10, Figure 2)",
       statement="The text: 'even for the maximum [$\\nu$ =] 10 the ratio $\\delta_{DP}/\\delta_{SP}$ is significantly larger than 1' (Gaussian noise, n = 1000, $\\varepsilon = 0.01$). Every ratio exceeds 1; whether it is 'significantly' larger depends on $\\pi$ (the record lists them).",
       method="`noise_delta` against trapezoid integration of the mixture densities on a lattice-aligned grid, `dp_delta` against quadrature, and the ratios at least 1, at pi in {0.5, 0.1, 0.01}")
def ratio_nu10(n: int = 1000, epsilon: float = 0.01, nu: float = 10.0) -> Evidence:
    pis = (0.5, 0.1, 0.01)
    sp = [float(statistical.noise_delta(epsilon, n, p, nu / n)) for p in pis]
    grid = [_grid_delta(epsilon, n, p, nu / n, "gaussian") for p in pis]
    dp = float(statistical.dp_delta(epsilon, nu))
    ratios = [dp / s for s in sp]
    return all_of(close(sp, grid, rtol=1e-6, atol=0.0, detail="SP delta = grid integration"),
                  close(dp, _normal_pair_delta(epsilon, 1.0, 0.0, nu), rtol=1e-9, atol=0.0, detail="DP delta = quadrature"),
                  at_most(1.0, ratios, atol=0.0, detail="ratios " + ", ".join(f"{r:.3g}" for r in ratios)))


@ratio_nu10.mutant("statistical.noise_delta", "one direction only (delta_+)")
def _(noise_delta):
    return _only_plus


@ratio_nu10.mutant("statistical._noise_logsf", "Gaussian tail log Phi(z) for log Phi(-z) (direction swapped)")
def _(logsf):
    from scipy import special
    return lambda noise, z: special.log_ndtr(np.asarray(z)) if noise == "gaussian" else logsf(noise, z)


# --- utility (Lemmas 7-10, Section 4.4) ---------------------------------------------------------

@claim("004/lemma-7", item="Lemma 7",
       statement="The utility loss of subsampling $m$ of $n$ i.i.d. entries is $\\pi(1-\\pi)(1/m - 1/n)$, exactly.",
       method="enumeration of all databases and subsamples (n = 7, every m) in exact rational arithmetic, against `subsampling_utility_loss`")
def lemma_7(n: int = 7) -> Evidence:
    pi = Fraction(2, 7)
    observed, reference = [], []
    for m in range(1, n + 1):
        observed.append(float(statistical.subsampling_utility_loss(n, m, float(pi))))
        reference.append(float(exact_errors(n, m, pi)[0]))
    return close(observed, reference, rtol=1e-14, atol=1e-17)


@lemma_7.mutant("statistical.subsampling_utility_loss", "the 1/n term dropped")
def _(loss):
    return lambda n, m, pi: loss(n, m, pi) + np.asarray(pi) * (1 - np.asarray(pi)) / n


@lemma_7.mutant("statistical.subsampling_utility_loss", "1/(m - 1): the sample variance's denominator")
def _(loss):
    return lambda n, m, pi: np.asarray(pi) * (1 - np.asarray(pi)) * (1 / max(m - 1, 1) - 1 / n)


@claim("004/lemma-8", item="Lemma 8",
       statement="The statistical utility loss of subsampling, $\\mathrm{MSE}(Y_{SAMP}) - \\mathrm{MSE}(Y_F)$ with both as estimators of $\\pi$, is $\\pi(1-\\pi)/m - \\pi(1-\\pi)/n$, equal to the utility loss of Lemma 7.",
       method="both mean squared errors over all databases and subsamples (n = 7, every m) in exact rational arithmetic, against `statistical_utility_loss`")
def lemma_8(n: int = 7) -> Evidence:
    pi = Fraction(2, 7)
    observed, reference = [], []
    for m in range(1, n + 1):
        _, mse_sample, mse_full = exact_errors(n, m, pi)
        observed.append(float(statistical.statistical_utility_loss(n, m, float(pi))))
        reference.append(float(mse_sample - mse_full))
    return close(observed, reference, rtol=1e-14, atol=1e-17)


@lemma_8.mutant("statistical.statistical_utility_loss", "MSE of the database fraction not subtracted")
def _(loss):
    return lambda n, m, pi: np.asarray(pi) * (1 - np.asarray(pi)) / m


@lemma_8.mutant("statistical.statistical_utility_loss", "finite-population factor (n - m)/(n - 1) on the sample's MSE")
def _(loss):
    return lambda n, m, pi: np.asarray(pi) * (1 - np.asarray(pi)) * ((n - m) / max(n - 1, 1) / m - 1 / n)


@claim("004/lemma-9", item="Lemma 9",
       statement="The utility loss of additive noise is the noise variance, whatever the data: $\\psi^2$ for Gaussian and $2\\psi^2$ for Laplace noise of scale $\\psi$.",
       method="`noise_utility_loss` against the second moment of each noise density by adaptive quadrature; the data drop out of $E[(Y + N - Y)^2]$ exactly")
def lemma_9(psi: float = 0.02) -> Evidence:
    densities = {"gaussian": lambda x: stats.norm.pdf(x, 0, psi), "laplace": lambda x: np.exp(-abs(x) / psi) / (2 * psi)}
    observed, reference = [], []
    for noise, f in densities.items():
        observed.append(float(statistical.noise_utility_loss(psi, noise)))
        reference.append(integrate.quad(lambda x: x * x * f(x), -np.inf, 0)[0] + integrate.quad(lambda x: x * x * f(x), 0, np.inf)[0])
    return close(observed, reference, rtol=1e-9, atol=0.0)


@lemma_9.mutant("statistical.noise_utility_loss", "Laplace variance psi^2 (scale read as standard deviation)")
def _(loss):
    return lambda scale, noise="gaussian": np.asarray(scale, dtype=float) ** 2


@lemma_9.mutant("statistical.noise_utility_loss", "standard deviation for variance")
def _(loss):
    return lambda scale, noise="gaussian": np.sqrt(loss(scale, noise))


@claim("004/equal-utility", item="Section 4.4 (equal-utility calibration)",
       statement="Gaussian noise with standard deviation $\\sqrt{UL}$ and Laplace noise with scale $\\sqrt{UL/2}$ have the utility loss $UL$ of subsampling; that Laplace noise is then $(\\varepsilon_L, 0)$-SP with $\\varepsilon_L = \\sqrt{2/(\\pi(1-\\pi))}\\sqrt{\\lambda/(n-m)}$.",
       method="the variance of each noise density at the scales of `equal_utility_scales` by quadrature, against the utility loss from exact enumeration (n = 7, m = 3); `equal_utility_laplace_epsilon` against the paper's expression (n = 1000, m = 100, pi = 0.3) and, at n = 30, m = 10, against the smallest epsilon at which the calibrated Laplace noise's delta is 0, by adaptive quadrature of the mixture densities (0 at it, positive at 0.999 of it)")
def equal_utility(n: int = 1000, m: int = 100, pi: float = 0.3) -> Evidence:
    small_n, small_m, small_pi = 7, 3, Fraction(2, 7)
    ul = float(exact_errors(small_n, small_m, small_pi)[0])
    sigma, b = (float(x) for x in statistical.equal_utility_scales(small_n, small_m, float(small_pi)))
    var_g = integrate.quad(lambda x: x * x * stats.norm.pdf(x, 0, sigma), -np.inf, np.inf)[0]
    var_l = 2 * integrate.quad(lambda x: x * x * np.exp(-x / b) / (2 * b), 0, np.inf)[0]
    lam = m / n
    paper = np.sqrt(2 / (pi * (1 - pi))) * np.sqrt(lam / (n - m))
    # eps_L is where the calibrated Laplace noise's delta reaches 0 (Lemma 5): quadrature at n = 30
    q_n, q_m, q_pi = 30, 10, 0.3
    eps_l = float(statistical.equal_utility_laplace_epsilon(q_n, q_m, q_pi))
    b_small = float(statistical.equal_utility_scales(q_n, q_m, q_pi)[1])
    at, below = _quad_delta(eps_l, q_n, q_pi, b_small, "laplace"), _quad_delta(0.999 * eps_l, q_n, q_pi, b_small, "laplace")
    return all_of(close([var_g, var_l], [ul, ul], rtol=1e-9, atol=0.0, detail="noise variances = UL of subsampling"),
                  close(float(statistical.equal_utility_laplace_epsilon(n, m, pi)), paper, rtol=1e-12, atol=0.0,
                        detail="eps_L = the paper's expression"),
                  close(at, 0.0, atol=1e-10, detail="quadrature: the calibrated Laplace noise's delta at eps_L (n = 30, m = 10)"),
                  at_most(1e-9, below, atol=0.0, detail="quadrature: its delta at 0.999 eps_L is positive"))


@equal_utility.mutant("statistical.equal_utility_scales", "Gaussian standard deviation UL (no square root)")
def _(scales):
    def wrong(n, m, pi):
        s, b = scales(n, m, pi)
        return s**2, b
    return wrong


@equal_utility.mutant("statistical.equal_utility_laplace_epsilon", "1 / b (n forgotten)")
def _(eps_l):
    return lambda n, m, pi: eps_l(n, m, pi) * n


@claim("004/erratum-e8", item="Lemma 10 (noise level)", kind="erratum",
       statement="Lemma 10 prints the Gaussian noise level as $\\psi = \\pi(1-\\pi)(1/\\lambda - 1/n)$; the noise with the utility loss of subsampling has standard deviation $\\psi = \\sqrt{\\pi(1-\\pi)(1/(\\lambda n) - 1/n)}$.",
       method="`lemma10_noise_level`, corrected and printed, squared, against the utility loss of subsampling from exact enumeration (n = 7, m = 3)")
def erratum_e8(n: int = 7, m: int = 3) -> Evidence:
    pi = Fraction(2, 7)
    loss = float(exact_errors(n, m, pi)[0])
    corrected = float(statistical.lemma10_noise_level(n, m, float(pi)))
    printed = float(statistical.lemma10_noise_level(n, m, float(pi), printed=True))
    return all_of(close(corrected**2, loss, rtol=1e-13, atol=0.0, detail="corrected level squared = UL"),
                  at_most(2 * loss, printed**2, atol=0.0, detail="the printed level squared is more than twice UL"))


@erratum_e8.mutant("statistical.lemma10_noise_level", "no square root (the printed form's first slip)")
def _(level):
    return lambda n, m, pi, *, printed=False: level(n, m, pi, printed=printed) ** (1 if printed else 2)


@erratum_e8.mutant("statistical.lemma10_noise_level", "1/lam - 1/n under the root (the printed form's second slip)")
def _(level):
    return lambda n, m, pi, *, printed=False: level(n, m, pi, printed=True) if printed else np.sqrt(level(n, m, pi, printed=True))


@claim("004/lemma-10", item="Lemma 10",
       statement="Gaussian noise with the utility loss of subsampling: in the normal approximation of Lemma 6, $\\delta_\\pm$ are the threshold expressions at $x_\\pm = \\pi \\pm n\\sigma^2\\varepsilon + (1/2 - \\pi)/n$, $\\sigma^2 = \\psi^2 + \\pi(1-\\pi)(n-1)/n^2$ (corrected; the printed $\\pi \\pm \\varepsilon\\psi + \\dots$ is not where the densities' ratio is $e^{\\pm\\varepsilon}$), and close to the exact $\\delta$.",
       method="`lemma10_delta` against quadrature of the hockey stick of the two approximating normals (its supremum over events); against the exact delta of that noise (`noise_delta`) within 1% (n = 1000, m = 100, pi in {0.5, 0.1}, eps = 0.01)")
def lemma_10(n: int = 1000, m: int = 100, epsilon: float = 0.01) -> Evidence:
    approx, quad, exact = [], [], []
    for pi in (0.5, 0.1):
        psi = np.sqrt(pi * (1 - pi) * (1 / m - 1 / n))
        sigma = np.sqrt(psi**2 + pi * (1 - pi) * (n - 1) / n**2)
        approx.append(float(statistical.lemma10_delta(epsilon, n, m, pi)))
        quad.append(_normal_pair_delta(epsilon, pi * (1 - 1 / n) + 1 / n, pi * (1 - 1 / n), sigma))
        exact.append(float(statistical.noise_delta(epsilon, n, pi, psi)))
    printed = [float(statistical.lemma10_delta(epsilon, n, m, pi, printed=True)) for pi in (0.5, 0.1)]
    return all_of(close(approx, quad, rtol=1e-8, atol=0.0, detail="corrected thresholds: the supremum over events"),
                  close(approx, exact, rtol=1e-2, atol=0.0, detail="the approximation against the exact delta"),
                  holds(all(p < 0.5 * q for p, q in zip(printed, quad)), observed=printed[0], reference=quad[0],
                        detail="the printed noise level and thresholds give less than half the delta"))


@lemma_10.mutant("statistical.lemma10_noise_level", "the printed noise level in the corrected expression")
def _(level):
    return lambda n, m, pi, *, printed=False: level(n, m, pi, printed=True)


@lemma_10.mutant("statistical.lemma10_delta", "thresholds pi +- eps psi (as printed)")
def _(delta):
    def wrong(epsilon, n, m, pi, *, printed=False):
        from scipy import special
        psi = float(statistical.lemma10_noise_level(n, m, pi))
        sigma = np.sqrt(psi**2 + pi * (1 - pi) * (n - 1) / n**2)
        x = pi + epsilon * psi + (0.5 - pi) / n
        mm = pi * (1 - 1 / n)
        return special.ndtr((mm + 1 / n - x) / sigma) - np.exp(epsilon) * special.ndtr((mm - x) / sigma)
    return wrong


# --- Section 6: the three mechanisms at equal utility loss ---------------------------------------

def _fig5_ratios(n: int, m: int, epsilon: float, pis: tuple[float, ...], k_per_cell: int = 1):
    lap, gau, lap_ref, gau_ref = [], [], [], []
    for pi in pis:
        sigma, b = (float(x) for x in statistical.equal_utility_scales(n, m, pi))
        lap.append(float(statistical.noise_delta(epsilon, n, pi, b, "laplace")))
        gau.append(float(statistical.noise_delta(epsilon, n, pi, sigma, "gaussian")))
        lap_ref.append(_grid_delta(epsilon, n, pi, b, "laplace", k_per_cell))
        gau_ref.append(_grid_delta(epsilon, n, pi, sigma, "gaussian", k_per_cell))
    return np.array(lap), np.array(gau), np.array(lap_ref), np.array(gau_ref)


@claim("004/erratum-fig5", item="Figure 5 (Laplace 'about 20% worse')", kind="erratum", checks=("statistical.noise_delta",),
       statement="At equal utility loss with $\\lambda = 0.1$ (n = 1000, $\\varepsilon = 0.01$) the text says Laplace noise is about 20% worse than the other two mechanisms; computed from the definition its delta is more than 25% above the Gaussian one at every $\\pi$ (the record lists the ratios).",
       method="`noise_delta` for Laplace and Gaussian noise at the scales of `equal_utility_scales`, each against trapezoid integration of the mixture densities on a lattice-aligned grid, at pi in {0.01, 0.1, 0.3, 0.5}; then the ratios against 1.25, the top of any reading of 'about 20%'")
def erratum_fig5(n: int = 1000, m: int = 100, epsilon: float = 0.01) -> Evidence:
    lap, gau, lap_ref, gau_ref = _fig5_ratios(n, m, epsilon, (0.01, 0.1, 0.3, 0.5))
    ratios = lap / gau
    return all_of(close(np.r_[lap, gau], np.r_[lap_ref, gau_ref], rtol=1e-5, atol=0.0, detail="deltas = grid integration"),
                  at_most(1.25, ratios, atol=0.0, detail="Laplace/Gaussian ratios " + ", ".join(f"{r:.3g}" for r in ratios)))


@equal_utility.mutant("statistical.equal_utility_scales", "Laplace scale sqrt(UL) (scale read as standard deviation)")
@erratum_fig5.mutant("statistical.equal_utility_scales", "Laplace scale sqrt(UL) (scale read as standard deviation)")
def _(scales):
    def wrong(n, m, pi):
        s, _ = scales(n, m, pi)
        return s, s
    return wrong


@erratum_fig5.mutant("statistical._noise_logsf", "the Gaussian tail used for Laplace noise")
def _(logsf):
    return lambda noise, z: logsf("gaussian", z)


@claim("004/erratum-fig8", item="Figure 8 (Laplace 'always worse')", kind="erratum", checks=("statistical.noise_delta", "statistical.subsampling_delta"),
       statement="The text says Laplace noise is always worse than the other mechanisms at equal utility loss; for small samples the calibrated Laplace noise is so large that $1/(bn) \\le \\varepsilon$ and its $\\delta$ is exactly 0 (Lemma 5), below subsampling's.",
       method="at n = 1000, pi = 0.5, eps = 0.01 and m = 10: `equal_utility_laplace_epsilon` at most eps, `noise_delta` (Laplace) 0 and the trapezoid integral of its mixture densities 0, `subsampling_delta` against a 40-digit sum and positive; at m = 100 the order is the text's: Laplace (checked by grid integration) above subsampling")
def erratum_fig8(epsilon: float = 0.01) -> Evidence:
    n, pi = 1000, 0.5
    _, b10 = (float(x) for x in statistical.equal_utility_scales(n, 10, pi))
    _, b100 = (float(x) for x in statistical.equal_utility_scales(n, 100, pi))
    lap10 = float(statistical.noise_delta(epsilon, n, pi, b10, "laplace"))
    lap100 = float(statistical.noise_delta(epsilon, n, pi, b100, "laplace"))
    sub = [float(statistical.subsampling_delta(epsilon, n, mm, pi)) for mm in (10, 100)]
    sub_ref = [mp_delta(epsilon, n, mm, pi) for mm in (10, 100)]
    return all_of(at_most(float(statistical.equal_utility_laplace_epsilon(n, 10, pi)), epsilon, atol=0.0,
                          detail="m = 10: eps_L = 1/(bn) at most eps"),
                  close([lap10, _grid_delta(epsilon, n, pi, b10, "laplace", 1)], [0.0, 0.0], atol=1e-12,
                        detail="m = 10: Laplace delta, privlib and grid integration"),
                  close(sub, sub_ref, rtol=1e-10, atol=0.0, detail="subsampling delta at m = 10 and 100"),
                  close(lap100, _grid_delta(epsilon, n, pi, b100, "laplace", 1), rtol=1e-6, atol=0.0,
                        detail="m = 100: Laplace delta = grid integration"),
                  at_most([lap10, sub[1]], [sub[0], lap100], atol=0.0,
                          detail="m = 10: Laplace below subsampling; m = 100: subsampling below Laplace"))


@erratum_fig8.mutant("statistical.equal_utility_laplace_epsilon", "sqrt(UL) taken as the Laplace scale b")
def _(eps_l):
    return lambda n, m, pi: eps_l(n, m, pi) * np.sqrt(2.0)


@erratum_fig8.mutant("statistical._noise_deltas_plus", "Laplace ratio assumed unbounded (no cliff: Gaussian-style search)")
def _(delta_plus):
    def wrong(eps, n, p, scale, noise):
        return delta_plus(eps, n, p, scale / np.sqrt(2.0) if noise == "laplace" else scale, "gaussian")
    return wrong


# --- illustrations ------------------------------------------------------------------------------

@claim("004/conjecture", item="Section 7 (conjecture)", kind="illustrated",
       statement="Numerical evidence for the open conjecture: subsampling at rate $\\lambda = m/n$ satisfies $\\delta_{SAMP}(\\log(1 + \\lambda(e^\\varepsilon - 1))) \\le \\lambda\\, \\delta_{pure}^{(m)}(\\varepsilon)$, with equality at $\\lambda = 1$.",
       method="definition-level deltas on a grid of n in {10, 50, 150}, every m (step n/10), pi in {0.05, 0.2, 0.5}, eps in {0.01, 0.1, 1}; evidence, not a proof")
def conjecture(seed: int = 0) -> Evidence:
    lhs, rhs = [], []
    for n in (10, 50, 150):
        for m in range(max(1, n // 10), n + 1, max(1, n // 10)):
            lam = m / n
            for pi in (0.05, 0.2, 0.5):
                for eps in (0.01, 0.1, 1.0):
                    lhs.append(float(statistical.subsampling_delta(statistical.amplified_epsilon(eps, lam), n, m, pi)))
                    rhs.append(lam * float(statistical.pure_delta(eps, m, pi)) if m > 1 else lam * 1.0)
    return at_most(lhs, rhs, atol=1e-12)


@claim("004/lemma-1", item="Lemma 1", kind="illustrated",
       statement="Statistical privacy survives post-processing and mixtures: coarsening or randomly re-mapping the output, or mixing two subsampling rates, never raises $\\delta$ above the worse of its parts.",
       method="subsampling laws (n = 200, m = 40, pi = 0.3) pushed through a random column-stochastic matrix and a coarsening, and a 50/50 mixture with m = 80, at 5 epsilons")
def lemma_1(seed: int = 11) -> Evidence:
    rng = np.random.default_rng(seed)
    n, m, pi = 200, 40, 0.3
    from privlib.core import profiles

    log_p, log_q = statistical.subsampling_laws(n, m, pi)
    p, q = np.exp(log_p), np.exp(log_q)
    eps = np.array([0.0, 0.02, 0.05, 0.1, 0.3])
    base = np.maximum(profiles.hockey_stick(p, q, eps), profiles.hockey_stick(q, p, eps))
    g = rng.dirichlet(np.ones(7), size=m + 1)                # random post-processing kernel
    coarse = np.eye(m // 5 + 1)[np.arange(m + 1) // 5]       # bucket j into j // 5
    after = [np.maximum(profiles.hockey_stick(p @ k, q @ k, eps), profiles.hockey_stick(q @ k, p @ k, eps)) for k in (g, coarse)]
    log_p2, log_q2 = statistical.subsampling_laws(n, 2 * m, pi)
    p2, q2 = 0.5 * np.exp(log_p2), 0.5 * np.exp(log_q2)
    # the mixture's output is the sample fraction j/m on a common grid of 2m + 1 values
    p2[::2] += 0.5 * p
    q2[::2] += 0.5 * q
    p2, q2 = p2 / p2.sum(), q2 / q2.sum()
    mix = np.maximum(profiles.hockey_stick(p2, q2, eps), profiles.hockey_stick(q2, p2, eps))
    other = statistical.subsampling_delta(eps, n, 2 * m, pi)
    return at_most(np.r_[after[0], after[1], mix], np.r_[base, base, np.maximum(base, other)], atol=1e-14)
