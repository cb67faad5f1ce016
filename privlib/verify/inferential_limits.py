"""Claims of chapter 000 (Bailie & Gong, general inferential limits), checked by enumerating
events, datasets and data models, by linear programs over randomized tests, and by quadrature."""

from __future__ import annotations

import itertools

import numpy as np
from scipy import integrate, optimize, stats

from privlib import intervals, mechanisms
from privlib.claims import Evidence, at_most, claim, close, holds


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
