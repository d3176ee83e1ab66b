"""A hash chain over the decision history: a changed or missing decision is detected, not shown.

Every decision row carries ``chain = sha256(previous row's chain, this row's
fields)`` (hex, the first row's previous is empty), and the project's meta
table keeps the head (``count last_id chain``).  On opening, every row is
checked against the stored chain of the row before it, so that

* a changed byte in a row fails that row (and the next, if the byte was in
  its chain),
* a deleted row fails the row after it,
* rows cut from the end no longer reach the recorded head.

Rows are read as bytes: a text column that is no longer UTF-8 is damage like
any other, never a decoding error.  Cost: one pass over the history
(``benchmarks/bench_decision_commit.py`` prints it for 44,682 decisions).
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: meta key of the head of the chain: "count last_id chain"
HEAD_KEY = "decisions_head"
_COLUMNS = "id, lexelt, instance, tags, source, status, note, decided_by, decided_at, batch, basis"


def _bytes(value: Any) -> bytes:
    if value is None:
        return b"\x00"
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8", "surrogatepass")


def link(previous: str, row: Sequence[Any]) -> str:
    """The chain value of a row (its columns in ``_COLUMNS`` order) after ``previous``."""
    h = hashlib.sha256(previous.encode("ascii"))
    for value in row:
        b = _bytes(value)
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


@dataclass
class ChainReport:
    """What a check of the decision history found."""

    checked: int = 0
    bad_ids: list[int] = field(default_factory=list)  # rows that fail their checksum
    described: list[str] = field(default_factory=list)  # "#17 (bank.n 3)" for the first ones
    missing_at_end: int = 0  # rows the recorded head counts that are not there
    unchained: int = 0  # rows written before checksums existed (verified from then on)

    @property
    def sound(self) -> bool:
        return not self.bad_ids and not self.missing_at_end

    def summary(self) -> str:
        parts = []
        if self.bad_ids:
            parts.append(f"{len(self.bad_ids)} decision row(s) do not match their checksum or follow a "
                         f"missing one ({', '.join(self.described)}"
                         + (", ..." if len(self.bad_ids) > len(self.described) else "") + ")")
        if self.missing_at_end:
            parts.append(f"{self.missing_at_end} decision row(s) recorded as saved are missing at the end")
        return "; ".join(parts) or f"{self.checked} decision row(s) verified"


def verify(conn: sqlite3.Connection) -> ChainReport:
    """Check every decision row against the chain (read-only)."""
    report = ChainReport()
    old_factory = conn.text_factory
    conn.text_factory = bytes
    try:
        rows = conn.execute(f"SELECT {_COLUMNS}, chain FROM decisions ORDER BY id").fetchall()
        head = conn.execute("SELECT value FROM meta WHERE key = ?", (HEAD_KEY,)).fetchone()
    finally:
        conn.text_factory = old_factory
    previous = ""
    for row in rows:
        stored = row[-1]
        report.checked += 1
        if stored is None and previous == "":
            report.unchained += 1  # history from before checksums: nothing to check against
            continue
        stored_text = stored.decode("ascii", "replace") if isinstance(stored, bytes) else str(stored)
        if stored is None or link(previous, row[:-1]) != stored_text:
            report.bad_ids.append(int(row[0]))
            if len(report.described) < 3:
                lex = _bytes(row[1]).decode("utf-8", "replace")
                inst = _bytes(row[2]).decode("utf-8", "replace")
                report.described.append(f"#{int(row[0])} ({lex} {inst})")
        previous = stored_text if stored is not None else previous
    if head is not None:
        try:
            count = int(_bytes(head[0]).split()[0])
        except (ValueError, IndexError):
            count = len(rows)
        report.missing_at_end = max(0, count - len(rows))
    return report


def extend(conn: sqlite3.Connection, ids: Sequence[int]) -> None:
    """Chain newly inserted rows (in the caller's transaction) and move the head."""
    prev_row = conn.execute("SELECT chain FROM decisions WHERE id < ? AND chain IS NOT NULL "
                            "ORDER BY id DESC LIMIT 1", (min(ids),)).fetchone()
    previous = prev_row[0] if prev_row else ""
    placeholders = ",".join("?" * len(ids)) if len(ids) < 900 else None
    if placeholders:
        rows = conn.execute(f"SELECT {_COLUMNS} FROM decisions WHERE id IN ({placeholders}) ORDER BY id",
                            list(ids)).fetchall()
    else:
        rows = conn.execute(f"SELECT {_COLUMNS} FROM decisions WHERE id >= ? ORDER BY id",
                            (min(ids),)).fetchall()
    updates = []
    for row in rows:
        previous = link(previous, row)
        updates.append((previous, row[0]))
    conn.executemany("UPDATE decisions SET chain = ? WHERE id = ?", updates)
    head = conn.execute("SELECT value FROM meta WHERE key = ?", (HEAD_KEY,)).fetchone()
    try:  # the head counts the rows; counting the table on every decision would grow with it
        count = int(head[0].split()[0]) + len(rows)
    except (TypeError, ValueError, IndexError, AttributeError):
        count = conn.execute("SELECT COUNT(*) FROM decisions").fetchone()[0]
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                 (HEAD_KEY, f"{count} {rows[-1][0] if rows else 0} {previous}"))


def chain_all(conn: sqlite3.Connection) -> None:
    """Chain a whole existing history (the schema migration that introduces checksums)."""
    ids = [r[0] for r in conn.execute("SELECT id FROM decisions ORDER BY id")]
    if ids:
        extend(conn, ids)
