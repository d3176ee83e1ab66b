"""``project check`` and ``project repair`` (#12 item 2) on the demo project, sound and damaged."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from tests.app.test_session import demo_args


@pytest.fixture
def project(tmp_path: Path) -> Path:
    inv, specs, ctx = demo_args(tmp_path)
    path = tmp_path / "demo.hadj"
    with Session.create(path, inv, specs, ctx) as s:
        for k, (lexelt, inst) in enumerate(s.instances()[:6]):
            s.store.append_decisions([_dec(lexelt, inst, f"n{k}")])
    return path


def _dec(lexelt: str, inst: str, note: str):
    from types import SimpleNamespace
    return SimpleNamespace(lexelt=lexelt, instance=inst, tags=(), source="manual", status="flagged",
                           note=note, decided_by="ann", decided_at="2026-01-01T00:00:00Z", basis=None)


def test_check_a_sound_project(project: Path, capsys) -> None:
    assert main(["project", "check", str(project)]) == 0
    out = capsys.readouterr().out
    assert "DAMAGED" not in out and out.rstrip().endswith("sound")
    assert "6 decision row(s) verified" in out


def test_check_and_repair_a_forged_decision(project: Path, capsys) -> None:
    conn = sqlite3.connect(project)
    conn.execute("UPDATE decisions SET note = 'forged' WHERE note = 'n3'")
    conn.commit()
    conn.close()
    before = project.read_bytes()
    assert main(["project", "check", str(project), "--format", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert not doc["sound"]
    assert [c["check"] for c in doc["checks"] if not c["ok"]] == ["decision history"]
    assert project.read_bytes() == before  # check changes nothing
    assert main(["project", "repair", str(project)]) == 0
    captured = capsys.readouterr()
    assert "5 decision rows" in captured.out and "left out" in captured.err
    assert (project.parent / "demo.hadj.damaged").read_bytes() == before
    with Session.open(project) as s:
        assert not s.read_only
        notes = sorted(r.note for r in s.store.iter_history())
        assert notes == ["n0", "n1", "n2", "n4", "n5"]
    assert main(["project", "check", str(project)]) == 0


def test_repair_to_another_file_and_a_damaged_cache(project: Path, tmp_path: Path, capsys) -> None:
    conn = sqlite3.connect(project)
    conn.execute("UPDATE arrays SET data = x'00'")
    conn.commit()
    conn.close()
    assert main(["project", "check", str(project)]) == 1
    assert "corpus cache" in capsys.readouterr().out
    out = tmp_path / "fixed.hadj"
    assert main(["project", "repair", str(project), "-o", str(out)]) == 0
    with Session.open(out) as s:
        assert s.from_cache and s.store.count_decisions() == 6


def test_repair_refuses_when_an_input_copy_is_damaged(project: Path, capsys) -> None:
    conn = sqlite3.connect(project)
    conn.execute("UPDATE files SET data = x'789c0300000000' WHERE kind = 'inventory'")
    conn.commit()
    conn.close()
    (project.parent / "src" / "inventory.txt").unlink()  # no original to rebuild it from (#30)
    assert main(["project", "check", str(project)]) == 1
    assert main(["project", "repair", str(project)]) == 1
    assert "stored copy of" in capsys.readouterr().err
    assert not (project.parent / "demo.hadj.damaged").exists()


def test_check_names_a_file_that_is_not_a_project(tmp_path: Path, capsys) -> None:
    p = tmp_path / "x.hadj"
    p.write_text("hello\n")
    assert main(["project", "check", str(p)]) == 1
    assert "text file" in capsys.readouterr().out
