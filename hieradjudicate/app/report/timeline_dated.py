"""The report's part of the timeline for the dates inside the inputs (issue 32): agreement by week
of annotation, each annotator's drift and the time spent per item, as
:mod:`hieradjudicate.app.timeline.dated` computes them (nothing where the inputs carry no dates)."""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from hieradjudicate.app.report.svg import esc, line_plot_svg

COLORS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c",
          "#ccb974", "#64b5cd")
MAX_DRIFT = 8  # lines on one plot; a crowd's drift is in the table of `project timeline --format csv`


def _f(v: Any) -> str:
    return "undefined" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)


def _sec(iso: str) -> float:
    from datetime import datetime, timezone

    d = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return (d if d.tzinfo else d.replace(tzinfo=timezone.utc)).timestamp()


def marker_positions(times: list[str], markers: list[Any]) -> list[tuple[float, str]]:
    """Each marker's place among the points at ``times`` (ISO, ascending), in points: between the last
    point before it and the first after it, by time (the plots' x axis is the points, not the clock)."""
    try:
        ts = [_sec(t) for t in times]
        at = [_sec(m.at) for m in markers]
    except (ValueError, AttributeError, TypeError):  # a point without a time: no place for a marker
        return []
    out = []
    for x, m in zip(at, markers):
        j = bisect_left(ts, x)
        if j == 0 or j == len(ts):
            pos = -0.5 if j == 0 else len(ts) - 0.5
        else:
            pos = j - 1 + ((x - ts[j - 1]) / (ts[j] - ts[j - 1]) if ts[j] > ts[j - 1] else 0.5)
        out.append((pos, m.label))
    return out


def _fv(x: Any) -> str:
    """A figure with its interval where it has one."""
    if x is None or x.value is None:
        return "undefined"
    return f"{x.value:.3f}" + (f" [{x.low:.3f}, {x.high:.3f}]" if x.low is not None and x.high is not None else "")


def _middles(weeks: list[str]) -> list[str]:
    """The Thursday of each week (its middle), YYYY-MM-DD."""
    from datetime import date, timedelta

    return [(date.fromisoformat(w) + timedelta(days=3)).isoformat() for w in weeks]


def dated_section(dated: Any, table: Any, markers: Any = ()) -> str:
    """HTML of the weeks; ``table(headers, rows)`` is the report's table maker; ``markers`` drawn where
    they fall among the weeks (each week's point at its middle)."""

    if dated is None or not dated.weeks:
        return ""
    weeks = dated.weeks
    x = [w.week for w in weeks]
    names = list(dict.fromkeys(n for w in weeks for n in w.drift))
    series = [("mean pairwise kappa", [w.figures["mean_kappa_cohen"].value for w in weeks], COLORS[0], False),
              ("Fleiss' kappa", [w.figures["fleiss"].value for w in weeks], COLORS[1], False)]
    if len(names) <= MAX_DRIFT:
        series += [(f"drift {n}", [w.drift[n].value if n in w.drift else None for w in weeks],
                    COLORS[(2 + j) % len(COLORS)], True) for j, n in enumerate(names)]
    figs = [[w.figures["mean_kappa_cohen"] for w in weeks], [w.figures["fleiss"] for w in weeks],
            *[[w.drift.get(n) for w in weeks] for n in names[:len(series) - 2]]]
    tips = [[f"{label}: {_fv(f)}" for f in fs] for (label, _, _, _), fs in zip(series, figs)]
    out = ["<h3>Agreement by week of annotation</h3>", f"<p>{esc(dated.note)}</p>",
           line_plot_svg(x, series, tooltips=tips, label="agreement by week of annotation", y_label="kappa",
                         intervals=[[(f.low, f.high) if f is not None else (None, None) for f in fs] for fs in figs],
                         markers=marker_positions([f"{w}T12:00:00+00:00" for w in _middles(x)], list(markers)))]
    shown = names if len(names) <= MAX_DRIFT else []
    out.append(table(["week", "answers", "mean pairwise kappa", "Fleiss' kappa", "seconds per item",
                      *[f"drift {n}" for n in shown]],
                     [[w.week, w.answers, _f(w.figures["mean_kappa_cohen"].value), _fv(w.figures["fleiss"]),
                       _f(w.seconds_per_item), *[_fv(w.drift[n]) if n in w.drift else "" for n in shown]]
                      for w in weeks]))
    return "".join(out)
