"""Claims: every checkable result of the five papers, defined once.

A claim is a function decorated with :func:`claim`. It evaluates a paper's statement on concrete
inputs and compares it with an *independent* computation (brute force, exact arithmetic, a linear
program, quadrature or Monte Carlo), returning an :class:`Evidence` built with :func:`close`,
:func:`holds` or :func:`at_most` (several checks combine with :func:`all_of`). The decorator
turns that into a :class:`ClaimResult` record.

A claim must be able to fail. Each ``verified`` or ``erratum`` claim names the privlib functions
it checks and declares *mutants* with :meth:`Claim.mutant`: plausible mistakes in those functions
(a wrong constant or exponent, an off-by-one, a dropped term, a swapped direction), applied by
replacing the function under test while the claim runs. The test suite asserts that every mutant
makes its claim fail ("mutant killed"), and the ledger shows the count.

The same claim is shown in its chapter notebook (:func:`show`), run by pytest
(``tests/test_claims.py`` runs :func:`registry`), and listed on the book's verification ledger
(:mod:`privlib.verify.ledger`). Claim definitions live in the modules of :mod:`privlib.verify`, one per chapter,
which :func:`registry` imports.

Kinds of claim:

``verified``
    the paper's statement, checked numerically by an independent route;
``illustrated``
    a qualitative statement, shown by an example rather than proved numerically;
``erratum``
    the paper's statement (as printed, or as reconstructed where the text lost it) is wrong:
    the check confirms the *correction* (and the record's ``detail`` says what the paper states
    and what holds instead).

A record's status is its kind when the check passes and ``FAILED`` otherwise.

Records are the same on every machine: a passing comparison shows an element chosen without
regard to rounding noise, and never prints an error or slack that is rounding noise (numpy takes
different SIMD paths on different CPUs, so the last bits of a result vary).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import html as _html
import importlib
import inspect
import itertools
import operator
import pkgutil
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from privlib.verify import evidence as _evidence
from privlib.verify.evidence import Evidence, all_of, fmt
from privlib.verify.markup import LEDGER_PAGE, _html_text, _MarkdownTable, _names_html, anchor, markdown_html
# re-exported from here: claim modules write `from privlib.verify.claims import Evidence, claim, close, ...`

__all__ = [
    "Evidence",
    "ClaimResult",
    "Claim",
    "Mutant",
    "MutantOutcome",
    "claim",
    "reference",
    "close",
    "at_most",
    "early",
    "holds",
    "all_of",
    "fmt",
    "registry",
    "get",
    "run",
    "run_all",
    "show",
    "CHAPTERS",
    "coverage",
]

KINDS = ("verified", "illustrated", "erratum")
#: MIME type of a claim's machine-readable record in a notebook's outputs (read back by ``privbook sweep``)
CLAIM_MIME = "application/vnd.privbook.claim+json"
PAPERS = {
    "curves": "Privacy curves (foundations)",
    "000": "Bailie & Gong, General inferential limits under differential and Pufferfish privacy",
    "001": "Saeidian et al., Rethinking disclosure prevention with pointwise maximal leakage",
    "002": "Barber & Duchi, Privacy and statistical risk: formalisms and minimax bounds",
    "003": "Ghosh & Kleinberg, Inferential privacy guarantees for differentially private mechanisms",
    "004": "Breutigam & Reischuk, Statistical privacy",
    "notions": "One mechanism, five notions (across the papers)",
}
#: the chapter notebook (under ``notebooks/``, without suffix) that shows each paper's claims
CHAPTERS = {
    "curves": "privacy_curves",
    "000": "000_inferential_limits",
    "001": "001_pointwise_maximal_leakage",
    "002": "002_privacy_minimax",
    "003": "003_networked_inferential_privacy",
    "004": "004_statistical_privacy",
    "notions": "five_notions",
}




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
    checks: tuple[str, ...] = ()
    mutants: int = 0

    @property
    def passed(self) -> bool:
        return self.evidence.passed

    @property
    def status(self) -> str:
        return self.kind if self.passed else "FAILED"

    def _rows(self) -> list[tuple[str, str]]:
        e = self.evidence
        inputs = ", ".join(f"{k}={fmt(x) if isinstance(x, (int, float, np.number)) else x}"
                           for k, x in self.inputs.items())
        rows = [("claim", f"{self.item} [{self.id}]"), ("statement", self.statement),
                ("method", self.method), ("inputs", inputs or "(none)")]
        if self.checks:
            rows.append(("checks", ", ".join(self.checks) + self._mutants_note()))
        if e.relation == "all":
            for k, part in enumerate(e.parts, 1):
                rows.append((f"check {k}", part.comparison() + (f" [{part.detail}]" if part.detail else "")))
        else:
            rows.append(("comparison", e.comparison()))
            if e.detail:
                rows.append(("detail", e.detail))
        rows.append(("status", self.status))
        return rows

    def _mutants_note(self) -> str:
        return f"; {self.mutants} mutant{'s' if self.mutants != 1 else ''} (see the ledger)" if self.mutants else ""

    def __str__(self) -> str:
        return "\n".join(f"{k:>10}: {val}" for k, val in self._rows())

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, Any]:
        """Text, HTML and a machine-readable record (read back by ``privbook sweep``)."""
        return {"text/plain": str(self), "text/html": self._repr_html_(),
                CLAIM_MIME: {"id": self.id, "item": self.item, "status": self.status}}

    def _cell_html(self, key: str, value: str) -> str:
        """One field of the record as HTML: Markdown and math rendered, names linked."""
        if key == "inputs":
            return _html_text(value)
        if key == "checks":
            mutants = ""
            if self.mutants:
                link = f"<a href='{LEDGER_PAGE}#ledger-{anchor(self.id)}'>see the ledger</a>"
                mutants = f"; {self.mutants} mutant{'s' if self.mutants != 1 else ''} ({link})"
            return _names_html(self.checks) + mutants
        if key == "status":
            return f"<span class='claim-badge claim-{self.status.lower()}'>{_html.escape(self.status)}</span>"
        return markdown_html(value, checks=self.checks)

    def _repr_html_(self) -> str:
        """One line (status, item, statement) that opens to the full record."""
        body = "".join(f"<tr><th scope='row'>{_html.escape(k)}</th><td>{self._cell_html(k, val)}</td></tr>"
                       for k, val in self._rows())
        css = "claim-pass" if self.passed else "claim-fail"
        status = _html.escape(self.status)
        summary = (f"<summary><span class='claim-badge claim-{status.lower()}'>{status}</span> "
                   f"<span class='claim-item'>{markdown_html(self.item)}</span> "
                   f"<span class='claim-statement'>{markdown_html(self.statement)}</span></summary>")
        return (f"<details class='claim {css} tex2jax_process mathjax_process' id='{anchor(self.id)}'>{summary}"
                f"<table class='claim-record'>{body}</table></details>")

    def __repr__(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Mutant:
    """A plausible mistake in a function a claim checks: ``make(original)`` returns the wrong
    function that replaces ``target`` (a dotted name under ``privlib``) while the claim runs."""

    target: str
    description: str
    make: Callable[[Callable], Callable]


@dataclass(frozen=True)
class MutantOutcome:
    """What one mutant did to its claim: ``killed`` when the claim failed or raised."""

    target: str
    description: str
    killed: bool
    how: str


def _resolve(target: str) -> tuple[Any, str, Any]:
    """``(owner, attribute, raw value)`` of a dotted name under privlib, e.g.
    ``"intervals.power_bounds"`` or ``"mechanisms.LaplaceMechanism.pdf"``."""
    import privlib

    parts = target.split(".")
    obj: Any = privlib
    try:
        for name in parts[:-1]:
            obj = getattr(obj, name)  # the first part is a module's short name (privlib._HOMES)
    except AttributeError:
        obj = None
    if obj is not None and len(parts) > 1 and hasattr(obj, parts[-1]):
        raw = obj.__dict__[parts[-1]] if isinstance(obj, type) and parts[-1] in obj.__dict__ else getattr(obj, parts[-1])
        return obj, parts[-1], raw
    raise ValueError(f"mutant target {target!r} is not a function of privlib (write it as 'module.function')")


@contextlib.contextmanager
def _replaced(target: str, make: Callable[[Callable], Callable]) -> Iterator[None]:
    """Replace ``target`` by ``make(original)`` everywhere privlib refers to it (its module or
    class, and every privlib module that imported it by name), then restore it."""
    owner, name, raw = _resolve(target)
    original = raw.__func__ if isinstance(raw, (staticmethod, classmethod)) else raw
    wrong = make(original)
    if not callable(wrong):
        raise TypeError(f"mutant of {target} must return a function")
    replacement = type(raw)(wrong) if isinstance(raw, (staticmethod, classmethod)) else wrong
    patched = [(owner, name, raw)]
    if not isinstance(owner, type):
        for modname, module in list(sys.modules.items()):
            if (modname == "privlib" or modname.startswith("privlib.")) and module is not owner:
                for attr, value in list(vars(module).items()):
                    if value is raw:
                        patched.append((module, attr, value))
    try:
        for obj, attr, _ in patched:
            setattr(obj, attr, replacement)
        yield
    finally:
        for obj, attr, value in patched:
            setattr(obj, attr, value)


# --- references shared by a claim and its mutants ----------------------------------------------
# A claim's independent route (an exact sum, a high-precision series, a quadrature) does not call
# the privlib functions its mutants replace, so the ledger computes it once per claim: the first,
# unmutated run stores each value of a function marked with :func:`reference`, and the claim's
# mutant runs reuse them. The store is emptied between claims; outside the ledger it is off.
# While the unmutated run lasts, each of the claim's mutant targets counts its calls, and a value
# is stored with the targets its computation reached: a mutant run reuses it only if the target
# that mutant replaces is not among them (the same call cannot reach the mutated code), so a
# route that does call a mutated function is recomputed in that mutant's run.
_REFERENCES: dict[tuple, tuple[Any, frozenset[str]]] | None = None
#: in the ledger's unmutated run of a claim: calls so far of each of the claim's mutant targets
_TARGET_CALLS: dict[str, int] | None = None
_MUTATING = False
#: in a mutant run: the target its mutant replaces
_MUTANT_TARGET: str | None = None


#: arrays larger than this (bytes) are not stored under: keying them (two copies of their bytes per
#: call) costs about as much as the elementwise work they are passed to, and their pages fault anew
_LARGEST_KEY = 1 << 20


def _key(value: Any) -> Any:
    """A hashable stand-in for an argument (arrays by dtype, shape and bytes; floats by their
    bits, so 0.0 and -0.0 differ). The commonest arguments, numbers and strings, are tested first."""
    if isinstance(value, float):
        return ("float", value.hex())
    if value is None or isinstance(value, (bool, int, str, bytes, Fraction)):
        return (type(value).__name__, value)
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            raise TypeError("an object array is not a value a reference is stored under")
        if value.nbytes > _LARGEST_KEY:
            raise TypeError("an array this large is not a value a reference is stored under")
        return ("ndarray", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_key(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _key(v)) for k, v in value.items())))
    if isinstance(value, complex):
        return ("complex", value.real.hex(), value.imag.hex())
    if isinstance(value, np.generic):
        if value.dtype.hasobject:
            raise TypeError("an object scalar is not a value a reference is stored under")
        return ("generic", value.dtype.str, value.tobytes())
    raise TypeError(f"{type(value).__name__} is not a value a reference is stored under")  # not stored


#: the modules whose functions the ledger shares (their constants are part of every stored call's key)
_SHARED_LAYERS = ("privlib.core.", "privlib.papers.", "privlib.verify.")
_NOT_SHARED = ("privlib.verify.claims", "privlib.verify.evidence", "privlib.verify.markup",
               "privlib.verify.source_mutants", "privlib.verify.ledger",
               # argument checks and written-out densities: cheap and called most (900,000 times
               # in a ledger run), where the sharing wrapper's own cost is most of the call's
               "privlib.core._validate", "privlib.verify.densities")
#: per shared module with constants: its namespace and a getter of their values (one C call per module)
_CONSTANTS: list[tuple[dict[str, Any], Callable[[dict[str, Any]], Any]]] = []
#: per shared function (while the ledger runs one claim): [calls computed, seconds]; a function
#: whose first calls were cheap runs as written for the rest of the claim (storing costs more)
_COSTS: dict[tuple, list] = {}
_CHEAP_CALLS, _CHEAP_SECONDS = 16, 2e-4


def _shareable(modname: str) -> bool:
    return modname.startswith(_SHARED_LAYERS) and modname not in _NOT_SHARED


def _constants() -> list[tuple[dict[str, Any], Callable[[dict[str, Any]], Any]]]:
    """The plain module-level values (numbers, strings, tuples) of the shared modules: a claim
    that patches one (``mock.patch.object(statistical, "_MAX_GRID", 0)``) changes what the same
    call computes, so their identities are part of a stored call's key. Per module: its namespace
    and a getter of its constants' values."""
    found = []
    for modname, module in list(sys.modules.items()):
        if module is None or not _shareable(modname):
            continue
        names = [name for name, value in list(vars(module).items()) if not name.startswith("__")
                 and isinstance(value, (bool, int, float, complex, str, bytes, tuple, frozenset))]
        if names:
            found.append((vars(module), operator.itemgetter(*names, *names[:1])))  # always a tuple
    return found


def _constants_key() -> tuple:
    """The identities of the shared modules' constants now (a deleted constant counts as None)."""
    try:
        return tuple(map(id, itertools.chain.from_iterable(values(namespace) for namespace, values in _CONSTANTS)))
    except KeyError:
        return (object(),)  # equal to no other key: the call runs


#: values that no caller can change in place: reused as they are, not copied
_IMMUTABLE = (bool, int, float, complex, str, bytes, Fraction, type(None))


def _private_copy(value: Any) -> Any:
    """A copy of a stored value that its caller may change without changing the stored one."""
    if isinstance(value, _IMMUTABLE) or (isinstance(value, np.generic) and not value.dtype.hasobject):
        return value
    if type(value) is np.ndarray and not value.dtype.hasobject:
        return value.copy(order="K")  # what deepcopy makes of it, without its memo
    if type(value) is tuple:
        if all(isinstance(v, _IMMUTABLE) for v in value):
            return value
        if all(type(v) is np.ndarray or isinstance(v, _IMMUTABLE) for v in value) and len(set(map(id, value))) == len(value):
            return tuple(_private_copy(v) for v in value)
    return copy.deepcopy(value)


def _shared_call(name: tuple, func: Callable, args: tuple, kwargs: dict) -> Any:
    """``func(*args, **kwargs)``, stored under ``name``, the arguments and the shared modules'
    constants by the unmutated run (with the mutant targets it reached) and reused where that cannot
    differ: by later calls of the unmutated run, and by the mutant runs whose target the stored
    computation did not reach. Arguments that are not plain values (a random generator, an object)
    are not stored under: such a call always runs."""
    store, counts = _REFERENCES, _TARGET_CALLS
    if store is None:
        return func(*args, **kwargs)
    cost = _COSTS.setdefault(name, [0, 0.0])
    if cost[0] >= _CHEAP_CALLS and cost[1] < cost[0] * _CHEAP_SECONDS:
        return func(*args, **kwargs)
    try:
        arguments = (_key(args), _key(kwargs))
    except TypeError:
        return func(*args, **kwargs)
    key = (*name, _constants_key(), *arguments)
    entry = store.get(key)
    if entry is not None:
        value, reached = entry
        if not (_MUTATING and _MUTANT_TARGET in reached):
            if counts is not None and not _MUTATING:
                for target in reached:  # the enclosing calls reached these targets too
                    counts[target] += 1
            return _private_copy(value)
    start = time.perf_counter()
    if _MUTATING:  # a mutant run reads stored values, never stores one
        value = func(*args, **kwargs)
        cost[0] += 1
        cost[1] += time.perf_counter() - start
        return value
    before = dict(counts) if counts else {}
    value = func(*args, **kwargs)
    cost[0] += 1
    cost[1] += time.perf_counter() - start
    reached = frozenset(t for t, n in before.items() if counts[t] != n)
    try:
        if (_key(args), _key(kwargs)) == arguments:  # the call left its arguments as they were
            store[key] = (_private_copy(value), reached)
    except Exception:  # noqa: BLE001 - a value that cannot be copied is not stored
        pass
    return value


def reference(func: Callable) -> Callable:
    """Mark a claim module's function as part of an independent route: it does not call the
    privlib functions that the claim's mutants replace. While the ledger runs a claim and its
    mutants, each value is computed once (by the unmutated run) and reused, as a copy, by the
    mutant runs whose target it did not reach; elsewhere the function runs as written."""

    @functools.wraps(func)
    def shared(*args: Any, **kwargs: Any) -> Any:
        if _REFERENCES is None:
            return func(*args, **kwargs)
        return _shared_call((func.__module__, func.__qualname__), func, args, kwargs)

    shared.is_reference = True  # type: ignore[attr-defined]
    return shared


@contextlib.contextmanager
def _shared_references() -> Iterator[None]:
    """Within: values of :func:`reference` functions are stored and reused (one claim at a time)."""
    global _REFERENCES, _CONSTANTS, _COSTS
    outer = _REFERENCES, _CONSTANTS, _COSTS
    _REFERENCES, _CONSTANTS, _COSTS = {}, _constants(), {}
    try:
        yield
    finally:
        _REFERENCES, _CONSTANTS, _COSTS = outer


# --- a mutant run stops at its first failed check --------------------------------------------
# A mutant is killed when one check of its claim fails (``all_of`` passes only when every part
# does), so in a mutant run a failed check ends the run: the rest of the claim is not computed.
# The exception derives from BaseException so that no ``except Exception`` in a claim swallows it.


class _CheckFailed(BaseException):
    """Raised by a failed check in a mutant run (the claim has failed: the mutant is killed)."""


def _stops_mutant_runs(check: Callable[..., Evidence]) -> Callable[..., Evidence]:
    @functools.wraps(check)
    def checked(*args: Any, **kwargs: Any) -> Evidence:
        result = check(*args, **kwargs)
        if _MUTATING and not result.passed:
            raise _CheckFailed
        return result
    return checked


close = _stops_mutant_runs(_evidence.close)
at_most = _stops_mutant_runs(_evidence.at_most)
holds = _stops_mutant_runs(_evidence.holds)


def early(check: Callable[..., Evidence], *args: Any, **kwargs: Any) -> None:
    """In a mutant run, a check of the values gathered so far, so that a mutant the first values
    expose ends the run there rather than after the whole claim; elsewhere nothing (the record is
    unchanged). ``check`` is :func:`close` or :func:`at_most` with the tolerances of the claim's
    own check of those values, given a part of its elements: both compare element by element, so
    a part fails only where the whole would."""
    if _MUTATING:
        check(*args, **kwargs)


@dataclass(frozen=True)
class Claim:
    """A registered claim: metadata, the check function, and the mutants that must make it fail."""

    id: str
    paper: str
    item: str
    statement: str
    method: str
    kind: str
    func: Callable[..., Evidence]
    declared_checks: tuple[str, ...] = ()
    mutants: list[Mutant] = field(default_factory=list, compare=False)

    @property
    def defaults(self) -> dict[str, Any]:
        sig = inspect.signature(self.func)
        return {k: p.default for k, p in sig.parameters.items() if p.default is not inspect.Parameter.empty}

    @property
    def checks(self) -> tuple[str, ...]:
        """The privlib functions this claim checks (declared, and every mutant's target)."""
        return tuple(dict.fromkeys([*self.declared_checks, *(m.target for m in self.mutants)]))

    def mutant(self, target: str, description: str) -> Callable[[Callable[[Callable], Callable]], Callable]:
        """Declare a mutant: decorate a function that takes the original ``target`` and returns
        a plausibly wrong version of it. ``description`` says what the mistake is."""
        _resolve(target)

        def register(make: Callable[[Callable], Callable]) -> Callable[[Callable], Callable]:
            if any(m.description == description and m.target == target for m in self.mutants):
                raise ValueError(f"claim {self.id}: mutant {description!r} of {target} declared twice")
            self.mutants.append(Mutant(target, description, make))
            return make

        return register

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
                           used, evidence, seconds, self.checks, len(self.mutants))

    def run_mutant(self, mutant: Mutant, **inputs: Any) -> MutantOutcome:
        """Run the claim with ``mutant`` in place of its target. The mutant is killed when the
        claim fails or raises (a check that crashes on a wrong function has noticed it)."""
        global _MUTATING, _MUTANT_TARGET
        outer = _MUTATING, _MUTANT_TARGET
        _MUTATING, _MUTANT_TARGET = True, mutant.target  # a mutant run reads stored references, never stores one
        try:
            with _replaced(mutant.target, mutant.make), np.errstate(all="ignore"):
                result = self(**inputs)
        except _CheckFailed:  # a check failed: the claim fails, whatever the rest of it computes
            return MutantOutcome(mutant.target, mutant.description, True, "FAILED")
        except Exception as exc:  # noqa: BLE001 - any error of the mutated code kills the mutant
            return MutantOutcome(mutant.target, mutant.description, True, f"raised {type(exc).__name__}")
        finally:
            _MUTATING, _MUTANT_TARGET = outer
        return MutantOutcome(mutant.target, mutant.description, not result.passed,
                             "FAILED" if not result.passed else "survived")

    def mutation_test(self, **inputs: Any) -> list[MutantOutcome]:
        """Every declared mutant, run against this claim."""
        return [self.run_mutant(m, **inputs) for m in self.mutants]


_REGISTRY: dict[str, Claim] = {}


def claim(id: str, *, item: str, statement: str, method: str, kind: str = "verified",
          checks: tuple[str, ...] | list[str] = ()) -> Callable[[Callable[..., Evidence]], Claim]:
    """Register a check function as a claim.

    ``id`` is ``"<paper>/<slug>"`` with paper one of ``curves``, ``000`` .. ``004``; ``item`` the
    paper's label ("Theorem 4.1"); ``statement`` the claim in plain words (``$...$`` is rendered
    as math); ``method`` the independent route; ``checks`` privlib functions the claim checks
    besides its mutants' targets. Every keyword argument of the function must have a default:
    the defaults are the inputs the ledger runs. Declare mutants on the returned claim with
    :meth:`Claim.mutant`.
    """
    paper = id.split("/", 1)[0]
    if paper not in PAPERS or "/" not in id:
        raise ValueError(f"claim id must look like '<paper>/<slug>' with paper in {sorted(PAPERS)}, got {id!r}")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    for target in checks:
        _resolve(target)

    def register(func: Callable[..., Evidence]) -> Claim:
        params = inspect.signature(func).parameters.values()
        missing = [p.name for p in params if p.default is inspect.Parameter.empty]
        if missing:
            raise TypeError(f"claim {id}: every input needs a default, missing for {missing}")
        if id in _REGISTRY and _REGISTRY[id].func.__qualname__ != func.__qualname__:
            raise ValueError(f"claim id {id!r} is registered twice")
        c = Claim(id, paper, item, statement, method, kind, func, tuple(checks))
        _REGISTRY[id] = c
        return c

    return register


def _load_all() -> None:
    import privlib.verify as pkg

    for info in sorted(pkgutil.walk_packages(pkg.__path__, "privlib.verify."), key=lambda m: m.name):
        importlib.import_module(info.name)


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


def coverage(paper: str, items: list[tuple[str, Any]]) -> Any:
    """A chapter's closing coverage table: every numbered, checkable item of its paper with its
    status. ``items`` pairs an item label with either the ids of the claims that check it (a
    string or a list) or, for an item not checked numerically, ``("not checked", reason)``.
    Claim statuses come from the registry's kinds (the chapter has just run and shown them).
    Every claim of ``paper`` must appear, so no claim is missing from the table."""
    registered = {c.id: c for c in registry(paper)}
    named: set[str] = set()
    rows = []
    for label, what in items:
        if isinstance(what, tuple):
            status, reason = what
            rows.append([label, status, "-", reason])
            continue
        ids = [what] if isinstance(what, str) else list(what)
        unknown = [i for i in ids if i not in registered]
        if unknown:
            raise ValueError(f"coverage of {paper}: {label} names unknown claims {unknown}")
        named.update(ids)
        kinds = sorted({registered[i].kind for i in ids})
        links = ", ".join(f"<a href=\"#{anchor(i)}\">{i}</a>" for i in ids)
        rows.append([label, " + ".join(kinds), links, ""])
    missing = sorted(set(registered) - named)
    if missing:
        raise ValueError(f"coverage of {paper}: claims missing from the table: {missing}")
    return _MarkdownTable(["item", "status", "claims", "note"], rows)
