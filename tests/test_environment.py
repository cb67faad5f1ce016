"""The pins of constraints.txt, environment.yml and pyproject.toml agree.

``environment.yml`` is generated from ``constraints.txt`` (every pin, in the same order), so conda
users get the environment pip users get: ``python tests/test_environment.py`` rewrites it
(``make environment.yml``), and :func:`test_environment_yml_is_generated_from_constraints` fails
whenever the two differ.
"""

import re
import sys
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent

_ENVIRONMENT_HEAD = """\
# Conda environment for privbook: every pin of constraints.txt, generated from it by
# `python tests/test_environment.py` (make environment.yml); tests/test_environment.py keeps them equal.
# conda env create -f environment.yml && conda activate privbook
name: privbook
channels:
  - conda-forge
dependencies:
  - python=3.11
  - pip
  - pip:
"""


def _pin_lines() -> list[str]:
    lines = [line.strip() for line in (ROOT / "constraints.txt").read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def render_environment() -> str:
    """The text ``environment.yml`` must have: the pins of ``constraints.txt``, then privlib."""
    return _ENVIRONMENT_HEAD + "".join(f"      - {pin}\n" for pin in _pin_lines()) + "      - -e .\n"


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


def test_environment_yml_is_generated_from_constraints():
    assert (ROOT / "environment.yml").read_text() == render_environment(), (
        "environment.yml is not the one generated from constraints.txt: run `make environment.yml`")


def test_environment_yml_pins_equal_constraints():
    constraints = _constraints()
    conda = _conda_pins()
    mismatched = {n: (v, constraints.get(n)) for n, v in conda.items() if constraints.get(n) != v}
    assert not mismatched, f"environment.yml and constraints.txt disagree: {mismatched}"
    assert set(conda) == set(constraints), f"pinned in one only: {set(conda) ^ set(constraints)}"


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


def test_pages_workflow_builds_with_the_readme_command_and_deploys_the_html():
    readme = (ROOT / "README.md").read_text()
    first = re.search(r"```bash\n([^\n#]+?)\s*(#|\n)", readme).group(1).strip()
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text())
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    assert any(step.get("run", "").strip() == first for step in steps), f"the workflow does not run {first!r}"
    uploads = [s for s in steps if s.get("uses", "").startswith("actions/upload-pages-artifact@")]
    assert [s["with"]["path"] for s in uploads] == ["_build/html"]
    assert any(s.get("uses", "").startswith("actions/deploy-pages@") for s in steps)


def test_make_publish_uses_the_pinned_ghp_import():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile[makefile.index("\npublish:"):].split("\n\n")[0]
    assert "$(BIN)/ghp-import --no-jekyll" in recipe and "_build/html" in recipe
    assert "ghp-import" in _constraints() and "ghp-import" in _declared()


if __name__ == "__main__":
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit("usage: python tests/test_environment.py [--check]   (rewrites environment.yml)")
    current = (ROOT / "environment.yml").read_text()
    if sys.argv[1:] == ["--check"]:
        sys.exit(0 if current == render_environment() else "environment.yml is out of date")
    (ROOT / "environment.yml").write_text(render_environment())
    print(f"environment.yml: {len(_pin_lines())} pins from constraints.txt")
