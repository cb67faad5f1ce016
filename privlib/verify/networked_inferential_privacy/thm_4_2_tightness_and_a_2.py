"""Claims of chapter 003, Theorem 4.2 tightness and Theorem A.2."""

from __future__ import annotations

import numpy as np
from scipy import optimize

from privlib.papers import affiliation
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, early, holds, reference
from privlib.verify.networked_inferential_privacy._routes import _balls_limit, _mp_tree
from privlib.verify.source_mutants import edit


@claim("003/erratum-thm-4-2-tightness", item="Theorem 4.2 (tightness remark)", kind="erratum",
       checks=("affiliation.influence_matrix", "affiliation.ising_influence"),
       statement="The remark after Theorem 4.2 takes the influences of the Ising model on a complete $d$-ary tree to be $\\beta$ on every edge (reconstructed: the formula is lost in the text we work from), so that row sums $\\delta \\to 1$ give $\\nu = \\Omega(\\varepsilon/(1 - \\delta))$, matching the bound. The exact influence (Definition 4.1) at an internal node is $\\tfrac12[\\log(1 + e^{2\\beta(d+1)}) - \\log(1 + e^{2\\beta(d-1)})] > \\beta$: the row sums reach 1 while $d\\tanh\\beta < 0.64$, and the exact worst case over all trees of maximum degree $d + 1$ stays below $2.8\\varepsilon$ as $\\delta \\to 1$, while the bound $2\\varepsilon/(1 - \\delta)$ diverges.",
       method="influence_matrix by enumeration of the 15-node binary tree at the coupling coupling_at_row_sum(2, 0.99) (row sum and internal influence against ising_influence); formula (6) there by enumeration of all $2^{15}$ databases against the sup; regular_tree_sup against the fixed point solved in 40-digit arithmetic for $d$ = 2, 3, 10, 100, $10^4$, $\\delta = 1 - 10^{-k}$ ($k$ = 1..4) and four $\\varepsilon$; the largest 40-digit $\\nu/\\varepsilon$ against 2.8")
def erratum_thm_4_2_tightness(epsilon: float = 0.01) -> Evidence:
    parents = affiliation.complete_tree_parents(2, 3)
    edges = [(int(parents[v]), v) for v in range(1, parents.size)]
    beta = affiliation.coupling_at_row_sum(2, 0.99)
    prior = affiliation.ising_prior(parents.size, edges, beta)
    gamma = affiliation.influence_matrix(prior)
    influence = close([gamma.sum(axis=1).max(), gamma[1, 0]], [0.99, float(affiliation.ising_influence(beta, 3))],
                      atol=1e-12, rtol=0.0, detail="enumerated largest row sum = delta; internal influence = closed form")
    internal_ratio = float(gamma[1, 0] / beta)
    above_beta = at_most(1.2, internal_ratio, atol=0.0, detail="internal influence / beta (the paper's, reconstructed: 1)")
    enumerated = [affiliation.inferential_privacy(prior, epsilon, i) for i in range(parents.size)]
    sup_small = _mp_tree(3, beta, epsilon)
    members = at_most(enumerated, [sup_small] * len(enumerated), atol=1e-12,
                      detail="nu of every node of the 15-node tree <= the sup over trees of degree 3")
    ours, exact, slopes = [], [], []
    for d in (2, 3, 10, 100, 10_000):
        for delta in (0.9, 0.99, 0.999, 0.9999):
            b = affiliation.coupling_at_row_sum(d, delta)
            for eps in (1e-4, epsilon, 0.1, 1.0):
                ours.append(affiliation.regular_tree_sup(d + 1, b, eps))
                exact.append(_mp_tree(d + 1, b, eps))
                slopes.append(exact[-1] / eps)
            early(close, ours, exact, rtol=1e-10, atol=0.0)
    return all_of(influence, above_beta, members,
                  close(ours, exact, rtol=1e-10, atol=0.0, detail="regular_tree_sup against the 40-digit fixed point"),
                  at_most(max(slopes), 2.8, atol=0.0, detail="largest exact nu / eps, while 2 / (1 - delta) reaches 20000"))


@erratum_thm_4_2_tightness.mutant("affiliation.coupling_at_row_sum", "row sum d gamma (internal degree taken as d)")
def _(coupling_at_row_sum):
    return lambda d, delta: float(optimize.brentq(lambda b: d * float(affiliation.ising_influence(b, d + 1)) - delta, 0.0, delta / d))


@erratum_thm_4_2_tightness.mutant("affiliation.coupling_at_row_sum", "the paper's influence beta: beta = delta / (d + 1)")
def _(coupling_at_row_sum):
    return lambda d, delta: delta / (d + 1)


@erratum_thm_4_2_tightness.mutant("affiliation.regular_tree_sup", "D - 1 neighbours at the centre, as at every other node")
def _(regular_tree_sup):
    def wrong(degree, beta, eps):
        full = regular_tree_sup(degree, beta, eps)
        # 2 (h + D u) -> 2 (h + (D - 1) u)
        return eps + (full - eps) * (degree - 1) / degree
    return wrong


@erratum_thm_4_2_tightness.mutant("affiliation.regular_tree_sup", "field eps at every node (eps instead of eps/2)")
def _(regular_tree_sup):
    return lambda degree, beta, eps: regular_tree_sup(degree, beta, 2 * eps) / 2


@claim("003/thm-a-2", item="Theorem A.2 part 1 (phase transition on trees)",
       statement="On trees of maximum degree $D$ the worst case $\\nu_F(\\varepsilon)$ vanishes with $\\varepsilon$ when $(D-1)\\tanh\\beta < 1$, and stays above $\\nu_0 = 2D\\,u(H_0) > 0$ for every $\\varepsilon > 0$ when $(D-1)\\tanh\\beta > 1$: no smaller $\\nu$ is differentially enforceable (for $D = 2$, $(D-1)\\tanh\\beta < 1$ always: no transition).",
       method="regular_tree_sup and tree_spontaneous_privacy against the finite trees themselves, not the fixed-point equation: the root's worst case on balls of the $D$-regular tree computed level by level until it stops moving (free boundary, increasing to the sup; all leaves pinned at $\\varepsilon = 0$, decreasing to $\\nu_0$), for $D$ = the given degree and 4, $\\tanh\\beta$ from 0.6 to 1.4 times critical (including 0.999 and 1.001 times; for $D = 2$ subcritical values only) and $\\varepsilon$ from $10^{-8}$ to 1, with the boundary cases $\\varepsilon = 0$ (the value 0) and $\\beta = 0$ (the value $\\varepsilon$); $\\nu_0$ = 0 below criticality and positive above it; balls of radius 4 (members of the family, by tree_inferential_privacy, against their own level recursion; $D = 4$ also at $\\tanh\\beta = 0.9$) below the sup; at $\\beta = 20$, where $\\tanh\\beta$ is 1 in double precision and the balls cannot be iterated in it (and at $D = 3$, $\\beta = 5.01$, $\\varepsilon = 100$), the sup and $\\nu_0$ against the fixed point solved in 40-digit arithmetic")
def thm_a_2(degree: int = 3) -> Evidence:
    cases, spont_cases, supercritical = [], [], []
    for d in sorted({degree, 4}):
        critical = 1.0 / (d - 1)
        factors = (0.6, 0.9, 0.999, 1.001, 1.1, 1.4) if d > 2 else (0.6, 0.9, 0.999)
        for factor in factors:
            beta = float(np.arctanh(min(factor * critical, 0.99)))
            for eps in (1e-8, 1e-4, 0.01, 0.3, 1.0):
                cases.append((d, beta, eps))
            spont_cases.append((d, beta))
            supercritical.append((d - 1) * np.tanh(beta) > 1)
        cases += [(d, 0.0, 0.3), (d, float(np.arctanh(1.2 * critical if d > 2 else 0.5)), 0.0)]  # beta = 0, eps = 0
    d, beta, eps = (np.array(c) for c in zip(*cases))
    ours = [affiliation.regular_tree_sup(int(a), b, e) for a, b, e in cases]
    balls = _balls_limit(d, beta, eps)
    sd, sb = (np.array(c) for c in zip(*spont_cases))
    spont = np.array([affiliation.tree_spontaneous_privacy(int(a), b) for a, b in spont_cases])
    pinned = _balls_limit(sd, sb, np.zeros(sd.size), plus=True)
    supercritical = np.array(supercritical)
    sub_ref = pinned[~supercritical]
    # members of the family: balls of radius 4 of the D-regular tree (root with D children, every
    # other inner node D - 1), by tree_inferential_privacy, at most the sup over the family
    members, member_sups, member_balls = [], [], []
    # D = 4 gives 161 nodes, solved level by level; tanh(beta) = 0.9 makes its messages take the
    # log-cosh form (tanh(beta) tanh(H) above 1/2)
    for d_, beta_ in [(d_, float(np.arctanh(min(1.2 / (d_ - 1), 0.99)))) for d_ in sorted({degree, 4})] + [(4, float(np.arctanh(0.9)))]:
        parents, frontier = [-1], [0]
        for _ in range(4):
            new = []
            for node in frontier:
                for _ in range(d_ if node == 0 else d_ - 1):
                    parents.append(node)
                    new.append(len(parents) - 1)
            frontier = new
        members.append(affiliation.tree_inferential_privacy(np.array(parents), beta_, 0.1))
        member_sups.append(affiliation.regular_tree_sup(d_, beta_, 0.1))
        member_balls.append(float(_balls_limit(np.array([d_]), np.array([beta_]), np.array([0.1]), levels=3)[0]))
    # beta = 20: tanh(beta) rounds to 1 and the fixed point's bracket top is a root in doubles
    # (and at D = 3, beta = 5.01, eps = 100 the map minus the identity rounds above 0 at the top)
    strong = [affiliation.regular_tree_sup(degree, 20.0, 0.1), affiliation.regular_tree_sup(3, 5.01, 100.0)]
    strong_ref = [_mp_tree(degree, 20.0, 0.1), _mp_tree(3, 5.01, 100.0)]
    if degree > 2:
        strong.append(affiliation.tree_spontaneous_privacy(degree, 20.0))
        strong_ref.append(_mp_tree(degree, 20.0, 0.0, spontaneous=True))
    return all_of(close(ours, balls, rtol=1e-9, atol=1e-300, detail="regular_tree_sup against the limit of free balls"),
                  close(strong, strong_ref, rtol=1e-12, atol=0.0,
                        detail="strong coupling (beta = 20; 5.01 at eps = 100): the sup and nu_0 against the 40-digit fixed point"),
                  close(spont[supercritical], pinned[supercritical], rtol=1e-9, atol=0.0,
                        detail="tree_spontaneous_privacy against the limit of pinned balls (supercritical)")
                  if supercritical.any() else holds(True, detail="no supercritical coupling at D = 2"),
                  close(spont[~supercritical], sub_ref, atol=1e-12, rtol=0.0,
                        detail="subcritical: nu_0 = 0 (the pinned balls decrease to 0)"),
                  close(members, member_balls, rtol=1e-12, atol=0.0,
                        detail="tree_inferential_privacy on balls of radius 4 against their level recursion"),
                  at_most(members, member_sups, atol=1e-12, detail="balls of radius 4 (members of the family) below the sup"),
                  holds(bool((spont[supercritical] > 0).all()), observed=float(spont[supercritical].min()) if supercritical.any() else 0.0,
                        reference=0.0, detail="smallest supercritical nu_0 is positive"))


@thm_a_2.mutant("affiliation.regular_tree_sup", "the external field h omitted at the root")
def _(regular_tree_sup):
    return edit("return float(2.0 * (h + d * _u_scalar(field, beta, t)))",
                "return float(2.0 * (d * _u_scalar(field, beta, t)))")(regular_tree_sup)


@thm_a_2.mutant("affiliation.regular_tree_sup", "beta = 0 read as eps/2 (the field, not twice it)")
def _(regular_tree_sup):
    return edit("return 2.0 * h\n", "return h\n")(regular_tree_sup)


@thm_a_2.mutant("affiliation.regular_tree_sup", "u(top) rounding to beta: the bracket's bottom taken for the root")
def _(regular_tree_sup):
    return edit("        field = top\n", "        field = h\n")(regular_tree_sup)


@thm_a_2.mutant("affiliation.tree_spontaneous_privacy", "u(top) rounding to beta: the bracket's bottom taken for the root")
def _(tree_spontaneous_privacy):
    return edit("        field = top\n", "        field = low\n")(tree_spontaneous_privacy)


@thm_a_2.mutant("affiliation.tree_spontaneous_privacy", "D - 1 terms at the root (the cavity field, not the root's)")
def _(tree_spontaneous_privacy):
    return edit("return float(2.0 * d * _u_scalar(field, beta, t))",
                "return float(2.0 * (d - 1) * _u_scalar(field, beta, t))")(tree_spontaneous_privacy)


@thm_a_2.mutant("affiliation.regular_tree_sup", "D - 1 neighbours at the centre, as at every other node")
def _(regular_tree_sup):
    return lambda degree, beta, eps: eps + (regular_tree_sup(degree, beta, eps) - eps) * (degree - 1) / degree


@thm_a_2.mutant("affiliation.regular_tree_sup", "fixed point iterated 200 times from h (unconverged near criticality)")
def _(regular_tree_sup):
    def wrong(degree, beta, eps):
        h = eps / 2
        field = h
        t = np.tanh(beta)
        for _ in range(200):
            field = h + (degree - 1) * np.arctanh(t * np.tanh(field))
        return float(2 * (h + degree * np.arctanh(t * np.tanh(field))))
    return wrong


@thm_a_2.mutant("affiliation.tree_spontaneous_privacy", "critical point at D tanh(beta) = 1 (degree taken as branching)")
def _(tree_spontaneous_privacy):
    return lambda degree, beta: tree_spontaneous_privacy(degree + 1, beta) * degree / (degree + 1)


@claim("003/thm-a-2-bound", item="Theorem A.2 part 1 (quantitative bound)",
       statement="If $(D-1)\\tanh\\beta = 1 - \\delta < 1$, then $\\nu_F(\\varepsilon) \\le (1 + \\tanh\\beta)\\,\\varepsilon/\\delta$ for every $\\varepsilon$ (constant reconstructed: the text we work from breaks off here), tight as $\\varepsilon \\to 0$.",
       method="the sup over trees of maximum degree $D$ solved in 40-digit arithmetic against tree_enforceability_bound, for $D$ = 3, 5, $\\delta$ = 0.5, 0.1, 0.01 and $\\varepsilon$ from $10^{-6}$ to 2; the ratio sup/bound at $\\varepsilon = 10^{-6}$ against 1")
def thm_a_2_bound() -> Evidence:
    sup, bound, ratio = [], [], []
    for d in (3, 5):
        for delta in (0.5, 0.1, 0.01):
            beta = float(np.arctanh((1 - delta) / (d - 1)))
            for eps in (1e-6, 1e-3, 0.1, 0.5, 2.0):
                sup.append(_mp_tree(d, beta, eps))
                bound.append(float(affiliation.tree_enforceability_bound(d, beta, eps)))
            ratio.append(sup[-5] / bound[-5])
    return all_of(at_most(sup, bound, atol=1e-15, detail="sup over trees <= bound"),
                  close(ratio, np.ones(len(ratio)), rtol=1e-3, atol=0.0, detail="sup / bound at eps = 1e-6 (tight)"))


@thm_a_2_bound.mutant("affiliation.tree_enforceability_bound", "the factor (1 + tanh beta) dropped")
def _(tree_enforceability_bound):
    return lambda d, beta, eps: tree_enforceability_bound(d, beta, eps) / (1 + np.tanh(beta))


@thm_a_2_bound.mutant("affiliation.tree_enforceability_bound", "2 eps / delta (the looser form)")
def _(tree_enforceability_bound):
    return lambda d, beta, eps: tree_enforceability_bound(d, beta, eps) * 2 / (1 + np.tanh(beta))


@reference
def _mp_onsager(beta: float) -> float:
    """``log((1 + m*) / (1 - m*))`` with ``m* = (1 - sinh(2 beta)^-4)^(1/8)`` (0 where
    ``sinh(2 beta) <= 1``), in 60-digit arithmetic straight from the formula."""
    import mpmath as mp

    with mp.workdps(60):
        s = mp.sinh(2 * mp.mpf(beta)) ** -4
        if s >= 1:
            return 0.0
        m = (1 - s) ** (mp.mpf(1) / 8)
        return float(mp.log((1 + m) / (1 - m)))


@claim("003/thm-a-2-lattice", item="Theorem A.2 part 2 (2-D lattice)", kind="illustrated",
       statement="On finite subgraphs of $\\mathbb Z^2$ with $\\beta$ above $\\beta_c = \\tfrac12\\log(1 + \\sqrt2)$ the worst case is at least $\\log\\frac{1 + m^*}{1 - m^*}$, $m^* = (1 - \\sinh^{-4} 2\\beta)^{1/8}$, for every $\\varepsilon > 0$: no DP level enforces a smaller $\\nu$ (statement reconstructed: the text we work from breaks off in this theorem).",
       method="onsager_bound against the plus-boundary boxes of lattice_centre_privacy (3x3, 3x4, 4x4), upper bounds on every finite subgraph containing them, down to $\\varepsilon = 10^{-6}$: the bound must lie below each and the boxes must decrease towards it; free 3x3 and 3x4 boxes (members of the family) reach the bound above a threshold $\\varepsilon$ that falls as the box grows; onsager_bound against $m^*$ evaluated in 60-digit arithmetic at $\\beta$ = 0.3 and $\\beta_c$ (the value 0), 0.5, 1, 3 and 6 (where $\\sinh^{-4} 2\\beta$ is below $10^{-8}$ and $1 - m^*$ is below $10^{-20}$). Illustrated: no finite computation reaches the infinite lattice, and a lower bound for $m^*$ is not computed")
def thm_a_2_lattice(beta: float = 0.6) -> Evidence:
    beta_c = np.log(1 + np.sqrt(2)) / 2
    if beta <= beta_c:
        raise ValueError(f"beta must exceed beta_c = {beta_c:.6f}, got {beta}")
    bound = affiliation.onsager_bound(beta)
    upper = [affiliation.lattice_centre_privacy(r, c, beta, 1e-6, "plus") for r, c in ((3, 3), (3, 4), (4, 4))]
    thresholds = []
    for rows, cols in ((3, 3), (3, 4)):
        top = 1.0  # strong couplings need a larger epsilon before the free box reaches the bound
        while affiliation.lattice_centre_privacy(rows, cols, beta, top, "free") < bound:
            if top >= 64.0:
                return holds(False, detail=f"free {rows}x{cols} lattice stays below the bound up to eps = 64")
            top *= 2.0
        thresholds.append(optimize.brentq(lambda e: affiliation.lattice_centre_privacy(rows, cols, beta, e, "free") - bound,
                                          1e-3, top, xtol=1e-6))
    ours, onsager = [], []
    for b in (0.3, float(beta_c), 0.5, 1.0, 3.0, 6.0):
        ours.append(affiliation.onsager_bound(b))
        onsager.append(_mp_onsager(b))
    return all_of(close(ours, onsager, rtol=1e-12, atol=1e-300,
                        detail="onsager_bound against m* in 60-digit arithmetic, beta = 0.3 to 6"),
                  at_most([bound] * 3, upper, atol=0.0, detail="Onsager bound <= plus-boundary boxes 3x3, 3x4, 4x4"),
                  at_most(upper[1:], upper[:-1], atol=0.0, detail="plus-boundary boxes decrease as they grow"),
                  at_most(thresholds[1], thresholds[0], atol=0.0, detail="threshold eps of the free 3x4 box <= that of 3x3"))


@thm_a_2_lattice.mutant("affiliation.onsager_bound", "strong coupling: 1 - m* read as sinh(2 beta)^-4 (the 1/8 of the expansion dropped)")
def _(onsager_bound):
    return edit("log_q = log_s - math.log(8.0) + math.log1p(7 * s / 16)",
                "log_q = log_s + math.log1p(7 * s / 16)")(onsager_bound)
