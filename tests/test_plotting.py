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
