"""Claims of chapter 003 (Ghosh & Kleinberg, inferential privacy for correlated data), checked
against linear programs over *all* epsilon-DP mechanisms, brute-force enumeration of priors,
dense-grid evaluation of the Laplace noisy sum, Gibbs measures with an external field, and
fixed points solved in 40-digit arithmetic (mpmath)."""

from __future__ import annotations

import itertools

import numpy as np
from scipy import optimize, sparse, special

from privlib.papers import affiliation
from privlib.verify.claims import Evidence, all_of, at_most, claim, close, holds, reference


# --- independent routes -----------------------------------------------------------------------

@reference
def _ratio_lp(num: np.ndarray, den: np.ndarray, eps: np.ndarray) -> float:
    """``log max sum(num g) / sum(den g)`` over acceptance functions g >= 0 on the 2^n databases
    with ``g(x) <= e^{eps_j} g(x xor e_j)``: the Charnes-Cooper LP written out plainly (no
    rescaling, small n and moderate eps only), independent of privlib's LPs."""
    size = num.size
    n = int(round(np.log2(size)))
    s = np.arange(size)
    rows = np.arange(n * size)
    cols_u = np.tile(s, n)
    cols_v = np.concatenate([s ^ (1 << j) for j in range(n)])
    gains = np.repeat(np.exp(eps), size)
    a_ub = sparse.csr_matrix((np.concatenate([np.ones(n * size), -gains]),
                              (np.concatenate([rows, rows]), np.concatenate([cols_u, cols_v]))), shape=(n * size, size))
    res = optimize.linprog(-num, A_ub=a_ub, b_ub=np.zeros(n * size), A_eq=den[None, :], b_eq=[1.0],
                           bounds=(0, None), method="highs")
    if res.status != 0:
        raise RuntimeError(f"reference LP failed: {res.message}")
    return float(np.log(-res.fun))


def _reference_worst_case(prior: np.ndarray, eps, i: int) -> float:
    """The worst case over all eps-DP mechanisms by :func:`_ratio_lp`, both directions."""
    n = int(round(np.log2(prior.size)))
    eps = np.broadcast_to(np.asarray(eps, dtype=float), (n,))
    mine = affiliation.states(n)[:, i] == 1
    one = np.where(mine, prior, 0.0) / prior[mine].sum()
    zero = np.where(~mine, prior, 0.0) / prior[~mine].sum()
    return max(_ratio_lp(one, zero, eps), _ratio_lp(zero, one, eps))


def noisy_statistic_privacy(prior: np.ndarray, statistic: np.ndarray, i: int, epsilon: float, top: int) -> float:
    """Inferential privacy about x_i of ``statistic(x) + Lap(1/eps)`` (statistic values 0..top):
    the ess-sup of the log-ratio of the output densities given x_i = 1 and x_i = 0, on a dense grid."""
    x = affiliation.states(int(round(np.log2(prior.size))))
    t = np.linspace(-20.0, top + 20.0, 40001)
    log_lap = np.log(epsilon / 2) - epsilon * np.abs(t[None, :] - np.arange(top + 1)[:, None])
    laws = []
    for z in (0, 1):
        mask = (x[:, i] == z) & (prior > 0)
        counts = np.bincount(statistic[mask], weights=prior[mask], minlength=top + 1) / prior[mask].sum()
        with np.errstate(divide="ignore"):
            laws.append(special.logsumexp(np.log(counts)[:, None] + log_lap, axis=0))
    ratio = laws[1] - laws[0]
    return float(max(ratio.max(), -ratio.min()))


def _random_ising(rng: np.random.Generator, n: int, sign: float = 1.0) -> np.ndarray:
    edges = [(a, b) for a, b in itertools.combinations(range(n), 2) if rng.random() < 0.5]
    couplings = sign * rng.uniform(0.1, 0.8, len(edges))
    return affiliation.ising_prior(n, edges, couplings, rng.normal(0, 0.4, n))


@reference
def _mp_tree(degree: int, beta: float, epsilon: float, spontaneous: bool = False) -> float:
    """The sup over trees of maximum degree D in 40-digit arithmetic: the largest root of
    ``H = h + (D - 1) artanh(tanh(beta) tanh(H))`` by bisection on a bracket
    where the map minus the identity changes sign, then ``2 (h + D u(H))`` (or, for
    ``spontaneous``, the positive root at h = 0)."""
    import mpmath as mp

    with mp.workdps(40):
        t, h = mp.tanh(mp.mpf(beta)), mp.mpf(epsilon) / 2

        def u(x):
            return mp.atanh(t * mp.tanh(x))

        def excess(x):
            return h + (degree - 1) * u(x) - x

        top = h + (degree - 1) * mp.mpf(beta)
        low = h
        if spontaneous:
            low = top
            while excess(low) <= 0:
                low /= 4
                if low < mp.mpf(10) ** -30:
                    return 0.0
        # bisection: the excess is positive at low and not positive at top; 140 halvings shrink
        # the bracket below 10^-40 of its width
        for _ in range(140):
            mid = (low + top) / 2
            if excess(mid) > 0:
                low = mid
            else:
                top = mid
        return float(2 * (h + degree * u((low + top) / 2)))


# --- Section 2 ----------------------------------------------------------------------------------

@claim("003/sec2-product", item="Section 2 (independent records)",
       statement="For a product prior the worst-case inferential privacy of individual $i$ over all $\\varepsilon$-DP mechanisms is exactly $\\varepsilon_i$.",
       method="worst_case_lp (the LP over every $\\varepsilon$-DP mechanism) on 6 records with random marginals and a random vector $\\varepsilon$, against $\\varepsilon_i$")
def sec2_product(seed: int = 1) -> Evidence:
    rng = np.random.default_rng(seed)
    prior = affiliation.product_prior(rng.uniform(0.1, 0.9, 6))
    eps = rng.uniform(0.1, 1.0, 6)
    return close([affiliation.worst_case_lp(prior, eps, i) for i in range(6)], eps, atol=1e-8, rtol=0.0)


def _halved_eps_lp(worst_case_lp):
    return lambda prior, eps, i: worst_case_lp(prior, np.asarray(eps) / 2, i)


_HALVED = "DP constraints with e^(eps/2) (sensitivity counted twice)"
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


# --- Section 3 ----------------------------------------------------------------------------------

def _up_sets(n: int) -> np.ndarray:
    """Indicators (rows) of every up-set of {0,1}^n: the monotone Boolean functions, which span
    the monotone functions (a monotone f is a constant plus a positive combination of them)."""
    size = 2**n
    s = np.arange(size)
    subsets = ((np.arange(2**size)[:, None] >> s[None, :]) & 1).astype(bool)
    monotone = np.ones(len(subsets), dtype=bool)
    for j in range(n):
        low = s[(s >> j) & 1 == 0]
        monotone &= ~(subsets[:, low] & ~subsets[:, low | (1 << j)]).any(axis=1)
    return subsets[monotone].astype(float)


@claim("003/lemma-3-2", item="Lemma 3.2 (FKG) and Definition 3.1",
       statement="For a measure $\\mu$ that is positively affiliated (is_affiliated) and non-decreasing $f, g$: $E[f]\\,E[g] \\le E[fg]\\,E[1]$; on two records, where affiliation is a single inequality, it holds exactly for the affiliated measures.",
       method="every pair of up-set indicators (which span the monotone functions: 20 on 3 records) on 40 random measures of 3 records (ferromagnetic, antiferromagnetic and mixed Ising, measures with zeros, products, near-independent ones): the smallest covariance over all pairs must be $\\ge 0$ for every measure is_affiliated accepts; on 2 records, is_affiliated must accept exactly those with $\\mu(11)\\mu(00) \\ge \\mu(10)\\mu(01)$")
def lemma_3_2(seed: int = 2, trials: int = 40) -> Evidence:
    rng = np.random.default_rng(seed)
    ups = _up_sets(3)
    measures = [np.where(np.isin(np.arange(8), [1, 6]), 0.5, 0.0)]  # uniform on x = 100 and x = 011
    for k in range(trials):
        kind = k % 5
        if kind == 0:
            mu = _random_ising(rng, 3)
        elif kind == 1:
            mu = _random_ising(rng, 3, sign=-1.0)
        elif kind == 2:
            mu = affiliation.ising_prior(3, [(0, 1), (1, 2), (0, 2)], rng.uniform(-0.3, 0.6, 3), rng.normal(0, 0.5, 3))
        elif kind == 3:
            mu = rng.dirichlet(np.ones(8)) * (rng.random(8) < 0.6)
            mu = mu / mu.sum() if mu.sum() > 0 else np.full(8, 1 / 8)
        else:
            mu = affiliation.ising_prior(3, [(0, 1), (1, 2)], rng.choice([-1, 1]) * 10.0 ** rng.uniform(-5, -2), 0.3)
        measures.append(mu)
    product_of_means, mean_of_product = [], []  # E[f] E[g] <= E[fg] E[1] (E[1] = 1) for every pair of up-sets
    for mu in measures:
        if affiliation.is_affiliated(mu):
            mean = ups @ mu
            product_of_means.append(np.outer(mean, mean).ravel())
            mean_of_product.append(((ups * mu) @ ups.T).ravel())
    pairs_ok, rejected = [], 0
    for k in range(trials):
        mu = rng.dirichlet(np.ones(4)) if k % 2 else affiliation.ising_prior(2, [(0, 1)], rng.normal(0, 10.0 ** rng.uniform(-6, 0)))
        truth = mu[3] - (mu[1] + mu[3]) * (mu[2] + mu[3]) >= -1e-12  # Cov(x_0, x_1) >= 0: FKG for f = x_0, g = x_1
        pairs_ok.append(bool(affiliation.is_affiliated(mu)) == bool(truth))
        rejected += not truth
    return all_of(at_most(np.concatenate(product_of_means), np.concatenate(mean_of_product), atol=1e-12,
                          detail=f"E[f] E[g] <= E[fg] for every pair of up-sets, {len(product_of_means)} accepted measures"),
                  holds(all(pairs_ok) and 0 < rejected < trials, observed=sum(pairs_ok), reference=trials,
                        detail="two-record measures on which is_affiliated decides correctly"))


@lemma_3_2.mutant("affiliation.is_affiliated", "inequality reversed")
def _(is_affiliated):
    def wrong(prior, tol=1e-12):
        prior = np.asarray(prior, dtype=float)
        s = np.arange(prior.size)
        return bool((prior[s[:, None] | s] * prior[s[:, None] & s] <= prior[:, None] * prior[None, :] + tol).all())
    return wrong


@lemma_3_2.mutant("affiliation.is_affiliated", "local 2 x 2 test also on priors with zeros")
def _(is_affiliated):
    def wrong(prior, tol=1e-12):
        prior = np.asarray(prior, dtype=float)
        n = int(round(np.log2(prior.size)))
        s = np.arange(prior.size)
        for a, b in itertools.combinations(range(n), 2):
            base = s[((s >> a) & 1 == 0) & ((s >> b) & 1 == 0)]
            ea, eb = 1 << a, 1 << b
            if (prior[base | ea | eb] * prior[base] < prior[base | ea] * prior[base | eb] - tol).any():
                return False
        return True
    return wrong


@lemma_3_2.mutant("affiliation.is_affiliated", "tolerance 1e-3 (accepts nearly independent repulsive measures)")
def _(is_affiliated):
    return lambda prior, tol=1e-12: is_affiliated(prior, tol=1e-3)


@claim("003/thm-3-4", item="Theorem 3.4",
       statement="For a positively affiliated prior, the worst case over all $\\varepsilon$-DP mechanisms equals formula (6), attained by a maximally biased mechanism.",
       method="a plain LP over every $\\varepsilon$-DP mechanism (both directions) against inferential_privacy on random ferromagnetic Ising priors with random fields and a random vector $\\varepsilon$ (6 records, 6 priors)")
def thm_3_4(seed: int = 3, trials: int = 6) -> Evidence:
    rng = np.random.default_rng(seed)
    formula, lp = [], []
    for _ in range(trials):
        prior = _random_ising(rng, 6)
        eps = rng.uniform(0.05, 0.8, 6)
        i = int(rng.integers(6))
        formula.append(affiliation.inferential_privacy(prior, eps, i))
        lp.append(_reference_worst_case(prior, eps, i))
    return close(formula, lp, atol=1e-8, rtol=0.0)


def _wrong_formula(directions: tuple[int, ...], normalised: bool):
    """A mutant of formula (6): only the given directions z, and with or without dividing the
    conditional expectations by the prior odds."""
    def make(inferential_privacy):
        def wrong(prior, eps, i):
            prior = np.asarray(prior, dtype=float)
            n = int(round(np.log2(prior.size)))
            eps = np.broadcast_to(np.asarray(eps, dtype=float), (n,))
            x = affiliation.states(n)
            with np.errstate(divide="ignore"):
                log_pi = np.log(prior)
            best = -np.inf
            for z in directions:
                log_accept = -(np.abs(x - z) @ eps)
                same, other = x[:, i] == z, x[:, i] != z
                value = special.logsumexp(log_pi[same] + log_accept[same]) - special.logsumexp(log_pi[other] + log_accept[other])
                if normalised:
                    value += special.logsumexp(log_pi[other]) - special.logsumexp(log_pi[same])
                best = max(best, float(value))
            return best
        return wrong
    return make


_one_direction = {z: _wrong_formula((z,), normalised=True) for z in (0, 1)}
_unnormalised = _wrong_formula((0, 1), normalised=False)


thm_3_4.mutant("affiliation.inferential_privacy", "only the maximally 0-biased direction (no max over z)")(_one_direction[0])
thm_3_4.mutant("affiliation.inferential_privacy", "posterior odds not divided by the prior odds")(_unnormalised)


@thm_3_4.mutant("affiliation.inferential_privacy", "the mean epsilon in place of the vector")
def _(inferential_privacy):
    return lambda prior, eps, i: inferential_privacy(prior, float(np.mean(eps)), i)


@claim("003/thm-3-4-converse", item="Theorem 3.4 (affiliation is needed)", kind="illustrated",
       statement="For a prior that is not affiliated (antiferromagnetic couplings) the worst case exceeds formula (6).",
       method="worst_case_lp against formula (6) on random antiferromagnetic Ising priors (6 records)")
def thm_3_4_converse(seed: int = 4, trials: int = 3) -> Evidence:
    rng = np.random.default_rng(seed)
    gaps = []
    for _ in range(trials):
        prior = _random_ising(rng, 6, sign=-1.0)
        if affiliation.is_affiliated(prior):
            continue
        gaps.append(affiliation.worst_case_lp(prior, 0.5, 0) - affiliation.inferential_privacy(prior, 0.5, 0))
    return holds(bool(gaps and min(gaps) > 1e-6), observed=min(gaps) if gaps else 0.0, reference=0.0,
                 detail="smallest LP - formula gap over the non-affiliated priors")


@claim("003/lemma-3-5", item="Lemma 3.5",
       statement="The Laplace noisy sum $|x| + \\mathrm{Lap}(1/\\varepsilon)$ is maximally biased: under an affiliated prior its inferential privacy equals formula (6) for every individual.",
       method="ess-sup of the ratio of the output densities given $x_i = 1$ and $x_i = 0$ on a dense grid of outputs (path Ising prior with fields, 6 records), against inferential_privacy")
def lemma_3_5(epsilon: float = 0.4, coupling: float = 0.7) -> Evidence:
    n = 6
    prior = affiliation.ising_prior(n, [(j, j + 1) for j in range(n - 1)], coupling, [0.3, -0.2, 0, 0.1, 0, 0.4])
    weight = affiliation.states(n).sum(axis=1)
    observed = [noisy_statistic_privacy(prior, weight, i, epsilon, n) for i in range(n)]
    reference = [affiliation.inferential_privacy(prior, epsilon, i) for i in range(n)]
    return close(observed, reference, atol=1e-9, rtol=0.0)


lemma_3_5.mutant("affiliation.inferential_privacy", "only the maximally 1-biased direction (no max over z)")(_one_direction[1])


@lemma_3_5.mutant("affiliation.inferential_privacy", "acceptance e^(-eps/2 |x - z1|) (the Gibbs field eps/2 taken for eps)")
def _(inferential_privacy):
    return lambda prior, eps, i: inferential_privacy(prior, np.asarray(eps) / 2, i)


# --- Appendix A.1 -------------------------------------------------------------------------------

@claim("003/remark-3-6", item="Remark 3.6 and Appendix A.1",
       statement="Pairwise positive correlation is not enough: on the parity prior the paper's mechanism reaches $k\\varepsilon$, above formula (6); the worst case over all mechanisms is $(k+1)\\varepsilon$.",
       method="worst_case_lp against $(k+1)\\varepsilon$, the paper's mechanism's exact privacy from its output densities against $k\\varepsilon$, and formula (6) below both, on the parity prior for $(k, m) = (1, 2), (2, 2), (3, 2), (2, 3)$ (formula (6) below $k\\varepsilon$ for $k \\ge 2$)")
def remark_3_6(epsilon: float = 0.5) -> Evidence:
    lp, worst, paper, k_eps, formula, above = [], [], [], [], [], []
    for k, m in ((1, 2), (2, 2), (3, 2), (2, 3)):
        prior = affiliation.parity_prior(k, m)
        x = affiliation.states(1 + k * m)
        odd = sum((x[:, 1 + b * m:1 + (b + 1) * m].sum(axis=1) % 2) for b in range(k))
        lp.append(affiliation.worst_case_lp(prior, epsilon, 0))
        worst.append((k + 1) * epsilon)
        paper.append(noisy_statistic_privacy(prior, odd, 0, epsilon, k))
        k_eps.append(k * epsilon)
        if k >= 2:
            formula.append(affiliation.inferential_privacy(prior, epsilon, 0))
            above.append(k * epsilon)
    return all_of(close(lp, worst, atol=1e-8, rtol=0.0, detail="worst case over all mechanisms = (k + 1) eps"),
                  close(paper, k_eps, atol=1e-9, rtol=0.0, detail="the paper's parity mechanism = k eps"),
                  at_most(np.array(formula) + 1e-3, above, atol=0.0, detail="formula (6) + 0.001 <= k eps for k >= 2"))


@remark_3_6.mutant("affiliation.parity_prior", "x_0 left out of the parity constraints (x_0 independent)")
def _(parity_prior):
    def wrong(k, m, mixture=0.0):
        block = parity_prior(k, m, mixture).reshape(-1, 2).sum(axis=1)  # marginal of the blocks
        return np.repeat(block / 2, 2)
    return wrong


remark_3_6.mutant("affiliation.worst_case_lp", _HALVED)(_halved_eps_lp)


@claim("003/eq-18", item="Appendix A.1, eq. (18) and the growth in k",
       statement="On the parity prior the maximally 0-biased mechanism has $\\nu = \\varepsilon + 2k\\,\\mathrm{artanh}(\\tanh^m(\\varepsilon/2)) = \\varepsilon + O(k\\varepsilon^m)$ (eq. (18), reconstructed), so the paper's mechanism exceeds it by a factor that tends to $k$ as $\\varepsilon \\to 0$, unbounded in $k$.",
       method="parity_biased_privacy against formula (6) by enumeration of the parity prior for $(k, m) \\in \\{(1,2), (2,2), (3,2), (2,3), (3,3), (4,2)\\}$ at three $\\varepsilon$; the ratio $k\\varepsilon/\\nu$ at $\\varepsilon = 10^{-6}$ against $k$")
def eq_18(epsilon: float = 0.5) -> Evidence:
    closed, enumerated, ratios, ks = [], [], [], []
    for k, m in ((1, 2), (2, 2), (3, 2), (2, 3), (3, 3), (4, 2)):
        prior = affiliation.parity_prior(k, m)
        for eps in (epsilon, 0.1, 1.5):
            closed.append(float(affiliation.parity_biased_privacy(k, m, eps)))
            enumerated.append(affiliation.inferential_privacy(prior, eps, 0))
        ratios.append(k * 1e-6 / float(affiliation.parity_biased_privacy(k, m, 1e-6)))
        ks.append(k)
    return all_of(close(closed, enumerated, atol=1e-12, rtol=0.0, detail="eq. (18) against formula (6) by enumeration"),
                  close(ratios, ks, rtol=1e-3, atol=0.0, detail="k eps / nu at eps = 1e-6 tends to k"))


@eq_18.mutant("affiliation.parity_biased_privacy", "tanh(eps) in place of tanh(eps / 2)")
def _(parity_biased_privacy):
    return lambda k, m, eps: eps + 2.0 * k * np.arctanh(np.tanh(eps) ** m)


@eq_18.mutant("affiliation.parity_biased_privacy", "the leading eps (x_0's own bit) dropped")
def _(parity_biased_privacy):
    return lambda k, m, eps: parity_biased_privacy(k, m, eps) - eps


@eq_18.mutant("affiliation.parity_biased_privacy", "artanh dropped: eps + 2k tanh(eps/2)^m")
def _(parity_biased_privacy):
    return lambda k, m, eps: eps + 2.0 * k * np.tanh(eps / 2.0) ** m


@claim("003/parity-mixture", item="Appendix A.1 (strictly correlated mixture)",
       statement="Mixing the parity prior with $\\tfrac12(\\delta_{0^n} + \\delta_{1^n})$ at weight $\\lambda$ makes every pair strictly positively correlated (covariance $\\lambda/4$), and the privacy parameters move continuously: the worst case stays far above formula (6).",
       method="pairwise_covariances of parity_prior(2, 2, mixture) against $\\lambda/4$ (brute force of the covariance definition); worst_case_lp and formula (6) at $\\lambda = 10^{-6}$ against $\\lambda = 0$ (continuity), and at $\\lambda = 0.05$ the worst case above formula (6) by at least $0.5\\varepsilon$")
def parity_mixture(epsilon: float = 0.5) -> Evidence:
    covs, quarters = [], []
    for lam in (0.0, 1e-3, 0.05, 0.3):
        prior = affiliation.parity_prior(2, 2, lam)
        c = affiliation.pairwise_covariances(prior)
        x = affiliation.states(5).astype(float)
        mean = prior @ x
        brute = np.array([[prior @ ((x[:, a] - mean[a]) * (x[:, b] - mean[b])) for b in range(5)] for a in range(5)])
        covs += list(c[~np.eye(5, dtype=bool)]) + list(brute[~np.eye(5, dtype=bool)])
        quarters += [lam / 4] * 40
    near = [affiliation.worst_case_lp(affiliation.parity_prior(2, 2, 1e-6), epsilon, 0),
            affiliation.inferential_privacy(affiliation.parity_prior(2, 2, 1e-6), epsilon, 0)]
    at_zero = [affiliation.worst_case_lp(affiliation.parity_prior(2, 2), epsilon, 0),
               affiliation.inferential_privacy(affiliation.parity_prior(2, 2), epsilon, 0)]
    mixed = affiliation.parity_prior(2, 2, 0.05)
    gap = affiliation.worst_case_lp(mixed, epsilon, 0) - affiliation.inferential_privacy(mixed, epsilon, 0)
    return all_of(close(covs, quarters, atol=1e-14, rtol=0.0, detail="covariances (privlib and brute force) = lambda / 4"),
                  close(near, at_zero, atol=1e-4, rtol=0.0, detail="worst case and formula (6) at lambda = 1e-6 vs 0"),
                  at_most(0.5 * epsilon, gap, atol=0.0, detail="worst case minus formula (6) at lambda = 0.05"))


@parity_mixture.mutant("affiliation.parity_prior", "weight lambda on each of 0^n and 1^n (total 2 lambda)")
def _(parity_prior):
    def wrong(k, m, mixture=0.0):
        prior = parity_prior(k, m, mixture)
        prior[[0, -1]] += mixture / 2
        return prior / prior.sum()
    return wrong


@parity_mixture.mutant("affiliation.pairwise_covariances", "E[x_a x_b] without subtracting the means")
def _(pairwise_covariances):
    def wrong(prior):
        c = pairwise_covariances(prior)
        n = c.shape[0]
        return c + 0.25 * (1 - np.eye(n))
    return wrong


# --- Appendix A.2: spin systems -----------------------------------------------------------------

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
       method="formula (6) by enumeration of all $2^n$ databases of the binary tree of depth 3 (15 nodes), the ternary tree of depth 2 (13 nodes) and a random tree of 14 nodes, for agreement probabilities $p = 0.55, 0.7, 0.9$, against tree_inferential_privacy and complete_tree_inferential_privacy")
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
    return all_of(close(observed, reference, atol=1e-10, rtol=0.0, detail="belief propagation against enumeration"),
                  close(closed, closed_ref, atol=1e-10, rtol=0.0, detail="closed depth recursion against enumeration"))


@trees_bp.mutant("affiliation.tree_inferential_privacy", "field eps at every node (eps instead of eps/2)")
def _(tree_inferential_privacy):
    return lambda parents, beta, eps: tree_inferential_privacy(parents, beta, 2 * eps) / 2 + eps / 2


@trees_bp.mutant("affiliation.tree_inferential_privacy", "nu = H_root (the factor 2 dropped)")
def _(tree_inferential_privacy):
    return lambda parents, beta, eps: tree_inferential_privacy(parents, beta, eps) / 2


@trees_bp.mutant("affiliation.complete_tree_inferential_privacy", "depth off by one")
def _(complete_tree_inferential_privacy):
    return lambda b, depth, beta, eps: complete_tree_inferential_privacy(b, np.asarray(depth) + 1, beta, eps)


@trees_bp.mutant("affiliation.complete_tree_inferential_privacy", "b - 1 children per node (degree for branching)")
def _(complete_tree_inferential_privacy):
    return lambda b, depth, beta, eps: complete_tree_inferential_privacy(max(b - 1, 1), depth, beta, eps)


# --- Section 4: bounded influence ---------------------------------------------------------------

def _influence_instances(rng: np.random.Generator, trials: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Priors with spectral norm of Gamma below 1 and vectors eps, hard cases first: paths whose
    far end has a large eps and whose near records have a tiny one (the bound's resolvent and its
    second-order terms matter there), then random mixed-sign Ising priors."""
    out = []
    for beta in (0.3, 0.4):
        prior = affiliation.ising_prior(3, [(0, 1), (1, 2)], beta)
        out.append((prior, np.array([0.01, 0.01, 1.0])))
        prior = affiliation.ising_prior(4, [(0, 1), (1, 2), (2, 3)], beta, [0.1, -0.1, 0.0, 0.2])
        out.append((prior, np.array([0.01, 0.01, 0.5, 1.0])))
    while len(out) < trials:
        edges = [(a, b) for a, b in itertools.combinations(range(5), 2) if rng.random() < 0.6]
        prior = affiliation.ising_prior(5, edges, rng.uniform(-0.25, 0.25, len(edges)), rng.normal(0, 0.3, 5))
        if np.linalg.norm(affiliation.influence_matrix(prior), 2) < 1:
            out.append((prior, rng.uniform(0.05, 0.6, 5)))
    return out


@claim("003/thm-4-2", item="Theorem 4.2, eq. (12)", checks=("affiliation.influence_matrix",),
       statement="If the influence matrix has spectral norm below 1, every mechanism satisfies $\\nu_i \\le 2 \\sum_j [(I - \\Gamma)^{-1}]_{ij} \\varepsilon_j$, affiliated or not.",
       method="the bound against its Neumann series $2\\sum_k \\Gamma^k\\varepsilon$ summed term by term (its constants), and a plain LP over every $\\varepsilon$-DP mechanism (the worst case) against theorem_4_2_bound with influence_matrix (its validity), on Ising paths whose far end carries a large $\\varepsilon$ and the near records a tiny one (where the resolvent matters) and random mixed-sign Ising priors (5 records)")
def thm_4_2(seed: int = 6, trials: int = 8) -> Evidence:
    rng = np.random.default_rng(seed)
    worst, bound, series = [], [], []
    for prior, eps in _influence_instances(rng, trials):
        gamma = affiliation.influence_matrix(prior)
        b = affiliation.theorem_4_2_bound(gamma, eps)
        term, total = eps.copy(), eps.copy()
        while np.abs(term).max() > 1e-18 * total.max():  # sum_k Gamma^k eps, term by term
            term = gamma @ term
            total += term
        for i in range(eps.size):
            worst.append(_reference_worst_case(prior, eps, i))
            bound.append(b[i])
        series += list(2 * total)
    return all_of(at_most(worst, bound, atol=1e-9, detail="LP worst case <= the bound (validity)"),
                  close(bound, series, rtol=1e-10, detail="the bound against 2 sum_k Gamma^k eps summed term by term (its constants)"))


@thm_4_2.mutant("affiliation.theorem_4_2_bound", "factor 2 dropped")
def _(theorem_4_2_bound):
    return lambda gamma, eps: theorem_4_2_bound(gamma, eps) / 2.0


@thm_4_2.mutant("affiliation.theorem_4_2_bound", "Gamma dropped (the independent-records bound 2 eps_i)")
def _(theorem_4_2_bound):
    return lambda gamma, eps: 2.0 * np.broadcast_to(np.asarray(eps, dtype=float), (np.shape(gamma)[0],))


@thm_4_2.mutant("affiliation.theorem_4_2_bound", "first order: (I + Gamma) in place of (I - Gamma)^-1")
def _(theorem_4_2_bound):
    return lambda gamma, eps: 2.0 * (np.eye(np.shape(gamma)[0]) + np.asarray(gamma)) @ np.broadcast_to(np.asarray(eps, dtype=float), (np.shape(gamma)[0],))


@claim("003/thm-4-2-row-sum", item="Theorem 4.2 (row-sum corollary and policy rule)",
       statement="If every row of the influence matrix sums to at most $\\delta < 1$, every mechanism has $\\nu_i \\le 2\\max_j\\varepsilon_j/(1 - \\delta)$; so mandating $\\varepsilon = \\nu(1-\\delta)/2$ guarantees $\\nu$.",
       method="a plain LP over every $\\varepsilon$-DP mechanism against row_sum_bound, and the LP worst case at the uniform $\\varepsilon$ = policy_epsilon$(\\nu, \\delta)$ against $\\nu$, on strongly coupled Ising cycles, complete graphs, stars and paths of 4-6 records whose largest row sums $\\delta$ are 0.87-0.99 (these show the bounds valid, not their constants); on the cycle, where every row sums to exactly $\\delta$, the corollary is attained by eq. (12): both constants against $2[\\Phi\\varepsilon]_i$ with $\\Phi = \\sum_k \\Gamma^k$ summed term by term")
def thm_4_2_row_sum(nu: float = 1.0) -> Evidence:
    worst, bound, policy_worst, targets = [], [], [], []
    complete = [(a, b) for a, b in itertools.combinations(range(5), 2)]
    graphs = [(6, [(j, (j + 1) % 6) for j in range(6)], 0.35), (5, complete, 0.15), (4, complete[:3] + complete[4:6], 0.2),
              (5, [(0, j) for j in range(1, 5)], 0.15), (4, [(0, 1), (1, 2), (2, 3)], 0.35)]
    attained, resolvent = [], []
    for n, edges, beta in graphs:
        prior = affiliation.ising_prior(n, [e for e in edges if max(e) < n], beta, 0.1)
        gamma = affiliation.influence_matrix(prior)
        delta = gamma.sum(axis=1).max()
        eps = np.full(n, 0.4)
        b = affiliation.row_sum_bound(gamma, eps)
        eps_policy = float(affiliation.policy_epsilon(nu, delta))
        if len(edges) == n == 6:  # the cycle: every row sums to delta, so 2 [Phi eps]_i = 2 eps / (1 - delta)
            phi, term = np.eye(n), np.eye(n)
            while term.max() > 1e-18:  # Neumann series of (I - Gamma)^-1, term by term
                term = term @ gamma
                phi += term
            attained += [b, nu]
            resolvent += [2 * (phi @ eps).max(), 2 * (phi @ np.full(n, eps_policy)).max()]
        for i in range(n):
            worst.append(_reference_worst_case(prior, eps, i))
            bound.append(b)
            policy_worst.append(_reference_worst_case(prior, eps_policy, i))
            targets.append(nu)
    return all_of(at_most(worst, bound, atol=1e-9, detail="worst case <= 2 max eps / (1 - delta)"),
                  at_most(policy_worst, targets, atol=1e-9, detail="worst case at the policy's eps <= nu"),
                  close(attained, resolvent, rtol=1e-10,
                        detail="regular cycle: the bound, and nu at the policy's eps, against eq. (12) by the Neumann series"))


@thm_4_2_row_sum.mutant("affiliation.row_sum_bound", "(1 - delta) in place of 1 / (1 - delta)")
def _(row_sum_bound):
    return lambda gamma, eps: 2.0 * float(np.max(eps)) * (1.0 - np.asarray(gamma).sum(axis=1).max())


@thm_4_2_row_sum.mutant("affiliation.row_sum_bound", "factor 2 dropped: max eps / (1 - delta)")
def _(row_sum_bound):
    return lambda gamma, eps: row_sum_bound(gamma, eps) / 2.0


@thm_4_2_row_sum.mutant("affiliation.row_sum_bound", "delta ignored: 2 max eps")
def _(row_sum_bound):
    return lambda gamma, eps: 2.0 * float(np.max(eps))


@thm_4_2_row_sum.mutant("affiliation.policy_epsilon", "eps = nu (1 - delta), the factor 1/2 dropped")
def _(policy_epsilon):
    return lambda nu, delta: 2.0 * policy_epsilon(nu, delta)


@thm_4_2_row_sum.mutant("affiliation.policy_epsilon", "eps = nu (1 + delta) / 2 (sign of delta)")
def _(policy_epsilon):
    return lambda nu, delta: np.asarray(nu, dtype=float) * (1.0 + np.asarray(delta, dtype=float)) / 2.0


@thm_4_2_row_sum.mutant("affiliation.policy_epsilon", "eps = nu / (2 (1 - delta)), divided instead of multiplied")
def _(policy_epsilon):
    return lambda nu, delta: np.asarray(nu, dtype=float) / (2.0 * (1.0 - np.asarray(delta, dtype=float)))


@claim("003/eq-13", item="Theorem 4.2, eq. (13) (proof sketch, reconstructed)",
       statement="For a positive $f$ with multiplicative Lipschitz constants $\\rho_k(f)$ and the posterior $\\hat\\pi = \\pi(\\cdot \\mid M(x) \\in S)$ of any mechanism: $|\\log \\hat\\pi(f) - \\log \\pi(f)| \\le \\sum_{k,j} \\rho_k(f)\\,[(I - \\Gamma)^{-1}]_{kj}\\,\\varepsilon_j$ (formula reconstructed: the text we work from lost it).",
       method="the largest and smallest $\\hat\\pi(f)$ over every $\\varepsilon$-DP mechanism by a plain LP, against log_expectation_shift_bound, for $f = e^{c x_0}$ and random positive $f$ on Ising paths with $\\varepsilon$ concentrated away from the records $f$ depends on, and on random mixed priors (4 records)")
def eq_13(seed: int = 8, trials: int = 10) -> Evidence:
    rng = np.random.default_rng(seed)
    shift, bound = [], []
    x = affiliation.states(4)
    cases = []
    for beta in (0.3, 0.4):
        prior = affiliation.ising_prior(4, [(0, 1), (1, 2), (2, 3)], beta)
        cases.append((prior, np.exp(1.0 * x[:, 0]), np.array([0.0, 0.0, 0.5, 1.0])))
        cases.append((prior, np.exp(0.5 * x[:, 0] - 0.3 * x[:, 1]), np.array([0.01, 0.3, 0.3, 0.8])))
    while len(cases) < trials:
        edges = [(a, b) for a, b in itertools.combinations(range(4), 2) if rng.random() < 0.6]
        prior = affiliation.ising_prior(4, edges, rng.uniform(-0.3, 0.3, len(edges)), rng.normal(0, 0.3, 4))
        if np.linalg.norm(affiliation.influence_matrix(prior), 2) < 1:
            cases.append((prior, rng.uniform(0.5, 2.0, 16), rng.uniform(0.05, 0.8, 4)))
    for prior, f, eps in cases:
        gamma = affiliation.influence_matrix(prior)
        base = np.log(prior @ f)
        up = _ratio_lp(prior * f, prior, eps)  # log max pi_hat(f)
        down = -_ratio_lp(prior, prior * f, eps)  # log min pi_hat(f)
        shift.append(max(up - base, base - down))
        bound.append(affiliation.log_expectation_shift_bound(gamma, eps, f))
    return at_most(shift, bound, atol=1e-9)


@eq_13.mutant("affiliation.log_expectation_shift_bound", "resolvent dropped: sum_k rho_k(f) eps_k")
def _(log_expectation_shift_bound):
    def wrong(gamma, eps, f):
        return log_expectation_shift_bound(np.zeros_like(np.asarray(gamma, dtype=float)), eps, f)
    return wrong


@eq_13.mutant("affiliation.log_expectation_shift_bound", "first order: (I + Gamma) in place of (I - Gamma)^-1")
def _(log_expectation_shift_bound):
    def wrong(gamma, eps, f):
        gamma = np.asarray(gamma, dtype=float)
        log_f = np.log(np.asarray(f, dtype=float))
        n = gamma.shape[0]
        s = np.arange(2**n)
        rho = np.array([np.abs(log_f - log_f[s ^ (1 << k)]).max() for k in range(n)])
        return float(rho @ (np.eye(n) + gamma) @ np.broadcast_to(np.asarray(eps, dtype=float), (n,)))
    return wrong


@claim("003/influence-ising", item="Definition 4.1 (Ising influence)",
       statement="For a zero-field Ising edge $(i, j)$ with node $i$ of degree $D$: $\\gamma_{ij} = \\tfrac12[\\log(1 + e^{2\\beta D}) - \\log(1 + e^{2\\beta(D-2)})]$, between $\\beta$ and $2\\beta$.",
       method="influence_matrix (enumeration of all conditional probabilities) of star and path Ising priors against ising_influence, at $\\beta = 0.25$ and $0.6$")
def influence_ising(beta: float = 0.25) -> Evidence:
    observed, reference = [], []
    for b in (beta, 0.6):
        star = affiliation.influence_matrix(affiliation.ising_prior(5, [(0, j) for j in range(1, 5)], b))
        path = affiliation.influence_matrix(affiliation.ising_prior(4, [(0, 1), (1, 2), (2, 3)], b))
        observed += [star[0, 1], star[1, 0], path[1, 0], path[0, 1], path[0, 2]]
        reference += list(affiliation.ising_influence(b, [4, 1, 2, 1])) + [0.0]
    return close(observed, reference, rtol=1e-12, atol=1e-15)


@influence_ising.mutant("affiliation.ising_influence", "D - 1 in place of D - 2")
def _(ising_influence):
    return lambda beta, d: 0.5 * (np.logaddexp(0.0, 2 * np.asarray(beta) * np.asarray(d)) - np.logaddexp(0.0, 2 * np.asarray(beta) * (np.asarray(d) - 1)))


@influence_ising.mutant("affiliation.ising_influence", "the factor 1/2 dropped")
def _(ising_influence):
    return lambda beta, d: 2 * ising_influence(beta, d)


@influence_ising.mutant("affiliation.influence_matrix", "log-odds in place of log-probabilities")
def _(influence_matrix):
    def wrong(prior):
        prior = np.asarray(prior, dtype=float)
        n = int(round(np.log2(prior.size)))
        x = affiliation.states(n)
        gamma = np.zeros((n, n))
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                worst = 0.0
                for s in range(prior.size):
                    if x[s, i] or x[s, j]:
                        continue
                    odds = [np.log(prior[t | (1 << i)] / prior[t]) for t in (s, s | (1 << j))]
                    worst = max(worst, abs(odds[1] - odds[0]))
                gamma[i, j] = 0.5 * worst
        return gamma
    return wrong


# --- exchangeable priors ------------------------------------------------------------------------

@claim("003/exchangeable-lp", item="Theorem 3.4 (exchangeable priors, LP reduced by symmetry)",
       checks=("affiliation.exchangeable_worst_case_lp",),
       statement="For an exchangeable affiliated prior (a Beta mixture of i.i.d. bits) the worst case over all $\\varepsilon$-DP mechanisms equals formula (6); averaging a mechanism over the permutations of the other records reduces the LP to $2n$ variables indexed by ($x_i$, number of ones among the others) without changing its value.",
       method="exchangeable_worst_case_lp against exchangeable_inferential_privacy for Beta(2, 0.5) and Beta(0.3, 0.3) mixtures at $n$ = 10, 50, 300 and $\\varepsilon$ = 0.05, 0.3, 2, 10; both against a plain LP over all $2^8$ databases for an affiliated and a non-affiliated exchangeable prior, and the exactly-$m$-ones prior against $2\\varepsilon$")
def exchangeable_lp(n_max: int = 300) -> Evidence:
    observed, reference = [], []
    for n in sorted({10, 50, n_max}):
        for a, b in ((2.0, 0.5), (0.3, 0.3)):
            log_w = affiliation.beta_binomial_log_weights(n, a, b)
            for eps in (0.05, 0.3, 2.0, 10.0):
                observed.append(affiliation.exchangeable_worst_case_lp(log_w, eps))
                reference.append(affiliation.exchangeable_inferential_privacy(log_w, eps))
    n = 8
    weight = affiliation.states(n).sum(axis=1)
    full, reduced, formula = [], [], []
    for log_w in (affiliation.beta_binomial_log_weights(n, 2.0, 0.5), -0.4 * (np.arange(n + 1) - n / 2) ** 2):
        log_w = log_w - special.logsumexp(log_w[weight])  # the second prior (log w concave) is not affiliated
        reduced.append(affiliation.exchangeable_worst_case_lp(log_w, 0.3))
        full.append(_reference_worst_case(np.exp(log_w[weight]), 0.3, 0))
        formula.append(affiliation.exchangeable_inferential_privacy(log_w, 0.3))
    m_ones = np.where(np.arange(41) == 12, 0.0, -np.inf)
    return all_of(close(observed, reference, atol=1e-8, rtol=0.0, detail="reduced LP against formula (6), affiliated priors"),
                  close(reduced, full, atol=1e-8, rtol=0.0, detail="reduced LP against the full LP at n = 8"),
                  close([affiliation.exchangeable_worst_case_lp(m_ones, e) for e in (0.3, 3.0)], [0.6, 6.0], atol=1e-8, rtol=0.0,
                        detail="exactly 12 ones among 40: worst case 2 eps"),
                  at_most(formula[1] + 0.05, full[1], atol=0.0, detail="non-affiliated prior: formula (6) + 0.05 <= worst case"))


@exchangeable_lp.mutant("affiliation.exchangeable_inferential_privacy", "binomial multiplicities C(n, k) dropped")
def _(exchangeable_inferential_privacy):
    def wrong(log_w, eps):
        log_w = np.asarray(log_w, dtype=float)
        n = log_w.size - 1
        return exchangeable_inferential_privacy(log_w - (special.gammaln(n + 1) - special.gammaln(np.arange(n + 1) + 1)
                                                         - special.gammaln(n - np.arange(n + 1) + 1)), eps)
    return wrong


@exchangeable_lp.mutant("affiliation.exchangeable_inferential_privacy", "only the tilt towards x_i = 1")
def _(exchangeable_inferential_privacy):
    def wrong(log_w, eps):
        log_w = np.asarray(log_w, dtype=float)
        n = log_w.size - 1
        k = np.arange(n + 1)
        base = log_w + special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1)
        with np.errstate(divide="ignore"):
            odds = lambda t: special.logsumexp(t + np.log(k)) - special.logsumexp(t + np.log(n - k))  # noqa: E731
        return float(odds(base + eps * k) - odds(base))
    return wrong


@exchangeable_lp.mutant("affiliation._exchangeable_pairs", "no DP constraints between x_i = 0 and x_i = 1")
def _(pairs_of):
    def wrong(n):
        pairs = pairs_of(n)
        return pairs[(pairs[:, 0] // n) == (pairs[:, 1] // n)]
    return wrong


@exchangeable_lp.mutant("affiliation._exchangeable_pairs", "counts c ~ c + 2 (off by one) in place of c ~ c + 1")
def _(pairs_of):
    def wrong(n):
        idx = np.arange(2 * n).reshape(2, n)
        pairs = np.concatenate([np.stack([idx[:, :-2].ravel(), idx[:, 2:].ravel()], axis=1), np.stack([idx[0], idx[1]], axis=1)])
        return np.concatenate([pairs, pairs[:, ::-1]])
    return wrong


@claim("003/beta-binomial-weights", item="Section 3 (Beta mixtures of i.i.d. bits)",
       statement="The log-weights of one database with $k$ ones under a Beta$(a, b)$ mixture, $\\log B(a + k, b + n - k) - \\log B(a, b)$, keep their digits when $a$ or $b$ is tiny or huge against $n$.",
       method="beta_binomial_log_weights against the same formula in 40-digit arithmetic (mpmath) at $(n, a, b)$ = (10, 2, $10^{-12}$), ($10^4$, 2, $10^{-13}$), (10, $10^{-12}$, 3), (50, 0.3, 0.7), (10, $10^6$, $2\\cdot10^6$): relative error of $\\log w_k$ within $10^{-11}$ at $k = 0, 1, n/2, n-1, n$")
def beta_binomial_weights() -> Evidence:
    import mpmath as mp

    got, ref = [], []
    with mp.workdps(40):
        for n, a, b in ((10, 2.0, 1e-12), (10**4, 2.0, 1e-13), (10, 1e-12, 3.0), (50, 0.3, 0.7), (10, 1e6, 2e6)):
            log_w = affiliation.beta_binomial_log_weights(n, a, b)
            ks = sorted({0, 1, n // 2, n - 1, n})
            exact = [mp.log(mp.beta(mp.mpf(a) + k, mp.mpf(b) + (n - k)) / mp.beta(mp.mpf(a), mp.mpf(b))) for k in ks]
            got += [float(log_w[k]) for k in ks]
            ref += [float(e) for e in exact]
    return close(got, ref, rtol=1e-11, atol=0.0, detail="log w_k at k = 0, 1, n/2, n - 1, n")


@beta_binomial_weights.mutant("affiliation.beta_binomial_log_weights", "b + n - k in floating point (b lost against n)")
def _(beta_binomial_log_weights):
    def wrong(n, a, b):
        k = np.arange(n + 1)
        return special.betaln(a + k, b + n - k) - special.betaln(a, b)
    return wrong


@beta_binomial_weights.mutant("affiliation.beta_binomial_log_weights", "log w_k from the betaln difference at every k")
def _(beta_binomial_log_weights):
    def wrong(n, a, b):
        k = np.arange(n + 1)
        return special.betaln(a + k, b + (n - k)) - special.betaln(a, b)
    return wrong


# --- Theorem 4.2 tightness and Theorem A.2 ------------------------------------------------------

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
       statement="On trees of maximum degree $D$ the worst case $\\nu_F(\\varepsilon)$ vanishes with $\\varepsilon$ when $(D-1)\\tanh\\beta < 1$, and stays above $\\nu_0 = 2D\\,u(H_0) > 0$ for every $\\varepsilon > 0$ when $(D-1)\\tanh\\beta > 1$: no smaller $\\nu$ is differentially enforceable.",
       method="regular_tree_sup and tree_spontaneous_privacy against the fixed points solved in 40-digit arithmetic, for $D$ = 3, 4, $\\tanh\\beta$ from 0.6 to 1.4 times critical (including 0.999 and 1.001 times) and $\\varepsilon$ from $10^{-8}$ to 1; and tree_inferential_privacy on balls of the $D$-regular tree (finite members) below the sup")
def thm_a_2(degree: int = 3) -> Evidence:
    ours, exact, spont, spont_exact, balls, sups = [], [], [], [], [], []
    for d in sorted({degree, 4}):
        critical = 1.0 / (d - 1)
        for factor in (0.6, 0.9, 0.999, 1.001, 1.1, 1.4):
            beta = float(np.arctanh(min(factor * critical, 0.99)))
            for eps in (1e-8, 1e-4, 0.01, 0.3, 1.0):
                ours.append(affiliation.regular_tree_sup(d, beta, eps))
                exact.append(_mp_tree(d, beta, eps))
            spont.append(affiliation.tree_spontaneous_privacy(d, beta))
            spont_exact.append(_mp_tree(d, beta, 0.0, spontaneous=True))
        # balls of the d-regular tree: root with d children, every other inner node d - 1
        beta = float(np.arctanh(1.2 * critical))
        parents = [-1]
        frontier = [0]
        for radius in range(4):
            new = []
            for node in frontier:
                for _ in range(d if node == 0 else d - 1):
                    parents.append(node)
                    new.append(len(parents) - 1)
            frontier = new
        balls.append(affiliation.tree_inferential_privacy(np.array(parents), beta, 0.1))
        sups.append(_mp_tree(d, beta, 0.1))
    sub = [s for s, f in zip(spont_exact, [0.6, 0.9, 0.999, 1.001, 1.1, 1.4] * 2) if f < 1]
    return all_of(close(ours, exact, rtol=1e-9, atol=1e-300, detail="regular_tree_sup against 40 digits"),
                  close(spont, spont_exact, rtol=1e-9, atol=1e-300, detail="tree_spontaneous_privacy against 40 digits"),
                  at_most(balls, sups, atol=1e-12, detail="balls of radius 4 below the sup"),
                  holds(min(s for s in spont_exact if s > 0) > 0 and max(sub) == 0.0, observed=min(s for s in spont_exact if s > 0),
                        reference=0.0, detail="smallest positive nu_0 (supercritical); subcritical nu_0 = 0"))


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


@claim("003/thm-a-2-lattice", item="Theorem A.2 part 2 (2-D lattice)", kind="illustrated",
       statement="On finite subgraphs of $\\mathbb Z^2$ with $\\beta$ above $\\beta_c = \\tfrac12\\log(1 + \\sqrt2)$ the worst case is at least $\\log\\frac{1 + m^*}{1 - m^*}$, $m^* = (1 - \\sinh^{-4} 2\\beta)^{1/8}$, for every $\\varepsilon > 0$: no DP level enforces a smaller $\\nu$ (statement reconstructed: the text we work from breaks off in this theorem).",
       method="onsager_bound against the plus-boundary boxes of lattice_centre_privacy (3x3, 3x4, 4x4), upper bounds on every finite subgraph containing them, down to $\\varepsilon = 10^{-6}$: the bound must lie below each and the boxes must decrease towards it; free 3x3 and 3x4 boxes (members of the family) reach the bound above a threshold $\\varepsilon$ that falls as the box grows. Illustrated: no finite computation reaches the infinite lattice, and a lower bound for $m^*$ is not computed")
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
    return all_of(at_most([bound] * 3, upper, atol=0.0, detail="Onsager bound <= plus-boundary boxes 3x3, 3x4, 4x4"),
                  at_most(upper[1:], upper[:-1], atol=0.0, detail="plus-boundary boxes decrease as they grow"),
                  at_most(thresholds[1], thresholds[0], atol=0.0, detail="threshold eps of the free 3x4 box <= that of 3x3"))
