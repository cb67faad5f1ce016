"""The headless-browser book check reports each kind of problem it exists to catch, on a tiny
synthetic site (so a clean run of `make check-book` means something)."""

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import book_check  # noqa: E402

pytestmark = pytest.mark.skipif(book_check.find_chromium() is None,
                                reason="Chromium is not installed (CI installs it: apt-get install chromium)")

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


def _png(width: int, height: int) -> bytes:
    """A white RGB PNG of the given size."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\xff" * 3 * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


LAB = "http://localhost:8888/lab/tree"


def _page(body: str, head: str = "") -> str:
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>A page</title><link rel='icon' href='data:,'>{head}</head>"
            f"<body><main><article>{body}</article></main></body></html>")


# readable in both colour modes, unlike .dim, whose dark-mode colours have almost no contrast
MODES = ("<style>html[data-theme=dark] body {background:#121212; color:#e0e0e0}"
         "html[data-theme=dark] a {color:#8ab4f8}"
         "html[data-theme=dark] .dim {color:#333; background:#121212}</style>")


@pytest.fixture(scope="module")
def axe():
    """The pinned axe-core (make axe installs it from the npm registry)."""
    if not book_check.AXE_DEFAULT.is_file():
        subprocess.run(["make", "-s", "axe"], cwd=Path(__file__).resolve().parent.parent, check=True)
    return book_check.AXE_DEFAULT


@pytest.fixture(scope="module")
def reports(tmp_path_factory, axe):
    root = tmp_path_factory.mktemp("repo")  # the repository make lab serves, with the built site
    (root / "notebooks").mkdir()
    (root / "notebooks" / "chapter.ipynb").write_text("{}")
    (root / "notebooks" / "unlinked.ipynb").write_text("{}")
    site = root / "_build" / "html"
    (site / "notebooks").mkdir(parents=True)
    (site / "ok.png").write_bytes(PNG)
    (site / "wide.png").write_bytes(_png(600, 40))
    (site / "good.html").write_text(_page(
        "<h1>Good</h1><h2 id='part'>Part</h2><p>Fine text, with a <a href='good.html#part'>link</a>.</p>"
        "<img src='ok.png' alt='a pixel'><pre>$not math, code$</pre><pre>| a |\n|---|\n| code |</pre>"
        "<table><tr><th>a</th></tr><tr><td>a real table</td></tr></table>"
        "<div class='cell_output'><table class='claim claim-pass'><tr><td>verified</td></tr></table>"
        "<img src='wide.png' alt='a figure at its size'></div>"))
    (site / "notebooks" / "bad.html").write_text(_page(
        "<h1>Bad figure</h1><div class='cell_output'><img src='../wide.png' alt='a shrunk figure' "
        f"style='width:150px'></div><a href='{LAB}/notebooks/gone.ipynb'>JupyterLab</a>"))
    (site / "bad.html").write_text(_page(
        "<h1>Bad</h1><h3>Skipped a level</h3>"
        "<p>Raw math $x + y$ left untypeset.</p>"
        "<p>| a | b |\n|---|---|\n| 1 | 2 |</p>"
        "<p>| c | d |\n|\u2014|\u2014|\n| 3 | 4 |</p>"
        "<div class='cell_output'><table class='claim claim-fail'><tr><td>status FAILED</td></tr></table></div>"
        "<div class='cell_output'><p>3 claims: 2 verified, 1 FAILED; mutants killed 4/4.</p></div>"
        "<a href='missing.html'>dead</a> <a href='good.html#nowhere'>no anchor</a>"
        "<pre style='white-space:pre;overflow-x:auto;width:200px'>x = 1  # a line far wider than its box"
        "</pre><img src='nothing.png' alt='gone'> <img src='ok.png'>"
        "<script>console.error('boom')</script>",
        head="<script src='https://cdn.example.invalid/lib.js'></script>"))
    # fine when served, but reads another file with fetch(), which fails from file://
    (site / "disk.html").write_text(_page(
        "<h1>Disk</h1><p>Loads a neighbour.</p><script>fetch('good.html').then(r => r.text())</script>"))
    (site / "notebooks" / "chapter.html").write_text(_page(
        f"<h1>Chapter</h1><a href='{LAB}/notebooks/chapter.ipynb'>JupyterLab</a>"))
    (site / "notebooks" / "other.html").write_text(_page(
        f"<h1>Other</h1><a href='{LAB}/notebooks/chapter.ipynb'>JupyterLab</a>"))
    (site / "notebooks" / "unlinked.html").write_text(_page("<h1>Unlinked</h1><p>No button.</p>"))
    # the published book: launch buttons instead of the local JupyterLab link
    binder = "https://mybinder.org/v2/gh/owner/privbook/main?urlpath=lab/tree/notebooks/"
    (root / "notebooks" / "launched.ipynb").write_text("{}")
    (site / "notebooks" / "launched.html").write_text(_page(
        f"<h1>Launched</h1><a href='{binder}launched.ipynb'>Binder</a>"
        "<a href='https://colab.research.google.com/github/owner/privbook/blob/main/notebooks/launched.ipynb'>Colab</a>"))
    (site / "notebooks" / "mislaunched.html").write_text(_page(
        f"<h1>Mislaunched</h1><a href='{binder}chapter.ipynb'>Binder</a>"))
    # planted faults of the API page, the layout and accessibility
    (site / "api.html").write_text(_page(
        "<h1>API</h1><pre>.. py:function:: risk_bound(n, epsilon)\n   :module: privlib.papers.minimax</pre>"
        "<p>See :func:`risk_bound` for details.</p>", head=MODES))
    (site / "wide.html").write_text(_page(
        "<h1>Wide</h1><div style='max-width:600px'><table style='width:2000px'><tr><th>status</th></tr>"
        "<tr><td>off-screen</td></tr></table>"
        "<table style='table-layout:fixed;width:200px'><tr><td style='width:100px;overflow:hidden'>"
        "<span style='display:inline-block;width:300px'>clipped formula</span></td></tr></table>"
        "<p style='width:100px;overflow:hidden'><mjx-container style='display:inline-block;width:300px'>"
        "cut formula</mjx-container></p></div>", head=MODES))
    # an interactive figure drawn for a wider window and clipped by its box
    (site / "clipped.html").write_text(_page(
        "<h1>Clipped</h1><figure class='privbook-explore'><div class='privbook-explore-plot' "
        "style='width:200px;overflow:hidden'><svg class='main-svg' width='600' height='40' role='img' "
        "aria-label='curves'></svg></div><figcaption>A plot.</figcaption></figure>", head=MODES))
    # numbers in a narrow column: broken across lines where words may break anywhere; kept whole
    # (white-space: nowrap) in a table that scrolls sideways inside its container, which is no fault
    (site / "numbers.html").write_text(_page(
        "<h1>Numbers</h1><table style='width:120px'><tr><th>n</th><th>bound</th></tr>"
        "<tr><td>10</td><td style='width:40px;overflow-wrap:anywhere'>0.000123456789</td></tr></table>"
        "<div class='cell_output' style='max-width:200px'><div style='overflow-x:auto'><table><tr><th>n</th>"
        "<th>bound</th></tr><tr><td style='white-space:nowrap'>12345678901234567890</td>"
        "<td style='white-space:nowrap'>0.000123456789012345678901234567</td></tr></table></div></div>"
        "<table style='width:120px'><tr><td style='overflow-wrap:anywhere'>a name, lemma-3-4, not a number</td></tr></table>",
        head=MODES))
    (site / "dark.html").write_text(_page(
        "<h1>Dark</h1><p class='dim'>Readable in light mode only.</p>", head=MODES))
    (site / "index.html").write_text('<meta http-equiv="Refresh" content="0; url=good.html" />')
    (site / "stale.html").write_text('<meta http-equiv="Refresh" content="0; url=gone.html" />')
    (site / "good.html").write_text((site / "good.html").read_text().replace("</head>", MODES + "</head>"))
    found = book_check.check_site(site, screenshots=None, ledger_page=None, verbose=False, axe=axe)
    return {r.page: r.problems for r in found}


def test_clean_page_passes(reports):
    assert reports["good.html"] == []
    assert reports["good.html (file://)"] == []
    assert reports["index.html"] == []
    assert reports["notebooks/chapter.html"] == []


@pytest.mark.parametrize("fragment", [
    "request to another host: https://cdn.example.invalid/lib.js",
    "untypeset math",
    "broken link: /missing.html",
    "no element with id 'nowhere'",
    "image did not load: /nothing.png",
    "image without alt text or caption",
    "heading jumps from h1 to h3",
    "console error: boom",
    "code scrolls sideways instead of wrapping: 'x = 1  # a line far wider than its box'",
    "| a | b |\\n|---|---|",
    "| c | d |\\n|\u2014|\u2014|",
    "FAILED claim shown: 'status FAILED'",
    "FAILED claim shown: '3 claims: 2 verified, 1 FAILED",
])
def test_each_problem_is_reported(reports, fragment):
    assert any(fragment in p for p in reports["bad.html"]), reports["bad.html"]


@pytest.mark.parametrize("fragment", [
    "figure shown at 25% of its size",
    "JupyterLab link opens nothing: http://localhost:8888/lab/tree/notebooks/gone.ipynb",
])
def test_each_problem_of_a_chapter_is_reported(reports, fragment):
    assert any(fragment in p for p in reports["notebooks/bad.html"]), reports["notebooks/bad.html"]


def test_problems_from_disk_are_reported(reports):
    assert reports["disk.html"] == []
    assert any("console error" in p or "failed request" in p for p in reports["disk.html (file://)"]), \
        reports["disk.html (file://)"]
    assert any("untypeset math" in p for p in reports["bad.html (file://)"])


def test_jupyterlab_link_must_open_the_chapter(reports):
    assert any("JupyterLab link opens notebooks/chapter.ipynb, not this chapter" in p
               for p in reports["notebooks/other.html"])
    assert reports["notebooks/unlinked.html"] == ["chapter page without a JupyterLab link or launch button"]


def test_launch_buttons_stand_for_the_jupyterlab_link(reports):
    assert reports["notebooks/launched.html"] == []
    assert any("launch button opens another notebook than notebooks/mislaunched.ipynb" in p
               for p in reports["notebooks/mislaunched.html"]), reports["notebooks/mislaunched.html"]


def _ledger_rows():
    from privlib import claims

    rows = []
    for c in claims.registry():
        href = f"http://127.0.0.1/notebooks/{claims.CHAPTERS[c.paper]}.html#{claims.anchor(c.id)}"
        rows.append({"cells": [f"{c.item} [{c.id}]", "statement", "-", "evidence", "killed 2/2", c.kind],
                     "status": c.kind, "href": href})
    return rows


def test_ledger_check_accepts_the_registry():
    assert book_check.check_ledger(_ledger_rows()) == []


def test_ledger_check_reports_each_problem():
    rows = _ledger_rows()
    rows[0]["cells"][-1] = rows[0]["status"] = "FAILED"
    rows[1]["href"] = rows[1]["href"].split("#")[0] + "#elsewhere"
    rows[2]["cells"][-2] = "killed 1/2"
    missing = rows.pop(3)
    problems = book_check.check_ledger(rows)
    assert any("with status 'FAILED'" in p for p in problems)
    assert any("not to its record" in p for p in problems)
    assert any("a mutant survived" in p for p in problems)
    assert any(missing["cells"][0].split("[")[1].rstrip("]") in p and "0 times" in p for p in problems)


def test_raw_directive_text_is_reported(reports):
    problems = reports["api.html"]
    assert any("raw directive text" in p and ".. py:function::" in p for p in problems), problems
    assert any("raw directive text" in p and ":func:`risk_bound`" in p for p in problems), problems
    assert not any("raw directive" in p for p in reports["good.html"])


@pytest.mark.parametrize("width", book_check.WIDTHS)
def test_content_wider_than_the_column_is_reported(reports, width):
    problems = [p for p in reports["wide.html"] if f"at {width} px" in p]
    assert any("table" in p and "2000 px wide" in p for p in problems), problems
    assert any("overflows its" in p and "clipped formula" in p for p in problems), problems
    assert any("sticks out of its p" in p and "cut formula" in p for p in problems), problems


def test_accessibility_is_checked_in_both_colour_modes(reports):
    problems = reports["dark.html"]
    assert any(p.startswith("accessibility (dark mode): color-contrast") for p in problems), problems
    assert not any(p.startswith("accessibility (light mode)") for p in problems), problems
    assert any(p.startswith("accessibility (light mode): image-alt") for p in reports["bad.html"]), reports["bad.html"]


def test_redirect_to_missing_page_is_reported(reports):
    assert any("redirect to a missing page" in p for p in reports["stale.html"])


@pytest.mark.parametrize("width", book_check.WIDTHS)
def test_number_broken_across_lines_is_reported(reports, width):
    problems = [p for p in reports["numbers.html"] if f"at {width} px" in p]
    assert any("number broken across lines" in p and "0.000123456789 " in p for p in problems), problems
    # the table that scrolls inside its container neither widens the page nor breaks its numbers
    assert not any("wider than the text column" in p for p in problems), problems
    assert len(problems) == 1, problems


@pytest.mark.parametrize("width", book_check.WIDTHS)
def test_clipped_interactive_figure_is_reported(reports, width):
    problems = [p for p in reports["clipped.html"] if f"at {width} px" in p]
    assert any("interactive figure drawn 600 px wide, clipped to 200 px" in p for p in problems), problems
