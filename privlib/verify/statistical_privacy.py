"""Claims of chapter 004 (Breutigam & Reischuk, statistical privacy), checked against exact
enumeration of databases and subsamples with rational arithmetic, numerical integration of the
mixture densities, and the paper's printed formulas (for the errata)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
from scipy import integrate, stats

from privlib import statistical
from privlib.claims import Evidence, at_most, claim, close, holds


def exact_laws(n: int, m: int, pi: Fraction) -> tuple[list[Fraction], list[Fraction]]:
    """``P_+(j)`` and ``P_-(j)`` by enumerating every pattern of the other n-1 entries and every
    subsample of size m (entry 0 is the critical one), in exact rational arithmetic."""
    plus = [Fraction(0)] * (m + 1)
    minus = [Fraction(0)] * (m + 1)
    subsets = list(itertools.combinations(range(n), m))
    share = Fraction(1, len(subsets))
    for others in itertools.product([0, 1], repeat=n - 1):
        weight = math.prod(pi if o else 1 - pi for o in others)
        for critical, law in ((1, plus), (0, minus)):
            db = (critical, *others)
            for sub in subsets:
                law[sum(db[i] for i in sub)] += weight * share
    return plus, minus


def exact_utility_loss(n: int, m: int, pi: Fraction) -> Fraction:
    """E[(subsample fraction - database fraction)^2] over every database and every subsample of
    size m, in exact rational arithmetic."""
    subsets = list(itertools.combinations(range(n), m))
    loss = Fraction(0)
    for db in itertools.product([0, 1], repeat=n):
        weight = math.prod(pi if x else 1 - pi for x in db)
        y = Fraction(sum(db), n)
        loss += weight * sum((Fraction(sum(db[i] for i in s), m) - y) ** 2 for s in subsets) / len(subsets)
    return loss


def _exact_delta(p: list[Fraction], q: list[Fraction], eps: float) -> float:
    """max of both hockey-stick sums, each term exact up to the one rounding of e^eps."""
    e = Fraction(math.exp(eps))
    d_plus = sum(max(a - e * b, Fraction(0)) for a, b in zip(p, q))
    d_minus = sum(max(b - e * a, Fraction(0)) for a, b in zip(p, q))
    return float(max(d_plus, d_minus))


@claim("004/lemma-4", item="Lemma 4",
       statement="For i.i.d. entries, the number of positives in a subsample of size m given the critical entry is the mixture lam Bin(m-1) shifted + (1-lam) Bin(m), exactly.",
       method="enumeration of all databases (n = 7) and all subsamples in exact rational arithmetic")
def lemma_4(n: int = 7, m: int = 3) -> Evidence:
    pi = Fraction(3, 10)
    plus, minus = exact_laws(n, m, pi)
    log_p, log_q = statistical.subsampling_laws(n, m, float(pi))
    return close(np.exp(np.concatenate([log_p, log_q])), [float(x) for x in plus + minus], rtol=1e-13, atol=0.0)


@claim("004/thm-4-1", item="Theorem 4.1",
       statement="The SP delta of subsampling is the hockey-stick divergence of the two laws of Lemma 4, in both directions.",
       method="exact laws from enumeration (n = 8, every m) and the hockey-stick sum in rational arithmetic, at 5 epsilons and 3 values of pi")
def thm_4_1(n: int = 8) -> Evidence:
    observed, reference = [], []
    for pi in (Fraction(1, 10), Fraction(3, 10), Fraction(1, 2)):
        for m in range(1, n + 1):
            plus, minus = exact_laws(n, m, pi)
            for eps in (0.0, 0.01, 0.1, 0.5, 1.0):
                observed.append(float(statistical.subsampling_delta(eps, n, m, float(pi))))
                reference.append(_exact_delta(plus, minus, eps))
    return close(observed, reference, atol=1e-13, rtol=0.0)


def printed_thm_4_1_delta_plus(eps: float, n: int, m: int, pi: float) -> float:
    """delta_+ with the threshold as printed in Theorem 4.1: min{lam, lam + (e^eps-1)/(1+e^eps xi)} n pi,
    i.e. the sum starts at ceil(lam n pi) (the cap always returns lam)."""
    lam, xi = m / n, pi / (1 - pi)
    j_star = min(lam, lam + np.expm1(eps) / (1 + np.exp(eps) * xi)) * n * pi
    log_p, log_q = statistical.subsampling_laws(n, m, pi)
    j = np.arange(m + 1)
    terms = np.exp(log_p) - np.exp(eps) * np.exp(log_q)
    return float(terms[j >= math.ceil(j_star)].sum())


@claim("004/erratum-e1", item="Theorem 4.1 (threshold cap)", kind="erratum",
       statement="The printed cap min{lam, lam + (e^eps-1)/(1+e^eps xi)} always returns lam, so the sum starts at the mean and adds negative terms; the cap must be lam/pi. With the corrected threshold the closed form equals the definition.",
       method="printed and corrected closed forms against the definition-level hockey-stick sum (n = 1000, m = 100, pi = 0.5, eps = 0.01)")
def erratum_e1(n: int = 1000, m: int = 100, pi: float = 0.5, epsilon: float = 0.01) -> Evidence:
    lam, xi = m / n, pi / (1 - pi)
    log_p, log_q = statistical.subsampling_laws(n, m, pi)
    terms = np.exp(log_p) - np.exp(epsilon) * np.exp(log_q)
    j_plus = (lam + np.expm1(epsilon) / (1 + np.exp(epsilon) * xi)) * n * pi  # corrected, uncapped
    corrected = float(terms[np.arange(m + 1) >= math.ceil(j_plus)].sum())
    definition = float(np.clip(terms, 0, None).sum())
    printed = printed_thm_4_1_delta_plus(epsilon, n, m, pi)
    if abs(printed - definition) < 1e-4:
        return holds(False, detail="the printed threshold agrees with the definition: no erratum")
    return close(corrected, definition, rtol=1e-12, atol=0.0,
                 detail=f"printed threshold gives delta_+ = {printed:.4f}, the definition {definition:.4f}")


@claim("004/thm-4-2", item="Theorem 4.2",
       statement="Pure statistical privacy: delta is the hockey-stick divergence of Bin(n-1) shifted by one against Bin(n-1); it never falls below the floors pi^(n-1) and (1-pi)^(n-1), for any epsilon.",
       method="exact rational enumeration of all databases (n = 10) at 5 epsilons and 3 values of pi, and the floors at epsilon = 50")
def thm_4_2(n: int = 10) -> Evidence:
    observed, reference = [], []
    for pi in (Fraction(1, 20), Fraction(1, 4), Fraction(1, 2)):
        plus, minus = exact_laws(n, n, pi)
        for eps in (0.0, 0.05, 0.2, 0.7, 50.0):
            observed.append(float(statistical.pure_delta(eps, n, float(pi))))
            reference.append(_exact_delta(plus, minus, eps))
        floor = float(max(pi ** (n - 1), (1 - pi) ** (n - 1)))
        observed.append(float(statistical.pure_delta(50.0, n, float(pi))))
        reference.append(floor)
    return close(observed, reference, rtol=1e-12, atol=1e-15)


def _trapezoid_delta(eps: float, n: int, pi: float, scale: float, noise: str) -> float:
    """max of both directions of int (p_+ - e^eps p_-)_+ by adaptive quadrature of the mixture
    densities, split at the lattice points."""
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


@claim("004/noise-sp", item="Section 5 (SP with Gaussian and Laplace noise)",
       statement="With additive noise the likelihood ratio of the two output laws is monotone, so delta is attained on a half-line found by one root search.",
       method="adaptive quadrature of the positive part of the two binomial mixtures of noise densities (n = 30), both directions")
def noise_sp(n: int = 30, epsilon: float = 0.05) -> Evidence:
    observed, reference = [], []
    for noise in ("gaussian", "laplace"):
        for pi in (0.1, 0.5):
            scale = 1.5 / n
            observed.append(float(statistical.noise_delta(epsilon, n, pi, scale, noise)))
            reference.append(_trapezoid_delta(epsilon, n, pi, scale, noise))
    return close(observed, reference, atol=1e-8, rtol=0.0)


@claim("004/lemma-5", item="Lemma 5",
       statement="Laplace noise of scale psi gives pure (1/(psi n), 0)-SP, and no smaller epsilon has delta = 0.",
       method="adaptive quadrature of the positive part of the mixture densities at eps = 1/(psi n) and at 0.999 of it")
def lemma_5(n: int = 30, pi: float = 0.3, nu: float = 2.0) -> Evidence:
    scale = nu / n
    eps0 = 1.0 / (scale * n)
    at, below = _trapezoid_delta(eps0, n, pi, scale, "laplace"), _trapezoid_delta(0.999 * eps0, n, pi, scale, "laplace")
    if not below > 1e-9:
        return holds(False, observed=below, detail="delta just below 1/(psi n) is not positive")
    return close([float(statistical.noise_delta(eps0, n, pi, scale, "laplace")), at], [0.0, 0.0], atol=1e-10,
                 detail=f"delta at 0.999/(psi n) = {below:.3g} > 0")


@claim("004/dp-baselines", item="Section 5 (DP baselines)",
       statement="At eps = 0.01 the DP delta of Gaussian noise with standard deviation nu/n is 0.38 for nu = 1 and 0.128 for nu = 3, as the text quotes.",
       method="adaptive quadrature of the hockey-stick integral of N(0, nu^2) against N(1, nu^2), compared with the printed values to their last digit")
def dp_baselines(epsilon: float = 0.01) -> Evidence:
    quad = []
    for nu in (1.0, 3.0):
        kink = (1 - 2 * nu**2 * epsilon) / 2  # left of it, N(1) exceeds e^eps N(0)
        f = lambda t, nu=nu: max(stats.norm.pdf(t, 1, nu) - np.exp(epsilon) * stats.norm.pdf(t, 0, nu), 0.0)
        quad.append(integrate.quad(f, kink, np.inf, epsabs=1e-13)[0] + integrate.quad(f, -np.inf, kink, epsabs=1e-13)[0])
    printed = [0.38, 0.128]
    if not np.allclose(statistical.dp_delta(epsilon, [1.0, 3.0]), quad, atol=1e-10):
        return close(statistical.dp_delta(epsilon, [1.0, 3.0]), quad, atol=1e-10)
    return close(quad, printed, atol=[0.005, 0.0005], rtol=0.0, detail="quadrature values rounded as printed")


@claim("004/lemma-7", item="Lemmas 7 and 8",
       statement="The utility loss of subsampling m of n i.i.d. entries is pi(1-pi)(1/m - 1/n), exactly.",
       method="enumeration of all databases and subsamples (n = 7, every m) in exact rational arithmetic")
def lemma_7(n: int = 7) -> Evidence:
    pi = Fraction(2, 7)
    observed, reference = [], []
    for m in range(1, n + 1):
        observed.append(float(statistical.subsampling_utility_loss(n, m, float(pi))))
        reference.append(float(exact_utility_loss(n, m, pi)))
    return close(observed, reference, rtol=1e-14, atol=1e-17)


@claim("004/erratum-e8", item="Lemma 10 (noise level)", kind="erratum",
       statement="Lemma 10 prints the Gaussian noise level as pi(1-pi)(1/lam - 1/n); the noise with the utility loss of subsampling has standard deviation sqrt(pi(1-pi)(1/(lam n) - 1/n)).",
       method="the utility loss of subsampling from exact enumeration (n = 7, m = 3) against the variance of each noise level")
def erratum_e8(n: int = 7, m: int = 3) -> Evidence:
    pi = Fraction(2, 7)
    loss = exact_utility_loss(n, m, pi)
    lam, p = m / n, float(pi)
    printed = p * (1 - p) * (1 / lam - 1 / n)
    corrected = np.sqrt(p * (1 - p) * (1 / (lam * n) - 1 / n))
    return close(corrected**2, float(loss), rtol=1e-13, atol=0.0,
                 detail=f"printed level squared {printed**2:.4g} vs the utility loss {float(loss):.4g}")


@claim("004/equal-utility", item="Section 4.4 (equal-utility calibration)",
       statement="Gaussian noise with standard deviation sqrt(UL) and Laplace noise with scale sqrt(UL/2) have the utility loss UL of subsampling; the Laplace mechanism is then (eps_L, 0)-SP with eps_L = sqrt(2/(pi(1-pi))) sqrt(lam/(n-m)).",
       method="Monte Carlo variances of the two noises (4e5 draws, 5 standard errors) and the algebraic identity for eps_L")
def equal_utility(n: int = 1000, m: int = 100, pi: float = 0.3, seed: int = 4) -> Evidence:
    rng = np.random.default_rng(seed)
    sigma, b = statistical.equal_utility_scales(n, m, pi)
    ul = float(statistical.subsampling_utility_loss(n, m, pi))
    draws = 400_000
    var_g = float((rng.normal(0, sigma, draws) ** 2).mean())
    var_l = float((rng.laplace(0, b, draws) ** 2).mean())
    # standard errors of a mean of squares: sqrt(Var(X^2)/N); Var(X^2) = 2 s^4 (normal), 20 b^4 (Laplace)
    se = np.array([np.sqrt(2) * ul, np.sqrt(20) * float(b) ** 2]) / np.sqrt(draws)
    if not (np.abs(np.array([var_g, var_l]) - ul) <= 5 * se).all():
        return close([var_g, var_l], [ul, ul], atol=float(5 * se.max()), rtol=0.0)
    lam = m / n
    return close(statistical.laplace_sp_epsilon(n, b), np.sqrt(2 / (pi * (1 - pi))) * np.sqrt(lam / (n - m)), rtol=1e-12,
                 detail="noise variances within 5 standard errors of UL")


@claim("004/erratum-fig5", item="Figure 5 (Laplace 'about 20% worse')", kind="erratum",
       statement="At equal utility loss with lam = 0.1 the text says Laplace noise is about 20% worse than the other two mechanisms; computed from the definition it is 35-55% worse.",
       method="SP delta of Laplace and Gaussian noise at equal utility loss (n = 1000, m = 100, eps = 0.01) at pi in {0.01, 0.1, 0.3, 0.5}")
def erratum_fig5(n: int = 1000, m: int = 100, epsilon: float = 0.01) -> Evidence:
    ratios = []
    for pi in (0.01, 0.1, 0.3, 0.5):
        sigma, b = statistical.equal_utility_scales(n, m, pi)
        ratios.append(float(statistical.noise_delta(epsilon, n, pi, float(b), "laplace")
                            / statistical.noise_delta(epsilon, n, pi, float(sigma), "gaussian")))
    inside = all(1.35 <= r <= 1.55 for r in ratios)
    return holds(inside, observed=min(ratios), reference=max(ratios),
                 detail="Laplace/Gaussian delta ratios: " + ", ".join(f"{r:.3f}" for r in ratios))


@claim("004/conjecture", item="Section 7 (conjecture)",
       statement="Numerical evidence: subsampling at rate lam = m/n satisfies delta_SAMP(log(1 + lam(e^eps - 1))) <= lam delta_pure^(m)(eps), with equality at lam = 1.",
       method="definition-level deltas on a grid of n in {10, 50, 200}, every m (step n/10), pi in {0.05, 0.2, 0.5}, eps in {0.01, 0.1, 1}")
def conjecture(seed: int = 0) -> Evidence:
    lhs, rhs = [], []
    for n in (10, 50, 200):
        for m in range(max(1, n // 10), n + 1, max(1, n // 10)):
            lam = m / n
            for pi in (0.05, 0.2, 0.5):
                for eps in (0.01, 0.1, 1.0):
                    lhs.append(float(statistical.subsampling_delta(statistical.amplified_epsilon(eps, lam), n, m, pi)))
                    rhs.append(lam * float(statistical.pure_delta(eps, m, pi)) if m > 1 else lam * 1.0)
    return at_most(lhs, rhs, atol=1e-12)


def _threshold_sums(eps: float, n: int, m: int, pi: float) -> tuple[np.ndarray, np.ndarray]:
    """The summands P_+(j) - e^eps P_-(j) and P_-(j) - e^eps P_+(j) of Theorems 4.1 and 4.2."""
    log_p, log_q = statistical.subsampling_laws(n, m, pi)
    p, q = np.exp(log_p), np.exp(log_q)
    return p - np.exp(eps) * q, q - np.exp(eps) * p


@claim("004/erratum-e2-e3", item="Theorem 4.1 (delta_- limit and binding caps)", kind="erratum",
       statement="The printed delta_- sums up to ceil(j_-*) and uses capped thresholds; the ceiling adds a negative term and a binding cap yields a negative 'delta'. Summing up to floor(j_-*) (and nothing when the threshold leaves [0, m]) equals the definition.",
       method="printed and corrected threshold sums against the definition-level hockey stick at (n, m, pi, eps) = (1000, 100, 0.3, 0.05) and (100, 10, 0.2, 0.3)")
def erratum_e2_e3() -> Evidence:
    observed, reference, printed = [], [], []
    for n, m, pi, eps in ((1000, 100, 0.3, 0.05), (100, 10, 0.2, 0.3)):
        lam, xi = m / n, pi / (1 - pi)
        _, minus = _threshold_sums(eps, n, m, pi)
        gamma = (1 - np.exp(-eps)) / (1 + np.exp(-eps) * xi) / lam
        j_minus = pi * m * (1 - gamma)                               # uncapped threshold
        j = np.arange(m + 1)
        corrected = float(minus[j <= np.floor(j_minus)].sum()) if j_minus >= 0 else 0.0
        capped = max(j_minus, 0.0)                                    # the printed cap keeps j = 0
        printed.append(float(minus[j <= math.ceil(capped)].sum()))
        observed.append(corrected)
        reference.append(float(np.clip(minus, 0, None).sum()))
    if not all(p < r - 1e-6 for p, r in zip(printed, reference)):
        return holds(False, detail=f"printed sums {printed} do not fall below the definition {reference}")
    return close(observed, reference, rtol=1e-12, atol=1e-15,
                 detail="printed delta_- = " + ", ".join(f"{p:.4g}" for p in printed))


@claim("004/erratum-e5-e6", item="Theorem 4.2 (thresholds)", kind="erratum",
       statement="Theorem 4.2's threshold is printed as 1 + (e^eps - 1)/(1 + e^eps xi) n pi; it must be (1 + (e^eps - 1)/(1 + e^eps xi)) n pi. The restriction 'eps <= ln 2' is not needed: the corrected sums equal the definition for eps = 1 and 2 too.",
       method="the threshold sums with the corrected and the printed thresholds against the definition-level hockey stick (n = 200, pi = 0.3)")
def erratum_e5_e6(n: int = 200, pi: float = 0.3) -> Evidence:
    xi = pi / (1 - pi)
    observed, reference, printed = [], [], []
    j = np.arange(n + 1)
    for eps in (0.05, 0.3, 1.0, 2.0):
        plus, minus = _threshold_sums(eps, n, n, pi)
        j_plus = (1 + np.expm1(eps) / (1 + np.exp(eps) * xi)) * n * pi
        j_minus = (1 + np.expm1(-eps) / (1 + np.exp(-eps) * xi)) * n * pi
        corrected = max(float(plus[j >= math.ceil(j_plus)].sum()), float(minus[j <= math.floor(j_minus)].sum()))
        j_plus_printed = 1 + np.expm1(eps) / (1 + np.exp(eps) * xi) * n * pi
        printed.append(float(plus[j >= math.ceil(j_plus_printed)].sum()))
        observed.append(corrected)
        reference.append(float(statistical.pure_delta(eps, n, pi)))
    return close(observed, reference, rtol=1e-10, atol=1e-15,
                 detail="delta_+ with the printed threshold: " + ", ".join(f"{p:.3g}" for p in printed))


@claim("004/lemma-2-3", item="Lemmas 2 and 3",
       statement="sup over events S of P_+(S) - e^eps P_-(S) is the hockey-stick sum, attained at S = {P_+ >= e^eps P_-}; (eps, delta)-SP holds iff delta is at least both directions.",
       method="enumeration of all 2^(m+1) output events of subsampling (n = 40, m = 10) at 4 epsilons and 3 values of pi")
def lemma_2_3(n: int = 40, m: int = 10) -> Evidence:
    events = np.array(list(itertools.product([0, 1], repeat=m + 1)), dtype=float)
    observed, reference = [], []
    for pi in (0.1, 0.3, 0.5):
        log_p, log_q = statistical.subsampling_laws(n, m, pi)
        p, q = np.exp(log_p), np.exp(log_q)
        for eps in (0.0, 0.05, 0.2, 0.8):
            brute = max((events @ p - np.exp(eps) * (events @ q)).max(), (events @ q - np.exp(eps) * (events @ p)).max())
            observed.append(float(statistical.subsampling_delta(eps, n, m, pi)))
            reference.append(float(brute))
    return close(observed, reference, atol=1e-14, rtol=0.0)


@claim("004/lemma-1", item="Lemma 1", kind="illustrated",
       statement="Statistical privacy survives post-processing and mixtures: coarsening or randomly re-mapping the output, or mixing two subsampling rates, never raises delta above the worse of its parts.",
       method="subsampling laws (n = 200, m = 40, pi = 0.3) pushed through a random column-stochastic matrix and a coarsening, and a 50/50 mixture with m = 80, at 5 epsilons")
def lemma_1(seed: int = 11) -> Evidence:
    rng = np.random.default_rng(seed)
    n, m, pi = 200, 40, 0.3
    from privlib import profiles

    log_p, log_q = statistical.subsampling_laws(n, m, pi)
    p, q = np.exp(log_p), np.exp(log_q)
    eps = np.array([0.0, 0.02, 0.05, 0.1, 0.3])
    base = np.maximum(profiles.hockey_stick(p, q, eps), profiles.hockey_stick(q, p, eps))
    g = rng.dirichlet(np.ones(7), size=m + 1)                # random post-processing kernel
    coarse = np.eye(m // 5 + 1)[np.arange(m + 1) // 5]       # bucket j into j // 5
    after = [np.maximum(profiles.hockey_stick(p @ k, q @ k, eps), profiles.hockey_stick(q @ k, p @ k, eps)) for k in (g, coarse)]
    log_p2, log_q2 = statistical.subsampling_laws(n, 2 * m, pi)
    p2, q2 = np.zeros(2 * m + 1), np.zeros(2 * m + 1)
    # the mixture's output is the sample fraction j/m on a common grid of 2m + 1 values
    p2 += 0.5 * np.exp(log_p2)
    q2 += 0.5 * np.exp(log_q2)
    p2[::2] += 0.5 * p
    q2[::2] += 0.5 * q
    mix = np.maximum(profiles.hockey_stick(p2, q2, eps), profiles.hockey_stick(q2, p2, eps))
    other = statistical.subsampling_delta(eps, n, 2 * m, pi)
    return at_most(np.r_[after[0], after[1], mix], np.r_[base, base, np.maximum(base, other)], atol=1e-14)


@claim("004/lemma-6", item="Lemma 6",
       statement="With Gaussian noise the SP delta is approximately the Gaussian DP curve with the internal noise added: standard deviation sqrt(sigma^2 + pi(1-pi)(n-1)/n^2). Good at n pi large, poor at n pi near 1.",
       method="the exact delta from the definition (monotone-ratio root search) at n = 1000, nu = 1: relative error below 1e-3 at pi = 0.5 and above 1% at pi = 0.001")
def lemma_6(n: int = 1000, epsilon: float = 0.01) -> Evidence:
    errors = []
    for pi in (0.5, 0.001):
        exact = float(statistical.noise_delta(epsilon, n, pi, 1.0 / n))
        approx = float(statistical.normal_approx_delta(epsilon, n, pi, 1.0 / n))
        errors.append(abs(approx - exact) / exact)
    return holds(bool(errors[0] < 1e-3 and errors[1] > 1e-2), observed=errors[0], reference=errors[1],
                 detail="relative error at pi = 0.5 / at pi = 0.001")


@claim("004/lemma-9", item="Lemma 9",
       statement="The utility loss of additive noise equals the noise variance: psi^2 for Gaussian and 2 psi^2 for Laplace noise of scale psi, independently of the data.",
       method="Monte Carlo over databases (n = 50, pi = 0.3) and noise, 2e5 draws, tolerance 5 standard errors")
def lemma_9(psi: float = 0.02, seed: int = 9) -> Evidence:
    rng = np.random.default_rng(seed)
    draws, n, pi = 200_000, 50, 0.3
    y = rng.binomial(n, pi, draws) / n
    observed, expected, tol = [], [], []
    for noise, var in (("gaussian", psi**2), ("laplace", 2 * psi**2)):
        z = rng.normal(0, psi, draws) if noise == "gaussian" else rng.laplace(0, psi, draws)
        sq = ((y + z) - y) ** 2
        observed.append(sq.mean())
        expected.append(var)
        tol.append(5 * sq.std() / np.sqrt(draws))
    return close(observed, expected, atol=float(max(tol)), rtol=0.0)


@claim("004/erratum-fig8", item="Figure 8 (Laplace 'always worse')", kind="erratum",
       statement="The text says Laplace noise is always worse than the other mechanisms at equal utility loss; for small samples the calibrated Laplace noise is so large that 1/(b n) <= eps and its delta is exactly 0 (Lemma 5), below subsampling.",
       method="SP delta of subsampling and of equally calibrated Laplace noise at n = 1000, pi = 0.5, eps = 0.01 for m = 10 and m = 100, the Laplace delta past the cliff also by quadrature of the mixture densities (n = 200, m = 2, eps = 0.05)")
def erratum_fig8(epsilon: float = 0.01) -> Evidence:
    n, pi = 1000, 0.5
    deltas = {}
    for m in (10, 100):
        _, b = statistical.equal_utility_scales(n, m, pi)
        deltas[m] = (float(statistical.subsampling_delta(epsilon, n, m, pi)), float(statistical.noise_delta(epsilon, n, pi, float(b), "laplace")))
    small_n, small_m = 200, 2
    _, b_small = statistical.equal_utility_scales(small_n, small_m, pi)
    eps_small = 0.05  # 1 / (b n) = 0.020 at n = 200, m = 2: past the cliff
    quad = _trapezoid_delta(eps_small, small_n, pi, float(b_small), "laplace") if 1 / (b_small * small_n) <= eps_small else -1.0
    reversed_order = deltas[10][1] < deltas[10][0] and deltas[100][1] > deltas[100][0]
    if not reversed_order or quad < 0:
        return holds(False, detail=f"deltas (subsampling, Laplace): {deltas}")
    return close([deltas[10][1], quad], [0.0, 0.0], atol=1e-10,
                 detail=f"m = 10: subsampling {deltas[10][0]:.4g}, Laplace 0; m = 100: subsampling {deltas[100][0]:.4g} < Laplace {deltas[100][1]:.4g}")
