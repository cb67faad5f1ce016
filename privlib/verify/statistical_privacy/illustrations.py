"""Claims of chapter 004, Illustrations (Section 7 conjecture, Lemma 1)."""

from __future__ import annotations

import numpy as np

from privlib.papers import statistical
from privlib.verify.claims import Evidence, at_most, claim


@claim("004/conjecture", item="Section 7 (conjecture)", kind="illustrated",
       statement="Numerical evidence for the open conjecture: subsampling at rate $\\lambda = m/n$ satisfies $\\delta_{SAMP}(\\log(1 + \\lambda(e^\\varepsilon - 1))) \\le \\lambda\\, \\delta_{pure}^{(m)}(\\varepsilon)$, with equality at $\\lambda = 1$.",
       method="definition-level deltas on a grid of n in {10, 50, 150}, every m (step n/10), pi in {0.05, 0.2, 0.5}, eps in {0.01, 0.1, 1}; evidence, not a proof")
def conjecture(seed: int = 0) -> Evidence:
    lhs, rhs = [], []
    for n in (10, 50, 150):
        for m in range(max(1, n // 10), n + 1, max(1, n // 10)):
            lam = m / n
            for pi in (0.05, 0.2, 0.5):
                for eps in (0.01, 0.1, 1.0):
                    lhs.append(float(statistical.subsampling_delta(statistical.amplified_epsilon(eps, lam), n, m, pi)))
                    rhs.append(lam * float(statistical.pure_delta(eps, m, pi)) if m > 1 else lam * 1.0)
    return at_most(lhs, rhs, atol=1e-12)


@claim("004/lemma-1", item="Lemma 1", kind="illustrated",
       statement="Statistical privacy survives post-processing and mixtures: coarsening or randomly re-mapping the output, or mixing two subsampling rates, never raises $\\delta$ above the worse of its parts.",
       method="subsampling laws (n = 200, m = 40, pi = 0.3) pushed through a random column-stochastic matrix and a coarsening, and a 50/50 mixture with m = 80, at 5 epsilons")
def lemma_1(seed: int = 11) -> Evidence:
    rng = np.random.default_rng(seed)
    n, m, pi = 200, 40, 0.3
    from privlib.core import profiles

    log_p, log_q = statistical.subsampling_laws(n, m, pi)
    p, q = np.exp(log_p), np.exp(log_q)
    eps = np.array([0.0, 0.02, 0.05, 0.1, 0.3])
    base = np.maximum(profiles.hockey_stick(p, q, eps), profiles.hockey_stick(q, p, eps))
    g = rng.dirichlet(np.ones(7), size=m + 1)                # random post-processing kernel
    coarse = np.eye(m // 5 + 1)[np.arange(m + 1) // 5]       # bucket j into j // 5
    after = [np.maximum(profiles.hockey_stick(p @ k, q @ k, eps), profiles.hockey_stick(q @ k, p @ k, eps)) for k in (g, coarse)]
    log_p2, log_q2 = statistical.subsampling_laws(n, 2 * m, pi)
    p2, q2 = 0.5 * np.exp(log_p2), 0.5 * np.exp(log_q2)
    # the mixture's output is the sample fraction j/m on a common grid of 2m + 1 values
    p2[::2] += 0.5 * p
    q2[::2] += 0.5 * q
    p2, q2 = p2 / p2.sum(), q2 / q2.sum()
    mix = np.maximum(profiles.hockey_stick(p2, q2, eps), profiles.hockey_stick(q2, p2, eps))
    other = statistical.subsampling_delta(eps, n, 2 * m, pi)
    return at_most(np.r_[after[0], after[1], mix], np.r_[base, base, np.maximum(base, other)], atol=1e-14)
