"""Claims of chapter 003, Exchangeable priors."""

from __future__ import annotations

import numpy as np
from scipy import special

from privlib.papers import affiliation
from privlib.verify.claims import Evidence, all_of, at_most, claim, close
from privlib.verify.networked_inferential_privacy._routes import _reference_worst_case


@claim("003/exchangeable-lp", item="Theorem 3.4 (exchangeable priors, LP reduced by symmetry)",
       checks=("affiliation.exchangeable_worst_case_lp",),
       statement="For an exchangeable affiliated prior (a Beta mixture of i.i.d. bits) the worst case over all $\\varepsilon$-DP mechanisms equals formula (6); averaging a mechanism over the permutations of the other records reduces the LP to $2n$ variables indexed by ($x_i$, number of ones among the others) without changing its value.",
       method="exchangeable_worst_case_lp against exchangeable_inferential_privacy for Beta(2, 0.5) and Beta(0.3, 0.3) mixtures at $n$ = 10, 50, 300 and $\\varepsilon$ = 0.05, 0.3, 2, 10; both against a plain LP over all $2^8$ databases for an affiliated and a non-affiliated exchangeable prior, and the exactly-$m$-ones prior against $2\\varepsilon$; at $\\varepsilon = 0$ formula (6) and the full LP against 0; i.i.d. bits of probability $e^{-40}/(1 + e^{-40})$ ($n = 50$: the record is independent of the others) against $\\varepsilon$")
def exchangeable_lp(n_max: int = 300) -> Evidence:
    observed, reference = [], []
    for n in sorted({10, 50, n_max}):
        for a, b in ((2.0, 0.5), (0.3, 0.3)):
            log_w = affiliation.beta_binomial_log_weights(n, a, b)
            for eps in (0.05, 0.3, 2.0, 10.0):
                observed.append(affiliation.exchangeable_worst_case_lp(log_w, eps))
                reference.append(affiliation.exchangeable_inferential_privacy(log_w, eps))
    n = 8
    weight = affiliation.states(n).sum(axis=1)
    full, reduced, formula = [], [], []
    for log_w in (affiliation.beta_binomial_log_weights(n, 2.0, 0.5), -0.4 * (np.arange(n + 1) - n / 2) ** 2):
        log_w = log_w - special.logsumexp(log_w[weight])  # the second prior (log w concave) is not affiliated
        reduced.append(affiliation.exchangeable_worst_case_lp(log_w, 0.3))
        full.append(_reference_worst_case(np.exp(log_w[weight]), 0.3, 0))
        formula.append(affiliation.exchangeable_inferential_privacy(log_w, 0.3))
    # eps = 0: no mechanism moves the odds (formula and full LP); i.i.d. bits of probability
    # e^-40 / (1 + e^-40) (all-zeros nearly certain): the record is independent, worst case eps
    at_zero = [affiliation.exchangeable_inferential_privacy(affiliation.beta_binomial_log_weights(n, 2.0, 0.5), 0.0),
               _reference_worst_case(np.exp(affiliation.beta_binomial_log_weights(n, 2.0, 0.5)[weight]), 0.0, 0)]
    iid = [affiliation.exchangeable_inferential_privacy(-40.0 * np.arange(51.0), e) for e in (0.05, 0.3, 2.0)]
    m_ones = np.where(np.arange(41) == 12, 0.0, -np.inf)
    return all_of(close(observed, reference, atol=1e-8, rtol=0.0, detail="reduced LP against formula (6), affiliated priors"),
                  close(reduced, full, atol=1e-8, rtol=0.0, detail="reduced LP against the full LP at n = 8"),
                  close([affiliation.exchangeable_worst_case_lp(m_ones, e) for e in (0.3, 3.0)], [0.6, 6.0], atol=1e-8, rtol=0.0,
                        detail="exactly 12 ones among 40: worst case 2 eps"),
                  at_most(formula[1] + 0.05, full[1], atol=0.0, detail="non-affiliated prior: formula (6) + 0.05 <= worst case"),
                  close(at_zero, [0.0, 0.0], atol=1e-9, rtol=0.0, detail="eps = 0: formula (6) and the full LP are 0"),
                  close(iid, [0.05, 0.3, 2.0], atol=0.0, rtol=1e-12,
                        detail="i.i.d. bits, all-zeros nearly certain (n = 50): the independent record's worst case is eps"))


@exchangeable_lp.mutant("affiliation.exchangeable_inferential_privacy", "binomial multiplicities C(n, k) dropped")
def _(exchangeable_inferential_privacy):
    def wrong(log_w, eps):
        log_w = np.asarray(log_w, dtype=float)
        n = log_w.size - 1
        return exchangeable_inferential_privacy(log_w - (special.gammaln(n + 1) - special.gammaln(np.arange(n + 1) + 1)
                                                         - special.gammaln(n - np.arange(n + 1) + 1)), eps)
    return wrong


@exchangeable_lp.mutant("affiliation.exchangeable_inferential_privacy", "only the tilt towards x_i = 1")
def _(exchangeable_inferential_privacy):
    def wrong(log_w, eps):
        log_w = np.asarray(log_w, dtype=float)
        n = log_w.size - 1
        k = np.arange(n + 1)
        base = log_w + special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1)
        with np.errstate(divide="ignore"):
            odds = lambda t: special.logsumexp(t + np.log(k)) - special.logsumexp(t + np.log(n - k))  # noqa: E731
        return float(odds(base + eps * k) - odds(base))
    return wrong


@exchangeable_lp.mutant("affiliation._exchangeable_pairs", "no DP constraints between x_i = 0 and x_i = 1")
def _(pairs_of):
    def wrong(n):
        pairs = pairs_of(n)
        return pairs[(pairs[:, 0] // n) == (pairs[:, 1] // n)]
    return wrong


@exchangeable_lp.mutant("affiliation._exchangeable_pairs", "counts c ~ c + 2 (off by one) in place of c ~ c + 1")
def _(pairs_of):
    def wrong(n):
        idx = np.arange(2 * n).reshape(2, n)
        pairs = np.concatenate([np.stack([idx[:, :-2].ravel(), idx[:, 2:].ravel()], axis=1), np.stack([idx[0], idx[1]], axis=1)])
        return np.concatenate([pairs, pairs[:, ::-1]])
    return wrong


@claim("003/beta-binomial-weights", item="Section 3 (Beta mixtures of i.i.d. bits)",
       statement="The log-weights of one database with $k$ ones under a Beta$(a, b)$ mixture, $\\log B(a + k, b + n - k) - \\log B(a, b)$, keep their digits when $a$ or $b$ is tiny or huge against $n$.",
       method="beta_binomial_log_weights against the same formula in 40-digit arithmetic (mpmath) at $(n, a, b)$ = (10, 2, $10^{-12}$), ($10^4$, 2, $10^{-13}$), (10, $10^{-12}$, 3), (50, 0.3, 0.7), (10, $10^6$, $2\\cdot10^6$): relative error of $\\log w_k$ within $10^{-11}$ at $k = 0, 1, n/2, n-1, n$")
def beta_binomial_weights() -> Evidence:
    import mpmath as mp

    got, ref = [], []
    with mp.workdps(40):
        for n, a, b in ((10, 2.0, 1e-12), (10**4, 2.0, 1e-13), (10, 1e-12, 3.0), (50, 0.3, 0.7), (10, 1e6, 2e6)):
            log_w = affiliation.beta_binomial_log_weights(n, a, b)
            ks = sorted({0, 1, n // 2, n - 1, n})
            exact = [mp.log(mp.beta(mp.mpf(a) + k, mp.mpf(b) + (n - k)) / mp.beta(mp.mpf(a), mp.mpf(b))) for k in ks]
            got += [float(log_w[k]) for k in ks]
            ref += [float(e) for e in exact]
    return close(got, ref, rtol=1e-11, atol=0.0, detail="log w_k at k = 0, 1, n/2, n - 1, n")


@beta_binomial_weights.mutant("affiliation.beta_binomial_log_weights", "b + n - k in floating point (b lost against n)")
def _(beta_binomial_log_weights):
    def wrong(n, a, b):
        k = np.arange(n + 1)
        return special.betaln(a + k, b + n - k) - special.betaln(a, b)
    return wrong


@beta_binomial_weights.mutant("affiliation.beta_binomial_log_weights", "log w_k from the betaln difference at every k")
def _(beta_binomial_log_weights):
    def wrong(n, a, b):
        k = np.arange(n + 1)
        return special.betaln(a + k, b + (n - k)) - special.betaln(a, b)
    return wrong
