"""``project repair`` when a stored input copy is damaged: it names that input and, given the
original file (``--input``, or still where it was imported from, matched by SHA-256), rebuilds
the copy and keeps every intact decision; without it nothing changes."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from tests.app.test_session import demo_args


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, Path, int]:
    """A project with decisions whose stored copy of annotator_ben.key is damaged (one byte)."""
    inv, specs, ctx = demo_args(tmp_path)
    path = tmp_path / "demo.hadj"
    with Session.create(path, inv, specs, ctx) as s:
        s.accept_agreed()
        n = s.store.count_decisions()
    conn = sqlite3.connect(path)
    fid, blob, comp = conn.execute("SELECT id, data, compression FROM files WHERE source_path LIKE "
                                   "'%annotator_ben.key'").fetchone()
    assert comp in ("zlib", "none")
    blob = bytearray(blob)
    blob[len(blob) // 2] ^= 0x01
    conn.execute("UPDATE files SET data = ? WHERE id = ?", (bytes(blob), fid))
    conn.commit()
    conn.close()
    return path, Path(specs[1].path), n


def test_repair_names_the_damaged_input_and_changes_nothing_without_its_original(
        project: tuple[Path, Path, int], tmp_path: Path, capsys) -> None:
    path, original, _n = project
    original.rename(tmp_path / "moved.key")
    before = path.read_bytes()
    capsys.readouterr()
    assert main(["project", "repair", str(path)]) == 1
    err = capsys.readouterr().err
    assert str(original) in err and "--input PATH" in err and "Nothing was changed" in err
    assert path.read_bytes() == before and not list(tmp_path.glob("demo.hadj.damaged*"))


@pytest.mark.parametrize("where", ["--input", "where it was imported from"])
def test_repair_rebuilds_the_copy_from_the_original_and_keeps_every_decision(
        project: tuple[Path, Path, int], tmp_path: Path, capsys, where: str) -> None:
    path, original, n = project
    args = ["project", "repair", str(path), "-o", str(tmp_path / "fixed.hadj")]
    if where == "--input":
        moved = tmp_path / "elsewhere" / "ben.key"
        moved.parent.mkdir()
        shutil.move(original, moved)
        (tmp_path / "elsewhere" / "wrong.key").write_text("not it\n", encoding="utf-8")
        args += ["--input", str(tmp_path / "elsewhere" / "wrong.key"), "--input", str(moved)]
    capsys.readouterr()
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"{n} decision rows" in out and "annotator_ben.key: the damaged stored copy was taken again" in out
    assert main(["project", "check", str(tmp_path / "fixed.hadj")]) == 0
    with Session.open(tmp_path / "fixed.hadj") as s:
        assert s.store.count_decisions() == n
        assert [x.name for x in s.corpus.sets] == ["annotator_ann", "ben"]
