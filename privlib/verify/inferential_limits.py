"""Claims of chapter 000 (Bailie & Gong, general inferential limits), checked by enumerating
events, datasets and data models, by linear programs over randomized tests, by quadrature, by
Monte Carlo with a stated confidence and by exact rational arithmetic. Every verified claim
declares mutants: plausible mistakes in the privlib functions it checks, which must make it fail."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from scipy import integrate, optimize, special, stats

from privlib.papers import intervals, pufferfish
from privlib.core import mechanisms
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds, reference


@reference
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


def _hamming(x: np.ndarray) -> np.ndarray:
    """Hamming distances between the rows of x."""
    return np.abs(x[:, None, :] - x[None, :, :]).sum(axis=2).astype(float)


def _cube(n: int) -> np.ndarray:
    return np.array(list(itertools.product([0, 1], repeat=n)))


def _rr_product(n: int, eps: float) -> np.ndarray:
    """Randomized response on each of n bits: rows the 2^n datasets, columns the 2^n outputs."""
    x = _cube(n)
    keep = np.exp(eps) / (1.0 + np.exp(eps))
    agree = (x[:, None, :] == x[None, :, :]).sum(axis=2)
    return keep**agree * (1.0 - keep) ** (n - agree)


# Mistakes that several claims must catch (each claim declares them as its own mutants).


@reference
def _d_mult_one_direction(function):
    """``multiplicative_distance`` as the largest ``log(mu/nu)``, without the absolute value."""
    def wrong(mu, nu):
        mu, nu = np.asarray(mu, float), np.asarray(nu, float)
        used = (mu > 0) & (nu > 0)
        return float(max((np.log(mu[used]) - np.log(nu[used])).max(), 0.0))
    return wrong


@reference
def _d_mult_ignores_one_sided(function):
    """``multiplicative_distance`` ignoring atoms that only one measure charges (finite, not inf)."""
    def wrong(mu, nu):
        mu, nu = np.asarray(mu, float), np.asarray(nu, float)
        used = (mu > 0) & (nu > 0)
        return float(np.abs(np.log(mu[used]) - np.log(nu[used])).max())
    return wrong


def _mean_abs_log_ratio(function):
    """``multiplicative_distance`` as the mean, not the largest, |log ratio| of the atoms."""
    def wrong(mu, nu):
        mu, nu = np.asarray(mu, float), np.asarray(nu, float)
        if ((mu == 0) != (nu == 0)).any():
            return float("inf")
        used = (mu > 0) & (nu > 0)
        return float(np.abs(np.log(mu[used]) - np.log(nu[used])).mean())
    return wrong


@reference
def _d_r_as_d_mult(function):
    """``density_ratio_metric`` as the largest |log ratio| (d_mult) instead of its spread."""
    def wrong(mu, nu, *, axis=-1, log=False):
        lm, ln = (np.asarray(x, float) for x in (mu, nu))
        if not log:
            with np.errstate(divide="ignore"):
                lm, ln = np.log(lm), np.log(ln)
        both = np.isfinite(lm) & np.isfinite(ln)
        out = np.where(both, np.abs(lm - ln), 0.0).max(axis=axis)
        return float(out) if np.ndim(out) == 0 else out
    return wrong


def _distances_replaced(transform):
    """A mutant of ``lipschitz_loss``: the metric passed through ``transform`` first."""
    return lambda function: (lambda P, distances: function(P, transform(np.array(distances, dtype=float))))


@reference
def _laplace_bounds_diameter_minus_one(function):
    """``laplace_sum_bounds`` with the diameter n - 1 in place of n."""
    return lambda t, n, epsilon, q_support="interval": tuple(
        b * np.exp(s * epsilon) for b, s in zip(function(t, n, epsilon, q_support), (1.0, -1.0)))


def _scaled_diameter(factor, fixed=None):
    """A mutant of ``power_bounds`` or ``posterior_bounds``: the diameter times ``factor`` (or
    replaced by ``fixed``)."""
    def make(function):
        def wrong(first, epsilon, diameter, *args, **kwargs):
            return function(first, epsilon, fixed if fixed is not None else factor * diameter, *args, **kwargs)
        return wrong
    return make


# ---------------------------------------------------------------------------------------------
# Sections 2-3: epsilon-DP as a Lipschitz condition and an interval of measures


@claim("000/ex-2-2", item="Example 2.2 (Figure 1)",
       statement="The Laplace mechanism with noise scale $\\Delta/\\varepsilon$ has density ratio exactly $e^{\\varepsilon}$ outside the segment between the two query values (the paper's $q(x) = 10$, $q(x') = 11$, $\\varepsilon = 2$); Figure 1's markers: $p_{x'}(t) = 0.05$ at $t = 11 - \\ln(10\\varepsilon)/\\varepsilon$ ($= 11 - \\ln(20)/2$ at $\\varepsilon = 2$), where $p_x(t) = 0.05\\,e^{\\varepsilon}$ (when that point lies left of $q(x)$).",
       method="privlib's Laplace density against scipy.stats.laplace on a grid of outputs, the log-ratio left and right of the segment against $\\pm\\varepsilon$, and the marker values")
def ex_2_2(epsilon: float = 2.0) -> Evidence:
    lap = mechanisms.LaplaceMechanism(epsilon)
    t = np.linspace(5.0, 16.0, 111)
    reference = stats.laplace(loc=10.0, scale=1.0 / epsilon).pdf(t)
    outside = np.r_[t[t <= 10.0], t[t >= 11.0]]
    log_ratio = np.log(lap.pdf(outside, 10.0)) - np.log(lap.pdf(outside, 11.0))
    marker = 11.0 - np.log(10.0 * epsilon) / epsilon                 # where p_x' = .05 (9.50 at eps = 2)
    markers = ([close([float(lap.pdf(marker, 11.0)), float(lap.pdf(marker, 10.0))], [0.05, 0.05 * np.exp(epsilon)],
                      rtol=1e-12, detail="Figure 1's markers .05 and .05 e^eps")] if marker <= 10.0 else [])
    return all_of(close(lap.pdf(t, 10.0), reference, rtol=1e-12, detail="density of q(x) + Lap(1/eps) against scipy"),
                  close(np.abs(log_ratio), epsilon, rtol=1e-12, detail="|log p_x/p_x'| outside [10, 11] equals eps"),
                  *markers)


@ex_2_2.mutant("mechanisms.LaplaceMechanism.logpdf", "noise scale eps/Delta in place of Delta/eps (rate for scale)")
def _(logpdf):
    return lambda self, y, value=0.0: -np.abs(np.asarray(y) - np.asarray(value)) * self.scale - np.log(2.0 / self.scale)


@claim("000/lemma-3-4", item="Lemma 3.4 (Proposition E.3)",
       statement="$d_{mult}(\\mu, \\nu) \\le r$ exactly when $e^{-r}\\nu \\le \\mu \\le e^{r}\\nu$ setwise, and $d_{mult}$ is the largest pointwise log-ratio (infinite when one measure charges an atom the other does not).",
       method="enumeration of all $2^8$ events for random measures on 8 points (some with null atoms, one-sided or shared), at radii on both sides of $d_{mult}$")
def lemma_3_4(seed: int = 1, trials: int = 30) -> Evidence:
    rng = np.random.default_rng(seed)
    by_events, by_formula, sandwich = [], [], []
    masks = np.array(list(itertools.product([0, 1], repeat=8)), dtype=float)
    for k in range(trials):
        mu, nu = rng.exponential(size=8), rng.exponential(size=8)
        if k % 5 == 1:
            mu[0] = nu[0] = 0.0                       # an atom null under both: ignored
        if k % 5 == 3:
            mu[2] = 0.0                               # an atom null under one: d_mult = inf
        dm = _events_d_mult(mu, nu)
        by_events.append(dm)
        by_formula.append(intervals.multiplicative_distance(mu, nu))
        if np.isfinite(dm):
            for r in (0.9 * dm, dm, 1.1 * dm):
                inside = bool(((masks @ mu) <= np.exp(r) * (masks @ nu) * (1 + 1e-12)).all()
                              and (np.exp(-r) * (masks @ nu) <= (masks @ mu) * (1 + 1e-12)).all())
                sandwich.append(inside == (by_formula[-1] <= r * (1 + 1e-12)))
    return all_of(close(by_formula, by_events, rtol=1e-12, atol=0.0, detail="d_mult against the sup over all events"),
                  holds(all(sandwich), observed=sum(sandwich), reference=len(sandwich),
                        detail="the setwise sandwich holds exactly when d_mult <= r (radii 0.9, 1, 1.1 d_mult)"))


lemma_3_4.mutant("intervals.multiplicative_distance", "one direction only: max log(mu/nu) without the absolute value")(_d_mult_one_direction)


lemma_3_4.mutant("intervals.multiplicative_distance", "an atom null under one measure only is ignored (finite instead of inf)")(_d_mult_ignores_one_sided)


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
       statement="Under a graph metric (Assumption 3.3), $\\varepsilon$-DP on neighbours (II) gives $d_{mult}(P_x, P_{x'}) \\le \\varepsilon\\, d(x, x')$ for every pair (I, group privacy) and the density sandwich (IV): the privacy loss over all pairs equals the largest $d_{mult}$ over Hamming edges; datasets of different sizes (infinite distance) are unconstrained.",
       method="random mechanisms (8 outputs) on the 12 datasets of $\\{0,1\\}^2 \\cup \\{0,1\\}^3$ with the Hamming metric, and the truncated geometric count mechanism on $\\{0,1\\}^3$ (loss $\\varepsilon$ exactly): the edge loss by enumerating all $2^8$ events of every edge, the sandwich (5) checked on every connected pair at that loss")
def thm_3_5(seed: int = 11, trials: int = 4, epsilon: float = 0.7) -> Evidence:
    rng = np.random.default_rng(seed)
    x2, x3 = _cube(2), _cube(3)
    dist = np.full((12, 12), np.inf)
    dist[:4, :4], dist[4:, 4:] = _hamming(x2), _hamming(x3)
    observed, reference, sandwich = [], [], True
    for _ in range(trials):
        P = rng.dirichlet(np.full(8, 2.0), size=12)
        edges = [(a, b) for a in range(12) for b in range(a + 1, 12) if dist[a, b] == 1]
        edge_loss = max(_events_d_mult(P[a], P[b]) for a, b in edges)
        observed.append(intervals.lipschitz_loss(P, dist))
        reference.append(edge_loss)
        for a, b in itertools.combinations(range(12), 2):
            if np.isfinite(dist[a, b]):
                k = np.exp(edge_loss * dist[a, b]) * (1 + 1e-12)
                sandwich &= bool((P[a] <= k * P[b]).all() and (P[b] <= k * P[a]).all())
    geometric = _clamped_geometric(3, epsilon)[x3.sum(axis=1)]
    observed.append(intervals.lipschitz_loss(geometric, _hamming(x3)))
    reference.append(epsilon)
    return all_of(close(observed, reference, rtol=1e-10, atol=0.0,
                        detail="privlib's loss over all pairs against the largest d_mult over edges (II), by events"),
                  holds(sandwich, detail="the density sandwich (5) holds on every connected pair"))


thm_3_5.mutant("intervals.lipschitz_loss", "d_mult not divided by the distance")(
    _distances_replaced(lambda d: np.where(np.isfinite(d) & (d > 0), 1.0, d)))


thm_3_5.mutant("intervals.lipschitz_loss", "unconnected datasets constrained as if at distance 1 (eps times inf taken as finite)")(
    _distances_replaced(lambda d: np.where(np.isinf(d), 1.0, d)))


@claim("000/thm-3-5-metric", item="Theorem 3.5 without Assumption 3.3",
       statement="Without a graph metric, $\\varepsilon$-DP on neighbours does not give group privacy: with $d(a,b) = d(b,c) = 1$, $d(a,c) = 1.5$ and the truncated geometric mechanism centred at 0, 1, 2, statement II holds with $\\varepsilon$ but the privacy loss (I) is $4\\varepsilon/3$.",
       method="the loss over all pairs against $\\max d_{mult}/d$ by enumerating all events of every pair; the neighbours' loss by events")
def thm_3_5_metric(epsilon: float = 0.7) -> Evidence:
    P = _clamped_geometric(2, epsilon)
    dist = np.array([[0.0, 1.0, 1.5], [1.0, 0.0, 1.0], [1.5, 1.0, 0.0]])
    brute = max(_events_d_mult(P[a], P[b]) / dist[a, b] for a, b in itertools.combinations(range(3), 2))
    edges = max(_events_d_mult(P[a], P[b]) for a, b in ((0, 1), (1, 2)))
    loss = intervals.lipschitz_loss(P, dist)
    return all_of(close(loss, brute, rtol=1e-10, atol=0.0, detail="loss over all pairs against events"),
                  close([edges, brute], [epsilon, 4 * epsilon / 3], rtol=1e-10, atol=0.0,
                        detail="II holds at eps; I needs 4 eps / 3"))


thm_3_5_metric.mutant("intervals.lipschitz_loss", "d_mult divided by the squared distance")(_distances_replaced(lambda d: d**2))


thm_3_5_metric.mutant("intervals.lipschitz_loss", "only neighbours (distance 1) compared")(
    _distances_replaced(lambda d: np.where((d == 1) | (d == 0), d, np.inf)))


@claim("000/remark-3-8", item="Remark 3.8",
       statement="Indistinguishability needs $d_{mult}$: the uniform-noise mechanism $q(x) + \\mathrm{Unif}[-1, 1]$ with $q(x') = q(x) + 1$ is at total variation $1/2$, yet an output in $(q(x) + 1, q(x) + 2]$ rules $x$ out, so $d_{mult} = \\infty$ (no $\\varepsilon$ works), while the Laplace mechanism keeps $d_{mult}$ finite.",
       method="both mechanisms on 24 cells of width 1/4 (exact cell masses): $d_{mult}$ by enumerating every event of the 8 cells around the two query values, total variation by summation")
def remark_3_8() -> Evidence:
    edges = np.arange(-3.0, 3.01, 0.25)
    uni_x = np.clip(np.minimum(edges[1:], 1.0) - np.maximum(edges[:-1], -1.0), 0.0, None) / 2.0
    uni_y = np.clip(np.minimum(edges[1:], 2.0) - np.maximum(edges[:-1], 0.0), 0.0, None) / 2.0
    lap = stats.laplace(scale=1.0)
    lap_x, lap_y = np.diff(lap.cdf(edges)), np.diff(lap.cdf(edges - 1.0))
    window = slice(10, 18)                                          # cells (-0.5, 1.5]
    tv = 0.5 * np.abs(uni_x - uni_y).sum()
    return all_of(close(tv, 0.5, rtol=1e-12, detail="total variation of the uniform pair"),
                  close([intervals.multiplicative_distance(uni_x, uni_y), intervals.multiplicative_distance(lap_x[window], lap_y[window])],
                        [_events_d_mult(uni_x, uni_y), _events_d_mult(lap_x[window], lap_y[window])], rtol=1e-12,
                        detail="d_mult of the uniform pair (inf) and of the Laplace pair (finite) against events"))


remark_3_8.mutant("intervals.multiplicative_distance", "atoms charged by one measure only are ignored")(_d_mult_ignores_one_sided)


@claim("000/prop-e-21", item="Proposition E.21 (and Definition 3.2)",
       statement="$\\varepsilon = 0$ exactly when the mechanism depends on $x$ only through its connected component: on $\\{0,1\\}^2 \\cup \\{0,1\\}^3$ (Hamming, infinite between sizes) a mechanism with one law per size has loss 0, and moving one row makes the loss positive.",
       method="the loss over all pairs against $\\max d_{mult}/d$ over connected pairs by enumerating all $2^6$ events")
def prop_e_21(seed: int = 12) -> Evidence:
    rng = np.random.default_rng(seed)
    dist = np.full((12, 12), np.inf)
    dist[:4, :4], dist[4:, 4:] = _hamming(_cube(2)), _hamming(_cube(3))
    laws = rng.dirichlet(np.ones(6), size=2)
    P = np.vstack([np.repeat(laws[:1], 4, axis=0), np.repeat(laws[1:], 8, axis=0)])
    moved = P.copy()
    moved[5] = 0.8 * moved[5] + 0.2 * rng.dirichlet(np.ones(6))

    def brute(Q):
        return max(_events_d_mult(Q[a], Q[b]) / dist[a, b] for a, b in itertools.combinations(range(12), 2)
                   if np.isfinite(dist[a, b]))

    ref_moved = brute(moved)
    return all_of(close(intervals.lipschitz_loss(P, dist), 0.0, atol=1e-15, detail="one law per component: loss 0"),
                  close(intervals.lipschitz_loss(moved, dist), ref_moved, rtol=1e-10, detail="one row moved: loss against events"),
                  holds(bool(ref_moved > 0), detail="the moved mechanism is not 0-DP"))


prop_e_21.mutant("intervals.lipschitz_loss", "unconnected datasets constrained (their infinite distance read as 2)")(
    _distances_replaced(lambda d: np.where(np.isinf(d), 2.0, d)))


@claim("000/remark-4-3", item="Remark 4.3 (Proposition E.23)",
       statement="Publishing the connected component $C(x)$ alongside an $\\varepsilon$-DP release keeps the privacy loss at $\\varepsilon$ and makes the datasets that could have produced each output connected.",
       method="random mechanisms on $\\{0,1\\}^2 \\cup \\{0,1\\}^3$ (Hamming): the augmented mechanism $(M(x), C(x))$ as a matrix with one block of outputs per component; its loss by privlib against the original's by enumerating all events of every connected pair; the producers of every output checked to lie in one component")
def remark_4_3(seed: int = 13, trials: int = 3) -> Evidence:
    rng = np.random.default_rng(seed)
    dist = np.full((12, 12), np.inf)
    dist[:4, :4], dist[4:, 4:] = _hamming(_cube(2)), _hamming(_cube(3))
    component = np.r_[np.zeros(4, int), np.ones(8, int)]
    observed, reference, connected = [], [], True
    for _ in range(trials):
        P = rng.dirichlet(np.full(5, 3.0), size=12)
        augmented = np.zeros((12, 10))
        for x in range(12):
            augmented[x, 5 * component[x]:5 * component[x] + 5] = P[x]
        observed.append(intervals.lipschitz_loss(augmented, dist))
        reference.append(max(_events_d_mult(P[a], P[b]) / dist[a, b] for a, b in itertools.combinations(range(12), 2)
                             if np.isfinite(dist[a, b])))
        for t in range(10):
            producers = np.nonzero(augmented[:, t] > 0)[0]
            connected &= bool(np.isfinite(dist[np.ix_(producers, producers)]).all())
    return all_of(close(observed, reference, rtol=1e-10, detail="loss of (M, C(x)) against the loss of M, by events"),
                  holds(connected, detail="every output's producers lie in one component"))


remark_4_3.mutant("intervals.lipschitz_loss", "unconnected datasets compared as neighbours")(
    _distances_replaced(lambda d: np.where(np.isinf(d), 1.0, d)))


# ---------------------------------------------------------------------------------------------
# Section 4: the privatised data probability


@claim("000/thm-4-1", item="Theorem 4.1 (Example 4.4)",
       statement="For the Laplace-privatised sum of $n = 10$ binary records, every data model's output density lies between $\\ell(t) = e^{-\\varepsilon n} \\sup_x p_x(t)$ and $u(t) = e^{\\varepsilon n} \\inf_x p_x(t)$, and point-mass models touch both for $t \\le 0$.",
       method="the suprema by enumerating all $2^{10}$ datasets; exact output densities of 200 random data models (Dirichlet weights on all datasets, and binomial models) summed over datasets; the all-ones and all-zeros point masses")
def thm_4_1(n: int = 10, epsilon: float = 0.1, seed: int = 2) -> Evidence:
    rng = np.random.default_rng(seed)
    t = np.linspace(-2.0 * n, 3.0 * n, 251)
    counts = _cube(n).sum(axis=1)
    dens_q = stats.laplace(scale=1.0 / epsilon).pdf(t[None, :] - np.arange(n + 1)[:, None])   # p_q(t)
    dens_x = dens_q[counts]                                                                   # every dataset
    brute_lower, brute_upper = np.exp(-epsilon * n) * dens_x.max(axis=0), np.exp(epsilon * n) * dens_x.min(axis=0)
    lower, upper = intervals.laplace_sum_bounds(t, n, epsilon, "integer")
    gen_lower, gen_upper = intervals.density_bounds(dens_x, epsilon, n)
    ratios = []
    for k in range(200):
        if k % 2:
            p_theta = rng.dirichlet(np.full(2**n, 0.1)) @ dens_x
        else:
            p_theta = stats.binom.pmf(np.arange(n + 1), n, rng.uniform()) @ dens_q
        ratios += [(lower / p_theta).max(), (p_theta / upper).max()]
    left = t <= 0
    return all_of(close(np.r_[lower, upper, gen_lower, gen_upper], np.r_[brute_lower, brute_upper, brute_lower, brute_upper],
                        rtol=1e-12, detail="Example 4.4's closed form and the general bounds against the suprema over all datasets"),
                  at_most(ratios, 1.0 + 1e-12, atol=0.0, detail="largest ratio of a bound to a model's density, on the wrong side"),
                  close(np.r_[dens_q[n][left], dens_q[0][left]], np.r_[lower[left], upper[left]], rtol=1e-12,
                        detail="the all-ones and all-zeros models equal l and u for t <= 0"))


thm_4_1.mutant("intervals.laplace_sum_bounds", "diameter n - 1 in place of n")(_laplace_bounds_diameter_minus_one)


@thm_4_1.mutant("intervals.density_bounds", "sup and inf swapped")
def _(function):
    def wrong(densities, epsilon, diameter):
        d = np.asarray(densities, float)
        return np.exp(-epsilon * diameter) * d.min(axis=0), np.exp(epsilon * diameter) * d.max(axis=0)
    return wrong


@claim("000/eq-8", item="Examples 2.3 and 4.5, eq. (8) (Figure 3)",
       statement="Randomized response that keeps each bit with probability $e^\\varepsilon/(1+e^\\varepsilon)$ is $\\varepsilon$-DP with loss exactly $\\varepsilon\\, d_{Ham}$ between any two inputs (Example 2.3); under it every data model gives each output between $(1+e^\\varepsilon)^{-n}$ and $e^{\\varepsilon n}(1+e^\\varepsilon)^{-n}$, and both are attained (eq. (8)).",
       method="every event of every pair of inputs of randomized response on 3 bits enumerated; the minimum and maximum over all $2^n$ inputs of the output probability, by enumeration ($n = 8$), and at $n = 500$ against 50-digit arithmetic (mpmath)")
def eq_8(n: int = 8, epsilon: float = 1.0) -> Evidence:
    import mpmath

    rr = mechanisms.RandomizedResponse(epsilon, 2).matrix()
    x = _cube(n)
    probs = np.prod(rr[x, np.zeros(n, dtype=int)[None, :]], axis=1)
    low, high = intervals.randomized_response_bounds(n, epsilon)
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(epsilon))
        big = [float((1 + e) ** -500), float((e / (1 + e)) ** 500)]
    x3 = _cube(3)
    rr3 = _rr_product(3, epsilon)
    pair_loss = [_events_d_mult(rr3[a], rr3[b]) / _hamming(x3)[a, b] for a, b in itertools.combinations(range(8), 2)]
    return all_of(close([intervals.lipschitz_loss(rr3, _hamming(x3)), min(pair_loss), max(pair_loss)], epsilon, rtol=1e-10,
                        detail="Example 2.3: the loss of randomized response on 3 bits, and d_mult / d_Ham of every pair by events"),
                  close([probs.min(), probs.max()], [float(low), float(high)], rtol=1e-12, atol=0.0,
                        detail="extremes over all inputs (n = 8)"),
                  close(np.r_[intervals.randomized_response_bounds(500, epsilon)], big, rtol=1e-12,
                        detail="n = 500 (a lower bound near 1e-286) against 50-digit arithmetic"))


@eq_8.mutant("intervals.randomized_response_bounds", "upper bound e^{eps n}(1 + e^eps)^{-n} with e^{-eps} in the normaliser")
def _(function):
    return lambda n, epsilon: (function(n, epsilon)[0], np.exp(epsilon * np.asarray(n, float)) * (1 + np.exp(-epsilon)) ** -np.asarray(n, float))


@eq_8.mutant("intervals.randomized_response_bounds", "exponent n - 1")
def _(function):
    return lambda n, epsilon: function(np.asarray(n, float) - 1, epsilon)


@claim("000/e-25-e-29", item="Propositions E.25 and E.29 (eqs. (6), (15))",
       statement="The privatised data probability $p_\\theta(t) = \\int p_x(t)\\, P_\\theta(dx)$ is the law of simulating $X \\sim P_\\theta$ and then the mechanism; likewise the data-provision law $P(M = t \\mid s, \\theta)$ of an attacker conditioned on a secret.",
       method="Monte Carlo with $2 \\times 10^5$ draws: bin frequencies of the Laplace-privatised binomial sum against privlib's density integrated over each bin (adaptive quadrature), and output frequencies of a finite mechanism under a conditioned attacker; every cell within the two-sided binomial z-limit of family-wise level $10^{-6}$")
def e_25_e_29(seed: int = 14, draws: int = 200_000, n: int = 8, epsilon: float = 0.5) -> Evidence:
    rng = np.random.default_rng(seed)
    weights = stats.binom.pmf(np.arange(n + 1), n, 0.3)
    sums = rng.binomial(n, 0.3, draws) + rng.laplace(0.0, 1.0 / epsilon, draws)
    edges = np.r_[-np.inf, np.linspace(-6.0, n + 6.0, 19), np.inf]
    freq = np.histogram(sums, edges)[0] / draws
    density = lambda t: float(intervals.laplace_sum_marginal(t, weights, epsilon))  # noqa: E731
    prob = np.array([integrate.quad(density, a, b, points=list(np.arange(n + 1)[(np.arange(n + 1) > a) & (np.arange(n + 1) < b)]) or None,
                                    limit=200)[0] for a, b in zip(edges[:-1], edges[1:])])
    # a finite mechanism and an attacker conditioned on the secret {x_1 = 1}
    data = _cube(3)
    P = rng.dirichlet(np.ones(5), size=8)
    prior = rng.dirichlet(np.ones(8))
    secret = data[:, 0] == 1
    cond = prior * secret / (prior * secret).sum()
    xs = rng.choice(8, size=draws, p=cond)
    ts = (rng.random(draws)[:, None] > np.cumsum(P[xs], axis=1)).sum(axis=1)
    freq2 = np.bincount(ts, minlength=5) / draws
    law = pufferfish.conditional_output_laws(P, prior, secret)
    cells = prob.size + law.size
    z = stats.norm.isf(1e-6 / (2 * cells))                     # Bonferroni: family-wise 1e-6
    obs = np.r_[freq, freq2]
    ref = np.r_[prob, law]
    se = np.sqrt(ref * (1 - ref) / draws)
    return at_most(np.abs(obs - ref) / np.maximum(se, 1e-300), z, atol=0.0,
                   detail=f"largest |frequency - probability| in standard errors over {cells} cells, against the z-limit")


@e_25_e_29.mutant("intervals.laplace_sum_marginal", "noise scale eps in place of 1/eps")
def _(function):
    return lambda t, weights, epsilon, **k: function(t, weights, 1.0 / epsilon, **k)


@e_25_e_29.mutant("intervals.laplace_sum_marginal", "weights read from the other end (count n - k)")
def _(function):
    return lambda t, weights, epsilon, **k: function(t, np.asarray(weights)[::-1], epsilon, **k)


@e_25_e_29.mutant("pufferfish.conditional_output_laws", "the attacker not conditioned on the secret")
def _(function):
    return lambda P, prior, secret: np.asarray(prior, float) @ np.asarray(P, float)


# ---------------------------------------------------------------------------------------------
# Section 5: frequentist limits


@reference
def _lp_power(null: np.ndarray, alt: np.ndarray, alpha: float, minimize: bool) -> float:
    """Most (or least) powerful randomized test of size exactly alpha, by linear programming."""
    sign = 1.0 if minimize else -1.0
    res = optimize.linprog(sign * alt, A_eq=null[None, :], b_eq=[alpha], bounds=(0, 1), method="highs")
    return float(sign * res.fun)


def _testing_instances(rng: np.random.Generator, n: int, eps: float, models: int):
    """Output laws of pairs of hypotheses under randomized response on n bits: point masses at
    distance d = 1..n from all-zeros, and random data models on random sets of datasets, each with
    the diameter d of the datasets the two hypotheses charge."""
    P = _rr_product(n, eps)
    x = _cube(n)
    dist = _hamming(x)
    out = [(P[0], P[2**d - 1], d, True) for d in range(1, n + 1)]       # 0^n against 0..01..1 (d ones)
    for _ in range(models):
        support = rng.choice(2**n, size=rng.integers(2, 5), replace=False)
        cut = rng.integers(1, support.size)
        w0 = np.zeros(2**n)
        w1 = np.zeros(2**n)
        w0[support[:cut]] = rng.dirichlet(np.ones(cut))
        w1[support[cut:]] = rng.dirichlet(np.ones(support.size - cut))
        out.append((w0 @ P, w1 @ P, float(dist[np.ix_(support, support)].max()), False))
    return out


@claim("000/thm-5-1", item="Theorem 5.1",
       statement="Every level-$\\alpha$ test on an $\\varepsilon$-DP release has power at most $\\alpha e^{\\varepsilon d}$, and every size-$\\alpha$ test at least $\\alpha e^{-\\varepsilon d}$ (Corollary 5.3), $d$ the diameter of the datasets the hypotheses charge; for point-mass hypotheses at distance $d$ and small $\\alpha$ both are attained.",
       method="randomized response on 3 bits (Hamming, $d$ = 1, 2, 3): the most and least powerful randomized tests by linear programming (scipy HiGHS) for point-mass hypotheses and 20 random pairs of data models, on a grid of $\\alpha$; privlib's Neyman-Pearson powers and randomized tests (their size and power) against the same programs")
def thm_5_1(seed: int = 3, epsilon: float = 0.8) -> Evidence:
    rng = np.random.default_rng(seed)
    most, least, high, low, np_ours, np_lp, attained, bound_at, sizes = [], [], [], [], [], [], [], [], []
    for null, alt, d, point in _testing_instances(rng, 3, epsilon, 20):
        for alpha in (0.01, 0.05, 0.2, 0.5, 0.8):
            best, worst = _lp_power(null, alt, alpha, False), _lp_power(null, alt, alpha, True)
            lo, hi = intervals.power_bounds(alpha, epsilon, d)
            most.append(best)
            high.append(float(hi))
            least.append(worst)
            low.append(float(lo))
            tests = [intervals.neyman_pearson_test(null, alt, alpha), intervals.neyman_pearson_test(null, alt, alpha, minimize=True)]
            np_ours += [float(intervals.neyman_pearson_power(null, alt, alpha)),
                        float(intervals.neyman_pearson_power(null, alt, alpha, minimize=True)),
                        float(alt @ tests[0]), float(alt @ tests[1])]
            np_lp += [best, worst, best, worst]
            sizes += [float(null @ tests[0]), float(null @ tests[1])]
        if point:                                    # alpha below the mass of the most telling output
            alpha = 0.5 * float(null[2**d - 1])
            attained += [_lp_power(null, alt, alpha, False), _lp_power(null, alt, alpha, True)]
            bound_at += [float(b) for b in intervals.power_bounds(alpha, epsilon, d)[::-1]]
    return all_of(close(np_ours, np_lp, atol=1e-9,
                        detail="Neyman-Pearson powers and the powers of the returned tests (most and least) against the linear programs"),
                  close(sizes, np.repeat([0.01, 0.05, 0.2, 0.5, 0.8], 2).tolist() * (len(sizes) // 10), atol=1e-12,
                        detail="the returned randomized tests have size exactly alpha"),
                  at_most(most, high, atol=1e-9, detail="most powerful level-alpha test against alpha e^{eps d}"),
                  at_most(low, least, atol=1e-9, detail="alpha e^{-eps d} against the least powerful size-alpha test"),
                  close(attained, bound_at, rtol=1e-7, detail="point masses at distance d attain both bounds at small alpha"))


thm_5_1.mutant("intervals.power_bounds", "the diameter d dropped (e^{eps} in place of e^{eps d})")(_scaled_diameter(1.0, fixed=1.0))


thm_5_1.mutant("intervals.power_bounds", "e^{2 eps d} (the chained bound) in place of e^{eps d}")(_scaled_diameter(2.0))


@thm_5_1.mutant("intervals.neyman_pearson_test", "the boundary output not randomized (rejected only where the whole output fits)")
def _(function):
    return lambda null, alt, alpha, *, minimize=False: np.floor(function(null, alt, alpha, minimize=minimize))


@thm_5_1.mutant("intervals.neyman_pearson_power", "least power taken as one minus the most power at the same alpha")
def _(function):
    return lambda null, alt, alpha, minimize=False: (1.0 - function(null, alt, alpha)) if minimize else function(null, alt, alpha)


@reference
def _laplace_np_by_quadrature(alpha: float, eps: float, shift: float, minimize: bool) -> float:
    """The Neyman-Pearson power of Lap(0, 1/eps) against Lap(shift, 1/eps): the threshold c with
    P0(reject) = alpha by root finding on scipy's Laplace distribution function, then the power
    by adaptive quadrature of the alternative's density over the rejection region."""
    null = stats.laplace(scale=1.0 / eps)
    p1 = stats.laplace(loc=shift, scale=1.0 / eps).pdf
    size = (lambda c: null.cdf(c) - alpha) if minimize else (lambda c: null.sf(c) - alpha)
    c = optimize.brentq(size, -60.0 / eps, 60.0 / eps + shift, xtol=1e-14, rtol=1e-14)
    pieces = ([-np.inf] + ([shift] if shift < c else []) + [c]) if minimize else ([c] + ([shift] if shift > c else []) + [np.inf])
    return sum(integrate.quad(p1, a, b, epsabs=1e-14, epsrel=1e-12, limit=200)[0] for a, b in zip(pieces[:-1], pieces[1:]))


@claim("000/cor-5-3", item="Corollary 5.3 (eq. (10)) and the sharp testing region",
       statement="Applying Theorem 5.1 to $1 - \\varphi$ as well, a size-$\\alpha$ test has power in $[\\max(\\alpha e^{-\\varepsilon d}, 1 - e^{\\varepsilon d}(1-\\alpha)),\\ \\min(\\alpha e^{\\varepsilon d}, 1 - e^{-\\varepsilon d}(1-\\alpha))]$; binary randomized response attains the whole boundary; the Laplace mechanism's most powerful test attains $\\alpha e^{\\varepsilon d}$ for $\\alpha \\le e^{-\\varepsilon d}/2$ and the complementary line for $\\alpha \\ge 1/2$, its least powerful test $\\alpha e^{-\\varepsilon d}$ for $\\alpha \\le 1/2$.",
       method="linear programs over randomized tests (scipy HiGHS) for randomized response on 3 bits with point-mass and random data models, and on one bit; the Laplace tests by quadrature of the alternative over the rejection region, its threshold found by root finding on scipy's Laplace distribution function (quad, brentq); privlib's grid version for continuous outputs against the closed form")
def cor_5_3(seed: int = 15, epsilon: float = 0.8, shift: float = 3.0) -> Evidence:
    rng = np.random.default_rng(seed)
    alphas = np.array([0.01, 0.05, 0.2, 0.5, 0.8, 0.95])
    most, least, high, low = [], [], [], []
    for null, alt, d, _ in _testing_instances(rng, 3, epsilon, 10):
        lo, hi = intervals.power_bounds(alphas, epsilon, d, sharp=True)
        most += [_lp_power(null, alt, a, False) for a in alphas]
        least += [_lp_power(null, alt, a, True) for a in alphas]
        high += list(hi)
        low += list(lo)
    rr = _rr_product(1, epsilon)
    lo, hi = intervals.power_bounds(alphas, epsilon, 1.0, sharp=True)
    rr_powers = [_lp_power(rr[0], rr[1], a, False) for a in alphas] + [_lp_power(rr[0], rr[1], a, True) for a in alphas]
    r = epsilon * shift
    lap_alphas = np.array([0.15, 0.5, 0.75]) * np.exp(-r)
    lap_alphas = np.r_[lap_alphas, 0.3, 0.5, 0.7, 1.0 - 0.4 * np.exp(-r)]
    quad_most = [_laplace_np_by_quadrature(a, epsilon, shift, False) for a in lap_alphas]
    quad_least = [_laplace_np_by_quadrature(a, epsilon, shift, True) for a in lap_alphas]
    ours_most = intervals.laplace_power(lap_alphas, epsilon, shift)
    ours_least = intervals.laplace_power(lap_alphas, epsilon, shift, minimize=True)
    s_lo, s_hi = intervals.power_bounds(lap_alphas, epsilon, shift, sharp=True)
    most_on = (lap_alphas <= 0.5 * np.exp(-r)) | (lap_alphas >= 0.5)          # where Section 9 puts them on a line
    least_on = (lap_alphas <= 0.5) | (1.0 - lap_alphas <= 0.5 * np.exp(-r))
    on_line = np.r_[ours_most[most_on], ours_least[least_on]]
    line = np.r_[s_hi[most_on], s_lo[least_on]]
    # an uneven grid of outputs, finer between the two centres
    grid = np.unique(np.r_[np.linspace(-18.0 / epsilon, -2.0, 3001), np.linspace(-2.0, shift + 2.0, 30001),
                           np.linspace(shift + 2.0, shift + 18.0 / epsilon, 3001)])
    lap0, lap1 = stats.laplace(scale=1 / epsilon).pdf(grid), stats.laplace(loc=shift, scale=1 / epsilon).pdf(grid)
    on_grid = np.r_[intervals.density_power(grid, lap0, lap1, lap_alphas), intervals.density_power(grid, lap0, lap1, lap_alphas, minimize=True)]
    return all_of(at_most(most, high, atol=1e-9, detail="most powerful tests inside the sharp region (3-bit randomized response)"),
                  at_most(low, least, atol=1e-9, detail="least powerful tests inside the sharp region"),
                  close(rr_powers, np.r_[hi, lo], atol=1e-9, detail="binary randomized response attains the boundary"),
                  close(np.r_[ours_most, ours_least], np.r_[quad_most, quad_least], rtol=1e-8, atol=1e-12,
                        detail="Laplace Neyman-Pearson powers against quadrature"),
                  close(on_line, line, rtol=1e-12, detail="the Laplace tests on the region's lines (Section 9)"),
                  close(on_grid, np.r_[quad_most, quad_least], atol=2e-6, detail="the grid version for continuous outputs against quadrature"))


@cor_5_3.mutant("intervals.power_bounds", "complementary lower line 1 - e^{-eps d}(1 - alpha)")
def _(function):
    def wrong(alpha, epsilon, diameter, sharp=False):
        lo, hi = function(alpha, epsilon, diameter, False)
        if sharp:
            a = np.asarray(alpha, float)
            lo = np.maximum(lo, 1 - np.exp(-epsilon * diameter) * (1 - a))
            hi = np.minimum(hi, 1 - np.exp(-epsilon * diameter) * (1 - a))
        return lo, hi
    return wrong


@cor_5_3.mutant("intervals.laplace_power", "paper's line kept up to alpha = e^{-r} instead of e^{-r}/2")
def _(function):
    def wrong(alpha, epsilon, shift=1.0, sensitivity=1.0, *, minimize=False):
        a = np.asarray(alpha, float)
        r = epsilon * shift / sensitivity
        out = function(alpha, epsilon, shift, sensitivity, minimize=minimize)
        return out if minimize else np.where(a <= np.exp(-r), np.minimum(a * np.exp(r), 1.0), out)
    return wrong


@cor_5_3.mutant("intervals.laplace_power", "least powerful test as alpha e^{-r} for every alpha")
def _(function):
    def wrong(alpha, epsilon, shift=1.0, sensitivity=1.0, *, minimize=False):
        if minimize:
            return np.asarray(alpha, float) * np.exp(-epsilon * shift / sensitivity)
        return function(alpha, epsilon, shift, sensitivity)
    return wrong


@cor_5_3.mutant("intervals.density_power", "density values used as cell masses (the cell widths dropped)")
def _(function):
    def wrong(t, null, alt, alpha, *, minimize=False):
        null, alt = np.asarray(null, float)[:-1], np.asarray(alt, float)[:-1]
        return intervals.neyman_pearson_power(null / null.sum(), alt / alt.sum(), alpha, minimize=minimize)
    return wrong


@cor_5_3.mutant("intervals.density_power", "the minimize flag ignored (most powerful test returned)")
def _(function):
    return lambda t, null, alt, alpha, *, minimize=False: function(t, null, alt, alpha)


# ---------------------------------------------------------------------------------------------
# Section 6: Bayesian limits


@claim("000/thm-6-4", item="Theorem 6.4",
       statement="Every posterior lies within $e^{-\\varepsilon d}$ and $e^{\\varepsilon d}$ times the prior, whatever the data models and the prior; the upper factor is approached as the prior mass of a point-mass model goes to 0.",
       method="Bayes' rule on 300 random finite models: random $\\varepsilon$-DP channels on $\\{0,1\\}^2$ (Hamming, $d = 2$; $\\varepsilon$ the largest $d_{mult}$ over edges, by events), random data models over the 4 datasets and random priors over 5 parameter values; and randomized response with point-mass models at distance 2 and prior mass $10^{-12}$")
def thm_6_4(seed: int = 4, epsilon: float = 0.5) -> Evidence:
    rng = np.random.default_rng(seed)
    x = _cube(2)
    edges = [(a, b) for a in range(4) for b in range(a + 1, 4) if _hamming(x)[a, b] == 1]
    post_all, low_all, high_all = [], [], []
    for _ in range(300):
        base = rng.dirichlet(np.ones(5))
        channel = base * np.exp(rng.uniform(-epsilon / 2, epsilon / 2, (4, 5)))
        channel /= channel.sum(axis=1, keepdims=True)
        eps = max(_events_d_mult(channel[a], channel[b]) for a, b in edges)
        models = rng.dirichlet(np.ones(4), size=5)         # P_theta over the 4 datasets
        prior = rng.dirichlet(np.ones(5))
        p_t = models @ channel                             # p_theta(t) for every output
        post = prior[:, None] * p_t / (prior @ p_t)[None, :]
        lo, hi = intervals.posterior_bounds(prior, eps, 2.0)
        post_all += list(post.ravel())
        low_all += list(np.repeat(lo, 5))
        high_all += list(np.repeat(hi, 5))
    rr = _rr_product(2, epsilon)
    pi0 = 1e-12
    ratio = rr[0, 0] / (pi0 * rr[0, 0] + (1 - pi0) * rr[3, 0])        # pi(0 | t = 00) / pi(0)
    tight = float(intervals.posterior_bounds(pi0, epsilon, 2.0)[1]) / pi0
    return all_of(at_most(post_all, high_all, atol=1e-15, detail="posteriors against e^{eps d} times the prior"),
                  at_most(low_all, post_all, atol=1e-15, detail="e^{-eps d} times the prior against posteriors"),
                  close(tight, ratio, rtol=1e-9, detail="the bound's factor against the posterior/prior ratio at prior mass 1e-12"))


thm_6_4.mutant("intervals.posterior_bounds", "radius eps d / 2")(_scaled_diameter(0.5))


thm_6_4.mutant("intervals.posterior_bounds", "radius 2 eps d (Lemma F.7 chained twice)")(_scaled_diameter(2.0))


@claim("000/thm-6-2", item="Theorem 6.2",
       statement="Whatever the prior and the data model, the prior-predictive density of the Laplace-privatised sum of $n$ binary records lies between $\\ell(t) = e^{-\\varepsilon n} \\sup_x p_x(t)$ and $u(t) = e^{\\varepsilon n} \\inf_x p_x(t)$; a point-mass prior on the all-ones model touches $\\ell$.",
       method="Beta(a, b) priors on iid Bernoulli records, the prior predictive of the count by adaptive quadrature over $\\theta$ (not the beta-binomial closed form); 100 random finite priors over random data models, summed over all $2^n$ datasets; and the point-mass prior")
def thm_6_2(n: int = 6, epsilon: float = 0.25, seed: int = 5) -> Evidence:
    rng = np.random.default_rng(seed)
    t = np.linspace(-2.0 * n, 3.0 * n, 181)
    dens_q = stats.laplace(scale=1.0 / epsilon).pdf(t[None, :] - np.arange(n + 1)[:, None])
    lower, upper = intervals.laplace_sum_bounds(t, n, epsilon, "integer")
    predictive, masses = [], []
    for a, b in ((0.5, 0.5), (1.0, 1.0), (3.0, 0.7), (20.0, 2.0)):
        w = np.array([integrate.quad(lambda th, k=k: stats.binom.pmf(k, n, th) * stats.beta.pdf(th, a, b), 0.0, 1.0,
                                     points=[0.5], limit=200)[0] for k in range(n + 1)])
        masses.append(w.sum())
        predictive.append(w @ dens_q)
    dens_x = dens_q[_cube(n).sum(axis=1)]
    for _ in range(100):
        models = rng.dirichlet(np.full(2**n, 0.2), size=4)      # P_theta over the datasets
        prior = rng.dirichlet(np.ones(4))
        predictive.append(prior @ models @ dens_x)
    predictive.append(dens_q[n])                                 # point-mass prior on the all-ones model
    predictive = np.array(predictive)
    left = t <= 0
    return all_of(close(masses, 1.0, atol=1e-9, detail="the quadrature weights of the count sum to 1"),
                  at_most(np.r_[(lower / predictive).max(axis=1), (predictive / upper).max(axis=1)], 1.0 + 1e-12, atol=0.0,
                          detail="largest ratio of a bound to a prior predictive density, on the wrong side"),
                  close(predictive[-1][left], lower[left], rtol=1e-12, detail="the point-mass prior equals l for t <= 0"))


thm_6_2.mutant("intervals.laplace_sum_bounds", "diameter n - 1 in place of n")(_laplace_bounds_diameter_minus_one)


@thm_6_2.mutant("intervals.laplace_sum_bounds", "lower bound e^{-2 eps n} sup_x p_x")
def _(function):
    def wrong(t, n, epsilon, q_support="interval"):
        lo, hi = function(t, n, epsilon, q_support)
        return lo * np.exp(-epsilon * n), hi
    return wrong


@claim("000/remark-6-6", item="Remark 6.6", kind="illustrated",
       statement="Without a bounded density ratio there is no prior-to-posterior bound: under the Gaussian mechanism ($\\sigma = 1$) with point-mass models at $q = 0$ and $q = 1$ the posterior odds move by $e^{(2t - 1)/(2\\sigma^2)}$, unbounded in $t$, while under the Laplace mechanism they stay within $e^{\\pm\\varepsilon}$.",
       method="log-density ratios of privlib's Gaussian and Laplace mechanisms at outputs up to $t = 40$ against the closed forms",
       checks=("mechanisms.GaussianMechanism.logpdf", "mechanisms.LaplaceMechanism.logpdf"))
def remark_6_6(sigma: float = 1.0, epsilon: float = 1.0) -> Evidence:
    t = np.array([0.0, 2.0, 5.0, 10.0, 20.0, 40.0])
    gauss = mechanisms.GaussianMechanism(sigma)
    lap = mechanisms.LaplaceMechanism(epsilon)
    g = gauss.logpdf(t, 1.0) - gauss.logpdf(t, 0.0)
    lp = lap.logpdf(t, 1.0) - lap.logpdf(t, 0.0)
    return all_of(close(g, (2 * t - 1) / (2 * sigma**2), rtol=1e-12, atol=1e-12, detail="Gaussian log odds ratio grows linearly in t"),
                  at_most(np.abs(lp), epsilon, atol=1e-12, detail="Laplace log odds ratio stays within eps"))


@claim("000/ex-6-7", item="Example 6.7 (Figure 4)",
       statement="For a Laplace-privatised clamped Poisson count with a Gamma(3, 1) prior (one record, $d = 1$) every posterior stays within $e^{\\pm \\varepsilon}$ of the prior; privlib's prior predictive $m(t)$, posterior, posterior mean and range of the posterior/prior ratio are exact (at $\\varepsilon = 1$ also against the reproduction spec's $m(2)$ and $\\pi(3 \\mid t = 2)$).",
       method="the unnormalised posterior built with scipy (Gamma prior, Poisson masses, Laplace density), normalised by Simpson's rule over $\\theta \\in [0, 60]$ (24001 points), on 29 releases $t \\in [-30, 40]$: the normaliser against $m(t)$, the posterior and its mean against the quadrature, the ratio's range against its extremes on the $\\theta$ grid",
       checks=("intervals.clamped_count_posterior",))
def ex_6_7(epsilon: float = 1.0) -> Evidence:
    theta = np.linspace(1e-9, 60.0, 24001)
    prior = stats.gamma.pdf(theta, 3.0)
    values = np.arange(7)
    pois = stats.poisson.pmf(values[:, None], theta[None, :])
    pois[-1] = stats.poisson.sf(5, theta)
    releases = np.linspace(-30.0, 40.0, 29)
    z_all, m_all, mean_q, mean_ours, post_q, post_ours, rng_q, rng_ours = [], [], [], [], [], [], [], []
    inside = theta < 40.0
    for t in releases:
        lik = stats.laplace(scale=6.0 / epsilon).pdf(t - values) @ pois
        unnorm = prior * lik
        z = integrate.simpson(unnorm, x=theta)
        z_all.append(z)
        post = unnorm / z
        mean_q.append(integrate.simpson(theta * post, x=theta))
        post_q += list(post[::400])
        post_ours += list(intervals.clamped_count_posterior(theta[::400], t, epsilon=epsilon))
        ratio = lik[inside] / z
        rng_q += [ratio.min(), ratio.max()]
    m_all = list(intervals.clamped_count_predictive(releases, epsilon=epsilon))
    mean_ours = list(intervals.clamped_count_posterior_mean(releases, epsilon=epsilon))
    lo, hi = intervals.clamped_count_ratio_range(releases, epsilon=epsilon)
    rng_ours = list(np.c_[lo, hi].ravel())
    return all_of(close(m_all, z_all, rtol=1e-9, detail="m(t) against Simpson's normaliser"),
                  close(post_ours, post_q, rtol=1e-8, atol=1e-12, detail="posterior densities against the normalised quadrature posterior"),
                  close(mean_ours, mean_q, rtol=1e-8, detail="posterior means against Simpson's rule"),
                  close(rng_ours, rng_q, rtol=1e-6, detail="range of the posterior/prior ratio against the theta grid"),
                  at_most(np.r_[hi, 1.0 / lo], np.exp(epsilon), atol=0.0, detail="the ratio within e^{+-eps d}, d = 1"),
                  *([close([float(intervals.clamped_count_predictive(2.0, epsilon=epsilon)),
                            float(intervals.clamped_count_posterior([3.0], 2.0, epsilon=epsilon)[0])],
                           [0.0646644, 0.231103], atol=5e-7, rtol=0.0,
                           detail="m(2) and pi(3 | t = 2) against the reproduction spec's values (at eps = 1)")]
                    if epsilon == 1.0 else []))


@ex_6_7.mutant("intervals.clamped_count_predictive", "no clamping at the top (every x >= high dropped)")
def _(function):
    def wrong(t, shape=3.0, rate=1.0, epsilon=1.0, low=0, high=6, *, log=False):
        lap = stats.laplace(scale=(high - low) / epsilon)
        values = np.arange(low, high + 1)
        w = stats.nbinom.pmf(values, shape, rate / (1 + rate))
        m = (w[:, None] * lap.pdf(np.atleast_1d(t)[None, :] - values[:, None])).sum(axis=0).reshape(np.shape(t))
        return np.log(m) if log else m
    return wrong


@ex_6_7.mutant("intervals.clamped_count_posterior_mean", "posterior Gamma rate 'rate' in place of 'rate + 1'")
def _(function):
    return lambda t, shape=3.0, rate=1.0, epsilon=1.0, low=0, high=6: function(t, shape, rate, epsilon, low, high) * (rate + 1.0) / rate


@ex_6_7.mutant("intervals.clamped_count_ratio_range", "only the limits theta -> 0 and theta -> inf (interior extrema missed)")
def _(function):
    def wrong(t, shape=3.0, rate=1.0, epsilon=1.0, low=0, high=6):
        t = np.asarray(t, float)
        lap = stats.laplace(scale=(high - low) / epsilon)
        m = intervals.clamped_count_predictive(t, shape, rate, epsilon, low, high)
        a, b = lap.pdf(t - low) / m, lap.pdf(t - high) / m
        return np.minimum(a, b), np.maximum(a, b)
    return wrong


@ex_6_7.mutant("mechanisms.LaplaceMechanism.logpdf", "noise scale 1/eps in place of (high - low)/eps")
def _(function):
    return lambda self, y, value=0.0: function(mechanisms.LaplaceMechanism(self.epsilon), y, value)


# ---------------------------------------------------------------------------------------------
# Sections 7-8: Pufferfish privacy on finite instances


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
       method="random mechanisms on {0,1}^2 with correlated and product attackers: conditional output laws summed dataset by dataset, every one of the 2^5 events enumerated for II; d_Puff by shortest paths on the graph of conditionals, every connected pair checked for III and IV",
       checks=("pufferfish.lipschitz_constant",))
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
    return all_of(close(formula, brute, rtol=1e-10, atol=0.0,
                        detail="I (atoms), II (events) and III (Lipschitz over d_Puff) against II by enumeration"),
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


def _fraction_channel(rng: np.random.Generator, rows: int, cols: int) -> list[list[Fraction]]:
    out = []
    for _ in range(rows):
        w = rng.integers(1, 10, cols)
        out.append([Fraction(int(k), int(w.sum())) for k in w])
    return out


@claim("000/thm-8-5", item="Theorem 8.5 and eq. (17)",
       statement="An attacker's posterior odds of two secrets given the output, divided by the prior odds, is the likelihood ratio (17); and $\\varepsilon$-Pufferfish($\\{\\theta\\}$, all pairs of cells of a partition) holds exactly when $d_R(\\pi_\\theta, \\pi_\\theta(\\cdot \\mid t)) \\le \\varepsilon$ for every output (19).",
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




# ---------------------------------------------------------------------------------------------
# Section 9: the bounds are attained


@claim("000/sec9-tightness", item="Section 9 (Theorems 4.1, 5.1, 6.2, 6.4, 8.5, 8.7 are tight)",
       statement="For the Laplace-privatised count of $n$ binary records ($d = n$) the bounds are attained: point-mass models give $p_\\theta = \\ell$ and $p_\\theta = u$ for $t \\le 0$ (Theorems 4.1, 6.2); the Neyman-Pearson test of all-zeros against all-ones has power $\\alpha e^{\\varepsilon n}$ for $\\alpha \\le e^{-\\varepsilon n}/2$ (5.1); the posterior/prior ratio tends to $e^{\\varepsilon n}$ (6.4); for the Remark 8.6 attacker $d_R(\\text{prior}, \\text{posterior}) = \\varepsilon$ for $t \\ge 1$ and the test of the secret has power $\\alpha e^{\\varepsilon}$ (8.5, 8.7).",
       method="the constructions evaluated directly: output densities of the point-mass models, prior-predictive mixtures, Laplace tail probabilities (scipy.stats.laplace) for the Neyman-Pearson tests (and privlib's closed-form Laplace power against them), Bayes' rule on the Laplace likelihoods")
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
    small = np.array([0.1, 0.4, 1.0]) * 0.5 * np.exp(-epsilon * n)      # the levels where it is attained
    for alpha in small:
        c = lap.isf(alpha)
        observed.append(float(lap.sf(c - n)))
        reference.append(float(intervals.power_bounds(alpha, epsilon, n)[1]))
    # Theorem 6.4: Theta = {0, 1}, P_0 = all-zeros, P_1 = all-ones, prior pi(0) -> 0, t <= 0
    for t0 in (-1.0, -5.0):
        pi0 = 1e-10 * np.exp(-epsilon * n)
        post0 = pi0 * lap.pdf(t0) / (pi0 * lap.pdf(t0) + (1 - pi0) * lap.pdf(t0 - n))
        observed.append(post0 / pi0)
        reference.append(float(intervals.posterior_bounds(1.0, epsilon, n)[1]))
    # Theorems 8.5 and 8.7: X_1 ~ Bernoulli(0.3), the other records fixed at 0; secret {X_1 = 1}
    prior_cells = np.array([0.7, 0.3])
    for t0 in (1.0, 2.5, 10.0):
        joint = prior_cells * np.array([lap.pdf(t0), lap.pdf(t0 - 1.0)])
        observed.append(float(pufferfish.density_ratio_metric(prior_cells, joint / joint.sum())))
        reference.append(epsilon)
    for alpha in np.array([0.1, 0.4, 1.0]) * 0.5 * np.exp(-epsilon):
        c = lap.isf(alpha)
        observed.append(float(lap.sf(c - 1.0)))
        reference.append(float(pufferfish.pufferfish_power_bounds(alpha, epsilon)[1]))
    alphas = np.r_[small, 0.3, 0.7]
    return all_of(close(observed, reference, rtol=1e-7, atol=0.0,
                        detail="each construction against the bound it attains (tests at levels up to e^{-eps n}/2; "
                               "the posterior ratio at prior mass 1e-10 e^{-eps n})"),
                  close(intervals.laplace_power(alphas, epsilon, n), [float(lap.sf(lap.isf(a) - n)) for a in alphas], rtol=1e-10,
                        detail="privlib's Laplace Neyman-Pearson power against scipy's Laplace tails"))


sec9_tightness.mutant("intervals.laplace_sum_bounds", "diameter n - 1 in place of n")(_laplace_bounds_diameter_minus_one)


sec9_tightness.mutant("intervals.power_bounds", "the diameter d dropped (e^{eps} in place of e^{eps d})")(_scaled_diameter(1.0, fixed=1.0))


sec9_tightness.mutant("intervals.posterior_bounds", "radius 2 eps d (Lemma F.7 chained twice)")(_scaled_diameter(2.0))


sec9_tightness.mutant("pufferfish.density_ratio_metric", "largest |log ratio| (d_mult) in place of its spread")(_d_r_as_d_mult)


@sec9_tightness.mutant("intervals.laplace_power", "r = eps / shift (scale for rate)")
def _(function):
    return lambda alpha, epsilon, shift=1.0, sensitivity=1.0, *, minimize=False: function(alpha, epsilon, 1.0 / shift, sensitivity, minimize=minimize)


# ---------------------------------------------------------------------------------------------
# Appendices C and E: the two metrics


@reference
def _exact_event_ratios(p: list[Fraction], q: list[Fraction]) -> tuple[Fraction, Fraction]:
    """Exact e^{d_mult} (largest P(S)/Q(S) or Q(S)/P(S) over events) and e^{d_R} (largest
    P(S)Q(S')/(P(S')Q(S)) over pairs of events, Proposition E.11) for full-support measures."""
    events = [m for m in itertools.product([0, 1], repeat=len(p)) if any(m)]
    mass_p = [sum(x for x, b in zip(p, m) if b) for m in events]
    mass_q = [sum(x for x, b in zip(q, m) if b) for m in events]
    ratios = [a / b for a, b in zip(mass_p, mass_q)]
    return max(max(ratios), max(1 / r for r in ratios)), max(r / s for r in ratios for s in ratios)


@claim("000/appendix-metrics", item="Lemmas C.3, C.5; Propositions C.7, E.11, E.17",
       statement="$d_{mult}$ and $d_R$ satisfy the triangle inequality; $d_R$ is the sup over pairs of events (E.11); for probabilities $d_{mult} \\le d_R \\le 2 d_{mult}$ (E.17), e.g. $P = (0.6, 0.3, 0.1)$, $Q = (0.3, 0.3, 0.4)$ has $d_{mult} = \\ln 4$, $d_R = \\ln 8$, and $P = (0.5, 0.3, 0.2)$ against its reverse attains $d_R = 2 d_{mult}$; for measures $d_R$ is scale-invariant, so the lower inequality fails.",
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
    tri = at_most(triangle_lhs, triangle_rhs, atol=1e-12, detail="triangle inequality of d_mult (measures) and d_R (probabilities)")
    d_mult = np.array([dm(x, y) for x, y in zip(a, b)])
    d_r = dr(a, b)
    equiv = at_most(np.r_[d_mult, d_r], np.r_[d_r, 2 * d_mult], atol=1e-12, detail="E.17: d_mult <= d_R <= 2 d_mult")
    strict = holds(bool((d_r > d_mult).all()), detail="d_R > d_mult for every pair of distinct probabilities")
    # Proposition E.11 / Corollary E.13: the atom formula equals the sup over pairs of events
    events = np.array(list(itertools.product([0, 1], repeat=4))[1:], dtype=float)
    ev_a, ev_b = a[:200] @ events.T, b[:200] @ events.T
    log_ratio = np.log(ev_a) - np.log(ev_b)
    by_events = log_ratio.max(axis=1) - log_ratio.min(axis=1)
    e11 = close(d_r[:200], by_events, rtol=1e-12, atol=1e-14, detail="E.11: d_R from atoms against pairs of events")
    # scale invariance (29): d_R(c nu, nu) = 0 while d_mult(c nu, nu) = ln c
    nu = a[0]
    scale = close([dr(3.0 * nu, nu), dm(3.0 * nu, nu)], [0.0, np.log(3.0)], atol=1e-12, rtol=0.0,
                  detail="(29): d_R(3 nu, nu) = 0, d_mult(3 nu, nu) = ln 3")
    p = [Fraction(3, 5), Fraction(3, 10), Fraction(1, 10)]
    q = [Fraction(3, 10), Fraction(3, 10), Fraction(2, 5)]
    m1, r1 = _exact_event_ratios(p, q)
    p2 = [Fraction(1, 2), Fraction(3, 10), Fraction(1, 5)]
    m2, r2 = _exact_event_ratios(p2, p2[::-1])
    observed = [dm(np.array(p, float), np.array(q, float)), dr(np.array(p, float), np.array(q, float)),
                dm(np.array(p2, float), np.array(p2[::-1], float)), dr(np.array(p2, float), np.array(p2[::-1], float))]
    reference = [float(np.log(float(m1))), float(np.log(float(r1))), float(np.log(float(m2))), float(np.log(float(r2)))]
    exact = f"exact: e^d_mult = {m1}, e^d_R = {r1} for the asymmetric pair; e^d_mult = {m2}, e^d_R = {r2} for the reversed pair"
    return all_of(tri, equiv, strict, e11, scale, close(observed, reference, rtol=1e-12, atol=0.0, detail=exact))


appendix_metrics.mutant("pufferfish.density_ratio_metric", "largest |log ratio| (d_mult) in place of its spread")(_d_r_as_d_mult)


appendix_metrics.mutant("intervals.multiplicative_distance", "one direction only: max log(mu/nu)")(_d_mult_one_direction)



@claim("000/prop-b-1", item="Proposition B.1 (Lemma B.2)",
       statement="The density ratio metric $d_R$ does not depend on the dominating measure: densities of the same two measures with respect to the counting measure and to a reweighted (or larger) dominating measure give the same $d_R$, equal to the sup over pairs of events (E.11).",
       method="random measures on 6 atoms, a random positive reweighting and a dominating measure with two extra atoms null under both measures; $d_R$ of the masses by enumerating all pairs of the 63 events")
def prop_b_1(seed: int = 16, trials: int = 10) -> Evidence:
    rng = np.random.default_rng(seed)
    events = np.array(list(itertools.product([0, 1], repeat=6))[1:], dtype=float)
    counting, reweighted, larger, brute = [], [], [], []
    for _ in range(trials):
        mu, nu = rng.exponential(size=6), 3.0 * rng.exponential(size=6)
        w = rng.exponential(size=6)
        log_ratio = np.log(events @ mu) - np.log(events @ nu)
        brute.append(log_ratio.max() - log_ratio.min())
        counting.append(float(pufferfish.density_ratio_metric(mu, nu)))
        reweighted.append(float(pufferfish.density_ratio_metric(mu / w, nu / w)))
        larger.append(float(pufferfish.density_ratio_metric(np.r_[mu / w, 0.0, 0.0], np.r_[nu / w, 0.0, 0.0])))
    return close(np.r_[counting, reweighted, larger], np.r_[brute, brute, brute], rtol=1e-12, atol=1e-14,
                 detail="d_R from densities w.r.t. three dominating measures against pairs of events of the masses")


prop_b_1.mutant("pufferfish.density_ratio_metric", "largest |log ratio| (d_mult) in place of its spread")(_d_r_as_d_mult)


@prop_b_1.mutant("pufferfish.density_ratio_metric", "atoms null under both measures counted as one-sided (inf)")
def _(function):
    def wrong(mu, nu, **k):
        mu, nu = np.asarray(mu, float), np.asarray(nu, float)
        return float("inf") if ((mu == 0) | (nu == 0)).any() else function(mu, nu, **k)
    return wrong


@claim("000/prop-d-4-d-7", item="Proof D.4, Remark D.3 and Proposition D.7",
       statement="$d_{mult}$ is quasi-convex (30) but not convex (31): $P$ uniform on 3 points, $Q_1 = (2/3, 1/6, 1/6)$, $Q_2 = P$ give $d_{mult}(P, Q_1/2 + Q_2/2) = \\ln 1.5 > \\ln(2)/2$; on a finite space with full support it is continuous, $d_{mult}(\\mu, \\nu) \\le -\\ln(1 - \\delta/m)$ when $\\|\\mu - \\nu\\|_\\infty \\le \\delta < m = \\min \\mu$; without finiteness it is not: $\\mu(t) = 2^{-t}$, $\\nu_k = \\mu + \\delta 1\\{t = k\\}$ have $d_{mult} = \\ln(1 + \\delta 2^k) \\to \\infty$.",
       method="2000 random triples on 2-5 atoms for (30) and 2000 random perturbations for the modulus; the counterexamples' values in exact rational arithmetic (fractions) over all events, and $\\ln(1 + \\delta 2^k)$ by log1p")
def prop_d_4_d_7(seed: int = 17, trials: int = 2000) -> Evidence:
    rng = np.random.default_rng(seed)
    dm = intervals.multiplicative_distance
    mix, worst, modulus, perturbed = [], [], [], []
    for _ in range(trials):
        k = int(rng.integers(2, 6))
        p, q1, q2 = rng.dirichlet(np.ones(k), size=3)
        a = rng.uniform()
        mix.append(dm(p, a * q1 + (1 - a) * q2))
        worst.append(max(dm(p, q1), dm(p, q2)))
        mu = rng.dirichlet(np.ones(k))
        delta = rng.uniform(0, 0.9) * mu.min()
        nu = mu + rng.uniform(-delta, delta, k)
        perturbed.append(dm(mu, nu))
        modulus.append(-np.log1p(-np.abs(nu - mu).max() / mu.min()))
    P = [Fraction(1, 3)] * 3
    Q1 = [Fraction(2, 3), Fraction(1, 6), Fraction(1, 6)]
    half = [(x + y) / 2 for x, y in zip(Q1, P)]
    exact_mix = _exact_event_ratios(P, half)[0]
    exact_q1 = _exact_event_ratios(P, Q1)[0]
    as_float = lambda v: np.array(v, dtype=float)  # noqa: E731
    ks = np.arange(2, 30, 3)
    nat = 0.5 ** np.arange(1, 31)
    nat = nat / nat.sum()
    seq = [dm(nat, nat + 0.01 * (np.arange(1, 31) == k) * nat.sum()) for k in ks]
    reference = np.log1p(0.01 / nat[ks - 1])
    return all_of(at_most(mix, worst, atol=1e-12, detail="(30): d_mult of a mixture against the larger of the two"),
                  close([dm(as_float(P), as_float(half)), dm(as_float(P), as_float(Q1))],
                        [float(np.log(float(exact_mix))), float(np.log(float(exact_q1)))], rtol=1e-12,
                        detail=f"the convexity counterexample: exact e^d_mult = {exact_mix} for the mixture, {exact_q1} for Q_1"),
                  holds(bool(np.log(float(exact_mix)) > 0.5 * np.log(float(exact_q1))), detail="(31) fails: ln 1.5 > ln(2)/2"),
                  at_most(perturbed, modulus, atol=1e-12, detail="D.7: d_mult against the modulus -ln(1 - delta/m)"),
                  close(seq, reference, rtol=1e-10, detail="the unbounded sequence ln(1 + delta 2^k) on a truncated N (sum-normalised)"),
                  close(dm([0.5, 0.5, 0.0], [0.5, 0.49, 0.01]), np.inf, rtol=0.0, detail="a null atom perturbed: d_mult = inf"))


prop_d_4_d_7.mutant("intervals.multiplicative_distance", "mean |log ratio| of the atoms in place of the largest")(_mean_abs_log_ratio)


@prop_d_4_d_7.mutant("intervals.multiplicative_distance", "log ratio of the total masses only (the event S = everything)")
def _(function):
    def wrong(mu, nu):
        mu, nu = np.asarray(mu, float), np.asarray(nu, float)
        return float(abs(np.log(mu.sum()) - np.log(nu.sum()))) if ((mu == 0) == (nu == 0)).all() else float("inf")
    return wrong


@claim("000/prop-e-9", item="Proposition E.9 (eq. (32))",
       statement="$d_{mult}$ composes: $d_{mult}(\\mu_1 \\otimes \\mu_2, \\nu_1 \\otimes \\nu_2) \\le d_{mult}(\\mu_1, \\nu_1) + d_{mult}(\\mu_2, \\nu_2)$, with equality exactly when the worst log-ratios of the two factors can be taken with the same sign.",
       method="random factor measures on 3 atoms; $d_{mult}$ of the products by enumerating all $2^9$ events of the product space; the sign condition read off the factors' log-ratios")
def prop_e_9(seed: int = 18, trials: int = 12) -> Evidence:
    rng = np.random.default_rng(seed)
    product, brute, sums, equal, predicted = [], [], [], [], []
    for _ in range(trials):
        m1, n1, m2, n2 = rng.exponential(size=(4, 3))
        pm, pn = np.outer(m1, m2).ravel(), np.outer(n1, n2).ravel()
        product.append(intervals.multiplicative_distance(pm, pn))
        brute.append(_events_d_mult(pm, pn))
        d1, d2 = _events_d_mult(m1, n1), _events_d_mult(m2, n2)
        sums.append(d1 + d2)
        l1, l2 = np.log(m1) - np.log(n1), np.log(m2) - np.log(n2)
        same = (np.isclose(l1.max(), d1) and np.isclose(l2.max(), d2)) or (np.isclose(-l1.min(), d1) and np.isclose(-l2.min(), d2))
        predicted.append(bool(same))
        equal.append(bool(np.isclose(brute[-1], d1 + d2, rtol=1e-12)))
    return all_of(close(product, brute, rtol=1e-12, detail="d_mult of product measures against all events of the product space"),
                  at_most(product, sums, atol=1e-12, detail="(32): against the sum of the factors' distances"),
                  holds(equal == predicted and any(equal) and not all(equal), observed=sum(equal), reference=sum(predicted),
                        detail="equality exactly when the worst log-ratios share a sign (both cases occur)"))


prop_e_9.mutant("intervals.multiplicative_distance", "one direction only: max log(mu/nu)")(_d_mult_one_direction)


prop_e_9.mutant("intervals.multiplicative_distance", "mean |log ratio| in place of the largest")(_mean_abs_log_ratio)


@reference
def _sum_given_first(n: int, rho: float, first: int) -> np.ndarray:
    """Weights over the sum 0..n given X_1 = first, when every other record equals X_1 with
    probability rho independently."""
    k = np.arange(n)                                        # other records equal to X_1
    w = np.zeros(n + 1)
    pos = 1 + k if first else n - 1 - k
    w[pos] = stats.binom.pmf(k, n - 1, rho)
    return w


@claim("000/thm-8-7-example", item="Theorem 8.7, worked example (and Remark 8.6)",
       statement="Under $\\varepsilon$-Pufferfish every level-0.05 test of $X_1 = 0$ against $X_1 = 1$ has power at most $0.05\\,e^{\\varepsilon}$. For the Laplace-privatised sum of $n = 3$ records ($\\varepsilon$-DP, $\\varepsilon = 0.5$) and an attacker who believes the other records copy $X_1$ with probability $\\rho$, the Pufferfish loss is $\\varepsilon$ at $\\rho = 1/2$ and $n\\varepsilon$ at $\\rho = 1$; the most powerful level-0.05 test stays below $0.05\\,e^{\\text{loss}}$ at $\\rho$ = 1/2, 7/10, 9/10 and 1, and exceeds the DP value $0.05\\,e^{\\varepsilon}$ at the three correlated ones.",
       method="the loss against the largest $|\\log f_1/f_0|$ of the two output densities, each summed over the $2^n$ datasets with the attacker's probabilities, on a grid of step 1/1000 reaching 10 beyond both ends (it contains every mixture centre, where the supremum lies; the grid does not assume it); the test powers by privlib's grid Neyman-Pearson on the densities of the sum",
       checks=("intervals.laplace_sum_marginal", "intervals.density_power"))
def thm_8_7_example(n: int = 3, epsilon: float = 0.5) -> Evidence:
    rhos = np.array([0.5, 0.7, 0.9, 1.0])
    t_dense = np.arange(-10_000, (n + 10) * 1000 + 1) / 1000.0  # step 1/1000, reaching 10 beyond both ends
    datasets = np.array(list(itertools.product([0, 1], repeat=n)))
    grid = np.linspace(-40.0 / epsilon, n + 40.0 / epsilon, 60001)
    direct, losses, powers = [], [], []
    for rho in rhos:
        # every dataset x with its attacker probability given X_1, and its Laplace density at each t
        agree = (datasets[:, 1:] == datasets[:, :1]).sum(axis=1)
        prob = rho ** agree * (1 - rho) ** (n - 1 - agree)
        dens = np.exp(-epsilon * np.abs(t_dense[None, :] - datasets.sum(axis=1)[:, None]))
        f = [prob[datasets[:, 0] == a] @ dens[datasets[:, 0] == a] for a in (0, 1)]
        direct.append(float(np.abs(np.log(f[1]) - np.log(f[0])).max()))
        w1, w0 = _sum_given_first(n, rho, 1), _sum_given_first(n, rho, 0)
        losses.append(float(pufferfish.laplace_sum_pufferfish_loss(n, epsilon, rho)))
        f1 = intervals.laplace_sum_marginal(grid, w1, epsilon)
        f0 = intervals.laplace_sum_marginal(grid, w0, epsilon)
        powers.append(float(intervals.density_power(grid, f0, f1, 0.05)))
    return all_of(close(losses, direct, rtol=1e-10, detail="the loss against the densities summed over all datasets on the dense grid"),
                  close([losses[0], losses[-1]], [epsilon, n * epsilon], rtol=1e-10, detail="eps at rho = 1/2, n eps at rho = 1"),
                  at_most(powers, 0.05 * np.exp(losses), atol=1e-6, detail="level-0.05 power against 0.05 e^loss"),
                  holds(bool(powers[0] <= 0.05 * np.exp(epsilon) + 1e-6 and min(powers[1:]) > 0.05 * np.exp(epsilon)),
                        detail="independent attacker within 0.05 e^eps; correlated attackers beyond it"))


@thm_8_7_example.mutant("pufferfish.laplace_sum_pufferfish_loss", "given X_1 = 0 the sum counts the agreeing records (k, not n - 1 - k)")
def _(function):
    def wrong(n, epsilon, rho):
        rho = np.atleast_1d(np.asarray(rho, float))
        out = []
        for r in rho:
            k = np.arange(n)
            w1, w0 = np.zeros(n + 1), np.zeros(n + 1)
            w1[1 + k] = stats.binom.pmf(k, n - 1, r)
            w0[k] = stats.binom.pmf(k, n - 1, r)
            t = np.r_[-1.0, np.arange(n + 1.0), n + 1.0]
            kernel = np.exp(-epsilon * np.abs(t[None, :] - np.arange(n + 1)[:, None]))
            out.append(float(np.abs(np.log(w1 @ kernel) - np.log(w0 @ kernel)).max()))
        return out[0] if len(out) == 1 else np.array(out)
    return wrong


@thm_8_7_example.mutant("pufferfish.laplace_sum_pufferfish_loss", "rho and 1 - rho swapped")
def _(function):
    return lambda n, epsilon, rho: function(n, epsilon, 1.0 - np.asarray(rho, float))
