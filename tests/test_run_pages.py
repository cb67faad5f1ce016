"""A batch run a person can read: the run page (run.html), figures with captions, the gallery that
links them, and run folders with the user's umask."""

from __future__ import annotations

import base64
import json
import os
import re
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest

from privlib import runs, sweep

# a 1x1 PNG
PNG = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)).decode()


def _executed(path: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    intro = nbformat.v4.new_markdown_cell("# Tiny chapter\n\nSee {numref}`fig-tiny-line` and {cite:p}`smith2020`; "
                                          "{doc}`the ledger <../book/ledger>`. Again {std:numref}`fig-tiny-line` "
                                          "{bibcite}`smith2020`.")
    hidden = nbformat.v4.new_code_cell("secret_plotting_code()", metadata={
        "tags": ["hide-input"], "mystnb": {"figure": {"name": "fig-tiny-line", "caption": "A line, with $x$ in TeX."}}})
    hidden.outputs = [nbformat.v4.new_output("display_data", data={"image/png": PNG, "text/plain": "<Figure>"},
                                             metadata={"image/png": {"alt": "y against x"}})]
    explorer = nbformat.v4.new_code_cell("explore.lines(...)", metadata={"tags": ["hide-input"]})
    explorer.outputs = [nbformat.v4.new_output("execute_result", data={
        "text/html": "<figure class='privbook-explore' id='explore-x'>interactive</figure>", "text/plain": "Interactive"},
        execution_count=2)]
    shown = nbformat.v4.new_code_cell("claims.show('curves/x')")
    shown.outputs = [nbformat.v4.new_output("execute_result", data={"text/html": "<table class='claim'><tr><td>ok</td></tr></table>"},
                                            execution_count=3)]
    second = nbformat.v4.new_code_cell("other()", metadata={"tags": ["remove-input"]})
    second.outputs = [nbformat.v4.new_output("display_data", data={"image/png": PNG}, metadata={})]
    nb.cells = [intro, hidden, explorer, shown, second]
    nbformat.write(nb, path)
    return path


PAYLOAD = {"parameters": {"scale": 3.0}, "seconds": 1.5, "claims_summary": "1 verified",
           "claims": [{"id": "curves/x", "item": "Thing", "status": "verified"}]}


def test_figures_are_recorded_with_numbers_and_captions(tmp_path):
    executed = _executed(tmp_path / "tiny.ipynb")
    written = runs.extract_figures(executed, tmp_path)
    assert [p.name for p in written] == ["figure-01.png", "figure-02.png"]
    records = runs.read_figures(tmp_path)
    assert records == [
        {"file": "figure-01.png", "number": "1", "name": "fig-tiny-line", "caption": "A line, with $x$ in TeX.",
         "alt": "y against x"},
        {"file": "figure-02.png", "number": "2", "name": "", "caption": "", "alt": "figure 2"}]
    (tmp_path / runs.FIGURES).unlink()  # a folder of an older privbook: numbered from its files
    assert [r["file"] for r in runs.read_figures(tmp_path)] == ["figure-01.png", "figure-02.png"]


def test_run_page_reads_as_the_chapter(tmp_path):
    executed = _executed(tmp_path / "tiny.ipynb")
    runs.extract_figures(executed, tmp_path)
    page = runs.write_run_page(executed, tmp_path, PAYLOAD).read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<title>tiny: " in page
    # figures are the folder's files, numbered, with the chapter's caption and alt text
    assert '<img alt="y against x" src="figure-01.png"/>' in page  # (nbconvert normalises the HTML)
    assert "<b>Figure 1.</b> A line, with x in TeX." in page and "<b>Figure 2.</b>" in page
    assert "data:image/png" not in page
    # MyST roles read as text; hidden code stays hidden; interactive figures of the book are left out
    assert "See Figure 1 and [smith2020]; the ledger." in page and "{numref}" not in page
    assert "Again Figure 1 [smith2020]." in page and "{std:numref}" not in page and "{bibcite}" not in page
    assert "secret_plotting_code" not in page and "other()" not in page and "privbook-explore" not in page
    assert "claims.show('curves/x')" in re.sub(r"<[^>]+>", "", page).replace("&#39;", "'")
    assert '<table class="claim">' in page
    # the summary: parameters and claims
    assert "<th>scale</th><td>3.0</td>" in page and "Claims: 1 verified." in page
    assert "<td>curves/x</td><td>Thing</td><td class='verified'>verified</td>" in page
    # nothing from another host
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)


@pytest.mark.parametrize("mask, mode", [(0o022, 0o755), (0o077, 0o700), (0o002, 0o775)])
def test_run_folders_get_the_users_umask(tmp_path, mask, mode):
    old = os.umask(mask)
    try:
        folder = Path(tempfile.mkdtemp(dir=tmp_path))
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        runs.apply_umask(folder)
    finally:
        os.umask(old)
    assert stat.S_IMODE(folder.stat().st_mode) == mode


def test_gallery_links_run_pages_and_labels_figures(tmp_path):
    new = tmp_path / "scale=3.0"
    new.mkdir()
    executed = _executed(new / "tiny.ipynb")
    runs.extract_figures(executed, new)
    runs.write_run_page(executed, new, PAYLOAD)
    old = tmp_path / "scale=1.0"  # written before run pages and figures.json
    old.mkdir()
    (old / "figure-01.png").write_bytes(base64.b64decode(PNG))
    records = [{"run": f.name, "status": "done", "parameters": {"scale": float(f.name[6:])}, "folder": str(f),
                "claims_summary": "1 verified"} for f in (new, old)]
    page = sweep.write_gallery(tmp_path, Path("notebooks/tiny.ipynb"), records, ["scale"]).read_text()
    assert "<a href='scale=3.0/run.html'>scale=3.0</a>" in page
    assert "<a href='scale=1.0/tiny.ipynb'>scale=1.0</a>" in page
    assert page.count("<img") == 3 and page.count("<figcaption>") == 3
    assert "<b>Figure 1.</b> A line, with x in TeX.</figcaption>" in page
    assert "alt='y against x (run scale=3.0)'" in page
    assert "keeps the axes its run drew" in page


def test_a_real_run_writes_its_page_listed_in_files_json(tiny_project):
    old = os.umask(0o022)
    try:
        out = subprocess.run([sys.executable, "-m", "privlib.batch.cli", "run", "tiny", "-p", "scale", "3", "-q"],
                             cwd=tiny_project, capture_output=True, text=True, timeout=300,
                             env={**os.environ, "PRIVBOOK_ROOT": str(tiny_project)})
    finally:
        os.umask(old)
    assert out.returncode == 0, out.stderr
    folder = next(p for p in (tiny_project / "runs" / "tiny").iterdir() if p.is_dir())
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o644 for f in folder.iterdir())
    listed = json.loads((folder / runs.FILES).read_text())["files"]
    assert {runs.RUN_PAGE, runs.FIGURES, "figure-01.png"} <= set(listed)
    assert runs.check_run(folder) is None
    page = (folder / runs.RUN_PAGE).read_text()
    assert 'src="figure-01.png"' in page and "Claims: 1 verified." in page


@pytest.mark.parametrize("tex, text", [
    ("loss $L(t)$ for $\\pm\\varepsilon_0$", "loss L(t) for ±ε₀"),
    ("$\\delta(\\varepsilon) \\le e^{\\varepsilon d}$ and $x_{i}$", "δ(ε) ≤ e^(ε d) and x_i"),
    ("$\\frac{a}{b}$ stays, $\\Delta(q) = 1$ reads", "$\\frac{a}{b}$ stays, Δ(q) = 1 reads"),
    ("no TeX, 5 $ and more", "no TeX, 5 $ and more"),
])
def test_captions_read_without_mathjax(tex, text):
    assert runs.plain_tex(tex) == text


def test_run_page_title_names_the_run_not_its_temporary_folder(tmp_path):
    folder = tmp_path / ".scale=3.0.abcd.partial"
    folder.mkdir()
    executed = _executed(folder / "tiny.ipynb")
    runs.extract_figures(executed, folder)
    page = runs.write_run_page(executed, folder, PAYLOAD, "scale=3.0").read_text(encoding="utf-8")
    assert "<title>tiny: scale=3.0</title>" in page and "partial" not in page
    assert "<b>Figure 1.</b> A line, with x in TeX." in page
