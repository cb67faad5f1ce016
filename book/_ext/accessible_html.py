"""Sphinx extension: accessible markup where docutils' is not.

The bibliography (sphinxcontrib-bibtex through docutils) marks each entry of its ``role="list"``
with the deprecated DPUB-ARIA role ``doc-biblioentry``, so the list has no list items for
assistive technology (axe-core: aria-deprecated-role, aria-required-children). Each entry
becomes a ``listitem``.
"""

from __future__ import annotations


def _fix_roles(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if body and 'role="doc-biblioentry"' in body:
        context["body"] = body.replace('role="doc-biblioentry"', 'role="listitem"')


def setup(app):
    app.connect("html-page-context", _fix_roles)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
