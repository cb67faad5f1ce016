"""Sphinx extension: where a reader opens a chapter.

A local build (``privbook build``) has an "Open in JupyterLab" header button on every chapter
notebook page. The published build (the workflow sets ``PRIVBOOK_REPOSITORY`` from
``GITHUB_REPOSITORY``, owner/name) has the theme's launch buttons instead: Binder (JupyterLab
interface, environment.yml of the repository) and Colab, and a link to the repository; a page on
the web cannot reach a reader's localhost.

The local link points at the JupyterLab server started by ``make lab`` (``privbook_lab_url``): that
server's root is the repository, so ``/lab/tree/notebooks/<chapter>.ipynb`` opens the chapter with
privlib importable. ``tests/test_lab.py`` starts that server and opens a chapter through
:func:`lab_link`; ``tests/book_check.py`` checks that every rendered link names a notebook that exists.
"""

from __future__ import annotations

import os
from pathlib import PurePosixPath

#: the default of ``privbook_lab_url``: ``make lab`` serves the repository root on this port
DEFAULT_LAB_URL = "http://localhost:8888/lab/tree"


def lab_link(lab_url: str, pagename: str) -> str:
    """The JupyterLab URL of the notebook behind the book page ``pagename`` (a path relative to the
    repository root without suffix, such as ``notebooks/004_statistical_privacy``)."""
    return f"{lab_url.rstrip('/')}/{PurePosixPath(pagename).as_posix()}.ipynb"


#: the launch services of the published book
BINDER_URL = "https://mybinder.org"
COLAB_URL = "https://colab.research.google.com"


def publish_options(repository: str, branch: str = "main") -> dict:
    """sphinx-book-theme options of the published book of GitHub repository ``repository``
    (owner/name): Binder with JupyterLab, Colab, and the repository button."""
    if repository.count("/") != 1 or not all(repository.split("/")):
        raise ValueError(f"PRIVBOOK_REPOSITORY must be owner/name, got {repository!r}")
    return {"repository_url": f"https://github.com/{repository}", "repository_branch": branch,
            "path_to_docs": "", "use_repository_button": True,
            "launch_buttons": {"notebook_interface": "jupyterlab", "binderhub_url": BINDER_URL,
                               "colab_url": COLAB_URL, "jupyterhub_url": "", "thebe": False}}


def _configure(app, config):
    repository = os.environ.get("PRIVBOOK_REPOSITORY", "").strip()
    if repository:
        config.html_theme_options = {**config.html_theme_options,
                                     **publish_options(repository, os.environ.get("PRIVBOOK_BRANCH", "main"))}
        config.privbook_lab_url = ""  # no local JupyterLab on the web


def _add_button(app, pagename, templatename, context, doctree):
    if not pagename.startswith("notebooks/") or "header_buttons" not in context or not app.config.privbook_lab_url:
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
    app.connect("config-inited", _configure)
    # after sphinx-book-theme has prepared its buttons (priority 501 adds them to the page)
    app.connect("html-page-context", _add_button, priority=500)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
