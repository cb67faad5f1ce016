"""What a claim returns: evidence (comparisons within a tolerance, inequalities with their slack,
conditions) and the number format records print. Used by :mod:`privlib.verify.claims`, which
re-exports the public names (claim modules import them from there)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike


def fmt(x: Any) -> str:
    """A number as records print it: integers in full, floats with six significant digits."""
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0.0:
        return "0"
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.6g}"


_fmt = fmt

# Test hook: a function applied to every array a check compares (see tests/test_claims.py, which
# perturbs values by a few ulps to prove that records do not depend on rounding noise).
_PERTURB: Callable[[np.ndarray], np.ndarray] | None = None

# Two compared values closer than this, relative to their size, are equal up to rounding.
_ROUNDING = 2.0**-36


def _values(values: ArrayLike) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if np.isnan(arr).any():
        raise ValueError("a claim compared a NaN: the check itself is broken")
    if _PERTURB is not None:
        arr = _PERTURB(arr)
    return arr


def _snap(x: float, resolution: float) -> float:
    """``x``, or 0 when it is below what the check resolves (a value that is rounding noise,
    such as the difference of two equal numbers, is never printed)."""
    return 0.0 if abs(x) <= resolution else x


def _scale(*arrays: np.ndarray) -> float:
    """The largest finite magnitude among the compared values."""
    finite = [np.abs(a[np.isfinite(a)]) for a in arrays]
    return max((float(f.max()) for f in finite if f.size), default=0.0)


def _first_extreme(keys: np.ndarray, largest: bool) -> int:
    """Index of the first largest (or smallest) key after rounding keys to 30 significant bits,
    so that keys equal up to rounding noise tie and the first of them wins on every machine."""
    mantissa, exponent = np.frexp(np.where(np.isfinite(keys), keys, 0.0))
    rounded = np.ldexp(np.round(mantissa * 2.0**30), exponent - 30)
    rounded = np.where(np.isfinite(keys), rounded, keys)
    return int(np.argmax(rounded) if largest else np.argmin(rounded))


@dataclass(frozen=True)
class Evidence:
    """What a claim's check found: the paper's side, the independent side, and the verdict.

    ``observed`` and ``reference`` are the values shown (for a failed check, at the worst
    element; for a passing one, at an element chosen independently of rounding noise);
    ``margin`` is the worst error (for ``==``) or the smallest slack (for ``<=``, negative when
    violated) over all ``count`` compared elements; ``tolerance`` what ``==`` allows
    (``atol + rtol |reference|`` at the shown element) or the slack ``<=`` forgives. ``parts``
    holds the checks of a combined claim (:func:`all_of`), each with its own numbers and detail.
    """

    observed: float
    reference: float
    relation: str
    margin: float
    tolerance: float
    passed: bool
    detail: str = ""
    count: int = 1
    rule: str = ""
    parts: tuple[Evidence, ...] = ()

    def comparison(self) -> str:
        """The comparison as records print it: no rounding noise, nothing machine-dependent
        when the check passes."""
        many = f"{self.count} values; " if self.count > 1 else ""
        if self.relation == "==":
            if self.passed:
                return f"{fmt(self.observed)} vs {fmt(self.reference)} ({many}every error within {self.rule})"
            return (f"{fmt(self.observed)} vs {fmt(self.reference)} ({many}worst error {fmt(self.margin)}, "
                    f"allowed {fmt(self.tolerance)})")
        if self.relation == "<=":
            slack = self.margin
            if self.passed:
                shown = "0 (equal up to rounding)" if slack == 0 else fmt(slack)
                return f"{fmt(self.observed)} <= {fmt(self.reference)} ({many}smallest slack {shown})"
            return f"{fmt(self.observed)} <= {fmt(self.reference)} violated ({many}slack {fmt(slack)})"
        if self.relation == "all":
            return "; ".join(p.comparison() for p in self.parts)
        return f"{fmt(self.observed)} / {fmt(self.reference)}" + ("" if self.passed else " (does not hold)")

    def verdict(self) -> str:
        """A short verdict for the ledger's table."""
        if self.relation == "==":
            return f"within {self.rule}" if self.passed else f"error {fmt(self.margin)} > {fmt(self.tolerance)}"
        if self.relation == "<=":
            if self.passed:
                return "tight (slack 0)" if self.margin == 0 else f"slack {fmt(self.margin)}"
            return f"violated by {fmt(-self.margin)}"
        if self.relation == "all":
            return f"{sum(p.passed for p in self.parts)}/{len(self.parts)} checks pass"
        return "holds" if self.passed else "does not hold"


def _rule(atol: ArrayLike, rtol: ArrayLike) -> str:
    """The tolerance of a comparison in words (elementwise tolerances by their largest value)."""
    a, r = np.asarray(atol, dtype=float), np.asarray(rtol, dtype=float)
    if a.size > 1 or r.size > 1:
        words = [f"{name} up to {fmt(v.max())}" if v.size > 1 else f"{name} {fmt(v)}"
                 for name, v in (("atol", a), ("rtol", r)) if v.any()]
        return " + ".join(words) + " (elementwise)"
    atol, rtol = float(a.item()), float(r.item())   # size 1, of any shape
    if atol and rtol:
        return f"atol {fmt(atol)} + rtol {fmt(rtol)}"
    return f"rtol {fmt(rtol)}" if rtol else f"atol {fmt(atol)}"


def close(observed: ArrayLike, reference: ArrayLike, *, atol: float = 0.0, rtol: float = 1e-9,
          detail: str = "") -> Evidence:
    """Evidence that ``observed`` equals ``reference`` elementwise within
    ``atol + rtol * |reference|``. A failure shows the worst element; a pass shows the element
    of largest ``|reference|`` (the first of those equal up to rounding)."""
    obs = _values(observed)
    ref = _values(reference)
    obs, ref = np.broadcast_arrays(obs, ref)
    if obs.size == 0:
        raise ValueError("a claim compared empty arrays: nothing would be checked")
    obs, ref = obs.ravel(), ref.ravel()
    with np.errstate(invalid="ignore"):
        err = np.abs(obs - ref)
        allowed = atol + rtol * np.abs(ref)
    both_inf = np.isinf(obs) & np.isinf(ref) & (np.sign(obs) == np.sign(ref))
    err = np.where(both_inf, 0.0, err)
    excess = np.where(both_inf, -1.0, err - allowed)
    passed = bool((excess <= 0).all())
    if passed:
        i = _first_extreme(np.abs(ref), largest=True)
        resolution = max(1e-3 * float(allowed[i]), _ROUNDING * _scale(ref))
        shown = _snap(float(obs[i]), resolution), _snap(float(ref[i]), resolution)
    else:
        i = int(np.argmax(excess))
        shown = float(obs[i]), float(ref[i])
    return Evidence(*shown, "==", float(err.max()), float(allowed[i]), passed, detail, obs.size, _rule(atol, rtol))


def at_most(lhs: ArrayLike, rhs: ArrayLike, *, atol: float = 1e-12, detail: str = "") -> Evidence:
    """Evidence that ``lhs <= rhs + atol`` elementwise; the margin is the smallest ``rhs - lhs``,
    negative when the inequality is violated. The element shown is the one of smallest slack
    (slacks equal up to rounding tie, and the first wins)."""
    lo = _values(lhs)
    hi = _values(rhs)
    lo, hi = np.broadcast_arrays(lo, hi)
    if lo.size == 0:
        raise ValueError("a claim compared empty arrays: nothing would be checked")
    lo, hi = lo.ravel(), hi.ravel()
    with np.errstate(invalid="ignore"):
        slack = hi - lo
    slack = np.where(np.isnan(slack), 0.0, slack)  # inf <= inf
    passed = bool((slack >= -atol).all())
    if not passed:
        i = int(np.argmin(slack))
        return Evidence(float(lo[i]), float(hi[i]), "<=", float(slack[i]), atol, False, detail, lo.size,
                        f"atol {fmt(atol)}")
    noise = _ROUNDING * _scale(lo, hi)
    shown = np.where(np.abs(slack) <= noise, 0.0, slack)
    i = _first_extreme(shown, largest=False)
    return Evidence(_snap(float(lo[i]), noise), _snap(float(hi[i]), noise), "<=", _snap(float(shown[i]), noise),
                    atol, True, detail, lo.size, f"atol {fmt(atol)}")


def holds(condition: bool, *, observed: float = 1.0, reference: float = 1.0, detail: str = "") -> Evidence:
    """Evidence for a yes/no fact (e.g. "the LP optimum is attained by the formula's mechanism").

    Prefer :func:`close` or :func:`at_most` when a number can be compared.
    """
    if not isinstance(condition, (bool, np.bool_)):
        raise TypeError(f"condition must be a bool, got {type(condition).__name__}")
    return Evidence(float(observed), float(reference), "holds", 0.0, 0.0, bool(condition), detail)


def all_of(*evidence: Evidence) -> Evidence:
    """Evidence for a claim made of several checks: it passes when every check passes. The
    record shows every check with its own numbers and its own detail; the top-level values are
    those of the first failed check (or of the last one)."""
    if not evidence:
        raise ValueError("all_of needs at least one check")
    parts: list[Evidence] = []
    for ev in evidence:
        if not isinstance(ev, Evidence):
            raise TypeError(f"all_of takes Evidence, got {type(ev).__name__}")
        parts.extend(ev.parts if ev.relation == "all" else (ev,))
    lead = next((ev for ev in parts if not ev.passed), parts[-1])
    return Evidence(lead.observed, lead.reference, "all", lead.margin, lead.tolerance,
                    all(p.passed for p in parts), "", sum(p.count for p in parts), "", tuple(parts))
