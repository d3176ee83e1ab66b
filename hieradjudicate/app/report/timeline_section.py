"""The report's timeline section (issue 32): agreement at each import, the adjudication per day,
the markers with their before/after comparisons and the forecast, drawn with the report's own SVG
line plots (inline, as every chart of the report)."""

from __future__ import annotations

from typing import Any

from hieradjudicate.app.report.svg import esc, line_plot_svg
from hieradjudicate.app.report.timeline_dated import dated_section, marker_positions

COLORS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860")


def _f(v: Any) -> str:
    return "undefined" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)


def _tips(figs: list[Any]) -> list[str]:
    return [f"{_f(x.value)} [{_f(x.low)}, {_f(x.high)}] (n = {x.n})" if x.low is not None
            else f"{_f(x.value)} (n = {x.n}){'; ' + x.why if x.why else ''}" for x in figs]


def _short(labels: list[str]) -> list[str]:
    """Day and week labels without their year when every point is in the same one (the axis has room
    for ``05-01``, not for ``2026-05-01``); the year is in the section's table."""
    import re

    years = {m.group(1) for t in labels for m in [re.search(r"(\d{4})-\d{2}-\d{2}", t)] if m}
    if len(years) != 1 or not all(re.search(r"\d{4}-\d{2}-\d{2}", t) for t in labels):
        return labels
    return [re.sub(r"\d{4}-(\d{2}-\d{2})", r"\1", t) for t in labels]


def _band(figs: list[Any]) -> list[tuple[Any, Any]]:
    return [(x.low, x.high) if x is not None else (None, None) for x in figs]


def section(view: Any, table: Any) -> str:
    """The section's HTML; ``table(headers, rows)`` is the report's table maker."""
    out = [f"<p>{esc(view.note)}</p>"]
    if view.markers:
        out.append("<p>Markers: " + "; ".join(f"<strong>{esc(m.label)}</strong> at {esc(m.at)}"
                                              for m in view.markers) + ".</p>")
    pts = view.imports
    if pts:
        x = [f"{p.event.at[:10]} {p.event.label}" for p in pts]
        names = (("fleiss", "Fleiss' kappa"), ("alpha", "Krippendorff's alpha"), ("conger", "Davies & Fleiss"),
                 ("mean_kappa_cohen", "mean pairwise kappa (Cohen)"))
        series = [(label, [p.figures[k].value for p in pts], COLORS[j], False) for j, (k, label) in enumerate(names)]
        tips = [[f"{label}: {t}" for t in _tips([p.figures[k] for p in pts])] for k, label in names]
        out.append("<h3>Annotator agreement at each import</h3>")
        out.append(line_plot_svg(x, series, tooltips=tips, label="agreement at each import", y_label="kappa",
                                 intervals=[_band([p.figures[k] for p in pts]) for k, _ in names],
                                 markers=marker_positions([p.event.at for p in pts], view.markers)))
        out.append(table(["import", "time", "instances", *[label for _, label in names]],
                         [[p.event.label, p.event.at, p.n_instances,
                           *[_tips([p.figures[k]])[0] for k, _ in names]] for p in pts]))
    dec = view.decisions.points
    if dec:
        x = _short([p.label for p in dec])
        share = [p.counts.get("resolved", 0) / max(view.decisions.n_instances, 1) for p in dec]
        systems = [n for n in view.decisions.sets if dec[-1].scores.get(n) and dec[-1].scores[n].low is not None][:4]
        series = [("resolved share", share, COLORS[0], False),
                  ("gold overturns the majority", [p.overturn.value for p in dec], COLORS[3], False),
                  *[(f"score {n}", [p.scores[n].value if n in p.scores else None for p in dec], COLORS[1 + j], True)
                    for j, n in enumerate(systems)]]
        tips = [[f"resolved {p.counts.get('resolved', 0)} of {view.decisions.n_instances}" for p in dec],
                [f"overturned: {t}" for t in _tips([p.overturn for p in dec])],
                *[[f"{n}: {t}" for t in _tips([p.scores[n] for p in dec])] for n in systems]]
        out.append(f"<h3>The adjudication by {esc(view.decisions.by)}</h3>")
        out.append(line_plot_svg(x, series, tooltips=tips, y_range=(0.0, 1.0), label="adjudication over time",
                                 y_label="share", intervals=[None, _band([p.overturn for p in dec]),
                                                             *[_band([p.scores.get(n) for p in dec]) for n in systems]],
                                 markers=marker_positions([p.end for p in dec], view.markers)))
        out.append(table(["point", "decisions", "withdrawals", "resolved", "flagged", "open", "overturn"],
                         [[p.label, p.decisions, p.withdrawals, p.counts.get("resolved", 0),
                           p.counts.get("flagged", 0), p.counts.get("open", 0), _tips([p.overturn])[0]]
                          for p in dec]))
    out.append(dated_section(getattr(view, "dated", None), table, view.markers))  # the dates inside the inputs
    rows = []
    for m, ba in zip(view.markers, view.before_after):
        from hieradjudicate.app.timeline.view import before_after_figures

        for k, name in before_after_figures(ba):
            d = ba[k]
            rows.append([m.label, name, d.before, d.after, d.difference,
                         "" if d.low is None else f"[{_f(d.low)}, {_f(d.high)}]",
                         d.why or ("paired by instance" if d.paired else "unpaired") + f", {d.method}"])
    if rows:
        out.append("<h3>Before and after each marker</h3>")
        out.append(table(["marker", "figure", "before", "after", "difference", "95% interval", "note"], rows))
    f = view.forecast
    if view.dates[0]:
        ci = f" (95% interval {esc(view.dates[1])} to {esc(view.dates[2] or 'open-ended')})" if view.dates[1] else ""
        out.append(f"<p>Forecast: {f.open} instances open at {_f(f.per_day)} resolved per calendar day: done "
                   f"about <strong>{esc(view.dates[0])}</strong>{ci}.</p>")
    else:
        out.append(f"<p>Forecast: {f.open} instances open; {esc(f.why or 'done')}.</p>")
    return "".join(out)
