"""Structural checks on the committed chapter notebooks, complementing nbval (which passes a
notebook committed without outputs silently)."""

import json
from pathlib import Path

import pytest

from privlib import runs

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _code_cells(path):
    nb = json.loads(path.read_text())
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def test_there_are_notebooks():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_first_code_cell_is_typed_parameters(path):
    cells = _code_cells(path)
    assert "parameters" in cells[0].get("metadata", {}).get("tags", []), "first code cell must be tagged 'parameters'"
    params = runs.notebook_parameters(path)
    assert params, "the parameters cell declares no typed parameters"
    for p in params.values():
        assert p.help, f"parameter {p.name} has no help comment"
    assert "seed" in params, "every chapter is seeded through a 'seed' parameter"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_papermill_reads_every_parameter(path):
    import papermill

    inferred = papermill.inspect_notebook(str(path))
    assert set(inferred) == set(runs.notebook_parameters(path)), "papermill cannot parse some parameter lines"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_committed_with_outputs_and_without_errors(path):
    cells = _code_cells(path)
    runnable = [c for c in cells[1:] if "".join(c["source"]).strip()]
    without = [i for i, c in enumerate(runnable) if not c.get("outputs")]
    # a cell may legitimately print nothing (imports); most must have outputs
    assert len(without) <= len(runnable) // 2, f"{path.name}: {len(without)} of {len(runnable)} code cells have no output"
    assert any(o.get("output_type") in {"display_data", "execute_result"} and "image/png" in o.get("data", {})
               for c in cells for o in c.get("outputs", [])), f"{path.name} has no figure output"
    errors = [o for c in cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, f"{path.name} was committed with an error output"
    streams = [o for c in cells for o in c.get("outputs", []) if o.get("name") == "stderr"]
    assert not streams, f"{path.name} was committed with stderr output (warnings?)"
