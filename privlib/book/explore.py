"""Figures a reader explores in the HTML book without a kernel.

A chapter computes its curves with privlib over a small grid of its parameters when the notebook
executes (:func:`grid`), and :func:`lines` or :func:`bars` turns them into an :class:`Explorer`:
a notebook output (``text/html``) holding a plotly figure, one slider or drop-down list per
parameter, and every precomputed curve as JSON. In the HTML book the Sphinx extension
``book/_ext/explore_figures.py`` serves one copy of plotly's bundled ``plotly.min.js`` and the
small driver ``explore_figures.js`` from ``_static``; the driver draws each figure and, when a
control moves, shows the curves precomputed for the new parameter values. Nothing is computed in
the browser and nothing is loaded from another host. Elsewhere (JupyterLab, nbconvert) the output
shows one line saying the figure is interactive in the HTML book; the chapter's static figure,
drawn just above it, stays the figure for print, batch runs and tests.

The output is deterministic: its element ids derive from the figure's name, numbers are written
with :data:`DIGITS` significant digits, and plotly's JSON is written with sorted keys.
"""

from __future__ import annotations

import html
import itertools
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlib.book.plotting import PALETTE

__all__ = ["DIGITS", "MAX_POINTS", "Grid", "Explorer", "grid", "lines", "bars"]

#: significant digits of every number an explorer carries (a plot needs no more)
DIGITS = 4
#: the most numbers one explorer may carry (its page weight: about 7 bytes each)
MAX_POINTS = 60_000
CSS_CLASS = "privbook-explore"
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,60}")
_DASHES = {"-": "solid", "--": "dash", ":": "dot", "-.": "dashdot"}


@dataclass
class Grid:
    """Curves precomputed over a grid: ``params`` (``{name: values}``, in order) and, at every
    point ``(value, ...)`` of their product, ``{"x": x, series: y, ...}``."""

    params: dict[str, list]
    points: dict[tuple, dict[str, np.ndarray]]

    @property
    def series(self) -> list[str]:
        return [k for k in next(iter(self.points.values())) if k != "x"]


def grid(compute: Callable[..., Mapping[str, Any]], params: Mapping[str, Sequence[Any]]) -> Grid:
    """Evaluate ``compute(**point)`` at every point of the product grid of ``params``
    (``{name: values}``, in order; values distinct).

    ``compute`` returns the abscissae under ``"x"`` and one array of ordinates per series (the
    same series, in the same order, at every point); a scalar ordinate is drawn as a horizontal
    line."""
    if not params:
        raise ValueError("params must name at least one parameter with its values")
    for name, values in params.items():
        if len(values) < 1 or len({_key(v) for v in values}) != len(values):
            raise ValueError(f"params[{name!r}] must list one or more distinct values, got {list(values)!r}")
    out: dict[tuple, dict[str, np.ndarray]] = {}
    names = list(params)
    series: list[str] | None = None
    for point in itertools.product(*(params[n] for n in names)):
        result = compute(**dict(zip(names, point)))
        if "x" not in result:
            raise ValueError("compute must return the abscissae under 'x'")
        x = np.asarray(result["x"], dtype=float)
        keys = [k for k in result if k != "x"]
        if not keys:
            raise ValueError("compute must return at least one series besides 'x'")
        if series is None:
            series = keys
        elif keys != series:
            raise ValueError(f"compute returned series {keys} at {point}, {series} elsewhere")
        row = {"x": x}
        for k in keys:
            y = np.asarray(result[k], dtype=float)
            row[k] = np.broadcast_to(y, x.shape).copy() if y.ndim == 0 else y
            if row[k].shape != x.shape:
                raise ValueError(f"series {k!r} has shape {row[k].shape} at {point}, x has {x.shape}")
        out[tuple(point)] = row
    return Grid({n: list(v) for n, v in params.items()}, out)


def _num(value: float) -> float | None:
    """A number rounded to :data:`DIGITS` significant digits (None, a gap, when not finite)."""
    value = float(value)
    if not math.isfinite(value):
        return None
    return float(f"{value:.{DIGITS}g}")


def _nums(values: np.ndarray) -> list[float | None]:
    return [_num(v) for v in np.ravel(values)]


def _label(value: Any) -> str:
    if isinstance(value, (float, np.floating)):
        return "∞" if np.isinf(value) else f"{float(value):g}"
    return str(value)


@dataclass
class Explorer:
    """An interactive figure: its plotly figure (traces and layout; the driver fills in the data
    of the controls' starting point), its controls and the data of every grid point. Displayed in
    a notebook as ``text/html`` (:meth:`to_html`) with a ``text/plain`` line."""

    name: str
    figure: dict
    params: list[dict]
    frames: dict[str, dict]
    alt: str
    caption: str = ""

    def numbers(self) -> int:
        """How many numbers the explorer carries (its page weight is about 7 bytes each)."""
        return sum(len(f.get("x", [])) + sum(map(len, f["y"])) for f in self.frames.values())

    def to_json(self) -> str:
        payload = {"figure": self.figure, "params": self.params, "frames": self.frames}
        return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)

    def to_html(self) -> str:
        """The figure's HTML: controls, the plot's container, the data and a fallback line."""
        uid = f"explore-{self.name}"
        controls = []
        for k, p in enumerate(self.params):
            cid = f"{uid}-{k}"
            labels = p["labels"]
            if p["control"] == "slider":
                control = (f"<input type='range' id='{cid}' min='0' max='{len(labels) - 1}' step='1' "
                           f"value='{p['start']}' data-param='{k}' aria-valuetext='{html.escape(labels[p['start']])}'>"
                           f"<output for='{cid}'>{html.escape(labels[p['start']])}</output>")
            else:
                options = "".join(f"<option value='{j}'{' selected' if j == p['start'] else ''}>{html.escape(v)}</option>"
                                  for j, v in enumerate(labels))
                control = f"<select id='{cid}' data-param='{k}'>{options}</select>"
            controls.append(f"<span class='{CSS_CLASS}-control'><label for='{cid}'>{html.escape(p['label'])}</label>"
                            f"{control}</span>")
        data = self.to_json().replace("</", "<\\/")
        caption = html.escape(self.caption or self.alt)
        return (f"<figure class='{CSS_CLASS}' id='{uid}'>"
                f"<div class='{CSS_CLASS}-controls' hidden>{''.join(controls)}</div>"
                f"<div class='{CSS_CLASS}-plot'></div>"
                f"<p class='{CSS_CLASS}-fallback'>The interactive version of this figure (controls: "
                f"{html.escape(', '.join(p['label'] for p in self.params))}) is shown in the HTML book.</p>"
                f"<figcaption>{caption}</figcaption>"
                f"<script type='application/json' class='{CSS_CLASS}-data'>{data}</script></figure>")

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        text = (f"Interactive figure {self.name!r} over {', '.join(p['label'] for p in self.params)} "
                f"(in the HTML book): {self.alt}")
        return {"text/html": self.to_html(), "text/plain": text}


def _check_common(name: str, data: Grid, labels: Mapping[str, str] | None, start: Mapping[str, Any] | None,
                  dropdowns: Sequence[str]) -> list[dict]:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"name must be lowercase letters, digits and '-' (at most 61), got {name!r}")
    if not isinstance(data, Grid):
        raise ValueError(f"data must be an explore.Grid (from explore.grid), got {type(data).__name__}")
    params = data.params
    labels, start = labels or {}, start or {}
    unknown = (set(labels) | set(start) | set(dropdowns)) - set(params)
    if unknown:
        raise ValueError(f"labels, start and dropdowns name unknown parameters: {sorted(unknown)}")
    controls = []
    for pname, values in params.items():
        values = list(values)
        keys = [_key(v) for v in values]
        if pname in start and _key(start[pname]) not in keys:
            raise ValueError(f"start[{pname!r}] = {start[pname]!r} is not one of the grid's values {values!r}")
        first = keys.index(_key(start[pname])) if pname in start else 0
        controls.append({"name": pname, "label": labels.get(pname, pname), "labels": [_label(v) for v in values],
                         "start": first, "control": "dropdown" if pname in dropdowns or isinstance(values[0], str)
                         else "slider"})
    return controls


def _frames(data: Grid) -> dict[str, dict]:
    frames = {}
    params, series = data.params, data.series
    index = {p: {_key(v): j for j, v in enumerate(vals)} for p, vals in params.items()}
    for point, row in data.points.items():
        key = ",".join(str(index[p][_key(v)]) for p, v in zip(params, point))
        frames[key] = {"x": _nums(row["x"]), "y": [_nums(row[s]) for s in series]}
    return frames


def _key(value: Any) -> Any:
    return float(value) if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool) else value


def _range(frames: dict[str, dict], log: bool, margin: float = 0.04) -> list[float] | None:
    values = np.array([v for f in frames.values() for ys in f["y"] for v in ys if v is not None], dtype=float)
    if log:
        values = values[values > 0]
    if values.size == 0:
        return None
    lo, hi = (np.log10(values.min()), np.log10(values.max())) if log else (values.min(), values.max())
    pad = (hi - lo) * margin or 0.5
    return [_num(lo - pad), _num(hi + pad)]


def _layout(xlabel: str, ylabel: str, title: str, log_x: bool, log_y: bool, y_range: list | None) -> dict:
    axis = {"showline": True, "linewidth": 1, "ticks": "outside", "zeroline": False, "gridcolor": "rgba(128,128,128,0.25)",
            "automargin": True}
    layout = {"xaxis": {**axis, "title": {"text": xlabel}}, "yaxis": {**axis, "title": {"text": ylabel}},
              "margin": {"l": 10, "r": 10, "t": 40 if title else 16, "b": 10}, "height": 420,
              "legend": {"orientation": "h", "y": -0.22, "yanchor": "top", "x": 0, "font": {"size": 12}},
              "font": {"size": 13, "family": "sans-serif"}, "colorway": PALETTE,
              "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "rgba(0,0,0,0)", "hovermode": "closest"}
    if title:
        layout["title"] = {"text": title, "x": 0.02, "font": {"size": 14}}
    if log_x:
        layout["xaxis"]["type"] = "log"
    if log_y:
        layout["yaxis"]["type"] = "log"
    if y_range is not None:
        layout["yaxis"]["range"] = y_range
        layout["yaxis"]["autorange"] = False
    return layout


def _figure(traces: list[dict], layout: dict) -> dict:
    """The plotly figure as JSON-ready dicts, validated by plotly's own figure classes."""
    import plotly.graph_objects as go

    fig = json.loads(go.Figure(data=traces, layout=layout).to_json(validate=True, pretty=False, engine="json"))
    fig["layout"].pop("template", None)  # plotly.py's default theme: the layout above sets what the book uses
    return fig


def lines(name: str, data: Grid, *,
          xlabel: str, ylabel: str, alt: str, title: str = "", caption: str = "", labels: Mapping[str, str] | None = None,
          start: Mapping[str, Any] | None = None, dropdowns: Sequence[str] = (), styles: Mapping[str, str] | None = None,
          log_x: bool = False, log_y: bool = False, y_range: Sequence[float] | None = None,
          shared_y: bool = True) -> Explorer:
    """An explorer of line plots of ``data`` (from :func:`grid`): one control per
    parameter (a slider for numbers, a drop-down list for text or names in ``dropdowns``), labelled
    by ``labels``, starting at ``start`` (default: each parameter's first value).

    ``styles`` maps a series to a matplotlib-like line style (``"-"``, ``"--"``, ``":"``, ``"-."``,
    or ``"o"`` for markers). The y axis is the same for every grid point (``y_range``, in log10
    units when ``log_y``; default: the data's range), so moving a control shows the change; with
    ``shared_y=False`` each grid point has its own range (for parameters that change the scale).
    """
    controls = _check_common(name, data, labels, start, dropdowns)
    series = data.series
    styles = styles or {}
    frames = _frames(data)
    traces = []
    for j, s in enumerate(series):
        style = styles.get(s, "-")
        # the driver fills in x and y from the frame of the controls' starting values
        trace = {"type": "scatter", "name": s, "x": [], "y": [],
                 "line": {"color": PALETTE[j % len(PALETTE)], "width": 2}}
        if style == "o":
            trace.update(mode="markers", marker={"size": 6, "color": PALETTE[j % len(PALETTE)]})
        else:
            if style not in _DASHES:
                raise ValueError(f"styles[{s!r}] must be one of {sorted(_DASHES) + ['o']}, got {style!r}")
            trace.update(mode="lines")
            trace["line"]["dash"] = _DASHES[style]
        traces.append(trace)
    rng = list(y_range) if y_range is not None else _range(frames, log_y) if shared_y else None
    return _checked(Explorer(name, _figure(traces, _layout(xlabel, ylabel, title, log_x, log_y, rng)), controls, frames,
                             alt, caption))


def _checked(explorer: Explorer) -> Explorer:
    if explorer.numbers() > MAX_POINTS:
        raise ValueError(f"the grid carries {explorer.numbers()} numbers, more than {MAX_POINTS}: "
                         "use fewer points or parameter values")
    return explorer


def bars(name: str, data: Grid, *,
         categories: Sequence[str], ylabel: str, alt: str, title: str = "", caption: str = "",
         labels: Mapping[str, str] | None = None, start: Mapping[str, Any] | None = None,
         dropdowns: Sequence[str] = (), y_range: Sequence[float] | None = None, colors: Sequence[str] | None = None) -> Explorer:
    """An explorer of bar charts: ``data`` from :func:`grid` whose ``"x"`` indexes ``categories``
    (the bars' names) and whose series are groups of bars; controls as for :func:`lines`."""
    controls = _check_common(name, data, labels, start, dropdowns)
    series = data.series
    frames = _frames(data)
    for f in frames.values():  # the categories never change: only the heights travel
        f.pop("x")
    traces = []
    for j, s in enumerate(series):
        color = list(colors) if colors is not None and len(series) == 1 else PALETTE[j % len(PALETTE)]
        traces.append({"type": "bar", "name": s, "x": list(categories), "y": [], "marker": {"color": color}})
    layout = _layout("", ylabel, title, False, False, list(y_range) if y_range is not None else _range(frames, False))
    layout["showlegend"] = len(series) > 1
    return _checked(Explorer(name, _figure(traces, layout), controls, frames, alt, caption))
