"""JSON Lines annotations: one object per line.

``{"lexelt": "art.n", "instance": "art.n.1", "set": "A", "tags": [{"tag": "1", "weight": 0.5}]}``

``set`` is optional (default: the set name given to the reader); ``weight``
is optional; ``tags`` may also be a list of strings.  Lexelt and instance
may be strings or integers.  Each line is one answer: a later line for the
same set and instance is a duplicate.
"""

from __future__ import annotations

import json
import math

from hieradjudicate.core.errors import ProblemLog
from hieradjudicate.io import jsonsafe
from hieradjudicate.io.annotations.build import Parsed, TagTable, number_problem

EXPECTED = 'expected {"lexelt": .., "instance": .., "set": .., "tags": [{"tag": .., "weight": ..}]}'


def _name(obj: dict, key: str) -> str | None:
    """A string field (integers accepted), stripped; ``None`` when absent or unusable."""
    value = obj.get(key)
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def _tags(value: object) -> tuple[list[tuple[str, float]], str | None]:
    """The (tag, weight) pairs of a ``tags`` value, or a problem."""
    if not isinstance(value, list) or not value:
        return [], f"'tags' must be a non-empty list; {EXPECTED}"
    out: list[tuple[str, float]] = []
    for k, entry in enumerate(value, start=1):
        weight = math.nan
        if isinstance(entry, dict):
            tag = entry.get("tag")
            if entry.get("weight") is not None:
                problem = number_problem(entry["weight"])
                if problem is not None:
                    return [], f"tag {k}: {problem}"
                weight = float(entry["weight"])
        else:
            tag = entry
        if isinstance(tag, int) and not isinstance(tag, bool):
            tag = str(tag)
        if not isinstance(tag, str) or not tag.strip():
            return [], f"tag {k} has no tag string; expected a string or {{\"tag\": .., \"weight\": ..}}"
        out.append((tag.strip(), weight))
    return out, None


def parse_jsonl(text: str, set_name: str, log: ProblemLog) -> Parsed:
    """Parse JSON Lines; every error names its line (and column for JSON syntax errors)."""
    sets, tags = TagTable(), TagTable()
    lexelts: list[str] = []
    instances: list[str] = []
    unit_set: list[int] = []
    unit_line: list[int] = []
    label_unit: list[int] = []
    label_tag: list[int] = []
    label_weight: list[float] = []
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            obj = jsonsafe.loads(line)
        except json.JSONDecodeError as exc:
            log.error(lineno, f"invalid JSON ({exc.msg}); {EXPECTED}", column=exc.colno)
            continue
        except RecursionError:
            log.error(lineno, f"JSON nested too deeply; {EXPECTED}")
            continue
        if not isinstance(obj, dict):
            log.error(lineno, f"found a JSON {type(obj).__name__}, not an object; {EXPECTED}")
            continue
        lexelt, instance = _name(obj, "lexelt"), _name(obj, "instance")
        missing = [k for k, v in (("lexelt", lexelt), ("instance", instance)) if v is None]
        if missing:
            log.error(lineno, f"missing or empty {' and '.join(repr(m) for m in missing)}; {EXPECTED}")
            continue
        set_value = _name(obj, "set") if "set" in obj and obj["set"] is not None else set_name
        if set_value is None:
            log.error(lineno, f"'set' must be a non-empty string; {EXPECTED}")
            continue
        pairs, problem = _tags(obj.get("tags"))
        if problem is not None:
            log.error(lineno, problem)
            continue
        unit = len(unit_line)
        lexelts.append(lexelt)  # type: ignore[arg-type]
        instances.append(instance)  # type: ignore[arg-type]
        unit_set.append(sets.code(set_value))
        unit_line.append(lineno)
        label_unit.extend([unit] * len(pairs))
        label_tag.extend(tags.code(t) for t, _ in pairs)
        label_weight.extend(w for _, w in pairs)
    return Parsed.from_rows(lexelts, instances, unit_set, unit_line, label_unit, label_tag, label_weight,
                            sets.names, tags.names)
