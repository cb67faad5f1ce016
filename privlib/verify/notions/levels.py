"""Claims of the cross-paper chapter "One mechanism, five notions": Barber & Duchi's levels; the
geometric count in closed form."""

from __future__ import annotations

import numpy as np
from scipy import special

from privlib.core import notions
from privlib.verify.claims import Evidence, all_of, at_most, claim, close
from privlib.verify.notions._routes import _geometric_rows, _neighbours, _random_channel


@claim("notions/dp-bounds-tv-kl", item="epsilon-DP bounds the TV and KL levels (Barber & Duchi)",
       statement="An $\\varepsilon$-DP channel is $\\tanh(\\varepsilon/2)$-TV private and $\\varepsilon \\tanh(\\varepsilon/2)$-KL private (nats): for a pair with $e^{-\\varepsilon} \\le p/q \\le e^{\\varepsilon}$, moving mass to the two extreme ratios only increases TV and KL, and the extreme pair is binary randomized response, which attains both.",
       method="TV and KL levels against every neighbouring pair listed by comparing records (random channels), the inequality against $\\varepsilon_{DP}$, and equality for randomized response and the truncated geometric count")
def dp_bounds_tv_kl(epsilon: float = 0.8) -> Evidence:
    tv, kl, tv_ref, kl_ref, tv_b, kl_b = [], [], [], [], [], []
    for K, n, seed in ((2, 4, 31), (3, 2, 32), (2, 3, 33)):
        ch = _random_channel(K, n, 5, seed)
        pairs = _neighbours(K, n)
        tv.append(notions.tv_level(ch))
        kl.append(notions.kl_level(ch))
        tv_ref.append(max(0.5 * np.abs(ch.table[r] - ch.table[s]).sum() for r, s in pairs))
        kl_ref.append(max(float(special.rel_entr(ch.table[r], ch.table[s]).sum()) for r, s in pairs))
        e = notions.dp_epsilon(ch)
        tv_b.append(np.tanh(e / 2))
        kl_b.append(e * np.tanh(e / 2))
    tight = [notions.randomized_response(3, epsilon), notions.geometric_count(6, epsilon), notions.geometric_count(6, epsilon).expand()]
    return all_of(close(tv + kl, tv_ref + kl_ref, rtol=1e-12, detail="levels against every neighbouring pair"),
                  at_most(tv + kl, tv_b + kl_b, atol=1e-12, detail="below the bounds in epsilon_DP"),
                  close([notions.tv_level(c) for c in tight] + [notions.kl_level(c) for c in tight],
                        [np.tanh(epsilon / 2)] * 3 + [epsilon * np.tanh(epsilon / 2)] * 3, rtol=1e-12,
                        detail="randomized response and the geometric count attain both"))


@dp_bounds_tv_kl.mutant("notions._tv", "the L1 distance without the factor 1/2")
def _(original):
    return lambda p, q: 2.0 * original(p, q)


@dp_bounds_tv_kl.mutant("notions._kl", "KL in bits (log base 2)")
def _(original):
    return lambda lp, lq, p: original(lp, lq, p) / np.log(2.0)


@claim("notions/geometric-count-levels", item="Truncated geometric count: the neighbour levels in closed form",
       statement="For the truncated geometric count every neighbouring pair $(P(\\cdot \\mid k), P(\\cdot \\mid k+1))$ has privacy loss $+\\varepsilon$ on the outputs $y \\le k$ (mass $1/(1+e^{-\\varepsilon})$) and $-\\varepsilon$ above, so $\\delta_{DP}(\\varepsilon') = (1 - e^{\\varepsilon' - \\varepsilon})_+ / (1 + e^{-\\varepsilon})$, TV $= \\tanh(\\varepsilon/2)$, KL $= \\varepsilon \\tanh(\\varepsilon/2)$, whatever n.",
       method="every neighbouring pair of counts of the table built from the noise law (n = 40), hockey stick over the outputs, against the O(1) representation used at large n; and the closed form")
def geometric_count_levels(n: int = 40, epsilon: float = 0.6) -> Evidence:
    g = notions.geometric_count(n, epsilon)
    rows = np.exp(_geometric_rows(n, epsilon))
    grid = np.array([0.0, 0.1, 0.3, 0.59, 0.6, 1.2])
    hs = []
    for k in range(n):
        for p, q in ((rows[k], rows[k + 1]), (rows[k + 1], rows[k])):
            hs.append(np.maximum(p[None, :] - np.exp(grid)[:, None] * q[None, :], 0.0).sum(axis=1))
    brute = np.max(hs, axis=0)
    closed = np.maximum(-np.expm1(grid - epsilon), 0.0) / (1 + np.exp(-epsilon))
    tv_kl = [notions.tv_level(g), notions.kl_level(g), notions.dp_epsilon(g)]
    return all_of(close(notions.dp_delta(g, grid), brute, atol=1e-13, rtol=0.0, detail="delta against every pair of counts"),
                  close(brute, closed, atol=1e-13, rtol=0.0, detail="every pair of counts against the closed form"),
                  close(tv_kl, [np.tanh(epsilon / 2), epsilon * np.tanh(epsilon / 2), epsilon], rtol=1e-12,
                        detail="TV, KL and epsilon"))


@geometric_count_levels.mutant("notions.GeometricCount.neighbour_blocks", "mass of the +eps outputs P(Z = 0) instead of P(Z <= 0)")
def _(original):
    def wrong(self):
        c, r = np.tanh(self.epsilon / 2), np.exp(-self.epsilon)
        yield np.log([[c, 1 - c]]), np.log([[c * r, 1 - c * r]])
    return wrong


@geometric_count_levels.mutant("notions.GeometricCount.neighbour_blocks", "loss e^{2 eps} (sensitivity counted twice)")
def _(original):
    def wrong(self):
        t = 2 * self.epsilon
        end = -np.log1p(np.exp(-t))
        p = np.array([[end, end - t]])
        yield p, p[:, ::-1]
    return wrong
