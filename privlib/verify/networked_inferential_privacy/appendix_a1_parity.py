"""Claims of chapter 003, Appendix A.1: parity priors."""

from __future__ import annotations

import numpy as np

from privlib.papers import affiliation
from privlib.verify.claims import Evidence, all_of, at_most, claim, close
from privlib.verify.networked_inferential_privacy._routes import (
    _HALVED,
    _halved_eps_lp,
    noisy_statistic_privacy,
)


@claim("003/remark-3-6", item="Remark 3.6 and Appendix A.1",
       statement="Pairwise positive correlation is not enough: on the parity prior the worst case over all mechanisms is $(k+1)\\varepsilon$, above formula (6) at every $\\varepsilon$ (by $k\\varepsilon$ as $\\varepsilon \\to 0$, by $k \\log m$ as $\\varepsilon \\to \\infty$); the paper's mechanism reaches $k\\varepsilon$, also above formula (6) for $k \\ge 2$ and $\\varepsilon \\le 1/2$ (at large $\\varepsilon$ formula (6) passes $k\\varepsilon$).",
       method="worst_case_lp against $(k+1)\\varepsilon$ (at $\\min(\\varepsilon, 2)$: the LP resolves acceptance ratios up to about 20 nats), the paper's mechanism's exact privacy from its output densities against $k\\varepsilon$, and formula (6) by enumeration below $(k+1)\\varepsilon$ by at least $\\min(k\\varepsilon/2, 0.1)$, on the parity prior for $(k, m) = (1, 2), (2, 2), (3, 2), (2, 3)$; at $\\min(\\varepsilon, 1/2)$, formula (6) below $k\\varepsilon$ by at least $\\min((k-1)\\varepsilon/2, 0.001)$ for $k \\ge 2$")
def remark_3_6(epsilon: float = 0.5) -> Evidence:
    lp, worst, paper, k_eps, formula, margin, over, small, above = [], [], [], [], [], [], [], [], []
    small_eps = min(epsilon, 0.5)
    lp_eps = min(epsilon, 2.0)  # the LP resolves the worst mechanism's acceptance ratios up to (k + 1) 2 nats
    for k, m in ((1, 2), (2, 2), (3, 2), (2, 3)):
        prior = affiliation.parity_prior(k, m)
        x = affiliation.states(1 + k * m)
        odd = sum((x[:, 1 + b * m:1 + (b + 1) * m].sum(axis=1) % 2) for b in range(k))
        lp.append(affiliation.worst_case_lp(prior, lp_eps, 0))
        worst.append((k + 1) * lp_eps)
        paper.append(noisy_statistic_privacy(prior, odd, 0, epsilon, k))
        k_eps.append(k * epsilon)
        formula.append(affiliation.inferential_privacy(prior, epsilon, 0))
        margin.append(min(k * epsilon / 2, 0.1))
        over.append((k + 1) * epsilon)
        if k >= 2:
            small.append(affiliation.inferential_privacy(prior, small_eps, 0) + min((k - 1) * small_eps / 2, 1e-3))
            above.append(k * small_eps)
    return all_of(close(lp, worst, atol=1e-8, rtol=0.0, detail="worst case over all mechanisms = (k + 1) eps, at min(eps, 2)"),
                  close(paper, k_eps, atol=1e-9, rtol=0.0, detail="the paper's parity mechanism = k eps"),
                  at_most(np.add(formula, margin), over, atol=0.0,
                          detail="formula (6) + min(k eps / 2, 0.1) <= (k + 1) eps"),
                  at_most(small, above, atol=0.0,
                          detail="at min(eps, 1/2): formula (6) + min((k - 1) eps / 2, 0.001) <= k eps for k >= 2"))


@remark_3_6.mutant("affiliation.parity_prior", "x_0 left out of the parity constraints (x_0 independent)")
def _(parity_prior):
    def wrong(k, m, mixture=0.0):
        block = parity_prior(k, m, mixture).reshape(-1, 2).sum(axis=1)  # marginal of the blocks
        return np.repeat(block / 2, 2)
    return wrong


remark_3_6.mutant("affiliation.worst_case_lp", _HALVED)(_halved_eps_lp)


@claim("003/eq-18", item="Appendix A.1, eq. (18) and the growth in k",
       statement="On the parity prior the maximally 0-biased mechanism has $\\nu = \\varepsilon + 2k\\,\\mathrm{artanh}(\\tanh^m(\\varepsilon/2)) = \\varepsilon + O(k\\varepsilon^m)$ (eq. (18), reconstructed), so the paper's mechanism exceeds it by a factor that tends to $k$ as $\\varepsilon \\to 0$, unbounded in $k$.",
       method="parity_biased_privacy against formula (6) by enumeration of the parity prior for $(k, m) \\in \\{(1,2), (2,2), (3,2), (2,3), (3,3), (4,2)\\}$ at three $\\varepsilon$; the ratio $k\\varepsilon/\\nu$ at $\\varepsilon = 10^{-6}$ against $k$")
def eq_18(epsilon: float = 0.5) -> Evidence:
    closed, enumerated, ratios, ks = [], [], [], []
    for k, m in ((1, 2), (2, 2), (3, 2), (2, 3), (3, 3), (4, 2)):
        prior = affiliation.parity_prior(k, m)
        for eps in (epsilon, 0.1, 1.5):
            closed.append(float(affiliation.parity_biased_privacy(k, m, eps)))
            enumerated.append(affiliation.inferential_privacy(prior, eps, 0))
        ratios.append(k * 1e-6 / float(affiliation.parity_biased_privacy(k, m, 1e-6)))
        ks.append(k)
    return all_of(close(closed, enumerated, atol=1e-12, rtol=0.0, detail="eq. (18) against formula (6) by enumeration"),
                  close(ratios, ks, rtol=1e-3, atol=0.0, detail="k eps / nu at eps = 1e-6 tends to k"))


@eq_18.mutant("affiliation.parity_biased_privacy", "tanh(eps) in place of tanh(eps / 2)")
def _(parity_biased_privacy):
    return lambda k, m, eps: eps + 2.0 * k * np.arctanh(np.tanh(eps) ** m)


@eq_18.mutant("affiliation.parity_biased_privacy", "the leading eps (x_0's own bit) dropped")
def _(parity_biased_privacy):
    return lambda k, m, eps: parity_biased_privacy(k, m, eps) - eps


@eq_18.mutant("affiliation.parity_biased_privacy", "artanh dropped: eps + 2k tanh(eps/2)^m")
def _(parity_biased_privacy):
    return lambda k, m, eps: eps + 2.0 * k * np.tanh(eps / 2.0) ** m


@claim("003/parity-mixture", item="Appendix A.1 (strictly correlated mixture)",
       statement="Mixing the parity prior with $\\tfrac12(\\delta_{0^n} + \\delta_{1^n})$ at weight $\\lambda$ makes every pair strictly positively correlated (covariance $\\lambda/4$), and the privacy parameters move continuously: the worst case stays far above formula (6).",
       method="pairwise_covariances of parity_prior(2, 2, mixture) against $\\lambda/4$ (brute force of the covariance definition); worst_case_lp and formula (6) at $\\lambda = 10^{-6}$ against $\\lambda = 0$ (continuity), and at $\\lambda = 0.05$ the worst case above formula (6) by at least half its gap at $\\lambda = 0$ (that gap is $2k(\\varepsilon/2 - \\mathrm{artanh}(\\tanh^m(\\varepsilon/2)))$: about $k\\varepsilon$ for small $\\varepsilon$, tending to $k \\log m$)")
def parity_mixture(epsilon: float = 0.5) -> Evidence:
    covs, quarters = [], []
    for lam in (0.0, 1e-3, 0.05, 0.3):
        prior = affiliation.parity_prior(2, 2, lam)
        c = affiliation.pairwise_covariances(prior)
        x = affiliation.states(5).astype(float)
        mean = prior @ x
        brute = np.array([[prior @ ((x[:, a] - mean[a]) * (x[:, b] - mean[b])) for b in range(5)] for a in range(5)])
        covs += list(c[~np.eye(5, dtype=bool)]) + list(brute[~np.eye(5, dtype=bool)])
        quarters += [lam / 4] * 40
    near = [affiliation.worst_case_lp(affiliation.parity_prior(2, 2, 1e-6), epsilon, 0),
            affiliation.inferential_privacy(affiliation.parity_prior(2, 2, 1e-6), epsilon, 0)]
    at_zero = [affiliation.worst_case_lp(affiliation.parity_prior(2, 2), epsilon, 0),
               affiliation.inferential_privacy(affiliation.parity_prior(2, 2), epsilon, 0)]
    mixed = affiliation.parity_prior(2, 2, 0.05)
    gap = affiliation.worst_case_lp(mixed, epsilon, 0) - affiliation.inferential_privacy(mixed, epsilon, 0)
    return all_of(close(covs, quarters, atol=1e-14, rtol=0.0, detail="covariances (privlib and brute force) = lambda / 4"),
                  close(near, at_zero, atol=1e-4, rtol=0.0, detail="worst case and formula (6) at lambda = 1e-6 vs 0"),
                  at_most(0.5 * (at_zero[0] - at_zero[1]), gap, atol=0.0,
                          detail="half the gap at lambda = 0 against the worst case minus formula (6) at lambda = 0.05"))


@parity_mixture.mutant("affiliation.parity_prior", "weight lambda on each of 0^n and 1^n (total 2 lambda)")
def _(parity_prior):
    def wrong(k, m, mixture=0.0):
        prior = parity_prior(k, m, mixture)
        prior[[0, -1]] += mixture / 2
        return prior / prior.sum()
    return wrong


@parity_mixture.mutant("affiliation.pairwise_covariances", "E[x_a x_b] without subtracting the means")
def _(pairwise_covariances):
    def wrong(prior):
        c = pairwise_covariances(prior)
        n = c.shape[0]
        return c + 0.25 * (1 - np.eye(n))
    return wrong
