"""Claims of chapter 003, Section 2: independent records and clones."""

from __future__ import annotations

import numpy as np

from privlib.papers import affiliation
from privlib.verify.claims import Evidence, claim, close
from privlib.verify.networked_inferential_privacy._routes import _HALVED, _halved_eps_lp


@claim("003/sec2-product", item="Section 2 (independent records)",
       statement="For a product prior the worst-case inferential privacy of individual $i$ over all $\\varepsilon$-DP mechanisms is exactly $\\varepsilon_i$.",
       method="worst_case_lp (the LP over every $\\varepsilon$-DP mechanism) on 6 records with random marginals and a random vector $\\varepsilon$, against $\\varepsilon_i$")
def sec2_product(seed: int = 1) -> Evidence:
    rng = np.random.default_rng(seed)
    prior = affiliation.product_prior(rng.uniform(0.1, 0.9, 6))
    eps = rng.uniform(0.1, 1.0, 6)
    return close([affiliation.worst_case_lp(prior, eps, i) for i in range(6)], eps, atol=1e-8, rtol=0.0)


sec2_product.mutant("affiliation.worst_case_lp", _HALVED)(_halved_eps_lp)


@sec2_product.mutant("affiliation.worst_case_lp", "flips of record j constrained by the epsilon of another record")
def _(worst_case_lp):
    return lambda prior, eps, i: worst_case_lp(prior, np.roll(eps, 1), i)


@claim("003/sec2-clones", item="Section 2 (clones)",
       statement="With $n$ identical records the worst case is $n\\varepsilon$, and formula (6) gives it.",
       method="formula (6) (inferential_privacy) and worst_case_lp on 5 clones, against $n\\varepsilon$")
def sec2_clones(n: int = 5, epsilon: float = 0.3) -> Evidence:
    prior = affiliation.clones_prior(n, 0.4)
    return close([affiliation.inferential_privacy(prior, epsilon, 0), affiliation.worst_case_lp(prior, epsilon, 0)],
                 [n * epsilon, n * epsilon], atol=1e-8, rtol=0.0)


@sec2_clones.mutant("affiliation.inferential_privacy", "the record's own epsilon left out of the acceptance")
def _(inferential_privacy):
    def wrong(prior, eps, i):
        n = int(round(np.log2(np.size(prior))))
        vec = np.broadcast_to(np.asarray(eps, dtype=float), (n,)).copy()
        vec[i] = 0.0
        return inferential_privacy(prior, vec, i)
    return wrong


sec2_clones.mutant("affiliation.worst_case_lp", _HALVED)(_halved_eps_lp)
