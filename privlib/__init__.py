"""privlib: computations behind the privbook companion to five papers on inferential privacy.

Layers, each using only the ones below it:

- ``privlib.batch``: the ``privbook`` command (runs, sweeps, the CLI);
- ``privlib.book``: what chapters use to show and record results (prose, plotting, results, explore);
- ``privlib.verify``: the claims registry (``claims``) and the claims of each chapter;
- ``privlib.papers``: one module per paper (intervals and pufferfish, leakage, minimax,
  affiliation, statistical), each paper's closed forms, bounds and examples;
- ``privlib.core``: validation, log-space helpers, mechanisms, privacy curves (``profiles``), CHTP
  of a pair of laws (``chtp``), and the shared notions (``notions``).

Every module is also reachable by its short name, ``from privlib import leakage`` (imported on
first use, so ``privbook`` starts without loading scipy).
"""

from __future__ import annotations

import importlib
from types import ModuleType

__version__ = "0.1.0"

_HOMES = {
    "mechanisms": "core", "profiles": "core", "notions": "core", "chtp": "core",
    "intervals": "papers", "pufferfish": "papers", "leakage": "papers", "minimax": "papers",
    "affiliation": "papers", "statistical": "papers",
    "claims": "verify", "ledger": "verify",
    "prose": "book", "plotting": "book", "results": "book", "explore": "book",
    "runs": "batch", "sweep": "batch", "cli": "batch",
}
"""Short name of each public module and the layer it lives in."""


def __getattr__(name: str) -> ModuleType:
    if name in _HOMES:
        module = importlib.import_module(f"privlib.{_HOMES[name]}.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'privlib' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])
