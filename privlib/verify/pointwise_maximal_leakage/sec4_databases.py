"""Claims of chapter 001, Section 4: databases."""

from __future__ import annotations

import itertools

import numpy as np
from scipy import stats

from privlib.papers import leakage
from privlib.core import mechanisms
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, early, holds, reference
from privlib.verify.source_mutants import edit
from privlib.verify.pointwise_maximal_leakage._routes import (
    _approach_tolerance,
    _databases,
    _random_channel,
)




def _geometric_count_channel(n: int, eps: float) -> np.ndarray:
    """A truncated-geometric count mechanism on all binary databases of n entries."""
    counts = _databases(2, n).sum(axis=1)
    ys = np.arange(n + 1)
    kern = np.exp(-eps * np.abs(ys[None, :] - counts[:, None]))
    return kern / kern.sum(axis=1, keepdims=True)


@reference
def _dp_by_pairs(dbs: np.ndarray, channel: np.ndarray) -> tuple[float, tuple]:
    """The DP parameter from every ordered pair of neighbouring databases, and its witness
    (i, a, b, y) with a the database of larger probability."""
    best, arg = 0.0, None
    for a, b in itertools.permutations(range(len(dbs)), 2):
        diff = np.flatnonzero(dbs[a] != dbs[b])
        if diff.size == 1:
            ratios = np.log(channel[a]) - np.log(channel[b])
            y = int(np.argmax(ratios))
            if ratios[y] > best:
                best, arg = float(ratios[y]), (int(diff[0]), a, b, y)
    return best, arg


@reference
def _entry_pml_by_hand(prior: np.ndarray, dbs: np.ndarray, channel: np.ndarray, i: int, k: int) -> np.ndarray:
    joint = prior[:, None] * channel
    rows = np.array([joint[dbs[:, i] == a].sum(axis=0) for a in range(k)])  # P(X_i = a, y)
    lik = rows / rows.sum(axis=1, keepdims=True)
    return np.log(lik.max(axis=0) / rows.sum(axis=0))


@reference
def _conditional_by_hand(prior: np.ndarray, dbs: np.ndarray, channel: np.ndarray, i: int, k: int) -> np.ndarray:
    others = [j for j in range(dbs.shape[1]) if j != i]
    out = []
    for rest in itertools.product(range(k), repeat=len(others)):
        sel = np.all(dbs[:, others] == np.array(rest), axis=1)
        p = prior[sel] / prior[sel].sum()
        out.append(np.log(channel[sel].max(axis=0) / (p @ channel[sel])))
    return np.array(out)


def _product(marginals: list[np.ndarray]) -> np.ndarray:
    out = np.ones(1)
    for m in marginals:
        out = np.outer(out, m).ravel()
    return out


def _concentrated(k: int, letter: int, delta: float) -> np.ndarray:
    row = np.full(k, delta / (k - 1))
    row[letter] = 1.0 - delta
    return row


@claim("001/thm-9", item="Theorem 9",
       statement=r"A mechanism on databases is $\varepsilon$-DP iff (1) the PML of entry $i$ given all other entries "
                 r"is at most $\varepsilon$ under every full-support prior, iff (2) the same over product priors, iff "
                 r"(3) the unconditional PML of each entry is at most $\varepsilon$ under every product prior; each "
                 r"supremum equals the DP parameter and is approached, not attained.",
       method="all databases of a random mechanism (3 letters, 2 entries; also with its entries exchanged) and of a "
              "truncated-geometric count (2 letters, 3 entries): privlib's DP parameter against every ordered neighbouring pair; its entry and "
              "conditional PML against hand marginalisation under random correlated priors; 150 random correlated "
              "and product priors (privlib's, against outer products by hand) never above the DP parameter; witness priors concentrated to 1e-10 approach it")
def thm_9(seed: int = 9, epsilon: float = 0.7) -> Evidence:
    rng = np.random.default_rng(seed)
    random_channel = _random_channel(rng, 9, 4)
    swapped = random_channel.reshape(3, 3, 4).transpose(1, 0, 2).reshape(9, 4)  # entries 1 and 2 exchanged
    cases = [(3, 2, random_channel), (3, 2, swapped), (2, 3, _geometric_count_channel(3, epsilon))]
    dp_ours, dp_brute, pml_ours, pml_hand, cond_ours, cond_hand = [], [], [], [], [], []
    sup1, sup2, sup3, bound1, bound2, bound3, wit, wit_ref = [], [], [], [], [], [], [], []
    prod_ours, prod_hand = [], []
    for k, n, channel in cases:
        dbs = _databases(k, n)
        eps, (i_star, a, b, y) = _dp_by_pairs(dbs, channel)
        dp_ours.append(leakage.database_dp_epsilon(channel, k))
        dp_brute.append(eps)
        early(close, dp_ours, dp_brute, rtol=1e-12)
        for prior in rng.dirichlet(np.ones(k**n), size=20):
            for i in range(n):
                pml_ours.extend(leakage.entry_pml(prior, channel, i, k))
                pml_hand.extend(_entry_pml_by_hand(prior, dbs, channel, i, k))
                cond_ours.extend(leakage.conditional_entry_pml(prior, channel, i, k).ravel())
                cond_hand.extend(_conditional_by_hand(prior, dbs, channel, i, k).ravel())
            early(close, pml_ours, pml_hand, atol=1e-13, rtol=1e-10)
            early(close, cond_ours, cond_hand, atol=1e-13, rtol=1e-10)
        for _ in range(150):
            corr = rng.dirichlet(np.ones(k**n))
            marginals = [rng.dirichlet(np.ones(k)) for _ in range(n)]
            prod = leakage.product_prior(marginals)
            prod_ours.append(prod)
            prod_hand.append(_product(marginals))
            early(close, prod, prod_hand[-1], atol=1e-16, rtol=1e-14)
            for i in range(n):
                sup1.append(leakage.conditional_entry_pml(corr, channel, i, k).max())
                sup2.append(leakage.conditional_entry_pml(prod, channel, i, k).max())
                sup3.append(leakage.entry_pml(prod, channel, i, k).max())
        bound1 += [eps] * (len(sup1) - len(bound1))
        bound2 += [eps] * (len(sup2) - len(bound2))
        bound3 += [eps] * (len(sup3) - len(bound3))
        # witnesses (proof of Theorem 9): entry i concentrated on the letter of the smaller
        # likelihood, the other entries on the maximising rest of the database (8)
        delta = 1e-10
        marg = [_concentrated(k, dbs[a][j], delta) for j in range(n)]
        marg[i_star] = _concentrated(k, dbs[b][i_star], delta)
        prod = _product(marg)
        rest = [j for j in range(n) if j != i_star]
        rest_index = int(np.ravel_multi_index(tuple(dbs[a][rest]), (k,) * len(rest)))
        corr = rng.dirichlet(np.ones(k**n))
        sel = np.all(dbs[:, rest] == dbs[a][rest], axis=1)
        corr[sel] = 0.5 * _concentrated(k, dbs[b][i_star], delta)  # P(X_i | x_-i*) concentrated, correlated elsewhere
        corr /= corr.sum()
        wit += [leakage.conditional_entry_pml(corr, channel, i_star, k)[rest_index, y],
                leakage.conditional_entry_pml(prod, channel, i_star, k)[rest_index, y],
                leakage.entry_pml(prod, channel, i_star, k)[y]]
        wit_ref += [eps] * 3
    return all_of(
        close(dp_ours, dp_brute, rtol=1e-12, detail="DP parameter vs every neighbouring pair"),
        close(pml_ours, pml_hand, atol=1e-13, rtol=1e-10, detail="entry PML vs hand marginalisation"),
        close(cond_ours, cond_hand, atol=1e-13, rtol=1e-10, detail="conditional entry PML vs hand conditioning"),
        close(np.concatenate(prod_ours), np.concatenate(prod_hand), atol=1e-16, rtol=1e-14,
              detail="privlib's product priors vs outer products by hand (first entry slowest)"),
        at_most(sup1, bound1, atol=1e-12, detail="part 1: correlated priors, conditional PML"),
        at_most(sup2, bound2, atol=1e-12, detail="part 2: product priors, conditional PML"),
        at_most(sup3, bound3, atol=1e-12, detail="part 3: product priors, entry PML"),
        close(wit, wit_ref, atol=_approach_tolerance(1e-10, max(dp_brute)), rtol=0.0,
              detail="witness priors approach the DP parameter in parts 1-3"))


@thm_9.mutant("leakage.product_prior", "entries in reverse order (the last entry varies slowest)")
def _(f):
    return edit("for row in marg:", "for row in marg[::-1]:")(f)


@thm_9.mutant("leakage.database_dp_epsilon", "only the first entry's neighbours")
def _(f):
    def wrong(channel, alphabet_size):
        ch = np.asarray(channel, dtype=float)
        k = alphabet_size
        n = int(round(np.log(ch.shape[0]) / np.log(k)))
        lp = np.log(ch).reshape((k,) * n + (ch.shape[1],))
        return float((lp.max(axis=0) - lp.min(axis=0)).max())
    return wrong


@thm_9.mutant("leakage.conditional_entry_pml", "entry's marginal used instead of its conditional given the rest")
def _(f):
    def wrong(prior, channel, i, alphabet_size):
        prior = np.asarray(prior, dtype=float)
        k = alphabet_size
        n = int(round(np.log(prior.size) / np.log(k)))
        p = np.moveaxis(prior.reshape((k,) * n), i, 0).reshape(k, -1)
        ch = np.moveaxis(np.asarray(channel).reshape((k,) * n + (-1,)), i, 0).reshape(k, -1, np.shape(channel)[1])
        marginal = p.sum(axis=1)
        return np.array([leakage.pml(marginal, ch[:, r, :]) for r in range(p.shape[1])])
    return wrong


@claim("001/remark-13", item="Remark 13",
       statement=r"The suprema of Theorems 9 and 11 are not attained by full-support priors; checked for Theorem 9 "
                 r"part 3: along the proof's witness product priors (mass $1 - \delta$ on the extreme letters) the "
                 r"gap between the DP parameter and the largest single-entry PML is positive and shrinks with $\delta$.",
       method="a truncated-geometric count on all databases of 2 binary entries; for delta = 1e-1 .. 1e-4 the gap "
              "from privlib's DP parameter and entry PML against the same gap in 50-digit arithmetic from the exact "
              "binary values of the channel and the prior (mpmath), and the exact gaps positive and decreasing")
def remark_13(epsilon: float = 0.7) -> Evidence:
    import mpmath

    mpmath.mp.dps = 50
    k, n = 2, 2
    dbs = _databases(k, n)
    channel = _geometric_count_channel(n, epsilon)
    eps, (i_star, a, b, y) = _dp_by_pairs(dbs, channel)
    exact_eps = max(mpmath.log(mpmath.mpf(channel[u, t]) / mpmath.mpf(channel[w, t]))
                    for u, w in itertools.permutations(range(k**n), 2) if (dbs[u] != dbs[w]).sum() == 1
                    for t in range(channel.shape[1]))
    ours, exact = [], []
    for delta in (1e-1, 1e-2, 1e-3, 1e-4):
        marg = [_concentrated(k, dbs[a][j], delta) for j in range(n)]
        marg[i_star] = _concentrated(k, dbs[b][i_star], delta)
        prior = _product(marg)
        ours.append(leakage.database_dp_epsilon(channel, k) - leakage.entry_pml(prior, channel, i_star, k).max())
        # the entry's PML in 50 digits: P(y | X_i = c) from the joint table, max over outputs
        rows = [[mpmath.fsum(mpmath.mpf(prior[x]) * mpmath.mpf(channel[x, t]) for x in range(k**n) if dbs[x][i_star] == c)
                 for t in range(channel.shape[1])] for c in range(k)]
        marginal = [mpmath.fsum(r) for r in rows]
        best = max(mpmath.log(max(rows[c][t] / marginal[c] for c in range(k)) / mpmath.fsum(rows[c][t] for c in range(k)))
                   for t in range(channel.shape[1]))
        exact.append(float(exact_eps - best))
    positive_decreasing = all(g > 0 for g in exact) and all(x > y_ for x, y_ in zip(exact, exact[1:]))
    return all_of(
        close(ours, exact, atol=1e-13, rtol=1e-9, detail="gap: DP parameter minus the largest entry PML"),
        holds(positive_decreasing, detail="the exact gaps are positive and decrease with delta (never attained)"))


@remark_13.mutant("leakage.database_dp_epsilon", "all pairs of databases (the free-lunch parameter)")
def _(f):
    return lambda channel, alphabet_size: leakage.free_lunch_epsilon(channel)


@remark_13.mutant("leakage.pml", "P_Y computed under the uniform prior instead of P_X")
def _(pml):
    return lambda prior, channel: pml(np.full(np.shape(prior), 1.0 / np.shape(prior)[-1]), channel)


@reference
def _correlated_count_pml_on_grid(size: int, th: float, eps: float, rho: float) -> tuple[float, float, float]:
    """The largest PML of entry 1 of the correlated count (Theorem 10's set-up) over 40001 outputs
    in [-80, size + 80], and over those above size and below 0: the two mixture densities summed
    directly (binomial weights from scipy, Laplace log-densities)."""
    lap = mechanisms.LaplaceMechanism(eps)
    y = np.linspace(-80.0, size + 80.0, 40001)
    k = np.arange(size)
    log_w = stats.binom.logpmf(k, size - 1, th)
    dens = []
    for z in (0, 1):
        iid = np.logaddexp.reduce(log_w[:, None] + lap.logpdf(y[None, :], (k + z)[:, None].astype(float)), axis=0)
        together = lap.logpdf(y, float(size * z))
        dens.append(np.logaddexp(np.log(rho) + together, np.log1p(-rho) + iid) if rho < 1 else together)
    leak = np.maximum(dens[0], dens[1]) - np.logaddexp(np.log(th) + dens[1], np.log1p(-th) + dens[0])
    return float(leak.max()), float(leak[y > size].max()), float(leak[y < 0].max())


@claim("001/thm-10", item="Theorem 10",
       statement=r"On correlated data an $\varepsilon$-DP mechanism can leak about one entry almost as much as "
                 r"releasing it: with all $n$ entries equal (or equal with probability $\rho$) and "
                 r"$Y = \sum_i X_i + \mathrm{Lap}(1/\varepsilon)$, $\sup_y \ell(X_1 \to y) \to -\log \min(\theta, 1-\theta)$.",
       method="privlib's tail formula against the supremum over a fine output grid of the PML computed by direct "
              "summation of the mixture densities (binomial weights from scipy) at n = 20 and at n = 3, eps = 0.02 (log M_1/M_0 near 0), rho in {0.1, 1} and both "
              "theta and 1 - theta, so that each tail is the maximiser once (the upper one for theta < 1/2, the "
              "lower one for theta > 1/2: checked on the grid); the limit, for both theta: within 1e-9 of the "
              "ceiling at n = 4000, and never above it, for n up to 4000")
def thm_10(n: int = 20, theta: float = 0.3, epsilon: float = 0.1) -> Evidence:
    closed, grid, sides = [], [], []
    thetas = sorted({theta, 1.0 - theta})
    # the given instance, and n = 3, eps = 0.02, where log M_1 / M_0 is below 0.1 in both tails
    # (the branch that forms it by log1p of the scaled difference)
    for size, eps_grid in ((n, epsilon), (3, 0.02)):
        for th in thetas:
            for rho in (0.1, 1.0):
                best, upper, lower = _correlated_count_pml_on_grid(size, th, eps_grid, rho)
                grid.append(best)
                if th != 0.5 and size == n:
                    sides.append((upper > lower) == (th < 0.5))
                closed.append(float(leakage.correlated_count_pml_sup(size, th, eps_grid, rho)))
                early(close, closed, grid, atol=1e-9, rtol=0.0)
    sizes = np.array([10, 100, 1000, 4000])
    limit, ceiling, reached, ceiling_reached = [], [], [], []
    for th in thetas:
        values = np.concatenate([leakage.correlated_count_pml_sup(sizes, th, eps, rho)
                                 for eps in (0.1, 1.0) for rho in (0.1, 1.0)])
        limit.append(values)
        ceiling.append(np.full(values.size, -np.log(min(th, 1 - th))))
        reached.append(values.reshape(4, -1)[:, -1])
        ceiling_reached.append(ceiling[-1][:4])
    return all_of(
        close(closed, grid, atol=1e-9, rtol=0.0, detail="sup over outputs vs a fine grid (n and eps given, and n = 3, eps = 0.02; theta and 1 - theta)"),
        holds(all(sides), detail="the maximising tail: upper for theta < 1/2, lower for theta > 1/2 (grid)"),
        at_most(np.concatenate(limit), np.concatenate(ceiling), atol=1e-12,
                detail="never above -log min(theta, 1 - theta)"),
        close(np.concatenate(reached), np.concatenate(ceiling_reached), atol=1e-9, rtol=0.0,
              detail="reaches it at n = 4000 (both theta)"))


@thm_10.mutant("leakage.correlated_count_pml_sup", "near-zero branch: the weight rho a^-(n-2), not rho a^-(n-1)")
def _(f):
    return edit("w = np.exp(log_r - (n_arr - 1) * log_a)", "w = np.exp(log_r - (n_arr - 2) * log_a)")(f)


@thm_10.mutant("leakage.correlated_count_pml_sup", "the upper tail only (the lower tail's supremum dropped)")
def _(f):
    return edit("np.maximum(np.maximum(tail(1.0), tail(-1.0)), 0.0)", "np.maximum(tail(1.0), 0.0)")(f)


@thm_10.mutant("leakage.correlated_count_pml_sup", "lower tail's far branch with theta and 1 - theta swapped")
def _(f):
    return edit("-np.log((1.0 - th) + th * np.exp(neg))", "-np.log(th + (1.0 - th) * np.exp(neg))")(f)


@thm_10.mutant("leakage.correlated_count_pml_sup", "lower tail's near branch weighted by 1 - theta, not theta")
def _(f):
    return edit("x_down = th * np.expm1(neg)", "x_down = (1.0 - th) * np.expm1(neg)")(f)


@thm_10.mutant("leakage.correlated_count_pml_sup", "the equal-entries component shifted by eps, not n eps")
def _(f):
    def wrong(n, theta, epsilon, rho):
        n, r = np.broadcast_arrays(np.asarray(n, dtype=float), np.asarray(rho, dtype=float))
        log_ap, log_am = np.log1p(theta * np.expm1(epsilon)), np.log1p(theta * np.expm1(-epsilon))
        with np.errstate(divide="ignore"):
            log_r, log_1r = np.log(r), np.log1p(-r)

        def tail(sign, log_a):
            m1 = np.logaddexp(log_r + sign * epsilon, log_1r + sign * epsilon + (n - 1) * log_a)
            m0 = np.logaddexp(log_r, log_1r + (n - 1) * log_a)
            return np.maximum(m0, m1) - np.logaddexp(np.log(theta) + m1, np.log1p(-theta) + m0)

        return np.maximum(tail(1.0, log_ap), tail(-1.0, log_am))
    return wrong


@thm_10.mutant("leakage.correlated_count_pml_sup", "rho ignored (always perfectly correlated)")
def _(f):
    return lambda n, theta, epsilon, rho: f(n, theta, epsilon, np.ones_like(np.asarray(rho, dtype=float)))


@thm_10.mutant("leakage.correlated_count_pml_sup", "n entries instead of n - 1 in the i.i.d. part")
def _(f):
    return lambda n, theta, epsilon, rho: f(np.asarray(n) + 1, theta, epsilon, rho)


@claim("001/thm-11", item="Theorem 11",
       statement=r"A mechanism is $\varepsilon$-free-lunch private iff (1) $\sup_y \ell(X \to y) \le \varepsilon$ under "
                 r"every full-support prior on databases, iff (2) the same over product priors, iff (3) the PML of "
                 r"single entries is at most $\varepsilon$ under every (correlated) prior; each supremum is the "
                 r"free-lunch parameter, approached, not attained.",
       method="all databases of a random mechanism (2 letters, 2 entries) and of a truncated-geometric count: "
              "privlib's free-lunch parameter against every ordered pair of databases; 300 random priors of each "
              "kind never above it; witnesses: mass 1 - 1e-10 on the minimising database (1), its product version "
              "(2), and X_-i a copy of the maximising pair's entries with X_i concentrated (3)")
def thm_11(seed: int = 11, epsilon: float = 0.7) -> Evidence:
    rng = np.random.default_rng(seed)
    cases = [(2, 2, _random_channel(rng, 4, 3)), (2, 2, _geometric_count_channel(2, epsilon)),
             (2, 3, _geometric_count_channel(3, epsilon))]
    fl_ours, fl_brute, sups, bounds, wit, wit_ref = [], [], [], [], [], []
    pairs = []                                  # per case: the largest log-ratio over every ordered pair
    for k, n, channel in cases:
        dbs = _databases(k, n)
        best, (hi, lo, y) = 0.0, (0, 0, 0)
        for a, b in itertools.permutations(range(len(dbs)), 2):
            r = np.log(channel[a]) - np.log(channel[b])
            if r.max() > best:
                best, (hi, lo, y) = float(r.max()), (a, b, int(np.argmax(r)))
        pairs.append((best, hi, lo, y))
    approach = _approach_tolerance(1e-10, max(p[0] for p in pairs))
    for (k, n, channel), (best, hi, lo, y) in zip(cases, pairs):
        dbs = _databases(k, n)
        fl_ours.append(leakage.free_lunch_epsilon(channel))
        fl_brute.append(best)
        early(close, fl_ours, fl_brute, rtol=1e-12)
        delta = 1e-10
        point = np.full(k**n, delta / (k**n - 1))
        point[lo] = 1.0 - delta
        prod = _product([_concentrated(k, dbs[lo][j], delta) for j in range(n)])
        # (3): an entry where the two databases differ; X_-i a function of X_i mapping the two
        # letters to the two databases, X_i concentrated on the letter of the smaller likelihood
        i = int(np.flatnonzero(dbs[hi] != dbs[lo])[0])
        copy = np.full(k**n, delta**2)
        copy[lo], copy[hi] = 1.0, delta
        copy /= copy.sum()
        wit += [leakage.pml(point, channel)[y], leakage.pml(prod, channel)[y], leakage.entry_pml(copy, channel, i, k)[y]]
        wit_ref += [best] * 3
        early(close, wit, wit_ref, atol=approach, rtol=0.0)
        for _ in range(300):
            corr = rng.dirichlet(np.ones(k**n))
            prod = _product([rng.dirichlet(np.ones(k)) for _ in range(n)])
            sups += [leakage.pml_sup(corr, channel), leakage.pml_sup(prod, channel)]
            sups += [leakage.entry_pml(corr, channel, i, k).max() for i in range(n)]
        bounds += [best] * (len(sups) - len(bounds))
    return all_of(
        close(fl_ours, fl_brute, rtol=1e-12, detail="free-lunch parameter vs every pair of databases"),
        at_most(sups, bounds, atol=1e-12, detail="parts 1-3: random priors never exceed it"),
        close(wit, wit_ref, atol=approach, rtol=0.0, detail="witness priors approach it in parts 1-3"))


@thm_11.mutant("leakage.free_lunch_epsilon", "neighbouring databases only (the DP parameter)")
def _(f):
    return lambda channel: leakage.database_dp_epsilon(channel, 2)


@thm_9.mutant("leakage.entry_pml", "the next entry's leakage (index off by one)")
@thm_11.mutant("leakage.entry_pml", "the next entry's leakage (index off by one)")
def _(f):
    def wrong(prior, channel, i, alphabet_size):
        n = int(round(np.log(np.size(prior)) / np.log(alphabet_size)))
        return f(prior, channel, (i + 1) % n, alphabet_size)
    return wrong


@thm_11.mutant("leakage.pml", "P_Y computed under the uniform prior instead of P_X")
def _(pml):
    return lambda prior, channel: pml(np.full(np.shape(prior), 1.0 / np.shape(prior)[-1]), channel)
