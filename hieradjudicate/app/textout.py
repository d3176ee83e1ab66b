"""Render result tables for a terminal (aligned text), for scripts (JSON, CSV)."""

from __future__ import annotations

import csv
import io
import json
import math
from typing import Any, Iterable, Sequence


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
    cells = [[fmt(v, digits) for v in r] for r in rows]
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
    from hieradjudicate.io.exports.csvsafe import safe_csv_cell

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([safe_csv_cell(h) for h in headers])
    for r in rows:
        w.writerow([safe_csv_cell("" if v is None else v) for v in r])
    return buf.getvalue()


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
    return json.dumps(obj, indent=2, default=default, allow_nan=False, ensure_ascii=False)
