"""Export the adjudicated gold standard (Senseval key, CSV, JSON Lines) and the history (CSV).

Every export is deterministic (sorted by lexelt, then instance in natural
order: ``x.2`` before ``x.10``; LF line ends; UTF-8 without BOM), written to
a temporary file and renamed into place so a failed export never leaves half
a file, and CSV cells are neutralised against spreadsheet formulas.

Control characters other than TAB, LF and CR (NUL, BEL, ESC, DEL...) are refused when a
decision is recorded, but projects made by older versions may hold them in a note: the CSV and
JSON Lines exports write each as its visible Unicode symbol (U+2400 + code, ``\x07`` as ``␇``,
DEL as ``␡``), never raw, and the summary names the decisions concerned, so that the file opens
cleanly and imports back (``project import-decisions`` refuses raw control characters).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.atomic import write_atomic
from hieradjudicate.io.exports.csvsafe import csv_line
from hieradjudicate.io.store.records import DecisionFields as DecisionLike
from hieradjudicate.io.store.records import CONTROL, DecisionRow

FORMATS = ("senseval", "wsdeval", "csv", "jsonl")
GOLD_COLUMNS = ("lexelt", "instance", "tags", "status", "source", "decided_by", "decided_at",
                "note")
HISTORY_COLUMNS = ("id", "lexelt", "instance", "tags", "status", "source", "decided_by",
                   "decided_at", "note", "batch", "batch_label", "basis")
TAG_SEPARATOR = ";"  # inside one CSV cell, as the wide annotation tables use


#: how a status is named where an export says what it left out
_REASON = {"conflict": "in conflict (adjudicators differ; the lead decides)"}


@dataclass(frozen=True)
class ExportSummary:
    """What an export wrote and what it left out (and why)."""

    path: str
    format: str
    written: int
    resolved: int
    left_out: int
    left_out_by_status: dict[str, int] = field(default_factory=dict)
    #: decisions ("lexelt instance") whose stored text held control characters, written visibly
    escaped: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"wrote {self.written} instance(s) to {self.path} ({self.format})"
        if self.left_out:
            why = ", ".join(f"{n} {_REASON.get(s, s)}" for s, n in sorted(self.left_out_by_status.items()))
            text += f"; left out {self.left_out} not resolved ({why})"
        if self.escaped:
            text += "; " + escaped_text(self.escaped)
        return text


#: a control character (older versions stored some in notes) -> its visible Unicode symbol
VISIBLE_CONTROLS: dict[int, int | str] = ({c: 0x2400 + c for c in range(0x20) if c not in (9, 10, 13)}
                                          | {0x7F: 0x2421}
                                          | {c: f"<U+{c:04X}>" for c in range(0x80, 0xA0)})  # no symbol


def visible(fields: list[Any]) -> tuple[list[Any], bool]:
    """``fields`` (text, or lists of text) with every control character of :data:`CONTROL` as its
    symbol, and whether any was there."""
    if not CONTROL.search("\n".join(TAG_SEPARATOR.join(f) if isinstance(f, list) else f or ""
                                     for f in fields)):
        return fields, False
    return [[t.translate(VISIBLE_CONTROLS) for t in f] if isinstance(f, list)
            else f.translate(VISIBLE_CONTROLS) if isinstance(f, str) else f for f in fields], True


def escaped_text(names: Sequence[str]) -> str:
    """What the summary says of the decisions whose control characters were written visibly."""
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return (f"{len(names)} decision(s) held control characters (stored by an older version), "
            f"written as visible symbols such as \u2407 for 0x07, not raw: {shown}")


def natural_key(text: str) -> tuple[Any, ...]:
    """Sort key that orders digit runs by value (``x.2`` < ``x.10``), ties broken by the text."""
    parts = re.split(r"(\d+)", text)
    return (tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts if p), text)


def _sort_key(key: tuple[str, str]) -> tuple[Any, ...]:
    return (natural_key(key[0]), natural_key(key[1]))


def export_gold(decisions: Iterable[DecisionLike], instances: Iterable[tuple[str, str]] | None,
                path: str | os.PathLike[str], *, format: str,
                include_unresolved: bool = False) -> ExportSummary:
    """Write the gold standard.

    Parameters
    ----------
    decisions : the current decision per instance (for several of one instance, the last wins;
        status ``unresolved`` counts as no decision; its note, if any, is exported with it).
    instances : every ``(lexelt, instance)`` of the project, so that instances without a
        decision are counted (and exported when asked); ``None`` = only the decided ones.
    path : output file (replaced atomically).
    format : ``"senseval"`` (``lexelt instance tag tag...``, resolved only), ``"wsdeval"`` (the WSD
        evaluation framework's ``instance key key...``, resolved only), ``"csv"`` or
        ``"jsonl"`` (with provenance columns).
    include_unresolved : export instances that are not resolved (flagged, skipped, undecided)
        with their status instead of leaving them out (CSV and JSON Lines only).

    Returns
    -------
    ExportSummary
        Counts written and left out, per status.
    """
    if format not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, not {format!r}")
    if format in ("senseval", "wsdeval") and include_unresolved:
        kind = "Senseval key" if format == "senseval" else "WSD evaluation framework key"
        raise ValueError(f"a {kind} cannot hold unresolved instances; export CSV or JSON "
                         "Lines to include them")
    current: dict[tuple[str, str], DecisionLike] = {}
    for given in decisions:
        current[(given.lexelt, given.instance)] = given
    keys = set(current)
    if instances is not None:
        keys.update((str(a), str(b)) for a, b in instances)
    rows: list[tuple[tuple[str, str], DecisionLike | None, str]] = []
    left_out: Counter[str] = Counter()
    resolved = 0
    for key in sorted(keys, key=_sort_key):
        d = current.get(key)
        status = "unresolved" if d is None else d.status
        if status == "resolved":
            resolved += 1
        elif not include_unresolved:
            left_out[status] += 1
            continue
        rows.append((key, d if status != "unresolved" or (d is not None and d.note) else None, status))
    if format == "senseval":
        text = _senseval(rows, str(path))
    elif format == "wsdeval":  # the WSD evaluation framework's key: instance_id key [key ...]
        text = "".join(line.split(" ", 1)[1] for line in _senseval(rows, str(path)).splitlines(True))
    escaped: list[str] = []
    if format in ("csv", "jsonl"):
        records = []
        for k, d, s in rows:
            fields, changed = visible(_gold_fields(k, d, s))
            if changed:
                escaped.append(f"{k[0]} {k[1]}")
            records.append(fields)
        if format == "csv":
            text = _csv(GOLD_COLUMNS, records)
        else:
            text = "".join(json.dumps(_gold_json(f), ensure_ascii=False) + "\n" for f in records)
    write_text_atomic(path, text)
    return ExportSummary(str(path), format, len(rows), resolved, sum(left_out.values()),
                         dict(left_out), tuple(escaped))


def _senseval(rows: list[tuple[tuple[str, str], DecisionLike | None, str]], path: str) -> str:
    lines = []
    for (lexelt, instance), d, _status in rows:
        assert d is not None
        fields = [lexelt, instance, *d.tags]
        bad = [f for f in fields if not f or any(ch.isspace() for ch in f)]
        if bad:
            raise ProjectError(f"{path}: cannot write a Senseval key: {lexelt} {instance} has "
                               f"an empty value or one with spaces ({bad[0]!r})")
        lines.append(" ".join(fields) + "\n")
    return "".join(lines)


def _gold_fields(key: tuple[str, str], d: DecisionLike | None, status: str) -> list[Any]:
    """The CSV columns (:data:`GOLD_COLUMNS`); tags as a list, joined when written as CSV."""
    if d is None:
        return [key[0], key[1], [], status, None, None, None, ""]
    if status == "unresolved":  # no decision, but the lexicographer's note on the instance
        return [key[0], key[1], [], status, None, None, None, d.note]
    return [key[0], key[1], list(d.tags), status, d.source, d.decided_by, d.decided_at, d.note]


def _gold_json(fields: list[Any]) -> dict[str, Any]:
    return dict(zip(GOLD_COLUMNS, fields))


def export_history(rows: Iterable[DecisionRow], path: str | os.PathLike[str], *,
                   batch_labels: Mapping[int, str] | None = None,
                   escaped: list[str] | None = None) -> int:
    """Write every decision row (the audit trail) as CSV, oldest first; returns the row count.

    A row whose stored text holds control characters is written with visible symbols (see the
    module docstring); ``escaped``, when given, receives ``#ID (lexelt instance)`` of each."""
    labels = batch_labels or {}
    records = []
    for r in rows:
        fields, changed = visible([str(r.id), r.lexelt, r.instance, list(r.tags), r.status,
                                   r.source, r.decided_by, r.decided_at, r.note,
                                   "" if r.batch is None else str(r.batch),
                                   labels.get(r.batch, "") if r.batch is not None else "",
                                   "" if r.basis is None else json.dumps(r.basis, sort_keys=True,
                                                                         ensure_ascii=False)])
        if changed and escaped is not None:
            escaped.append(f"#{r.id} ({r.lexelt} {r.instance})")
        records.append(fields)
    write_text_atomic(path, _csv(HISTORY_COLUMNS, records))
    return len(records)


def _csv(header: Sequence[str], records: Iterable[Sequence[Any]]) -> str:
    return csv_line(header) + "".join(
        csv_line([TAG_SEPARATOR.join(v) if isinstance(v, list) else v for v in rec]) for rec in records)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write UTF-8 text (LF kept as is) through an exclusive temporary file renamed into place
    (see :func:`hieradjudicate.io.atomic.write_atomic`)."""
    target = Path(path)
    try:
        write_atomic(target, text)
    except OSError as exc:
        raise ProjectError(f"{target}: could not write the export ({exc.strerror or exc})") \
            from None
