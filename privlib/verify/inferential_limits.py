"""Claims of chapter 000 (Bailie & Gong, general inferential limits), checked by enumerating
events, datasets and data models, by linear programs over randomized tests, by quadrature and by
exact rational arithmetic."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from scipy import integrate, optimize, stats

from privlib import intervals, mechanisms, pufferfish
from privlib.claims import Evidence, all_of, at_most, claim, close, holds


def _events_d_mult(mu: np.ndarray, nu: np.ndarray) -> float:
    """sup over all events S of |log mu(S) - log nu(S)| by enumerating every subset."""
    best = 0.0
    for mask in itertools.product([0, 1], repeat=mu.size):
        m = np.array(mask, dtype=bool)
        a, b = mu[m].sum(), nu[m].sum()
        if a > 0 and b > 0:
            best = max(best, abs(np.log(a) - np.log(b)))
        elif a > 0 or b > 0:
            return float("inf")
    return best


@claim("000/lemma-3-4", item="Lemma 3.4",
       statement="d_mult(mu, nu) <= r exactly when e^{-r} nu <= mu <= e^{r} nu setwise, and d_mult is the largest pointwise log-ratio.",
       method="enumeration of all 2^8 events for random measures on 8 points, at radii on both sides of d_mult")
def lemma_3_4(seed: int = 1, trials: int = 30) -> Evidence:
    rng = np.random.default_rng(seed)
    by_events, by_formula, sandwich_ok = [], [], True
    masks = np.array(list(itertools.product([0, 1], repeat=8)), dtype=float)
    for _ in range(trials):
        mu, nu = rng.exponential(size=8), rng.exponential(size=8)
        dm = _events_d_mult(mu, nu)
        by_events.append(dm)
        by_formula.append(intervals.multiplicative_distance(mu, nu))
        for r in (0.9 * dm, dm, 1.1 * dm):
            inside = bool(((masks @ mu) <= np.exp(r) * (masks @ nu) * (1 + 1e-12)).all()
                          and (np.exp(-r) * (masks @ nu) <= (masks @ mu) * (1 + 1e-12)).all())
            sandwich_ok &= inside == (dm <= r * (1 + 1e-12))
    if not sandwich_ok:
        return holds(False, detail="the setwise sandwich disagreed with d_mult <= r")
    return close(by_formula, by_events, rtol=1e-12, atol=0.0)


def _clamped_geometric(n: int, eps: float) -> np.ndarray:
    """The truncated geometric mechanism on the count q in {0..n}: rows q, outputs t in {0..n}."""
    a = np.exp(-eps)
    q = np.arange(n + 1)[:, None]
    t = np.arange(n + 1)[None, :]
    p = (1 - a) / (1 + a) * a ** np.abs(t - q)
    p[:, 0] = a ** q[:, 0] / (1 + a)
    p[:, n] = a ** (n - q[:, 0]) / (1 + a)
    return p


@claim("000/thm-3-5", item="Theorem 3.5",
       statement="Under a graph metric, epsilon-DP on neighbours (II) implies d_mult(P_x, P_x') <= eps d(x, x') for all pairs (I) and the density sandwich (IV).",
       method="the truncated geometric count mechanism lifted to {0,1}^3 with the Hamming metric: every event of every pair of datasets enumerated")
def thm_3_5(epsilon: float = 0.7) -> Evidence:
    n = 3
    channel = _clamped_geometric(n, epsilon)
    x = np.array(list(itertools.product([0, 1], repeat=n)))
    rows = channel[x.sum(axis=1)]
    edge, ratio, sandwich = 0.0, 0.0, True
    for a, b in itertools.combinations(range(len(x)), 2):
        d = int(np.abs(x[a] - x[b]).sum())
        dm = _events_d_mult(rows[a], rows[b])
        if d == 1:
            edge = max(edge, dm)
        ratio = max(ratio, dm / d)
        sandwich &= bool((np.exp(-epsilon * d) * rows[b] <= rows[a] * (1 + 1e-12)).all()
                         and (rows[a] <= np.exp(epsilon * d) * rows[b] * (1 + 1e-12)).all())
    if not sandwich:
        return holds(False, detail="the density sandwich (5) failed for some pair")
    return close([edge, ratio], [epsilon, epsilon], rtol=1e-10, atol=0.0)


@claim("000/thm-4-1", item="Theorem 4.1 (Example 4.4)",
       statement="For the Laplace-privatised sum of n = 10 binary records, every data model's output density lies between l(t) = e^{-eps n} sup_x p_x(t) and u(t) = e^{eps n} inf_x p_x(t).",
       method="exact output densities of 200 random data models (Dirichlet weights on all 2^10 datasets, and binomial models), by summation over datasets; ess sup/inf by enumeration")
def thm_4_1(n: int = 10, epsilon: float = 0.1, seed: int = 2) -> Evidence:
    rng = np.random.default_rng(seed)
    t = np.linspace(-2.0 * n, 3.0 * n, 251)
    lap = mechanisms.LaplaceMechanism(epsilon)
    counts = np.array(list(itertools.product([0, 1], repeat=n))).sum(axis=1)
    dens_q = lap.pdf(t[None, :], np.arange(n + 1)[:, None])       # p_q(t)
    dens_x = dens_q[counts]                                          # every dataset
    lower, upper = intervals.laplace_sum_bounds(t, n, epsilon, "integer")
    brute_lower, brute_upper = intervals.density_bounds(dens_x, epsilon, n)
    if not (np.allclose(lower, brute_lower, rtol=1e-12) and np.allclose(upper, brute_upper, rtol=1e-12)):
        return close(np.r_[lower, upper], np.r_[brute_lower, brute_upper], rtol=1e-12)
    margins_low, margins_high = [], []
    for k in range(200):
        if k % 2:
            w = rng.dirichlet(np.full(2**n, 0.1))
            p_theta = w @ dens_x
        else:
            p_theta = stats.binom.pmf(np.arange(n + 1), n, rng.uniform()) @ dens_q
        margins_low.append((lower / p_theta).max())
        margins_high.append((p_theta / upper).max())
    return at_most(np.r_[margins_low, margins_high], 1.0 + 1e-12, atol=0.0,
                   detail="largest ratio of a bound to the model's density, on the wrong side")


@claim("000/eq-8", item="Example 4.5, eq. (8)",
       statement="Under binary randomized response every data model gives each output between (1+e^eps)^{-n} and e^{eps n}(1+e^eps)^{-n}, and both are attained.",
       method="the minimum and maximum over all 2^n inputs of the output probability, by enumeration (n = 8)")
def eq_8(n: int = 8, epsilon: float = 1.0) -> Evidence:
    rr = mechanisms.RandomizedResponse(epsilon, 2).matrix()
    x = np.array(list(itertools.product([0, 1], repeat=n)))
    output = np.zeros(n, dtype=int)
    probs = np.prod(rr[x, output[None, :]], axis=1)
    low, high = intervals.randomized_response_bounds(n, epsilon)
    return close([probs.min(), probs.max()], [float(low), float(high)], rtol=1e-12, atol=0.0)


@claim("000/thm-5-1", item="Theorem 5.1 and Corollary 5.3",
       statement="Every level-alpha test on an epsilon-DP release has power at most alpha e^{eps d} (and a size-alpha test at least alpha e^{-eps d}).",
       method="linear programs over all randomized tests (scipy HiGHS) for random epsilon-DP channels between two datasets at distance d, and binary randomized response")
def thm_5_1(seed: int = 3, epsilon: float = 1.0) -> Evidence:
    rng = np.random.default_rng(seed)
    best, bound = [], []
    for d in (1, 2, 3):
        for _ in range(3):
            # a random channel whose two rows stay within e^{eps d} of each other
            p0 = rng.dirichlet(np.ones(6))
            p1 = p0 * np.exp(rng.uniform(-epsilon * d, epsilon * d, 6) * 0.5)
            p1 /= p1.sum()
            d_eff = intervals.multiplicative_distance(p0, p1) / epsilon
            for alpha in (0.05, 0.1, 0.3):
                res = optimize.linprog(-p1, A_ub=p0[None, :], b_ub=[alpha], bounds=(0, 1), method="highs")
                best.append(-res.fun)
                bound.append(float(intervals.power_bounds(alpha, epsilon, d_eff)[1]))
    rr = mechanisms.RandomizedResponse(epsilon, 2).matrix()
    res = optimize.linprog(-rr[1], A_ub=rr[0][None, :], b_ub=[0.1], bounds=(0, 1), method="highs")
    attained = -res.fun
    if not at_most(best, bound, atol=1e-9).passed:
        return at_most(best, bound, atol=1e-9)
    return close(attained, 0.1 * np.exp(epsilon), rtol=1e-9, atol=0.0,
                 detail="randomized response attains alpha e^eps at alpha = 0.1")


@claim("000/thm-6-4", item="Theorem 6.4",
       statement="Every posterior lies within e^{-eps d} and e^{eps d} times the prior, whatever the data model and the prior.",
       method="Bayes' rule on 300 random finite models: random priors over 5 parameter values, random data models on 4 datasets at mutual distance <= 2, random epsilon-DP channels")
def thm_6_4(seed: int = 4, epsilon: float = 0.5) -> Evidence:
    rng = np.random.default_rng(seed)
    ratios, limits = [], []
    d = 2
    for _ in range(300):
        base = rng.dirichlet(np.ones(5))
        channel = base * np.exp(rng.uniform(-epsilon * d / 2, epsilon * d / 2, (4, 5)))
        channel /= channel.sum(axis=1, keepdims=True)
        eps_d = max(intervals.multiplicative_distance(a, b) for a in channel for b in channel)
        models = rng.dirichlet(np.ones(4), size=5)        # P_theta over the 4 datasets
        prior = rng.dirichlet(np.ones(5))
        p_t = models @ channel                             # p_theta(t) for every output
        post = prior[:, None] * p_t / (prior @ p_t)[None, :]
        ratios.append(np.abs(np.log(post / prior[:, None])).max())
        limits.append(eps_d)
    return at_most(ratios, limits, atol=1e-12)


@claim("000/ex-6-7", item="Example 6.7",
       statement="For a Laplace-privatised clamped Poisson count with a Gamma(3, 1) prior (eps = 1, d = 1) the posterior stays within e^{+-1} of the prior, and m(2) = 0.0646644, pi(3 | t = 2) = 0.231103.",
       method="posterior normalised by Simpson's rule over theta in [0, 60] (not the negative-binomial closed form), on a grid of releases t in [-30, 40]")
def ex_6_7(epsilon: float = 1.0) -> Evidence:
    theta = np.linspace(1e-9, 60.0, 24001)
    prior = stats.gamma.pdf(theta, 3.0)
    worst = 0.0
    for t in np.linspace(-30.0, 40.0, 29):
        # the unnormalised posterior, normalised by Simpson's rule over theta
        unnorm = intervals.clamped_count_posterior(theta, t, epsilon=epsilon) * float(intervals.clamped_count_predictive(t, epsilon=epsilon))
        z = integrate.simpson(unnorm, x=theta)
        inside = theta < 40.0
        worst = max(worst, float(np.abs(np.log((unnorm[inside] / z) / prior[inside])).max()))
    m2 = float(intervals.clamped_count_predictive(2.0, epsilon=epsilon))
    post3 = float(intervals.clamped_count_posterior([3.0], 2.0, epsilon=epsilon)[0])
    if worst > epsilon + 1e-9:
        return at_most(worst, epsilon, detail="largest |log posterior/prior| over the release grid")
    return close([m2, post3], [0.0646644, 0.231103], atol=5e-7, rtol=0.0,
                 detail=f"largest |log posterior/prior| {worst:.4f} <= eps d = {epsilon:g}")


@claim("000/thm-6-2", item="Theorem 6.2",
       statement="Whatever the prior and the data model, the prior-predictive density of the Laplace-privatised sum of n binary records lies between l(t) = e^{-eps n} sup_x p_x(t) and u(t) = e^{eps n} inf_x p_x(t).",
       method="Beta(a, b) priors on iid Bernoulli records, the prior predictive of the count by adaptive quadrature over theta (not the beta-binomial closed form); and 100 random finite priors over random data models, summed over all 2^n datasets")
def thm_6_2(n: int = 6, epsilon: float = 0.25, seed: int = 5) -> Evidence:
    rng = np.random.default_rng(seed)
    t = np.linspace(-2.0 * n, 3.0 * n, 181)
    lap = mechanisms.LaplaceMechanism(epsilon)
    dens_q = lap.pdf(t[None, :], np.arange(n + 1)[:, None])
    lower, upper = intervals.laplace_sum_bounds(t, n, epsilon, "integer")
    predictive, masses = [], []
    for a, b in ((0.5, 0.5), (1.0, 1.0), (3.0, 0.7), (20.0, 2.0)):
        w = np.array([integrate.quad(lambda th, k=k: stats.binom.pmf(k, n, th) * stats.beta.pdf(th, a, b), 0.0, 1.0,
                                     points=[0.5], limit=200)[0] for k in range(n + 1)])
        masses.append(w.sum())
        predictive.append(w @ dens_q)
    counts = np.array(list(itertools.product([0, 1], repeat=n))).sum(axis=1)
    dens_x = dens_q[counts]
    for _ in range(100):
        models = rng.dirichlet(np.full(2**n, 0.2), size=4)      # P_theta over the datasets
        prior = rng.dirichlet(np.ones(4))
        predictive.append(prior @ models @ dens_x)
    predictive = np.array(predictive)
    if not np.allclose(masses, 1.0, atol=1e-9):
        return close(masses, 1.0, atol=1e-9, detail="the quadrature weights of the count do not sum to 1")
    return at_most(np.r_[(lower / predictive).max(axis=1), (predictive / upper).max(axis=1)], 1.0 + 1e-12, atol=0.0,
                   detail="largest ratio of a bound to a prior predictive density, on the wrong side")


# ---------------------------------------------------------------------------------------------
# Sections 7-8: Pufferfish privacy on finite instances


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
       statement="For a finite Pufferfish instantiation the Lipschitz form (I, eq. (16): d_mult of the two conditional output laws <= eps for every attacker and pair), Kifer and Machanavajjhala's event-ratio form (II), the interval of measures over d_Puff (III) and the density sandwich (IV) give the same smallest epsilon.",
       method="random mechanisms on {0,1}^2 with correlated and product attackers: conditional output laws summed dataset by dataset, every one of the 2^5 events enumerated for II; d_Puff by shortest paths on the graph of conditionals, every connected pair checked for III and IV")
def thm_8_1(seed: int = 6, trials: int = 5) -> Evidence:
    rng = np.random.default_rng(seed)
    formula, brute, sandwich_ok, longest = [], [], True, 0.0
    for _ in range(trials):
        P, priors, pairs = _pufferfish_instance(rng)
        worst = 0.0
        for theta in priors:
            for si, sj in pairs:
                a, b = _brute_conditional(P, theta, si), _brute_conditional(P, theta, sj)
                if a is not None and b is not None:
                    worst = max(worst, _events_d_mult(a, b))
        loss = pufferfish.pufferfish_loss(P, priors, pairs)
        nodes, dist = pufferfish.pufferfish_graph(priors, pairs)
        laws = nodes @ P
        lipschitz = 0.0
        for i, j in itertools.combinations(range(len(nodes)), 2):
            d = dist[i, j]
            if np.isfinite(d):
                longest = max(longest, d)
                lipschitz = max(lipschitz, _events_d_mult(laws[i], laws[j]) / d)
                sandwich_ok &= bool((laws[i] <= np.exp(worst * d) * laws[j] * (1 + 1e-12)).all()
                                    and (np.exp(-worst * d) * laws[j] <= laws[i] * (1 + 1e-12)).all())
        formula += [loss, pufferfish.kifer_machanavajjhala_loss(P, priors, pairs), lipschitz]
        brute += [worst] * 3
    if not sandwich_ok:
        return holds(False, detail="the density sandwich IV failed for some connected pair")
    if longest < 2:
        return holds(False, detail="the instances have no path of length 2: III would not be tested")
    return close(formula, brute, rtol=1e-10, atol=0.0,
                 detail=f"I (atoms), II (module, events) and III (Lipschitz over d_Puff, paths up to length {longest:g}) against II by enumeration")


def _fraction_channel(rng: np.random.Generator, rows: int, cols: int) -> list[list[Fraction]]:
    out = []
    for _ in range(rows):
        w = rng.integers(1, 10, cols)
        out.append([Fraction(int(k), int(w.sum())) for k in w])
    return out


@claim("000/thm-8-5", item="Theorem 8.5 and eq. (17)",
       statement="An attacker's posterior odds of two secrets moved by the output, divided by the prior odds, is the likelihood ratio (17); and epsilon-Pufferfish({theta}, all pairs of cells of a partition) holds exactly when d_R(prior, posterior) on the partition is at most epsilon for every output (19).",
       method="exact rational arithmetic (fractions): random rational mechanisms and priors on {0,1}^3, the posterior of every cell by Bayes' rule on the joint table, d_R as the largest odds ratio over pairs of cells; for the level sets of record 1, a random 3-cell partition and the singletons")
def thm_8_5(seed: int = 7, trials: int = 4) -> Evidence:
    rng = np.random.default_rng(seed)
    data = np.array(list(itertools.product([0, 1], repeat=3)))
    observed, reference = [], []
    for _ in range(trials):
        P_exact = _fraction_channel(rng, 8, 4)
        prior_exact = _fraction_channel(rng, 1, 8)[0]
        P = np.array(P_exact, dtype=float)
        prior = np.array(prior_exact, dtype=float)
        for labels in (data[:, 0], rng.integers(0, 3, 8), np.arange(8)):
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


@claim("000/remark-8-6", item="Remark 8.6",
       statement="With level-set secrets and attackers under whom the records are independent, the Pufferfish loss equals the epsilon-DP loss on Hamming neighbours: no product prior exceeds it, and priors fixing all records but one attain it.",
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
    inside = at_most(product_loss, dp, atol=1e-12)
    if not inside.passed:
        return inside
    return close(extreme_loss, dp, rtol=1e-10, atol=0.0,
                 detail=f"random product priors stay below (smallest slack {inside.margin:.3g}); the extreme priors attain the DP loss")


def _lp_power(null: np.ndarray, alt: np.ndarray, alpha: float, minimize: bool) -> float:
    """Most (or least) powerful randomized test of size exactly alpha, by linear programming."""
    sign = 1.0 if minimize else -1.0
    res = optimize.linprog(sign * alt, A_eq=null[None, :], b_eq=[alpha], bounds=(0, 1), method="highs")
    return float(sign * res.fun)


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
       statement="epsilon-Pufferfish holds exactly when every size-alpha test of theta|s_j against theta|s_i has power between e^{-eps} alpha and e^{eps} alpha (22): the bounds hold at the Pufferfish loss and at no smaller epsilon.",
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
    upper = at_most(power, bound_hi, atol=1e-9)
    lower = at_most(bound_lo, low_power, atol=1e-9)
    return all_of(close(np_gap, 0.0, atol=1e-9, detail="the Neyman-Pearson power disagrees with the linear program"),
                  upper, lower,
                  close(from_tests, losses, rtol=1e-7, atol=0.0,
                        detail=f"(22) holds at the loss (slack above {upper.margin:.3g}, below {lower.margin:.3g}); "
                               "the largest |log power/size| over all tests equals the loss"))


# ---------------------------------------------------------------------------------------------
# Section 9: the bounds are attained


@claim("000/sec9-tightness", item="Section 9 (Theorems 4.1, 5.1, 6.2, 6.4, 8.5, 8.7 are tight)",
       statement="For the Laplace-privatised count of n binary records (d = n) the bounds are attained: point-mass models give p_theta = l and = u for t <= 0 (Theorems 4.1, 6.2); the Neyman-Pearson test of all-zeros against all-ones has power alpha e^{eps n} for alpha <= e^{-eps n}/2 (5.1); the posterior/prior ratio tends to e^{eps n} (6.4); for the Remark 8.6 attacker d_R(prior, posterior) = eps for t >= 1 and the test of the secret has power alpha e^{eps} (8.5, 8.7).",
       method="the constructions evaluated directly: output densities of the point-mass models, prior-predictive mixtures, Laplace tail probabilities (scipy.stats.laplace) for the Neyman-Pearson tests, Bayes' rule on the Laplace likelihoods")
def sec9_tightness(n: int = 3, epsilon: float = 0.5) -> Evidence:
    lap = stats.laplace(scale=1.0 / epsilon)
    observed, reference = [], []
    # Theorems 4.1 and 6.2: point masses on all-ones (lower) and all-zeros (upper), t <= 0
    t = np.linspace(-4.0 * n, 0.0, 41)
    lower, upper = intervals.laplace_sum_bounds(t, n, epsilon, "integer")
    observed += list(lap.pdf(t - n)) + list(lap.pdf(t))
    reference += list(lower) + list(upper)
    prior = np.array([1.0, 0.0])                                       # prior predictive of a point-mass prior
    observed += list(prior @ np.vstack([lap.pdf(t - n), lap.pdf(t)]))
    reference += list(lower)
    # Theorem 5.1: H0 all-zeros (count 0), H1 all-ones (count n), rejection region [c, inf)
    for alpha in (0.005, 0.02, 0.5 * np.exp(-epsilon * n)):
        c = lap.isf(alpha)
        observed.append(float(lap.sf(c - n)))
        reference.append(float(intervals.power_bounds(alpha, epsilon, n)[1]))
    # Theorem 6.4: Theta = {0, 1}, P_0 = all-zeros, P_1 = all-ones, prior pi(0) -> 0, t <= 0
    for t0 in (-1.0, -5.0):
        pi0 = 1e-10
        post0 = pi0 * lap.pdf(t0) / (pi0 * lap.pdf(t0) + (1 - pi0) * lap.pdf(t0 - n))
        observed.append(post0 / pi0)
        reference.append(float(intervals.posterior_bounds(1.0, epsilon, n)[1]))
    # Theorems 8.5 and 8.7: X_1 ~ Bernoulli(0.3), the other records fixed at 0; secret {X_1 = 1}
    prior_cells = np.array([0.7, 0.3])
    for t0 in (1.0, 2.5, 10.0):
        joint = prior_cells * np.array([lap.pdf(t0), lap.pdf(t0 - 1.0)])
        observed.append(float(pufferfish.density_ratio_metric(prior_cells, joint / joint.sum())))
        reference.append(epsilon)
    for alpha in (0.01, 0.1, 0.5 * np.exp(-epsilon)):
        c = lap.isf(alpha)
        observed.append(float(lap.sf(c - 1.0)))
        reference.append(float(pufferfish.pufferfish_power_bounds(alpha, epsilon)[1]))
    return close(observed, reference, rtol=1e-7, atol=0.0,
                 detail="each construction against the bound it attains (the posterior ratio at prior mass 1e-10)")


# ---------------------------------------------------------------------------------------------
# Appendices C and E: the two metrics


def _exact_event_ratios(p: list[Fraction], q: list[Fraction]) -> tuple[Fraction, Fraction]:
    """Exact e^{d_mult} (largest P(S)/Q(S) or Q(S)/P(S) over events) and e^{d_R} (largest
    P(S)Q(S')/(P(S')Q(S)) over pairs of events, Proposition E.11) for full-support measures."""
    events = [m for m in itertools.product([0, 1], repeat=len(p)) if any(m)]
    mass_p = [sum(x for x, b in zip(p, m) if b) for m in events]
    mass_q = [sum(x for x, b in zip(q, m) if b) for m in events]
    ratios = [a / b for a, b in zip(mass_p, mass_q)]
    return max(max(ratios), max(1 / r for r in ratios)), max(r / s for r in ratios for s in ratios)


@claim("000/appendix-metrics", item="Lemmas C.3, C.5; Propositions C.7, E.11, E.17",
       statement="d_mult and d_R satisfy the triangle inequality; d_R is the sup over pairs of events (E.11); for probabilities d_mult <= d_R <= 2 d_mult (E.17), e.g. P = (0.6, 0.3, 0.1), Q = (0.3, 0.3, 0.4) has d_mult = ln 4, d_R = ln 8, and P = (0.5, 0.3, 0.2) against its reverse attains d_R = 2 d_mult; for measures d_R is scale-invariant, so the lower inequality fails.",
       method="2000 random triples on 4 atoms; every event (and pair of events) enumerated for 200 random pairs; the two examples in exact rational arithmetic (fractions) over all events")
def appendix_metrics(seed: int = 10, triples: int = 2000) -> Evidence:
    rng = np.random.default_rng(seed)
    a, b, c = (rng.dirichlet(np.full(4, 0.7), size=triples) for _ in range(3))
    dm = pufferfish.multiplicative_distance
    dr = pufferfish.density_ratio_metric
    ma, mb, mc = a * rng.exponential(size=(triples, 1)), b * rng.exponential(size=(triples, 1)), c
    mult_ab = np.array([dm(x, y) for x, y in zip(ma, mb)])
    mult_bc = np.array([dm(x, y) for x, y in zip(mb, mc)])
    mult_ac = np.array([dm(x, y) for x, y in zip(ma, mc)])
    triangle_lhs = np.r_[mult_ac, dr(a, c)]
    triangle_rhs = np.r_[mult_ab + mult_bc, dr(a, b) + dr(b, c)]
    tri = at_most(triangle_lhs, triangle_rhs, atol=1e-12)
    if not tri.passed:
        return tri
    d_mult = np.array([dm(x, y) for x, y in zip(a, b)])
    d_r = dr(a, b)
    equiv = at_most(np.r_[d_mult, d_r], np.r_[d_r, 2 * d_mult], atol=1e-12)
    if not equiv.passed:
        return equiv
    if not (d_r > d_mult).all():
        return holds(False, detail="d_R = d_mult for some pair of distinct probabilities on a finite space")
    # Proposition E.11 / Corollary E.13: the atom formula equals the sup over pairs of events
    events = np.array(list(itertools.product([0, 1], repeat=4))[1:], dtype=float)
    ev_a, ev_b = a[:200] @ events.T, b[:200] @ events.T
    log_ratio = np.log(ev_a) - np.log(ev_b)
    by_events = log_ratio.max(axis=1) - log_ratio.min(axis=1)
    if not np.allclose(by_events, d_r[:200], rtol=1e-12, atol=1e-14):
        return close(d_r[:200], by_events, rtol=1e-12, atol=1e-14, detail="Proposition E.11: atoms against pairs of events")
    # scale invariance (29): d_R(c nu, nu) = 0 while d_mult(c nu, nu) = ln c
    nu = a[0]
    if not (abs(dr(3.0 * nu, nu)) < 1e-12 and abs(dm(3.0 * nu, nu) - np.log(3.0)) < 1e-12):
        return holds(False, detail="d_R is not scale-invariant, or d_mult of a scaled measure is not ln c")
    p = [Fraction(3, 5), Fraction(3, 10), Fraction(1, 10)]
    q = [Fraction(3, 10), Fraction(3, 10), Fraction(2, 5)]
    m1, r1 = _exact_event_ratios(p, q)
    p2 = [Fraction(1, 2), Fraction(3, 10), Fraction(1, 5)]
    m2, r2 = _exact_event_ratios(p2, p2[::-1])
    observed = [dm(np.array(p, float), np.array(q, float)), dr(np.array(p, float), np.array(q, float)),
                dm(np.array(p2, float), np.array(p2[::-1], float)), dr(np.array(p2, float), np.array(p2[::-1], float))]
    reference = [float(np.log(float(m1))), float(np.log(float(r1))), float(np.log(float(m2))), float(np.log(float(r2)))]
    exact = f"exact: e^d_mult = {m1}, e^d_R = {r1} for the asymmetric pair; e^d_mult = {m2}, e^d_R = {r2} for the reversed pair"
    return close(observed, reference, rtol=1e-12, atol=0.0,
                 detail=f"triangle inequality slack {tri.margin:.3g}, E.17 slack {equiv.margin:.3g}; {exact}")
