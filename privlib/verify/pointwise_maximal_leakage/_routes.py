"""Independent routes shared by several sections of chapter 001's claims, and the
mistakes several claims declare as mutants."""

from __future__ import annotations

import itertools

import numpy as np
from scipy import optimize


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


def _posterior_table(prior: np.ndarray, channel: np.ndarray) -> np.ndarray:
    """P(x | y) from the joint table, by hand (no privlib); outputs of probability 0 get the prior."""
    joint = prior[:, None] * channel
    p_y = joint.sum(axis=0, keepdims=True)
    return np.where(p_y > 0, joint / np.where(p_y > 0, p_y, 1.0), prior[:, None])


def _pml_by_hand(prior: np.ndarray, channel: np.ndarray) -> np.ndarray:
    """log max_x P(y|x) / P_Y(y) over the prior's support, by hand (0 for impossible outputs)."""
    p_y = prior @ channel
    top = np.where(prior[:, None] > 0, channel, 0.0).max(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p_y > 0, np.log(top / np.where(p_y > 0, p_y, 1.0)), 0.0)


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


def _databases(k: int, n: int) -> np.ndarray:
    return np.array(list(itertools.product(range(k), repeat=n)))
