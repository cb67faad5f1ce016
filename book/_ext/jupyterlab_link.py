"""Sphinx extension: an "Open in JupyterLab" header button on every chapter notebook page.

The link points at the JupyterLab server started by ``make lab`` (``privbook_lab_url``): that
server's root is the repository, so ``/lab/tree/notebooks/<chapter>.ipynb`` opens the chapter with
privlib importable. ``tests/test_lab.py`` starts that server and opens a chapter through
:func:`lab_link`; ``tests/book_check.py`` checks that every rendered link names a notebook that exists.
"""

from __future__ import annotations

from pathlib import PurePosixPath

#: the default of ``privbook_lab_url``: ``make lab`` serves the repository root on this port
DEFAULT_LAB_URL = "http://localhost:8888/lab/tree"


def lab_link(lab_url: str, pagename: str) -> str:
    """The JupyterLab URL of the notebook behind the book page ``pagename`` (a path relative to the
    repository root without suffix, such as ``notebooks/004_statistical_privacy``)."""
    return f"{lab_url.rstrip('/')}/{PurePosixPath(pagename).as_posix()}.ipynb"


def _add_button(app, pagename, templatename, context, doctree):
    if not pagename.startswith("notebooks/") or "header_buttons" not in context:
        return
    context["header_buttons"].insert(0, {
        "type": "link",
        "url": lab_link(app.config.privbook_lab_url, pagename),
        "tooltip": "Open this chapter in JupyterLab (start it with `make lab`)",
        "icon": "fas fa-flask",
        "label": "jupyterlab-button",
        "text": "JupyterLab",
    })


def setup(app):
    app.add_config_value("privbook_lab_url", DEFAULT_LAB_URL, "html")
    # after sphinx-book-theme has prepared its buttons (priority 501 adds them to the page)
    app.connect("html-page-context", _add_button, priority=500)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
