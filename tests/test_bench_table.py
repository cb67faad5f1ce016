"""The README's performance table is the table `make bench` writes (benchmarks/run_all.py), copied
between its markers: the measurement line, the one header of benchmarks/_timing.py, and rows of
that many cells."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import _timing  # noqa: E402
import run_all  # noqa: E402


def readme_table() -> list[str]:
    text = (ROOT / "README.md").read_text()
    assert text.count(run_all.BEGIN) == 1 and text.count(run_all.END) == 1
    return text.split(run_all.BEGIN)[1].split(run_all.END)[0].strip().splitlines()


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split(" | ")]


def test_readme_table_has_the_generated_form():
    lines = readme_table()
    assert re.fullmatch(r"Measured \d{4}-\d\d-\d\d \d\d:\d\d UTC by `make bench` \(\d+ min\) on \d+ cores, load average "
                        r"[\d.]+ to [\d.]+ \(1-minute averages between the scripts\)\.", lines[0])
    assert lines[1] == ""
    assert "\n".join(lines[2:4]) == _timing.header()
    rows = lines[4:]
    assert len(rows) >= 30
    for line in rows:
        assert line.startswith("| ") and line.endswith(" |"), line
        assert len(cells(line)) == len(_timing.COLUMNS), line
    sections = {cells(line)[0].split(":")[0] for line in rows}
    assert {"000", "001", "002", "003", "004", "curves", "five notions", "sweep", "validation"} <= sections


def test_row_prints_and_records_one_line(tmp_path, monkeypatch, capsys):
    target = tmp_path / "rows"
    monkeypatch.setenv("BENCH_ROWS", str(target))
    monkeypatch.setenv("BENCH_SECTION", "999")
    line = _timing.row("a computation", _timing.Timing(0.002, 0.003), "an alternative", _timing.Timing(0.004, 0.005), 1e-16, 0.0)
    assert line == "| 999: a computation | 2 ms | an alternative, 4 ms | 2 | 3 ms / 5 ms | 1.0e-16 / 0 |"
    assert capsys.readouterr().out == line + "\n"
    assert target.read_text() == line + "\n"
    alone = _timing.row("alone", _timing.Timing(1.5, 2.0))
    assert cells(alone) == ["999: alone", "1.5 s", "", "", "2 s", ""]


def test_copy_to_readme_replaces_only_between_the_markers(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"before\n{run_all.BEGIN}\nold\n{run_all.END}\nafter\n")
    table = tmp_path / "bench.md"
    table.write_text("new table\n")
    run_all.copy_to_readme(table, readme)
    assert readme.read_text() == f"before\n{run_all.BEGIN}\nnew table\n{run_all.END}\nafter\n"
