"""Claims of chapter 000, Section 5: frequentist limits."""

from __future__ import annotations

import numpy as np
from scipy import integrate, optimize, stats

from privlib.papers import intervals

from privlib.verify.claims import Evidence, all_of, at_most, claim, close
from privlib.verify.inferential_limits._routes import (
    _cube,
    _hamming,
    _lp_power,
    _rr_product,
    _scaled_diameter,
)




def _testing_instances(rng: np.random.Generator, n: int, eps: float, models: int):
    """Output laws of pairs of hypotheses under randomized response on n bits: point masses at
    distance d = 1..n from all-zeros, and random data models on random sets of datasets, each with
    the diameter d of the datasets the two hypotheses charge."""
    P = _rr_product(n, eps)
    x = _cube(n)
    dist = _hamming(x)
    out = [(P[0], P[2**d - 1], d, True) for d in range(1, n + 1)]       # 0^n against 0..01..1 (d ones)
    for _ in range(models):
        support = rng.choice(2**n, size=rng.integers(2, 5), replace=False)
        cut = rng.integers(1, support.size)
        w0 = np.zeros(2**n)
        w1 = np.zeros(2**n)
        w0[support[:cut]] = rng.dirichlet(np.ones(cut))
        w1[support[cut:]] = rng.dirichlet(np.ones(support.size - cut))
        out.append((w0 @ P, w1 @ P, float(dist[np.ix_(support, support)].max()), False))
    return out


@claim("000/thm-5-1", item="Theorem 5.1",
       statement="Every level-$\\alpha$ test on an $\\varepsilon$-DP release has power at most $\\alpha e^{\\varepsilon d}$, and every size-$\\alpha$ test at least $\\alpha e^{-\\varepsilon d}$ (Corollary 5.3), $d$ the diameter of the datasets the hypotheses charge; for point-mass hypotheses at distance $d$ and small $\\alpha$ both are attained.",
       method="randomized response on 3 bits (Hamming, $d$ = 1, 2, 3): the most and least powerful randomized tests by linear programming (scipy HiGHS) for point-mass hypotheses and 20 random pairs of data models, on a grid of $\\alpha$; privlib's Neyman-Pearson powers and randomized tests (their size and power) against the same programs")
def thm_5_1(seed: int = 3, epsilon: float = 0.8) -> Evidence:
    rng = np.random.default_rng(seed)
    most, least, high, low, np_ours, np_lp, attained, bound_at, sizes = [], [], [], [], [], [], [], [], []
    for null, alt, d, point in _testing_instances(rng, 3, epsilon, 20):
        for alpha in (0.01, 0.05, 0.2, 0.5, 0.8):
            best, worst = _lp_power(null, alt, alpha, False), _lp_power(null, alt, alpha, True)
            lo, hi = intervals.power_bounds(alpha, epsilon, d)
            most.append(best)
            high.append(float(hi))
            least.append(worst)
            low.append(float(lo))
            tests = [intervals.neyman_pearson_test(null, alt, alpha), intervals.neyman_pearson_test(null, alt, alpha, minimize=True)]
            np_ours += [float(intervals.neyman_pearson_power(null, alt, alpha)),
                        float(intervals.neyman_pearson_power(null, alt, alpha, minimize=True)),
                        float(alt @ tests[0]), float(alt @ tests[1])]
            np_lp += [best, worst, best, worst]
            sizes += [float(null @ tests[0]), float(null @ tests[1])]
        if point:                                    # alpha below the mass of the most telling output
            alpha = 0.5 * float(null[2**d - 1])
            attained += [_lp_power(null, alt, alpha, False), _lp_power(null, alt, alpha, True)]
            bound_at += [float(b) for b in intervals.power_bounds(alpha, epsilon, d)[::-1]]
    return all_of(close(np_ours, np_lp, atol=1e-9,
                        detail="Neyman-Pearson powers and the powers of the returned tests (most and least) against the linear programs"),
                  close(sizes, np.repeat([0.01, 0.05, 0.2, 0.5, 0.8], 2).tolist() * (len(sizes) // 10), atol=1e-12,
                        detail="the returned randomized tests have size exactly alpha"),
                  at_most(most, high, atol=1e-9, detail="most powerful level-alpha test against alpha e^{eps d}"),
                  at_most(low, least, atol=1e-9, detail="alpha e^{-eps d} against the least powerful size-alpha test"),
                  close(attained, bound_at, rtol=1e-7, detail="point masses at distance d attain both bounds at small alpha"))


thm_5_1.mutant("intervals.power_bounds", "the diameter d dropped (e^{eps} in place of e^{eps d})")(_scaled_diameter(1.0, fixed=1.0))


thm_5_1.mutant("intervals.power_bounds", "e^{2 eps d} (the chained bound) in place of e^{eps d}")(_scaled_diameter(2.0))


@thm_5_1.mutant("intervals.neyman_pearson_test", "the boundary output not randomized (rejected only where the whole output fits)")
def _(function):
    return lambda null, alt, alpha, *, minimize=False: np.floor(function(null, alt, alpha, minimize=minimize))


@thm_5_1.mutant("intervals.neyman_pearson_power", "least power taken as one minus the most power at the same alpha")
def _(function):
    return lambda null, alt, alpha, minimize=False: (1.0 - function(null, alt, alpha)) if minimize else function(null, alt, alpha)


def _laplace_np_by_quadrature(alpha: float, eps: float, shift: float, minimize: bool) -> float:
    """The Neyman-Pearson power of Lap(0, 1/eps) against Lap(shift, 1/eps): the threshold c with
    P0(reject) = alpha by root finding on scipy's Laplace distribution function, then the power
    by adaptive quadrature of the alternative's density over the rejection region."""
    null = stats.laplace(scale=1.0 / eps)
    p1 = stats.laplace(loc=shift, scale=1.0 / eps).pdf
    size = (lambda c: null.cdf(c) - alpha) if minimize else (lambda c: null.sf(c) - alpha)
    c = optimize.brentq(size, -60.0 / eps, 60.0 / eps + shift, xtol=1e-14, rtol=1e-14)
    pieces = ([-np.inf] + ([shift] if shift < c else []) + [c]) if minimize else ([c] + ([shift] if shift > c else []) + [np.inf])
    return sum(integrate.quad(p1, a, b, epsabs=1e-14, epsrel=1e-12, limit=200)[0] for a, b in zip(pieces[:-1], pieces[1:]))


@claim("000/cor-5-3", item="Corollary 5.3 (eq. (10)) and the sharp testing region",
       statement="Applying Theorem 5.1 to $1 - \\varphi$ as well, a size-$\\alpha$ test has power in $[\\max(\\alpha e^{-\\varepsilon d}, 1 - e^{\\varepsilon d}(1-\\alpha)),\\ \\min(\\alpha e^{\\varepsilon d}, 1 - e^{-\\varepsilon d}(1-\\alpha))]$; binary randomized response attains the whole boundary; the Laplace mechanism's most powerful test attains $\\alpha e^{\\varepsilon d}$ for $\\alpha \\le e^{-\\varepsilon d}/2$ and the complementary line for $\\alpha \\ge 1/2$, its least powerful test $\\alpha e^{-\\varepsilon d}$ for $\\alpha \\le 1/2$.",
       method="linear programs over randomized tests (scipy HiGHS) for randomized response on 3 bits with point-mass and random data models, and on one bit; the Laplace tests by quadrature of the alternative over the rejection region, its threshold found by root finding on scipy's Laplace distribution function (quad, brentq); privlib's grid version for continuous outputs against the closed form")
def cor_5_3(seed: int = 15, epsilon: float = 0.8, shift: float = 3.0) -> Evidence:
    rng = np.random.default_rng(seed)
    alphas = np.array([0.01, 0.05, 0.2, 0.5, 0.8, 0.95])
    most, least, high, low = [], [], [], []
    for null, alt, d, _ in _testing_instances(rng, 3, epsilon, 10):
        lo, hi = intervals.power_bounds(alphas, epsilon, d, sharp=True)
        most += [_lp_power(null, alt, a, False) for a in alphas]
        least += [_lp_power(null, alt, a, True) for a in alphas]
        high += list(hi)
        low += list(lo)
    rr = _rr_product(1, epsilon)
    lo, hi = intervals.power_bounds(alphas, epsilon, 1.0, sharp=True)
    rr_powers = [_lp_power(rr[0], rr[1], a, False) for a in alphas] + [_lp_power(rr[0], rr[1], a, True) for a in alphas]
    r = epsilon * shift
    lap_alphas = np.array([0.15, 0.5, 0.75]) * np.exp(-r)
    lap_alphas = np.r_[lap_alphas, 0.3, 0.5, 0.7, 1.0 - 0.4 * np.exp(-r)]
    quad_most = [_laplace_np_by_quadrature(a, epsilon, shift, False) for a in lap_alphas]
    quad_least = [_laplace_np_by_quadrature(a, epsilon, shift, True) for a in lap_alphas]
    ours_most = intervals.laplace_power(lap_alphas, epsilon, shift)
    ours_least = intervals.laplace_power(lap_alphas, epsilon, shift, minimize=True)
    s_lo, s_hi = intervals.power_bounds(lap_alphas, epsilon, shift, sharp=True)
    most_on = (lap_alphas <= 0.5 * np.exp(-r)) | (lap_alphas >= 0.5)          # where Section 9 puts them on a line
    least_on = (lap_alphas <= 0.5) | (1.0 - lap_alphas <= 0.5 * np.exp(-r))
    on_line = np.r_[ours_most[most_on], ours_least[least_on]]
    line = np.r_[s_hi[most_on], s_lo[least_on]]
    # an uneven grid of outputs, finer between the two centres
    grid = np.unique(np.r_[np.linspace(-18.0 / epsilon, -2.0, 3001), np.linspace(-2.0, shift + 2.0, 30001),
                           np.linspace(shift + 2.0, shift + 18.0 / epsilon, 3001)])
    lap0, lap1 = stats.laplace(scale=1 / epsilon).pdf(grid), stats.laplace(loc=shift, scale=1 / epsilon).pdf(grid)
    on_grid = np.r_[intervals.density_power(grid, lap0, lap1, lap_alphas), intervals.density_power(grid, lap0, lap1, lap_alphas, minimize=True)]
    return all_of(at_most(most, high, atol=1e-9, detail="most powerful tests inside the sharp region (3-bit randomized response)"),
                  at_most(low, least, atol=1e-9, detail="least powerful tests inside the sharp region"),
                  close(rr_powers, np.r_[hi, lo], atol=1e-9, detail="binary randomized response attains the boundary"),
                  close(np.r_[ours_most, ours_least], np.r_[quad_most, quad_least], rtol=1e-8, atol=1e-12,
                        detail="Laplace Neyman-Pearson powers against quadrature"),
                  close(on_line, line, rtol=1e-12, detail="the Laplace tests on the region's lines (Section 9)"),
                  close(on_grid, np.r_[quad_most, quad_least], atol=2e-6, detail="the grid version for continuous outputs against quadrature"))


@cor_5_3.mutant("intervals.power_bounds", "complementary lower line 1 - e^{-eps d}(1 - alpha)")
def _(function):
    def wrong(alpha, epsilon, diameter, sharp=False):
        lo, hi = function(alpha, epsilon, diameter, False)
        if sharp:
            a = np.asarray(alpha, float)
            lo = np.maximum(lo, 1 - np.exp(-epsilon * diameter) * (1 - a))
            hi = np.minimum(hi, 1 - np.exp(-epsilon * diameter) * (1 - a))
        return lo, hi
    return wrong


@cor_5_3.mutant("intervals.laplace_power", "paper's line kept up to alpha = e^{-r} instead of e^{-r}/2")
def _(function):
    def wrong(alpha, epsilon, shift=1.0, sensitivity=1.0, *, minimize=False):
        a = np.asarray(alpha, float)
        r = epsilon * shift / sensitivity
        out = function(alpha, epsilon, shift, sensitivity, minimize=minimize)
        return out if minimize else np.where(a <= np.exp(-r), np.minimum(a * np.exp(r), 1.0), out)
    return wrong


@cor_5_3.mutant("intervals.laplace_power", "least powerful test as alpha e^{-r} for every alpha")
def _(function):
    def wrong(alpha, epsilon, shift=1.0, sensitivity=1.0, *, minimize=False):
        if minimize:
            return np.asarray(alpha, float) * np.exp(-epsilon * shift / sensitivity)
        return function(alpha, epsilon, shift, sensitivity)
    return wrong


@cor_5_3.mutant("intervals.density_power", "density values used as cell masses (the cell widths dropped)")
def _(function):
    def wrong(t, null, alt, alpha, *, minimize=False):
        null, alt = np.asarray(null, float)[:-1], np.asarray(alt, float)[:-1]
        return intervals.neyman_pearson_power(null / null.sum(), alt / alt.sum(), alpha, minimize=minimize)
    return wrong


@cor_5_3.mutant("intervals.density_power", "the minimize flag ignored (most powerful test returned)")
def _(function):
    return lambda t, null, alt, alpha, *, minimize=False: function(t, null, alt, alpha)
