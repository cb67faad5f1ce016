"""Check the rendered book as a reader sees it: every page of ``_build/html`` in headless Chromium.

The site is served on 127.0.0.1 and every page is loaded through the Chrome DevTools Protocol.
A page fails when it has a console error, an uncaught exception or a failed request; a request to
any host other than localhost (such requests are intercepted and failed inside the browser, so
nothing leaves the machine); an image that did not load; math left untypeset; a Markdown table
left as raw pipe text; code that scrolls sideways; a claim whose status is FAILED; a figure shrunk below the size its text was
made for; an internal link whose file or ``#fragment`` does not exist; a JupyterLab link whose
notebook the lab server (``make lab``, rooted at the repository) cannot open, or a chapter page
without one; an image without alt text or caption; or headings that skip a level; raw reST directive or role text (``.. py:function::``,
``:func:``, ``:module:``: an API page whose autodoc output was not parsed as reST); a table, figure,
image, display equation or code block wider than the text column (a table may be wider inside a
container that scrolls sideways within the column), a table cell whose content overflows it, or a
number in a table cell broken across lines (at 1280 px and at 390 px, a phone); and any accessibility violation axe-core finds
(WCAG 2.1 A and AA rules, colour contrast included) in the light and in the dark colour mode.
Every page is then opened again from disk (file://, as a reader who double-clicks index.html does) and must load
without console errors or failed requests; search is run both ways. The ledger page must list
every claim registered in privlib with a passing status and its mutants killed.
Full-page screenshots of every page (light and dark at 1280 px, and at 390 px) are saved for review.

Usage: ``python tests/book_check.py [--site _build/html] [--screenshots _build/screenshots]
[--lab-root .] [--axe PATH]`` (``make axe`` installs the pinned axe-core from the npm registry).
(``make check-book``). Exit code 0 when every page passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import websocket

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
PAGE_TIMEOUT = 30.0
SCRIPT_TIMEOUT = 600.0

# Visible text, with code, scripts and typeset math removed, must not contain TeX delimiters.
_RAW_MATH = re.compile(r"\$[^$\s][^$]*\$|\\\(|\\\)|\\\[|\\\]|\\begin\{")
# ... nor the delimiter row of a Markdown table (rendered as a paragraph instead of a table;
# the typographer may have turned its "---" into an em or en dash)
_RAW_TABLE = re.compile(r"\|(\s*:?(-{3,}|[\u2014\u2013]-*):?\s*\|)+")
# A figure drawn for the book's width may be shown a little smaller, not much (its text shrinks)
MIN_FIGURE_SCALE = 0.8
# ... on the pages whose figures privlib.plotting draws (the chapters)
FIGURE_PAGES = ("",)
LAB_TREE = "/lab/tree/"
# reST that reached the page as text: an autodoc directive or a role not parsed as reST
_RAW_DIRECTIVE = re.compile(r"\.\. (?:py|auto)[a-z]*:[a-z]*::|:(?:func|module|class|meth|mod|members|attr):(?=[`\s])")
# the widths a reader sees: a desktop window and a phone
WIDTHS = (1280, 390)
# axe-core (make axe installs the version the Makefile pins from the npm registry)
AXE_DEFAULT = Path(__file__).resolve().parent.parent / ".venv" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

# What is wider than the text column (the article), or overflows its table cell: shown elements only.
_WIDTH_PROBE = r"""
(() => {
  const article = document.querySelector('article.bd-article') || document.querySelector('article') || document.body;
  const box = article.getBoundingClientRect();
  const style = getComputedStyle(article);
  const left = box.left + parseFloat(style.paddingLeft), right = box.right - parseFloat(style.paddingRight);
  const name = e => (e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ?
                     '.' + e.className.trim().split(/\s+/).slice(0, 2).join('.') : '') + ' ' +
                     (e.textContent || e.getAttribute('src') || '').trim().replace(/\s+/g, ' ').slice(0, 50));
  const wide = [];
  const scrollsX = e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
  // the box a reader scrolls sideways (a table's container) that holds e inside the column, if any
  const scroller = e => {
    for (let p = e.parentElement; p && p !== article; p = p.parentElement) if (scrollsX(p)) return p;
    return null;
  };
  for (const e of article.querySelectorAll('table, figure, img, pre, mjx-container[display="true"], .cell_output > *')) {
    if (e.getBoundingClientRect().width === 0 || e.closest('.ledger-hidden, details:not([open])')) continue;
    // what scrolls inside the column (a display equation, which MathJax cannot break; a wide table
    // in its scrolling container) does not widen the page: the scrolling box must fit
    const box = scrollsX(e) && !e.matches('pre') ? e : scroller(e);
    const r = (box || e).getBoundingClientRect();
    const width = box ? r.width : Math.max(r.width, e.scrollWidth);
    if (width > right - left + 2 || r.left < left - 2 || r.left + width > right + 2) {
      wide.push(`${name(e)} is ${Math.round(width)} px wide in a ${Math.round(right - left)} px column`);
    }
  }
  for (const c of article.querySelectorAll('td, th')) {
    if (c.clientWidth > 0 && c.scrollWidth > c.clientWidth + 2 && !c.closest('.ledger-hidden, details:not([open])')) {
      wide.push(`${name(c)}: content ${c.scrollWidth} px wide overflows its ${c.clientWidth} px cell`);
    }
  }
  // an interactive figure drawn wider than its box (plotly draws at the width it had when drawn,
  // and its container clips the rest): a reader sees part of the axes
  for (const svg of article.querySelectorAll('.privbook-explore-plot .main-svg')) {
    const plot = svg.closest('.privbook-explore-plot');
    const w = svg.getBoundingClientRect().width;
    if (w > 0 && w > plot.clientWidth + 2) {
      wide.push(`${name(plot.closest('figure') || plot)}: interactive figure drawn ${Math.round(w)} px wide, clipped to ${plot.clientWidth} px`);
    }
  }
  // typeset math cut off by its container (MathJax cannot break a formula)
  for (const m of article.querySelectorAll('mjx-container')) {
    const box = m.closest('td, th, p, li, dd') || m.parentElement;
    const r = m.getBoundingClientRect(), b = box.getBoundingClientRect();
    const scrolls = ['auto', 'scroll'].includes(getComputedStyle(m).overflowX);
    if (r.width > 0 && !scrolls && r.right > b.right + 2 && !m.closest('.ledger-hidden, details:not([open])')) {
      wide.push(`${name(m)} sticks out of its ${box.tagName.toLowerCase()} by ${Math.round(r.right - b.right)} px (clipped or overlapping)`);
    }
  }
  return JSON.stringify([...new Set(wide)].slice(0, 12));
})()
"""

# A number in a table cell broken across lines (its digits on two lines): shown cells only, typeset
# math and code excluded (MathJax never breaks a number; code wraps by design).
_BROKEN_NUMBER_PROBE = r"""
(() => {
  const article = document.querySelector('article.bd-article') || document.querySelector('article') || document.body;
  // (a sign only where no letter or digit precedes it: the 3 of lemma-3-4 is part of a name)
  const number = /(?:(?<![\w.])[-\u2212+])?\d+(?:[.,]\d+)*(?:[eE][-\u2212+]?\d+)?%?/g;
  const broken = [];
  for (const cell of article.querySelectorAll('td, th')) {
    if (cell.clientWidth === 0 || cell.closest('.ledger-hidden, details:not([open])')) continue;
    const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT, {acceptNode: n =>
      n.parentElement.closest('mjx-container, code, pre, script, style') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
    for (let node; (node = texts.nextNode());) {
      for (const m of node.data.matchAll(number)) {
        if (m[0].length < 2) continue;
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const boxes = [...range.getClientRects()].filter(r => r.width > 0);
        // a later piece starting below the first piece's middle is on another line
        if (boxes.some(b => b.top > boxes[0].top + boxes[0].height / 2)) {
          broken.push(`${m[0]} (in "${cell.textContent.trim().replace(/\s+/g, ' ').slice(0, 50)}")`);
        }
      }
    }
  }
  return JSON.stringify([...new Set(broken)].slice(0, 12));
})()
"""

_AXE_RUN = r"""
(async () => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: %s}, resultTypes: ['violations']});
  return JSON.stringify(result.violations.map(v => ({id: v.id, help: v.help, count: v.nodes.length,
      targets: v.nodes.slice(0, 3).map(n => n.target.join(' ') + (n.any[0] && n.any[0].data && n.any[0].data.contrastRatio ?
        ` (contrast ${n.any[0].data.contrastRatio}, ${n.any[0].data.fgColor} on ${n.any[0].data.bgColor})` : ''))})));
})()
"""

# The theme's colour mode, switched in place (pydata-sphinx-theme styles html[data-theme]); colour
# transitions are turned off first, so that axe reads the new colours and not a blend (a busy
# machine may still be mid-transition when it runs).
_SET_MODE = "if (!document.getElementById('book-check-no-transitions')) { const s = document.createElement('style'); " \
            "s.id = 'book-check-no-transitions'; s.textContent = '*, *::before, *::after { transition: none !important; }'; " \
            "document.head.appendChild(s); } " \
            "document.documentElement.dataset.theme = '%s'; document.documentElement.dataset.mode = '%s'; " \
            "new Promise(r => setTimeout(r, 150))"

_PAGE_PROBE = r"""
(async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) { await MathJax.startup.promise; }
  await new Promise(r => setTimeout(r, 50));
  const article = document.querySelector('article') || document.querySelector('main') || document.body;
  const rawText = article.textContent;
  const clone = article.cloneNode(true);
  clone.querySelectorAll('pre, code, script, style, mjx-container, .MathJax, textarea, .headerlink')
       .forEach(e => e.remove());
  const images = [...document.images].map(img => ({
    src: img.currentSrc || img.src,
    loaded: img.complete && img.naturalWidth > 0,
    alt: (img.getAttribute('alt') || '').trim(),
    caption: !!(img.closest('figure') && img.closest('figure').querySelector('figcaption')),
    decorative: img.getAttribute('role') === 'presentation' || img.getAttribute('aria-hidden') === 'true',
  }));
  const headings = [...article.querySelectorAll('h1, h2, h3, h4, h5, h6')]
       .map(h => [parseInt(h.tagName.substring(1)), h.textContent.trim().slice(0, 80)]);
  const links = [...document.querySelectorAll('a[href]')].map(a => a.href);
  const ledger = [...document.querySelectorAll('table.ledger tbody tr')]
       .map(tr => ({cells: [...tr.cells].map(c => c.textContent.trim()), status: tr.dataset.status || '',
                    href: (tr.querySelector('a[href]') || {href: ''}).href}));
  // claims that failed: a failed record, a FAILED status cell, or FAILED printed in an output
  const failed = [...document.querySelectorAll('.claim.claim-fail, td.claim-failed')]
       .map(e => e.textContent.trim().slice(0, 120));
  document.querySelectorAll('.cell_output, div.output').forEach(out => {
    const m = out.textContent.match(/.{0,60}\bFAILED\b.{0,40}/);
    if (m) failed.push(m[0].trim());
  });
  const labLinks = [...document.querySelectorAll('a[href*="/lab/tree/"]')].map(a => a.href);
  // the published book's launch buttons (Binder, Colab) instead of the local JupyterLab link
  const launchLinks = [...document.querySelectorAll('a[href*="mybinder.org/v2/gh/"], a[href*="colab.research.google.com/github/"]')]
       .map(a => a.href);
  // code that scrolls sideways instead of wrapping (only what is shown: collapsed cells have no width)
  const scrolling = [...document.querySelectorAll('pre')]
       .filter(p => p.clientWidth > 0 && p.scrollWidth > p.clientWidth + 1)
       .map(p => p.textContent.split('\n').reduce((a, b) => a.length >= b.length ? a : b).slice(0, 70));
  const figures = [...document.querySelectorAll('.cell_output img, div.output img')]
       .filter(img => img.complete && img.naturalWidth > 0 && img.getBoundingClientRect().width > 0)  // shown
       .map(img => ({src: img.currentSrc || img.src, shown: img.getBoundingClientRect().width, natural: img.naturalWidth}));
  return JSON.stringify({text: clone.textContent, rawText, images, headings, links, ledger, failed, labLinks, figures, scrolling, launchLinks,
                         mathjax: !!window.MathJax, height: document.documentElement.scrollHeight});
})()
"""


@dataclass
class PageReport:
    """What one page load found."""

    page: str
    problems: list[str] = field(default_factory=list)
    requests: int = 0


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep the output readable
        pass


@contextlib.contextmanager
def serve(root: Path):
    """Serve ``root`` on 127.0.0.1 on a free port, in a thread."""
    handler = functools.partial(_Handler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def find_chromium() -> str | None:
    """The Chromium executable, or None when it is not installed."""
    for path in CHROMIUM_CANDIDATES:
        if os.access(path, os.X_OK):
            return path
    return shutil.which("chromium")


class Browser:
    """Headless Chromium driven over one DevTools websocket (one tab)."""

    def __init__(self, executable: str):
        self.profile = tempfile.mkdtemp(prefix="privbook-chromium-")
        args = [executable, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--disable-default-apps", "--mute-audio",
                "--remote-allow-origins=*", "--remote-debugging-port=0", f"--user-data-dir={self.profile}",
                # no name of another host is ever resolved: nothing can leave the machine
                "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
                "--window-size=1280,900", "about:blank"]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.time() + 30
        while not port_file.exists() or len(port_file.read_text().split()) < 2:
            if time.time() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("Chromium did not start (no DevToolsActivePort)")
            time.sleep(0.05)
        port = port_file.read_text().split()[0]
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        page = next(t for t in targets if t.get("type") == "page")
        # a long page on a busy machine takes minutes to screenshot or to check: the socket waits
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=SCRIPT_TIMEOUT,
                                              suppress_origin=True, enable_multithread=True)
        self._next_id = 0
        self.events: list[dict] = []
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(f"{domain}.enable")
        # Intercept every request: local ones continue, any other is recorded and failed here.
        self.call("Fetch.enable", {"patterns": [{"urlPattern": "*"}]})
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})

    def _send(self, method: str, params: dict | None = None) -> int:
        self._next_id += 1
        self.ws.send(json.dumps({"id": self._next_id, "method": method, "params": params or {}}))
        return self._next_id

    def _handle_event(self, message: dict) -> None:
        self.events.append(message)
        if message.get("method") == "Fetch.requestPaused":
            params = message["params"]
            host = urllib.parse.urlsplit(params["request"]["url"]).hostname
            if host in LOCAL_HOSTS or params["request"]["url"].startswith(("data:", "blob:", "file:")):
                self._send("Fetch.continueRequest", {"requestId": params["requestId"]})
            else:
                self._send("Fetch.failRequest", {"requestId": params["requestId"], "errorReason": "BlockedByClient"})

    def call(self, method: str, params: dict | None = None, timeout: float = PAGE_TIMEOUT) -> dict:
        """Send a command and wait for its result, handling events meanwhile."""
        wanted = self._send(method, params)
        deadline = time.time() + timeout
        while time.time() < deadline:
            message = json.loads(self.ws.recv())
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error'].get('message')}")
                return message.get("result", {})
            if "method" in message:
                self._handle_event(message)
        raise TimeoutError(f"{method} timed out")

    def wait_for(self, event: str, timeout: float = PAGE_TIMEOUT) -> None:
        """Process events until ``event`` arrives."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            message = json.loads(self.ws.recv())
            if "method" in message:
                self._handle_event(message)
                if message["method"] == event:
                    return
        raise TimeoutError(f"{event} did not arrive")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()
        with contextlib.suppress(Exception):
            self.proc.terminate()
            self.proc.wait(timeout=10)
        shutil.rmtree(self.profile, ignore_errors=True)


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs) -> None:
        for key, value in attrs:
            if key in ("id", "name") and value:
                self.ids.add(value)


@functools.lru_cache(maxsize=None)
def _ids_of(path: Path) -> frozenset[str]:
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return frozenset(parser.ids)


def _check_link(site: Path, base: str, href: str) -> str | None:
    """A problem description for an internal link that does not resolve, else None."""
    parts = urllib.parse.urlsplit(href)
    if not href.startswith(base):
        return None
    rel = urllib.parse.unquote(parts.path).lstrip("/")
    target = site / rel
    if target.is_dir():
        target = target / "index.html"
    if not target.is_file():
        return f"broken link: {href[len(base):]} (no file {rel})"
    if parts.fragment and target.suffix == ".html" and urllib.parse.unquote(parts.fragment) not in _ids_of(target):
        return f"broken link: {href[len(base):]} (no element with id {parts.fragment!r})"
    return None


def _load(browser: Browser, url: str) -> dict | str:
    """Open ``url`` on a blank tab state; the page probe's result, or a problem description."""
    # start from a blank page so that late events of the previous page are not counted here
    browser.call("Page.navigate", {"url": "about:blank"})
    browser.wait_for("Page.loadEventFired")
    browser.events.clear()
    browser.call("Page.navigate", {"url": url})
    browser.wait_for("Page.loadEventFired")
    result = browser.call("Runtime.evaluate", {"expression": _PAGE_PROBE, "awaitPromise": True, "returnByValue": True})
    if "exceptionDetails" in result:
        return f"page probe failed: {result['exceptionDetails'].get('text')}"
    return json.loads(result["result"]["value"])


def _event_problems(events: list[dict], report: PageReport) -> None:
    """Console errors, uncaught exceptions, failed requests and requests to other hosts."""
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Network.requestWillBeSent":
            report.requests += 1
            url = params["request"]["url"]
            host = urllib.parse.urlsplit(url).hostname
            if host and host not in LOCAL_HOSTS:
                report.problems.append(f"request to another host: {url}")
        elif method == "Network.loadingFailed" and params.get("errorText") != "net::ERR_BLOCKED_BY_CLIENT":
            report.problems.append(f"failed request: {params.get('errorText')} ({params.get('type')})")
        elif method == "Network.responseReceived" and params["response"]["status"] >= 400:
            report.problems.append(f"HTTP {params['response']['status']}: {params['response']['url']}")
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            report.problems.append(f"uncaught exception: {str(text).splitlines()[0]}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            report.problems.append(f"console error: {args[:200]}")
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            report.problems.append(f"console error: {params['entry'].get('text', '')[:200]}")


def _content_problems(probe: dict, report: PageReport) -> None:
    """What a reader sees wrong: untypeset math, raw Markdown tables, failed claims."""
    raw = _RAW_MATH.search(probe["text"])
    if raw:
        start = max(raw.start() - 30, 0)
        report.problems.append(f"untypeset math: ...{probe['text'][start:raw.end() + 30].strip()!r}...")
    for table in list(_RAW_TABLE.finditer(probe["text"]))[:3]:
        start = max(table.start() - 60, 0)
        report.problems.append(f"raw Markdown table: ...{probe['text'][start:table.end() + 20].strip()!r}...")
    for text in probe["failed"]:
        report.problems.append(f"FAILED claim shown: {' '.join(text.split())[:120]!r}")
    for raw in list(_RAW_DIRECTIVE.finditer(probe.get("rawText", "")))[:3]:
        start = max(raw.start() - 30, 0)
        report.problems.append(f"raw directive text: ...{' '.join(probe['rawText'][start:raw.end() + 40].split())!r}...")


def check_lab_link(page: str, href: str, lab_root: Path) -> str | None:
    """A problem description when the JupyterLab server of ``make lab`` (rooted at ``lab_root``)
    cannot open the notebook ``href`` names, or it is not the page's own notebook; else None."""
    path = urllib.parse.unquote(urllib.parse.urlsplit(href).path)
    rel = path.split(LAB_TREE, 1)[1] if LAB_TREE in path else ""
    target = lab_root / rel
    if not rel or not target.is_file() or target.suffix != ".ipynb":
        return f"JupyterLab link opens nothing: {href} (no notebook {rel or '(empty path)'} under {lab_root})"
    if page.startswith("notebooks/") and rel != str(Path(page).with_suffix(".ipynb").as_posix()):
        return f"JupyterLab link opens {rel}, not this chapter"
    return None


def _evaluate(browser: Browser, expression: str, awaitPromise: bool = False):
    """The value of a JavaScript expression on the current page."""
    result = browser.call("Runtime.evaluate", {"expression": expression, "awaitPromise": awaitPromise,
                                               "returnByValue": True}, timeout=SCRIPT_TIMEOUT)
    if "exceptionDetails" in result:
        raise RuntimeError(f"page script failed: {result['exceptionDetails'].get('text')} "
                           f"{result['exceptionDetails'].get('exception', {}).get('description', '')[:200]}")
    return result["result"].get("value")


def _axe(browser: Browser, axe_source: str, mode: str, report: PageReport) -> None:
    """Run axe-core on the page as it is shown (in colour ``mode``); each violation is a problem."""
    _evaluate(browser, axe_source)
    for v in json.loads(_evaluate(browser, _AXE_RUN % json.dumps(AXE_TAGS), awaitPromise=True)):
        report.problems.append(f"accessibility ({mode} mode): {v['id']}: {v['help']} ({v['count']} element(s): "
                               f"{'; '.join(v['targets'])})")


#: the tallest screenshot Chromium renders in one piece; a taller page is saved in parts of this height
SCREENSHOT_PART = 16000
#: parts saved at most per page and mode (the ledger, the longest page, needs about 5)
SCREENSHOT_PARTS = 12


def _screenshot(browser: Browser, probe: dict, screenshot: Path | None, label: str, width: int = 1280) -> None:
    """A full-page screenshot to ``<screenshot stem>-<label>.png``; a page taller than
    ``SCREENSHOT_PART`` px continues in ``-<label>-2.png``, ``-<label>-3.png``, ... (at most
    ``SCREENSHOT_PARTS`` parts), so that no part of a long page goes unseen."""
    if screenshot is None:
        return
    total = int(max(probe["height"], 900))
    height = min(total, SCREENSHOT_PART)
    browser.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                        "mobile": width < 1280})
    screenshot.parent.mkdir(parents=True, exist_ok=True)
    for part, top in enumerate(range(0, min(total, SCREENSHOT_PART * SCREENSHOT_PARTS), SCREENSHOT_PART), start=1):
        clip = {"x": 0, "y": top, "width": width, "height": min(SCREENSHOT_PART, total - top), "scale": 1}
        shot = browser.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip},
                            timeout=SCRIPT_TIMEOUT)
        suffix = "" if part == 1 else f"-{part}"
        screenshot.with_name(f"{screenshot.stem}-{label}{suffix}.png").write_bytes(base64.b64decode(shot["data"]))
    browser.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1,
                                                        "mobile": width < 1280})


# interactive figures drawn wider than their box (before plotly has redrawn them after a resize)
_CLIPPED_FIGURES = ("[...document.querySelectorAll('.privbook-explore-plot .main-svg')]"
                    ".filter(s => s.getBoundingClientRect().width > s.closest('.privbook-explore-plot').clientWidth + 2).length")


def _await_redrawn_figures(browser: Browser, timeout: float = 5.0) -> None:
    """After the window changed width: wait (at most ``timeout`` s) until plotly has redrawn the
    interactive figures at their new width, as it does on a reader's resize (the width probe then
    reports a figure still clipped)."""
    deadline = time.time() + timeout
    while _evaluate(browser, _CLIPPED_FIGURES) and time.time() < deadline:
        time.sleep(0.25)


def check_page(browser: Browser, site: Path, base: str, page: str, screenshot: Path | None,
               lab_root: Path | None = None, axe_source: str | None = None) -> tuple[PageReport, dict]:
    """Load one page (served from ``base``) and report every problem found on it."""
    report = PageReport(page)
    probe = _load(browser, f"{base}/{page}")
    if isinstance(probe, str):
        report.problems.append(probe)
        return report, {}
    _event_problems(browser.events, report)
    _content_problems(probe, report)

    for img in probe["images"]:
        if not img["loaded"]:
            report.problems.append(f"image did not load: {img['src'][len(base):] if img['src'].startswith(base) else img['src']}")
        if not (img["alt"] or img["caption"] or img["decorative"]):
            report.problems.append(f"image without alt text or caption: {img['src'][-60:]}")
    for fig in probe["figures"] if page.startswith(FIGURE_PAGES) else []:
        if fig["shown"] < MIN_FIGURE_SCALE * fig["natural"]:
            report.problems.append(f"figure shown at {fig['shown'] / fig['natural']:.0%} of its size, its text "
                                   f"too small to read (draw it at most 7 inches wide): {fig['src'][-60:]}")
    for line in probe["scrolling"]:
        report.problems.append(f"code scrolls sideways instead of wrapping: {line!r}")
    levels = [level for level, _ in probe["headings"]]
    if levels and levels[0] != 1:
        report.problems.append(f"first heading is h{levels[0]}, not h1")
    for (prev, _), (level, text) in zip(probe["headings"], probe["headings"][1:]):
        if level > prev + 1:
            report.problems.append(f"heading jumps from h{prev} to h{level}: {text!r}")
    for href in sorted(set(probe["links"])):
        problem = _check_link(site, base, href)
        if problem:
            report.problems.append(problem)
    if lab_root is not None:
        for href in sorted(set(probe["labLinks"])):
            problem = check_lab_link(page, href, lab_root)
            if problem:
                report.problems.append(problem)
        notebook = Path(page).with_suffix(".ipynb").as_posix()
        for href in probe.get("launchLinks", []):
            if not urllib.parse.unquote(href).split("?")[0].endswith(notebook) and \
                    not urllib.parse.unquote(href).endswith(notebook):
                report.problems.append(f"launch button opens another notebook than {notebook}: {href}")
        if page.startswith("notebooks/") and (lab_root / page).with_suffix(".ipynb").is_file() \
                and not probe["labLinks"] and not probe.get("launchLinks"):
            report.problems.append("chapter page without a JupyterLab link or launch button")

    for problem in json.loads(_evaluate(browser, _WIDTH_PROBE)):
        report.problems.append(f"wider than the text column at 1280 px: {problem}")
    for number in json.loads(_evaluate(browser, _BROKEN_NUMBER_PROBE)):
        report.problems.append(f"number broken across lines at 1280 px: {number}")
    if axe_source is not None:
        _axe(browser, axe_source, "light", report)
    _screenshot(browser, probe, screenshot, "light")
    if axe_source is not None:
        _evaluate(browser, _SET_MODE % ("dark", "dark"), awaitPromise=True)
        _axe(browser, axe_source, "dark", report)
        _screenshot(browser, probe, screenshot, "dark")
        _evaluate(browser, _SET_MODE % ("light", "light"), awaitPromise=True)
    for width in WIDTHS[1:]:
        browser.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": True})
        time.sleep(0.3)
        _await_redrawn_figures(browser)
        for problem in json.loads(_evaluate(browser, _WIDTH_PROBE)):
            report.problems.append(f"wider than the text column at {width} px: {problem}")
        for number in json.loads(_evaluate(browser, _BROKEN_NUMBER_PROBE)):
            report.problems.append(f"number broken across lines at {width} px: {number}")
        _screenshot(browser, {"height": _evaluate(browser, "document.documentElement.scrollHeight")}, screenshot, str(width), width)
        browser.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    return report, probe


def check_page_from_disk(browser: Browser, site: Path, page: str) -> PageReport:
    """Open one page from disk (file://): it must load without console errors or failed
    requests, with its math typeset."""
    report = PageReport(f"{page} (file://)")
    probe = _load(browser, (site / page).resolve().as_uri())
    if isinstance(probe, str):
        report.problems.append(probe)
        return report
    _event_problems(browser.events, report)
    _content_problems(probe, report)
    return report


_SEARCH_PROBE = r"""
(async () => {
  for (let k = 0; k < 100; k++) {
    const done = document.querySelector('#search-results ul.search li, #search-results p.search-summary');
    if (done && !document.querySelector('#search-progress:not(:empty)')) break;
    await new Promise(r => setTimeout(r, 100));
  }
  await new Promise(r => setTimeout(r, 500));  // excerpts are fetched after the list
  const items = [...document.querySelectorAll('#search-results ul.search li')];
  return JSON.stringify({hits: items.length, excerpts: items.filter(li => li.querySelector('p.context')).length});
})()
"""


def check_search(browser: Browser, url: str, label: str, *, excerpts: bool) -> PageReport:
    """Search the book for 'privacy' at ``url`` (search.html): it must list pages, with excerpts
    when ``excerpts``, and raise no console error."""
    report = PageReport(label)
    browser.call("Page.navigate", {"url": "about:blank"})
    browser.wait_for("Page.loadEventFired")
    browser.events.clear()
    browser.call("Page.navigate", {"url": url + "?q=privacy"})
    browser.wait_for("Page.loadEventFired")
    result = browser.call("Runtime.evaluate", {"expression": _SEARCH_PROBE, "awaitPromise": True, "returnByValue": True})
    found = json.loads(result["result"]["value"]) if "exceptionDetails" not in result else {"hits": 0, "excerpts": 0}
    _event_problems(browser.events, report)
    if not found["hits"]:
        report.problems.append("search found nothing")
    elif excerpts and not found["excerpts"]:
        report.problems.append("search lists pages without excerpts")
    return report


def check_ledger(rows: list[dict]) -> list[str]:
    """Every registered claim must appear once on the ledger page with a passing status, a link to
    its record in its chapter, and every declared mutant killed."""
    from privlib import claims

    problems = []
    shown: dict[str, list[dict]] = {}
    for row in rows:
        match = re.search(r"\[([^\]]+)\]\s*$", row["cells"][0] if row["cells"] else "")
        if not match or len(row["cells"]) < 6:
            problems.append(f"ledger row not understood: {row['cells'][:1]}")
            continue
        shown.setdefault(match.group(1), []).append(row)
    registered = {c.id: c for c in claims.registry()}
    for cid, c in registered.items():
        rows_of = shown.get(cid, [])
        if len(rows_of) != 1:
            problems.append(f"ledger shows claim {cid} {len(rows_of)} times")
            continue
        row = rows_of[0]
        status = row["cells"][-1]
        if status not in claims.KINDS:
            problems.append(f"ledger shows {cid} with status {status!r}")
        if row["status"] != status:
            problems.append(f"ledger row of {cid} filters as {row['status']!r} but shows {status!r}")
        expected = f"{claims.CHAPTERS[c.paper]}.html#{claims.anchor(cid)}"
        if not row["href"].endswith(expected):
            problems.append(f"ledger links {cid} to {row['href'][-80:]!r}, not to its record ({expected})")
        killed = re.fullmatch(r"killed (\d+)/(\d+)", row["cells"][-2])
        if killed and killed.group(1) != killed.group(2):
            problems.append(f"ledger shows {cid} with mutants {row['cells'][-2]} (a mutant survived)")
    for cid in sorted(set(shown) - set(registered)):
        problems.append(f"ledger shows {cid}, which privlib does not register")
    return problems


_REDIRECT = re.compile(r'<meta http-equiv="Refresh" content="0; url=([^"]+)"', re.IGNORECASE)


def redirect_target(path: Path) -> str | None:
    """The target of a bare redirect page (such as the book's index.html), else None."""
    text = path.read_text(encoding="utf-8", errors="replace")
    match = _REDIRECT.search(text)
    return match.group(1) if match and "<body" not in text else None


def site_pages(site: Path) -> list[str]:
    """Every HTML page of the book (not assets, sources, or bare redirect pages)."""
    pages = []
    for path in sorted(site.rglob("*.html")):
        rel = path.relative_to(site).as_posix()
        if rel.startswith(("_static/", "_sources/", "_images/")) or redirect_target(path):
            continue
        pages.append(rel)
    return pages


def check_redirects(site: Path) -> list[PageReport]:
    """Every redirect page must point at an existing page."""
    reports = []
    for path in sorted(site.rglob("*.html")):
        target = redirect_target(path)
        if target:
            rel = path.relative_to(site).as_posix()
            ok = (path.parent / urllib.parse.urlsplit(target).path).is_file()
            reports.append(PageReport(rel, [] if ok else [f"redirect to a missing page: {target}"]))
    return reports


def check_site(site: Path, *, screenshots: Path | None = None, ledger_page: str | None = "book/ledger.html",
               chromium: str | None = None, verbose: bool = True, lab_root: Path | None = None,
               from_disk: bool = True, axe: Path | None = AXE_DEFAULT) -> list[PageReport]:
    """Check every page of ``site``, served and (``from_disk``) from file://; screenshots of
    ``notebooks/*.html`` go to ``screenshots``. JupyterLab links must name notebooks under
    ``lab_root`` (the repository, which ``make lab`` serves; default: two levels above the site)."""
    executable = chromium or find_chromium()
    if executable is None:
        raise RuntimeError("Chromium is not installed (apt-get install chromium)")
    lab_root = lab_root if lab_root is not None else site.resolve().parent.parent
    if axe is not None and not Path(axe).is_file():
        raise RuntimeError(f"axe-core is not installed at {axe} (make axe)")
    axe_source = Path(axe).read_text(encoding="utf-8") if axe is not None else None
    reports = []

    def done(report: PageReport) -> None:
        reports.append(report)
        if verbose:
            status = "ok" if not report.problems else f"{len(report.problems)} problem(s)"
            print(f"{report.page:<62} {report.requests:>4} requests  {status}", flush=True)

    pages = site_pages(site)
    with serve(site) as base:
        browser = Browser(executable)
        try:
            for page in pages:
                shot = None
                if screenshots is not None:
                    shot = screenshots / (page.removesuffix(".html").replace("/", "-") + ".png")
                report, probe = check_page(browser, site, base, page, shot, lab_root, axe_source)
                if ledger_page and page == ledger_page:
                    report.problems += check_ledger(probe.get("ledger", []))
                done(report)
            if "search.html" in pages:
                done(check_search(browser, f"{base}/search.html", "search for 'privacy' (served)", excerpts=True))
            if from_disk:
                for page in pages:
                    done(check_page_from_disk(browser, site, page))
                if "search.html" in pages:
                    done(check_search(browser, (site / "search.html").resolve().as_uri(),
                                      "search for 'privacy' (file://)", excerpts=False))
        finally:
            browser.close()
    reports += check_redirects(site)
    if ledger_page and ledger_page not in pages:
        reports.append(PageReport(ledger_page, [f"{ledger_page} is missing"]))
    return reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="_build/html", type=Path)
    parser.add_argument("--screenshots", default="_build/screenshots", type=Path)
    parser.add_argument("--axe", default=AXE_DEFAULT, type=Path, help="axe.min.js (default: the copy make axe installs)")
    parser.add_argument("--lab-root", default=None, type=Path,
                        help="the folder `make lab` serves (default: two levels above --site)")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(f"book_check: no built book at {args.site} (run make book)", file=sys.stderr)
        return 1
    start = time.time()
    try:
        reports = check_site(args.site, screenshots=args.screenshots, lab_root=args.lab_root, axe=args.axe)
    except RuntimeError as exc:
        print(f"book_check: {exc}", file=sys.stderr)
        return 1
    failed = [r for r in reports if r.problems]
    for r in failed:
        for problem in r.problems:
            print(f"FAIL {r.page}: {problem}")
    print(f"{len(reports)} pages checked in {time.time() - start:.0f} s: "
          f"{len(reports) - len(failed)} passed, {len(failed)} failed; screenshots in {args.screenshots}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
