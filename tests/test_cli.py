"""The privbook command: validation before execution (exit 2, one line, no files), successful
runs, and failed runs that never look finished."""

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from privlib import cli, runs

ROOT = Path(__file__).resolve().parent.parent


def _privbook(*args, cwd=ROOT, env=None):
    return subprocess.run([sys.executable, "-m", "privlib.batch.cli", *args], cwd=cwd, capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, timeout=600)


def test_list_shows_parameters_with_types_ranges_and_help():
    out = _privbook("list")
    assert out.returncode == 0, out.stderr
    assert "privacy_curves" in out.stdout
    assert "mechanism_epsilon" in out.stdout and "float" in out.stdout and "privacy parameter" in out.stdout
    line = next(row for row in out.stdout.splitlines() if row.split()[:1] == ["rr_k"])
    assert line.split()[:4] == ["rr_k", "int", "[2,", "1000]"], line


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["run", "no_such_notebook"], "unknown notebook 'no_such_notebook'"),
        (["run", "privacy_curves", "-p", "not_a_param", "1"], "unknown parameter 'not_a_param'"),
        (["run", "privacy_curves", "-p", "mechanism_epsilon", "abc"], "parameter 'mechanism_epsilon' expects float"),
        (["run", "privacy_curves", "-p", "rr_k", "2.5"], "parameter 'rr_k' expects int"),
        (["run", "privacy_curves", "-p", "sigma", "nan"], "parameter 'sigma' expects float"),
        (["run", "privacy_curves", "-p", "rr_k", "1000000000000"], "parameter 'rr_k' must lie in [2, 1000], got 1000000000000"),
        (["run", "privacy_curves", "-p", "mechanism_epsilon", "0"], "parameter 'mechanism_epsilon' must lie in (0, 50], got 0.0"),
        (["run", "privacy_curves", "-p", "rr_k", "true"], "parameter 'rr_k' expects int, got 'true'"),
        (["run", "000", "-p", "puff_sizes", "2,3,100000"], "parameter 'puff_sizes' must lie in [1, 1000], got 100000"),
        (["sweep", "privacy_curves", "--grid", "rr_k=3,1"], "parameter 'rr_k' must lie in [2, 1000], got 1"),
        (["sweep", "privacy_curves", "--grid", "rr_k=3", "--timeout", "-1"], "invalid positive whole number value: '-1'"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_writes_nothing(tmp_path, args, fragment):
    out = _privbook(*args, "--out", str(tmp_path / "run")) if args[0] in ("run", "sweep") else _privbook(*args)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], out.stderr
    assert not (tmp_path / "run").exists() and not list(tmp_path.iterdir())


def test_parse_value_treats_code_as_data():
    param = runs.Parameter("label", "str", "x", "")
    text = "__import__('os').system('touch pwned')"
    assert runs.parse_value(param, text) == text
    with pytest.raises(runs.ParameterError):
        runs.parse_value(runs.Parameter("n", "int", 1, ""), "__import__('os')")
    assert runs.parse_value(runs.Parameter("xs", "list[float]", [1.0], ""), "0.5,1") == [0.5, 1.0]
    assert runs.parse_value(runs.Parameter("b", "bool", True, ""), "False") is False


@pytest.mark.parametrize("kind, value", [("bool", "yes"), ("bool", "1"), ("bool", 1), ("int", True), ("float", False),
                                         ("int", "1e3"), ("float", "inf"), ("list[int]", [1, True])])
def test_parse_value_refuses_what_is_not_its_type(kind, value):
    with pytest.raises(runs.ParameterError, match="expects"):
        runs.parse_value(runs.Parameter("x", kind, None, ""), value)


def test_ranges_are_read_from_the_help_comment_and_checked(tmp_path):
    def declared(line):
        nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                               "language": "python"}})
        nb.cells = [nbformat.v4.new_code_cell(line, metadata={"tags": ["parameters"]})]
        path = tmp_path / "nb.ipynb"
        nbformat.write(nb, path)
        return runs.notebook_parameters(path)["x"]

    x = declared("x: int = 4  # number of categories [2, 1000]")
    assert (x.help, x.low, x.high, x.range) == ("number of categories", 2, 1000, "[2, 1000]")
    assert runs.parse_value(x, "1000") == 1000 and runs.parse_value(x, 2) == 2
    for bad in ("1", "1001", 10**12):
        with pytest.raises(runs.ParameterError, match=r"must lie in \[2, 1000\]"):
            runs.parse_value(x, bad)
    y = declared("x: list[float] = [0.5]  # probabilities (0, 1)")
    assert runs.parse_value(y, "0.25,0.75") == [0.25, 0.75]
    for bad in ("0", "0.5,1"):
        with pytest.raises(runs.ParameterError, match=r"must lie in \(0, 1\)"):
            runs.parse_value(y, bad)
    z = declared("x: float = 1.0  # scale (0, inf)")
    assert z.range == "(0, inf)" and runs.parse_value(z, "1e300") == 1e300
    assert declared("x: float = 1.0  # weight, in (0, 1] for the closed form").range == ""  # not at the end
    for line, message in [("x: int = 0  # count [1, 10]", "must lie in"),
                          ("x: str = 'a'  # label [1, 10]", "range is declared for a parameter of type str"),
                          ("x: dict = {}  # options", "unsupported type"),
                          ("x: int = 1.5  # count", "expects int")]:
        with pytest.raises(runs.ParameterError, match=message):
            declared(line)


def test_successful_run_writes_notebook_figures_and_parameters(tiny_project):
    out = _privbook("run", "tiny", "-q", "-p", "scale", "3", "-p", "label", "hello",
                    env={"PRIVBOOK_ROOT": str(tiny_project)})
    assert out.returncode == 0, out.stderr
    folder = tiny_project / "runs" / "tiny" / "label=hello_scale=3.0"
    assert (folder / "tiny.ipynb").is_file()
    assert (folder / "figure-01.png").read_bytes().startswith(b"\x89PNG")
    meta = json.loads((folder / "parameters.json").read_text())
    assert meta["parameters"] == {"scale": 3.0, "label": "hello"}
    executed = nbformat.read(folder / "tiny.ipynb", as_version=4)
    assert "hello 3.0" in "".join(o.get("text", "") for c in executed.cells for o in c.get("outputs", []))
    # the same record as a sweep point, and the claims' summary
    assert out.stdout.splitlines()[-1] == "claims: 1 verified"
    record = json.loads((folder / "results.json").read_text())
    assert record["results"] == {"double": 6.0, "label": "hello"} and record["claims_failed"] == []
    assert runs.check_run(folder, record["key"]) is None
    assert sorted(p.name for p in folder.parent.iterdir()) == ["label=hello_scale=3.0"]


def test_failed_run_leaves_no_finished_folder(tiny_project):
    out = _privbook("run", "tiny", "-q", "-p", "fail", "true", env={"PRIVBOOK_ROOT": str(tiny_project)})
    assert out.returncode == 1
    assert len(out.stderr.strip().splitlines()) == 1 and "failed" in out.stderr, out.stderr
    parent = tiny_project / "runs" / "tiny"
    assert not (parent / "fail=True").exists()
    assert (parent / "fail=True.failed" / "tiny.ipynb").is_file()
    assert "asked to fail" in (parent / "fail=True.failed" / "error.txt").read_text()
    assert sorted(p.name for p in parent.iterdir()) == ["fail=True.failed"]  # no temporary folder, no lock


def test_run_whose_claim_fails_exits_3_and_names_it(tiny_project):
    out = _privbook("run", "tiny", "-q", "-p", "break_claim", "true", env={"PRIVBOOK_ROOT": str(tiny_project)})
    assert out.returncode == cli.EXIT_CLAIMS_FAILED == 3, out.stderr
    assert out.stdout.splitlines()[-1] == "claims: 1 FAILED (curves/hockey-stick-supremum)"
    folder = tiny_project / "runs" / "tiny" / "break_claim=True"
    assert json.loads((folder / "results.json").read_text())["claims_failed"] == ["curves/hockey-stick-supremum"]


def test_refresh_rewrites_outputs_in_place(tiny_project):
    path = tiny_project / "notebooks" / "tiny.ipynb"
    out = _privbook("refresh", "tiny", env={"PRIVBOOK_ROOT": str(tiny_project)})
    assert out.returncode == 0 and out.stdout.startswith("tiny.ipynb: "), out.stderr
    assert "KeyboardInterrupt" not in out.stderr
    executed = nbformat.read(path, as_version=4)
    assert "x 2.0" in "".join(o.get("text", "") for c in executed.cells for o in c.get("outputs", []))
    before = path.read_bytes()
    assert _privbook("refresh", "tiny", env={"PRIVBOOK_ROOT": str(tiny_project)}).returncode == 0
    assert path.read_bytes() == before  # an unchanged result leaves the file unchanged


def test_main_returns_2_for_parameter_errors(capsys):
    assert cli.main(["run", "privacy_curves", "-p", "seed", "1.5"]) == 2
    assert "expects int" in capsys.readouterr().err


def test_build_drops_the_notebook_cache_when_privlib_changes(tmp_path, monkeypatch):
    (tmp_path / "privlib").mkdir()
    module = tmp_path / "privlib" / "m.py"
    module.write_text("x = 1\n")
    cache = tmp_path / "_build" / ".jupyter_cache"
    calls = []
    monkeypatch.setattr(cli.subprocess, "call", lambda cmd, cwd: calls.append(cmd) or 0)

    cache.mkdir(parents=True)
    assert cli.build_book(tmp_path) == 0            # first build: no stamp yet, cache dropped
    assert not cache.exists() and "-W" in calls[-1] and "-n" in calls[-1]
    cache.mkdir()
    assert cli.build_book(tmp_path) == 0            # unchanged privlib: cache kept
    assert cache.exists()
    module.write_text("x = 2\n")
    assert cli.build_book(tmp_path) == 0            # edited privlib: cache dropped
    assert not cache.exists()


def test_failed_build_is_reported(tmp_path, monkeypatch, capsys):
    (tmp_path / "privlib").mkdir()
    monkeypatch.setattr(cli.subprocess, "call", lambda cmd, cwd: 1)
    assert cli.build_book(tmp_path) == 1
    assert "book build failed" in capsys.readouterr().err
    assert not (tmp_path / "_build" / ".privlib-hash").exists()


def test_kernels_are_shut_down_without_a_sigint(tmp_path):
    """jupyter_client sends SIGINT to a kernel before its shutdown request; an ipykernel still in a
    message handler then logs "KeyboardInterrupt caught in kernel." on stderr (at random: it depends
    on when the signal lands). Runs shut kernels down with the request alone: a kernel that records
    every SIGINT it gets records one from the stock manager and none from ours."""
    import asyncio

    from jupyter_client.manager import AsyncKernelManager

    def spy(marker):
        return ("import signal\nk = get_ipython().kernel\n"
                "k.pre_handler_hook = k.post_handler_hook = lambda: None  # keep our handler\n"
                f"signal.signal(signal.SIGINT, lambda *a: open({str(marker)!r}, 'a').write('SIGINT'))")

    async def run_and_shut_down(manager_class, config, marker):
        km = manager_class(kernel_name="python3", config=config)
        await km.start_kernel()
        kc = km.client()
        kc.start_channels()
        try:
            await kc.wait_for_ready(timeout=120)
            reply = await kc.execute_interactive(spy(marker), timeout=120)
            assert reply["content"]["status"] == "ok"
        finally:
            kc.stop_channels()
            await km.shutdown_kernel()

    for manager, marker in (("ours", tmp_path / "ours"), ("stock", tmp_path / "stock")):
        with runs._kernel_setup() as (config, run_manager, _):
            asyncio.run(run_and_shut_down(run_manager if manager == "ours" else AsyncKernelManager, config, marker))
    assert not (tmp_path / "ours").exists()
    assert (tmp_path / "stock").read_text() == "SIGINT"  # the mechanism is real: the stock manager interrupts


def test_ledger_paper_choices_match_the_claim_registry():
    from privlib import claims, cli

    assert cli._PAPERS == list(claims.PAPERS)
