"""Real-data tests say *why* they skip: unset, missing, not a folder, or a folder lacking a part."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import realdata_dir, realdata_problem


def test_unset(monkeypatch):
    monkeypatch.delenv("HIERADJ_REALDATA", raising=False)
    assert "is unset" in realdata_problem()
    assert realdata_dir() is None


def test_missing_and_not_a_folder(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("HIERADJ_REALDATA", str(tmp_path / "nowhere"))
    assert realdata_problem() == f"HIERADJ_REALDATA={tmp_path / 'nowhere'} does not exist (point it at ../shared/data)"
    f = tmp_path / "file.txt"
    f.write_text("x")
    monkeypatch.setenv("HIERADJ_REALDATA", str(f))
    assert "is not a folder" in realdata_problem()
    assert realdata_dir() is None


def test_folder_without_the_part(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("HIERADJ_REALDATA", str(tmp_path))
    assert realdata_problem() is None
    assert realdata_problem("wsbest") == f"HIERADJ_REALDATA={tmp_path} has no wsbest/ folder"
    (tmp_path / "wsbest").mkdir()
    assert realdata_dir("wsbest") == tmp_path.resolve()


@pytest.mark.parametrize("value", ["", None])
def test_empty_counts_as_unset(monkeypatch, value):
    if value is None:
        monkeypatch.delenv("HIERADJ_REALDATA", raising=False)
    else:
        monkeypatch.setenv("HIERADJ_REALDATA", value)
    assert realdata_problem().startswith("HIERADJ_REALDATA is unset")
