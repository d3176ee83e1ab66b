"""Reading a project whose schema text holds a damaged byte (``project repair``).

SQLite keeps each table's ``CREATE`` statement as text in ``sqlite_master``; one flipped bit in
it and SQLite refuses the whole file ("malformed database schema") or reads a table under a
wrong column name, although every row is intact.  The program knows the exact text it wrote
for each schema version (:func:`~hieradjudicate.io.store.schema.init_schema` makes the same
statements), so :func:`mended_copy` puts it back -- only in a private copy, only for an entry
that differs from the program's by at most two bytes of each field (a damaged copy of it, not
a layout of another version), with ``PRAGMA writable_schema`` -- and the repair reads the rows
from that copy.  The damaged file is never written.

A truncated file (its header counts more pages than it holds) is read the same way from a copy
padded to its full length with empty pages (:func:`padded_copy`): the rows on the pages that
are there are read, the missing ones are named as unreadable.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hieradjudicate.io.store import schema

Entry = tuple[bytes | None, ...]  # type, name, tbl_name, sql


def reference_entries(version: int) -> list[Entry]:
    """The ``sqlite_master`` entries the program writes for a schema version."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.text_factory = bytes
        schema.init_schema(conn, version)
        return [tuple(r) for r in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")]
    finally:
        conn.close()


def _near(a: bytes | None, b: bytes | None) -> bool:
    if a == b:
        return True
    if a is None or b is None or len(a) != len(b):
        return False
    return sum(x != y for x, y in zip(a, b, strict=True)) <= 2


def _version(p: Path) -> int:
    with open(p, "rb") as fh:
        head = fh.read(100)
    return int.from_bytes(head[60:64], "big") if len(head) == 100 else 0


@contextmanager
def mended_copy(p: Path) -> Iterator[tuple[Path, list[str]] | None]:
    """A private copy of ``p`` with its damaged schema entries written as the program writes
    them, and their names; None when no entry is a near copy of the program's (nothing to mend)."""
    version = _version(p)
    if not 1 <= version <= schema.SCHEMA_VERSION:
        yield None
        return
    ref = reference_entries(version)
    with tempfile.TemporaryDirectory(prefix="hadj-mend-") as folder:
        copy = Path(folder) / p.name
        shutil.copyfile(p, copy)
        conn = sqlite3.connect(copy)
        mended: list[str] = []
        try:
            conn.text_factory = bytes
            conn.execute("PRAGMA writable_schema = ON")
            rows = conn.execute("SELECT rowid, type, name, tbl_name, sql FROM sqlite_master").fetchall()
            for rowid, *entry in rows:
                if tuple(entry) in ref:
                    continue
                match = next((r for r in ref if all(_near(a, b) for a, b in zip(entry, r, strict=True))), None)
                if match is not None:
                    text = [None if v is None else v.decode("utf-8") for v in match]  # text, not blobs
                    conn.execute("UPDATE sqlite_master SET type = ?, name = ?, tbl_name = ?, sql = ? "
                                 "WHERE rowid = ?", (*text, rowid))
                    mended.append((match[1] or b"?").decode("utf-8", "replace"))
            conn.commit()
        except sqlite3.DatabaseError:
            mended = []
        finally:
            conn.close()
        yield (copy, mended) if mended else None


@contextmanager
def padded_copy(p: Path) -> Iterator[Path | None]:
    """A private copy of a truncated ``p`` filled with zero bytes up to the length its header
    gives; None when the header does not say a longer length."""
    with open(p, "rb") as fh:
        head = fh.read(100)
    if len(head) < 100:
        yield None
        return
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    full = page_size * int.from_bytes(head[28:32], "big")
    size = p.stat().st_size
    if not size < full <= 64 * size + (1 << 30):  # (a damaged header must not make a huge file)
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="hadj-pad-") as folder:
        copy = Path(folder) / p.name
        shutil.copyfile(p, copy)
        with open(copy, "r+b") as fh:
            fh.truncate(full)
        yield copy


def damaged_entries(conn: sqlite3.Connection, version: int) -> list[str]:
    """Names of schema entries that are near copies of the program's but not equal (a damaged
    byte that SQLite happens to accept, e.g. a column name: ``project check`` names them)."""
    if not 1 <= version <= schema.SCHEMA_VERSION:
        return []
    ref = reference_entries(version)
    old = conn.text_factory
    conn.text_factory = bytes
    try:
        rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    finally:
        conn.text_factory = old
    return [(r[1] or b"?").decode("utf-8", "replace") for r in rows
            if tuple(r) not in ref and any(all(_near(a, b) for a, b in zip(r, e, strict=True)) for e in ref)]
