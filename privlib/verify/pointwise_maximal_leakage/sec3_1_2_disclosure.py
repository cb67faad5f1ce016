"""Claims of chapter 001, Sections 3.1-3.2: disclosure."""

from __future__ import annotations

import math

import numpy as np

from privlib.papers import leakage

from privlib.verify.claims import Evidence, all_of, at_most, claim, close, early, holds
from privlib.verify.source_mutants import edit
from privlib.verify.pointwise_maximal_leakage._routes import (
    _partition_kernels,
    _posterior_table,
    _random_channel,
    _sparse_channel,
)


@claim("001/thm-3", item="Theorem 3",
       statement="A disclosure to one full-support adversary is a disclosure to every full-support adversary: "
                 "on finite alphabets, whether some posterior of Z is degenerate depends only on which "
                 "likelihoods are zero, never on the prior.",
       method="30 random mechanisms with zeros x every attribute given by a partition of a 4-letter X x 8 random "
              "priors: privlib's posterior min-entropies against posteriors computed by hand, and its verdict "
              "(min over y equal to 0) against the support criterion (some output possible only from one block)")
def thm_3(seed: int = 3, mechanisms_count: int = 30, priors_count: int = 8) -> Evidence:
    rng = np.random.default_rng(seed)
    kernels = _partition_kernels(4)
    ours, hand, verdict_ok, disclosed, total = [], [], 0, 0, 0
    for _ in range(mechanisms_count):
        channel = _sparse_channel(rng, 4, 4)
        for kernel in kernels:
            # the support criterion: an output produced only by letters of one block
            blocks_per_y = [(kernel[channel[:, y] > 0].sum(axis=0) > 0).sum() for y in range(4)]
            structural = any(b == 1 for b in blocks_per_y)
            for prior in rng.dirichlet(np.ones(4), size=priors_count):
                h = leakage.posterior_min_entropy(prior, channel, kernel)
                post_z = kernel.T @ _posterior_table(prior, channel)
                ours.extend(h)
                hand.extend(-np.log(post_z.max(axis=0)))
                verdict_ok += bool((h.min() == 0.0) == structural)
                disclosed += structural
                total += 1
        early(close, ours, hand, atol=1e-14, rtol=1e-12)
        early(holds, verdict_ok == total)
    return all_of(
        close(ours, hand, atol=1e-14, rtol=1e-12, detail="posterior min-entropies vs hand posteriors"),
        holds(verdict_ok == total, observed=verdict_ok, reference=total,
              detail=f"prior-independent verdicts agree with the support criterion ({disclosed} of {total} cases disclose)"))


@thm_3.mutant("leakage.posterior_min_entropy", "returns 0 (disclosed) for every output")
def _(posterior_min_entropy):
    return lambda prior, channel, kernel=None: np.zeros(np.shape(channel)[-1])


@thm_3.mutant("leakage.posterior_min_entropy", "ignores the attribute (min-entropy of X instead of Z)")
def _(posterior_min_entropy):
    return lambda prior, channel, kernel=None: posterior_min_entropy(prior, channel)


@thm_3.mutant("leakage.posterior_min_entropy", "posterior normalised over outputs instead of inputs")
def _(posterior_min_entropy):
    def wrong(prior, channel, kernel=None):
        joint = np.asarray(prior)[:, None] * np.asarray(channel)
        post = joint / joint.sum(axis=1, keepdims=True)
        post_z = post if kernel is None else np.asarray(kernel).T @ post
        return -np.log(post_z.max(axis=0))
    return wrong


@claim("001/thm-3-limit", item="Theorem 3 (disclosure only in the limit)",
       statement=r"With $p(y \mid 0) = e^{-y}$ and $p(y \mid 1) = 2 e^{-2y}$ on $y \ge 0$, every full-support "
                 r"adversary's posterior min-entropy $\log(1 + 2 (q_1 / q_0) e^{-y})$ is positive at every $y$ and "
                 r"tends to 0: X is disclosed (Definition 3.2 is an infimum) although no outcome reveals it.",
       method="privlib's log-space posterior min-entropy from the two log-densities at y from 0 to 700 under five "
              "priors, against the closed form in 50-digit arithmetic (mpmath); positivity at every y")
def thm_3_limit() -> Evidence:
    import mpmath

    mpmath.mp.dps = 50
    ys = np.array([0.0, 1.0, 5.0, 20.0, 50.0, 100.0, 300.0, 700.0])
    log_lik = np.vstack([-ys, np.log(2.0) - 2.0 * ys])
    ours, exact = [], []
    for q1 in (0.01, 0.2, 0.5, 0.8, 0.99):
        prior = np.array([1.0 - q1, q1])
        ours.extend(leakage.posterior_min_entropy_from_likelihood(prior, log_lik))
        ratio = mpmath.mpf(q1) / mpmath.mpf(1.0 - q1)
        for y in ys:
            # posterior odds of X = 1 against X = 0: t = 2 (q1 / q0) e^{-y}
            t = 2 * ratio * mpmath.exp(-mpmath.mpf(y))
            exact.append(float(mpmath.log1p(t) if t < 1 else mpmath.log1p(1 / t)))
    ours = np.array(ours)
    return all_of(
        close(ours, exact, atol=0.0, rtol=1e-12, detail="posterior min-entropy vs the 50-digit closed form"),
        holds(bool((ours > 0).all()), observed=int((ours > 0).sum()), reference=ours.size,
              detail="positive at every finite y (no single outcome discloses X)"))


@thm_3_limit.mutant("leakage.posterior_min_entropy_from_likelihood", "posterior normalised in linear space (underflows)")
def _(f):
    def wrong(prior, log_likelihood, kernel=None):
        joint = np.asarray(prior)[:, None] * np.exp(np.asarray(log_likelihood))
        post = joint / joint.sum(axis=0)
        return -np.log(post.max(axis=0))
    return wrong


@thm_3_limit.mutant("leakage.posterior_min_entropy_from_likelihood", "-log of the largest posterior (no log1p of the rest)")
def _(f):
    def wrong(prior, log_likelihood, kernel=None):
        from scipy import special
        lj = np.log(np.asarray(prior))[:, None] + np.asarray(log_likelihood)
        return -(lj - special.logsumexp(lj, axis=0)).max(axis=0)
    return wrong


@claim("001/thm-4", item="Theorem 4",
       statement=r"Under $\varepsilon$-PML w.r.t. the true prior, every attribute $Z$ keeps posterior min-entropy at "
                 r"least $H_\infty(P_Z) - \varepsilon$, so attributes with $H_\infty(P_Z) > \varepsilon$ are never disclosed.",
       method="3000 random (prior, mechanism, randomized attribute) triples, and every partition attribute of 200 "
              "priors under channels with zeros; posteriors of Z computed from the joint table of (Z, X, Y)")
def thm_4(seed: int = 4, trials: int = 3000) -> Evidence:
    rng = np.random.default_rng(seed)
    lower, actual = [], []
    for _ in range(trials):
        nx, ny, nz = rng.integers(2, 6), rng.integers(2, 6), rng.integers(2, 5)
        prior = rng.dirichlet(np.ones(nx))
        channel = _random_channel(rng, nx, ny, 0.5)
        kernel = _random_channel(rng, nx, nz, 0.5)
        joint = prior[:, None, None] * kernel[:, :, None] * channel[:, None, :]  # [x, z, y]
        p_zy = joint.sum(axis=0)
        post_z = p_zy / p_zy.sum(axis=0, keepdims=True)
        lower.append(-np.log(p_zy.sum(axis=1).max()) - leakage.pml_sup(prior, channel))
        actual.append((-np.log(post_z.max(axis=0))).min())
        if len(lower) % 500 == 1:
            early(at_most, lower, actual, atol=1e-10)
    kernels = _partition_kernels(4)
    for _ in range(200):  # deterministic attributes, where equality is reached
        prior = rng.dirichlet(np.ones(4))
        channel = _sparse_channel(rng, 4, 3)
        eps = leakage.pml_sup(prior, channel)
        post = _posterior_table(prior, channel)
        for kernel in kernels:
            lower.append(-np.log((prior @ kernel).max()) - eps)
            actual.append((-np.log((kernel.T @ post).max(axis=0))).min())
        early(at_most, lower, actual, atol=1e-10)
    return at_most(lower, actual, atol=1e-10)


@thm_4.mutant("leakage.pml", "P_Y computed under the uniform prior instead of P_X")
def _(pml):
    return lambda prior, channel: pml(np.full(np.shape(prior), 1.0 / np.shape(prior)[-1]), channel)


@thm_4.mutant("leakage.pml", "the likelihood of the most likely input letter instead of the largest likelihood")
def _(pml):
    def wrong(prior, channel):
        prior, channel = np.asarray(prior, dtype=float), np.asarray(channel, dtype=float)
        return np.log(channel[np.argmax(prior)] / (prior @ channel))
    return wrong


@claim("001/prop-5", item="Proposition 5",
       statement=r"If an attribute $Z$ is disclosed, some attribute $Z'$ of lower min-entropy is disclosed too "
                 r"(Appendix A.3: $Z' = 1$ when $Z = z_1$, else with probability $\alpha$).",
       method="the construction on 100 random disclosing (prior, mechanism with zeros, partition attribute) triples: "
              "privlib's attribute laws and min-entropies against hand values, H(P_Z') < H(P_Z), and privlib's "
              "posterior min-entropy of Z' exactly 0 at the disclosing output (hand posterior 1)")
def prop_5(seed: int = 5, cases: int = 100) -> Evidence:
    rng = np.random.default_rng(seed)
    kernels = _partition_kernels(4)
    ours_h, hand_h, post_ours, post_hand, lower = [], [], [], [], 0
    found = 0
    while found < cases:
        prior = rng.dirichlet(np.ones(4))
        channel = _sparse_channel(rng, 4, 4)
        kernel = kernels[rng.integers(len(kernels))]
        post_z = kernel.T @ _posterior_table(prior, channel)
        y = int(np.argmax(post_z.max(axis=0)))
        if post_z[:, y].max() < 1.0 - 1e-12:
            continue  # Z is not disclosed by this mechanism
        found += 1
        p_z = prior @ kernel
        z1 = int(np.argmax(post_z[:, y]))
        # alpha above (p* - p_1) / (1 - p_1) makes P_Z'(1) exceed the mode of P_Z
        alpha = 0.5 * (1.0 + (p_z.max() - p_z[z1]) / (1.0 - p_z[z1]))
        to_zprime = np.column_stack([np.where(np.arange(p_z.size) == z1, 1.0, alpha),
                                     np.where(np.arange(p_z.size) == z1, 0.0, 1.0 - alpha)])
        kernel2 = kernel @ to_zprime
        for k_, law in ((kernel, p_z), (kernel2, prior @ kernel2)):
            ours_h.append(float(leakage.min_entropy(leakage.attribute_law(prior, k_))))
            hand_h.append(-np.log(law.max()))
        lower += ours_h[-1] < ours_h[-2]
        post_ours.append(float(leakage.posterior_min_entropy(prior, channel, kernel2)[y]))
        post_hand.append((kernel2.T @ _posterior_table(prior, channel))[0, y])
    return all_of(
        close(ours_h, hand_h, rtol=1e-12, detail="min-entropies of P_Z and P_Z' vs hand values"),
        holds(lower == cases, observed=lower, reference=cases, detail="H(P_Z') < H(P_Z) in every case"),
        holds(all(h == 0.0 for h in post_ours), observed=sum(h == 0.0 for h in post_ours), reference=cases,
              detail="privlib: Z' disclosed (posterior min-entropy exactly 0) at the same output"),
        close(post_hand, 1.0, atol=1e-12, rtol=0.0, detail="hand posterior of Z' = 1 there"))


@prop_5.mutant("leakage.attribute_law", "law of Z under the uniform prior instead of P_X")
def _(attribute_law):
    return lambda prior, kernel: attribute_law(np.full(np.shape(prior), 1.0 / np.shape(prior)[-1]), kernel)


@prop_5.mutant("leakage.min_entropy", "-log of the smallest probability instead of the largest")
def _(min_entropy):
    return lambda p: -np.log(np.asarray(p, dtype=float).min(axis=-1))


@prop_5.mutant("leakage.posterior_min_entropy", "ignores the attribute (min-entropy of X instead of Z)")
def _(posterior_min_entropy):
    return lambda prior, channel, kernel=None: posterior_min_entropy(prior, channel)


@claim("001/thm-6", item="Theorem 6",
       statement=r"With finite leakage capacity $\mathcal C$ no attribute is disclosed: $H_\infty(Q_{f(X) \mid Y=y}) "
                 r"\ge \log(1 + (e^{H_\infty(Q_{f(X)})} - 1) e^{-\mathcal C})$ for every prior and non-constant "
                 r"deterministic $f$; binary randomized response attains it.",
       method="all 51 partitions of a 5-letter alphabet into at least two blocks under 300 random priors and "
              "full-support channels (posteriors by hand); capacity against all pairs of inputs; equality for "
              "binary randomized response on a grid of capacities and priors; privlib's enumeration of the "
              "attributes (set partitions, k = 1..6) against an independent one and the Bell numbers")
def thm_6(seed: int = 6, trials: int = 300) -> Evidence:
    rng = np.random.default_rng(seed)
    kernels = _partition_kernels(5)
    # privlib's enumeration of the deterministic attributes (the partitions, constant f included)
    # against the independent one, and their numbers against the Bell numbers (exact recurrence)
    bell, enumerated, same = [1], [], True
    for k in range(1, 7):
        bell.append(sum(math.comb(k - 1, j) * bell[j] for j in range(k)))
        labels = leakage.set_partitions(k)
        hand = {tuple(int(a) for a in kernel.argmax(axis=1)) for kernel in _partition_kernels(k)} | {(0,) * k}
        enumerated.append(len(labels))
        same &= {tuple(int(a) for a in row) for row in labels} == hand
    early(holds, same)
    early(holds, enumerated == bell[1:])
    bounds, actual, caps, caps_brute = [], [], [], []
    for trial in range(trials):
        prior = rng.dirichlet(np.ones(5))
        channel = _random_channel(rng, 5, 4)
        cap = leakage.leakage_capacity(channel)
        caps.append(cap)
        caps_brute.append(np.log(channel.max(axis=0) / channel.min(axis=0)).max())
        post = _posterior_table(prior, channel)
        for kernel in kernels:
            bounds.append(leakage.capacity_entropy_bound(-np.log((prior @ kernel).max()), cap))
            actual.append((-np.log((kernel.T @ post).max(axis=0))).min())
        if trial % 50 == 0:
            early(close, caps, caps_brute, rtol=1e-12)
            early(at_most, bounds, actual, atol=1e-12)
    attained, predicted = [], []
    for c in (0.1, 1.0, 3.0):
        rr = np.array([[np.exp(c), 1.0], [1.0, np.exp(c)]]) / (1.0 + np.exp(c))
        for q in (0.55, 0.7, 0.95):
            prior = np.array([q, 1.0 - q])
            attained.append(-np.log(_posterior_table(prior, rr)[:, 0].max()))
            predicted.append(leakage.capacity_entropy_bound(-np.log(q), leakage.leakage_capacity(rr)))
    return all_of(
        holds(same, detail="set_partitions(k) is every partition of k letters (k = 1..6), against an independent enumeration"),
        holds(enumerated == bell[1:], observed=sum(enumerated), reference=sum(bell[1:]),
              detail="number of partitions, k = 1..6: the Bell numbers 1, 2, 5, ..., 203"),
        close(caps, caps_brute, rtol=1e-12, detail="leakage capacity vs brute force"),
        at_most(bounds, actual, atol=1e-12, detail=f"bound on {len(bounds)} (instance, partition) pairs"),
        close(predicted, attained, rtol=1e-10, detail="equality for binary randomized response"))


@thm_6.mutant("leakage.capacity_entropy_bound", "e^{+C} instead of e^{-C}")
def _(f):
    return lambda h, c: np.log1p(np.expm1(np.asarray(h)) * np.exp(np.asarray(c)))


@thm_6.mutant("leakage.capacity_entropy_bound", "the -1 dropped: H - C")
def _(f):
    return lambda h, c: np.asarray(h) - np.asarray(c)


@thm_6.mutant("leakage.leakage_capacity", "half the log-ratio (a square root of the likelihood ratio)")
def _(leakage_capacity):
    return lambda channel: 0.5 * leakage_capacity(channel)


@thm_6.mutant("leakage.set_partitions", "labels up to the largest so far, never a new block (range(top + 1))")
def _(f):
    return edit("for label in range(top + 2):", "for label in range(top + 1):")(f)
