"""Shared fixtures: a throwaway project with one small notebook, for CLI and sweep tests."""

import nbformat
import pytest


@pytest.fixture()
def tiny_project(tmp_path):
    """A project root with ``notebooks/tiny.ipynb``: typed parameters, a figure, a claim, two
    recorded results, a switch that makes it fail, one that makes its claim FAILED (the claim's
    own mutant: arguments of the hockey stick swapped), and a pause (for interrupt tests)."""
    (tmp_path / "_config.yml").write_text("title: tiny\n")
    (tmp_path / "notebooks").mkdir()
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell("fail: bool = False  # raise on purpose\nscale: float = 2.0  # a number\n"
                                       "label: str = 'x'  # a label\nseed: int = 0  # seed\n"
                                       "break_claim: bool = False  # make the claim fail\n"
                                       "pause: float = 0.0  # seconds to sleep in the figure cell")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params,
                nbformat.v4.new_code_cell("import time\nimport matplotlib.pyplot as plt\nplt.plot([0, 1], [0, scale])\n"
                                          "plt.show()\ntime.sleep(pause)"),
                nbformat.v4.new_code_cell("if fail:\n    raise RuntimeError('asked to fail')\nprint(label, scale)"),
                nbformat.v4.new_code_cell("from privlib import claims, profiles, results\n"
                                          "if break_claim:\n"
                                          "    _hockey_stick = profiles.hockey_stick\n"
                                          "    profiles.hockey_stick = lambda p, q, eps: _hockey_stick(q, p, eps)\n"
                                          "claims.show('curves/hockey-stick-supremum', k=3)"),
                nbformat.v4.new_code_cell("display(results.record('double', 2 * scale))\nresults.record('label', label)")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "notebooks" / "tiny.ipynb")
    return tmp_path


# Hypothesis: derandomized unless asked otherwise (HYPOTHESIS_PROFILE=explore), so `make test`
# and CI see the same examples on every run.
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile(__import__("os").environ.get("HYPOTHESIS_PROFILE", "ci"))
