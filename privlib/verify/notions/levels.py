"""Claims of the cross-paper chapter "One mechanism, five notions": Barber & Duchi's levels; the
geometric count in closed form."""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from privlib.core import notions
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds, reference
from privlib.verify.source_mutants import edit
from privlib.verify.notions._routes import (_bf_hockey, _bf_laws, _databases, _geometric_rows, _neighbours,
                                            _random_channel, _subsets)


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


@reference
def _bf_record_notions(table: np.ndarray, prior: np.ndarray, K: int, n: int, i: int, eps: float) -> dict[str, float]:
    """The record notions of the chapter's table from the laws of record ``i``, by enumeration."""
    mu, mass = _bf_laws(table, prior, K, n, i)
    present = [a for a in range(K) if mass[a] > 0]
    py = mass @ mu                                                   # P(y)
    ratios = [np.log(mu[a, y] / mu[b, y]) for a in present for b in present for y in range(mu.shape[1])
              if mu[a, y] > 0]
    return {"inferential_privacy": max(ratios),
            "pml_sup": max(np.log(max(mu[a, y] for a in present) / py[y]) for y in range(mu.shape[1]) if py[y] > 0),
            "maximal_leakage": float(np.log(sum(max(mu[a, y] for a in present) for y in range(mu.shape[1])))),
            "statistical_delta": max(float(_bf_hockey(mu[a], mu[b], np.array([eps]))[0])
                                     for a in present for b in present if a != b)}


@reference
def _bf_channel_notions(table: np.ndarray, K: int, n: int, eps: float) -> dict[str, float]:
    """DP epsilon and delta, TV and KL levels over every neighbouring pair, by enumeration."""
    pairs = _neighbours(K, n)
    return {"dp_epsilon": max(np.log(table[r, y] / table[s, y]) for r, s in pairs for y in range(table.shape[1])),
            "dp_delta": max(float(_bf_hockey(table[r], table[s], np.array([eps]))[0]) for r, s in pairs),
            "tv_level": max(0.5 * np.abs(table[r] - table[s]).sum() for r, s in pairs),
            "kl_level": max(float(np.sum(table[r] * np.log(table[r] / table[s]))) for r, s in pairs)}


@reference
def _bf_chtp(pairs: list[tuple[np.ndarray, np.ndarray]], gamma: float) -> float:
    """Barber & Duchi's CHTP level (Definition 8): the largest TV of two neighbouring laws
    conditioned on a set S of outputs with ``p(S) >= gamma`` and ``q(S) > 0``, set by set."""
    best = 0.0
    for p, q in pairs:
        for s in _subsets(p.size):
            ps, qs = s @ p, s @ q
            if ps >= gamma and qs > 0:
                best = max(best, 0.5 * float(np.abs(s * p / ps - s * q / qs).sum()))
    return best


@reference
def _bf_standard(n: int, p: float, rho: float, coupling: float, epsilon: float, sigma: float
                 ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The chapter's four data models (probability of every database) and four mechanisms (their
    tables: over databases for randomized response, over counts for the others, m = n // 2) from
    their definitions, database by database."""
    dbs = np.array(_databases(2, n))
    ones = dbs.sum(axis=1)
    iid = p ** ones * (1 - p) ** (n - ones)
    clones = np.where(ones == n, p, 0.0) + np.where(ones == 0, 1 - p, 0.0)
    spins = 2 * dbs - 1
    field = np.arctanh(2 * p - 1)
    energy = coupling * (spins[:, 1:] * spins[:, :-1]).sum(axis=1) + field * spins.sum(axis=1)
    models = {"independent": iid, "exchangeable": rho * clones + (1 - rho) * iid,
              "Ising chain": np.exp(energy) / np.exp(energy).sum(), "clones": clones}
    e = np.exp(epsilon)
    agree = (dbs[:, None, :] == dbs[None, :, :]).sum(axis=2)
    k, y = np.arange(n + 1)[:, None], np.arange(n + 1)[None, :]
    upper = np.where(y == n, 1.0, stats.norm.cdf((y + 0.5 - k) / sigma))
    lower = np.where(y == 0, 0.0, stats.norm.cdf((y - 0.5 - k) / sigma))
    m = n // 2
    mechanisms = {"randomized response": e ** agree / (e + 1) ** n,
                  "geometric count": np.exp(_geometric_rows(n, epsilon)),
                  "subsampled count": stats.hypergeom.pmf(np.arange(m + 1)[None, :], n, k, m),
                  "Gaussian count": upper - lower}
    return models, mechanisms


@claim("notions/all-notions-brute-force", item="The table of notions, record by record and over a correlation sweep",
       statement="For one mechanism, data model and record, the chapter's table gives DP $\\varepsilon$ and $\\delta(\\varepsilon)$, the TV, KL and CHTP levels (every neighbouring pair), inferential privacy, sup PML, maximal leakage and statistical $\\delta(\\varepsilon)$ of the record (its conditional output laws); the sweep over the mixture model's correlation $\\rho$ gives the same per model; the whole-database maximal leakage is $\\log\\sum_y \\max_x P(y\\mid x)$ and the leakage capacity $\\log\\max_{y,x,x'} P(y\\mid x)/P(y\\mid x')$; the neighbouring pairs are the databases that differ in one record; a mechanism that releases nothing has every level 0; the chapter's four mechanisms and four data models are what their labels say.",
       method="enumeration of every database, every neighbouring pair (records compared one by one), the record's laws summed database by database and every set of outputs (an asymmetric random channel on $3^2$ databases with 4 outputs under a random non-product prior, record 1 and record 0, CHTP at $\\gamma = 0.3$; the truncated geometric count on 5 records under a beta-binomial prior, its CHTP level from the rows of its noise law; another random channel on $2^3$ binary databases under mixture models with $\\rho = 0, 0.3, 0.8, 1$; the whole-database leakage of the truncated geometric count on 3 records, whose farthest databases differ in every record; a count channel with one output, and its conditional laws under two priors at once); the chapter's mechanisms and models on 4 records built from their definitions (Bernoulli products, clones, their mixture, the Ising chain's Boltzmann weights, randomized response, the geometric noise law, scipy's hypergeometric and normal laws)",
       checks=("notions.all_notions", "notions.correlation_sweep", "notions.maximal_leakage",
               "notions.leakage_capacity", "notions.FiniteChannel.neighbour_pairs",
               "notions.FiniteChannel.distinct_neighbour_rows", "notions.chtp_level",
               "notions.DataModel.record_marginal", "notions.standard_models", "notions.standard_mechanisms",
               "notions.log_conditional_laws"))
def all_notions_brute_force(epsilon: float = 0.5, seed: int = 23) -> Evidence:
    rng = np.random.default_rng(seed)
    K, n = 3, 2
    ch = _random_channel(K, n, 4, seed)
    prior = rng.dirichlet(np.ones(K ** n))
    model = notions.explicit_model(prior, n, K)
    ours, ref = [], []
    keys = [key for key in notions.NOTIONS if key != "chtp_level"]
    gamma = 0.3
    for i in (1, 0):
        table = notions.all_notions(ch, model, i, epsilon=epsilon, gamma=gamma)
        bf = {**_bf_record_notions(ch.table, prior, K, n, i, epsilon), **_bf_channel_notions(ch.table, K, n, epsilon),
              "chtp_level": _bf_chtp([(ch.table[r], ch.table[s]) for r, s in _neighbours(K, n)], gamma)}
        ours.extend(table[key] for key in notions.NOTIONS)
        ref.extend(bf[key] for key in notions.NOTIONS)
        ours.extend(model.record_marginal(i))
        ref.extend(_bf_laws(ch.table, prior, K, n, i)[1])
    # a count channel (the truncated geometric count: its CHTP level from the rows of every pair of
    # counts) under an exchangeable prior, and one that releases nothing (one output)
    geo, beta = notions.geometric_count(5, 0.8), notions.beta_binomial_model(5, 0.5, 2.0)
    rows = np.exp(_geometric_rows(5, 0.8))
    table = notions.all_notions(geo, beta, 2, epsilon=epsilon, gamma=gamma)
    bf = {**_bf_record_notions(geo.expand().table, beta.prob, 2, 5, 2, epsilon),
          **_bf_channel_notions(geo.expand().table, 2, 5, epsilon),
          "chtp_level": _bf_chtp([pair for k in range(5) for pair in ((rows[k], rows[k + 1]), (rows[k + 1], rows[k]))], gamma)}
    ours.extend(table[key] for key in notions.NOTIONS)
    ref.extend(bf[key] for key in notions.NOTIONS)
    silent = notions.all_notions(notions.CountChannel(np.zeros((4, 1))), notions.iid_model(3, 0.3), 1,
                                 epsilon=epsilon, gamma=gamma)
    silent_ref = {**_bf_record_notions(np.ones((8, 1)), notions.iid_model(3, 0.3).prob, 2, 3, 1, epsilon),
                  **_bf_channel_notions(np.ones((8, 1)), 2, 3, epsilon), "chtp_level": 0.0}
    ours.extend(silent[key] for key in notions.NOTIONS)
    ref.extend(silent_ref[key] for key in notions.NOTIONS)
    # its conditional laws (log 1) and the secrets' masses under two priors at once (Pufferfish scenarios)
    priors = np.stack([notions.iid_model(3, 0.3).prob, notions.mixture_model(3, 0.3, 0.5).prob])
    record = np.array(_databases(2, 3))[:, 1]
    with np.errstate(divide="ignore"):
        laws, masses = notions.log_conditional_laws(np.log(priors), np.zeros((8, 1)), record[None, :] == np.arange(2)[:, None])
    ours.extend(np.concatenate([laws.ravel(), np.exp(masses).ravel()]))
    ref.extend(np.concatenate([np.zeros(4), [priors[k, record == a].sum() for k in range(2) for a in range(2)]]))
    # the chapter's mechanisms and models, by label, against their definitions
    models_ref, mechs_ref = _bf_standard(4, 0.35, 0.4, 0.6, 0.7, 0.9)
    models = notions.standard_models(4, 0.35, 0.4, 0.6)
    mechs = notions.standard_mechanisms(4, 0.7, 0.9)
    std_ours = [models[label].prob for label in models_ref] + [mechs[label].table for label in mechs_ref]
    std_ref = list(models_ref.values()) + list(mechs_ref.values())
    rhos = np.array([0.0, 0.3, 0.8, 1.0])
    binary = _random_channel(2, 3, 4, seed + 1)
    sweep = notions.correlation_sweep(binary, 0.35, rhos, 2, epsilon=epsilon)
    sweep_ours, sweep_ref = [], []
    for k, rho in enumerate(rhos):
        prior_rho = notions.mixture_model(3, 0.35, float(rho)).prob
        bf = {**_bf_record_notions(binary.table, prior_rho, 2, 3, 2, epsilon),
              **_bf_channel_notions(binary.table, 2, 3, epsilon)}
        sweep_ours.extend(float(sweep[key][k]) for key in keys)
        sweep_ref.extend(bf[key] for key in keys)
    count = notions.geometric_count(3, 0.8).expand()    # farthest databases differ in every record
    table = count.table
    whole = [notions.maximal_leakage(count), notions.leakage_capacity(count),
             notions.maximal_leakage(ch, model, 1), notions.leakage_capacity(ch, model, 1)]
    bf1 = _bf_record_notions(ch.table, prior, K, n, 1, epsilon)
    whole_ref = [np.log(table.max(axis=0).sum()), np.log(np.max(table.max(axis=0) / table.min(axis=0))),
                 bf1["maximal_leakage"], bf1["inferential_privacy"]]
    table = ch.table
    pairs = {tuple(pr) for pr in notions.FiniteChannel.neighbour_pairs(ch).tolist()}
    rows_p, rows_q = ch.distinct_neighbour_rows()
    got_rows = sorted(map(tuple, np.round(np.hstack([rows_p, rows_q]), 12).tolist()))
    want_rows = sorted({tuple(np.round(np.r_[table[r], table[s]], 12).tolist()) for r, s in _neighbours(K, n)})
    return all_of(close(ours, ref, atol=1e-12, rtol=1e-12,
                        detail="records 1 and 0 and their priors, a geometric and a silent count: every notion of the table"),
                  close(np.concatenate([np.ravel(a) for a in std_ours]), np.concatenate([np.ravel(a) for a in std_ref]),
                        atol=1e-12, rtol=1e-12, detail="the chapter's four models and four mechanisms, by label"),
                  close(sweep_ours, sweep_ref, atol=1e-12, rtol=1e-12, detail="correlation sweep, record 2, four rho"),
                  close(whole, whole_ref, atol=1e-12, rtol=1e-12, detail="maximal leakage and capacity: whole database (geometric count), record 1"),
                  holds(pairs == set(_neighbours(K, n)), observed=len(pairs), reference=len(_neighbours(K, n)),
                        detail="neighbouring pairs"),
                  holds(got_rows == want_rows, observed=len(got_rows), reference=len(want_rows),
                        detail="distinct pairs of neighbouring rows"))


@all_notions_brute_force.mutant("notions.all_notions", "record 0's notions whatever the record asked")
def _(all_notions):
    return lambda channel, model, i=0, **kw: all_notions(channel, model, 0, **kw)


@all_notions_brute_force.mutant("notions.correlation_sweep", "rho read as 1 - rho (clones at rho = 0)")
def _(correlation_sweep):
    return lambda channel, p, rho, i=0, **kw: correlation_sweep(channel, p, 1.0 - np.asarray(rho, dtype=float), i, **kw)


@all_notions_brute_force.mutant("notions.maximal_leakage", "record-level call answered with the whole database's leakage")
def _(maximal_leakage):
    return lambda channel, model=None, i=0: maximal_leakage(channel)


@all_notions_brute_force.mutant("notions.leakage_capacity", "whole-database capacity over neighbouring databases only (DP epsilon)")
def _(leakage_capacity):
    return lambda channel, model=None, i=0: notions.dp_epsilon(channel) if model is None else leakage_capacity(channel, model, i)


@all_notions_brute_force.mutant("notions.FiniteChannel.neighbour_pairs", "shifts 1..K-2 only (a ternary record's second neighbour missed)")
def _(neighbour_pairs):
    def wrong(self):
        pairs = neighbour_pairs(self)
        digits = self.samples
        diff = np.abs(digits[pairs[:, 0]] - digits[pairs[:, 1]]).sum(axis=1)
        first = [(self.samples[a] - self.samples[b]) % self.K for a, b in pairs]
        return pairs[np.array([int(f.max()) == 1 or self.K == 2 for f in first]) & (diff > 0)]
    return wrong


all_notions_brute_force.mutant("notions.chtp_level", "a geometric count's neighbour blocks as they are (its two-output loss law)")(
    edit("if isinstance(channel, GeometricCount):", "if False:"))


all_notions_brute_force.mutant("notions._log_record_joint", "explicit model: record n - 1 - i read for record i")(
    edit("model.log_prob.reshape(K ** i, K, K ** (n - 1 - i))", "model.log_prob.reshape(K ** (n - 1 - i), K, K ** i)"))


all_notions_brute_force.mutant("notions.standard_models", "Ising chain's field atanh(p) (an isolated record not positive with probability p)")(
    edit("float(np.arctanh(2 * p - 1))", "float(np.arctanh(p))"))


all_notions_brute_force.mutant("notions.standard_mechanisms", "default subsample of n // 3 records")(
    edit("m = max(1, n // 2) if m is None", "m = max(1, n // 3) if m is None"))


@all_notions_brute_force.mutant("notions.FiniteChannel.distinct_neighbour_rows", "the last record's neighbours left out")
def _(distinct_neighbour_rows):
    def wrong(self):
        p, q = distinct_neighbour_rows(self)
        keep = np.any(np.abs(p - q) > 0, axis=1)
        last = [tuple(r) for r in (self.table[a] for a, b in _neighbours(self.K, self.n)
                                   if np.argmax(self.samples[a] != self.samples[b]) == self.n - 1)]
        keep &= np.array([tuple(r) not in last for r in p])
        return p[keep], q[keep]
    return wrong


@claim("notions/pml-null-atoms-near-uniform", item="PML of a prior and a channel: null atoms and tiny leakages",
       statement="$\\ell(X \\to y) = \\log \\max_{x: P_X(x) > 0} P(y \\mid x) / P_Y(y)$ keeps its digits where the leakage is tiny (a channel within $10^{-8}$ of uniform) and where $P_Y(y)$ underflows ($10^{-400}$), and ignores letters of prior mass 0, whose rows may be anything; outputs of probability 0 leak 0.",
       method="the definition in 50-digit arithmetic (mpmath) on the same doubles, to relative $10^{-10}$ (leakages near $10^{-8}$, near 1 and 460); the prior given as exact fractions",
       checks=("notions.prior_channel_pml",))
def pml_null_atoms_near_uniform(seed: int = 27) -> Evidence:
    import mpmath
    from fractions import Fraction

    rng = np.random.default_rng(seed)
    k, m = 5, 6
    near = np.full((k, m), 1.0 / m) * (1 + 1e-8 * rng.standard_normal((k, m)))
    near /= near.sum(axis=1, keepdims=True)
    rough = rng.dirichlet(np.ones(m), size=k)
    rough[:, -1] = 0.0                                     # an output no letter releases
    rough /= rough.sum(axis=1, keepdims=True)
    prior = [Fraction(3, 10), Fraction(0), Fraction(1, 5), Fraction(1, 2), Fraction(0)]   # null atoms 1 and 4
    rough[1] = np.eye(m)[0]                                 # a null letter's row: far from the others
    ours, ref = [], []
    with mpmath.workdps(50):
        for channel in (near, rough):
            for y in range(m):
                top = max(mpmath.mpf(channel[x, y]) for x in range(k) if prior[x] > 0)
                py = sum(mpmath.mpf(prior[x].numerator) / prior[x].denominator * mpmath.mpf(channel[x, y])
                         for x in range(k))
                ref.append(float(mpmath.log(top / py)) if py > 0 else 0.0)
            ours.extend(notions.prior_channel_pml(prior, channel))
        # P_Y(y) = 1e-400 underflows, though the letter of prior mass 1e-200 gives y mass 1e-200
        tiny_prior = [1 - Fraction(1, 10**200), Fraction(1, 10**200)]
        tiny = np.array([[1.0, 0.0], [1.0, 1e-200]])
        for y in range(2):
            top = max(mpmath.mpf(tiny[x, y]) for x in range(2))
            py = sum(mpmath.mpf(tiny_prior[x].numerator) / tiny_prior[x].denominator * mpmath.mpf(tiny[x, y]) for x in range(2))
            ref.append(float(mpmath.log(top / py)))
        ours.extend(notions.prior_channel_pml(tiny_prior, tiny))
    return close(ours, ref, atol=1e-20, rtol=1e-10,
                 detail="every output of a near-uniform and a rough channel, and of one where P_Y underflows")


@pml_null_atoms_near_uniform.mutant("notions._linear_pml", "log top - log P_Y everywhere (no near-tie branch)")
def _(linear_pml):
    def wrong(prior, channel):
        p_y = prior @ channel
        top = np.where((prior > 0)[:, None], channel, 0.0).max(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(top == 0, 0.0, np.maximum(np.log(top) - np.log(p_y), 0.0))
    return wrong


pml_null_atoms_near_uniform.mutant("notions._linear_pml", "outputs whose P_Y underflows to 0 not redone in log-space")(
    edit("out = np.where(underflow, _log(top) - log_py, out)", "pass"))


@pml_null_atoms_near_uniform.mutant("notions._linear_pml", "the maximum over every letter (null atoms not masked)")
def _(linear_pml):
    return lambda prior, channel: linear_pml(np.where(prior > 0, prior, 1e-300), channel)
