"""Sphinx extension: figures, tables and equations numbered per chapter (Fig. 4.2, eq. (4.1)).

Sphinx's ``numfig`` numbers figures after the chapters' section numbers, which come from a
numbered table of contents: that would print "2. Chapter 000: ..." in every heading and number
chapter 004 as 6. The chapters already have numbers (the papers' 000-004), so each chapter's
figures, tables and labelled equations are numbered ``<chapter>.<k>`` in the order Sphinx found
them, ``<chapter>`` taken from ``privbook_chapter_numbers`` (docname -> label, in _config.yml).
References (``{numref}``, ``{eq}``) and captions read these numbers, so they always agree.
Pages not listed keep Sphinx's own numbers.
"""

from __future__ import annotations


def renumber(fignumbers: dict, chapters: dict[str, str]) -> dict:
    """``fignumbers`` (Sphinx's ``env.toc_fignumbers``: docname -> figtype -> id -> number tuple)
    with every listed chapter's items numbered (label, 1), (label, 2), ... per figure type, in the
    order of Sphinx's numbers."""
    out = {}
    for docname, types in fignumbers.items():
        label = chapters.get(docname)
        if label is None:
            out[docname] = types
            continue
        out[docname] = {
            figtype: {node_id: (label, k) for k, (node_id, _) in
                      enumerate(sorted(ids.items(), key=lambda item: item[1]), 1)}
            for figtype, ids in types.items()}
    return out


def _renumber(app, env):
    env.toc_fignumbers = renumber(env.toc_fignumbers, app.config.privbook_chapter_numbers)
    return []


def setup(app):
    app.add_config_value("privbook_chapter_numbers", {}, "env")
    # after Sphinx's own numbering (TocTreeCollector, default priority 500)
    app.connect("env-get-updated", _renumber, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
