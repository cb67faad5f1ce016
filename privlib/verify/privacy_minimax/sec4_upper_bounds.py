"""Claims of chapter 002, Section 4: upper bounds for mean estimation; Table 1; Proposition 5."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
from scipy import integrate, stats

from privlib.papers import minimax as mm

from privlib.verify.claims import Evidence, all_of, at_most, claim, close, early, holds
from privlib.verify.privacy_minimax._routes import _noise_coefficient_by_calibration, _z_max
from privlib.verify import densities
from privlib.verify.source_mutants import edit


@claim("002/lemma3-bias", item="Lemma 3",
       statement="If $E\\|X\\|^k \\le r^k$, projecting onto the ball of radius $T$ moves the mean by at most $r^k/T^{k-1}$; over the two-point laws the largest shift is $r^k (k-1)^{k-1}/(k^k T^{k-1})$ for $T \\ge r(k-1)/k$ (derived here), e.g. $27/2048$ for $k = 4$, $T = 2$, $r = 1$.",
       method="the shift of the two-point law $(1-p)\\delta_0 + p\\delta_{r p^{-1/k} e_1}$ through privlib's projection, maximised by brute force over $2 \\times 10^5$ values of $p$, against the closed form (exact rational 27/2048 at $k = 4$, $T = 2$); 300 random discrete laws in $\\mathbb R^3$ against $r^k/T^{k-1}$",
       checks=("minimax.project_l2_ball",))
def lemma3_bias(seed: int = 9) -> Evidence:
    obs, ref = [], []
    for k, T in ((4, 2.0), (2, 1.0), (3, 1.5), (6, 1.2)):  # T >= r (k-1)/k: the maximiser p <= 1
        p = np.geomspace(1e-9, min(1.0, T ** -k), 200_001)[:-1]  # u = p^{-1/k} > T
        u = p ** (-1.0 / k)
        atoms = np.zeros((p.size, 3))
        atoms[:, 0] = u
        moved = u - mm.project_l2_ball(atoms, T)[:, 0]
        obs.append(float(np.max(p * moved)))
        ref.append(float(Fraction(k - 1) ** (k - 1) / Fraction(k) ** k) / T ** (k - 1))
    anchor = Fraction(3) ** 3 / Fraction(4) ** 4 / 2 ** 3  # k = 4, T = 2: 27/2048
    rng = np.random.default_rng(seed)
    lhs, rhs = [], []
    for _ in range(300):
        atoms = rng.standard_t(2.5, size=(6, 3))
        w = rng.dirichlet(np.ones(6))
        kk, t = float(rng.uniform(1.2, 6)), float(rng.uniform(0.2, 3))
        r_k = w @ np.linalg.norm(atoms, axis=1) ** kk
        lhs.append(np.linalg.norm(w @ (mm.project_l2_ball(atoms, t) - atoms)))
        rhs.append(r_k / t ** (kk - 1))
    return all_of(close(obs, ref, rtol=1e-6, detail="largest two-point shift against the closed form"),
                  close(ref[0], float(anchor), rtol=1e-15, detail="27/2048 exactly at k = 4, T = 2"),
                  at_most(lhs, rhs, atol=1e-12, detail="Lemma 3 on random discrete laws"))


@lemma3_bias.mutant("minimax.project_l2_ball", "ball of radius T/2")
def _(project_l2_ball):
    return lambda X, T: project_l2_ball(X, T / 2)


@lemma3_bias.mutant("minimax.project_l2_ball", "rows scaled by T/||x||^2 instead of T/||x||")
def _(project_l2_ball):
    def wrong(X, T):
        x = np.asarray(X, dtype=float)
        norm = np.linalg.norm(x, axis=-1, keepdims=True)
        return np.where(norm > T, x * T / np.where(norm > 0, norm, 1.0) ** 2, x)
    return wrong


@claim("002/lemma4-variance", item="Lemma 4",
       statement="Projection onto a closed convex set does not increase the variance: $E\\|\\Pi(X) - E\\Pi(X)\\|^2 \\le E\\|X - EX\\|^2$.",
       method="exact variances of 400 random discrete laws in $\\mathbb R^2$ and $\\mathbb R^5$ (Cauchy atoms), projected by privlib onto balls and by clipping onto boxes",
       checks=("minimax.project_l2_ball",))
def lemma4_variance(seed: int = 10) -> Evidence:
    rng = np.random.default_rng(seed)
    lhs, rhs = [], []
    for trial in range(400):
        dim = 2 if trial % 2 else 5
        atoms = rng.standard_cauchy(size=(8, dim))
        w = rng.dirichlet(np.ones(8))
        t = float(rng.uniform(0.1, 3))
        proj = mm.project_l2_ball(atoms, t) if trial % 4 < 2 else np.clip(atoms, -t, t)
        var = lambda x: w @ np.sum((x - w @ x) ** 2, axis=1)  # noqa: E731
        lhs.append(var(proj))
        rhs.append(var(atoms))
    return at_most(lhs, rhs, atol=1e-9, detail="variance after projection <= before, every law")


@lemma4_variance.mutant("minimax.project_l2_ball", "onto the sphere of radius T (every row rescaled to norm T)")
def _(project_l2_ball):
    def wrong(X, T):
        x = np.asarray(X, dtype=float)
        return x * T / np.linalg.norm(x, axis=-1, keepdims=True)
    return wrong


def _quad_normal_shift_kl(shift: float, sd: float) -> float:
    """``KL(N(shift, sd^2) || N(0, sd^2))`` by quadrature of its definition, over 30 standard
    deviations beyond both means (each log-density taken once per point)."""
    def integrand(z: float) -> float:
        log_p = densities.normal_logpdf(z, shift, sd)
        return math.exp(log_p) * (log_p - densities.normal_logpdf(z, 0.0, sd))
    return integrate.quad(integrand, min(shift, 0.0) - 30 * sd, max(shift, 0.0) + 30 * sd, epsabs=1e-14, epsrel=1e-11)[0]


@claim("002/prop6-privacy", item="Proposition 6 (privacy of the three mechanisms)",
       statement="Estimator (20) with sensitivity $2T/n$ is $\\alpha$-KL private with Gaussian noise of variance $2T^2/(n^2\\alpha)$, $(\\alpha, \\delta)$-DP with the classical Gaussian calibration, and $\\alpha$-DP and $\\alpha$-smooth-DP with Laplace noise of scale $2T\\sqrt d/(n\\alpha)$.",
       method="KL by quadrature of the two output densities at worst-case neighbours; $\\delta^*(\\alpha)$ by quadrature; the Laplace log-ratio at 50 points around each of 500 random pairs of samples (not only neighbours) against $\\alpha\\rho$ for the smooth-DP metric; noise levels from privlib's noise coefficient",
       checks=("minimax.noise_coefficient", "minimax.project_l2_ball"))
def prop6_privacy(seed: int = 11, n: int = 50, d: int = 3, alpha: float = 0.5, delta: float = 1e-5) -> Evidence:
    rng = np.random.default_rng(seed)
    T = 1.0
    gap = 2 * T / n  # worst-case shift of the truncated mean, along one axis
    c = mm.noise_coefficient("kl", n, d, alpha)
    s = T * np.sqrt(c / d)
    kl = _quad_normal_shift_kl(gap, s)
    c = mm.noise_coefficient("gauss", n, d, alpha, delta)
    s = T * np.sqrt(c / d)
    z0 = s ** 2 * alpha / gap + gap / 2
    dlt, _ = integrate.quad(lambda z: densities.normal_pdf(z, gap, s) - np.exp(alpha) * densities.normal_pdf(z, 0.0, s), z0, z0 + 40 * s,
                            epsabs=1e-16, epsrel=1e-10)
    c = mm.noise_coefficient("laplace", n, d, alpha)
    b = T * np.sqrt(c / (2 * d))
    log_ratio_max, allowed = [], []
    for _ in range(500):
        x = rng.normal(size=(n, d)) * rng.uniform(0.1, 3)
        y = x.copy()
        changed = rng.random(n) < rng.uniform(0, 1)
        y[changed] = rng.normal(size=(int(changed.sum()), d)) * 2
        mx, my = mm.project_l2_ball(x, T).mean(0), mm.project_l2_ball(y, T).mean(0)
        zs = rng.normal(size=(50, d)) * 3 * b + mx
        log_ratio = (np.abs(zs - my).sum(1) - np.abs(zs - mx).sum(1)) / b
        rho = np.abs(mm.project_l2_ball(x, T) - mm.project_l2_ball(y, T)).sum() / (2 * T * np.sqrt(d))
        log_ratio_max.append(log_ratio.max())
        allowed.append(alpha * rho)
    return all_of(at_most(kl, alpha, atol=1e-12, detail="KL of the Gaussian (i) within alpha"),
                  at_most(dlt, delta, atol=1e-12, detail="delta*(alpha) of the Gaussian (ii) within delta"),
                  at_most(log_ratio_max, allowed, atol=1e-12, detail="Laplace log-ratio within alpha rho (smooth DP)"))


@prop6_privacy.mutant("minimax.noise_coefficient", "KL variance d T^2/(n^2 alpha): sensitivity T/n instead of 2T/n")
def _(noise_coefficient):
    def wrong(mechanism, n, d, alpha, delta=None):
        c = noise_coefficient(mechanism, n, d, alpha, delta)
        return c / 2 if mechanism == "kl" else c
    return wrong


@prop6_privacy.mutant("minimax.noise_coefficient", "Gaussian sigma for sensitivity T/n (variance / 4)")
def _(noise_coefficient):
    def wrong(mechanism, n, d, alpha, delta=None):
        c = noise_coefficient(mechanism, n, d, alpha, delta)
        return c / 4 if mechanism == "gauss" else c
    return wrong


@claim("002/prop6-risk", item="Proposition 6 and (31)",
       statement="The exact squared error of estimator (20) on the least favourable two-point laws stays below bound (31), $r^2/n + C_k r^2 c_W^{(k-1)/k}$ at the optimal truncation, $C_k = k (k-1)^{-(k-1)/k}$ (constants ours); for $k = \\infty$ ($\\|X\\| \\le r$, $T = r$) the bound $r^2/n + c_W r^2$ is attained by $\\pm r e_1$ with probability 1/2.",
       method="the reference risk from its own formula, with the noise coefficient $c_W$ recomputed from each mechanism's calibration and the projected mean's sensitivities measured on two extreme samples (not privlib's noise_coefficient): Monte Carlo of the estimator on full samples (2000 replicates per case, 10 cases: KL, Gaussian, Laplace at $k = 2, 4, \\infty$, no noise at $k = 4$) against it, within the z-score whose two-sided normal tail over all cases is $10^{-6}$ (5.3 standard errors); privlib's exact worst two-point risk against it at privlib's least favourable $p$ (rtol 1e-12); privlib's (31) at its optimal truncation against the closed form with the recomputed $c_W$; privlib's $c_W$ at $n = 10^{200}$, $d = 10^{250}$ (where the squares leave the doubles) against exact rationals; the exact worst case below (31) for finite $k$, and equal to it at $k = \\infty$",
       checks=("minimax.worst_two_point_risk", "minimax.risk_bound_31", "minimax.optimal_truncation", "minimax.private_mean",
               "minimax.noise_coefficient"))
def prop6_risk(seed: int = 12, reps: int = 2000) -> Evidence:
    rng = np.random.default_rng(seed)
    n, d, alpha, r, delta = 200, 4, 0.5, 1.0, 1e-5
    # c_W where n^2 and d^2 leave the doubles (n = 10^200, d = 10^250, alpha = 1/2: the direct
    # forms give 0 or nan, the ratios taken first do not), against exact rational arithmetic
    big_n, big_d, half = Fraction(10) ** 200, Fraction(10) ** 250, Fraction(1, 2)
    extreme = [float(mm.noise_coefficient(mech, 1e200, 1e250, 0.5, delta)) for mech in ("kl", "gauss", "laplace")]
    extreme_exact = [float(2 * big_d / (big_n ** 2 * half)),
                     float(8 * big_d / (big_n ** 2 * half ** 2)) * math.log(1.25 / delta),
                     float(8 * big_d ** 2 / (big_n ** 2 * half ** 2))]
    early(close, extreme, extreme_exact, rtol=1e-14)
    cases = [(mech, k) for mech in ("kl", "gauss", "laplace", "none") for k in ((2.0, 4.0, np.inf) if mech != "none" else (4.0,))]
    z_limit = _z_max(len(cases))
    z_obs, lhs, rhs, closed_form, ours, exact, inf_risk, inf_bound, inf_ref = [], [], [], [], [], [], [], [], []
    for mech in ("kl", "gauss", "laplace", "none"):
        c_ref = 0.0 if mech == "none" else _noise_coefficient_by_calibration(mech, n, d, alpha, delta)
        for k in ((2.0, 4.0, np.inf) if mech != "none" else (4.0,)):
            # without noise (31) decreases in T: no truncation, T beyond every record (|u| <= 10^3 r)
            T = min(float(mm.optimal_truncation(r, k, float(mm.noise_coefficient(mech, n, d, alpha, delta)))), 1e6)
            risk, p = mm.worst_two_point_risk(r, k, n, d, alpha, mech, delta)
            risk, p = float(risk), float(p)
            X = np.zeros((reps, n, d))
            if np.isinf(k):  # +-r e_1 with probability 1/2: no truncation bias at T = r
                X[..., 0] = r * np.where(rng.random((reps, n)) < 0.5, 1.0, -1.0)
                target, reference_risk = 0.0, r ** 2 / n + c_ref * r ** 2
            else:
                u = r * p ** (-1 / k)
                X[..., 0] = u * (rng.random((reps, n)) < p)
                cu = min(u, T)
                target = p * u
                reference_risk = (p * (cu - u)) ** 2 + cu ** 2 * p * (1 - p) / n + c_ref * T ** 2
            ours.append(risk)
            exact.append(reference_risk)
            early(close, ours, exact, rtol=1e-12)
            bound = float(mm.risk_bound_31(r, k, n, T, float(mm.noise_coefficient(mech, n, d, alpha, delta))))
            if np.isinf(k):
                inf_risk.append(risk)
                inf_bound.append(bound)
                inf_ref.append(reference_risk)
                early(close, np.r_[inf_risk, inf_bound], np.r_[inf_ref, inf_ref], rtol=1e-12)
            else:
                lhs.append(risk)
                rhs.append(bound)
                closed_form.append(r ** 2 / n + k * (k - 1) ** (-(k - 1) / k) * r ** 2 * c_ref ** ((k - 1) / k))
                early(close, rhs, closed_form, rtol=1e-12)
                early(at_most, lhs, rhs)
            est = mm.private_mean(X, mech, alpha, T, delta, rng)
            loss = np.sum((est - np.array([target] + [0.0] * (d - 1))) ** 2, axis=1)
            z_obs.append(abs(loss.mean() - reference_risk) / (loss.std(ddof=1) / np.sqrt(reps)))
            early(at_most, z_obs, z_limit, atol=0.0)
    return all_of(at_most(z_obs, z_limit, atol=0.0,
                          detail="z-scores of the Monte Carlo mean against the reference risk"),
                  close(extreme, extreme_exact, rtol=1e-14,
                        detail="c_W at n = 1e200, d = 1e250 (squares out of range) against exact rationals"),
                  close(ours, exact, rtol=1e-12, detail="privlib's worst two-point risk against the reference risk"),
                  close(rhs, closed_form, rtol=1e-12, detail="(31) at the optimal truncation is r^2/n + C_k r^2 c_W^((k-1)/k)"),
                  at_most(lhs, rhs, detail="exact worst two-point risk below bound (31), k = 2, 4"),
                  close(np.r_[inf_risk, inf_bound], np.r_[inf_ref, inf_ref], rtol=1e-12,
                        detail="k = inf: the worst risk and (31) at T = r both equal r^2/n + c_W r^2 (attained)"))


@prop6_risk.mutant("minimax.noise_coefficient", "Gaussian, squares out of range: d / n read as n / d")
def _(noise_coefficient):
    return edit("stable = 8.0 * np.log(1.25 / dl) * (d_ / n_) / n_ / a_ ** 2",
                "stable = 8.0 * np.log(1.25 / dl) / (d_ / n_) / n_ / a_ ** 2")(noise_coefficient)


@prop6_risk.mutant("minimax.noise_coefficient", "Laplace calibrated by the l2 sensitivity (d in place of d^2)")
def _(noise_coefficient):
    return edit("return 8.0 * d_ ** 2 / (n_ ** 2 * a_ ** 2)", "return 8.0 * d_ / (n_ ** 2 * a_ ** 2)")(noise_coefficient)


@prop6_risk.mutant("minimax.noise_coefficient", "KL noise with the factor 2 dropped (KL = Delta^2 / sigma^2)")
def _(noise_coefficient):
    return edit("return 2.0 * d_ / (n_ ** 2 * a_)", "return 1.0 * d_ / (n_ ** 2 * a_)")(noise_coefficient)


@prop6_risk.mutant("minimax.worst_two_point_risk", "k = inf: the noise term dropped")
def _(worst_two_point_risk):
    return edit("return r_ ** 2 / n_ + c * r_ ** 2, np.full(c.shape, 0.5)",
                "return r_ ** 2 / n_, np.full(c.shape, 0.5)")(worst_two_point_risk)


@prop6_risk.mutant("minimax.risk_bound_31", "k = inf: no bias only beyond r (T > r, not T >= r)")
def _(risk_bound_31):
    return edit("np.where(t >= r_, 0.0, np.inf)", "np.where(t > r_, 0.0, np.inf)")(risk_bound_31)


@prop6_risk.mutant("minimax.risk_bound_31", "bias term r^{2k}/T^{2(k-1)} dropped")
def _(risk_bound_31):
    return lambda r, k, n, T, c_W: np.asarray(r) ** 2 / np.asarray(n) + np.asarray(c_W) * np.asarray(T) ** 2


@prop6_risk.mutant("minimax._two_point_error", "sampling variance c^2 p/n instead of c^2 p (1 - p)/n")
def _(two_point_error):
    def wrong(p, r, k, n, T):
        u = r * p ** (-1.0 / k)
        cu = np.minimum(u, T)
        return (p * (cu - u)) ** 2 + cu ** 2 * p / n
    return wrong


@prop6_risk.mutant("minimax._two_point_error", "truncation ignored in the exact risk")
def _(two_point_error):
    return lambda p, r, k, n, T: two_point_error(p, r, k, n, np.inf)


@prop6_risk.mutant("minimax.optimal_truncation", "exponent 1/k instead of 1/(2k)")
def _(optimal_truncation):
    def wrong(r, k, c_W):
        k = np.asarray(k, dtype=float)
        with np.errstate(divide="ignore"):
            t = r * ((k - 1.0) / np.asarray(c_W)) ** (1.0 / k)
        return np.where(np.isinf(k), r, t)
    return wrong


def _calibration_levels(n: float, d: int, alpha: float) -> tuple[list[float], list[float]]:
    """Privacy level of the Laplace (alpha-DP) and KL-Gaussian noise of privlib's noise
    coefficient at the worst neighbouring samples (one record moved from ``-T u`` to ``T u``),
    computed from the two output laws; each must equal ``alpha`` (the calibration is tight)."""
    T, m = 1.0, int(n)
    u = np.ones(d) / np.sqrt(d)
    x = np.zeros((m, d))
    x[0] = -3 * T * u
    y = x.copy()
    y[0] = 3 * T * u
    gap = mm.project_l2_ball(y, T).mean(0) - mm.project_l2_ball(x, T).mean(0)
    b = T * np.sqrt(float(mm.noise_coefficient("laplace", n, d, alpha)) / (2 * d))
    z = -20 * b * np.sign(gap)  # far on the side where every coordinate's ratio is largest
    laplace = float((np.abs(z - gap).sum() - np.abs(z).sum()) / b)
    g = np.array([2 * T / n])  # the l2 gap, along one axis for the Gaussian
    s = T * np.sqrt(float(mm.noise_coefficient("kl", n, d, alpha)) / d)
    kl = _quad_normal_shift_kl(float(g[0]), s)
    return [laplace, kl], [alpha, alpha]


@claim("002/table1-rates", item="Table 1 (upper bounds, rates of Proposition 6)",
       statement="The estimators of Section 4 attain the exponents of Table 1: the privacy part of the risk scales as $(d^2/(n^2\\alpha^2))^{(k-1)/k}$ under $\\alpha$-DP, $(d\\log(1/\\delta)/(n^2\\alpha^2))^{(k-1)/k}$ under approximate DP and $(d/(n^2\\alpha))^{(k-1)/k}$ under $\\alpha$-KL privacy, for $k = 2, 4, \\infty$; the Laplace and KL noise is the least that meets its privacy level.",
       method="the noise level of privlib's noise coefficient checked tight: at the worst neighbouring samples the Laplace log-ratio and the KL (quadrature) equal $\\alpha$ on a grid of $(n, d, \\alpha)$ (the Gaussian's classical calibration is not tight and is not checked here); least-squares slopes of the exact worst two-point excess risk against $\\log n$, $\\log d$, $\\log\\alpha$, tolerance 0.05 (the estimator's Monte Carlo risk is checked against the exact risk by 002/prop6-risk)",
       checks=("minimax.table1_slopes", "minimax.noise_coefficient"))
def table1_rates() -> Evidence:
    levels, targets = [], []
    for n, d, alpha in itertools.product((100, 10_000), (1, 7, 50), (0.05, 0.5)):
        got, want = _calibration_levels(n, d, alpha)
        levels += got
        targets += want
    slopes, theory = [], []
    for k in (2.0, 4.0, np.inf):
        for row in mm.table1_slopes(k):
            slopes.append(row["exact"])
            theory.append(row["theory"])
    return all_of(close(levels, targets, rtol=1e-9, detail="privacy level of the calibrated noise at the worst neighbours"),
                  close(slopes, theory, atol=0.05, rtol=0.0, detail="measured slopes against Table 1's exponents"))


@table1_rates.mutant("minimax.noise_coefficient", "KL variance 4 d/(n^2 alpha) (twice the needed noise)")
def _(noise_coefficient):
    def wrong(mechanism, n, d, alpha, delta=None):
        c = noise_coefficient(mechanism, n, d, alpha, delta)
        return 2 * c if mechanism == "kl" else c
    return wrong


@claim("002/table1-lower", item="Table 1 (lower bounds, Propositions 2 and 4)",
       statement="The explicit lower bounds behind Table 1's lower-bound column scale with the table's exponents, $a = 2(k-1)/k$: $n^{-a}$, $d^{a}$ and $\\alpha^{-a}$ under $\\alpha$-DP; $n^{-a}$ and no growth in $d$ beyond $\\log(1/\\delta)$ under approximate DP; $n^{-a}$ and $\\alpha^{-a}$ under TV privacy; $n^{-1}$ without privacy, for $k = 2, 4, \\infty$.",
       method="least-squares slopes of privlib's bounds (each a maximum over the mixture weight $p$ of Theorem 3's or Le Cam's bound) against $\\log n$, $\\log d$, $\\log\\alpha$ in the regime where the exponents are asymptotic ($n\\alpha \\gg d$; $d$ from $2^{10}$ to $2^{14}$); tolerance 0.05 (the $d$-dependence carries a lower-order $\\sqrt d$ term)",
       checks=("minimax.table1_lower_slopes", "minimax.lower_bound_dp_mean", "minimax.lower_bound_tv_mean",
               "minimax.lower_bound_nonprivate_mean"))
def table1_lower() -> Evidence:
    measured, theory = [], []
    for k in (2.0, 4.0, np.inf):
        for row in mm.table1_lower_slopes(k):
            measured.append(row["measured"])
            theory.append(row["theory"])
    return close(measured, theory, atol=0.05, rtol=0.0, detail="measured slopes against Table 1's exponents")


@table1_lower.mutant("minimax.lower_bound_dp_mean", "separation r p^{(k-1)/k} not squared (p^{a/2})")
def _(lower_bound_dp_mean):
    def wrong(n, d, alpha, delta=0.0, r=1.0, k=np.inf, n_grid=25):
        b = lower_bound_dp_mean(n, d, alpha, delta, r, k, n_grid)
        return np.sqrt(b)
    return wrong


@table1_lower.mutant("minimax.lower_bound_tv_mean", "contraction alpha n p replaced by alpha p (Theorem 2 without n)")
def _(lower_bound_tv_mean):
    return lambda n, alpha, r=1.0, k=np.inf: lower_bound_tv_mean(np.ones_like(np.asarray(n, dtype=float)), alpha, r, k)


@table1_lower.mutant("minimax.lower_bound_nonprivate_mean", "eta r instead of (eta r)^2 (loss not squared)")
def _(lower_bound_nonprivate_mean):
    return lambda n, r=1.0: np.sqrt(lower_bound_nonprivate_mean(n, r))


#: Table 1's rate (constants 1) is the order of the explicit lower bound: their ratio stays in this
#: range (above: every explicit bound carries a constant below 1/4, 1/16 in Proposition 4, 1/8 in
#: Proposition 2, max over eta of eta^2 (1 - TV)/2 < 1/6 without privacy)
_RATE_RATIO = (1e-2, 0.25)


@claim("002/table1-rate-function", item="Table 1 (the rates as a function)",
       statement="Table 1's lower-bound rate with every constant 1, $r^2/n + r^2\\min(1, (m/(n\\alpha))^{2(k-1)/k})$ with $m = d$ (DP, smooth DP), $m = \\min(d, \\log(1/\\delta))$ (approximate DP), $m = 1$ (TV, and KL at TV level $\\sqrt{\\alpha/2}$ by Pinsker), is the order of the explicit lower bound behind each entry: over six decades of $n$ the ratio bound / rate stays within $[10^{-2}, 1/4]$ (the explicit bounds' constants are below 1/4), for $k = 2, 4, \\infty$, $d = 1, 64$ and $\\alpha$ from 0.02 to 1.",
       method="privlib's explicit lower bounds (the larger of the two-point non-private bound and Theorem 3's or Le Cam's privacy bound, each maximised over the mixture weight) divided by the rate, on $n = 10^2 .. 10^8$ (where the privacy term and the non-private term each dominate); a wrong exponent, a missing $\\log(1/\\delta)$ cap or Pinsker's square root moves the ratio by a power of $n$ or by a factor 5 to 25",
       checks=("minimax.minimax_rate", "minimax.lower_bound"))
def table1_rate_function(r: float = 1.0, delta: float = 1e-6) -> Evidence:
    n = np.round(np.geomspace(1e2, 1e8, 7))
    ratios = []
    for k in (2.0, 4.0, np.inf):
        for d, alpha in ((1, 1.0), (64, 0.1), (64, 0.02)):
            pairs = [("none", "none", alpha), ("dp", "dp", alpha), ("smooth_dp", "dp", alpha),
                     ("approx_dp", "approx_dp", alpha), ("tv", "tv", alpha), ("kl", "tv", np.sqrt(alpha / 2))]
            for rate_of, bound_of, level in pairs:
                rate = mm.minimax_rate(rate_of, n, d, alpha, delta, r, k)
                ratios.append(mm.lower_bound(bound_of, n, d, level, delta, r, k) / rate)
    ratios = np.concatenate(ratios)
    lo, hi = _RATE_RATIO
    # where m / (n alpha) >= 1 the privacy term is capped at r^2 (the trivial risk of the centre):
    # the rate is r^2 / n + r^2, here at n = 10^2, d = 64, alpha = 0.02 (m / (n alpha) = 32, or
    # log(1/delta) / 2 >= 3.4 under approximate DP for delta <= 1e-3), in exact rational arithmetic
    sat_n, sat_d, sat_alpha = 100, 64, 0.02
    capped = np.array([mm.minimax_rate(p, float(sat_n), sat_d, sat_alpha, delta, r, k)
                       for p in ("dp", "smooth_dp", "approx_dp") for k in (2.0, 4.0, np.inf)]).ravel()
    exact = float(Fraction(r) ** 2 / sat_n + Fraction(r) ** 2)
    return all_of(at_most(lo, ratios.min(), atol=0.0, detail="smallest ratio of the explicit bound to the rate"),
                  at_most(ratios.max(), hi, atol=0.0, detail="largest ratio of the explicit bound to the rate"),
                  close(capped, np.full(capped.shape, exact), rtol=1e-14,
                        detail="rate where m / (n alpha) >= 1: r^2 / n + r^2 (privacy term capped at r^2)"))


@table1_rate_function.mutant("minimax.minimax_rate", "privacy term capped at 2 r^2 instead of r^2")
def _(minimax_rate):
    return edit("np.minimum(1.0, (m / (n_ * a_)) ** a)", "np.minimum(2.0, (m / (n_ * a_)) ** a)")(minimax_rate)


@table1_rate_function.mutant("minimax.minimax_rate", "exponent (k-1)/k instead of 2(k-1)/k")
def _(minimax_rate):
    def wrong(privacy, n, d=1, alpha=1.0, delta=0.0, r=1.0, k=np.inf):
        base = r ** 2 / np.asarray(n, dtype=float)
        return base + np.sqrt(minimax_rate(privacy, n, d, alpha, delta, r, k) - base) * r
    return wrong


@table1_rate_function.mutant("minimax.minimax_rate", "approximate DP without the log(1/delta) cap (m = d)")
def _(minimax_rate):
    def wrong(privacy, n, d=1, alpha=1.0, delta=0.0, r=1.0, k=np.inf):
        return minimax_rate("dp" if privacy == "approx_dp" else privacy, n, d, alpha, delta, r, k)
    return wrong


@table1_rate_function.mutant("minimax.minimax_rate", "KL level alpha read as a TV level (no Pinsker square root)")
def _(minimax_rate):
    def wrong(privacy, n, d=1, alpha=1.0, delta=0.0, r=1.0, k=np.inf):
        return minimax_rate("tv" if privacy == "kl" else privacy, n, d, alpha, delta, r, k)
    return wrong


@table1_rate_function.mutant("minimax.minimax_rate", "TV rate growing with d (m = d as under DP)")
def _(minimax_rate):
    def wrong(privacy, n, d=1, alpha=1.0, delta=0.0, r=1.0, k=np.inf):
        return minimax_rate("dp" if privacy in ("tv", "kl") else privacy, n, d, alpha, delta, r, k)
    return wrong


@table1_rate_function.mutant("minimax.lower_bound", "the privacy term alone (the non-private r^2/n dropped)")
def _(lower_bound):
    def wrong(privacy, n, d=1, alpha=1.0, delta=1e-30, r=1.0, k=np.inf):
        if privacy == "tv":
            return mm.lower_bound_tv_mean(n, alpha, r, k) + 0.0 * np.asarray(d, dtype=float)
        if privacy in ("dp", "approx_dp"):
            return mm.lower_bound_dp_mean(n, d, alpha, 0.0 if privacy == "dp" else delta, r, k)
        return lower_bound(privacy, n, d, alpha, delta, r, k)
    return wrong


@table1_rate_function.mutant("minimax.lower_bound", "approximate DP bound at delta = 0 (pure DP)")
def _(lower_bound):
    def wrong(privacy, n, d=1, alpha=1.0, delta=1e-30, r=1.0, k=np.inf):
        return lower_bound("dp" if privacy == "approx_dp" else privacy, n, d, alpha, delta, r, k)
    return wrong


@claim("002/prop6-simulated-risk", item="Proposition 6 (the estimator simulated)",
       statement="Simulating estimator (20) on the two-point laws ($k$ finite: $(1-p)\\delta_0 + p\\delta_{r p^{-1/k} e_1}$; $k = \\infty$: $\\pm r e_1$ with probability 1/2) gives its exact risk: the binomial error of the truncated mean plus the noise's $c_W T^2$.",
       method="privlib's Monte Carlo (4000 replicates per case; Laplace and Gaussian noise, $k = 4$ with the truncation binding and not, $k = \\infty$) against the exact risk summed over the binomial count (scipy's binomial law) plus $c_W T^2$, within the z-score of family-wise false-alarm probability $10^{-6}$",
       checks=("minimax.simulate_two_point_risk",))
def prop6_simulated_risk(seed: int = 27, reps: int = 4000) -> Evidence:
    rng = np.random.default_rng(seed)
    r, n, delta = 1.0, 50, 1e-5
    z = []
    # (mechanism, k, p, d, alpha): the truncation binds (u = r p^{-1/k} > T) in the first and third;
    # in the second the noise is small and the records' error dominates
    for mech, k, p, d, alpha in (("laplace", 4.0, 0.001, 1, 5.0), ("laplace", 4.0, 0.3, 1, 20.0),
                                 ("gauss", 4.0, 0.01, 3, 1.0), ("laplace", np.inf, 0.5, 3, 1.0)):
        dl = delta if mech == "gauss" else None
        c = float(mm.noise_coefficient(mech, n, d, alpha, dl))
        t = float(mm.optimal_truncation(r, k, c))
        u, q = (r, 0.5) if np.isinf(k) else (r * p ** (-1.0 / k), p)
        b = np.arange(n + 1)
        pmf = stats.binom.pmf(b, n, q)
        if np.isinf(k):   # +-r e_1: the mean of the truncated records is min(r, T) (2B/n - 1)
            exact = float(np.sum(pmf * (min(r, t) * (2.0 * b / n - 1.0)) ** 2)) + c * t ** 2
        else:
            exact = float(np.sum(pmf * (min(u, t) * b / n - q * u) ** 2)) + c * t ** 2
        mean, se = mm.simulate_two_point_risk(p, r, k, n, d, alpha, mech, t, dl, reps, rng)
        z.append(abs(mean - exact) / se)
    return at_most(z, _z_max(len(z)), atol=0.0, detail="z-scores of the simulated risk against the exact risk")


@prop6_simulated_risk.mutant("minimax.simulate_two_point_risk", "the noise left out of the simulation")
def _(simulate_two_point_risk):
    def wrong(p, r, k, n, d, alpha, mechanism, T, delta=None, reps=2000, rng=None):
        return simulate_two_point_risk(p, r, k, n, d, alpha, "none", T, None, reps, rng)
    return wrong


@prop6_simulated_risk.mutant("minimax.simulate_two_point_risk", "the law +-r e_1 of k = inf simulated for every k")
def _(simulate_two_point_risk):
    def wrong(p, r, k, n, d, alpha, mechanism, T, delta=None, reps=2000, rng=None):
        return simulate_two_point_risk(p, r, np.inf, n, d, alpha, mechanism, T, delta, reps, rng)
    return wrong


@prop6_simulated_risk.mutant("minimax.simulate_two_point_risk", "the far atom at r p^{1/k} (exponent's sign lost)")
def _(simulate_two_point_risk):
    def wrong(p, r, k, n, d, alpha, mechanism, T, delta=None, reps=2000, rng=None):
        if np.isinf(k):
            return simulate_two_point_risk(p, r, k, n, d, alpha, mechanism, T, delta, reps, rng)
        # the law (1 - p) delta_0 + p delta_{r p^{1/k}}: the same as k' with p^{-1/k'} = p^{1/k}
        return simulate_two_point_risk(p, r * p ** (2.0 / k), k, n, d, alpha, mechanism, T, delta, reps, rng)
    return wrong


@claim("002/prop5-optimal-bins", item="Proposition 5 (the number of bins)",
       statement="The number of bins per axis that minimises the exact risk (19) of the $\\alpha$-DP histogram, found by privlib's search over 40 log-spaced candidates refined between neighbours, is the minimiser over every integer $m$ from 1 to $3 n^{1/d}$.",
       method="(19) evaluated at every integer number of bins (up to 3000) and the smallest taken, for $d = 1$ ($n = 300, 1000$) and $d = 2$ ($n = 10^4, 10^6$), $\\alpha$ from 0.1 to 1 (the sine density of Proposition 5's check)",
       checks=("minimax.histogram_optimal_bins",))
def prop5_optimal_bins(amplitude: float = 0.45) -> Evidence:
    _, cdf, int_g2 = _sine_density(amplitude)
    ours, brute = [], []
    for n, alpha, d in ((1e3, 1.0, 1), (300.0, 0.1, 1), (1e6, 1.0, 2), (1e4, 0.5, 2)):
        top = max(1, int(3 * n ** (1.0 / d)))
        every = np.arange(1, top + 1)
        risk = mm.histogram_risk_exact(cdf, int_g2, n, every, alpha, d)
        m, best = mm.histogram_optimal_bins(cdf, int_g2, n, alpha, d)
        ours.extend([m, best])
        brute.extend([int(every[np.argmin(risk)]), float(risk.min())])
    return close(ours, brute, atol=0.0, rtol=1e-12, detail="minimising m and its risk")


@prop5_optimal_bins.mutant("minimax.histogram_optimal_bins", "the best of the 40 log-spaced candidates (no refinement)")
def _(histogram_optimal_bins):
    def wrong(cdf, int_g2, n, alpha, d=1, m_max=20_000):
        top = max(1, min(m_max, int(3 * n ** (1.0 / d))))
        cand = np.unique(np.round(np.geomspace(1, top, 40)))
        risk = mm.histogram_risk_exact(cdf, int_g2, n, cand, alpha, d)
        return int(cand[np.argmin(risk)]), float(risk.min())
    return wrong


def _sine_density(amplitude: float):
    """``g(x) = 1 + a sin(2 pi x)`` on [0, 1], its CDF and the integral of g^2."""
    g = lambda x: 1.0 + amplitude * np.sin(2 * np.pi * x)  # noqa: E731
    cdf = lambda x: x - amplitude * (np.cos(2 * np.pi * x) - 1.0) / (2 * np.pi)  # noqa: E731
    return g, cdf, 1.0 + amplitude ** 2 / 2


def _histogram_monte_carlo(seed: int, case: int, d: int, n: int, m: int, alpha: float, reps: int,
                           amplitude: float) -> tuple[np.ndarray, float]:
    """Case ``case`` of 002/prop5-density: the integrated squared errors of ``reps`` runs of
    privlib's private histogram on n records drawn (by rejection) from the sine density on
    [0, 1]^d, errors integrated bin by bin with quadrature; and, on the last sample, the largest gap
    of the non-private histogram (alpha = inf) to numpy's bin counts over n, per volume."""
    rng = np.random.default_rng([seed, case + 1])   # not the claim's own stream (a trailing 0 word would be)
    g = _sine_density(amplitude)[0]
    edges = np.linspace(0, 1, m + 1)
    mass = np.array([integrate.quad(g, a, b)[0] for a, b in zip(edges[:-1], edges[1:])])
    sq = np.array([integrate.quad(lambda x: g(x) ** 2, a, b)[0] for a, b in zip(edges[:-1], edges[1:])])
    mass_d, sq_d = mass, sq
    for _ in range(d - 1):
        mass_d, sq_d = np.multiply.outer(mass_d, mass), np.multiply.outer(sq_d, sq)
    losses = np.empty(reps)
    for i in range(reps):
        x = rng.random((3 * n, d))
        keep = np.all(rng.random((3 * n, d)) * (1 + amplitude) < g(x), axis=1)
        est = mm.private_histogram(x[keep][:n], m, alpha, rng)
        losses[i] = np.sum(est ** 2 / m ** d - 2 * est * mass_d + sq_d)
    plain = mm.private_histogram(x[keep][:n], m, np.inf, rng)
    counts = np.histogramdd(x[keep][:n], bins=[edges] * d)[0]
    return losses, float(np.max(np.abs(plain - counts / n * m ** d)))


@claim("002/prop5-density", item="Proposition 5 and (19)",
       statement="The $\\alpha$-DP histogram has exact risk (19): bias + sampling variance + $8 m^{2d}/(n\\alpha)^2$; the lower bound's packing consists of 1-Lipschitz densities within $p$ of uniform, mixtures $(1 - p) 1 + p g_v$, with squared $L^2$ separation $\\mathrm{Hamming}(v, v') p^3/12$ (constants ours).",
       method="Monte Carlo of privlib's estimator ($d = 1$ and $d = 2$, 600 replicates, errors integrated bin by bin with quadrature) against privlib's exact risk, within the z-score of family-wise false-alarm probability $10^{-6}$ (5.0 standard errors); at $\\alpha = \\infty$ (no noise) the estimate against numpy's bin counts; the packing evaluated on a grid of $10^6$ points",
       checks=("minimax.histogram_risk_exact", "minimax.private_histogram", "minimax.bump_packing_density"))
def prop5_density(seed: int = 14, reps: int = 600, amplitude: float = 0.45) -> Evidence:
    g, cdf, int_g2 = _sine_density(amplitude)
    cases = ((1, 1000, 10, 0.5), (2, 2000, 5, 1.0))
    z_scores, plain_gap = [], []
    for case, (d, n, m, alpha) in enumerate(cases):
        # the Monte Carlo of each case from its own generator: a function of the case alone
        losses, gap = _histogram_monte_carlo(seed, case, d, n, m, alpha, reps, amplitude)
        plain_gap.append(gap)
        exact = float(mm.histogram_risk_exact(cdf, int_g2, n, m, alpha, d))
        z_scores.append(abs(losses.mean() - exact) / (losses.std(ddof=1) / np.sqrt(reps)))
        early(at_most, z_scores, _z_max(len(cases)), atol=0.0)
    histogram = at_most(z_scores, _z_max(len(z_scores)), atol=0.0,
                        detail="z-scores of the Monte Carlo risk against (19)")
    rng = np.random.default_rng(seed)
    width = 0.05
    cells = int(np.floor(1 / width))
    x = (np.arange(1_000_000) + 0.5) / 1_000_000
    v1, v2 = rng.choice([-1.0, 1.0], cells), rng.choice([-1.0, 1.0], cells)
    f1, f2 = mm.bump_packing_density(x, v1, width), mm.bump_packing_density(x, v2, width)
    lipschitz = np.max(np.abs(np.diff(f1)) / np.diff(x))
    sep2 = np.mean((f1 - f2) ** 2)
    ham = np.sum(v1 != v2)
    facts = [lipschitz, np.max(np.abs(f1 - 1)) / width, 0.75 - np.min(1 + (f1 - 1) / width)]
    packing_facts = at_most(facts, [1.0 + 1e-6, 0.25 + 1e-6, 1e-6], atol=0.0,
                            detail="Lipschitz constant, distance to uniform, g_v >= 3/4")
    plain = at_most(plain_gap, 1e-12, atol=0.0, detail="alpha = inf: the histogram of numpy's bin counts (largest gap)")
    refused = 0
    for wrong in (v1[:-1], np.append(v1, 1.0)):   # a sign vector must index exactly floor(1/width) cells
        try:
            mm.bump_packing_density(x[:10], wrong, width)
        except ValueError:
            refused += 1
    refusal = holds(refused == 2, observed=refused, reference=2,
                    detail="sign vectors of floor(1/width) -/+ 1 entries refused")
    return all_of(histogram, plain, packing_facts, refusal,
                  close([np.mean(f1), sep2], [1.0, ham * width ** 3 / 12], atol=0.0, rtol=1e-4,
                        detail="mass 1 and squared separation Hamming p^3/12"))


@prop5_density.mutant("minimax.histogram_risk_exact", "Laplace noise term dropped from (19)")
def _(histogram_risk_exact):
    return lambda cdf, int_g2, n, m, alpha, d=1: histogram_risk_exact(cdf, int_g2, n, m, np.inf, d)


@prop5_density.mutant("minimax.private_histogram", "Laplace scale 4/(n alpha): sensitivity counted twice")
def _(private_histogram):
    return lambda X, m, alpha, rng=None: private_histogram(X, m, alpha / 2, rng)


@prop5_density.mutant("minimax.bump_packing_density", "tents of height width/2 (twice too steep)")
def _(bump_packing_density):
    return lambda x, signs, width: 1.0 + 2.0 * (bump_packing_density(x, signs, width) - 1.0)


@claim("002/prop5-packing", item="Proposition 5, packing (30)",
       statement="The index set of the density packing can have $|\\mathcal V| \\ge 2^m/\\sum_{i < D} \\binom{m}{i}$ sign vectors at pairwise Hamming distance $D$ (Gilbert-Varshamov; with $D = m/8$ this is $e^{c_0 m}$), and then the densities $f_v$ are pairwise at squared $L^2$ distance at least $D p^3/12$.",
       method="privlib's greedy code for $(m, D) = (8, 2), (12, 3), (14, 4)$: every pairwise Hamming distance, and the size against the bound computed with exact binomial coefficients; the densities of 30 code pairs on a grid of $2 \\times 10^5$ points",
       checks=("minimax.hamming_packing", "minimax.bump_packing_density"))
def prop5_packing() -> Evidence:
    min_dist, targets, sizes, gv = [], [], [], []
    for m, D in ((8, 2), (12, 3), (14, 4)):
        code = mm.hamming_packing(m, D)
        bits = code > 0
        dist = (bits[:, None, :] != bits[None, :, :]).sum(axis=2) if len(code) <= 3000 else None
        if dist is None:  # large code: distances of every word to every other, in blocks
            dist = np.concatenate([(bits[i:i + 500, None, :] != bits[None, :, :]).sum(axis=2)
                                   for i in range(0, len(code), 500)])
        np.fill_diagonal(dist, m + 1)
        min_dist.append(int(dist.min()))
        targets.append(D)
        early(close, min_dist, targets, atol=0.5, rtol=0.0)
        sizes.append(len(code))
        gv.append(2 ** m / sum(math.comb(m, i) for i in range(D)))
    width = 1 / 12
    code = mm.hamming_packing(12, 3)
    x = (np.arange(200_000) + 0.5) / 200_000
    rng = np.random.default_rng(17)
    seps, lows = [], []
    for _ in range(30):
        i, j = rng.choice(len(code), 2, replace=False)
        f1, f2 = mm.bump_packing_density(x, code[i], width), mm.bump_packing_density(x, code[j], width)
        seps.append(np.mean((f1 - f2) ** 2))
        lows.append(3 * width ** 3 / 12)
    return all_of(close(min_dist, targets, atol=0.5, rtol=0.0, detail="smallest pairwise Hamming distance is D"),
                  at_most(gv, sizes, atol=0.0, detail="size at least the Gilbert-Varshamov bound"),
                  at_most(np.array(lows) * (1 - 1e-6), seps, atol=0.0, detail="squared L2 separation >= D p^3/12"))


@prop5_packing.mutant("minimax.hamming_packing", "words at distance D - 1 accepted (off by one)")
def _(hamming_packing):
    return lambda m, min_distance: hamming_packing(m, max(min_distance - 1, 1))


@prop5_packing.mutant("minimax.hamming_packing", "distance D + 1 required (off by one the other way)")
def _(hamming_packing):
    return lambda m, min_distance: hamming_packing(m, min(min_distance + 1, m))


@claim("002/eq16-sample-complexity", item="Eq. (16) (sample size for the non-private rate)",
       statement="Under $\\alpha$-DP the non-private rate $r^2/n$ is reached once $n$ exceeds a constant times $(d/\\alpha)^{2(k-1)/(k-2)}$: $n \\sim d^3$ for $k = 4$ and $n \\sim d^2$ for $k = \\infty$, both for the estimator (upper bound) and for the lower bound.",
       method="upper bound: for each $d$, the smallest $n$ on a fine grid where the exact worst two-point risk of the Laplace estimator is at most twice $r^2/n$ ($k = 3, 4, 6, \\infty$); lower bound: the $n$ where the DP lower bound's privacy term $C(d) n^{-a}$ ($C$ measured at $n = 10^{12}$) meets the non-private bound ($k = 4, \\infty$, $d$ from $2^{10}$ to $2^{14}$ times $\\max(\\alpha, 1)$; the crossover depends on $d/\\alpha$); least-squares slopes of $\\log n$ against $\\log d$, tolerance 0.05 (upper) and 0.1 (lower: the bound's $\\sqrt d$ correction is amplified by $a/(a-1)$)",
       checks=("minimax.worst_two_point_risk", "minimax.noise_coefficient", "minimax.lower_bound_dp_mean"))
def eq16_sample_complexity(alpha: float = 1.0) -> Evidence:
    # the crossover depends on d / alpha: d from 10^0.5 to 10^3 times alpha (at least 1), and the n
    # grid (50 points a decade) reaching (10^3 / alpha)^4, the largest crossover (k = 3)
    scale = max(float(alpha), 1.0)
    top = 14.0 + 4.0 * max(0.0, -np.log10(float(alpha)))
    n = np.logspace(0, top, int(round(50 * top)) + 1)[None, :]
    d = scale * np.logspace(0.5, 3, 11)[:, None]
    slopes, theory = [], []
    for k in (3.0, 4.0, 6.0, np.inf):
        risk, _ = mm.worst_two_point_risk(1.0, k, n, d, alpha, "laplace", n_grid=300)
        first = np.argmax(risk <= 2.0 / n, axis=1)
        if not (risk <= 2.0 / n).any(axis=1).all():
            return holds(False, detail=f"no crossover on the grid for k = {k:g}")
        slopes.append(np.polyfit(np.log(d.ravel()), np.log(n.ravel()[first]), 1)[0])
        theory.append(2.0 if np.isinf(k) else 2 * (k - 1) / (k - 2))
    lower, lower_theory = [], []
    n_ref = 1e12
    base = float(mm.lower_bound_nonprivate_mean(n_ref)) * n_ref  # the non-private bound is base / n
    dd = np.round(scale * 2.0 ** np.arange(10, 15))   # whole dimensions (the packing has 2^d points)
    for k in (4.0, np.inf):
        a = 2 - 2 / k
        C = mm.lower_bound_dp_mean(n_ref, dd, alpha, 0.0, 1.0, k) * n_ref ** a
        crossing = (C / base) ** (1 / (a - 1))
        lower.append(np.polyfit(np.log(dd), np.log(crossing), 1)[0])
        lower_theory.append(2.0 if np.isinf(k) else 2 * (k - 1) / (k - 2))
    return all_of(close(slopes, theory, atol=0.05, rtol=0.0, detail="estimator: slope of the crossover n in d"),
                  close(lower, lower_theory, atol=0.1, rtol=0.0, detail="lower bound: slope of the crossover n in d"))


@prop6_privacy.mutant("minimax.noise_coefficient", "Laplace variance 8d/(n alpha)^2: l2 sensitivity used as l1")
@table1_rates.mutant("minimax.noise_coefficient", "Laplace variance 8 d/(n alpha)^2 (d instead of d^2)")
@eq16_sample_complexity.mutant("minimax.noise_coefficient", "Laplace variance 8 d/(n alpha)^2 (d instead of d^2)")
def _(noise_coefficient):
    def wrong(mechanism, n, d, alpha, delta=None):
        c = noise_coefficient(mechanism, n, d, alpha, delta)
        return c / np.asarray(d, dtype=float) if mechanism == "laplace" else c
    return wrong


@eq16_sample_complexity.mutant("minimax.lower_bound_dp_mean", "packing of 2^{sqrt d} points instead of 2^d")
def _(lower_bound_dp_mean):
    return lambda n, d, alpha, delta=0.0, r=1.0, k=np.inf, n_grid=25: lower_bound_dp_mean(
        n, np.sqrt(np.asarray(d, dtype=float)), alpha, delta, r, k, n_grid)
