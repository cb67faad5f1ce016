"""Sphinx extension: the book's interactive figures (privlib.book.explore) work without a kernel
and without another host.

One copy of plotly's own ``plotly.min.js`` (from the pinned PyPI package ``plotly``, never a CDN),
the driver ``explore_figures.js`` and its stylesheet are copied into the book's ``_static``; the
pages that hold an interactive figure (and only those) load them, deferred, as local files, so
the figures also work when the book is opened from disk (file://).
"""

from __future__ import annotations

import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
MARKER = "privbook-explore"
ASSETS = ("explore_figures.js", "explore_figures.css")


def plotly_js() -> Path:
    """plotly.js as bundled by the installed plotly package."""
    import plotly

    path = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
    if not path.is_file():
        raise FileNotFoundError(f"plotly's bundled plotly.min.js is missing ({path})")
    return path


def _add_assets(app, pagename, templatename, context, doctree):
    if MARKER not in context.get("body", ""):
        return
    # page-specific assets (Sphinx adds files registered during html-page-context to this page only)
    app.add_css_file("explore_figures.css")
    app.add_js_file("plotly.min.js", loading_method="defer", priority=600)
    app.add_js_file("explore_figures.js", loading_method="defer", priority=601)


def _copy_assets(app, exception=None):
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(plotly_js(), static / "plotly.min.js")
    for name in ASSETS:
        shutil.copyfile(HERE / name, static / name)


def setup(app):
    plotly_js()  # fail early, naming the missing file
    app.connect("html-page-context", _add_assets)
    # copied before the pages are written too, so that every page links them with Sphinx's checksum
    app.connect("builder-inited", _copy_assets)
    app.connect("build-finished", _copy_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
