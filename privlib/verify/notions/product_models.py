"""Claims of the cross-paper chapter "One mechanism, five notions": Product models: everything is
bounded by DP; Pufferfish over product priors recovers DP."""

from __future__ import annotations

import itertools

import numpy as np

from privlib.core import notions
from privlib.verify.claims import Evidence, all_of, at_most, claim, close
from privlib.verify.source_mutants import edit
from privlib.verify.notions._routes import (
    _bf_dp_delta,
    _bf_dp_epsilon,
    _posterior_odds,
    _random_channel,
)


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
       method="6 random product models x 3 mechanisms (asymmetric random channel, Gaussian count, subsampled count) x every record, on a grid of 8 epsilons; 3 product models of ternary records given one law per record (one with a null atom; their database probabilities against the products of the records' laws) for an asymmetric random channel on $3^3$ databases, every record; a product prior with mass $1 - 10^{-9}$ on the other records of the worst pair of neighbours (found by enumeration), where the bound is nearly attained; randomized response against its closed form in the mechanism's own epsilon")
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
    # near-tight: for the pair of neighbours that attains epsilon_DP (found by enumeration), a
    # product prior with mass 1 - 1e-9 on their common other records, so mu_{i,0}, mu_{i,1} are
    # nearly those two rows and the inferential privacy nearly epsilon_DP (finite ones only)
    near, near_dp = [], []
    for ch in chans:
        lt, xs = ch.log_table, ch.samples
        best = (-1.0, 0, 0)
        for r, x in enumerate(xs):
            for i in range(n):
                y = x.copy()
                y[i] = 1 - y[i]
                s = int(np.flatnonzero((xs == y).all(axis=1))[0])
                with np.errstate(invalid="ignore"):
                    gap = np.abs(lt[r] - lt[s])
                gap = float(np.nan_to_num(gap, nan=0.0).max())
                best = max(best, (gap, r, i))
        gap, r, i = best
        if not np.isfinite(notions.dp_epsilon(ch)):
            continue
        probs = np.where(xs[r] == 1, 1.0 - 1e-9, 1e-9)
        probs[i] = 0.5
        near.append(notions.inferential_privacy(ch, notions.product_model(probs), i))
        near_dp.append(notions.dp_epsilon(ch))
    # ternary records: product models given by one law per record (shape (n, K)), with a null atom
    ter = _random_channel(3, 3, 4, 10)
    ter_dp, ter_dd = notions.dp_epsilon(ter), notions.dp_delta(ter, grid)
    ter_prob, ter_prob_ref = [], []
    for _ in range(3):
        laws = rng.dirichlet(np.ones(3), size=3)
        laws[1] = [0.6, 0.0, 0.4]
        model3 = notions.product_model(laws)
        ter_prob.append(model3.prob)
        ter_prob_ref.append([laws[0, a] * laws[1, b] * laws[2, c] for a, b, c in itertools.product(range(3), repeat=3)])
        for i in range(3):
            gk.append(notions.inferential_privacy(ter, model3, i))
            eps_dp.append(ter_dp)
            sp.append(notions.statistical_delta(ter, model3, grid, i))
            d_dp.append(ter_dd)
    rr = notions.randomized_response(n, epsilon)
    model = notions.product_model(rng.uniform(0.05, 0.95, n))
    e = np.exp(epsilon)
    rr_grid = np.linspace(0.0, epsilon, 5)
    closed = (e - np.exp(rr_grid)) / (1 + e)
    tight = [notions.inferential_privacy(rr, model, i) for i in range(n)] + [notions.dp_epsilon(rr)]
    tight_d = [notions.statistical_delta(rr, model, rr_grid, i) for i in range(n)] + [notions.dp_delta(rr, rr_grid)]
    return all_of(close(ter_prob, ter_prob_ref, atol=1e-15, rtol=1e-12,
                        detail="ternary product models: every database's probability, the product of its records' laws"),
                  at_most(gk, eps_dp, atol=1e-12, detail="inferential privacy <= DP epsilon"),
                  close(near, near_dp, rtol=1e-6, detail="inferential privacy of a prior concentrated next to the "
                                                           "worst pair of neighbours = DP epsilon (near-tight)"),
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


product_models_below_dp.mutant("notions.product_model", "record j given the law of record n - 1 - j")(
    edit("log_p[j][None, :]", "log_p[n - 1 - j][None, :]"))


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
