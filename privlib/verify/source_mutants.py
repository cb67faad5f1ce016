"""Declared mutants that change one piece of a function's source: a branch, a term, a boundary.

``claim.mutant(target, description)(edit(old, new))`` declares the mutant that replaces the text
``old`` (which must occur exactly once in the function's source) by ``new`` and recompiles the
function in its own module, so a mistake inside one branch of a long function is written in one
line rather than by rewriting the function or rescaling its output. The test suite checks that
every such ``old`` still occurs exactly once (tests/test_claims_domain.py), so an edit of the code
cannot silently turn a mutant into the original function.
"""

from __future__ import annotations

import __future__
import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class SourceEdit:
    """``make(original)`` for :meth:`privlib.verify.claims.Claim.mutant`: the original function
    with ``old`` replaced by ``new`` in its source."""

    old: str
    new: str

    def occurrences(self, func: Callable) -> int:
        return inspect.getsource(_plain(func)).count(self.old)

    def __call__(self, original: Callable) -> Callable:
        func = _plain(original)
        source = textwrap.dedent(inspect.getsource(func))
        if source.count(self.old) != 1:
            raise AssertionError(f"mutant edit of {func.__qualname__}: {self.old!r} occurs "
                                 f"{source.count(self.old)} times (expected once)")
        lines = source.replace(self.old, self.new).splitlines(keepends=True)
        while lines and lines[0].lstrip().startswith("@"):  # decorators were applied already
            lines.pop(0)
        namespace: dict = {}
        flags = __future__.annotations.compiler_flag if func.__globals__.get("annotations") is __future__.annotations else 0
        code = compile("".join(lines), f"<mutant of {func.__qualname__}>", "exec", flags=flags, dont_inherit=True)
        exec(code, func.__globals__, namespace)  # noqa: S102 - the project's own source, one edit
        mutated = namespace[func.__name__]
        if func.__closure__:
            raise AssertionError(f"mutant edit of {func.__qualname__}: closures are not supported")
        return mutated


def _plain(func: Callable) -> Callable:
    return getattr(func, "__func__", func)


def edit(old: str, new: str) -> SourceEdit:
    """The mutant that replaces ``old`` by ``new`` (once) in the source of the function checked."""
    return SourceEdit(old, new)
