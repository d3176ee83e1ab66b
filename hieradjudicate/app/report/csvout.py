"""Every dashboard table written as CSV or JSON (the report's exports and its crowd-size companions)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hieradjudicate.app.dashboard.tables import tables as dashboard_tables
from hieradjudicate.io.exports.csvsafe import csv_line
from hieradjudicate.io.atomic import write_atomic


def export_tables(data: Any, folder: str | os.PathLike[str], format: str = "csv") -> list[Path]:
    """Write every table as ``<folder>/<name>.csv`` or ``.json``; returns the paths written.

    CSV: text cells pass through :func:`safe_csv_cell` (a cell starting with
    ``=``, ``+``, ``-``, ``@``, tab or CR gets a leading ``'``); numbers are
    written as numbers, undefined figures as empty cells.  JSON: an object
    with ``columns`` and ``rows`` (one object per row, ``null`` = undefined).
    """
    if format not in ("csv", "json"):
        raise ValueError(f"format {format!r}; expected csv or json")
    out_dir = Path(folder)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (headers, rows) in dashboard_tables(data).items():
        path = out_dir / f"{name}.{format}"
        if format == "csv":
            write_atomic(path, csv_line(headers) + "".join(csv_line(r) for r in rows))
        else:
            doc = {"table": name, "columns": headers, "rows": [dict(zip(headers, r)) for r in rows]}
            write_atomic(path, json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False))
        written.append(path)
    return written
