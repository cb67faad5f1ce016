"""Tests between two output laws and conditional hypothesis testing privacy (CHTP) of one pair
of neighbouring output laws (Barber & Duchi, Proposition 1, Definition 8): the shared core that
:mod:`privlib.core.notions` and chapter 002's :mod:`privlib.papers.minimax` both use.

``p`` and ``q`` are the output laws of two neighbouring databases; total variation is
``sup_S |P(S) - Q(S)|``; ``gamma`` is the mass of the conditioning set."""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize

from privlib.core import _validate as v
from privlib.core import profiles

__all__ = ["min_weighted_test_error", "tradeoff_curve", "conditional_tv", "hard_chtp_sup", "soft_chtp_sup"]


def _pair(p: ArrayLike, q: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    p = v.pmf("p", p)
    q = v.pmf("q", q)
    if p.ndim != 1 or p.shape != q.shape:
        raise ValueError(f"p and q must be 1-D pmfs of the same length, got shapes {p.shape} and {q.shape}")
    return p, q


def min_weighted_test_error(p: ArrayLike, q: ArrayLike, w: ArrayLike = 1.0) -> NDArray[np.float64]:
    """``min over tests psi of P0(psi = 1) + w P1(psi = 0) = sum_z min(p(z), w q(z))``
    (the identity behind Proposition 1 and Le Cam's inequality (4)), vectorised over ``w``."""
    p, q = _pair(p, q)
    w_ = v.nonnegative("w", w)
    return np.minimum(p, w_[..., None] * q).sum(axis=-1)


def tradeoff_curve(p: ArrayLike, q: ArrayLike, type1: ArrayLike) -> NDArray[np.float64]:
    """Smallest type-II error ``P1(psi = 0)`` of a randomised test of H0: p against H1: q with
    type-I error ``P0(psi = 1) <= type1`` (Neyman-Pearson), vectorised over ``type1``."""
    p, q = _pair(p, q)
    return 1.0 - profiles.neyman_pearson_power(p, q, v.probability("type1", type1))


def conditional_tv(p: ArrayLike, q: ArrayLike, w: ArrayLike) -> NDArray[np.float64]:
    """TV distance of the soft-conditioned laws ``w p / <w, p>`` and ``w q / <w, q>``
    (Definition 8 with the set A replaced by weights in [0, 1]), vectorised over rows of ``w``."""
    p, q = _pair(p, q)
    w_ = v.probability("w", w)
    if w_.shape[-1] != p.size:
        raise ValueError(f"w must have {p.size} entries along its last axis, got {w_.shape[-1]}")
    if (w_ @ p <= 0).any() or (w_ @ q <= 0).any():
        raise ValueError("w must give positive mass under both p and q")
    return _conditional_tv(p, q, w_)


def _conditional_tv(p: NDArray[np.float64], q: NDArray[np.float64], w: NDArray[np.float64]) -> NDArray[np.float64]:
    """:func:`conditional_tv` without validation (weights of positive mass under both laws)."""
    return 0.5 * np.abs(w * p / (w @ p)[..., None] - w * q / (w @ q)[..., None]).sum(axis=-1)


def hard_chtp_sup(p: ArrayLike, q: ArrayLike, gamma: float) -> float:
    """Largest TV of the laws conditioned on a set A with ``p(A) >= gamma`` and ``q(A) > 0``
    (the level of Definition 8 for one ordered pair), by enumerating every set; 0 if none."""
    p, q = _pair(p, q)
    g = v.scalar("gamma", gamma, low=0.0, high=1.0, low_open=True)
    if p.size > 16:
        raise ValueError(f"p must have at most 16 outputs to enumerate sets, got {p.size}")
    sets = np.array(list(itertools.product((0.0, 1.0), repeat=p.size)))
    # the constraint p(A) >= gamma up to rounding of the sum, relative to gamma (an absolute
    # slack would admit sets far below a tiny gamma)
    ok = (sets @ p >= g * (1.0 - 1e-12)) & (sets @ q > 0)
    return float(conditional_tv(p, q, sets[ok]).max()) if ok.any() else 0.0


def _conditional_tv_and_gradient(p: NDArray[np.float64], q: NDArray[np.float64],
                                 w: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
    """:func:`conditional_tv` of one weight vector and its gradient in ``w`` (analytic: with
    ``A = <w, p>``, ``B = <w, q>`` and ``s`` the signs of ``w (p/A - q/B)``, the derivative in
    ``w_j`` is ``(s_j (p_j/A - q_j/B) - p_j <s w, p>/A^2 + q_j <s w, q>/B^2) / 2``)."""
    A, B = w @ p, w @ q
    diff = p / A - q / B
    s = np.sign(w * diff)
    tv = 0.5 * float(np.abs(w * diff).sum())
    grad = 0.5 * (s * diff - p * ((s * w) @ p) / A ** 2 + q * ((s * w) @ q) / B ** 2)
    return tv, grad


def soft_chtp_sup(p: ArrayLike, q: ArrayLike, gamma: float, *, grid: int = 0, restarts: int = 4) -> float:
    """``sup over w in [0,1]^m with <w, p> >= gamma`` of the conditional TV: the CHTP level of
    the channel ``(Z, U)``, U uniform, which is less informative than nothing about the sample but
    admits every soft conditioning (Definition 8's remark on inheritance). Non-convex: a grid
    search (``grid`` points per axis; default by the number of outputs) refined from the
    ``restarts`` best grid points by SLSQP with the analytic gradient."""
    p, q = _pair(p, q)
    g = v.scalar("gamma", gamma, low=0.0, high=1.0, low_open=True)
    m = p.size
    if m > 8:
        raise ValueError(f"p must have at most 8 outputs for the soft-conditioning search, got {m}")
    grid = v.integer("grid", grid, low=0, high=1001) or {1: 3, 2: 101, 3: 21, 4: 11, 5: 7, 6: 5}.get(m, 4)
    restarts = v.integer("restarts", restarts, low=0, high=1000)
    if grid < 2:
        raise ValueError(f"grid must be 0 (automatic) or at least 2 points per axis, got {grid}")
    v.power_limit("grid**m", grid, m, 10**7, "grid points")
    axis = np.linspace(0.0, 1.0, grid)
    w = np.stack(np.meshgrid(*[axis] * m, indexing="ij"), axis=-1).reshape(-1, m)
    w = w[(w @ p >= g) & (w @ q > 0) & (w.max(axis=1) == 1.0)]
    if w.size == 0:
        return hard_chtp_sup(p, q, g)
    values = _conditional_tv(p, q, w)
    best = float(values.max())
    starts = w[np.argsort(-values, kind="stable")[:restarts]]
    floor = 1e-12

    def neg(x: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        x = np.clip(x, 0.0, 1.0)
        if x @ p <= floor or x @ q <= floor:
            return 0.0, np.zeros(m)
        tv, grad = _conditional_tv_and_gradient(p, q, x)
        return -tv, -grad

    cons = [{"type": "ineq", "fun": lambda x: x @ p - g, "jac": lambda x: p},
            {"type": "ineq", "fun": lambda x: x @ q - floor, "jac": lambda x: q}]
    for x0 in starts:
        res = optimize.minimize(neg, x0, jac=True, method="SLSQP", bounds=[(0.0, 1.0)] * m, constraints=cons,
                                options={"ftol": 1e-15, "maxiter": 200})
        x = np.clip(res.x, 0.0, 1.0)
        if x @ p >= g * (1.0 - 1e-9) and x @ q > floor:   # SLSQP's slack, relative to gamma
            best = max(best, -neg(x)[0])
    return min(best, 1.0)


def _canonical_pairs(p: NDArray[np.float64], q: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The distinct pairs ``(p_i, q_i)`` up to a permutation of the outputs (every CHTP level is
    invariant under relabelling outputs): outputs sorted jointly, then duplicates dropped."""
    both = np.stack([p, q], axis=-1)  # (pairs, m, 2)
    keys = np.round(both, 14)
    order = np.lexsort((keys[..., 1], keys[..., 0]), axis=-1)
    both = np.take_along_axis(both, order[..., None], axis=1)
    return _distinct_pairs(both[..., 0], both[..., 1])


def _distinct_pairs(p: NDArray[np.float64], q: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The distinct rows of ``(p, q)`` (equal to 14 decimals), in their first order."""
    both = np.concatenate([p, q], axis=1)
    _, first = np.unique(np.round(both, 14), axis=0, return_index=True)
    both = both[np.sort(first)]
    m = p.shape[1]
    return both[:, :m], both[:, m:]
