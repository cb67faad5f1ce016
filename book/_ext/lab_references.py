"""Sphinx extension: references that the book resolves and JupyterLab shows as readable text.

JupyterLab renders the chapters' Markdown with jupyterlab-myst, which resolves references only to
targets written in Markdown (headings, labelled equations) and has no bibliography: a ``{cite}``
shows a "Citation Not Found" mark and a ``{numref}`` to a figure a code cell draws (named in the
cell's ``mystnb.figure`` metadata) a "Cross Reference Not Found" mark, with an error in the
browser's console for each. A role jupyterlab-myst does not know is shown as its text, without a
mark or an error, so the chapters write

- figure references as ``{std:numref}`label```: Sphinx's own ``numref`` role under its domain's
  name (the book shows "Fig. 4.2"; JupyterLab the label, ``fig-004-pure-decay``);
- citations as ``{bibcite}`key```, defined here as sphinxcontrib-bibtex's ``cite:p`` (the book
  shows "(Bailie et al., 2024)" linked to the bibliography; JupyterLab the key, ``bailie2024general``).

References that jupyterlab-myst resolves (``{eq}`` to a labelled equation, section links) keep
their usual roles.
"""

from __future__ import annotations

from docutils.parsers.rst import roles

#: the citation role of the chapters, and the sphinxcontrib-bibtex role it stands for
CITE_ROLE, BIBTEX_ROLE = "bibcite", "cite:p"


def bibcite(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{bibcite}`key1,key2``` as ``{cite:p}`key1,key2```."""
    role, messages = roles.role(BIBTEX_ROLE, inliner.language, lineno, inliner.reporter)
    if role is None:
        error = inliner.reporter.error(f"role {BIBTEX_ROLE!r} not found (is sphinxcontrib.bibtex loaded?)", line=lineno)
        return [inliner.problematic(rawtext, rawtext, error)], [*messages, error]
    result, more = role(BIBTEX_ROLE, rawtext, text, lineno, inliner, options or {}, content or [])
    return result, [*messages, *more]


def setup(app):
    app.setup_extension("sphinxcontrib.bibtex")
    app.add_role(CITE_ROLE, bibcite)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
