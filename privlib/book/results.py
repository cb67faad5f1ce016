"""Named results a notebook records for batch runs.

``record("delta_at_eps1", 0.1269)`` displays ``delta_at_eps1 = 0.1269`` in the notebook and, in
the same output, a machine-readable copy (MIME type ``RESULT_MIME``). ``privbook sweep`` reads
those outputs, and the claims' outputs (``CLAIM_MIME``, see :mod:`privlib.verify.claims`), from each
executed notebook into its ``results.json``, with a one-line summary of the claims' statuses
(``claims_summary``, the FAILED ones named). Nothing else is needed: the executed notebook is the
single source of a run's results, and ``record`` works the same when run interactively.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from privlib.verify.claims import CLAIM_MIME

__all__ = ["RESULT_MIME", "CLAIM_MIME", "record", "Recorded", "collect", "claims_summary"]

RESULT_MIME = "application/vnd.privbook.result+json"


def _plain(value: Any) -> Any:
    """A JSON-safe copy of ``value``; floats keep 12 significant digits."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        x = float(value)
        if not math.isfinite(x):
            raise ValueError(f"a recorded value must be finite, got {x}")
        return float(f"{x:.12g}")
    if isinstance(value, str):
        return value
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    raise TypeError(f"a recorded value must be a number, a string or a list of them, got {type(value).__name__}")


class Recorded:
    """The display of one recorded result."""

    def __init__(self, name: str, value: Any):
        self.name = name
        self.value = value

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, Any]:
        text = self.value if isinstance(self.value, str) else (
            f"{self.value:.6g}" if isinstance(self.value, float) else str(self.value))
        return {"text/plain": f"{self.name} = {text}", RESULT_MIME: {"name": self.name, "value": self.value}}

    def __repr__(self) -> str:
        return self._repr_mimebundle_()["text/plain"]


def record(name: str, value: Any) -> Recorded:
    """Record a named key number of this run; returns an object that displays it."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"name must be an identifier-like string, got {name!r}")
    return Recorded(name, _plain(value))


def collect(notebook: dict) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The recorded results and the claims shown in an executed notebook (as parsed JSON)."""
    recorded: dict[str, Any] = {}
    claims: list[dict[str, Any]] = []
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if RESULT_MIME in data:
                recorded[data[RESULT_MIME]["name"]] = data[RESULT_MIME]["value"]
            if CLAIM_MIME in data:
                claims.append(data[CLAIM_MIME])
    return recorded, claims


_STATUS_ORDER = ("verified", "erratum", "illustrated")


def claims_summary(claims: list[dict[str, Any]]) -> dict[str, Any]:
    """Count the statuses of the claims a run showed: ``{"counts": {status: n}, "failed": [ids
    of FAILED claims, each once, in order shown], "text": "3 verified, 1 FAILED
    (004/erratum-fig5)"}`` (``"none shown"`` when the run showed no claim)."""
    counts: dict[str, int] = {}
    failed: list[str] = []
    for c in claims:
        status = str(c.get("status", "?"))
        counts[status] = counts.get(status, 0) + 1
        if status == "FAILED" and c.get("id") not in failed:
            failed.append(str(c.get("id")))
    order = [s for s in _STATUS_ORDER if s in counts] + sorted(s for s in counts if s not in _STATUS_ORDER
                                                               and s != "FAILED")
    parts = [f"{counts[s]} {s}" for s in order]
    if failed:
        parts.append(f"{counts['FAILED']} FAILED ({', '.join(failed)})")
    return {"counts": counts, "failed": failed, "text": ", ".join(parts) or "none shown"}
