"""Benchmark of privlib.affiliation (chapter 003): median of several runs.

- formula (6) for an exchangeable prior with n = 10^6 (target: under 50 ms), against the same
  sums with scipy.stats.binom-style per-term evaluation in a Python loop at n = 10^4 (scaled);
- a tree Ising prior by belief propagation with n = 10^5 nodes (target: under 1 s), against a
  node-by-node Python loop;
- the linear program over all epsilon-DP mechanisms against formula (6) as n grows (the LP is
  the independent check; it is exponential in n, so it is timed up to n = 10);
- the same LP reduced by symmetry for an exchangeable prior (2n variables), up to n = 1000.
"""

from __future__ import annotations

import math
import time

from _timing import median_seconds

from privlib import affiliation
worst_case_lp = affiliation.worst_case_lp


def loop_exchangeable(log_w, eps):
    n = len(log_w) - 1
    sums = {key: [] for key in ("a1", "b1", "a0", "b0")}
    for k in range(n + 1):
        base = log_w[k]
        if k >= 1:
            c = math.lgamma(n) - math.lgamma(k) - math.lgamma(n - k + 1) + base
            sums["a1"].append(c + eps * k); sums["b1"].append(c)
        if k <= n - 1:
            c = math.lgamma(n) - math.lgamma(k + 1) - math.lgamma(n - k) + base
            sums["a0"].append(c + eps * k); sums["b0"].append(c)

    def lse(v):
        top = max(v)
        return top + math.log(sum(math.exp(t - top) for t in v))

    return (lse(sums["a1"]) - lse(sums["b1"])) - (lse(sums["a0"]) - lse(sums["b0"]))


def loop_tree(parents, beta, eps):
    field = [eps / 2] * len(parents)
    for node in range(len(parents) - 1, 0, -1):
        field[parents[node]] += math.atanh(math.tanh(beta) * math.tanh(field[node]))
    return 2 * field[0]


def main() -> None:
    w6 = affiliation.beta_binomial_log_weights(10**6, 2, 2)
    fast_ex = median_seconds(lambda: affiliation.exchangeable_inferential_privacy(w6, 0.2))
    w4 = affiliation.beta_binomial_log_weights(10**4, 2, 2)
    slow_ex = median_seconds(lambda: loop_exchangeable(w4, 0.2), repeat=1) * 100
    assert abs(loop_exchangeable(w4, 0.2) - affiliation.exchangeable_inferential_privacy(w4, 0.2)) < 1e-9

    parents = affiliation.complete_tree_parents(2, 16)  # 131071 nodes
    beta = 0.5 * math.log(0.7 / 0.3)
    fast_tree = median_seconds(lambda: affiliation.tree_inferential_privacy(parents, beta, 0.1))
    slow_tree = median_seconds(lambda: loop_tree(parents.tolist(), beta, 0.1), repeat=1)
    assert abs(loop_tree(parents.tolist(), beta, 0.1) - affiliation.tree_inferential_privacy(parents, beta, 0.1)) < 1e-9

    print("| computation | privlib | straightforward | target |")
    print("|---|---|---|---|")
    print(f"| formula (6), exchangeable prior, n = 10^6 | {fast_ex * 1e3:.0f} ms | {slow_ex:.1f} s (loop at 10^4, x100) | < 50 ms |")
    print(f"| Zeus tree by belief propagation, {parents.size} nodes | {fast_tree * 1e3:.0f} ms | {slow_tree * 1e3:.0f} ms (node loop) | < 1 s |")
    print("\n| n | LP over all DP mechanisms | formula (6) | LP - formula |")
    print("|---|---|---|---|")
    for n in (4, 6, 8, 10):
        prior = affiliation.ising_prior(n, [(j, j + 1) for j in range(n - 1)], 0.4)
        start = time.perf_counter()
        lp = worst_case_lp(prior, 0.3, 0)
        lp_time = time.perf_counter() - start
        print(f"| {n} | {lp_time * 1e3:.0f} ms | {affiliation.inferential_privacy(prior, 0.3, 0):.9f} | {lp - affiliation.inferential_privacy(prior, 0.3, 0):.1e} |")
    print("\n| n | LP reduced by symmetry (exchangeable Beta(2, 0.5) prior) | formula (6) | LP - formula |")
    print("|---|---|---|---|")
    for n in (10, 100, 300, 1000):
        log_w = affiliation.beta_binomial_log_weights(n, 2.0, 0.5)
        lp_time = median_seconds(lambda: affiliation.exchangeable_worst_case_lp(log_w, 0.3), repeat=3)
        lp = affiliation.exchangeable_worst_case_lp(log_w, 0.3)
        formula = affiliation.exchangeable_inferential_privacy(log_w, 0.3)
        print(f"| {n} | {lp_time * 1e3:.0f} ms | {formula:.9f} | {lp - formula:.1e} |")


if __name__ == "__main__":
    main()
