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
    """The chain value of a row (its columns in ``_COLUMNS`` order) after ``previous``.

    A damaged stored value may hold any character: it never raises, it only fails to match.
    """
    h = hashlib.sha256(previous.encode("ascii", "replace"))
    for value in row:
        b = _bytes(value)
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def describe(row: Sequence[Any]) -> str:
    """``#17 (bank.n 3)`` for a row read as bytes (damaged text shows as U+FFFD)."""
    try:
        ident = int(row[0])
    except (TypeError, ValueError):
        ident = -1
    lex = _bytes(row[1]).decode("utf-8", "replace")
    inst = _bytes(row[2]).decode("utf-8", "replace")
    return f"#{ident} ({lex} {inst})"


@dataclass
class ChainReport:
    """What a check of the decision history found."""

    checked: int = 0
    bad_ids: list[int] = field(default_factory=list)  # rows that fail their checksum: left out
    names: dict[int, str] = field(default_factory=dict)  # "#17 (bank.n 3)" of every bad or flagged row
    #: rows kept but flagged: id -> why (their own checksum is damaged but the next row vouches
    #: for their content; or they follow a missing or unreadable row and cannot be verified)
    flagged: dict[int, str] = field(default_factory=dict)
    unverified: list[int] = field(default_factory=list)  # flagged rows whose content is unverified
    unreadable: list[tuple[int, int]] = field(default_factory=list)  # id ranges that cannot be read
    read_error: str = ""
    damaged_cells: int = 0  # cells of a damaged page that decode to no row in id order (dropped)
    missing_at_end: int = 0  # rows the recorded head counts that are not there
    head_problem: str = ""  # the head in meta is missing, unreadable or names another last row
    unchained: int = 0  # rows written before checksums existed (verified from then on)
    rows: list[tuple[Any, ...]] = field(default_factory=list, repr=False)  # as read, with the chain
    head: Any = field(default=None, repr=False)  # the head's stored value, read with the rows (bytes)

    @property
    def sound(self) -> bool:
        return not (self.bad_ids or self.missing_at_end or self.flagged or self.unreadable
                    or self.read_error or self.damaged_cells or self.head_problem)

    @property
    def described(self) -> list[str]:
        return [self.names[i] for i in self.bad_ids]

    def left_out(self) -> list[str]:
        """Every row not shown as a saved decision, named, with why."""
        out = [f"{self.names[i]}: does not match its checksum" for i in self.bad_ids]
        out += [f"{self.names[i]}: {self.flagged[i]}" for i in self.unverified]
        return sorted(out, key=lambda t: int(t[1:].split(" ", 1)[0]))

    @property
    def left_out_ids(self) -> list[int]:
        """Rows not shown as saved decisions: failed, or not verifiable."""
        return sorted({*self.bad_ids, *self.unverified})

    def summary(self) -> str:
        parts = []
        if self.bad_ids:
            parts.append(f"{len(self.bad_ids)} decision row(s) do not match their checksum "
                         f"({', '.join(self.described[:5])}"
                         + (", ..." if len(self.bad_ids) > 5 else "") + ")")
        if self.flagged:
            shown = [f"{self.names.get(i, f'#{i}')}: {why}" for i, why in list(self.flagged.items())[:3]]
            parts.append(f"{len(self.flagged)} decision row(s) kept but flagged ({'; '.join(shown)}"
                         + ("; ..." if len(self.flagged) > 3 else "") + ")")
        if self.unreadable:
            n = sum(b - a + 1 for a, b in self.unreadable)
            parts.append(f"{n} decision id(s) cannot be read (damaged pages: "
                         + ", ".join(f"#{a}" if a == b else f"#{a}-#{b}" for a, b in self.unreadable[:3])
                         + (", ..." if len(self.unreadable) > 3 else "") + ")")
        elif self.read_error:
            parts.append(f"the decisions table cannot be read in one pass ({self.read_error})")
        if self.damaged_cells:
            parts.append(f"{self.damaged_cells} damaged cell(s) of the decisions table read as no row")
        if self.missing_at_end:
            parts.append(f"{self.missing_at_end} decision row(s) recorded as saved are missing at the end")
        if self.head_problem:
            parts.append(f"the head of the checksum chain (meta {HEAD_KEY}) {self.head_problem}")
        return "; ".join(parts) or f"{self.checked} decision row(s) verified"


def _text(stored: Any) -> str | None:
    if stored is None:
        return None
    return stored.decode("ascii", "replace") if isinstance(stored, bytes) else str(stored)


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def verify(conn: sqlite3.Connection) -> ChainReport:
    """Check every decision row against the chain (read-only).

    The rows and the head are read in one read transaction (one snapshot): a
    colleague committing meanwhile never makes a sound project look damaged.
    Rows on damaged pages are skipped (see :mod:`~hieradjudicate.io.store.rowread`).
    """
    from hieradjudicate.io.store.rowread import scan

    old_factory = conn.text_factory
    conn.text_factory = bytes
    own = not conn.in_transaction
    try:
        if own:
            conn.execute("BEGIN")
        try:
            head = conn.execute("SELECT value FROM meta WHERE key = ?", (HEAD_KEY,)).fetchone()
        except sqlite3.DatabaseError:
            head = None
        fields = _bytes(head[0]).split() if head is not None else []
        head_last = _int(fields[1]) if len(fields) > 1 else None
        found = scan(conn, "decisions", f"{_COLUMNS}, chain", hints=(head_last or 0,))
    finally:
        if own and conn.in_transaction:
            _end_read(conn)
        conn.text_factory = old_factory
    report = judge(found.rows, fields[2].decode("ascii", "replace") if len(fields) > 2 else None)
    report.rows = found.rows
    report.head = head[0] if head is not None else None
    report.damaged_cells = found.damaged_cells
    report.unreadable = found.unreadable
    report.read_error = found.error if found.unreadable else ""
    if fields:
        count = _int(fields[0])
        last_read = _int(found.rows[-1][0]) if found.rows else 0
        if count is not None and head_last is not None and last_read is not None \
                and head_last > last_read:
            report.missing_at_end = max(1, count - len(found.rows))
    report.head_problem = _head_problem(head is not None, fields, found.rows, report)
    return report


def _head_problem(present: bool, fields: list[bytes], rows: Sequence[Sequence[Any]],
                  report: ChainReport) -> str:
    """What is wrong with the head ``count last_id chain`` (every decision extends it: a damaged
    head makes each later save fail), or "" when it is what the rows say."""
    chained = [r for r in rows if r[-1] is not None]
    if not present:
        return "is missing" if chained else ""
    try:
        text = [f.decode("ascii") for f in fields]
    except UnicodeDecodeError:
        return "is not text"
    if len(text) != 3 or not text[0].isdigit() or not text[1].isdigit() \
            or len(text[2]) != 64 or any(c not in "0123456789abcdef" for c in text[2]):
        return f"is not 'count last_id chain' ({' '.join(text)[:80]!r})"
    if report.unreadable or report.read_error or report.missing_at_end or report.damaged_cells:
        return ""  # the rows are damaged already: said above
    if not rows:
        return "names decisions the project does not have" if int(text[1]) else ""
    last = rows[-1]
    last_id = _int(last[0])
    if int(text[1]) != last_id:
        return f"names #{text[1]} as the last decision row, not #{last_id}"
    if int(text[0]) != len(rows):
        return f"counts {text[0]} decision row(s), not {len(rows)}"
    if last_id not in report.flagged and _text(last[-1]) != text[2]:
        return f"does not match the chain of the last decision row #{last_id}"
    return ""


def _end_read(conn: sqlite3.Connection) -> None:
    """End a read transaction (a statement that met a damaged page can make COMMIT fail too)."""
    for sql in ("COMMIT", "ROLLBACK"):
        try:
            conn.execute(sql)
            return
        except sqlite3.Error:
            continue


def judge(rows: Sequence[Sequence[Any]], head_chain: str | None = None) -> ChainReport:
    """Check rows (the ``_COLUMNS`` and ``chain``, id order) against each other.

    * the stored chain matches: verified;
    * it does not, but the next row's chain matches what this row's chain should be: the content is
      what was saved, only its own checksum is damaged -- kept, flagged;
    * it does not and one or more ids before it are missing: it follows a deleted or unreadable
      row and cannot be verified -- kept by repair, flagged, not shown as a decision;
    * otherwise the content changed: left out.
    """
    report = ChainReport()
    previous, prev_id = "", 0
    for k, row in enumerate(rows):
        report.checked += 1
        ident = _int(row[0]) or 0
        stored = _text(row[-1])
        if stored is None and previous == "":
            report.unchained += 1  # history from before checksums: nothing to check against
            prev_id = ident
            continue
        expected = link(previous, row[:-1])
        if stored == expected:
            previous, prev_id = stored, ident
            continue
        nxt = rows[k + 1] if k + 1 < len(rows) else None
        nxt_stored = _text(nxt[-1]) if nxt is not None else None
        vouched = (link(expected, nxt[:-1]) == nxt_stored if nxt is not None and nxt_stored is not None
                   else nxt is None and head_chain is not None and head_chain == expected)
        if vouched:
            report.names[ident] = describe(row)
            report.flagged[ident] = "its checksum is damaged (its content is verified by the next row)"
            previous, prev_id = expected, ident
            continue
        if ident - prev_id > 1 and stored is not None:
            gap = f"#{prev_id + 1}" if ident - prev_id == 2 else f"#{prev_id + 1}-#{ident - 1}"
            report.flagged[ident] = f"follows the missing row(s) {gap}; its content cannot be verified"
            report.unverified.append(ident)
            report.names[ident] = describe(row)
            previous, prev_id = stored, ident
            continue
        report.bad_ids.append(ident)
        report.names[ident] = describe(row)
        previous = stored if stored is not None else previous
        prev_id = ident
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
