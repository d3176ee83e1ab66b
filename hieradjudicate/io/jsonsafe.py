"""``json.loads`` for input files: bounded memory, bounded depth, duplicate keys reported.

* **Memory.**  Python objects cost 50-100 times the bytes of the JSON that
  makes them (a 1.7 MB ``.json.gz`` of ``[{},{},...]`` reached 4.5 GB).  The
  values a document can hold are counted from its bytes (every ``{``, ``[``
  and ``,`` outside strings -- an upper bound) *as they are read*
  (:class:`ValueCounter`, vectorised per chunk), and a document with more than
  ``HIERADJ_MAX_JSON_VALUES`` (default 5,000,000: about ten times a MASC-size
  Label Studio export) is refused, naming the limit, after megabytes rather
  than after the whole file.  Only the first top-level value is counted: what
  follows it is JSON Lines, parsed (and counted) one line at a time.
* **Depth.**  A document too deep for Python's parser (RecursionError) is
  refused with the line and column where it passes :data:`MAX_DEPTH` levels;
  readers that walk a tree recursively use :func:`depth_error` the same way.
* **Duplicate keys.**  ``{"tags": "a", "tags": "b"}`` keeps the last value
  silently in ``json``; here it is an error naming the key, line and column.

Every refusal is a :class:`json.JSONDecodeError`, so each reader's existing
handler reports it with its file and line.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

import numpy as np

MAX_DEPTH = 200
DEFAULT_MAX_VALUES = 5_000_000
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:,]', re.S)


def max_values() -> int:
    """The most JSON values a document may hold (env ``HIERADJ_MAX_JSON_VALUES``)."""
    raw = os.environ.get("HIERADJ_MAX_JSON_VALUES", "").strip().replace("_", "")
    try:
        value = int(raw)
    except ValueError:
        return DEFAULT_MAX_VALUES
    return value if value > 0 else DEFAULT_MAX_VALUES


class _Duplicate(Exception):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Duplicate()
    return d


_KEEP = b'"{}[],'
#: every byte except the six that matter for counting: deleted in one C-speed ``translate``
_DROP = bytes(b for b in range(256) if b not in _KEEP)
_ESCAPE = re.compile(rb"\\.", re.S)
_OPEN, _CLOSE = np.zeros(256, np.int8), np.zeros(256, np.int8)
_OPEN[[ord("{"), ord("[")]] = 1
_CLOSE[[ord("}"), ord("]")]] = 1


class ValueCounter:
    """Counts the values of the first top-level JSON value as its bytes arrive, chunk by chunk.

    ``feed(chunk)`` returns the values counted so far (``{``, ``[`` and ``,``
    outside strings, up to where the first top-level value closes): escapes
    and strings may straddle chunks.  Numpy per chunk, no Python loop per byte.
    """

    def __init__(self) -> None:
        self.count = 0
        self.depth = 0
        self.in_string = False
        self.escaped = False  # the previous chunk ended in a backslash inside a string
        self.closed = False  # the first top-level value has ended: the rest is not counted

    def feed(self, chunk: bytes) -> int:
        if self.closed or not chunk:
            return self.count
        if self.escaped:
            chunk, self.escaped = chunk[1:], False
        if b"\\" in chunk:
            chunk = _ESCAPE.sub(b"", chunk)  # pairs left to right: only a final backslash is left
            if chunk.endswith(b"\\"):
                chunk, self.escaped = chunk[:-1], True
        a = np.frombuffer(chunk.translate(None, _DROP), dtype=np.uint8)
        if a.size == 0:
            return self.count
        quote = a == ord('"')
        inside = np.bitwise_xor.accumulate(quote.view(np.uint8)) ^ self.in_string  # 1: in a string
        self.in_string = bool((int(quote.sum()) + self.in_string) & 1)
        out = a[~quote & (inside == 0)]
        if out.size == 0:
            return self.count
        if self.depth == 0:  # not started: the first value begins at the first opener
            first = np.flatnonzero(_OPEN[out])
            if first.size == 0:
                return self.count
            out = out[int(first[0]):]
        depth = self.depth + np.cumsum(_OPEN[out] - _CLOSE[out], dtype=np.int64)
        ends = np.flatnonzero(depth <= 0)
        if ends.size:
            out, self.closed = out[:int(ends[0]) + 1], True
        self.count += int(np.count_nonzero(_OPEN[out])) + int(np.count_nonzero(out == ord(",")))
        self.depth = 0 if self.closed else int(depth[-1])
        return self.count


def count_values(data: bytes | str) -> int:
    """The values counted by :class:`ValueCounter` in a whole document."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    counter = ValueCounter()
    for at in range(0, len(raw), 1 << 20):
        counter.feed(raw[at:at + (1 << 20)])
    return counter.count


def loads(text: str) -> Any:
    """Parse ``text`` as JSON within the limits above; raises :class:`json.JSONDecodeError`."""
    import json  # here, not at the top: the readers of other formats (and `score`) start without it
    limit = max_values()
    if len(text) > limit:  # cheap first: fewer characters than the limit cannot exceed it
        n = text.count("{") + text.count("[") + text.count(",")
        if n > limit:  # commas in strings are not values: count again outside strings
            n = count_values(text)
        if n > limit:
            raise json.JSONDecodeError(
                f"the document holds up to {n:,} JSON values, more than the {limit:,} that fit in "
                "memory safely (raise HIERADJ_MAX_JSON_VALUES if it is genuine)", text, 0)
    try:
        return json.loads(text, object_pairs_hook=_pairs)
    except RecursionError:
        raise depth_error(text) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits())
        raise long_number_error(text) from None
    except _Duplicate:
        pos, key = _locate(text)[1:]
        raise json.JSONDecodeError(f"duplicate key {key!r} in one object (only one value would "
                                   "be kept); expected each key once", text, pos) from None


def long_number_error(text: str) -> json.JSONDecodeError:
    """The error for a number with more digits than Python converts to an integer."""
    import json
    limit = sys.get_int_max_str_digits() or 4300
    m = re.search(r"\d{%d,}" % (limit + 1), text)
    digits = len(m.group()) if m else limit + 1
    return json.JSONDecodeError(f"a number of {digits:,} digits (at most {limit:,} are read)",
                                text, m.start() if m else 0)


def depth_error(text: str, limit: int = MAX_DEPTH) -> json.JSONDecodeError:
    """The error for a document too deep for a reader that recurses (it met RecursionError)."""
    import json
    pos = _locate(text, limit)[0]
    return json.JSONDecodeError(f"nested deeper than {limit} levels; expected a flatter document",
                                text, max(pos, 0))


def _locate(text: str, limit: int = MAX_DEPTH) -> tuple[int, int, str]:
    """(where the depth first passes MAX_DEPTH or -1, where the first duplicate key is, that key)."""
    import json
    depth_at, dup_at, dup_key = -1, 0, ""
    stack: list[set[str] | None] = []
    pending: tuple[str, int] | None = None
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if tok in ("{", "["):
            stack.append(set() if tok == "{" else None)
            if len(stack) > limit and depth_at < 0:
                depth_at = m.start()
                if dup_key:
                    break
        elif tok in ("}", "]"):
            if stack:
                stack.pop()
        elif tok == ":":
            if pending is not None and stack and stack[-1] is not None and not dup_key:
                key, at = pending
                if key in stack[-1]:
                    dup_at, dup_key = at, key
                    if depth_at >= 0:
                        break
                stack[-1].add(key)
        if tok.startswith('"'):
            try:
                pending = (json.loads(tok), m.start())
            except ValueError:
                pending = (tok[1:-1], m.start())
        elif tok != ":":
            pending = None
    return depth_at, dup_at, dup_key
