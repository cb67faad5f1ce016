"""The verification ledger: every claim run at its default inputs and against each of its
mutants, as Markdown (``privbook ledger``), JSON (``--json``) and the book's ledger page.

While the ledger runs one claim and its mutants, what the unmutated run computes without reaching
a mutant target is shared with the mutant runs (the references of ``claims.reference`` and, below,
the calls of the claim modules' functions)."""

from __future__ import annotations

import contextlib
import functools
import html as _html
import inspect
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from privlib.verify import claims
from privlib.verify.markup import _names_html, anchor, markdown_html

__all__ = ["LedgerEntry", "ledger", "ledger_entries", "ledger_markdown", "ledger_json"]


# --- the ledger also shares what a claim computes without its mutants' targets --------------------
# Besides the functions marked with :func:`reference`, every function of privlib's computing
# layers (core, papers) and of the claim modules (privlib.verify's chapters) that the ledger's
# unmutated run of a claim calls with storable arguments is stored with the claim's mutant targets
# that ran during the call (each target counts its calls while the unmutated run lasts), and a
# mutant run reuses the value unless its own target was among them: the same call in that mutant
# run cannot reach the mutated code, so it returns the same value. The targets themselves are
# never shared.

_shareable = claims._shareable


def _shared_functions(targets: set[int]) -> dict[int, tuple[Callable, list[tuple[Any, str]]]]:
    """Every plain function of the shared layers (not a mutant target, given by ``id`` of the
    unwrapped function, nor a :func:`reference`), with the (module, name) places that hold it."""
    found: dict[int, tuple[Callable, list[tuple[Any, str]]]] = {}
    for modname, module in list(sys.modules.items()):
        if module is None or not _shareable(modname):
            continue
        for attr, value in list(vars(module).items()):
            if (inspect.isfunction(value) and _shareable(value.__module__)
                    and not getattr(value, "is_reference", False) and not inspect.isgeneratorfunction(value)
                    and id(inspect.unwrap(value)) not in targets):
                found.setdefault(id(value), (value, []))[1].append((module, attr))
    return found


def _target_functions(c: claims.Claim) -> set[int]:
    ids = set()
    for m in c.mutants:
        raw = claims._resolve(m.target)[2]
        ids.add(id(getattr(raw, "__func__", raw)))
    return ids


#: the sharing wrapper of each shared function, made once per process (the same for every claim)
_WRAPPERS: dict[Callable, Callable] = {}


def _sharing_wrapper(func: Callable) -> Callable:
    wrapper = _WRAPPERS.get(func)
    if wrapper is None:
        name = ("call", func.__module__, func.__qualname__)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return claims._shared_call(name, func, args, kwargs)
        _WRAPPERS[func] = wrapper
    return wrapper


@contextlib.contextmanager
def _shared_calls(c: claims.Claim, *, record: bool) -> Iterator[None]:
    """Within (the ledger's runs of claim ``c``, inside ``claims._shared_references``): calls of the
    shared functions are stored (``record``, the unmutated run, while the claim's mutant targets
    count their calls) or reused (mutant runs)."""
    if claims._REFERENCES is None or not c.mutants:
        yield
        return
    patched: list[tuple[Any, str, Any]] = []
    targets = _target_functions(c)
    outer_counts = claims._TARGET_CALLS
    with contextlib.ExitStack() as stack:
        if record:
            counts = {m.target: 0 for m in c.mutants}

            def counting(target: str) -> Callable[[Callable], Callable]:
                def make(original: Callable) -> Callable:
                    @functools.wraps(original)
                    def counted(*args: Any, **kwargs: Any) -> Any:
                        counts[target] += 1
                        return original(*args, **kwargs)
                    return counted
                return make
            for target in counts:
                stack.enter_context(claims._replaced(target, counting(target)))
            claims._TARGET_CALLS = counts
        try:
            for func, places in _shared_functions(targets).values():
                wrapper = _sharing_wrapper(func)
                for module, attr in places:
                    patched.append((module, attr, func))
                    setattr(module, attr, wrapper)
            yield
        finally:
            claims._TARGET_CALLS = outer_counts
            for module, attr, func in reversed(patched):
                setattr(module, attr, func)


@dataclass(frozen=True)
class LedgerEntry:
    """One claim on the ledger: its record at default inputs and what its mutants did."""

    result: claims.ClaimResult
    mutants: tuple[claims.MutantOutcome, ...]

    @property
    def killed(self) -> int:
        return sum(m.killed for m in self.mutants)

    def mutants_text(self) -> str:
        if not self.mutants:
            return "none declared"
        return f"killed {self.killed}/{len(self.mutants)}"

    def as_json(self) -> dict[str, Any]:
        r = self.result
        return {"id": r.id, "paper": r.paper, "item": r.item, "kind": r.kind, "status": r.status,
                "checks": list(r.checks), "mutants_total": len(self.mutants), "mutants_killed": self.killed,
                "mutants": [{"target": m.target, "description": m.description, "killed": m.killed, "how": m.how}
                            for m in self.mutants],
                "verdict": r.evidence.verdict()}


def ledger_entries(paper: str | None = None, *, mutants: bool = True, shared: bool = True) -> list[LedgerEntry]:
    """Run every claim (of one paper if given) and, unless ``mutants`` is false, each of its
    mutants. ``shared=False`` recomputes everything in every run (the same verdicts, slower)."""
    entries = []
    for c in claims.registry(paper):
        if not mutants or not shared:
            entries.append(LedgerEntry(c(), tuple(c.mutation_test()) if mutants else ()))
            continue
        with claims._shared_references():  # the unmutated run stores the references its mutants reuse
            with _shared_calls(c, record=True):
                result = c()
            with _shared_calls(c, record=False):
                outcomes = tuple(c.mutation_test())
            entries.append(LedgerEntry(result, outcomes))
    return entries


def _summary_line(entries: list[LedgerEntry]) -> str:
    counts: dict[str, int] = {}
    for e in entries:
        counts[e.result.status] = counts.get(e.result.status, 0) + 1
    if not entries:
        return "no claims registered yet"
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    total = sum(len(e.mutants) for e in entries)
    killed = sum(e.killed for e in entries)
    return f"{len(entries)} claims: {summary}; mutants killed {killed}/{total}."


def _entries(results: list[claims.ClaimResult] | list[LedgerEntry] | None) -> list[LedgerEntry]:
    if results is None:
        return ledger_entries()
    return [r if isinstance(r, LedgerEntry) else LedgerEntry(r, ()) for r in results]


_HEADER = ["item", "statement", "checks", "evidence", "mutants", "status"]


def _row(e: LedgerEntry) -> list[str]:
    r = e.result
    return [f"{r.item} [{r.id}]", r.statement, ", ".join(r.checks) or "-", r.evidence.verdict(),
            e.mutants_text(), r.status]


def ledger_markdown(results: list[claims.ClaimResult] | list[LedgerEntry] | None = None) -> str:
    """The verification ledger as Markdown tables, one per chapter (``privbook ledger``)."""
    entries = _entries(results)
    out = []
    for paper, title in claims.PAPERS.items():
        rows = [e for e in entries if e.result.paper == paper]
        if not rows:
            continue
        out += [f"## {paper}: {title}", "", "| " + " | ".join(_HEADER) + " |", "|" + "---|" * len(_HEADER)]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in _row(e)) + " |" for e in rows]
        out.append("")
    return "\n".join(out) + f"\n{_summary_line(entries)}\n"


def ledger_json(results: list[LedgerEntry] | None = None) -> str:
    """The ledger as a JSON list (``privbook ledger --json``)."""
    return json.dumps([e.as_json() for e in _entries(results)], indent=1)


class _Ledger:
    """Notebook display of the ledger: one table per chapter, each claim linked to its record in
    the chapter, rows filterable by status (plain Markdown as the text fallback)."""

    def __init__(self, entries: list[LedgerEntry], link_prefix: str = "../notebooks/"):
        self.entries = entries
        self.link_prefix = link_prefix

    def __repr__(self) -> str:
        return ledger_markdown(self.entries)

    def _repr_html_(self) -> str:
        statuses = sorted({e.result.status for e in self.entries})
        buttons = "".join(f"<label class='ledger-filter'><input type='checkbox' checked data-status='{s}'> {s}</label> "
                          for s in statuses)
        parts = [f"<p class='ledger-summary'>{_html.escape(_summary_line(self.entries))}</p>",
                 f"<p class='ledger-filters'>Show: {buttons}</p>"]
        head = "".join(f"<th scope='col'>{h}</th>" for h in _HEADER)
        for paper, title in claims.PAPERS.items():
            rows = [e for e in self.entries if e.result.paper == paper]
            if not rows:
                continue
            page = f"{self.link_prefix}{claims.CHAPTERS[paper]}.html"
            body = ""
            for e in rows:
                r = e.result
                cells = _row(e)
                link = f"<a href='{page}#{anchor(r.id)}'>{markdown_html(cells[0])}</a>"
                checks = _names_html(r.checks) if r.checks else "-"
                tds = "".join(f"<td data-label='{label}'>{html}</td>" for label, html in
                              zip(_HEADER[1:-1], (markdown_html(cells[1]), checks, markdown_html(cells[3]),
                                                   _html.escape(cells[4]))))
                status = _html.escape(r.status)
                body += (f"<tr class='ledger-row' id='ledger-{anchor(r.id)}' data-status='{status}'>"
                         f"<td data-label='item'>{link}</td>{tds}"
                         f"<td data-label='status' class='claim-status claim-{status.lower()}'>{status}</td></tr>")
            parts.append(f"<h3 class='ledger-chapter'><a href='{page}'>{_html.escape(paper)}: {_html.escape(title)}</a></h3>"
                         f"<p>{_html.escape(_summary_line(rows))}</p>"
                         f"<table class='ledger tex2jax_process mathjax_process'><thead><tr>{head}</tr></thead>"
                         f"<tbody>{body}</tbody></table>")
        parts.append("<script>document.querySelectorAll('.ledger-filter input').forEach(function (box) {"
                     "box.addEventListener('change', function () {document.querySelectorAll("
                     "'.ledger-row[data-status=\"' + box.dataset.status + '\"]').forEach(function (row) {"
                     "row.style.display = box.checked ? '' : 'none';});});});</script>")
        return "".join(parts)


def ledger(paper: str | None = None) -> _Ledger:
    """Run every claim and its mutants and return the ledger for display (the book's page)."""
    return _Ledger(ledger_entries(paper))
