"""Sphinx extension: the API page and the links to it.

- Function names in the chapters' text, written as code with privlib's short module names
  (```statistical.theorem_deltas```, ```profiles.laplace_delta(...)```, ```privlib.statistical```), link
  to their entry on the API page (book/api.md, autodoc) when it has one. Claim records link their
  names the same way (``privlib.verify.markup.api_target``).
- Docstrings of module constants are descriptions, not "type: description" pairs: napoleon would
  read the text before the first colon of their first line as a type.
"""

from __future__ import annotations

import re

from docutils import nodes

_MODULE = re.compile(r"privlib\.([a-z_]+)")


def _target(text: str) -> str | None:
    from privlib.verify.markup import api_target

    import privlib

    text = text.strip()
    module = _MODULE.fullmatch(text)
    if module and module.group(1) in privlib._HOMES:  # a module: privlib.minimax
        return f"privlib.{privlib._HOMES[module.group(1)]}.{module.group(1)}"
    return api_target(text.removeprefix("privlib."))


def _link_names(app, doctree, docname):
    objects = app.env.get_domain("py").objects
    modules = app.env.get_domain("py").modules
    for literal in list(doctree.findall(nodes.literal)):
        if isinstance(literal.parent, nodes.reference):
            continue
        target = _target(literal.astext())
        if target is None:
            continue
        entry = objects.get(target) or modules.get(target)
        if entry is None:
            continue
        uri = app.builder.get_relative_uri(docname, entry.docname) + "#" + entry.node_id
        ref = nodes.reference("", "", internal=True, refuri=uri, classes=["api-link"])
        literal.replace_self(ref)
        ref += literal


_CONSTANT_DOCS: dict[str, list[str]] = {}


def _keep_constant_docstring(app, what, name, obj, options, lines):
    if what in ("data", "attribute"):
        _CONSTANT_DOCS[name] = list(lines)


def _restore_constant_docstring(app, what, name, obj, options, lines):
    if what in ("data", "attribute") and name in _CONSTANT_DOCS:
        lines[:] = _CONSTANT_DOCS.pop(name)


def _ignore_as_tuples(app, config):
    # _config.yml gives lists; Sphinx looks (type, target) tuples up in nitpick_ignore
    config.nitpick_ignore = [tuple(entry) for entry in config.nitpick_ignore]


def setup(app):
    app.connect("config-inited", _ignore_as_tuples)
    app.connect("doctree-resolved", _link_names)
    # napoleon (priority 500) would turn a constant's docstring into fields: undo it
    app.connect("autodoc-process-docstring", _keep_constant_docstring, priority=400)
    app.connect("autodoc-process-docstring", _restore_constant_docstring, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
