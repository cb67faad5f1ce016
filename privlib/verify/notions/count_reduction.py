"""Claims of the cross-paper chapter "One mechanism, five notions": The conditional output laws and
the count reduction."""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from privlib.core import notions
from privlib.verify.claims import Evidence, all_of, claim, close
from privlib.verify.source_mutants import edit
from privlib.verify.notions._routes import _bf_laws, _databases, _geometric_rows, _weights_unshifted


@claim("notions/count-reduction", item="Conditional output laws (count reduction)",
       statement="For a mechanism of the count under an exchangeable model, $\\mu_{i,a}(y) = \\sum_j P(K_{-i}=j \\mid x_i=a) P(y \\mid j+a)$ with $P(K_{-i}=j \\mid x_i=a) \\propto \\binom{n-1}{j} w_{j+a}$: the O(n) running sums of the truncated geometric count give the laws of the sum over all $2^n$ databases, and at $n = 2000$ those of the beta-binomial posterior predictive. The likelihood ratio $\\mu_{i,1}(y) / \\mu_{i,0}(y)$ is non-decreasing in y under every exchangeable model (the count's weights given $x_i$ have the increasing ratio $k/(n-k)$, the noise rows are totally positive of order 2), so the inferential privacy is that of the clamped outputs 0 and n.",
       method="n = 10: the laws summed database by database (1024 databases) for six models (one, with weights alternating in the count, not affiliated), and the inferential privacy against their largest log-likelihood ratio over every output; n = 2000: the sum over counts in log-space with scipy's beta-binomial law of the other records given $x_i$ (the posterior predictive) and the geometric rows from the noise law")
def count_reduction(n_small: int = 10, n_large: int = 2000, epsilon: float = 0.7) -> Evidence:
    g = notions.geometric_count(n_small, epsilon)
    table = np.exp(_geometric_rows(n_small, epsilon))
    counts = np.array([sum(x) for x in _databases(2, n_small)])
    ours, ref = [], []
    ip, ip_ref = [], []
    # the last model is not affiliated (weights alternating with the count): the inferential
    # privacy from the clamped outputs alone holds for every exchangeable prior
    alternating = notions.exchangeable_model(np.log1p(0.9 * (-1.0) ** np.arange(n_small + 1)), "alternating")
    for model in (notions.iid_model(n_small, 0.3), notions.beta_binomial_model(n_small, 0.6, 1.7),
                  notions.beta_binomial_model(n_small, 1.7, 0.6),
                  notions.mixture_model(n_small, 0.4, 0.5), notions.clones_model(n_small, 0.3), alternating):
        prior = np.exp(model.log_weights[counts])
        for i in (0, n_small - 1):
            ours.append(notions.conditional_laws(g, model, i)[0])
            laws = _bf_laws(table[counts], prior, 2, n_small, i)[0]
            ref.append(laws)
            ip.append(notions.inferential_privacy(g, model, i))
            ip_ref.append(np.abs(np.log(laws[1]) - np.log(laws[0])).max())
    small = close(ours, ref, rtol=1e-11, atol=1e-300, detail=f"n = {n_small}, against the sum over every database")
    privacy = close(ip, ip_ref, rtol=1e-11, detail=f"n = {n_small}: the inferential privacy (the clamped outputs) "
                    "against the largest log-likelihood ratio over every output of those laws")
    a, b = 1.5, 2.5
    rows = _geometric_rows(n_large, epsilon)
    j = np.arange(n_large)
    big_ours = np.log(notions.conditional_laws(notions.geometric_count(n_large, epsilon),
                                               notions.beta_binomial_model(n_large, a, b), 3)[0])
    big_ref = []
    for value in (0, 1):
        log_pred = stats.betabinom.logpmf(j, n_large - 1, a + value, b + 1 - value)
        big_ref.append(special.logsumexp(log_pred[:, None] + rows[j + value], axis=0))
    large = close(big_ours, big_ref, rtol=1e-9, atol=1e-9,
                  detail=f"n = {n_large}, log-laws against the beta-binomial posterior predictive")
    # a record value of prior probability e^-1000 (only the all-zeros database has x_i = 0): its
    # law is the noise row of count 0 exactly, although every linear-scale weight underflows
    lw = np.full(n_small + 1, -np.inf)
    lw[0], lw[n_small] = -1000.0, 0.0
    rare = notions.conditional_laws(g, notions.exchangeable_model(lw), 0)[0]
    tiny = close(rare, table[[0, n_small]], rtol=1e-11, atol=1e-300,
                 detail="n = {}, x_i = 0 of probability e^-1000: the laws are the noise rows of counts 0 and n".format(n_small))
    return all_of(small, privacy, large, tiny)


count_reduction.mutant("notions._log_record_joint", "the other records weighted by w_j instead of w_{j+a}")(_weights_unshifted)


count_reduction.mutant("notions._exchangeable_formula", "only the tilt towards x_i = 1 (odds(+1) - odds(0))")(
    edit("max(nu_0, nu_1, 0.0)", "max(nu_1, 0.0)"))


@count_reduction.mutant("notions._log_record_joint", "binomial coefficient C(n, j) in place of C(n-1, j)")
def _(original):
    def wrong(model, i):
        joint, marg = original(model, i)
        if model.exchangeable:
            n = model.n
            shift = special.gammaln(n + 1) - special.gammaln(n) - np.log(n - np.arange(n))  # log C(n,j)/C(n-1,j)
            joint = joint + shift[None, :]
            marg = special.logsumexp(joint, axis=1)
        return joint, marg
    return wrong


@count_reduction.mutant("notions.GeometricCount.log_mixture", "the upper running sum includes k = y (counted twice)")
def _(original):
    def wrong(self, log_h):
        t, n = self.epsilon, self.n
        k = np.arange(n + 1, dtype=float)
        left = np.logaddexp.accumulate(log_h + t * k) - t * k
        up = np.logaddexp.accumulate((log_h - t * k)[::-1])[::-1]
        out = np.log(np.tanh(t / 2)) + np.logaddexp(left, up + t * k)
        end = -np.log1p(np.exp(-t))
        out[0], out[n] = up[0] + end, left[n] + end
        return out
    return wrong


@count_reduction.mutant("notions.GeometricCount.log_mixture", "clamped end outputs get the interior formula")
def _(original):
    def wrong(self, log_h):
        out = original(self, log_h)
        t, n = self.epsilon, self.n
        k = np.arange(n + 1, dtype=float)
        c = np.log(np.tanh(t / 2))
        out[0] = c + special.logsumexp(log_h - t * k)
        out[n] = c + special.logsumexp(log_h - t * (n - k))
        return out
    return wrong
