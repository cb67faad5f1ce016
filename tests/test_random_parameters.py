"""A chapter run at one random valid parameter set (drawn with the test's seed, besides the fixed
alternates of ``test_notebooks.py``) shows no FAILED claim and no prose that its own computed
conditions contradict (no negative percentage, no "nan", no "inf" in the text it prints).

Each chapter's valid domain is written here: a range per parameter (``log``: log-uniform, ``int``:
uniform integers, ``list``: that many values drawn from the range, ``choice``: one of the values).
One papermill run per chapter, about a minute each."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
SEED = 23

DOMAINS = {
    "004_statistical_privacy": {
        "n": ("int", 300, 2000),
        "epsilon": ("log", 0.002, 0.1),
        "nu_values": ("list", 2, 0.5, 5.0),
        "pi_values": ("list", 3, 0.005, 0.5),
        "lam": ("lin", 0.05, 0.5),
        "n_small": ("int", 30, 250),
        "conjecture_epsilon": ("log", 0.02, 0.5),
        "seed": ("int", 0, 1000),
    },
}


def draw(domain: dict, rng: np.random.Generator) -> dict:
    out = {}
    for name, spec in domain.items():
        kind = spec[0]
        if kind == "int":
            out[name] = int(rng.integers(spec[1], spec[2] + 1))
        elif kind == "log":
            out[name] = float(f"{np.exp(rng.uniform(np.log(spec[1]), np.log(spec[2]))):.3g}")
        elif kind == "lin":
            out[name] = float(f"{rng.uniform(spec[1], spec[2]):.3g}")
        elif kind == "list":
            values = rng.uniform(spec[2], spec[3], spec[1])
            out[name] = sorted({float(f"{v:.3g}") for v in values}, reverse=True)
        elif kind == "choice":
            out[name] = spec[1][int(rng.integers(len(spec[1])))]
        else:
            raise ValueError(f"unknown domain kind {kind!r} for {name}")
    return out


_FALSE_TEXT = re.compile(r"(?<![\w.])-\d+(?:\.\d+)?\s?%|\bnan\b|(?<![\\\w])inf\b")


def printed_text(notebook: dict) -> list[str]:
    """The Markdown a run printed (prose.markdown outputs) and its Markdown cells."""
    texts = []
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            texts.append("".join(cell["source"]))
        for out in cell.get("outputs", []):
            md = out.get("data", {}).get("text/markdown")
            if md:
                texts.append("".join(md))
    return texts


def test_draws_are_seeded_and_in_domain():
    a = draw(DOMAINS["004_statistical_privacy"], np.random.default_rng(SEED))
    b = draw(DOMAINS["004_statistical_privacy"], np.random.default_rng(SEED))
    assert a == b and 0.002 <= a["epsilon"] <= 0.1 and len(a["pi_values"]) >= 1


def test_false_text_pattern():
    assert _FALSE_TEXT.search("its delta -100% to 57% above")
    assert _FALSE_TEXT.search("a ratio of nan") and _FALSE_TEXT.search("is inf here")
    assert not _FALSE_TEXT.search("37% to 53% above, $\\infty$, e^-22471, 10^-3 and a 1-5% range")


@pytest.mark.parametrize("stem", sorted(DOMAINS))
def test_chapter_at_a_random_valid_parameter_set(stem, tmp_path):
    from privlib import runs

    params = draw(DOMAINS[stem], np.random.default_rng([SEED, sorted(DOMAINS).index(stem)]))
    folder = runs.run_notebook(ROOT / "notebooks" / f"{stem}.ipynb", params, out_dir=tmp_path / "run")
    record = json.loads((folder / "results.json").read_text())
    assert record["claims"], f"{stem} shows no claim at {params}"
    assert not record["claims_failed"], f"{stem} at {params}: FAILED {record['claims_failed']}"
    notebook = json.loads(next(folder.glob("*.ipynb")).read_text())
    bad = [m.group(0) for text in printed_text(notebook) for m in _FALSE_TEXT.finditer(text)]
    assert not bad, f"{stem} at {params} prints {bad}"
