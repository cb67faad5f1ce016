"""privbook sweep end to end on a small notebook: results, resume (checked against each run's
files.json), failure isolation, bad input, parameters as data, safe and bounded grid files, one
sweep per output folder, interrupts with real signals (SIGINT to the process group as Ctrl-C sends
it, SIGTERM to the sweep alone, SIGKILL) and what they leave on disk, claim summaries, scheduler
errors, and the Dask executor."""

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from privlib import runs, sweep


def _finished_results(base: Path) -> list[Path]:
    """``results.json`` of the finished run folders (pathlib's ``*`` also matches the hidden
    ``.partial`` folder of a run still being written, whose results.json comes before files.json)."""
    return [p for p in base.glob("*/results.json") if not p.parent.name.startswith(".")]


@pytest.fixture()
def private_tmp():
    """A short private temporary directory (TMPDIR of the commands under test), so that the
    kernel-socket folders a run creates there can be checked; removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="pbt"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _env(root, tmpdir=None):
    env = {**os.environ, "PRIVBOOK_ROOT": str(root)}
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    return env


def _privbook(root, *args, timeout=300, tmpdir=None):
    return subprocess.run([sys.executable, "-m", "privlib.batch.cli", *args], cwd=root, capture_output=True, text=True,
                          env=_env(root, tmpdir), timeout=timeout)


def _start(root, *args, tmpdir=None):
    """Start privbook in its own process group (as a shell starts a foreground job)."""
    return subprocess.Popen([sys.executable, "-m", "privlib.batch.cli", *args], cwd=root, env=_env(root, tmpdir),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def _wait_for(condition, timeout=180):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {condition.__doc__ or condition}")


def _kernels_running(tmpdir: Path) -> list[str]:
    """Command lines of live kernels whose connection file is under ``tmpdir`` (``-ww``: ps cuts lines
    at 80 columns when its output is not a terminal, which would hide the path)."""
    out = subprocess.run(["ps", "-ww", "-eo", "args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if str(tmpdir) in line and "ipykernel" in line]


def _hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


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

    assert "claims: 4 verified;" in out.stdout and "KeyboardInterrupt" not in out.stderr
    assert runs.check_run(run, result["key"]) is None and "figure-01.png" in json.loads((run / "files.json").read_text())["files"]

    # unchanged notebook, parameters and privlib: everything is skipped
    again = _privbook(tiny_project, "sweep", "tiny", "--grid", "scale=1,3", "--grid", "label=a,b", "-q")
    assert again.returncode == 0 and "0 done, 0 failed, 4 skipped" in again.stdout

    # a truncated executed notebook and a deleted figure do not match files.json: both run again, with the reason
    notebook = base / "label=a_scale=1.0" / "tiny.ipynb"
    notebook.write_bytes(notebook.read_bytes()[:100])
    (base / "label=b_scale=3.0" / "figure-01.png").unlink()
    fourth = _privbook(tiny_project, "sweep", "tiny", "--grid", "scale=1,3", "--grid", "label=a,b", "-q")
    assert fourth.returncode == 0 and "2 done, 0 failed, 2 skipped" in fourth.stdout, fourth.stdout
    assert "rerun label=a_scale=1.0: tiny.ipynb has 100 bytes, files.json says" in fourth.stdout
    assert "rerun label=b_scale=3.0: figure-01.png is missing" in fourth.stdout
    assert all(runs.check_run(f) is None for f in base.iterdir() if f.is_dir())

    # a run whose folder vanished and debris of a killed run (temporary folder, stale lock): only the missing
    # one runs, and the debris is gone
    shutil.rmtree(base / "label=b_scale=1.0")
    (base / ".label=b_scale=1.0.abc.partial").mkdir()
    (base / ".label=a_scale=3.0.x1y2.partial").mkdir()
    (base / ".label=a_scale=3.0.lock").write_text("a run (pid 1 on nowhere)\n")
    third = _privbook(tiny_project, "sweep", "tiny", "--grid", "scale=1,3", "--grid", "label=a,b", "-q")
    assert third.returncode == 0 and "1 done, 0 failed, 3 skipped" in third.stdout
    assert _hidden(base) == []


def test_sweep_killed_half_way_completes_only_what_is_missing_and_cleans_the_debris(tiny_project, private_tmp):
    proc = _start(tiny_project, "sweep", "tiny", "--grid", "scale=1,2,3", "--grid", "pause=2", "-j", "1", "-q",
                  tmpdir=private_tmp)
    base = tiny_project / "runs" / "tiny"
    _wait_for(lambda: list(_finished_results(base)) and list(base.glob(".*.partial")))
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
    finished = {p.parent.name for p in _finished_results(base)}
    assert 1 <= len(finished) < 3
    # nothing unfinished looks finished: every plain run folder matches its files.json
    for folder in base.iterdir():
        if folder.is_dir() and not folder.name.startswith(".") and not folder.name.endswith(".failed"):
            assert runs.check_run(folder) is None, folder
    # the debris a SIGKILL leaves: the running point's temporary folder, the locks, the kernel's socket folder
    assert [n for n in _hidden(base) if n.endswith(".partial")] and ".privbook-sweep.lock" in _hidden(base)
    _wait_for(lambda: not _kernels_running(private_tmp), 30)  # kernels notice their parent died
    out = _privbook(tiny_project, "sweep", "tiny", "--grid", "scale=1,2,3", "--grid", "pause=2", "-q",
                    tmpdir=private_tmp)
    assert out.returncode == 0, out.stderr
    assert f"{3 - len(finished)} done, 0 failed, {len(finished)} skipped" in out.stdout
    assert _hidden(base) == [] and list(private_tmp.iterdir()) == []


@pytest.mark.parametrize("signum, to_group", [(signal.SIGINT, True), (signal.SIGTERM, False)],
                         ids=["ctrl-c-to-the-process-group", "sigterm-to-the-sweep-alone"])
def test_interrupted_sweep_stops_promptly_and_leaves_no_debris(tiny_project, private_tmp, signum, to_group):
    proc = _start(tiny_project, "sweep", "tiny", "--grid", "scale=1,2,3,4", "--grid", "pause=120", "-j", "2", "-q",
                  tmpdir=private_tmp)
    base = tiny_project / "runs" / "tiny"

    def both_points_executing():
        """two kernels running the notebook"""
        return len(list(base.glob(".*.partial/tiny.ipynb"))) == 2 and len(_kernels_running(private_tmp)) == 2

    _wait_for(both_points_executing)
    (os.killpg if to_group else os.kill)(proc.pid, signum)
    out, err = proc.communicate(timeout=60)  # the points would take 120 s more
    assert proc.returncode == 128 + signum, err
    name = signal.Signals(signum).name
    lines = err.strip().splitlines()
    assert len(lines) == 1 and f"interrupted by {name}" in lines[0] and "2 interrupted and 2 not started" in lines[0], err
    # no run folder, no .failed folder, no temporary folder, no lock, no kernel, no socket folder
    assert sorted(p.name for p in base.iterdir()) == ["gallery.html", "manifest.csv", "manifest.json"]
    assert list(private_tmp.iterdir()) == [] and not _kernels_running(private_tmp)
    rows = list(csv.DictReader((base / "manifest.csv").open()))
    assert sorted(r["status"] for r in rows) == ["interrupted", "interrupted", "not run", "not run"]
    assert all(r["error"] for r in rows)


def test_interrupted_run_keeps_nothing(tiny_project, private_tmp):
    proc = _start(tiny_project, "run", "tiny", "-q", "-p", "pause", "120", tmpdir=private_tmp)
    base = tiny_project / "runs" / "tiny"
    _wait_for(lambda: list(base.glob(".*.partial/tiny.ipynb")) and _kernels_running(private_tmp))
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip().splitlines() == ["privbook: run of tiny interrupted by SIGINT; nothing was kept"]
    assert list(base.iterdir()) == [] and list(private_tmp.iterdir()) == [] and not _kernels_running(private_tmp)


def test_one_sweep_per_output_folder(tiny_project):
    grid = ["--grid", "pause=8", "-q"]
    first = _start(tiny_project, "sweep", "tiny", *grid)
    base = tiny_project / "runs" / "tiny"
    _wait_for(lambda: (base / ".privbook-sweep.lock").exists())
    busy = _privbook(tiny_project, "sweep", "tiny", *grid)
    assert busy.returncode == 75
    lines = busy.stderr.strip().splitlines()
    assert len(lines) == 1 and "is being written by a sweep of tiny (pid" in lines[0] and "--wait" in lines[0]
    waiting = _start(tiny_project, "sweep", "tiny", *grid, "--wait")
    out, err = first.communicate(timeout=300)
    assert first.returncode == 0 and "1 done, 0 failed, 0 skipped" in out, err
    out, err = waiting.communicate(timeout=300)
    assert waiting.returncode == 0, err
    assert "waiting for a sweep of tiny" in out and "0 done, 0 failed, 1 skipped" in out  # never run twice


def test_a_run_and_a_sweep_point_are_the_same_record(tiny_project):
    run = _privbook(tiny_project, "run", "tiny", "-q", "-p", "scale", "5")
    assert run.returncode == 0, run.stderr
    folder = tiny_project / "runs" / "tiny" / "scale=5.0"
    record = json.loads((folder / "results.json").read_text())
    assert record["results"] == {"double": 10.0, "label": "x"} and record["claims_summary"] == "1 verified"
    out = _privbook(tiny_project, "sweep", "tiny", "--grid", "scale=5", "-q")
    assert out.returncode == 0 and "0 done, 0 failed, 1 skipped" in out.stdout


def test_failed_claims_are_named_and_set_the_exit_status(tiny_project):
    out = _privbook(tiny_project, "sweep", "tiny", "--grid", "break_claim=true,false", "-j", "2", "-q")
    assert out.returncode == 3, out.stderr
    assert ("claims: 1 verified, 1 FAILED (curves/hockey-stick-supremum in break_claim=True)" in out.stdout)
    base = tiny_project / "runs" / "tiny"
    rows = {r["run"]: r for r in csv.DictReader((base / "manifest.csv").open())}
    assert rows["break_claim=True"]["status"] == "done"  # the run finished; its claim did not hold
    assert rows["break_claim=True"]["failed_claims"] == "curves/hockey-stick-supremum"
    assert rows["break_claim=False"]["claims_failed"] == "0"
    assert "1 FAILED (curves/hockey-stick-supremum)" in (base / "gallery.html").read_text()
    assert json.loads((base / "break_claim=True" / "results.json").read_text())["claims_failed"] == [
        "curves/hockey-stick-supremum"]


def test_failing_run_is_recorded_and_does_not_stop_the_others(tiny_project):
    out = _privbook(tiny_project, "sweep", "tiny", "--grid", "fail=true,false", "-j", "2", "-q")
    assert out.returncode == 1
    assert "1 done, 1 failed" in out.stdout and "asked to fail" in out.stderr
    base = tiny_project / "runs" / "tiny"
    assert (base / "fail=False" / "results.json").is_file()
    assert not (base / "fail=True").exists()
    assert "asked to fail" in (base / "fail=True.failed" / "error.txt").read_text()
    assert not _hidden(base / "fail=True.failed")  # the kernel's kept figures are not left there
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
    (["--grid", "seed=" + ",".join(map(str, range(300)))], "more than 200 points; pass --allow-large"),
    (["--grid", "seed=" + ",".join(map(str, range(15))), "--grid", "scale=" + ",".join(map(str, range(15)))],
     "more than 200 points"),
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
    broken = tiny_project / "broken.yaml"
    broken.write_text("scale: [1, 2\nlabel: '" + "x" * 5000 + "\n")
    with pytest.raises(runs.ParameterError, match=r"not valid YAML \(line \d+\)") as error:
        sweep.parse_grid([], broken)
    assert len(str(error.value)) < 200
    good = tiny_project / "grid.yaml"
    good.write_text("scale: [1.5, 2.5]\nlabel: ok\n")
    assert sweep.parse_grid([], good) == {"scale": [1.5, 2.5], "label": ["ok"]}
    assert len(sweep.expand_grid(tiny_project / "notebooks" / "tiny.ipynb", sweep.parse_grid([], good))) == 2


LAUGHS = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{x}: &{x} [{', '.join([f'*{p}'] * 9)}]\n" for p, x in zip("abcdefgh", "bcdefghi")) + "scale: *i\n"


@pytest.mark.parametrize("text, fragment", [
    (LAUGHS, "more than 10000 values (aliases expanded)"),            # 9**9 values from 600 bytes
    ("scale: &x [1, *x]\n", "contains itself"),
    ("seed: [" + ", ".join(map(str, range(20_000))) + "]\n", "more than 10000 values"),
    ("seed: [" + ", ".join(map(str, range(100_000))) + "]\n", "more than 262144"),
    ("scale: [[[[1]]]]\n", "nested more than 2 lists deep"),
])
def test_hostile_or_large_grid_files_are_refused_with_a_short_message(tiny_project, text, fragment):
    path = tiny_project / "grid.yaml"
    path.write_text(text)
    with pytest.raises(runs.ParameterError) as error:
        sweep.parse_grid([], path)
    assert fragment in str(error.value) and len(str(error.value)) < 200


def test_large_grids_are_refused_before_anything_runs(tiny_project):
    notebook = tiny_project / "notebooks" / "tiny.ipynb"
    with pytest.raises(runs.ParameterError, match="the grid has more than 200 points; pass --allow-large"):
        sweep.expand_grid(notebook, {"seed": [str(i) for i in range(100_000)]})
    assert len(sweep.expand_grid(notebook, {"seed": ["1", "01", "+1"] * 1000, "scale": [1, 1.0, "1"]})) == 1
    with pytest.raises(runs.ParameterError) as error:
        sweep.expand_grid(notebook, {"scale": ["x" * 10**6]})
    assert len(str(error.value)) < 120


@pytest.mark.parametrize("address, fragment", [
    ("tcp://127.0.0.1:1", "cannot reach the Dask scheduler at 'tcp://127.0.0.1:1'"),
    ("tcp://127.0.0.1:notaport", "invalid scheduler address"),
])
def test_scheduler_errors_are_one_line_exit_2_and_leave_no_files(tiny_project, address, fragment):
    out = _privbook(tiny_project, "sweep", "tiny", "--grid", "scale=1", "--scheduler", address, timeout=60)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], out.stderr
    assert not (tiny_project / "runs").exists()


def test_locks_and_debris_cleaning(tmp_path):
    lock = runs.FolderLock(tmp_path / ".x=1.lock", "a test").acquire()
    with pytest.raises(runs.RunBusy, match=r"is being written by a test \(pid"):
        runs.FolderLock(tmp_path / ".x=1.lock").acquire()
    for name in (".x=1.abc.partial", ".y=2.abc.partial", ".y=2.old"):
        (tmp_path / name).mkdir()
    (tmp_path / ".y=2.lock").write_text("dead holder\n")
    (tmp_path / "y=2").mkdir()
    (tmp_path / ".git.lock").write_text("not a run's\n")
    assert sorted(runs.clean_stale(tmp_path)) == [".y=2.abc.partial", ".y=2.lock", ".y=2.old"]
    # x=1 is live; .git.lock is not a run's
    assert sorted(p.name for p in tmp_path.iterdir()) == [".git.lock", ".x=1.abc.partial", ".x=1.lock", "y=2"]
    lock.release()
    assert not (tmp_path / ".x=1.lock").exists()
    assert runs.run_slug({"label": "a/b"}) != runs.run_slug({"label": "a_b"}) == "label=a_b"


def test_check_run_says_what_does_not_match(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    assert "files.json is missing" in runs.check_run(folder)
    (folder / "results.json").write_text(json.dumps({"key": "k1"}))
    (folder / "figure-01.png").write_bytes(b"png")
    runs._write_file_manifest(folder)
    assert runs.check_run(folder, "k1") is None
    assert runs.check_run(folder, "k2") == "the notebook, its parameters or privlib changed since this run"
    (folder / "figure-01.png").write_bytes(b"PNG")
    assert runs.check_run(folder) == "figure-01.png differs from its SHA-256 in files.json"
    (folder / "files.json").write_text("{")
    assert runs.check_run(folder) == "files.json is unreadable"


def test_dask_local_cluster_runs_the_sweep(tiny_project, monkeypatch):
    from dask import distributed
    monkeypatch.setenv("PRIVBOOK_ROOT", str(tiny_project))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        summary = sweep.run_sweep("tiny", {"scale": ["1", "2"]}, scheduler=cluster.scheduler_address, progress=False)
    assert (summary["done"], summary["failed"]) == (2, 0) and summary["claims"] == "2 verified"
    assert _results(tiny_project / "runs" / "tiny" / "scale=2.0")["results"]["double"] == 4.0
    assert all(runs.check_run(tiny_project / "runs" / "tiny" / f"scale={s}.0") is None for s in (1, 2))
    assert _hidden(tiny_project / "runs" / "tiny") == []


def test_dask_sweep_interrupted_keeps_nothing_of_the_running_points(tiny_project, monkeypatch):
    import threading

    from dask import distributed
    monkeypatch.setenv("PRIVBOOK_ROOT", str(tiny_project))
    base = tiny_project / "runs" / "tiny"

    def interrupt_when_both_execute():
        deadline = time.time() + 180
        while len(list(base.glob(".*.partial/tiny.ipynb"))) < 2 and time.time() < deadline:
            time.sleep(0.1)
        os.kill(os.getpid(), signal.SIGINT)  # handled by the sweep while it runs

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        threading.Thread(target=interrupt_when_both_execute, daemon=True).start()
        summary = sweep.run_sweep("tiny", {"scale": ["1", "2", "3"], "pause": ["120"]},
                                  scheduler=cluster.scheduler_address, progress=False)
    assert summary["stopped_by"] == "SIGINT"
    assert sorted(r["status"] for r in summary["records"]) == ["interrupted", "interrupted", "not run"]
    assert sorted(p.name for p in base.iterdir()) == ["gallery.html", "manifest.csv", "manifest.json"]
