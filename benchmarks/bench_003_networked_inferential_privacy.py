"""Benchmark of privlib.affiliation (chapter 003) against the best alternative a competent user
has, interleaved in one process in rotating order (CPU time with threads limited to 1, wall time
beside it), median of 7 rounds, with the accuracy of each against an mpmath reference. Inputs are generic (Beta(2, 3) mixtures, p = 0.7 trees, eps = 0.3).

- formula (6) for an exchangeable prior: the same sums as one vectorized scipy expression
  (``gammaln`` multiplicities, four ``logsumexp`` calls);
- belief propagation on a tree (a chain of 10^4 nodes and a complete binary tree): a plain Python
  loop over the nodes (the recursion is sequential; no vectorized expression exists for a generic
  tree) and a level-by-level numpy pass;
- the complete-tree closed recursion against the same recursion written plainly (a loop over the
  17 levels with ``math.tanh``/``math.atanh``);
- the sup over trees of maximum degree D near criticality: Brent's method against the fixed-point
  iteration a user would write (10^4 steps from above);
- the worst case over all eps-DP mechanisms (n = 10): privlib's symmetry-reduced LP (2n variables)
  and its full LP against the full linear-fractional program written directly for
  ``scipy.optimize.linprog`` (HiGHS; Charnes-Cooper, 2^n variables, n 2^n sparse constraints);
- the Beta-mixture log-weights against the scipy one-liner ``betaln(a + k, b + n - k) - betaln(a, b)``.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import mpmath as mp
import numpy as np
from scipy import optimize, sparse, special

from privlib import affiliation

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import header, interleaved, row  # noqa: E402


def rel(x: float, ref: float) -> float:
    return abs(x - ref) / abs(ref) if ref else abs(x)


# --- alternatives -------------------------------------------------------------------------------

def scipy_exchangeable(log_w: np.ndarray, eps: float) -> float:
    """Eq. (6) for pi(x) = w_|x| as one vectorized scipy expression: C(n-1, k-1) and C(n-1, k)
    databases with k ones given x_i = 1 and x_i = 0."""
    n = len(log_w) - 1
    k = np.arange(n + 1)
    with np.errstate(divide="ignore"):
        log_c1 = np.where(k >= 1, special.gammaln(n) - special.gammaln(np.maximum(k, 1)) - special.gammaln(n - k + 1), -np.inf) + log_w
        log_c0 = np.where(k <= n - 1, special.gammaln(n) - special.gammaln(k + 1) - special.gammaln(np.maximum(n - k, 1)), -np.inf) + log_w

    def log_mean(log_c, s):
        return special.logsumexp(log_c + s * eps * k) - special.logsumexp(log_c)

    return max(log_mean(log_c1, 1) - log_mean(log_c0, 1), log_mean(log_c0, -1) - log_mean(log_c1, -1))


def mp_exchangeable(n: int, a: float, b: float, eps: float) -> float:
    with mp.workdps(30):
        a, b, e = mp.mpf(a), mp.mpf(b), mp.mpf(eps)
        w = [mp.beta(a + k, b + n - k) / mp.beta(a, b) for k in range(n + 1)]
        def mean(side, s):
            num = den = mp.mpf(0)
            for k in range(n + 1):
                c = mp.binomial(n - 1, k - 1) if side else mp.binomial(n - 1, k)
                if c == 0:
                    continue
                num += c * w[k] * mp.exp(s * e * k)
                den += c * w[k]
            return num / den
        return float(max(mp.log(mean(1, 1) / mean(0, 1)), mp.log(mean(0, -1) / mean(1, -1))))


def loop_tree(parents: list, beta: float, eps: float) -> float:
    t = math.tanh(beta)
    field = [eps / 2] * len(parents)
    for node in range(len(parents) - 1, 0, -1):
        field[parents[node]] += math.atanh(t * math.tanh(field[node]))
    return 2 * field[0]


def numpy_levels_tree(parents: np.ndarray, beta: float, eps: float) -> float:
    depth = np.zeros(parents.size, dtype=np.int64)
    for node in range(1, parents.size):  # parents come first
        depth[node] = depth[parents[node]] + 1
    field = np.full(parents.size, eps / 2)
    t = np.tanh(beta)
    for level in range(int(depth.max()), 0, -1):
        nodes = np.flatnonzero(depth == level)
        np.add.at(field, parents[nodes], np.arctanh(t * np.tanh(field[nodes])))
    return float(2 * field[0])


def mp_complete_tree(b: int, depth: int, beta: float, eps: float) -> float:
    with mp.workdps(30):
        t, h = mp.tanh(mp.mpf(beta)), mp.mpf(eps) / 2
        field = h
        for _ in range(depth):
            field = h + b * mp.atanh(t * mp.tanh(field))
        return float(2 * field)


def iterate_tree_sup(degree: int, beta: float, eps: float, steps: int = 10_000) -> float:
    h, t = eps / 2, math.tanh(beta)
    field = h + (degree - 1) * beta + 1.0
    for _ in range(steps):
        field = h + (degree - 1) * math.atanh(t * math.tanh(field))
    return 2 * (h + degree * math.atanh(t * math.tanh(field)))


def plain_complete_tree(b: int, depth: int, beta: float, eps: float) -> float:
    """The closed depth recursion H_l = eps/2 + b atanh(tanh(beta) tanh(H_{l-1})) written plainly."""
    t, h = math.tanh(beta), eps / 2
    field = h
    for _ in range(depth):
        field = h + b * math.atanh(t * math.tanh(field))
    return 2 * field


def linprog_worst_case(n: int, log_w: np.ndarray, eps: float) -> float:
    """The worst case over all eps-DP mechanisms for the exchangeable prior pi(x) = w_|x|, record 0,
    as the full LP for scipy.optimize.linprog: over acceptance functions g >= 0 on the 2^n
    databases with g(x) <= e^eps g(x with record j flipped), maximise E[g | x_0 = z] subject to
    E[g | x_0 = 1 - z] = 1 (Charnes-Cooper: the ratio is homogeneous in g), both z; the log of
    the larger optimum."""
    s = np.arange(2**n)
    ones = np.array([bin(x).count("1") for x in s])
    prior = np.exp(log_w[ones] - log_w.max())
    bit = (s & 1).astype(bool)
    rows = np.arange(n * s.size)
    x = np.tile(s, n)
    y = x ^ np.repeat(1 << np.arange(n), s.size)
    a_ub = sparse.csr_matrix((np.r_[np.ones(rows.size), np.full(rows.size, -math.exp(eps))], (np.r_[rows, rows], np.r_[x, y])),
                             shape=(rows.size, s.size))
    best = -math.inf
    for z in (True, False):
        num = np.where(bit == z, prior, 0.0) / prior[bit == z].sum()
        den = np.where(bit != z, prior, 0.0) / prior[bit != z].sum()
        res = optimize.linprog(-num, A_ub=a_ub, b_ub=np.zeros(rows.size), A_eq=den[None, :], b_eq=[1.0],
                               bounds=(0, None), method="highs")
        best = max(best, math.log(-res.fun))
    return best


def mp_tree_sup(degree: int, beta: float, eps: float) -> float:
    with mp.workdps(40):
        t, h = mp.tanh(mp.mpf(beta)), mp.mpf(eps) / 2
        u = lambda x: mp.atanh(t * mp.tanh(x))  # noqa: E731
        low, top = h, h + (degree - 1) * mp.mpf(beta)
        for _ in range(160):
            mid = (low + top) / 2
            if h + (degree - 1) * u(mid) - mid > 0:
                low = mid
            else:
                top = mid
        return float(2 * (h + degree * u(low)))


def main() -> None:
    print(header())

    # formula (6), exchangeable prior: time at n = 10^6, accuracy at n = 10^3 (mpmath sums)
    a, b, eps = 2.0, 3.0, 0.3
    w6 = affiliation.beta_binomial_log_weights(10**6, a, b)
    t = interleaved({"privlib": lambda: affiliation.exchangeable_inferential_privacy(w6, eps),
                     "scipy": lambda: scipy_exchangeable(w6, eps)})
    w3 = affiliation.beta_binomial_log_weights(1000, a, b)
    ref = mp_exchangeable(1000, a, b, eps)
    row("formula (6), exchangeable Beta(2, 3) prior, n = 10^6 (error at n = 10^3)", t["privlib"],
        "vectorized scipy `gammaln` + `logsumexp`", t["scipy"],
        rel(affiliation.exchangeable_inferential_privacy(w3, eps), ref), rel(scipy_exchangeable(w3, eps), ref))

    # belief propagation: a chain and a wide binary tree
    beta = 0.5 * math.log(0.7 / 0.3)
    chain = np.arange(-1, 10**4 - 1)
    chain_list = chain.tolist()
    ref = mp_complete_tree(1, 10**4 - 1, beta, 0.1)
    t = interleaved({"privlib": lambda: affiliation.tree_inferential_privacy(chain, beta, 0.1),
                     "loop": lambda: loop_tree(chain_list, beta, 0.1),
                     "levels": lambda: numpy_levels_tree(chain, beta, 0.1)})
    err = rel(affiliation.tree_inferential_privacy(chain, beta, 0.1), ref)
    row("tree belief propagation, chain of 10^4 nodes", t["privlib"], "plain Python loop over the nodes", t["loop"],
        err, rel(loop_tree(chain_list, beta, 0.1), ref))
    row("same", t["privlib"], "numpy level by level", t["levels"], err, rel(numpy_levels_tree(chain, beta, 0.1), ref))
    tree = affiliation.complete_tree_parents(2, 17)
    tree_list = tree.tolist()
    ref = mp_complete_tree(2, 17, beta, 0.1)
    t = interleaved({"privlib": lambda: affiliation.tree_inferential_privacy(tree, beta, 0.1),
                     "loop": lambda: loop_tree(tree_list, beta, 0.1),
                     "levels": lambda: numpy_levels_tree(tree, beta, 0.1)})
    err = rel(affiliation.tree_inferential_privacy(tree, beta, 0.1), ref)
    row(f"tree belief propagation, complete binary tree of depth 17 ({tree.size:,} nodes)", t["privlib"],
        "plain Python loop over the nodes", t["loop"], err, rel(loop_tree(tree_list, beta, 0.1), ref))
    row("same", t["privlib"], "numpy level by level", t["levels"], err, rel(numpy_levels_tree(tree, beta, 0.1), ref))
    t = interleaved({"closed": lambda: affiliation.complete_tree_inferential_privacy(2, 17, beta, 0.1),
                     "plain": lambda: plain_complete_tree(2, 17, beta, 0.1)})
    row("same tree, closed depth recursion (`complete_tree_inferential_privacy`)", t["closed"],
        "the recursion as a plain loop over the 17 levels", t["plain"],
        rel(affiliation.complete_tree_inferential_privacy(2, 17, beta, 0.1), ref), rel(plain_complete_tree(2, 17, beta, 0.1), ref))

    # sup over trees near criticality
    beta_c = math.atanh(0.5) * 1.0001
    ref = mp_tree_sup(3, beta_c, 1e-6)
    t = interleaved({"privlib": lambda: affiliation.regular_tree_sup(3, beta_c, 1e-6),
                     "iterate": lambda: iterate_tree_sup(3, beta_c, 1e-6)})
    row("supremum over trees of degree 3 at 1.0001 x critical, eps = 1e-6 (Brent)", t["privlib"],
        "10^4 fixed-point steps", t["iterate"],
        rel(affiliation.regular_tree_sup(3, beta_c, 1e-6), ref), rel(iterate_tree_sup(3, beta_c, 1e-6), ref))

    # the LP over all mechanisms: privlib's reduced and full LPs against the full LP for linprog
    n = 10
    log_w = affiliation.beta_binomial_log_weights(n, a, b)
    prior = np.exp(log_w[affiliation.states(n).sum(axis=1)])
    ref = mp_exchangeable(n, a, b, eps)  # affiliated: the worst case is formula (6) (Theorem 3.4)
    t = interleaved({"reduced": lambda: affiliation.exchangeable_worst_case_lp(log_w, eps),
                     "full": lambda: affiliation.worst_case_lp(prior, eps, 0),
                     "linprog": lambda: linprog_worst_case(n, log_w, eps)})
    err_alt = rel(linprog_worst_case(n, log_w, eps), ref)
    row("worst case over all eps-DP mechanisms, Beta(2, 3) prior, n = 10 (LP reduced by symmetry, 2n variables)", t["reduced"],
        "the full LP over 2^n databases for `scipy.optimize.linprog`", t["linprog"],
        rel(affiliation.exchangeable_worst_case_lp(log_w, eps), ref), err_alt)
    row("same, privlib's full LP (`worst_case_lp`, any prior)", t["full"],
        "the full LP over 2^n databases for `scipy.optimize.linprog`", t["linprog"],
        rel(affiliation.worst_case_lp(prior, eps, 0), ref), err_alt)

    # Beta-mixture log-weights
    for n, a_, b_ in ((10**4, 2.0, 3.0), (10**4, 2.0, 1e-13)):
        ks = [0, 1, n // 2, n - 1, n]
        with mp.workdps(40):
            exact = [mp.log(mp.beta(mp.mpf(a_) + k, mp.mpf(b_) + (n - k)) / mp.beta(mp.mpf(a_), mp.mpf(b_))) for k in ks]

        def one_liner():
            k = np.arange(n + 1)
            return special.betaln(a_ + k, b_ + n - k) - special.betaln(a_, b_)

        t = interleaved({"privlib": lambda: affiliation.beta_binomial_log_weights(n, a_, b_), "scipy": one_liner})
        ours, theirs = affiliation.beta_binomial_log_weights(n, a_, b_)[ks], one_liner()[ks]
        err_ours = max(abs(float(o - e) / float(e)) for o, e in zip(ours, exact))
        with np.errstate(invalid="ignore"):
            err_theirs = max(abs(float(o - e) / float(e)) if np.isfinite(o) else math.inf for o, e in zip(theirs, exact))
        row(f"Beta({a_:g}, {b_:g}) log-weights, n = 10^4", t["privlib"], "scipy `betaln` one-liner", t["scipy"], err_ours, err_theirs)

if __name__ == "__main__":
    main()
