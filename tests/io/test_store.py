"""The project store: round trips, settings, file copies, arrays, decisions, migration."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import hieradjudicate.io.store.schema as store_schema
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.project_store import Store, login_name


def dec(instance: str = "1", tags: tuple[str, ...] = ("a",), **kw: object) -> SimpleNamespace:
    values = {"lexelt": "bank.n", "instance": instance, "tags": tags, "source": "manual",
                  "status": "resolved", "note": "", "decided_by": "ann", "decided_at": "2026-01-01T00:00:00Z",
                  "basis": None}
    values.update(kw)
    return SimpleNamespace(**values)


@pytest.fixture
def store(tmp_path: Path):
    s = Store.create(tmp_path / "p.hadj")
    yield s
    s.close()


def test_create_sets_identity_and_rollback_journal(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    with Store.create(path) as s:
        assert not s.read_only and s.read_only_reason is None
        assert s.schema_version == store_schema.SCHEMA_VERSION
        meta = s.meta()
        assert meta["schema_version"] == str(store_schema.SCHEMA_VERSION)
        assert meta["created"].endswith("Z")
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # no committed row lives in a side file
        assert s.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA application_id").fetchone()[0] == store_schema.APPLICATION_ID
    assert raw.execute("PRAGMA user_version").fetchone()[0] == store_schema.SCHEMA_VERSION
    raw.close()
    assert not list(tmp_path.glob(".p.hadj.creating*"))


def test_create_refuses_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    path.write_text("keep me")
    with pytest.raises(ProjectError, match="already exists"):
        Store.create(path)
    assert path.read_text() == "keep me"


def test_second_open_in_same_process_is_refused(store: Store) -> None:
    with pytest.raises(ProjectError, match="already open in this program"):
        Store.open(store.path)


def test_settings_and_user(store: Store) -> None:
    assert store.user() == login_name()
    store.set_setting("user", "Ines")
    store.set_setting("policy", {"depth": 2, "names": ["x"]})
    assert store.user() == "Ines"
    assert store.get_setting("policy") == {"depth": 2, "names": ["x"]}
    assert store.get_setting("missing", 5) == 5
    path = store.path
    store.close()
    with Store.open(path) as again:
        assert again.settings()["policy"] == {"depth": 2, "names": ["x"]}


def test_file_copies_keep_bytes_and_hash(store: Store, tmp_path: Path) -> None:
    src = tmp_path / "key.txt"
    src.write_bytes(b"bank.n 1 a\r\nbank.n 2 b\n" * 100)
    rec = store.add_file("annotations", src, role="annotator", set_names=["A"],
                         format="senseval-key", options={"weights": False})
    gz = store.add_file("contexts", "ctx.gz", data=b"\x1f\x8b" + b"\x00" * 20)
    assert rec.size == src.stat().st_size
    assert store.file_bytes(rec.id) == src.read_bytes()
    assert store.file_bytes(gz.id).startswith(b"\x1f\x8b")
    assert [f.id for f in store.files("annotations")] == [rec.id]
    listed = store.files("annotations")[0]
    assert listed.set_names == ("A",) and listed.options == {"weights": False}
    assert listed.sha256 == rec.sha256 and listed.source_path == str(src)
    store.deactivate_file(rec.id)
    assert store.files("annotations") == []
    assert not store.files("annotations", active_only=False)[0].active
    with pytest.raises(ValueError):
        store.add_file("pictures", src)


def test_damaged_file_copy_is_detected(store: Store, tmp_path: Path) -> None:
    rec = store.add_file("inventory", "inv.txt", data=b"x" * 1000)
    store.conn.execute("UPDATE files SET sha256 = 'bad' WHERE id = ?", (rec.id,))
    with pytest.raises(ProjectError, match="damaged"):
        store.file_bytes(rec.id)


def test_arrays_round_trip(store: Store) -> None:
    arrays = {"item": np.arange(10, dtype=np.int64), "w": np.array([0.5, np.nan]),
              "names": np.array(["bank.n", "ürün.n"])}
    store.put_arrays("corpus", arrays, {"n": 10}, compress=True)
    got, meta = store.get_arrays("corpus")
    assert meta == {"n": 10}
    assert got["item"].dtype == np.int64 and np.array_equal(got["item"], arrays["item"])
    assert np.isnan(got["w"][1]) and list(got["names"]) == ["bank.n", "ürün.n"]
    store.put_arrays("corpus", {"x": np.zeros(2)})
    assert list(store.get_arrays("corpus")[0]) == ["x"]
    assert store.get_arrays("nothing") is None
    assert store.array_names() == ["corpus"]


def test_decisions_are_append_only_with_latest_current(store: Store) -> None:
    first = store.append_decisions([dec("1", ("a",))])
    store.append_decisions([dec("1", ("b",), basis={"set": "A", "tags": ["b"]}), dec("2")],
                           batch_label="accept A", batch_kind="do")
    assert first[0].batch is None
    hist = store.history("bank.n", "1")
    assert [r.tags for r in hist] == [("a",), ("b",)]
    assert hist[1].basis == {"set": "A", "tags": ["b"]}
    latest = {r.key: r for r in store.latest_decisions()}
    assert latest[("bank.n", "1")].tags == ("b",)
    assert len(latest) == 2 and store.count_decisions() == 3
    (batch,) = store.batches()
    assert batch.label == "accept A" and hist[1].batch == batch.id == latest[("bank.n", "2")].batch
    assert [r.id for r in store.iter_history()] == [1, 2, 3]


@pytest.mark.parametrize("bad", [{"status": "done"}, {"tags": ()}, {"tags": ("",)},
                                 {"decided_by": ""}, {"lexelt": ""}])
def test_invalid_decisions_are_rejected_and_nothing_is_saved(store: Store, bad: dict) -> None:
    with pytest.raises(ValueError):
        store.append_decisions([dec("1"), dec("2", **bad)])
    assert store.count_decisions() == 0


def test_failed_batch_rolls_back_entirely(store: Store) -> None:
    store.conn.execute("CREATE TRIGGER boom BEFORE INSERT ON decisions WHEN NEW.instance = 'x'"
                       " BEGIN SELECT RAISE(ABORT, 'simulated failure'); END")
    with pytest.raises(ProjectError, match="nothing of this change was saved"):
        store.append_decisions([dec("1"), dec("x")], batch_label="b")
    assert store.count_decisions() == 0 and store.batches() == []
    assert not store.conn.in_transaction


def test_read_only_store_refuses_writes_clearly(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    with Store.create(path) as s:
        s.append_decisions([dec()])
    with Store.open(path, read_only=True) as ro:
        assert ro.read_only and "read-only" in (ro.read_only_reason or "")
        assert len(ro.latest_decisions()) == 1
        with pytest.raises(ProjectError, match="cannot save 1 decision"):
            ro.append_decisions([dec("2")])
        with pytest.raises(ProjectError, match="read-only"):
            ro.set_setting("user", "x")


def _write_v1(path: Path) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("BEGIN")
    store_schema.init_schema(conn, target=1)
    conn.execute("INSERT INTO decisions (lexelt, instance, tags, source, status, note,"
                 " decided_by, decided_at) VALUES ('bank.n', '1', '[\"a\"]', 'manual',"
                 " 'resolved', 'old', 'ann', '2020-01-01T00:00:00Z')")
    conn.execute("COMMIT")
    conn.close()


def test_v1_project_is_backed_up_then_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.hadj"
    _write_v1(path)
    before = path.read_bytes()
    with Store.open(path) as s:
        assert s.schema_version == store_schema.SCHEMA_VERSION
        assert s.meta()["schema_version"] == str(store_schema.SCHEMA_VERSION)
        (row,) = s.history("bank.n", "1")
        assert row.note == "old" and row.basis is None
        s.append_decisions([dec("2", basis={"set": "A"})])
        assert s.history("bank.n", "2")[0].basis == {"set": "A"}
    with Store.open(path) as s:  # the old row was chained by the migration: both verify
        assert s.bad_ids == () and s.count_decisions() == 2
    backup = tmp_path / "old.hadj.bak-v1"
    assert backup.exists()
    conn = sqlite3.connect(backup)
    cols = [r[1] for r in conn.execute("PRAGMA table_info(decisions)")]
    assert "basis" not in cols
    assert conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == ("1",)
    assert conn.execute("SELECT note FROM decisions").fetchall() == [("old",)]
    conn.close()
    assert len(before) > 0
    # A second old file migrating next to an existing backup does not overwrite it.
    path.unlink()
    _write_v1(path)
    Store.open(path).close()
    assert (tmp_path / "old.hadj.bak-v1-2").exists()


def test_every_migration_step_is_registered() -> None:
    assert store_schema.SCHEMA_VERSION == len(store_schema.MIGRATIONS) + 1


def test_latest_without_withdrawals(store: Store) -> None:
    store.append_decisions([dec("1"), dec("2")])
    store.append_decisions([dec("1", (), status="unresolved", source="undo")])
    assert {r.instance for r in store.latest_decisions()} == {"1", "2"}
    assert [r.instance for r in store.latest_decisions(include_withdrawn=False)] == ["2"]


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_project_is_read_as_it_is_when_opened_read_only(tmp_path: Path, version: int) -> None:
    # a project from an earlier version: `report`, `status` or `competence` read it without upgrading it
    path = tmp_path / "old.hadj"
    _write_v1(path)
    if version == 2:
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("BEGIN")
        store_schema.migrate(conn, 1, 2)
        conn.execute("COMMIT")
        conn.close()
    before = path.read_bytes()
    with Store.open(path, read_only=True) as s:
        assert s.schema_version == version
        (row,) = s.history("bank.n", "1")
        assert row.note == "old" and row.basis is None
        assert [r.instance for r in s.latest_decisions()] == ["1"] and s.count_decisions() == 1
    assert path.read_bytes() == before  # not upgraded, not touched
    assert not list(tmp_path.glob("old.hadj.bak-*"))
    with Store.open(path) as s:  # opened for writing, it is upgraded as before
        assert s.schema_version == store_schema.SCHEMA_VERSION
