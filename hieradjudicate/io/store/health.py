"""``project check`` and the salvage half of ``project repair``: read a project without trusting it.

Everything here reads through a read-only connection that creates no file
and changes no byte, and turns every SQLite failure into a finding instead
of an exception: a user asking "is my project sound?" gets an answer even
for a badly damaged file.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store import schema
from hieradjudicate.io.store.blob import unpack_blob
from hieradjudicate.io.store.chain import ChainReport, describe, verify
from hieradjudicate.io.store.journal import WARNING, interrupted_save, rolled_back_copy
from hieradjudicate.io.store.rowread import scan


@dataclass
class Finding:
    """One check and what it found."""

    check: str
    ok: bool
    detail: str
    #: not damage: the project was not checked (a planted link beside it)
    refused: bool = False


@dataclass
class Salvage:
    """What can be read from a project, and what cannot."""

    version: int = 0
    settings: dict[str, str] = field(default_factory=dict)
    files: list[tuple[dict[str, Any], bytes]] = field(default_factory=list)  # sound stored copies
    damaged_files: list[str] = field(default_factory=list)  # source paths of damaged copies
    #: their records (what ``repair --input`` matches an original file against), where readable
    damaged_records: list[dict[str, Any]] = field(default_factory=list)
    #: schema entries whose damaged text was read as the program writes it (names)
    mended_schema: list[str] = field(default_factory=list)
    truncated: str = ""  # what check_header said of a truncated file read padded
    batches: list[tuple[Any, ...]] = field(default_factory=list)
    decisions: list[tuple[Any, ...]] = field(default_factory=list)  # trusted rows, id order
    left_out: list[str] = field(default_factory=list)  # "#17 (bank.n 3): why"
    flagged: list[str] = field(default_factory=list)  # kept, but damaged around them: "#18 (...): why"
    unreadable: list[tuple[int, int]] = field(default_factory=list)  # id ranges on damaged pages
    chain: ChainReport | None = None
    runs: list[tuple[dict[str, Any], bytes]] = field(default_factory=list)  # sound stored system runs
    damaged_runs: list[str] = field(default_factory=list)  # "NAME: why" of runs that cannot be kept


_FILE_COLUMNS = ("id", "kind", "role", "set_names", "format", "options", "source_path", "size",
                 "sha256", "imported_at", "compression", "active")
_RUN_COLUMNS = ("id", "name", "note", "source_path", "size", "sha256", "added_by", "added_at", "compression")
_DECISION_COLUMNS = ("id", "lexelt", "instance", "tags", "source", "status", "note", "decided_by",
                     "decided_at", "batch", "basis")


def _connect(p: Path) -> sqlite3.Connection:
    schema.check_header(p)
    return schema.read_only_connection(p)


def check(path: str | Path) -> list[Finding]:
    """Every check ``project check`` prints, in order; never raises for a damaged file.

    After an interrupted save the checks are of a private copy with it rolled back (what the
    next command will see); the project itself is not changed.
    """
    p = Path(path)
    planted = schema.planted_side_file(p)
    if planted is not None:
        return [Finding("beside the project", False, planted, refused=True)]
    if p.is_file() and interrupted_save(p):
        first = Finding("interrupted save", True, WARNING.format(journal=f"{p.name}-journal"))
        try:
            with rolled_back_copy(p) as copy:
                found = _check(copy)
        except OSError as exc:
            return [first, Finding("file", False, f"{p}: cannot copy it to check it ({exc.strerror}); "
                                   "run any command that opens the project to roll the save back")]
        for f in found:
            f.detail = f.detail.replace(str(copy), str(p))
        return [first, *found]
    return _check(p)


def _check(p: Path) -> list[Finding]:
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
        out.append(_schema_text(conn, version))
        out.append(_pragma(conn, "pages", "PRAGMA quick_check(20)"))
        out.append(_pragma(conn, "decisions table and index", "PRAGMA integrity_check(decisions)"))
        out.append(_indexes(conn))
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
        out.append(_stored_runs(conn))
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


def _indexes(conn: sqlite3.Connection) -> Finding:
    """The other tables against their indexes (which file copies load; the schema version)."""
    found = [_pragma(conn, t, f"PRAGMA integrity_check({t})")
             for t in ("files", "meta", "settings", "batches", "arrays") + (("runs",) if _has_runs(conn) else ())]
    bad = [f"{f.check}: {f.detail}" for f in found if not f.ok]
    return Finding("other tables and their indexes", not bad, "; ".join(bad)[:400] if bad else "ok")


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
    """A stored copy's record (its id only when the record cannot be read) and its bytes (None:
    damaged).  The record is read apart from the bytes: a damaged copy keeps the SHA-256 that an
    original file is matched against."""
    try:
        row = conn.execute(f"SELECT {', '.join(_FILE_COLUMNS)} FROM files WHERE id = ?", (fid,)).fetchone()
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        return {"id": fid}, None
    record = dict(zip(_FILE_COLUMNS, row, strict=True))
    try:
        blob = conn.execute("SELECT data FROM files WHERE id = ?", (fid,)).fetchone()[0]
    except sqlite3.DatabaseError:
        return record, None
    return record, unpack_blob(record["compression"], blob, record["sha256"])


def _has_runs(conn: sqlite3.Connection) -> bool:
    try:
        return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'").fetchone() is not None
    except sqlite3.DatabaseError:
        return False


def _runs(conn: sqlite3.Connection) -> tuple[list[tuple[dict[str, Any], bytes]], list[str], str | None]:
    """``(sound runs, "NAME: why" of damaged ones, why the table cannot be read or None)``."""
    if not _has_runs(conn):
        return [], [], None
    try:
        ids = [r[0] for r in conn.execute("SELECT id FROM runs ORDER BY added_at, id")]
    except sqlite3.DatabaseError as exc:
        return [], [], f"cannot be read ({exc})"
    good, bad = [], []
    for rid in ids:
        try:
            row = conn.execute(f"SELECT {', '.join(_RUN_COLUMNS)}, data FROM runs WHERE id = ?", (rid,)).fetchone()
        except (sqlite3.DatabaseError, UnicodeDecodeError):
            bad.append(f"run #{rid}: its row cannot be read (damaged)")
            continue
        record = dict(zip(_RUN_COLUMNS, row[:-1], strict=True))
        data = unpack_blob(record["compression"], row[-1], record["sha256"])
        if data is None:
            bad.append(f"{record['name']}: its stored answer file does not match its SHA-256 (damaged)")
        else:
            good.append((record, data))
    return good, bad, None


def _stored_runs(conn: sqlite3.Connection) -> Finding:
    good, bad, unreadable = _runs(conn)
    if unreadable:
        return Finding("stored runs", False, unreadable)
    if bad:
        return Finding("stored runs", False, f"{len(bad)} of {len(good) + len(bad)} damaged: " + "; ".join(bad[:5]))
    return Finding("stored runs", True, f"{len(good)} run(s) match their SHA-256" if good else "none stored")


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
    planted = schema.planted_side_file(p)
    if planted is not None:
        raise ProjectError(planted)
    if p.is_file() and interrupted_save(p):  # we may not write here: roll it back in a copy
        with rolled_back_copy(p) as copy:
            return _salvage_mending(copy)
    return _salvage_mending(p)


def _salvage_mending(p: Path) -> Salvage:
    """:func:`_salvage`; when the schema text is damaged (SQLite refuses the file, or a table of
    the program's cannot be read with its columns), from a copy with it mended (:mod:`.schema_mend`)."""
    from hieradjudicate.io.store.schema_mend import mended_copy

    from hieradjudicate.io.store.schema_mend import padded_copy

    failure: ProjectError | None = None
    try:
        schema.check_header(p)
    except ProjectError as exc:
        if "is truncated" not in str(exc):
            raise
        with padded_copy(p) as copy:
            if copy is None:
                raise
            out = _salvage_mending(copy)
        out.truncated = str(exc).split(": ", 1)[-1]
        return out
    found: Salvage | None = None
    try:
        found = _salvage(p)
        # a column name of the files table damaged reads as every stored copy damaged
        if not (found.chain is not None and _schema_words(found.chain.read_error)) and not found.damaged_files:
            return found
    except ProjectError as exc:
        if not _schema_words(str(exc)):
            raise
        failure = exc
    with mended_copy(p) as mended:
        if mended is None:
            if found is None:
                raise failure  # type: ignore[misc]
            return found
        copy, names = mended
        out = _salvage(copy)
    if found is not None and (len(out.decisions) < len(found.decisions)
                              or len(out.damaged_files) > len(found.damaged_files)):
        return found  # (the mended copy reads no more than the file itself)
    out.mended_schema = names
    return out


def _schema_words(error: str) -> bool:
    return any(w in error for w in ("malformed database schema", "no such column", "no such table"))


def _schema_text(conn: sqlite3.Connection, version: int) -> Finding:
    from hieradjudicate.io.store.schema_mend import damaged_entries

    try:
        bad = damaged_entries(conn, version)
    except sqlite3.DatabaseError as exc:
        return Finding("schema text", False, f"cannot be read ({exc})")
    if bad:
        return Finding("schema text", False, f"the statement of {', '.join(bad)} differs from the program's "
                       "by a damaged byte (`project repair` reads the rows with it as the program writes it)")
    return Finding("schema text", True, "as the program writes it")


def _salvage(p: Path) -> Salvage:
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
                out.damaged_records.append(record)
            else:
                out.files.append((record, data))
        out.batches = _batches(conn)
        out.runs, out.damaged_runs, unreadable_runs = _runs(conn)
        if unreadable_runs:
            out.damaged_runs.append(f"the stored runs {unreadable_runs}")
        if out.version >= 3:
            chain = verify(conn)
            rows = [r[:-1] for r in chain.rows]
            unreadable = chain.unreadable
        else:
            chain = None
            cols = ", ".join(_DECISION_COLUMNS)
            conn.text_factory = bytes
            found = scan(conn, "decisions", cols if out.version >= 2 else cols.replace(", basis", ", NULL"))
            rows, unreadable = found.rows, found.unreadable
        out.chain = chain
        out.unreadable = unreadable
        bad = set(chain.bad_ids) if chain else set()
        out.left_out = chain.left_out() if chain else []
        out.left_out = [t for t in out.left_out if int(t[1:].split(" ", 1)[0]) in bad]
        out.flagged = ([f"{chain.names[i]}: {why}" for i, why in sorted(chain.flagged.items())]
                       if chain else [])
        for r in rows:
            if r[0] in bad:
                continue
            problem = _row_problem(r)
            if problem:
                out.left_out.append(f"{describe(r)}: {problem}")
                continue
            out.decisions.append(tuple(v.decode("utf-8") if isinstance(v, bytes) else v for v in r))
    except sqlite3.DatabaseError as exc:
        raise ProjectError(f"{p}: cannot be read for repair ({exc})") from None
    finally:
        conn.close()
    return out


def _batches(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
    """Every readable, sound batch row (a damaged one is dropped: its decisions keep no batch)."""
    old = conn.text_factory
    conn.text_factory = bytes
    try:
        rows = scan(conn, "batches", "id, label, kind, created_by, created_at").rows
    finally:
        conn.text_factory = old
    out = []
    for r in rows:
        try:
            values = tuple(v.decode("utf-8") if isinstance(v, bytes) else v for v in r)
        except UnicodeDecodeError:
            continue
        if isinstance(values[0], int) and all(isinstance(v, str) for v in values[1:]):
            out.append(values)
    return out


def _row_problem(r: tuple[Any, ...]) -> str:
    """Why a row read from a damaged file cannot be stored again ("" when it can)."""
    import json

    if not isinstance(r[0], int):
        return "its id is damaged"
    try:
        text = [v.decode("utf-8") if isinstance(v, bytes) else v for v in r[1:9]]
    except UnicodeDecodeError:
        return "its text is not UTF-8 (damaged)"
    if any(not isinstance(v, str) for v in text) or not text[0] or not text[1]:
        return "a field is missing or damaged"
    if text[4] not in schema.STATUSES:
        return f"its status {text[4]!r} is damaged"
    try:
        tags = json.loads(text[2])
        basis = None if r[10] is None else json.loads(r[10])
    except (ValueError, UnicodeDecodeError):
        return "its tags or basis are not JSON (damaged)"
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags) or \
            (basis is not None and not isinstance(basis, dict)):
        return "its tags or basis are damaged"
    return ""


def _rows_dict(conn: sqlite3.Connection, sql: str) -> dict[str, str]:
    try:
        return {str(k): str(v) for k, v in conn.execute(sql)}
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        return {}
