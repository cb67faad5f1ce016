"""The book's kernel-free interactive figures (privlib.book.explore) and their Sphinx extension."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from privlib import explore

ROOT = Path(__file__).resolve().parent.parent


def _curves(a, b):
    x = np.linspace(0.0, 1.0, 5)
    return {"x": x, "line": a * x + b, "level": np.float64(b)}


def _payload(html: str) -> dict:
    match = re.search(r"<script type='application/json' class='privbook-explore-data'>(.*?)</script>", html, re.S)
    assert match, "no data block"
    return json.loads(match.group(1).replace("<\\/", "</"))


def test_grid_evaluates_every_point_and_broadcasts_levels():
    g = explore.grid(_curves, {"a": [1.0, 2.0], "b": [0.0, 0.5, 1.0]})
    assert g.params == {"a": [1.0, 2.0], "b": [0.0, 0.5, 1.0]}
    assert sorted(g.points) == [(a, b) for a in (1.0, 2.0) for b in (0.0, 0.5, 1.0)]
    assert g.series == ["line", "level"]
    row = g.points[(2.0, 0.5)]
    np.testing.assert_allclose(row["line"], 2.0 * np.linspace(0, 1, 5) + 0.5)
    np.testing.assert_allclose(row["level"], np.full(5, 0.5))


@pytest.mark.parametrize("params, compute, message", [
    ({}, _curves, "at least one parameter"),
    ({"a": [1.0, 1.0], "b": [0.0]}, _curves, "distinct"),
    ({"a": [], "b": [0.0]}, _curves, "one or more"),
    ({"a": [1.0], "b": [0.0]}, lambda a, b: {"line": [1.0]}, "under 'x'"),
    ({"a": [1.0, 2.0], "b": [0.0]}, lambda a, b: {"x": [0, 1], ("p" if a == 1 else "q"): [0, 1]}, "elsewhere"),
    ({"a": [1.0], "b": [0.0]}, lambda a, b: {"x": [0, 1], "y": [0, 1, 2]}, "shape"),
])
def test_grid_refuses_what_it_cannot_draw(params, compute, message):
    with pytest.raises(ValueError, match=message):
        explore.grid(compute, params)


def test_lines_carry_every_frame_rounded_with_gaps_for_non_finite_values():
    def compute(a):
        x = np.array([0.0, 1.0, 2.0])
        return {"x": x, "y": np.array([1.0 / 3.0, np.inf, a * 123456.789])}

    e = explore.lines("demo-lines", explore.grid(compute, {"a": [1.0, 2.0]}), xlabel="x", ylabel="y", alt="demo")
    data = _payload(e.to_html())
    assert sorted(data["frames"]) == ["0", "1"]
    assert data["frames"]["1"] == {"x": [0.0, 1.0, 2.0], "y": [[0.3333, None, 246900.0]]}
    assert data["params"][0]["control"] == "slider" and data["params"][0]["labels"] == ["1", "2"]
    # one y axis for every frame, so that moving the slider shows the change
    low, high = data["figure"]["layout"]["yaxis"]["range"]
    assert low < 0.3333 and high > 246900.0
    assert "template" not in data["figure"]["layout"]
    assert e.numbers() == 12


def _named(a, b):
    return _curves(a, {"low": 0.0, "high": 1.0}[b])


def test_output_is_deterministic_and_ids_derive_from_the_name():
    g = explore.grid(_named, {"a": [1.0, 2.0], "b": ["low", "high"]})
    first = explore.lines("demo", g, xlabel="x", ylabel="y", alt="demo", start={"b": "high"}).to_html()
    again = explore.lines("demo", explore.grid(_named, {"a": [1.0, 2.0], "b": ["low", "high"]}),
                          xlabel="x", ylabel="y", alt="demo", start={"b": "high"}).to_html()
    assert first == again
    ids = re.findall(r"id='([^']+)'", first)
    assert ids == ["explore-demo", "explore-demo-0", "explore-demo-1"]
    # text values get a drop-down list, starting where asked; labels point at their controls
    assert "<select id='explore-demo-1' data-param='1'><option value='0'>low</option><option value='1' selected>" in first
    assert "<label for='explore-demo-0'>" in first and "<label for='explore-demo-1'>" in first
    bundle = explore.lines("demo", g, xlabel="x", ylabel="y", alt="demo")._repr_mimebundle_()
    assert set(bundle) == {"text/html", "text/plain"} and "HTML book" in bundle["text/plain"]


def test_data_cannot_close_its_script_element():
    g = explore.grid(lambda a: {"x": [0, 1], "</script><b>": [0, 1]}, {"a": [1.0]})
    html = explore.lines("demo", g, xlabel="x", ylabel="y", alt="demo").to_html()
    assert html.count("</script>") == 1


def test_per_frame_ranges_and_log_axes():
    g = explore.grid(_curves, {"a": [1.0, 10.0], "b": [1.0]})
    free = _payload(explore.lines("demo", g, xlabel="x", ylabel="y", alt="d", shared_y=False).to_html())
    assert "range" not in free["figure"]["layout"]["yaxis"]
    logged = _payload(explore.lines("demo", g, xlabel="x", ylabel="y", alt="d", log_y=True).to_html())
    low, high = logged["figure"]["layout"]["yaxis"]["range"]  # log10 units
    assert logged["figure"]["layout"]["yaxis"]["type"] == "log" and low < 0.0 < np.log10(11.0) < high < 1.2


def test_bars_send_only_heights():
    g = explore.grid(lambda m: {"x": [0, 1, 2], "value": [m, 2 * m, 3 * m]}, {"m": [1.0, 2.0]})
    e = explore.bars("demo-bars", g, categories=["a", "b", "c"], ylabel="v", alt="bars", y_range=(0, 7))
    data = _payload(e.to_html())
    assert data["frames"]["1"] == {"y": [[2.0, 4.0, 6.0]]}
    assert data["figure"]["data"][0]["x"] == ["a", "b", "c"]
    assert data["figure"]["layout"]["yaxis"]["range"] == [0, 7]


@pytest.mark.parametrize("kwargs, message", [
    ({"name": "Bad Name"}, "lowercase"),
    ({"start": {"a": 3.0}}, "not one of the grid's values"),
    ({"labels": {"zz": "?"}}, "unknown parameters"),
    ({"styles": {"line": "~"}}, "styles"),
])
def test_lines_refuse_bad_arguments(kwargs, message):
    g = explore.grid(_curves, {"a": [1.0, 2.0], "b": [0.0]})
    args = {"name": "demo", "xlabel": "x", "ylabel": "y", "alt": "demo", **kwargs}
    with pytest.raises(ValueError, match=message):
        explore.lines(args.pop("name"), g, **args)
    with pytest.raises(ValueError, match="explore.Grid"):
        explore.lines("demo", {(1.0, 0.0): {}}, xlabel="x", ylabel="y", alt="d")


def test_page_weight_is_bounded():
    g = explore.grid(lambda a: {"x": np.arange(20_000), "y": np.arange(20_000) * a}, {"a": [1.0, 2.0]})
    with pytest.raises(ValueError, match="more than"):
        explore.lines("demo", g, xlabel="x", ylabel="y", alt="d")


def test_extension_serves_plotly_locally_and_only_where_needed(tmp_path):
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        import explore_figures
    finally:
        sys.path.pop(0)
    js = explore_figures.plotly_js()
    assert js.stat().st_size > 1_000_000 and b"https://cdn" not in js.read_bytes()[:2000]

    class App:
        def __init__(self):
            self.js, self.css = [], []
            self.outdir = tmp_path
            self.builder = type("B", (), {"format": "html"})()

        def add_js_file(self, name, **kw):
            self.js.append(name)

        def add_css_file(self, name, **kw):
            self.css.append(name)

    app = App()
    explore_figures._add_assets(app, "intro", "page.html", {"body": "<p>no figure</p>"}, None)
    assert app.js == [] and app.css == []
    explore_figures._add_assets(app, "notebooks/x", "page.html", {"body": "<figure class='privbook-explore'>"}, None)
    assert app.js == ["plotly.min.js", "explore_figures.js"] and app.css == ["explore_figures.css"]
    explore_figures._copy_assets(app, None)
    assert sorted(p.name for p in (tmp_path / "_static").iterdir()) == \
        ["explore_figures.css", "explore_figures.js", "plotly.min.js"]
