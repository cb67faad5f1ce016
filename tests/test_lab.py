"""The book's "JupyterLab" button, for real: ``make lab`` starts the server (as root too), the link
the book renders opens the chapter, all its cells run in a kernel of that server, and (in headless
Chromium) the chapter opens with its Markdown rendered by MyST and without being modified."""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest
import websocket
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book" / "_ext"))
sys.path.insert(0, str(ROOT / "tests"))
import book_check  # noqa: E402
from jupyterlab_link import lab_link  # noqa: E402

#: the chapter whose cells are run in the server's kernel (the one the issue tried)
CHAPTER = "notebooks/004_statistical_privacy"
CELL_TIMEOUT = 600.0


def _config_lab_url() -> str:
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    return config["sphinx"]["config"]["privbook_lab_url"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lab:
    """A JupyterLab server started by ``make lab`` on a free port with a known token."""

    def __init__(self, tmp: Path):
        self.port = _free_port()
        self.token = secrets.token_hex(16)
        env = {**os.environ, "JUPYTER_TOKEN": self.token,
               # the user's own Jupyter settings and workspaces stay out of the test
               "JUPYTER_CONFIG_DIR": str(tmp / "config"), "JUPYTERLAB_SETTINGS_DIR": str(tmp / "settings"),
               "JUPYTERLAB_WORKSPACES_DIR": str(tmp / "workspaces"), "JUPYTER_RUNTIME_DIR": str(tmp / "runtime")}
        # no autosave in the test: a regression shows as a modified tab, never as a rewritten file
        settings = tmp / "settings" / "@jupyterlab" / "docmanager-extension"
        settings.mkdir(parents=True)
        (settings / "plugin.jupyterlab-settings").write_text(json.dumps({"autosave": False}))
        self.log = (tmp / "lab.log").open("w")
        self.proc = subprocess.Popen(["make", "--no-print-directory", "lab", f"LAB_PORT={self.port}",
                                      "LAB_ARGS=--no-browser"], cwd=ROOT, env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 120
        while True:
            with contextlib.suppress(OSError):
                if self.get("/api/status")["started"]:
                    break
            if self.proc.poll() is not None or time.time() > deadline:
                self.close()
                raise RuntimeError(f"make lab did not start: {(tmp / 'lab.log').read_text()[-2000:]}")
            time.sleep(0.5)

    def request(self, method: str, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Authorization": f"token {self.token}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as response:
            text = response.read().decode()
        return json.loads(text) if text.strip().startswith(("{", "[")) else {"text": text}

    def get(self, path: str) -> dict:
        return self.request("GET", path)

    def local(self, link: str) -> str:
        """The book's link (which names port 8888) pointed at this server."""
        parts = urllib.parse.urlsplit(link)
        return urllib.parse.urlunsplit(("http", f"127.0.0.1:{self.port}", parts.path, parts.query, ""))

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, 2)  # Ctrl-C twice: JupyterLab shuts its kernels down
            time.sleep(0.5)
            os.killpg(self.proc.pid, 2)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, 9)
            self.proc.wait()
        self.log.close()


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    server = Lab(tmp_path_factory.mktemp("lab"))
    yield server
    server.close()


def _tree_path(link: str) -> str:
    path = urllib.parse.unquote(urllib.parse.urlsplit(link).path)
    assert path.startswith("/lab/tree/"), link
    return path[len("/lab/tree/"):]


def test_book_links_to_the_port_make_lab_serves():
    makefile = (ROOT / "Makefile").read_text()
    port = re.search(r"^LAB_PORT \?= (\d+)$", makefile, re.M).group(1)
    assert urllib.parse.urlsplit(_config_lab_url()).port == int(port)


@pytest.mark.parametrize("notebook", sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb")))
def test_link_opens_the_chapter(lab, notebook):
    link = lab_link(_config_lab_url(), f"notebooks/{notebook}")
    page = urllib.request.urlopen(lab.local(link) + f"?token={lab.token}", timeout=60)
    assert page.status == 200
    model = lab.get("/api/contents/" + urllib.parse.quote(_tree_path(link)) + "?content=0")
    assert model["type"] == "notebook", model


def test_kernel_spec_matches_the_notebooks(lab):
    """JupyterLab writes the kernel's display name into a notebook it opens when they differ."""
    specs = lab.get("/api/kernelspecs")
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        recorded = json.loads(path.read_text())["metadata"]["kernelspec"]
        spec = specs["kernelspecs"][recorded["name"]]["spec"]
        assert (spec["display_name"], spec["language"]) == (recorded["display_name"], recorded["language"]), path.name


def _message(session: str, code: str) -> dict:
    return {"header": {"msg_id": uuid.uuid4().hex, "username": "test", "session": session,
                       "msg_type": "execute_request", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell",
            "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}


def _execute(ws, session: str, code: str) -> list[str]:
    """Run ``code`` in the kernel; the errors it raised (empty when it ran)."""
    message = _message(session, code)
    ws.send(json.dumps(message))
    errors, idle, replied = [], False, False
    deadline = time.time() + CELL_TIMEOUT
    while not (idle and replied):
        if time.time() > deadline:
            raise TimeoutError(f"cell did not finish in {CELL_TIMEOUT} s: {code[:80]!r}")
        reply = json.loads(ws.recv())
        if reply.get("parent_header", {}).get("msg_id") != message["header"]["msg_id"]:
            continue
        kind = reply["header"]["msg_type"]
        if kind == "error":
            errors.append(f"{reply['content']['ename']}: {reply['content']['evalue']}")
        elif kind == "status" and reply["content"]["execution_state"] == "idle":
            idle = True
        elif kind == "execute_reply":
            replied = True
    return errors


def test_all_cells_run_in_a_kernel_of_the_server(lab):
    link = lab_link(_config_lab_url(), CHAPTER)
    path = _tree_path(link)
    notebook = lab.get("/api/contents/" + urllib.parse.quote(path))["content"]
    session = lab.request("POST", "/api/sessions", {"path": path, "type": "notebook", "name": "",
                                                     "kernel": {"name": notebook["metadata"]["kernelspec"]["name"]}})
    kernel = session["kernel"]["id"]
    ws = websocket.create_connection(f"ws://127.0.0.1:{lab.port}/api/kernels/{kernel}/channels"
                                     f"?session_id={session['id']}&token={lab.token}",
                                     timeout=CELL_TIMEOUT, suppress_origin=True)
    try:
        cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
        for k, cell in enumerate(cells, 1):
            errors = _execute(ws, session["id"], cell["source"])
            assert not errors, f"{path}, code cell {k} of {len(cells)}: {errors}"
    finally:
        ws.close()
        lab.request("DELETE", f"/api/sessions/{session['id']}")


# In the browser: the chapter opens (no "Could not find path" dialog), a kernel starts, the tab is
# not marked modified, the file is unchanged, and MyST rendered the Markdown (no role or directive
# left as raw text, Markdown tables that code cells output shown as tables).
_LAB_PROBE = r"""(() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  const all = (selector) => panel ? [...panel.querySelectorAll(selector)] : [];
  return JSON.stringify({
    title: (document.querySelector('.lm-DockPanel .lm-TabBar-tab.lm-mod-current') || {textContent: ''}).textContent,
    loaded: all('.jp-Cell').length > 0 && !!panel.querySelector('.jp-Cell:last-child .jp-Cell-inputWrapper'),
    kernel: all('.jp-Toolbar-kernelName').map(e => e.textContent.trim()).join(''),
    status: all('[data-status]').map(e => e.dataset.status).join(''),
    dirty: document.querySelectorAll('.lm-DockPanel .lm-TabBar-tab.lm-mod-current.jp-mod-dirty').length,
    dialogs: [...document.querySelectorAll('.jp-Dialog')].map(e => e.textContent.slice(0, 200)),
    markdown: all('.jp-MarkdownCell .jp-RenderedMarkdown, .jp-MarkdownCell .myst').map(e => e.textContent).join('\n'),
    // code cells whose input is collapsed (cell metadata jupyter.source_hidden: hidden in the book)
    collapsed: all('.jp-CodeCell .jp-InputPlaceholder').length,
    outputs: all('.jp-OutputArea-output[data-mime-type="text/markdown"]')
      .map(e => ({tables: e.querySelectorAll('table').length, text: e.textContent.slice(0, 4000)})),
    // references and citations jupyterlab-myst could not resolve (marked "Cross Reference Not
    // Found", "Citation Not Found"), in Markdown cells and in Markdown outputs
    unresolved: all('[title$="Not Found"], [title$="not found"]')
      .map(e => `${e.getAttribute('title')}: ${e.textContent.trim().slice(0, 80)}`),
  });
})()"""
_RAW_MYST = re.compile(r"\{(cite|cite:[a-z]+|bibcite|doc|ref|numref|std:numref|eq|math)\}`|^:::|^```\{", re.M)


def _hidden_inputs(notebook: Path) -> int:
    """Code cells whose input the book hides (tags), each collapsed in JupyterLab by its metadata."""
    cells = [c for c in json.loads(notebook.read_text())["cells"] if c["cell_type"] == "code"]
    hidden = {"hide-input", "remove-input", "remove-cell"}
    for c in cells:
        if hidden & set(c["metadata"].get("tags", [])):
            assert c["metadata"].get("jupyter", {}).get("source_hidden"), \
                f"{notebook.name}: a cell hidden in the book is expanded in JupyterLab: {''.join(c['source'])[:80]!r}"
    return sum(bool(c["metadata"].get("jupyter", {}).get("source_hidden")) for c in cells)


def test_code_hidden_in_the_book_is_collapsed_in_lab():
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        assert _hidden_inputs(notebook) > 0, notebook.name


def _markdown_outputs(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text())["cells"]
    return ["".join(o["data"]["text/markdown"]) for c in cells if c["cell_type"] == "code"
            for o in c.get("outputs", []) if "text/markdown" in o.get("data", {})]


# what jupyterlab-myst writes to the console for a reference it cannot resolve
_UNRESOLVED_CONSOLE = re.compile(r"not found|No target for internal reference", re.I)


def _open_chapter(browser, lab, page: str) -> tuple[dict, list[str]]:
    """Open ``page`` (``notebooks/<stem>``) by the book's link and wait until its kernel is idle;
    the probe, and the console errors of the page that concern unresolved references."""
    link = lab_link(_config_lab_url(), page)
    browser.events.clear()
    browser.call("Page.navigate", {"url": lab.local(link) + f"?token={lab.token}"}, timeout=120)
    browser.wait_for("Page.loadEventFired", timeout=120)
    deadline, probe, idle_since = time.time() + 300, {}, None
    while time.time() < deadline:
        time.sleep(1)
        # (a long chapter rendering on a busy machine keeps the page's thread for a while)
        result = browser.call("Runtime.evaluate", {"expression": _LAB_PROBE, "returnByValue": True}, timeout=CELL_TIMEOUT)
        probe = json.loads(result["result"]["value"])
        assert not probe["dialogs"], probe["dialogs"]
        ready = (probe["title"].startswith(Path(page).name) and probe["loaded"]
                 and probe["kernel"] not in ("", "No Kernel") and probe["status"] == "idle")
        idle_since = (idle_since or time.time()) if ready else None
        if idle_since and time.time() - idle_since > 5:  # settled: kernel info has arrived
            break
    else:
        pytest.fail(f"{page} did not open with an idle kernel: {dict(probe, markdown='...')}")
    errors = []
    for event in browser.events:
        params = event.get("params", {})
        if event.get("method") == "Runtime.consoleAPICalled" and params.get("type") == "error":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
        elif event.get("method") == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            text = params["entry"].get("text", "")
        else:
            continue
        if _UNRESOLVED_CONSOLE.search(text):
            errors.append(text[:300])
    return probe, errors


@pytest.mark.skipif(book_check.find_chromium() is None, reason="Chromium is not installed (make chromium)")
def test_chapter_opens_unmodified_with_myst_rendered(lab):
    # the chapter with the most Markdown outputs, so that their rendering is seen too
    with_outputs = max(sorted((ROOT / "notebooks").glob("*.ipynb")), key=lambda p: len(_markdown_outputs(p)))
    pages = [CHAPTER] + ([f"notebooks/{with_outputs.stem}"] if f"notebooks/{with_outputs.stem}" != CHAPTER else [])
    browser = book_check.Browser(book_check.find_chromium())
    try:
        for page in pages:
            notebook = ROOT / (page + ".ipynb")
            before = notebook.read_bytes()
            probe, _ = _open_chapter(browser, lab, page)
            recorded = json.loads(before)["metadata"]["kernelspec"]["display_name"]
            assert probe["kernel"] == recorded, f"{page} records kernel {recorded!r}, the server has {probe['kernel']!r}"
            assert probe["dirty"] == 0, f"opening {page} marked it modified"
            if notebook.read_bytes() != before:
                notebook.write_bytes(before)
                pytest.fail(f"opening {page} rewrote it (restored)")
            assert probe["collapsed"] == _hidden_inputs(notebook), \
                f"{page}: {probe['collapsed']} code cells collapsed in JupyterLab, {_hidden_inputs(notebook)} hidden in the book"
            raw = _RAW_MYST.search(probe["markdown"])
            assert probe["markdown"] and raw is None, f"raw MyST in {page}: {raw and raw.group(0)}"
            expected = _markdown_outputs(notebook)
            assert len(probe["outputs"]) == len(expected), (page, len(probe["outputs"]), len(expected))
            for shown, source in zip(probe["outputs"], expected):
                assert shown["tables"] >= len(re.findall(r"^\|[-:| ]+\|$", source, re.M)), shown["text"][:300]
                assert _RAW_MYST.search(shown["text"]) is None, shown["text"][:300]
    finally:
        browser.close()


@pytest.mark.skipif(book_check.find_chromium() is None, reason="Chromium is not installed (make chromium)")
def test_references_and_citations_resolve_or_read_as_text(lab):
    """Every chapter opens in JupyterLab without a reference or citation marked "not found" (in its
    Markdown cells and Markdown outputs) and without a console error about one: figure references
    and citations are written in roles jupyterlab-myst shows as text (book/_ext/lab_references.py)."""
    browser = book_check.Browser(book_check.find_chromium())
    try:
        for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
            page = f"notebooks/{notebook.stem}"
            probe, errors = _open_chapter(browser, lab, page)
            assert probe["unresolved"] == [], f"{page}: {probe['unresolved']}"
            assert errors == [], f"{page}: console errors: {errors}"
    finally:
        browser.close()


@pytest.mark.skipif(book_check.find_chromium() is None, reason="Chromium is not installed (make chromium)")
def test_unresolved_references_are_reported(lab):
    """The check above fails on the forms jupyterlab-myst cannot resolve: a planted notebook (in
    _build, which make lab serves too) with a ``{cite}`` and a ``{numref}`` to a figure a code cell
    draws, next to the forms the chapters use."""
    chapter = json.loads((ROOT / f"{CHAPTER}.ipynb").read_text())
    figure = {"cell_type": "code", "execution_count": 1, "id": "figure", "outputs": [], "source": ["1"],
              "metadata": {"mystnb": {"figure": {"name": "fig-planted", "caption": "A figure."}}}}
    text = ("# Planted\n\nFaults: {cite}`bailie2024general`, {numref}`fig-planted`.\n\n"
            "Fine: {bibcite}`bailie2024general`, {std:numref}`fig-planted`.")
    planted = ROOT / "_build" / "lab-probe" / "planted.ipynb"
    planted.parent.mkdir(parents=True, exist_ok=True)
    planted.write_text(json.dumps({"cells": [{"cell_type": "markdown", "id": "text", "metadata": {}, "source": [text]},
                                             figure], "metadata": chapter["metadata"], "nbformat": 4,
                                   "nbformat_minor": 5}))
    browser = book_check.Browser(book_check.find_chromium())
    try:
        probe, errors = _open_chapter(browser, lab, "_build/lab-probe/planted")
    finally:
        browser.close()
        planted.unlink()
    assert sorted(probe["unresolved"]) == ["Citation Not Found: bailie2024general",
                                           "Cross Reference Not Found: fig-planted"], probe["unresolved"]
    assert errors and all("fig-planted" in e for e in errors), errors
    assert "Fine: bailie2024general, fig-planted." in probe["markdown"], probe["markdown"]


@pytest.mark.skipif(os.geteuid() != 0, reason="terminals are turned off only for a server run as root")
def test_a_root_server_offers_no_terminal(lab):
    """As root, whoever holds the token must not get a root shell: the terminals API is absent."""
    import urllib.error

    with pytest.raises(urllib.error.HTTPError) as refused:
        lab.request("POST", "/api/terminals", {})
    assert refused.value.code == 404
