"""One figure style for the whole book.

``use_style()`` sets matplotlib's rcParams (size, fonts, a colour-blind-safe palette, grid);
``figure()`` makes a figure in that style, sized for the book's text column; ``title()`` labels
it with the paper figure it reproduces or marks it as a proposed extra; ``save()`` writes it for
batch runs.

Readable at the book's width: the book shows a figure at most :data:`BOOK_WIDTH` inches wide, so
a wider figure would be shrunk with its text. ``figure()`` therefore never makes a figure wider
than the column: a wider request is scaled down to it, and a row of more panels than fit
(:data:`MIN_PANEL_WIDTH` each) wraps onto further rows (a 1 x 3 figure becomes two rows, the third
panel centred), so every panel keeps a usable size and every text its size in points
(:func:`smallest_text` measures it as the reader sees it).

In a notebook, figures made by ``figure()`` are displayed with an ``alt`` text (``describe()``:
title and axis labels) in the output's metadata, which the book turns into the image's alt text.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import math
import os
import pickle
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.text import Text

__all__ = ["PALETTE", "BOOK_WIDTH", "MIN_PANEL_WIDTH", "MIN_FONT_SIZE", "use_style", "figure", "title",
           "describe", "smallest_text", "save"]

# Okabe & Ito's colour-blind-safe palette.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]

#: width of the book's text column in inches: the widest a figure is shown without shrinking
BOOK_WIDTH = 7.0
#: the narrowest panel (inches) before a row of panels wraps onto the next row
MIN_PANEL_WIDTH = 3.3
#: the smallest text (points, at the book's width) any figure may carry
MIN_FONT_SIZE = 8.0
_PANEL_HEIGHT = (2.3, 4.2)  # limits of a panel's height (inches) in a multi-panel figure

_STYLE = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "font.size": 10,
    "axes.titlesize": 10,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "legend.title_fontsize": 9,
    "figure.titlesize": 10,
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


def _size_arg(value: float | None, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value) or not 0.5 <= value <= 100:
        raise ValueError(f"{name} must be a number of inches in [0.5, 100], got {value!r}")
    return float(value)


def figure(nrows: int = 1, ncols: int = 1, *, width: float | None = None, height: float | None = None,
           **kwargs):
    """A new figure in the book's style, as ``plt.subplots(nrows, ncols, **kwargs)`` returns it
    (``(fig, ax)``, or an array of axes of shape ``(ncols,)``, ``(nrows,)`` or ``(nrows, ncols)``).

    ``width`` and ``height`` (inches) default to the style's size for one panel and to the
    column's width for several. A figure is never wider than :data:`BOOK_WIDTH`: a wider request is
    scaled down to it (the panels keep their proportions, within 2.3 to 4.2 inches of height), and
    when fewer than ``ncols`` panels of :data:`MIN_PANEL_WIDTH` fit in a row, each row of panels
    wraps onto further rows (the axes keep their order and indexing). ``sharex``/``sharey``
    (``True``, ``"row"``, ``"col"``) keep their meaning over the original grid.
    """
    for name, n in (("nrows", nrows), ("ncols", ncols)):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= 12:
            raise ValueError(f"{name} must be an integer in [1, 12], got {n!r}")
    width, height = _size_arg(width, "width"), _size_arg(height, "height")
    use_style()
    w0, h0 = _STYLE["figure.figsize"]
    per_row = min(ncols, max(1, int(BOOK_WIDTH // MIN_PANEL_WIDTH)))
    wraps = math.ceil(ncols / per_row)
    asked_w = width or (w0 if ncols == 1 else BOOK_WIDTH)
    fig_w = min(asked_w, BOOK_WIDTH)
    if ncols == 1 and nrows == 1 and height is None:
        fig_h = h0 * fig_w / asked_w
    else:
        panel_w_asked = asked_w / ncols
        panel_h_asked = (height / nrows) if height else min(panel_w_asked * 0.75, h0)
        panel_h = panel_h_asked * (fig_w / per_row) / panel_w_asked
        if wraps > 1 or asked_w > BOOK_WIDTH:
            panel_h = min(max(panel_h, _PANEL_HEIGHT[0]), _PANEL_HEIGHT[1])
        fig_h = panel_h * nrows * wraps
    if wraps == 1:
        fig, axes = plt.subplots(nrows, ncols, figsize=(fig_w, fig_h), layout="constrained", **kwargs)
    else:
        fig, axes = _wrapped(nrows, ncols, per_row, (fig_w, fig_h), **kwargs)
    _register_alt_text()
    return fig, axes


def _wrapped(nrows: int, ncols: int, per_row: int, size: tuple[float, float], *, sharex=False,
             sharey=False, squeeze: bool = True, subplot_kw: dict | None = None, **kwargs):
    """``nrows x ncols`` axes laid out ``per_row`` to a row (rows of fewer panels centred)."""
    if kwargs:
        raise TypeError(f"figure() with wrapped panels does not take {sorted(kwargs)}")
    wraps = math.ceil(ncols / per_row)
    fig = plt.figure(figsize=size, layout="constrained")
    grid = fig.add_gridspec(nrows * wraps, 2 * per_row)
    axes = np.empty((nrows, ncols), dtype=object)
    for r in range(nrows):
        for c in range(ncols):
            row, j = r * wraps + c // per_row, c % per_row
            in_row = min(per_row, ncols - (c // per_row) * per_row)
            left = per_row - in_row + 2 * j
            share = {}
            for axis, how in (("sharex", sharex), ("sharey", sharey)):
                first = {True: axes[0, 0], "all": axes[0, 0], "row": axes[r, 0], "col": axes[0, c]}.get(how)
                if first is not None:
                    share[axis] = first
            axes[r, c] = fig.add_subplot(grid[row, left:left + 2], **share, **(subplot_kw or {}))
            if sharey in (True, "all", "row") and j > 0:
                axes[r, c].tick_params(labelleft=False)
    # each wrapped row's first panel repeats the y label of its original row (set when drawn)
    fig._privbook_ylabel_from = {axes[r, c]: axes[r, 0] for r in range(nrows)
                                 for c in range(per_row, ncols, per_row)} if sharey else {}
    if squeeze:
        return fig, axes.item() if axes.size == 1 else axes.reshape(-1) if 1 in axes.shape else axes
    return fig, axes


def smallest_text(fig: Figure) -> float:
    """The size in points, as the reader sees it in the book, of the smallest visible text of
    ``fig`` (tick labels, legends, titles, annotations): its size scaled by how much the book
    shrinks a figure wider than :data:`BOOK_WIDTH`."""
    fig.canvas.draw()
    shrink = min(1.0, BOOK_WIDTH / fig.get_figwidth())
    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    return min(sizes, default=math.inf) * shrink


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


def _finish(fig: Figure) -> None:
    """Last touches before a figure is rendered: wrapped rows of shared-y panels get the y label."""
    for ax, source in getattr(fig, "_privbook_ylabel_from", {}).items():
        if not ax.get_ylabel() and source.get_ylabel():
            ax.set_ylabel(source.get_ylabel())


def _render(fig: Figure, target, **kwargs) -> None:
    """Write ``fig`` to ``target``, with one layout pass and one draw when it has constrained
    layout (every figure of ``figure()``). Matplotlib would otherwise draw it twice, once
    (without rendering) only to run the layout, and a tight bounding box would add a measuring
    pass; the constrained layout already keeps labels, legends and titles inside the figure, so
    the figure is written as sized. Figures without constrained layout keep the tight box (their
    margins are unknown).

    In a kernel whose environment sets ``PRIVBOOK_FIGURE_PICKLES`` (a folder; a batch run sets it),
    a figure displayed as PNG is also pickled there, named by the SHA-256 of that PNG, so a sweep's
    gallery can redraw it on axes shared across runs; a figure that cannot be pickled is skipped."""
    _finish(fig)
    engine = fig.get_layout_engine()
    if not isinstance(engine, ConstrainedLayoutEngine):
        with mpl.rc_context({"savefig.bbox": "tight"}):
            fig.savefig(target, **kwargs)
        _keep_for_gallery(fig, target, kwargs)
        return
    dpi = kwargs.get("dpi", mpl.rcParams["savefig.dpi"])
    original = fig.dpi
    try:
        fig.dpi = fig.dpi if dpi == "figure" else dpi  # the layout at the resolution written
        engine.execute(fig)
        fig.set_layout_engine("none")  # laid out: savefig's own layout draw is not needed
        with mpl.rc_context({"savefig.bbox": "standard"}):
            fig.savefig(target, **kwargs)
    finally:
        fig.set_layout_engine(engine)
        fig.dpi = original
    _keep_for_gallery(fig, target, kwargs)


def _keep_for_gallery(fig: Figure, target, kwargs: dict) -> None:
    """Pickle a figure just rendered as PNG into memory into ``$PRIVBOOK_FIGURE_PICKLES``
    (the part of ``_render`` a batch run uses; nothing happens when the variable is unset)."""
    folder = os.environ.get("PRIVBOOK_FIGURE_PICKLES")
    if not folder or kwargs.get("format") != "png" or not isinstance(target, io.BytesIO):
        return
    path = Path(folder) / f"{hashlib.sha256(target.getvalue()).hexdigest()}.pickle"
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(pickle.dumps(fig, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, path)
    except Exception:  # noqa: BLE001 - a figure that cannot be kept is shown from its PNG
        with contextlib.suppress(OSError):
            tmp.unlink()


def _png_with_alt(fig: Figure) -> tuple[bytes, dict[str, str]]:
    """The PNG shown in a notebook and the book, at the book's resolution (``figure.dpi``, the
    column's :data:`BOOK_WIDTH` inches wide), with its ``alt`` text."""
    buf = io.BytesIO()
    _render(fig, buf, format="png", dpi=mpl.rcParams["figure.dpi"])
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
    _render(fig, path, metadata={"Date": None} if path.suffix in {".svg", ".pdf"} else None)
    return path
