"""How claim records are written for readers: Markdown with TeX in every field, names linked to
the API page, anchors of ledger rows, and Markdown tables. Used by :mod:`privlib.verify.claims`."""

from __future__ import annotations

import functools
import html as _html
import importlib
import re
import sys
from typing import Any



_MATH = re.compile(r"(?<![\\$])\$([^$]+)\$")

#: where the book's pages (chapters under notebooks/, the ledger under book/) find the API page
#: and the ledger
API_PAGE = "../book/api.html"
LEDGER_PAGE = "../book/ledger.html"
# a privlib name as the chapters write it: `statistical.theorem_deltas`, `profiles.laplace_delta(...)`
_NAME = re.compile(r"([a-z_]+)\.([A-Za-z_][A-Za-z0-9_]*)(?:\(.*\))?")


def _html_text(text: str) -> str:
    """Escape ``text`` for HTML and turn ``$...$`` into MathJax's inline ``\\(...\\)``."""
    return _MATH.sub(lambda m: r"\(" + m.group(1) + r"\)", _html.escape(text))


def api_target(name: str) -> str | None:
    """The id of ``name``'s entry on the API page (``"statistical.theorem_deltas"`` ->
    ``"privlib.papers.statistical.theorem_deltas"``) when it names a public function or class of a
    privlib module (short name), else None."""
    import privlib

    match = _NAME.fullmatch(name.strip())
    if not match or match.group(1) not in privlib._HOMES:
        return None
    module_name = f"privlib.{privlib._HOMES[match.group(1)]}.{match.group(1)}"
    module = sys.modules.get(module_name)
    if module is None:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            return None
    if match.group(2) not in getattr(module, "__all__", ()):
        return None
    return f"{module_name}.{match.group(2)}"


@functools.lru_cache(maxsize=1)
def _markdown():
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark", {"html": False, "typographer": False})
    # $...$ becomes MathJax's \(...\) (typeset on the page), never a literal dollar
    md.use(dollarmath_plugin, allow_space=True, allow_digits=False, double_inline=True,
           renderer=lambda content, opts: (r"\[" if opts.get("display_mode") else r"\(") + _html.escape(content)
           + (r"\]" if opts.get("display_mode") else r"\)"))

    def code_inline(renderer, tokens, idx, options, env):
        code = tokens[idx].content
        target = api_target(code)
        if target is None:  # a bare name of a function the claim checks: `theorem_deltas`
            target = next((api_target(c) for c in env.get("checks", ()) if c.rsplit(".", 1)[-1] == code), None)
        html = f"<code>{_html.escape(code)}</code>"
        return f"<a class='api-link' href='{env.get('api', API_PAGE)}#{target}'>{html}</a>" if target else html

    md.add_render_rule("code_inline", code_inline)
    return md


def markdown_html(text: str, *, api: str = API_PAGE, checks: tuple[str, ...] = ()) -> str:
    """One field of a record (Markdown with ``$...$`` math) as inline HTML: code in ``<code>``,
    privlib names in code (``statistical.theorem_deltas``, or a bare name of one of ``checks``) linked to
    their entry on the API page, math left for MathJax."""
    return _markdown().renderInline(text, {"api": api, "checks": tuple(checks)})


def _names_html(names: tuple[str, ...] | list[str], *, api: str = API_PAGE) -> str:
    """The functions a claim checks, each in code and linked to the API page where it has an entry."""
    parts = []
    for name in names:
        target = api_target(name)
        # a break opportunity after each dot, so a narrow column breaks names at their parts
        code = f"<code>{'.<wbr>'.join(_html.escape(p) for p in name.split('.'))}</code>"
        parts.append(f"<a class='api-link' href='{api}#{target}'>{code}</a>" if target else code)
    return ", ".join(parts)


def anchor(claim_id: str) -> str:
    """The HTML id of a claim's record in its chapter (the ledger links to it)."""
    return "claim-" + re.sub(r"[^a-z0-9]+", "-", claim_id.lower()).strip("-")


class _MarkdownTable:
    """A table of text cells shown as Markdown (with a plain-text copy)."""

    def __init__(self, header: list[str], rows: list[list[str]]):
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(str(cell).replace("|", "\\|") for cell in row) + " |" for row in rows]
        self.text = "\n".join(lines)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, Any]:
        return {"text/markdown": self.text, "text/plain": self.text}

    def __str__(self) -> str:
        return self.text
