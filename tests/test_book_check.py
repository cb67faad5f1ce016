"""The headless-browser book check reports each kind of problem it exists to catch, on a tiny
synthetic site (so a clean run of `make check-book` means something)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import book_check  # noqa: E402

pytestmark = pytest.mark.skipif(book_check.find_chromium() is None,
                                reason="Chromium is not installed (CI installs it: apt-get install chromium)")

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


def _page(body: str, head: str = "") -> str:
    return f"<!DOCTYPE html><html><head><meta charset='utf-8'>{head}</head><body><article>{body}</article></body></html>"


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    (site / "ok.png").write_bytes(PNG)
    (site / "good.html").write_text(_page(
        "<h1>Good</h1><h2 id='part'>Part</h2><p>Fine text, with a <a href='good.html#part'>link</a>.</p>"
        "<img src='ok.png' alt='a pixel'><pre>$not math, code$</pre>"))
    (site / "bad.html").write_text(_page(
        "<h1>Bad</h1><h3>Skipped a level</h3>"
        "<p>Raw math $x + y$ left untypeset.</p>"
        "<a href='missing.html'>dead</a> <a href='good.html#nowhere'>no anchor</a>"
        "<img src='nothing.png' alt='gone'> <img src='ok.png'>"
        "<script>console.error('boom')</script>",
        head="<script src='https://cdn.example.invalid/lib.js'></script>"))
    (site / "index.html").write_text('<meta http-equiv="Refresh" content="0; url=good.html" />')
    (site / "stale.html").write_text('<meta http-equiv="Refresh" content="0; url=gone.html" />')
    found = book_check.check_site(site, screenshots=None, ledger_page=None, verbose=False)
    return {r.page: r.problems for r in found}


def test_clean_page_passes(reports):
    assert reports["good.html"] == []
    assert reports["index.html"] == []


@pytest.mark.parametrize("fragment", [
    "request to another host: https://cdn.example.invalid/lib.js",
    "untypeset math",
    "broken link: /missing.html",
    "no element with id 'nowhere'",
    "image did not load: /nothing.png",
    "image without alt text or caption",
    "heading jumps from h1 to h3",
    "console error: boom",
])
def test_each_problem_is_reported(reports, fragment):
    assert any(fragment in p for p in reports["bad.html"]), reports["bad.html"]


def test_redirect_to_missing_page_is_reported(reports):
    assert any("redirect to a missing page" in p for p in reports["stale.html"])
