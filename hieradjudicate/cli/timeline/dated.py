"""The dates inside the inputs on ``project timeline`` (issue 32): agreement by week of annotation
(``--measure week_kappa``, ``week_fleiss``), each annotator's drift (``drift`` or ``drift:NAME``) and
the time spent per item (``item_seconds``).  Always by week of annotation, whatever ``--by`` says."""

from __future__ import annotations

from typing import Any

DATED_MEASURES = ("week_kappa", "week_fleiss", "drift", "item_seconds")


def is_dated(m: str) -> bool:
    return m in DATED_MEASURES or m.startswith("drift:")


def dated_rows(d: dict[str, Any], measures: list[str]) -> list[list[Any]]:
    """Long rows (point, time, measure, value, low, high, n) of the chosen dated measures."""
    dated = d.get("dated")
    rows: list[list[Any]] = []
    if not dated:
        return rows
    for p in dated["weeks"]:
        point = f"annotated week of {p['week']}"

        def cells(f: dict[str, Any]) -> list[Any]:
            return [f["value"], f["low"], f["high"], f["n"]]

        for m in measures:
            if m == "week_kappa":
                rows.append([point, p["week"], m, *cells(p["figures"]["mean_kappa_cohen"])])
            elif m == "week_fleiss":
                rows.append([point, p["week"], m, *cells(p["figures"]["fleiss"])])
            elif m == "drift":
                for who, f in p["drift"].items():
                    rows.append([point, p["week"], f"drift:{who}", *cells(f)])
            elif m.startswith("drift:") and m[6:] in p["drift"]:
                rows.append([point, p["week"], m, *cells(p["drift"][m[6:]])])
            elif m == "item_seconds":
                rows.append([point, p["week"], m, p["seconds_per_item"], None, None, p["answers"]])
    return rows


def dated_text(d: dict[str, Any], measures: list[str], wide: Any) -> list[str]:
    """The text section of the dated measures (``wide`` makes the one-line-per-point table)."""
    from hieradjudicate.app.textout import text_table

    if not d.get("dated"):
        return ["no dates inside the inputs: agreement by week of annotation, drift and time per item "
                "need Label Studio's created_at, Prodigy's _timestamp or a table's date column"]
    rows = dated_rows(d, measures)
    if not rows:
        return ["no dated figure of the measures chosen"]
    h, w = wide(["point", "time", "measure", "value", "low", "high", "n"], rows)
    return ["", "By week of annotation (the dates inside the inputs; "
            + ("seconds per item: Label Studio's lead_time" if d["dated"]["time_source"] == "lead_time" else
               "seconds per item: gaps between an annotator's consecutive answers, breaks left out") + "):",
            text_table(h, w)]
