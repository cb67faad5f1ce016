"""One mechanism, five notions: the shared core of the five papers.

The five papers measure the same object: a **mechanism** ``P(y | x)`` on databases ``x`` of n
records, together with a **data model** ``pi`` (what the adversary believes about ``x``) and the
**neighbour relation** of databases that differ in one record (replacement, n fixed). This module
holds that object once and computes every notion of the five papers on it:

- differential privacy (Bailie & Gong; Barber & Duchi, Definitions 1 and 3): :func:`dp_epsilon`,
  :func:`dp_delta`;
- Pufferfish privacy with secrets on a record (Bailie & Gong, Definition 7.3):
  :func:`pufferfish_loss`;
- inferential privacy of record i under a prior (Ghosh & Kleinberg, Section 2):
  :func:`inferential_privacy`;
- pointwise maximal leakage of record i, maximal leakage and leakage capacity (Saeidian et al.,
  Definitions 2.3 and 2.4): :func:`pml`, :func:`pml_sup`, :func:`maximal_leakage`,
  :func:`leakage_capacity`;
- statistical privacy, where the adversary knows the distribution but not the other records
  (Breutigam & Reischuk, Definition 5): :func:`statistical_delta`;
- TV-, KL- and CHTP-privacy levels (Barber & Duchi, Definitions 4 and 8, eq. (6)):
  :func:`tv_level`, :func:`kl_level`, :func:`chtp_level`.

Everything about record i goes through one function, the conditional output laws
(:func:`conditional_laws`)

``mu_{i,a}(y) = sum_x pi(x | x_i = a) P(y | x)``.

Mechanisms come in two representations. A :class:`FiniteChannel` is a table over all ``K**n``
databases (rows in lexicographic order, record 0 the most significant digit, as
``itertools.product(range(K), repeat=n)``). A :class:`CountChannel` depends on binary data only
through the count k of positive records (a table over k = 0..n); under an exchangeable model
``P(K_{-i} = j | x_i = a)`` is proportional to ``C(n-1, j) w_{j+a}``, so the conditional laws
cost one pass over the counts, and :class:`GeometricCount` (the truncated geometric mechanism)
mixes them in O(n), so that n can reach 10^6. A :class:`DataModel` is either explicit (a
probability for each of the ``K**n`` databases) or exchangeable (one weight per count).
All sums are taken in log-space.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special, stats

from privlib.core import _validate as v
from privlib.core import profiles
from privlib.core.chtp import _canonical_pairs, _distinct_pairs, hard_chtp_sup
from privlib.core._logspace import (log_binomial_coefficients, log_ratio, log_rising, log_rising_ratio,
                                   log_sum_exp, logsumexp_near_max, max_log_ratio)

__all__ = [
    "FiniteChannel",
    "CountChannel",
    "GeometricCount",
    "DataModel",
    "randomized_response",
    "geometric_count",
    "gaussian_count",
    "subsampled_count",
    "explicit_model",
    "product_model",
    "iid_model",
    "exchangeable_model",
    "beta_binomial_model",
    "clones_model",
    "mixture_model",
    "ising_model",
    "ising_chain_model",
    "conditional_laws",
    "dp_epsilon",
    "dp_delta",
    "tv_level",
    "kl_level",
    "chtp_level",
    "inferential_privacy",
    "pufferfish_loss",
    "pml",
    "pml_sup",
    "maximal_leakage",
    "leakage_capacity",
    "statistical_delta",
    "log_statistical_delta",
    "all_notions",
    "NOTIONS",
    "standard_mechanisms",
    "standard_models",
    "correlation_sweep",
]

#: largest number of databases ``K**n`` an explicit channel or model may enumerate
MAX_DATABASES = 2**20
#: largest number of table entries (rows x outputs) an explicit table may hold
MAX_CELLS = 2**25
#: largest number of records of an exchangeable model or a count mechanism (one weight per count)
MAX_COUNT_N = 10**7
#: largest number of correlations of one :func:`correlation_sweep` (one model built per value)
MAX_SWEEP = 2000
#: largest number of outputs for which :func:`chtp_level` enumerates output sets
MAX_CHTP_OUTPUTS = 16

_NEG = -np.inf


def _log(x: ArrayLike) -> NDArray[np.float64]:
    with np.errstate(divide="ignore"):
        return np.log(np.asarray(x, dtype=float))


def _check_databases(K: int, n: int, what: str = "K**n databases") -> None:
    v.integer("K", K, low=2)
    v.integer("n", n, low=1)
    v.power_limit("n", K, n, MAX_DATABASES, what)


# ---------------------------------------------------------------------------------------------
# Mechanisms
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class FiniteChannel:
    """A mechanism ``P(y | x)`` for databases ``x`` in ``{0..K-1}^n`` and outputs ``y`` in
    ``{0..m-1}``: ``table`` has shape ``(K**n, m)`` with rows in lexicographic order (the order of
    ``itertools.product(range(K), repeat=n)``, record 0 the most significant digit), each row a
    pmf. Barber & Duchi's channel ``Q(z | x_{1:n})`` (Section 2). ``log_table`` (optional) keeps
    probabilities that underflow in ``table``; it is computed from ``table`` when not given."""

    table: NDArray[np.float64]
    K: int
    n: int
    log_table: NDArray[np.float64] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        _check_databases(self.K, self.n)
        lt = None if self.log_table is None else v.real("log_table", self.log_table, high=0.0, finite=False)
        # from_log gives no table: it is the exponential of the log table, checked once here
        table = v.channel("table", np.exp(lt) if self.table is None and lt is not None else self.table)
        if table.shape[0] != self.K ** self.n:
            raise ValueError(f"table must have K**n = {self.K ** self.n} rows, got {table.shape[0]}")
        v.size_limit("table", float(table.size), MAX_CELLS, "entries")
        object.__setattr__(self, "table", table)
        if lt is None:
            object.__setattr__(self, "log_table", _log(table))
        else:
            if lt.shape != table.shape:
                raise ValueError(f"log_table must have the shape of table {table.shape}, got {lt.shape}")
            object.__setattr__(self, "log_table", lt)

    @classmethod
    def from_log(cls, log_table: ArrayLike, K: int, n: int) -> FiniteChannel:
        """A channel from its log-probabilities (kept as given, so tiny masses survive)."""
        return cls(None, K, n, log_table)

    @classmethod
    def from_function(cls, fn: Callable[[tuple[int, ...]], ArrayLike], K: int, n: int) -> FiniteChannel:
        """Build the table row by row from ``fn(database) -> pmf over outputs``."""
        _check_databases(K, n)
        databases = itertools.product(range(K), repeat=n)
        first = np.asarray(fn(next(databases)), dtype=float)
        v.size_limit("n", K**n * max(first.size, 1), MAX_CELLS, "table entries (K**n databases x outputs)")
        rows = [first] + [np.asarray(fn(x), dtype=float) for x in databases]
        return cls(np.vstack(rows), K, n)

    @property
    def outputs(self) -> int:
        """Number of outputs m."""
        return self.table.shape[1]

    @property
    def samples(self) -> NDArray[np.int64]:
        """All databases, one row each, in the table's order."""
        return _digits(self.K, self.n)

    def neighbour_pairs(self) -> NDArray[np.int64]:
        """Ordered pairs of row indices of databases that differ in exactly one record."""
        codes = np.arange(self.K ** self.n)
        digits = self.samples
        pairs = []
        for i in range(self.n):
            power = self.K ** (self.n - 1 - i)
            for shift in range(1, self.K):
                new = (digits[:, i] + shift) % self.K
                pairs.append(np.column_stack([codes, codes + (new - digits[:, i]) * power]))
        return np.vstack(pairs)

    def distinct_neighbour_rows(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The distinct ordered pairs of output laws ``(P(.|x), P(.|x'))`` over neighbours."""
        v.size_limit("channel", self.n * self.K ** self.n * (self.K - 1) * self.outputs, MAX_CELLS,
                     "entries of neighbour pairs (n K**n (K-1) x outputs)")
        p, q = [], []
        for _, _, pb, qb in _neighbour_blocks(self):
            p.append(pb.reshape(-1, self.outputs))
            q.append(qb.reshape(-1, self.outputs))
        return _distinct_pairs(np.concatenate(p), np.concatenate(q))

    def marginal(self, P: ArrayLike) -> NDArray[np.float64]:
        """Law of the release when the records are i.i.d. ``P`` (Barber & Duchi's ``M_P``), or,
        for ``P`` of shape ``(n, K)``, independent with record ``i`` drawn from ``P[i]`` (the
        non-identical products of their eq. (26))."""
        P = v.pmf("P", P)
        if P.shape == (self.K,):
            weights = np.prod(P[self.samples], axis=1)
        elif P.shape == (self.n, self.K):
            weights = np.prod(P[np.arange(self.n), self.samples], axis=1)
        else:
            raise ValueError(f"P must be a pmf over the {self.K} record values, or one per record with shape "
                             f"({self.n}, {self.K}), got shape {P.shape}")
        return weights @ self.table

    def compose(self, kernel: ArrayLike) -> FiniteChannel:
        """Post-processing ``kernel o P`` by a row-stochastic ``kernel`` (Barber & Duchi,
        Definition 6)."""
        kernel = v.channel("kernel", kernel)
        if kernel.shape[0] != self.outputs:
            raise ValueError(f"kernel must have {self.outputs} rows (one per output), got {kernel.shape[0]}")
        return FiniteChannel(self.table @ kernel, self.K, self.n)


def _digits(K: int, n: int) -> NDArray[np.int64]:
    codes = np.arange(K ** n)
    powers = K ** np.arange(n - 1, -1, -1)
    return (codes[:, None] // powers[None, :]) % K


class CountChannel:
    """A mechanism on n binary records that depends on the database only through the count k of
    positive records: ``log_table[k, y] = log P(y | k)`` for k = 0..n. Neighbouring databases
    have counts k and k + 1 (or equal counts, which give equal rows)."""

    def __init__(self, log_table: ArrayLike):
        # log-probabilities computed as log 1 may exceed 0 by rounding
        lt = np.minimum(v.real("log_table", log_table, high=1e-9, finite=False), 0.0)
        if lt.ndim != 2 or lt.shape[0] < 2 or lt.shape[1] == 0:
            raise ValueError(f"log_table must have shape (n + 1, m) with n >= 1, got {lt.shape}")
        v.size_limit("log_table", float(lt.size), MAX_CELLS, "entries")
        sums = log_sum_exp(lt, axis=1)
        if not np.allclose(sums, 0.0, atol=1e-9, rtol=0.0):
            raise ValueError(f"log_table rows must be pmfs: row {(bad := int(np.argmax(np.abs(sums))))} "
                             f"sums to {np.exp(sums[bad]):.12g}")
        self._log_table = lt
        self.n = lt.shape[0] - 1
        self.outputs = lt.shape[1]

    K = 2

    @property
    def log_table(self) -> NDArray[np.float64]:
        """``log P(y | k)``, shape ``(n + 1, m)``."""
        return self._log_table

    @property
    def table(self) -> NDArray[np.float64]:
        """``P(y | k)``, shape ``(n + 1, m)``."""
        return np.exp(self.log_table)

    def log_mixture(self, log_h: NDArray[np.float64]) -> NDArray[np.float64]:
        """``log sum_k h(k) P(y | k)`` for every output, given ``log h`` over k = 0..n (the
        counts where ``h`` is negligible are skipped: below ``e^-800`` of the largest)."""
        keep = np.flatnonzero(log_h > log_h.max() - 800.0)
        out = np.full(self.outputs, _NEG)
        for start in range(0, keep.size, 4096):
            ks = keep[start:start + 4096]
            out = np.logaddexp(out, log_sum_exp(log_h[ks, None] + self.log_table[ks], axis=0))
        return out

    def neighbour_blocks(self) -> Iterator[tuple[NDArray[np.float64], NDArray[np.float64]]]:
        """Log output laws of the ordered neighbouring counts (k, k+1) and (k+1, k), in blocks."""
        lt = self.log_table
        for start in range(0, self.n, 4096):
            stop = min(start + 4096, self.n)
            a, b = lt[start:stop], lt[start + 1:stop + 1]
            yield a, b
            yield b, a

    def expand(self) -> FiniteChannel:
        """The same mechanism as a table over all ``2**n`` databases (n at most 20)."""
        _check_databases(2, self.n)
        counts = _digits(2, self.n).sum(axis=1)
        return FiniteChannel.from_log(self.log_table[counts], 2, self.n)


class GeometricCount(CountChannel):
    """The truncated geometric mechanism on the count (Ghosh, Roughgarden & Sundararajan 2012):
    ``y = min(max(k + Z, 0), n)`` with ``P(Z = z) = (1 - r)/(1 + r) r^|z|``, ``r = e^-epsilon``;
    epsilon-DP. Its conditional laws are computed in O(n) by two running sums, so n may reach
    10^6 and beyond; its table is formed only when asked for (n up to a few thousand)."""

    def __init__(self, n: int, epsilon: float):
        self.n = v.integer("n", n, low=1, high=MAX_COUNT_N)
        self.epsilon = v.scalar("epsilon", epsilon, low=0.0, low_open=True)
        self.outputs = self.n + 1

    @property
    def log_table(self) -> NDArray[np.float64]:
        v.size_limit("n", (self.n + 1) ** 2, MAX_CELLS, "table entries")
        return self.log_rows(np.arange(self.n + 1))

    def log_rows(self, ks: ArrayLike) -> NDArray[np.float64]:
        """``log P(y | k)`` for the given counts, every output."""
        k = np.asarray(ks)[:, None]
        y = np.arange(self.n + 1)[None, :]
        t, n = self.epsilon, self.n
        log_end = -np.log1p(np.exp(-t))
        rows = np.log(np.tanh(t / 2.0)) - t * np.abs(y - k) + 0.0 * k
        rows[:, 0] = log_end - t * k[:, 0]
        rows[:, n] = log_end - t * (n - k[:, 0])
        return rows

    def log_mixture(self, log_h: NDArray[np.float64]) -> NDArray[np.float64]:
        """``log sum_k h(k) P(y | k)`` in O(n): inside [1, n-1] it is ``log c`` plus the
        log-sum of ``sum_{k <= y} h(k) r^(y-k)`` and ``sum_{k > y} h(k) r^(k-y)``, two decayed
        running sums (:func:`_decayed_log_cumsum`); the clamped ends sum ``h(k) r^k`` and
        ``h(k) r^(n-k)``."""
        t, n = self.epsilon, self.n
        left = _decayed_log_cumsum(log_h, t)                    # k <= y
        up = _decayed_log_cumsum(log_h[::-1], t)[::-1]          # k >= y
        right = np.full(n + 1, _NEG)
        right[:-1] = up[1:] - t                                 # k > y: one more step of decay
        out = np.log(np.tanh(t / 2.0)) + np.logaddexp(left, right)
        log_end = -np.log1p(np.exp(-t))
        out[0] = up[0] + log_end
        out[n] = left[n] + log_end
        return out

    def neighbour_blocks(self) -> Iterator[tuple[NDArray[np.float64], NDArray[np.float64]]]:
        """One pair with the privacy-loss distribution of every neighbouring pair: outputs at or
        below k have loss ``+epsilon`` (mass ``1/(1 + r)`` under P(.|k)), the others
        ``-epsilon``; DP, delta, TV and KL depend on a pair only through that distribution."""
        log_end = -np.log1p(np.exp(-self.epsilon))
        p = np.array([[log_end, log_end - self.epsilon]])
        yield p, p[:, ::-1]


def _decayed_log_cumsum(x: NDArray[np.float64], t: float) -> NDArray[np.float64]:
    """``out[y] = log sum_{k <= y} exp(x[k] - t (y - k))`` for every y, in O(n): the running
    sums of :func:`_running_log_sums` for one sequence."""
    return _running_log_sums(np.asarray(x, dtype=float)[None, :], t)[0]


#: largest decay across one block of the blocked running sums (:func:`_running_log_sums`)
_RUNNING_DECAY = 400.0


def _decay_matrix(b: int, t: float) -> NDArray[np.float64]:
    """``e^{-t (j - j')}`` at row j', column j for ``j >= j'``, 0 for ``j < j'``."""
    d = np.arange(b, dtype=float)[None, :] - np.arange(b, dtype=float)[:, None]
    return np.where(d >= 0, np.exp(-t * np.abs(d)), 0.0)


def _block_max(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """Largest entry of each row of a short-rowed matrix (column by column: a row reduction over
    a few dozen entries costs numpy more per row than as many vector maxima)."""
    m = x[:, 0].copy()
    for j in range(1, x.shape[1]):
        np.maximum(m, x[:, j], out=m)
    return m


def _running_log_sums(s: NDArray[np.float64], t: float) -> NDArray[np.float64]:
    """``out[..., i] = log sum_{m <= i} exp(s[..., m] - t (i - m))`` along the last axis (each
    row a sequence), for the mixtures of the geometric count and the carries of its blocked sums: in
    blocks of b entries with ``t b <= 400``, each block in linear space relative to its largest
    entry (one matrix product with ``e^{-t (i - m)}``), the carry between blocks by the same
    function on the block ends (decay ``t b``); short rows and steep decays by doubling
    (``log2`` rounds of ``out[i] = logaddexp(out[i], out[i - d] - t d)``, d = 1, 2, 4, ...).
    A partial sum more than ``e^-700`` below its block's largest entry is lost; the mixtures
    these carries enter are within ``e^-(t b + 50)`` of it over the block (a two-sided sum
    changes by at most ``e^t`` per output), so the loss is below ``e^-250`` relative."""
    K, N = s.shape
    b = min(64, int(_RUNNING_DECAY // t))
    if b < 2 or N <= 256:
        out = s.copy()
        d = 1
        while d < N:
            np.logaddexp(out[:, d:], out[:, :-d] - t * d, out=out[:, d:])
            d *= 2
        return out
    nb = -(-N // b)
    S = np.full((K, nb * b), _NEG)
    S[:, :N] = s
    S = S.reshape(K * nb, b)
    m_raw = _block_max(S)
    m = np.where(np.isfinite(m_raw), m_raw, 0.0)
    local = np.exp(S - m[:, None]) @ _decay_matrix(b, t)
    with np.errstate(divide="ignore"):
        ends = (m + np.log(local[:, -1])).reshape(K, nb)
    carry = np.full((K, nb), _NEG)
    carry[:, 1:] = _running_log_sums(ends[:, :-1], t * b)      # everything up to the end of block i - 1
    carry = carry.ravel()
    top = np.maximum(m_raw, carry)
    top = np.where(np.isfinite(top), top, 0.0)
    j = np.arange(b, dtype=float)
    total = local * np.exp(m_raw - top)[:, None] + np.exp(carry - top)[:, None] * np.exp(-t * (j + 1.0))[None, :]
    with np.errstate(divide="ignore"):
        out = np.log(total) + top[:, None]
    return out.reshape(K, nb * b)[:, :N]


def randomized_response(n: int, epsilon: float, K: int = 2) -> FiniteChannel:
    """K-ary randomized response applied to each of the n records independently (Warner 1965;
    Kairouz, Oh & Viswanath 2016): the output is the vector of reports, ``K**n`` outputs;
    epsilon-DP and epsilon-local-DP per record."""
    n = v.integer("n", n, low=1)
    K = v.integer("K", K, low=2)
    eps = v.scalar("epsilon", epsilon, low=0.0, low_open=True)
    _check_databases(K, n)
    v.power_limit("n", K, 2 * n, MAX_CELLS, "table entries (K**n databases x K**n outputs)")
    log_truth = -np.log1p((K - 1) * np.exp(-eps))
    log_other = log_truth - eps
    d = _digits(K, n)
    agree = (d[:, None, :] == d[None, :, :]).sum(axis=2)
    return FiniteChannel.from_log(agree * log_truth + (n - agree) * log_other, K, n)


def geometric_count(n: int, epsilon: float) -> GeometricCount:
    """The truncated geometric mechanism on the count of positive records (epsilon-DP): see
    :class:`GeometricCount`."""
    return GeometricCount(n, epsilon)


def _log_normal_interval(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log(Phi(b) - Phi(a))`` for ``a < b`` (either may be infinite), from the tail where the
    interval lies so that no cancellation occurs."""
    flip = a > 0
    lo, hi = np.where(flip, -b, a), np.where(flip, -a, b)       # Phi(hi) - Phi(lo), hi <= 0 or straddling
    log_hi, log_lo = special.log_ndtr(hi), special.log_ndtr(lo)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = log_hi + np.log1p(-np.exp(log_lo - log_hi))
    # an interval far in the tail (sigma = 1e-300): Phi(hi) underflows, so does the mass
    return np.where(log_hi == -np.inf, -np.inf, out)


def gaussian_count(n: int, sigma: float) -> CountChannel:
    """The Gaussian mechanism on the count, discretised: ``y = min(max(round(k + N(0, sigma^2)),
    0), n)`` (a post-processing of the Gaussian mechanism, so (epsilon, delta)-DP with its
    privacy curve or better); every probability in log-space."""
    n = v.integer("n", n, low=1)
    s = v.scalar("sigma", sigma, low=0.0, low_open=True)
    v.size_limit("n", (n + 1) ** 2, MAX_CELLS, "table entries")
    k = np.arange(n + 1)[:, None]
    y = np.arange(n + 1)[None, :]
    lo = np.where(y == 0, -np.inf, (y - 0.5 - k) / s)
    hi = np.where(y == n, np.inf, (y + 0.5 - k) / s)
    return CountChannel(_log_normal_interval(lo, hi))


def subsampled_count(n: int, m: int) -> CountChannel:
    """The exact count of positive records in a uniformly random subsample of m of the n records
    (drawn without replacement; Breutigam & Reischuk, Section 4.1): hypergeometric rows, outputs
    0..m; with m = n it is the exact count. It is epsilon-DP for no finite epsilon (the count
    k + 1 can put k + 1 positives into the subsample, the count k cannot), yet its statistical
    privacy is finite when the adversary does not know the other records."""
    n = v.integer("n", n, low=1)
    m = v.integer("m", m, low=1, high=n)
    v.size_limit("n", (n + 1) * (m + 1), MAX_CELLS, "table entries")
    k = np.arange(n + 1)[:, None]
    y = np.arange(m + 1)[None, :]
    with np.errstate(divide="ignore"):
        log_table = stats.hypergeom.logpmf(y, n, k, m)
    # scipy's log-pmf carries relative errors up to ~1e-8 at n = 10^6: each row normalised (in
    # log-space) so that it is a pmf to rounding
    return CountChannel(log_table - log_sum_exp(log_table, axis=1)[:, None])


# ---------------------------------------------------------------------------------------------
# Data models
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class DataModel:
    """A prior ``pi`` over databases of n records with values in ``{0..K-1}``: either explicit,
    ``log_prob`` over the ``K**n`` databases in lexicographic order, or exchangeable (binary
    records), ``log_weights[k] = log pi(x)`` for every database with k positive records."""

    n: int
    K: int = 2
    log_prob: NDArray[np.float64] | None = field(default=None, repr=False)
    log_weights: NDArray[np.float64] | None = field(default=None, repr=False)
    name: str = ""

    def __post_init__(self) -> None:
        v.integer("n", self.n, low=1)
        v.integer("K", self.K, low=2)
        if (self.log_prob is None) == (self.log_weights is None):
            raise ValueError("give exactly one of log_prob (explicit) and log_weights (exchangeable)")
        if self.log_prob is not None:
            _check_databases(self.K, self.n)
            lp = v.real("log_prob", self.log_prob, high=0.0, finite=False)
            if lp.shape != (self.K ** self.n,):
                raise ValueError(f"log_prob must have K**n = {self.K ** self.n} entries, got shape {lp.shape}")
            total = float(log_sum_exp(lp))
            if abs(total) > 1e-9:
                raise ValueError(f"log_prob must be a log-pmf, its probabilities sum to {np.exp(total):.12g}")
            object.__setattr__(self, "log_prob", lp)
        else:
            if self.K != 2:
                raise ValueError(f"an exchangeable model has binary records (K = 2), got K = {self.K}")
            lw = v.real("log_weights", self.log_weights, high=0.0, finite=False)
            if lw.shape != (self.n + 1,):
                raise ValueError(f"log_weights must have n + 1 = {self.n + 1} entries, got shape {lw.shape}")
            total = float(log_sum_exp(log_binomial_coefficients(self.n) + lw))
            if abs(total) > 1e-9:
                raise ValueError(f"log_weights must give total probability 1, got {np.exp(total):.12g}")
            object.__setattr__(self, "log_weights", lw)

    @property
    def exchangeable(self) -> bool:
        """Whether the model is given by one weight per count."""
        return self.log_weights is not None

    def expand(self) -> DataModel:
        """The same model as explicit probabilities over the ``K**n`` databases."""
        if not self.exchangeable:
            return self
        _check_databases(2, self.n)
        counts = _digits(2, self.n).sum(axis=1)
        return DataModel(self.n, 2, log_prob=self.log_weights[counts], name=self.name)

    @property
    def prob(self) -> NDArray[np.float64]:
        """``pi(x)`` for every database (lexicographic order)."""
        return np.exp(self.expand().log_prob)

    def record_marginal(self, i: int) -> NDArray[np.float64]:
        """``pi(x_i = a)`` for a = 0..K-1."""
        return np.exp(_log_record_joint(self, v.integer("i", i, low=0, high=self.n - 1))[1])


def _normalized(log_p: NDArray[np.float64]) -> NDArray[np.float64]:
    # shift by the largest value first: at huge log-values (couplings of 1e300) lse = top + log k
    # would round to top and the log-pmf would sum to k
    top = log_p.max()
    shifted = log_p - top if np.isfinite(top) else log_p
    return shifted - log_sum_exp(shifted)


def explicit_model(prob: ArrayLike, n: int, K: int = 2, *, record_order: str = "first-most-significant",
                   name: str = "explicit") -> DataModel:
    """A model from the probability of each of the ``K**n`` databases. ``record_order`` says
    how a database's index encodes its records: ``"first-most-significant"`` (lexicographic, as
    everywhere in this module) or ``"first-least-significant"`` (record j is digit j, the order
    of :func:`privlib.papers.affiliation.states`)."""
    n = v.integer("n", n, low=1)
    K = v.integer("K", K, low=2)
    _check_databases(K, n)
    p = v.pmf("prob", prob)
    if p.shape != (K ** n,):
        raise ValueError(f"prob must have K**n = {K ** n} entries, got shape {p.shape}")
    if record_order == "first-least-significant":
        p = p.reshape((K,) * n).transpose(tuple(range(n - 1, -1, -1))).ravel()
    elif record_order != "first-most-significant":
        raise ValueError(f"record_order must be 'first-most-significant' or 'first-least-significant', got {record_order!r}")
    return DataModel(n, K, log_prob=_normalized(_log(p)), name=name)


def product_model(p: ArrayLike, name: str = "product") -> DataModel:
    """Independent records: ``p`` of shape ``(n,)`` gives ``P(x_j = 1) = p_j`` (binary records),
    of shape ``(n, K)`` the law of each record (zeros allowed: a point mass is a product model)."""
    arr = v.probability("p", p)
    if arr.ndim == 1:
        arr = np.stack([1.0 - arr, arr], axis=1)
    if arr.ndim != 2 or arr.shape[0] == 0:
        raise ValueError(f"p must have shape (n,) or (n, K), got {arr.shape}")
    arr = v.pmf("p", arr)
    n, K = arr.shape
    _check_databases(K, n)
    log_p = _log(arr)
    total = np.zeros(1)
    for j in range(n):
        total = (total[:, None] + log_p[j][None, :]).ravel()
    return DataModel(n, K, log_prob=total, name=name)


def beta_binomial_log_weights(n: int, a: float, b: float) -> NDArray[np.float64]:
    """``log w_k`` (k = 0..n): the probability of one particular database with k ones under the
    Beta(a, b) mixture of i.i.d. Bernoulli bits, an exchangeable, affiliated prior (Section 3),
    ``w_k = B(a + k, b + n - k) / B(a, b) = (a)_k (b)_{n-k} / (a + b)_n``.

    Computed from log rising factorials, so a tiny a or b is not lost against n (the ends k = 0
    and k = n, where w is close to 1, keep full relative accuracy)."""
    n = v.integer("n", n, low=1, high=MAX_COUNT_N)
    a = v.scalar("a", a, low=0.0, low_open=True)
    b = v.scalar("b", b, low=0.0, low_open=True)
    k = np.arange(n + 1)
    log_w = log_rising(a, k) + log_rising(b, n - k) - log_rising(a + b, np.array([n]))[0]
    log_w[n] = log_rising_ratio(a, b, n)  # (a)_n / (a + b)_n
    log_w[0] = log_rising_ratio(b, a, n)
    return np.minimum(log_w, 0.0)


def exchangeable_model(log_weights: ArrayLike, name: str = "exchangeable") -> DataModel:
    """An exchangeable model on binary records, ``pi(x) ∝ w_{|x|}`` (``log_weights[k] = log w_k``
    for k = 0..n, normalised here)."""
    lw = v.real("log_weights", log_weights, finite=False)
    if lw.ndim != 1 or lw.size < 2:
        raise ValueError("log_weights must be a vector of length n + 1 >= 2")
    if lw.max() == np.inf or lw.max() == -np.inf:
        raise ValueError("log_weights must have a finite maximum")
    n = lw.size - 1
    lw = lw - log_sum_exp(log_binomial_coefficients(n) + lw)
    return DataModel(n, 2, log_weights=np.minimum(lw, 0.0), name=name)


def iid_model(n: int, p: float, name: str = "independent") -> DataModel:
    """Independent records, each positive with probability ``p`` (exchangeable form)."""
    n = v.integer("n", n, low=1, high=MAX_COUNT_N)
    p = v.scalar("p", p, low=0.0, high=1.0, low_open=True, high_open=True)
    k = np.arange(n + 1)
    return exchangeable_model(k * np.log(p) + (n - k) * np.log1p(-p), name)


def beta_binomial_model(n: int, a: float, b: float, name: str = "beta-binomial") -> DataModel:
    """Records i.i.d. Bernoulli(theta) given theta ~ Beta(a, b): exchangeable and affiliated;
    the correlation of two records is ``1/(a + b + 1)``."""
    return exchangeable_model(beta_binomial_log_weights(n, a, b), name)  # log rising factorials: no cancellation at large a, b


def clones_model(n: int, p: float = 0.5, name: str = "clones") -> DataModel:
    """n identical records ("clones", Ghosh & Kleinberg, Section 2): all positive with
    probability p, all negative otherwise."""
    return mixture_model(n, p, 1.0, name)


def mixture_model(n: int, p: float, rho: float, name: str = "mixture") -> DataModel:
    """With probability ``rho`` clones (all records equal to one Bernoulli(p) bit), otherwise
    independent Bernoulli(p) records: ``rho = 0`` is the independent model, ``rho = 1`` the
    clones; exchangeable, the correlation of two records is ``rho``."""
    n = v.integer("n", n, low=1, high=MAX_COUNT_N)
    p = v.scalar("p", p, low=0.0, high=1.0, low_open=True, high_open=True)
    rho = v.scalar("rho", rho, low=0.0, high=1.0)
    k = np.arange(n + 1)
    iid = k * np.log(p) + (n - k) * np.log1p(-p)
    clones = np.full(n + 1, _NEG)
    clones[0], clones[n] = np.log1p(-p), np.log(p)
    with np.errstate(divide="ignore"):
        lw = np.logaddexp(np.log1p(-rho) + iid, np.log(rho) + clones)
    return exchangeable_model(lw, name)


def _one_per(name: str, value: ArrayLike, size: int, what: str) -> NDArray[np.float64]:
    """``value`` validated as a real scalar or one value per ``what`` (``size`` of them)."""
    arr = v.real(name, value)
    if arr.ndim > 1 or arr.size not in (1, size):
        raise ValueError(f"{name} must be a number or one value per {what} ({size}), got shape {arr.shape}")
    return np.broadcast_to(arr.ravel() if arr.ndim else arr, (size,))


def ising_model(n: int, edges: Sequence[tuple[int, int]], coupling: ArrayLike, field: ArrayLike = 0.0,
                name: str = "Ising") -> DataModel:
    """Ising model ``pi(x) ∝ exp(sum_{uv} J_uv s_u s_v + sum_v h_v s_v)``, spins ``s = 2x - 1``
    (Ghosh & Kleinberg, Remark 3.7: ferromagnetic couplings give affiliated priors)."""
    n = v.integer("n", n, low=1)
    _check_databases(2, n)
    edges = [(int(a), int(b)) for a, b in edges]
    for a, b in edges:
        if not (0 <= a < n and 0 <= b < n) or a == b:
            raise ValueError(f"edges must join two different records in [0, {n - 1}], got ({a}, {b})")
    J = _one_per("coupling", coupling, len(edges), "edge")
    h = _one_per("field", field, n, "record")
    spins = 2 * _digits(2, n) - 1
    energy = spins @ h
    with np.errstate(over="ignore", invalid="ignore"):
        for (a, b), j in zip(edges, J):
            energy = energy + j * spins[:, a] * spins[:, b]
    if not np.isfinite(energy).all():
        raise ValueError("coupling and field too large: the energy sum_uv |J_uv| + sum_v |h_v| must stay below 1.7e308")
    return DataModel(n, 2, log_prob=_normalized(energy.astype(float)), name=name)


def ising_chain_model(n: int, coupling: float, field: float = 0.0, name: str = "Ising chain") -> DataModel:
    """Ising model on the path 0 - 1 - ... - (n-1) with one coupling on every edge (n at most 20,
    the ``2**n`` databases are enumerated)."""
    n = v.integer("n", n, low=1)
    _check_databases(2, n)
    return ising_model(n, [(j, j + 1) for j in range(n - 1)], v.scalar("coupling", coupling),
                       v.scalar("field", field), name)


# ---------------------------------------------------------------------------------------------
# The conditional output laws of one record
# ---------------------------------------------------------------------------------------------

def _check_channel(channel: object) -> None:
    if not isinstance(channel, (FiniteChannel, CountChannel)):
        raise TypeError(f"channel must be a FiniteChannel or a CountChannel, got {type(channel).__name__}")


def _check_pair(channel, model: DataModel) -> None:
    _check_channel(channel)
    if not isinstance(model, DataModel):
        raise TypeError(f"model must be a DataModel, got {type(model).__name__}")
    if model.n != channel.n or model.K != channel.K:
        raise ValueError(f"model has n = {model.n}, K = {model.K} but the channel has n = {channel.n}, K = {channel.K}")


def _log_record_joint(model: DataModel, i: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """For an exchangeable model: ``log pi(x_i = a, K_{-i} = j)`` (shape (2, n)); for an explicit
    one the log-probabilities reshaped to ``(K**i, K, K**(n-1-i))``. Also ``log pi(x_i = a)``."""
    if model.exchangeable:
        lc = log_binomial_coefficients(model.n - 1)
        joint = np.empty((2, model.n))
        np.add(lc, model.log_weights[:-1], out=joint[0])
        np.add(lc, model.log_weights[1:], out=joint[1])
        top = joint.max(axis=1)
        top = np.where(np.isfinite(top), top, 0.0)
        total = np.zeros(2)
        work = np.empty(min(model.n, 1 << 15))           # in chunks that stay in cache
        for start in range(0, model.n, work.size):
            for a in range(2):
                chunk = joint[a, start:start + work.size]
                part = work[:chunk.size]
                np.subtract(chunk, top[a], out=part)
                np.exp(part, out=part)
                total[a] += part.sum()
        with np.errstate(divide="ignore"):
            return joint, np.log(total) + top
    K, n = model.K, model.n
    lp = model.log_prob.reshape(K ** i, K, K ** (n - 1 - i))
    return lp, log_sum_exp(lp, axis=(0, 2))


def log_conditional_laws(log_prior: ArrayLike, log_table: ArrayLike, events: ArrayLike
                         ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The conditional output laws ``log P(y | X in s) = log sum_{x in s} pi(x) P(y | x) - log pi(s)``
    for every prior ``log_prior[k, x]`` (or one vector) and every event ``events[j]`` (a boolean
    mask over the databases x), from the mechanism's ``log_table[x, y]``; also ``log pi(s)``.
    Rows of events of prior probability 0 are ``-inf``. Shapes ``(k, events, outputs)`` and
    ``(k, events)``. The one builder of conditional laws: the laws of a record's values
    (:func:`conditional_laws`), of Pufferfish secrets (``pufferfish.conditional_output_laws``)
    and of a database entry (``leakage.entry_pml``). Each event costs one pass over its own
    databases."""
    lp = np.atleast_2d(np.asarray(log_prior, dtype=float))
    lt = np.asarray(log_table, dtype=float)
    masks = np.atleast_2d(np.asarray(events, dtype=bool))
    laws = np.full((lp.shape[0], masks.shape[0], lt.shape[1]), _NEG)
    mass = np.full((lp.shape[0], masks.shape[0]), _NEG)
    for j, mask in enumerate(masks):
        rows = np.flatnonzero(mask)
        mass[:, j] = log_sum_exp(lp[:, rows], axis=1)
        joint = log_sum_exp(lp[:, rows, None] + lt[None, rows], axis=1)
        with np.errstate(invalid="ignore"):
            laws[:, j] = np.where(np.isfinite(mass[:, j])[:, None], np.minimum(joint - mass[:, j, None], 0.0), _NEG)
    return laws, np.minimum(mass, 0.0)


def _log_laws(channel, model: DataModel, i: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``(log mu_{i,a}(y), log pi(x_i = a))``; rows of values a with ``pi(x_i = a) = 0`` are -inf."""
    _check_pair(channel, model)
    i = v.integer("i", i, low=0, high=channel.n - 1)
    K, n = channel.K, channel.n
    if isinstance(channel, CountChannel):
        if model.exchangeable:
            joint, marg = _log_record_joint(model, i)
            h = np.full((2, n + 1), _NEG)
            h[0, :-1], h[1, 1:] = joint[0], joint[1]          # count k = j + a
        else:
            digits = _digits(2, n)
            key = digits[:, i] * (n + 1) + digits.sum(axis=1)
            order = np.argsort(key, kind="stable")
            keys, starts = np.unique(key[order], return_index=True)
            with np.errstate(invalid="ignore"):
                sums = np.logaddexp.reduceat(model.log_prob[order], starts)
            h = np.full(2 * (n + 1), _NEG)
            h[keys] = sums
            h = h.reshape(2, n + 1)
            marg = log_sum_exp(h, axis=1)
        laws = np.stack([channel.log_mixture(h[a]) if np.isfinite(marg[a]) else np.full(channel.outputs, _NEG)
                         for a in range(2)])
        with np.errstate(invalid="ignore"):
            laws = np.where(np.isfinite(marg)[:, None], np.minimum(laws - marg[:, None], 0.0), _NEG)
        return laws, np.minimum(marg, 0.0)
    record = channel.samples[:, i]
    laws, marg = log_conditional_laws(model.expand().log_prob, channel.log_table, record[None, :] == np.arange(K)[:, None])
    return laws[0], marg[0]


def conditional_laws(channel: FiniteChannel | CountChannel, model: DataModel, i: int = 0
                     ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The conditional output laws ``mu_{i,a}(y) = sum_x pi(x | x_i = a) P(y | x)`` of record
    ``i`` (shape ``(K, m)``; a row of zeros for a value of prior probability 0) and the record's
    prior ``pi(x_i = a)``: the object behind Pufferfish (Bailie & Gong, eq. (15)), inferential
    privacy (Ghosh & Kleinberg, eq. (1)), PML (Saeidian et al.) and statistical privacy
    (Breutigam & Reischuk, Definition 5). For a count channel under an exchangeable model,
    ``pi(K_{-i} = j | x_i = a) ∝ C(n-1, j) w_{j+a}`` and the cost is one pass over the counts."""
    laws, marg = _log_laws(channel, model, i)
    return np.exp(laws), np.exp(marg)


def _present(marg: NDArray[np.float64]) -> NDArray[np.int64]:
    values = np.flatnonzero(np.isfinite(marg))
    if values.size < 2:
        raise ValueError("model must give at least two values of the record positive probability")
    return values


def _max_log_ratio(laws: NDArray[np.float64], values: NDArray[np.int64]) -> float:
    """``max over a != b in values and y of log mu_a(y) / mu_b(y)`` (+inf when some output is
    possible under one value and not another); 0 when every law is equal."""
    return float(max_log_ratio(laws[values].max(axis=0), laws[values].min(axis=0)))


# ---------------------------------------------------------------------------------------------
# Notions over neighbours (DP, TV, KL, CHTP)
# ---------------------------------------------------------------------------------------------

def _neighbour_blocks(channel) -> Iterator[tuple[NDArray[np.float64], NDArray[np.float64]]]:
    """Output laws ``(log P(.|x), log P(.|x'), P(.|x), P(.|x'))`` of every ordered neighbouring
    pair, in blocks with outputs on the last axis (for an explicit channel, one block per record and
    ordered pair of values)."""
    if isinstance(channel, CountChannel):
        for lp, lq in channel.neighbour_blocks():
            yield lp, lq, np.exp(lp), np.exp(lq)
        return
    if not isinstance(channel, FiniteChannel):
        raise TypeError(f"channel must be a FiniteChannel or a CountChannel, got {type(channel).__name__}")
    K, n = channel.K, channel.n
    for i in range(n):
        shape = (K ** i, K, K ** (n - 1 - i), channel.outputs)
        lt, t = channel.log_table.reshape(shape), channel.table.reshape(shape)
        for a in range(K):
            for b in range(K):
                if a != b:
                    yield lt[:, a], lt[:, b], t[:, a], t[:, b]


def _log_ratio(lp: NDArray[np.float64], lq: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log p - log q`` with 0 where both are 0 (no mass, no constraint): the privacy loss."""
    return log_ratio(lp, lq)


def dp_epsilon(channel: FiniteChannel | CountChannel) -> float:
    """Smallest epsilon with the channel epsilon-DP (Barber & Duchi, Definition 1; Bailie & Gong,
    Section 2): the largest ``log P(y|x) / P(y|x')`` over neighbours and outputs (``inf`` when
    some output is possible for one neighbour only)."""
    return float(max(max(float(_log_ratio(lp, lq).max()) for lp, lq, _, _ in _neighbour_blocks(channel)), 0.0))


def _tv(p: NDArray[np.float64], q: NDArray[np.float64]) -> NDArray[np.float64]:
    """Total variation ``sum_y |p(y) - q(y)| / 2`` of every row pair."""
    return 0.5 * np.abs(p - q).sum(axis=-1)


def _kl(lp: NDArray[np.float64], lq: NDArray[np.float64], p: NDArray[np.float64]) -> NDArray[np.float64]:
    """``KL(p || q)`` in nats of every row pair (``inf`` without domination, also where ``p(y)``
    underflows in linear space but ``q(y) = 0``)."""
    with np.errstate(invalid="ignore"):
        return np.where(lp == _NEG, 0.0, np.where(lq == _NEG, np.inf, p * (lp - lq))).sum(axis=-1)


def dp_delta(channel: FiniteChannel | CountChannel, epsilon: ArrayLike) -> NDArray[np.float64]:
    """The privacy profile (Barber & Duchi, Definition 3; Balle et al. 2018): the smallest delta
    with the channel (epsilon, delta)-DP, ``max over neighbours of sum_y (P(y|x) - e^eps
    P(y|x'))_+``, vectorised over epsilon >= 0: each block of neighbour pairs meets many
    epsilons at once (at most ~10^6 terms at a time), so 10^5 epsilons cost one pass over the
    pairs per chunk, not one Python call per epsilon."""
    eps = v.nonnegative("epsilon", epsilon)
    flat = eps.ravel()
    out = np.zeros(flat.size)
    for _, _, p, q in _neighbour_blocks(channel):
        chunk = max(1, 10**6 // max(p.size, 1))
        for start in range(0, flat.size, chunk):
            e = flat[start:start + chunk]
            part = profiles._hockey_rows_many(p, q, e).reshape(e.size, -1).max(axis=1)
            np.maximum(out[start:start + chunk], part, out=out[start:start + chunk])
    return np.clip(out, 0.0, 1.0).reshape(eps.shape)


def tv_level(channel: FiniteChannel | CountChannel) -> float:
    """Smallest alpha with the channel alpha-TV private (Barber & Duchi, Definition 4): the
    largest total variation ``sup_S |P(S|x) - P(S|x')|`` over neighbours."""
    return float(max(_tv(p, q).max() for _, _, p, q in _neighbour_blocks(channel)))


def kl_level(channel: FiniteChannel | CountChannel) -> float:
    """Smallest alpha with the channel alpha-KL private (Barber & Duchi, eq. (6)), in nats: the
    largest ``KL(P(.|x) || P(.|x'))`` over neighbours (``inf`` without domination)."""
    return float(max(_kl(lp, lq, p).max() for lp, lq, p, _ in _neighbour_blocks(channel)))


def chtp_level(channel: FiniteChannel | CountChannel, gamma: float) -> float:
    """Smallest beta with the channel (beta, gamma)-CHTP (Barber & Duchi, Definition 8): the
    largest total variation between the output laws of neighbours conditioned on a set A of
    outputs with ``P(A | x) >= gamma``, by enumerating every set (at most 16 outputs); each
    pair's supremum is :func:`privlib.core.chtp.hard_chtp_sup`."""
    g = v.scalar("gamma", gamma, low=0.0, high=1.0, low_open=True)
    _check_channel(channel)
    m = channel.outputs
    if m > MAX_CHTP_OUTPUTS:
        raise ValueError(f"channel must have at most {MAX_CHTP_OUTPUTS} outputs to enumerate its output sets, got {m}")
    if isinstance(channel, GeometricCount):  # its neighbour blocks keep only the loss distribution
        blocks = [(np.exp(lp), np.exp(lq)) for lp, lq in CountChannel.neighbour_blocks(channel)]
    else:
        blocks = [(p, q) for _, _, p, q in _neighbour_blocks(channel)]
    p = np.concatenate([b[0].reshape(-1, m) for b in blocks])
    q = np.concatenate([b[1].reshape(-1, m) for b in blocks])
    p, q = _canonical_pairs(p, q)  # every level is invariant under relabelling outputs
    return max(hard_chtp_sup(pi / pi.sum(), qi / qi.sum(), g) for pi, qi in zip(p, q))


# ---------------------------------------------------------------------------------------------
# Notions of one record under a data model
# ---------------------------------------------------------------------------------------------

def _log_odds_of_one(t: NDArray[np.float64], k: NDArray[np.float64], n_minus_k: NDArray[np.float64]) -> float:
    """``log(sum_k e^{t_k} k / sum_k e^{t_k} (n - k))``, the log odds of ``x_i = 1`` when the
    number of ones has log-weights ``t`` (up to a constant), from one exponential pass.

    Only the terms within ``width`` of the largest exponent are exponentiated (a contiguous
    slice when they form one, as for unimodal sequences); the maximum cancels in the ratio. When
    both sums have a term within ``slack`` of that maximum, the dropped terms change each sum by
    less than ``n (n + 1) e^(slack - width) = e^-40`` relative; otherwise each sum is taken on
    its own."""
    n = k.size - 1
    peak = int(t.argmax())
    top = t[peak]
    if not np.isfinite(top):
        raise ValueError("log_weights must contain a finite value")
    slack = 30.0
    # a peak inside 1..n-1 is a term of both sums; at an end, look at the other sum's largest term
    if (peak == 0 and t[1:].max() < top - slack) or (peak == n and t[:-1].max() < top - slack):
        with np.errstate(divide="ignore"):
            return logsumexp_near_max(t[1:] + np.log(k[1:])) - logsumexp_near_max(t[:-1] + np.log(n_minus_k[:-1]))
    width = slack + 40.0 + 2.0 * np.log(n + 1.0)
    keep = t >= top - width      # >=: where |top| > 1e17, top - width rounds to top
    lo, hi = int(keep.argmax()), n + 1 - int(keep[::-1].argmax())
    near = slice(lo, hi) if np.count_nonzero(keep[lo:hi]) == hi - lo else keep
    terms = t[near] - top
    np.exp(terms, out=terms)
    return float(np.log((terms @ k[near]) / (terms @ n_minus_k[near])))


def _exchangeable_formula(log_w: NDArray[np.float64], eps: float) -> float:
    """Ghosh & Kleinberg's eq. (6) for an exchangeable prior ``pi(x) ∝ w_{|x|}`` (``log_w[k] =
    log w_k``, validated) and uniform epsilon: ``max(odds(+1) - odds(0), odds(0) - odds(-1))``
    with ``odds(s)`` the log odds of ``x_i = 1`` under the prior tilted by ``e^{s eps k}``
    (``affiliation.exchangeable_inferential_privacy`` explains the sums); also the inferential
    privacy of the truncated geometric count under such a prior (:func:`inferential_privacy`)."""
    n = log_w.size - 1
    base = log_binomial_coefficients(n)
    base += log_w  # log(C(n, k) w_k)
    k = np.arange(n + 1, dtype=float)
    n_minus_k = np.subtract(float(n), k)
    prior_odds = _log_odds_of_one(base, k, n_minus_k)
    if not np.isfinite(prior_odds):
        raise ValueError("log_weights must give both values of x_i positive probability")
    if eps == 0.0:
        return 0.0
    v.representable("epsilon", eps * n, "n epsilon")
    # z = 1: acceptance e^{-eps (n - k)} ∝ e^{eps k}; z = 0: acceptance e^{-eps k}
    tilted = np.multiply(k, eps)
    tilted += base
    nu_1 = _log_odds_of_one(tilted, k, n_minus_k) - prior_odds
    np.multiply(k, -eps, out=tilted)
    tilted += base
    nu_0 = prior_odds - _log_odds_of_one(tilted, k, n_minus_k)
    return float(v.representable("epsilon", max(nu_0, nu_1, 0.0), "the inferential privacy"))  # >= 0 but for rounding



def inferential_privacy(channel: FiniteChannel | CountChannel, model: DataModel, i: int = 0) -> float:
    """Ghosh & Kleinberg's inferential privacy of record ``i`` under the prior ``model``
    (Section 2, eq. (1)): the largest factor, in log, by which an output moves the posterior odds
    of ``x_i = a`` against ``x_i = b`` away from the prior odds. By Bayes' rule the odds move by
    ``mu_{i,a}(y) / mu_{i,b}(y)``, so this is ``max_{a,b,y} log mu_{i,a}(y) / mu_{i,b}(y)``: the
    Pufferfish loss with the single scenario ``model`` (:func:`pufferfish_loss`) and the leakage
    capacity of the channel ``x_i -> y`` the model induces (:func:`leakage_capacity`).

    For a :class:`GeometricCount` under an exchangeable model the laws are not formed: only the
    clamped outputs 0 and n are evaluated, in O(n) (eq. (6), ``_exchangeable_formula``). By the
    count reduction, ``mu_{i,a}`` mixes the noise rows ``P(y | k)`` with weights ``C(n-1, k-a) w_k``
    over the count k, whose ratio ``k / (n - k)`` (a = 1 against a = 0) increases with k, whatever
    the weights; the rows ``c(y) e^{-epsilon |y - k|}`` are totally positive of order 2 in (y, k).
    By Karlin's composition formula ``mu_{i,1}(y) / mu_{i,0}(y)`` is then non-decreasing in y: its
    extremes are at y = n and y = 0, whose rows ``e^{-epsilon (n - k)}`` and ``e^{-epsilon k}``
    (up to a constant) are Ghosh & Kleinberg's maximally biased mechanisms (their Theorem 3.4)."""
    if isinstance(channel, GeometricCount) and isinstance(model, DataModel) and model.exchangeable:
        _check_pair(channel, model)
        v.integer("i", i, low=0, high=channel.n - 1)
        possible = np.isfinite(model.log_weights)
        if possible[:-1].any() and possible[1:].any():  # x_i = 0 and x_i = 1 both of positive probability
            return _exchangeable_formula(model.log_weights, channel.epsilon)
    laws, marg = _log_laws(channel, model, i)
    return _max_log_ratio(laws, _present(marg))


def prior_channel_pml(prior: ArrayLike, channel: ArrayLike, *, log: bool = False) -> NDArray[np.float64]:
    """Pointwise maximal leakage ``l(X -> y) = log max_{x: P_X(x) > 0} P(y | x) / P_Y(y)`` of
    every output (Saeidian et al., Theorem 1, the closed form of Definition 2.3), from
    ``prior[..., x] = P_X(x)`` and ``channel[..., x, y] = P(y | x)`` (leading axes broadcast),
    or their logarithms with ``log=True`` (``-inf`` for no mass); 0 for outputs of probability
    0. The one definition of PML: :func:`pml` applies it to the channel ``x_i -> y`` of a record
    (in log-space), ``leakage.pml`` to a channel given as a matrix. Each form keeps the digits of
    its input: a tiny leakage is ``log1p`` of ``S(y) = sum_x P_X(x) (top(y) - P(y | x)) / P_Y(y)``,
    a sum of non-negative terms (``top`` the largest likelihood), never a difference of logs.

    Probabilities: ``P_Y`` is one matrix product (no cancellation); the gaps ``top - P(y | x)``
    are taken where the leakage is below 1e-3; outputs whose terms all underflow are redone in
    log-space. Log-probabilities: ``P_Y / top = 1 - S'`` with ``S' = sum_x P_X(x) (1 - P(y | x) /
    top)`` from ``expm1`` of the log-ratios, ``-log1p(-S')`` below ``S' = 1/2`` and ``-log sum_x
    P_X(x) P(y | x) / top`` above (no underflow)."""
    if not log:
        return _linear_pml(np.asarray(prior, dtype=float), np.asarray(channel, dtype=float))
    lp = np.asarray(prior, dtype=float)[..., :, None]
    lc = np.asarray(channel, dtype=float)
    support = lp > _NEG
    masked = np.where(support, lc, _NEG)
    top = masked.max(axis=-2)
    rel = masked - np.where(np.isfinite(top), top, 0.0)[..., None, :]        # log P(y|x) / top(y) <= 0
    with np.errstate(invalid="ignore"):
        s = np.where(support, np.exp(lp) * -np.expm1(rel), 0.0).sum(axis=-2)
    out = np.where(s < 0.5, -np.log1p(-np.minimum(s, 0.5)), -log_sum_exp(lp + rel, axis=-2))
    return np.where(top == _NEG, 0.0, np.maximum(out, 0.0))


def _linear_pml(prior: NDArray[np.float64], channel: NDArray[np.float64]) -> NDArray[np.float64]:
    """:func:`prior_channel_pml` from probabilities."""
    p_y = np.matmul(prior[..., None, :], channel)[..., 0, :]
    masked = channel if (prior > 0).all() else np.where((prior > 0)[..., :, None], channel, 0.0)
    top = masked.max(axis=-2)
    with np.errstate(divide="ignore", invalid="ignore"):  # 0/0 for impossible outputs, set to 0 below
        out = np.log(top) - np.log(p_y)
        close_call = (p_y > 0) & (top - p_y < 1e-3 * top)
    if close_call.any():
        # prior-weighted gaps top - P(y | x) >= 0 (letters outside the support carry weight 0)
        gap = np.matmul(prior[..., None, :], top[..., None, :] - masked)[..., 0, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(close_call, np.log1p(np.maximum(gap, 0.0) / p_y), out)
    underflow = (p_y == 0) & (top > 0)
    if underflow.any():
        log_py = log_sum_exp(_log(prior)[..., :, None] + _log(channel), axis=-2)
        out = np.where(underflow, _log(top) - log_py, out)
    return np.where(top == 0, 0.0, np.maximum(out, 0.0))


def _pml_of(laws: NDArray[np.float64], marg: NDArray[np.float64]) -> NDArray[np.float64]:
    _present(marg)
    return prior_channel_pml(marg, laws, log=True)


def _maximal_leakage_of(laws: NDArray[np.float64], marg: NDArray[np.float64]) -> float:
    return float(log_sum_exp(laws[_present(marg)].max(axis=0)))


def _log_statistical_delta_of(laws: NDArray[np.float64], marg: NDArray[np.float64], eps: NDArray[np.float64]) -> NDArray[np.float64]:
    values = _present(marg)
    out = np.full(eps.shape, _NEG)
    for a in values:
        for b in values:
            if a != b:
                out = np.maximum(out, profiles.log_hockey_stick(laws[a], laws[b], eps))
    return np.minimum(out, 0.0)


def _statistical_delta_of(laws: NDArray[np.float64], marg: NDArray[np.float64], eps: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.clip(np.exp(_log_statistical_delta_of(laws, marg, eps)), 0.0, 1.0)


def pufferfish_loss(channel: FiniteChannel | CountChannel, models: DataModel | Sequence[DataModel],
                    records: Sequence[int] | None = None,
                    pairs: Sequence[tuple[int, int]] | None = None) -> float:
    """Bailie & Gong, Definition 7.3 (eq. (16)), with the secrets of Kifer & Machanavajjhala's
    record-level Pufferfish: the smallest epsilon such that for every scenario ``theta`` in
    ``models``, every record ``i`` in ``records`` (default all) and every secret pair
    ``(x_i = a, x_i = b)`` in ``pairs`` (default all ``a != b``), the output laws conditioned on
    the two secrets are within ``e^eps`` of each other. A (scenario, pair) in which a secret has
    prior probability 0 is no constraint (and is skipped); ``ValueError`` if none is left."""
    _check_channel(channel)
    if models is None or isinstance(models, (str, bytes)):
        raise TypeError(f"models must be a DataModel or a sequence of them, got {type(models).__name__}")
    models = [models] if isinstance(models, DataModel) else list(models)
    if not models:
        raise ValueError("models must hold at least one DataModel")
    n, K = channel.n, channel.K
    records = range(n) if records is None else [v.integer("records", r, low=0, high=n - 1) for r in records]
    if pairs is None:
        pairs = [(a, b) for a in range(K) for b in range(K) if a != b]
    pairs = [(v.integer("pairs", a, low=0, high=K - 1), v.integer("pairs", b, low=0, high=K - 1)) for a, b in pairs]
    best, constrained = 0.0, False
    for model in models:
        for i in records:
            laws, marg = _log_laws(channel, model, i)
            for a, b in pairs:
                if a == b or not (np.isfinite(marg[a]) and np.isfinite(marg[b])):
                    continue
                constrained = True
                best = max(best, _max_log_ratio(laws, np.array([a, b])))
    if not constrained:
        raise ValueError("pairs: no scenario gives both secrets of a pair positive probability, so nothing is constrained")
    return best


def pml(channel: FiniteChannel | CountChannel, model: DataModel, i: int = 0) -> NDArray[np.float64]:
    """Pointwise maximal leakage of record ``i`` to every output (Saeidian et al., Theorem 1 /
    Definition 2.3): ``l(X_i -> y) = log max_{a: pi(x_i=a) > 0} mu_{i,a}(y) / P(y)`` with
    ``P(y) = sum_a pi(x_i = a) mu_{i,a}(y)``; 0 for outputs of probability 0."""
    return _pml_of(*_log_laws(channel, model, i))


def pml_sup(channel: FiniteChannel | CountChannel, model: DataModel, i: int = 0) -> float:
    """``max_y l(X_i -> y)``: the mechanism is epsilon-PML for record i under the model exactly
    when this is at most epsilon (Saeidian et al., Definition 2.3)."""
    return float(pml(channel, model, i).max())


def maximal_leakage(channel: FiniteChannel | CountChannel, model: DataModel | None = None, i: int = 0) -> float:
    """Maximal leakage ``log sum_y max_x P(y | x)`` (Issa, Wagner & Kamath; Saeidian et al.,
    Section 2): of the whole database when ``model`` is None (maximum over all databases), of
    record ``i`` otherwise (maximum over the values of positive prior probability, with the
    laws :func:`conditional_laws`)."""
    if model is None:
        lt = _full_log_table(channel)
        return float(log_sum_exp(lt.max(axis=0)))
    return _maximal_leakage_of(*_log_laws(channel, model, i))


def _full_log_table(channel) -> NDArray[np.float64]:
    if isinstance(channel, (FiniteChannel, CountChannel)):
        return channel.log_table
    raise TypeError(f"channel must be a FiniteChannel or a CountChannel, got {type(channel).__name__}")


def leakage_capacity(channel: FiniteChannel | CountChannel, model: DataModel | None = None, i: int = 0) -> float:
    """Leakage capacity ``log max_y max_{x, x'} P(y | x) / P(y | x')`` (Saeidian et al.,
    Definition 2.4; the supremum of PML over all priors): of the whole database when ``model``
    is None, of record ``i`` through the channel ``x_i -> y`` that ``model`` induces otherwise
    (which is :func:`inferential_privacy`)."""
    if model is not None:
        return inferential_privacy(channel, model, i)
    lt = _full_log_table(channel)
    used = lt.max(axis=0) > _NEG
    return _max_log_ratio(lt[:, used], np.arange(lt.shape[0]))


def statistical_delta(channel: FiniteChannel | CountChannel, model: DataModel, epsilon: ArrayLike,
                      i: int = 0) -> NDArray[np.float64]:
    """Breutigam & Reischuk's statistical privacy (Definition 5): the adversary knows the
    distribution ``model`` but not the other records, and ``delta(eps) = max_{a != b}
    H_{e^eps}(mu_{i,a} || mu_{i,b})``, the largest hockey-stick divergence between the output
    laws given two values of record ``i``, summed in log-space; vectorised over epsilon >= 0. It is 0 exactly from ``epsilon = inferential_privacy(channel, model, i)`` on."""
    eps = v.nonnegative("epsilon", epsilon)
    return _statistical_delta_of(*_log_laws(channel, model, i), eps)


def log_statistical_delta(channel: FiniteChannel | CountChannel, model: DataModel, epsilon: ArrayLike,
                          i: int = 0) -> NDArray[np.float64]:
    """``log delta(eps)`` of :func:`statistical_delta`, finite where delta underflows (e.g.
    ``e^-22471`` for the truncated geometric count of a million independent records); ``-inf``
    where delta is 0."""
    eps = v.nonnegative("epsilon", epsilon)
    return _log_statistical_delta_of(*_log_laws(channel, model, i), eps)


NOTIONS = {
    "dp_epsilon": "DP ε (Bailie & Gong; Barber & Duchi)",
    "dp_delta": "DP δ(ε₀/2)",
    "inferential_privacy": "inferential privacy = record Pufferfish (Ghosh & Kleinberg; Bailie & Gong)",
    "pml_sup": "sup PML of the record (Saeidian et al.)",
    "maximal_leakage": "maximal leakage of the record (Saeidian et al.)",
    "statistical_delta": "statistical-privacy δ(ε₀/2) (Breutigam & Reischuk)",
    "tv_level": "TV level (Barber & Duchi)",
    "kl_level": "KL level, nats (Barber & Duchi)",
    "chtp_level": "CHTP β at γ (Barber & Duchi)",
}
"""The notions :func:`all_notions` computes, with their labels."""


def all_notions(channel: FiniteChannel | CountChannel, model: DataModel, i: int = 0, *,
                epsilon: float = 0.5, gamma: float | None = 0.5) -> dict[str, float | None]:
    """Every notion of the five papers for one mechanism, data model and record ``i`` (keys of
    :data:`NOTIONS`): the DP and statistical-privacy deltas at ``epsilon``, the CHTP level at
    ``gamma`` (None when the channel has more than 16 outputs or ``gamma`` is None)."""
    e = v.scalar("epsilon", epsilon, low=0.0)
    values = _model_notions(channel, model, i, e)  # first: it checks the model and i
    values.update(_channel_notions(channel, e))
    values["chtp_level"] = chtp_level(channel, gamma) if gamma is not None and channel.outputs <= MAX_CHTP_OUTPUTS else None
    return {key: values[key] for key in NOTIONS}


def _channel_notions(channel: FiniteChannel | CountChannel, e: float) -> dict[str, float]:
    """The notions of the channel alone (every neighbouring pair, one pass over the blocks)."""
    dp_eps = dp_del = tv = kl = 0.0
    for lp, lq, p, q in _neighbour_blocks(channel):
        dp_eps = max(dp_eps, float(_log_ratio(lp, lq).max()))
        dp_del = max(dp_del, float(profiles._hockey_rows(p, q, e).max()))
        tv = max(tv, float(_tv(p, q).max()))
        kl = max(kl, float(_kl(lp, lq, p).max()))
    return {"dp_epsilon": dp_eps, "dp_delta": min(dp_del, 1.0), "tv_level": tv, "kl_level": kl}


def _model_notions(channel: FiniteChannel | CountChannel, model: DataModel, i: int, e: float) -> dict[str, float]:
    """The notions of record ``i`` under the data model (from its two conditional output laws)."""
    laws, marg = _log_laws(channel, model, i)
    return {
        "inferential_privacy": _max_log_ratio(laws, _present(marg)),
        "pml_sup": float(_pml_of(laws, marg).max()),
        "maximal_leakage": _maximal_leakage_of(laws, marg),
        "statistical_delta": float(_statistical_delta_of(laws, marg, np.asarray(e))),
    }


def standard_mechanisms(n: int, epsilon: float = 1.0, sigma: float = 1.0, m: int | None = None
                        ) -> dict[str, FiniteChannel | CountChannel]:
    """The chapter's four standard mechanisms on n binary records, by label: randomized
    response on every record (epsilon), the truncated geometric count (epsilon), the count of a
    subsample of ``m`` records (default ``max(1, n // 2)``) and the discretised Gaussian count
    (``sigma``). Randomized response has ``2**n`` outputs, so n is at most 12 here."""
    n = v.integer("n", n, low=1, high=12)
    m = max(1, n // 2) if m is None else v.integer("m", m, low=1, high=n)
    return {
        "randomized response": randomized_response(n, epsilon),
        "geometric count": geometric_count(n, epsilon),
        "subsampled count": subsampled_count(n, m),
        "Gaussian count": gaussian_count(n, sigma),
    }


def standard_models(n: int, p: float = 0.3, rho: float = 0.5, coupling: float = 0.5) -> dict[str, DataModel]:
    """The chapter's four data models on n binary records, by label: independent records
    positive with probability ``p``; the exchangeable mixture with correlation ``rho``
    (:func:`mixture_model`); the Ising chain with ``coupling`` and the field ``atanh(2p - 1)``
    (which makes an isolated record positive with probability ``p``); clones positive with
    probability ``p``."""
    p = v.scalar("p", p, low=0.0, high=1.0, low_open=True, high_open=True)
    return {
        "independent": iid_model(n, p),
        "exchangeable": mixture_model(n, p, rho, "exchangeable"),
        "Ising chain": ising_chain_model(n, coupling, float(np.arctanh(2 * p - 1))),
        "clones": clones_model(n, p),
    }


def correlation_sweep(channel: FiniteChannel | CountChannel, p: float, rho: ArrayLike, i: int = 0, *,
                      epsilon: float = 0.5) -> dict[str, NDArray[np.float64]]:
    """:func:`all_notions` of ``channel`` under :func:`mixture_model` for every correlation in
    ``rho`` (0: independent records, 1: clones), notion by notion (the CHTP level is left out);
    at most ``MAX_SWEEP`` = 2000 values of rho."""
    _check_channel(channel)
    rhos = v.probability("rho", rho)
    v.size_limit("rho", rhos.size, MAX_SWEEP, "correlations (one model each)")
    e = v.scalar("epsilon", epsilon, low=0.0)
    models = [mixture_model(channel.n, p, float(r)) for r in rhos.ravel()]
    rows = [_model_notions(channel, model, i, e) for model in models]
    fixed = _channel_notions(channel, e)  # the same for every rho
    rows = [{**row, **fixed} for row in rows]
    return {key: np.array([row[key] for row in rows]).reshape(rhos.shape) for key in NOTIONS if key != "chtp_level"}
