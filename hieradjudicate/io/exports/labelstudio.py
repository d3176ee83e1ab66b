"""The adjudicated gold back to Label Studio (its task import format) and Prodigy (JSONL tasks).

Both start from the project's stored copy of the tool's own file, so every task keeps its data,
text, options and hashes exactly: Label Studio tasks get the gold as their one annotation
(``ground_truth: true``, a ``choices`` result on the control the annotators used; predictions
and the annotators' annotations are left out, and the task's counts -- ``total_annotations``,
``cancelled_annotations``, ``total_predictions``, ``is_labeled``, where the source has them -- say
what the written file holds, not what the source held); Prodigy gets one task per instance (its first
line) with ``accept`` = the gold ids, ``answer: "accept"`` and ``_annotator_id: "gold"``.
Instances without a resolved decision are written without an answer (Label Studio: no
annotation; Prodigy: left out) and counted in the summary.  Written atomically.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from hieradjudicate.io.annotations.tools.labelstudio import _key, _text
from hieradjudicate.io.exports.gold import ExportSummary, write_text_atomic
from hieradjudicate.io.store.records import DecisionFields
from hieradjudicate.io.textfile import read_text


def _current(decisions: Iterable[DecisionFields]) -> dict[tuple[str, str], DecisionFields]:
    out: dict[tuple[str, str], DecisionFields] = {}
    for d in decisions:
        out[(d.lexelt, d.instance)] = d
    return out


def _summary(path: str, fmt: str, written: int, current: Mapping[Any, DecisionFields]) -> ExportSummary:
    left = Counter(d.status for d in current.values() if d.status != "resolved")
    resolved = sum(1 for d in current.values() if d.status == "resolved")
    return ExportSummary(path, fmt, written, resolved, sum(left.values()), dict(left))


def export_gold_labelstudio(decisions: Iterable[DecisionFields], source: str, path: str | os.PathLike[str],
                            *, columns: Mapping[str, str] | None = None) -> ExportSummary:
    columns = dict(columns or {})
    tasks = json.loads(read_text(source))
    current = _current(decisions)
    control, target = columns.get("choice"), None
    for task in tasks:  # the control and the object it labels, as the annotators' results name them
        for a in task.get("annotations") or []:
            for r in a.get("result") or []:
                if r.get("type") in ("choices", "taxonomy") and (control is None or r.get("from_name") == control):
                    control, target = control or r.get("from_name"), target or r.get("to_name")
    written = 0
    out = []
    for n, task in enumerate(tasks, start=1):
        data = task.get("data", {})
        key = (_key(data, columns, "lexelt", None, f"task {n}", source),
               _key(data, columns, "instance", _text(task.get("id")) or str(n), f"task {n}", source))
        d = current.get(key)
        new = {k: v for k, v in task.items() if k not in ("annotations", "predictions", "drafts")}
        gold = d is not None and d.status == "resolved"
        if gold:
            new["annotations"] = [{"ground_truth": True, "result": [
                {"from_name": control or "sense", "to_name": target or "text", "type": "choices",
                 "value": {"choices": list(d.tags)}}]}]
            written += 1
        held = {"total_annotations": int(gold), "cancelled_annotations": 0, "total_predictions": 0,
                "is_labeled": gold}
        new.update({k: v for k, v in held.items() if k in task})  # the source's counts, made true
        out.append(new)
    target_path = os.fspath(path)
    write_text_atomic(target_path, json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    return _summary(target_path, "labelstudio", written, current)


def export_gold_prodigy(decisions: Iterable[DecisionFields], source: str, path: str | os.PathLike[str],
                        *, columns: Mapping[str, str] | None = None) -> ExportSummary:
    columns = dict(columns or {})
    current = _current(decisions)
    seen: set[tuple[str, str]] = set()
    lines = []
    for lineno, line in enumerate(read_text(source).splitlines(), start=1):
        if not line.strip():
            continue
        task = json.loads(line)
        fields = {**(task.get("meta") or {}), **task} if isinstance(task.get("meta"), dict) else task
        key = (_key(fields, columns, "lexelt", None, f"line {lineno}", source),
               _key(fields, columns, "instance", _text(task.get("_input_hash")), f"line {lineno}", source))
        if key in seen:
            continue
        seen.add(key)
        d = current.get(key)
        if d is None or d.status != "resolved":
            continue
        new = {k: v for k, v in task.items() if k not in ("_session_id", "_timestamp", "_annotator_id")}
        new.update({"accept": list(d.tags), "answer": "accept", "_annotator_id": "gold"})
        lines.append(json.dumps(new, ensure_ascii=False) + "\n")
    target_path = os.fspath(path)
    write_text_atomic(target_path, "".join(lines))
    return _summary(target_path, "prodigy", len(lines), current)
