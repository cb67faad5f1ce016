"""Sphinx extension: MathJax (the offline copy) on every page, not only on pages with Sphinx math.

Claim records and the ledger are HTML outputs whose fields carry ``\\(...\\)`` math, which Sphinx
does not see. The book's stylesheet and script are plain static files (``html_css_files`` and
``html_js_files`` in _config.yml); only this policy has no configuration value.
"""

from __future__ import annotations


def setup(app):
    app.set_html_assets_policy("always")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
