"""privlib.book.prose: numbers as prose prints them, Markdown outputs."""

import math

import numpy as np
import pytest

from privlib import prose


@pytest.mark.parametrize("x, digits, text", [
    (0.28651, 4, "0.2865"), (3.0, 4, "3"), (20141201, 4, "20141201"), (np.int64(7), 4, "7"),
    (1.2345e-9, 4, "1.235 × 10⁻⁹"), (1e6, 3, "10⁶"), (0.00012, 4, "0.00012"), (35.46, 3, "35.5"),
    (123456.0, 4, "123456"), (1.2e7, 4, "1.2 × 10⁷"), (0.0, 4, "0"), (-0.5, 2, "-0.5"), (math.inf, 4, "∞"),
])
def test_num(x, digits, text):
    assert prose.num(x, digits) == text


@pytest.mark.parametrize("x, digits, text", [
    (1e-6, 4, "10^{-6}"), (2.5e-7, 4, "2.5 \\times 10^{-7}"), (1e6, 1, "10^{6}"), (0.25, 4, "0.25"), (7, 4, "7"),
])
def test_tex_writes_powers_of_ten_for_math(x, digits, text):
    assert prose.tex(x, digits) == text


def test_num_rejects_bad_digits():
    with pytest.raises(ValueError, match="digits"):
        prose.num(1.0, 0)
    with pytest.raises(TypeError):
        prose.num(True)


def test_markdown_and_table_outputs():
    md = prose.markdown("**a** $x$")
    assert md._repr_mimebundle_()["text/markdown"] == "**a** $x$"
    t = prose.table(["p", "value"], [["a|b", 0.123456], ["c", 2]])
    assert str(t).splitlines() == ["| p | value |", "|---|---|", "| a\\|b | 0.1235 |", "| c | 2 |"]
    with pytest.raises(ValueError):
        prose.table(["a"], [[1, 2]])
    assert prose.percent(0.3534) == "35%"
