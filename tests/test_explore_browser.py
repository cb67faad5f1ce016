"""The interactive figures of the built book, in headless Chromium (tests/book_check.py's browser).

For every chapter page with an interactive figure (privlib.book.explore): the figure is drawn
without a kernel, moving its first slider (a key press, as a reader does) changes the plotted
curve, the page requests nothing from another host and logs no error, and it works as well when
opened from disk (file://). Screenshots of the figure before and after the move go to
``_build/screenshots/explore-<page>-before.png`` and ``-after.png``.

Needs the built book (``privbook build``; ``PRIVBOOK_SITE`` names another build) and Chromium
(``make chromium``); skipped without them.
"""

from __future__ import annotations

import base64
import io
import json
import os
import sys
import time
import urllib.parse
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import book_check  # noqa: E402  (its headless-Chromium helpers)

SITE = Path(os.environ.get("PRIVBOOK_SITE", ROOT / "_build" / "html"))
SCREENSHOTS = ROOT / "_build" / "screenshots"
CHAPTERS = ["000_inferential_limits", "001_pointwise_maximal_leakage", "002_privacy_minimax",
            "003_networked_inferential_privacy", "004_statistical_privacy", "five_notions"]

pytestmark = pytest.mark.skipif(book_check.find_chromium() is None or not (SITE / "index.html").is_file(),
                                reason="needs Chromium (make chromium) and the built book (privbook build)")

# the first interactive figure of the page: its state and the path plotly drew for its first trace
_STATE = r"""
(async () => {
  for (let k = 0; k < 200 && !document.querySelector('figure.privbook-explore[data-ready]'); k++) {
    await new Promise(r => setTimeout(r, 50));
  }
  const fig = document.querySelector('figure.privbook-explore');
  if (!fig) return JSON.stringify({found: false});
  const plot = fig.querySelector('.privbook-explore-plot');
  const slider = fig.querySelector('input[type=range]');
  const drawn = [...plot.querySelectorAll('.scatterlayer .trace path.js-line, .barlayer .point path')]
      .map(p => p.getAttribute('d')).join('|');
  const r = fig.getBoundingClientRect();
  return JSON.stringify({
    found: true, ready: fig.dataset.ready === 'true', plotly: typeof Plotly !== 'undefined',
    fallback: !!fig.querySelector('.privbook-explore-fallback'),
    controlsHidden: fig.querySelector('.privbook-explore-controls').hidden,
    y0: plot.data ? plot.data[0].y.slice(0, 400) : null, drawn,
    slider: slider ? {id: slider.id, value: slider.value, max: slider.max,
                      output: (fig.querySelector('output[for="' + slider.id + '"]') || {}).textContent} : null});
})()
"""


def _evaluate(browser: book_check.Browser, expression: str) -> dict:
    result = browser.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
    assert "exceptionDetails" not in result, result["exceptionDetails"]
    return json.loads(result["result"]["value"])


def _open(browser: book_check.Browser, url: str) -> None:
    browser.call("Page.navigate", {"url": "about:blank"})
    browser.wait_for("Page.loadEventFired")
    browser.events.clear()
    browser.call("Page.navigate", {"url": url})
    browser.wait_for("Page.loadEventFired")


def _screenshot(browser: book_check.Browser, path: Path) -> None:
    """The first interactive figure, scrolled into view, as the reader sees it."""
    rect = _evaluate(browser, "(async () => { const f = document.querySelector('figure.privbook-explore');"
                              " f.scrollIntoView({block: 'center'}); await new Promise(r => setTimeout(r, 300));"
                              " const r = f.getBoundingClientRect();"
                              " return JSON.stringify({x: r.left, y: r.top, width: r.width, height: r.height}); })()")
    shot = browser.call("Page.captureScreenshot", {"format": "png"})  # the viewport, 1280 x 900
    image = Image.open(io.BytesIO(base64.b64decode(shot["data"])))
    box = (max(int(rect["x"]) - 10, 0), max(int(rect["y"]) - 10, 0),
           min(int(rect["x"] + rect["width"]) + 10, image.width), min(int(rect["y"] + rect["height"]) + 10, image.height))
    path.parent.mkdir(parents=True, exist_ok=True)
    image.crop(box).save(path)


def _press_right(browser: book_check.Browser, element_id: str) -> None:
    browser.call("Runtime.evaluate", {"expression": f"document.getElementById({element_id!r}).focus()"})
    for kind in ("keyDown", "keyUp"):
        browser.call("Input.dispatchKeyEvent", {"type": kind, "key": "ArrowRight", "code": "ArrowRight",
                                                "windowsVirtualKeyCode": 39, "nativeVirtualKeyCode": 39})


def _hosts(events: list[dict]) -> set[str]:
    return {urllib.parse.urlsplit(e["params"]["request"]["url"]).hostname or ""
            for e in events if e.get("method") == "Network.requestWillBeSent"}


@pytest.fixture(scope="module")
def browser():
    b = book_check.Browser(book_check.find_chromium())
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(scope="module")
def base():
    with book_check.serve(SITE) as url:
        yield url


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_slider_changes_the_curve_and_nothing_leaves_the_machine(browser, base, chapter):
    _open(browser, f"{base}/notebooks/{chapter}.html")
    before = _evaluate(browser, _STATE)
    assert before["found"], "no interactive figure on the page"
    assert before["plotly"] and before["ready"], "plotly.js did not load or the figure was not drawn"
    assert not before["fallback"] and not before["controlsHidden"]
    assert before["drawn"] and before["slider"] is not None
    if before["slider"]["value"] == before["slider"]["max"]:  # at the end of its range: move it back first
        browser.call("Runtime.evaluate", {"expression": f"(s => {{ s.value = 0; s.dispatchEvent(new Event('input')); }})"
                                                        f"(document.getElementById({before['slider']['id']!r}))"})
        before = _evaluate(browser, _STATE)
    _screenshot(browser, SCREENSHOTS / f"explore-{chapter}-before.png")

    _press_right(browser, before["slider"]["id"])
    time.sleep(0.3)
    after = _evaluate(browser, _STATE)
    _screenshot(browser, SCREENSHOTS / f"explore-{chapter}-after.png")
    assert int(after["slider"]["value"]) == int(before["slider"]["value"]) + 1
    assert after["slider"]["output"] != before["slider"]["output"], "the slider's value label did not follow"
    assert after["y0"] != before["y0"], "the plotted data did not change"
    assert after["drawn"] != before["drawn"], "the drawn curve did not change"

    # the book's dark mode (which keeps HTML outputs light): the figure's text follows its place's colour
    colours = _evaluate(browser, "(async () => { document.documentElement.dataset.theme = 'dark';"
                                 " await new Promise(r => setTimeout(r, 300));"
                                 " const f = document.querySelector('figure.privbook-explore');"
                                 " const t = f.querySelector('.xtick text');"
                                 " return JSON.stringify({tick: getComputedStyle(t).fill, text: getComputedStyle(f).color,"
                                 " caption: getComputedStyle(f.querySelector('figcaption')).color}); })()")
    _screenshot(browser, SCREENSHOTS / f"explore-{chapter}-dark.png")
    assert colours["tick"] == colours["text"] == colours["caption"], colours

    report = book_check.PageReport(chapter)
    book_check._event_problems(browser.events, report)
    assert report.problems == []
    assert _hosts(browser.events) <= book_check.LOCAL_HOSTS, "a request went to another host"
    scripts = [e["params"]["request"]["url"] for e in browser.events if e.get("method") == "Network.requestWillBeSent"
               and urllib.parse.urlsplit(e["params"]["request"]["url"]).path.endswith("plotly.min.js")]
    assert len(scripts) == 1 and urllib.parse.urlsplit(scripts[0]).path.endswith("/_static/plotly.min.js")


def test_figure_works_from_disk(browser):
    _open(browser, (SITE / "notebooks" / f"{CHAPTERS[0]}.html").resolve().as_uri())
    state = _evaluate(browser, _STATE)
    assert state["ready"] and state["drawn"]
    report = book_check.PageReport("file://")
    book_check._event_problems(browser.events, report)
    assert report.problems == []
    assert _hosts(browser.events) <= {""}, "a page opened from disk requested something from a host"


def test_one_copy_of_plotly_per_book():
    copies = sorted(p.relative_to(SITE).as_posix() for p in SITE.rglob("plotly*.js"))
    assert copies == ["_static/plotly.min.js"]
    pages = [p for p in SITE.rglob("*.html") if "_static/plotly.min.js" in p.read_text(encoding="utf-8")]
    assert {p.stem for p in pages} == set(CHAPTERS), "plotly.js must load on the pages with a figure, and only there"
