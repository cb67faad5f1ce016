"""Claims of chapter 000, Appendices C and E: the two metrics."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from privlib.papers import intervals, pufferfish

from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds
from privlib.verify.inferential_limits._routes import (
    _d_mult_one_direction,
    _d_r_as_d_mult,
    _events_d_mult,
    _mean_abs_log_ratio,
)


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
