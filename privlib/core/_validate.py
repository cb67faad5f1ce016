"""Argument validation shared by every privlib module.

Each helper raises ``TypeError`` for a value of the wrong kind and ``ValueError`` naming the
argument and its allowed range, so that bad input never becomes a silent NaN.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from numpy.typing import ArrayLike, NDArray


def as_float_array(name: str, value: ArrayLike, *, nan_check: bool = True) -> NDArray[np.float64]:
    """Return ``value`` as a float array, rejecting non-numeric input and (unless the caller
    checks it itself, as :func:`real` does with its minimum and maximum) NaN."""
    if isinstance(value, (str, bytes, bool, np.bool_)) or value is None:
        raise TypeError(f"{name} must be a number or an array of numbers, got {type(value).__name__}")
    if isinstance(value, np.ndarray) and value.dtype.kind not in "fiu":
        if value.dtype.kind == "b":
            raise TypeError(f"{name} must be a number or an array of numbers, got an array of booleans")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number or an array of numbers, got {_brief(value)}") from None
    # one pass: the sum is NaN if any element is NaN (or if +inf and -inf both occur)
    if nan_check and np.isnan(arr.sum()) and np.isnan(arr).any():
        raise ValueError(f"{name} must not contain NaN")
    return arr


def _real_scalar(name: str, x: float, low: float, high: float, low_open: bool, high_open: bool,
                 finite: bool) -> NDArray[np.float64]:
    """:func:`real` for a Python float or int: plain comparisons, no array passes."""
    if x != x:
        raise ValueError(f"{name} must not contain NaN")
    if finite and (x == math.inf or x == -math.inf):
        raise ValueError(f"{name} must be finite")
    if (x <= low if low_open else x < low) or (x >= high if high_open else x > high):
        raise ValueError(f"{name} must lie in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}, got {x:g}")
    return np.array(x)


def real(
    name: str,
    value: ArrayLike,
    *,
    low: float = -np.inf,
    high: float = np.inf,
    low_open: bool = False,
    high_open: bool = False,
    finite: bool = True,
) -> NDArray[np.float64]:
    """Validate that every element of ``value`` lies in the interval from ``low`` to ``high``.

    ``low_open``/``high_open`` exclude the end points. Returns a float array. One conversion and
    at most two reductions (the minimum, which is NaN if any element is, and the maximum only when
    an upper bound or finiteness is asked for); Python numbers take a path without arrays.
    """
    kind = type(value)
    if kind is float or kind is int:
        try:
            return _real_scalar(name, float(value), low, high, low_open, high_open, finite)
        except OverflowError:  # an int beyond the largest double
            raise ValueError(f"{name} must lie in [{low:g}, {high:g}], got {value}") from None
    arr = as_float_array(name, value, nan_check=False)
    if arr.size == 0:
        return arr
    lo = arr.min()
    if lo != lo:
        raise ValueError(f"{name} must not contain NaN")
    need_hi = finite or high < np.inf or high_open
    hi = arr.max() if need_hi else lo
    if need_hi and hi != hi:  # pragma: no cover - min would have been NaN
        raise ValueError(f"{name} must not contain NaN")
    if finite and (lo == -np.inf or hi == np.inf):
        raise ValueError(f"{name} must be finite")
    if (lo <= low if low_open else lo < low) or (need_hi and (hi >= high if high_open else hi > high)):
        bad = (arr <= low) if low_open else (arr < low)
        bad |= (arr >= high) if high_open else (arr > high)
        left = "(" if low_open else "["
        right = ")" if high_open else "]"
        offender = arr[bad].flat[0]
        raise ValueError(f"{name} must lie in {left}{low:g}, {high:g}{right}, got {offender:g}")
    return arr


def positive(name: str, value: ArrayLike) -> NDArray[np.float64]:
    """Validate finite, strictly positive values."""
    return real(name, value, low=0.0, low_open=True)


def nonnegative(name: str, value: ArrayLike) -> NDArray[np.float64]:
    """Validate finite, non-negative values."""
    return real(name, value, low=0.0)


def probability(name: str, value: ArrayLike, *, open_ends: bool = False) -> NDArray[np.float64]:
    """Validate values in [0, 1] (or (0, 1) with ``open_ends``)."""
    return real(name, value, low=0.0, high=1.0, low_open=open_ends, high_open=open_ends)


def integer(name: str, value: object, *, low: int | None = None, high: int | None = None) -> int:
    """Validate a Python or numpy integer (not a bool) within ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "-inf" if low is None else str(low)
        hi = "inf" if high is None else str(high)
        raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {value}")
    return value


def pmf(name: str, value: ArrayLike, *, atol: float = 1e-9) -> NDArray[np.float64]:
    """Validate a probability vector (or a stack of them along the last axis): two passes, the
    minimum (no negative entry, no NaN) and the sums (each within ``atol`` of 1, which also
    bounds every entry by 1 and rules out infinities; by ``einsum``, which sums a row at twice
    the speed of numpy's ``sum`` along the last axis, without BLAS threads)."""
    arr = as_float_array(name, value, nan_check=False)
    if arr.ndim == 0 or arr.shape[-1] == 0:
        raise ValueError(f"{name} must be a non-empty probability vector")
    lo = arr.min()
    if lo != lo:
        raise ValueError(f"{name} must not contain NaN")
    if lo < 0:
        raise ValueError(f"{name} must lie in [0, inf], got {lo:g}")
    sums = np.einsum("...i->...", arr)
    worst = np.abs(sums - 1.0).max() if sums.ndim else abs(float(sums) - 1.0)
    if not worst <= atol:
        far = np.ravel(sums)[np.argmax(np.abs(np.ravel(sums) - 1.0))]
        raise ValueError(f"{name} must sum to 1 along its last axis, got sum {far:.12g}")
    return arr


def channel(name: str, value: ArrayLike, *, atol: float = 1e-9) -> NDArray[np.float64]:
    """Validate a row-stochastic matrix (rows: inputs, columns: outputs)."""
    arr = as_float_array(name, value, nan_check=False)
    if arr.ndim != 2 or 0 in arr.shape:
        raise ValueError(f"{name} must be a non-empty 2-D row-stochastic matrix, got shape {arr.shape}")
    return pmf(name, arr, atol=atol)


def scalar(name: str, value: object, **bounds) -> float:
    """Validate one real number (not an array) with the bounds of :func:`real`."""
    kind = type(value)
    if kind is float or kind is int:
        return float(real(name, value, **bounds))
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a number, got bool")
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a single real number, got {type(value).__name__}")
    return float(real(name, value, **bounds))


def _brief(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _count(x: float | int) -> str:
    if isinstance(x, int) and x.bit_length() > 1000:
        return f"about 2^{x.bit_length() - 1}"
    return f"{float(x):.3g}"


def size_limit(name: str, elements: float | int, limit: float | int, what: str = "elements") -> None:
    """Refuse, before allocating, work that would need more than ``limit`` ``what``
    (``elements`` best given as a Python int, exact however large)."""
    if elements > limit:
        raise ValueError(f"{name} too large: it would need {_count(elements)} {what}, more than the limit {_count(limit)}")


def power_limit(name: str, base: int, exponent: int, limit: float | int, what: str = "elements") -> None:
    """:func:`size_limit` for ``base**exponent`` elements, in integers (never a float power that
    overflows), without computing a huge power: the exponent is checked against the limit's
    number of bits first."""
    base, exponent = int(base), int(exponent)
    if base <= 1 or exponent <= 0:
        return
    if (exponent * (base.bit_length() - 1)) > int(limit).bit_length():  # base**exponent > 2^bits > limit
        raise ValueError(f"{name} too large: it would need {base}**{exponent} {what}, more than the limit {_count(limit)}")
    size_limit(name, base**exponent, limit, what)


def representable(name: str, value: ArrayLike, what: str = "the value", too: str = "large") -> ArrayLike:
    """``value`` unchanged when it holds no infinity; otherwise a ValueError naming ``name``
    ("``name`` too ``too``"): the true value exceeds the largest double (about 1.8e308), so the
    argument is outside the domain where it can be returned (the caller's docstring says so)."""
    if np.isinf(np.asarray(value, dtype=float)).any():
        raise ValueError(f"{name} too {too}: {what} exceeds the largest double (1.8e308)")
    return value


def rng(name: str, value: object) -> np.random.Generator:
    """A numpy Generator from ``value``: a Generator, None (fresh entropy) or a seed, an integer
    >= 0 (not a bool)."""
    if isinstance(value, np.random.Generator):
        return value
    if value is None:
        return np.random.default_rng()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a numpy Generator, an integer seed >= 0 or None, got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be a numpy Generator, an integer seed >= 0 or None, got {value}")
    return np.random.default_rng(int(value))
