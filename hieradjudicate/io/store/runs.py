"""Stored system runs of a project: a system's answer file kept with a name, a date and a note.

``compare --baseline NAME --project P.hadj`` scores against a stored run (the
regression view), and the run history scores every stored run against the gold.
A run is the answer file's bytes as given (zlib-compressed unless already gzip),
checked against its SHA-256 when read back, as the project's imported files are.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.blob import pack_blob, unpack_blob

RUNS_TABLE = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    note TEXT NOT NULL DEFAULT '',
    source_path TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    added_by TEXT NOT NULL,
    added_at TEXT NOT NULL,
    compression TEXT NOT NULL CHECK (compression IN ('zlib', 'none')),
    data BLOB NOT NULL
)
"""


def add_runs_table(conn: sqlite3.Connection) -> None:
    """Schema version 4: the ``runs`` table (stored system runs)."""
    conn.execute(RUNS_TABLE)


@dataclass(frozen=True)
class RunRecord:
    id: int
    name: str
    note: str
    source_path: str
    size: int
    sha256: str
    added_by: str
    added_at: str


def _on_file(store: Any) -> bool:
    """Runs live in a ``.hadj`` file (SQLite); a server project (PostgreSQL) has no runs table yet."""
    return isinstance(getattr(store, "_conn", None), sqlite3.Connection)


def _has_table(store: Any) -> bool:
    if not _on_file(store):
        return False
    return store.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'"
                              ).fetchone() is not None


def add_run(store: Any, name: str, path: str | os.PathLike[str], *, note: str = "",
            data: bytes | None = None) -> RunRecord:
    """Keep a copy of the answer file ``path`` as run ``name`` (a name is used once)."""
    name = name.strip()
    if not name:
        raise ProjectError("a run needs a name: NAME=FILE")
    if not _on_file(store):
        raise ProjectError(f"{getattr(store, 'path', 'the project')}: stored runs are kept in a .hadj project file; this project is on a "
                           "server (compare --baseline FILE works with any run file)")
    for what, text in (("name", name), ("note", note)):
        bad = next((c for c in text if ord(c) < 32 or ord(c) == 127), None)
        if bad is not None:
            raise ProjectError(f"the run's {what} holds a control character (0x{ord(bad):02x}); expected text")
    src = os.fspath(path)
    if data is None:
        try:
            data = Path(src).read_bytes()
        except OSError as exc:
            raise ProjectError(f"{src}: cannot read the run's answer file ({exc.strerror})") from None
    if store.conn.execute("SELECT 1 FROM runs WHERE name = ?", (name,)).fetchone():
        raise ProjectError(f"{store.path}: a run named {name!r} is already stored; choose another name "
                           "(stored runs are never replaced)")
    digest = hashlib.sha256(data).hexdigest()
    blob, compression = pack_blob(data)
    # records.utc_now's form (records imports schema, which imports this module)
    now, user = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"), store.user()
    with store.transaction(f"store the run {name}") as conn:
        cur = conn.execute("INSERT INTO runs (name, note, source_path, size, sha256, added_by, added_at,"
                           " compression, data) VALUES (?,?,?,?,?,?,?,?,?)",
                           (name, note, os.path.abspath(src), len(data), digest, user, now,
                            compression, blob))
        rid = int(cur.lastrowid or 0)
    return RunRecord(rid, name, note, os.path.abspath(src), len(data), digest, user, now)


def runs(store: Any) -> list[RunRecord]:
    """Every stored run, oldest first."""
    if not _has_table(store):
        return []
    return [RunRecord(*r) for r in store.conn.execute(
        "SELECT id, name, note, source_path, size, sha256, added_by, added_at FROM runs ORDER BY added_at, id")]


def run_bytes(store: Any, name: str) -> bytes:
    """The stored answer file of run ``name``, checked against its SHA-256."""
    row = store.conn.execute("SELECT compression, data, sha256 FROM runs WHERE name = ?", (name,)
                             ).fetchone() if _has_table(store) else None
    if row is None:
        known = ", ".join(r.name for r in runs(store)) or "none"
        raise ProjectError(f"{store.path}: no stored run named {name!r} (stored runs: {known})")
    data = unpack_blob(row[0], row[1], row[2])
    if data is None:
        raise ProjectError(f"{store.path}: the stored run {name!r} is damaged (its SHA-256 does not match)")
    return data


__all__ = ["RunRecord", "add_run", "add_runs_table", "run_bytes", "runs"]
