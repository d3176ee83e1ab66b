"""Integrity checks that never hide a decision and never cry wolf (#22 items 2, 3 and 4).

* a damaged byte in a stored checksum is a finding about that row, never an exception;
* a damaged page costs the rows on it, never the readable rows around it;
* a row whose content is intact is kept (and flagged) when only its checksum or predecessor is damaged;
* an interrupted save is not damage; a colleague's commit is not damage.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from hieradjudicate.io.store import chain as chain_mod
from hieradjudicate.io.store.chain import verify
from hieradjudicate.io.store.health import check, salvage
from hieradjudicate.io.store.project_store import Store


def _dec(i: int) -> SimpleNamespace:
    return SimpleNamespace(lexelt="bank.n", instance=str(i), tags=(f"sense{i % 3}",), source="manual",
                           status="resolved", note=f"note-{i:04d}", decided_by="ann",
                           decided_at="2026-01-01T00:00:00Z", basis=None)


def _project(path: Path, n: int, *, one_by_one: bool = False) -> None:
    with Store.create(path) as s:
        if one_by_one:
            for i in range(n):
                s.append_decisions([_dec(i)])
        else:
            s.append_decisions([_dec(i) for i in range(n)])


def _sql(path: Path, statement: str) -> None:
    conn = sqlite3.connect(path)
    conn.execute(statement)
    conn.commit()
    conn.close()


def _set_chain_byte(path: Path, instance: str, byte: int) -> None:
    conn = sqlite3.connect(path)
    old = conn.execute("SELECT chain FROM decisions WHERE instance = ?", (instance,)).fetchone()[0]
    new = old.encode("ascii")[:10] + bytes([byte]) + old.encode("ascii")[11:]
    conn.execute("UPDATE decisions SET chain = CAST(? AS TEXT) WHERE instance = ?", (new, instance))
    conn.commit()
    conn.close()


def test_a_non_ascii_byte_in_a_checksum_is_a_finding_not_an_exception(tmp_path: Path) -> None:
    """Item 2: today every read stops with UnicodeEncodeError; the row is now reported, the rest usable."""
    path = tmp_path / "p.hadj"
    _project(path, 20, one_by_one=True)
    _set_chain_byte(path, "7", 0xE9)
    found = {f.check: f for f in check(path)}
    assert not found["decision history"].ok and "#8 (bank.n 7)" in found["decision history"].detail
    with Store.open(path) as s:  # opens (read-only, damaged); no row is hidden: #8's content is vouched
        assert s.read_only and "damaged" in (s.read_only_reason or "")
        assert len(s.latest_decisions()) == 20 and len(list(s.iter_history())) == 20
    kept = salvage(path)
    assert len(kept.decisions) == 20 and kept.left_out == []
    assert any(f.startswith("#8 (bank.n 7): its checksum is damaged") for f in kept.flagged)


def test_a_damaged_checksum_on_the_last_row_is_vouched_by_the_head(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    _project(path, 5, one_by_one=True)
    _set_chain_byte(path, "4", ord("z"))
    report = _verify(path)
    assert report.bad_ids == [] and list(report.flagged) == [5]


def _verify(path: Path):
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return verify(conn)
    finally:
        conn.close()


def test_deleting_one_row_keeps_the_next_one_flagged(tmp_path: Path) -> None:
    """Item 3: the row after a deleted one was dropped too; repair keeps it, flagged."""
    path = tmp_path / "p.hadj"
    _project(path, 30, one_by_one=True)
    _sql(path, "DELETE FROM decisions WHERE instance = '12'")
    report = _verify(path)
    assert report.bad_ids == [] and report.unverified == [14]
    assert "follows the missing row(s) #13" in report.flagged[14]
    with Store.open(path) as s:  # the gold leaves the unverifiable row out, and names it
        assert {r.instance for r in s.latest_decisions()} == {str(i) for i in range(30)} - {"12", "13"}
        assert s.left_out == ("#14 (bank.n 13): follows the missing row(s) #13; its content cannot be "
                              "verified",)
    kept = salvage(path)
    assert len(kept.decisions) == 29 and kept.left_out == []
    assert [f.split(":")[0] for f in kept.flagged] == ["#14 (bank.n 13)"]


def test_a_changed_row_is_still_left_out_alone(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    _project(path, 30, one_by_one=True)
    _sql(path, "UPDATE decisions SET note = 'forged' WHERE instance = '5'")
    report = _verify(path)
    assert report.bad_ids == [6] and report.flagged == {}
    kept = salvage(path)
    assert len(kept.decisions) == 29 and [t.split(":")[0] for t in kept.left_out] == ["#6 (bank.n 5)"]


def _damage_page_of(path: Path, needle: bytes, how: str) -> tuple[int, int]:
    """Damage the decisions leaf page holding ``needle``; returns the ids it held (first, last)."""
    conn = sqlite3.connect(path)
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    base = (data.index(needle) // page_size) * page_size
    assert data[base] == 0x0D  # a table leaf page
    notes = [int(m[5:9]) for m in bytes(data[base:base + page_size]).split(b"note-")[1:] if m[:4].isdigit()
             for m in [b"note-" + m[:4]]]
    conn.close()
    if how == "cell count":
        data[base + 3:base + 5] = b"\xff\xff"
    else:  # the cell pointers point out of the page
        data[base + 28:base + 68] = b"\xee" * 40
    path.write_bytes(bytes(data))
    return min(notes) + 1, max(notes) + 1


def test_a_damaged_page_costs_only_its_rows(tmp_path: Path) -> None:
    """Item 3: repair stopped at the first read error and recovered nothing."""
    for how in ("cell count", "cell pointers"):
        path = tmp_path / f"{how.replace(' ', '-')}.hadj"
        _project(path, 1000)
        first, last = _damage_page_of(path, b"note-0500", how)
        kept = salvage(path)
        ids = {r[0] for r in kept.decisions}
        assert ids >= set(range(1, first - 1)) | set(range(last + 2, 1001)), how
        assert len(ids) >= 1000 - (last - first + 1) - 2, how
        found = {f.check: f for f in check(path)}
        assert not found["decision history"].ok


def test_history_and_repair_of_a_page_damaged_project(tmp_path: Path, capsys) -> None:
    from hieradjudicate.cli.entry import main

    path = tmp_path / "p.hadj"
    _project(path, 1000)
    _damage_page_of(path, b"note-0500", "cell count")
    assert main(["project", "history", str(path), "--format", "json"]) == 0
    out = capsys.readouterr()
    assert out.out.count('"lexelt"') >= 950 and "every row that can still be read" in out.err


def _interrupted_save(path: Path) -> None:
    """A writer killed in the middle of a save with its pages spilled into the file (a hot journal)."""
    code = ("import os, sqlite3, sys\n"
            "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "c.execute('PRAGMA cache_size = 1')\n"
            "c.execute('BEGIN IMMEDIATE')\n"
            "c.executemany(\"INSERT INTO decisions (lexelt, instance, tags, source, status, decided_by,"
            " decided_at) VALUES ('bank.n', ?, '[]', 'manual', 'resolved', 'x', 'y')\","
            " [(str(i),) for i in range(5000)])\n"
            "os._exit(9)\n")
    subprocess.run([sys.executable, "-c", code, str(path)], check=False)
    assert Path(f"{path}-journal").exists()


def test_check_recognises_an_interrupted_save(tmp_path: Path, capsys) -> None:
    """Item 4a: check said DAMAGED and repair refused although nothing saved was lost."""
    from hieradjudicate.cli.entry import main

    path = tmp_path / "p.hadj"
    _project(path, 5, one_by_one=True)
    _interrupted_save(path)
    before = path.read_bytes()
    assert main(["project", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "interrupted save" in out and "do not delete the -journal file" in out and "DAMAGED" not in out
    assert "5 decision row(s) verified" in out
    assert path.read_bytes() == before and Path(f"{path}-journal").exists()  # check changes nothing
    assert main(["project", "repair", str(path), "-o", str(tmp_path / "r.hadj")]) == 0
    assert "5 decision rows" in capsys.readouterr().out
    assert not Path(f"{path}-journal").exists()
    with Store.open(path) as s:
        assert s.count_decisions() == 5 and not s.read_only


def test_check_of_an_interrupted_save_in_a_read_only_folder(tmp_path: Path) -> None:
    path = tmp_path / "ro" / "p.hadj"
    path.parent.mkdir()
    _project(path, 4, one_by_one=True)
    _interrupted_save(path)
    found = check(path)
    assert found[0].check == "interrupted save" and all(f.ok for f in found)
    assert len(salvage(path).decisions) == 4


class _ColleagueCommits(sqlite3.Connection):
    """A connection on which, between the reads of a check, a colleague commits one decision."""

    colleague: Path
    done = False

    def execute(self, sql, *args):  # type: ignore[override]
        if not self.done and self.in_transaction is False and "FROM decisions" not in sql \
                and getattr(self, "_read_decisions", False):
            self._commit_one()
        if not self.done and self.in_transaction and sql.strip().upper() in ("COMMIT", "ROLLBACK") \
                and getattr(self, "_read_decisions", False):
            self._commit_one()
        if "FROM decisions" in sql:
            self._read_decisions = True
        return super().execute(sql, *args)

    def _commit_one(self) -> None:
        self.done = True
        other = sqlite3.connect(self.colleague, isolation_level=None, timeout=0.2)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("INSERT INTO decisions (lexelt, instance, tags, source, status, note, decided_by,"
                          " decided_at) VALUES ('bank.n', 'new', '[\"a\"]', 'manual', 'resolved', '', 'ben',"
                          " '2026-01-02T00:00:00Z')")
            new_id = other.execute("SELECT MAX(id) FROM decisions").fetchone()[0]
            chain_mod.extend(other, [new_id])
            other.execute("COMMIT")
        except sqlite3.OperationalError:  # the reader's snapshot holds the writer off: it waits
            if other.in_transaction:
                other.execute("ROLLBACK")
        finally:
            other.close()


def test_a_colleague_committing_during_a_check_is_not_damage(tmp_path: Path) -> None:
    """Item 4b: the rows and the head were read in two snapshots (3 of 3 checks cried wolf)."""
    path = tmp_path / "p.hadj"
    _project(path, 10, one_by_one=True)
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, isolation_level=None,
                           factory=_ColleagueCommits)
    conn.colleague = path
    try:
        report = verify(conn)
    finally:
        conn.close()
    assert conn.done  # the colleague did try to commit in the middle of the check
    assert report.sound, report.summary()
    assert _verify(path).sound  # and the project is sound afterwards, whoever came first


def test_opening_an_interrupted_save_where_it_cannot_be_rolled_back_says_so(tmp_path: Path,
                                                                             monkeypatch) -> None:
    """Read-only media: the journal cannot be rolled back; the message says what to do (it said
    "damaged or not a database (attempt to write a readonly database)")."""
    import pytest

    from hieradjudicate.core.errors import ProjectError
    from hieradjudicate.io.store import schema

    path = tmp_path / "p.hadj"
    _project(path, 4, one_by_one=True)
    _interrupted_save(path)
    with monkeypatch.context() as m:  # as on read-only media (root may write anywhere here)
        m.setattr(schema, "recover_journal", lambda p: None)
        with pytest.raises(ProjectError, match="a save was interrupted and cannot be rolled back here"):
            Store.open(path)
    with Store.open(path) as s:
        assert s.count_decisions() == 4
