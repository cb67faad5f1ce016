"""Claims of chapter 001 (Saeidian, Cervia, Oechtering & Skoglund, pointwise maximal leakage),
each checked by a route independent of privlib.papers.leakage's closed forms: linear programs over
randomized functions, posteriors computed by hand from joint tables, enumeration of attributes,
subsets, set partitions and databases, exact integer or 50-digit arithmetic, and direct
summation over all databases. Every verified claim declares mutants (plausible mistakes in the
privlib functions it checks) that make it fail."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from math import comb

import numpy as np
from scipy import optimize, stats

from privlib.papers import leakage
from privlib.core import mechanisms
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds, reference

PAPER = "001"


# --- independent helpers (no privlib.papers.leakage) ---------------------------------------------------

def _random_channel(rng: np.random.Generator, nx: int, ny: int, conc: float = 1.0) -> np.ndarray:
    return rng.dirichlet(np.full(ny, conc), size=nx)


def _sparse_channel(rng: np.random.Generator, nx: int, ny: int, keep: float = 0.6) -> np.ndarray:
    """A random channel with zeros (infinite leakage capacity unless no column mixes zeros)."""
    while True:
        mask = rng.random((nx, ny)) < keep
        if mask.all(axis=1).all() or not mask.any(axis=1).all():
            continue
        ch = rng.dirichlet(np.ones(ny), size=nx) * mask
        return ch / ch.sum(axis=1, keepdims=True)


@reference
def _posterior_table(prior: np.ndarray, channel: np.ndarray) -> np.ndarray:
    """P(x | y) from the joint table, by hand (no privlib); outputs of probability 0 get the prior."""
    joint = prior[:, None] * channel
    p_y = joint.sum(axis=0, keepdims=True)
    return np.where(p_y > 0, joint / np.where(p_y > 0, p_y, 1.0), prior[:, None])


@reference
def _pml_by_hand(prior: np.ndarray, channel: np.ndarray) -> np.ndarray:
    """log max_x P(y|x) / P_Y(y) over the prior's support, by hand (0 for impossible outputs)."""
    p_y = prior @ channel
    top = np.where(prior[:, None] > 0, channel, 0.0).max(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p_y > 0, np.log(top / np.where(p_y > 0, p_y, 1.0)), 0.0)


@reference
def _partition_kernels(k: int) -> list[np.ndarray]:
    """Every partition of {0..k-1} into at least two blocks, as a 0/1 kernel [x, block]
    (restricted growth strings, built here independently of privlib)."""
    out = []

    def grow(prefix: list[int], top: int) -> None:
        if len(prefix) == k:
            if top > 0:
                out.append(np.eye(top + 1)[prefix])
            return
        for label in range(top + 2):
            grow(prefix + [label], max(top, label))

    grow([0], 0)
    return out


def _approach_tolerance(delta: float, log_ratio: float) -> float:
    """How far a witness prior with mass delta off its target stays below a supremum that is the
    log of a likelihood ratio: about delta e^{log_ratio}; ten times that, rounded up to a power
    of ten."""
    return float(10.0 ** np.ceil(np.log10(10.0 * delta * np.exp(log_ratio))))


@reference
def randomized_function_lp(prior: np.ndarray, channel: np.ndarray, y: int, m: int | None = None) -> float:
    """``exp`` of Definition 2.3 for output y: the best ratio of posterior to prior guessing
    probability of any randomized function U of X with m values, by linear programming.

    For a cap t on max_u P_U(u), maximise P(U = 1 | Y = y) over kernels k_u(x) subject to
    sum_x P_X(x) k_u(x) <= t; then maximise value / t over t on a grid that contains every
    P_X(x) and 1/m."""
    nx = prior.size
    m = m or int(np.ceil(1.0 / prior.min())) + 1
    post = _posterior_table(prior, channel)[:, y]
    n_var = m * nx  # k[u, x] flattened
    c = np.zeros(n_var)
    c[:nx] = -post  # maximise sum_x post(x) k_1(x)
    a_eq = np.zeros((nx, n_var))
    for x in range(nx):
        a_eq[x, x::nx] = 1.0
    a_ub = np.zeros((m, n_var))
    for u in range(m):
        a_ub[u, u * nx:(u + 1) * nx] = prior
    best = 0.0
    for t in sorted(set(prior.tolist()) | {1.0 / m} | set(np.linspace(1.0 / m, 1.0, 25).tolist())):
        if t < 1.0 / m - 1e-15:
            continue
        res = optimize.linprog(c, A_ub=a_ub, b_ub=np.full(m, t), A_eq=a_eq, b_eq=np.ones(nx),
                               bounds=(0, 1), method="highs")
        if res.status == 0:
            best = max(best, -res.fun / t)
    return best


# --- Section 2 --------------------------------------------------------------------------------

@claim("001/thm-1", item="Theorem 1",
       statement=r"PML of an outcome, defined as the best gain in guessing any randomized function of $X$, "
                 r"equals $\ell(X \to y) = \log \max_x P(y \mid x) / P_Y(y)$.",
       method="linear program over randomized functions U of X (scipy HiGHS) for every outcome of random 3x3 "
              "and 4x3 mechanisms, against privlib's closed form")
def thm_1(seed: int = 1, trials: int = 4) -> Evidence:
    rng = np.random.default_rng(seed)
    lp, closed = [], []
    for t in range(trials):
        nx = 3 + t % 2
        prior = rng.dirichlet(np.ones(nx))
        prior = np.maximum(prior, 0.05)
        prior /= prior.sum()
        channel = _random_channel(rng, nx, 3)
        closed.extend(leakage.pml(prior, channel))
        lp.extend(np.log(randomized_function_lp(prior, channel, y)) for y in range(3))
    return close(closed, lp, atol=1e-7, rtol=0.0)


@thm_1.mutant("leakage.pml", "logarithm to base 2 instead of natural")
def _(pml):
    return lambda prior, channel: pml(prior, channel) / np.log(2.0)


@thm_1.mutant("leakage.pml", "P_Y computed under the uniform prior instead of P_X")
def _(pml):
    return lambda prior, channel: pml(np.full(np.shape(prior), 1.0 / np.shape(prior)[-1]), channel)


@claim("001/thm-2", item="Theorem 2",
       statement=r"The supremum of PML over all full-support priors and outcomes equals the leakage capacity "
                 r"$\mathcal C = \log \max_y \max_{x, x'} P(y \mid x) / P(y \mid x')$; it is approached, not attained.",
       method="leakage capacity against the brute-force maximum over all pairs of inputs; 2000 random Dirichlet "
              "priors never above it; the witness prior with mass 1 - 1e-10 on the input minimising the maximising "
              "column approaches it (within 10 delta e^C, rounded up to a power of ten)")
def thm_2(seed: int = 2) -> Evidence:
    rng = np.random.default_rng(seed)
    channel = _random_channel(rng, 4, 5)
    cap_brute = max(np.log(channel[x, y] / channel[x2, y]) for x in range(4) for x2 in range(4) for y in range(5))
    priors = rng.dirichlet(np.full(4, 0.3), size=2000)
    priors = np.maximum(priors, 1e-12)
    priors /= priors.sum(axis=1, keepdims=True)
    y_star = int(np.argmax(np.log(channel.max(axis=0)) - np.log(channel.min(axis=0))))
    delta = 1e-10
    witness = np.full(4, delta / 3)
    witness[int(np.argmin(channel[:, y_star]))] = 1 - delta
    return all_of(
        close(leakage.leakage_capacity(channel), cap_brute, rtol=1e-12, detail="capacity vs all pairs of inputs"),
        at_most(leakage.pml_sup(priors, channel), cap_brute, atol=1e-12, detail="2000 random priors never exceed it"),
        close(leakage.pml_sup(witness, channel), cap_brute, atol=_approach_tolerance(delta, cap_brute), rtol=0.0,
              detail="the witness prior approaches it"))


@thm_2.mutant("leakage.leakage_capacity", "ratio of the largest to the smallest entry of the whole matrix, not per column")
def _(leakage_capacity):
    return lambda channel: float(np.log(np.max(channel)) - np.log(np.min(channel)))


@thm_2.mutant("leakage.pml", "P_Y computed under the uniform prior instead of P_X")
def _(pml):
    return lambda prior, channel: pml(np.full(np.shape(prior), 1.0 / np.shape(prior)[-1]), channel)


# --- Section 3.1-3.2: disclosure --------------------------------------------------------------

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
    kernels = _partition_kernels(4)
    for _ in range(200):  # deterministic attributes, where equality is reached
        prior = rng.dirichlet(np.ones(4))
        channel = _sparse_channel(rng, 4, 3)
        eps = leakage.pml_sup(prior, channel)
        post = _posterior_table(prior, channel)
        for kernel in kernels:
            lower.append(-np.log((prior @ kernel).max()) - eps)
            actual.append((-np.log((kernel.T @ post).max(axis=0))).min())
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
              "binary randomized response on a grid of capacities and priors")
def thm_6(seed: int = 6, trials: int = 300) -> Evidence:
    rng = np.random.default_rng(seed)
    kernels = _partition_kernels(5)
    bounds, actual, caps, caps_brute = [], [], [], []
    for _ in range(trials):
        prior = rng.dirichlet(np.ones(5))
        channel = _random_channel(rng, 5, 4)
        cap = leakage.leakage_capacity(channel)
        caps.append(cap)
        caps_brute.append(np.log(channel.max(axis=0) / channel.min(axis=0)).max())
        post = _posterior_table(prior, channel)
        for kernel in kernels:
            bounds.append(leakage.capacity_entropy_bound(-np.log((prior @ kernel).max()), cap))
            actual.append((-np.log((kernel.T @ post).max(axis=0))).min())
    attained, predicted = [], []
    for c in (0.1, 1.0, 3.0):
        rr = np.array([[np.exp(c), 1.0], [1.0, np.exp(c)]]) / (1.0 + np.exp(c))
        for q in (0.55, 0.7, 0.95):
            prior = np.array([q, 1.0 - q])
            attained.append(-np.log(_posterior_table(prior, rr)[:, 0].max()))
            predicted.append(leakage.capacity_entropy_bound(-np.log(q), leakage.leakage_capacity(rr)))
    return all_of(
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


# --- Section 3.3: choosing epsilon ------------------------------------------------------------

@claim("001/prop-7", item="Proposition 7",
       statement=r"(1) A mechanism of infinite leakage capacity leaks at least $-\log(1 - p_{\min})$, so "
                 r"$\varepsilon$-PML below it forces $\mathcal C < \infty$; (2) that cost is attained: the cheapest "
                 r"disclosure answers 'is $X \ne x_{\min}$?'.",
       method="(1) 300 random mechanisms with zeros plus the mechanisms that hide x_min with probability delta: "
              "PML by hand never below privlib's cost, and privlib's capacity infinite for all; (2) enumeration of "
              "all 2^k - 2 subsets A and the mechanism 'Y = 1 w.p. 1e-9 iff X in A', PML by hand")
def prop_7(k: int = 5, seed: int = 7) -> Evidence:
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(k))
    cost = float(leakage.smallest_disclosure_cost(prior))
    leaks, caps = [], []
    for _ in range(300):
        channel = _sparse_channel(rng, k, 3)
        used = channel.max(axis=0) > 0  # outputs no input produces do not count
        if (channel[:, used].min(axis=0) > 0).all():
            continue  # finite capacity
        leaks.append(_pml_by_hand(prior, channel).max())
        caps.append(leakage.leakage_capacity(channel))
    for delta in (1e-3, 1e-6, 1e-9):  # the hard case: only x_min is ever excluded
        a = (np.arange(k) != np.argmin(prior)).astype(float)
        channel = np.column_stack([1 - delta * a, delta * a])
        leaks.append(_pml_by_hand(prior, channel).max())
        caps.append(leakage.leakage_capacity(channel))
    costs = {}
    for mask in itertools.product([0, 1], repeat=k):
        if 0 < sum(mask) < k:
            a = np.array(mask, dtype=float)
            costs[mask] = float(_pml_by_hand(prior, np.column_stack([1 - 1e-9 * a, 1e-9 * a])).max())
    best = min(costs, key=costs.get)
    expected = tuple(int(i != np.argmin(prior)) for i in range(k))
    return all_of(
        at_most(np.full(len(leaks), cost), leaks, atol=1e-12,
                detail=f"part 1: {len(leaks)} mechanisms of infinite capacity leak at least the cost"),
        holds(bool(np.isinf(caps).all()), observed=int(np.isinf(caps).sum()), reference=len(caps),
              detail="privlib's leakage capacity is infinite for each"),
        holds(best == expected, detail="part 2: the cheapest subset is the complement of x_min"),
        close(cost, costs[best], atol=1e-8, rtol=0.0, detail="part 2: its leakage equals the cost"))


@prop_7.mutant("leakage.smallest_disclosure_cost", "-log(1 - p_max): the largest letter instead of the smallest")
def _(f):
    return lambda prior: -np.log1p(-np.asarray(prior).max(axis=-1))


@prop_7.mutant("leakage.smallest_disclosure_cost", "-log p_min: the cost of releasing x_min in the clear")
def _(f):
    return lambda prior: -np.log(np.asarray(prior).min(axis=-1))


@prop_7.mutant("leakage.leakage_capacity", "columns with a zero skipped (finite capacity)")
def _(f):
    def wrong(channel):
        ch = np.asarray(channel, dtype=float)
        ok = ch.min(axis=0) > 0
        return float(np.log(ch[:, ok].max(axis=0) / ch[:, ok].min(axis=0)).max()) if ok.any() else 0.0
    return wrong


@claim("001/cor-8", item="Corollary 8",
       statement=r"$\varepsilon$-PML with $\varepsilon < H_\infty(P_X)$ never singles out $X$ (and then every "
                 r"posterior keeps min-entropy at least $H_\infty(P_X) - \varepsilon$); the threshold is tight.",
       method="500 random mechanisms with zeros (many of which single out a letter, i.e. have an output produced by "
              "one letter only): privlib's PML below the threshold never comes with singling out (posteriors by "
              "hand), the min-entropy margin holds for all, and 'Y = 1 w.p. 1e-9 iff X = x_max' singles out at "
              "PML equal to the threshold")
def cor_8(seed: int = 8, trials: int = 500) -> Evidence:
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(4))
    threshold = float(leakage.singling_out_threshold(prior))
    below_and_singled, below, singled, lower, actual = 0, 0, 0, [], []
    for _ in range(trials):
        channel = _sparse_channel(rng, 4, 3, keep=0.5)
        eps = float(leakage.pml_sup(prior, channel))
        post = _posterior_table(prior, channel)
        single = bool((post.max(axis=0) == 1.0).any())
        singled += single
        below += eps < threshold - 1e-9  # at x_max itself the leakage equals the threshold
        below_and_singled += single and eps < threshold - 1e-9
        lower.append(-np.log(prior.max()) - eps)
        actual.append((-np.log(post.max(axis=0))).min())
    indicator = (np.arange(4) == np.argmax(prior)).astype(float)
    tight = np.column_stack([1 - 1e-9 * indicator, 1e-9 * indicator])
    tight_post = _posterior_table(prior, tight)
    return all_of(
        holds(below_and_singled == 0, observed=below_and_singled, reference=0,
              detail=f"of {trials} mechanisms, {singled} single out X and {below} are below the threshold; none both"),
        at_most(lower, actual, atol=1e-10, detail="H(P_X) - sup PML <= smallest posterior min-entropy"),
        holds(bool(tight_post[:, 1].max() == 1.0), detail="the threshold mechanism singles out x_max"),
        close(leakage.pml_sup(prior, tight), -np.log(prior.max()), atol=1e-8, rtol=0.0,
              detail="at PML equal to H(P_X)"))


@cor_8.mutant("leakage.singling_out_threshold", "-log p_min (the clear-release cost) instead of H(P_X)")
def _(f):
    return lambda prior: -np.log(np.asarray(prior).min(axis=-1))


@cor_8.mutant("leakage.pml", "P_Y computed under the uniform prior instead of P_X")
def _(pml):
    return lambda prior, channel: pml(np.full(np.shape(prior), 1.0 / np.shape(prior)[-1]), channel)


# --- Examples 3.1-3.3 -------------------------------------------------------------------------

@reference
def _exact_cell_masses(n: int, steps: list[int], weights: list[int], lattice: int, cells: int = 10) -> np.ndarray:
    """Cell probabilities of the quantised mean of n draws, from the exact integer coefficients of
    (sum_s w_s z^steps_s)^n (Python integers, no rounding), divided by (sum w)^n at the end."""
    poly = [1]
    base = [0] * (max(steps) + 1)
    for s, w in zip(steps, weights):
        base[s] += w
    for _ in range(n):
        new = [0] * (len(poly) + len(base) - 1)
        for i, a in enumerate(poly):
            if a:
                for j, b in enumerate(base):
                    if b:
                        new[i + j] += a * b
        poly = new
    total = sum(weights) ** n
    masses = [0] * cells
    for t, a in enumerate(poly):
        masses[min(t * cells // (lattice * n), cells - 1)] += a
    return np.array([m / total for m in masses])


@claim("001/ex-3-1", item="Example 3.1",
       statement="The quantised sample mean is a global feature: its min-entropy tends to 0 with n (not "
                 "monotonically), while one row keeps min-entropy $H_\\infty(P)$ for every n.",
       method="exact integer polynomial powers for n = 1, 10, 50, 200 (and a mean on a cell edge); for n up to 10^7, "
              "Hoeffding's bound -log(1 - 2 exp(-2 n d^2)) with d the distance from the mean to the nearest cell edge")
def ex_3_1() -> Evidence:
    ours, exact = [], []
    for n in (1, 10, 50, 200):
        ours.append(leakage.quantized_mean_min_entropy(n, [0.0, 0.25, 1.0], [0.5, 0.3, 0.2]))
        exact.append(-np.log(_exact_cell_masses(n, [0, 1, 4], [5, 3, 2], 4).max()))
    for n in (10, 100):
        ours.append(leakage.quantized_mean_min_entropy(n, [0.0, 0.5, 1.0], [0.3, 0.4, 0.3]))
        exact.append(-np.log(_exact_cell_masses(n, [0, 1, 2], [3, 4, 3], 2).max()))
    sizes = np.array([10**3, 10**4, 10**5, 10**7])
    large = [leakage.quantized_mean_min_entropy(int(n), [0.0, 0.25, 1.0], [0.5, 0.3, 0.2]) for n in sizes]
    d = 0.025  # mean 0.275, cell [0.2, 0.3)
    hoeffding = -np.log1p(-np.minimum(2.0 * np.exp(-2.0 * sizes * d**2), 0.999))
    return all_of(
        close(ours, exact, rtol=1e-11, detail="min-entropies vs exact integer arithmetic"),
        holds(bool(exact[1] > exact[0]), detail="not monotone: n = 10 above n = 1"),
        at_most(large, hoeffding, atol=1e-12, detail="tends to 0: below Hoeffding's bound at n = 10^3 .. 10^7"))


@ex_3_1.mutant("leakage.quantized_mean_min_entropy", "one draw too many (n + 1)")
def _(f):
    return lambda n, support, probs, cells=10: f(n + 1, support, probs, cells)


@ex_3_1.mutant("leakage.quantized_mean_min_entropy", "cells shifted by one lattice step (ceil instead of floor)")
def _(f):
    def wrong(n, support, probs, cells=10):
        lattice, steps = leakage._lattice(np.asarray(support, dtype=float))
        t, law = leakage._lattice_sum_law(n, steps, np.asarray(probs, dtype=float))
        cell = np.minimum(-((-t * cells) // (lattice * n)), cells - 1)
        return float(-np.log(np.bincount(cell, weights=law, minlength=cells).max()))
    return wrong


@ex_3_1.mutant("leakage._lattice_sum_law", "window of one standard deviation (mass silently lost)")
def _(f):
    def wrong(n, steps, probs):
        t, law = f(n, steps, probs)
        mean, sd = n * (probs @ steps), np.sqrt(n * (probs @ steps**2 - (probs @ steps) ** 2))
        keep = np.abs(t - mean) <= max(sd, 0.5)
        return t[keep], law[keep]
    return wrong


@reference
def _exact_relative_frequencies(n: int, group: float, r_in: float, r_out: float, cells: int) -> float:
    """Min-entropy of the pair of quantised frequencies by enumerating all multinomial counts
    (members with / without the event, others with / without) of n records."""
    probs = [group * r_in, group * (1 - r_in), (1 - group) * r_out, (1 - group) * (1 - r_out)]
    joint: dict[tuple[int, int], float] = {}

    def cell(d: int, m: int) -> int:
        return cells if m == 0 else min(d * cells // m, cells - 1)

    for a in range(n + 1):
        for b in range(n + 1 - a):
            for c in range(n + 1 - a - b):
                d = n - a - b - c
                p = (comb(n, a) * comb(n - a, b) * comb(n - a - b, c)
                     * probs[0] ** a * probs[1] ** b * probs[2] ** c * probs[3] ** d)
                key = (cell(a, a + b), cell(c, c + d))
                joint[key] = joint.get(key, 0.0) + p
    return float(-np.log(max(joint.values())))


@claim("001/ex-3-2", item="Example 3.2",
       statement="The quantised relative frequencies of lung disease among smokers and among non-smokers in an "
                 "i.i.d. database are global features: their joint min-entropy tends to 0 as n grows (rates inside "
                 "quantisation cells), so an insurer learning them learns what the prior already implies.",
       method="privlib's exact mixture over the number of smokers against enumeration of all multinomial count "
              "vectors (n = 1, 5, 12, 25), and against 10^5 simulated databases at n = 2000 (tolerance 5.3 "
              "standard errors: family-wise error 1e-6 over the cells compared); decrease at n = 10^4, 10^5")
def ex_3_2(group: float = 0.3, rate_smokers: float = 0.25, rate_others: float = 0.05, seed: int = 32) -> Evidence:
    cells = 10
    ours = [leakage.relative_frequencies_min_entropy(n, group, rate_smokers, rate_others, cells) for n in (1, 5, 12, 25)]
    exact = [_exact_relative_frequencies(n, group, rate_smokers, rate_others, cells) for n in (1, 5, 12, 25)]
    rng = np.random.default_rng(seed)
    n, draws = 2000, 100_000
    counts = rng.multinomial(n, [group * rate_smokers, group * (1 - rate_smokers),
                                 (1 - group) * rate_others, (1 - group) * (1 - rate_others)], size=draws)
    m_s, m_o = counts[:, 0] + counts[:, 1], counts[:, 2] + counts[:, 3]
    c_s = np.where(m_s > 0, np.minimum(counts[:, 0] * cells // np.maximum(m_s, 1), cells - 1), cells)
    c_o = np.where(m_o > 0, np.minimum(counts[:, 2] * cells // np.maximum(m_o, 1), cells - 1), cells)
    freq = np.bincount(c_s * (cells + 1) + c_o, minlength=(cells + 1) ** 2) / draws
    modal = float(freq.max())
    tol = 5.3 * np.sqrt(modal * (1 - modal) / draws) + 1.0 / draws
    large = [leakage.relative_frequencies_min_entropy(n_, group, rate_smokers, rate_others, cells) for n_ in (n, 10**4, 10**5)]
    return all_of(
        close(ours, exact, rtol=1e-10, detail="vs enumeration of all count vectors"),
        close(np.exp(-large[0]), modal, atol=float(tol), rtol=0.0, detail="modal-cell probability vs simulation at n = 2000"),
        holds(bool(large[0] > large[1] > large[2]), detail="decreasing at n = 2000, 10^4, 10^5"))


@ex_3_2.mutant("leakage.relative_frequencies_min_entropy", "the two rates swapped")
def _(f):
    return lambda n, group, a, b, cells=10: f(n, group, b, a, cells)


@ex_3_2.mutant("leakage.relative_frequencies_min_entropy", "group probability used as 1 - group")
def _(f):
    return lambda n, group, a, b, cells=10: f(n, 1.0 - group, a, b, cells)


@reference
def _exact_threshold_leakages(n_max: int, p: float) -> tuple[list[float], list[float]]:
    """-log P(S <= n/2) and -log P(S > n/2) for S ~ Bin(n, p), n = 1..n_max, in exact integer
    arithmetic on the binary value of p (p = a / D): D^n P(S = k) is an integer, built by the
    recurrence c_n(k) = a c_{n-1}(k - 1) + (D - a) c_{n-1}(k); the larger tail's leakage is
    -log1p(-smaller tail), so both are correctly rounded."""
    a, d = Fraction(p).numerator, Fraction(p).denominator
    row = [1]
    no, yes = [], []
    for n in range(1, n_max + 1):
        row = [(a * row[k - 1] if k > 0 else 0) + ((d - a) * row[k] if k < n else 0) for k in range(n + 1)]
        low, high, total = sum(row[: n // 2 + 1]), sum(row[n // 2 + 1:]), d**n
        small = float(Fraction(min(low, high), total))
        big = -math.log1p(-small)
        tiny = -(math.log(min(low, high)) - n * math.log(d))
        no.append(tiny if low <= high else big)
        yes.append(big if low <= high else tiny)
    return no, yes


@claim("001/ex-3-3", item="Example 3.3 (Figure 1)",
       statement=r"The exact leakage of either answer to 'more than n/2 of n Bernoulli(p) entries?' is "
                 r"$-\log P(\text{answer})$, and for the typical answer (no for $p < 1/2$, yes for $p > 1/2$) it is at "
                 r"most the Chernoff bound $-\log(1 - (4p(1-p))^{n/2})$.",
       method="exact binomial tails in integer arithmetic on the binary value of p, for n = 1..n_max and "
              "p in {0.05, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 0.95}: privlib's exact leakage of both answers (relative "
              "error 1e-10) and its Chernoff bound above the typical answer's")
def ex_3_3(n_max: int = 120) -> Evidence:
    exact_typical, bound, ours, exact_both = [], [], [], []
    ns = np.arange(1, n_max + 1)
    for p in (0.05, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 0.95):
        no, yes = _exact_threshold_leakages(n_max, p)
        exact_both.extend(np.column_stack([no, yes]).ravel())
        exact_typical.extend(no if p < 0.5 else yes)
        bound.extend(leakage.threshold_query_chernoff_bound(ns, p))
        ours.extend(np.column_stack([leakage.threshold_query_leakage(ns, p, 0),
                                     leakage.threshold_query_leakage(ns, p, 1)]).ravel())
    return all_of(
        close(ours, exact_both, atol=0.0, rtol=1e-10, detail="exact leakage of both answers"),
        at_most(exact_typical, bound, atol=0.0, detail="the typical answer's leakage is below the Chernoff bound"))


@ex_3_3.mutant("leakage.threshold_query_chernoff_bound", "exponent n instead of n / 2")
def _(f):
    return lambda n, p: -np.log1p(-(4 * np.asarray(p) * (1 - np.asarray(p))) ** np.asarray(n, dtype=float))


@ex_3_3.mutant("leakage.threshold_query_leakage", "threshold 'at least n/2' instead of 'more than n/2'")
def _(f):
    def wrong(n, p, answer=0):
        n = np.asarray(n, dtype=float)
        k = np.ceil(n / 2.0) - 1
        return -(stats.binom.logsf(k, n, p) if answer == 1 else stats.binom.logcdf(k, n, p))
    return wrong


@ex_3_3.mutant("leakage.threshold_query_leakage", "the 'no' tail from 1 - P(yes) in linear space")
def _(f):
    def wrong(n, p, answer=0):
        n = np.asarray(n, dtype=float)
        tail = stats.binom.sf(np.floor(n / 2.0), n, p)
        return -np.log(tail) if answer == 1 else -np.log(1.0 - tail)
    return wrong


# --- Section 4: databases ---------------------------------------------------------------------

def _databases(k: int, n: int) -> np.ndarray:
    return np.array(list(itertools.product(range(k), repeat=n)))


def _geometric_count_channel(n: int, eps: float) -> np.ndarray:
    """A truncated-geometric count mechanism on all binary databases of n entries."""
    counts = _databases(2, n).sum(axis=1)
    ys = np.arange(n + 1)
    kern = np.exp(-eps * np.abs(ys[None, :] - counts[:, None]))
    return kern / kern.sum(axis=1, keepdims=True)


@reference
def _dp_by_pairs(dbs: np.ndarray, channel: np.ndarray) -> tuple[float, tuple]:
    """The DP parameter from every ordered pair of neighbouring databases, and its witness
    (i, a, b, y) with a the database of larger probability."""
    best, arg = 0.0, None
    for a, b in itertools.permutations(range(len(dbs)), 2):
        diff = np.flatnonzero(dbs[a] != dbs[b])
        if diff.size == 1:
            ratios = np.log(channel[a]) - np.log(channel[b])
            y = int(np.argmax(ratios))
            if ratios[y] > best:
                best, arg = float(ratios[y]), (int(diff[0]), a, b, y)
    return best, arg


@reference
def _entry_pml_by_hand(prior: np.ndarray, dbs: np.ndarray, channel: np.ndarray, i: int, k: int) -> np.ndarray:
    joint = prior[:, None] * channel
    rows = np.array([joint[dbs[:, i] == a].sum(axis=0) for a in range(k)])  # P(X_i = a, y)
    lik = rows / rows.sum(axis=1, keepdims=True)
    return np.log(lik.max(axis=0) / rows.sum(axis=0))


@reference
def _conditional_by_hand(prior: np.ndarray, dbs: np.ndarray, channel: np.ndarray, i: int, k: int) -> np.ndarray:
    others = [j for j in range(dbs.shape[1]) if j != i]
    out = []
    for rest in itertools.product(range(k), repeat=len(others)):
        sel = np.all(dbs[:, others] == np.array(rest), axis=1)
        p = prior[sel] / prior[sel].sum()
        out.append(np.log(channel[sel].max(axis=0) / (p @ channel[sel])))
    return np.array(out)


def _product(marginals: list[np.ndarray]) -> np.ndarray:
    out = np.ones(1)
    for m in marginals:
        out = np.outer(out, m).ravel()
    return out


def _concentrated(k: int, letter: int, delta: float) -> np.ndarray:
    row = np.full(k, delta / (k - 1))
    row[letter] = 1.0 - delta
    return row


@claim("001/thm-9", item="Theorem 9",
       statement=r"A mechanism on databases is $\varepsilon$-DP iff (1) the PML of entry $i$ given all other entries "
                 r"is at most $\varepsilon$ under every full-support prior, iff (2) the same over product priors, iff "
                 r"(3) the unconditional PML of each entry is at most $\varepsilon$ under every product prior; each "
                 r"supremum equals the DP parameter and is approached, not attained.",
       method="all databases of a random mechanism (3 letters, 2 entries; also with its entries exchanged) and of a "
              "truncated-geometric count (2 letters, 3 entries): privlib's DP parameter against every ordered neighbouring pair; its entry and "
              "conditional PML against hand marginalisation under random correlated priors; 150 random correlated "
              "and product priors never above the DP parameter; witness priors concentrated to 1e-10 approach it")
def thm_9(seed: int = 9, epsilon: float = 0.7) -> Evidence:
    rng = np.random.default_rng(seed)
    random_channel = _random_channel(rng, 9, 4)
    swapped = random_channel.reshape(3, 3, 4).transpose(1, 0, 2).reshape(9, 4)  # entries 1 and 2 exchanged
    cases = [(3, 2, random_channel), (3, 2, swapped), (2, 3, _geometric_count_channel(3, epsilon))]
    dp_ours, dp_brute, pml_ours, pml_hand, cond_ours, cond_hand = [], [], [], [], [], []
    sup1, sup2, sup3, bound1, bound2, bound3, wit, wit_ref = [], [], [], [], [], [], [], []
    for k, n, channel in cases:
        dbs = _databases(k, n)
        eps, (i_star, a, b, y) = _dp_by_pairs(dbs, channel)
        dp_ours.append(leakage.database_dp_epsilon(channel, k))
        dp_brute.append(eps)
        for prior in rng.dirichlet(np.ones(k**n), size=20):
            for i in range(n):
                pml_ours.extend(leakage.entry_pml(prior, channel, i, k))
                pml_hand.extend(_entry_pml_by_hand(prior, dbs, channel, i, k))
                cond_ours.extend(leakage.conditional_entry_pml(prior, channel, i, k).ravel())
                cond_hand.extend(_conditional_by_hand(prior, dbs, channel, i, k).ravel())
        for _ in range(150):
            corr = rng.dirichlet(np.ones(k**n))
            prod = _product([rng.dirichlet(np.ones(k)) for _ in range(n)])
            for i in range(n):
                sup1.append(leakage.conditional_entry_pml(corr, channel, i, k).max())
                sup2.append(leakage.conditional_entry_pml(prod, channel, i, k).max())
                sup3.append(leakage.entry_pml(prod, channel, i, k).max())
        bound1 += [eps] * (len(sup1) - len(bound1))
        bound2 += [eps] * (len(sup2) - len(bound2))
        bound3 += [eps] * (len(sup3) - len(bound3))
        # witnesses (proof of Theorem 9): entry i concentrated on the letter of the smaller
        # likelihood, the other entries on the maximising rest of the database (8)
        delta = 1e-10
        marg = [_concentrated(k, dbs[a][j], delta) for j in range(n)]
        marg[i_star] = _concentrated(k, dbs[b][i_star], delta)
        prod = _product(marg)
        rest = [j for j in range(n) if j != i_star]
        rest_index = int(np.ravel_multi_index(tuple(dbs[a][rest]), (k,) * len(rest)))
        corr = rng.dirichlet(np.ones(k**n))
        sel = np.all(dbs[:, rest] == dbs[a][rest], axis=1)
        corr[sel] = 0.5 * _concentrated(k, dbs[b][i_star], delta)  # P(X_i | x_-i*) concentrated, correlated elsewhere
        corr /= corr.sum()
        wit += [leakage.conditional_entry_pml(corr, channel, i_star, k)[rest_index, y],
                leakage.conditional_entry_pml(prod, channel, i_star, k)[rest_index, y],
                leakage.entry_pml(prod, channel, i_star, k)[y]]
        wit_ref += [eps] * 3
    return all_of(
        close(dp_ours, dp_brute, rtol=1e-12, detail="DP parameter vs every neighbouring pair"),
        close(pml_ours, pml_hand, atol=1e-13, rtol=1e-10, detail="entry PML vs hand marginalisation"),
        close(cond_ours, cond_hand, atol=1e-13, rtol=1e-10, detail="conditional entry PML vs hand conditioning"),
        at_most(sup1, bound1, atol=1e-12, detail="part 1: correlated priors, conditional PML"),
        at_most(sup2, bound2, atol=1e-12, detail="part 2: product priors, conditional PML"),
        at_most(sup3, bound3, atol=1e-12, detail="part 3: product priors, entry PML"),
        close(wit, wit_ref, atol=_approach_tolerance(1e-10, max(dp_brute)), rtol=0.0,
              detail="witness priors approach the DP parameter in parts 1-3"))


@thm_9.mutant("leakage.database_dp_epsilon", "only the first entry's neighbours")
def _(f):
    def wrong(channel, alphabet_size):
        ch = np.asarray(channel, dtype=float)
        k = alphabet_size
        n = int(round(np.log(ch.shape[0]) / np.log(k)))
        lp = np.log(ch).reshape((k,) * n + (ch.shape[1],))
        return float((lp.max(axis=0) - lp.min(axis=0)).max())
    return wrong


@thm_9.mutant("leakage.conditional_entry_pml", "entry's marginal used instead of its conditional given the rest")
def _(f):
    def wrong(prior, channel, i, alphabet_size):
        prior = np.asarray(prior, dtype=float)
        k = alphabet_size
        n = int(round(np.log(prior.size) / np.log(k)))
        p = np.moveaxis(prior.reshape((k,) * n), i, 0).reshape(k, -1)
        ch = np.moveaxis(np.asarray(channel).reshape((k,) * n + (-1,)), i, 0).reshape(k, -1, np.shape(channel)[1])
        marginal = p.sum(axis=1)
        return np.array([leakage.pml(marginal, ch[:, r, :]) for r in range(p.shape[1])])
    return wrong


@claim("001/remark-13", item="Remark 13",
       statement=r"The suprema of Theorems 9 and 11 are not attained by full-support priors; checked for Theorem 9 "
                 r"part 3: along the proof's witness product priors (mass $1 - \delta$ on the extreme letters) the "
                 r"gap between the DP parameter and the largest single-entry PML is positive and shrinks with $\delta$.",
       method="a truncated-geometric count on all databases of 2 binary entries; for delta = 1e-1 .. 1e-4 the gap "
              "from privlib's DP parameter and entry PML against the same gap in 50-digit arithmetic from the exact "
              "binary values of the channel and the prior (mpmath), and the exact gaps positive and decreasing")
def remark_13(epsilon: float = 0.7) -> Evidence:
    import mpmath

    mpmath.mp.dps = 50
    k, n = 2, 2
    dbs = _databases(k, n)
    channel = _geometric_count_channel(n, epsilon)
    eps, (i_star, a, b, y) = _dp_by_pairs(dbs, channel)
    exact_eps = max(mpmath.log(mpmath.mpf(channel[u, t]) / mpmath.mpf(channel[w, t]))
                    for u, w in itertools.permutations(range(k**n), 2) if (dbs[u] != dbs[w]).sum() == 1
                    for t in range(channel.shape[1]))
    ours, exact = [], []
    for delta in (1e-1, 1e-2, 1e-3, 1e-4):
        marg = [_concentrated(k, dbs[a][j], delta) for j in range(n)]
        marg[i_star] = _concentrated(k, dbs[b][i_star], delta)
        prior = _product(marg)
        ours.append(leakage.database_dp_epsilon(channel, k) - leakage.entry_pml(prior, channel, i_star, k).max())
        # the entry's PML in 50 digits: P(y | X_i = c) from the joint table, max over outputs
        rows = [[mpmath.fsum(mpmath.mpf(prior[x]) * mpmath.mpf(channel[x, t]) for x in range(k**n) if dbs[x][i_star] == c)
                 for t in range(channel.shape[1])] for c in range(k)]
        marginal = [mpmath.fsum(r) for r in rows]
        best = max(mpmath.log(max(rows[c][t] / marginal[c] for c in range(k)) / mpmath.fsum(rows[c][t] for c in range(k)))
                   for t in range(channel.shape[1]))
        exact.append(float(exact_eps - best))
    positive_decreasing = all(g > 0 for g in exact) and all(x > y_ for x, y_ in zip(exact, exact[1:]))
    return all_of(
        close(ours, exact, atol=1e-13, rtol=1e-9, detail="gap: DP parameter minus the largest entry PML"),
        holds(positive_decreasing, detail="the exact gaps are positive and decrease with delta (never attained)"))


@remark_13.mutant("leakage.database_dp_epsilon", "all pairs of databases (the free-lunch parameter)")
def _(f):
    return lambda channel, alphabet_size: leakage.free_lunch_epsilon(channel)


@remark_13.mutant("leakage.pml", "P_Y computed under the uniform prior instead of P_X")
def _(pml):
    return lambda prior, channel: pml(np.full(np.shape(prior), 1.0 / np.shape(prior)[-1]), channel)


@claim("001/thm-10", item="Theorem 10",
       statement=r"On correlated data an $\varepsilon$-DP mechanism can leak about one entry almost as much as "
                 r"releasing it: with all $n$ entries equal (or equal with probability $\rho$) and "
                 r"$Y = \sum_i X_i + \mathrm{Lap}(1/\varepsilon)$, $\sup_y \ell(X_1 \to y) \to -\log \min(\theta, 1-\theta)$.",
       method="privlib's tail formula against the supremum over a fine output grid of the PML computed by direct "
              "summation of the mixture densities (binomial weights from scipy) at n = 20, theta = 0.3, "
              "rho in {0.1, 1}; the limit: within 1e-9 of the ceiling, and never above it, for n up to 4000")
def thm_10(n: int = 20, theta: float = 0.3, epsilon: float = 0.1) -> Evidence:
    lap = mechanisms.LaplaceMechanism(epsilon)
    y = np.linspace(-80.0, n + 80.0, 40001)
    closed, grid = [], []
    k = np.arange(n)
    log_w = stats.binom.logpmf(k, n - 1, theta)
    for rho in (0.1, 1.0):
        dens = []
        for z in (0, 1):
            iid = np.logaddexp.reduce(log_w[:, None] + lap.logpdf(y[None, :], (k + z)[:, None].astype(float)), axis=0)
            together = lap.logpdf(y, float(n * z))
            dens.append(np.logaddexp(np.log(rho) + together, np.log1p(-rho) + iid) if rho < 1 else together)
        mix = np.logaddexp(np.log(theta) + dens[1], np.log1p(-theta) + dens[0])
        grid.append(float((np.maximum(dens[0], dens[1]) - mix).max()))
        closed.append(float(leakage.correlated_count_pml_sup(n, theta, epsilon, rho)))
    ceiling = -np.log(min(theta, 1 - theta))
    sizes = np.array([10, 100, 1000, 4000])
    limit = np.concatenate([leakage.correlated_count_pml_sup(sizes, theta, eps, rho)
                            for eps in (0.1, 1.0) for rho in (0.1, 1.0)])
    return all_of(
        close(closed, grid, atol=1e-9, rtol=0.0, detail="sup over outputs vs a fine grid (n = 20)"),
        at_most(limit, np.full(limit.size, ceiling), atol=1e-12, detail="never above -log min(theta, 1 - theta)"),
        close(limit.reshape(4, -1)[:, -1], ceiling, atol=1e-9, rtol=0.0, detail="reaches it at n = 4000"))


@thm_10.mutant("leakage.correlated_count_pml_sup", "the equal-entries component shifted by eps, not n eps")
def _(f):
    def wrong(n, theta, epsilon, rho):
        n, r = np.broadcast_arrays(np.asarray(n, dtype=float), np.asarray(rho, dtype=float))
        log_ap, log_am = np.log1p(theta * np.expm1(epsilon)), np.log1p(theta * np.expm1(-epsilon))
        with np.errstate(divide="ignore"):
            log_r, log_1r = np.log(r), np.log1p(-r)

        def tail(sign, log_a):
            m1 = np.logaddexp(log_r + sign * epsilon, log_1r + sign * epsilon + (n - 1) * log_a)
            m0 = np.logaddexp(log_r, log_1r + (n - 1) * log_a)
            return np.maximum(m0, m1) - np.logaddexp(np.log(theta) + m1, np.log1p(-theta) + m0)

        return np.maximum(tail(1.0, log_ap), tail(-1.0, log_am))
    return wrong


@thm_10.mutant("leakage.correlated_count_pml_sup", "rho ignored (always perfectly correlated)")
def _(f):
    return lambda n, theta, epsilon, rho: f(n, theta, epsilon, np.ones_like(np.asarray(rho, dtype=float)))


@thm_10.mutant("leakage.correlated_count_pml_sup", "n entries instead of n - 1 in the i.i.d. part")
def _(f):
    return lambda n, theta, epsilon, rho: f(np.asarray(n) + 1, theta, epsilon, rho)


@claim("001/thm-11", item="Theorem 11",
       statement=r"A mechanism is $\varepsilon$-free-lunch private iff (1) $\sup_y \ell(X \to y) \le \varepsilon$ under "
                 r"every full-support prior on databases, iff (2) the same over product priors, iff (3) the PML of "
                 r"single entries is at most $\varepsilon$ under every (correlated) prior; each supremum is the "
                 r"free-lunch parameter, approached, not attained.",
       method="all databases of a random mechanism (2 letters, 2 entries) and of a truncated-geometric count: "
              "privlib's free-lunch parameter against every ordered pair of databases; 300 random priors of each "
              "kind never above it; witnesses: mass 1 - 1e-10 on the minimising database (1), its product version "
              "(2), and X_-i a copy of the maximising pair's entries with X_i concentrated (3)")
def thm_11(seed: int = 11, epsilon: float = 0.7) -> Evidence:
    rng = np.random.default_rng(seed)
    cases = [(2, 2, _random_channel(rng, 4, 3)), (2, 2, _geometric_count_channel(2, epsilon)),
             (2, 3, _geometric_count_channel(3, epsilon))]
    fl_ours, fl_brute, sups, bounds, wit, wit_ref = [], [], [], [], [], []
    for k, n, channel in cases:
        dbs = _databases(k, n)
        best, (hi, lo, y) = 0.0, (0, 0, 0)
        for a, b in itertools.permutations(range(len(dbs)), 2):
            r = np.log(channel[a]) - np.log(channel[b])
            if r.max() > best:
                best, (hi, lo, y) = float(r.max()), (a, b, int(np.argmax(r)))
        fl_ours.append(leakage.free_lunch_epsilon(channel))
        fl_brute.append(best)
        for _ in range(300):
            corr = rng.dirichlet(np.ones(k**n))
            prod = _product([rng.dirichlet(np.ones(k)) for _ in range(n)])
            sups += [leakage.pml_sup(corr, channel), leakage.pml_sup(prod, channel)]
            sups += [leakage.entry_pml(corr, channel, i, k).max() for i in range(n)]
        bounds += [best] * (len(sups) - len(bounds))
        delta = 1e-10
        point = np.full(k**n, delta / (k**n - 1))
        point[lo] = 1.0 - delta
        prod = _product([_concentrated(k, dbs[lo][j], delta) for j in range(n)])
        # (3): an entry where the two databases differ; X_-i a function of X_i mapping the two
        # letters to the two databases, X_i concentrated on the letter of the smaller likelihood
        i = int(np.flatnonzero(dbs[hi] != dbs[lo])[0])
        copy = np.full(k**n, delta**2)
        copy[lo], copy[hi] = 1.0, delta
        copy /= copy.sum()
        wit += [leakage.pml(point, channel)[y], leakage.pml(prod, channel)[y], leakage.entry_pml(copy, channel, i, k)[y]]
        wit_ref += [best] * 3
    return all_of(
        close(fl_ours, fl_brute, rtol=1e-12, detail="free-lunch parameter vs every pair of databases"),
        at_most(sups, bounds, atol=1e-12, detail="parts 1-3: random priors never exceed it"),
        close(wit, wit_ref, atol=_approach_tolerance(1e-10, max(fl_brute)), rtol=0.0,
              detail="witness priors approach it in parts 1-3"))


@thm_11.mutant("leakage.free_lunch_epsilon", "neighbouring databases only (the DP parameter)")
def _(f):
    return lambda channel: leakage.database_dp_epsilon(channel, 2)


@thm_9.mutant("leakage.entry_pml", "the next entry's leakage (index off by one)")
@thm_11.mutant("leakage.entry_pml", "the next entry's leakage (index off by one)")
def _(f):
    def wrong(prior, channel, i, alphabet_size):
        n = int(round(np.log(np.size(prior)) / np.log(alphabet_size)))
        return f(prior, channel, (i + 1) % n, alphabet_size)
    return wrong


@thm_11.mutant("leakage.pml", "P_Y computed under the uniform prior instead of P_X")
def _(pml):
    return lambda prior, channel: pml(np.full(np.shape(prior), 1.0 / np.shape(prior)[-1]), channel)


# --- Section 4.1: the Laplace counting query --------------------------------------------------

def _count_pml_by_enumeration(n: int, theta: float, epsilon: float, y: np.ndarray) -> np.ndarray:
    """l(X_1 -> y) for the Laplace fraction query, summing over all 2^n databases."""
    lap = mechanisms.LaplaceMechanism(epsilon, sensitivity=1.0 / n)
    dbs = _databases(2, n)
    weights = np.prod(np.where(dbs == 1, theta, 1 - theta), axis=1)
    dens = lap.pdf(y[None, :], dbs.mean(axis=1)[:, None])
    a = np.array([(weights[dbs[:, 0] == b, None] * dens[dbs[:, 0] == b]).sum(axis=0) / (theta if b else 1 - theta)
                  for b in (0, 1)])
    return np.log(a.max(axis=0) / (theta * a[1] + (1 - theta) * a[0]))


@claim("001/prop-12", item="Proposition 12",
       statement=r"For the Laplace counting query and priors with predicate probability in $[p, 1-p]$, "
                 r"$\ell(X_i \to y) \le \varepsilon - \log(1 + p(e^\varepsilon - 1))$, attained for outputs beyond 1 "
                 r"at $\theta = p$.",
       method="direct summation over all 2^n databases (n = 8) on a grid of outputs and of theta in [p, 1-p]: "
              "privlib's per-output PML and its supremum over outputs against the sums, and the bound against "
              "their maximum")
def prop_12(n: int = 8, p: float = 0.2, epsilon: float = 1.0) -> Evidence:
    y = np.concatenate([np.linspace(-1.5, 2.5, 161), np.arange(n + 1) / n])
    thetas = np.linspace(p, 1 - p, 13)
    brute = np.array([_count_pml_by_enumeration(n, th, epsilon, y) for th in thetas])
    ours = np.array([leakage.laplace_count_pml(n, th, epsilon, y) for th in thetas])
    return all_of(
        close(ours, brute, atol=1e-12, rtol=1e-10, detail="per-output PML vs enumeration"),
        close(leakage.laplace_count_pml_sup(thetas, epsilon), brute.max(axis=1), atol=1e-12, rtol=1e-10,
              detail="supremum over outputs, for each theta"),
        close(leakage.laplace_count_pml_bound(p, epsilon), brute.max(), atol=1e-10, rtol=0.0,
              detail="the bound equals the largest leakage over theta in [p, 1 - p]"))


@prop_12.mutant("leakage.laplace_count_pml_bound", "the linearisation (1 - p) eps")
def _(f):
    return lambda p, epsilon: (1 - np.asarray(p)) * np.asarray(epsilon)


@prop_12.mutant("leakage.laplace_count_pml_bound", "1 - p in place of p")
def _(f):
    return lambda p, epsilon: f(1 - np.asarray(p), epsilon) if np.all(np.asarray(p) >= 0.5) else \
        np.asarray(epsilon) - np.log1p((1 - np.asarray(p)) * np.expm1(np.asarray(epsilon)))


@prop_12.mutant("leakage.laplace_count_pml", "noise scale 1 / eps instead of 1 / (n eps) (rate for scale)")
def _(f):
    return lambda n, theta, epsilon, y: f(n, theta, epsilon / n, y)


@prop_12.mutant("leakage.laplace_count_pml_sup", "only the right tail")
def _(f):
    return lambda theta, epsilon: np.asarray(epsilon) - np.log1p(np.asarray(theta) * np.expm1(np.asarray(epsilon)))
