"""Claims of chapter 003, Section 3: affiliated priors."""

from __future__ import annotations

import itertools

import numpy as np

from privlib.papers import affiliation
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds
from privlib.verify.networked_inferential_privacy._routes import (
    _one_direction,
    _random_ising,
    _reference_worst_case,
    _unnormalised,
    noisy_statistic_privacy,
)


def _up_sets(n: int) -> np.ndarray:
    """Indicators (rows) of every up-set of {0,1}^n: the monotone Boolean functions, which span
    the monotone functions (a monotone f is a constant plus a positive combination of them)."""
    size = 2**n
    s = np.arange(size)
    subsets = ((np.arange(2**size)[:, None] >> s[None, :]) & 1).astype(bool)
    monotone = np.ones(len(subsets), dtype=bool)
    for j in range(n):
        low = s[(s >> j) & 1 == 0]
        monotone &= ~(subsets[:, low] & ~subsets[:, low | (1 << j)]).any(axis=1)
    return subsets[monotone].astype(float)


@claim("003/lemma-3-2", item="Lemma 3.2 (FKG) and Definition 3.1",
       statement="For a measure $\\mu$ that is positively affiliated (is_affiliated) and non-decreasing $f, g$: $E[f]\\,E[g] \\le E[fg]\\,E[1]$; on two records, where affiliation is a single inequality, it holds exactly for the affiliated measures.",
       method="every pair of up-set indicators (which span the monotone functions: 20 on 3 records) on 40 random measures of 3 records (ferromagnetic, antiferromagnetic and mixed Ising, measures with zeros, products, near-independent ones): the smallest covariance over all pairs must be $\\ge 0$ for every measure is_affiliated accepts; on 2 records, is_affiliated must accept exactly those with $\\mu(11)\\mu(00) \\ge \\mu(10)\\mu(01)$")
def lemma_3_2(seed: int = 2, trials: int = 40) -> Evidence:
    rng = np.random.default_rng(seed)
    ups = _up_sets(3)
    measures = [np.where(np.isin(np.arange(8), [1, 6]), 0.5, 0.0)]  # uniform on x = 100 and x = 011
    for k in range(trials):
        kind = k % 5
        if kind == 0:
            mu = _random_ising(rng, 3)
        elif kind == 1:
            mu = _random_ising(rng, 3, sign=-1.0)
        elif kind == 2:
            mu = affiliation.ising_prior(3, [(0, 1), (1, 2), (0, 2)], rng.uniform(-0.3, 0.6, 3), rng.normal(0, 0.5, 3))
        elif kind == 3:
            mu = rng.dirichlet(np.ones(8)) * (rng.random(8) < 0.6)
            mu = mu / mu.sum() if mu.sum() > 0 else np.full(8, 1 / 8)
        else:
            mu = affiliation.ising_prior(3, [(0, 1), (1, 2)], rng.choice([-1, 1]) * 10.0 ** rng.uniform(-5, -2), 0.3)
        measures.append(mu)
    product_of_means, mean_of_product = [], []  # E[f] E[g] <= E[fg] E[1] (E[1] = 1) for every pair of up-sets
    for mu in measures:
        if affiliation.is_affiliated(mu):
            mean = ups @ mu
            product_of_means.append(np.outer(mean, mean).ravel())
            mean_of_product.append(((ups * mu) @ ups.T).ravel())
    pairs_ok, rejected = [], 0
    for k in range(trials):
        mu = rng.dirichlet(np.ones(4)) if k % 2 else affiliation.ising_prior(2, [(0, 1)], rng.normal(0, 10.0 ** rng.uniform(-6, 0)))
        truth = mu[3] - (mu[1] + mu[3]) * (mu[2] + mu[3]) >= -1e-12  # Cov(x_0, x_1) >= 0: FKG for f = x_0, g = x_1
        pairs_ok.append(bool(affiliation.is_affiliated(mu)) == bool(truth))
        rejected += not truth
    return all_of(at_most(np.concatenate(product_of_means), np.concatenate(mean_of_product), atol=1e-12,
                          detail=f"E[f] E[g] <= E[fg] for every pair of up-sets, {len(product_of_means)} accepted measures"),
                  holds(all(pairs_ok) and 0 < rejected < trials, observed=sum(pairs_ok), reference=trials,
                        detail="two-record measures on which is_affiliated decides correctly"))


@lemma_3_2.mutant("affiliation.is_affiliated", "inequality reversed")
def _(is_affiliated):
    def wrong(prior, tol=1e-12):
        prior = np.asarray(prior, dtype=float)
        s = np.arange(prior.size)
        return bool((prior[s[:, None] | s] * prior[s[:, None] & s] <= prior[:, None] * prior[None, :] + tol).all())
    return wrong


@lemma_3_2.mutant("affiliation.is_affiliated", "local 2 x 2 test also on priors with zeros")
def _(is_affiliated):
    def wrong(prior, tol=1e-12):
        prior = np.asarray(prior, dtype=float)
        n = int(round(np.log2(prior.size)))
        s = np.arange(prior.size)
        for a, b in itertools.combinations(range(n), 2):
            base = s[((s >> a) & 1 == 0) & ((s >> b) & 1 == 0)]
            ea, eb = 1 << a, 1 << b
            if (prior[base | ea | eb] * prior[base] < prior[base | ea] * prior[base | eb] - tol).any():
                return False
        return True
    return wrong


@lemma_3_2.mutant("affiliation.is_affiliated", "tolerance 1e-3 (accepts nearly independent repulsive measures)")
def _(is_affiliated):
    return lambda prior, tol=1e-12: is_affiliated(prior, tol=1e-3)


@claim("003/thm-3-4", item="Theorem 3.4",
       statement="For a positively affiliated prior, the worst case over all $\\varepsilon$-DP mechanisms equals formula (6), attained by a maximally biased mechanism.",
       method="a plain LP over every $\\varepsilon$-DP mechanism (both directions) against inferential_privacy on random ferromagnetic Ising priors with random fields and a random vector $\\varepsilon$ (6 records, 6 priors)")
def thm_3_4(seed: int = 3, trials: int = 6) -> Evidence:
    rng = np.random.default_rng(seed)
    formula, lp = [], []
    for _ in range(trials):
        prior = _random_ising(rng, 6)
        eps = rng.uniform(0.05, 0.8, 6)
        i = int(rng.integers(6))
        formula.append(affiliation.inferential_privacy(prior, eps, i))
        lp.append(_reference_worst_case(prior, eps, i))
    return close(formula, lp, atol=1e-8, rtol=0.0)


thm_3_4.mutant("affiliation.inferential_privacy", "only the maximally 0-biased direction (no max over z)")(_one_direction[0])
thm_3_4.mutant("affiliation.inferential_privacy", "posterior odds not divided by the prior odds")(_unnormalised)


@thm_3_4.mutant("affiliation.inferential_privacy", "the mean epsilon in place of the vector")
def _(inferential_privacy):
    return lambda prior, eps, i: inferential_privacy(prior, float(np.mean(eps)), i)


@claim("003/thm-3-4-converse", item="Theorem 3.4 (affiliation is needed)", kind="illustrated",
       statement="For a prior that is not affiliated (antiferromagnetic couplings) and under which the record is not independent of the others, the worst case exceeds formula (6) (a record independent of the rest has privacy $\\varepsilon$ under both).",
       method="worst_case_lp against formula (6) for record 0 on random antiferromagnetic Ising priors (6 records), those under which record 0 is coupled to the others (its joint table with the rest not of rank one)")
def thm_3_4_converse(seed: int = 4, trials: int = 3) -> Evidence:
    rng = np.random.default_rng(seed)
    x0 = affiliation.states(6)[:, 0].astype(bool)
    gaps = []
    while len(gaps) < trials:
        prior = _random_ising(rng, 6, sign=-1.0)
        table = np.array([prior[x0], prior[~x0]])         # record 0 against the other five
        if affiliation.is_affiliated(prior) or np.linalg.svd(table, compute_uv=False)[1] < 1e-9:
            continue
        gaps.append(affiliation.worst_case_lp(prior, 0.5, 0) - affiliation.inferential_privacy(prior, 0.5, 0))
    return holds(bool(gaps and min(gaps) > 1e-6), observed=min(gaps) if gaps else 0.0, reference=0.0,
                 detail="smallest LP - formula gap over the non-affiliated priors")


@claim("003/lemma-3-5", item="Lemma 3.5",
       statement="The Laplace noisy sum $|x| + \\mathrm{Lap}(1/\\varepsilon)$ is maximally biased: under an affiliated prior its inferential privacy equals formula (6) for every individual.",
       method="ess-sup of the ratio of the output densities given $x_i = 1$ and $x_i = 0$ on a dense grid of outputs (path Ising prior with fields, 6 records), against inferential_privacy")
def lemma_3_5(epsilon: float = 0.4, coupling: float = 0.7) -> Evidence:
    n = 6
    prior = affiliation.ising_prior(n, [(j, j + 1) for j in range(n - 1)], coupling, [0.3, -0.2, 0, 0.1, 0, 0.4])
    weight = affiliation.states(n).sum(axis=1)
    observed = [noisy_statistic_privacy(prior, weight, i, epsilon, n) for i in range(n)]
    reference = [affiliation.inferential_privacy(prior, epsilon, i) for i in range(n)]
    return close(observed, reference, atol=1e-9, rtol=0.0)


lemma_3_5.mutant("affiliation.inferential_privacy", "only the maximally 1-biased direction (no max over z)")(_one_direction[1])


@lemma_3_5.mutant("affiliation.inferential_privacy", "acceptance e^(-eps/2 |x - z1|) (the Gibbs field eps/2 taken for eps)")
def _(inferential_privacy):
    return lambda prior, eps, i: inferential_privacy(prior, np.asarray(eps) / 2, i)
