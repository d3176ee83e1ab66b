"""Render result tables for a terminal (aligned text), for scripts (JSON, CSV); escape data.

Ids, tags, notes and file names come from files a user did not write: a key
line holding ``ESC ] 0 ; ... BEL`` would retitle the terminal, ``ESC [ 2 J``
clear it, U+202E reverse the text that follows.  Every command's output goes
through :class:`EscapingWriter` (the CLI installs it on stdout and stderr
with :func:`terminal_safe_streams`), which writes such characters as visible
escapes (``\\x1b``, ``\\u202e``); TAB and LF are kept.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TextIO

#: C0 controls (but TAB and LF), DEL, C1 controls, and the bidirectional overrides/isolates.
_UNSAFE = [c for c in range(0x20) if c not in (0x09, 0x0A)] + [0x7F] + list(range(0x80, 0xA0)) \
    + [0x061C, 0x200E, 0x200F] + list(range(0x202A, 0x202F)) + list(range(0x2066, 0x206A))
_ESCAPES = {c: (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in _UNSAFE}
_JSON_ESCAPES = {c: f"\\u{c:04x}" for c in _UNSAFE}


_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_control(text: str) -> str:
    """``text`` with every control character (but TAB and LF) written as a visible escape.

    Lone surrogates (the undecodable bytes of a non-UTF-8 file name, as
    ``os.fsdecode`` keeps them) become ``\\udcXX`` too: no encoder accepts them.
    """
    text = text.translate(_ESCAPES)
    if _SURROGATE.search(text):
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


class EscapingWriter(io.TextIOBase):
    """A text stream that escapes control characters before passing text to ``stream``."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(escape_control(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", "utf-8")


@contextlib.contextmanager
def terminal_safe_streams() -> Iterator[None]:
    """Route ``sys.stdout`` and ``sys.stderr`` through :class:`EscapingWriter` for the block."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = EscapingWriter(out), EscapingWriter(err)
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        sys.stdout, sys.stderr = out, err


def fmt(v: Any, digits: int = 3) -> str:
    if v is None:
        return "undefined"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if math.isnan(v):
            return "undefined"
        return f"{v:.{digits}f}"
    return str(v)


def text_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], digits: int = 3) -> str:
    """Aligned columns; numbers right-aligned, text left-aligned."""
    cells = [[escape_control(fmt(v, digits)) for v in r] for r in rows]  # widths as shown
    raw = [list(r) for r in rows] if not isinstance(rows, list) else rows
    widths = [len(h) for h in headers]
    for r in cells:
        for j, c in enumerate(r):
            widths[j] = max(widths[j], len(c))
    numeric = [all(isinstance(r[j], (int, float)) or r[j] is None for r in raw) if raw else False
               for j in range(len(headers))]
    def line(vals):
        return "  ".join(v.rjust(widths[j]) if numeric[j] else v.ljust(widths[j]) for j, v in enumerate(vals)).rstrip()
    out = [line(list(headers)), line(["-" * w for w in widths])]
    out += [line(r) for r in cells]
    return "\n".join(out)


def csv_text(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    from hieradjudicate.io.exports.csvsafe import csv_line

    return csv_line(headers) + "".join(csv_line(r) for r in rows)


def json_text(obj: Any) -> str:
    def default(o):
        try:
            import numpy as np
            if isinstance(o, np.integer):
                return int(o)
            if isinstance(o, np.floating):
                return None if np.isnan(o) else float(o)
            if isinstance(o, np.ndarray):
                return o.tolist()
        except ImportError:  # pragma: no cover
            pass
        if hasattr(o, "as_dict"):
            return o.as_dict()
        raise TypeError(f"not JSON serialisable: {type(o).__name__}")
    import json  # here: the text and CSV outputs do without it (a few ms of every command's start)

    # json escapes C0 itself; C1 and bidi controls become \\uXXXX so the text stays valid JSON
    return json.dumps(obj, indent=2, default=default, allow_nan=False,
                      ensure_ascii=False).translate(_JSON_ESCAPES)
