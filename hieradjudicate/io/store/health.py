"""``project check`` and the salvage half of ``project repair``: read a project without trusting it.

Everything here reads through a read-only connection that creates no file
and changes no byte, and turns every SQLite failure into a finding instead
of an exception: a user asking "is my project sound?" gets an answer even
for a badly damaged file.
"""

from __future__ import annotations

import hashlib
import sqlite3
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store import schema
from hieradjudicate.io.store.chain import ChainReport, verify


@dataclass
class Finding:
    """One check and what it found."""

    check: str
    ok: bool
    detail: str


@dataclass
class Salvage:
    """What can be read from a project, and what cannot."""

    version: int = 0
    settings: dict[str, str] = field(default_factory=dict)
    files: list[tuple[dict[str, Any], bytes]] = field(default_factory=list)  # sound stored copies
    damaged_files: list[str] = field(default_factory=list)  # source paths of damaged copies
    batches: list[tuple[Any, ...]] = field(default_factory=list)
    decisions: list[tuple[Any, ...]] = field(default_factory=list)  # trusted rows, id order
    left_out: list[str] = field(default_factory=list)  # "#17 (bank.n 3)"
    chain: ChainReport | None = None


_FILE_COLUMNS = ("id", "kind", "role", "set_names", "format", "options", "source_path", "size",
                 "sha256", "imported_at", "compression", "active")
_DECISION_COLUMNS = ("id", "lexelt", "instance", "tags", "source", "status", "note", "decided_by",
                     "decided_at", "batch", "basis")


def _connect(p: Path) -> sqlite3.Connection:
    schema.check_header(p)
    return schema.read_only_connection(p)


def check(path: str | Path) -> list[Finding]:
    """Every check ``project check`` prints, in order; never raises for a damaged file."""
    p = Path(path)
    out: list[Finding] = []
    try:
        conn = _connect(p)
    except ProjectError as exc:
        return [Finding("file", False, str(exc))]
    try:
        try:
            version = schema.inspect_schema(conn, str(p))
            out.append(Finding("project", True, f"hieradjudicate project, schema version {version}"))
        except ProjectError as exc:
            return [*out, Finding("project", False, str(exc))]
        out.append(_pragma(conn, "pages", "PRAGMA quick_check(20)"))
        out.append(_pragma(conn, "decisions table and index", "PRAGMA integrity_check(decisions)"))
        if version >= 3:
            try:
                chain = verify(conn)
                out.append(Finding("decision history", chain.sound, chain.summary()))
            except sqlite3.DatabaseError as exc:
                out.append(Finding("decision history", False, f"cannot be read ({exc})"))
        else:
            out.append(Finding("decision history", True,
                               f"schema version {version} has no checksums yet (added when it is "
                               "next opened for writing)"))
        out.extend(_stored_copies(conn))
        out.append(_cache(conn))
    finally:
        conn.close()
    return out


def _pragma(conn: sqlite3.Connection, what: str, sql: str) -> Finding:
    try:
        rows = [str(r[0]) for r in conn.execute(sql)]
    except sqlite3.DatabaseError as exc:
        return Finding(what, False, f"cannot be checked ({exc})")
    return Finding(what, rows == ["ok"], "ok" if rows == ["ok"] else "; ".join(rows)[:400])


def _stored_copies(conn: sqlite3.Connection) -> list[Finding]:
    try:
        ids = [r[0] for r in conn.execute("SELECT id FROM files WHERE active = 1 ORDER BY id")]
    except sqlite3.DatabaseError as exc:
        return [Finding("stored input copies", False, f"cannot be read ({exc})")]
    bad = []
    for fid in ids:
        record, data = _file(conn, fid)
        if data is None:
            bad.append(str(record.get("source_path", f"file #{fid}")))
    if bad:
        return [Finding("stored input copies", False,
                        f"{len(bad)} of {len(ids)} damaged: {', '.join(bad[:5])}")]
    return [Finding("stored input copies", True, f"{len(ids)} copies match their SHA-256")]


def _file(conn: sqlite3.Connection, fid: int) -> tuple[dict[str, Any], bytes | None]:
    try:
        row = conn.execute(f"SELECT {', '.join(_FILE_COLUMNS)}, data FROM files WHERE id = ?",
                           (fid,)).fetchone()
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        return {"id": fid}, None
    record = dict(zip(_FILE_COLUMNS, row[:-1], strict=True))
    try:
        data = zlib.decompress(row[-1]) if record["compression"] == "zlib" else bytes(row[-1])
    except (zlib.error, TypeError):
        return record, None
    return (record, data) if hashlib.sha256(data).hexdigest() == record["sha256"] else (record, None)


def _cache(conn: sqlite3.Connection) -> Finding:
    import io
    import zipfile

    import numpy as np

    try:
        row = conn.execute("SELECT data FROM arrays WHERE name = 'corpus'").fetchone()
        if row is None:
            return Finding("corpus cache", True, "none (built from the stored copies on open)")
        with np.load(io.BytesIO(row[0]), allow_pickle=False) as npz:
            for k in npz.files:
                npz[k]
    except (sqlite3.DatabaseError, ValueError, OSError, EOFError, zipfile.BadZipFile) as exc:
        return Finding("corpus cache", False, f"damaged ({exc}); it is rebuilt from the stored copies "
                       "on the next open")
    return Finding("corpus cache", True, "ok")


def salvage(path: str | Path) -> Salvage:
    """Everything of a project that can be trusted, for ``project repair``."""
    p = Path(path)
    conn = _connect(p)
    out = Salvage()
    try:
        out.version = schema.inspect_schema(conn, str(p))
        out.settings = _rows_dict(conn, "SELECT key, value FROM settings")
        try:
            ids = [r[0] for r in conn.execute("SELECT id FROM files ORDER BY id")]
        except sqlite3.DatabaseError as exc:
            raise ProjectError(f"{p}: the stored input copies cannot be read ({exc}); create the "
                               "project again from the original files") from None
        for fid in ids:
            record, data = _file(conn, fid)
            if data is None:
                out.damaged_files.append(str(record.get("source_path", f"file #{fid}")))
            else:
                out.files.append((record, data))
        try:
            out.batches = conn.execute(
                "SELECT id, label, kind, created_by, created_at FROM batches ORDER BY id").fetchall()
        except sqlite3.DatabaseError:
            out.batches = []
        chain = verify(conn) if out.version >= 3 else None
        out.chain = chain
        bad = set(chain.bad_ids) if chain else set()
        out.left_out = list(chain.described) if chain else []
        conn.text_factory = bytes
        try:
            rows = conn.execute(f"SELECT {', '.join(_DECISION_COLUMNS)} FROM decisions "
                                "ORDER BY id").fetchall()
        except sqlite3.DatabaseError as exc:
            raise ProjectError(f"{p}: the decisions cannot be read ({exc}); export what `project "
                               "history` shows and import it into a new project") from None
        for r in rows:
            if r[0] in bad:
                continue
            try:
                out.decisions.append(tuple(v.decode("utf-8") if isinstance(v, bytes) else v for v in r))
            except UnicodeDecodeError:
                out.left_out.append(f"#{r[0]}")
    except sqlite3.DatabaseError as exc:
        raise ProjectError(f"{p}: cannot be read for repair ({exc})") from None
    finally:
        conn.close()
    return out


def _rows_dict(conn: sqlite3.Connection, sql: str) -> dict[str, str]:
    try:
        return {str(k): str(v) for k, v in conn.execute(sql)}
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        return {}
