"""The pins of constraints.txt, environment.yml and pyproject.toml agree."""

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _constraints() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[_norm(name)] = version
    return pins


def _conda_pins() -> dict[str, str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d)
    pins = {}
    for entry in pip_section:
        if "==" in entry:
            name, version = entry.split("==")
            pins[_norm(name)] = version
    return pins


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = list(project["dependencies"])
    for extra, items in project["optional-dependencies"].items():
        deps += [d for d in items if not d.startswith("privlib")]
    return {_norm(re.split(r"[<>=!~\[ ;]", d)[0]) for d in deps}


def test_environment_yml_pins_equal_constraints():
    constraints = _constraints()
    conda = _conda_pins()
    mismatched = {n: (v, constraints.get(n)) for n, v in conda.items() if constraints.get(n) != v}
    assert not mismatched, f"environment.yml and constraints.txt disagree: {mismatched}"


def test_every_declared_dependency_is_pinned_in_both():
    constraints = _constraints()
    conda = _conda_pins()
    declared = _declared()
    assert declared - set(constraints) == set(), "declared but not pinned in constraints.txt"
    assert declared - set(conda) == set(), "declared but not pinned in environment.yml"


def test_conda_python_is_311():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert "python=3.11" in env["dependencies"]


def test_jupyter_book_is_the_sphinx_line():
    major = int(_constraints()["jupyter-book"].split(".")[0])
    assert major == 1, "Jupyter Book 2 is a different, Node-based tool; the book is built with 1.x"
