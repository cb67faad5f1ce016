"""Sphinx extension: a number in a table is never broken across lines.

On a phone a table's cells wrap anywhere (privbook.css), so that long names fit the column; a
number would break too (``0.0001`` over ``23``). Every number in a table cell (outside math and
code) is wrapped in ``<span class="privbook-number">``, which the book's CSS keeps on one line; a
table then too wide for the column scrolls sideways inside its container (the theme's
``pst-scrollable-table-container``) instead of widening the page.
"""

from __future__ import annotations

import re

from docutils import nodes

#: a number as tables print it: sign (where no letter or digit precedes it: not the hyphen of ``lemma-3``),
#: digits with decimal point or thousands commas, exponent, percent
NUMBER = re.compile(r"(?:(?<![\w.])[-\u2212+])?\d+(?:[.,]\d+)*(?:[eE][-\u2212+]?\d+)?%?")
CLASS = "privbook-number"


def split_numbers(text: str) -> list[tuple[str, bool]]:
    """``text`` as pieces (piece, is_number), in order; numbers of one character are left as text."""
    pieces, at = [], 0
    for m in NUMBER.finditer(text):
        if len(m.group(0)) < 2:
            continue
        if m.start() > at:
            pieces.append((text[at:m.start()], False))
        pieces.append((m.group(0), True))
        at = m.end()
    if at < len(text):
        pieces.append((text[at:], False))
    return pieces


def _skip(node: nodes.Node) -> bool:
    """Text inside code or math (never broken by the browser), or a number already wrapped."""
    parent = node.parent
    while parent is not None and not isinstance(parent, nodes.entry):
        if isinstance(parent, (nodes.literal, nodes.literal_block, nodes.math, nodes.raw)) \
                or CLASS in parent.get("classes", []):
            return True
        parent = parent.parent
    return False


def mark_numbers(doctree: nodes.Node) -> int:
    """Wrap every number of every table cell of ``doctree`` in an inline of class ``privbook-number``;
    the count wrapped."""
    count = 0
    for entry in list(doctree.findall(nodes.entry)):
        for text in list(entry.findall(nodes.Text)):
            if _skip(text):
                continue
            pieces = split_numbers(str(text))
            if not any(is_number for _, is_number in pieces):
                continue
            new = [nodes.inline(piece, piece, classes=[CLASS]) if is_number else nodes.Text(piece)
                   for piece, is_number in pieces]
            text.parent.replace(text, new)
            count += sum(is_number for _, is_number in pieces)
    return count


def _mark(app, doctree, docname):
    mark_numbers(doctree)


def setup(app):
    app.connect("doctree-resolved", _mark)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
