"""Privacy loss and privacy curves (hockey-stick divergences).

A privacy curve of a pair of output distributions ``(P, Q)`` is
``delta(eps) = sup_S P(S) - e^eps Q(S) = E_P[(1 - e^(eps - L))_+]`` with ``L = log dP/dQ``
(Balle et al. 2018; Dong, Roth & Su 2022). A mechanism is (eps, delta)-DP exactly when every
neighbouring pair has ``delta(eps)`` at most ``delta``.

Closed forms here are evaluated in log-space (``log_ndtr``, ``expm1``) so that they stay accurate
for tiny and for large epsilon; ``hockey_stick`` handles any pair of discrete pmfs in
``O(n log k)`` for k epsilons by binning the privacy losses into the sorted epsilon grid.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize, special

from privlib.core import _validate as v
from privlib.core._logspace import log_ratio

__all__ = [
    "privacy_loss",
    "log_privacy_loss",
    "hockey_stick",
    "hockey_stick_rows",
    "log_hockey_stick",
    "laplace_delta",
    "gaussian_delta",
    "laplace_epsilon",
    "epsilon_for_delta",
    "gaussian_epsilon",
    "neyman_pearson_power",
]


def _loss(p: NDArray[np.float64], q: NDArray[np.float64]) -> NDArray[np.float64]:
    with np.errstate(divide="ignore"):
        return log_ratio(np.log(p), np.log(q))


def privacy_loss(p: ArrayLike, q: ArrayLike) -> NDArray[np.float64]:
    """Pointwise privacy loss ``log p(y) / q(y)`` of two pmfs (or densities) on the same outputs.

    Outputs where only ``p`` is positive have loss ``+inf``, where only ``q`` is positive
    ``-inf``; outputs where both are zero are returned as ``nan``-free ``0`` since they carry no
    mass under either distribution.
    """
    p = v.nonnegative("p", p)
    q = v.nonnegative("q", q)
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same shape, got {p.shape} and {q.shape}")
    return _loss(p, q)


def log_privacy_loss(log_p: ArrayLike, log_q: ArrayLike) -> NDArray[np.float64]:
    """:func:`privacy_loss` from log-probabilities (``-inf`` for no mass), so that losses between
    masses that underflow stay exact: ``log_p - log_q``, ``0`` where both are ``-inf``."""
    lp = v.real("log_p", log_p, finite=False)
    lq = v.real("log_q", log_q, finite=False)
    if lp.shape != lq.shape:
        raise ValueError(f"log_p and log_q must have the same shape, got {lp.shape} and {lq.shape}")
    return log_ratio(lp, lq)


def _hockey_rows_many(p: NDArray[np.float64], q: NDArray[np.float64], eps: NDArray[np.float64]) -> NDArray[np.float64]:
    """``sum_y (p - e^eps q)_+`` along the last axis for every ``e`` of the 1-D ``eps`` (a leading
    axis of the result); a difference within the rounding of ``e^eps q`` (as where
    ``p = e^eps q`` exactly) counts as no mass, and at ``eps = 0`` (``p - q`` correctly rounded)
    every positive difference does."""
    e = eps.reshape((-1,) + (1,) * p.ndim)
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = np.where(q > 0.0, np.exp(e) * q, 0.0)        # no inf * 0 where q has no mass
    diff = p - scaled
    floor = np.where(e == 0.0, 0.0, 64 * np.finfo(float).eps * p)
    return np.where(diff > floor, diff, 0.0).sum(axis=-1)


def _hockey_rows(p: NDArray[np.float64], q: NDArray[np.float64], eps: float) -> NDArray[np.float64]:
    """``_hockey_rows_many`` at one epsilon."""
    return _hockey_rows_many(p, q, np.array([eps], dtype=float))[0]


def hockey_stick_rows(p: ArrayLike, q: ArrayLike, epsilon: float) -> NDArray[np.float64]:
    """:func:`hockey_stick` of many short pairs at one epsilon: ``sum_y (p(y) - e^eps q(y))_+``
    along the last axis of ``p`` and ``q`` (pmfs on their last axis, any leading shape), in one
    vectorized pass (the neighbour pairs of a finite mechanism; :mod:`privlib.core.notions`)."""
    p = v.nonnegative("p", p)
    q = v.nonnegative("q", q)
    if p.shape != q.shape or p.ndim == 0:
        raise ValueError(f"p and q must be arrays of pmfs of the same shape, got {p.shape} and {q.shape}")
    eps = v.scalar("epsilon", epsilon, low=0.0, finite=False)
    return _hockey_rows(p, q, eps)


def log_hockey_stick(log_p: ArrayLike, log_q: ArrayLike, epsilon: ArrayLike) -> NDArray[np.float64]:
    """``log sum_y (p(y) - e^eps q(y))_+`` of one pair of pmfs given as log-probabilities (each
    ``<= 0``, log-sum-exp 0 within 1e-9), for every
    epsilon >= 0: the sum runs over the outputs whose loss ``log p/q`` exceeds epsilon, each term
    ``log p + log(1 - e^(eps - loss))``, so deltas far below the smallest double stay exact
    (``-inf`` where the divergence is 0)."""
    lp = v.real("log_p", log_p, high=0.0, finite=False)
    lq = v.real("log_q", log_q, high=0.0, finite=False)
    if lp.ndim != 1 or lp.shape != lq.shape:
        raise ValueError(f"log_p and log_q must be 1-D of the same length, got shapes {lp.shape} and {lq.shape}")
    for name, values in (("log_p", lp), ("log_q", lq)):
        total = float(special.logsumexp(values)) if values.size else -np.inf
        if not -1e-9 <= total <= 1e-9:
            raise ValueError(f"{name} must be the logs of a pmf (log-sum-exp 0), got {total:.12g}")
    eps = v.nonnegative("epsilon", epsilon)
    loss = log_ratio(lp, lq)
    # only outputs whose loss exceeds some epsilon contribute; one (epsilons x outputs) block of
    # at most ~10^6 terms at a time: O(size x outputs), no Python loop over epsilon
    keep = loss > (eps.min() if eps.size else np.inf)
    lp_k, loss_k = lp[keep], loss[keep]
    flat = eps.ravel()
    out = np.full(flat.size, -np.inf)
    if lp_k.size:
        chunk = max(1, 10**6 // lp_k.size)
        for start in range(0, flat.size, chunk):
            e = flat[start:start + chunk, None]
            with np.errstate(divide="ignore", invalid="ignore"):
                terms = np.where(loss_k > e, lp_k + np.log(-np.expm1(np.minimum(e - loss_k, 0.0))), -np.inf)
            top = terms.max(axis=1)
            safe = np.where(np.isfinite(top), top, 0.0)
            with np.errstate(divide="ignore"):
                out[start:start + chunk] = np.where(np.isfinite(top), safe + np.log(np.exp(terms - safe[:, None]).sum(axis=1)), -np.inf)
    return out.reshape(eps.shape)


def _grid_step(grid: NDArray[np.float64]) -> tuple[float, float] | None:
    """``(start, step)`` when the sorted grid is arithmetic to within 1e-12 of its step, else None."""
    if grid.size < 3 or not np.isfinite(grid[[0, -1]]).all():
        return None
    step = (grid[-1] - grid[0]) / (grid.size - 1)
    if not step > 0 or np.abs(np.diff(grid) - step).max() > 1e-12 * step:
        return None
    return float(grid[0]), float(step)


def _losses(p: NDArray[np.float64], q: NDArray[np.float64]) -> NDArray[np.float64]:
    """The privacy loss ``log(p / q)``: one division and one log; where the ratio leaves the
    normal range of doubles (or is 0/0), ``log p - log q`` (0 where both vanish)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        loss = np.divide(p, q)
        odd = np.flatnonzero(~((loss >= 1e-300) & (loss <= 1e300)))
        np.log(loss, out=loss)
        if odd.size:
            loss[odd] = np.log(p[odd]) - np.log(q[odd])
            both = odd[(p[odd] == 0) & (q[odd] == 0)]
            loss[both] = 0.0                              # no mass under either: no contribution
    return loss


def _bin_losses(grid: NDArray[np.float64], p: NDArray[np.float64],
                q: NDArray[np.float64]) -> tuple[NDArray[np.int64], list[NDArray[np.float64]]]:
    """``np.searchsorted(grid, _losses(p, q), side="left")``: the number of grid points below each
    output's privacy loss, and the float work arrays of the outputs' size left free for reuse. On an arithmetic grid (or a log-uniform one, for positive losses) the
    bin is ``ceil((loss - start) / step)`` clipped to ``[0, k]``, an O(1) formula per output,
    worked in place on one array (at 10^7 outputs a fresh array costs as much as a pass over it);
    the few losses within 1e-9 of a bin edge, where rounding could put them on the wrong side,
    are placed by ``searchsorted``. Any other grid: ``searchsorted`` (O(log k) per output).
    Where the grid stays within ``|eps| < 690`` the ratios outside the normal range of doubles
    (or 0/0) cannot fall near a grid point, so the log of the ratio is binned as it is (0/0, a
    NaN, goes to bin 0: it has no mass)."""
    k = grid.size
    arith = _grid_step(grid)
    logs = None
    if arith is None and grid.size >= 3 and grid[0] > 0 and np.isfinite(grid[-1]):
        logs = _grid_step(np.log(grid))
    if arith is None and logs is None:
        loss = _losses(p, q)
        return np.searchsorted(grid, loss, side="left"), [loss]
    if -690.0 < grid[0] and grid[-1] < 690.0:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
            t = np.divide(p, q)
            np.log(t, out=t)
    else:
        t = _losses(p, q)
    if logs is not None:                              # log-uniform: bin log(loss), losses <= 0 go to bin 0
        with np.errstate(divide="ignore", invalid="ignore"):
            np.log(t, out=t)                          # NaN for losses < 0, -inf at 0: both to bin 0
        start, step = logs
    else:
        start, step = arith
    with np.errstate(invalid="ignore"):
        t -= start
        t *= 1.0 / step
        np.fmax(t, -0.5, out=t)                       # below the grid (and NaN): bin 0, not near an edge
        np.minimum(t, k - 0.5, out=t)                 # above it: bin k
    b = np.ceil(t)
    np.subtract(b, t, out=t)                          # ceil(t) - t in [0, 1): near 0 or 1 at an edge
    t -= 0.5
    np.abs(t, out=t)
    edge = np.flatnonzero(t > 0.5 - 1e-9)
    bins = b.astype(np.int64)
    if edge.size:
        bins[edge] = np.searchsorted(grid, _losses(p[edge], q[edge]), side="left")
    return bins, [t, b]


def hockey_stick(p: ArrayLike, q: ArrayLike, epsilon: ArrayLike) -> NDArray[np.float64]:
    """Hockey-stick divergence ``sum_y max(p(y) - e^eps q(y), 0)`` of two pmfs, vectorized over
    ``epsilon`` (any real values; ``epsilon = 0`` gives the total variation distance, ``+inf``
    the mass of ``p`` where ``q`` vanishes).

    No sort of the outputs: each output's privacy loss is binned into the sorted epsilon grid
    (``O(n)`` by arithmetic on a uniform or log-uniform grid, ``O(n log k)`` otherwise, for n
    outputs and k epsilons). For each epsilon, the outputs whose loss lies
    between it and the next epsilon of the grid contribute ``(p - q) - (e^eps - 1) q`` term by
    term (each positive, so their sum does not cancel, and exact in ``p - q`` for nearly equal
    pmfs), and the outputs beyond the next epsilon contribute the same expression of their bin
    sums, which cannot cancel by more than a factor ``1 - e^(eps - eps_next)``: deltas keep their
    relative accuracy however small they are.
    """
    p = v.pmf("p", p)
    q = v.pmf("q", q)
    if p.ndim != 1 or p.shape != q.shape:
        raise ValueError(f"p and q must be 1-D pmfs of the same length, got shapes {p.shape} and {q.shape}")
    eps = v.real("epsilon", epsilon, finite=False)
    if (eps == -np.inf).any():
        raise ValueError("epsilon must be > -inf")
    grid, where = np.unique(eps.ravel(), return_inverse=True)
    k = grid.size
    # bin b holds the outputs with grid[b-1] < loss <= grid[b]; they count for grid[0..b-1]
    bins, work = _bin_losses(grid, p, q)
    # each output's own term for the largest epsilon below its loss, written
    # p - e^eps q = (p - q) - (e^eps - 1) q: p - q is exact for nearly equal p and q, and the
    # second term carries the small factor expm1(eps); bin 0 (losses below the grid) is dropped
    diff = np.subtract(p, q, out=work.pop())
    with np.errstate(over="ignore"):
        factor = np.expm1(np.concatenate(([0.0], grid)))  # inf beyond eps = 709
    exact = factor.take(bins, out=work.pop() if work else None)
    with np.errstate(invalid="ignore"):
        exact *= q                                        # inf * 0 where q vanishes: no q-term
    if np.isinf(factor).any():
        exact[q == 0] = 0.0
        huge = np.flatnonzero(np.isinf(exact))
        if huge.size:                                     # e^eps overflows but e^eps q does not
            with np.errstate(invalid="ignore"):
                exact[huge] = np.exp(np.r_[0.0, grid][bins[huge]] + np.log(q[huge])) - q[huge]
    np.subtract(diff, exact, out=exact)
    bin_near = np.bincount(bins, weights=exact, minlength=k + 1)
    bin_q = np.bincount(bins, weights=q, minlength=k + 1)
    near = bin_near[1:]
    # the outputs beyond the next epsilon, by bin sums (suffix sums from the largest losses down).
    # Where the epsilons beyond the first are >= 0 and e^eps is a double, the bin sums of p - q
    # are those of the terms plus (e^eps - 1) times those of q: two non-negative sums, so no
    # digit is lost and one pass over the outputs is saved; otherwise their own pass
    if k < 2:
        bin_d = np.zeros(k + 1)                           # no bin beyond the next epsilon
    elif grid[1] >= 0.0 and np.isfinite(factor).all():
        bin_d = bin_near + factor * bin_q
    else:
        bin_d = np.bincount(bins, weights=diff, minlength=k + 1)
    far_d = np.cumsum(bin_d[::-1])[::-1]
    far_q = np.cumsum(bin_q[::-1])[::-1]
    far_d = np.concatenate((far_d[2:], [0.0]))            # bins >= b + 2 for epsilon grid[b]
    far_q = np.concatenate((far_q[2:], [0.0]))
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        weighted = factor[1:] * far_q
        overflow = np.isinf(weighted) & (far_q > 0)
        weighted = np.where(far_q > 0, weighted, 0.0)
        weighted[overflow] = np.exp(grid[overflow] + np.log(far_q[overflow])) - far_q[overflow]
    delta = near + far_d - weighted
    if grid[-1] == np.inf:                                # the limit: mass where q vanishes
        delta[-1] = p[(q == 0) & (p > 0)].sum()
    return np.clip(delta, 0.0, 1.0)[where].reshape(eps.shape)


def laplace_delta(epsilon: ArrayLike, mechanism_epsilon: ArrayLike) -> NDArray[np.float64]:
    """Exact privacy curve of the Laplace mechanism with privacy parameter ``eps0``
    (``scale = sensitivity / eps0``): ``delta(eps) = 1 - exp((eps - eps0) / 2)`` for
    ``0 <= eps <= eps0`` and 0 beyond (e.g. Balle & Wang 2018, Sec. 2)."""
    eps = v.nonnegative("epsilon", epsilon)
    eps0 = v.positive("mechanism_epsilon", mechanism_epsilon)
    out = np.asarray(eps - eps0)         # a fresh array (0-d for scalars), worked on in place
    np.minimum(out, 0.0, out=out)
    out *= 0.5
    np.expm1(out, out=out)
    np.subtract(0.0, out, out=out)       # -expm1, with 0.0 (not -0.0) where eps >= eps0
    return out


def laplace_epsilon(delta: ArrayLike, mechanism_epsilon: ArrayLike) -> NDArray[np.float64]:
    """Inverse of :func:`laplace_delta`: the smallest epsilon with ``delta(eps) <= delta``."""
    d = v.probability("delta", delta)
    eps0 = v.positive("mechanism_epsilon", mechanism_epsilon)
    with np.errstate(divide="ignore"):
        return np.maximum(eps0 + 2.0 * np.log1p(-d), 0.0)


# Gauss-Legendre nodes and weights on [-1, 1] for the integral of the tail's log-derivative
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(12)


def _mills_excess(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """``d/dx log Phi(x) + x = phi(x) / Phi(x) + x`` (positive): directly where it does not
    cancel, by its asymptotic series ``1/t - 2/t^3 + 10/t^5 - 74/t^7`` (t = -x) below x = -100."""
    t = -x
    far = t > 100.0
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        direct = np.exp(-0.5 * x * x - 0.5 * np.log(2 * np.pi) - special.log_ndtr(x)) + x
        u = 1.0 / (t * t)
        series = (1.0 - u * (2.0 - u * (10.0 - 74.0 * u))) / t
    return np.where(far, series, direct)


def _log_gaussian_delta(eps: NDArray[np.float64], mu: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log delta(eps)`` of mu-GDP: ``log(Phi(a + h) - e^eps Phi(a - h))`` with ``a = -eps/mu``,
    ``h = mu/2``, written ``log Phi(a + h) + log(-expm1(-I))`` where
    ``I = log Phi(a + h) - log Phi(a - h) - eps``. For ``h >= 0.05`` I is that difference; for
    smaller h, where the two log-tails would cancel, ``I = int_{a-h}^{a+h} (phi/Phi(x) + x) dx``
    (the ``-x`` part integrates to ``-eps``) by 12-point Gauss-Legendre, so delta keeps its
    relative accuracy down to the smallest mu (``delta(0) = erf(mu / sqrt 8)``)."""
    eps, mu = np.broadcast_arrays(eps, mu)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        a = -eps / mu
        h = mu / 2.0
        log_a = special.log_ndtr(a + h)
        narrow = h < 0.05
        if narrow.any():
            nodes = a[narrow][..., None] + h[narrow][..., None] * _GL_NODES
            excess = np.empty(log_a.shape)
            excess[narrow] = h[narrow] * (_mills_excess(nodes) @ _GL_WEIGHTS)
            wide = ~narrow
            excess[wide] = log_a[wide] - special.log_ndtr(a[wide] - h[wide]) - eps[wide]
        else:
            excess = np.asarray(log_a - special.log_ndtr(a - h))   # an array even for scalars
            excess -= eps
        # log delta = log Phi(a + h) + log(1 - e^-excess), excess >= 0
        np.maximum(excess, 0.0, out=excess)
        np.negative(excess, out=excess)
        np.expm1(excess, out=excess)
        np.negative(excess, out=excess)
        np.log(excess, out=excess)
        excess += log_a
    # where Phi(a + h) underflows to 0 the curve is 0 (log -inf), whatever the second factor
    gone = log_a == -np.inf
    if gone.any():
        excess[gone] = -np.inf
    return excess


def gaussian_delta(epsilon: ArrayLike, mu: ArrayLike) -> NDArray[np.float64]:
    """Exact privacy curve of the Gaussian mechanism with ``mu = sensitivity / sigma``:
    ``delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)``
    (Balle & Wang 2018, Thm 8; Dong, Roth & Su 2022, Cor. 2.13)."""
    eps = v.nonnegative("epsilon", epsilon)
    mu_ = v.positive("mu", mu)
    return np.exp(_log_gaussian_delta(eps, mu_))


def epsilon_for_delta(
    curve: Callable[[float], float],
    delta: float,
    *,
    epsilon_max: float = 1e3,
    xtol: float = 1e-12,
) -> float:
    """Smallest ``eps >= 0`` with ``curve(eps) <= delta`` for a non-increasing privacy curve,
    by Brent's method; 0 when ``curve(0) <= delta``."""
    if not callable(curve):
        raise TypeError(f"curve must be a function of epsilon, got {type(curve).__name__}")
    d = v.scalar("delta", delta, low=0.0, high=1.0)
    epsilon_max = v.scalar("epsilon_max", epsilon_max, low=0.0, low_open=True)
    xtol = v.scalar("xtol", xtol, low=0.0, low_open=True)

    def at(e: float) -> float:
        value = float(np.asarray(curve(e), dtype=float).reshape(()))
        if not value >= 0.0:  # NaN included
            raise ValueError(f"curve must return a non-negative delta, got {value:g} at epsilon={e:g}")
        return value

    if at(0.0) <= d:
        return 0.0
    hi = min(1.0, epsilon_max)
    while at(hi) > d:
        if hi >= epsilon_max:
            raise ValueError(f"no epsilon <= epsilon_max={epsilon_max:g} reaches delta={d:g}")
        hi = min(2.0 * hi, epsilon_max)
    if at(hi) < d:
        return float(optimize.brentq(lambda e: at(e) - d, 0.0, hi, xtol=xtol, rtol=4 * np.finfo(float).eps))
    # the curve reaches delta exactly, and may stay there (delta = 0 beyond the curve's last
    # positive point): Brent would return any point of that flat part; bisect for its start
    lo = 0.0
    while hi - lo > xtol + 4 * np.finfo(float).eps * hi:
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if at(mid) <= d else (mid, hi)
    return float(hi)


def _gaussian_epsilon_huge_mu(target: float, mu: float) -> float:
    """:func:`gaussian_epsilon` for ``mu >= 1e4``: with ``eps = mu (mu / 2 + z)`` the curve is
    exactly ``Phi(-z) - exp(-z^2 / 2) erfcx((z + mu) / sqrt 2) / 2`` (the two huge exponents cancel
    in closed form), decreasing in z; its root lies in ``[-10, z_0 + 1]`` where
    ``Phi(-z_0) = delta`` (the curve is below ``Phi(-z)``, and at z = -10 above ``1 - 1e-22``)."""
    root2 = np.sqrt(2.0)

    def log_delta(z: float) -> float:
        tail = special.erfcx((z + mu) / root2)
        if z <= 0.0:
            return float(np.log(special.ndtr(-z) - 0.5 * np.exp(-0.5 * z * z) * tail))
        return float(-0.5 * z * z + np.log(special.erfcx(z / root2) - tail) - np.log(2.0))

    log_target = np.log(target)
    z = optimize.brentq(lambda z: log_delta(z) - log_target, -10.0, float(-special.ndtri(target)) + 1.0,
                       xtol=1e-15, rtol=4 * np.finfo(float).eps)
    return mu * (0.5 * mu + z)


def gaussian_epsilon(delta: ArrayLike, mu: float) -> NDArray[np.float64]:
    """Inverse of :func:`gaussian_delta` in epsilon, vectorized over ``delta`` in (0, 1).

    Solves ``log delta(eps) = log delta`` with Brent's method, which stays accurate for
    deltas far below machine epsilon. At most 10^4 deltas (one root search each). For
    ``mu >= 1e4``, where ``eps / mu`` and ``mu / 2`` cancel, in the exact form
    ``eps = mu (mu / 2 + z)``, ``delta = Phi(-z) - phi(z) sqrt(pi / 2) erfcx((z + mu) / sqrt 2)``;
    mu beyond about 1.9e154 is refused (epsilon, about ``mu^2 / 2``, exceeds the largest double).
    """
    d = v.probability("delta", delta, open_ends=True)
    v.size_limit("delta", d.size, 10**4, "root searches")
    mu_ = v.scalar("mu", mu, low=0.0, low_open=True)
    if mu_ >= 1e4:
        with np.errstate(over="ignore"):
            out = np.vectorize(lambda target: _gaussian_epsilon_huge_mu(target, mu_), otypes=[float])(d)
        return v.representable("mu", out, "epsilon (about mu^2 / 2)")

    def solve(target: float) -> float:
        log_target = np.log(target)

        def f(e: float) -> float:
            return float(_log_gaussian_delta(np.asarray(e), np.asarray(mu_))) - log_target

        if f(0.0) <= 0.0:
            return 0.0
        hi = max(1.0, mu_)
        while f(hi) > 0.0:
            hi *= 2.0
        return float(optimize.brentq(f, 0.0, hi, xtol=1e-13, rtol=4 * np.finfo(float).eps))

    return np.vectorize(solve, otypes=[float])(d)


def neyman_pearson_power(null: ArrayLike, alt: ArrayLike, alpha: ArrayLike) -> NDArray[np.float64]:
    """Largest power ``E_alt phi`` of a randomized test ``phi`` with level ``E_null phi <= alpha``
    between two pmfs (Neyman-Pearson lemma: outputs by decreasing likelihood ratio, the boundary
    output randomized; outputs impossible under ``null`` are rejected at no cost), vectorised over
    ``alpha``. One minus it is the trade-off curve of the pair (Dong, Roth & Su 2022)."""
    null = v.pmf("null", null)
    alt = v.pmf("alt", alt)
    if null.shape != alt.shape or null.ndim != 1:
        raise ValueError(f"null and alt must be probability vectors of the same length, got shapes {null.shape} and {alt.shape}")
    alpha = v.probability("alpha", alpha)
    free = null == 0
    pos = ~free
    with np.errstate(divide="ignore"):  # outputs impossible under alt come last
        ratio = np.log(null[pos]) - np.log(alt[pos])
    # outputs of one likelihood ratio form one straight piece of the curve: their masses are summed
    # per distinct ratio, in the outputs' own order, so no sort's order of ties reaches the result
    values, group = np.unique(ratio, return_inverse=True)
    xs = np.r_[0.0, np.cumsum(np.bincount(group, weights=null[pos], minlength=values.size))]
    ys = alt[free].sum() + np.r_[0.0, np.cumsum(np.bincount(group, weights=alt[pos], minlength=values.size))]
    return np.clip(np.interp(alpha, xs, ys), 0.0, 1.0)
