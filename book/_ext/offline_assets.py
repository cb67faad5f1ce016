"""Sphinx extension: keep every page self-contained.

Jupyter Book 1 always loads sphinx-thebe, which injects a script naming a CDN copy of thebe
(twice per page, which also raises a JavaScript SyntaxError). The book launches notebooks in a
local JupyterLab instead of thebe, so its scripts and stylesheet are removed from every page.
"""

from __future__ import annotations


def _is_thebe(asset) -> bool:
    name = str(getattr(asset, "filename", asset) or "")
    body = str(getattr(asset, "attributes", {}).get("body", ""))
    return "thebe" in name or "THEBE_JS_URL" in body


def _strip_thebe(app, pagename, templatename, context, doctree):
    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [asset for asset in context[key] if not _is_thebe(asset)]


def setup(app):
    app.connect("html-page-context", _strip_thebe, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
