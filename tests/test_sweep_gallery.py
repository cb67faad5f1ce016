"""The sweep gallery redraws figure k of every run on shared y-axes: each run's kernel keeps its
displayed figures (``PRIVBOOK_FIGURE_PICKLES``, set by ``privbook run``), the gallery sets the
y-limits of axes at the same position and scale to the union of the runs' limits (log axes stay
positive), writes ``gallery/figure-NN-<run>.png`` and lists them in ``gallery/gallery.json``; a
figure that cannot be pickled, and a run written before figures were kept, fall back to the run's
own PNG and the page says so."""

import json
import os
import subprocess
import sys
from pathlib import Path

import matplotlib
import nbformat
import pytest

from privlib import plotting, sweep

matplotlib.use("Agg")


@pytest.fixture()
def plot_project(tmp_path):
    """A project whose notebook draws, with privlib's ``figure()``: figure 1, a linear and a log
    panel whose heights follow ``scale``; figure 2, one that cannot be pickled when ``unpicklable``
    is true (an attribute holding a lambda); figure 3, one with ``panels`` axes (figures whose
    number of axes differs share none)."""
    (tmp_path / "_config.yml").write_text("title: plots\n")
    (tmp_path / "notebooks").mkdir()
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell("scale: float = 2.0  # height of the curves (0, 100]\n"
                                       "unpicklable: bool = False  # make figure 2 impossible to pickle\n"
                                       "panels: int = 1  # panels of figure 3 [1, 2]")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params,
                nbformat.v4.new_code_cell(
                    "import matplotlib.pyplot as plt\nimport numpy as np\nfrom privlib import plotting\n"
                    "fig, (lin, log) = plotting.figure(1, 2)\n"
                    "x = np.linspace(0, 1, 11)\nlin.plot(x, scale * x)\nlog.semilogy(x, scale * np.exp(3 * x))\n"
                    "plt.show()"),
                nbformat.v4.new_code_cell(
                    "fig2, ax2 = plotting.figure()\nax2.plot(x, -scale * x)\n"
                    "if unpicklable:\n    fig2.not_picklable = lambda: None\nplt.show()"),
                nbformat.v4.new_code_cell(
                    "fig3, axes3 = plotting.figure(1, panels)\n"
                    "for ax in np.atleast_1d(axes3):\n    ax.plot(x, scale * x * x)\nplt.show()")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "notebooks" / "plots.ipynb")
    return tmp_path


def _sweep(root, *args):
    out = subprocess.run([sys.executable, "-m", "privlib.batch.cli", "sweep", "plots", *args, "-q"], cwd=root,
                         capture_output=True, text=True, env={**os.environ, "PRIVBOOK_ROOT": str(root)}, timeout=300)
    assert out.returncode == 0, out.stderr
    return root / "runs" / "plots"


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_gallery_redraws_each_figure_on_y_axes_shared_across_runs(plot_project):
    base = _sweep(plot_project, "--grid", "scale=1,5", "--grid", "unpicklable=false,true", "--grid", "panels=1,2",
                  "-j", "2")
    runs_done = sorted(p.name for p in base.iterdir() if p.is_dir() and p.name != sweep.GALLERY_DIR)
    assert len(runs_done) == 8
    listing = json.loads((base / sweep.GALLERY_DIR / sweep.GALLERY_LIST).read_text())
    # figure 1: every run kept it; both panels share the union of the runs' limits
    one = listing["figures"]["figure-01.png"]
    assert sorted(one) == runs_done
    limits = {tuple(map(tuple, lims)) for lims in one.values()}
    assert len(limits) == 1
    (lin_lo, lin_hi), (log_lo, log_hi) = limits.pop()
    assert lin_lo <= 0 and lin_hi >= 5 and 0 < log_lo <= 1 and log_hi >= 5 * 2.7 ** 3
    # the figure each run kept has its own range (scale=1 drew a lower one): the gallery rescaled it
    for run in runs_done:
        kept = sweep._load_figure(base / run / "figure-01.pickle")
        own_hi = kept.axes[0].get_ylim()[1]
        assert own_hi < 1.1 < lin_hi if "scale=1.0" in run else own_hi == lin_hi

    for run in runs_done:
        redrawn = base / sweep.GALLERY_DIR / f"figure-01-{run}.png"
        assert _png_size(redrawn)[0] == sweep.GALLERY_WIDTH_PX
        assert (base / run / "figure-01.pickle").is_file()
        assert "figure-01.pickle" in json.loads((base / run / "files.json").read_text())["files"]
    # figure 2: only the picklable runs were kept and redrawn, on one shared range
    two = listing["figures"]["figure-02.png"]
    assert sorted(two) == [r for r in runs_done if "unpicklable=False" in r]
    assert len({json.dumps(v) for v in two.values()}) == 1
    assert all(not (base / r / "figure-02.pickle").exists() for r in runs_done if "unpicklable=True" in r)
    # figure 3: one or two panels: the number of axes differs, nothing is shared
    assert all(lims == [None] * len(lims) for lims in listing["figures"]["figure-03.png"].values())
    assert sorted(listing["files"]) == sorted(p.name for p in (base / sweep.GALLERY_DIR).glob("*.png"))

    page = (base / "gallery.html").read_text()
    assert "share their y-axes across runs" in page and "own y-axes" in page
    run = "panels=1_scale=5.0_unpicklable=True"
    assert f"src='gallery/figure-01-{run}.png'" in page and f"src='{run}/figure-02.png'" in page
    assert f"href='{run}/figure-01.png'" in page  # a figure opens its run's own image
    assert "figure-01.pickle" not in (base / run / "run.html").read_text()

    # a second sweep with a smaller grid removes the redrawn figures it no longer shows
    base = _sweep(plot_project, "--grid", "scale=1,5", "--grid", "unpicklable=false", "--grid", "panels=1")
    left = sorted(p.name for p in (base / sweep.GALLERY_DIR).iterdir())
    assert left == sorted([sweep.GALLERY_LIST, *(f"figure-0{k}-panels=1_scale={s}_unpicklable=False.png"
                                                for k in (1, 2, 3) for s in ("1.0", "5.0"))])


def test_runs_without_kept_figures_fall_back_to_their_pngs(tiny_project):
    """The tiny notebook draws with pyplot before privlib's display hook exists: nothing is kept,
    the gallery shows each run's PNG and says the axes are the runs' own; no gallery folder."""
    out = subprocess.run([sys.executable, "-m", "privlib.batch.cli", "sweep", "tiny", "--grid", "scale=1,3", "-q"],
                         cwd=tiny_project, capture_output=True, text=True,
                         env={**os.environ, "PRIVBOOK_ROOT": str(tiny_project)}, timeout=300)
    assert out.returncode == 0, out.stderr
    base = tiny_project / "runs" / "tiny"
    page = (base / "gallery.html").read_text()
    assert "Each figure keeps the axes its run drew" in page and "share their y-axes" not in page
    assert "src='scale=3.0/figure-01.png'" in page
    assert not (base / sweep.GALLERY_DIR).exists()


def test_share_y_unions_limits_of_matching_axes_only():
    figs = []
    for scale in (1, 10):
        fig, (a, b) = plotting.figure(1, 2)
        a.plot([0, 1], [scale, 3 * scale])
        b.plot([0, 1], [scale, 2 * scale])
        b.set_ylim(-1 if scale == 1 else scale, 2 * scale)  # run 1: a non-positive limit kept by the log scale
        b.set_yscale("log")
        figs.append(fig)
    limits = sweep._share_y(figs)
    assert limits[0] == limits[1]
    (lo, hi), (log_lo, log_hi) = limits[0]
    assert lo <= 1 and hi >= 30 and log_lo == 1 and log_hi == 20  # -1: the smallest positive datum
    assert figs[0].axes[1].get_ylim() == (1, 20) and figs[0].axes[0].get_ylim() == (lo, hi)
    c, = plotting.figure()[0].axes
    c.set_yscale("log")
    assert sweep._share_y([figs[0], c.figure]) == [[None, None], [None]]  # different number of axes
    other, (d, e) = plotting.figure(1, 2)
    d.set_ylim(5, -5)  # inverted: the direction differs from figs[1]'s first axes
    e.set_yscale("linear")  # the scale differs from figs[1]'s second axes
    assert sweep._share_y([figs[1], other]) == [[None, None], [None, None]]


def test_gallery_writes_only_its_own_files(tmp_path):
    """What the gallery folder holds that the sweep did not list is kept; a ``gallery`` that is a
    file or a symbolic link is not written through (the figures fall back to the runs' PNGs)."""
    out = tmp_path / "sweep"
    (out / sweep.GALLERY_DIR).mkdir(parents=True)
    (out / sweep.GALLERY_DIR / "notes.txt").write_text("mine")
    (out / sweep.GALLERY_DIR / "figure-01-a=1.png").write_text("old")
    (out / sweep.GALLERY_DIR / sweep.GALLERY_LIST).write_text(json.dumps({"files": ["figure-01-a=1.png", "../x.png"]}))
    (out / "x.png").write_text("outside")
    assert sweep.write_shared_figures(out, []) == {}
    assert sorted(p.name for p in (out / sweep.GALLERY_DIR).iterdir()) == ["notes.txt"]
    assert (out / "x.png").read_text() == "outside"
    other = tmp_path / "elsewhere"
    other.mkdir()
    (out / sweep.GALLERY_DIR / "notes.txt").unlink()
    (out / sweep.GALLERY_DIR).rmdir()
    (out / sweep.GALLERY_DIR).symlink_to(other)
    (other / sweep.GALLERY_LIST).write_text(json.dumps({"files": ["figure-01-a=1.png"]}))
    (other / "figure-01-a=1.png").write_text("theirs")
    assert sweep.write_shared_figures(out, []) == {}
    assert sorted(p.name for p in other.iterdir()) == ["figure-01-a=1.png", sweep.GALLERY_LIST]
