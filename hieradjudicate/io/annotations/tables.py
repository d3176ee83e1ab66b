"""Annotation tables with a header: shared reading, column mapping and the long table.

Our fields are ``lexelt``, ``instance``, ``annotator``, ``tag``, ``weight``
(and ``labels`` for a packed ``annotator:tag,...`` column).  Header cells
are matched to fields by the ``columns`` mapping (field -> column name,
exact or case-insensitive) or, without one, by the common names in
:data:`SYNONYMS`.  Cells are stripped of surrounding whitespace; tags are
otherwise kept exactly.
"""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Iterator, Mapping
from typing import Any

from hieradjudicate.core.errors import FormatError, ProblemLog
from hieradjudicate.io.annotations.build import Parsed, TagTable, weight_problem
from hieradjudicate.io.annotations.times import date_seconds, nan_array

FIELDS = ("lexelt", "instance", "annotator", "tag", "weight", "labels", "time")
SYNONYMS: dict[str, tuple[str, ...]] = {
    "lexelt": ("lexelt", "lemma", "word", "word_pos", "target", "lexical_item"),
    "instance": ("instance", "instance_id", "item", "item_id", "id"),
    "annotator": ("annotator", "annotator_id", "coder", "worker", "worker_id", "rater", "set", "system"),
    "tag": ("tag", "tags", "sense", "senses", "sense_id", "label", "selected_sense_keys"),
    "weight": ("weight", "score", "probability", "confidence"),
    "time": ("time", "date", "timestamp", "created_at", "annotated_at"),  # when the answer was made (long tables)
}
WSBEST = {"lexelt": "lemma", "instance": "item_id", "annotator": "annotator_id", "tag": "selected_sense_keys"}
MASC_COLUMNS = ("word_pos", "form_id", "sentence_id", "labels")
_SEPARATORS = (",", ";", "|")
csv.field_size_limit(min(sys.maxsize, 2**31 - 1))


def first_line(text: str) -> str:
    """The first non-blank line of ``text``."""
    return first_line_at(text)[1]


def first_line_at(text: str) -> tuple[int, str]:
    """The 1-based number and the text of the first non-blank line (scans at most 1000 lines)."""
    for i, line in enumerate(text.split("\n", 1000)[:1000]):
        if line.strip():
            return i + 1, line
    return 1, ""


def guess_separator(line: str) -> str | None:
    """A tab if the line has one, else the commonest of ``, ; |``; ``None`` when none occurs."""
    if "\t" in line:
        return "\t"
    best = max(_SEPARATORS, key=line.count)
    return best if line.count(best) else None


def _reader(text: str, sep: str) -> Any:
    """A ``csv.reader`` (tab-separated files take no quotes, as TSV writers emit none)."""
    if sep == "\t":
        return csv.reader(io.StringIO(text), delimiter=sep, quoting=csv.QUOTE_NONE, strict=False)
    return csv.reader(io.StringIO(text), delimiter=sep, quoting=csv.QUOTE_MINIMAL, strict=False)


def split_header(line: str, sep: str) -> list[str]:
    """The cells of a header line."""
    try:
        return next(iter(_reader(line, sep)), [])
    except csv.Error:
        return line.split(sep)


def resolve_columns(header: list[str], columns: Mapping[str, str] | None) -> dict[str, int]:
    """Map our fields to header positions: the ``columns`` mapping first, then :data:`SYNONYMS`.

    Raises :class:`KeyError` naming a mapped column the header lacks.
    """
    norm = [h.strip().lower() for h in header]
    found: dict[str, int] = {}
    for fld, col in (columns or {}).items():
        if col in header:
            found[fld] = header.index(col)
        elif col.strip().lower() in norm:
            found[fld] = norm.index(col.strip().lower())
        else:
            raise KeyError(f"column {col!r} (given for {fld!r}) is not in the header {header}")
    if columns:
        return found
    taken: set[int] = set()
    for fld, names in SYNONYMS.items():
        for n in names:
            if n in norm and norm.index(n) not in taken:
                found[fld] = norm.index(n)
                taken.add(found[fld])
                break
    return found


def header_kind(header: list[str], columns: Mapping[str, str] | None) -> str | None:
    """Which table a header announces, or ``None`` when it is not a known header."""
    norm = {h.strip().lower() for h in header}
    if not columns:
        if set(WSBEST.values()) <= norm:
            return "wsbest"
        if set(MASC_COLUMNS) <= norm:
            return "masc"
    try:
        fields = resolve_columns(header, columns)
    except KeyError:
        return None
    if "labels" in fields:
        return "wide-table"
    if {"instance", "annotator", "tag"} <= fields.keys():
        return "long-table"
    if {"lexelt", "instance"} <= fields.keys() and len(header) > 2:
        return "wide-table"
    return None


def read_table(
    text: str, sep: str | None, columns: Mapping[str, str] | None, required: tuple[str, ...],
    log: ProblemLog, fixed: Mapping[str, str] | None = None,
) -> tuple[list[str], dict[str, int], Iterator[tuple[int, list[str]]]]:
    """Header, field positions and an iterator of (line number, cells) of the data rows.

    Raises :class:`FormatError` when the header lacks a required field.
    """
    header_line, line = first_line_at(text)
    sep = sep or guess_separator(line) or ","
    header = split_header(line, sep)
    try:
        fields = resolve_columns(header, fixed or columns)
    except KeyError as exc:
        raise log.fail(header_line, str(exc.args[0])) from None
    missing = [f for f in required if f not in fields]
    if missing:
        raise log.fail(header_line, f"header {header} lacks the column(s) for {', '.join(missing)}; "
                       f"expected columns {', '.join(required)}: rename its columns, or map them on the "
                       "new-project wizard's column mapping page")

    def rows() -> Iterator[tuple[int, list[str]]]:
        reader = _reader(text, sep)
        last = 0
        try:
            for row in reader:
                start, last = last + 1, reader.line_num
                if start <= header_line or not any(c.strip() for c in row):
                    continue
                yield start, row
        except csv.Error as exc:
            log.error(last + 1, f"unreadable table row ({exc}); expected delimited text")
            raise FormatError(log.errors) from None

    return header, fields, rows()


def cell(row: list[str], i: int) -> str:
    """The stripped cell ``i`` of ``row`` ('' when the row is short)."""
    return row[i].strip() if i < len(row) else ""


def parse_long(text: str, fmt: str, columns: Mapping[str, str] | None, sep: str | None, log: ProblemLog) -> Parsed:
    """Long table: one row per label (or per answer when tags are joined by ``;``)."""
    required = ("lexelt", "instance", "annotator", "tag")
    header, fields, rows = read_table(text, sep, columns, required, log, WSBEST if fmt == "wsbest" else None)
    weight_col = fields.get("weight")
    split_tags = fmt == "wsbest" or weight_col is None
    sets, tags = TagTable(), TagTable()
    lexelts: list[str] = []
    instances: list[str] = []
    unit_set: list[int] = []
    unit_line: list[int] = []
    label_unit: list[int] = []
    label_tag: list[int] = []
    label_weight: list[float] = []
    time_col = fields.get("time")
    unit_time: list[float] = []
    for lineno, row in rows:
        if len(row) != len(header):
            log.error(lineno, f"found {len(row)} field(s); expected {len(header)} as in the header {header}")
            continue
        values = {f: cell(row, i) for f, i in fields.items()}
        empty = [f for f in required if not values[f]]
        if empty:
            names = ", ".join(f"{f} (column {fields[f] + 1} {header[fields[f]]!r})" for f in empty)
            log.error(lineno, f"empty {names}; expected a value")
            continue
        weight = float("nan")
        if weight_col is not None and values["weight"]:
            problem = weight_problem(values["weight"])
            if problem is not None:
                log.error(lineno, f"{problem} (column {weight_col + 1} {header[weight_col]!r})")
                continue
            weight = float(values["weight"])
        row_tags = [t.strip() for t in values["tag"].split(";")] if split_tags else [values["tag"]]
        row_tags = [t for t in row_tags if t]
        if not row_tags:
            log.error(lineno, f"no tag in {values['tag']!r}; expected tags separated by ';'")
            continue
        if time_col is not None:  # a column of the table: a date it cannot read is an error, as a weight
            try:
                unit_time.append(date_seconds(values["time"]))
            except ValueError as exc:
                log.error(lineno, f"{exc} (column {time_col + 1} {header[time_col]!r})")
                continue
        unit = len(unit_line)
        lexelts.append(values["lexelt"])
        instances.append(values["instance"])
        unit_set.append(sets.code(values["annotator"]))
        unit_line.append(lineno)
        label_unit.extend([unit] * len(row_tags))
        label_tag.extend(tags.code(t) for t in row_tags)
        label_weight.extend([weight] * len(row_tags))
    p = Parsed.from_rows(lexelts, instances, unit_set, unit_line, label_unit, label_tag, label_weight,
                         sets.names, tags.names)
    p.unit_time = nan_array(unit_time if time_col is not None else None, len(unit_line))
    return p
