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

#: each chapter's valid domain, inside the ranges its parameters cell declares (narrowed where a
#: wider draw would only cost time: sizes, replicates and grids stay moderate)
DOMAINS = {
    "000_inferential_limits": {
        "n": ("int", 2, 60),
        "epsilons": ("list", 2, 0.05, 3.0),
        "rr_epsilon": ("log", 0.1, 5.0),
        "test_eps_d": ("list", 2, 0.2, 5.0),
        "posterior_epsilon": ("log", 0.1, 5.0),
        "n_posteriors": ("int", 1, 30),
        "puff_epsilon": ("log", 0.1, 3.0),
        "puff_sizes": ("ints", 3, 1, 12),
        "seed": ("int", 0, 100000),
    },
    "001_pointwise_maximal_leakage": {
        "p_values": ("list", 4, 0.02, 0.98),
        "n_max": ("int", 20, 400),
        "epsilon": ("log", 0.05, 10.0),
        "p_floor": ("lin", 0.02, 0.5),
        "theta": ("lin", 0.02, 0.98),
        "rho": ("lin", 0.0, 1.0),
        "corr_epsilon": ("log", 0.05, 10.0),
        "pml_target": ("log", 0.01, 5.0),
        "seed": ("int", 0, 100000),
    },
    "002_privacy_minimax": {
        "seed": ("int", 0, 100000),
        "r": ("log", 0.2, 20.0),
        "alpha": ("log", 0.02, 1.0),
        "delta": ("log", 1e-9, 0.05),
        "d_rates": ("int", 2, 300),
        "n_F2": ("int", 100, 100000),
        "alpha_F2": ("log", 0.02, 1.0),
        "d_F3": ("int", 1, 50),
        "mc_reps": ("int", 100, 1000),
        "chtp_eps": ("log", 0.05, 5.0),
        "chtp_delta": ("log", 1e-4, 0.3),
        "support_theta": ("lin", 0.0, 1.0),
        "support_reps": ("int", 20, 200),
    },
    "003_networked_inferential_privacy": {
        "epsilon": ("log", 0.01, 3.0),
        "p_values": ("list", 4, 0.51, 0.99),
        "max_depth": ("int", 2, 16),
        "beta_a": ("log", 0.2, 50.0),
        "beta_b": ("log", 0.2, 50.0),
        "parity_k_max": ("int", 1, 4),
        "lattice_beta": ("lin", 0.45, 2.0),
        "seed": ("int", 0, 100000),
    },
    "five_notions": {
        "n": ("int", 2, 9),
        "epsilon": ("log", 0.05, 10.0),
        "sigma": ("log", 0.1, 20.0),
        "subsample": ("int", 1, 2),
        "p": ("lin", 0.02, 0.98),
        "rho": ("lin", 0.0, 1.0),
        "coupling": ("lin", -3.0, 3.0),
        "record": ("int", 0, 1),
        "gamma": ("lin", 0.05, 1.0),
        "n_large": ("int", 2, 10000000),
        "seed": ("int", 0, 100000),
    },
    "privacy_curves": {
        "mechanism_epsilon": ("log", 0.02, 20.0),
        "sigma": ("log", 0.05, 50.0),
        "sensitivity": ("log", 0.05, 50.0),
        "rr_k": ("int", 2, 50),
        "seed": ("int", 0, 100000),
    },
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


#: parameters whose valid range depends on another's value (drawn above, then brought inside it)
DEPENDENT = {
    "five_notions": lambda v: {**v, "subsample": min(v["subsample"], v["n"]), "record": min(v["record"], v["n"] - 1)},
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
        elif kind == "ints":
            values = rng.integers(spec[2], spec[3] + 1, spec[1])
            out[name] = sorted({int(v) for v in values})
        elif kind == "choice":
            out[name] = spec[1][int(rng.integers(len(spec[1])))]
        else:
            raise ValueError(f"unknown domain kind {kind!r} for {name}")
    return out


#: a negative percentage, nan, or inf outside a table cell (a table's k = inf column is a value)
_FALSE_TEXT = re.compile(r"(?<![\w.])-\d+(?:\.\d+)?\s?%|\bnan\b|(?<![\\\w])(?<!\| )inf\b")


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


@pytest.mark.parametrize("stem", sorted(DOMAINS))
def test_every_draw_is_a_valid_parameter_set(stem):
    """Each chapter's domain lies inside the ranges its parameters cell declares."""
    from privlib import runs

    for seed in range(5):
        params = DEPENDENT.get(stem, dict)(draw(DOMAINS[stem], np.random.default_rng([seed, 1])))
        runs.validate_parameters(runs.find_notebook(stem), params)


def test_every_chapter_has_a_domain():
    assert set(DOMAINS) == {p.stem for p in (ROOT / "notebooks").glob("*.ipynb")}


def test_false_text_pattern():
    assert _FALSE_TEXT.search("its delta -100% to 57% above")
    assert _FALSE_TEXT.search("a ratio of nan") and _FALSE_TEXT.search("is inf here")
    assert not _FALSE_TEXT.search("37% to 53% above, $\\infty$, e^-22471, 10^-3 and a 1-5% range")
    assert not _FALSE_TEXT.search("| 4 | kl |\n| inf | dp (laplace) | n |")


#: chapters whose random parameter set still breaks a claim, with the instance: not run (remove the
#: entry once the claim holds there)
KNOWN_FAILING: dict[str, str] = {}


@pytest.mark.parametrize("stem", [pytest.param(s, marks=[pytest.mark.xfail(reason=KNOWN_FAILING[s], run=False)]
                                               if s in KNOWN_FAILING else []) for s in sorted(DOMAINS)])
def test_chapter_at_a_random_valid_parameter_set(stem, tmp_path):
    from privlib import runs

    params = draw(DOMAINS[stem], np.random.default_rng([SEED, sorted(DOMAINS).index(stem)]))
    params = DEPENDENT.get(stem, dict)(params)
    folder = runs.run_notebook(ROOT / "notebooks" / f"{stem}.ipynb", params, out_dir=tmp_path / "run")
    record = json.loads((folder / "results.json").read_text())
    assert record["claims"], f"{stem} shows no claim at {params}"
    assert not record["claims_failed"], f"{stem} at {params}: FAILED {record['claims_failed']}"
    notebook = json.loads(next(folder.glob("*.ipynb")).read_text())
    bad = [m.group(0) for text in printed_text(notebook) for m in _FALSE_TEXT.finditer(text)]
    assert not bad, f"{stem} at {params} prints {bad}"
