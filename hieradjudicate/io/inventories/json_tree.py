"""JSON inventories: ``{"lexelts": {"interest.n": [{"id": "1", "children": [...]}]}}``.

A node may carry ``gloss``, ``weight`` (downward weight under its parent),
``branching`` (its branching factor), ``aliases`` (a list of strings) and
``children``.  Messages name the JSON path of the offending value and, where
it can be found, its line.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from hieradjudicate.core.errors import FormatError, Problem, ProblemLog
from hieradjudicate.core.records import SenseRecord
from hieradjudicate.io import jsonsafe

_KNOWN_KEYS = {"id", "gloss", "weight", "branching", "children", "aliases"}


#: ``"id": "..."`` or ``"id": 12`` anywhere in the text (one linear pass).
_ID_RE = re.compile(r'"id"\s*:\s*("(?:[^"\\\n]|\\.)*"|-?\d+)')


class _Locator:
    """Finds the line of each node's ``"id"`` in document order (best effort).

    Every ``"id": value`` is indexed in one pass (value decoded as JSON, so an id
    written with ``\\u`` escapes matches its decoded form); each lookup takes the
    next unused occurrence.  Searching the text per id was quadratic.
    """

    def __init__(self, text: str) -> None:
        self._lines: dict[Any, list[int]] = {}
        line, pos = 1, 0
        for m in _ID_RE.finditer(text):
            line += text.count("\n", pos, m.start())
            pos = m.start()
            try:
                value = json.loads(m.group(1))
            except ValueError:
                continue
            self._lines.setdefault(value, []).append(line)
        for v in self._lines.values():
            v.reverse()  # pop() from the end gives document order

    def line_of(self, sid: Any) -> int | None:
        found = self._lines.get(sid)
        if not found:
            return None
        return found.pop() if len(found) > 1 else found[0]


def parse_json_inventory(text: str, log: ProblemLog) -> list[SenseRecord]:
    """Read a JSON inventory into records (tree validation is done by the caller).

    Raises
    ------
    FormatError
        When the text is not JSON or its top level has the wrong shape.
    """
    try:
        data = jsonsafe.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError([Problem(log.file, exc.lineno, f"invalid JSON: {exc.msg}; expected "
                                   '{"lexelts": {NAME: [nodes]}}', exc.colno)]) from None
    except ValueError as exc:  # e.g. an integer longer than Python's digit limit
        raise FormatError(f"invalid JSON: {exc}; expected " '{"lexelts": {NAME: [nodes]}}',
                          file=log.file) from None
    except RecursionError:
        raise FormatError('JSON nested too deeply; expected {"lexelts": {NAME: [nodes]}}',
                          file=log.file) from None
    if not isinstance(data, dict) or not isinstance(data.get("lexelts"), dict):
        got = type(data).__name__ if not isinstance(data, dict) else (
            "no 'lexelts' key" if "lexelts" not in data
            else f"'lexelts' holding a {type(data['lexelts']).__name__}")
        raise FormatError(f"top level is {got}; expected an object "
                          '{"lexelts": {NAME: [nodes]}} mapping each lexelt to a list of nodes',
                          file=log.file, line=1)
    locate = _Locator(text)
    senses: list[SenseRecord] = []
    for lexelt, nodes in data["lexelts"].items():
        where = f"lexelts[{json.dumps(lexelt)}]"
        if not lexelt.strip():
            log.error(None, f"{where}: empty lexelt name; expected a name such as 'interest.n'")
            continue
        if not isinstance(nodes, list):
            log.error(None, f"{where} is a {_kind(nodes)}; expected a list of sense nodes")
            continue
        # Iterative depth-first walk so that deep nesting cannot exhaust the stack.
        stack: list[tuple[Any, str, str | None]] = [
            (node, f"{where}[{i}]", None) for i, node in reversed(list(enumerate(nodes)))]
        while stack:
            node, path, parent = stack.pop()
            rec = _node(node, path, lexelt, parent, locate, log)
            if rec is None:
                continue
            senses.append(rec)
            children = node.get("children", [])
            if children is None:
                continue
            if not isinstance(children, list):
                log.error(rec.line, f"{path}.children is a {_kind(children)}; expected a list of "
                          "sense nodes", skipped=False)
                continue
            stack.extend((child, f"{path}.children[{i}]", rec.sense)
                         for i, child in reversed(list(enumerate(children))))
    return senses


def _kind(value: Any) -> str:
    return {dict: "object", list: "list", str: "string", bool: "boolean", type(None): "null",
            int: "number", float: "number"}.get(type(value), type(value).__name__)


def _node(node: Any, path: str, lexelt: str, parent: str | None, locate: _Locator,
          log: ProblemLog) -> SenseRecord | None:
    if not isinstance(node, dict):
        log.error(None, f"{path} is a {_kind(node)}; expected an object with an 'id'")
        return None
    sid = node.get("id")
    if isinstance(sid, bool) or not isinstance(sid, (str, int)):
        log.error(None, f"{path}.id is {'missing' if 'id' not in node else 'a ' + _kind(sid)}; "
                  "expected a string id (its subtree was skipped)")
        return None
    line = locate.line_of(sid)
    sense = str(sid).strip()
    if not sense or any(c.isspace() for c in sense):
        log.error(line, f"{path}.id {sense!r} is empty or contains spaces; expected an id "
                  "without spaces (its subtree was skipped)")
        return None
    unknown = sorted(set(node) - _KNOWN_KEYS)
    if unknown:
        log.warning(line, f"{path}: unknown key(s) {', '.join(unknown)} ignored; expected only "
                    + ", ".join(sorted(_KNOWN_KEYS)))
    rec = SenseRecord(lexelt=lexelt, sense=sense, parent=parent, line=line, file=log.file)
    gloss = node.get("gloss", "")
    if gloss is None or isinstance(gloss, str):
        rec.gloss = (gloss or "").strip()
    else:
        log.error(line, f"{path}.gloss is a {_kind(gloss)}; expected a string", skipped=False)
    weight = node.get("weight")
    if weight is not None:
        value = math.nan
        if isinstance(weight, (int, float)) and not isinstance(weight, bool):
            try:
                value = float(weight)
            except OverflowError:
                value = math.inf
        if math.isfinite(value) and value > 0:
            rec.weight = value
        else:
            log.error(line, f"{path}.weight {weight!r} is not allowed; expected a positive "
                      "finite number (it was ignored)", skipped=False)
    branching = node.get("branching")
    if branching is not None:
        if isinstance(branching, int) and not isinstance(branching, bool) and branching > 0:
            rec.branching = branching
        else:
            log.error(line, f"{path}.branching {branching!r} is not allowed; expected a positive "
                      "integer (it was ignored)", skipped=False)
    aliases = node.get("aliases")
    if aliases is not None:
        if isinstance(aliases, list) and all(isinstance(a, str) for a in aliases):
            rec.aliases = tuple(a.strip() for a in aliases if a.strip() and a.strip() != sense)
        else:
            log.error(line, f"{path}.aliases is not a list of strings; expected e.g. "
                      '["art%1:06:00::"] (ignored)', skipped=False)
    return rec
