"""Independent routes shared by several sections of chapter 002's claims, and the
mistakes several claims declare as mutants."""

from __future__ import annotations

import itertools
import math

import numpy as np
from scipy import stats

from privlib.papers import minimax as mm


FAMILY_WISE = 1e-6


def _z_max(cases: int) -> float:
    """The two-sided normal quantile whose tail over ``cases`` z-scores is :data:`FAMILY_WISE`."""
    return float(stats.norm.isf(FAMILY_WISE / (2 * cases)))


def _subsets(m: int) -> np.ndarray:
    """Indicator rows of every subset of ``m`` outputs."""
    return np.array(list(itertools.product((0.0, 1.0), repeat=m)))


def _worst_event(p: np.ndarray, q: np.ndarray, eps: float) -> float:
    """``max over every event S of p(S) - e^eps q(S)`` by enumeration."""
    s = _subsets(p.size)
    return float(max((s @ p - np.exp(eps) * (s @ q)).max(), 0.0))


def _random_channel(rng: np.random.Generator, K: int, n: int, m: int, concentration: float = 1.0) -> mm.FiniteChannel:
    return mm.FiniteChannel(rng.dirichlet(np.full(m, concentration), K ** n), K, n)


def _samples(K: int, n: int) -> list[tuple[int, ...]]:
    """Every sample in lexicographic order (the rows of a FiniteChannel)."""
    return list(itertools.product(range(K), repeat=n))


def _neighbours_by_loop(K: int, n: int) -> list[tuple[int, int]]:
    """Ordered pairs of row indices of samples at Hamming distance 1, by a plain double loop."""
    samples = _samples(K, n)
    return [(a, b) for a, x in enumerate(samples) for b, y in enumerate(samples)
            if sum(u != w for u, w in zip(x, y)) == 1]


def _levels_by_events(table: np.ndarray, K: int, n: int, eps: np.ndarray) -> np.ndarray:
    """``(delta*(eps) for each eps, TV level, KL level)`` of a channel table by enumeration: every
    event for delta* and TV, a plain sum for KL, over neighbours found by a double loop."""
    s = _subsets(table.shape[1])
    deltas, tv, kl = np.zeros(eps.size), 0.0, 0.0
    for a, b in _neighbours_by_loop(K, n):
        pa, pb = s @ table[a], s @ table[b]
        deltas = np.maximum(deltas, (pa[None, :] - np.exp(eps)[:, None] * pb[None, :]).max(axis=1))
        tv = max(tv, float((pa - pb).max()))
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(table[a] > 0, table[a] * np.log(table[a] / table[b]), 0.0)
        kl = max(kl, float(terms.sum()))
    return np.concatenate([deltas, [tv, kl]])


def _marginal_by_loop(table: np.ndarray, laws: np.ndarray) -> np.ndarray:
    """Law of the release when record ``i`` is drawn from ``laws[i]``, by summing over every
    sample with a plain loop."""
    n, K = laws.shape
    out = np.zeros(table.shape[1])
    for row, x in enumerate(_samples(K, n)):
        out += math.prod(laws[i, xi] for i, xi in enumerate(x)) * table[row]
    return out


def _tv(a: np.ndarray, b: np.ndarray) -> float:
    return float(0.5 * np.abs(a - b).sum())
