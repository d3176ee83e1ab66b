"""The shareable report: one self-contained HTML file, and CSV/JSON exports of every table.

:func:`render_report` turns a :class:`~hieradjudicate.app.dashboard.dashboard.DashboardData`
(read by attribute only, so this module does not import the app layer's
computations) into HTML with inline SVG charts (:mod:`.report_svg`): no
external assets, no JavaScript; collapsible explanations use
``<details>``.  The page follows the reader's light or dark preference
(``prefers-color-scheme``).  Every string that comes from the data - names,
lexelts, tags, glosses, notes - goes through :func:`html.escape`.

:func:`export_tables` writes every table of ``tables(DashboardData)`` as
``<name>.csv`` (text cells neutralised with
:func:`~hieradjudicate.io.exports.csvsafe.safe_csv_cell`, numbers written as
numbers) or ``<name>.json``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hieradjudicate import __version__
from hieradjudicate.app.dashboard.tables import tables as dashboard_tables
from hieradjudicate.app.dashboard.two_kappas import two_kappas_note
from hieradjudicate.app.report import crowd
from hieradjudicate.app.report.competence import section as competence_section
from hieradjudicate.app.report.confusion import confusion_html
from hieradjudicate.app.report.csvout import export_tables  # noqa: F401  (its home before; the CLI's import)
from hieradjudicate.app.report.hbars import lexelt_section
from hieradjudicate.app.report.reference import KEY as REFERENCE_KEY
from hieradjudicate.app.report.reference import TITLE as REFERENCE_TITLE
from hieradjudicate.app.report.reference import paired_table
from hieradjudicate.app.report.reference import section as reference_section
from hieradjudicate.app.report.style import CSS
from hieradjudicate.app.report.svg import bar_chart_svg, esc, heatmap_svg, line_plot_svg
from hieradjudicate.app.report.timeline_section import section as timeline_section
from hieradjudicate.core.palette import CATEGORY_COLORS, GOLD_COLOR, category_color
from hieradjudicate.io.atomic import write_atomic


def _n(v: Any, digits: int = 3) -> str:
    if v is None:
        return '<span class="muted">undefined</span>'
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return esc(v)


def _table(headers: list[str], rows: list[list[Any]], *, raw: set[int] | None = None) -> str:
    """An HTML table; cells are escaped unless their column index is in ``raw`` (pre-built HTML)."""
    raw = raw or set()
    out = ['<div class="scroll"><table><thead><tr>', *[f"<th>{esc(h)}</th>" for h in headers],
           "</tr></thead><tbody>"]
    text_cols = {j for j, h in enumerate(headers) if h in ("undefined", "note", "tags")}
    for r in rows:
        out.append("<tr>")
        for j, v in enumerate(r):
            if j in text_cols:
                out.append(f'<td class="{"note" if headers[j] == "note" else ""}">{esc("" if v is None else v)}</td>')
            elif j in raw:
                out.append(f"<td>{v}</td>")
            elif isinstance(v, (int, float)) and not isinstance(v, bool) or v is None:
                out.append(f'<td class="num">{_n(v)}</td>')
            else:
                out.append(f"<td>{esc(v)}</td>")
        out.append("</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _explain(e: Any) -> str:
    if e is None:
        return ""
    items = [("What", e.what), ("Formula", e.formula)]
    if e.value is not None:
        items.append(("Value", f"{e.value:.4f}"))
    elif e.reason:
        items.append(("Undefined", e.reason))
    if e.observed is not None:
        items.append((e.observed_label, f"{e.observed:.4f}"))
    if e.expected is not None:
        items.append((e.expected_label, f"{e.expected:.4f}"))
    if e.n is not None:
        items.append(("Instances", str(e.n)))
    if e.aggregation:
        items.append(("Aggregation", e.aggregation))
    if e.note:
        items.append(("Note", e.note))
    body = "".join(f"<div><b>{esc(k)}:</b> {esc(v)}</div>" for k, v in items)
    return f'<details><summary>About this figure: {esc(e.title)}</summary><div class="explain">{body}</div></details>'


def _ids(data: Any, idx: Any, limit: int = 300) -> str:
    keys = [data.instance_keys(int(i)) for i in list(idx)[:limit]]
    text = " ".join(f"{lx}/{i}" for lx, i in keys)
    more = f" … ({len(idx)} in all)" if len(idx) > limit else ""
    return f'<span class="ids">{esc(text)}{esc(more)}</span>'


def _swatch(color: str) -> str:
    return f'<span class="swatch" style="background:{esc(color)}"></span>'


# -- sections ---------------------------------------------------------------------------------------
def _summary(data: Any, set_colors: dict[str, str], tables_href: str | None = None) -> str:
    s = data.summary
    inv = s["inventory"]
    lb = data.lexelts
    prog = data.progress
    resolved = prog.status_counts.get("resolved", 0)
    agreement = [] if getattr(data, "no_agreement", "") else [  # one set: nothing to agree (said below)
        (_n(lb.overall.value), f"{'alpha' if lb.measure == 'alpha' else 'Fleiss kappa'} (all lexelts)"),
        (f"[{_n(lb.overall.low)}, {_n(lb.overall.high)}]", "95% bootstrap interval"),
        (_n(lb.macro), "macro mean over lexelts")]
    cards = [(f"{s['instances']}", "instances"), (f"{s['lexelts']}", "lexelts"), *agreement,
             (f"{resolved} / {prog.total}", "instances resolved")]
    if prog.status_counts.get("conflict"):  # a server project's adjudicators differ: not resolved
        cards.append((f"{prog.status_counts['conflict']}", "in conflict (the lead decides)"))
    out = ['<div class="cards">', *[f'<div class="card"><div class="v">{v}</div><div class="l">{esc(label)}</div>'
                                    "</div>" for v, label in cards], "</div>"]
    out.append(f"<p>Sense inventory: {inv['senses']} senses, {inv['leaves']} leaves, maximum depth "
               f"{inv['max_depth']}, largest branching {inv['max_branching']}, {inv['outside_tags']} tag(s) "
               "outside the inventory kept as leaves of their own.</p>")
    rows = [[(_swatch(set_colors[x["name"]]) if x["name"] in set_colors else "") + esc(x["name"]), x["role"],
             x["instances"], x["multi_tag"]] for x in s["sets"]]
    head = ["set", "role", "instances", "multi-tag answers"]
    out.append(crowd.summarised_table("sets", (head, rows), "instances", tables_href,
                                      lambda h, r: _table(h, r, raw={0}))
               if crowd.is_crowd(data) else _table(head, rows, raw={0}))
    out.append(f"<p>Agreement group: {esc(', '.join(s['annotator_group']))}. Gold adjudicated so far: "
               f"{data.gold_n} instance(s) (decisions marked resolved).</p>")
    return "".join(out)


def _heatmap(data: Any, tables: dict) -> str:
    hm = data.heatmap
    m = len(hm.names)
    vals = [[None if a == b else _f(hm.value[a, b]) for b in range(m)] for a in range(m)]
    text = [["" if a == b else f"{_n(vals[a][b], 2) if vals[a][b] is not None else '–'}\nn={int(hm.n[a, b])}"
             for b in range(m)] for a in range(m)]
    tips = [[hm.names[a] if a == b else hm.cell_explain[(a, b)].text() for b in range(m)] for a in range(m)]
    svg = heatmap_svg(hm.names, hm.names, vals, text, tips, label="pairwise agreement", legend=hm.measure)
    h, rows = tables["pairwise"]
    # as the dashboard says under its map: a kappa over lexelts of a few instances means little
    thin = f"<p><b>{esc(hm.thin_note[0].upper() + hm.thin_note[1:])}.</b></p>" if hm.thin_note else ""
    return svg + thin + _explain(hm.explain) + _table(h, rows)


def _f(v: Any) -> float | None:
    try:
        if v is None or str(v) == "--":
            return None
        f = float(v)
        return None if f != f else f
    except (TypeError, ValueError):
        return None


def _no_bars_text(data: Any) -> str:
    """Why the per-lexelt chart is empty, in words (the figure needs two annotator sets)."""
    sets = [f"{x['name']} ({x['role']})" for x in (data.summary or {}).get("sets", [])]
    names = ", ".join(sets[:8]) + (f" and {len(sets) - 8} more" if len(sets) > 8 else "")
    return esc("No agreement per lexelt: it compares at least two annotator sets, and this project has "
               f"fewer (sets: {names or 'none'}).")


def _lexelts(data: Any, tables: dict) -> str:
    h, rows = tables["lexelts"]
    return lexelt_section(data, _table(h, rows) if rows else "", _explain(data.lexelts.explain), _no_bars_text(data))


def _depth(data: Any, tables: dict, set_colors: dict[str, str]) -> str:
    d = data.depth
    series = []
    tips = []
    for p, (a, b) in enumerate(d.pairs):
        vals = [_f(d.pair_values[p, j]) for j in range(len(d.levels))]
        series.append((f"{a}–{b}", vals, _pair_color(p), False))
        tips.append([d.point_explain[(p, j)].text() for j in range(len(d.levels))])
    series.append(("group", d.group_values, "#7f7f7f", True))
    tips.append([d.point_explain[(-1, j)].text() for j in range(len(d.levels))])
    flat = [v for _, vals, _, _ in series for v in vals if v is not None]
    svg = line_plot_svg(d.levels, series, tooltips=tips, y_range=(min([0.0, *flat]), 1.0), y_label=d.measure,
                        label="agreement against depth")
    h, rows = tables["depth"]
    return svg + _explain(d.explain) + _table(h, rows)


_PAIR_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00")


def _pair_color(p: int) -> str:
    return _PAIR_COLORS[p % len(_PAIR_COLORS)]


def _confusion(data: Any, cf: Any) -> str:
    return confusion_html(data, cf, _table, _explain)


def _gold(data: Any, tables: dict, set_colors: dict[str, str], tables_href: str | None = None) -> str:
    if not data.gold_agreement:
        return "<p>No decision has been marked resolved yet: there is no gold to compare with.</p>"
    rows = data.gold_agreement
    if crowd.is_crowd(data):
        return (_explain(rows[0].explain) + crowd.summarised_table("gold_agreement", tables["gold_agreement"],
                                                                    "kappa_cohen", tables_href, _table))
    svg = bar_chart_svg([r.name for r in rows], ["kappa (Cohen)", "leaf score"],
                        [[r.kappa_cohen for r in rows], [r.score for r in rows]],
                        colors=["#3b7dd8", GOLD_COLOR], tooltips=[[r.explain.text() for r in rows]] * 2,
                        y_range=(min([0.0, *[r.kappa_cohen or 0 for r in rows]]), 1.0),
                        label="agreement with the gold", width=560)
    h, t = tables["gold_agreement"]
    return svg + (_explain(rows[0].explain) if rows else "") + _table(h, t)


def _no_scores_text(data: Any) -> str:
    """Why the systems have no scores against the adjudicated gold, in words (and where their scores
    against a reference gold are, when there is one)."""
    systems = list(data.summary.get("systems", []))
    if not systems:
        why = "there is no system in this project (no set was given the role system)"
    elif not data.gold_n:
        why = (f"no decision has been marked resolved yet, so {', '.join(systems)} cannot be scored against the "
               "adjudicated gold")
    else:
        why = "no decided instance is in view"
    ref = getattr(data, "reference", None)
    there = "" if ref is None or not ref.rows else (
        f" Their scores against the reference gold {', '.join(ref.golds)} (given as input) are in the section "
        f"\u201cSystem scores against the reference gold\u201d above.")
    return f"<p>No system scores against the adjudicated gold: {esc(why)}.{esc(there)}</p>"


def _systems(data: Any, tables: dict, set_colors: dict[str, str]) -> str:
    if not data.scores:
        return _no_scores_text(data)
    policies = list(dict.fromkeys(s.policy for s in data.scores))
    systems = list(dict.fromkeys(s.system for s in data.scores))
    by = {(s.system, s.policy): s for s in data.scores}
    vals = [[by[(n, p)].precision if (n, p) in by else None for p in policies] for n in systems]
    lows = [[by[(n, p)].precision_ci[0] if (n, p) in by else None for p in policies] for n in systems]
    highs = [[by[(n, p)].precision_ci[1] if (n, p) in by else None for p in policies] for n in systems]
    tips = [[by[(n, p)].explain.text() + f"\nprecision {_n(by[(n, p)].precision)}, recall {_n(by[(n, p)].recall)}"
             if (n, p) in by else "" for p in policies] for n in systems]
    svg = bar_chart_svg(policies, systems, vals, lows=lows, highs=highs,
                        colors=[set_colors.get(n, "#888") for n in systems], tooltips=tips, y_range=(0.0, 1.0),
                        y_label="precision", label="system scores", width=620)
    h, t = tables["system_scores"]
    out = [svg, _explain(data.scores[0].explain), _table(h, t)]
    cmp = data.comparison
    if cmp is not None:
        out.append("<h3>System comparison</h3>")
        hh, tt = tables.get("system_pairs", ([], []))
        if tt:
            out.append(_table(hh, tt))
        out.append(f"<p><small>{esc(two_kappas_note(cmp, getattr(data, 'heatmap', None)))}</small></p>")
        out.append(f"<p>Optimal combination of all systems: <b>{_n(cmp.optimal_all)}</b> of {cmp.n} decided "
                   "instances get at least one system right (an upper bound for combining them).</p>")
        hb, tb = tables["best_subsets"]
        out.append(_table(hb, tb))
        hist = cmp.histogram
        svg = bar_chart_svg([f"{k} right" for k in range(len(hist))], ["instances"], [[float(v) for v in hist]],
                            colors=["#7f7f7f"], tooltips=[[f"{v} instance(s) that exactly {k} system(s) get right"
                                                           for k, v in enumerate(hist)]],
                            y_range=(0.0, max([1.0, *[float(v) for v in hist]])), y_label="instances",
                            label="instance difficulty", legend=False, width=480, height=260)
        out.append(svg + _explain(cmp.explain))
        for k, idx in enumerate(cmp.bar_instances):
            if len(idx):
                out.append(f"<details><summary>{len(idx)} instance(s) {k} system(s) get right</summary>"
                           f"{_ids(data, idx)}</details>")
    if data.significance is not None:
        out.append("<h3>Paired significance tests</h3>")
        out.append(f"<p>{esc(data.significance.settings.text())}: the figures of hieradjudicate compare.</p>")
        out.append(_explain(data.significance.explain))
        out.append(paired_table(data.significance, _table))
    return "".join(out)


def _progress(data: Any, tables: dict) -> str:
    pr = data.progress
    out = []
    if pr.days:
        out.append(bar_chart_svg(pr.days, ["decisions", "withdrawn"],
                                 [[float(v) for v in pr.decisions], [float(v) for v in pr.withdrawals]],
                                 colors=["#3b7dd8", "#d1352b"], y_range=(0.0, max([1.0, *map(float, pr.decisions)])),
                                 y_label="rows", label="decisions per day", height=260))
        out.append(line_plot_svg(pr.days, [("resolved share", pr.resolved_share, GOLD_COLOR, False)],
                                 y_range=(0.0, 1.0), y_label="share resolved", label="resolved share", height=240))
    else:
        out.append("<p>No decisions recorded yet.</p>")
    cats = list(pr.remaining)
    codes = {c.name: k for k, c in CATEGORY_COLORS.items()}
    out.append("<h3>Open instances by agreement category</h3><p class=\"muted\">Category of the worst "
               "annotator pair; identical instances are open only because nobody has confirmed them yet.</p>")
    out.append(bar_chart_svg([CATEGORY_COLORS[codes[c]].label for c in cats], ["unresolved"],
                             [[float(pr.remaining[c]) for c in cats]],
                             colors=["#888888"], group_colors=[category_color(codes[c]) for c in cats],
                             legend=False,
                             tooltips=[[f"{pr.remaining[c]} unresolved {c} instance(s)" for c in cats]],
                             y_range=(0.0, max([1.0, *[float(v) for v in pr.remaining.values()]])),
                             label="remaining by category", width=480, height=260))
    out.append(_bar_colors_note(cats, codes))
    out.append(_explain(pr.explain))
    for c in cats:
        idx = pr.remaining_instances[c]
        if len(idx):
            out.append(f"<details><summary>{len(idx)} unresolved {esc(c)} instance(s)</summary>"
                       f"{_ids(data, idx)}</details>")
    for name in ("status", "progress_days"):
        h, t = tables[name]
        if t:
            out.append(_table(h, t))
    return "".join(out)


def _bar_colors_note(cats: list[str], codes: dict[str, int]) -> str:
    return "<p>" + " ".join(f"{_swatch(category_color(codes[c]))}{esc(c)}" for c in cats) + "</p>"


def _flagged(data: Any, tables: dict) -> str:
    h, t = tables["flagged"]
    out = [f"<p>{len(t)} flagged instance(s).</p>"]
    if t:
        out.append(_table(h, t))
    h2, t2 = tables["notes"]
    others = [r for r in t2 if r[2] != "flagged"]
    if others:
        out.append("<h3>Other decisions with notes</h3>" + _table(h2, others))
    return "".join(out)


def render_report(data: Any, *, title: str = "Annotation agreement report", confusions: list | None = None,
                  generated: str | None = None, tables_href: str | None = None,
                  left_out: Sequence[str] = (), timeline: Any = None) -> str:
    """The whole report as one HTML string (self-contained; see the module docstring).

    ``left_out`` names the decisions that failed their checksum: the report says at its top that
    its figures are without them.

    With more than :data:`~hieradjudicate.app.report.crowd.MANY` sets the
    per-set and per-pair tables are summarised; ``tables_href`` is the
    folder (relative to the report) holding them in full as CSV.
    """
    tables = dashboard_tables(data)
    set_colors = crowd.set_colors(data)  # never the same colour for two sets
    many = crowd.is_crowd(data)
    when = generated or datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    damaged = "" if not left_out else (
        f'<p class="warn"><strong>{len(left_out)} decision row(s) are left out</strong> of every figure '
        "below: they failed their checksum (<code>hieradjudicate project check</code> lists them, "
        "<code>project repair</code> keeps what is intact): "
        + esc("; ".join(left_out[:50]) + ("; ..." if len(left_out) > 50 else "")) + "</p>")
    sel = "" if data.selection_n == data.summary["instances"] else \
        f" Figures cover a selection of {data.selection_n} instance(s)."
    # fewer than two sets to compare: the window says why in place of the four agreement figures, and so
    # does the report (no 1 x 1 "pairwise agreement" square, no table of undefined rows)
    none = f'<p class="muted">{esc(data.no_agreement)}</p>' if getattr(data, "no_agreement", "") else ""
    ref = reference_section(data, tables, _table, _explain)
    sections = [
        ("summary", "Project summary", _summary(data, set_colors, tables_href)),
        *([(REFERENCE_KEY, REFERENCE_TITLE, ref)] if ref else []),
        ("pairwise", "Pairwise agreement of all sets", none or (
         crowd.heatmap_section(data, tables, tables_href, _table, _explain) if many else _heatmap(data, tables))),
        ("lexelts", "Agreement per lexelt", none or _lexelts(data, tables)),
        ("depth", "Agreement against the depth of the sense tree", none or (
         crowd.depth_section(data, tables, tables_href, _table, _explain) if many
         else _depth(data, tables, set_colors))),
        ("confusion", "Which senses get confused", none or (
         "".join(_confusion(data, cf) for cf in (confusions or ([data.confusion] if data.confusion else [])))
         or "<p>No annotator pair to compare.</p>")),
        ("gold", "Agreement with the adjudicated gold", _gold(data, tables, set_colors, tables_href)),
        ("systems", "System scores against the adjudicated gold", _systems(data, tables, set_colors)),
        ("progress", "Adjudication progress", _progress(data, tables)),
        ("competence", "Annotator competence and instance difficulty",
         competence_section(data, tables, tables_href, _table, _explain)),
        ("flagged", "Flagged instances and notes", _flagged(data, tables)),
        *([("timeline", "Agreement and adjudication over time", timeline_section(timeline, _table))]
          if timeline is not None else []),
        ("method", "Method", "".join(f"<h3>{esc(k)}</h3><p>{esc(v)}</p>" for k, v in data.method)),
    ]
    nav = "<nav><ol>" + "".join(f'<li><a href="#{k}">{esc(t)}</a></li>' for k, t, _ in sections) + "</ol></nav>"
    body = "".join(f'<section id="{k}"><h2>{esc(t)}</h2>{html}</section>' for k, t, html in sections)
    head_title = esc(data.summary.get("title") or title)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="color-scheme" content="light dark">'
            f"<title>{head_title}</title><style>{CSS}</style></head><body>"
            f"<h1>{head_title}</h1><p class=\"muted\">Generated {esc(when)} by hieradjudicate "
            f"{esc(__version__)}. Pairwise measure: {esc(data.options.measure)}.{esc(sel)} Hover over a cell, "
            f"bar or point for its figures.</p>{damaged}{nav}{body}</body></html>\n")


def write_report(data: Any, path: str | os.PathLike[str], **kwargs: Any) -> Path:
    """Render and write the report atomically (a temporary file renamed into place).

    A crowd-size report (:func:`~hieradjudicate.app.report.crowd.is_crowd`)
    also writes every table as CSV into
    :func:`~hieradjudicate.app.report.crowd.tables_dir` beside it.
    """
    target = Path(path)
    if crowd.is_crowd(data):  # the long tables go beside the report, in full
        folder = crowd.tables_dir(target)
        export_tables(data, folder)
        crowd.write_sets_csv(data, folder)
        kwargs.setdefault("tables_href", folder.name)
    # an exclusive temporary file (never a link planted at its name), renamed into place; on any
    # failure it is removed, and one left by a killed writer is swept by the next write
    return write_atomic(target, render_report(data, **kwargs))
