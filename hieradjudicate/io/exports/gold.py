"""Export the adjudicated gold standard (Senseval key, CSV, JSON Lines) and the history (CSV).

Every export is deterministic (sorted by lexelt, then instance in natural
order: ``x.2`` before ``x.10``; LF line ends; UTF-8 without BOM), written to
a temporary file and renamed into place so a failed export never leaves half
a file, and CSV cells are neutralised against spreadsheet formulas.
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
from hieradjudicate.io.store.records import DecisionRow

FORMATS = ("senseval", "wsdeval", "csv", "jsonl")
GOLD_COLUMNS = ("lexelt", "instance", "tags", "status", "source", "decided_by", "decided_at",
                "note")
HISTORY_COLUMNS = ("id", "lexelt", "instance", "tags", "status", "source", "decided_by",
                   "decided_at", "note", "batch", "batch_label", "basis")
TAG_SEPARATOR = ";"  # inside one CSV cell, as the wide annotation tables use


@dataclass(frozen=True)
class ExportSummary:
    """What an export wrote and what it left out (and why)."""

    path: str
    format: str
    written: int
    resolved: int
    left_out: int
    left_out_by_status: dict[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        text = f"wrote {self.written} instance(s) to {self.path} ({self.format})"
        if self.left_out:
            why = ", ".join(f"{n} {s}" for s, n in sorted(self.left_out_by_status.items()))
            text += f"; left out {self.left_out} not resolved ({why})"
        return text


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
        status ``unresolved`` counts as no decision).
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
        rows.append((key, d if status != "unresolved" else None, status))
    if format == "senseval":
        text = _senseval(rows, str(path))
    elif format == "wsdeval":  # the WSD evaluation framework's key: instance_id key [key ...]
        text = "".join(line.split(" ", 1)[1] for line in _senseval(rows, str(path)).splitlines(True))
    elif format == "csv":
        text = _csv(GOLD_COLUMNS, (_gold_fields(k, d, s) for k, d, s in rows))
    else:
        text = "".join(json.dumps(_gold_json(k, d, s), ensure_ascii=False) + "\n"
                       for k, d, s in rows)
    write_text_atomic(path, text)
    return ExportSummary(str(path), format, len(rows), resolved, sum(left_out.values()),
                         dict(left_out))


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


def _gold_fields(key: tuple[str, str], d: DecisionLike | None, status: str) -> list[str]:
    if d is None:
        return [key[0], key[1], "", status, "", "", "", ""]
    return [key[0], key[1], TAG_SEPARATOR.join(d.tags), status, d.source, d.decided_by,
            d.decided_at, d.note]


def _gold_json(key: tuple[str, str], d: DecisionLike | None, status: str) -> dict[str, Any]:
    if d is None:
        return {"lexelt": key[0], "instance": key[1], "tags": [], "status": status,
                "source": None, "decided_by": None, "decided_at": None, "note": ""}
    return {"lexelt": key[0], "instance": key[1], "tags": list(d.tags), "status": status,
            "source": d.source, "decided_by": d.decided_by, "decided_at": d.decided_at,
            "note": d.note}


def export_history(rows: Iterable[DecisionRow], path: str | os.PathLike[str], *,
                   batch_labels: Mapping[int, str] | None = None) -> int:
    """Write every decision row (the audit trail) as CSV, oldest first; returns the row count."""
    labels = batch_labels or {}
    records = []
    for r in rows:
        records.append([str(r.id), r.lexelt, r.instance, TAG_SEPARATOR.join(r.tags), r.status,
                        r.source, r.decided_by, r.decided_at, r.note,
                        "" if r.batch is None else str(r.batch),
                        labels.get(r.batch, "") if r.batch is not None else "",
                        "" if r.basis is None else json.dumps(r.basis, sort_keys=True,
                                                              ensure_ascii=False)])
    write_text_atomic(path, _csv(HISTORY_COLUMNS, records))
    return len(records)


def _csv(header: Sequence[str], records: Iterable[Sequence[str]]) -> str:
    return csv_line(header) + "".join(csv_line(rec) for rec in records)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write UTF-8 text (LF kept as is) through an exclusive temporary file renamed into place
    (see :func:`hieradjudicate.io.atomic.write_atomic`)."""
    target = Path(path)
    try:
        write_atomic(target, text)
    except OSError as exc:
        raise ProjectError(f"{target}: could not write the export ({exc.strerror or exc})") \
            from None
