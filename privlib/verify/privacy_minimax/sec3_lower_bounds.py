"""Claims of chapter 002, Section 3: lower bounds."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
from scipy import integrate, optimize, special, stats

from privlib.papers import minimax as mm

from privlib.verify.claims import Evidence, all_of, at_most, claim, close, early, holds, reference
from privlib.verify.source_mutants import edit
from privlib.verify.privacy_minimax._routes import (
    _marginal_by_loop,
    _shifted_uniform_le_cam,
    _subsample_le_cam,
    _random_channel,
    _samples,
    _subsets,
    _tv,
)


@reference
def _posterior_plus(n: int, eta: float) -> tuple[np.ndarray, np.ndarray]:
    """Counts ``j`` of ``+r`` records and their probability under the uniform mixture of
    ``P_+`` and ``P_-`` (each record ``+r`` w.p. ``(1 +- eta)/2``), with the posterior of ``+``."""
    j = np.arange(n + 1)
    up, down = stats.binom.pmf(j, n, (1 + eta) / 2), stats.binom.pmf(j, n, (1 - eta) / 2)
    with np.errstate(invalid="ignore"):
        return 0.5 * (up + down), np.where(up + down > 0, up / (up + down), 0.5)


@claim("002/eq10-reduction", item="Eq. (10) (estimation to testing)",
       statement="For a $2\\delta$-packing, the minimax risk is at least $\\Phi(\\delta) \\inf_\\psi P(\\psi \\ne V)$. On the two-point packing $P_\\pm$ of Proposition 2 ($\\delta = \\eta r$, squared loss) the Bayes risk of the posterior-mean estimator, and the risk of the sample mean, are at least $(\\eta r)^2 (1 - TV)/2$; so is privlib's non-private lower bound.",
       method="exact Bayes risk $(\\eta r)^2 E[4\\pi(1-\\pi)]$ and exact risk of the sample mean by summing over the binomial count, for $n$ in 1..200 and $\\eta$ on a grid; the smallest testing error from privlib's binomial TV; privlib's bound (maximum over $\\eta$) against the largest Bayes risk",
       checks=("minimax.binomial_tv", "minimax.lower_bound_nonprivate_mean"))
def eq10_reduction(r: float = 1.0) -> Evidence:
    bayes, mean_risk, reduction, bound, best_bayes = [], [], [], [], []
    for n in (1, 2, 5, 20, 200):
        etas = np.linspace(0.01, 1.0, 40) if n < 20 else np.linspace(0.002, 0.5, 60)
        per_eta = []
        for eta in etas:
            w, post = _posterior_plus(n, eta)
            risk_bayes = (eta * r) ** 2 * float(w @ (4 * post * (1 - post)))
            j = np.arange(n + 1)
            xbar = r * (2 * j / n - 1)
            risk_mean = 0.5 * float(stats.binom.pmf(j, n, (1 + eta) / 2) @ (xbar - eta * r) ** 2
                                    + stats.binom.pmf(j, n, (1 - eta) / 2) @ (xbar + eta * r) ** 2)
            test = (eta * r) ** 2 * float(1 - mm.binomial_tv(n, (1 - eta) / 2, (1 + eta) / 2)) / 2
            bayes.append(risk_bayes)
            mean_risk.append(risk_mean)
            reduction.append(test)
            per_eta.append(risk_bayes)
        bound.append(float(mm.lower_bound_nonprivate_mean(n, r)))
        best_bayes.append(max(per_eta))
        early(at_most, reduction, bayes)
        early(at_most, reduction, mean_risk)
        early(at_most, bound, best_bayes)
    reduction = np.array(reduction)
    return all_of(at_most(reduction, bayes, detail="(10) below the Bayes risk at every eta"),
                  at_most(reduction, mean_risk, detail="(10) below the sample mean's risk at every eta"),
                  at_most(bound, best_bayes, detail="privlib's bound below the largest Bayes risk"))


@eq10_reduction.mutant("minimax.lower_bound_nonprivate_mean", "Phi of the full separation 2 eta r instead of eta r")
def _(lower_bound_nonprivate_mean):
    return lambda n, r=1.0: 4 * lower_bound_nonprivate_mean(n, r)


@eq10_reduction.mutant("minimax.binomial_tv", "TV halved (half the L1 distance counted twice)")
def _(binomial_tv):
    return lambda n, p0, p1: binomial_tv(n, p0, p1) / 2


@claim("002/thm2-contraction", item="Theorem 2",
       statement="Under $\\alpha$-TV privacy the released marginals satisfy $\\|M_0 - M_1\\|_{TV} \\le \\alpha n \\|P_0 - P_1\\|_{TV}$, with equality for release-one-at-random.",
       method="marginals by summing over every sample with a plain loop (release-one on $3^4$ samples, a noisy count on $2^6$ and 50 random channels on $2^4$), against privlib's marginals and bound",
       checks=("minimax.FiniteChannel.marginal", "minimax.tv_contraction_bound"))
def thm2_contraction(seed: int = 7) -> Evidence:
    rng = np.random.default_rng(seed)
    ch = mm.release_one_channel(3, 4)
    p0, p1 = np.array([0.5, 0.3, 0.2]), np.array([0.2, 0.3, 0.5])
    equality = _tv(_marginal_by_loop(ch.table, np.tile(p0, (4, 1))), _marginal_by_loop(ch.table, np.tile(p1, (4, 1))))
    bound_eq = float(mm.tv_contraction_bound(mm.tv_privacy(ch), _tv(p0, p1), 4))
    geo = mm.geometric_count_channel(6, 0.7)
    cases = [(geo, np.array([0.7, 0.3]), np.array([0.55, 0.45]))]
    cases += [(_random_channel(rng, 2, 4, 3, 0.3), rng.dirichlet([1, 1]), rng.dirichlet([1, 1])) for _ in range(50)]
    lhs, rhs, ours, loops = [], [], [], []
    for c, a, b in cases:
        ma, mb = _marginal_by_loop(c.table, np.tile(a, (c.n, 1))), _marginal_by_loop(c.table, np.tile(b, (c.n, 1)))
        ours += [c.marginal(a), c.marginal(b)]
        loops += [ma, mb]
        lhs.append(_tv(ma, mb))
        rhs.append(mm.tv_contraction_bound(mm.tv_privacy(c), _tv(a, b), c.n))
    return all_of(close(np.concatenate(ours), np.concatenate(loops), atol=1e-14, rtol=0.0,
                        detail="privlib's marginals against the loop"),
                  at_most(lhs, rhs, atol=1e-12, detail="contraction on every channel"),
                  close(equality, bound_eq, atol=1e-12, rtol=0.0, detail="release-one attains the bound"))


@thm2_contraction.mutant("minimax.tv_contraction_bound", "alpha n TV / 2 (TV read as the L1 distance)")
def _(tv_contraction_bound):
    return lambda alpha, tv_p, n: tv_contraction_bound(alpha, tv_p, n) / 2


@thm2_contraction.mutant("minimax.FiniteChannel.marginal", "weights over n - 1 records (last record's law dropped)")
def _(marginal):
    def wrong(self, P):
        P = np.asarray(P, dtype=float)
        weights = np.prod(P[self.samples[:, :-1]], axis=1)
        return weights @ self.table / self.K
    return wrong


@claim("002/eq26-nonidentical", item="Eq. (26) (Theorem 2 for non-identical records)",
       statement="Under $\\alpha$-TV privacy, independent records with laws $P_{0,i}$ against $P_{1,i}$ give $\\|M_0 - M_1\\|_{TV} \\le \\alpha \\sum_i \\|P_{0,i} - P_{1,i}\\|_{TV}$; release-one-at-random attains it when the differences $P_{0,i} - P_{1,i}$ point the same way.",
       method="marginals of non-identical products by summing over every sample with a plain loop (50 random channels on $\\{0,1\\}^4$ and $\\{0,1,2\\}^3$, release-one on $\\{0,1,2\\}^4$), against privlib's marginals and bound",
       checks=("minimax.FiniteChannel.marginal", "minimax.tv_contraction_bound_product"))
def eq26_nonidentical(seed: int = 16) -> Evidence:
    rng = np.random.default_rng(seed)
    lhs, rhs, ours, loops = [], [], [], []
    for t in range(50):
        K, n = (2, 4) if t % 2 else (3, 3)
        c = _random_channel(rng, K, n, 3, 0.3)
        a, b = rng.dirichlet(np.ones(K), n), rng.dirichlet(np.ones(K), n)
        ma, mb = _marginal_by_loop(c.table, a), _marginal_by_loop(c.table, b)
        ours += [c.marginal(a), c.marginal(b)]
        loops += [ma, mb]
        lhs.append(_tv(ma, mb))
        rhs.append(float(mm.tv_contraction_bound_product(mm.tv_privacy(c), [_tv(a[i], b[i]) for i in range(n)])))
    ch = mm.release_one_channel(3, 4)
    base = np.array([0.2, 0.3, 0.5])
    shift = np.array([0.15, 0.0, -0.15]) * np.array([[1.0], [0.5], [0.2], [0.8]])  # aligned differences
    a, b = base + shift, base - shift
    eq_lhs = _tv(_marginal_by_loop(ch.table, a), _marginal_by_loop(ch.table, b))
    eq_rhs = float(mm.tv_contraction_bound_product(mm.tv_privacy(ch), [_tv(a[i], b[i]) for i in range(4)]))
    return all_of(close(np.concatenate(ours), np.concatenate(loops), atol=1e-14, rtol=0.0,
                        detail="privlib's marginals of non-identical products against the loop"),
                  at_most(lhs, rhs, atol=1e-12, detail="(26) on every channel"),
                  close(eq_lhs, eq_rhs, atol=1e-12, rtol=0.0, detail="release-one attains (26)"))


@eq26_nonidentical.mutant("minimax.tv_contraction_bound_product", "alpha times the largest record TV instead of the sum")
def _(bound):
    return lambda alpha, tv_records: np.minimum(np.asarray(alpha) * np.max(tv_records, axis=-1), 1.0)


@eq26_nonidentical.mutant("minimax.FiniteChannel.marginal", "every record drawn from the first record's law")
def _(marginal):
    def wrong(self, P):
        P = np.asarray(P, dtype=float)
        return marginal(self, P[0] if P.ndim == 2 else P)
    return wrong


@claim("002/prop2-tv-mean", item="Proposition 2",
       statement="Under $\\alpha$-TV privacy, mean estimation over $E\\|X\\|^k \\le r^k$ costs at least $\\max_p \\frac{r^2}{8} p^{a}(1 - \\alpha n p)$, $a = 2(k-1)/k$, of order $r^2 \\min\\{1, (n\\alpha)^{-a}\\}$ (constant derived here): the two-point construction has $k$-th moment $r^k$, mean gap $r p^{(k-1)/k}$ and TV $p$.",
       method="exact rational moments and TV of the construction; privlib's bound against Le Cam's bound for a concrete TV-private channel, computed independently: the channel releases how many of $m$ records drawn without replacement equal $u$ (TV level $m/n$, by exact sums), the TV of its release under $P_0^n$ and $P_1^n$ summed exactly (binomial times hypergeometric), maximised over $2 \\times 10^4$ values of $p$; with $m = 1$, $n = \\lceil 1/\\alpha \\rceil$ the two are equal (the bound is attained: rtol 1e-6), with $m = 2$ the bound lies between 0.5 and 1 times it; $k = 2, 4, \\infty$; the bound below the exact worst two-point risk of the TV-private estimator (KL mechanism at level $2\\alpha^2$, Pinsker)",
       checks=("minimax.lower_bound_tv_mean",))
def prop2_tv_mean(alpha: float = 0.1) -> Evidence:
    facts = []
    for k, p, u in ((2, Fraction(1, 16), Fraction(4)), (4, Fraction(1, 81), Fraction(3))):  # u = p^{-1/k}
        law0, law1 = {Fraction(0): Fraction(1)}, {Fraction(0): 1 - p, u: p}
        moment = sum(w * x ** k for x, w in law1.items())
        tv = sum(abs(law0.get(x, 0) - law1.get(x, 0)) for x in set(law0) | set(law1)) / 2
        gap = sum(w * x for x, w in law1.items())
        facts += [moment == 1, tv == p, gap == {2: Fraction(1, 4), 4: Fraction(1, 27)}[k]]  # r p^{(k-1)/k}
    construction = holds(all(facts), detail="k-th moment r^k, mean gap r p^((k-1)/k) and TV p, exactly")
    n = np.logspace(1, 7, 13)
    lhs, rhs, tight_ours, tight_le_cam, two_ours, two_le_cam, levels, level_ref = [], [], [], [], [], [], [], []
    n1, n2 = math.ceil(1 / alpha - 1e-9), math.ceil(2 / alpha - 1e-9)  # TV levels 1/n1 and 2/n2, at most alpha
    for k in (2.0, 4.0, np.inf):
        a = 2.0 - 2.0 / k
        for m, nn, ours, le_cam in ((1, n1, tight_ours, tight_le_cam), (2, n2, two_ours, two_le_cam)):
            value, level = _subsample_le_cam(nn, m, a)
            ours.append(float(mm.lower_bound_tv_mean(nn, m / nn, 1.0, k)))
            le_cam.append(value)
            levels.append(level)
            level_ref.append(m / nn)
        risk, _ = mm.worst_two_point_risk(1.0, k, n, 1, 2 * alpha ** 2, "kl")
        lhs.append(mm.lower_bound_tv_mean(n, alpha, 1.0, k))
        rhs.append(np.minimum(risk, 1.0))
    return all_of(construction,
                  close(levels, level_ref, rtol=1e-12, detail="the subsample channel's TV level is m/n"),
                  close(tight_ours, tight_le_cam, rtol=1e-6,
                        detail="m = 1: privlib's bound equals Le Cam's bound for the channel (attained)"),
                  at_most(two_ours, two_le_cam, atol=0.0, detail="m = 2: the bound below Le Cam's for the channel"),
                  at_most(0.5 * np.array(two_le_cam), two_ours, atol=0.0, detail="m = 2: and above half of it"),
                  at_most(np.concatenate(lhs), np.concatenate(rhs), detail="bound below a TV-private estimator's risk"))


@prop2_tv_mean.mutant("minimax.lower_bound_tv_mean", "the mean gap not squared: p^(a/2)")
def _(lower_bound_tv_mean):
    return edit("r_ ** 2 / 8.0 * p ** a * np.clip", "r_ ** 2 / 8.0 * p ** (a / 2) * np.clip")(lower_bound_tv_mean)


@prop2_tv_mean.mutant("minimax.lower_bound_tv_mean", "constant 1/4 instead of 1/8 (separation not halved)")
def _(lower_bound_tv_mean):
    return lambda n, alpha, r=1.0, k=np.inf: 2 * lower_bound_tv_mean(n, alpha, r, k)


@prop2_tv_mean.mutant("minimax.lower_bound_tv_mean", "maximiser p = 1/(2 alpha n) for every k")
def _(lower_bound_tv_mean):
    def wrong(n, alpha, r=1.0, k=np.inf):
        a = 2.0 - 2.0 / np.asarray(k, dtype=float)
        p = np.minimum(1.0, 1.0 / (2.0 * np.asarray(alpha) * np.asarray(n)))
        return np.asarray(r) ** 2 / 8.0 * p ** a * np.clip(1.0 - np.asarray(alpha) * np.asarray(n) * p, 0.0, None)
    return wrong


@claim("002/prop2-nonprivate", item="Proposition 2 and Table 1, non-private term $r^2/n$",
       statement="Without privacy, Le Cam's two-point method on $P_\\pm = \\frac{1 \\pm \\eta}{2}\\delta_{r e_1} + \\frac{1 \\mp \\eta}{2}\\delta_{-r e_1}$ gives $\\max_\\eta (\\eta r)^2 (1 - TV(P_+^n, P_-^n))/2$, between $r^2/(24 n)$ and the sample mean's $r^2/n$, and $n$ times it tends to $r^2 \\max_c c^2 (1 - \\Phi(c)) \\approx 0.166\\, r^2$.",
       method="for $n \\le 10$: TV of the product laws by summing over all $2^n$ samples, maximised over $\\eta$ on a grid of step $2.5 \\times 10^{-3}$ and then by bounded scalar search to $10^{-12}$ (the value is smooth in $\\eta$: relative tolerance $10^{-13}$); for $n = 10^6, 10^8$: the normal limit $\\max_c c^2 (1 - \\Phi(c))$ by bounded scalar minimisation (tolerance set from the $O(n^{-1/2})$ normal approximation); the sandwich $r^2/(24n) \\le$ bound $\\le r^2/n$ for $n$ up to $10^9$",
       checks=("minimax.lower_bound_nonprivate_mean",))
def prop2_nonprivate(r: float = 1.0) -> Evidence:
    small, brute = [], []
    for n in (1, 2, 3, 5, 8, 10):
        x = np.array(_samples(2, n)).sum(axis=1)

        def value(etas, x=x, n=n):
            up = ((1 + etas[:, None]) / 2) ** x * ((1 - etas[:, None]) / 2) ** (n - x)
            down = ((1 - etas[:, None]) / 2) ** x * ((1 + etas[:, None]) / 2) ** (n - x)
            return (etas * r) ** 2 * (1 - 0.5 * np.abs(up - down).sum(axis=1)) / 2

        etas = np.linspace(0.0, 1.0, 401)
        best = etas[np.argmax(value(etas))]
        # the value is smooth in eta on (0, 1) (the sign of up - down depends on x alone): the
        # grid's best point, then bounded scalar search around it to 1e-12 in eta
        fine = optimize.minimize_scalar(lambda e: -float(value(np.array([e]))[0]),
                                        bounds=(max(best - 2.5e-3, 0.0), min(best + 2.5e-3, 1.0)),
                                        method="bounded", options={"xatol": 1e-12})
        brute.append(max(-float(fine.fun), float(np.max(value(etas)))))
        small.append(float(mm.lower_bound_nonprivate_mean(n, r)))
        early(close, small, brute, rtol=1e-13)
    res = optimize.minimize_scalar(lambda c: -c ** 2 * special.ndtr(-c), bounds=(0.1, 5.0), method="bounded",
                                   options={"xatol": 1e-12})
    limit = -res.fun * r ** 2
    big = np.array([1e6, 1e8])
    n_all = np.logspace(0, 9, 19).round()
    scaled = mm.lower_bound_nonprivate_mean(n_all, r) * n_all
    return all_of(close(small, brute, rtol=1e-13, detail="exact bound for n <= 10 against every sample, maximised over eta"),
                  close(mm.lower_bound_nonprivate_mean(big, r) * big, [limit, limit], rtol=1e-4,
                        detail="n times the bound against the normal limit"),
                  at_most(np.full(n_all.size, r ** 2 / 24), scaled, detail="above r^2/(24 n)"),
                  at_most(scaled, np.full(n_all.size, r ** 2), detail="below the sample mean's r^2/n"))


@prop2_nonprivate.mutant("minimax.lower_bound_nonprivate_mean", "eta r instead of (eta r)^2 (loss not squared)")
def _(lower_bound_nonprivate_mean):
    def wrong(n, r=1.0):
        n = np.asarray(n, dtype=float)
        c = np.geomspace(1e-2, 20, 4001)
        eta = np.minimum(c / np.sqrt(n)[..., None], 1.0)
        return r * np.max(eta * (1 - mm.binomial_tv(n[..., None], (1 - eta) / 2, (1 + eta) / 2)) / 2, axis=-1)
    return wrong


@prop2_nonprivate.mutant("minimax.lower_bound_nonprivate_mean", "testing error 1 - TV instead of (1 - TV)/2")
def _(lower_bound_nonprivate_mean):
    return lambda n, r=1.0: 2 * lower_bound_nonprivate_mean(n, r)


@claim("002/prop3-support", item="Proposition 3",
       statement="Under $\\alpha$-TV privacy the support of $\\mathrm{Unif}[\\theta, \\theta + 1]$ cannot be estimated faster than $\\min\\{1, 1/(n\\alpha)\\}$: $\\max_p \\frac p4 (1 - \\alpha n p)$ lies below the risk $1/(m+1)$ of a TV-private estimator (minimum of $m = \\lfloor \\alpha n \\rfloor$ random records, ours, TV level $m/n$).",
       method="TV of the shifted uniforms by quadrature; the subsample-minimum's TV level by enumerating $\\{0..4\\}^5$ with $m = 2$ (privlib's TV level against $m/n$); privlib's bound at TV level $1/n$ ($n = \\lceil 1/\\alpha \\rceil$) against Le Cam's bound for the channel that releases one record, $\\max_p \\frac p4 (1 - TV)$ with the TV of the shifted uniforms by quadrature and the maximum by bounded scalar search (equal: the bound is attained, rtol 1e-8); privlib's bound below $1/(m+1)$, the risk of the subsample minimum",
       checks=("minimax.lower_bound_tv_support", "minimax.tv_privacy"))
def prop3_support(alpha: float = 0.2) -> Evidence:
    shifts = np.array([0.05, 0.3, 0.9])
    tv = [integrate.quad(lambda x, s=s: 0.5 * abs(float(0 <= x <= 1) - float(s <= x <= 1 + s)), -1, 3,
                         points=[0, s, 1, 1 + s])[0] for s in shifts]
    uniform_tv = close(tv, shifts, atol=1e-9, rtol=0.0, detail="TV of Unif[0,1] and Unif[s,1+s] is s")
    K, n, m = 5, 5, 2
    subsets = list(itertools.combinations(range(n), m))
    ch = mm.FiniteChannel.from_function(
        lambda x: np.bincount([min(x[i] for i in s) for s in subsets], minlength=K) / len(subsets), K, n)
    subsample_tv = close(mm.tv_privacy(ch), m / n, atol=1e-12, rtol=0.0, detail="subsample-minimum has TV level m/n")
    n_grid = np.logspace(1, 6, 11).round()
    m_sub = np.maximum(1, np.floor(alpha * n_grid))
    level = m_sub / n_grid  # TV level, <= alpha
    bound = mm.lower_bound_tv_support(n_grid, level)
    n1 = math.ceil(1 / alpha - 1e-9)
    return all_of(uniform_tv, subsample_tv,
                  close(mm.lower_bound_tv_support(n1, 1 / n1), _shifted_uniform_le_cam(), rtol=1e-8,
                        detail="TV level 1/n: privlib's bound equals Le Cam's bound for the one-record channel (attained)"),
                  at_most(bound, 1.0 / (m_sub + 1.0), detail="bound below the subsample-minimum's risk"))


@prop3_support.mutant("minimax.lower_bound_tv_support", "p/2 instead of p/4 (separation not halved)")
def _(lower_bound_tv_support):
    return lambda n, alpha: 2 * lower_bound_tv_support(n, alpha)


@prop3_support.mutant("minimax.lower_bound_tv_support", "maximiser p = 1/(alpha n) (where the bound vanishes)")
def _(lower_bound_tv_support):
    return lambda n, alpha: np.zeros(np.broadcast_shapes(np.shape(n), np.shape(alpha)))


@prop3_support.mutant("minimax.tv_privacy", "L1 distance instead of TV (no factor 1/2)")
def _(tv_privacy):
    return lambda channel: 2 * tv_privacy(channel)


@reference
def _expmech_law_by_definition(X: np.ndarray, alpha: float, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The exponential mechanism's law on ``[lo, hi]`` straight from its definition: on the
    interval ``j`` between consecutive order statistics (j records below it) the density is
    proportional to ``exp(-alpha/2 |j - k|)``; returns the interval ends, the log-density on each
    interval, the CDF at the ends and ``k``."""
    n = X.size
    k = min(n, math.ceil(4.0 * math.log(max(n, 2)) / alpha))
    edges = np.concatenate([[lo], np.sort(X), [hi]])
    log_level = -0.5 * alpha * np.abs(np.arange(n + 1) - k)
    weight = np.diff(edges) * np.exp(log_level)
    return edges, log_level - np.log(weight.sum()), np.concatenate([[0.0], np.cumsum(weight)]) / weight.sum(), k


@claim("002/prop3-dp-estimator", item="Proposition 3 (an $\\alpha$-DP support estimator, ours)",
       statement="The support estimator of the support figure (ours) is $\\alpha$-DP: it draws $t$ on $[lo, hi]$ with density proportional to $\\exp(-\\frac{\\alpha}{2} |\\#\\{i: X_i < t\\} - k|)$, $k = \\min(n, \\lceil 4 \\log n / \\alpha \\rceil)$, a log-density that moves by at most $\\alpha$ when one record is replaced, and returns $t - k/(n+1)$.",
       method="privlib's log-density against the definition (interval weights of the sorted sample) at 2000 points; its largest change over neighbouring samples (one record moved to 41 places across $[lo, hi]$) against $\\alpha$; 1000 draws of privlib's estimator plus $k/(n+1)$ against the exact CDF of the definition by the Kolmogorov-Smirnov test at family-wise false-alarm probability $10^{-6}$, on a uniform sample ($n = 200$) and on one with a third of its mass beyond the sampler's window of ranks (the records above rank $k + 60/\\alpha$ near $3.5 \\cdot 10^{13}$, $hi = 7 \\cdot 10^{13}$: the proposals beyond the window and the rejection step run)",
       checks=("minimax.support_dp_expmech", "minimax.support_expmech_log_density"))
def prop3_dp_estimator(seed: int = 31, alpha: float = 1.0, reps: int = 1000) -> Evidence:
    rng = np.random.default_rng(seed)
    # beyond the window of 60/alpha ranks around k: a gap holding about a third of the mass and
    # a proposal bound twice that (k + 60/alpha + 1 records below the gap)
    below = min(200, math.ceil(4 * math.log(200) / alpha) + math.ceil(60 / alpha) + 1)
    far = np.concatenate([below * rng.random(below), 3.5e13 + 1e4 * rng.random(200 - below)])
    instances = ((0.3 + rng.random(200), 0.0, 2.0), (far, 0.0, 7e13))
    density_gap, dp_levels, ks = [], [], []
    ks_max = float(stats.kstwo.isf(1e-6 / len(instances), reps))
    for X, lo, hi in instances:
        edges, log_density, cdf, k = _expmech_law_by_definition(X, alpha, lo, hi)
        width = np.diff(edges)
        j = rng.choice(np.flatnonzero(width > 0), 2000)
        t = edges[j] + width[j] * rng.uniform(0.05, 0.95, j.size)
        density_gap.append(float(np.max(np.abs(mm.support_expmech_log_density(t, X, alpha, lo, hi) - log_density[j]))))
        early(close, density_gap, 0.0, atol=1e-9, rtol=0.0)
        grid = np.linspace(lo, hi, 2001)
        base = mm.support_expmech_log_density(grid, X, alpha, lo, hi)
        for moved in np.linspace(lo, hi, 41):
            Y = X.copy()
            Y[0] = moved
            dp_levels.append(float(np.max(np.abs(mm.support_expmech_log_density(grid, Y, alpha, lo, hi) - base))))
        draws = np.array([mm.support_dp_expmech(X, alpha, lo, hi, rng) for _ in range(reps)]) + k / (X.size + 1)
        ks.append(float(np.max(np.abs(np.arange(1, reps + 1) / reps - np.interp(np.sort(draws), edges, cdf)))))
        early(at_most, ks, ks_max, atol=0.0)
    return all_of(close(density_gap, 0.0, atol=1e-9, rtol=0.0, detail="log-density against the definition (largest gap)"),
                  at_most(max(dp_levels), alpha, atol=1e-12, detail="largest change of the log-density over neighbours"),
                  at_most(ks, ks_max, atol=0.0, detail="Kolmogorov-Smirnov distance of the draws to the exact law"))


@prop3_dp_estimator.mutant("minimax.support_dp_expmech", "the window's weights without the factor 1/2 (e^{-alpha |j - k|})")
def _(support_dp_expmech):
    return edit("log_w = np.log(np.diff(edges)) - 0.5 * a * np.abs(j - k)",
                "log_w = np.log(np.diff(edges)) - a * np.abs(j - k)")(support_dp_expmech)


@prop3_dp_estimator.mutant("minimax.support_dp_expmech", "a proposal beyond the window always accepted (no rejection step)")
def _(support_dp_expmech):
    return edit("if gen.uniform() < np.exp(total - bound):", "if True:")(support_dp_expmech)


@prop3_dp_estimator.mutant("minimax.support_expmech_log_density", "rank counted from the top (records above t)")
def _(support_expmech_log_density):
    return edit('rank = np.searchsorted(edges[1:-1], tt, side="left")',
                'rank = n - np.searchsorted(edges[1:-1], tt, side="left")')(support_expmech_log_density)


@claim("002/lemma2-mixture", item="Lemma 2 (group privacy for mixtures)",
       statement="For an $(\\alpha, \\delta)$-DP channel, $M_0(S) \\ge e^{-k\\alpha}(M_v(S) - P(\\mathrm{Bin}(n,p) > k)) - \\delta (1 - e^{-k\\alpha})/(e^{\\alpha} - 1)$ for every event $S$ and integer $k$ (form derived here).",
       method="a noisy count (DP level below $\\alpha$) mixed with exact release, so that $\\delta^*(\\alpha) > 0$ comes from the exact release and the $\\delta$-term decides; $\\delta^*(\\alpha)$ from privlib; exact marginals by summing over every sample in $\\{0,1\\}^n$ with a plain loop; every event $S$ and every $k$",
       checks=("minimax.dp_delta",))
def lemma2_mixture(n: int = 6, p: float = 0.3, mix: float = 0.02) -> Evidence:
    geo = mm.geometric_count_channel(n, 0.3)  # DP level below alpha = 1: delta comes from the exact release
    exact = np.zeros((2 ** n, n + 1))
    exact[np.arange(2 ** n), geo.samples.sum(axis=1)] = 1.0
    ch = mm.FiniteChannel(np.hstack([(1 - mix) * geo.table, mix * exact]), 2, n)
    alpha = 1.0
    delta = float(mm.dp_delta(ch, alpha))
    m0 = _marginal_by_loop(ch.table, np.tile([1.0, 0.0], (n, 1)))  # P0 = delta_0, record value 0
    mv = _marginal_by_loop(ch.table, np.tile([1 - p, p], (n, 1)))  # mixture with P_v = delta_1
    sets = _subsets(m0.size)
    lhs, rhs = [], []
    for k in range(n + 1):
        tail = stats.binom.sf(k, n, p)
        lower = np.exp(-k * alpha) * (sets @ mv - tail) - delta * -np.expm1(-k * alpha) / np.expm1(alpha)
        lhs.append(lower)
        rhs.append(sets @ m0)
    return at_most(np.concatenate(lhs), np.concatenate(rhs), atol=1e-12,
                   detail="every event and every k, at delta = delta*(alpha)")


@lemma2_mixture.mutant("minimax.dp_delta", "outputs impossible under the neighbour dropped (0 * inf read as 0)")
def _(dp_delta):
    def wrong(channel, eps):
        p, q = channel.distinct_neighbour_rows()
        p = np.where(q > 0, p, 0.0)
        e = np.exp(np.asarray(eps, dtype=float))[..., None, None]
        return np.clip(p - e * q, 0.0, None).sum(axis=-1).max(axis=-1)
    return wrong


@reference
def _packing_error_by_enumeration(n: int, V: int, p: float, alpha: float, delta: float) -> float:
    """Average error of the exponential mechanism mixed (probability ``delta``) with the mode, by
    enumerating every sample of labels in ``{0, 1..V}^n`` under the mixture for label 1."""
    err = 0.0
    for x in itertools.product(range(V + 1), repeat=n):
        prob = math.prod((p if xi == 1 else 1 - p) if xi in (0, 1) else 0.0 for xi in x)
        if prob == 0:
            continue
        counts = np.array([x.count(u) for u in range(1, V + 1)], dtype=float)
        w = np.exp(alpha * counts / 2)
        top = counts == counts.max()
        win = (1 - delta) * w[0] / w.sum() + delta * (top[0] / top.sum())
        err += prob * (1 - win)
    return err


@claim("002/thm3-packing", item="Theorem 3",
       statement="The average error probability of any $(\\alpha, \\delta)$-DP estimator over the mixtures is at least $1 - P(\\mathrm{Bin}(n,p) > k) - e^{k\\alpha}/|\\mathcal V| - \\delta (e^{k\\alpha} - 1)/(e^{\\alpha} - 1)$ (form derived here), for $\\delta = 0$ and $\\delta > 0$; also $P(\\mathrm{Bin}(n,p) > \\lceil np \\rceil) \\le 1/2$.",
       method="privlib's exact error of the exponential mechanism on label counts ($\\alpha$-DP), mixed with the sample mode with probability $\\delta$ ($(\\alpha, \\delta)$-DP), against enumeration of every sample for $n = 5$, $|\\mathcal V| = 3$; the bound below that error on six packings (two with $\\delta > 0$, where the $\\delta$-term decides); on two of them the bound at every integer $k = 0..n$ and at $k = \\lceil np \\rceil$ (the median, $np$ not whole) against the bracket in 40-digit arithmetic with the exact binomial tail (clipped at 0), each below the estimator's error, and the best $k$ equal to the largest of them; binomial tails on a grid $n \\le 200$",
       checks=("minimax.theorem3_error_bound", "minimax.expmech_packing_error"))
def thm3_packing() -> Evidence:
    enum_obs, enum_ref = [], []
    for p, alpha, delta in ((0.3, 0.8, 0.0), (0.2, 0.4, 0.25)):
        enum_obs.append(float(mm.expmech_packing_error(5, p, alpha, 3, delta)))
        enum_ref.append(_packing_error_by_enumeration(5, 3, p, alpha, delta))
    lhs, rhs = [], []
    for n, V, alpha, p, delta in ((20, 50, 0.5, 0.1, 0.0), (50, 1000, 0.3, 0.05, 0.0), (30, 200, 1.0, 0.02, 0.0),
                                  (100, 10_000, 0.2, 0.1, 0.0), (20, 10_000, 0.1, 0.1, 0.1), (60, 10 ** 6, 0.05, 0.2, 0.05)):
        lhs.append(float(mm.theorem3_error_bound(n, p, alpha, delta, V)))
        rhs.append(float(mm.expmech_packing_error(n, p, alpha, V, delta)))
    every_k, every_ref, median, median_ref, best, best_ref, every_err = [], [], [], [], [], [], []
    for n, V, alpha, p, delta in ((50, 1000, 0.3, 0.05, 0.0), (20, 10_000, 0.1, 0.1, 0.1)):
        ks = np.arange(n + 1.0)
        brackets = [_theorem3_bracket_mp(n, p, alpha, delta, V, int(kk)) for kk in ks]
        every_k.extend(mm.theorem3_error_bound(n, p, alpha, delta, V, ks))
        every_ref.extend(brackets)
        every_err.extend([float(mm.expmech_packing_error(n, p, alpha, V, delta))] * ks.size)
        median.append(float(mm.theorem3_error_bound(n, p, alpha, delta, V, "median")))
        median_ref.append(brackets[math.ceil(n * p)])
        best.append(float(mm.theorem3_error_bound(n, p, alpha, delta, V)))
        best_ref.append(max(brackets))
    n = np.arange(1, 201)[:, None]
    pp = np.linspace(0.005, 0.995, 199)[None, :]
    return all_of(close(enum_obs, enum_ref, atol=1e-12, rtol=0.0, detail="exact error against every sample"),
                  close(every_k, every_ref, atol=1e-13, rtol=1e-12, detail="the bound at every integer k against 40-digit arithmetic"),
                  close(median, median_ref, atol=1e-13, rtol=1e-12, detail="k = ceil(np) ('median') against 40-digit arithmetic"),
                  close(best, best_ref, atol=1e-13, rtol=1e-12, detail="the best k: the largest bound over every integer k"),
                  at_most(every_k, every_err, atol=1e-12, detail="the bound at every k below the estimator's error"),
                  at_most(lhs, rhs, atol=1e-12, detail="bound below the estimator's error on all six packings"),
                  at_most(stats.binom.sf(np.ceil(n * pp), n, pp), 0.5, atol=0.0, detail="the median is at most ceil(np)"))


@thm3_packing.mutant("minimax.theorem3_error_bound", "delta-term dropped")
def _(theorem3_error_bound):
    return lambda n, p, alpha, delta, card_V, k="best": theorem3_error_bound(n, p, alpha, 0.0, card_V, k)


@thm3_packing.mutant("minimax.theorem3_error_bound", "'median' k = floor(np)")
def _(theorem3_error_bound):
    return edit("_theorem3_bracket(np.ceil(n_ * p_)", "_theorem3_bracket(np.floor(n_ * p_)")(theorem3_error_bound)


@thm3_packing.mutant("minimax.theorem3_error_bound", "a given integer k ignored (the best k taken)")
def _(theorem3_error_bound):
    return edit("bound = _theorem3_bracket(kk, n_, p_, a_, d_, log_v)",
                "bound = _theorem3_best(n_, p_, a_, d_, log_v)")(theorem3_error_bound)


@reference
def _theorem3_bracket_mp(n: int, p: float, alpha: float, delta: float, card_v: int, k: int) -> float:
    """``[1 - P(Bin(n, p) > k) - e^{k alpha}/|V| - delta (e^{k alpha} - 1)/(e^alpha - 1)]_+`` in
    40-digit arithmetic, the tail summed term by term."""
    import mpmath as mp

    with mp.workdps(40):
        pp = mp.mpf(p)
        tail = mp.fsum(mp.binomial(n, j) * pp ** j * (1 - pp) ** (n - j) for j in range(k + 1, n + 1))
        e = mp.exp(k * mp.mpf(alpha))
        value = 1 - tail - e / card_v - mp.mpf(delta) * (e - 1) / mp.expm1(mp.mpf(alpha))
        return float(max(value, 0))


@thm3_packing.mutant("minimax.expmech_packing_error", "exponential mechanism with e^{alpha c} instead of e^{alpha c/2}")
def _(expmech_packing_error):
    return lambda n, p, alpha, card_V, delta=0.0: expmech_packing_error(n, p, 2 * np.asarray(alpha), card_V, delta)


@reference
def _dp_bound_brute(n: int, d: int, alpha: float, delta: float, k: float, r: float = 1.0) -> float:
    """Proposition 4's bound by brute force: every integer k' in 0..n and 2001 log-spaced p."""
    a = 2.0 - 2.0 / k
    p = np.geomspace(1e-4 / n, 1.0, 2001)[:, None]
    kk = np.arange(n + 1.0)[None, :]
    with np.errstate(over="ignore"):
        bracket = (1 - stats.binom.sf(kk, n, p) - np.exp(kk * alpha - d * np.log(2.0))
                   - delta * np.expm1(kk * alpha) / np.expm1(alpha))
    return float(np.max(r ** 2 * p[:, 0] ** a / 16 * np.clip(bracket.max(axis=1), 0, None)))


@claim("002/prop4-dp-mean", item="Proposition 4 and (16)", kind="illustrated",
       statement="Under $(\\alpha, \\delta)$-DP, mean estimation in $d$ dimensions costs at least $\\max_p \\frac{r^2}{16} p^{2(k-1)/k} [\\text{Theorem 3's bracket with } |\\mathcal V| = 2^d]_+$ (constant derived here), of order $r^2 \\min\\{1, (\\min\\{d, \\log(1/\\delta)\\}/(n\\alpha))^{2(k-1)/k}\\}$; the packing of the unit ball at separation 1/2 has at least $2^d$ points.",
       method="greedy 1/2-packings of random points in the unit ball for $d \\le 5$; privlib's bound against a brute force over every integer $k'$ and 2001 values of $p$ ($\\delta = 0$ and $\\delta > 0$; the maxima over $p$ agree to 0.01%, the grid's resolution); the bound below the exact worst two-point risk of the Laplace estimator ($\\alpha$-DP) and of the Gaussian one ($(\\alpha, \\delta)$-DP) (a valid but loose comparison: the risks are 20 to 40 times larger). Illustrated, not verified: the grid evaluates the same expression as privlib (it checks the maximisation, not the bound), and no computation here attains the bound or comes near it; its ingredient, Theorem 3, is verified against exact enumeration by 002/thm3-packing",
       checks=("minimax.lower_bound_dp_mean",))
def prop4_dp_mean(seed: int = 8, alpha: float = 0.5) -> Evidence:
    # the bound against the brute force and the estimators' risk first (no random draws), then
    # the greedy packings (the generator's draws as before)
    ours, brute = [], []
    for n, d, a, dl, k in ((50, 2, 0.5, 0.0, np.inf), (200, 4, 0.3, 0.0, 4.0), (100, 8, 1.0, 1e-3, 2.0),
                           (120, 3, 0.7, 0.01, 4.0)):
        ours.append(float(mm.lower_bound_dp_mean(n, d, a, dl, 1.0, k)))
        brute.append(_dp_bound_brute(n, d, a, dl, k))
        early(close, ours, brute, rtol=1e-4)
    n = np.logspace(2, 7, 6).round()[:, None]
    d = np.array([1, 4, 16, 64])[None, :]
    lhs, rhs = [], []
    for k in (2.0, 4.0, np.inf):
        lhs.append(mm.lower_bound_dp_mean(n, d, alpha, 0.0, 1.0, k))
        rhs.append(np.minimum(mm.worst_two_point_risk(1.0, k, n, d, alpha, "laplace")[0], 1.0))
        lhs.append(mm.lower_bound_dp_mean(n, d, alpha, 1e-6, 1.0, k))
        rhs.append(np.minimum(mm.worst_two_point_risk(1.0, k, n, d, alpha, "gauss", 1e-6)[0], 1.0))
    early(at_most, np.concatenate(lhs).ravel(), np.concatenate(rhs).ravel())
    rng = np.random.default_rng(seed)
    sizes = []
    for d in range(1, 6):
        pts = rng.normal(size=(3000, d))
        pts *= (rng.random(3000) ** (1 / d) / np.linalg.norm(pts, axis=1))[:, None]
        chosen = np.empty((0, d))
        for x in pts:
            if chosen.shape[0] == 0 or np.min(np.sum((chosen - x) ** 2, axis=1)) >= 0.25:
                chosen = np.vstack([chosen, x])
        sizes.append(chosen.shape[0] / 2 ** d)
    packing_sizes = at_most(np.ones(5), sizes, atol=0.0, detail="every greedy packing has >= 2^d points")
    return all_of(packing_sizes,
                  close(ours, brute, rtol=1e-4, detail="privlib's bound against the brute force over k' and p"),
                  at_most(np.concatenate(lhs).ravel(), np.concatenate(rhs).ravel(), detail="bound below the estimators' risk"))


@prop4_dp_mean.mutant("minimax.lower_bound_dp_mean", "constant 1/8 instead of 1/16")
def _(lower_bound_dp_mean):
    return lambda n, d, alpha, delta=0.0, r=1.0, k=np.inf, n_grid=25: 2 * lower_bound_dp_mean(n, d, alpha, delta, r, k, n_grid)


@prop4_dp_mean.mutant("minimax.lower_bound_dp_mean", "packing of 2^{2d} points (volume ratio squared)")
def _(lower_bound_dp_mean):
    return lambda n, d, alpha, delta=0.0, r=1.0, k=np.inf, n_grid=25: lower_bound_dp_mean(
        n, 2 * np.asarray(d), alpha, delta, r, k, n_grid)


@prop4_dp_mean.mutant("minimax._theorem3_bracket", "delta-term dropped")
def _(bracket):
    return lambda kk, n, p, alpha, delta, log_card_v: bracket(kk, n, p, alpha, 0.0, log_card_v)
