"""CITATION.cff is valid Citation File Format (cffconvert, pinned in tests/cffconvert-constraints.txt,
in its own environment: ``make cffconvert``) and agrees with the package, and the validator rejects
a broken copy (so a pass means something)."""

import subprocess
from pathlib import Path

import pytest

import privlib

ROOT = Path(__file__).resolve().parent.parent
CFFCONVERT = ROOT / ".venv" / "cffconvert" / "bin" / "cffconvert"


@pytest.fixture(scope="module")
def cffconvert():
    subprocess.run(["make", "-s", "cffconvert"], cwd=ROOT, check=True)
    return CFFCONVERT


def _validate(cffconvert: Path, path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(cffconvert), "--validate", "-i", str(path)], capture_output=True, text=True)


def test_citation_is_valid(cffconvert):
    result = _validate(cffconvert, ROOT / "CITATION.cff")
    assert result.returncode == 0, result.stdout + result.stderr


def test_citation_agrees_with_the_package():
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert f"\nversion: {privlib.__version__}\n" in text
    assert "  - MIT\n" in text and "  - CC-BY-4.0\n" in text
    assert "MIT" in (ROOT / "LICENSE").read_text(encoding="utf-8")


def test_a_broken_citation_is_rejected(cffconvert, tmp_path):
    broken = tmp_path / "CITATION.cff"
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    broken.write_text(text.replace("cff-version: 1.2.0", "cff-version: 1.2.0\ndate-released: yesterday"),
                      encoding="utf-8")
    assert _validate(cffconvert, broken).returncode != 0
