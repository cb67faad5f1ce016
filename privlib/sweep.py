"""Batch regeneration behind ``privbook sweep``: one papermill run per point of a parameter grid.

Each point runs through :func:`privlib.runs.run_notebook` into ``<out>/<slug>/`` (the executed
notebook, its figures, ``parameters.json`` and ``results.json``), written under a temporary name
and renamed only when finished. A point whose ``results.json`` carries the same key (notebook
content, parameters and privlib sources) is skipped, so a sweep that was killed half-way and is
started again runs only what is missing. A failing point is recorded (``<slug>.failed/error.txt``)
and does not stop the others. The sweep ends with a manifest (``manifest.csv``/``manifest.json``)
and a gallery page (``gallery.html``) showing every run's figures beside its parameters.

Runs go to local worker processes (``jobs``), or to a Dask distributed scheduler when an address
is given (``dask.distributed.Client`` used as the executor).
"""

from __future__ import annotations

import concurrent.futures as cf
import csv
import hashlib
import html
import itertools
import json
import multiprocessing
import os
import platform
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

from privlib import results, runs

__all__ = ["MAX_RUNS", "Point", "parse_grid", "expand_grid", "plan", "run_sweep"]

MAX_RUNS = 200
"""Grids with more points than this need ``allow_large=True`` (``--allow-large``)."""

_VERSIONS = ("numpy", "scipy", "matplotlib", "papermill", "privlib")


@dataclass(frozen=True)
class Point:
    """One run of a sweep: its parameters, folder and resume key."""

    params: dict[str, Any]
    folder: Path
    key: str


def parse_grid(grid_args: Iterable[str] = (), grid_file: str | Path | None = None) -> dict[str, list[Any]]:
    """Raw grid values from ``NAME=V1,V2`` arguments and/or a YAML file mapping names to lists.

    The YAML file is read with ``yaml.safe_load`` (no object construction); command-line values
    are split on commas. Nothing is converted or executed here.
    """
    grid: dict[str, list[Any]] = {}
    if grid_file is not None:
        path = Path(grid_file)
        if not path.is_file():
            raise runs.ParameterError(f"grid file {str(path)!r} does not exist")
        try:
            loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise runs.ParameterError(f"grid file {path.name} is not valid YAML: {str(exc).splitlines()[0]}") from None
        if not isinstance(loaded, dict) or not all(isinstance(k, str) for k in loaded):
            raise runs.ParameterError(f"grid file {path.name} must map parameter names to lists of values")
        for name, values in loaded.items():
            grid[name] = list(values) if isinstance(values, list) else [values]
    for arg in grid_args:
        name, sep, values = arg.partition("=")
        if not sep or not name.strip():
            raise runs.ParameterError(f"--grid expects NAME=V1,V2,..., got {arg!r}")
        grid[name.strip()] = [v for v in values.split(",")] if values else []
    return grid


def expand_grid(notebook: Path, grid: dict[str, list[Any]], *, allow_large: bool = False) -> list[dict[str, Any]]:
    """Validate every name and value against the notebook's parameters and return the product
    of the values, one dict per run. Raises :class:`runs.ParameterError` before anything runs."""
    if not grid:
        raise runs.ParameterError("the grid is empty: give at least one --grid NAME=V1,V2 or a grid file")
    declared = runs.notebook_parameters(notebook)
    columns = []
    for name, values in grid.items():
        if name not in declared:
            raise runs.ParameterError(f"unknown parameter {name!r} for {notebook.stem}; known: {', '.join(declared)}")
        if not values:
            raise runs.ParameterError(f"parameter {name!r} has no values in the grid")
        parsed = [runs.parse_value(declared[name], v) for v in values]
        unique = []
        for v in parsed:
            if v not in unique:
                unique.append(v)
        columns.append((name, unique))
    size = 1
    for _, values in columns:
        size *= len(values)
    if size > MAX_RUNS and not allow_large:
        raise runs.ParameterError(f"the grid has {size} points, more than {MAX_RUNS}; pass --allow-large to run it")
    names = [n for n, _ in columns]
    return [dict(zip(names, combo)) for combo in itertools.product(*(v for _, v in columns))]


def _key(notebook_bytes: bytes, params: dict[str, Any], fingerprint: str) -> str:
    digest = hashlib.sha256(notebook_bytes)
    digest.update(json.dumps(params, sort_keys=True).encode())
    digest.update(fingerprint.encode())
    return digest.hexdigest()[:32]


def plan(notebook: Path, points: list[dict[str, Any]], out: Path) -> tuple[list[Point], list[Point]]:
    """Split the grid into runs still to do and runs already finished with the same key."""
    nb_bytes = notebook.read_bytes()
    fingerprint = runs.privlib_fingerprint()
    todo, done = [], []
    for params in points:
        point = Point(params, out / runs.run_slug(params), _key(nb_bytes, params, fingerprint))
        existing = point.folder / "results.json"
        try:
            finished = json.loads(existing.read_text())["key"] == point.key
        except (OSError, ValueError, KeyError):
            finished = False
        (done if finished else todo).append(point)
    return todo, done


def _versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for name in _VERSIONS:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return found


def execute_point(notebook: str, params: dict[str, Any], folder: str, key: str, timeout: int = 600) -> dict[str, Any]:
    """Run one point (in a worker process or on a Dask worker) and return its manifest record.

    ``results.json`` is written inside the temporary run folder, so it exists only for a run
    that finished. A failure is returned as a record, never raised.
    """
    start = time.time()

    def finalize(tmp: Path, seconds: float) -> None:
        executed = json.loads((tmp / Path(notebook).name).read_text(encoding="utf-8"))
        recorded, shown = results.collect(executed)
        payload = {"notebook": Path(notebook).name, "parameters": params, "key": key, "status": "done",
                   "seconds": round(seconds, 3), "claims": shown, "results": recorded, "versions": _versions()}
        (tmp / "results.json").write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")

    dest = Path(folder)
    try:
        runs.run_notebook(notebook, params, out_dir=dest, timeout=timeout, finalize=finalize)
    except Exception as exc:  # noqa: BLE001 - a failing run is data for the manifest
        message = (str(exc).strip().splitlines() or [type(exc).__name__])[-1][:500]
        failed = dest.with_name(dest.name + ".failed")
        failed.mkdir(parents=True, exist_ok=True)
        (failed / "error.txt").write_text(f"{type(exc).__name__}: {exc}\n", encoding="utf-8")
        return {"run": dest.name, "status": "failed", "parameters": params, "seconds": round(time.time() - start, 3),
                "error": message, "folder": str(failed)}
    payload = json.loads((dest / "results.json").read_text())
    return _record_from(payload, dest)


def _record_from(payload: dict[str, Any], folder: Path, status: str | None = None) -> dict[str, Any]:
    statuses = [c.get("status") for c in payload.get("claims", [])]
    return {"run": folder.name, "status": status or payload["status"], "parameters": payload["parameters"],
            "seconds": payload["seconds"], "error": "", "folder": str(folder),
            "claims_passed": sum(s != "FAILED" for s in statuses), "claims_failed": statuses.count("FAILED"),
            "results": payload.get("results", {})}


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_manifest(out: Path, records: list[dict[str, Any]], names: list[str]) -> None:
    """``manifest.json`` (everything) and ``manifest.csv`` (one row per run, one column per parameter)."""
    _write_atomic(out / "manifest.json", json.dumps(records, indent=2) + "\n")
    result_names = sorted({k for r in records for k in r.get("results", {})})
    header = ["run", "status", "seconds", *names, "claims_passed", "claims_failed", *result_names, "error"]
    tmp = out / ".manifest.csv.tmp"
    with tmp.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        for r in records:
            writer.writerow([r["run"], r["status"], r["seconds"], *(r["parameters"].get(n) for n in names),
                             r.get("claims_passed", ""), r.get("claims_failed", ""),
                             *(r.get("results", {}).get(k, "") for k in result_names), r.get("error", "")])
    os.replace(tmp, out / "manifest.csv")


def write_gallery(out: Path, notebook: Path, records: list[dict[str, Any]], names: list[str]) -> Path:
    """``gallery.html``: one row per run, its parameters beside its figures (relative links,
    readable offline)."""
    rows = []
    for r in records:
        params = "<br>".join(f"{html.escape(n)} = {html.escape(str(r['parameters'].get(n)))}" for n in names)
        folder = Path(r["folder"])
        if r["status"] == "failed":
            cell = f"<span class='failed'>failed: {html.escape(r.get('error', ''))}</span>"
        else:
            figs = sorted(folder.glob("figure-*.png"))
            cell = "".join(f"<a href='{html.escape(folder.name)}/{f.name}'><img src='{html.escape(folder.name)}/{f.name}' "
                           f"alt='{html.escape(f.stem)} of run {html.escape(folder.name)}'></a>" for f in figs) or "(no figures)"
        rows.append(f"<tr><td class='params'><a href='{html.escape(folder.name)}/{html.escape(notebook.name)}'>"
                    f"{html.escape(r['run'])}</a><br>{params}<br>{html.escape(r['status'])}</td><td>{cell}</td></tr>")
    page = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>Sweep of {html.escape(notebook.stem)}</title><style>"
            "body{font-family:sans-serif;margin:1em} td{vertical-align:top;border-top:1px solid #ccc;padding:.5em}"
            " td.params{white-space:nowrap;font-size:90%} img{height:220px;margin-right:.5em} .failed{color:#b00}"
            f"</style></head><body><h1>Sweep of {html.escape(notebook.stem)}</h1>"
            f"<p>{len(records)} runs. Parameters varied: {html.escape(', '.join(names))}.</p>"
            f"<table>{''.join(rows)}</table></body></html>\n")
    path = out / "gallery.html"
    _write_atomic(path, page)
    return path


def _executor(jobs: int, scheduler: str | None):
    if scheduler:
        from dask.distributed import Client  # book extra

        client = Client(scheduler, timeout="20s")
        return client, client.get_executor(pure=False)
    context = multiprocessing.get_context("spawn")
    return None, cf.ProcessPoolExecutor(max_workers=jobs, mp_context=context)


def run_sweep(notebook: str | Path, grid: dict[str, list[Any]], *, out: str | Path | None = None, jobs: int | None = None,
              scheduler: str | None = None, allow_large: bool = False, progress: bool = True,
              timeout: int = 600) -> dict[str, Any]:
    """Validate the grid, run every missing point, and write the manifest and gallery.

    Returns a summary: counts of ``done``, ``failed`` and ``skipped`` runs, the records, and the
    paths of the manifest and gallery.
    """
    path = runs.find_notebook(str(notebook))
    points = expand_grid(path, grid, allow_large=allow_large)
    if jobs is not None and jobs < 1:
        raise runs.ParameterError(f"-j must be at least 1, got {jobs}")
    out_dir = Path(out) if out else runs.project_root() / "runs" / path.stem
    out_dir.mkdir(parents=True, exist_ok=True)
    todo, finished = plan(path, points, out_dir)
    names = list(points[0])
    records: dict[str, dict[str, Any]] = {}
    for p in finished:
        records[p.folder.name] = _record_from(json.loads((p.folder / "results.json").read_text()), p.folder, "skipped")

    if todo:
        from tqdm import tqdm

        client, pool = _executor(jobs or os.cpu_count() or 1, scheduler)
        bar = tqdm(total=len(todo), desc=f"sweep {path.stem}", unit="run", file=sys.stderr, disable=not progress)
        try:
            futures = [pool.submit(execute_point, str(path), p.params, str(p.folder), p.key, timeout) for p in todo]
            for future in cf.as_completed(futures):
                record = future.result()
                records[record["run"]] = record
                bar.update(1)
                bar.set_postfix(failed=sum(r["status"] == "failed" for r in records.values()))
        finally:
            bar.close()
            if client is not None:
                pool.shutdown(wait=True)
                client.close()
            else:
                pool.shutdown(wait=True, cancel_futures=True)

    ordered = [records[runs.run_slug(p)] for p in points]
    write_manifest(out_dir, ordered, names)
    gallery = write_gallery(out_dir, path, ordered, names)
    counts = {s: sum(r["status"] == s for r in ordered) for s in ("done", "failed", "skipped")}
    return {**counts, "records": ordered, "manifest": out_dir / "manifest.csv", "gallery": gallery, "out": out_dir}
