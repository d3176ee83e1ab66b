"""#22 item 6 (gap): a note with control characters stored by an older version (which let them in,
checksum and all) is never written raw by the CSV and JSON Lines exports nor by the history CSV:
each control character is written as its visible symbol and the export names the decision."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from hieradjudicate.io.store import records
from tests.app.test_session import demo_args

RAW = "\x00\x07\x1b\x7f"


@pytest.fixture
def old_project(tmp_path: Path, monkeypatch) -> tuple[Path, str, str]:
    """A demo project with one resolved decision whose note holds NUL, BEL, ESC and DEL, recorded
    with a valid checksum as an older version did (its check for control characters switched off)."""
    inv, specs, ctx = demo_args(tmp_path)
    path = tmp_path / "demo.hadj"
    with Session.create(path, inv, specs, ctx) as s:
        lexelt, inst = s.instances()[0]
        assert lexelt == "bank.n"  # the demo's first word; sense 1.1 is in its inventory
        with monkeypatch.context() as m:
            m.setattr(records, "CONTROL", records.re.compile(r"(?!)"))  # the older version's check
            s.store.append_decisions([SimpleNamespace(
                lexelt=lexelt, instance=inst, tags=("1.1",), source="manual", status="resolved",
                note=f"see{RAW}here", decided_by="ann", decided_at="2026-01-01T00:00:00Z", basis=None)])
    assert main(["project", "check", str(path)]) == 0  # a sound project: the checksum holds
    return path, lexelt, inst


def _no_raw(text: str) -> None:
    assert not records.CONTROL.search(text), repr(text)
    assert "\\u0000" not in text and "\\u0007" not in text


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_the_gold_export_writes_stored_control_characters_visibly_and_names_the_decision(
        old_project, tmp_path: Path, capsys, fmt: str) -> None:
    path, lexelt, inst = old_project
    out = tmp_path / f"gold.{fmt}"
    capsys.readouterr()
    assert main(["project", "export", str(path), "--format", fmt, "-o", str(out),
                 "--include-unresolved"]) == 0
    said = capsys.readouterr().out
    assert "1 decision(s) held control characters" in said and f"{lexelt} {inst}" in said
    text = out.read_text(encoding="utf-8")
    _no_raw(text)
    assert "see\u2400\u2407\u241b\u2421here" in text
    if fmt == "jsonl":
        notes = [json.loads(line)["note"] for line in text.splitlines()]
        assert "see\u2400\u2407\u241b\u2421here" in notes


def test_the_exported_csv_imports_back(old_project, tmp_path: Path, capsys) -> None:
    """import-decisions refuses raw control characters: the export it reads must hold none."""
    path, lexelt, inst = old_project
    out = tmp_path / "gold.csv"
    assert main(["project", "export", str(path), "--format", "csv", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["project", "import-decisions", str(path), str(out)]) == 0, capsys.readouterr().err


def test_the_history_csv_writes_them_visibly_and_names_the_row(old_project, tmp_path: Path,
                                                               capsys) -> None:
    path, lexelt, inst = old_project
    out = tmp_path / "history.csv"
    capsys.readouterr()
    assert main(["project", "history", str(path), "--format", "csv", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"#1 ({lexelt} {inst})" in err and "control characters" in err
    text = out.read_text(encoding="utf-8")
    _no_raw(text)
    assert "see\u2400\u2407\u241b\u2421here" in text
