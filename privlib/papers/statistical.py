"""Statistical privacy of property queries (Breutigam & Reischuk, "Statistical privacy").

A database has n independent entries, each positive with probability pi; the property query
returns the fraction of positives. Statistical privacy (SP) compares the output law given that a
critical entry is positive (``mu_+``) with the law given that it is negative (``mu_-``):
``delta(eps) = max(delta_+(eps), delta_-(eps))``, each a hockey-stick divergence (Definition 5).

Every delta here is computed from its definition. Subsampling m of the n entries (pure SP is
``m = n``) gives the discrete laws of Lemma 4, ``P_+(j) = b_m(j) (lam j / (m pi) + 1 - lam)`` and
``P_-(j) = b_m(j) (lam (m - j) / (m (1 - pi)) + 1 - lam)``, whose likelihood ratio increases in j
(Lemma 4's ``Q_+``); ``delta_+`` is the sum of ``P_+(j) (1 - e^(eps - L(j)))`` over the outputs
above the threshold. Summed by parts, it becomes a sum of positive terms (tails of ``P_+`` times
the increments of ``e^-L``), computed once for all epsilons by running sums over the
``O(sqrt(m))`` outputs that matter, then O(1) per epsilon (a binary search and two look-ups):
no difference of two nearly equal tails, so 12 digits at n = 10^8, where the binomial tails'
difference keeps 6. Where that grid would be too long (m beyond ~10^9) or an epsilon's
threshold lies beyond it, a window of outputs after the threshold is summed term by term in
log-space and, beyond it, binomial tails (``scipy.special.betainc``). Deltas far below the
smallest double are available in log-space (:func:`log_subsampling_delta`). With additive noise, the two
output laws are binomial mixtures of shifted noise densities with a monotone likelihood ratio,
so the optimal event is a half-line found by one root search (:func:`noise_delta`).

The paper's closed forms (Lemma 4's ``Q_+``, the threshold sums of Theorems 4.1 and 4.2, the
normal approximation of Lemmas 6 and 10) are public too, evaluated both as printed and as
corrected, so that the chapter's errata compare the paper's own expressions with the definition.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize, special

from privlib.core import _logspace
from privlib.core import _validate as v
from privlib.papers import intervals
from privlib.core import profiles

__all__ = [
    "log_binomial_pmf",
    "subsampling_laws",
    "likelihood_ratio",
    "subsampling_delta",
    "log_subsampling_delta",
    "pure_delta",
    "log_pure_delta",
    "theorem_thresholds",
    "theorem_summands",
    "theorem_deltas",
    "chernoff_rate",
    "noise_delta",
    "dp_delta",
    "subsampling_utility_loss",
    "statistical_utility_loss",
    "noise_utility_loss",
    "equal_utility_scales",
    "laplace_sp_epsilon",
    "equal_utility_laplace_epsilon",
    "normal_approx_delta",
    "lemma10_noise_level",
    "lemma10_delta",
    "amplified_epsilon",
    "output_densities",
]

NOISES = ("gaussian", "laplace")
#: outputs summed term by term after the threshold; beyond them the tails of the two laws differ
#: by at least a factor ``1 - e^(-_TERMS dL)``, so their difference keeps its digits
_TERMS = 256
_MAX_N = 10**12  # sizes beyond this lose the integer resolution of float64 lattices
_LOG_SQRT_2PI = 0.5 * np.log(2.0 * np.pi)


def _log_binom_run(start: NDArray[np.float64], count: int, size: int, p: float, q: float) -> NDArray[np.float64]:
    """log Bin(size, p) at ``start[i] + 0 .. count-1`` (rows), ``-inf`` beyond size, for the exact
    law of ``_logspace.exact_pair``: the first from ``_logspace.log_binomial_pmf``, the rest by summing
    the exact log-ratios ``log((size - k) p / ((k + 1) q))`` of consecutive terms (two logs per
    term)."""
    j = start[:, None] + np.arange(count, dtype=float)[None, :]
    # log(p / q) split into its double and the rounding error of that double (from extended
    # precision where the platform has it, with the larger of p and q one minus the smaller):
    # summed over 10^5 terms, the error would drift by 1e-11
    odds = np.log(p) - np.log(q)
    small = np.longdouble(min(p, q))
    log_small, log_large = np.log(small), np.log1p(-small)
    odds_error = float((log_small - log_large if p <= q else log_large - log_small) - np.longdouble(odds))
    with np.errstate(divide="ignore", invalid="ignore"):
        step = np.log((size - j[:, :-1]) / (j[:, :-1] + 1.0)) + odds
    step = np.where(j[:, 1:] <= size, step, -np.inf)
    first = _logspace.log_binomial_pmf(start, size, p, q)[:, None]
    drift = np.arange(1.0, count) * odds_error
    run = (np.cumsum(step, axis=1, dtype=np.longdouble) + drift).astype(float)
    return np.concatenate([first, first + run], axis=1)


def log_binomial_pmf(k: ArrayLike, size: int, pi: float) -> NDArray[np.float64]:
    """``log P(K = k)`` for ``K ~ Bin(size, pi)``, vectorized over k (``-inf`` outside 0..size),
    accurate to a few ulps for any size (``privlib.core._logspace.log_binomial_pmf``). The
    building block of every law of the paper (Lemma 4)."""
    size = v.integer("size", size, low=0, high=_MAX_N)
    pi = v.scalar("pi", pi, low=0.0, high=1.0)
    k = v.real("k", k)
    if (k != np.round(k)).any():
        raise ValueError("k must hold integers")
    return _logspace.log_binomial_pmf(k, size, pi)


# --- the discrete laws of subsampling and pure SP (Lemma 4, Theorems 4.1 and 4.2) -------------

def _check_n_m_pi(n: int, m: int, pi: float) -> tuple[int, int, float]:
    n = v.integer("n", n, low=2, high=_MAX_N)
    m = v.integer("m", m, low=1, high=n)
    pi = v.scalar("pi", pi, low=0.0, high=1.0, low_open=True, high_open=True)
    return n, m, pi


def _log_factors(j: NDArray[np.float64], m: int, lam: float, p: float, q: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``log P_+(j) - log b_m(j)`` and ``log P_-(j) - log b_m(j)``: the factors
    ``lam j / (m p) + 1 - lam`` and ``lam (m - j) / (m q) + 1 - lam`` of Lemma 4."""
    with np.errstate(divide="ignore"):
        return (np.log(lam * j / (m * p) + (1.0 - lam)),
                np.log(lam * (m - j) / (m * q) + (1.0 - lam)))


def _laws(m: int, lam: float, p: float, q: float, j: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    base = _logspace.log_binomial_pmf(j, m, p, q)
    fp, fm = _log_factors(j, m, lam, p, q)
    return base + fp, base + fm


def subsampling_laws(n: int, m: int, pi: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Lemma 4: log-probabilities of ``m a = j`` (j = 0..m positives in a subsample of size m drawn
    without replacement) given the critical entry positive (``log P_+``) and negative (``log P_-``):
    ``P_+(j) = lam b_{m-1}(j-1) + (1-lam) b_m(j)``, ``P_-(j) = lam b_{m-1}(j) + (1-lam) b_m(j)``,
    ``lam = m / n``. With ``m = n`` these are the laws of pure statistical privacy."""
    n, m, pi = _check_n_m_pi(n, m, pi)
    v.size_limit("m", m + 1, 1e8)
    return _laws(m, m / n, pi, 1.0 - pi, np.arange(m + 1.0))


def likelihood_ratio(j: ArrayLike, n: int, m: int, pi: float) -> NDArray[np.float64]:
    """Lemma 4's closed form of ``Q_+(j) = P_+(j) / P_-(j)``:
    ``(lam j + (1 - lam) m pi) / (lam (m - j) xi + (1 - lam) m pi)`` with ``xi = pi / (1 - pi)``,
    vectorized over real ``j`` in ``[0, m]`` (the paper interpolates it; it equals 1 at
    ``j = pi m``); ``inf`` at ``j = m`` when ``m = n``."""
    n, m, pi = _check_n_m_pi(n, m, pi)
    j = v.real("j", j, low=0.0, high=float(m))
    lam, xi = m / n, pi / (1.0 - pi)
    with np.errstate(divide="ignore"):
        return (lam * j + (1 - lam) * m * pi) / (lam * (m - j) * xi + (1 - lam) * m * pi)


def _threshold_plus(eps: NDArray[np.float64], m: int, lam: float, p: float, q: float) -> NDArray[np.float64]:
    """The real ``j`` at which ``Q_+(j) = e^eps`` (uncapped), written with ``e^-eps`` so that it
    stays finite for any epsilon."""
    e = np.exp(-eps)
    return m * p * (lam + (-np.expm1(-eps)) * (1.0 - lam) * q) / (lam * (q * e + p))


def _sf(k: NDArray[np.float64], size: int, p: float) -> NDArray[np.float64]:
    """``P(Bin(size, p) > k)`` for integer k (1 below the support, 0 above it)."""
    k = np.asarray(k, dtype=float)
    inside = (k >= 0) & (k < size)
    safe = np.where(inside, k, 0.0)
    with np.errstate(all="ignore"):
        tail = special.betainc(safe + 1.0, size - safe, p)
    return np.where(k < 0, 1.0, np.where(inside, tail, 0.0))


def _log_delta_plus(eps: NDArray[np.float64], m: int, lam: float, p: float, q: float, *,
                    floor: float = -np.inf) -> NDArray[np.float64]:
    """``log H_{e^eps}(P_+ || P_-)`` for each epsilon (1-D): per-term over ``_TERMS`` outputs
    from just below the threshold, then the two tails beyond them. Where the result is surely
    below ``floor`` (the window's sum times the m outputs left is), the deep tail is skipped."""
    start = np.clip(np.floor(_threshold_plus(eps, m, lam, p, q)) - 1.0, 0.0, float(m))
    j = start[:, None] + np.arange(_TERMS, dtype=float)[None, :]
    inside = j <= m
    jj = np.where(inside, j, m)
    base = _log_binom_run(start, _TERMS, m, p, q)
    fp, fm = _log_factors(jj, m, lam, p, q)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        gap = eps[:, None] - (fp - fm)                    # eps - L(j); -inf where P_- = 0
        log_terms = np.where(inside & (gap < 0), base + fp + np.log(-np.expm1(gap)), -np.inf)
    log_head = special.logsumexp(log_terms, axis=1)
    # beyond the window every output has L(j) > eps + _TERMS dL: the tails differ without cancelling
    first = start + _TERMS
    out = log_head.copy()
    rest = first <= m
    if rest.any():
        f, e = first[rest], eps[rest]
        tail_plus = (lam * _sf(f - 2.0, m - 1, p) if lam > 0 else 0.0) + (1 - lam) * _sf(f - 1.0, m, p)
        tail_minus = (lam * _sf(f - 1.0, m - 1, p) if lam > 0 else 0.0) + (1 - lam) * _sf(f - 1.0, m, p)
        with np.errstate(over="ignore", invalid="ignore"):
            tail = np.maximum(tail_plus - np.exp(e) * tail_minus, 0.0)
        # where the tails underflow, continue term by term in log-space, unless the window's last
        # terms already fall so fast that the rest is below e^-40 of the sum (a geometric bound)
        last, before = log_terms[rest, -1], log_terms[rest, -2]
        with np.errstate(invalid="ignore"):
            ratio = np.minimum(last - before, -1e-300)
            bound = last + ratio - np.log(-np.expm1(ratio))
        deep = (tail_plus < 1e-280) & ~(bound < log_head[rest] - 40.0) & (log_head[rest] + np.log(m) + 1.0 > floor)
        with np.errstate(divide="ignore"):
            log_tail = np.where(tail_plus < 1e-280, -np.inf, np.log(tail))
        for i in np.flatnonzero(deep):
            log_tail[i] = _log_tail_by_terms(float(e[i]), f[i], m, lam, p, q, float(log_head[rest][i]))
        out[rest] = np.logaddexp(log_head[rest], log_tail)
    return out


def _log_tail_by_terms(eps: float, first: float, m: int, lam: float, p: float, q: float, head: float) -> float:
    """log of the hockey-stick terms from ``first`` to m, in blocks, until they no longer matter
    (they decrease: the likelihood ratio grows and the binomial falls beyond its mode)."""
    total = -np.inf
    block = 4 * _TERMS
    while first <= m:
        j = first + np.arange(block, dtype=float)
        base = _log_binom_run(np.array([first]), block, m, p, q)[0][j <= m]
        j = j[j <= m]
        fp, fm = _log_factors(j, m, lam, p, q)
        with np.errstate(divide="ignore"):
            terms = base + fp + np.log(-np.expm1(np.minimum(eps - (fp - fm), 0.0)))
        total = np.logaddexp(total, special.logsumexp(terms))
        if terms[-1] < max(total, head) - 45.0:
            break
        first = j[-1] + 1.0
    return float(total)


#: the most outputs per block of the linear grid (a block's binomial terms are running products from its first)
_BLOCK = 64
#: longest grid of outputs whose terms are each taken from Loader's form (one pass; longer grids
#: go by blocks, whose fixed cost is larger on short grids)
_DIRECT_GRID = 4096
#: the largest grid of outputs summed once for all epsilons (beyond, the window per epsilon)
_MAX_GRID = 2 * 10**6
#: outputs whose log-probability under ``P_+`` is below ``-_GRID_NATS`` are left out of the grid
_GRID_NATS = 850.0


def _log_suffix_sums(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log sum_{i >= k} e^{x_i}`` for every k: a running log-sum-exp from the far end (exact for
    sums far below the smallest double)."""
    return np.logaddexp.accumulate(x[::-1])[::-1]


def _log_delta_plus_grid(eps: NDArray[np.float64], m: int, lam: float, p: float, q: float,
                         deep: bool = True) -> NDArray[np.float64] | None:
    """``log H_{e^eps}(P_+ || P_-)`` for every epsilon from one pass over the outputs that matter
    (``O(sqrt(m p q))`` of them, from the smallest threshold to where ``P_+`` falls below
    ``e^-850``), then O(1) per epsilon; ``None`` when that grid would exceed ``_MAX_GRID``.

    With J the first output whose loss ``L(j) = log P_+(j) / P_-(j)`` exceeds eps and
    ``T(i) = P_+(j >= i)``, summation by parts of ``sum_{j >= J} P_+(j) (1 - e^{eps - L(j)})``
    gives ``(1 - e^{eps - L(J)}) T(J) + e^eps sum_{i > J} (e^{-L(i-1)} - e^{-L(i)}) T(i)``: every
    term positive (L increases), so nothing cancels however close the two laws are (at n = 10^8
    the binomial tails' difference loses four digits). The steps ``L(i) - L(i-1)`` come from
    ``log1p`` of the exact increments of Lemma 4's two factors, the tails and the inner sum from
    running log-sum-exps (``np.logaddexp.accumulate``) from the far end; each epsilon then needs
    its J (a binary search in L) and two look-ups. Epsilons whose J lies beyond the grid get
    ``nan`` (their delta is below ``e^-800``). ``deep=False`` is for deltas that must only be right
    down to the smallest normal double (``_log_delta_plus_grid_linear``)."""
    thr = _threshold_plus(np.array([eps.min()]), m, lam, p, q)[0]
    lo = float(np.clip(np.floor(thr) - 1.0, 0.0, m))
    var = m * p * q
    a = 2.0 * _GRID_NATS / 3.0
    hi = float(np.clip(np.ceil(m * p + (a + np.sqrt(a * a + 8.0 * _GRID_NATS * var)) / 2.0) + 2.0, lo, m))
    if hi - lo + 1 > _MAX_GRID:
        return None
    if not deep:
        return _log_delta_plus_grid_linear(eps, m, lam, p, q, lo, hi)
    count = int(hi - lo) + 1
    j = lo + np.arange(count, dtype=float)
    base = _log_binom_run(np.array([lo]), count, m, p, q)[0]
    fp, fm = _log_factors(j, m, lam, p, q)
    log_plus = base + fp
    with np.errstate(invalid="ignore"):
        loss = fp - fm                                           # inf where P_- vanishes (j = m, lam = 1)
    # L(i) - L(i-1) = log1p(c_p / A(i-1)) - log1p(-c_q / B(i-1)), A and B Lemma 4's two factors
    c_p, c_q = lam / (m * p), lam / (m * q)
    prev = j[:-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        step = np.log1p(c_p / (lam * prev / (m * p) + (1.0 - lam))) - np.log1p(-c_q / (lam * (m - prev) / (m * q) + (1.0 - lam)))
        # e^{-L(i-1)} - e^{-L(i)} = e^{-L(i-1)} (1 - e^{-step}); only i - 1 >= J (L > eps >= 0) is used
        log_gap = np.where(loss[:-1] > 0.0, -loss[:-1] + np.log(-np.expm1(-step)), -np.inf)
    log_tail = _log_suffix_sums(log_plus)                        # log T(i)
    inner = np.concatenate([_log_suffix_sums(log_gap + log_tail[1:]), [-np.inf]])
    # inner[k] = log sum_{i > j_k} (e^{-L(i-1)} - e^{-L(i)}) T(i)
    idx = np.searchsorted(loss, eps, side="right")
    out = np.full(eps.shape, np.nan)
    ok = idx < count
    k = idx[ok]
    e = eps[ok]
    with np.errstate(divide="ignore", invalid="ignore"):
        first = np.log(-np.expm1(np.minimum(e - loss[k], 0.0))) + log_tail[k]
        out[ok] = np.logaddexp(first, e + inner[k])
    return out


def _binomial_blocks(first: NDArray[np.float64], starts: NDArray[np.float64], length: int, m: int, hi: float,
                     odds: float, rows: NDArray[np.float64] | None = None) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Sums ``sum_k b_m(start + k)`` and first moments ``sum_k k b_m(start + k)`` (k < ``length``,
    relative to a common scale) of blocks of outputs, from each block's first term ``first`` by
    running products of the exact ratios ``b_m(j + 1) / b_m(j) = (m - j) p / ((j + 1) q)``
    (``odds = p / q``; ``m - j`` and ``j + 1`` are exact integers): one operation over all blocks
    per k. Terms beyond ``hi`` are 0; ``rows`` (``length`` x blocks), if given, receives the terms."""
    terms = first.copy()
    size, moment = first.copy(), np.zeros_like(first)
    above, below = m - starts, starts + 1.0
    ratio = np.empty_like(first)
    last = starts.max() if starts.size else hi
    if rows is not None:
        rows[0] = terms
    for k in range(1, length):
        np.divide(above, below, out=ratio)
        ratio *= odds
        terms *= ratio
        if last + k > hi:
            terms[starts + k > hi] = 0.0
        size += terms
        moment += k * terms
        if rows is not None:
            rows[k] = terms
        above -= 1.0
        below += 1.0
    return size, moment


def _blocked_tails(m: int, p: float, q: float, lo: float, hi: float) -> tuple[float, Callable]:
    """For :func:`_log_delta_plus_grid_linear` on a long grid: the scale ``log b_top`` and a
    function giving ``T(J)`` and ``U(J)`` (relative to it) at first outputs J, from blocks of L
    outputs (about ``sqrt(count / 64)``, at most ``_BLOCK``; :func:`_binomial_blocks`): the blocks'
    sums and first moments, summed from the far end, give T and U at every block start, and each
    J adds the part of its own block (recomputed for the blocks holding a J)."""
    # blocks of L outputs: about sqrt(count / 64) (a pass over the blocks per output of a block,
    # against one of Loader's forms per block), at most _BLOCK
    length = int(np.clip(np.sqrt((hi - lo + 1.0) / 64.0), 4, _BLOCK))
    blocks = int((hi - lo) // length) + 1
    starts = lo + length * np.arange(blocks, dtype=float)
    log_first = _logspace.log_binomial_pmf(starts, m, p, q)
    top = log_first.max()
    first = np.exp(log_first - top)
    p_exact, q_exact = _logspace.exact_pair(p, q)
    odds = float(p_exact / q_exact)
    size, moment = (np.append(x, 0.0) for x in _binomial_blocks(first, starts, length, m, hi, odds))
    tail = np.cumsum(size[::-1])[::-1]                                     # T at each block start
    # U(start_b) = sum_{b' >= b} (moment_b' + (start_b' - start_b) size_b') = moments' suffix
    # sum + L times the suffix sum of T beyond b
    spread_tail = np.append(np.cumsum(tail[:0:-1])[::-1], 0.0)
    under = np.cumsum(moment[::-1])[::-1] + length * spread_tail

    def tails_at(js: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        offset = js - lo
        block = (offset // length).astype(np.int64)
        skip = offset - length * block                                         # J's place in its block
        # the blocks of the Js, again: within each, T and U from every place to the block's end
        needed, row_of = np.unique(block, return_inverse=True)
        rows = np.empty((length, needed.size))
        _binomial_blocks(first[needed], starts[needed], length, m, hi, odds, rows)
        rest = np.cumsum(rows[::-1], axis=0)[::-1]                             # sum_{k >= s} w
        rest_under = np.zeros_like(rest)                                       # sum_{k > s} (k - s) w
        rest_under[:-1] = np.cumsum(rest[:0:-1], axis=0)[::-1]
        place = skip.astype(np.int64)
        tail_j = rest[place, row_of] + tail[block + 1]
        under_j = rest_under[place, row_of] + under[block + 1] + (length - skip) * tail[block + 1]
        return tail_j, under_j

    return top, tails_at


def _log_delta_plus_grid_linear(eps: NDArray[np.float64], m: int, lam: float, p: float, q: float,
                                lo: float, hi: float) -> NDArray[np.float64]:
    """``_log_delta_plus_grid`` for deltas that must only be right down to the smallest normal
    double, over the outputs ``lo..hi``, in linear scale relative to the largest binomial term.

    ``P_+ = b_m A`` and ``P_- = b_m B`` with Lemma 4's factors ``A(j) = c_p j + 1 - lam`` and
    ``B(j) = c_q (m - j) + 1 - lam`` (``c_p = lam / (m p)``, ``c_q = lam / (m q)``), so the
    summand ``A(j) - e^eps B(j)`` is linear in j, ``beta (j - j*)`` with ``beta = c_p + e^eps c_q``
    and j* the threshold. With J the first output above it,
    ``delta_+ = b_top (x(J) T(J) + beta U(J))``, ``x(J) = A(J) - e^eps B(J) >= 0``,
    ``T(J) = sum_{j >= J} w(j)`` and ``U(J) = sum_{j > J} (j - J) w(j)`` (``w = b_m / b_top``):
    two sums of positive terms, so nothing cancels however close the two laws are (at
    n = 10^8 the binomial tails' difference loses four digits, the partial expectation
    ``sum (j - m p) b_m(j)`` two to three). A grid of at most ``_DIRECT_GRID`` outputs takes
    every term from Loader's form (``_logspace.log_binomial_pmf``) and T and U as suffix sums; a
    longer one is cut into blocks (:func:`_blocked_tails`), so that no array of the grid's length
    is formed: at m = 10^8 the grid has 190,000 outputs, and forming arrays of that length cost
    more than the arithmetic. Terms below
    ``e^-708`` of the largest are subnormal and lose digits: so do the deltas they make up (below
    the smallest normal double, as the largest binomial term is below 1)."""
    count = int(hi - lo) + 1
    if count <= _DIRECT_GRID:
        # a short grid: every term from Loader's form, T and U as suffix sums over the grid
        log_w = _logspace.log_binomial_pmf(lo + np.arange(count, dtype=float), m, p, q)
        top = log_w.max()
        w = np.exp(log_w - top)
        grid_tail = np.cumsum(w[::-1])[::-1]                                 # T(j)
        grid_under = np.append(np.cumsum(grid_tail[:0:-1])[::-1], 0.0)      # U(j) = sum_{i > j} T(i)

        def tails_at(first: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
            at = (first - lo).astype(np.int64)
            return grid_tail[at], grid_under[at]
    else:
        top, tails_at = _blocked_tails(m, p, q, lo, hi)
    p_exact = _logspace.exact_pair(p, q)[0]

    # A(j) - e^eps B(j) = lam (j - m p) / (m p q) - expm1(eps) B(j), with m p exact to ~1e-23
    # (two doubles): near the threshold the two terms cancel; computed this way the first
    # output's share is right to about 1e-16 of lam z sqrt(m p q) / (m p q), far below the rest
    c_p, c_q = lam / (m * p), lam / (m * q)
    mean_hi = float(m * p_exact)
    mean_lo = float(m * p_exact - Fraction(mean_hi))
    spread = lam / (m * p * q)
    with np.errstate(over="ignore"):
        expm1_eps = np.expm1(eps)                                          # inf beyond eps = 709

    def excess(x: NDArray[np.float64], e: NDArray[np.float64]) -> NDArray[np.float64]:
        with np.errstate(invalid="ignore"):                                # inf * 0 where B(m) = 0
            return spread * ((x - mean_hi) - mean_lo) - e * (c_q * (m - x) + (1.0 - lam))

    first_j = np.clip(np.floor(_threshold_plus(eps, m, lam, p, q)) + 1.0, lo, hi + 1.0)
    first_j = np.where((first_j > lo) & (excess(first_j - 1.0, expm1_eps) > 0.0), first_j - 1.0, first_j)
    first_j = np.where((first_j <= hi) & ~(excess(np.minimum(first_j, hi), expm1_eps) > 0.0), first_j + 1.0, first_j)
    out = np.full(eps.shape, np.nan)
    ok = first_j <= hi
    tail_j, under_j = tails_at(first_j[ok])
    e = eps[ok]
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        slope = np.where(under_j > 0.0, (c_p + np.exp(e) * c_q) * under_j, 0.0)
        out[ok] = np.log(np.maximum(excess(first_j[ok], expm1_eps[ok]), 0.0) * tail_j + slope) + top
    return out


def _log_delta_plus_any(eps: NDArray[np.float64], m: int, lam: float, p: float, q: float, floor: float) -> NDArray[np.float64]:
    """``log delta_+`` by the grid where it is small enough; the epsilons beyond the grid are
    ``-inf`` when only deltas above ``floor`` matter (theirs is below ``e^-800``), else (and where
    there is no grid) by the window per epsilon, a chunk of epsilons at a time."""
    out = _log_delta_plus_grid(eps, m, lam, p, q, deep=floor <= -800.0)
    if out is None:
        out = np.full(eps.shape, np.nan)
    rest = np.flatnonzero(np.isnan(out))
    if rest.size and floor > -800.0:
        grid_ok = not np.isnan(out).all()
        if grid_ok:
            out[rest] = -np.inf
            return out
    for start in range(0, rest.size, 4096):
        part = rest[start:start + 4096]
        out[part] = _log_delta_plus(eps[part], m, lam, p, q, floor=floor)
    return out


def _log_sp_delta(eps: NDArray[np.float64], n: int, m: int, pi: float, floor: float = -np.inf) -> NDArray[np.float64]:
    lam = m / n
    flat = np.atleast_1d(eps).ravel()
    plus = _log_delta_plus_any(flat, m, lam, pi, 1.0 - pi, floor)
    minus = _log_delta_plus_any(flat, m, lam, 1.0 - pi, pi, floor)  # delta_-(pi) = delta_+(1 - pi), j -> m - j
    return np.maximum(plus, minus).reshape(np.shape(eps))


def log_subsampling_delta(epsilon: ArrayLike, n: int, m: int, pi: float) -> NDArray[np.float64]:
    """``log delta(eps)`` of subsampling (Theorem 4.1, from the definition), accurate where delta
    is far below the smallest double (``-inf`` where delta is exactly 0)."""
    eps = v.nonnegative("epsilon", epsilon)
    n, m, pi = _check_n_m_pi(n, m, pi)
    v.size_limit("epsilon", eps.size * _TERMS, 1e8, "window terms")
    return _log_sp_delta(eps, n, m, pi)


def subsampling_delta(epsilon: ArrayLike, n: int, m: int, pi: float) -> NDArray[np.float64]:
    """Theorem 4.1 (from the definition): SP delta of the property query answered on a random
    subsample of m of the n entries, ``max(H(P_+ || P_-), H(P_- || P_+))`` of Lemma 4's laws,
    vectorized over epsilon: one pass over the ``O(sqrt(m))`` outputs that matter, then O(1)
    per epsilon."""
    eps = v.nonnegative("epsilon", epsilon)
    n, m, pi = _check_n_m_pi(n, m, pi)
    v.size_limit("epsilon", eps.size * _TERMS, 1e8, "window terms")
    return np.exp(_log_sp_delta(eps, n, m, pi, floor=-760.0))  # below e^-745 a double is 0


def log_pure_delta(epsilon: ArrayLike, n: int, pi: float) -> NDArray[np.float64]:
    """``log delta(eps)`` of pure statistical privacy (Theorem 4.2): the exact answer, no noise."""
    return log_subsampling_delta(epsilon, n, v.integer("n", n, low=2, high=_MAX_N), pi)


def pure_delta(epsilon: ArrayLike, n: int, pi: float) -> NDArray[np.float64]:
    """Theorem 4.2 (from the definition): SP delta of the exact answer (no noise, no sampling);
    it never falls below the floors ``pi^(n-1)`` and ``(1 - pi)^(n-1)``."""
    return subsampling_delta(epsilon, v.integer("n", n, low=2, high=_MAX_N), n, pi)


#: largest epsilon of the closed-form summands of Theorems 4.1/4.2 (e^eps stays a double)
_MAX_CLOSED_FORM_EPSILON = 700.0


def theorem_thresholds(epsilon: ArrayLike, n: int, m: int, pi: float, *, printed: bool = False) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The thresholds ``(j_+*, j_-*)`` of Theorem 4.1 (``m < n``) or 4.2 (``m = n``).

    Corrected (default): ``j_+* = (lam + (e^eps - 1) / (1 + e^eps xi)) n pi`` and
    ``j_-* = (lam + (e^-eps - 1) / (1 + e^-eps xi)) n pi``, uncapped, where ``Q_+(j) = e^eps``
    and ``Q_-(j) = e^eps``. Printed: Theorem 4.1 caps them as ``min{lam, ...} n pi`` and
    ``max{0, ...} n pi``; Theorem 4.2 prints ``1 + (e^eps - 1) / (1 + e^eps xi) n pi`` (no
    parentheses)."""
    eps = v.nonnegative("epsilon", epsilon)
    n, m, pi = _check_n_m_pi(n, m, pi)
    lam, xi = m / n, pi / (1.0 - pi)
    up = -np.expm1(-eps) / (np.exp(-eps) + xi)   # (e^eps - 1) / (1 + e^eps xi), no overflow
    down = np.expm1(-eps) / (1.0 + np.exp(-eps) * xi)
    if not printed:
        return (lam + up) * n * pi, (lam + down) * n * pi
    if m == n:
        return 1.0 + up * n * pi, 1.0 + down * n * pi
    return np.minimum(lam, lam + up) * n * pi, np.maximum(0.0, lam + down) * n * pi


def theorem_summands(epsilon: ArrayLike, n: int, m: int, pi: float, *, printed: bool = False) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The summands of Theorems 4.1/4.2 for j = 0..m (last axis), as closed forms:
    ``P_+(j) - e^eps P_-(j) = C(m-1, j) pi^(j-1) (1-pi)^(m-j-1) [lam (j (1-pi) / (m-j) - e^eps pi)
    + (1-lam)(1-e^eps) m pi (1-pi) / (m-j)]`` and ``P_-(j) - e^eps P_+(j)`` with the bracket
    ``[lam (pi - e^eps j (1-pi) / (m-j)) + (1-lam)(1-e^eps) m pi (1-pi) / (m-j)]``.

    At ``j = m`` the printed form is ``0 * inf`` (erratum E4); ``printed=True`` reads it as 0 (the
    binomial coefficient vanishes), the corrected form uses ``lam pi^(m-1) + (1-lam)(1-e^eps) pi^m``
    (and its mirror for the minus direction).

    The closed forms carry ``e^eps``: epsilon must lie in [0, 700] (beyond, a summand is not a
    double; :func:`subsampling_delta` gives delta for every epsilon)."""
    eps = v.real("epsilon", epsilon, low=0.0, high=_MAX_CLOSED_FORM_EPSILON)
    n, m, pi = _check_n_m_pi(n, m, pi)
    v.size_limit("m", (m + 1) * max(eps.size, 1), 1e7)
    lam = m / n
    e = np.exp(eps)[..., None]
    j = np.arange(m + 1.0)
    jm = j[:-1]
    # C(m-1, j) pi^(j-1) (1-pi)^(m-j-1) = b_{m-1}(j) / pi
    common = np.exp(_logspace.log_binomial_pmf(jm, m - 1, pi)) / pi
    ratio = jm * (1.0 - pi) / (m - jm)
    shared = (1.0 - lam) * (1.0 - e) * m * pi * (1.0 - pi) / (m - jm)
    plus = common * (lam * (ratio - e * pi) + shared)
    minus = common * (lam * (pi - e * ratio) + shared)
    shape = plus.shape[:-1] + (1,)
    if printed:
        last_plus = last_minus = np.zeros(shape)
    else:
        top_plus = lam * pi ** (m - 1) + (1.0 - lam) * pi**m       # P_+(m)
        top_minus = (1.0 - lam) * pi**m                            # P_-(m)
        last_plus = np.broadcast_to(top_plus - e * top_minus, shape)
        last_minus = np.broadcast_to(top_minus - e * top_plus, shape)
    return np.concatenate([plus, last_plus], axis=-1), np.concatenate([minus, last_minus], axis=-1)


def theorem_deltas(epsilon: ArrayLike, n: int, m: int, pi: float, *, printed: bool = False) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``(delta_+, delta_-)`` as the threshold sums of Theorem 4.1 (``m < n``) or 4.2 (``m = n``).

    Printed: ``delta_+`` sums the summands from ``ceil(j_+*)`` to m and ``delta_-`` from 0 to
    ``ceil(j_-*)``, with the printed thresholds and the printed ``j = m`` term. Corrected:
    ``delta_-`` stops at ``floor(j_-*)``, the thresholds are uncapped (an empty sum when they
    leave ``[0, m]``), and the ``j = m`` term is finite; the sums then equal the definition.
    Epsilon in [0, 700], as for :func:`theorem_summands`."""
    v.real("epsilon", epsilon, low=0.0, high=_MAX_CLOSED_FORM_EPSILON)
    j_plus, j_minus = theorem_thresholds(epsilon, n, m, pi, printed=printed)
    plus, minus = theorem_summands(epsilon, n, m, pi, printed=printed)
    j = np.arange(plus.shape[-1], dtype=float)
    upper = np.ceil(j_minus) if printed else np.floor(j_minus)
    take_plus = j >= np.ceil(j_plus)[..., None]
    take_minus = j <= upper[..., None]
    return (np.where(take_plus, plus, 0.0).sum(axis=-1), np.where(take_minus, minus, 0.0).sum(axis=-1))


def chernoff_rate(epsilon: ArrayLike, pi: ArrayLike) -> NDArray[np.float64]:
    """The exponential rate of pure SP in n (Section 4.2's Chernoff remark, made exact):
    ``-log delta(eps) / n -> min_{+,-} KL(Bern(q_+-) || Bern(pi))`` with
    ``q_+- = pi e^{+-eps} / (1 - pi + pi e^{+-eps})``, the law of a positive entry tilted to the
    thresholds of Theorem 4.2. Evaluated as ``s K'(s) - K(s)`` with the Bernoulli cumulant
    generating function ``K(s) = log(1 + pi (e^s - 1))`` (a cumulant series for ``|s| < 1e-3``)."""
    eps = v.nonnegative("epsilon", epsilon)
    pi = v.probability("pi", pi, open_ends=True)
    eps, pi = np.broadcast_arrays(eps, pi)

    def rate(s: NDArray[np.float64], p: NDArray[np.float64], r: NDArray[np.float64]) -> NDArray[np.float64]:
        # KL(q || p) for the tilt q = p e^s / (1 - p + p e^s), s >= 0, in the form whose two
        # terms do not cancel: s q - log(1 + p (e^s - 1)) while q < 1/2, and
        # -log(p + (1 - p) e^-s) - s (1 - q) beyond (no overflow for s up to the largest double);
        # the two terms then differ by a factor 1 + O(s), so ~3 digits go at worst for s >= 1e-3;
        # r = 1 - p is passed in, not recomputed (1 - (1 - 1e-12) is off by 1e-4 relative)
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            up = p * np.exp(np.minimum(s, 700.0))             # p e^s, used only while below r
            down = r * np.exp(-s)                             # (1 - p) e^-s
            low = s * (up / (r + up)) - np.log1p(p * np.expm1(np.minimum(s, 700.0)))
            high = -np.log1p(r * np.expm1(-s)) - s * (down / (down + p))
            v2 = p * r
            k3 = v2 * (1 - 2 * p)
            k4 = v2 * (1 - 6 * v2)
            k5 = k3 * (1 - 12 * v2)
            series = s**2 * (v2 / 2 + s * (k3 / 3 + s * (k4 / 8 + s * k5 / 30)))
        return np.where(s < 1e-3, series, np.where(up < r, low, high))

    # the downward tilt of pi is the upward tilt of 1 - pi (relabel the two outcomes)
    return np.minimum(rate(eps, pi, 1.0 - pi), rate(eps, 1.0 - pi, pi))


# --- additive noise (Section 5, Lemmas 5 and 6) -------------------------------------------------

def _noise_logsf(noise: str, z: NDArray[np.float64]) -> NDArray[np.float64]:
    """log P(N > z) of the standard noise, in log-space for every z."""
    if noise == "gaussian":
        return special.log_ndtr(-z)
    return np.where(z >= 0, -np.abs(z) - np.log(2.0), np.log1p(-0.5 * np.exp(-np.abs(z))))


def _noise_logpdf(noise: str, z: NDArray[np.float64]) -> NDArray[np.float64]:
    if noise == "gaussian":
        return -0.5 * z * z - _LOG_SQRT_2PI
    return -np.abs(z) - np.log(2.0)


def _binomial_window(size: int, p: float, nats: float) -> NDArray[np.float64]:
    """The k in 0..size whose Bin(size, p) probability can exceed ``e^-nats`` (Bernstein's
    inequality, so skewed binomials keep their whole relevant range): ``O(sqrt(size p q) + nats)``
    points, however large size is."""
    var = size * p * (1.0 - p)
    a = 2.0 * nats / 3.0
    t = (a + np.sqrt(a * a + 8.0 * nats * var)) / 2.0
    lo = max(0.0, np.floor(size * p - t) - 1.0)
    hi = min(float(size), np.ceil(size * p + t) + 1.0)
    return np.arange(lo, hi + 1.0)


def _noise_deltas_plus(eps: NDArray[np.float64], n: int, p: float, scale: float, noise: str) -> NDArray[np.float64]:
    """``H_{e^eps}(mu_+ || mu_-)`` for the noisy fraction at each epsilon: the optimal event is
    ``[t*, inf)`` where the log-likelihood ratio of the two mixtures crosses eps (it is
    non-decreasing in t). The binomial weights are computed once for all epsilons."""
    # root search on the weights that matter to e^-60 relative; the final sums on all weights
    # down to e^-745 (smaller ones cannot change a double)
    k_root = _binomial_window(n - 1, p, 60.0)
    w_root = _logspace.log_binomial_pmf(k_root, n - 1, p)
    k = _binomial_window(n - 1, p, 745.0)
    log_w = _logspace.log_binomial_pmf(k, n - 1, p)

    def ratio(t: float) -> float:
        up = _logspace.log_sum_exp(w_root + _noise_logpdf(noise, (t - (k_root + 1) / n) / scale))
        down = _logspace.log_sum_exp(w_root + _noise_logpdf(noise, (t - k_root / n) / scale))
        return float(up - down)

    out = np.zeros(eps.shape)
    right = 1.0 + 1.0 / n + 10.0 * scale
    top = ratio(right)
    for i, e in enumerate(eps):
        if noise == "laplace" and top <= e:
            # right of every lattice point the Laplace ratio is constant at its supremum: it never
            # exceeds e^eps, so no event has positive delta_+ (Lemma 5's bound, read off the densities)
            continue
        lo, hi, step = -1.0 / n - 10.0 * scale, right, 10.0 * scale
        while ratio(hi) < e:
            hi, step = hi + step, 2.0 * step
        step = 10.0 * scale
        while ratio(lo) > e:
            lo, step = lo - step, 2.0 * step
        # delta_+(t) = P_+[t, inf) - e^eps P_-[t, inf) is stationary at the root (its derivative is
        # -(p_+ - e^eps p_-)(t) = 0), so an error x in t* changes delta by O(x^2): 1e-7 scale suffices
        t_star = optimize.brentq(lambda t: ratio(t) - e, lo, hi, xtol=1e-7 * scale, rtol=1e-13)
        log_a = special.logsumexp(log_w + _noise_logsf(noise, (t_star - (k + 1) / n) / scale))
        log_b = special.logsumexp(log_w + _noise_logsf(noise, (t_star - k / n) / scale))
        if log_a > e + log_b:
            out[i] = np.exp(log_a) * -np.expm1(e + log_b - log_a)
    return out


def _check_noise(noise: object) -> str:
    if noise not in NOISES:
        raise ValueError(f"noise must be one of {NOISES}, got {noise!r}")
    return str(noise)


def noise_delta(epsilon: ArrayLike, n: int, pi: float, scale: float, noise: str = "gaussian") -> NDArray[np.float64]:
    """SP delta of the fraction of positives plus Gaussian noise (standard deviation ``scale``) or
    Laplace noise (scale ``scale``); Section 5 of the paper, from the definition. The likelihood
    ratio of the two output laws is monotone, so each direction needs one root search over the
    binomial weights that matter (``O(sqrt(n))`` of them; a doubling bracket). The direction
    ``delta_-`` is ``delta_+`` at ``1 - pi`` (the model is symmetric). At most 10^4 epsilons
    (one root search each)."""
    eps = v.nonnegative("epsilon", epsilon)
    n = v.integer("n", n, low=2, high=_MAX_N)
    pi = v.scalar("pi", pi, low=0.0, high=1.0, low_open=True, high_open=True)
    scale = v.scalar("scale", scale, low=0.0, low_open=True)
    noise = _check_noise(noise)
    v.size_limit("epsilon", eps.size, 10**4, "root searches")
    flat = np.ravel(eps)
    out = np.maximum(_noise_deltas_plus(flat, n, pi, scale, noise), _noise_deltas_plus(flat, n, 1.0 - pi, scale, noise))
    return out.reshape(eps.shape)


def dp_delta(epsilon: ArrayLike, nu: ArrayLike, noise: str = "gaussian") -> NDArray[np.float64]:
    """The DP baseline of Section 5: noise parameter ``nu / n`` against sensitivity ``1 / n``
    (substitution), so Gaussian DP with ``mu = 1 / nu`` and Laplace DP with ``eps0 = 1 / nu``;
    independent of n."""
    nu = v.positive("nu", nu)
    noise = _check_noise(noise)
    if noise == "gaussian":
        return profiles.gaussian_delta(epsilon, 1.0 / nu)
    return profiles.laplace_delta(epsilon, 1.0 / nu)


# --- utility (Lemmas 7 to 10, Section 4.4) -------------------------------------------------------

def subsampling_utility_loss(n: int, m: int, pi: ArrayLike) -> NDArray[np.float64]:
    """Lemma 7: ``UL = E[(a_m - y)^2] = pi (1 - pi) (1/m - 1/n)`` for subsampling m of n i.i.d.
    entries (``a_m`` the subsample fraction, ``y`` the database fraction)."""
    n = v.integer("n", n, low=1)
    m = v.integer("m", m, low=1, high=n)
    pi = v.probability("pi", pi)
    return pi * (1.0 - pi) * (1.0 / m - 1.0 / n)


def statistical_utility_loss(n: int, m: int, pi: ArrayLike) -> NDArray[np.float64]:
    """Lemma 8 (Definition 8): ``UL_STAT = MSE(a_m) - MSE(y)``, the mean squared errors of the
    subsample fraction and of the database fraction as estimators of pi: the subsample count is
    Bin(m, pi) (Lemma 4), so ``pi (1 - pi) / m - pi (1 - pi) / n``."""
    n = v.integer("n", n, low=1)
    m = v.integer("m", m, low=1, high=n)
    pi = v.probability("pi", pi)
    variance = pi * (1.0 - pi)
    return variance / m - variance / n


def noise_utility_loss(scale: ArrayLike, noise: str = "gaussian") -> NDArray[np.float64]:
    """Lemma 9: the utility loss (and statistical utility loss) of additive noise is its variance:
    ``scale^2`` for Gaussian noise (standard deviation ``scale``), ``2 scale^2`` for Laplace noise
    of scale ``scale``. ``ValueError`` where the variance exceeds the largest double (1.8e308:
    ``scale`` above about 1.3e154 for Gaussian, 9.5e153 for Laplace noise)."""
    scale = v.nonnegative("scale", scale)
    with np.errstate(over="ignore"):
        return v.representable("scale", scale**2 * (1.0 if _check_noise(noise) == "gaussian" else 2.0), "the variance")


def equal_utility_scales(n: int, m: int, pi: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Section 4.4: Gaussian standard deviation ``sqrt(UL)`` and Laplace scale ``sqrt(UL / 2)``
    whose variance (Lemma 9) is the utility loss UL of subsampling m of n entries (Lemma 7)."""
    ul = subsampling_utility_loss(n, m, pi)
    return np.sqrt(ul), np.sqrt(ul / 2.0)


def laplace_sp_epsilon(n: int, scale: ArrayLike) -> NDArray[np.float64]:
    """Lemma 5: Laplace noise of scale b gives pure ``(1 / (b n), 0)``-SP."""
    n = v.integer("n", n, low=1)
    return 1.0 / (v.positive("scale", scale) * n)


def equal_utility_laplace_epsilon(n: int, m: int, pi: ArrayLike) -> NDArray[np.float64]:
    """Section 4.4: the pure epsilon ``1 / (b n)`` of the Laplace noise with the utility loss of
    subsampling m of n entries (the paper's ``sqrt(2 / (pi (1 - pi))) sqrt(lam / (n - m))``);
    ``inf`` at ``m = n``, where no noise is added. Wherever it is at most epsilon, that Laplace
    noise has delta exactly 0 (the cliff of Figure 8)."""
    n = v.integer("n", n, low=2)
    m = v.integer("m", m, low=1, high=n)
    _, b = equal_utility_scales(n, m, v.probability("pi", pi, open_ends=True))
    with np.errstate(divide="ignore"):
        return 1.0 / (b * n)


def normal_approx_delta(epsilon: ArrayLike, n: int, pi: float, sigma: float) -> NDArray[np.float64]:
    """Lemma 6 (normal approximation): the Gaussian DP curve with the total standard deviation
    ``sqrt(sigma^2 + pi (1 - pi) (n - 1) / n^2)`` against sensitivity 1 / n."""
    n = v.integer("n", n, low=2)
    pi = v.scalar("pi", pi, low=0.0, high=1.0)
    sigma = v.scalar("sigma", sigma, low=0.0)
    if sigma < 1e150:
        total = np.sqrt(sigma**2 + pi * (1.0 - pi) * (n - 1) / n**2)
    else:  # sigma^2 would overflow; the binomial part is below one ulp of sigma
        total = sigma
    if total == 0:
        raise ValueError("sigma must be positive when pi is 0 or 1")
    return profiles.gaussian_delta(epsilon, (1.0 / n) / total)


def lemma10_noise_level(n: int, m: int, pi: ArrayLike, *, printed: bool = False) -> NDArray[np.float64]:
    """Lemma 10's Gaussian noise level psi for the utility loss of subsampling m of n entries.
    Printed: ``pi (1 - pi) (1/lam - 1/n)``; corrected (erratum E8): the standard deviation
    ``sqrt(pi (1 - pi) (1/(lam n) - 1/n))``, whose square is the utility loss of Lemma 7."""
    n = v.integer("n", n, low=1)
    m = v.integer("m", m, low=1, high=n)
    pi = v.probability("pi", pi)
    lam = m / n
    if printed:
        return pi * (1.0 - pi) * (1.0 / lam - 1.0 / n)
    return np.sqrt(pi * (1.0 - pi) * (1.0 / (lam * n) - 1.0 / n))


def lemma10_delta(epsilon: ArrayLike, n: int, m: int, pi: float, *, printed: bool = False) -> NDArray[np.float64]:
    """Lemma 10: ``max(delta_+, delta_-)`` of Gaussian noise with the utility loss of subsampling,
    in the normal approximation of Lemma 6: ``Y | mu_+ ~ N(pi (1 - 1/n) + 1/n, sigma^2)``,
    ``Y | mu_- ~ N(pi (1 - 1/n), sigma^2)``, ``sigma^2 = psi^2 + pi (1 - pi) (n - 1) / n^2``,
    ``delta_+ = P_+[Y >= x+] - e^eps P_-[Y >= x+]`` and ``delta_- = P_-[Y <= x-] - e^eps P_+[Y <= x-]``.

    Printed: psi as printed and thresholds ``x+- = pi +- eps psi + (1/2 - pi) / n``. Corrected:
    psi the standard deviation and ``x+- = pi +- n sigma^2 eps + (1/2 - pi) / n``, where the two
    normal densities have ratio ``e^{+-eps}``; the expression is then the Gaussian DP curve with
    the total standard deviation (:func:`normal_approx_delta`)."""
    eps = v.nonnegative("epsilon", epsilon)
    n = v.integer("n", n, low=2)
    m = v.integer("m", m, low=1, high=n)
    pi = v.scalar("pi", pi, low=0.0, high=1.0, low_open=True, high_open=True)
    psi = float(lemma10_noise_level(n, m, pi, printed=printed))
    sigma = np.sqrt(psi**2 + pi * (1.0 - pi) * (n - 1) / n**2)
    shift = eps * psi if printed else n * sigma**2 * eps
    centre = pi + (0.5 - pi) / n
    mean_minus = pi * (1.0 - 1.0 / n)
    mean_plus = mean_minus + 1.0 / n
    x_plus, x_minus = centre + shift, centre - shift

    def difference(log_a: NDArray[np.float64], log_b: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.exp(log_a) - np.exp(eps + log_b)

    plus = difference(special.log_ndtr((mean_plus - x_plus) / sigma), special.log_ndtr((mean_minus - x_plus) / sigma))
    minus = difference(special.log_ndtr((x_minus - mean_minus) / sigma), special.log_ndtr((x_minus - mean_plus) / sigma))
    return np.maximum(plus, minus)


def amplified_epsilon(epsilon: ArrayLike, lam: ArrayLike) -> NDArray[np.float64]:
    """Privacy amplification by subsampling at rate lam (Section 6, the conjecture of Section 7):
    ``log(1 + lam (e^eps - 1))``."""
    eps = v.nonnegative("epsilon", epsilon)
    lam = v.probability("lam", lam)
    with np.errstate(over="ignore", divide="ignore"):
        small = np.log1p(lam * np.expm1(np.minimum(eps, 700.0)))
        # eps + log(lam + (1 - lam) e^-eps) where e^eps would overflow
        large = eps + np.logaddexp(np.log(lam), np.log1p(-lam) - eps)
    return np.where(eps > 700.0, large, small)


def output_densities(t: ArrayLike, n: int, pi: float, scale: float, noise: str = "gaussian") -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Densities of the noisy fraction at ``t`` given the critical entry positive (``p_+``) and
    negative (``p_-``): binomial mixtures of shifted noise densities (Section 5); ``t`` of any
    shape (the densities have its shape, at least one axis)."""
    t = np.atleast_1d(v.real("t", t))
    shape, t = t.shape, t.ravel()
    n = v.integer("n", n, low=2, high=_MAX_N)
    pi = v.scalar("pi", pi, low=0.0, high=1.0, low_open=True, high_open=True)
    scale = v.scalar("scale", scale, low=0.0, low_open=True)
    noise = _check_noise(noise)
    k = _binomial_window(n - 1, pi, 745.0)
    v.size_limit("t", t.size * k.size, 1e8, "density terms")
    log_w = _logspace.log_binomial_pmf(k, n - 1, pi)
    if noise == "laplace":  # the Laplace mixture of chapter 000 (eq. (6) of Bailie & Gong)
        w = np.exp(log_w)
        return (intervals.laplace_sum_marginal(t, w, 1.0 / scale, centres=(k + 1) / n).reshape(shape),
                intervals.laplace_sum_marginal(t, w, 1.0 / scale, centres=k / n).reshape(shape))
    plus = special.logsumexp(log_w + _noise_logpdf(noise, (t[:, None] - (k + 1) / n) / scale), axis=1)
    minus = special.logsumexp(log_w + _noise_logpdf(noise, (t[:, None] - k / n) / scale), axis=1)
    return (np.exp(plus) / scale).reshape(shape), (np.exp(minus) / scale).reshape(shape)
