"""Parameterized notebook runs behind ``privbook run`` (and the batch sweeps built on it).

A chapter notebook's first code cell is tagged ``parameters`` and holds typed literal
assignments with a help comment each::

    epsilon: float = 1.0  # privacy loss bound

:func:`notebook_parameters` reads them with :mod:`ast` (nothing is executed), :func:`parse_value`
turns a command-line string into the declared type (values are data, never code), and
:func:`run_notebook` executes the notebook with papermill into a temporary folder that is renamed
into place only when the run succeeds.
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
import os
import re
import shutil
import tempfile
import time
from base64 import b64decode
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "ParameterError",
    "Parameter",
    "project_root",
    "notebooks",
    "find_notebook",
    "notebook_parameters",
    "parse_value",
    "validate_parameters",
    "run_slug",
    "run_notebook",
    "extract_figures",
    "privlib_fingerprint",
    "refresh_notebook",
]

_TYPES = {"int": int, "float": float, "str": str, "bool": bool}


class ParameterError(ValueError):
    """An unknown notebook, an unknown parameter, or a value that does not parse as its type."""


@dataclass(frozen=True)
class Parameter:
    """One entry of a notebook's ``parameters`` cell."""

    name: str
    type: str  # "int", "float", "str", "bool" or "list[int]" / "list[float]" / "list[str]"
    default: Any
    help: str


def project_root() -> Path:
    """The repository root (the folder holding ``_config.yml`` and ``notebooks/``).

    ``PRIVBOOK_ROOT`` overrides it; otherwise the current folder and its parents are searched,
    then the folder above the installed package.
    """
    env = os.environ.get("PRIVBOOK_ROOT")
    candidates = [Path(env)] if env else []
    cwd = Path.cwd().resolve()
    candidates += [cwd, *cwd.parents, Path(__file__).resolve().parent.parent]
    for c in candidates:
        if (c / "notebooks").is_dir() and (c / "_config.yml").is_file():
            return c
    raise ParameterError("cannot find the privbook project (a folder with _config.yml and notebooks/); "
                         "run from inside the repository or set PRIVBOOK_ROOT")


def notebooks(root: Path | None = None) -> list[Path]:
    """Every notebook in ``notebooks/``, sorted by name."""
    root = root or project_root()
    return sorted(p for p in (root / "notebooks").glob("*.ipynb") if not p.name.startswith("."))


def find_notebook(name: str, root: Path | None = None) -> Path:
    """Resolve a notebook given as a path, a file name, a stem, or a unique prefix (``000``)."""
    root = root or project_root()
    path = Path(name)
    if path.suffix == ".ipynb" and path.is_file():
        return path.resolve()
    all_nbs = notebooks(root)
    stem = path.name.removesuffix(".ipynb")
    exact = [p for p in all_nbs if p.stem == stem]
    if exact:
        return exact[0]
    prefixed = [p for p in all_nbs if p.stem.startswith(stem)]
    if len(prefixed) == 1:
        return prefixed[0]
    known = ", ".join(p.stem for p in all_nbs)
    if prefixed:
        raise ParameterError(f"notebook {name!r} is ambiguous: matches {', '.join(p.stem for p in prefixed)}")
    raise ParameterError(f"unknown notebook {name!r}; known: {known}")


def _annotation(node: ast.expr) -> str:
    text = ast.unparse(node).replace(" ", "")
    allowed = set(_TYPES) | {f"list[{t}]" for t in ("int", "float", "str")}
    if text not in allowed:
        raise ParameterError(f"unsupported parameter type {text!r} (allowed: {', '.join(sorted(allowed))})")
    return text


def notebook_parameters(path: str | Path) -> dict[str, Parameter]:
    """The typed parameters declared in the notebook's ``parameters`` cell, in order."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    cells = [c for c in nb.get("cells", []) if c.get("cell_type") == "code"
             and "parameters" in c.get("metadata", {}).get("tags", [])]
    if not cells:
        raise ParameterError(f"{Path(path).name} has no cell tagged 'parameters'")
    source = "".join(cells[0]["source"]) if isinstance(cells[0]["source"], list) else cells[0]["source"]
    lines = source.splitlines()
    params: dict[str, Parameter] = {}
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None):
            continue
        kind = _annotation(node.annotation)
        default = ast.literal_eval(node.value)
        comment = lines[node.lineno - 1].partition("#")[2].strip()
        params[node.target.id] = Parameter(node.target.id, kind, default, comment)
    return params


def _parse_scalar(kind: str, text: str) -> Any:
    text = text.strip()
    if kind == "int":
        if not re.fullmatch(r"[+-]?\d+", text):
            raise ValueError
        return int(text)
    if kind == "float":
        value = float(text)
        if not math.isfinite(value):
            raise ValueError
        return value
    if kind == "bool":
        lowered = text.lower()
        if lowered in {"true", "1", "yes"}:
            return True
        if lowered in {"false", "0", "no"}:
            return False
        raise ValueError
    return text


def parse_value(param: Parameter, value: Any) -> Any:
    """Convert ``value`` (a command-line string, or an already typed value from a grid file) to
    the parameter's declared type; raises :class:`ParameterError` naming the parameter."""
    kind = param.type
    try:
        if kind.startswith("list["):
            inner = kind[5:-1]
            if isinstance(value, str):
                items = json.loads(value) if value.strip().startswith("[") else value.split(",")
            else:
                items = value
            if not isinstance(items, list) or not items:
                raise ValueError
            return [parse_value(Parameter(param.name, inner, None, ""), item) for item in items]
        if isinstance(value, str):
            return _parse_scalar(kind, value)
        if kind == "float" and isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            return float(value)
        if kind == "int" and isinstance(value, int) and not isinstance(value, bool):
            return value
        if kind in {"bool", "str"} and isinstance(value, _TYPES[kind]):
            return value
        raise ValueError
    except (ValueError, TypeError, json.JSONDecodeError):
        raise ParameterError(f"parameter {param.name!r} expects {kind}, got {value!r}") from None


def validate_parameters(path: str | Path, values: dict[str, Any]) -> dict[str, Any]:
    """Check names and types of ``values`` against the notebook's declared parameters and return
    them converted; nothing is executed."""
    declared = notebook_parameters(path)
    out = {}
    for name, value in values.items():
        if name not in declared:
            raise ParameterError(f"unknown parameter {name!r} for {Path(path).stem}; "
                                 f"known: {', '.join(declared) or '(none)'}")
        out[name] = parse_value(declared[name], value)
    return out


def run_slug(values: dict[str, Any]) -> str:
    """A stable, readable folder name for a parameter set (``defaults`` when empty)."""
    if not values:
        return "defaults"
    parts = []
    for name in sorted(values):
        value = values[name]
        text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
        parts.append(f"{name}={text}")
    slug = re.sub(r"[^A-Za-z0-9=,.+_-]", "_", "_".join(parts))
    return slug if len(slug) <= 120 else slug[:100] + "-" + str(abs(hash(slug)) % 10**8)


def privlib_fingerprint(package: Path | None = None) -> str:
    """SHA-256 of privlib's Python sources (this package's, or those under ``package``): it
    changes whenever the library's code does."""
    package = package or Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for f in sorted(package.rglob("*.py")):
        digest.update(f.relative_to(package).as_posix().encode())
        digest.update(f.read_bytes())
    return digest.hexdigest()


def extract_figures(notebook: Path, folder: Path) -> list[Path]:
    """Write every PNG output of an executed notebook to ``folder/figure-NN.png``."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    written = []
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "image/png" in data:
                png = data["image/png"]
                path = folder / f"figure-{len(written) + 1:02d}.png"
                path.write_bytes(b64decode("".join(png) if isinstance(png, list) else png))
                written.append(path)
    return written


def run_notebook(notebook: str | Path, values: dict[str, Any] | None = None, *, out_dir: str | Path | None = None,
                 kernel_name: str = "python3", timeout: int = 600, progress: bool = False,
                 finalize: Callable[[Path, float], None] | None = None) -> Path:
    """Execute ``notebook`` with validated parameters through papermill.

    The executed notebook, its figures (``figure-NN.png``) and ``parameters.json`` are written to
    a temporary folder beside the destination and renamed to ``out_dir`` (default
    ``runs/<notebook>/<slug>``) only after a successful run. A failed run is moved to
    ``<out_dir>.failed`` for inspection and the error re-raised: nothing that looks finished is
    left behind. ``finalize(folder, seconds)``, if given, adds files to the temporary folder
    before the rename. Returns the run folder.
    """
    import papermill  # book extra: imported only when a run is requested
    from traitlets.config import Config

    path = find_notebook(str(notebook))
    params = validate_parameters(path, values or {})
    dest = Path(out_dir) if out_dir else project_root() / "runs" / path.stem / run_slug(params)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".partial", dir=dest.parent))
    # IPC transport: the kernel's sockets are local files (no TCP warning), in a short private
    # folder of their own so that parallel runs never share sockets.
    sockets = Path(tempfile.mkdtemp(prefix="pbk"))
    config = Config({"KernelManager": {"transport": "ipc", "ip": str(sockets / "k")}})
    start = time.time()
    try:
        executed = tmp / path.name
        papermill.execute_notebook(str(path), str(executed), parameters=params, kernel_name=kernel_name,
                                   cwd=str(path.parent), progress_bar=progress, execution_timeout=timeout,
                                   log_output=False, config=config)
        extract_figures(executed, tmp)
        seconds = time.time() - start
        meta = {"notebook": path.name, "parameters": params, "seconds": round(seconds, 3)}
        (tmp / "parameters.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        if finalize is not None:
            finalize(tmp, seconds)
    except BaseException:
        failed = dest.with_name(dest.name + ".failed")
        shutil.rmtree(failed, ignore_errors=True)
        tmp.rename(failed)
        raise
    finally:
        shutil.rmtree(sockets, ignore_errors=True)
    if dest.exists():
        old = dest.with_name(f".{dest.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        dest.rename(old)
        tmp.rename(dest)
        shutil.rmtree(old, ignore_errors=True)
    else:
        tmp.rename(dest)
    shutil.rmtree(dest.with_name(dest.name + ".failed"), ignore_errors=True)
    return dest


def refresh_notebook(path: str | Path, *, timeout: int = 600) -> float:
    """Re-execute a chapter notebook at its default parameters and write its outputs back in
    place (the committed outputs that nbval compares); returns the seconds it took. Cell timing
    metadata is not recorded, so an unchanged result leaves the file unchanged."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        cell.get("metadata", {}).pop("execution", None)
    start = time.perf_counter()
    NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    nbformat.write(nb, path)
    return time.perf_counter() - start
