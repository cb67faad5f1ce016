"""Claims of the cross-paper chapter "One mechanism, five notions": the relations between the
notions of the five papers, each checked on :mod:`privlib.core.notions` against an independent route
(enumeration of every database and every set of outputs, the other chapters' own
implementations, scipy's beta-binomial law, closed forms of the mechanisms), on small databases
and, through the count reduction, on large ones."""

from __future__ import annotations

import itertools

import numpy as np
from scipy import special, stats

from privlib.papers import affiliation, pufferfish
from privlib.core import notions
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds, reference

# ---------------------------------------------------------------------------------------------
# Brute force: every database, every neighbouring pair, every set of outputs
# ---------------------------------------------------------------------------------------------


def _databases(K: int, n: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(K), repeat=n))


@reference
def _bf_laws(table: np.ndarray, prior: np.ndarray, K: int, n: int, i: int) -> tuple[np.ndarray, np.ndarray]:
    """``mu_{i,a} = sum_{x: x_i = a} pi(x) P(.|x) / pi(x_i = a)`` database by database."""
    mu = np.zeros((K, table.shape[1]))
    mass = np.zeros(K)
    for row, x in enumerate(_databases(K, n)):
        mu[x[i]] += prior[row] * table[row]
        mass[x[i]] += prior[row]
    return mu / np.where(mass > 0, mass, 1.0)[:, None], mass


def _neighbours(K: int, n: int) -> list[tuple[int, int]]:
    dbs = _databases(K, n)
    return [(r, s) for r, x in enumerate(dbs) for s, y in enumerate(dbs) if sum(a != b for a, b in zip(x, y)) == 1]


def _ratio(p: float, q: float) -> float:
    if p == 0:
        return 0.0
    return np.inf if q == 0 else float(np.log(p / q))


@reference
def _bf_dp_epsilon(table: np.ndarray, K: int, n: int) -> float:
    return max(_ratio(table[r, y], table[s, y]) for r, s in _neighbours(K, n) for y in range(table.shape[1]))


def _subsets(m: int) -> np.ndarray:
    return np.array(list(itertools.product([0.0, 1.0], repeat=m)))


@reference
def _bf_hockey(p: np.ndarray, q: np.ndarray, eps: np.ndarray) -> np.ndarray:
    """``sup_S p(S) - e^eps q(S)`` over every set S of outputs."""
    s = _subsets(p.size)
    return (s @ p[:, None] - np.exp(eps)[None, :] * (s @ q[:, None])).max(axis=0)


@reference
def _bf_dp_delta(table: np.ndarray, K: int, n: int, eps: np.ndarray) -> np.ndarray:
    return np.max([_bf_hockey(table[r], table[s], eps) for r, s in _neighbours(K, n)], axis=0)


@reference
def _bf_posterior_odds_change(table: np.ndarray, prior: np.ndarray, K: int, n: int, i: int) -> float:
    """``max_y max_{a,b} log [P(x_i=a | y) / P(x_i=b | y)] / [pi(x_i=a) / pi(x_i=b)]`` from the
    joint law of (database, output) by Bayes' rule."""
    joint = prior[:, None] * table                                      # P(x, y)
    rec = np.array([x[i] for x in _databases(K, n)])
    post = np.array([joint[rec == a].sum(axis=0) for a in range(K)])     # P(x_i = a, y)
    post = post / post.sum(axis=0, keepdims=True)                       # P(x_i = a | y)
    pri = np.array([prior[rec == a].sum() for a in range(K)])
    best = 0.0
    for a in range(K):
        for b in range(K):
            if a != b and pri[a] > 0 and pri[b] > 0:
                for y in range(table.shape[1]):
                    best = max(best, _ratio(post[a, y], post[b, y]) - np.log(pri[a] / pri[b]))
    return best


def _random_channel(K: int, n: int, m: int, seed: int) -> notions.FiniteChannel:
    """An asymmetric channel: Dirichlet rows, different for every database."""
    rng = np.random.default_rng(seed)
    return notions.FiniteChannel(rng.dirichlet(np.full(m, 2.0), size=K ** n), K, n)


def _geometric_rows(n: int, eps: float) -> np.ndarray:
    """``log P(y | k)`` of the truncated geometric count from its definition: the two-sided
    geometric noise law, clamped to [0, n] (tail masses summed as geometric series)."""
    r = np.exp(-eps)
    k = np.arange(n + 1)[:, None]
    y = np.arange(n + 1)[None, :]
    log_point = np.log((1 - r) / (1 + r)) + np.abs(y - k) * np.log(r)      # P(Z = y - k)
    log_low = k * np.log(r) - np.log1p(r)                                 # P(Z <= -k)
    log_high = (n - k) * np.log(r) - np.log1p(r)                          # P(Z >= n - k)
    rows = np.array(log_point, dtype=float)
    rows[:, :1] = log_low
    rows[:, -1:] = log_high
    return rows


# ---------------------------------------------------------------------------------------------
# Plausible mistakes shared by several claims (each registered as a mutant where it applies)
# ---------------------------------------------------------------------------------------------

def _ends_left_out(original):
    """GeometricCount.log_mixture without the clamped end outputs."""
    def wrong(self, log_h):
        out = original(self, log_h)
        out[0] = out[-1] = -np.inf
        return out
    return wrong


def _weights_unshifted(original):
    """_log_record_joint weighting the other records by w_j instead of w_{j+a}."""
    def wrong(model, i):
        joint, marg = original(model, i)
        if model.exchangeable:
            joint = np.stack([joint[0], joint[0]])
            marg = special.logsumexp(joint, axis=1)
        return joint, marg
    return wrong


def _posterior_odds(original):
    """inferential_privacy returning the posterior odds instead of their change."""
    def wrong(channel, model, i=0):
        marg = model.record_marginal(i)
        marg = marg[marg > 0]
        return original(channel, model, i) + float(np.log(marg.max() / marg.min()))
    return wrong


# ---------------------------------------------------------------------------------------------
# The conditional output laws and the count reduction
# ---------------------------------------------------------------------------------------------

@claim("notions/count-reduction", item="Conditional output laws (count reduction)",
       statement="For a mechanism of the count under an exchangeable model, $\\mu_{i,a}(y) = \\sum_j P(K_{-i}=j \\mid x_i=a) P(y \\mid j+a)$ with $P(K_{-i}=j \\mid x_i=a) \\propto \\binom{n-1}{j} w_{j+a}$: the O(n) running sums of the truncated geometric count give the laws of the sum over all $2^n$ databases, and at $n = 2000$ those of the beta-binomial posterior predictive.",
       method="n = 10: the laws summed database by database (1024 databases) for four models; n = 2000: the sum over counts in log-space with scipy's beta-binomial law of the other records given $x_i$ (the posterior predictive) and the geometric rows from the noise law")
def count_reduction(n_small: int = 10, n_large: int = 2000, epsilon: float = 0.7) -> Evidence:
    g = notions.geometric_count(n_small, epsilon)
    table = np.exp(_geometric_rows(n_small, epsilon))
    counts = np.array([sum(x) for x in _databases(2, n_small)])
    ours, ref = [], []
    for model in (notions.iid_model(n_small, 0.3), notions.beta_binomial_model(n_small, 0.6, 1.7),
                  notions.mixture_model(n_small, 0.4, 0.5), notions.clones_model(n_small, 0.3)):
        prior = np.exp(model.log_weights[counts])
        for i in (0, n_small - 1):
            ours.append(notions.conditional_laws(g, model, i)[0])
            ref.append(_bf_laws(table[counts], prior, 2, n_small, i)[0])
    small = close(ours, ref, rtol=1e-11, atol=1e-300, detail=f"n = {n_small}, against the sum over every database")
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
    return all_of(small, large)


count_reduction.mutant("notions._log_record_joint", "the other records weighted by w_j instead of w_{j+a}")(_weights_unshifted)


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


# ---------------------------------------------------------------------------------------------
# Inferential privacy = Pufferfish = leakage capacity of the induced channel = SP threshold
# ---------------------------------------------------------------------------------------------

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
       statement="Ghosh & Kleinberg's inferential privacy of record $i$ under the prior $\\pi$ (the largest change of the posterior odds of $x_i = a$ against $x_i = b$ from the prior odds) equals the Pufferfish loss with the single scenario $\\pi$ and the secret pairs $(x_i = a, x_i = b)$, for every mechanism and prior, correlated or not.",
       method="posterior odds by Bayes' rule from the joint law of database and output, database by database; and chapter 000's pufferfish_loss on the table over all databases with the secrets as masks; 34 (mechanism, prior, record) cases, binary and ternary records")
def gk_equals_pufferfish() -> Evidence:
    ours, bayes, puff = [], [], []
    for ch, model, i in _small_cases():
        prior = model.prob
        ours.append(notions.inferential_privacy(ch, model, i))
        bayes.append(_bf_posterior_odds_change(ch.table, prior, ch.K, ch.n, i))
        rec = ch.samples[:, i]
        pairs = [(rec == a, rec == b) for a in range(ch.K) for b in range(ch.K) if a != b]
        puff.append(pufferfish.pufferfish_loss(ch.table, prior, pairs))
    return all_of(close(ours, bayes, rtol=1e-10, detail="against the posterior odds (Ghosh & Kleinberg's definition)"),
                  close(np.asarray(ours), puff, rtol=1e-10, detail="against chapter 000's Pufferfish loss"))


gk_equals_pufferfish.mutant("notions.inferential_privacy", "posterior odds instead of their change from the prior odds")(_posterior_odds)


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


# ---------------------------------------------------------------------------------------------
# Product models: everything is bounded by DP; Pufferfish over product priors recovers DP
# ---------------------------------------------------------------------------------------------

@claim("notions/dp-brute-force", item="DP epsilon and delta(epsilon) over neighbours",
       statement="$\\varepsilon_{DP} = \\max_{x \\sim x', y} \\log P(y \\mid x)/P(y \\mid x')$ and $\\delta_{DP}(\\varepsilon) = \\max_{x \\sim x'} \\sup_S P(S \\mid x) - e^{\\varepsilon} P(S \\mid x')$ over databases that differ in one record, for asymmetric channels on binary and ternary records.",
       method="every neighbouring pair of databases listed by comparing records, and every set of outputs enumerated (random Dirichlet channels on $2^5$, $3^3$ and $2^4$ databases, 5 outputs)")
def dp_brute_force() -> Evidence:
    grid = np.array([0.0, 0.2, 0.5, 1.0, 2.0, 4.0])
    ours_eps, ref_eps, ours_d, ref_d = [], [], [], []
    for K, n, seed in ((2, 5, 1), (3, 3, 2), (2, 4, 3)):
        ch = _random_channel(K, n, 5, seed)
        ours_eps.append(notions.dp_epsilon(ch))
        ref_eps.append(_bf_dp_epsilon(ch.table, K, n))
        ours_d.append(notions.dp_delta(ch, grid))
        ref_d.append(_bf_dp_delta(ch.table, K, n, grid))
    return all_of(close(ours_eps, ref_eps, rtol=1e-12, detail="epsilon"),
                  close(ours_d, ref_d, atol=1e-13, rtol=0.0, detail="delta at 6 epsilons"))


@dp_brute_force.mutant("notions._neighbour_blocks", "neighbours in the first record only")
def _(original):
    def wrong(channel):
        blocks = list(original(channel))
        return iter(blocks[:channel.K * (channel.K - 1)])
    return wrong


@dp_brute_force.mutant("notions._neighbour_blocks", "each pair of values in one order only (a < b)")
def _(original):
    def wrong(channel):
        pairs = [(a, b) for a in range(channel.K) for b in range(channel.K) if a != b] * channel.n
        for (a, b), block in zip(pairs, original(channel)):
            if a < b:
                yield block
    return wrong


@claim("notions/product-models-below-dp", item="Product models: every record notion is bounded by DP",
       statement="Under a product model, $\\pi(x_{-i} \\mid x_i = a)$ does not depend on $a$, so every $\\mu_{i,a}$ is the same mixture of the rows $P(\\cdot \\mid a, x_{-i})$: the inferential privacy (= Pufferfish loss with that scenario) is at most $\\varepsilon_{DP}$, and by joint convexity of the hockey stick $\\delta_{SP}(\\varepsilon) \\le \\delta_{DP}(\\varepsilon)$ for every $\\varepsilon$. Per-record randomized response attains both: inferential privacy $= \\varepsilon_{DP} = \\varepsilon$ and $\\delta_{SP} = \\delta_{DP} = (e^{\\varepsilon} - e^{\\varepsilon'})/(1 + e^{\\varepsilon})$.",
       method="6 random product models x 3 mechanisms (asymmetric random channel, Gaussian count, subsampled count) x every record, on a grid of 8 epsilons; randomized response against its closed form in the mechanism's own epsilon")
def product_models_below_dp(epsilon: float = 0.9, seed: int = 7) -> Evidence:
    rng = np.random.default_rng(seed)
    n = 4
    grid = np.linspace(0.0, 2.0, 8)
    chans = [_random_channel(2, n, 4, 9), notions.gaussian_count(n, 0.8).expand(), notions.subsampled_count(n, 2).expand()]
    gk, eps_dp, sp, d_dp = [], [], [], []
    for ch in chans:
        e_dp, dd = notions.dp_epsilon(ch), notions.dp_delta(ch, grid)
        for _ in range(6):
            model = notions.product_model(rng.uniform(0.05, 0.95, n))
            for i in range(n):
                gk.append(notions.inferential_privacy(ch, model, i))
                eps_dp.append(e_dp)
                sp.append(notions.statistical_delta(ch, model, grid, i))
                d_dp.append(dd)
    rr = notions.randomized_response(n, epsilon)
    model = notions.product_model(rng.uniform(0.05, 0.95, n))
    e = np.exp(epsilon)
    rr_grid = np.linspace(0.0, epsilon, 5)
    closed = (e - np.exp(rr_grid)) / (1 + e)
    tight = [notions.inferential_privacy(rr, model, i) for i in range(n)] + [notions.dp_epsilon(rr)]
    tight_d = [notions.statistical_delta(rr, model, rr_grid, i) for i in range(n)] + [notions.dp_delta(rr, rr_grid)]
    return all_of(at_most(gk, eps_dp, atol=1e-12, detail="inferential privacy <= DP epsilon"),
                  at_most(sp, d_dp, atol=1e-12, detail="statistical-privacy delta <= DP delta"),
                  close(tight, epsilon, rtol=1e-12, detail="randomized response: inferential privacy and DP epsilon equal epsilon"),
                  close(tight_d, np.broadcast_to(closed, (n + 1, closed.size)), atol=1e-13, rtol=0.0,
                        detail="randomized response: both deltas equal the closed form"))


@product_models_below_dp.mutant("notions.dp_epsilon", "the largest ratio in one direction of each record's values only (x_i = 1 against 0)")
def _(original):
    def wrong(channel):
        if not isinstance(channel, notions.FiniteChannel):
            return original(channel)
        K, n = channel.K, channel.n
        best = 0.0
        for i in range(n):
            lt = channel.log_table.reshape(K ** i, K, K ** (n - 1 - i), -1)
            best = max(best, float((lt[:, 1] - lt[:, 0]).max()))
        return best
    return wrong


@product_models_below_dp.mutant("notions.dp_delta", "(e^{-eps} p - q)_+ in place of (p - e^{eps} q)_+")
def _(original):
    return lambda channel, epsilon: original(channel, epsilon) * np.exp(-np.asarray(epsilon, dtype=float))


product_models_below_dp.mutant("notions.inferential_privacy", "prior odds not divided out (posterior odds)")(_posterior_odds)


@claim("notions/pufferfish-products-recover-dp", item="Pufferfish over all product priors recovers DP (Bailie & Gong)",
       statement="The record-level Pufferfish loss over the scenarios of all product priors equals $\\varepsilon_{DP}$: the product priors that fix every other record (point masses) turn $\\mu_{i,a}$ into the rows $P(\\cdot \\mid a, x_{-i})$, so they recover every neighbouring pair, and no product prior exceeds it.",
       method="Pufferfish loss over the $2^{n-1}$ point-mass priors of each record (uniform on the record itself), every record, against $\\varepsilon_{DP}$ from every neighbouring pair listed by comparing records, for a random channel, the Gaussian count and randomized response on 4 records; 20 random interior product priors stay below")
def pufferfish_products_recover_dp(seed: int = 3) -> Evidence:
    n = 4
    ours, ref, inner, bound = [], [], [], []
    rng = np.random.default_rng(seed)
    for ch in (_random_channel(2, n, 4, 21), notions.gaussian_count(n, 0.6).expand(), notions.randomized_response(n, 0.8)):
        models = []
        for i in range(n):
            for others in itertools.product([0.0, 1.0], repeat=n - 1):
                p = np.insert(np.array(others), i, 0.5)
                models.append(notions.product_model(p))
        ours.append(notions.pufferfish_loss(ch, models))
        ref.append(_bf_dp_epsilon(ch.table, 2, n))
        inner.append(notions.pufferfish_loss(ch, [notions.product_model(rng.uniform(0.02, 0.98, n)) for _ in range(20)]))
        bound.append(ref[-1])
    return all_of(close(ours, ref, rtol=1e-12, detail="point-mass product priors: Pufferfish = DP epsilon"),
                  at_most(inner, bound, atol=1e-12, detail="interior product priors: Pufferfish <= DP epsilon"))


@pufferfish_products_recover_dp.mutant("notions.pufferfish_loss", "only the first scenario")
def _(original):
    def wrong(channel, models, records=None, pairs=None):
        models = [models] if isinstance(models, notions.DataModel) else list(models)
        return original(channel, models[:1], records, pairs)
    return wrong


@pufferfish_products_recover_dp.mutant("notions.pufferfish_loss", "the secrets of the first record only")
def _(original):
    def wrong(channel, models, records=None, pairs=None):
        return original(channel, models, [0], pairs)
    return wrong


# ---------------------------------------------------------------------------------------------
# Barber & Duchi's levels; the geometric count in closed form
# ---------------------------------------------------------------------------------------------

@claim("notions/dp-bounds-tv-kl", item="epsilon-DP bounds the TV and KL levels (Barber & Duchi)",
       statement="An $\\varepsilon$-DP channel is $\\tanh(\\varepsilon/2)$-TV private and $\\varepsilon \\tanh(\\varepsilon/2)$-KL private (nats): for a pair with $e^{-\\varepsilon} \\le p/q \\le e^{\\varepsilon}$, moving mass to the two extreme ratios only increases TV and KL, and the extreme pair is binary randomized response, which attains both.",
       method="TV and KL levels against every neighbouring pair listed by comparing records (random channels), the inequality against $\\varepsilon_{DP}$, and equality for randomized response and the truncated geometric count")
def dp_bounds_tv_kl(epsilon: float = 0.8) -> Evidence:
    tv, kl, tv_ref, kl_ref, tv_b, kl_b = [], [], [], [], [], []
    for K, n, seed in ((2, 4, 31), (3, 2, 32), (2, 3, 33)):
        ch = _random_channel(K, n, 5, seed)
        pairs = _neighbours(K, n)
        tv.append(notions.tv_level(ch))
        kl.append(notions.kl_level(ch))
        tv_ref.append(max(0.5 * np.abs(ch.table[r] - ch.table[s]).sum() for r, s in pairs))
        kl_ref.append(max(float(special.rel_entr(ch.table[r], ch.table[s]).sum()) for r, s in pairs))
        e = notions.dp_epsilon(ch)
        tv_b.append(np.tanh(e / 2))
        kl_b.append(e * np.tanh(e / 2))
    tight = [notions.randomized_response(3, epsilon), notions.geometric_count(6, epsilon), notions.geometric_count(6, epsilon).expand()]
    return all_of(close(tv + kl, tv_ref + kl_ref, rtol=1e-12, detail="levels against every neighbouring pair"),
                  at_most(tv + kl, tv_b + kl_b, atol=1e-12, detail="below the bounds in epsilon_DP"),
                  close([notions.tv_level(c) for c in tight] + [notions.kl_level(c) for c in tight],
                        [np.tanh(epsilon / 2)] * 3 + [epsilon * np.tanh(epsilon / 2)] * 3, rtol=1e-12,
                        detail="randomized response and the geometric count attain both"))


@dp_bounds_tv_kl.mutant("notions._tv", "the L1 distance without the factor 1/2")
def _(original):
    return lambda p, q: 2.0 * original(p, q)


@dp_bounds_tv_kl.mutant("notions._kl", "KL in bits (log base 2)")
def _(original):
    return lambda lp, lq, p: original(lp, lq, p) / np.log(2.0)


@claim("notions/geometric-count-levels", item="Truncated geometric count: the neighbour levels in closed form",
       statement="For the truncated geometric count every neighbouring pair $(P(\\cdot \\mid k), P(\\cdot \\mid k+1))$ has privacy loss $+\\varepsilon$ on the outputs $y \\le k$ (mass $1/(1+e^{-\\varepsilon})$) and $-\\varepsilon$ above, so $\\delta_{DP}(\\varepsilon') = (1 - e^{\\varepsilon' - \\varepsilon})_+ / (1 + e^{-\\varepsilon})$, TV $= \\tanh(\\varepsilon/2)$, KL $= \\varepsilon \\tanh(\\varepsilon/2)$, whatever n.",
       method="every neighbouring pair of counts of the table built from the noise law (n = 40), hockey stick over the outputs, against the O(1) representation used at large n; and the closed form")
def geometric_count_levels(n: int = 40, epsilon: float = 0.6) -> Evidence:
    g = notions.geometric_count(n, epsilon)
    rows = np.exp(_geometric_rows(n, epsilon))
    grid = np.array([0.0, 0.1, 0.3, 0.59, 0.6, 1.2])
    hs = []
    for k in range(n):
        for p, q in ((rows[k], rows[k + 1]), (rows[k + 1], rows[k])):
            hs.append(np.maximum(p[None, :] - np.exp(grid)[:, None] * q[None, :], 0.0).sum(axis=1))
    brute = np.max(hs, axis=0)
    closed = np.maximum(-np.expm1(grid - epsilon), 0.0) / (1 + np.exp(-epsilon))
    tv_kl = [notions.tv_level(g), notions.kl_level(g), notions.dp_epsilon(g)]
    return all_of(close(notions.dp_delta(g, grid), brute, atol=1e-13, rtol=0.0, detail="delta against every pair of counts"),
                  close(brute, closed, atol=1e-13, rtol=0.0, detail="every pair of counts against the closed form"),
                  close(tv_kl, [np.tanh(epsilon / 2), epsilon * np.tanh(epsilon / 2), epsilon], rtol=1e-12,
                        detail="TV, KL and epsilon"))


@geometric_count_levels.mutant("notions.GeometricCount.neighbour_blocks", "mass of the +eps outputs P(Z = 0) instead of P(Z <= 0)")
def _(original):
    def wrong(self):
        c, r = np.tanh(self.epsilon / 2), np.exp(-self.epsilon)
        yield np.log([[c, 1 - c]]), np.log([[c * r, 1 - c * r]])
    return wrong


@geometric_count_levels.mutant("notions.GeometricCount.neighbour_blocks", "loss e^{2 eps} (sensitivity counted twice)")
def _(original):
    def wrong(self):
        t = 2 * self.epsilon
        end = -np.log1p(np.exp(-t))
        p = np.array([[end, end - t]])
        yield p, p[:, ::-1]
    return wrong


# ---------------------------------------------------------------------------------------------
# Correlation: clones reach n epsilon; the implications of the product case fail
# ---------------------------------------------------------------------------------------------

@claim("notions/clones-reach-n-eps", item="Clones reach n epsilon (Ghosh & Kleinberg, Section 2)",
       statement="Under the clones model the inferential privacy (= Pufferfish loss with that scenario) of every record for the $\\varepsilon$-DP truncated geometric count is exactly $n\\varepsilon$: the output 0 is $e^{n\\varepsilon}$ times likelier with all records 0 than with all 1.",
       method="the count reduction at $n = 10^6$ and the table over all databases at n = 10, against $n\\varepsilon$")
def clones_reach_n_eps(epsilon: float = 0.002, n_large: int = 1_000_000, n_small: int = 10) -> Evidence:
    small_eps = 0.3
    vals = [notions.inferential_privacy(notions.geometric_count(n_large, epsilon), notions.clones_model(n_large, 0.3), 17),
            notions.inferential_privacy(notions.geometric_count(n_small, small_eps).expand(), notions.clones_model(n_small, 0.6), 4)]
    return close(vals, [n_large * epsilon, n_small * small_eps], rtol=1e-8, detail="clones: n epsilon")


clones_reach_n_eps.mutant("notions.GeometricCount.log_mixture", "the clamped end outputs left out")(_ends_left_out)


clones_reach_n_eps.mutant("notions._log_record_joint", "the other records weighted by w_j instead of w_{j+a}")(_weights_unshifted)


clones_reach_n_eps.mutant("notions.inferential_privacy", "prior odds not divided out (posterior odds)")(_posterior_odds)


@claim("notions/geometric-attains-worst-case", item="The truncated geometric count is a worst case (Ghosh & Kleinberg, Theorem 3.4)",
       statement="For every affiliated prior, the inferential privacy of the $\\varepsilon$-DP truncated geometric count equals Ghosh & Kleinberg's worst case over all $\\varepsilon$-DP mechanisms (Theorem 3.4, eq. (6)): its clamped outputs 0 and n have likelihoods proportional to $e^{-\\varepsilon k}$ and $e^{-\\varepsilon (n-k)}$, the maximally biased mechanisms of the theorem, and being $\\varepsilon$-DP it cannot exceed the worst case.",
       method="chapter 003's formula (6): its O(n) exchangeable form for beta-binomial priors at $n = 10^4$ (count reduction here), and its sum over all databases for ferromagnetic Ising chains on 8 records (chapter 003's record order converted)")
def geometric_attains_worst_case(epsilon: float = 0.01, n: int = 10_000, chain_epsilon: float = 0.7) -> Evidence:
    g = notions.geometric_count(n, epsilon)
    ours, theirs = [], []
    for a, b in ((0.5, 0.5), (2.0, 5.0), (30.0, 30.0)):
        ours.append(notions.inferential_privacy(g, notions.beta_binomial_model(n, a, b), 0))
        theirs.append(affiliation.exchangeable_inferential_privacy(affiliation.beta_binomial_log_weights(n, a, b), epsilon))
    chain = notions.geometric_count(8, chain_epsilon)
    ours_c, theirs_c = [], []
    for coupling, field in ((0.3, 0.0), (1.0, 0.4)):
        prior = affiliation.ising_prior(8, [(j, j + 1) for j in range(7)], coupling, field)
        model = notions.explicit_model(prior, 8, record_order="first-least-significant")
        for i in (0, 3):
            ours_c.append(notions.inferential_privacy(chain, model, i))
            theirs_c.append(affiliation.inferential_privacy(prior, chain_epsilon, i))
    return all_of(close(ours, theirs, rtol=1e-10, detail=f"beta-binomial priors, n = {n}"),
                  close(ours_c, theirs_c, rtol=1e-10, detail="ferromagnetic Ising chains, 8 records"))


geometric_attains_worst_case.mutant("notions.GeometricCount.log_mixture", "the clamped end outputs left out")(_ends_left_out)


geometric_attains_worst_case.mutant("notions._log_record_joint", "the other records weighted by w_j instead of w_{j+a}")(_weights_unshifted)


@claim("notions/counterexamples", item="Where the implications fail",
       statement="Correlation breaks the product-model bounds: under clones the truncated geometric count has inferential privacy $n\\varepsilon > \\varepsilon_{DP}$ and $\\delta_{SP}(\\varepsilon') > \\delta_{DP}(\\varepsilon')$. And the converse implications fail too: the subsampled count is $\\varepsilon$-DP for no $\\varepsilon$ (an output possible for one neighbour is impossible for the other; KL level $\\infty$), yet its TV level is $m/n$ and under the independent model its inferential privacy and statistical-privacy $\\delta$ are finite.",
       method="geometric count on 6 records under clones against the DP side; the subsampled count (n = 12, m = 3): support of the hypergeometric rows from scipy, its TV level against $m/n$ (the pair of counts k, k+1 differs by the probability that a given record is drawn), and, for n = 8 and m = 3 under independent records, its inferential privacy from the posterior odds, database by database")
def counterexamples(epsilon: float = 0.5) -> Evidence:
    n = 6
    g = notions.geometric_count(n, epsilon)
    clones = notions.clones_model(n, 0.5)
    grid = np.array([0.1, 0.5 * epsilon, 0.9 * epsilon])
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
                  at_most(d_dp + 0.01, sp, atol=0.0, detail="delta_SP exceeds delta_DP by more than 0.01 at 3 epsilons"),
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
