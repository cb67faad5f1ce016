"""Independent routes shared by several sections of the cross-paper chapter's claims, and
the mistakes several claims declare as mutants."""

from __future__ import annotations

from privlib.verify.claims import reference

import itertools

import numpy as np
from scipy import special

from privlib.core import notions


def _databases(K: int, n: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(K), repeat=n))


@reference
def _bf_laws(table: np.ndarray, prior: np.ndarray, K: int, n: int, i: int) -> tuple[np.ndarray, np.ndarray]:
    """``mu_{i,a} = sum_{x: x_i = a} pi(x) P(.|x) / pi(x_i = a)`` database by database."""
    mu = np.zeros((K, table.shape[1]))
    mass = np.zeros(K)
    for row, x in enumerate(_databases(K, n)):
        mu[x[i]] += prior[row] * table[row]
        mass[x[i]] += prior[row]
    return mu / np.where(mass > 0, mass, 1.0)[:, None], mass


def _neighbours(K: int, n: int) -> list[tuple[int, int]]:
    dbs = _databases(K, n)
    return [(r, s) for r, x in enumerate(dbs) for s, y in enumerate(dbs) if sum(a != b for a, b in zip(x, y)) == 1]


def _ratio(p: float, q: float) -> float:
    if p == 0:
        return 0.0
    return np.inf if q == 0 else float(np.log(p / q))


@reference
def _bf_dp_epsilon(table: np.ndarray, K: int, n: int) -> float:
    return max(_ratio(table[r, y], table[s, y]) for r, s in _neighbours(K, n) for y in range(table.shape[1]))


def _subsets(m: int) -> np.ndarray:
    return np.array(list(itertools.product([0.0, 1.0], repeat=m)))


@reference
def _bf_hockey(p: np.ndarray, q: np.ndarray, eps: np.ndarray) -> np.ndarray:
    """``sup_S p(S) - e^eps q(S)`` over every set S of outputs."""
    s = _subsets(p.size)
    return (s @ p[:, None] - np.exp(eps)[None, :] * (s @ q[:, None])).max(axis=0)


@reference
def _bf_dp_delta(table: np.ndarray, K: int, n: int, eps: np.ndarray) -> np.ndarray:
    return np.max([_bf_hockey(table[r], table[s], eps) for r, s in _neighbours(K, n)], axis=0)


@reference
def _bf_posterior_odds_change(table: np.ndarray, prior: np.ndarray, K: int, n: int, i: int) -> float:
    """``max_y max_{a,b} log [P(x_i=a | y) / P(x_i=b | y)] / [pi(x_i=a) / pi(x_i=b)]`` from the
    joint law of (database, output) by Bayes' rule."""
    joint = prior[:, None] * table                                      # P(x, y)
    rec = np.array([x[i] for x in _databases(K, n)])
    post = np.array([joint[rec == a].sum(axis=0) for a in range(K)])     # P(x_i = a, y)
    post = post / post.sum(axis=0, keepdims=True)                       # P(x_i = a | y)
    pri = np.array([prior[rec == a].sum() for a in range(K)])
    best = 0.0
    for a in range(K):
        for b in range(K):
            if a != b and pri[a] > 0 and pri[b] > 0:
                for y in range(table.shape[1]):
                    best = max(best, _ratio(post[a, y], post[b, y]) - np.log(pri[a] / pri[b]))
    return best


def _random_channel(K: int, n: int, m: int, seed: int) -> notions.FiniteChannel:
    """An asymmetric channel: Dirichlet rows, different for every database."""
    rng = np.random.default_rng(seed)
    return notions.FiniteChannel(rng.dirichlet(np.full(m, 2.0), size=K ** n), K, n)


def _geometric_rows(n: int, eps: float) -> np.ndarray:
    """``log P(y | k)`` of the truncated geometric count from its definition: the two-sided
    geometric noise law, clamped to [0, n] (tail masses summed as geometric series)."""
    r = np.exp(-eps)
    k = np.arange(n + 1)[:, None]
    y = np.arange(n + 1)[None, :]
    log_point = np.log((1 - r) / (1 + r)) + np.abs(y - k) * np.log(r)      # P(Z = y - k)
    log_low = k * np.log(r) - np.log1p(r)                                 # P(Z <= -k)
    log_high = (n - k) * np.log(r) - np.log1p(r)                          # P(Z >= n - k)
    rows = np.array(log_point, dtype=float)
    rows[:, :1] = log_low
    rows[:, -1:] = log_high
    return rows


# ---------------------------------------------------------------------------------------------
# Plausible mistakes shared by several claims (each registered as a mutant where it applies)
# ---------------------------------------------------------------------------------------------

def _ends_left_out(original):
    """GeometricCount.log_mixture without the clamped end outputs."""
    def wrong(self, log_h):
        out = original(self, log_h)
        out[0] = out[-1] = -np.inf
        return out
    return wrong


def _weights_unshifted(original):
    """_log_record_joint weighting the other records by w_j instead of w_{j+a}."""
    def wrong(model, i):
        joint, marg = original(model, i)
        if model.exchangeable:
            joint = np.stack([joint[0], joint[0]])
            marg = special.logsumexp(joint, axis=1)
        return joint, marg
    return wrong


def _posterior_odds(original):
    """inferential_privacy returning the posterior odds instead of their change."""
    def wrong(channel, model, i=0):
        marg = model.record_marginal(i)
        marg = marg[marg > 0]
        return original(channel, model, i) + float(np.log(marg.max() / marg.min()))
    return wrong
