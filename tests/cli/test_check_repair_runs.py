"""``project check`` verifies the stored system runs and ``project repair`` carries them into the
repaired copy (#25 gap 5); a damaged run is named, left out and said so, never carried silently."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from hieradjudicate.cli.entry import main
from hieradjudicate.io.store.project_store import Store
from hieradjudicate.io.store.runs import run_bytes, runs
from tests.conftest import DEMO

ANN = ("annotator_ann.key", "annotator_ben.key", "annotator_cho.key")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "demo.hadj"
    args = ["project", "new", str(path), "--inventory", str(DEMO / "inventory.txt")]
    for name in ANN:
        args += ["--annotations", str(DEMO / name)]
    assert main(args) == 0
    assert main(["project", "resolve-agreed", str(path)]) == 0
    assert main(["project", "add-run", str(path), f"lesk={DEMO / 'system_lesk.ans'}", "--note", "first"]) == 0
    assert main(["project", "add-run", str(path), f"neural={DEMO / 'system_neural.ans'}"]) == 0
    return path


def _runs(path: Path) -> dict:
    with Store.open(path, read_only=True) as s:
        return {r.name: (r.note, r.added_at, r.sha256, run_bytes(s, r.name)) for r in runs(s)}


def test_check_counts_sound_runs_and_repair_carries_them(project: Path, tmp_path: Path, capsys) -> None:
    capsys.readouterr()
    assert main(["project", "check", str(project)]) == 0
    out = capsys.readouterr().out
    assert "stored runs" in out and "2 run(s) match their SHA-256" in out
    before = _runs(project)
    assert before["lesk"][3] == (DEMO / "system_lesk.ans").read_bytes()
    fixed = tmp_path / "fixed.hadj"
    assert main(["project", "repair", str(project), "-o", str(fixed)]) == 0
    assert "2 stored run(s)" in capsys.readouterr().out
    assert _runs(fixed) == before  # names, notes, dates, bytes
    assert main(["project", "check", str(fixed)]) == 0


def test_a_damaged_run_is_found_named_and_left_out_of_the_repair(project: Path, capsys) -> None:
    conn = sqlite3.connect(project)
    conn.execute("UPDATE runs SET data = x'789c0300000000' WHERE name = 'neural'")  # zlib of b""
    conn.commit()
    conn.close()
    capsys.readouterr()
    assert main(["project", "check", str(project)]) == 1
    out = capsys.readouterr().out
    assert "1 of 2 damaged: neural: its stored answer file does not match its SHA-256" in out
    assert main(["project", "repair", str(project)]) == 0
    cap = capsys.readouterr()
    assert "1 stored run(s)" in cap.out
    assert "stored runs left out (1; add them again with project add-run): neural" in cap.err
    got = _runs(project)  # the repaired file took the project's name
    assert list(got) == ["lesk"] and got["lesk"][0] == "first"
    assert got["lesk"][3] == (DEMO / "system_lesk.ans").read_bytes()
    assert (project.parent / "demo.hadj.damaged").exists()
    assert main(["project", "check", str(project)]) == 0
