"""One figure style for the whole book.

``use_style()`` sets matplotlib's rcParams (size, fonts, a colour-blind-safe palette, grid);
``figure()`` makes a figure in that style; ``title()`` labels it with the paper figure it
reproduces or marks it as a proposed extra; ``save()`` writes it for batch runs.

In a notebook, figures made by ``figure()`` are displayed with an ``alt`` text (``describe()``:
title and axis labels) in the output's metadata, which the book turns into the image's alt text.
"""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

__all__ = ["PALETTE", "use_style", "figure", "title", "describe", "save"]

# Okabe & Ito's colour-blind-safe palette.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]

_STYLE = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "font.size": 10,
    "axes.titlesize": 10,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
    "lines.linewidth": 1.8,
    # Reproducible SVG/PDF output: no timestamps or random ids.
    "svg.hashsalt": "privbook",
    "pdf.compression": 6,
}


def use_style() -> None:
    """Apply the book's matplotlib style (idempotent)."""
    mpl.rcParams.update(_STYLE)


def figure(nrows: int = 1, ncols: int = 1, *, width: float | None = None, height: float | None = None,
           **kwargs) -> tuple[Figure, Axes | list]:
    """A new figure in the book's style; ``width``/``height`` in inches override the default."""
    use_style()
    w, h = _STYLE["figure.figsize"]
    size = (width or w * (1 if ncols == 1 else 0.75 * ncols), height or h * (1 if nrows == 1 else 0.8 * nrows))
    fig, axes = plt.subplots(nrows, ncols, figsize=size, layout="constrained", **kwargs)
    _register_alt_text()
    return fig, axes


def describe(fig: Figure) -> str:
    """A one-sentence description of a figure for screen readers: its title and each panel's
    title and axis labels."""
    parts = []
    if fig._suptitle is not None and fig._suptitle.get_text():
        parts.append(fig._suptitle.get_text())
    for ax in fig.axes:
        labels = [t for t in (ax.get_title(), ax.get_ylabel(), ax.get_xlabel()) if t]
        if len(labels) >= 2 and ax.get_xlabel() and ax.get_ylabel():
            head = f"{ax.get_title()}: " if ax.get_title() else ""
            parts.append(f"{head}{ax.get_ylabel()} against {ax.get_xlabel()}")
        elif labels:
            parts.append(", ".join(labels))
    return ". ".join(parts) or "Figure"


def _png_with_alt(fig: Figure) -> tuple[bytes, dict[str, str]]:
    buf = io.BytesIO()
    fig.canvas.print_figure(buf, format="png", bbox_inches="tight", dpi=mpl.rcParams["figure.dpi"])
    return buf.getvalue(), {"alt": describe(fig)}


def _register_alt_text() -> None:
    """In an IPython kernel, display figures as PNG with ``alt`` metadata (after the inline
    backend has registered its own formatter, which this replaces)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is not a runtime dependency
        return
    shell = get_ipython()
    if shell is None or not hasattr(shell, "display_formatter"):
        return
    shell.display_formatter.formatters["image/png"].for_type(Figure, _png_with_alt)


def title(fig: Figure, text: str, *, reproduces: str | None = None, proposed: bool = False) -> None:
    """Title a figure: ``reproduces="Figure 2 of Bailie & Gong"`` for a paper figure, or
    ``proposed=True`` for an extra figure not in the paper."""
    if (reproduces is None) == (not proposed):
        raise ValueError("title needs exactly one of reproduces=... or proposed=True")
    prefix = f"Reproduces {reproduces}" if reproduces else "Proposed figure"
    fig.suptitle(f"{prefix}: {text}", fontsize=10)


def save(fig: Figure, path: str | Path) -> Path:
    """Save ``fig`` (format from the suffix), creating the parent folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata={"Date": None} if path.suffix in {".svg", ".pdf"} else None)
    return path
