"""The decision history's hash chain: a changed or missing decision is named, never shown (#12)."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from hieradjudicate.io.store.chain import verify
from hieradjudicate.io.store.project_store import Store
from hieradjudicate.io.store.schema import SCHEMA_VERSION


def _project(path: Path, n: int = 30) -> None:
    with Store.create(path) as s:
        for i in range(n):  # one transaction each, as deciding does
            s.append_decisions([SimpleNamespace(
                lexelt="bank.n", instance=str(i), tags=(f"sense{i % 3}",), source="manual",
                status="resolved", note=f"note-{i:04d}", decided_by="ann",
                decided_at="2026-01-01T00:00:00Z", basis=None)])


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _sql(path: Path, statement: str) -> None:
    conn = sqlite3.connect(path)
    conn.execute(statement)
    conn.commit()
    conn.close()


def test_a_sound_history_verifies(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    _project(path)
    with Store.open(path) as s:
        assert not s.read_only and s.bad_ids == ()
        assert verify(s.conn).sound and verify(s.conn).checked == 30


def test_a_changed_byte_on_disk_is_detected_and_not_shown(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    _project(path)
    data = bytearray(path.read_bytes())
    at = data.index(b"sense2", data.index(b"note-0017") - 200)  # instance 17's tag, in its row
    data[at + 5] = ord("1")  # sense2 -> sense1: still a valid row, a different decision
    path.write_bytes(bytes(data))
    before = _sha(path)
    with Store.open(path) as s:
        assert s.read_only and "damaged" in s.read_only_reason and "bank.n 17" in s.read_only_reason
        shown = {r.instance: r.tags for r in s.latest_decisions()}
        assert "17" not in shown and len(shown) == 29
    assert _sha(path) == before  # a damaged project is never written to


@pytest.mark.parametrize("how", ["middle row deleted", "rows cut from the end", "note changed",
                                 "not UTF-8"])
def test_history_damage(tmp_path: Path, how: str) -> None:
    path = tmp_path / "p.hadj"
    _project(path)
    statement = {
        "middle row deleted": "DELETE FROM decisions WHERE instance = '12'",
        "rows cut from the end": "DELETE FROM decisions WHERE id > 27",
        "note changed": "UPDATE decisions SET note = 'forged' WHERE instance = '5'",
        "not UTF-8": "UPDATE decisions SET decided_at = CAST(x'ff00fe' AS TEXT) WHERE instance = '8'",
    }[how]
    _sql(path, statement)
    with Store.open(path) as s:
        assert s.read_only and "damaged" in (s.read_only_reason or "")
        rows = s.latest_decisions()  # reads without a decoding error
        assert all(r.note != "forged" for r in rows)
        if how == "rows cut from the end":
            assert "missing at the end" in s.read_only_reason
        list(s.iter_history())


def test_migration_chains_an_old_history(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    _project(path, 5)
    conn = sqlite3.connect(path)  # back to version 2: no chain column
    conn.execute("ALTER TABLE decisions DROP COLUMN chain")
    conn.execute("DELETE FROM meta WHERE key = 'decisions_head'")
    conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()
    with Store.open(path) as s:
        assert s.schema_version == SCHEMA_VERSION and verify(s.conn).sound
    _sql(path, "UPDATE decisions SET note = 'forged' WHERE instance = '3'")
    with Store.open(path) as s:
        assert s.read_only and s.bad_ids


def test_the_timelines_brief_rows_are_the_full_rows_columns_without_the_failing_ones(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    _project(path, 6)
    _sql(path, "UPDATE decisions SET tags = '[\"forged\"]' WHERE instance = '3'")
    with Store.open(path) as s:
        full = list(s.iter_history())
        brief = s.brief_history()
        in_thread = s.history_reader(brief=True)()
    assert len(full) == 5 and "3" not in {r.instance for r in full}
    fields = ("id", "lexelt", "instance", "tags", "status", "decided_by", "decided_at")
    assert [tuple(getattr(r, f) for f in fields) for r in full] == [tuple(b) for b in brief] == \
        [tuple(b) for b in in_thread]
    assert brief[0].tags == ("sense0",) and brief[0].decided_at == "2026-01-01T00:00:00Z"
