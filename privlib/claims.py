"""Claims: every checkable result of the five papers, defined once.

A claim is a function decorated with :func:`claim`. It evaluates a paper's statement on concrete
inputs and compares it with an *independent* computation (brute force, exact arithmetic, a linear
program, quadrature or Monte Carlo), returning an :class:`Evidence` built with :func:`close`,
:func:`holds` or :func:`at_most`. The decorator turns that into a :class:`ClaimResult` record.

The same claim is shown in its chapter notebook (:func:`show`), run by pytest
(``tests/test_claims.py`` runs :func:`registry`), and listed on the book's verification ledger
(:func:`ledger`). Claim definitions live in the modules of :mod:`privlib.verify`, one per chapter,
which :func:`registry` imports.

Kinds of claim:

``verified``
    the paper's statement, checked numerically by an independent route;
``illustrated``
    a qualitative statement, shown by an example rather than proved numerically;
``erratum``
    the printed statement is wrong: the check confirms the *correction* (and the record's
    ``detail`` says what was printed and what holds instead).

A record's status is its kind when the check passes and ``FAILED`` otherwise.
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "Evidence",
    "ClaimResult",
    "claim",
    "close",
    "at_most",
    "holds",
    "all_of",
    "registry",
    "get",
    "run",
    "run_all",
    "show",
    "ledger",
    "ledger_markdown",
]

KINDS = ("verified", "illustrated", "erratum")
PAPERS = {
    "curves": "Privacy curves (foundations)",
    "000": "Bailie & Gong, General inferential limits under differential and Pufferfish privacy",
    "001": "Saeidian et al., Rethinking disclosure prevention with pointwise maximal leakage",
    "002": "Barber & Duchi, Privacy and statistical risk: formalisms and minimax bounds",
    "003": "Ghosh & Kleinberg, Inferential privacy guarantees for differentially private mechanisms",
    "004": "Breutigam & Reischuk, Statistical privacy",
}


def _fmt(x: float) -> str:
    """Six significant digits: stable across platforms for notebook comparisons."""
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0.0:
        return "0"
    return f"{x:.6g}"


@dataclass(frozen=True)
class Evidence:
    """What a claim's check found: the paper's side, the independent side, and the verdict.

    ``observed`` is the value the paper's statement gives (or the worst case over a grid);
    ``reference`` the independent computation; ``margin`` the worst error (for ``==``) or the
    smallest slack (for ``<=``, negative when violated).
    """

    observed: float
    reference: float
    relation: str
    margin: float
    tolerance: float
    passed: bool
    detail: str = ""


def _summary(values: ArrayLike) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if np.isnan(arr).any():
        raise ValueError("a claim compared a NaN: the check itself is broken")
    return arr


def close(observed: ArrayLike, reference: ArrayLike, *, atol: float = 0.0, rtol: float = 1e-9,
          detail: str = "") -> Evidence:
    """Evidence that ``observed`` equals ``reference`` elementwise within
    ``atol + rtol * |reference|``. The reported values are those at the worst element."""
    obs = _summary(observed)
    ref = _summary(reference)
    obs, ref = np.broadcast_arrays(obs, ref)
    if obs.size == 0:
        raise ValueError("a claim compared empty arrays: nothing would be checked")
    with np.errstate(invalid="ignore"):
        err = np.abs(obs - ref)
        allowed = atol + rtol * np.abs(ref)
    both_inf = np.isinf(obs) & np.isinf(ref) & (np.sign(obs) == np.sign(ref))
    err = np.where(both_inf, 0.0, err)
    excess = np.where(both_inf, -1.0, err - allowed)
    i = int(np.argmax(excess))
    tol = float(np.ravel(allowed)[i])
    return Evidence(float(obs.flat[i]), float(ref.flat[i]), "==", float(err.flat[i]), tol,
                    bool((excess <= 0).all()), detail)


def at_most(lhs: ArrayLike, rhs: ArrayLike, *, atol: float = 1e-12, detail: str = "") -> Evidence:
    """Evidence that ``lhs <= rhs + atol`` elementwise; the margin is the smallest ``rhs - lhs``
    (reported at that element), negative when the inequality is violated."""
    lo = _summary(lhs)
    hi = _summary(rhs)
    lo, hi = np.broadcast_arrays(lo, hi)
    if lo.size == 0:
        raise ValueError("a claim compared empty arrays: nothing would be checked")
    with np.errstate(invalid="ignore"):
        slack = hi - lo
    slack = np.where(np.isnan(slack), 0.0, slack)  # inf <= inf
    i = int(np.argmin(slack))
    return Evidence(float(lo.flat[i]), float(hi.flat[i]), "<=", float(slack.flat[i]), atol,
                    bool((slack >= -atol).all()), detail)


def holds(condition: bool, *, observed: float = 1.0, reference: float = 1.0, detail: str = "") -> Evidence:
    """Evidence for a yes/no fact (e.g. "the LP optimum is attained by the formula's mechanism").

    Prefer :func:`close` or :func:`at_most` when a number can be compared.
    """
    if not isinstance(condition, (bool, np.bool_)):
        raise TypeError(f"condition must be a bool, got {type(condition).__name__}")
    return Evidence(float(observed), float(reference), "holds", 0.0, 0.0, bool(condition), detail)


def all_of(*evidence: Evidence) -> Evidence:
    """Evidence for a claim made of several checks: the first check that failed, or else the
    last one (the record shows its values and detail)."""
    if not evidence:
        raise ValueError("all_of needs at least one check")
    return next((ev for ev in evidence if not ev.passed), evidence[-1])


@dataclass(frozen=True)
class ClaimResult:
    """The record of one run of one claim (what the ledger and the notebooks show)."""

    id: str
    paper: str
    item: str
    statement: str
    method: str
    kind: str
    inputs: Mapping[str, Any]
    evidence: Evidence
    seconds: float = field(compare=False)

    @property
    def passed(self) -> bool:
        return self.evidence.passed

    @property
    def status(self) -> str:
        return self.kind if self.passed else "FAILED"

    def _rows(self) -> list[tuple[str, str]]:
        e = self.evidence
        if e.relation == "==":
            comparison = f"{_fmt(e.observed)} vs {_fmt(e.reference)} (error {_fmt(e.margin)}, tolerance {_fmt(e.tolerance)})"
        elif e.relation == "<=":
            comparison = f"{_fmt(e.observed)} <= {_fmt(e.reference)} (slack {_fmt(e.margin)})"
        else:
            comparison = f"{_fmt(e.observed)} / {_fmt(e.reference)}"
        inputs = ", ".join(f"{k}={_fmt(x) if isinstance(x, (int, float, np.number)) else x}"
                           for k, x in self.inputs.items())
        rows = [("claim", f"{self.item} [{self.id}]"), ("statement", self.statement),
                ("method", self.method), ("inputs", inputs or "(none)"), ("comparison", comparison)]
        if e.detail:
            rows.append(("detail", e.detail))
        rows.append(("status", self.status))
        return rows

    def __str__(self) -> str:
        return "\n".join(f"{k:>10}: {val}" for k, val in self._rows())

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, Any]:
        """Text, HTML and a machine-readable record (read back by ``privbook sweep``)."""
        from privlib.results import CLAIM_MIME

        return {"text/plain": str(self), "text/html": self._repr_html_(),
                CLAIM_MIME: {"id": self.id, "item": self.item, "status": self.status}}

    def _repr_html_(self) -> str:
        import html

        body = "".join(f"<tr><th style='text-align:right'>{html.escape(k)}</th>"
                       f"<td style='text-align:left'>{html.escape(val)}</td></tr>" for k, val in self._rows())
        css = "claim-pass" if self.passed else "claim-fail"
        return f"<table class='claim {css}'>{body}</table>"

    def __repr__(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Claim:
    """A registered claim: metadata plus the check function."""

    id: str
    paper: str
    item: str
    statement: str
    method: str
    kind: str
    func: Callable[..., Evidence]

    @property
    def defaults(self) -> dict[str, Any]:
        sig = inspect.signature(self.func)
        return {k: p.default for k, p in sig.parameters.items() if p.default is not inspect.Parameter.empty}

    def __call__(self, **inputs: Any) -> ClaimResult:
        unknown = set(inputs) - set(inspect.signature(self.func).parameters)
        if unknown:
            raise TypeError(f"claim {self.id} has no input(s) {sorted(unknown)}")
        used = {**self.defaults, **inputs}
        start = time.perf_counter()
        evidence = self.func(**inputs)
        seconds = time.perf_counter() - start
        if not isinstance(evidence, Evidence):
            raise TypeError(f"claim {self.id} returned {type(evidence).__name__}, not Evidence")
        return ClaimResult(self.id, self.paper, self.item, self.statement, self.method, self.kind,
                           used, evidence, seconds)


_REGISTRY: dict[str, Claim] = {}


def claim(id: str, *, item: str, statement: str, method: str, kind: str = "verified") -> Callable:
    """Register a check function as a claim.

    ``id`` is ``"<paper>/<slug>"`` with paper one of ``curves``, ``000`` .. ``004``; ``item`` the
    paper's label ("Theorem 4.1"); ``statement`` the claim in plain words; ``method`` the
    independent route. Every keyword argument of the function must have a default: the defaults
    are the inputs the ledger runs.
    """
    paper = id.split("/", 1)[0]
    if paper not in PAPERS or "/" not in id:
        raise ValueError(f"claim id must look like '<paper>/<slug>' with paper in {sorted(PAPERS)}, got {id!r}")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")

    def register(func: Callable[..., Evidence]) -> Claim:
        params = inspect.signature(func).parameters.values()
        missing = [p.name for p in params if p.default is inspect.Parameter.empty]
        if missing:
            raise TypeError(f"claim {id}: every input needs a default, missing for {missing}")
        if id in _REGISTRY and _REGISTRY[id].func.__qualname__ != func.__qualname__:
            raise ValueError(f"claim id {id!r} is registered twice")
        c = Claim(id, paper, item, statement, method, kind, func)
        _REGISTRY[id] = c
        return c

    return register


def _load_all() -> None:
    import privlib.verify as pkg

    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        importlib.import_module(f"privlib.verify.{info.name}")


def registry(paper: str | None = None) -> list[Claim]:
    """All registered claims (of one paper if given), in paper then definition order."""
    _load_all()
    order = list(PAPERS)
    claims = sorted(_REGISTRY.values(), key=lambda c: order.index(c.paper))
    return [c for c in claims if paper is None or c.paper == paper]


def get(claim_id: str) -> Claim:
    """The claim registered under ``claim_id``."""
    _load_all()
    try:
        return _REGISTRY[claim_id]
    except KeyError:
        raise KeyError(f"no claim {claim_id!r}; known: {sorted(_REGISTRY)}") from None


def run(claim_id: str, **inputs: Any) -> ClaimResult:
    """Run one claim, with its default inputs overridden by ``inputs``."""
    return get(claim_id)(**inputs)


def run_all(paper: str | None = None) -> list[ClaimResult]:
    """Run every registered claim (of one paper if given) at its default inputs."""
    return [c() for c in registry(paper)]


def show(claim_id: str, **inputs: Any) -> ClaimResult:
    """Run a claim for display in a notebook: the returned record renders as a table."""
    return run(claim_id, **inputs)


def _ledger_rows(results: list[ClaimResult]) -> list[list[str]]:
    rows = []
    for r in results:
        e = r.evidence
        verdict = {"==": f"error {_fmt(e.margin)} (tol {_fmt(e.tolerance)})",
                   "<=": f"slack {_fmt(e.margin)}"}.get(e.relation, "holds" if e.passed else "does not hold")
        rows.append([r.id.split("/", 1)[0], r.item, r.statement, r.method, verdict, r.status])
    return rows


def _summary_line(results: list[ClaimResult]) -> str:
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "no claims registered yet"
    return f"{len(results)} claims: {summary}."


def ledger_markdown(results: list[ClaimResult] | None = None) -> str:
    """The verification ledger as a Markdown table (used by ``privbook ledger``)."""
    results = run_all() if results is None else results
    header = ["paper", "item", "statement", "method", "evidence", "status"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in _ledger_rows(results):
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
    return "\n".join(lines) + f"\n\n{_summary_line(results)}\n"


class _Ledger:
    """Notebook display of the ledger (HTML table with a plain-text fallback)."""

    def __init__(self, results: list[ClaimResult]):
        self.results = results

    def __repr__(self) -> str:
        return ledger_markdown(self.results)

    def _repr_html_(self) -> str:
        import html

        head = "".join(f"<th>{h}</th>" for h in ["paper", "item", "statement", "method", "evidence", "status"])
        body = ""
        for row in _ledger_rows(self.results):
            status = row[-1]
            cells = "".join(f"<td>{html.escape(c)}</td>" for c in row[:-1])
            body += f"<tr>{cells}<td class='claim-status claim-{html.escape(status.lower())}'>{html.escape(status)}</td></tr>"
        return (f"<p>{html.escape(_summary_line(self.results))}</p>"
                f"<table class='ledger'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def ledger(paper: str | None = None) -> _Ledger:
    """Run every claim and return a table for display (the book's verification ledger page)."""
    return _Ledger(run_all(paper))
