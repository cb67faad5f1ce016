"""Sphinx extension: the book's own stylesheet and script, and MathJax on every page.

- ``privbook.css`` (book/_static): code wraps instead of scrolling sideways, figures fit the
  column, the verification ledger and claim records read as tables in the theme, status colours.
- ``privbook.js``: the ledger's status filters (hide chapters left empty), and, when a page is
  opened from disk (file://), search without excerpts (a browser does not let a page read other
  files from disk, so the excerpts would fail; serve the book to get them, see "How to reproduce").
- MathJax (the offline copy) is loaded on every page, not only on pages with Sphinx math: claim
  records and the ledger are HTML outputs whose statements carry ``\\(...\\)`` math.
"""

from __future__ import annotations


def setup(app):
    app.add_css_file("privbook.css")
    app.add_js_file("privbook.js")
    app.set_html_assets_policy("always")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
