"""Label Studio's JSON export (the full "JSON" export, a list of tasks) and Prodigy's JSONL.

Label Studio: ``[{"id": 7, "data": {...}, "annotations": [{"completed_by": 3, "result": [{"from_name":
"sense", "type": "choices", "value": {"choices": ["bank%1:14:00::"]}}]}], "predictions": [...]}]``.
One set per annotator (``completed_by``: an id, or a user object whose e-mail names the set;
``annotator-3`` otherwise); predictions form one set per ``model_version`` with the role
``system`` -- a model is never counted as an annotator unless the user says so (``columns``
``predictions=annotator``, or ``gold``; ``predictions=skip`` leaves them out), and a warning says
how many were read and as what.  ``choices`` results give tags; ``taxonomy`` results give paths, whose
last element is the tag (a path is the hierarchy's answer: the inventory decides its node).
Cancelled annotations (``was_cancelled``) are skipped and counted in a warning.  Each annotation's
``created_at`` (else ``updated_at``) and ``lead_time`` are kept (see :mod:`.times`); Prodigy's
``_timestamp`` too.  They are metadata the tool writes, optional: one that cannot be read is left
out with a warning naming the task (or line) and the answer is kept.

Prodigy: one task per line with ``options`` and ``accept`` (the ids chosen), ``answer``
(``accept``; ``reject``/``ignore`` are not sense answers: counted in a warning) and the
annotator in ``_annotator_id`` (else ``_session_id``; else the set name given to the reader).

Fields, for both (``columns``, stored with the project; the CLI's ``--json-fields``): ``lexelt``
and ``instance`` name keys of the task's ``data`` (Label Studio) or of the task / its ``meta``
(Prodigy); ``choice`` names the control (``from_name``) whose results hold the sense.  By
default the instance is ``data.instance`` / ``meta.instance``, else the task id (Label Studio) or
``_input_hash`` (Prodigy); the lexelt is ``lexelt``, else ``lemma`` (with ``.pos`` appended when
a ``pos`` is given); without either the reader lists the keys it found and asks.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any

from hieradjudicate.core.errors import FormatError, ProblemLog
from hieradjudicate.io import jsonsafe
from hieradjudicate.io.annotations.build import Parsed
from hieradjudicate.io.annotations.times import date_seconds, nan_array, seconds_problem
from hieradjudicate.io.annotations.sniffing import (  # noqa: F401 (their home before)
    PRODIGY_KEYS,
    looks_like_labelstudio,
    looks_like_prodigy,
)

LS_RESULT_TYPES = ("choices", "taxonomy")
PREDICTION_ROLES = ("system", "annotator", "gold", "skip")  # what model predictions can be read as


class _Rows:
    """Collects units (one answer of one set for one instance) and their labels."""

    def __init__(self) -> None:
        self.lexelts: list[str] = []
        self.instances: list[str] = []
        self.unit_set: list[int] = []
        self.unit_line: list[int] = []
        self.label_unit: list[int] = []
        self.label_tag: list[int] = []
        self.sets: dict[str, int] = {}
        self.tags: dict[str, int] = {}
        self.seen: set[tuple[int, str, str]] = set()
        self.unit_time: list[float] = []
        self.unit_lead: list[float] = []

    def add(self, set_name: str, lexelt: str, instance: str, tags: Iterable[str], line: int,
            log: ProblemLog, where: str, time: float = math.nan, lead: float = math.nan) -> None:
        k = self.sets.setdefault(set_name, len(self.sets))
        tags = [t for t in dict.fromkeys(t.strip() for t in tags) if t]
        if not tags:
            log.warning(line or None, f"{where}: no sense chosen; not an answer")
            return
        if (k, lexelt, instance) in self.seen:
            log.warning(line or None, f"{where}: a second answer of {set_name} for {instance}; "
                        "the first is kept")
            return
        self.seen.add((k, lexelt, instance))
        u = len(self.unit_line)
        self.lexelts.append(lexelt)
        self.instances.append(instance)
        self.unit_set.append(k)
        self.unit_line.append(line)
        self.unit_time.append(time)
        self.unit_lead.append(lead)
        for t in tags:
            self.label_unit.append(u)
            self.label_tag.append(self.tags.setdefault(t, len(self.tags)))

    def parsed(self) -> Parsed:
        p = Parsed.from_rows(self.lexelts, self.instances, self.unit_set, self.unit_line,
                             self.label_unit, self.label_tag, [math.nan] * len(self.label_tag),
                             list(self.sets), list(self.tags))
        p.unit_time = nan_array(self.unit_time, len(self.unit_line))
        p.unit_lead = nan_array(self.unit_lead, len(self.unit_line))
        return p


def _when(obj: Mapping[str, Any], keys: tuple[str, ...], log: ProblemLog, line: int | None,
          where: str) -> float:
    """The first of ``keys`` that holds a date, as UTC seconds (NaN when none does).  The dates are
    optional metadata the tool writes: a malformed one is left out with a warning (the answer itself
    is sound and is kept; a timeline without that date is still right about the others)."""
    for k in keys:
        if obj.get(k) is None:
            continue
        try:
            t = date_seconds(obj[k])
        except ValueError as exc:
            log.warning(line, f"{where}: {k}: {exc}; the date is left out (the answer is kept)")
            continue
        if not math.isnan(t):
            return t
    return math.nan


def _lead(a: Mapping[str, Any], log: ProblemLog, where: str) -> float:
    problem = seconds_problem(a.get("lead_time"))
    if problem is not None:
        log.warning(None, f"{where}: {problem}; left out (the answer is kept)")
        return math.nan
    return math.nan if a.get("lead_time") is None else float(a["lead_time"])


def _text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return value.strip() or None
    return None


def _key(fields: Mapping[str, Any], columns: Mapping[str, str], what: str, fallback: str | None,
         where: str, path: str) -> str:
    if what in columns:
        v = _text(fields.get(columns[what]))
        if v is None:
            raise FormatError(f"{where}: no value for {columns[what]!r} (the {what} field)", file=path)
        return v
    if what == "lexelt":
        v = _text(fields.get("lexelt"))
        if v is None and _text(fields.get("lemma")):
            pos = _text(fields.get("pos"))
            v = f"{_text(fields['lemma'])}.{pos}" if pos else _text(fields["lemma"])
        if v is None:
            keys = ", ".join(sorted(str(k) for k in fields)[:20]) or "none"
            raise FormatError(f"{where}: which field holds the lexelt (the word annotated)? give "
                              f"--json-fields lexelt=KEY (keys found: {keys})", file=path)
        return v
    v = _text(fields.get("instance"))
    return v or (fallback or "")


# ------------------------------------------------------------------ Label Studio
def parse_labelstudio(text: str, log: ProblemLog, columns: Mapping[str, str] | None = None) -> Parsed:
    columns = dict(columns or {})
    path = log.file
    try:
        tasks = jsonsafe.loads(text)
    except json.JSONDecodeError as exc:
        raise log.fail(exc.lineno, f"not valid JSON ({exc.msg}); expected Label Studio's JSON export "
                       "(a list of tasks)", exc.colno) from None
    if not isinstance(tasks, list):
        raise log.fail(1, "expected Label Studio's JSON export: a list of tasks (JSON-MIN and CSV "
                       "exports hold no annotator; export as JSON)")
    rows = _Rows()
    cancelled = 0
    pred_role = columns.get("predictions", "system")
    if pred_role not in PREDICTION_ROLES:
        raise log.fail(None, f"predictions={pred_role!r}: expected one of {', '.join(PREDICTION_ROLES)} "
                       "(what Label Studio's model predictions count as)")
    models: dict[str, int] = {}  # prediction set -> predictions read (or skipped)
    for n, task in enumerate(tasks, start=1):
        where = f"task {n}" + (f" (id {task.get('id')})" if isinstance(task, dict) and "id" in task else "")
        if not isinstance(task, dict) or not isinstance(task.get("data", {}), dict):
            log.error(None, f"{where}: expected an object with 'data' and 'annotations'")
            continue
        data = task.get("data", {})
        lexelt = _key(data, columns, "lexelt", None, where, path)
        instance = _key(data, columns, "instance", _text(task.get("id")) or str(n), where, path)
        for kind, items in (("annotations", task.get("annotations") or []),
                            ("predictions", task.get("predictions") or [])):
            if not isinstance(items, list):
                log.error(None, f"{where}: '{kind}' must be a list")
                continue
            for a in items:
                if not isinstance(a, dict):
                    log.error(None, f"{where}: an entry of '{kind}' is not an object")
                    continue
                if a.get("was_cancelled"):
                    cancelled += 1
                    continue
                name = _ls_set_name(a, kind)
                if kind == "predictions":
                    models[name] = models.get(name, 0) + 1
                    if pred_role == "skip":
                        continue
                tags = _ls_tags(a.get("result") or [], columns.get("choice"), log, where)
                if tags is not None:
                    at = f"{where}, {name}"
                    rows.add(name, lexelt, instance, tags, 0, log, at,
                             _when(a, ("created_at", "updated_at"), log, None, at), _lead(a, log, at))
    if cancelled:
        log.warning(None, f"{cancelled} cancelled annotation(s) skipped (was_cancelled)")
    parsed = rows.parsed()
    if models:
        which = ", ".join(f"{m!r} ({k})" for m, k in models.items())
        if pred_role == "skip":
            log.warning(None, f"model predictions left out (predictions=skip): {which}")
        else:
            parsed.set_roles = {m: pred_role for m in models}
            hint = ("" if pred_role != "system" else
                    "; --json-fields predictions=annotator counts them as annotators")
            log.warning(None, f"model predictions read as {pred_role} set(s), one per model_version: "
                        f"{which}{hint}")
    return parsed


def _ls_set_name(a: Mapping[str, Any], kind: str) -> str:
    if kind == "predictions":
        return str(a.get("model_version") or "predictions")
    who = a.get("completed_by")
    if isinstance(who, dict):
        return str(who.get("email") or who.get("username") or f"annotator-{who.get('id')}")
    return f"annotator-{who}" if who is not None else "annotator"


def _ls_tags(results: Any, control: str | None, log: ProblemLog, where: str) -> list[str] | None:
    if not isinstance(results, list):
        log.error(None, f"{where}: 'result' must be a list")
        return None
    tags: list[str] = []
    for r in results:
        if not isinstance(r, dict) or r.get("type") not in LS_RESULT_TYPES:
            continue
        if control is not None and r.get("from_name") != control:
            continue
        value = r.get("value") or {}
        if r["type"] == "choices":
            got = value.get("choices")
            if not isinstance(got, list) or not all(isinstance(c, str) for c in got):
                log.error(None, f"{where}: 'choices' must be a list of strings")
                return None
            tags.extend(got)
        else:
            paths = value.get("taxonomy")
            if not isinstance(paths, list) or not all(isinstance(p, list) and p for p in paths):
                log.error(None, f"{where}: 'taxonomy' must be a list of non-empty paths")
                return None
            tags.extend(str(p[-1]) for p in paths)
    return tags


# ------------------------------------------------------------------ Prodigy
def parse_prodigy(text: str, set_name: str, log: ProblemLog, columns: Mapping[str, str] | None = None) -> Parsed:
    columns = dict(columns or {})
    rows = _Rows()
    not_accepted: dict[str, int] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            task = jsonsafe.loads(line)
        except json.JSONDecodeError as exc:
            log.error(lineno, f"not valid JSON ({exc.msg}); expected one Prodigy task per line", exc.colno)
            continue
        if not isinstance(task, dict):
            log.error(lineno, "expected a JSON object (a Prodigy task)")
            continue
        answer = task.get("answer", "accept")
        if answer != "accept":
            not_accepted[str(answer)] = not_accepted.get(str(answer), 0) + 1
            continue
        fields = {**(task.get("meta") or {}), **task} if isinstance(task.get("meta"), dict) else task
        where = f"line {lineno}"
        try:
            lexelt = _key(fields, columns, "lexelt", None, where, log.file)
        except FormatError as exc:
            log.error(lineno, exc.problems[0].message)
            continue
        instance = _key(fields, columns, "instance", _text(task.get("_input_hash")), where, log.file)
        if not instance:
            log.error(lineno, "no instance: give meta.instance, an _input_hash, or --json-fields instance=KEY")
            continue
        accept = task.get("accept")
        if not isinstance(accept, list) or not all(isinstance(a, (str, int)) and not isinstance(a, bool)
                                                   for a in accept):
            log.error(lineno, "'accept' must be a list of option ids (the senses chosen)")
            continue
        who = _text(task.get("_annotator_id")) or _text(task.get("_session_id")) or set_name
        rows.add(who, lexelt, instance, [str(a) for a in accept], lineno, log, where,
                 _when(task, ("_timestamp",), log, lineno, where))
    for answer, n in sorted(not_accepted.items()):
        log.warning(None, f"{n} task(s) answered {answer!r} skipped (only 'accept' answers choose senses)")
    return rows.parsed()


def field_candidates(text: str, limit: int = 500) -> list[str]:
    """Keys a lexelt or instance can come from (task ``data`` / ``meta`` keys) and the controls
    (``from_name``) results use, from the first ``limit`` tasks: the wizard's mapping step."""
    keys: dict[str, None] = {}
    controls: dict[str, None] = {}
    try:
        tasks = jsonsafe.loads(text) if text.lstrip().startswith("[") else \
            [jsonsafe.loads(line) for line in text.splitlines()[:limit] if line.strip()]
    except ValueError:
        return []
    for task in tasks[:limit] if isinstance(tasks, list) else []:
        if not isinstance(task, dict):
            continue
        for part in (task.get("data"), task.get("meta"), task):
            if isinstance(part, dict):
                keys.update((str(k), None) for k, v in part.items()
                            if isinstance(v, (str, int)) and not isinstance(v, bool))
        for a in (task.get("annotations") or []) if isinstance(task.get("annotations"), list) else []:
            for r in (a.get("result") or []) if isinstance(a, dict) else []:
                if isinstance(r, dict) and isinstance(r.get("from_name"), str):
                    controls[r["from_name"]] = None
    return sorted(keys) + [f"control: {c}" for c in controls]
