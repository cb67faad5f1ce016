"""Sphinx extension: an "Open in JupyterLab" header button on every chapter notebook page.

The link points at the JupyterLab server started by ``make lab`` (``privbook_lab_url``), which
serves the repository's ``notebooks/`` folder with privlib importable.
"""

from __future__ import annotations

from pathlib import PurePosixPath


def _add_button(app, pagename, templatename, context, doctree):
    if not pagename.startswith("notebooks/") or "header_buttons" not in context:
        return
    name = PurePosixPath(pagename).name + ".ipynb"
    context["header_buttons"].insert(0, {
        "type": "link",
        "url": f"{app.config.privbook_lab_url.rstrip('/')}/{name}",
        "tooltip": "Open this chapter in JupyterLab (start it with `make lab`)",
        "icon": "fas fa-flask",
        "label": "jupyterlab-button",
        "text": "JupyterLab",
    })


def setup(app):
    app.add_config_value("privbook_lab_url", "http://localhost:8888/lab/tree/notebooks", "html")
    # after sphinx-book-theme has prepared its buttons (priority 501 adds them to the page)
    app.connect("html-page-context", _add_button, priority=500)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
