"""The book's figure style: figures fit the text column, so their text stays readable."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from privlib import plotting  # noqa: E402

# the layouts the chapters ask for (nrows, ncols, keyword arguments)
LAYOUTS = [(1, 1, {}), (1, 1, {"width": 5.0, "height": 3.5}), (1, 2, {"width": 10.0}),
           (1, 2, {"width": 10.0, "height": 4.0, "sharey": True}),
           (1, 3, {"width": 13.0, "height": 4.2, "sharey": True}), (1, 4, {"width": 18.0, "height": 3.4}),
           (2, 2, {}), (2, 3, {"sharex": "col"}), (1, 1, {"width": 12.0, "height": 8.0})]


def _draw(fig, axes):
    for k, ax in enumerate(np.ravel(axes)):
        ax.plot([0, 1], [0, k], label="a curve with a long label")
        ax.set(title=f"panel {k}", xlabel="x", ylabel="y")
        ax.legend()
    plotting.title(fig, "a layout", proposed=True)


@pytest.mark.parametrize("nrows, ncols, kwargs", LAYOUTS)
def test_figures_fit_the_column_with_readable_text(nrows, ncols, kwargs):
    fig, axes = plotting.figure(nrows, ncols, **kwargs)
    _draw(fig, axes)
    try:
        assert fig.get_figwidth() <= plotting.BOOK_WIDTH
        assert plotting.smallest_text(fig) >= plotting.MIN_FONT_SIZE
        for ax in fig.axes:  # every panel keeps a usable size
            box = ax.get_position()
            assert box.width * fig.get_figwidth() >= 2.0 and box.height * fig.get_figheight() >= 1.2
    finally:
        plt.close(fig)


@pytest.mark.parametrize("nrows, ncols, kwargs", LAYOUTS)
def test_axes_come_back_as_plt_subplots_returns_them(nrows, ncols, kwargs):
    fig, axes = plotting.figure(nrows, ncols, **kwargs)
    ref_fig, ref = plt.subplots(nrows, ncols)
    try:
        assert np.shape(axes) == np.shape(ref)
        assert len(fig.axes) == nrows * ncols
    finally:
        plt.close(fig)
        plt.close(ref_fig)


def test_wrapped_panels_keep_order_and_sharing():
    fig, axes = plotting.figure(1, 3, width=13.0, height=4.2, sharey=True)
    try:
        centres = [ax.get_position() for ax in axes]
        assert centres[0].y0 == pytest.approx(centres[1].y0) and centres[2].y0 < centres[0].y0
        axes[0].set_ylim(0, 7)
        assert axes[2].get_ylim() == (0, 7)
        axes[0].set_ylabel("risk")
        plotting._finish(fig)
        assert axes[2].get_ylabel() == "risk" and axes[1].get_ylabel() == ""
    finally:
        plt.close(fig)


def test_smallest_text_sees_a_figure_shrunk_by_the_book():
    fig = plt.figure(figsize=(14.0, 4.0))
    fig.text(0.5, 0.5, "ten points", fontsize=10)
    try:
        assert plotting.smallest_text(fig) == pytest.approx(5.0)
    finally:
        plt.close(fig)


@pytest.mark.parametrize("bad", [dict(nrows=0), dict(ncols=2.5), dict(ncols=True), dict(width=-1.0),
                                 dict(width=float("nan")), dict(height=1e6), dict(width="7")])
def test_bad_sizes_are_refused(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        plotting.figure(**bad)


def test_figures_render_at_the_book_width_with_one_layout_and_nothing_cut_off():
    """A figure of ``figure()`` is written as sized (the book's width at figure.dpi), laid out
    once; its outside legend and title stay inside the image; its layout engine is kept."""
    import io

    from matplotlib.layout_engine import ConstrainedLayoutEngine
    from PIL import Image

    plotting.use_style()
    fig, axes = plotting.figure(1, 2, width=7.0, height=3.0, sharey=True)
    for ax in axes:
        ax.plot([1, 2, 3], [1, 4, 9], label="a long legend entry")
        ax.set_xlabel("x label")
    axes[0].set_ylabel("y label")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center")
    plotting.title(fig, "a title", proposed=True)
    png, meta = plotting._png_with_alt(fig)
    image = Image.open(io.BytesIO(png))
    assert image.size == (round(7.0 * plt.rcParams["figure.dpi"]), round(3.0 * plt.rcParams["figure.dpi"]))
    assert isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine)
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    for artist in (fig._suptitle, fig.legends[0], *(ax.xaxis.label for ax in axes), axes[0].yaxis.label):
        extent = artist.get_window_extent(renderer)
        assert box.x0 <= extent.x0 and extent.x1 <= box.x1 and box.y0 <= extent.y0 and extent.y1 <= box.y1
    assert meta["alt"].startswith("Proposed figure")
    plt.close(fig)
