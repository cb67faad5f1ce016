"""Benchmark of privlib.notions (the cross-paper chapter): every notion for one mechanism and
data model, against the per-paper functions computing the same values.

1. 16 binary records (65,536 databases): the truncated geometric count as a table over all
   databases under an Ising chain; ``notions.all_notions`` (target: under 1 s); and at 12
   records against the chapter modules' own routes: ``minimax`` for DP epsilon, delta, TV and KL (over its
   ``FiniteChannel``), ``pufferfish`` for the Pufferfish loss and the conditional laws,
   ``leakage.pml`` on those laws, ``profiles.hockey_stick`` for the statistical delta.
2. n = 10^6 records by the count reduction: the truncated geometric count under a beta-binomial
   prior; ``notions.all_notions`` (target: under 1 s). The inferential privacy alone (at
   n = 10^5, 10^6 and 10^7) is that of the clamped outputs 0 and n (the likelihood ratio is
   monotone in the output under every exchangeable prior), i.e. chapter 003's formula (6), which
   privlib evaluates with the same kernel for both: so its alternative is the vectorised scipy
   expression of formula (6) (``gammaln`` + ``logsumexp``, from bench_003) and, at n = 10^6, the
   FFT convolution of the count law with the noise a numpy user would write; accuracy against
   formula (6) in 30 digits at n = 10^5.
3. The subsampled count under independent records (n = 10^4, m = 100) against chapter 004's
   ``statistical.subsampling_delta``.

Timings are interleaved in one process in rotating order (each round runs every contender once),
CPU time with threads limited to 1 and wall time beside it, median of 7.
Accuracy is the largest relative error against an mpmath reference (30 digits).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import mpmath
import numpy as np
from scipy import signal, stats

from privlib import affiliation, leakage, minimax, notions, profiles, pufferfish, statistical

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import header, interleaved, row  # noqa: E402
from bench_003_networked_inferential_privacy import scipy_exchangeable  # noqa: E402

mpmath.mp.dps = 30


def rel(a: float, b) -> float:
    b = float(b)
    return abs(a - b) / abs(b) if b else abs(a)


# --- 1. 16 records --------------------------------------------------------------------------

def per_paper_16(table, prior, n, eps_half):
    """The same notions through the chapter modules' own functions."""
    ch = minimax.FiniteChannel(table, 2, n)
    out = {"dp_epsilon": minimax.dp_epsilon(ch), "dp_delta": float(minimax.dp_delta(ch, eps_half)),
           "tv_level": minimax.tv_privacy(ch), "kl_level": minimax.kl_privacy(ch)}
    rec = ch.samples[:, 0]
    secrets = [rec == 0, rec == 1]
    out["inferential_privacy"] = pufferfish.pufferfish_loss(table, prior, [(secrets[0], secrets[1]), (secrets[1], secrets[0])])
    laws = np.stack([pufferfish.conditional_output_laws(table, prior, s) for s in secrets])
    marg = np.array([prior[s].sum() for s in secrets])
    out["pml_sup"] = float(leakage.pml(marg, laws).max())
    out["statistical_delta"] = float(max(profiles.hockey_stick(laws[0], laws[1], eps_half),
                                         profiles.hockey_stick(laws[1], laws[0], eps_half)))
    return out


def reference_16(table_rows, prior, n, eps_half):
    """Record-0 notions in 30-digit arithmetic: the prior aggregated by (x_0, count), mixed with
    the count rows."""
    digits = (np.arange(2 ** n)[:, None] >> np.arange(n - 1, -1, -1)[None, :]) & 1
    k = digits.sum(axis=1)
    h = [[mpmath.mpf(0)] * (n + 1) for _ in range(2)]
    for x0, kk, w in zip(digits[:, 0], k, prior):
        h[x0][kk] += mpmath.mpf(float(w))
    marg = [sum(row) for row in h]
    mu = [[sum(h[a][kk] * mpmath.mpf(float(table_rows[kk, y])) for kk in range(n + 1)) / marg[a]
           for y in range(n + 1)] for a in range(2)]
    gk = max(abs(mpmath.log(mu[1][y] / mu[0][y])) for y in range(n + 1))
    py = [marg[0] * mu[0][y] + marg[1] * mu[1][y] for y in range(n + 1)]
    pml = max(mpmath.log(max(mu[0][y], mu[1][y]) / py[y]) for y in range(n + 1))
    e = mpmath.exp(mpmath.mpf(eps_half))
    sp = max(sum(max(mu[a][y] - e * mu[1 - a][y], 0) for y in range(n + 1)) for a in range(2))
    return {"inferential_privacy": gk, "pml_sup": pml, "statistical_delta": sp}


def bench_records() -> None:
    """All notions on 16 records (the target), and on 12 records against the per-paper route
    (minimax's neighbour scan deduplicates a million row pairs with numpy.unique at 16 records,
    about a minute per notion, too slow to repeat 7 times)."""
    for n in (16, 12):
        eps, eps_half = 0.5, 0.25
        geo = notions.geometric_count(n, eps)
        full = geo.expand()
        model = notions.ising_chain_model(n, 0.4, 0.2)
        prior = model.prob
        ref = reference_16(np.exp(geo.log_table), prior, n, eps_half)
        ref.update({"dp_epsilon": eps, "tv_level": np.tanh(eps / 2), "kl_level": eps * np.tanh(eps / 2),
                    "dp_delta": (1 - np.exp(eps_half - eps)) / (1 + np.exp(-eps))})
        ours = notions.all_notions(full, model, 0, epsilon=eps_half, gamma=None)
        err_core = max(rel(ours[k], ref[k]) for k in ref)
        contenders = {"core": lambda: notions.all_notions(full, model, 0, epsilon=eps_half, gamma=None)}
        if n == 16:
            t = interleaved(contenders)
            row("every notion, 16 binary records (65,536 databases), geometric count, Ising chain (target < 1 s)", t["core"],
                "(the per-paper route at 12 records: next row)", None, err_core)
            continue
        theirs = per_paper_16(full.table, prior, n, eps_half)
        err_papers = max(rel(theirs[k], ref[k]) for k in ref)
        contenders["papers"] = lambda: per_paper_16(full.table, prior, n, eps_half)
        t = interleaved(contenders)
        row(f"every notion, {n} records ({2 ** n:,} databases), same", t["core"],
            "the per-paper functions (minimax, pufferfish, leakage, profiles)", t["papers"], err_core, err_papers)


# --- 2. a million records -------------------------------------------------------------------

def fft_inferential_privacy(n, eps, a, b):
    """What a numpy user would write: the law of the other records (beta-binomial posterior
    predictive) convolved with the clamped geometric noise by FFT, in linear space."""
    j = np.arange(n)
    laws = []
    r = np.exp(-eps)
    z = np.arange(-n, n + 1)
    noise = (1 - r) / (1 + r) * r ** np.abs(z)
    for value in (0, 1):
        g = stats.betabinom.pmf(j, n - 1, a + value, b + 1 - value)
        h = np.zeros(n + 1)
        h[value:value + n] = g
        full = signal.fftconvolve(h, noise)            # outputs k + z for z in [-n, n]
        y = np.arange(-n, 2 * n + 1)
        mu = np.bincount(np.clip(y, 0, n), weights=full, minlength=n + 1)
        laws.append(mu)
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.nanmax(np.abs(np.log(laws[1]) - np.log(laws[0]))))


def reference_worst_case(n, eps, a, b):
    """Formula (6) for the beta-binomial prior in 30 digits (sums over the count)."""
    def odds(s):
        num = mpmath.mpf(0)
        den = mpmath.mpf(0)
        for k in range(n + 1):
            w = mpmath.binomial(n, k) * mpmath.beta(a + k, b + n - k) * mpmath.exp(s * eps * k)
            num += w * k
            den += w * (n - k)
        return mpmath.log(num / den)

    base = odds(0)
    return max(odds(1) - base, base - odds(-1))


def bench_million() -> None:
    n, eps, a, b = 10**6, 0.5, 2.0, 2.0
    geo = notions.geometric_count(n, eps)
    model = notions.beta_binomial_model(n, a, b)
    lw = affiliation.beta_binomial_log_weights(n, a, b)
    ours = notions.inferential_privacy(geo, model, 0)
    fft = fft_inferential_privacy(n, eps, a, b)
    n_ref = 10**4
    ref_small = reference_worst_case(n_ref, eps, a, b)
    ours_small = notions.inferential_privacy(notions.geometric_count(n_ref, eps), notions.beta_binomial_model(n_ref, a, b), 0)
    t = interleaved({"core": lambda: notions.all_notions(geo, model, 0, epsilon=eps / 2, gamma=None),
                     "core_gk": lambda: notions.inferential_privacy(geo, model, 0),
                     "scipy": lambda: scipy_exchangeable(lw, eps),
                     "fft": lambda: fft_inferential_privacy(n, eps, a, b)}, repeat=7)
    row("every notion, n = 10^6 by the count reduction, geometric count, beta-binomial(2, 2) (target < 1 s)", t["core"])
    row("inferential privacy, same (the clamped outputs: formula (6))", t["core_gk"],
        "formula (6) as one vectorized scipy expression (`gammaln` + `logsumexp`)", t["scipy"],
        f"scipy's {rel(scipy_exchangeable(lw, eps), ours):.1e} from privlib's; at n = 10^4 against mpmath: "
        f"{rel(ours_small, ref_small):.1e}")
    row("same", t["core_gk"], "FFT convolution in linear space (`scipy.signal.fftconvolve`)", t["fft"],
        f"FFT value {fft:.4g} against {ours:.6g} (tails lost)")


def bench_count_reduction() -> None:
    """Inferential privacy by the count reduction against formula (6) as a scipy expression at
    n = 10^5 and 10^7 (10^6: the rows above), accuracy of both against formula (6) in 30 digits at
    n = 10^5."""
    eps, a, b = 0.5, 2.0, 2.0
    for n in (10**5, 10**7):
        geo = notions.geometric_count(n, eps)
        model = notions.beta_binomial_model(n, a, b)
        lw = affiliation.beta_binomial_log_weights(n, a, b)
        ours = notions.inferential_privacy(geo, model, 0)
        theirs = scipy_exchangeable(lw, eps)
        t = interleaved({"core_gk": lambda: notions.inferential_privacy(geo, model, 0),
                         "scipy": lambda: scipy_exchangeable(lw, eps)}, repeat=7)
        if n <= 10**5:
            ref = reference_worst_case(n, eps, a, b)
            acc = (rel(ours, ref), rel(theirs, ref))
        else:
            acc = f"{rel(ours, theirs):.1e} apart"
        exponent = len(str(n)) - 1
        row(f"inferential privacy by the count reduction, n = 10^{exponent}, geometric count, beta-binomial(2, 2)", t["core_gk"],
            "formula (6) as one vectorized scipy expression (`gammaln` + `logsumexp`)", t["scipy"],
            *(acc if isinstance(acc, tuple) else (acc,)))


# --- 3. subsampled count ----------------------------------------------------------------------

def bench_subsampled() -> None:
    n, m, p = 10**4, 100, 0.3
    sub = notions.subsampled_count(n, m)
    model = notions.iid_model(n, p)
    grid = np.array([0.0, 0.25, 0.5]) * notions.inferential_privacy(sub, model, 0)  # where delta > 0
    ours = notions.statistical_delta(sub, model, grid)
    theirs = statistical.subsampling_delta(grid, n, m, p)
    t = interleaved({"core": lambda: notions.statistical_delta(sub, model, grid),
                     "build": lambda: notions.subsampled_count(n, m),
                     "paper": lambda: statistical.subsampling_delta(grid, n, m, p)})
    diff = float(np.max(np.abs(ours - theirs) / np.maximum(theirs, 1e-300)))
    row("statistical delta, subsampled count n = 10^4, m = 100, 3 epsilons where delta > 0", t["core"],
        "chapter 004's `subsampling_delta` (Lemma 4 laws)", t["paper"], f"{diff:.1e} apart")
    row("same, tabulating the subsampled count (`notions.subsampled_count`)", t["build"])


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")
    print(header())
    bench_records()
    bench_million()
    bench_count_reduction()
    bench_subsampled()


if __name__ == "__main__":
    main()
