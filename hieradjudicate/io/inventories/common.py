"""Helpers shared by the inventory and context readers.

Tree validation (duplicates, unknown parents, cycles, branching factors),
number parsing with user-facing messages, part of speech from a lexelt
name, and a tolerant delimited-table reader that keeps line numbers.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections import defaultdict
from collections.abc import Iterator

from hieradjudicate.core.errors import FormatError, Problem, ProblemLog
from hieradjudicate.core.records import SenseRecord

_POS_SUFFIX = re.compile(r"[.\-_#]([nvarsj])$", re.IGNORECASE)
_POS_NORMAL = {"n": "n", "v": "v", "a": "a", "r": "r", "s": "a", "j": "a"}

csv.field_size_limit(2**31 - 1)


def pos_of(lexelt: str | None) -> str | None:
    """Return the part of speech a lexelt name carries (``interest.n`` -> ``n``), or None."""
    if not lexelt:
        return None
    m = _POS_SUFFIX.search(lexelt)
    return _POS_NORMAL[m.group(1).lower()] if m else None


def lexelt_pos_map(senses: list[SenseRecord]) -> dict[str, str]:
    """Map each lexelt whose name ends in a part-of-speech suffix to that part of speech."""
    out: dict[str, str] = {}
    for rec in senses:
        if rec.lexelt is not None and rec.lexelt not in out:
            pos = pos_of(rec.lexelt)
            if pos is not None:
                out[rec.lexelt] = pos
    return out


MAX_INT_DIGITS = 9


def shorten(value: str, limit: int = 40) -> str:
    """``repr`` of a value quoted in a message, cut to ``limit`` characters."""
    return repr(value if len(value) <= limit else value[:limit] + "...")


def to_int(text: str) -> int | None:
    """Parse a decimal integer of at most ``MAX_INT_DIGITS`` digits (sign allowed), else None.

    Python refuses to convert strings of more than 4,300 digits; such values
    are absurd as factors or offsets anyway, so they are refused here first.
    """
    m = re.fullmatch(r"\s*([+-]?)0*(\d+)\s*", text)
    if m is None or len(m.group(2)) > MAX_INT_DIGITS:
        return None
    return int(m.group(1) + m.group(2))


def parse_weight(text: str) -> tuple[float | None, str | None]:
    """Parse a downward weight; return ``(value, None)`` or ``(None, message)``."""
    s = text.strip()
    if not s:
        return None, None
    try:
        value = float(s)
    except ValueError:
        return None, f"weight {shorten(s)} is not a number; expected a positive finite number"
    if not math.isfinite(value) or value <= 0:
        return None, f"weight {shorten(s)} is not allowed; expected a positive finite number"
    return value, None


def parse_branching(text: str) -> tuple[int | None, str | None]:
    """Parse a branching factor; return ``(value, None)`` or ``(None, message)``."""
    s = text.strip()
    if not s:
        return None, None
    if not re.fullmatch(r"[+-]?\d+", s):
        return None, f"branching factor {shorten(s)} is not an integer; expected a positive integer"
    value = to_int(s)
    if value is None:
        return None, (f"branching factor {shorten(s)} is too large; expected a positive integer "
                      f"of at most {MAX_INT_DIGITS} digits")
    if value <= 0:
        return None, f"branching factor {shorten(s)} is not positive; expected a positive integer"
    return value, None


def validate_tree(senses: list[SenseRecord], log: ProblemLog) -> tuple[list[SenseRecord], int]:
    """Check that the records form a forest per lexelt.

    Reports duplicate ids (the first statement wins), parents that do not
    exist, cycles and branching factors smaller than the number of listed
    children, each as an error naming the line.

    Returns
    -------
    kept : list of SenseRecord
        The records without duplicates.
    n_structural : int
        How many structural errors were found (the caller raises
        :class:`InventoryError` when it is not zero).
    """
    n_bad = 0
    first: dict[tuple[str | None, str], SenseRecord] = {}
    kept: list[SenseRecord] = []
    for rec in senses:
        key = (rec.lexelt, rec.sense)
        if key in first:
            n_bad += 1
            where = first[key].line
            log.error(
                rec.line,
                f"duplicate sense id {rec.sense!r} in lexelt {rec.lexelt!r}"
                + (f" (first defined at line {where})" if where else "")
                + "; expected each id once per lexelt",
                skipped=False,
            )
            continue
        first[key] = rec
        kept.append(rec)
    children: dict[tuple[str | None, str], int] = defaultdict(int)
    for rec in kept:
        if rec.parent is None:
            continue
        if (rec.lexelt, rec.parent) not in first:
            n_bad += 1
            log.error(
                rec.line,
                f"parent {rec.parent!r} of sense {rec.sense!r} does not exist in lexelt "
                f"{rec.lexelt!r}; expected the id of a sense defined in the file",
                skipped=False,
            )
            continue
        children[(rec.lexelt, rec.parent)] += 1
    n_bad += _report_cycles(kept, first, log)
    for rec in kept:
        k = children.get((rec.lexelt, rec.sense), 0)
        if rec.branching is not None and rec.branching < k:
            n_bad += 1
            log.error(
                rec.line,
                f"branching factor {rec.branching} of sense {rec.sense!r} is smaller than its "
                f"{k} listed children; expected at least {k}",
                skipped=False,
            )
    return kept, n_bad


def _report_cycles(
    kept: list[SenseRecord], index: dict[tuple[str | None, str], SenseRecord], log: ProblemLog
) -> int:
    """Report every cycle of the parent relation once; return how many were found."""
    state: dict[tuple[str | None, str], int] = {}  # 1 = on the current path, 2 = done
    n = 0
    for rec in kept:
        start = (rec.lexelt, rec.sense)
        if start in state:
            continue
        path: list[tuple[str | None, str]] = []
        node: tuple[str | None, str] | None = start
        while node is not None and node in index and node not in state:
            state[node] = 1
            path.append(node)
            parent = index[node].parent
            node = (node[0], parent) if parent is not None else None
        if node is not None and state.get(node) == 1:
            cyc = path[path.index(node):]
            names = " -> ".join(s for _, s in cyc) + f" -> {node[1]}"
            n += 1
            log.error(
                index[node].line,
                f"cycle in lexelt {node[0]!r}: {names}; expected a tree (no sense may be its "
                "own ancestor)",
                skipped=False,
            )
        for p in path:
            state[p] = 2
    return n


def sniff_delimiter(header: str) -> str:
    """Return the delimiter of a header line: tab, comma or semicolon."""
    if "\t" in header:
        return "\t"
    if header.count(";") > header.count(","):
        return ";"
    if "," in header:
        return ","
    return "\t"


def read_delimited(
    text: str, log: ProblemLog
) -> tuple[list[str], Iterator[tuple[int, list[str]]], str]:
    """Split a TSV/CSV text into a header and rows with their 1-based line numbers.

    Blank rows are ignored.  A CSV syntax problem stops reading at that
    line (it is reported).  The rows are a generator, read once: a file of
    millions of rows is never held as a list of lists (memory follows what the
    caller keeps, not the file's size).

    Returns
    -------
    header, rows, delimiter
    """
    pos, start = 0, 0  # skip leading blank lines without splitting the whole text
    while True:
        nl = text.find("\n", pos)
        if text[pos: nl if nl >= 0 else len(text)].strip():
            break
        if nl < 0:
            raise FormatError("no header line found; expected a header naming the columns",
                              file=log.file)
        pos, start = nl + 1, start + 1
    end = text.find("\n", pos)
    delim = sniff_delimiter(text[pos: end if end >= 0 else len(text)])
    reader = csv.reader(io.StringIO(text[pos:]), delimiter=delim)
    try:
        header = [h.strip() for h in next(reader)]
    except (StopIteration, csv.Error) as exc:
        if isinstance(exc, csv.Error):
            log.error(start + 1, f"cannot split the line into fields ({exc}); expected delimited "
                      "fields with balanced quotes; the rest of the file was not read")
        raise FormatError(log.errors or [Problem(log.file, start + 1, "no header line found; "
                                                 "expected a header naming the columns")]) from None
    return header, _rows(reader, start, log), delim


def _rows(reader, start: int, log: ProblemLog) -> Iterator[tuple[int, list[str]]]:
    """The data rows of :func:`read_delimited`, with their first line numbers."""
    prev_end = reader.line_num
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            log.error(prev_end + start + 1, f"cannot split the line into fields ({exc}); "
                      "expected delimited fields with balanced quotes; the rest of the file was "
                      "not read")
            return
        line_no = prev_end + start + 1
        prev_end = reader.line_num
        last = prev_end + start
        if last > line_no:
            # Legitimate for quoted multi-line cells, but an unbalanced quote
            # swallows the following rows this way, so the user is told.
            log.warning(line_no, f"the row starting here runs to line {last} (a quoted field holds "
                        "line breaks); if that is not intended, look for an unbalanced quote")
        if not any(cell.strip() for cell in row):
            continue
        yield line_no, row


def resolve_columns(
    header: list[str],
    *,
    fields: dict[str, tuple[str, ...]],
    required: tuple[str, ...],
    columns: dict[str, str] | None,
    log: ProblemLog,
    header_line: int = 1,
    mapping: str = "a column mapping",
) -> dict[str, int]:
    """Map our field names to column indices of ``header``.

    Parameters
    ----------
    fields : dict
        For each field we know, the column names it is found under by default
        (first match wins, compared without case).
    required : tuple of str
        Fields that must be present.
    columns : dict or None
        The user's explicit mapping ``{field: column name}``; it overrides
        the defaults for the fields it names.
    mapping : str
        How the user gives such a mapping, for the message about missing columns.
    """
    lower = {h.lower(): i for i, h in reversed(list(enumerate(header)))}
    have = ", ".join(repr(h) for h in header) or "(none)"
    out: dict[str, int] = {}
    if columns:
        for fld, col in columns.items():
            if fld not in fields:
                raise FormatError(
                    f"unknown field {fld!r} in the column mapping; expected one of "
                    + ", ".join(fields), file=log.file, line=header_line)
            idx = lower.get(str(col).strip().lower())
            if idx is None:
                raise FormatError(
                    f"column {col!r} (mapped to {fld!r}) is not in the header; the file has "
                    f"columns {have}", file=log.file, line=header_line)
            out[fld] = idx
    for fld, names in fields.items():
        if fld in out:
            continue
        for name in names:
            if name.lower() in lower:
                out[fld] = lower[name.lower()]
                break
    missing = [f for f in required if f not in out]
    if missing:
        expected = ", ".join(required) + " (optional: " + ", ".join(
            f for f in fields if f not in required) + ")"
        raise FormatError(
            f"missing required column(s) {', '.join(repr(m) for m in missing)}; the file has "
            f"columns {have}; expected columns {expected}, or {mapping}",
            file=log.file, line=header_line)
    return out


def cell(row: list[str], idx: int | None) -> str:
    """Return the stripped cell ``idx`` of ``row``, or an empty string."""
    if idx is None or idx >= len(row):
        return ""
    return row[idx].strip()
