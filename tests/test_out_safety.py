"""``--out`` never destroys what privbook did not write, and a full disk is one clean error.

Refusals (exit 2, one line, nothing created, no kernel started): an existing folder of the user's
(with or without content), a file, ``.``, ``..``, for ``run`` and ``sweep``; a finished run's folder
holding a user's file; a ``.failed`` folder holding a user's file. Replacements: a finished run's
folder is replaced and holds the same names afterwards. Disk full (``OSError(ENOSPC)``, patched in
process, and on a real small tmpfs when running as root): one line, exit 1, no hidden debris, and
the next command resumes."""

import errno
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from privlib import cli, runs, sweep


@pytest.fixture()
def private_tmp():
    """TMPDIR of the commands under test (kernel-socket folders are created there)."""
    path = Path(tempfile.mkdtemp(prefix="pbo"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _privbook(root, *args, tmpdir=None, cwd=None, timeout=300):
    env = {**os.environ, "PRIVBOOK_ROOT": str(root)}
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    return subprocess.run([sys.executable, "-m", cli.__name__, *args], cwd=cwd or root, capture_output=True,
                          text=True, env=env, timeout=timeout)


def _tree(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder`` (relative) with a file's content (``None`` for a folder)."""
    return {p.relative_to(folder).as_posix(): (None if p.is_dir() else p.read_bytes())
            for p in sorted(folder.rglob("*"))}


def _one_line(out) -> str:
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    return lines[0]


def _hidden(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob(".*"))


def _user_folder(base: Path) -> Path:
    folder = base / "mine"
    (folder / "sub").mkdir(parents=True)
    (folder / "keep.txt").write_text("the user's\n")
    (folder / "sub" / "notes.md").write_text("also the user's\n")
    return folder


@pytest.mark.parametrize("command", ["run", "sweep"])
@pytest.mark.parametrize("case, fragment", [
    ("user-folder", "is an existing folder that privbook did not create (it holds keep.txt)"),
    ("empty-folder", "is an existing empty folder that privbook did not create"),
    ("file", "is an existing file"),
    (".", "is the current folder"),
    ("..", "contains the current folder"),
    ("file-parent", "is not a folder"),
])
def test_out_that_privbook_did_not_make_is_refused_before_anything_runs(tiny_project, private_tmp, command, case,
                                                                        fragment):
    work = tiny_project / "work"
    work.mkdir()
    _user_folder(work)
    (work / "empty").mkdir()
    (work / "data.csv").write_text("a,b\n1,2\n")
    out = {"user-folder": "mine", "empty-folder": "empty", "file": "data.csv", ".": ".", "..": "..",
           "file-parent": "data.csv/run"}[case]
    args = ["-p", "scale", "3"] if command == "run" else ["--grid", "scale=1,3"]
    before, around = _tree(tiny_project), sorted(p.name for p in tiny_project.parent.iterdir())
    result = _privbook(tiny_project, command, "tiny", "-q", *args, "--out", out, cwd=work, tmpdir=private_tmp)
    assert result.returncode == 2, result.stdout + result.stderr
    line = _one_line(result)
    assert line.startswith(f"privbook: --out {out}: ") and line.endswith(f"{fragment}; name a new folder"), line
    assert _tree(tiny_project) == before  # nothing created, moved or removed, the user's files intact
    assert sorted(p.name for p in tiny_project.parent.iterdir()) == around
    assert list(private_tmp.iterdir()) == []  # no kernel was started


def test_check_out_refuses_roots_and_accepts_what_privbook_made(tiny_project, monkeypatch, tmp_path, private_tmp):
    monkeypatch.setenv("PRIVBOOK_ROOT", str(tiny_project))
    monkeypatch.chdir(private_tmp)  # outside the project
    for out, reason in [("/", "names the filesystem root"), (str(tiny_project), "is the project root"),
                        (str(tiny_project.parent), "contains the project"), ("", "is empty"),
                        (str(private_tmp / "x" / ".."), "is the current folder")]:
        with pytest.raises(runs.ParameterError, match=f"^{re.escape(f'--out {out}: {reason}; name a new folder')}$"):
            runs.check_out(out)
    assert runs.check_out(tmp_path / "new" / "deeper") == (tmp_path / "new" / "deeper").resolve()
    assert not (tmp_path / "new").exists()
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.json").write_text("{}")
    runs._write_file_manifest(run)
    assert runs.check_out(run) == run.resolve()
    with pytest.raises(runs.ParameterError, match="it holds files.json"):  # a run folder is not a sweep's
        runs.check_out(run, sweep=True)
    swept = tmp_path / "swept"
    swept.mkdir()
    (swept / runs.SWEEP_MARKER).write_text("")
    assert runs.check_out(swept, sweep=True) == swept.resolve()
    (run / "notes.txt").write_text("mine")
    with pytest.raises(runs.ParameterError, match="holds notes.txt, which privbook did not write"):
        runs.check_out(run)
    (run / "notes.txt").unlink()
    failed = tmp_path / "run.failed"
    failed.mkdir()
    (failed / "keep.txt").write_text("mine")
    with pytest.raises(runs.ParameterError, match="run.failed exists but is not a failed run's folder"):
        runs.check_out(run)
    (failed / "error.txt").write_text("RuntimeError: x\n")
    with pytest.raises(runs.ParameterError, match="run.failed holds keep.txt, which privbook did not write"):
        runs.check_out(run)


def test_debris_of_a_replaced_run_loses_only_what_the_run_wrote(tmp_path):
    old = tmp_path / ".x=1.old"  # a run killed while replacing its folder
    old.mkdir()
    (old / "results.json").write_text("{}")
    runs._write_file_manifest(old)
    (old / "keep.txt").write_text("the user's\n")
    assert runs.clean_stale(tmp_path) == []
    assert sorted(p.name for p in old.iterdir()) == ["files.json", "keep.txt", "results.json"]
    (old / "keep.txt").unlink()
    assert runs.clean_stale(tmp_path) == [".x=1.old"] and list(tmp_path.iterdir()) == []


def test_finished_run_folder_is_replaced_and_nothing_else_changes(tiny_project, private_tmp):
    first = _privbook(tiny_project, "run", "tiny", "-q", "-p", "scale", "3", "--out", "out/r", tmpdir=private_tmp)
    assert first.returncode == 0, first.stderr
    folder = tiny_project / "out" / "r"
    names = sorted(p.name for p in folder.iterdir())
    record = json.loads((folder / "results.json").read_text())
    # a deleted figure (the run is no longer finished) is fine: only listed files are removed
    (folder / "figure-01.png").unlink()
    again = _privbook(tiny_project, "run", "tiny", "-q", "-p", "scale", "3", "--out", "out/r", tmpdir=private_tmp)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in folder.iterdir()) == names
    assert sorted(p.name for p in folder.parent.iterdir()) == ["r"]  # no .old, no .partial, no lock
    assert json.loads((folder / "results.json").read_text())["results"] == record["results"]
    assert runs.check_run(folder, record["key"]) is None

    # a user's file in the run folder: refused up front, the folder untouched
    (folder / "keep.txt").write_text("the user's\n")
    before = _tree(tiny_project)
    refused = _privbook(tiny_project, "run", "tiny", "-q", "-p", "scale", "3", "--out", "out/r", tmpdir=private_tmp)
    assert refused.returncode == 2
    assert _one_line(refused) == "privbook: --out out/r: holds keep.txt, which privbook did not write; name a new folder"
    assert _tree(tiny_project) == before and list(private_tmp.iterdir()) == []


def test_run_folder_under_runs_with_a_users_file_is_refused(tiny_project, private_tmp):
    folder = tiny_project / "runs" / "tiny" / "scale=3.0"
    folder.mkdir(parents=True)
    (folder / "results.json").write_text("{}")
    runs._write_file_manifest(folder)
    (folder / "sub").mkdir()
    before = _tree(tiny_project)
    out = _privbook(tiny_project, "run", "tiny", "-q", "-p", "scale", "3", tmpdir=private_tmp)
    assert out.returncode == 2
    assert _one_line(out) == (f"privbook: {folder}: holds sub, which privbook did not write; "
                              "move it away or name a new folder with --out")
    assert _tree(tiny_project) == before
    # the same point in a sweep: refused before anything runs
    out = _privbook(tiny_project, "sweep", "tiny", "-q", "--grid", "scale=1,3", tmpdir=private_tmp)
    assert out.returncode == 2 and "scale=3.0: holds sub, which privbook did not write" in _one_line(out)
    assert _tree(tiny_project) == before and list(private_tmp.iterdir()) == []


def test_failed_folder_with_a_users_file_is_left_alone(tiny_project, private_tmp):
    failed = tiny_project / "out" / "r.failed"
    failed.mkdir(parents=True)
    (failed / "error.txt").write_text("RuntimeError: earlier\n")
    (failed / "keep.txt").write_text("the user's\n")
    before = _tree(tiny_project)
    out = _privbook(tiny_project, "run", "tiny", "-q", "-p", "fail", "true", "--out", "out/r", tmpdir=private_tmp)
    assert out.returncode == 2
    assert _one_line(out) == ("privbook: --out out/r: r.failed holds keep.txt, which privbook did not write; "
                              "name a new folder")
    assert _tree(tiny_project) == before


def _enospc(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_disk_full_during_a_run_is_one_line_and_leaves_nothing(tiny_project, monkeypatch, capsys):
    """Writing the figures fails, and so does writing error.txt: the temporary folder goes."""
    monkeypatch.setenv("PRIVBOOK_ROOT", str(tiny_project))
    monkeypatch.chdir(tiny_project)
    monkeypatch.setattr(runs, "extract_figures", _enospc)
    write_text = pathlib.Path.write_text
    monkeypatch.setattr(pathlib.Path, "write_text",
                        lambda self, *a, **k: _enospc() if self.name == "error.txt" else write_text(self, *a, **k))
    before = _tree(tiny_project)
    assert cli.main(["run", "tiny", "-q", "--out", "out/r"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"privbook: run of tiny: writing the figures of the run {(tiny_project / 'out' / 'r').resolve()}: "
                   "No space left on device"]
    assert _tree(tiny_project) == before  # no run, no .failed, no .partial, no lock, not even out/


def test_disk_full_with_room_for_error_txt_keeps_the_failed_run(tiny_project, monkeypatch, capsys):
    monkeypatch.setenv("PRIVBOOK_ROOT", str(tiny_project))
    monkeypatch.chdir(tiny_project)
    monkeypatch.setattr(runs, "_write_file_manifest", _enospc)
    assert cli.main(["run", "tiny", "-q", "--out", "r"]) == 1
    assert capsys.readouterr().err.strip().endswith("writing files.json of the run "
                                                    f"{(tiny_project / 'r').resolve()}: No space left on device")
    assert sorted(p.name for p in tiny_project.iterdir()) == ["_config.yml", "notebooks", "r.failed"]
    assert "No space left on device" in (tiny_project / "r.failed" / "error.txt").read_text()


def test_disk_full_writing_the_manifest_is_one_line_and_the_sweep_resumes(tiny_project, monkeypatch, capsys):
    monkeypatch.setenv("PRIVBOOK_ROOT", str(tiny_project))
    monkeypatch.chdir(tiny_project)
    write_text = pathlib.Path.write_text

    def full_for_the_manifest(self, *args, **kwargs):
        if self.name.startswith(".manifest"):  # the temporary file is created, then the disk is full
            write_text(self, "", encoding="utf-8")
            _enospc()
        return write_text(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "write_text", full_for_the_manifest)
    assert cli.main(["sweep", "tiny", "-q", "-j", "1", "--grid", "scale=1", "--out", "sw"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"privbook: sweep of tiny: writing {(tiny_project / 'sw').resolve() / 'manifest.json'}: "
                   "No space left on device"]
    base = tiny_project / "sw"
    assert sorted(p.name for p in base.iterdir()) == [runs.SWEEP_MARKER, "scale=1.0"]  # the finished point, no .tmp
    assert _hidden(base) == [runs.SWEEP_MARKER]
    monkeypatch.setattr(pathlib.Path, "write_text", write_text)
    assert cli.main(["sweep", "tiny", "-q", "--grid", "scale=1", "--out", "sw"]) == 0
    assert "1 runs: 0 done, 0 failed, 1 skipped" in capsys.readouterr().out  # resumed exactly


def test_write_atomic_removes_its_temporary_file(tmp_path, monkeypatch):
    monkeypatch.setattr(sweep.os, "replace", _enospc)
    with pytest.raises(runs.OutputError, match=r"writing .*gallery.html: No space left on device"):
        sweep._write_atomic(tmp_path / "gallery.html", "x" * 100)
    assert list(tmp_path.iterdir()) == []


# --- a real full disk ------------------------------------------------------------------------------------

@pytest.fixture()
def small_tmpfs(tmp_path):
    """A 2 MiB tmpfs (root and mount(8) needed; skipped otherwise), unmounted afterwards."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("needs root and mount to create a tmpfs")
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mnt)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def _fill(mnt: Path, leave: int = 0) -> Path:
    """Fill the file system, then free ``leave`` bytes."""
    filler = mnt / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    if leave:
        os.truncate(filler, max(filler.stat().st_size - leave, 0))
    return filler


@pytest.mark.parametrize("leave", [0, 8192], ids=["full", "two-pages-left"])
def test_real_full_disk_during_a_run(tiny_project, private_tmp, small_tmpfs, leave):
    filler = _fill(small_tmpfs, leave)
    out = _privbook(tiny_project, "run", "tiny", "-q", "--out", str(small_tmpfs / "r"), tmpdir=private_tmp)
    assert out.returncode == 1, out.stderr
    line = _one_line(out)
    assert line.startswith("privbook: run of tiny: ") and line.endswith(": No space left on device"), line
    assert sorted(p.name for p in small_tmpfs.iterdir()) == ["filler"]
    assert list(private_tmp.iterdir()) == []
    filler.unlink()
    again = _privbook(tiny_project, "run", "tiny", "-q", "--out", str(small_tmpfs / "r"), tmpdir=private_tmp)
    assert again.returncode == 0, again.stderr
    assert runs.check_run(small_tmpfs / "r") is None


def test_real_full_disk_during_a_sweep(tiny_project, private_tmp, small_tmpfs):
    base = small_tmpfs / "sw"
    first = _privbook(tiny_project, "sweep", "tiny", "-q", "--grid", "scale=1", "--out", str(base), tmpdir=private_tmp)
    assert first.returncode == 0, first.stderr
    before = _tree(base)
    filler = _fill(small_tmpfs)
    out = _privbook(tiny_project, "sweep", "tiny", "-q", "-j", "1", "--grid", "scale=1,2", "--out", str(base),
                    tmpdir=private_tmp)
    assert out.returncode == 1, out.stderr
    line = _one_line(out)
    assert line.startswith("privbook: sweep of tiny: ") and line.endswith(": No space left on device"), line
    assert _tree(base) == before and _hidden(base) == [runs.SWEEP_MARKER]
    filler.unlink()
    again = _privbook(tiny_project, "sweep", "tiny", "-q", "--grid", "scale=1,2", "--out", str(base), tmpdir=private_tmp)
    assert again.returncode == 0 and "1 done, 0 failed, 1 skipped" in again.stdout, again.stdout + again.stderr
