"""Batch regeneration behind ``privbook sweep``: one papermill run per point of a parameter grid.

Each point runs through :func:`privlib.batch.runs.run_notebook` into ``<out>/<slug>/`` (the executed
notebook, its figures, ``parameters.json``, ``results.json`` and, written last, ``files.json``
with the size and SHA-256 of every file), written under a temporary name and renamed only when
finished. The sweep ends with a manifest (``manifest.csv``/``manifest.json``) and a gallery page
(``gallery.html``) showing every run's figures, parameters and claim statuses; figure k of every
run is redrawn on y-axes shared across the runs into ``gallery/`` (its files listed in
``gallery/gallery.json``, all a later sweep removes there).

What a sweep guarantees:

- **Resume checks the files, not only the record.** A point is skipped only when its folder
  matches its ``files.json`` (every file present, same size, same hash) and its ``results.json``
  carries the same key (notebook content, parameters, privlib sources); any other point runs
  again, and the sweep says why (``rerun <slug>: figure-02.png is missing``).
- **One sweep per output folder.** The sweep holds the lock ``<out>/.privbook-sweep.lock``;
  a second sweep on the same folder stops with :class:`privlib.batch.runs.RunBusy` (or waits, with
  ``wait=True``), so no point is run twice.
- **Interrupts are prompt and clean.** On SIGINT or SIGTERM no new point starts, running
  kernels are killed, their temporary folders removed, and the manifest records those points as
  ``interrupted`` (never started: ``not run``); the summary carries the signal. Debris of a
  SIGKILL (temporary folders, lock files, kernel-socket folders) is removed by the next sweep.
- **Bounded input.** Grid files are read with a size limit, a safe YAML loader, and a limit on the
  number of values counted with aliases expanded, before anything is constructed; error
  messages quote short excerpts only; oversized grids are refused before any run.
- **Scheduler errors** (``scheduler=``) are raised as one-line ``SchedulerError`` before any
  file is written.
- **Only its own folders.** ``out`` must be a new folder or one a sweep created (its marker
  ``.privbook-sweep``, written first thing, or its manifest), and a point run again replaces only a
  finished run's files (``runs.check_out``); anything else is refused before any file
  is written.
- **A full disk is one error.** An ``OSError`` writing the sweep's own files is raised as
  ``runs.OutputError`` with no temporary file left; finished points are kept.

Runs go to local worker processes (``jobs``), or to a Dask distributed scheduler when an address
is given (``dask.distributed.Client`` used as the executor; workers need the repository at the
same path, and the stop request reaches them through a file in the output folder).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import csv
import hashlib
import html
import io
import itertools
import json
import logging
import math
import multiprocessing
import os
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from privlib.book import results
from privlib.batch import runs

__all__ = ["MAX_RUNS", "MAX_GRID_FILE_BYTES", "MAX_GRID_VALUES", "STATUSES", "SchedulerError", "Point",
           "parse_grid", "expand_grid", "plan", "run_sweep"]

MAX_RUNS = 200
"""Grids with more points than this need ``allow_large=True`` (``--allow-large``)."""
MAX_GRID_FILE_BYTES = 256 * 1024
"""Largest grid file read (a grid of a few hundred values takes a few kilobytes)."""
MAX_GRID_VALUES = 10_000
"""Most values (YAML nodes, aliases expanded) a grid file may hold."""
_MAX_GRID_DEPTH = 4  # mapping -> list of values -> list (a list[...] parameter) -> scalar

STATUSES = ("done", "skipped", "failed", "interrupted", "not run")
"""A point's status in the manifest: finished by this sweep, finished earlier and unchanged, raised
an error (``<slug>.failed/error.txt``), stopped by an interrupt (nothing kept), or never started."""

SWEEP_LOCK = ".privbook-sweep.lock"
STOP_FILE = ".privbook-stop"
_SCHEDULER_TIMEOUT = 10  # seconds to reach a Dask scheduler
_STOP_GRACE = 20  # seconds to wait, after an interrupt, for running points to report


class SchedulerError(runs.ParameterError):
    """The Dask scheduler cannot be reached or used (reported in one line, exit status 2)."""


@dataclass(frozen=True)
class Point:
    """One run of a sweep: its parameters, folder, resume key, and why it must run again
    (``""`` for a point never run)."""

    params: dict[str, Any]
    folder: Path
    key: str
    reason: str = ""


# --- grids -----------------------------------------------------------------------------------------

def _node_count(node: yaml.Node, depth: int, memo: dict[int, int]) -> int:
    """Values in a composed YAML node, aliases expanded (shared nodes counted each time they are
    used, from a memo, so a billion-laughs file costs as many steps as it has distinct nodes)."""
    if depth > _MAX_GRID_DEPTH:
        raise runs.ParameterError(f"values are nested more than {_MAX_GRID_DEPTH - 2} lists deep")
    if id(node) in memo:
        if memo[id(node)] < 0:
            raise runs.ParameterError("a value contains itself (a recursive alias)")
        return memo[id(node)]
    memo[id(node)] = -1  # in progress
    if isinstance(node, yaml.ScalarNode):
        count = 1
    elif isinstance(node, yaml.SequenceNode):
        count = 1 + sum(_node_count(child, depth + 1, memo) for child in node.value)
    else:
        count = 1 + sum(_node_count(k, depth + 1, memo) + _node_count(v, depth + 1, memo) for k, v in node.value)
    if count > MAX_GRID_VALUES:
        raise runs.ParameterError(f"it holds more than {MAX_GRID_VALUES} values (aliases expanded)")
    memo[id(node)] = count
    return count


def _load_grid_file(path: Path) -> Any:
    """The YAML document of a grid file, read with a size limit and a safe loader; the values are
    counted on the composed node graph (aliases expanded) before any Python object is built."""
    try:
        size = path.stat().st_size
        if size > MAX_GRID_FILE_BYTES:
            raise runs.ParameterError(f"grid file {path.name} has {size} bytes, more than {MAX_GRID_FILE_BYTES}; "
                                      "give large grids with --grid NAME=V1,V2,... or split them")
        with path.open("rb") as fh:
            data = fh.read(MAX_GRID_FILE_BYTES + 1)
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise runs.ParameterError(f"grid file {path.name} is not UTF-8 text") from None
    except OSError as exc:
        raise runs.ParameterError(f"grid file {path.name} cannot be read: {exc.strerror}") from None
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        try:
            _node_count(node, 1, {})
        except runs.ParameterError as exc:
            raise runs.ParameterError(f"grid file {path.name} is too large: {exc}") from None
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or (str(exc).splitlines() or [type(exc).__name__])[0]
        problem = problem if len(problem) <= 120 else problem[:117] + "..."
        raise runs.ParameterError(f"grid file {path.name} is not valid YAML{where}: {problem}") from None
    except RecursionError:
        raise runs.ParameterError(f"grid file {path.name} is nested too deeply") from None
    finally:
        loader.dispose()


def parse_grid(grid_args: Iterable[str] = (), grid_file: str | Path | None = None) -> dict[str, list[Any]]:
    """Raw grid values from ``NAME=V1,V2`` arguments and/or a YAML file mapping names to lists.

    The YAML file is read with a safe loader (no object construction), within the limits
    ``MAX_GRID_FILE_BYTES`` and ``MAX_GRID_VALUES``; command-line values are split on
    commas. Nothing is converted or executed here.
    """
    grid: dict[str, list[Any]] = {}
    if grid_file is not None:
        path = Path(grid_file)
        if not path.is_file():
            raise runs.ParameterError(f"grid file {runs.excerpt(str(path), 120)} does not exist")
        loaded = _load_grid_file(path)
        if not isinstance(loaded, dict) or not all(isinstance(k, str) for k in loaded):
            raise runs.ParameterError(f"grid file {path.name} must map parameter names to lists of values")
        for name, values in loaded.items():
            grid[name] = list(values) if isinstance(values, list) else [values]
    for arg in grid_args:
        name, sep, values = arg.partition("=")
        if not sep or not name.strip():
            raise runs.ParameterError(f"--grid expects NAME=V1,V2,..., got {runs.excerpt(arg)}")
        grid[name.strip()] = values.split(",") if values else []
    return grid


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def expand_grid(notebook: Path, grid: dict[str, list[Any]], *, allow_large: bool = False) -> list[dict[str, Any]]:
    """Validate every name and value against the notebook's parameters and return the product
    of the values (duplicates dropped), one dict per run. Raises :class:`privlib.batch.runs.ParameterError`
    before anything runs; a grid larger than :data:`MAX_RUNS` is refused as soon as the values
    parsed so far exceed it (without ``allow_large``), so a huge grid costs no more than a small one."""
    if not grid:
        raise runs.ParameterError("the grid is empty: give at least one --grid NAME=V1,V2 or a grid file")
    declared = runs.notebook_parameters(notebook)
    for name, values in grid.items():
        if name not in declared:
            raise runs.ParameterError(f"unknown parameter {runs.excerpt(name)} for {notebook.stem}; "
                                      f"known: {', '.join(declared)}")
        if not values:
            raise runs.ParameterError(f"parameter {name!r} has no values in the grid")
    columns = []
    size = 1
    for name, values in grid.items():
        unique: dict[Any, Any] = {}
        for v in values:
            parsed = runs.parse_value(declared[name], v)
            unique.setdefault(_hashable(parsed), parsed)
            if size * len(unique) > MAX_RUNS and not allow_large:
                raise runs.ParameterError(f"the grid has more than {MAX_RUNS} points; pass --allow-large to run it")
        columns.append((name, list(unique.values())))
        size *= len(unique)
    names = [n for n, _ in columns]
    return [dict(zip(names, combo)) for combo in itertools.product(*(v for _, v in columns))]


def plan(notebook: Path, points: list[dict[str, Any]], out: Path) -> tuple[list[Point], list[Point]]:
    """Split the grid into runs still to do (each with the reason) and runs already finished
    with the same key whose files match their ``files.json``."""
    nb_bytes = notebook.read_bytes()
    fingerprint = runs.privlib_fingerprint()
    todo, done = [], []
    for params in points:
        folder = out / runs.run_slug(params)
        key = runs.run_key(nb_bytes, params, fingerprint)
        reason = runs.check_run(folder, key) if folder.exists() else ""
        if reason is None:
            done.append(Point(params, folder, key))
        else:
            todo.append(Point(params, folder, key, reason))
    return todo, done


# --- one point, in a worker --------------------------------------------------------------------------

_WORKER_STOP = threading.Event()  # set by SIGINT/SIGTERM in a local worker process
_WORKER_IDLE = threading.Event()
_WORKER_IDLE.set()


def _init_worker(parent: int) -> None:
    """Local worker processes: a terminal's Ctrl-C (sent to the whole process group) or a SIGTERM
    stops the running point cleanly instead of raising inside papermill, and a worker whose sweep
    died (SIGKILL) stops its point, cleans up and exits."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: _WORKER_STOP.set())
    if hasattr(signal, "pthread_sigmask"):  # blocked while the sweep created this process
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})

    def watch_parent() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        _WORKER_STOP.set()
        _WORKER_IDLE.wait(_STOP_GRACE)
        os._exit(0)

    threading.Thread(target=watch_parent, name="privbook-parent-watch", daemon=True).start()


def _one_line(exc: BaseException, limit: int = 300, *, last: bool = False) -> str:
    """One line of an exception's message (its last for a notebook's traceback), at most
    ``limit`` characters."""
    lines = str(exc).strip().splitlines() or [type(exc).__name__]
    line = lines[-1] if last else lines[0]
    return line if len(line) <= limit else line[:limit - 3] + "..."


def _record(folder: Path, params: dict[str, Any], status: str, error: str = "", seconds: float = 0.0) -> dict[str, Any]:
    return {"run": folder.name, "status": status, "parameters": params, "seconds": round(seconds, 3),
            "error": error, "folder": str(folder), "claims_passed": "", "claims_failed": "", "failed_claims": [],
            "results": {}}


def execute_point(notebook: str, params: dict[str, Any], folder: str, timeout: int = 600,
                  stop_file: str | None = None) -> dict[str, Any]:
    """Run one point (in a worker process or on a Dask worker) and return its manifest record.

    A failure is returned as a record, never raised; so is an interrupt (the point's files are
    gone) and a stop requested before the point started (``not run``, nothing was started).
    """
    stop = runs.StopRequest(stop_file)
    stopped = lambda: _WORKER_STOP.is_set() or stop()  # noqa: E731
    dest = Path(folder)
    if stopped():
        return _record(dest, params, "not run", "the sweep was interrupted before this point started")
    _WORKER_IDLE.clear()
    start = time.time()
    try:
        runs.run_notebook(notebook, params, out_dir=dest, timeout=timeout, stop=stopped)
    except runs.RunInterrupted:
        return _record(dest, params, "interrupted", "interrupted while running; nothing was kept",
                       time.time() - start)
    except Exception as exc:  # noqa: BLE001 - a failing run is data for the manifest
        message = _one_line(exc, last=True)
        failed = dest.with_name(dest.name + ".failed")
        record = _record(failed if failed.is_dir() else dest, params, "failed", message, time.time() - start)
        return {**record, "run": dest.name}
    finally:
        _WORKER_IDLE.set()
    payload = json.loads((dest / runs.RESULTS).read_text(encoding="utf-8"))
    return _record_from(payload, dest)


def _record_from(payload: dict[str, Any], folder: Path, status: str | None = None) -> dict[str, Any]:
    summary = results.claims_summary(payload.get("claims", []))
    return {"run": folder.name, "status": status or payload["status"], "parameters": payload["parameters"],
            "seconds": payload["seconds"], "error": "", "folder": str(folder),
            "claims_passed": sum(summary["counts"].values()) - summary["counts"].get("FAILED", 0),
            "claims_failed": summary["counts"].get("FAILED", 0), "failed_claims": summary["failed"],
            "claims_summary": summary["text"], "claims_counts": summary["counts"], "results": payload.get("results", {})}


# --- manifest and gallery ----------------------------------------------------------------------------

def _write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file renamed into place; on failure (a full disk) the temporary
    file is removed, ``path`` is left as it was, and ``runs.OutputError`` is raised."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with runs._writing(f"writing {path}"):
            tmp.write_text(text, encoding="utf-8", newline="")
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_manifest(out: Path, records: list[dict[str, Any]], names: list[str]) -> None:
    """``manifest.json`` (everything) and ``manifest.csv`` (one row per run, one column per parameter)."""
    _write_atomic(out / "manifest.json", json.dumps(records, indent=2) + "\n")
    result_names = sorted({k for r in records for k in r.get("results", {})})
    header = ["run", "status", "seconds", *names, "claims_passed", "claims_failed", "failed_claims",
              *result_names, "error"]
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    writer.writerow(header)
    for r in records:
        writer.writerow([r["run"], r["status"], r["seconds"], *(r["parameters"].get(n) for n in names),
                         r.get("claims_passed", ""), r.get("claims_failed", ""), " ".join(r.get("failed_claims", [])),
                         *(r.get("results", {}).get(k, "") for k in result_names), r.get("error", "")])
    _write_atomic(out / "manifest.csv", text.getvalue())


GALLERY_DIR = "gallery"
"""The sweep's folder of figures redrawn on shared y-axes (``figure-NN-<run>.png``)."""
GALLERY_LIST = "gallery.json"
"""In ``GALLERY_DIR``: the files the sweep wrote there (all it ever removes) and, per figure,
whether its y-axes are shared and each run's y-limits."""
GALLERY_WIDTH_PX = 720
"""Width of a redrawn figure (the gallery shows it at most this wide)."""
_REDRAWN = re.compile(r"figure-\d+-[A-Za-z0-9=,.+_-]+\.png")


def _kept_pickle(folder: Path, png: str) -> Path | None:
    """The pickle a run kept of its figure ``png``, when the run's ``files.json`` lists it with
    this content (only files a run of privbook wrote are ever unpickled)."""
    path = folder / Path(png).with_suffix(".pickle").name
    try:
        listed = json.loads((folder / runs.FILES).read_text(encoding="utf-8"))["files"][path.name]
        data = path.read_bytes()
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if listed.get("bytes") != len(data) or listed.get("sha256") != hashlib.sha256(data).hexdigest():
        return None
    return path


def _load_figure(path: Path) -> Any:
    import pickle

    try:
        with path.open("rb") as fh:
            return pickle.load(fh)  # noqa: S301 - a file this sweep's run wrote, checked against files.json
    except Exception:  # noqa: BLE001 - a figure that cannot be loaded is shown from its PNG
        return None


def _share_y(figures: list[Any]) -> list[list[tuple[float, float] | None]]:
    """Set the y-limits of axes at the same position and with the same scale to the union of the
    figures' limits (log scales: of their positive limits); axes whose number, scale or direction
    differ keep their own. Returns, per figure, each axes' limits after (``None``: not shared)."""
    shared: list[list[tuple[float, float] | None]] = [[None] * len(f.axes) for f in figures]
    if len({len(f.axes) for f in figures}) != 1:
        return shared
    for i in range(len(figures[0].axes)):
        axes = [f.axes[i] for f in figures]
        if len({a.get_yscale() for a in axes}) != 1 or any(getattr(a, "_colorbar", None) for a in axes):
            continue  # a colorbar's range is its norm's, not a data range to share
        limits = [a.get_ylim() for a in axes]
        if len({lo > hi for lo, hi in limits}) != 1:
            continue
        inverted = limits[0][0] > limits[0][1]
        lows = [min(lim) for lim in limits]
        highs = [max(lim) for lim in limits]
        if axes[0].get_yscale() == "log":  # a non-positive limit is drawn at the smallest positive datum
            lows = [v if v > 0 else a.yaxis.get_minpos() for v, a in zip(lows, axes)]
            lows = [v for v in lows if 0 < v < math.inf]
            highs = [v for v in highs if v > 0]
            if not lows or not highs:
                continue
        lo, hi = min(lows), max(highs)
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            continue
        for k, a in enumerate(axes):
            a.set_ylim((hi, lo) if inverted else (lo, hi))
            shared[k][i] = (float(lo), float(hi))
    return shared


def _read_gallery_list(folder: Path) -> dict[str, Any]:
    try:
        listed = json.loads((folder / GALLERY_LIST).read_text(encoding="utf-8"))
        return listed if isinstance(listed, dict) else {}
    except (OSError, ValueError):
        return {}


def _clear_gallery(folder: Path) -> None:
    """Remove what an earlier sweep wrote into the gallery folder (the files its list names, and
    temporary files of an interrupted write), then the folder itself if that leaves it empty."""
    if not folder.is_dir():
        return
    names = [n for n in _read_gallery_list(folder).get("files", []) if isinstance(n, str) and _REDRAWN.fullmatch(n)]
    for name in [*names, GALLERY_LIST]:
        with contextlib.suppress(FileNotFoundError):
            (folder / name).unlink()
    for entry in folder.glob(".figure-*.png.tmp"):
        with contextlib.suppress(OSError):
            entry.unlink()
    with contextlib.suppress(OSError):
        folder.rmdir()


def write_shared_figures(out: Path, records: list[dict[str, Any]]) -> dict[tuple[str, str], tuple[str, bool]]:
    """Redraw every finished run's figures on y-axes shared across the runs into ``out/gallery/``.

    Figure k of every finished run whose kept pickle (``figure-NN.pickle``, listed in its
    ``files.json``) loads is redrawn ``GALLERY_WIDTH_PX`` pixels wide as
    ``gallery/figure-NN-<run>.png``, its axes' y-limits set by ``_share_y``. The files written
    and each run's limits are listed in ``gallery/gallery.json``; what an earlier sweep listed
    there is removed first. Returns ``{(run, "figure-NN.png"): ("gallery/figure-NN-<run>.png",
    every axes shared)}`` for the figures redrawn (the others are shown from their runs' PNGs)."""
    from privlib.book import plotting

    folder = out / GALLERY_DIR
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        return {}  # not a folder this sweep made: the figures are shown from the runs' PNGs
    with runs._writing(f"clearing {folder}"):
        _clear_gallery(folder)
    groups: dict[str, list[tuple[str, Any]]] = {}
    for r in records:
        if r["status"] not in {"done", "skipped"}:
            continue
        run_dir = Path(r["folder"])
        for f in runs.read_figures(run_dir):
            kept = _kept_pickle(run_dir, f["file"])
            fig = _load_figure(kept) if kept is not None else None
            if fig is not None:
                groups.setdefault(f["file"], []).append((run_dir.name, fig))
    if not groups:
        return {}
    import matplotlib.pyplot as plt

    written: dict[tuple[str, str], str] = {}
    listing: dict[str, Any] = {"files": [], "figures": {}}
    created = runs._mkdirs(folder)
    try:
        for png, members in sorted(groups.items()):
            limits = _share_y([fig for _, fig in members])
            listing["figures"][png] = {run: [list(lim) if lim else None for lim in lims]
                                       for (run, _), lims in zip(members, limits)}
            for (run, fig), lims in zip(members, limits):
                name = f"figure-{png.removeprefix('figure-').removesuffix('.png')}-{run}.png"
                if not _REDRAWN.fullmatch(name):
                    continue
                tmp = folder / f".{name}.tmp"
                try:
                    with runs._writing(f"writing {folder / name}"):
                        plotting._render(fig, tmp, format="png", dpi=GALLERY_WIDTH_PX / fig.get_figwidth())
                        os.replace(tmp, folder / name)
                except BaseException:
                    with contextlib.suppress(OSError):
                        tmp.unlink()
                    raise
                listing["files"].append(name)
                written[(run, png)] = (f"{GALLERY_DIR}/{name}", all(
                    lim is not None for lim, ax in zip(lims, fig.axes) if not getattr(ax, "_colorbar", None)))
        _write_atomic(folder / GALLERY_LIST, json.dumps(listing, indent=2) + "\n")
    except BaseException:  # list what was written (the next sweep removes it), or remove the new folder
        with contextlib.suppress(OSError):
            if listing["files"]:
                _write_atomic(folder / GALLERY_LIST, json.dumps({"files": listing["files"]}, indent=2) + "\n")
            else:
                runs._rmdirs(created)
        raise
    finally:
        for members in groups.values():
            for _, fig in members:
                plt.close(fig)
    return written


def write_gallery(out: Path, notebook: Path, records: list[dict[str, Any]], names: list[str]) -> Path:
    """``gallery.html``: one row per run, its parameters and claim statuses beside its figures,
    each labelled with its number and its chapter's caption (relative links, readable offline).
    A run's name links to its page (``run.html``: the executed chapter, figures with captions and
    its claims), or to its notebook for a run folder written before run pages existed.

    Figures with the same number share their y-axes across runs: each is redrawn from the figure
    its run kept (``write_shared_figures``) and links to the run's own PNG. A figure that could
    not be redrawn (a run written before figures were kept, a figure that could not be pickled, axes
    that differ between runs) is its run's PNG with the axes that run drew, and the page says so."""
    shared = write_shared_figures(out, records)
    unshared = False
    rows = []
    for r in records:
        params = "<br>".join(f"{html.escape(n)} = {html.escape(str(r['parameters'].get(n)))}" for n in names)
        folder = Path(r["folder"])
        base = html.escape(folder.name)
        if r["status"] in {"failed", "interrupted", "not run"}:
            cell = f"<span class='failed'>{html.escape(r['status'])}: {html.escape(r.get('error', ''))}</span>"
        else:
            figs = [f for f in runs.read_figures(folder) if (folder / f["file"]).is_file()]
            parts = []
            for f in figs:
                redrawn = shared.get((folder.name, f["file"]), ("", False))[0]
                own = _axes_own(shared, (folder.name, f["file"]))
                unshared = unshared or bool(own)
                src = html.escape(redrawn) if redrawn else f"{base}/{html.escape(f['file'])}"
                parts.append(
                    f"<figure><a href='{base}/{html.escape(f['file'])}'><img src='{src}' "
                    f"alt='{html.escape(f['alt'])} (run {html.escape(folder.name)})'></a>"
                    f"<figcaption><b>Figure {html.escape(f['number'])}.</b> "
                    f"{html.escape(_short(runs.plain_tex(f['caption'])))}{own}</figcaption></figure>")
            cell = "".join(parts) or "(no figures)"
        claims = ""
        if "claims_summary" in r:
            css = " class='failed'" if r.get("failed_claims") else ""
            claims = f"<br><span{css}>claims: {html.escape(r['claims_summary'])}</span>"
        page = runs.RUN_PAGE if (folder / runs.RUN_PAGE).is_file() else notebook.name
        rows.append(f"<tr><td class='params'><a href='{base}/{html.escape(page)}'>"
                    f"{html.escape(r['run'])}</a><br>{params}<br>{html.escape(r['status'])}{claims}</td>"
                    f"<td class='figures'>{cell}</td></tr>")
    page = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>Sweep of {html.escape(notebook.stem)}</title><style>"
            "body{font-family:sans-serif;margin:1em} td{vertical-align:top;border-top:1px solid #ccc;padding:.5em}"
            " td.params{white-space:nowrap;font-size:90%} td.figures{display:flex;flex-wrap:wrap;gap:1em}"
            " figure{margin:0;width:calc(50% - 1em);max-width:720px} figure img{width:100%;height:auto}"
            " figcaption{font-size:85%} .failed{color:#b00}"
            f"</style></head><body><h1>Sweep of {html.escape(notebook.stem)}</h1>"
            f"<p>{len(records)} runs. Parameters varied: {html.escape(', '.join(names))}. "
            f"Claims: {html.escape(claims_line(records))}.</p>"
            "<p>Each run's name opens its page: the executed chapter with its figures, captions and claims. "
            f"Figures are numbered as in that page. {_axes_sentence(bool(shared), unshared)}</p>"
            f"<table>{''.join(rows)}</table></body></html>\n")
    path = out / "gallery.html"
    _write_atomic(path, page)
    return path


_OWN_AXES = ("Each figure keeps the axes its run drew (the notebook chooses them from the run's parameters): "
             "read the tick labels before comparing heights across runs.")


def _axes_own(shared: dict[tuple[str, str], tuple[str, bool]], key: tuple[str, str]) -> str:
    """The note a figure's caption gets when the page shares y-axes but this figure keeps its
    run's (not redrawn, or redrawn with axes that could not be shared)."""
    if not shared or shared.get(key, ("", False))[1]:
        return ""
    return " (own y-axes)"


def _axes_sentence(any_shared: bool, any_own: bool) -> str:
    if not any_shared:
        return _OWN_AXES
    sentence = ("Figures with the same number share their y-axes across runs (each axes' range is the union of "
                "the runs' ranges), so heights compare directly; a figure opens its run's own image.")
    if any_own:
        sentence += (" Figures marked “own y-axes” could not be redrawn and keep the axes their run drew: "
                     "read their tick labels before comparing heights.")
    return sentence


def _short(caption: str, limit: int = 160) -> str:
    """A caption's first sentence, at most ``limit`` characters."""
    first = caption.split(". ", 1)[0].split(": ", 1)[0] if len(caption) > limit else caption
    return first if len(first) <= limit else first[:limit - 1].rstrip() + "…"


def claims_line(records: list[dict[str, Any]]) -> str:
    """The claims of every finished run in one line: counts by status, FAILED ones named with
    their runs (``6 verified, 2 illustrated, 1 FAILED (curves/x in fail=True)``)."""
    counts: dict[str, int] = {}
    failed: list[str] = []
    for r in records:
        for status, n in r.get("claims_counts", {}).items():
            counts[status] = counts.get(status, 0) + n
        failed += [f"{c} in {r['run']}" for c in r.get("failed_claims", [])]
    if not counts:
        return "none shown"
    parts = [f"{n} {s}" for s, n in sorted(counts.items(), key=lambda item: (item[0] == "FAILED", item[0]))]
    if failed:
        shown = "; ".join(failed[:5]) + (f"; and {len(failed) - 5} more" if len(failed) > 5 else "")
        parts[-1] += f" ({shown})"
    return ", ".join(parts)


# --- executors -----------------------------------------------------------------------------------------

@contextlib.contextmanager
def _quiet(*loggers: str):
    saved = [(logging.getLogger(n), logging.getLogger(n).level) for n in loggers]
    for logger, _ in saved:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in saved:
            logger.setLevel(level)


def _connect(scheduler: str):
    """A Dask client for ``scheduler``, or ``SchedulerError`` in one line (a TCP address is
    probed first, so a refused connection is reported at once)."""
    parts = urlsplit(scheduler if "://" in scheduler else f"tcp://{scheduler}")
    try:
        port = parts.port
    except ValueError:
        raise SchedulerError(f"invalid scheduler address {runs.excerpt(scheduler)}") from None
    if parts.scheme == "tcp":
        if not parts.hostname or port is None:
            raise SchedulerError(f"invalid scheduler address {runs.excerpt(scheduler)} (expected tcp://HOST:PORT)")
        try:
            socket.create_connection((parts.hostname, port), timeout=_SCHEDULER_TIMEOUT).close()
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise SchedulerError(f"cannot reach the Dask scheduler at {runs.excerpt(scheduler)}: {reason}") from None
    try:
        from dask.distributed import Client  # book extra
    except ImportError:
        raise SchedulerError("--scheduler needs dask.distributed (install privlib with the book extra)") from None
    try:
        with _quiet("distributed", "tornado", "asyncio"):
            return Client(scheduler, timeout=f"{_SCHEDULER_TIMEOUT}s")
    except Exception as exc:  # noqa: BLE001 - any failure to connect is one line
        raise SchedulerError(f"cannot use the Dask scheduler at {runs.excerpt(scheduler)}: "
                             f"{_one_line(exc, 160)}") from None


@contextlib.contextmanager
def _signals_blocked():
    """Block SIGINT and SIGTERM while worker processes are created. New processes and threads
    inherit the mask, so a Ctrl-C that arrives while a worker is still starting waits until its
    initializer has installed its handler (no traceback from a half-started worker), and one that
    arrives here is handled when the block ends."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _execute(todo: list[Point], notebook: Path, out_dir: Path, jobs: int, client: Any, timeout: int,
             stop: runs.StopRequest, on_record: Callable[[dict[str, Any]], None]) -> dict[str, dict[str, Any]]:
    """Run the points; after a stop request, start none and wait (boundedly) for running ones."""
    stop_file = out_dir / STOP_FILE
    if client is not None:
        pool = client.get_executor(pure=False)
    else:
        pool = cf.ProcessPoolExecutor(max_workers=min(jobs, len(todo)), mp_context=multiprocessing.get_context("spawn"),
                                      initializer=_init_worker, initargs=(os.getpid(),))
    with _signals_blocked():
        futures = {pool.submit(execute_point, str(notebook), p.params, str(p.folder), timeout, str(stop_file)): p
                   for p in todo}
    records: dict[str, dict[str, Any]] = {}
    pending = set(futures)
    deadline = None
    try:
        while pending:
            finished, pending = cf.wait(pending, timeout=0.1, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                point = futures[future]
                try:
                    record = future.result()
                except cf.CancelledError:
                    record = _record(point.folder, point.params, "not run", "the sweep was interrupted before this point started")
                except Exception as exc:  # noqa: BLE001 - a lost worker is data for the manifest
                    status = "interrupted" if stop() else "failed"
                    record = _record(point.folder, point.params, status, _one_line(exc))
                records[record["run"]] = record
                on_record(record)
            if stop() and deadline is None:
                stop_file.touch()  # reaches workers that did not get the signal (Dask, kill -TERM <pid>)
                if client is None:  # a Dask future cannot tell queued from running: queued points
                    for future in pending:  # see the stop file when they start and return at once
                        future.cancel()
                deadline = time.monotonic() + _STOP_GRACE
            if deadline is not None and time.monotonic() > deadline:
                break
    finally:
        if client is not None:
            pool.shutdown(wait=not pending and deadline is None)  # False: cancel what is left
        else:
            if pending:  # workers stuck past the grace period are killed; the next run removes their debris
                for process in list(getattr(pool, "_processes", {}).values()):
                    with contextlib.suppress(OSError):
                        process.kill()
            pool.shutdown(wait=not pending, cancel_futures=True)
    for future in pending:
        point = futures[future]
        records[point.folder.name] = _record(point.folder, point.params, "interrupted",
                                             "still running when the sweep stopped waiting")
    return records


def _clean_sweep_debris(out_dir: Path) -> None:
    runs.clean_stale(out_dir, skip=SWEEP_LOCK)
    for name in (STOP_FILE, ".manifest.csv.tmp", ".manifest.json.tmp", ".gallery.html.tmp"):
        with contextlib.suppress(FileNotFoundError):
            (out_dir / name).unlink()
    runs.clean_stale_kernel_dirs()


def _check_out(path: Path, points: list[dict[str, Any]], out: str | Path | None) -> tuple[Path, bool]:
    """The sweep's folder and whether it carries the sweep marker; ``runs.ParameterError``
    (one line) when ``out`` is not a new folder or a sweep's, or when a point to run again would replace
    a folder holding what privbook did not write. Nothing is created."""
    default = runs.project_root() / "runs" / path.stem
    if out is None or Path(out).expanduser().resolve() == default.resolve():
        out_dir, marked, label = default, False, str(default)  # privbook's own folder: no marker needed
    else:
        out_dir, marked, label = runs.check_out(out, sweep=True), True, f"--out {out}"
    if out_dir.is_dir():
        todo, _ = plan(path, points, out_dir)
        for point in todo:
            runs.check_out(point.folder, notebook=path.name, label=f"{label}: {point.folder.name}")
    return out_dir, marked


def _make_out(out_dir: Path, path: Path, marked: bool) -> list[Path]:
    """Create the sweep's folder (and its parents), the marker first thing; returns the folders created."""
    created = runs._mkdirs(out_dir)
    marker = out_dir / runs.SWEEP_MARKER
    if marked and not marker.is_file():
        try:
            with runs._writing(f"writing {marker}"):
                marker.write_text(f"a sweep of {path.stem} by privbook writes this folder\n", encoding="utf-8")
        except BaseException:
            _unmake_out(out_dir, created)
            raise
    return created


def _unmake_out(out_dir: Path, created: list[Path]) -> None:
    """Undo :func:`_make_out` for folders it created (a sweep that could not start)."""
    if created:
        with contextlib.suppress(OSError):
            (out_dir / runs.SWEEP_MARKER).unlink()
    runs._rmdirs(created)


def run_sweep(notebook: str | Path, grid: dict[str, list[Any]], *, out: str | Path | None = None, jobs: int | None = None,
              scheduler: str | None = None, allow_large: bool = False, progress: bool = True,
              timeout: int = 600, wait: bool = False, log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Validate the grid, run every missing point, and write the manifest and gallery.

    Returns a summary: counts per status (``STATUSES``), the records, the reasons points
    were run again (``rerun``), the claims line, ``stopped_by`` (the signal's name, or ``""``)
    and the paths of the manifest and gallery. ``log`` receives progress notes (reruns and their
    reasons, waiting for a lock). Raises :class:`privlib.batch.runs.ParameterError` (bad grid),
    ``SchedulerError`` or :class:`privlib.batch.runs.RunBusy` (another sweep writes ``out``; with
    ``wait`` the sweep waits for it) before running anything.

    ``out`` must be a new folder or a sweep's (``ParameterError`` otherwise, before anything runs).
    Writing the lock, manifest or gallery on a full disk raises ``runs.OutputError`` (an ``OSError``;
    no temporary file is left).
    """
    log = log or (lambda message: None)
    path = runs.find_notebook(str(notebook))
    points = expand_grid(path, grid, allow_large=allow_large)
    if jobs is not None and jobs < 1:
        raise runs.ParameterError(f"-j must be at least 1, got {jobs}")
    out_dir, marked = _check_out(path, points, out)  # before any file is written or kernel started
    stop = runs.StopRequest()
    client = _connect(scheduler) if scheduler else None  # before any file is written
    try:
        with stop.on_signals():
            created = _make_out(out_dir, path, marked)
            try:
                lock = runs.FolderLock(out_dir / SWEEP_LOCK, f"a sweep of {path.stem}")
                lock.acquire(wait=wait, stop=stop, on_wait=log)
            except BaseException:
                _unmake_out(out_dir, created)
                raise
            try:
                _clean_sweep_debris(out_dir)
                return _sweep_locked(path, points, out_dir, jobs, client, progress, timeout, stop, log)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    (out_dir / STOP_FILE).unlink()
                lock.release()
    finally:
        if client is not None:
            with _quiet("distributed", "tornado", "asyncio"):
                client.close()


def _sweep_locked(path: Path, points: list[dict[str, Any]], out_dir: Path, jobs: int | None, client: Any,
                  progress: bool, timeout: int, stop: runs.StopRequest, log: Callable[[str], None]) -> dict[str, Any]:
    todo, finished = plan(path, points, out_dir)
    names = list(points[0])
    records: dict[str, dict[str, Any]] = {}
    for p in finished:
        payload = json.loads((p.folder / runs.RESULTS).read_text(encoding="utf-8"))
        records[p.folder.name] = _record_from(payload, p.folder, "skipped")
    rerun = {p.folder.name: p.reason for p in todo if p.reason}
    for name, reason in rerun.items():
        log(f"rerun {name}: {reason}")
    if todo and not stop():
        from tqdm import tqdm

        bar = tqdm(total=len(todo), desc=f"sweep {path.stem}", unit="run", file=sys.stderr, disable=not progress)

        failed = 0

        def on_record(record: dict[str, Any]) -> None:
            nonlocal failed
            failed += record["status"] == "failed"
            bar.update(1)
            bar.set_postfix(failed=failed)

        try:
            records.update(_execute(todo, path, out_dir, jobs or os.cpu_count() or 1, client, timeout, stop, on_record))
        finally:
            if stop():
                bar.leave = False
            bar.close()
    ordered = []
    for params in points:
        slug = runs.run_slug(params)
        ordered.append(records.get(slug) or _record(out_dir / slug, params, "not run",
                                                    "the sweep was interrupted before this point started"))
    write_manifest(out_dir, ordered, names)
    gallery = write_gallery(out_dir, path, ordered, names)
    counts = {s: sum(r["status"] == s for r in ordered) for s in STATUSES}
    stopped_by = signal.Signals(stop.signum).name if stop() and stop.signum else ("a stop request" if stop() else "")
    return {**counts, "records": ordered, "rerun": rerun, "claims": claims_line(ordered),
            "claims_failed": sum(int(r.get("claims_failed") or 0) for r in ordered), "stopped_by": stopped_by,
            "signum": stop.signum, "manifest": out_dir / "manifest.csv", "gallery": gallery, "out": out_dir}
