"""Claims of chapter 001, Section 3.3: choosing epsilon."""

from __future__ import annotations

import itertools

import numpy as np

from privlib.papers import leakage

from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds
from privlib.verify.pointwise_maximal_leakage._routes import (
    _pml_by_hand,
    _posterior_table,
    _sparse_channel,
)


@claim("001/prop-7", item="Proposition 7",
       statement=r"(1) A mechanism of infinite leakage capacity leaks at least $-\log(1 - p_{\min})$, so "
                 r"$\varepsilon$-PML below it forces $\mathcal C < \infty$; (2) that cost is attained: the cheapest "
                 r"disclosure answers 'is $X \ne x_{\min}$?'.",
       method="(1) 300 random mechanisms with zeros plus the mechanisms that hide x_min with probability delta: "
              "PML by hand never below privlib's cost, and privlib's capacity infinite for all; (2) enumeration of "
              "all 2^k - 2 subsets A and the mechanism 'Y = 1 w.p. 1e-9 iff X in A', PML by hand")
def prop_7(k: int = 5, seed: int = 7) -> Evidence:
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(k))
    cost = float(leakage.smallest_disclosure_cost(prior))
    leaks, caps = [], []
    for _ in range(300):
        channel = _sparse_channel(rng, k, 3)
        used = channel.max(axis=0) > 0  # outputs no input produces do not count
        if (channel[:, used].min(axis=0) > 0).all():
            continue  # finite capacity
        leaks.append(_pml_by_hand(prior, channel).max())
        caps.append(leakage.leakage_capacity(channel))
    for delta in (1e-3, 1e-6, 1e-9):  # the hard case: only x_min is ever excluded
        a = (np.arange(k) != np.argmin(prior)).astype(float)
        channel = np.column_stack([1 - delta * a, delta * a])
        leaks.append(_pml_by_hand(prior, channel).max())
        caps.append(leakage.leakage_capacity(channel))
    costs = {}
    for mask in itertools.product([0, 1], repeat=k):
        if 0 < sum(mask) < k:
            a = np.array(mask, dtype=float)
            costs[mask] = float(_pml_by_hand(prior, np.column_stack([1 - 1e-9 * a, 1e-9 * a])).max())
    best = min(costs, key=costs.get)
    expected = tuple(int(i != np.argmin(prior)) for i in range(k))
    return all_of(
        at_most(np.full(len(leaks), cost), leaks, atol=1e-12,
                detail=f"part 1: {len(leaks)} mechanisms of infinite capacity leak at least the cost"),
        holds(bool(np.isinf(caps).all()), observed=int(np.isinf(caps).sum()), reference=len(caps),
              detail="privlib's leakage capacity is infinite for each"),
        holds(best == expected, detail="part 2: the cheapest subset is the complement of x_min"),
        close(cost, costs[best], atol=1e-8, rtol=0.0, detail="part 2: its leakage equals the cost"))


@prop_7.mutant("leakage.smallest_disclosure_cost", "-log(1 - p_max): the largest letter instead of the smallest")
def _(f):
    return lambda prior: -np.log1p(-np.asarray(prior).max(axis=-1))


@prop_7.mutant("leakage.smallest_disclosure_cost", "-log p_min: the cost of releasing x_min in the clear")
def _(f):
    return lambda prior: -np.log(np.asarray(prior).min(axis=-1))


@prop_7.mutant("leakage.leakage_capacity", "columns with a zero skipped (finite capacity)")
def _(f):
    def wrong(channel):
        ch = np.asarray(channel, dtype=float)
        ok = ch.min(axis=0) > 0
        return float(np.log(ch[:, ok].max(axis=0) / ch[:, ok].min(axis=0)).max()) if ok.any() else 0.0
    return wrong


@claim("001/cor-8", item="Corollary 8",
       statement=r"$\varepsilon$-PML with $\varepsilon < H_\infty(P_X)$ never singles out $X$ (and then every "
                 r"posterior keeps min-entropy at least $H_\infty(P_X) - \varepsilon$); the threshold is tight.",
       method="500 random mechanisms with zeros (many of which single out a letter, i.e. have an output produced by "
              "one letter only): privlib's PML below the threshold never comes with singling out (posteriors by "
              "hand), the min-entropy margin holds for all, and 'Y = 1 w.p. 1e-9 iff X = x_max' singles out at "
              "PML equal to the threshold")
def cor_8(seed: int = 8, trials: int = 500) -> Evidence:
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(4))
    threshold = float(leakage.singling_out_threshold(prior))
    below_and_singled, below, singled, lower, actual = 0, 0, 0, [], []
    for _ in range(trials):
        channel = _sparse_channel(rng, 4, 3, keep=0.5)
        eps = float(leakage.pml_sup(prior, channel))
        post = _posterior_table(prior, channel)
        single = bool((post.max(axis=0) == 1.0).any())
        singled += single
        below += eps < threshold - 1e-9  # at x_max itself the leakage equals the threshold
        below_and_singled += single and eps < threshold - 1e-9
        lower.append(-np.log(prior.max()) - eps)
        actual.append((-np.log(post.max(axis=0))).min())
    indicator = (np.arange(4) == np.argmax(prior)).astype(float)
    tight = np.column_stack([1 - 1e-9 * indicator, 1e-9 * indicator])
    tight_post = _posterior_table(prior, tight)
    return all_of(
        holds(below_and_singled == 0, observed=below_and_singled, reference=0,
              detail=f"of {trials} mechanisms, {singled} single out X and {below} are below the threshold; none both"),
        at_most(lower, actual, atol=1e-10, detail="H(P_X) - sup PML <= smallest posterior min-entropy"),
        holds(bool(tight_post[:, 1].max() == 1.0), detail="the threshold mechanism singles out x_max"),
        close(leakage.pml_sup(prior, tight), -np.log(prior.max()), atol=1e-8, rtol=0.0,
              detail="at PML equal to H(P_X)"))


@cor_8.mutant("leakage.singling_out_threshold", "-log p_min (the clear-release cost) instead of H(P_X)")
def _(f):
    return lambda prior: -np.log(np.asarray(prior).min(axis=-1))


@cor_8.mutant("leakage.pml", "P_Y computed under the uniform prior instead of P_X")
def _(pml):
    return lambda prior, channel: pml(np.full(np.shape(prior), 1.0 / np.shape(prior)[-1]), channel)
