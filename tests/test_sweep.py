"""privbook sweep end to end on a small notebook: results, resume, failure isolation, bad input,
parameters as data, safe grid files, and the Dask executor."""

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from privlib import sweep


def _privbook(root, *args, timeout=300):
    env = {**os.environ, "PRIVBOOK_ROOT": str(root)}
    return subprocess.run([sys.executable, "-m", "privlib.cli", *args], cwd=root, capture_output=True, text=True,
                          env=env, timeout=timeout)


def _results(folder: Path) -> dict:
    return json.loads((folder / "results.json").read_text())


def test_sweep_writes_runs_manifest_and_gallery_then_resumes(tiny_project):
    out = _privbook(tiny_project, "sweep", "tiny", "--grid", "scale=1,3", "--grid", "label=a,b", "-j", "2", "-q")
    assert out.returncode == 0, out.stderr
    assert "4 runs: 4 done, 0 failed, 0 skipped" in out.stdout
    base = tiny_project / "runs" / "tiny"
    run = base / "label=a_scale=3.0"
    result = _results(run)
    assert result["parameters"] == {"scale": 3.0, "label": "a"}
    assert result["results"] == {"double": 6.0, "label": "a"}
    assert result["claims"] == [{"id": "curves/hockey-stick-supremum", "item": "Hockey-stick divergence of k-ary randomized response", "status": "verified"}]
    assert {"numpy", "scipy", "privlib", "python"} <= set(result["versions"]) and result["seconds"] > 0
    assert (run / "tiny.ipynb").is_file() and (run / "figure-01.png").read_bytes().startswith(b"\x89PNG")
    rows = list(csv.DictReader((base / "manifest.csv").open()))
    assert [r["run"] for r in rows] == ["label=a_scale=1.0", "label=b_scale=1.0", "label=a_scale=3.0", "label=b_scale=3.0"]
    assert all(r["status"] == "done" and r["claims_passed"] == "1" for r in rows)
    assert len(json.loads((base / "manifest.json").read_text())) == 4
    gallery = (base / "gallery.html").read_text()
    assert gallery.count("<img") == 4 and "label=b_scale=3.0/figure-01.png" in gallery

    # unchanged notebook, parameters and privlib: everything is skipped
    again = _privbook(tiny_project, "sweep", "tiny", "--grid", "scale=1,3", "--grid", "label=a,b", "-q")
    assert again.returncode == 0 and "0 done, 0 failed, 4 skipped" in again.stdout

    # a run whose folder vanished and a leftover temporary folder from a killed run: only the missing one runs
    import shutil
    shutil.rmtree(base / "label=b_scale=1.0")
    (base / ".label=b_scale=1.0.abc.partial").mkdir()
    third = _privbook(tiny_project, "sweep", "tiny", "--grid", "scale=1,3", "--grid", "label=a,b", "-q")
    assert third.returncode == 0 and "1 done, 0 failed, 3 skipped" in third.stdout


def test_sweep_killed_half_way_completes_only_what_is_missing(tiny_project):
    env = {**os.environ, "PRIVBOOK_ROOT": str(tiny_project)}
    args = [sys.executable, "-m", "privlib.cli", "sweep", "tiny", "--grid", "scale=1,2,3", "-j", "1", "-q"]
    proc = subprocess.Popen(args, cwd=tiny_project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    base = tiny_project / "runs" / "tiny"
    deadline = time.time() + 120
    while time.time() < deadline and not list(base.glob("*/results.json")):
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = {p.parent.name for p in base.glob("*/results.json")}
    assert 1 <= len(finished) < 3
    # nothing unfinished looks finished: every plain run folder has its results.json
    for folder in base.iterdir():
        if folder.is_dir() and not folder.name.startswith(".") and not folder.name.endswith(".failed"):
            assert (folder / "results.json").is_file(), folder
    out = _privbook(tiny_project, "sweep", "tiny", "--grid", "scale=1,2,3", "-q")
    assert out.returncode == 0, out.stderr
    assert f"{3 - len(finished)} done, 0 failed, {len(finished)} skipped" in out.stdout


def test_failing_run_is_recorded_and_does_not_stop_the_others(tiny_project):
    out = _privbook(tiny_project, "sweep", "tiny", "--grid", "fail=true,false", "-j", "2", "-q")
    assert out.returncode == 1
    assert "1 done, 1 failed" in out.stdout and "asked to fail" in out.stderr
    base = tiny_project / "runs" / "tiny"
    assert (base / "fail=False" / "results.json").is_file()
    assert not (base / "fail=True").exists()
    assert "asked to fail" in (base / "fail=True.failed" / "error.txt").read_text()
    rows = {r["run"]: r for r in csv.DictReader((base / "manifest.csv").open())}
    assert rows["fail=True"]["status"] == "failed" and "asked to fail" in rows["fail=True"]["error"]
    assert "failed: " in (base / "gallery.html").read_text()


@pytest.mark.parametrize("args, fragment", [
    (["--grid", "nope=1,2"], "unknown parameter 'nope'"),
    (["--grid", "scale=1,abc"], "parameter 'scale' expects float"),
    (["--grid", "seed=1.5"], "parameter 'seed' expects int"),
    ([], "the grid is empty"),
    (["--grid", "scale="], "parameter 'scale' has no values"),
    (["--grid", "scale"], "--grid expects NAME=V1,V2"),
    (["--grid", "seed=" + ",".join(map(str, range(300)))], "more than 200; pass --allow-large"),
    (["--grid", "scale=1", "-j", "0"], "-j must be at least 1"),
    (["--grid", "scale=1", "-f", "missing.yaml"], "does not exist"),
])
def test_bad_input_exits_2_before_anything_runs(tiny_project, args, fragment):
    out = _privbook(tiny_project, "sweep", "tiny", *args)
    assert out.returncode == 2, out.stdout + out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], out.stderr
    assert not (tiny_project / "runs").exists()


def test_parameter_values_are_data_never_code(tiny_project):
    code = "__import__('pathlib').Path('PWNED').touch()"
    out = _privbook(tiny_project, "sweep", "tiny", "--grid", f"label={code}", "-q")
    assert out.returncode == 0, out.stderr
    folder = next(p for p in (tiny_project / "runs" / "tiny").iterdir() if (p / "results.json").is_file())
    assert _results(folder)["results"]["label"] == code
    assert not list(tiny_project.rglob("PWNED"))


def test_grid_files_are_parsed_safely(tiny_project):
    evil = tiny_project / "evil.yaml"
    evil.write_text("scale: !!python/object/apply:os.system ['touch PWNED']\n")
    out = _privbook(tiny_project, "sweep", "tiny", "-f", str(evil))
    assert out.returncode == 2 and "not valid YAML" in out.stderr
    assert not list(tiny_project.rglob("PWNED"))
    good = tiny_project / "grid.yaml"
    good.write_text("scale: [1.5, 2.5]\nlabel: ok\n")
    assert sweep.parse_grid([], good) == {"scale": [1.5, 2.5], "label": ["ok"]}
    assert len(sweep.expand_grid(tiny_project / "notebooks" / "tiny.ipynb", sweep.parse_grid([], good))) == 2


def test_dask_local_cluster_runs_the_sweep(tiny_project, monkeypatch):
    from dask import distributed
    monkeypatch.setenv("PRIVBOOK_ROOT", str(tiny_project))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        summary = sweep.run_sweep("tiny", {"scale": ["1", "2"]}, scheduler=cluster.scheduler_address, progress=False)
    assert (summary["done"], summary["failed"]) == (2, 0)
    assert _results(tiny_project / "runs" / "tiny" / "scale=2.0")["results"]["double"] == 4.0
