"""Claims of chapter 004, Utility (Lemmas 7-10, Section 4.4)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy import integrate

from privlib.papers import statistical
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds
from privlib.verify import densities
from privlib.verify.statistical_privacy._routes import _normal_pair_delta, _quad_delta, exact_errors


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
    noise_pdf = {"gaussian": lambda x: densities.normal_pdf(x, 0.0, psi), "laplace": lambda x: densities.laplace_pdf(x, 0.0, psi)}
    observed, reference = [], []
    for noise, f in noise_pdf.items():
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
    var_g = integrate.quad(lambda x: x * x * densities.normal_pdf(x, 0.0, sigma), -np.inf, np.inf)[0]
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
       method="`lemma10_noise_level`, corrected, squared, against the utility loss of subsampling from exact enumeration (pi = 2/7, at the given n and m and at n = 7, m = 3); the printed one at n = 7, m = 3 (the printed square is a different function of n and m, which meets UL at isolated instances)")
def erratum_e8(n: int = 7, m: int = 3) -> Evidence:
    pi = Fraction(2, 7)
    loss = [float(exact_errors(size, mm, pi)[0]) for size, mm in ((n, m), (7, 3))]
    corrected = [float(statistical.lemma10_noise_level(size, mm, float(pi))) for size, mm in ((n, m), (7, 3))]
    printed = float(statistical.lemma10_noise_level(7, 3, float(pi), printed=True))
    return all_of(close(np.square(corrected), loss, rtol=1e-13, atol=0.0, detail="corrected level squared = UL (given n, m; then n = 7, m = 3)"),
                  at_most(2 * loss[1], printed**2, atol=0.0, detail="n = 7, m = 3: the printed level squared is more than twice UL"))


@erratum_e8.mutant("statistical.lemma10_noise_level", "no square root (the printed form's first slip)")
def _(level):
    return lambda n, m, pi, *, printed=False: level(n, m, pi, printed=printed) ** (1 if printed else 2)


@erratum_e8.mutant("statistical.lemma10_noise_level", "1/lam - 1/n under the root (the printed form's second slip)")
def _(level):
    return lambda n, m, pi, *, printed=False: level(n, m, pi, printed=True) if printed else np.sqrt(level(n, m, pi, printed=True))


@claim("004/lemma-10", item="Lemma 10",
       statement="Gaussian noise with the utility loss of subsampling: in the normal approximation of Lemma 6, $\\delta_\\pm$ are the threshold expressions at $x_\\pm = \\pi \\pm n\\sigma^2\\varepsilon + (1/2 - \\pi)/n$, $\\sigma^2 = \\psi^2 + \\pi(1-\\pi)(n-1)/n^2$ (corrected; the printed $\\pi \\pm \\varepsilon\\psi + \\dots$ is not where the densities' ratio is $e^{\\pm\\varepsilon}$), and close to the exact $\\delta$.",
       method="`lemma10_delta` against quadrature of the hockey stick of the two approximating normals (its supremum over events; to the quadrature's absolute accuracy 2e-14) at the given n, m, eps and at the paper's n = 1000, m = 100, eps = 0.01; there (where the normal approximation is good, Lemma 6) against the exact delta of that noise (`noise_delta`) within 1%, and the printed form below half; pi in {0.5, 0.1}")
def lemma_10(n: int = 1000, m: int = 100, epsilon: float = 0.01) -> Evidence:
    approx, quad, exact = [], [], []
    for size, mm, eps in ((n, m, epsilon), (1000, 100, 0.01)):
        for pi in (0.5, 0.1):
            psi = np.sqrt(pi * (1 - pi) * (1 / mm - 1 / size))
            sigma = np.sqrt(psi**2 + pi * (1 - pi) * (size - 1) / size**2)
            approx.append(float(statistical.lemma10_delta(eps, size, mm, pi)))
            quad.append(_normal_pair_delta(eps, pi * (1 - 1 / size) + 1 / size, pi * (1 - 1 / size), sigma))
            if len(approx) > 2:  # the paper's instance
                exact.append(float(statistical.noise_delta(eps, size, pi, psi)))
    printed = [float(statistical.lemma10_delta(0.01, 1000, 100, pi, printed=True)) for pi in (0.5, 0.1)]
    quad_paper = quad[2:]
    return all_of(close(approx, quad, rtol=1e-8, atol=2e-14, detail="corrected thresholds: the supremum over events (given instance, the paper's)"),
                  close(approx[2:], exact, rtol=1e-2, atol=0.0, detail="paper's instance: the approximation against the exact delta"),
                  holds(all(p < 0.5 * q for p, q in zip(printed, quad_paper)), observed=printed[0], reference=quad_paper[0],
                        detail="paper's instance: the printed noise level and thresholds give less than half the delta"))


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
