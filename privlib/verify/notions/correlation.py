"""Claims of the cross-paper chapter "One mechanism, five notions": Correlation: clones reach n
epsilon; the implications of the product case fail."""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from privlib.papers import affiliation
from privlib.core import notions
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds
from privlib.verify.source_mutants import edit
from privlib.verify.notions._routes import (
    _bf_posterior_odds_change,
    _databases,
    _ends_left_out,
    _posterior_odds,
    _weights_unshifted,
)


@claim("notions/clones-reach-n-eps", item="Clones reach n epsilon (Ghosh & Kleinberg, Section 2)",
       statement="Under the clones model the inferential privacy (= Pufferfish loss with that scenario) of every record for the $\\varepsilon$-DP truncated geometric count is exactly $n\\varepsilon$: the output 0 is $e^{n\\varepsilon}$ times likelier with all records 0 than with all 1.",
       method="the count reduction at $n = 10^6$ and the table over all databases at n = 10, against $n\\varepsilon$")
def clones_reach_n_eps(epsilon: float = 0.002, n_large: int = 1_000_000, n_small: int = 10) -> Evidence:
    small_eps = 0.3
    vals = [notions.inferential_privacy(notions.geometric_count(n_large, epsilon), notions.clones_model(n_large, 0.3), 17),
            notions.inferential_privacy(notions.geometric_count(n_small, small_eps).expand(), notions.clones_model(n_small, 0.6), 4)]
    return close(vals, [n_large * epsilon, n_small * small_eps], rtol=1e-8, detail="clones: n epsilon")


@clones_reach_n_eps.mutant("notions._exchangeable_formula", "the tilts e^{+-eps k / 2} (the noise's scale read as 2 / eps)")
def _(original):
    return lambda log_w, eps: original(log_w, eps / 2)


clones_reach_n_eps.mutant("notions.inferential_privacy", "prior odds not divided out (posterior odds)")(_posterior_odds)


@claim("notions/geometric-attains-worst-case", item="The truncated geometric count is a worst case (Ghosh & Kleinberg, Theorem 3.4)",
       statement="For every affiliated prior, the inferential privacy of the $\\varepsilon$-DP truncated geometric count equals Ghosh & Kleinberg's worst case over all $\\varepsilon$-DP mechanisms (Theorem 3.4, eq. (6)): its clamped outputs 0 and n have likelihoods proportional to $e^{-\\varepsilon k}$ and $e^{-\\varepsilon (n-k)}$, the maximally biased mechanisms of the theorem, and being $\\varepsilon$-DP it cannot exceed the worst case.",
       method="chapter 003's formula (6) in its O(n) exchangeable form for beta-binomial priors at $n = 10^4$ ($(a, b)$ = (0.5, 0.5), (5, 2), (30, 30), (600, 900), whose weights are checked against scipy's beta-binomial law of the count) against the mechanism's log-likelihood ratio at every one of the $n + 1$ outputs (the count reduction's laws by running sums), and formula (6)'s sum over all databases for ferromagnetic Ising chains on 8 records against the geometric count's table over those databases (chapter 003's record order converted)")
def geometric_attains_worst_case(epsilon: float = 0.01, n: int = 10_000, chain_epsilon: float = 0.7) -> Evidence:
    g = notions.geometric_count(n, epsilon)
    ours, theirs, weights, weights_ref = [], [], [], []
    k = np.arange(n + 1)
    log_choose = special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1)
    for a, b in ((0.5, 0.5), (5.0, 2.0), (30.0, 30.0), (600.0, 900.0)):
        # the mechanism's inferential privacy over every output y: max |log mu_1(y) / mu_0(y)|
        laws = notions._log_laws(g, notions.beta_binomial_model(n, a, b), 0)[0]   # log mu_a(y), no underflow
        ours.append(np.abs(laws[1] - laws[0]).max())
        theirs.append(affiliation.exchangeable_inferential_privacy(affiliation.beta_binomial_log_weights(n, a, b), epsilon))
        # the prior's weight of one database with k ones, from scipy's beta-binomial law of the count
        weights.append(notions.beta_binomial_log_weights(n, a, b))
        weights_ref.append(stats.betabinom.logpmf(k, n, a, b) - log_choose)
    chain = notions.geometric_count(8, chain_epsilon)
    ours_c, theirs_c = [], []
    for coupling, field in ((0.3, 0.0), (1.0, 0.4)):
        prior = affiliation.ising_prior(8, [(j, j + 1) for j in range(7)], coupling, field)
        model = notions.explicit_model(prior, 8, record_order="first-least-significant")
        for i in (0, 3):
            ours_c.append(notions.inferential_privacy(chain, model, i))
            theirs_c.append(affiliation.inferential_privacy(prior, chain_epsilon, i))
    return all_of(close(weights, weights_ref, atol=1e-9, rtol=1e-12,
                        detail=f"beta-binomial log-weights against scipy's law of the count, n = {n}"),
                  close(ours, theirs, rtol=1e-10, detail=f"beta-binomial priors, n = {n}"),
                  close(ours_c, theirs_c, rtol=1e-10, detail="ferromagnetic Ising chains, 8 records"))


geometric_attains_worst_case.mutant("notions.GeometricCount.log_mixture", "the clamped end outputs left out")(_ends_left_out)


geometric_attains_worst_case.mutant("notions._exchangeable_formula", "only the tilt towards x_i = 1 (odds(+1) - odds(0))")(
    edit("max(nu_0, nu_1, 0.0)", "max(nu_1, 0.0)"))


geometric_attains_worst_case.mutant("notions._log_record_joint", "the other records weighted by w_j instead of w_{j+a}")(_weights_unshifted)


geometric_attains_worst_case.mutant("core._logspace.log_rising", "concentration above 1e3: log Gamma(m + 1) in place of log Gamma(m)")(
    edit("special.gammaln(mm[pos]) - special.betaln", "special.gammaln(mm[pos] + 1) - special.betaln"))


@claim("notions/counterexamples", item="Where the implications fail",
       statement="Correlation breaks the product-model bounds: under clones the truncated geometric count has inferential privacy $n\\varepsilon > \\varepsilon_{DP}$ and $\\delta_{SP}(\\varepsilon') > \\delta_{DP}(\\varepsilon')$. And the converse implications fail too: the subsampled count is $\\varepsilon$-DP for no $\\varepsilon$ (an output possible for one neighbour is impossible for the other; KL level $\\infty$), yet its TV level is $m/n$ and under the independent model its inferential privacy and statistical-privacy $\\delta$ are finite.",
       method="geometric count on 6 records under clones against the DP side (at $\\varepsilon' = \\varepsilon/2, 0.9\\varepsilon, 2\\varepsilon$, below $n\\varepsilon$, $\\delta_{SP}$ above $\\delta_{DP}$ by half of $\\min(\\delta_{SP}, 1 - \\delta_{DP})$, a margin that holds from tiny to large $\\varepsilon$); the subsampled count (n = 12, m = 3): support of the hypergeometric rows from scipy, its TV level against $m/n$ (the pair of counts k, k+1 differs by the probability that a given record is drawn), and, for n = 8 and m = 3 under independent records, its inferential privacy from the posterior odds, database by database")
def counterexamples(epsilon: float = 0.5) -> Evidence:
    n = 6
    g = notions.geometric_count(n, epsilon)
    clones = notions.clones_model(n, 0.5)
    grid = np.array([0.5, 0.9, 2.0]) * epsilon      # below n epsilon, where the clones' delta_SP is positive
    gk = notions.inferential_privacy(g, clones, 2)
    sp = notions.statistical_delta(g, clones, grid, 2)
    d_dp = notions.dp_delta(g, grid)
    nn, m = 12, 3
    s = notions.subsampled_count(nn, m)
    rows = np.array([[stats.hypergeom.pmf(y, nn, k, m) for y in range(m + 1)] for k in range(nn + 1)])
    not_dp = bool(((rows[:-1] == 0) & (rows[1:] > 0)).any())
    small = notions.subsampled_count(8, 3)
    model = notions.iid_model(8, 0.3)
    counts = np.array([sum(x) for x in _databases(2, 8)])
    table = np.array([[stats.hypergeom.pmf(y, 8, k, 3) for y in range(4)] for k in counts])
    gk_s = _bf_posterior_odds_change(table, np.exp(model.log_weights[counts]), 2, 8, 0)
    return all_of(close(gk, n * epsilon, rtol=1e-12, detail="clones: inferential privacy n epsilon"),
                  at_most(2 * notions.dp_epsilon(g), gk, atol=0.0, detail="it is at least twice epsilon_DP"),
                  at_most(d_dp + 0.5 * np.minimum(sp, 1 - d_dp), sp, atol=0.0,
                          detail="delta_SP exceeds delta_DP by half of min(delta_SP, 1 - delta_DP) at eps' = eps/2, 0.9 eps, 2 eps"),
                  holds(not_dp and notions.dp_epsilon(s) == np.inf and notions.kl_level(s) == np.inf,
                        detail="subsampled count: a neighbour's output has probability 0; epsilon_DP and KL level infinite"),
                  close(notions.tv_level(s), m / nn, rtol=1e-12, detail="subsampled count: TV level m/n"),
                  close(notions.inferential_privacy(small, model, 0), gk_s, rtol=1e-10,
                        detail="subsampled count, independent records: finite inferential privacy"))


@counterexamples.mutant("notions._log_ratio", "outputs impossible under one neighbour ignored (support mismatch not infinite)")
def _(original):
    def wrong(lp, lq):
        d = original(lp, lq)
        return np.where(np.isinf(d), 0.0, d)
    return wrong


counterexamples.mutant("notions.GeometricCount.log_mixture", "the clamped end outputs left out")(_ends_left_out)
