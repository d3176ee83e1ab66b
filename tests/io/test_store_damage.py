"""Damaged, foreign and newer files: a one-line error, and the file's bytes unchanged."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.project_store import Store


def _project(path: Path) -> None:
    with Store.create(path) as s:
        s.put_arrays("corpus", {"x": np.arange(50_000)})  # several hundred pages
        s.append_decisions([SimpleNamespace(
            lexelt="bank.n", instance=str(i), tags=("a",), source="manual", status="resolved",
            note="", decided_by="ann", decided_at="2026-01-01T00:00:00Z", basis=None)
            for i in range(200)])


def truncated_half(path: Path) -> None:
    _project(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def truncated_header(path: Path) -> None:
    _project(path)
    path.write_bytes(path.read_bytes()[:60])


def truncated_magic(path: Path) -> None:
    path.write_bytes(b"SQLite for")


def random_bytes(path: Path) -> None:
    path.write_bytes(np.random.default_rng(1).bytes(8192))


def text_file(path: Path) -> None:
    path.write_text("bank.n 1 a\nbank.n 2 b\n" * 50)


def empty_file(path: Path) -> None:
    path.write_bytes(b"")


def foreign_sqlite(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    conn.execute("INSERT INTO meta VALUES ('schema_version', '2')")
    conn.commit()
    conn.close()


def newer_schema(path: Path) -> None:
    _project(path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def corrupt_page(path: Path) -> None:
    _project(path)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for p in range(2, len(data) // page):  # garble the b-tree page headers
        data[p * page: p * page + 12] = b"\xff" * 12
    path.write_bytes(bytes(data))


def app_id_without_tables(path: Path) -> None:
    """Our application id and a meta table, nothing else (was: internal error, no such table)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1212236874")
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    conn.execute("INSERT INTO meta VALUES ('schema_version', '2')")
    conn.commit()
    conn.close()


def index_out_of_step(path: Path) -> None:
    """The decisions index no longer matches its table (quick_check does not see this)."""
    _project(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = 'CREATE INDEX decisions_instance ON decisions "
                 "(instance, lexelt, id)' WHERE name = 'decisions_instance'")
    conn.commit()
    conn.close()


def fifo(path: Path) -> None:
    os.mkfifo(path)


CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "app id without tables": (app_id_without_tables, "table.*missing"),
    "index out of step": (index_out_of_step, "decisions are damaged"),
    "fifo": (fifo, "named pipe"),
    "truncated": (truncated_half, "truncated"),
    "truncated header": (truncated_header, "truncated"),
    "truncated magic": (truncated_magic, "truncated"),
    "random bytes": (random_bytes, "not an SQLite database"),
    "text renamed": (text_file, "text file, not a hieradjudicate project"),
    "empty": (empty_file, "empty"),
    "foreign sqlite": (foreign_sqlite, "another program"),
    "newer schema": (newer_schema, "newer hieradjudicate .*schema version 99"),
    "corrupt pages": (corrupt_page, "damaged"),
}


def _sha(path: Path) -> str:
    if not path.is_file():
        return "not a file"
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("read_only", [False, True])
def test_damaged_file_gives_one_line_error_and_is_untouched(
        tmp_path: Path, case: str, read_only: bool) -> None:
    make, expected = CASES[case]
    path = tmp_path / "p.hadj"
    make(path)
    for suffix in ("-wal", "-shm"):  # a clean file on disk, as after a normal close
        Path(str(path) + suffix).unlink(missing_ok=True)
    before, listing = _sha(path), sorted(os.listdir(tmp_path))
    with pytest.raises(ProjectError, match=expected) as info:
        Store.open(path, read_only=read_only)
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    assert _sha(path) == before
    assert sorted(os.listdir(tmp_path)) == listing  # no -wal/-shm/backup appeared


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(ProjectError, match="no such file"):
        Store.open(tmp_path / "nope.hadj")
    with pytest.raises(ProjectError, match="is a folder"):
        Store.open(tmp_path)


def test_sound_file_opens_after_damage_checks(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    _project(path)
    with Store.open(path) as s:
        assert len(s.latest_decisions()) == 200 and s.integrity_check() == ["ok"]
