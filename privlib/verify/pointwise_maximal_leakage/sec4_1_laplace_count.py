"""Claims of chapter 001, Section 4.1: the Laplace counting query."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np

from privlib.papers import leakage
from privlib.core import mechanisms
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds, reference
from privlib.verify.source_mutants import edit
from privlib.verify.pointwise_maximal_leakage._routes import _databases, _pml_by_hand


def _count_pml_by_enumeration(n: int, theta: float, epsilon: float, y: np.ndarray) -> np.ndarray:
    """l(X_1 -> y) for the Laplace fraction query, summing over all 2^n databases."""
    lap = mechanisms.LaplaceMechanism(epsilon, sensitivity=1.0 / n)
    dbs = _databases(2, n)
    weights = np.prod(np.where(dbs == 1, theta, 1 - theta), axis=1)
    dens = lap.pdf(y[None, :], dbs.mean(axis=1)[:, None])
    a = np.array([(weights[dbs[:, 0] == b, None] * dens[dbs[:, 0] == b]).sum(axis=0) / (theta if b else 1 - theta)
                  for b in (0, 1)])
    return np.log(a.max(axis=0) / (theta * a[1] + (1 - theta) * a[0]))


@claim("001/prop-12", item="Proposition 12",
       statement=r"For the Laplace counting query and priors with predicate probability in $[p, 1-p]$, "
                 r"$\ell(X_i \to y) \le \varepsilon - \log(1 + p(e^\varepsilon - 1))$, attained for outputs beyond 1 "
                 r"at $\theta = p$.",
       method="direct summation over all 2^n databases (n = 8) on a grid of outputs and of theta in [p, 1-p]: "
              "privlib's per-output PML and its supremum over outputs against the sums, and the bound against "
              "their maximum")
def prop_12(n: int = 8, p: float = 0.2, epsilon: float = 1.0) -> Evidence:
    y = np.concatenate([np.linspace(-1.5, 2.5, 161), np.arange(n + 1) / n])
    thetas = np.linspace(p, 1 - p, 13)
    brute = np.array([_count_pml_by_enumeration(n, th, epsilon, y) for th in thetas])
    ours = np.array([leakage.laplace_count_pml(n, th, epsilon, y) for th in thetas])
    return all_of(
        close(ours, brute, atol=1e-12, rtol=1e-10, detail="per-output PML vs enumeration"),
        close(leakage.laplace_count_pml_sup(thetas, epsilon), brute.max(axis=1), atol=1e-12, rtol=1e-10,
              detail="supremum over outputs, for each theta"),
        close(leakage.laplace_count_pml_bound(p, epsilon), brute.max(), atol=1e-10, rtol=0.0,
              detail="the bound equals the largest leakage over theta in [p, 1 - p]"))


@prop_12.mutant("leakage.laplace_count_pml_bound", "the linearisation (1 - p) eps")
def _(f):
    return lambda p, epsilon: (1 - np.asarray(p)) * np.asarray(epsilon)


@prop_12.mutant("leakage.laplace_count_pml_bound", "1 - p in place of p")
def _(f):
    return lambda p, epsilon: f(1 - np.asarray(p), epsilon) if np.all(np.asarray(p) >= 0.5) else \
        np.asarray(epsilon) - np.log1p((1 - np.asarray(p)) * np.expm1(np.asarray(epsilon)))


@prop_12.mutant("leakage.laplace_count_pml", "noise scale 1 / eps instead of 1 / (n eps) (rate for scale)")
def _(f):
    return lambda n, theta, epsilon, y: f(n, theta, epsilon / n, y)


@prop_12.mutant("leakage.laplace_count_pml_sup", "only the right tail")
def _(f):
    return lambda theta, epsilon: np.asarray(epsilon) - np.log1p(np.asarray(theta) * np.expm1(np.asarray(epsilon)))


@reference
def _budget_bound(epsilon: float, p: float) -> float:
    """Proposition 12's bound eps - log(1 + p (e^eps - 1)) at a given DP parameter, in 50-digit
    arithmetic (the forward direction of the calibration)."""
    with mpmath.workdps(50):
        e = mpmath.mpf(epsilon)
        return float(e - mpmath.log1p(mpmath.mpf(p) * mpmath.expm1(e)))


def _rr_matrix(epsilon: float, k: int) -> np.ndarray:
    """k-ary randomized response by hand: keep the letter with probability e^eps / (e^eps + k - 1)."""
    keep = 1.0 / (1.0 + (k - 1) * np.exp(-epsilon))
    return np.where(np.eye(k, dtype=bool), keep, (1.0 - keep) / (k - 1))


@claim("001/pml-budget", item="Section 3.3 and Proposition 12 read backwards (calibration to a PML target)",
       statement=r"The largest DP parameter whose leakage stays at most a target $\varepsilon_P$ is, for the Laplace "
                 r"counting query with predicate probability in $[p, 1-p]$, the inverse of Proposition 12's bound "
                 r"($\infty$ once $\varepsilon_P \ge -\log p$), and for $k$-ary randomized response under a prior the "
                 r"same function of $p_{\min}$; a one-parameter family of mechanisms is calibrated by bisection to "
                 r"its largest parameter within the budget.",
       method="the Laplace budget put back into the bound in 50-digit arithmetic, on targets from 1e-10 to just below "
              "-log p and beyond; at the chapter's target, the PML of the Laplace count at that budget by summation "
              "over all 2^6 databases (theta in [p, 1 - p], outputs in and beyond [0, 1]): its largest value equals "
              "the target; randomized response (4 letters: three random priors and (0.4, 0.3, 0.2, 0.1)) at the "
              "calibrated parameter, PML by hand from the joint table: equal to the target, and above it at 1 + 1e-6 "
              "times that parameter; the bisection on the randomized-response family against the same, plus its two ends (a "
              "budget met exactly at the lower end, a budget above the upper end's leakage)")
def pml_budget(p: float = 0.2, pml_target: float = 0.4, seed: int = 12) -> Evidence:
    rng = np.random.default_rng(seed)
    clear = -np.log(p)
    targets = np.r_[1e-10, 1e-4, np.linspace(0.01, 0.99, 9) * clear, clear * (1 - 1e-9), clear, 2 * clear, pml_target]
    budgets = leakage.dp_budget_for_pml(targets, p)
    finite = np.isfinite(budgets)
    forward = [_budget_bound(b, p) for b in budgets[finite]]
    # the budget's meaning: the Laplace count at that DP parameter leaks exactly the target at most
    budget = float(leakage.dp_budget_for_pml(pml_target, p))
    y = np.r_[np.linspace(-0.5, 1.5, 41), 2.5]
    if np.isfinite(budget):
        count_sup = max(_count_pml_by_enumeration(6, th, budget, y).max() for th in np.linspace(p, 1 - p, 5))
    else:  # no noise at all: the exact count leaks -log P(entry) <= -log p, within the target
        count_sup = min(clear, pml_target)
    # randomized response: privlib's closed form and privlib's bisection, each checked by hand
    rr_leak, rr_target, rr_over, rr_inf = [], [], [], []
    priors = [rng.dirichlet(np.ones(4)) for _ in range(3)] + [np.array([0.4, 0.3, 0.2, 0.1])]
    for prior in priors:
        for target in [t for t in (1e-3, 0.3, pml_target, 0.9 * -np.log(prior.min())) if t < -np.log(prior.min())]:
            for eps in (float(leakage.randomized_response_epsilon_for_pml(target, prior)),
                        leakage.calibrate_to_pml(lambda t: _rr_matrix(t, 4), prior, target, 1e-9, 40.0)):
                rr_leak.append(_pml_by_hand(prior, _rr_matrix(eps, 4)).max())
                rr_target.append(target)
                rr_over.append(_pml_by_hand(prior, _rr_matrix(eps * (1 + 1e-6), 4)).max() - target)
        rr_inf.append(float(leakage.randomized_response_epsilon_for_pml(-np.log(prior.min()), prior)))
    prior = priors[-1]
    at_low = float(leakage.pml_sup(prior, _rr_matrix(0.5, 4)))   # a budget met exactly at the lower end
    ends = [leakage.calibrate_to_pml(lambda t: _rr_matrix(t, 4), prior, at_low, 0.5, 3.0),
            leakage.calibrate_to_pml(lambda t: _rr_matrix(t, 4), prior, 2.0, 0.5, 3.0)]
    high_leak = _pml_by_hand(prior, _rr_matrix(3.0, 4)).max()
    return all_of(
        close(forward, targets[finite], atol=0.0, rtol=1e-12,
              detail="the Laplace budget put back into Proposition 12's bound (50 digits) gives the target"),
        holds(bool((finite == (targets < clear)).all()), observed=int(finite.sum()), reference=int((targets < clear).sum()),
              detail="finite exactly below -log p (no noise needed from there on)"),
        # by hand, a leakage is the log of a ratio of sums: an absolute error of a few 1e-16
        close(count_sup, min(pml_target, clear), atol=1e-13, rtol=1e-10,
              detail="at the chapter's target: the largest PML of the Laplace count at that budget (2^6 databases)"),
        close(rr_leak, rr_target, atol=1e-13, rtol=1e-9,
              detail="randomized response at the calibrated parameter (closed form and bisection) leaks the target"),
        at_most(0.0, np.min(rr_over), atol=0.0, detail="and above it at 1 + 1e-6 times that parameter: the largest"),
        holds(bool(np.isinf(rr_inf).all()), detail="randomized response needs no noise at the target -log p_min"),
        close(ends, [0.5, 3.0], atol=0.0, rtol=1e-13,
              detail="bisection's ends: a budget met exactly at the lower end, and one above the upper end's leakage"),
        at_most(high_leak, 2.0, atol=0.0, detail="the upper end's leakage (by hand) is within that budget of 2"))


@pml_budget.mutant("leakage.dp_budget_for_pml", "no noise needed from -log(1 - p) on instead of -log p")
def _(f):
    return edit("inside = t < -np.log(p)", "inside = t < -np.log1p(-p)")(f)


@pml_budget.mutant("leakage.dp_budget_for_pml", "near -log p: the log(1 - p) term dropped")
def _(f):
    return edit("near = t + np.log1p(-p) - ", "near = t - ")(f)


@pml_budget.mutant("leakage.randomized_response_epsilon_for_pml", "p_max in place of p_min")
def _(f):
    return edit("prior.min(axis=-1))", "prior.max(axis=-1))")(f)


@pml_budget.mutant("leakage.calibrate_to_pml", "a lower end that meets the budget exactly is refused")
def _(f):
    return edit("if excess(lo) > 0:", "if excess(lo) >= 0:")(f)


@pml_budget.mutant("leakage.calibrate_to_pml", "bisection stopped at a tolerance of 1e-4")
def _(f):
    return edit("xtol=1e-14, rtol=4 * np.finfo(float).eps", "xtol=1e-4")(f)


@reference
def _count_pml_full_sum(n: int, theta: float, epsilon: float, y: float, dps: int = 40) -> float:
    """l(X_1 -> y) for the Laplace fraction query by summing both mixtures over every count
    k = 0 .. n - 1 in ``dps``-digit arithmetic (binomial weights by the exact ratio of consecutive
    terms; every factor e^{-eps |n y - k - z|} taken relative to the smallest distance, so that
    epsilon may be as large as the largest double)."""
    with mpmath.workdps(dps):
        th, e, ny = mpmath.mpf(theta), mpmath.mpf(epsilon), mpmath.mpf(n) * mpmath.mpf(y)
        odds = th / (1 - th)
        dist = [[abs(ny - k - z) for k in range(n)] for z in (0, 1)]
        near = min(min(d) for d in dist)
        weight, a = mpmath.mpf(1), [mpmath.mpf(0), mpmath.mpf(0)]
        for k in range(n):
            for z in (0, 1):
                a[z] += weight * mpmath.exp(-e * (dist[z][k] - near))
            weight *= (n - 1 - k) * odds / (k + 1)
        return float(mpmath.log(max(a) / (th * a[1] + (1 - th) * a[0])))


@reference
def _count_pml_peak_walk(n: int, theta: float, epsilon: float, y: float) -> float:
    """The same for large n: the summand P(k) e^{-eps |n y - k - z|} is log-concave in k, so both
    mixtures are summed (30 digits) from its peak outwards until a term falls below 1e-40 of the
    peak's."""
    m = n - 1
    with mpmath.workdps(30):
        th, e, ny = mpmath.mpf(theta), mpmath.mpf(epsilon), mpmath.mpf(n) * mpmath.mpf(y)
        odds = th / (1 - th)
        # the peak: at n y unless a tilted mean m theta e^{+-eps} / (1 - theta + theta e^{+-eps}) is nearer the mode
        tilts = [th * mpmath.exp(s) / (1 - th + th * mpmath.exp(s)) for s in (e, -e)]
        k0 = int(min(max(sorted([m * tilts[0], m * tilts[1], ny - 1])[1], 0), m))
        log_p0 = (mpmath.loggamma(m + 1) - mpmath.loggamma(k0 + 1) - mpmath.loggamma(m - k0 + 1)
                  + k0 * mpmath.log(th) + (m - k0) * mpmath.log1p(-th))
        p0 = mpmath.exp(log_p0 - mpmath.floor(log_p0))  # a common factor: only ratios matter
        a = [mpmath.mpf(0), mpmath.mpf(0)]
        for step in (1, -1):
            k, pk, top = (k0, p0, mpmath.mpf(0)) if step == 1 else (k0 - 1, p0 * k0 / ((m - k0 + 1) * odds), mpmath.mpf(0))
            while 0 <= k <= m:
                terms = [pk * mpmath.exp(-e * abs(ny - k - z)) for z in (0, 1)]
                a[0], a[1] = a[0] + terms[0], a[1] + terms[1]
                top = max(top, terms[1])
                if terms[1] < top * mpmath.mpf(10) ** -40:
                    break
                pk = pk * (m - k) * odds / (k + 1) if step == 1 else pk * k / ((m - k + 1) * odds)
                k += step
        return float(mpmath.log(max(a) / (th * a[1] + (1 - th) * a[0])))


@reference
def _count_pml_limit(n: int, theta: float, y: float) -> float:
    """The limit of l(X_1 -> y) as epsilon -> infinity, in exact rationals: only the counts k + z
    nearest to n y remain in the mixtures."""
    th, ny = Fraction(theta), Fraction(float(n * y))
    pmf = [Fraction(math.comb(n - 1, k)) * th ** k * (1 - th) ** (n - 1 - k) for k in range(n)]
    dist = [[abs(ny - (k + z)) for k in range(n)] for z in (0, 1)]
    nearest = min(min(d) for d in dist)
    a = [sum(pmf[k] for k in range(n) if dist[z][k] == nearest) for z in (0, 1)]
    return math.log(max(a) / (th * a[1] + (1 - th) * a[0]))


@claim("001/laplace-count-extremes", item="Proposition 12's set-up, beyond the chapter's range",
       statement=r"Beyond the chapter's parameters, the per-output PML of the Laplace counting query stays exact: "
                 r"at $n = 10^6$ for outputs between the two tilted means, where each tilted binomial tail is "
                 r"below $10^{-290}$, and at $n = 4000$ where those tails' continued fractions are short; for outputs "
                 r"beyond a tilted mean, where its binomial mass underflows, and near it; to its own relative "
                 r"precision at $\varepsilon = 10^{-9}$; for outputs beyond $[0, 1]$ up to the largest double; and at "
                 r"$\varepsilon$ above 700 up to the largest double, where it tends to $-\log\theta$ or "
                 r"$-\log(1-\theta)$ by the count nearest to $n y$.",
       method="n = 10^6, theta = 0.3, epsilon = 0.5, outputs 0.25, 0.3, 0.35 (n y not a whole number): both mixtures "
              "summed in 30 digits from the summand's peak outwards; n = 4000, epsilon = 0.5, outputs 0.002 and 0.9 "
              "(beyond a tilted mean: that tilted mass below 1e-290) and 0.43 (2 standard deviations beyond it: the "
              "other parts still count), theta = 1e-200, epsilon = 400, n y - 1 from 12.5 to 31.5 (beyond the tilted "
              "mean, e^{2 eps} = 1e347), and theta = 0.9, epsilon = 3, outputs 0.6, 0.85, 0.97 (between the tilted "
              "means, tails whose continued fractions have a = m - k down to 118): both mixtures summed over all "
              "4000 counts in 30 digits; n = 4000, epsilon = 1e-9, outputs 0.25, 0.29, 0.31, 0.35 (leakage about "
              "1e-10, checked relative to itself): the same sums in 40 digits; n = 10^12, outputs -1.8e308, -0.5, 1.5 "
              "and 1.8e308 at (theta, epsilon) = (0.3, 1), (1 - 2^-50, 3), (1 - 2^-50, 30): Proposition 12's tail values "
              "in 50 digits, relative to themselves; "
              "n = 40, epsilon = 800 and 5000, ten outputs in and beyond [0, 1]: the same full sum in 60 digits; "
              "epsilon = 1e300 and the largest double: the limit in exact rationals")
def laplace_count_extremes(theta: float = 0.3) -> Evidence:
    far = np.array([0.25 + 2.0**-22, 0.3 + 2.0**-22, 0.35 + 2.0**-21])   # n y exact in binary, not whole
    far_ref = [_count_pml_peak_walk(10**6, theta, 0.5, y) for y in far]
    beyond = np.array([0.002 + 2.0**-14, 0.43 + 2.0**-12, 0.9 + 2.0**-12])
    beyond_ref = [_count_pml_full_sum(4000, theta, 0.5, y, dps=30) for y in beyond]
    rare = (np.array([11.0, 12.0, 14.0, 16.0, 30.0]) + 1.5) / 4000   # counts beyond the tilted mean at epsilon = 400
    rare_ref = [_count_pml_full_sum(4000, 1e-200, 400.0, y, dps=30) for y in rare]
    short = np.array([0.6, 0.85, 0.97]) + 2.0**-13                    # both tails by continued fractions with small m - k
    short_ref = [_count_pml_full_sum(4000, 0.9, 3.0, y, dps=30) for y in short]
    faint = np.array([0.25, 0.29, 0.31, 0.35]) + 2.0**-13             # epsilon = 1e-9: the leakage about 1e-10
    faint_ref = [_count_pml_full_sum(4000, theta, 1e-9, y, dps=40) for y in faint]
    # outside [0, 1] every count is on one side: the tail values of Proposition 12 (theta near 1:
    # a leakage of 1e-15 above 1, relative to itself), up to the largest double
    outside = np.array([-np.finfo(float).max, -0.5, 1.5, np.finfo(float).max])
    tails = [(theta, 1.0), (1.0 - 2.0**-50, 3.0), (1.0 - 2.0**-50, 30.0)]
    outside_got = [leakage.laplace_count_pml(10**12, th, eps, outside) for th, eps in tails]
    outside_ref = [[_budget_bound(eps, 1.0 - th)] * 2 + [_budget_bound(eps, th)] * 2 for th, eps in tails]
    ys = np.array([-0.3, 0.0, 0.01, 0.3125, 0.33, 0.5, 0.9, 0.97, 1.0, 1.2])
    log_space = [leakage.laplace_count_pml(40, theta, eps, ys) for eps in (800.0, 5000.0)]
    log_space_ref = [[_count_pml_full_sum(40, theta, eps, y, dps=60) for y in ys] for eps in (800.0, 5000.0)]
    limit = [leakage.laplace_count_pml(40, theta, eps, ys) for eps in (1e300, np.finfo(float).max)]
    limit_ref = [_count_pml_limit(40, theta, y) for y in ys]
    # tolerances: each tilted tail ratio carries ~1e-14 relative error (continued fraction, betainc),
    # which enters the leakage as an absolute error of that order; the log-space parts ~1e-15
    return all_of(
        close(leakage.laplace_count_pml(10**6, theta, 0.5, far), far_ref, atol=1e-13, rtol=1e-12,
              detail="n = 10^6 between the tilted means (both tilted tails below 1e-290: the continued fraction)"),
        close(leakage.laplace_count_pml(4000, theta, 0.5, beyond), beyond_ref, atol=1e-13, rtol=1e-12,
              detail="n = 4000: outputs beyond a tilted mean (its binomial mass below 1e-290), on both sides, and near it"),
        close(leakage.laplace_count_pml(4000, 1e-200, 400.0, rare), rare_ref, atol=1e-13, rtol=1e-12,
              detail="n = 4000, theta = 1e-200, epsilon = 400: counts beyond the tilted mean"),
        close(leakage.laplace_count_pml(4000, 0.9, 3.0, short), short_ref, atol=1e-13, rtol=1e-12,
              detail="n = 4000, theta = 0.9, epsilon = 3: between the tilted means, short continued fractions"),
        close(leakage.laplace_count_pml(4000, theta, 1e-9, faint), faint_ref, atol=0.0, rtol=1e-12,
              detail="n = 4000, epsilon = 1e-9: relative accuracy on either side of A_0 = A_1 (the log1p forms)"),
        close(outside_got, outside_ref, atol=0.0, rtol=1e-12,
              detail="n = 10^12, outputs beyond [0, 1] up to the largest double: the tail values (theta = 0.3, 1 - 2^-50)"),
        close(log_space, log_space_ref, atol=1e-14, rtol=1e-12,
              detail="epsilon = 800 and 5000 (log-space), against the full sum"),
        close(limit, [limit_ref, limit_ref], atol=1e-15, rtol=1e-12,
              detail="epsilon = 1e300 and the largest double, against the limit (exact rationals)"))


@laplace_count_extremes.mutant("leakage._log_binomial_mills", "continued fraction: the prefactor q for p")
def _(f):
    return edit("out[deep] = np.log(p[deep]) - np.log(g)", "out[deep] = np.log(q[deep]) - np.log(g)")(f)


@laplace_count_extremes.mutant("leakage._log_binomial_mills", "continued fraction: even partial numerators i (b + i)")
def _(f):
    return edit("terms[1::2] = i * (b - i) * x", "terms[1::2] = i * (b + i) * x")(f)


@laplace_count_extremes.mutant("leakage.laplace_count_pml", "a part beyond its tilted mean stands alone at any exponent (no margin)")
def _(f):
    return edit("(exponent >= 80.0)", "(exponent >= 0.0)")(f)


@laplace_count_extremes.mutant("leakage.laplace_count_pml", "A_1 >= A_0: always -log(theta + (1 - theta) A_0/A_1), never its log1p form")
def _(f):
    return edit("right_l = np.where(right_small < 0.5,", "right_l = np.where(False,")(f)


@laplace_count_extremes.mutant("leakage.laplace_count_pml", "A_1 >= A_0: the log1p form chosen by D/A_1 < 1/2, not by its argument")
def _(f):
    return edit("right_l = np.where(right_small < 0.5,", "right_l = np.where(np.clip(ratio, 0.0, None) < 0.5,")(f)


@laplace_count_extremes.mutant("leakage.laplace_count_pml", "the linear-space route kept up to epsilon = 7000 (e^eps overflows)")
def _(f):
    return edit("if eps > 700.0:", "if eps > 7000.0:")(f)


@laplace_count_extremes.mutant("leakage._laplace_count_pml_log_space", "log-space: the middle part left out")
def _(f):
    return edit("mid = np.where(has_mid, 0.0, -np.inf)", "mid = np.full(f.shape, -np.inf)")(f)


@laplace_count_extremes.mutant("leakage._laplace_count_pml_log_space",
                               "log-space: coefficients multiplied by epsilon before they are subtracted")
def _(f):
    return edit("a0 = np.logaddexp(a0, offset - eps * (c0 - ref))", "a0 = np.logaddexp(a0, offset - eps * c0 + eps * ref)")(f)
