"""Parameterized notebook runs behind ``privbook run`` (and the batch sweeps built on it).

A chapter notebook's first code cell is tagged ``parameters`` and holds typed literal
assignments with a help comment each, which may end with the range of the allowed values
(``[low, high]``, a parenthesis for an open end; for a list, the range of each element)::

    epsilon: float = 1.0  # privacy loss bound (0, 10]

:func:`notebook_parameters` reads them with papermill's ``inspect_notebook`` (nothing is
executed; ``papermill --help-notebook`` shows the same lines, range included) and checks their
declared types, defaults and ranges; :func:`parse_value` turns a command-line string into the
declared type and checks its range (values are data, never code), and :func:`run_notebook`
executes the notebook with papermill.

What a run guarantees (the "Batch regeneration" page of the book says the same to readers):

- **Nothing unfinished looks finished.** A run is written into a hidden temporary folder
  (``.<slug>.XXXX.partial``) beside its destination and renamed into place only when it has
  finished; the last file written is ``files.json``, the size and SHA-256 of every other file, and
  :func:`check_run` compares a folder with it (a resumed sweep re-runs any point that differs).
- **One writer per run folder.** A run holds an exclusive lock (:class:`FolderLock`, the file
  ``.<slug>.lock`` beside the folder) while it writes; a second run of the same point fails with
  :class:`RunBusy` instead of writing the same folder twice.
- **Interrupts leave nothing behind.** With a ``stop`` callable (or, in the main thread, on
  SIGINT/SIGTERM) the kernel is killed, the temporary folder removed and :class:`RunInterrupted`
  raised; a failed run is moved to ``<slug>.failed/`` with its ``error.txt``. The kernel's
  connection file and sockets live in a private folder ``privbook-kernel-XXXX`` of the system's temporary
  directory that is removed on every exit path; what a SIGKILL leaves (those folders, ``.partial``
  folders, lock files) is removed by the next run (:func:`clean_stale`).
- **Quiet kernels.** jupyter_client interrupts a kernel (SIGINT) before asking it to shut down,
  and an idle ipykernel that receives it logs ``KeyboardInterrupt caught in kernel`` on stderr;
  runs use a kernel manager that shuts down with the shutdown request alone.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import hashlib
import html
import json
import logging
import math
import os
import platform
import reprlib
import re
import shutil
import signal
import socket
import tempfile
import threading
import time
from base64 import b64decode
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import filelock

from privlib.book import results

# papermill hands its logger to nbclient, which logs a kernel killed on purpose ("Kernel died
# before replying to kernel_info") as an error; without a handler Python prints it on stderr.
# The run's outcome is reported by the exception instead (users' own logging config still sees it).
logging.getLogger("papermill").addHandler(logging.NullHandler())

__all__ = [
    "ParameterError",
    "Parameter",
    "project_root",
    "notebooks",
    "find_notebook",
    "notebook_parameters",
    "parse_value",
    "validate_parameters",
    "RunInterrupted",
    "RunBusy",
    "OutputError",
    "FolderLock",
    "StopRequest",
    "FILES",
    "RESULTS",
    "excerpt",
    "run_slug",
    "run_key",
    "check_run",
    "check_out",
    "SWEEP_MARKER",
    "clean_stale",
    "clean_stale_kernel_dirs",
    "run_notebook",
    "extract_figures",
    "privlib_fingerprint",
    "refresh_notebook",
]

FILES = "files.json"
"""The last file of a finished run, with the name, size and SHA-256 of every other file in the folder."""
RESULTS = "results.json"
"""A finished run's record (parameters, resume key, claims with their statuses, recorded results)."""

SWEEP_MARKER = ".privbook-sweep"
"""Written first thing by a sweep into an ``--out`` folder it creates, so that the folder is known
to be a sweep's even before its manifest exists (an interrupted first sweep)."""

_TYPES = {"int": int, "float": float, "str": str, "bool": bool}


class ParameterError(ValueError):
    """An unknown notebook, an unknown parameter, or a value that does not parse as its type."""


class RunInterrupted(KeyboardInterrupt):
    """A run stopped on request (a signal or the sweep's stop); its temporary files are gone."""

    def __init__(self, signum: int | None = None):
        self.signum = signum
        super().__init__(f"interrupted by {signal.Signals(signum).name}" if signum else "interrupted")

    @property
    def exit_status(self) -> int:
        """The exit status by the shell's convention, 128 + the signal number (130 for SIGINT, 143 for SIGTERM)."""
        return 128 + (self.signum or signal.SIGINT)


class RunBusy(RuntimeError):
    """Another privbook process holds the lock on the folder this command would write."""


class OutputError(OSError):
    """Writing a run's or a sweep's files failed (a full disk, a read-only folder): ``str()`` is one
    line, what failed and the system's reason; whatever was half written has been removed."""

    def __init__(self, what: str, exc: OSError):
        super().__init__(exc.errno, exc.strerror or str(exc))
        self.what = what

    def __str__(self) -> str:
        return f"{self.what}: {self.strerror}"


@contextlib.contextmanager
def _writing(what: str) -> Iterator[None]:
    """Report an ``OSError`` raised inside as :class:`OutputError` saying ``what`` failed."""
    try:
        yield
    except OutputError:
        raise
    except OSError as exc:
        raise OutputError(what, exc) from exc


_EXCERPT = reprlib.Repr()
_EXCERPT.maxstring = 40
_EXCERPT.maxother = 40
_EXCERPT.maxlist = _EXCERPT.maxtuple = _EXCERPT.maxdict = 4
_EXCERPT.maxlevel = 2


def excerpt(value: Any, limit: int = 60) -> str:
    """A short repr of ``value`` for error messages (never more than ``limit`` characters, however
    large or deeply nested the value is)."""
    text = _EXCERPT.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True)
class Parameter:
    """One entry of a notebook's ``parameters`` cell: its help text without the range, and the
    range of a numeric parameter (of each element of a list), ``None`` for an end not given."""

    name: str
    type: str  # "int", "float", "str", "bool" or "list[int]" / "list[float]" / "list[str]"
    default: Any
    help: str
    low: int | float | None = None
    high: int | float | None = None
    low_open: bool = False
    high_open: bool = False

    @property
    def range(self) -> str:
        """The declared range as written (``[2, 1000]``, ``(0, 1]``), ``""`` when none."""
        if self.low is None and self.high is None:
            return ""
        ends = ("-inf" if self.low is None else _number(self.low), "inf" if self.high is None else _number(self.high))
        return f"{'(' if self.low_open else '['}{ends[0]}, {ends[1]}{')' if self.high_open else ']'}"

    def check_range(self, value: int | float) -> None:
        """Raise :class:`ParameterError` naming the parameter when ``value`` is outside its range."""
        low_ok = self.low is None or (value > self.low if self.low_open else value >= self.low)
        high_ok = self.high is None or (value < self.high if self.high_open else value <= self.high)
        if not (low_ok and high_ok):
            raise ParameterError(f"parameter {self.name!r} must lie in {self.range}, got {excerpt(value)}")


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


_NUMBER = r"[+-]?(?:inf|[\d_]*\.?[\d_]+(?:e[+-]?\d+)?)"
_RANGE = re.compile(rf"\s*([\[(])\s*({_NUMBER})\s*,\s*({_NUMBER})\s*([\])])\s*$", re.IGNORECASE)


def _number(value: int | float) -> str:
    """A range end as written: integers in full, floats in their shortest exact form."""
    return str(value) if isinstance(value, int) else (f"{value:g}" if float(f"{value:g}") == value else repr(value))


def _bound(text: str, kind: str) -> int | float | None:
    value = float(text)
    if math.isinf(value):
        return None
    return int(value) if kind == "int" and value == int(value) else value


def _declared(name: str, kind: str, default_text: str, help_text: str) -> Parameter:
    """A parameter from papermill's reading of its line: the type must be one of the supported
    ones, the default a literal of that type, a trailing range only on a numeric parameter, and
    the default within it."""
    kind = kind.replace(" ", "")
    allowed = set(_TYPES) | {f"list[{t}]" for t in ("int", "float", "str")}
    if kind not in allowed:
        raise ParameterError(f"parameter {name!r}: unsupported type {kind!r} (allowed: {', '.join(sorted(allowed))})")
    try:
        default = ast.literal_eval(default_text)
    except (ValueError, SyntaxError):
        raise ParameterError(f"parameter {name!r}: the default {excerpt(default_text)} is not a literal") from None
    fields: dict[str, Any] = {}
    match = _RANGE.search(help_text)
    if match:
        if kind.removeprefix("list[").removesuffix("]") not in ("int", "float"):
            raise ParameterError(f"parameter {name!r}: a range is declared for a parameter of type {kind}")
        help_text = help_text[:match.start()]
        scalar = kind.removeprefix("list[").removesuffix("]")
        fields = {"low": _bound(match[2], scalar), "high": _bound(match[3], scalar),
                  "low_open": match[1] == "(", "high_open": match[4] == ")"}
    param = Parameter(name, kind, default, help_text.strip(), **fields)
    parse_value(param, default)  # the declared default has the declared type and lies in the range
    return param


def notebook_parameters(path: str | Path) -> dict[str, Parameter]:
    """The typed parameters declared in the notebook's ``parameters`` cell, in order (read by
    papermill's ``inspect_notebook``; types, defaults and ranges checked here)."""
    import papermill

    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    if not any(c.get("cell_type") == "code" and "parameters" in c.get("metadata", {}).get("tags", [])
               for c in nb.get("cells", [])):
        raise ParameterError(f"{Path(path).name} has no cell tagged 'parameters'")
    try:
        inferred = papermill.inspect_notebook(str(path))
    except ValueError as exc:  # e.g. no kernel named in its metadata
        raise ParameterError(f"papermill cannot read the parameters of {Path(path).name}: {exc}") from None
    return {name: _declared(name, str(p["inferred_type_name"]), str(p["default"]), str(p["help"] or ""))
            for name, p in inferred.items()}


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
    if kind == "bool":  # the two spellings only: no "yes", "1" or "on"
        lowered = text.lower()
        if lowered in {"true", "false"}:
            return lowered == "true"
        raise ValueError
    return text


def parse_value(param: Parameter, value: Any) -> Any:
    """Convert ``value`` (a command-line string, or an already typed value from a grid file) to
    the parameter's declared type and check it against the declared range (each element of a
    list); raises :class:`ParameterError` naming the parameter."""
    kind = param.type
    try:
        if kind.startswith("list["):
            if isinstance(value, str):
                items = json.loads(value) if value.strip().startswith("[") else value.split(",")
            else:
                items = value
            if not isinstance(items, list) or not items:
                raise ValueError
        elif isinstance(value, str):
            converted = _parse_scalar(kind, value)
        elif kind == "float" and isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            converted = float(value)
        elif (kind == "int" and isinstance(value, int) and not isinstance(value, bool)
              or kind in {"bool", "str"} and isinstance(value, _TYPES[kind])):
            converted = value
        else:
            raise ValueError
    except (ValueError, TypeError, json.JSONDecodeError):
        raise ParameterError(f"parameter {param.name!r} expects {kind}, got {excerpt(value)}") from None
    if kind.startswith("list["):
        element = dataclasses.replace(param, type=kind[5:-1])
        return [parse_value(element, item) for item in items]
    if kind in ("int", "float"):
        param.check_range(converted)
    return converted


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
    """A stable, readable folder name for a parameter set (``defaults`` when empty).

    Characters other than letters, digits and ``=,.+_-`` become ``_``; when that changed the text
    (or the name would be longer than 120 characters) a short hash of the exact values is
    appended, so two different parameter sets never share a folder."""
    if not values:
        return "defaults"
    parts = []
    for name in sorted(values):
        value = values[name]
        text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
        parts.append(f"{name}={text}")
    raw = "_".join(parts)
    slug = re.sub(r"[^A-Za-z0-9=,.+_-]", "_", raw)
    if slug == raw and len(slug) <= 120:
        return slug
    digest = hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()[:10]
    return f"{slug[:100]}-{digest}"


def run_key(notebook_bytes: bytes, params: dict[str, Any], fingerprint: str) -> str:
    """The resume key of a run: a hash of the notebook's content, the parameters and privlib's
    sources (:func:`privlib_fingerprint`). A finished run with the same key need not run again."""
    digest = hashlib.sha256(notebook_bytes)
    digest.update(json.dumps(params, sort_keys=True).encode())
    digest.update(fingerprint.encode())
    return digest.hexdigest()[:32]


def privlib_fingerprint(package: Path | None = None) -> str:
    """SHA-256 of privlib's Python sources (this package's, or those under ``package``): it
    changes whenever the library's code does."""
    package = package or Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for f in sorted(package.rglob("*.py")):
        digest.update(f.relative_to(package).as_posix().encode())
        digest.update(f.read_bytes())
    return digest.hexdigest()


_VERSIONS = ("numpy", "scipy", "matplotlib", "papermill", "privlib")


def _versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for name in _VERSIONS:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return found


# --- locks ---------------------------------------------------------------------------------------

class FolderLock:
    """An exclusive lock on the file ``path``, for one writer per folder: filelock's ``FileLock``
    (an ``flock`` on POSIX), which the operating system releases when its holder dies, even by
    SIGKILL, so a lock is never stale. On release the file is removed while still locked (filelock
    leaves it on POSIX; it detects a file unlinked by its previous holder between opening and
    locking, and tries again), so no lock file outlives its run; while held it
    holds the holder's purpose, pid and host (written when the lock is taken, never truncated by
    a contender), which a second writer shows in :class:`RunBusy`.
    """

    def __init__(self, path: str | Path, purpose: str = "a privbook run"):
        self.path = Path(path)
        self.purpose = purpose
        # thread_local=False: a run's lock may be released by another thread than the one that took it
        self._lock = filelock.FileLock(self.path, thread_local=False, on_acquired=self._write_holder)

    def _write_holder(self, fd: int) -> None:
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{self.purpose} (pid {os.getpid()} on {socket.gethostname()})\n".encode(), 0)
        except OSError as exc:  # e.g. a full disk: leave no lock file behind (filelock then releases the lock)
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            raise OutputError(f"writing the lock file {self.path}", exc) from exc

    def holder(self) -> str:
        """Who holds the lock, as written in the lock file (``""`` when unknown)."""
        try:
            return self.path.read_text(encoding="utf-8").strip()[:200]
        except (OSError, UnicodeDecodeError):
            return ""

    def _try(self, timeout: float = 0.0) -> bool:
        with _writing(f"creating the lock file {self.path}"):
            try:
                self._lock.acquire(timeout=timeout, blocking=timeout > 0)
            except filelock.Timeout:  # held by another process (an OSError: caught before _writing sees it)
                return False
        return True

    def acquire(self, *, wait: bool = False, stop: Callable[[], bool] | None = None,
                on_wait: Callable[[str], None] | None = None) -> FolderLock:
        """Take the lock; if another process holds it, raise :class:`RunBusy` naming the holder,
        or with ``wait`` poll until it is free (``on_wait`` is told once; ``stop()`` ends the wait
        with :class:`RunInterrupted`)."""
        if self._try():
            return self
        if not wait:
            raise RunBusy(f"{self.path.parent} is being written by {self.holder() or 'another privbook process'}")
        if on_wait is not None:
            on_wait(f"waiting for {self.holder() or 'another privbook process'} to finish with {self.path.parent}")
        while not self._try(timeout=0.2):
            if stop is not None and stop():
                raise RunInterrupted(getattr(stop, "signum", None))
        return self

    def release(self) -> None:
        """Remove the lock file and release the lock (no-op when not held)."""
        if self._lock.is_locked:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)  # while still locked; a contender that locked the unlinked file retries
            self._lock.release(force=True)

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


# --- debris of killed runs -----------------------------------------------------------------------

def _debris_slug(name: str) -> str | None:
    """The run a hidden entry of a run's parent folder belongs to (``None``: not a run's; run
    names are ``defaults`` or contain ``=``, see :func:`run_slug`)."""
    if not name.startswith(".") or name.count(".") < 2:
        return None
    slug = None
    if name.endswith(".partial"):
        parts = name[1:].rsplit(".", 2)
        slug = parts[0] if len(parts) == 3 else None
    for suffix in (".lock", ".old"):
        if name.endswith(suffix):
            slug = name[1:-len(suffix)]
    return slug if slug and ("=" in slug or slug == "defaults") else None


def _is_debris_of(name: str, run: str) -> bool:
    """Whether ``name`` is the temporary (``.<run>.XXXX.partial``) or replaced (``.<run>.old``)
    folder of the run folder named ``run``."""
    if not name.startswith(f".{run}."):
        return False
    rest = name[len(run) + 2:]
    return rest == "old" or (rest.endswith(".partial") and len(rest) > 8 and "." not in rest[:-8])


def _remove(path: Path) -> None:
    """Remove debris: a temporary ``.partial`` folder (made by this module, with a random name) with
    its content; a replaced ``.old`` run folder only if it holds nothing but what its run wrote; a
    lock file."""
    if path.is_dir() and not path.is_symlink():
        if path.name.endswith(".old"):
            with contextlib.suppress(OSError):
                try:
                    _remove_run_folder(path)
                except ParameterError:  # not recognisably a run's: removed only when empty
                    path.rmdir()
        else:
            shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def clean_stale(folder: str | Path, *, skip: str = "") -> list[str]:
    """Remove what killed runs left in ``folder``: hidden ``.<slug>.XXXX.partial`` and
    ``.<slug>.old`` folders and ``.<slug>.lock`` files, for every run whose lock no live process
    holds (a run being written right now is never touched). ``skip`` names a lock file not to
    treat as a run's. Returns the names removed."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    by_slug: dict[str, list[Path]] = {}
    for entry in folder.iterdir():
        slug = _debris_slug(entry.name)
        if slug is not None and entry.name != skip:
            by_slug.setdefault(slug, []).append(entry)
    removed = []
    for slug, entries in sorted(by_slug.items()):
        lock = FolderLock(folder / f".{slug}.lock")
        try:
            lock.acquire()
        except RunBusy:
            continue
        try:
            for entry in entries:
                if entry.name != lock.path.name:
                    _remove(entry)
                if entry.name == lock.path.name or not (entry.exists() or entry.is_symlink()):
                    removed.append(entry.name)
        finally:
            lock.release()
    return removed


_KERNEL_DIR_PREFIX = "privbook-kernel-"


def clean_stale_kernel_dirs() -> list[str]:
    """Remove ``privbook-kernel-XXXX`` kernel-socket folders of the system's temporary directory that no live
    run holds (left by a run killed with SIGKILL). Only this user's folders are considered."""
    removed = []
    base = Path(tempfile.gettempdir())
    for d in base.glob(_KERNEL_DIR_PREFIX + "*"):
        try:
            info = d.lstat()
        except OSError:
            continue
        if not d.is_dir() or d.is_symlink() or info.st_uid != os.getuid():
            continue
        if not (d / "lock").exists():  # not ours, or its run is creating it right now
            continue
        lock = FolderLock(d / "lock")
        try:
            lock.acquire()
        except (RunBusy, OSError):
            continue
        shutil.rmtree(d, ignore_errors=True)
        lock.release()
        removed.append(d.name)
    return removed


# --- kernels ---------------------------------------------------------------------------------------

def _kill_kernel(km: Any) -> None:
    """Kill a kernel and its process group now (idempotent, thread-safe enough for a watcher)."""
    provisioner = getattr(km, "provisioner", None)
    process = getattr(provisioner, "process", None)
    if process is None or process.poll() is not None:
        return
    try:
        os.killpg(getattr(provisioner, "pgid", None) or process.pid, signal.SIGKILL)
    except (OSError, AttributeError):
        with contextlib.suppress(OSError):
            process.kill()


@contextlib.contextmanager
def _kernel_setup(figures: Path | None = None) -> Iterator[tuple[Any, type, list]]:
    """Configuration for one notebook execution: ``(config, kernel_manager_class, managers)``.

    With ``figures`` (a folder), the kernel's environment names it in ``PRIVBOOK_FIGURE_PICKLES``,
    where the chapter's figures are kept in a form a sweep's gallery can redraw
    (``privlib.book.plotting``).

    The kernel talks over IPC sockets (local files, no TCP port) that live, with its connection
    file, in a private ``privbook-kernel-XXXX`` folder of the temporary directory, locked while the run lives
    and removed on exit; every kernel manager created is listed in ``managers`` so that a watcher
    can kill its kernel, and any kernel still alive on exit is killed.
    """
    from jupyter_client.manager import AsyncKernelManager
    from traitlets.config import Config

    clean_stale_kernel_dirs()
    sockets = Path(tempfile.mkdtemp(prefix=_KERNEL_DIR_PREFIX))
    lock = FolderLock(sockets / "lock", "kernel sockets").acquire()
    managers: list[Any] = []

    class RunKernelManager(AsyncKernelManager):
        """Shuts a kernel down with the shutdown request alone (jupyter_client also sends SIGINT
        first, which makes an idle ipykernel log "KeyboardInterrupt caught in kernel")."""

        def __init__(self, **kwargs: Any):
            super().__init__(**kwargs)
            managers.append(self)

        async def _async_interrupt_kernel(self) -> None:
            if self.shutting_down:
                return
            await super()._async_interrupt_kernel()

        async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
            if figures is not None:
                kw["env"] = {**kw.get("env", os.environ), FIGURE_PICKLES_ENV: str(figures)}
            await super()._async_launch_kernel(kernel_cmd, **kw)

    config = Config({"KernelManager": {"transport": "ipc", "ip": str(sockets / "k"),
                                       "connection_file": str(sockets / "kernel.json")}})
    try:
        yield config, RunKernelManager, managers
    finally:
        for km in managers:
            _kill_kernel(km)
        shutil.rmtree(sockets, ignore_errors=True)
        lock.release()


class StopRequest:
    """A request to stop the run in progress: set by :meth:`set`, by SIGINT/SIGTERM while
    :meth:`on_signals` is active, or (``file``) by the existence of a file, which is how a sweep
    reaches its workers. Calling it says whether the stop was requested."""

    def __init__(self, file: str | Path | None = None):
        self._event = threading.Event()
        self.signum: int | None = None
        self.file = Path(file) if file else None

    def set(self, signum: int | None = None) -> None:
        """Request the stop (``signum``: the signal that asked for it, if any)."""
        if not self._event.is_set():
            self.signum = signum
        self._event.set()

    def __call__(self) -> bool:
        return self._event.is_set() or (self.file is not None and self.file.exists())

    @contextlib.contextmanager
    def on_signals(self, signums: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)) -> Iterator[StopRequest]:
        """While active, these signals set the request instead of raising or killing the
        process (in the main thread only; elsewhere this does nothing)."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = {s: signal.signal(s, lambda signum, frame: self.set(signum)) for s in signums}
        try:
            yield self
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)


class _Watcher(threading.Thread):
    """Kills the run's kernels as soon as ``stop()`` is true (polled every 0.1 s)."""

    def __init__(self, stop: Callable[[], bool], managers: list):
        super().__init__(name="privbook-stop-watcher", daemon=True)
        self.stop, self.managers = stop, managers
        self.done = threading.Event()
        self.fired = False

    def run(self) -> None:
        while not self.done.wait(0.1):
            if self.fired or self.stop():
                self.fired = True
                for km in list(self.managers):
                    _kill_kernel(km)


# --- runs ------------------------------------------------------------------------------------------

RUN_PAGE = "run.html"
FIGURES = "figures.json"
FIGURE_PICKLES_ENV = "PRIVBOOK_FIGURE_PICKLES"
"""Set in a run's kernel: the folder where ``privlib.book.plotting`` keeps each displayed figure
as a pickle named by the SHA-256 of its PNG (nothing is kept when it is not set)."""
_FIGURE_SCRATCH = ".figure-pickles"


def figure_records(nb: dict) -> list[dict[str, str]]:
    """Every PNG figure of an executed notebook (as parsed JSON), in order: its file name in a run
    folder (``figure-NN.png``), its number, the caption the chapter gives it (the cell's
    ``mystnb.figure`` caption, else its alt text) and its alt text (the figure's title and axes)."""
    records = []
    for cell in nb.get("cells", []):
        meta = cell.get("metadata", {}).get("mystnb", {}).get("figure", {})
        for output in cell.get("outputs", []):
            if "image/png" not in output.get("data", {}):
                continue
            alt = str(output.get("metadata", {}).get("image/png", {}).get("alt", ""))
            number = len(records) + 1
            records.append({"file": f"figure-{number:02d}.png", "number": str(number), "name": str(meta.get("name", "")),
                            "caption": str(meta.get("caption", "")) or alt, "alt": alt or f"figure {number}"})
    return records


def extract_figures(notebook: Path, folder: Path, *, pickles: Path | None = None) -> list[Path]:
    """Write every PNG output of an executed notebook to ``folder/figure-NN.png``, and their
    numbers, captions and alt texts (``figure_records``) to ``folder/figures.json``.

    ``pickles``: the folder the kernel kept its figures in (``PRIVBOOK_FIGURE_PICKLES``, each
    named by the SHA-256 of the PNG it was displayed as); the figure of each PNG found there is
    copied beside it as ``figure-NN.pickle``, for a sweep's gallery to redraw on shared axes."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    written = []
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "image/png" in data:
                png = data["image/png"]
                path = folder / f"figure-{len(written) + 1:02d}.png"
                content = b64decode("".join(png) if isinstance(png, list) else png)
                path.write_bytes(content)
                written.append(path)
                kept = pickles / f"{hashlib.sha256(content).hexdigest()}.pickle" if pickles is not None else None
                if kept is not None and kept.is_file():
                    shutil.copyfile(kept, path.with_suffix(".pickle"))
    (folder / FIGURES).write_text(json.dumps(figure_records(nb), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return written


def read_figures(folder: Path) -> list[dict[str, str]]:
    """The figures of a run folder as :func:`extract_figures` recorded them (for a folder written
    before captions were recorded: its ``figure-NN.png`` files, numbered, without captions)."""
    try:
        records = json.loads((Path(folder) / FIGURES).read_text(encoding="utf-8"))
        if isinstance(records, list) and all(isinstance(r, dict) and "file" in r for r in records):
            return records
    except (OSError, ValueError):
        pass
    return [{"file": f.name, "number": str(k), "name": "", "caption": "", "alt": f"figure {k}"}
            for k, f in enumerate(sorted(Path(folder).glob("figure-*.png")), 1)]


# MyST roles of the chapters' Markdown, as plain text in the run page (nbconvert renders CommonMark)
_ROLE = re.compile(r"\{([a-z:-]+)\}`([^`]*)`")


def _plain_roles(text: str, numbers: dict[str, str]) -> str:
    def replace(match: re.Match) -> str:
        role, body = match.group(1), match.group(2)
        target = body.rsplit("<", 1)[-1].rstrip(">").strip() if "<" in body else body.strip()
        shown = body.split("<", 1)[0].strip() if "<" in body else ""
        if role in ("numref", "std:numref"):
            return f"Figure {numbers[target]}" if target in numbers else (shown or "the figure")
        if role.startswith("cite") or role == "bibcite":
            return "[" + body.replace(",", "; ") + "]"
        if role == "eq":
            return f"({target})"
        if role in ("math",):
            return f"${body}$"
        return shown or target.rsplit("/", 1)[-1]
    return _ROLE.sub(replace, text)


_TEX_SYMBOLS = {"varepsilon": "ε", "epsilon": "ε", "delta": "δ", "Delta": "Δ", "alpha": "α", "beta": "β",
                "gamma": "γ", "theta": "θ", "mu": "μ", "nu": "ν", "pi": "π", "rho": "ρ", "sigma": "σ", "ell": "ℓ",
                "pm": "±", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "infty": "∞", "mapsto": "↦", "to": "→",
                "times": "×", "cdot": "·", "log": "log", "exp": "exp", "sup": "sup", "min": "min", "max": "max"}
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_INLINE_TEX = re.compile(r"\$([^$]+)\$")


def plain_tex(text: str) -> str:
    """Inline TeX (``$...$``) as plain text where it is simple (Greek letters, relations, sub- and
    superscripts); anything else stays as written. For captions on pages without MathJax."""
    def replace(match: re.Match) -> str:
        body = re.sub(r"\\([A-Za-z]+)", lambda m: _TEX_SYMBOLS.get(m.group(1), m.group(0)), match.group(1))
        body = body.replace("\\,", " ")
        body = re.sub(r"_\{?([0-9]+)\}?", lambda m: m.group(1).translate(_SUBSCRIPTS), body)
        body = re.sub(r"\^\{([^{}]*)\}", lambda m: "^" + (m.group(1) if len(m.group(1)) == 1 else f"({m.group(1)})"), body)
        body = re.sub(r"_\{([^{}]*)\}", r"_\1", body)
        return match.group(0) if "\\" in body or "{" in body else body
    return _INLINE_TEX.sub(replace, text)


def _umask() -> int:
    """The process's umask (from /proc on Linux, so that no thread sees it changed)."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def apply_umask(folder: Path) -> None:
    """Give a folder made private by :func:`tempfile.mkdtemp` (``drwx------``) the permissions
    the user's umask gives a new folder."""
    os.chmod(folder, 0o777 & ~_umask())


_PAGE_STYLE = """
body{font-family:system-ui,sans-serif;max-width:52em;margin:1em auto;padding:0 1em;line-height:1.5;color:#1a1a1a}
h1{font-size:1.6em} figure{margin:1em 0} figure img{max-width:100%;height:auto}
figcaption{font-size:.9em;color:#333} table{border-collapse:collapse;font-size:.9em} td,th{padding:.2em .6em;vertical-align:top}
.summary{background:#f3f6fa;border:1px solid #cdd6e1;padding:.6em 1em;margin:1em 0}
.summary th{text-align:left} .FAILED{color:#a00;font-weight:bold}
div.jp-InputArea pre, div.highlight pre{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:.85em}
div.jp-OutputArea-output pre{white-space:pre-wrap;font-size:.85em}
.jp-InputPrompt,.jp-OutputPrompt{display:none}
"""


def write_run_page(executed: Path, folder: Path, payload: dict[str, Any], name: str | None = None) -> Path:
    """Write ``folder/run.html``: the executed chapter as a person reads it (nbconvert's HTML, code
    hidden where the book hides it, the interactive figures of the book left out as their static
    figure is there, figures as the run folder's PNG files with "Figure N." and their caption)
    after a summary of the run: its parameters, its claims and their statuses. The page loads
    nothing from another host (TeX is shown as written, simple inline TeX of captions as text).
    ``name`` is the run's name in its title (default: the folder's)."""
    import nbformat
    from nbconvert import HTMLExporter
    from nbconvert.preprocessors import TagRemovePreprocessor

    nb = nbformat.read(executed, as_version=4)
    figures = figure_records(json.loads(executed.read_text(encoding="utf-8")))
    numbers = {f["name"]: f["number"] for f in figures if f["name"]}
    it = iter(figures)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = _plain_roles(cell.source, numbers)
            continue
        if cell.cell_type != "code":
            continue
        kept = []
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "privbook-explore" in str(data.get("text/html", "")):
                continue  # an interactive figure of the HTML book: its static figure is just above
            if "image/png" in data:
                fig = next(it)
                output = nbformat.from_dict({"output_type": "display_data", "metadata": {}, "data": {"text/html": (
                    f"<figure id='figure-{fig['number']}'><img src='{html.escape(fig['file'])}' alt='{html.escape(fig['alt'])}'>"
                    f"<figcaption><b>Figure {fig['number']}.</b> {html.escape(plain_tex(_plain_roles(fig['caption'], numbers)))}"
                    "</figcaption></figure>")}})
            elif "text/markdown" in data:
                data["text/markdown"] = _plain_roles(str(data["text/markdown"]), numbers)
            kept.append(output)
        cell.outputs = kept
    nb.metadata.pop("widgets", None)
    remove = TagRemovePreprocessor(remove_cell_tags={"remove-cell"}, remove_input_tags={"hide-input", "remove-input"},
                                   remove_all_outputs_tags={"remove-output"}, enabled=True)
    exporter = HTMLExporter(template_name="basic", exclude_input_prompt=True, exclude_output_prompt=True)
    exporter.register_preprocessor(remove, enabled=True)
    body, _ = exporter.from_notebook_node(nb)

    params = payload.get("parameters", {})
    rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(json.dumps(v))}</td></tr>" for k, v in params.items())
    claims_rows = "".join(
        f"<tr><td>{html.escape(str(c.get('id', '')))}</td><td>{html.escape(str(c.get('item', '')))}</td>"
        f"<td class='{html.escape(str(c.get('status', '')))}'>{html.escape(str(c.get('status', '')))}</td></tr>"
        for c in payload.get("claims", []))
    title = f"{Path(executed).stem}: {(name or folder.name) if params else 'default parameters'}"
    page = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(title)}</title><style>{_PAGE_STYLE}</style></head><body>"
            f"<h1>{html.escape(title)}</h1><section class='summary' aria-label='summary of the run'>"
            f"<p>Run of <code>{html.escape(Path(executed).name)}</code> in {payload.get('seconds', 0):g} s. "
            f"Parameters changed from the chapter's defaults: {'none' if not params else ''}</p>"
            + (f"<table>{rows}</table>" if rows else "")
            + f"<p>Claims: {html.escape(str(payload.get('claims_summary', 'none shown')))}.</p>"
            + (f"<details><summary>Every claim shown</summary><table><tr><th>claim</th><th>item</th><th>status</th></tr>"
               f"{claims_rows}</table></details>" if claims_rows else "")
            + f"<p>Figures: {len(figures)}; files of this run: <code>{html.escape(FILES)}</code>.</p></section>"
            f"<main>{body}</main></body></html>\n")
    path = folder / RUN_PAGE
    path.write_text(page, encoding="utf-8")
    return path


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _write_file_manifest(folder: Path) -> None:
    files = {f.name: {"bytes": f.stat().st_size, "sha256": _sha256(f)}
             for f in sorted(folder.iterdir()) if f.is_file() and f.name != FILES}
    (folder / FILES).write_text(json.dumps({"files": files}, indent=2) + "\n", encoding="utf-8")


def check_run(folder: str | Path, key: str | None = None) -> str | None:
    """Why the run folder is not a finished run matching its file manifest (and, given ``key``,
    the current notebook, parameters and privlib), or ``None`` when it is.

    Every file listed in ``files.json`` must exist with its recorded size and SHA-256 (files
    added later, e.g. notes, are ignored)."""
    folder = Path(folder)
    if not folder.is_dir():
        return "not run yet"
    try:
        listed = json.loads((folder / FILES).read_text(encoding="utf-8"))["files"]
        entries = [(str(name), int(e["bytes"]), str(e["sha256"])) for name, e in listed.items()]
    except FileNotFoundError:
        return f"{FILES} is missing (an unfinished run, or one by an older privbook)"
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return f"{FILES} is unreadable"
    if RESULTS not in listed:
        return f"{FILES} does not list {RESULTS}"
    for name, size, sha in entries:
        path = folder / name
        if "/" in name or "\\" in name or name in {"", ".", ".."}:
            return f"{FILES} lists an invalid name {excerpt(name)}"
        if not path.is_file():
            return f"{name} is missing"
        actual = path.stat().st_size
        if actual != size:
            return f"{name} has {actual} bytes, {FILES} says {size}"
        if _sha256(path) != sha:
            return f"{name} differs from its SHA-256 in {FILES}"
    if key is not None:
        try:
            recorded = json.loads((folder / RESULTS).read_text(encoding="utf-8")).get("key")
        except (OSError, ValueError, AttributeError):
            return f"{RESULTS} is unreadable"
        if recorded != key:
            return "the notebook, its parameters or privlib changed since this run"
    return None


# --- where a run or a sweep may write -----------------------------------------------------------------

_FAILED_FILES = re.compile(r"(figure-\d+\.(?:png|pickle)|figures\.json|run\.html|parameters\.json|results\.json|files\.json|error\.txt)")


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.iterdir(), key=lambda p: p.name)


def _run_files(folder: Path) -> list[str]:
    """The names of what the finished run in ``folder`` wrote (every file its ``files.json``
    lists, then ``files.json``); :class:`ParameterError` when the folder holds anything else or is
    not recognisably a run's."""
    if not (folder / FILES).is_file() or not (folder / RESULTS).is_file():
        content = _entries(folder)
        if not content:
            raise ParameterError("is an existing empty folder that privbook did not create")
        raise ParameterError(f"is an existing folder that privbook did not create (it holds {content[0].name})")
    try:
        listed = json.loads((folder / FILES).read_text(encoding="utf-8"))["files"]
        names = [str(name) for name in listed]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise ParameterError(f"its {FILES} is unreadable, so what privbook wrote there is unknown") from None
    if any("/" in n or "\\" in n or n in {"", ".", "..", FILES} for n in names):
        raise ParameterError(f"its {FILES} lists an invalid name")
    allowed = set(names) | {FILES}
    for entry in _entries(folder):
        if entry.name not in allowed or entry.is_symlink() or not entry.is_file():
            raise ParameterError(f"holds {entry.name}, which privbook did not write")
    return [*sorted(names, key=lambda n: n == RESULTS), FILES]  # recognisable until the last file goes


def _failed_files(folder: Path, notebook: str | None) -> list[str]:
    """The files of a failed run's folder (``<run>.failed``, recognised by its ``error.txt``);
    :class:`ParameterError` when it holds anything a failed run does not write."""
    if not (folder / "error.txt").is_file():
        raise ParameterError(f"{folder.name} exists but is not a failed run's folder (it has no error.txt)")
    names = []
    for entry in _entries(folder):
        known = _FAILED_FILES.fullmatch(entry.name) or (entry.name.endswith(".ipynb") and notebook in {None, entry.name})
        if not known or entry.is_symlink() or not entry.is_file():
            raise ParameterError(f"{folder.name} holds {entry.name}, which privbook did not write")
        names.append(entry.name)
    return sorted(names, key=lambda n: n == "error.txt")  # error.txt last: the folder stays recognisable


def _remove_files(folder: Path, names: list[str]) -> None:
    """Remove the named files of ``folder`` (in order), then the folder if that left it empty; an
    entry added meanwhile keeps the folder (``OSError``)."""
    for name in names:
        with contextlib.suppress(FileNotFoundError):
            (folder / name).unlink()
    folder.rmdir()


def _remove_run_folder(folder: Path) -> None:
    """Remove a finished run's folder: only what its ``files.json`` lists, then ``files.json``
    (never a folder tree that may hold what privbook did not write)."""
    _remove_files(folder, _run_files(folder))


def _remove_failed_folder(folder: Path, notebook: str | None) -> None:
    if folder.exists() or folder.is_symlink():
        _remove_files(folder, _failed_files(folder, notebook))


def _is_sweep_folder(folder: Path) -> bool:
    """Whether a sweep created ``folder``: it has the sweep's marker, or a manifest a sweep wrote."""
    if (folder / SWEEP_MARKER).is_file():
        return True
    try:
        records = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (isinstance(records, list) and bool(records)
            and all(isinstance(r, dict) and "run" in r and "status" in r for r in records))


def _out_problem(dest: Path, *, sweep: bool, notebook: str | None) -> str | None:
    """Why ``dest`` (resolved) may not be written by a run (or, ``sweep``, a sweep), or ``None``."""
    if not dest.name:
        return "names the filesystem root"
    cwd = Path.cwd().resolve()
    if dest == cwd:
        return "is the current folder"
    if dest in cwd.parents:
        return "contains the current folder"
    with contextlib.suppress(ParameterError, OSError):
        root = project_root().resolve()
        if dest == root:
            return "is the project root"
        if dest in root.parents:
            return "contains the project"
    for parent in dest.parents:
        if parent.exists():
            if not parent.is_dir():
                return f"{parent} is not a folder"
            break
    if dest.is_symlink() and not dest.exists():
        return "is a dangling symbolic link"
    try:
        if dest.exists():
            if not dest.is_dir():
                return "is an existing file"
            if sweep:
                if not _is_sweep_folder(dest):
                    content = _entries(dest)
                    return ("is an existing empty folder that privbook did not create" if not content else
                            f"is an existing folder that privbook did not create (it holds {content[0].name})")
            else:
                _run_files(dest)
        failed = dest.with_name(dest.name + ".failed")
        if not sweep and (failed.exists() or failed.is_symlink()):
            _failed_files(failed, notebook)
    except ParameterError as exc:
        return str(exc)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    return None


def check_out(out: str | Path, *, sweep: bool = False, notebook: str | None = None, label: str | None = None) -> Path:
    """The folder a run (or, with ``sweep``, a sweep) may write as ``out``, resolved; raises
    :class:`ParameterError` with one line otherwise. Nothing is created or changed.

    A run may write a new folder or replace a finished run's folder (recognised by its
    ``files.json`` and ``results.json``) that holds nothing but what that run wrote; its
    ``<name>.failed`` folder, if any, must hold only what a failed run writes (``error.txt``, ...).
    A sweep may write a new folder or one a sweep created (its :data:`SWEEP_MARKER` or its
    manifest). Anything else is refused: an existing file, any other existing folder, empty or
    not, the current folder or one containing it, the project root or one containing it, the
    filesystem root. ``notebook`` is the executed notebook's file name (a failed run's folder may
    hold it); ``label`` names ``out`` in the message (default ``--out OUT``)."""
    text = str(out)
    label = label or f"--out {text}"
    hint = "name a new folder" if label.startswith("--out") else "move it away or name a new folder with --out"
    if not text.strip():
        raise ParameterError(f"{label}: is empty; {hint}")
    try:
        dest = Path(out).expanduser().resolve()
    except (OSError, RuntimeError) as exc:
        raise ParameterError(f"{label}: cannot be resolved ({getattr(exc, 'strerror', None) or exc}); {hint}") from None
    problem = _out_problem(dest, sweep=sweep, notebook=notebook)
    if problem:
        raise ParameterError(f"{label}: {problem}; {hint}")
    return dest


def _mkdirs(folder: Path) -> list[Path]:
    """``mkdir -p``; returns the folders it created, deepest first (for :func:`_rmdirs`)."""
    created = [p for p in (folder, *folder.parents) if not p.exists()]
    with _writing(f"creating {folder}"):
        folder.mkdir(parents=True, exist_ok=True)
    return created


def _rmdirs(created: list[Path]) -> None:
    """Remove the folders :func:`_mkdirs` created, those still empty."""
    for folder in created:
        with contextlib.suppress(OSError):
            folder.rmdir()


def _results_payload(executed: Path, notebook: str, params: dict[str, Any], key: str, seconds: float) -> dict:
    recorded, shown = results.collect(json.loads(executed.read_text(encoding="utf-8")))
    summary = results.claims_summary(shown)
    return {"notebook": notebook, "parameters": params, "key": key, "status": "done",
            "seconds": round(seconds, 3), "claims": shown, "claims_summary": summary["text"],
            "claims_failed": summary["failed"], "results": recorded, "versions": _versions()}


def run_notebook(notebook: str | Path, values: dict[str, Any] | None = None, *, out_dir: str | Path | None = None,
                 kernel_name: str = "python3", timeout: int = 600, progress: bool = False,
                 stop: Callable[[], bool] | None = None) -> Path:
    """Execute ``notebook`` with validated parameters through papermill; returns the run folder.

    The run folder (default ``runs/<notebook>/<slug>``, with the user's umask) receives the
    executed notebook, its page ``run.html`` (``write_run_page``), its figures
    (``figure-NN.png``, captions in ``figures.json``; ``figure-NN.pickle``, the figure itself, for
    each one drawn with ``privlib.book.plotting``, which a sweep's gallery redraws), ``parameters.json``, ``results.json`` (the same record a sweep
    point has: parameters, resume key, claims and their statuses, recorded results, versions)
    and, written last, ``files.json`` (size and SHA-256 of each file). Everything is written into
    a temporary folder renamed into place only after a successful run, under the lock
    ``.<slug>.lock`` (:class:`RunBusy` if another process holds it).

    The folder is checked first (:func:`check_out`: a new folder, or a finished run's folder holding
    only what that run wrote, which is then all that is removed); :class:`ParameterError` before
    anything is created or started otherwise.

    A run that raises is moved to ``<folder>.failed/`` with ``error.txt`` and the error re-raised
    (when even that cannot be written, e.g. on a full disk, its temporary folder is removed); an
    ``OSError`` of writing the run's files is raised as :class:`OutputError`.
    When ``stop()`` becomes true (or, with no ``stop`` and in the main thread, on SIGINT or
    SIGTERM) the kernel is killed, the temporary folder removed and :class:`RunInterrupted` raised.
    """
    path = find_notebook(str(notebook))
    params = validate_parameters(path, values or {})
    if out_dir:  # checked before anything is created or started
        dest = check_out(out_dir, notebook=path.name)
    else:
        default = project_root() / "runs" / path.stem / run_slug(params)
        dest = check_out(default, notebook=path.name, label=str(default))
    import papermill  # book extra: imported only when a run is requested

    if stop is None:
        request = StopRequest()
        with request.on_signals():
            return run_notebook(path, params, out_dir=dest, kernel_name=kernel_name, timeout=timeout,
                                progress=progress, stop=request)
    notebook_bytes = path.read_bytes()
    key = run_key(notebook_bytes, params, privlib_fingerprint())
    created = _mkdirs(dest.parent)
    try:
        lock = FolderLock(dest.with_name(f".{dest.name}.lock"), f"a run of {path.stem} {dest.name}").acquire()
    except BaseException:
        _rmdirs(created)
        raise
    try:
        for entry in dest.parent.iterdir():  # debris of this run killed earlier (we hold its lock)
            if _is_debris_of(entry.name, dest.name):
                _remove(entry)
        check_out(dest, notebook=path.name, label=f"{dest}")  # again, under the lock
        return _run_locked(papermill, path, params, dest, key, kernel_name, timeout, progress, stop)
    except OSError:
        lock.release()
        _rmdirs(created)  # a full disk: the folders this run created go too, if empty
        raise
    finally:
        lock.release()


def _run_locked(papermill: Any, path: Path, params: dict[str, Any], dest: Path, key: str, kernel_name: str,
                timeout: int, progress: bool, stop: Callable[[], bool]) -> Path:
    if stop():
        raise RunInterrupted(getattr(stop, "signum", None))
    with _writing(f"creating a temporary folder in {dest.parent}"):
        tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".partial", dir=dest.parent))
        apply_umask(tmp)
    start = time.time()
    step = "writing the executed notebook"
    try:
        scratch = tmp / _FIGURE_SCRATCH
        scratch.mkdir()
        with _kernel_setup(figures=scratch) as (config, manager_class, managers):
            watcher = _Watcher(stop, managers)
            watcher.start()
            try:
                executed = tmp / path.name
                papermill.execute_notebook(str(path), str(executed), parameters=params, kernel_name=kernel_name,
                                           cwd=str(path.parent), progress_bar=progress, execution_timeout=timeout,
                                           log_output=False, config=config, kernel_manager_class=manager_class)
            finally:
                watcher.done.set()
                watcher.join()
        if watcher.fired:  # stopped after the last cell: not a run anyone asked to keep
            raise RunInterrupted(getattr(stop, "signum", None))
        step = "writing the figures"
        extract_figures(executed, tmp, pickles=scratch)
        shutil.rmtree(scratch)
        seconds = time.time() - start
        meta = {"notebook": path.name, "parameters": params, "seconds": round(seconds, 3)}
        step = "writing parameters.json"
        (tmp / "parameters.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        payload = _results_payload(executed, path.name, params, key, seconds)
        step = f"writing {RESULTS}"
        (tmp / RESULTS).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        step = f"writing {RUN_PAGE}"
        write_run_page(executed, tmp, payload, dest.name)
        step = f"writing {FILES}"
        _write_file_manifest(tmp)
    except BaseException as exc:
        if stop() or isinstance(exc, KeyboardInterrupt):
            shutil.rmtree(tmp, ignore_errors=True)
            if isinstance(exc, RunInterrupted) or not isinstance(exc, KeyboardInterrupt):
                raise RunInterrupted(getattr(stop, "signum", None)) from None
            raise
        wrapped = OutputError(f"{step} of the run {dest}", exc) if (
            isinstance(exc, OSError) and not isinstance(exc, OutputError)) else None
        _keep_failed(tmp, dest.with_name(dest.name + ".failed"), wrapped or exc, path.name)
        if wrapped is not None:
            raise wrapped from exc
        raise
    try:
        _replace(tmp, dest, path.name)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dest


def _keep_failed(tmp: Path, failed: Path, exc: BaseException, notebook: str) -> None:
    """Move a failed run's temporary folder to ``failed`` with its ``error.txt``, replacing an
    earlier failed run's folder; when that is impossible (a full disk; ``failed`` holds what privbook
    did not write) remove the temporary folder instead and leave ``failed`` as it is."""
    try:
        shutil.rmtree(tmp / _FIGURE_SCRATCH, ignore_errors=True)  # the kernel's figures: not a run's file
        _remove_failed_folder(failed, notebook)
        (tmp / "error.txt").write_text(f"{type(exc).__name__}: {exc}\n", encoding="utf-8")
        tmp.rename(failed)
    except (OSError, ParameterError):
        shutil.rmtree(tmp, ignore_errors=True)


def _replace(tmp: Path, dest: Path, notebook: str) -> None:
    """Put the finished run ``tmp`` in place of ``dest``. A finished run already there loses only
    what it wrote (its ``files.json`` says what); a folder holding anything else is refused
    (:func:`check_out` refused it before the run, this checks again), and so is a failed run's
    folder holding anything a failed run does not write (it is kept as it is)."""
    failed = dest.with_name(dest.name + ".failed")
    replaced = dest.exists() or dest.is_symlink()
    try:  # raises before anything moves
        if failed.exists() or failed.is_symlink():
            _failed_files(failed, notebook)
        if replaced and (dest.is_symlink() or not dest.is_dir()):
            raise ParameterError("is an existing file")
        names = _run_files(dest) if replaced else []
    except ParameterError as exc:
        raise ParameterError(f"{dest}: {exc}; move it away or name a new folder with --out") from None
    if replaced:
        old = dest.with_name(f".{dest.name}.old")
        with _writing(f"moving the finished run into {dest}"):
            dest.rename(old)
            try:
                tmp.rename(dest)
            except BaseException:
                old.rename(dest)
                raise
        with contextlib.suppress(OSError):
            _remove_files(old, names)  # what remains (added meanwhile) is kept, as .<name>.old
    else:
        with _writing(f"moving the finished run into {dest}"):
            tmp.rename(dest)
    with contextlib.suppress(OSError, ParameterError):
        _remove_failed_folder(failed, notebook)


def refresh_notebook(path: str | Path, *, timeout: int = 600) -> float:
    """Re-execute a chapter notebook at its default parameters and write its outputs back in
    place (the committed outputs that nbval compares); returns the seconds it took. Cell timing
    metadata and widget state are not kept (nbclient records widget state while executing, as its
    Output-widget hook requires; it is dropped before writing), so an unchanged result leaves the file unchanged. The kernel is
    set up as for :func:`run_notebook` (private sockets, removed on exit; quiet shutdown)."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        cell.get("metadata", {}).pop("execution", None)
    start = time.perf_counter()
    with _kernel_setup() as (config, manager_class, _):
        NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False, config=config,
                       kernel_manager_class=manager_class,
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    nb.metadata.pop("widgets", None)
    nbformat.write(nb, path)
    return time.perf_counter() - start
