"""File projects keep the server's promise (#30): a C1 control character (U+009B, a terminal's
CSI) is refused like the C0 ones and written visibly by the export when an older version stored
it; import-decisions refuses a note longer than the program keeps and a source the program
reserves for itself, naming file and line."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from hieradjudicate.io.store import records
from tests.app.test_session import demo_args

CSI = "\x9b"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    inv, specs, ctx = demo_args(tmp_path)
    path = tmp_path / "demo.hadj"
    with Session.create(path, inv, specs, ctx):
        pass
    return path


def test_a_c1_control_character_in_a_note_is_refused(project: Path, capsys) -> None:
    before = project.read_bytes()
    code = main(["project", "decide", str(project), "bank.n", "bank.n.001", "1.1", "--note", f"a{CSI}31mb"])
    err = capsys.readouterr().err
    assert code != 0 and "control character (0x9b)" in err and "Traceback" not in err
    assert project.read_bytes() == before


def test_a_c1_control_character_stored_by_an_older_version_is_exported_visibly(
        project: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    with Session.open(project) as s, monkeypatch.context() as m:
        m.setattr(records, "CONTROL", records.re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]"))  # the old check
        s.store.append_decisions([SimpleNamespace(
            lexelt="bank.n", instance="bank.n.001", tags=("1.1",), source="manual", status="resolved",
            note=f"see{CSI}31mhere", decided_by="ann", decided_at="2026-01-01T00:00:00Z", basis=None)])
    for fmt in ("csv", "jsonl"):
        out = tmp_path / f"gold.{fmt}"
        assert main(["project", "export", str(project), "--format", fmt, "-o", str(out)]) == 0
        said = capsys.readouterr().out
        assert "1 decision(s) held control characters" in said and "bank.n bank.n.001" in said
        text = out.read_text(encoding="utf-8")
        assert CSI not in text and "\\u009b" not in text and "see<U+009B>31mhere" in text


def _import(project: Path, tmp_path: Path, row: str) -> tuple[int, str]:
    csv = tmp_path / "decisions.csv"
    csv.write_text("lexelt,instance,tags,source,note\n" + row + "\n", encoding="utf-8")
    code = main(["project", "import-decisions", str(project), str(csv)])
    return code, str(csv)


def test_import_decisions_refuses_a_note_longer_than_the_program_keeps(project: Path, tmp_path: Path, capsys) -> None:
    before = project.read_bytes()
    code, csv = _import(project, tmp_path, "bank.n,bank.n.001,1.1,import," + "x" * (records.NOTE_MAX + 1))
    err = capsys.readouterr().err
    assert code != 0 and f"{csv}:2: the note has {records.NOTE_MAX + 1:,} characters" in err
    assert project.read_bytes() == before


def test_import_decisions_refuses_the_source_the_program_reserves(project: Path, tmp_path: Path, capsys) -> None:
    before = project.read_bytes()
    code, csv = _import(project, tmp_path, "bank.n,bank.n.001,1.1,auto-agreement,")
    err = capsys.readouterr().err
    assert code != 0 and f"{csv}:2: the source 'auto-agreement' is the program's own" in err
    assert project.read_bytes() == before


def test_a_refused_decide_leaves_the_file_byte_for_byte(project: Path, capsys) -> None:
    before = project.read_bytes()
    assert main(["project", "decide", str(project), "bank.n", "bank.n.001", "no-such-sense"]) != 0
    assert main(["project", "decide", str(project), "bank.n", "bank.n.001", "1.1", "--note", "a\x07b"]) != 0
    assert "Traceback" not in capsys.readouterr().err
    assert project.read_bytes() == before
