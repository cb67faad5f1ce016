"""Claims of chapter 003, Appendix A.2: spin systems."""

from __future__ import annotations

import numpy as np

from privlib.papers import affiliation
from privlib.verify.claims import Evidence, all_of, claim, close
from privlib.verify.networked_inferential_privacy._routes import (
    _one_direction,
    _random_ising,
    _unnormalised,
)
from privlib.verify.source_mutants import edit


@claim("003/eq-19", item="Remark 3.7 and eq. (19)",
       statement="For affiliated priors formula (6) is a magnetization: $\\nu_i = \\max\\{\\log\\rho + \\log\\frac{1 - M_i(-\\varepsilon/2)}{1 + M_i(-\\varepsilon/2)},\\ -\\log\\rho + \\log\\frac{1 + M_i(\\varepsilon/2)}{1 - M_i(\\varepsilon/2)}\\}$.",
       method="magnetizations of the Gibbs measure with external field $\\pm\\varepsilon/2$ by enumeration, on random ferromagnetic Ising priors with fields ($\\rho \\ne 1$), against inferential_privacy")
def eq_19(seed: int = 5, trials: int = 8) -> Evidence:
    rng = np.random.default_rng(seed)
    x = affiliation.states(6)
    spins = 2 * x - 1
    observed, reference = [], []
    for _ in range(trials):
        prior = _random_ising(rng, 6)
        eps = rng.uniform(0.05, 0.8, 6)
        i = int(rng.integers(6))

        def magnetization(sign: float) -> float:
            w = prior * np.exp(sign * spins @ (eps / 2))
            return float((w * spins[:, i]).sum() / w.sum())

        rho = prior[x[:, i] == 1].sum() / prior[x[:, i] == 0].sum()
        m_minus, m_plus = magnetization(-1.0), magnetization(1.0)
        observed.append(max(np.log(rho) + np.log((1 - m_minus) / (1 + m_minus)),
                            -np.log(rho) + np.log((1 + m_plus) / (1 - m_plus))))
        reference.append(affiliation.inferential_privacy(prior, eps, i))
    return close(observed, reference, atol=1e-12, rtol=0.0)


eq_19.mutant("affiliation.inferential_privacy", "only the maximally 0-biased direction (no max over z)")(_one_direction[0])
eq_19.mutant("affiliation.inferential_privacy", "posterior odds not divided by the prior odds")(_unnormalised)


@claim("003/trees-bp", item="Appendix A.2 (Zeus tree)",
       statement="On an Ising tree the worst case for the root is twice its cavity field under the field $\\varepsilon/2$, computed by belief propagation; on complete trees by the closed depth recursion.",
       method="formula (6) by enumeration of all $2^n$ databases of the binary tree of depth 3 (15 nodes), the ternary tree of depth 2 (13 nodes) and a random tree of 14 nodes, for agreement probabilities $p = 0.55, 0.7, 0.9$, against tree_inferential_privacy and complete_tree_inferential_privacy; a tree of one node (a lone record: $\\nu = \\varepsilon$) against its enumeration")
def trees_bp(epsilon: float = 0.3, seed: int = 7) -> Evidence:
    rng = np.random.default_rng(seed)
    random_tree = np.concatenate([[-1], [int(rng.integers(v)) for v in range(1, 14)]])
    observed, reference, closed, closed_ref = [], [], [], []
    for p in (0.55, 0.7, 0.9):
        beta = 0.5 * np.log(p / (1 - p))
        for b, depth in ((2, 3), (3, 2), (None, None)):
            parents = random_tree if b is None else affiliation.complete_tree_parents(b, depth)
            edges = [(int(parents[v]), v) for v in range(1, parents.size)]
            exact = affiliation.inferential_privacy(affiliation.ising_prior(parents.size, edges, beta), epsilon, 0)
            observed.append(affiliation.tree_inferential_privacy(parents, beta, epsilon))
            reference.append(exact)
            if b is not None:
                closed.append(affiliation.complete_tree_inferential_privacy(b, depth, beta, epsilon))
                closed_ref.append(exact)
    lone = affiliation.ising_prior(1, [], 0.0)   # one record, no edges
    observed.append(affiliation.tree_inferential_privacy(np.array([-1]), 0.5, epsilon))
    reference.append(affiliation.inferential_privacy(lone, epsilon, 0))
    return all_of(close(observed, reference, atol=1e-10, rtol=0.0, detail="belief propagation against enumeration"),
                  close(closed, closed_ref, atol=1e-10, rtol=0.0, detail="closed depth recursion against enumeration"))


@trees_bp.mutant("affiliation.tree_inferential_privacy", "field eps at every node (eps instead of eps/2)")
def _(tree_inferential_privacy):
    return lambda parents, beta, eps: tree_inferential_privacy(parents, beta, 2 * eps) / 2 + eps / 2


@trees_bp.mutant("affiliation.tree_inferential_privacy", "a tree of one node: nu = eps/2 (the field, not twice it)")
def _(tree_inferential_privacy):
    return edit("if parents.size == 1:\n        return 2.0 * h", "if parents.size == 1:\n        return h")(tree_inferential_privacy)


@trees_bp.mutant("affiliation.tree_inferential_privacy", "nu = H_root (the factor 2 dropped)")
def _(tree_inferential_privacy):
    return lambda parents, beta, eps: tree_inferential_privacy(parents, beta, eps) / 2


@trees_bp.mutant("affiliation.complete_tree_inferential_privacy", "depth off by one")
def _(complete_tree_inferential_privacy):
    return lambda b, depth, beta, eps: complete_tree_inferential_privacy(b, np.asarray(depth) + 1, beta, eps)


@trees_bp.mutant("affiliation.complete_tree_inferential_privacy", "b - 1 children per node (degree for branching)")
def _(complete_tree_inferential_privacy):
    return lambda b, depth, beta, eps: complete_tree_inferential_privacy(max(b - 1, 1), depth, beta, eps)
