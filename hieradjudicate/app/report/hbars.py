"""Horizontal bars with a label beside each, and the report's per-lexelt section built on them.

A per-lexelt chart of vertical bars wrote MASC's 45 lexelt names at -35
degrees over one another, and the WSD framework's 2,808 lexelts as 2,808
bars in 660 px (#23).  Here every bar is a row with its label on the left
(the column as wide as the longest label, elided in the middle past
:data:`LABEL_PX`), so that no label can touch another; a project with more
than :data:`ALL_ROWS` lexelts is drawn as a distribution (a histogram of the
lexelts' values, thin lexelts apart) and the :data:`EXTREME_ROWS` least and
most reliable lexelts, the full list staying in the table below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hieradjudicate.app.dashboard.thin import FEW_INSTANCES
from hieradjudicate.app.report.svg import (
    FONT,
    _num,
    _svg,
    _text,
    bar_chart_svg,
    bin_names,
    empty_chart,
    esc,
    fit_text,
    text_width,
)

ROW = 18  # pixels per row: a 12 px line of text and air
LABEL_PX = 220  # the widest label column
ALL_ROWS = 60  # more lexelts than this: a distribution and the extremes, not a bar each
EXTREME_ROWS = 15
THIN_COLOR = "#9a9a9a"


def hbar_chart_svg(labels: Sequence[str], values: Sequence[float | None], *, colors: Sequence[str],
                   lows: Sequence[float | None] | None = None, highs: Sequence[float | None] | None = None,
                   tooltips: Sequence[str] | None = None, label_tips: Sequence[str] | None = None,
                   x_range: tuple[float, float] = (0.0, 1.0), lines: Sequence[tuple[float, str]] = (),
                   x_label: str = "", label: str = "bar chart", width: int = 720) -> str:
    """One row per label, top to bottom: a bar from 0 (``colors[k]``), optional whiskers, the label
    on the left with ``label_tips[k]`` on hover.  ``lines``: (value, dash) reference lines drawn
    across every row, named by the caller in a sentence (never as text over the bars)."""
    if not labels:
        return empty_chart(f"Nothing to draw in the {label}: no row.")
    names = [fit_text(t, LABEL_PX) for t in labels]
    left = 10 + max(text_width(t) for t in names)
    right, top = 16, 8
    pw = width - left - right
    ph = ROW * len(labels)
    lo, hi = x_range
    if hi <= lo:
        hi = lo + 1

    def x(v: float) -> float:
        return left + (min(max(v, lo), hi) - lo) / (hi - lo) * pw

    body = []
    for k in range(6):  # grid and the value axis under the rows
        v = lo + (hi - lo) * k / 5
        body.append(f'<line x1="{x(v):.1f}" x2="{x(v):.1f}" y1="{top}" y2="{top + ph}" stroke="currentColor" '
                    'stroke-opacity="0.12"/>' + _text(x(v), top + ph + 14, _num(v, 1), "middle"))
    zero = x(0.0 if lo <= 0 <= hi else lo)
    body.append(f'<line x1="{zero:.1f}" x2="{zero:.1f}" y1="{top}" y2="{top + ph}" stroke="currentColor" '
                'stroke-opacity="0.6"/>')
    for k, name in enumerate(names):
        yc = top + k * ROW + ROW / 2
        tip = label_tips[k] if label_tips is not None else labels[k]
        body.append(f'<g><title>{esc(tip)}</title>' + _text(left - 6, yc + FONT * 0.35, name, "end") + "</g>")
        v = values[k]
        bar_tip = esc(tooltips[k] if tooltips is not None else f"{labels[k]}: {_num(v, 3)}")
        if v is None:
            body.append(f'<g><title>{bar_tip}</title>' + _text(zero + 4, yc + FONT * 0.35, "undefined", "start",
                                                                'fill-opacity="0.6"') + "</g>")
            continue
        x0, x1 = sorted((x(v), zero))
        parts = [f'<rect x="{x0:.1f}" y="{yc - ROW * 0.35:.1f}" width="{max(x1 - x0, 0.5):.1f}" '
                 f'height="{ROW * 0.7:.1f}" fill="{colors[k % len(colors)]}"/>']
        lv, hv = (lows[k] if lows else None), (highs[k] if highs else None)
        if lv is not None and hv is not None:
            parts.append(f'<path d="M{x(lv):.1f} {yc:.1f}H{x(hv):.1f}M{x(lv):.1f} {yc - 4:.1f}v8'
                         f'M{x(hv):.1f} {yc - 4:.1f}v8" stroke="currentColor" stroke-width="1.2" fill="none"/>')
        body.append(f'<g class="bar"><title>{bar_tip}</title>{"".join(parts)}</g>')
    for v, dash in lines:
        if v is not None and lo <= v <= hi:
            pattern = f' stroke-dasharray="{dash}"' if dash else ""
            body.append(f'<line x1="{x(v):.1f}" x2="{x(v):.1f}" y1="{top - 4}" y2="{top + ph + 2}" '
                        f'stroke="currentColor" stroke-width="1.5"{pattern}/>')
    if x_label:
        body.append(_text(left + pw / 2, top + ph + 30, x_label, "middle"))
    return _svg(width, top + ph + (36 if x_label else 22), body, label)


def _rows(bars: list[Any], measure: str, overall: float | None, macro: float | None, title: str) -> str:
    few = [b.n < FEW_INSTANCES for b in bars]
    lows = [b.low for b in bars]
    return hbar_chart_svg(
        [b.lexelt for b in bars], [b.value for b in bars], lows=lows, highs=[b.high for b in bars],
        colors=[THIN_COLOR if f else "#3b7dd8" for f in few],
        tooltips=[b.explain.text() + (f"\nOnly {b.n} instance(s): the chance correction rests on too few "
                                      "instances to mean much." if f else "") for b, f in zip(bars, few)],
        label_tips=[f"{b.lexelt}: {b.n} instance(s)" for b in bars],
        x_range=(min([0.0, *[v for v in lows if v is not None], *[b.value for b in bars if b.value is not None]]),
                 1.0),
        lines=[(overall, ""), (macro, "5 4")], x_label=measure, label=title)


def lexelt_section(data: Any, table: str, explain: str, no_bars: str) -> str:
    """The report's "Agreement per lexelt": sorted rows (or a distribution and the extremes), the
    thin lexelts said, the method box and the full table (folded when long)."""
    lb = data.lexelts
    bars = lb.sorted("value")
    if not bars:  # fewer than two annotator sets (one set, only systems): no bar to draw
        return f'<p class="muted">{no_bars}</p>' + explain + table
    n = len(bars)
    few = sum(b.n < FEW_INSTANCES for b in bars)
    inst_few = sum(b.n for b in bars if b.n < FEW_INSTANCES)
    lines = (f"solid line: all lexelts pooled ({_num(lb.overall.value, 3)}); dashed: mean of the lexelts "
             f"({_num(lb.macro, 3)})")
    thin = "" if not few else (
        f"<p><b>{few:,} of {n:,} lexelts have fewer than {FEW_INSTANCES} instances</b> ({inst_few:,} of "
        f"{sum(b.n for b in bars):,} instances; grey): within them chance agreement is estimated from a handful "
        "of labels, so their chance-corrected figure rests on too few instances to mean much.</p>")
    total = int((getattr(data, "summary", None) or {}).get("lexelts") or 0)
    if total > n:  # the summary counts every lexelt; the chart only those two sets answered
        thin += (f'<p class="muted">{n:,} of the project\'s {total:,} lexelts are charted: the other '
                 f"{total - n:,} have no instance that two or more sets answered, so no agreement.</p>")
    ci = f"whiskers: 95% bootstrap interval ({lb.n_resamples} resamples)"
    if n <= ALL_ROWS:
        svg = _rows(bars, lb.measure, lb.overall.value, lb.macro, "agreement per lexelt")
        out = (svg + f'<p class="muted">{n} lexelts, sorted from the least to the most reliable; {ci}; '
               f"{esc(lines)}.</p>" + thin)
        return out + explain + table
    out = [_distribution(bars, lb.measure), thin]
    judged = [b for b in bars if b.n >= FEW_INSTANCES and b.value is not None] or \
        [b for b in bars if b.value is not None]
    k = min(EXTREME_ROWS, len(judged) // 2)
    if k:
        what = f"of the {len(judged):,} lexelts with {FEW_INSTANCES} instances or more" \
            if any(b.n >= FEW_INSTANCES for b in bars) else f"of {len(judged):,} lexelts"
        out.append(f"<h3>The {k} least reliable lexelts {what}</h3>"
                   + _rows(judged[:k], lb.measure, lb.overall.value, lb.macro, "least reliable lexelts"))
        out.append(f"<h3>The {k} most reliable lexelts {what}</h3>"
                   + _rows(judged[-k:], lb.measure, lb.overall.value, lb.macro, "most reliable lexelts"))
        out.append(f'<p class="muted">{ci}; {esc(lines)}.</p>')
    out.append(explain)
    out.append(f"<details><summary>All {n:,} lexelts (table)</summary>{table}</details>")
    return "".join(out)


def _distribution(bars: list[Any], measure: str) -> str:
    """How many lexelts reach each value: a histogram, lexelts of fewer than FEW_INSTANCES apart."""
    vals = np.array([np.nan if b.value is None else b.value for b in bars], float)
    thin = np.array([b.n < FEW_INSTANCES for b in bars], bool)
    ok = np.isfinite(vals)
    lo = min(-1.0, float(np.floor(vals[ok].min() * 2) / 2)) if ok.any() else -1.0
    bins = int(round((1.0 - lo) * 10))  # bins 0.1 wide from a half-integer: edges read exactly
    edges = np.linspace(lo, 1.0, bins + 1)
    counts = [np.histogram(vals[ok & ~thin], edges)[0], np.histogram(vals[ok & thin], edges)[0]]
    names = bin_names(edges)
    series = [f"{FEW_INSTANCES}+ instances", f"fewer than {FEW_INSTANCES}"]
    tips = [[f"{int(c[k])} lexelt(s) of {s.lower()} with {measure} in [{edges[k]:.2f}, {edges[k + 1]:.2f})"
             for k in range(bins)] for c, s in zip(counts, series)]
    svg = bar_chart_svg(names, series, [[float(v) for v in c] for c in counts], colors=["#3b7dd8", THIN_COLOR],
                        tooltips=tips, y_range=(0.0, max(1.0, float(max(c.max() for c in counts)))),
                        y_label="lexelts", label=f"distribution of {measure} over the lexelts", width=620,
                        height=260)
    undefined = int((~ok).sum())
    return (svg + f'<p class="muted">{len(bars):,} lexelts: how many reach each value of {esc(measure)} '
            f"(each bar labelled by its bin's lower edge); {undefined:,} without a defined value.</p>")
