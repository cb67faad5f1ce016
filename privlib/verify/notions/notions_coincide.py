"""Claims of the cross-paper chapter "One mechanism, five notions": Inferential privacy = Pufferfish
= leakage capacity of the induced channel = SP threshold."""

from __future__ import annotations

import numpy as np
from scipy import special

from privlib.papers import pufferfish
from privlib.core import notions
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds
from privlib.verify.source_mutants import edit
from privlib.verify.notions._routes import (
    _bf_hockey,
    _bf_laws,
    _bf_posterior_odds_change,
    _posterior_odds,
    _random_channel,
)


def _small_cases():
    """(label, channel, model, record) on 5 binary records and 3 ternary ones: count mechanisms,
    per-record randomized response, an asymmetric random channel; product, exchangeable, Ising
    and non-affiliated random priors."""
    rng = np.random.default_rng(11)
    n = 5
    geo = notions.geometric_count(n, 0.8).expand()
    gauss = notions.gaussian_count(n, 0.9).expand()
    sub = notions.subsampled_count(n, 2).expand()
    rand = _random_channel(2, n, 4, seed=5)
    rr3 = notions.randomized_response(3, 0.6, K=3)
    models = [notions.ising_chain_model(n, 0.7, 0.3), notions.beta_binomial_model(n, 0.5, 2.0).expand(),
              notions.product_model(rng.uniform(0.1, 0.9, n)), notions.explicit_model(rng.dirichlet(np.ones(2 ** n)), n)]
    cases = [(ch, m, i) for ch in (geo, gauss, sub, rand) for m in models for i in (0, 3)]
    cases += [(rr3, notions.explicit_model(rng.dirichlet(np.ones(27)), 3, 3), i) for i in (0, 2)]
    return cases


@claim("notions/gk-equals-pufferfish", item="Inferential privacy = Pufferfish (Ghosh & Kleinberg; Bailie & Gong)",
       statement="Ghosh & Kleinberg's inferential privacy of record $i$ under the prior $\\pi$ (the largest change of the posterior odds of $x_i = a$ against $x_i = b$ from the prior odds) equals the Pufferfish loss with the single scenario $\\pi$ and the secret pairs $(x_i = a, x_i = b)$ and the leakage capacity of the channel $a \\mapsto \\mu_{i,a}$, for every mechanism and prior, correlated or not; the record's maximal leakage is $\\log \\sum_y \\max_a \\mu_{i,a}(y)$.",
       method="posterior odds by Bayes' rule from the joint law of database and output, database by database; and chapter 000's pufferfish_loss on the table over all databases with the secrets as masks (for ternary records also with the secrets $x_i = 0$ and $x_i = 2$ alone); the record's laws summed database by database for its leakage capacity and maximal leakage; 34 (mechanism, prior, record) cases, binary and ternary records")
def gk_equals_pufferfish() -> Evidence:
    ours, bayes, puff, capacity, capacity_ref, leak, leak_ref = [], [], [], [], [], [], []
    some, some_ref = [], []
    for ch, model, i in _small_cases():
        prior = model.prob
        ours.append(notions.inferential_privacy(ch, model, i))
        bayes.append(_bf_posterior_odds_change(ch.table, prior, ch.K, ch.n, i))
        rec = ch.samples[:, i]
        pairs = [(rec == a, rec == b) for a in range(ch.K) for b in range(ch.K) if a != b]
        puff.append(pufferfish.pufferfish_loss(ch.table, prior, pairs))
        if ch.K == 3:   # the secrets x_i = 0 against x_i = 2 only (the pair (1, 1) is no secret pair)
            some.append(notions.pufferfish_loss(ch, model, records=[i], pairs=[(0, 2), (2, 0), (1, 1)]))
            some_ref.append(pufferfish.pufferfish_loss(ch.table, prior, [(rec == 0, rec == 2), (rec == 2, rec == 0)]))
        # the record's channel a -> y, law by law from the databases: its leakage capacity (largest
        # log ratio over outputs and pairs of values) and maximal leakage (log sum_y max_a)
        laws, mass = _bf_laws(ch.table, prior, ch.K, ch.n, i)
        laws = laws[mass > 0]
        used = laws.max(axis=0) > 0
        with np.errstate(divide="ignore"):
            capacity_ref.append(float(np.log(laws[:, used].max(axis=0) / laws[:, used].min(axis=0)).max()))
        capacity.append(notions.leakage_capacity(ch, model, i))
        leak.append(notions.maximal_leakage(ch, model, i))
        leak_ref.append(float(np.log(laws.max(axis=0).sum())))
    return all_of(close(ours, bayes, rtol=1e-10, detail="against the posterior odds (Ghosh & Kleinberg's definition)"),
                  close(np.asarray(ours), puff, rtol=1e-10, detail="against chapter 000's Pufferfish loss"),
                  close(capacity, capacity_ref, rtol=1e-10, detail="leakage capacity of the record's channel, from its laws"),
                  close(leak, leak_ref, rtol=1e-10, atol=1e-14, detail="maximal leakage of the record, log sum_y max_a mu_a(y)"),
                  close(some, some_ref, rtol=1e-10, detail="ternary records: Pufferfish loss of the secrets x_i = 0, x_i = 2 only"))


gk_equals_pufferfish.mutant("notions.inferential_privacy", "posterior odds instead of their change from the prior odds")(_posterior_odds)


gk_equals_pufferfish.mutant("notions.pufferfish_loss", "the secret pairs given ignored (every pair a != b)")(
    edit("if pairs is None:", "if True:"))


@gk_equals_pufferfish.mutant("notions._maximal_leakage_of", "log max_y sum_a (max and sum swapped)")
def _(original):
    def wrong(laws, marg):
        return float(special.logsumexp(laws[np.isfinite(marg)], axis=0).max())
    return wrong


@gk_equals_pufferfish.mutant("notions._max_log_ratio", "one ordered pair only (a = 1 against b = 0)")
def _(original):
    def wrong(laws, values):
        with np.errstate(invalid="ignore"):
            d = laws[1] - laws[0]
        d = d[np.isfinite(laws[0]) | np.isfinite(laws[1])]
        return float(max(d.max(), 0.0))
    return wrong


@claim("notions/sp-zero-threshold", item="Statistical privacy (Breutigam & Reischuk) and its threshold",
       statement="The statistical-privacy $\\delta(\\varepsilon) = \\max_{a \\ne b} H_{e^\\varepsilon}(\\mu_{i,a} \\| \\mu_{i,b})$ (the adversary knows $\\pi$, not the other records) is the largest $\\mu_{i,a}(S) - e^{\\varepsilon} \\mu_{i,b}(S)$ over sets of outputs, and it is 0 exactly from $\\varepsilon$ = the inferential privacy on: positive at $\\varepsilon(1 - 10^{-6})$, zero at $\\varepsilon(1 + 10^{-9})$.",
       method="laws summed database by database and the supremum over all $2^m$ output sets enumerated, at 6 epsilons for each of 32 binary cases; the threshold from the inferential privacy computed as a maximum ratio")
def sp_zero_threshold() -> Evidence:
    grid = np.array([0.0, 0.1, 0.3, 0.7, 1.5, 3.0])
    ours, ref, below, above = [], [], [], []
    for ch, model, i in _small_cases():
        if ch.K != 2:
            continue
        laws, mass = _bf_laws(ch.table, model.prob, 2, ch.n, i)
        ours.append(notions.statistical_delta(ch, model, grid, i))
        ref.append(np.maximum(_bf_hockey(laws[0], laws[1], grid), _bf_hockey(laws[1], laws[0], grid)))
        eps = notions.inferential_privacy(ch, model, i)
        if np.isfinite(eps) and eps > 0:
            below.append(float(notions.statistical_delta(ch, model, eps * (1 - 1e-6), i)))
            above.append(float(notions.statistical_delta(ch, model, eps * (1 + 1e-9), i)))
    return all_of(close(ours, ref, atol=1e-12, rtol=0.0, detail="against the supremum over output sets"),
                  holds(bool(min(below) > 0), detail=f"delta > 0 just below the threshold in all {len(below)} cases"),
                  close(above, 0.0, atol=1e-15, detail="delta = 0 just above the threshold"))


@sp_zero_threshold.mutant("notions._statistical_delta_of", "one ordered pair only (H(mu_1 || mu_0))")
def _(original):
    def wrong(laws, marg, eps):
        from privlib.core import profiles
        mu = np.exp(laws)
        return profiles.hockey_stick(mu[1] / mu[1].sum(), mu[0] / mu[0].sum(), eps)
    return wrong


@sp_zero_threshold.mutant("notions._statistical_delta_of", "prior-weighted output law in place of mu_{i,b}")
def _(original):
    def wrong(laws, marg, eps):
        from privlib.core import profiles
        mu = np.exp(laws)
        mix = np.exp(marg) @ mu
        return np.maximum(profiles.hockey_stick(mu[0], mix, eps), profiles.hockey_stick(mu[1], mix, eps))
    return wrong


@claim("notions/pml-at-most-gk", item="PML of a record (Saeidian et al.) against inferential privacy",
       statement="The pointwise maximal leakage of record $i$, $\\ell(X_i \\to y) = \\log \\max_a P(x_i = a \\mid y) / \\pi(x_i = a)$, is at most the inferential privacy at every output: $P(y)$ is a $\\pi$-average of the $\\mu_{i,b}(y)$, so $\\max_a \\mu_{i,a}(y) / P(y) \\le \\max_{a,b} \\mu_{i,a}(y) / \\mu_{i,b}(y)$.",
       method="PML from the posterior by Bayes' rule, database by database, at every output of 32 binary cases and 2 ternary ones; then the inequality against the inferential privacy")
def pml_at_most_gk() -> Evidence:
    ours, ref, bound = [], [], []
    for ch, model, i in _small_cases():
        prior = model.prob
        joint = prior[:, None] * ch.table
        rec = ch.samples[:, i]
        pri = np.array([prior[rec == a].sum() for a in range(ch.K)])
        post = np.array([joint[rec == a].sum(axis=0) for a in range(ch.K)]) / joint.sum(axis=0)
        ref.append(np.log((post[pri > 0] / pri[pri > 0, None]).max(axis=0)))
        ours.append(notions.pml(ch, model, i))
        bound.append(notions.inferential_privacy(ch, model, i))
    ours_all = np.concatenate(ours)
    return all_of(close(ours_all, np.concatenate(ref), rtol=1e-10, atol=1e-13, detail="PML against the posterior-to-prior ratio"),
                  at_most([o.max() for o in ours], bound, atol=1e-12, detail="sup PML <= inferential privacy, each case"))


@pml_at_most_gk.mutant("notions._pml_of", "P(y) with equal weights on the record's values instead of the prior")
def _(original):
    def wrong(laws, marg):
        return original(laws, np.log(np.full(marg.shape, 1.0 / marg.size)))
    return wrong


@pml_at_most_gk.mutant("notions._pml_of", "min over the record's values in place of max")
def _(original):
    def wrong(laws, marg):
        values = np.flatnonzero(np.isfinite(marg))
        log_py = special.logsumexp(laws[values] + marg[values, None], axis=0)
        return np.maximum(laws[values].min(axis=0) - log_py, 0.0)
    return wrong
