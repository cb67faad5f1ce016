"""Claims of chapter 000, Sections 7-8: Pufferfish privacy on finite instances."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from scipy import optimize

from privlib.papers import pufferfish

from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds, reference
from privlib.verify.inferential_limits._routes import _events_d_mult, _lp_power
from privlib.verify.source_mutants import edit


@reference
def _brute_conditional(P: np.ndarray, prior: np.ndarray, secret: np.ndarray) -> np.ndarray | None:
    """P(M = t | X in s, theta), one dataset at a time (None if theta(s) = 0)."""
    mass = sum(prior[x] for x in range(len(prior)) if secret[x])
    if mass == 0:
        return None
    law = np.zeros(P.shape[1])
    for x in range(len(prior)):
        if secret[x]:
            law += prior[x] * P[x]
    return law / mass


def _random_channel(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    return rng.dirichlet(np.ones(cols), size=rows)


def _pufferfish_instance(rng: np.random.Generator):
    """X = {0,1}^2, 5 outputs, three attackers (two correlated, one product), level-set pairs of
    both records, a cross pair ({X1=1}, {X2=1}) and singleton pairs of Hamming neighbours."""
    data, pairs = pufferfish.level_set_pairs(2)
    P = _random_channel(rng, 4, 5)
    p1, p2 = rng.uniform(0.1, 0.9, 2)
    product = np.array([(p1 if a else 1 - p1) * (p2 if b else 1 - p2) for a, b in data])
    priors = np.vstack([rng.dirichlet(np.ones(4)), rng.dirichlet(np.full(4, 0.5)), product])
    pairs = list(pairs) + [(data[:, 0] == 1, data[:, 1] == 1)]
    for a, b in itertools.combinations(range(4), 2):
        if np.abs(data[a] - data[b]).sum() == 1:
            pairs.append((np.arange(4) == a, np.arange(4) == b))
    return P, priors, pairs


@claim("000/thm-8-1", item="Theorem 8.1 (and eq. (16))",
       statement="For a finite Pufferfish instantiation the Lipschitz form (I, eq. (16): $d_{mult}(P(M \\mid s_i, \\theta), P(M \\mid s_j, \\theta)) \\le \\varepsilon$ for every attacker $\\theta$ and pair), Kifer and Machanavajjhala's event-ratio form (II), the interval of measures over $d_{Puff}$ (III) and the density sandwich (IV) give the same smallest $\\varepsilon$.",
       method="random mechanisms on {0,1}^2 with correlated and product attackers and one with null atoms (mass on 00 and 11 only): conditional output laws summed dataset by dataset, every one of the 2^5 events enumerated for II; d_Puff by shortest paths on the graph of conditionals, every connected pair checked for III and IV",
       checks=("pufferfish.lipschitz_constant",))
def thm_8_1(seed: int = 6, trials: int = 5) -> Evidence:
    rng = np.random.default_rng(seed)
    formula, brute, sandwich_ok, longest = [], [], True, 0.0
    for trial in range(trials):
        P, priors, pairs = _pufferfish_instance(rng)
        # an attacker with null atoms (mass on 00 and 11 only): pairs with a secret of mass 0 are
        # unconstrained, and ({X1=1}, {X2=1}) has two equal conditionals (one node, no edge)
        data = pufferfish.level_set_pairs(2)[0]
        q = rng.uniform(0.1, 0.9)
        priors = np.vstack([priors, np.where(data[:, 0] == data[:, 1], np.where(data[:, 0] == 1, q, 1 - q), 0.0)])
        given = np.array(pairs) if trial == 0 else pairs   # the pairs as one (pairs, 2, datasets) array too
        worst = 0.0
        for theta in priors:
            for si, sj in pairs:
                a, b = _brute_conditional(P, theta, si), _brute_conditional(P, theta, sj)
                if a is not None and b is not None:
                    worst = max(worst, _events_d_mult(a, b))
        loss = pufferfish.pufferfish_loss(P, priors, given)
        nodes, dist = pufferfish.pufferfish_graph(priors, given)
        laws = nodes @ P
        lipschitz = 0.0
        for i, j in itertools.combinations(range(len(nodes)), 2):
            d = dist[i, j]
            if np.isfinite(d):
                longest = max(longest, d)
                lipschitz = max(lipschitz, _events_d_mult(laws[i], laws[j]) / d)
                sandwich_ok &= bool((laws[i] <= np.exp(worst * d) * laws[j] * (1 + 1e-12)).all()
                                    and (np.exp(-worst * d) * laws[j] <= laws[i] * (1 + 1e-12)).all())
        formula += [loss, pufferfish.kifer_machanavajjhala_loss(P, priors, given),
                    pufferfish.lipschitz_constant(P, nodes, dist), lipschitz]
        brute += [worst] * 4
    return all_of(close(formula, brute, rtol=1e-10, atol=0.0,
                        detail="I (atoms), II (events), III (privlib's Lipschitz constant over d_Puff, and the "
                               "same by enumerating events) against II by enumeration"),
                  holds(sandwich_ok, detail="the density sandwich IV holds on every connected pair"),
                  holds(bool(longest >= 2), observed=longest, reference=2,
                        detail="the graphs have paths of length 2, so III is tested beyond single edges"))


@thm_8_1.mutant("pufferfish.pufferfish_loss", "conditional laws not normalised by the prior mass of the secret")
def _(function):
    def wrong(P, priors, pairs, *, return_skipped=False):
        P, priors = np.asarray(P, float), np.atleast_2d(np.asarray(priors, float))
        best = 0.0
        for theta in priors:
            for si, sj in pairs:
                a, b = (theta * np.asarray(si)) @ P, (theta * np.asarray(sj)) @ P
                if a.sum() > 0 and b.sum() > 0:
                    best = max(best, float(np.abs(np.log(a) - np.log(b)).max()))
        return best
    return wrong


@thm_8_1.mutant("pufferfish.kifer_machanavajjhala_loss", "event ratios in one direction only (no absolute value)")
def _(function):
    def wrong(P, priors, pairs):
        P, priors = np.asarray(P, float), np.atleast_2d(np.asarray(priors, float))
        events = np.array(list(itertools.product([0, 1], repeat=P.shape[1]))[1:], dtype=float)
        best = 0.0
        for theta in priors:
            for si, sj in pairs:
                ma, mb = theta[np.asarray(si)].sum(), theta[np.asarray(sj)].sum()
                if ma > 0 and mb > 0:
                    a, b = events @ ((theta * np.asarray(si)) @ P / ma), events @ ((theta * np.asarray(sj)) @ P / mb)
                    best = max(best, float((np.log(a) - np.log(b)).max()))
        return best
    return wrong


@thm_8_1.mutant("pufferfish.pufferfish_graph", "d_Puff counts every edge twice")
def _(function):
    def wrong(priors, pairs, *, atol=1e-12):
        nodes, dist = function(priors, pairs, atol=atol)
        return nodes, 2.0 * dist
    return wrong


@thm_8_1.mutant("pufferfish.pufferfish_graph", "an edge for a pair where only one secret has prior mass")
def _(function):
    return edit("if mi > 0 and mj > 0:", "if mi > 0 or mj > 0:")(function)


@thm_8_1.mutant("pufferfish.lipschitz_constant", "largest d_mult over connected pairs, not divided by d_Puff")
def _(function):
    def wrong(P, nodes, distances):
        laws = np.asarray(nodes, float) @ np.asarray(P, float)
        dist = np.asarray(distances, float)
        connected = np.isfinite(dist) & (dist > 0)
        return max((float(np.abs(np.log(laws[i]) - np.log(laws[j])).max())
                    for i, j in zip(*np.nonzero(connected))), default=0.0)
    return wrong


def _fraction_channel(rng: np.random.Generator, rows: int, cols: int) -> list[list[Fraction]]:
    out = []
    for _ in range(rows):
        w = rng.integers(1, 10, cols)
        out.append([Fraction(int(k), int(w.sum())) for k in w])
    return out


@claim("000/thm-8-5", item="Theorem 8.5 and eq. (17)",
       statement="An attacker's posterior odds of two secrets given the output, divided by the prior odds, is the likelihood ratio (17); and $\\varepsilon$-Pufferfish($\\{\\theta\\}$, all pairs of cells of a partition) holds exactly when $d_R(\\pi_\\theta, \\pi_\\theta(\\cdot \\mid t)) \\le \\varepsilon$ for every output (19).",
       method="exact rational arithmetic (fractions): random rational mechanisms and priors on {0,1}^3, the posterior of every cell by Bayes' rule on the joint table, d_R as the largest odds ratio over pairs of cells (and 0 at an added output of probability 0); for the level sets of record 1, a random 3-cell partition and the singletons")
def thm_8_5(seed: int = 7, trials: int = 4) -> Evidence:
    rng = np.random.default_rng(seed)
    data = np.array(list(itertools.product([0, 1], repeat=3)))
    observed, reference = [], []
    for _ in range(trials):
        P_exact = _fraction_channel(rng, 8, 4)
        prior_exact = _fraction_channel(rng, 1, 8)[0]
        P = np.array(P_exact, dtype=float)
        prior = np.array(prior_exact, dtype=float)
        for labels in (data[:, 0], rng.permutation(np.arange(8) % 3), np.arange(8)):  # 3 non-empty cells
            cells = sorted(set(labels.tolist()))
            exact_dr = []
            for t in range(4):
                joint = [prior_exact[x] * P_exact[x][t] for x in range(8)]
                total = sum(joint)
                post = {k: sum(joint[x] for x in range(8) if labels[x] == k) / total for k in cells}
                pri = {k: sum(prior_exact[x] for x in range(8) if labels[x] == k) for k in cells}
                exact_dr.append(max(post[k] * pri[j] / (post[j] * pri[k]) for k in cells for j in cells))
            dr = pufferfish.secret_posterior_dR(P, prior, labels)
            observed += list(dr)
            reference += [float(np.log(float(r))) for r in exact_dr]
            # a fifth output no dataset produces (probability 0): no constraint, d_R = 0 there,
            # and the other outputs' values unchanged
            dr_null = pufferfish.secret_posterior_dR(np.c_[P, np.zeros(8)], prior, labels)
            observed += list(dr_null)
            reference += [float(np.log(float(r))) for r in exact_dr] + [0.0]
            # (19) for every t <=> Pufferfish for all pairs of cells: the smallest epsilons agree
            pairs = [(labels == k, labels == j) for k, j in itertools.combinations(cells, 2)]
            observed.append(pufferfish.pufferfish_loss(P, prior, pairs))
            reference.append(float(np.log(float(max(exact_dr)))))
        # (17) for the pair {X_1 = 1} against {X_1 = 0}
        si, sj = data[:, 0] == 1, data[:, 0] == 0
        odds = pufferfish.posterior_odds_ratio(P, prior, si, sj, log=True)
        for t in range(4):
            like_i = sum(prior_exact[x] * P_exact[x][t] for x in range(8) if si[x]) / sum(prior_exact[x] for x in range(8) if si[x])
            like_j = sum(prior_exact[x] * P_exact[x][t] for x in range(8) if sj[x]) / sum(prior_exact[x] for x in range(8) if sj[x])
            observed.append(float(odds[t]))
            reference.append(float(np.log(float(like_i / like_j))))
    return close(observed, reference, rtol=1e-10, atol=1e-12,
                 detail="d_R of prior and posterior per output, the Pufferfish loss against its largest value, and the log odds ratio (17)")


@thm_8_5.mutant("pufferfish.secret_posterior_dR", "outputs of probability 0 given d_R = 1, not 0")
def _(f):
    return edit("return np.where(possible, d, 0.0)", "return np.where(possible, d, 1.0)")(f)


@thm_8_5.mutant("pufferfish.secret_posterior_dR", "ess sup of the log ratio only (the ess inf dropped)")
def _(function):
    def wrong(P, prior, partition):
        P, prior, labels = np.asarray(P, float), np.asarray(prior, float), np.asarray(partition)
        cells = np.unique(labels)
        member = (labels[None, :] == cells[:, None]).astype(float)
        joint = prior[:, None] * P
        post = member @ joint
        post /= post.sum(axis=0, keepdims=True)
        pri = member @ prior
        return np.log(post / pri[:, None]).max(axis=0)
    return wrong


@thm_8_5.mutant("pufferfish.posterior_odds_ratio", "posterior odds not divided by the prior odds")
def _(function):
    def wrong(P, prior, secret_i, secret_j, *, log=False):
        prior = np.asarray(prior, float)
        shift = np.log(prior[np.asarray(secret_i, bool)].sum()) - np.log(prior[np.asarray(secret_j, bool)].sum())
        out = function(P, prior, secret_i, secret_j, log=True) + shift
        return out if log else np.exp(out)
    return wrong


@claim("000/remark-8-6", item="Remark 8.6",
       statement="With level-set secrets and attackers under whom the records are independent, the Pufferfish loss equals the $\\varepsilon$-DP loss on Hamming neighbours: no product prior exceeds it, and priors fixing all records but one attain it.",
       method="random mechanisms on {0,1}^3 (4 outputs): the DP loss by enumerating every event of every Hamming edge; the Pufferfish loss over 200 random product priors and over the 24 priors with one fair record and the others fixed")
def remark_8_6(seed: int = 8, trials: int = 5) -> Evidence:
    rng = np.random.default_rng(seed)
    data, pairs = pufferfish.level_set_pairs(3)
    dp, product_loss, extreme_loss = [], [], []
    for _ in range(trials):
        P = _random_channel(rng, 8, 4)
        dp.append(max(_events_d_mult(P[a], P[b]) for a, b in itertools.combinations(range(8), 2)
                      if np.abs(data[a] - data[b]).sum() == 1))
        p = rng.uniform(0.02, 0.98, (200, 3))
        product = np.prod(np.where(data[None, :, :] == 1, p[:, None, :], 1 - p[:, None, :]), axis=2)
        product_loss.append(pufferfish.pufferfish_loss(P, product, pairs))
        extreme = []
        for i in range(3):
            for rest in itertools.product([0, 1], repeat=2):
                others = [j for j in range(3) if j != i]
                match = (data[:, others] == np.array(rest)).all(axis=1)
                extreme.append(np.where(match, 0.5, 0.0))
        extreme_loss.append(pufferfish.pufferfish_loss(P, np.array(extreme), pairs))
    return all_of(at_most(product_loss, dp, atol=1e-12, detail="no product prior exceeds the DP loss"),
                  close(extreme_loss, dp, rtol=1e-10, atol=0.0, detail="the priors fixing all records but one attain it"))


@remark_8_6.mutant("pufferfish.pufferfish_loss", "pairs whose secret has zero prior mass not skipped")
def _(function):
    def wrong(P, priors, pairs, *, return_skipped=False):
        P, priors = np.asarray(P, float), np.atleast_2d(np.asarray(priors, float))
        best = 0.0
        for theta in priors:
            for si, sj in pairs:
                ma, mb = theta[np.asarray(si)].sum(), theta[np.asarray(sj)].sum()
                a = (theta * np.asarray(si)) @ P / max(ma, 1e-300)
                b = (theta * np.asarray(sj)) @ P / max(mb, 1e-300)
                with np.errstate(divide="ignore", invalid="ignore"):
                    d = np.abs(np.log(a) - np.log(b))
                best = max(best, float(np.nan_to_num(d, nan=np.inf).max()))
        return best
    return wrong


@remark_8_6.mutant("pufferfish.pufferfish_loss", "only the first prior considered")
def _(function):
    return lambda P, priors, pairs, *, return_skipped=False: function(P, np.atleast_2d(priors)[:1], pairs)


@reference
def _lp_sup_ratio(null: np.ndarray, alt: np.ndarray) -> float:
    """sup over tests of power / size, a linear-fractional program made linear by Charnes and
    Cooper: maximise alt . y subject to null . y = 1 and 0 <= y <= s."""
    k = null.size
    c = np.r_[-alt, 0.0]
    a_ub = np.hstack([np.eye(k), -np.ones((k, 1))])
    res = optimize.linprog(c, A_ub=a_ub, b_ub=np.zeros(k), A_eq=np.r_[null, 0.0][None, :], b_eq=[1.0],
                           bounds=[(0, None)] * (k + 1), method="highs")
    return float(-res.fun)


@claim("000/thm-8-7", item="Theorem 8.7",
       statement="$\\varepsilon$-Pufferfish holds exactly when every size-$\\alpha$ test of $\\theta|s_j$ against $\\theta|s_i$ has power between $e^{-\\varepsilon}\\alpha$ and $e^{\\varepsilon}\\alpha$ (22): the bounds hold at the Pufferfish loss and at no smaller $\\varepsilon$.",
       method="linear programs over all randomized tests (scipy HiGHS) on random mechanisms with correlated attackers and level-set pairs: most and least powerful size-alpha tests on a grid of alpha, and sup of power/size by the Charnes-Cooper linear-fractional program")
def thm_8_7(seed: int = 9, trials: int = 3) -> Evidence:
    rng = np.random.default_rng(seed)
    data, pairs = pufferfish.level_set_pairs(2)
    alphas = np.array([0.01, 0.05, 0.1, 0.3, 0.5, 0.8])
    np_gap, power, bound_hi, bound_lo, low_power = [], [], [], [], []
    from_tests, losses = [], []
    for _ in range(trials):
        P = _random_channel(rng, 4, 6)
        priors = rng.dirichlet(np.ones(4), size=2)
        loss = pufferfish.pufferfish_loss(P, priors, pairs)
        worst = 0.0
        for theta in priors:
            for si, sj in pairs:
                alt = pufferfish.conditional_output_laws(P, theta, si)
                null = pufferfish.conditional_output_laws(P, theta, sj)
                for alpha in alphas:
                    best, least = _lp_power(null, alt, alpha, False), _lp_power(null, alt, alpha, True)
                    np_gap += [best - float(pufferfish.neyman_pearson_power(null, alt, alpha)),
                               least - float(pufferfish.neyman_pearson_power(null, alt, alpha, minimize=True))]
                    lo, hi = pufferfish.pufferfish_power_bounds(alpha, loss)
                    power.append(best)
                    bound_hi.append(float(hi))
                    low_power.append(least)
                    bound_lo.append(float(lo))
                worst = max(worst, np.log(_lp_sup_ratio(null, alt)), np.log(_lp_sup_ratio(alt, null)))
        from_tests.append(worst)
        losses.append(loss)
    return all_of(close(np_gap, 0.0, atol=1e-9, detail="Neyman-Pearson powers (most and least) minus the linear programs"),
                  at_most(power, bound_hi, atol=1e-9, detail="most powerful size-alpha tests against e^eps alpha at the loss"),
                  at_most(bound_lo, low_power, atol=1e-9, detail="e^-eps alpha against the least powerful size-alpha tests"),
                  close(from_tests, losses, rtol=1e-7, atol=0.0,
                        detail="the largest |log power/size| over all tests equals the loss (no smaller eps works)"))


@thm_8_7.mutant("pufferfish.pufferfish_power_bounds", "e^{eps/2} in place of e^{eps}")
def _(function):
    return lambda alpha, epsilon, sharp=False: function(alpha, epsilon / 2.0, sharp)


@thm_8_7.mutant("pufferfish.neyman_pearson_power", "least powerful test taken at level alpha of the swapped pair")
def _(function):
    return lambda null, alt, alpha, *, minimize=False: function(alt, null, alpha) if minimize else function(null, alt, alpha)
