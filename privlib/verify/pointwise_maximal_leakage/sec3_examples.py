"""Claims of chapter 001, Examples 3.1-3.3."""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb

import mpmath
import numpy as np
from scipy import stats

from privlib.papers import leakage

from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds, reference


@reference
def _exact_cell_masses(n: int, steps: list[int], weights: list[int], lattice: int, cells: int = 10) -> np.ndarray:
    """Cell probabilities of the quantised mean of n draws, from the exact integer coefficients of
    (sum_s w_s z^steps_s)^n (Python integers, no rounding), divided by (sum w)^n at the end."""
    poly = [1]
    base = [0] * (max(steps) + 1)
    for s, w in zip(steps, weights):
        base[s] += w
    for _ in range(n):
        new = [0] * (len(poly) + len(base) - 1)
        for i, a in enumerate(poly):
            if a:
                for j, b in enumerate(base):
                    if b:
                        new[i + j] += a * b
        poly = new
    total = sum(weights) ** n
    masses = [0] * cells
    for t, a in enumerate(poly):
        masses[min(t * cells // (lattice * n), cells - 1)] += a
    return np.array([m / total for m in masses])


@claim("001/ex-3-1", item="Example 3.1",
       statement="The quantised sample mean is a global feature: its min-entropy tends to 0 with n (not "
                 "monotonically), while one row keeps min-entropy $H_\\infty(P)$ for every n.",
       method="exact integer polynomial powers for n = 1, 10, 50, 200 (and a mean on a cell edge; and a support "
              "{0, 2/3} whose sums skip every other lattice point, n = 1 and 5); for n up to 10^7, "
              "Hoeffding's bound -log(1 - 2 exp(-2 n d^2)) with d the distance from the mean to the nearest cell edge; "
              "constant records (a one-point support), whose mean is known: exactly 0")
def ex_3_1() -> Evidence:
    ours, exact = [], []
    for n in (1, 10, 50, 200):
        ours.append(leakage.quantized_mean_min_entropy(n, [0.0, 0.25, 1.0], [0.5, 0.3, 0.2]))
        exact.append(-np.log(_exact_cell_masses(n, [0, 1, 4], [5, 3, 2], 4).max()))
    for n in (10, 100):
        ours.append(leakage.quantized_mean_min_entropy(n, [0.0, 0.5, 1.0], [0.3, 0.4, 0.3]))
        exact.append(-np.log(_exact_cell_masses(n, [0, 1, 2], [3, 4, 3], 2).max()))
    for n in (1, 5):  # support {0, 2/3}: lattice 1/3, sums on even steps only (cells holding no sum)
        ours.append(leakage.quantized_mean_min_entropy(n, [0.0, 2.0 / 3.0], [0.5, 0.5]))
        exact.append(-np.log(_exact_cell_masses(n, [0, 2], [1, 1], 3).max()))
    sizes = np.array([10**3, 10**4, 10**5, 10**7])
    large = [leakage.quantized_mean_min_entropy(int(n), [0.0, 0.25, 1.0], [0.5, 0.3, 0.2]) for n in sizes]
    d = 0.025  # mean 0.275, cell [0.2, 0.3)
    hoeffding = -np.log1p(-np.minimum(2.0 * np.exp(-2.0 * sizes * d**2), 0.999))
    # records that are constant: the mean is known, min-entropy exactly 0 for every n
    constant = [leakage.quantized_mean_min_entropy(n, [0.4], [1.0]) for n in (1, 37, 10**6)]
    return all_of(
        close(ours, exact, rtol=1e-11, detail="min-entropies vs exact integer arithmetic"),
        holds(bool(exact[1] > exact[0]), detail="not monotone: n = 10 above n = 1"),
        at_most(large, hoeffding, atol=1e-12, detail="tends to 0: below Hoeffding's bound at n = 10^3 .. 10^7"),
        close(constant, 0.0, atol=1e-300, rtol=0.0, detail="constant records (support {0.4}): 0 at n = 1, 37, 10^6"))


@ex_3_1.mutant("leakage.quantized_mean_min_entropy", "one draw too many (n + 1)")
def _(f):
    return lambda n, support, probs, cells=10: f(n + 1, support, probs, cells)


@ex_3_1.mutant("leakage.quantized_mean_min_entropy", "cells shifted by one lattice step (ceil instead of floor)")
def _(f):
    def wrong(n, support, probs, cells=10):
        lattice, steps = leakage._lattice(np.asarray(support, dtype=float))
        t, law = leakage._lattice_sum_law(n, steps, np.asarray(probs, dtype=float))
        cell = np.minimum(-((-t * cells) // (lattice * n)), cells - 1)
        return float(-np.log(np.bincount(cell, weights=law, minlength=cells).max()))
    return wrong


@ex_3_1.mutant("leakage._lattice_sum_law", "window of one standard deviation (mass silently lost)")
def _(f):
    def wrong(n, steps, probs):
        t, law = f(n, steps, probs)
        mean, sd = n * (probs @ steps), np.sqrt(n * (probs @ steps**2 - (probs @ steps) ** 2))
        keep = np.abs(t - mean) <= max(sd, 0.5)
        return t[keep], law[keep]
    return wrong


@reference
def _exact_relative_frequencies(n: int, group: float, r_in: float, r_out: float, cells: int) -> float:
    """Min-entropy of the pair of quantised frequencies by enumerating all multinomial counts
    (members with / without the event, others with / without) of n records."""
    probs = [group * r_in, group * (1 - r_in), (1 - group) * r_out, (1 - group) * (1 - r_out)]
    joint: dict[tuple[int, int], float] = {}

    def cell(d: int, m: int) -> int:
        return cells if m == 0 else min(d * cells // m, cells - 1)

    for a in range(n + 1):
        for b in range(n + 1 - a):
            for c in range(n + 1 - a - b):
                d = n - a - b - c
                p = (comb(n, a) * comb(n - a, b) * comb(n - a - b, c)
                     * probs[0] ** a * probs[1] ** b * probs[2] ** c * probs[3] ** d)
                key = (cell(a, a + b), cell(c, c + d))
                joint[key] = joint.get(key, 0.0) + p
    return float(-np.log(max(joint.values())))


@claim("001/ex-3-2", item="Example 3.2",
       statement="The quantised relative frequencies of lung disease among smokers and among non-smokers in an "
                 "i.i.d. database are global features: their joint min-entropy tends to 0 as n grows (rates inside "
                 "quantisation cells), so an insurer learning them learns what the prior already implies.",
       method="privlib's exact mixture over the number of smokers against enumeration of all multinomial count "
              "vectors (n = 1, 5, 12, 25), and against 10^5 simulated databases at n = 2000 (tolerance 5.3 "
              "standard errors: family-wise error 1e-6 over the cells compared); decrease at n = 10^4, 10^5")
def ex_3_2(group: float = 0.3, rate_smokers: float = 0.25, rate_others: float = 0.05, seed: int = 32) -> Evidence:
    cells = 10
    ours = [leakage.relative_frequencies_min_entropy(n, group, rate_smokers, rate_others, cells) for n in (1, 5, 12, 25)]
    exact = [_exact_relative_frequencies(n, group, rate_smokers, rate_others, cells) for n in (1, 5, 12, 25)]
    rng = np.random.default_rng(seed)
    n, draws = 2000, 100_000
    counts = rng.multinomial(n, [group * rate_smokers, group * (1 - rate_smokers),
                                 (1 - group) * rate_others, (1 - group) * (1 - rate_others)], size=draws)
    m_s, m_o = counts[:, 0] + counts[:, 1], counts[:, 2] + counts[:, 3]
    c_s = np.where(m_s > 0, np.minimum(counts[:, 0] * cells // np.maximum(m_s, 1), cells - 1), cells)
    c_o = np.where(m_o > 0, np.minimum(counts[:, 2] * cells // np.maximum(m_o, 1), cells - 1), cells)
    freq = np.bincount(c_s * (cells + 1) + c_o, minlength=(cells + 1) ** 2) / draws
    modal = float(freq.max())
    tol = 5.3 * np.sqrt(modal * (1 - modal) / draws) + 1.0 / draws
    large = [leakage.relative_frequencies_min_entropy(n_, group, rate_smokers, rate_others, cells) for n_ in (n, 10**4, 10**5)]
    return all_of(
        close(ours, exact, rtol=1e-10, detail="vs enumeration of all count vectors"),
        close(np.exp(-large[0]), modal, atol=float(tol), rtol=0.0, detail="modal-cell probability vs simulation at n = 2000"),
        holds(bool(large[0] > large[1] > large[2]), detail="decreasing at n = 2000, 10^4, 10^5"))


@ex_3_2.mutant("leakage.relative_frequencies_min_entropy", "the two rates swapped")
def _(f):
    return lambda n, group, a, b, cells=10: f(n, group, b, a, cells)


@ex_3_2.mutant("leakage.relative_frequencies_min_entropy", "group probability used as 1 - group")
def _(f):
    return lambda n, group, a, b, cells=10: f(n, 1.0 - group, a, b, cells)


@reference
def _exact_threshold_leakages(n_max: int, p: float) -> tuple[list[float], list[float]]:
    """-log P(S <= n/2) and -log P(S > n/2) for S ~ Bin(n, p), n = 1..n_max, in exact integer
    arithmetic on the binary value of p (p = a / D): D^n P(S = k) is an integer, built by the
    recurrence c_n(k) = a c_{n-1}(k - 1) + (D - a) c_{n-1}(k); the larger tail's leakage is
    -log1p(-smaller tail), so both are correctly rounded."""
    a, d = Fraction(p).numerator, Fraction(p).denominator
    row = [1]
    no, yes = [], []
    for n in range(1, n_max + 1):
        row = [(a * row[k - 1] if k > 0 else 0) + ((d - a) * row[k] if k < n else 0) for k in range(n + 1)]
        low, high, total = sum(row[: n // 2 + 1]), sum(row[n // 2 + 1:]), d**n
        small = float(Fraction(min(low, high), total))
        big = -math.log1p(-small)
        tiny = -(math.log(min(low, high)) - n * math.log(d))
        no.append(tiny if low <= high else big)
        yes.append(big if low <= high else tiny)
    return no, yes


@reference
def _deep_threshold_leakages(n: int, p: float) -> tuple[float, float]:
    """-log P(S <= n/2) and -log P(S > n/2) for S ~ Bin(n, p) in 60-digit arithmetic (p's binary
    value, every term of both tails summed; the larger tail's leakage as -log1p(-smaller tail)):
    tails far below the smallest double keep their digits."""
    with mpmath.workdps(60):
        q = mpmath.mpf(p)
        terms, odds = [(1 - q) ** n], q / (1 - q)
        for k in range(1, n + 1):   # P(S = k) = P(S = k - 1) (n - k + 1) / k * p / (1 - p)
            terms.append(terms[-1] * (n - k + 1) / k * odds)
        no, yes = mpmath.fsum(terms[: n // 2 + 1]), mpmath.fsum(terms[n // 2 + 1:])
        small, big = float(-mpmath.log(min(no, yes))), float(-mpmath.log1p(-min(no, yes)))
        return (small, big) if no <= yes else (big, small)


#: (n, p) where one answer's probability is far below 1e-290 (down to e^-1700): the tails that
#: privlib sums in log-space, including the one-term tails P(S = n) of n = 1 and 2
DEEP_TAILS = ((1000, 0.05), (2001, 0.05), (1000, 0.95), (2001, 0.9), (1, 1e-300), (2, 1e-150))


@claim("001/ex-3-3", item="Example 3.3 (Figure 1)",
       statement=r"The exact leakage of either answer to 'more than n/2 of n Bernoulli(p) entries?' is "
                 r"$-\log P(\text{answer})$, and for the typical answer (no for $p < 1/2$, yes for $p > 1/2$) it is at "
                 r"most the Chernoff bound $-\log(1 - (4p(1-p))^{n/2})$.",
       method="exact binomial tails in integer arithmetic on the binary value of p, for n = 1..n_max and "
              "p in {0.05, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 0.95}: privlib's exact leakage of both answers (relative "
              "error 1e-10) and its Chernoff bound above the typical answer's; both answers where one tail is far below "
              "the smallest double (n = 1000 and 2001 at p = 0.05, 0.9, 0.95; n = 1 and 2 at p = 1e-300 and 1e-150) "
              "against every binomial term summed in 60-digit arithmetic; the bound itself, for n up to the figure's curve_n_max, against the formula evaluated in 40-digit arithmetic")
def ex_3_3(n_max: int = 120, curve_n_max: int = 200) -> Evidence:
    exact_typical, bound, ours, exact_both = [], [], [], []
    curve, curve_ref = [], []
    ns = np.arange(1, n_max + 1)
    for p in (0.05, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 0.95):
        no, yes = _exact_threshold_leakages(n_max, p)
        exact_both.extend(np.column_stack([no, yes]).ravel())
        exact_typical.extend(no if p < 0.5 else yes)
        bound.extend(leakage.threshold_query_chernoff_bound(ns, p))
        ours.extend(np.column_stack([leakage.threshold_query_leakage(ns, p, 0),
                                     leakage.threshold_query_leakage(ns, p, 1)]).ravel())
        # Figure 1's curve, up to the figure's n_max, against the formula in 40-digit arithmetic
        curve.extend(leakage.threshold_query_chernoff_bound(np.arange(1, curve_n_max + 1), p))
        with mpmath.workdps(40):
            q = 4 * mpmath.mpf(p) * (1 - mpmath.mpf(p))
            curve_ref.extend(float(-mpmath.log1p(-q ** (mpmath.mpf(k) / 2))) for k in range(1, curve_n_max + 1))
    deep, deep_ref = [], []
    for n, p in DEEP_TAILS:
        deep += [float(leakage.threshold_query_leakage(n, p, 0)), float(leakage.threshold_query_leakage(n, p, 1))]
        deep_ref += _deep_threshold_leakages(n, p)
    return all_of(
        close(ours, exact_both, atol=0.0, rtol=1e-10, detail="exact leakage of both answers"),
        close(deep, deep_ref, atol=1e-300, rtol=1e-10,
              detail="both answers where one has probability far below 1e-290 (leakages up to "
                     f"{max(deep_ref):.0f} nats), against 60-digit sums"),
        at_most(exact_typical, bound, atol=0.0, detail="the typical answer's leakage is below the Chernoff bound"),
        close(curve, curve_ref, atol=0.0, rtol=1e-12, detail="the Chernoff curve of Figure 1, n = 1..curve_n_max, "
                                                              "against the formula in 40-digit arithmetic"))


@ex_3_3.mutant("leakage.threshold_query_chernoff_bound", "exponent n instead of n / 2")
def _(f):
    return lambda n, p: -np.log1p(-(4 * np.asarray(p) * (1 - np.asarray(p))) ** np.asarray(n, dtype=float))


@ex_3_3.mutant("leakage.threshold_query_leakage", "threshold 'at least n/2' instead of 'more than n/2'")
def _(f):
    def wrong(n, p, answer=0):
        n = np.asarray(n, dtype=float)
        k = np.ceil(n / 2.0) - 1
        return -(stats.binom.logsf(k, n, p) if answer == 1 else stats.binom.logcdf(k, n, p))
    return wrong


@ex_3_3.mutant("leakage.threshold_query_leakage", "the 'no' tail from 1 - P(yes) in linear space")
def _(f):
    def wrong(n, p, answer=0):
        n = np.asarray(n, dtype=float)
        tail = stats.binom.sf(np.floor(n / 2.0), n, p)
        return -np.log(tail) if answer == 1 else -np.log(1.0 - tail)
    return wrong


@ex_3_3.mutant("leakage._log_upper_tail", "a tail below 1e-290 taken as its first term only (the window dropped)")
def _(f):
    return lambda m, n, p: float(stats.binom.logpmf(m, n, p)) if m <= n else -np.inf
