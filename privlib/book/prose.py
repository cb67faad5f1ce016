"""Prose produced by the run: numbers and conclusions in a chapter's text come from the
computation, so a rerun with new parameters never contradicts itself.

A code cell (tagged ``remove-input`` so only its result shows) builds the sentence and returns
:func:`markdown`; the output is Markdown, which renders the same in the book (myst-nb renders
Markdown outputs as MyST, with tables, math and roles), in JupyterLab and in the executed notebooks
of ``privbook run``. Numbers go through :func:`num` (a fixed number of significant digits, integers
as integers), so the text is the same on every machine.

Example::

    ratio = lap_risk / gauss_risk
    prose.markdown(f"At these parameters Laplace noise is {prose.num(ratio, 3)} times "
                   f"{'worse' if ratio > 1 else 'better'} than Gaussian noise.")
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["Markdown", "markdown", "num", "percent", "table", "tex"]

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


class Markdown:
    """Markdown text displayed as a cell output (``text/markdown`` with a plain-text copy)."""

    def __init__(self, text: str):
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        self.text = text

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, Any]:
        return {"text/markdown": self.text, "text/plain": self.text}

    def __repr__(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


def markdown(text: str) -> Markdown:
    """Display ``text`` as Markdown (MyST in the book: admonitions, math and roles work)."""
    return Markdown(text)


def num(x: Any, digits: int = 4) -> str:
    """``x`` with ``digits`` significant digits (integers in full, no trailing zeros, no
    exponent between 1e-4 and 1e6); what prose prints for a computed number."""
    return _formatted(x, digits, latex=False)


def tex(x: Any, digits: int = 4) -> str:
    """:func:`num` for use inside ``$...$`` math: powers of ten as ``10^{-6}`` and
    ``2.5 \\times 10^{-7}`` instead of Unicode superscripts."""
    return _formatted(x, digits, latex=True)


def _formatted(x: Any, digits: int, latex: bool) -> str:
    if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) or not 1 <= digits <= 12:
        raise ValueError(f"digits must be an integer in [1, 12], got {digits!r}")
    if isinstance(x, (bool, np.bool_)):
        raise TypeError("num formats numbers, not booleans")
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    x = float(x)
    if not math.isfinite(x):
        return "∞" if x == math.inf else ("−∞" if x == -math.inf else "NaN")
    if x == 0:
        return "0"
    text = f"{x:.{digits}g}"
    if "e" in text:
        mantissa, exp = text.split("e")
        e = int(exp)
        if -4 <= e < 6:
            text = f"{x:.{max(digits - 1 - e, 0)}f}"
        else:
            power = f"10^{{{e}}}" if latex else "10" + str(e).translate(_SUPERSCRIPT)
            times = " \\times " if latex else " × "
            return power if mantissa == "1" else f"{mantissa}{times}{power}"
    return text


def percent(x: Any, digits: int = 2) -> str:
    """A fraction as a percentage with ``digits`` significant digits (``0.353 -> "35%"``)."""
    return num(100 * float(x), digits) + "%"


def table(header: list[str], rows: list[list[Any]], digits: int = 4) -> Markdown:
    """A Markdown table (numbers through :func:`num`)."""
    if not header or any(len(r) != len(header) for r in rows):
        raise ValueError("every row must have one cell per header column")

    def cell(v: Any) -> str:
        if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_)):
            return num(v, digits)
        return str(v).replace("|", "\\|")

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows]
    return Markdown("\n".join(lines))
