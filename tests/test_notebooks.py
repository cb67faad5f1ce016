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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_no_committed_output_shows_a_failed_claim(path):
    """The book never shows a FAILED claim: a chapter's claims pass at its default parameters."""
    from privlib.book.results import CLAIM_MIME

    cells = _code_cells(path)
    shown = [o["data"][CLAIM_MIME] for c in cells for o in c.get("outputs", []) if CLAIM_MIME in o.get("data", {})]
    failed = [s["id"] for s in shown if s.get("status") == "FAILED"]
    assert not failed, f"{path.name} shows FAILED claims: {failed}"
    text = json.dumps([c.get("outputs", []) for c in cells])
    assert "status: FAILED" not in text and ">FAILED<" not in text


# --- prose from the run, captioned figures, reruns at other parameters --------------------------
# Every chapter's notebook metadata ``privbook`` holds ``printed_numbers``, the numbers its
# Markdown may quote verbatim (the papers' printed constants), and ``alternate_parameters``, a
# non-default parameter set at which the chapter must still run with every claim passing.

import re  # noqa: E402

_NUMBER = re.compile(r"(?<![\w.^_{])(?:\d+\.\d{2,}|0\.\d+|\d+(?:\.\d+)?\s?%)(?![\w}])")


def _meta(path):
    return json.loads(path.read_text())["metadata"].get("privbook", {})


def _markdown_numbers(path):
    nb = json.loads(path.read_text())
    found = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"])
        text = re.sub(r"```.*?```", "", text, flags=re.S)      # code blocks
        text = re.sub(r"`[^`]*`", "", text)                   # inline code
        text = re.sub(r"\]\([^)]*\)", "]", text)              # link targets
        found += _NUMBER.findall(text)
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_prose_numbers_come_from_the_run(path):
    meta = _meta(path)
    assert "printed_numbers" in meta, f"{path.name}: metadata privbook.printed_numbers is missing"
    allowed = set(meta["printed_numbers"])
    typed = [n for n in _markdown_numbers(path) if n.strip() not in allowed]
    assert not typed, f"{path.name}: numbers typed into Markdown (compute them, or list the paper's printed constants): {typed}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_figures_have_numbered_captions(path):
    names = []
    for i, cell in enumerate(_code_cells(path)):
        if any("image/png" in o.get("data", {}) for o in cell.get("outputs", [])):
            fig = cell.get("metadata", {}).get("mystnb", {}).get("figure", {})
            assert fig.get("name") and fig.get("caption"), f"{path.name}: code cell {i} draws a figure without mystnb.figure name and caption"
            names.append(fig["name"])
    assert len(names) == len(set(names)), f"{path.name}: figure names repeat"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_chapter_reruns_at_other_parameters(path, tmp_path):
    """The chapter at a non-default parameter set, run as `privbook run` runs it: it finishes,
    and no claim it shows fails."""
    from privlib import runs

    params = _meta(path).get("alternate_parameters")
    assert params, f"{path.name}: metadata privbook.alternate_parameters is missing"
    folder = runs.run_notebook(path, params, out_dir=tmp_path / "run")
    record = json.loads((folder / "results.json").read_text())
    assert record["claims"], f"{path.name} shows no claim at {params}"
    assert not record["claims_failed"], f"{path.name} at {params}: FAILED {record['claims_failed']}"
