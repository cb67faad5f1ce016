"""Claims of chapter 000, Sections 2-3: epsilon-DP as a Lipschitz condition and an interval of
measures."""

from __future__ import annotations

import itertools

import numpy as np
from scipy import stats

from privlib.papers import intervals
from privlib.core import mechanisms
from privlib.verify.claims import Evidence, all_of, claim, close, holds
from privlib.verify.inferential_limits._routes import (
    _cube,
    _d_mult_ignores_one_sided,
    _d_mult_one_direction,
    _distances_replaced,
    _events_d_mult,
    _hamming,
)


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
