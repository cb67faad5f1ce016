"""Sphinx extension: give notebook figures their alt text.

``privlib.book.plotting`` displays each figure with ``{"image/png": {"alt": ...}}`` in the output's
metadata (the figure's title and axis labels). MyST-NB keeps only width and height from that
metadata, so this extension copies ``alt`` onto the rendered image node as well.
"""

from __future__ import annotations

from myst_nb.core.render import NbElementRenderer

_original_render_image = NbElementRenderer.render_image


def _render_image_with_alt(self, data):
    nodes = _original_render_image(self, data)
    alt = data.output_metadata.get(data.mime_type, {}).get("alt")
    if alt:
        for node in nodes:
            if "alt" not in node:
                node["alt"] = str(alt)
    return nodes


def setup(app):
    NbElementRenderer.render_image = _render_image_with_alt
    return {"parallel_read_safe": True, "parallel_write_safe": True}
