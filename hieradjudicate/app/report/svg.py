"""Inline SVG charts for the HTML report: heatmaps, bar charts with interval whiskers, line plots.

No plotting library, no JavaScript: each function returns one ``<svg>``
element as a string.  Every text that comes from data (labels, tooltips) is
escaped here with :func:`html.escape`, including the ``<title>`` tooltips.
Axis lines and labels use ``currentColor`` so that they follow the page's
light or dark colours; filled cells carry their own contrasting text colour.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from hieradjudicate.core.inventory.labels import elide
from hieradjudicate.core.palette import scale_color, text_color_on

FONT = 12


def esc(text: object) -> str:
    """Escape for HTML text and attribute values (quotes included)."""
    return html.escape("" if text is None else str(text), quote=True)


def _num(v: float | None, digits: int = 2) -> str:
    return "–" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.{digits}f}"


def _svg(width: float, height: float, body: list[str], label: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="{esc(label)}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
            f'font-size="{FONT}" font-family="system-ui, sans-serif">' + "".join(body) + "</svg>")


def _text(x: float, y: float, s: object, anchor: str = "start", extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="currentColor" {extra}>{esc(s)}</text>'


_NARROW = set("iljtfrI.,:;|!'()[] ")
_WIDE = set("mwMW@%")


def text_width(s: str, size: float = FONT) -> float:
    """Estimated width in pixels of ``s`` in a sans-serif font of ``size`` px (on the generous side:
    labels laid out by it never touch)."""
    w = 0.0
    for ch in s:
        w += 0.34 if ch in _NARROW else 0.92 if ch in _WIDE else 0.74 if ch.isupper() else 0.64
    return w * size


def fit_text(s: str, px: float, size: float = FONT) -> str:
    """``s`` elided in the middle (the part that differs, often the end of an id, stays) to fit ``px``."""
    if text_width(s, size) <= px:
        return s
    n = len(s)
    while n > 1 and text_width(elide(s, n, middle=True), size) > px:
        n -= 1
    return elide(s, n, middle=True)


def bin_names(edges: Sequence[float]) -> list[str]:
    """The lower edges of histogram bins with as many decimals as write them exactly (up to three), or
    at least keep them distinct: never two bins named alike, as 0.05 and 0.10 were ("0.1", "0.1")."""
    low = [float(e) for e in list(edges)[:-1]]
    digits = next((d for d in (1, 2, 3) if all(abs(round(e, d) - e) < 1e-9 for e in low)), None)
    if digits is None:
        digits = next((d for d in (1, 2, 3) if len({f"{e:.{d}f}" for e in low}) == len(low)), 3)
    return [f"{e:.{digits}f}" for e in low]


def empty_chart(sentence: str) -> str:
    """What stands where a chart has nothing to draw: a sentence, never empty axes."""
    return f'<p class="muted empty-chart">{esc(sentence)}</p>'


def heatmap_svg(row_labels: Sequence[str], col_labels: Sequence[str], values: Sequence[Sequence[float | None]],
                cell_text: Sequence[Sequence[str]], tooltips: Sequence[Sequence[str]], *,
                lo: float = -1.0, hi: float = 1.0, label: str = "heatmap", legend: str = "value",
                colors: Sequence[Sequence[str | None]] | None = None, cell: int = 58,
                scale: bool = True, row_tips: Sequence[str] | None = None, col_tips: Sequence[str] | None = None,
                row_title: str = "", col_title: str = "", label_px: float = 170) -> str:
    """A matrix of coloured cells with values, row/column labels, tooltips and a colour scale.

    Labels longer than ``label_px`` are elided in the middle; ``row_tips``/``col_tips`` are their
    hover texts (the full label by default, e.g. a sense's gloss); ``row_title``/``col_title`` name
    the axes (what the rows and the columns are), once rather than in every label.
    """
    if not row_labels or not col_labels:
        return empty_chart(f"Nothing to draw in the {label}: no row or no column.")
    rows = [fit_text(r, label_px) for r in row_labels]
    cols = [fit_text(c, label_px) for c in col_labels]
    row_tips = list(row_tips) if row_tips is not None else list(row_labels)
    col_tips = list(col_tips) if col_tips is not None else list(col_labels)
    # column labels at -40 degrees: neighbours are cell * sin(40) >= 19 px apart, never overprinted
    left = 12 + max(text_width(r) for r in rows) + (FONT + 8 if row_title else 0)
    top = 14 + max(text_width(c) for c in cols) * 0.65 + (FONT + 10 if col_title else 0)
    nr, nc = len(row_labels), len(col_labels)
    width = max(left + nc * cell + 130, left + text_width(col_title) + 20)
    height = max(top + nr * cell + 20, top + 180)
    body = []
    if col_title:
        body.append(_text(left, 14, col_title, "start", 'font-weight="bold"'))
    if row_title:
        ym = top + nr * cell / 2
        body.append(_text(14, ym, row_title, "middle", f'font-weight="bold" transform="rotate(-90 14 {ym:.1f})"'))
    for j, c in enumerate(cols):
        x = left + j * cell + cell / 2
        body.append(f'<g><title>{esc(col_tips[j])}</title>' + _text(x, top - 6, c, "start",
                    f'transform="rotate(-40 {x:.1f} {top - 6:.1f})"') + "</g>")
    for i, r in enumerate(row_labels):
        y = top + i * cell + cell / 2 + 4
        body.append(f'<g><title>{esc(row_tips[i])}</title>' + _text(left - 6, y, rows[i], "end") + "</g>")
        for j in range(nc):
            v = values[i][j]
            fill = colors[i][j] if colors is not None else scale_color(v, lo, hi)
            x0, y0 = left + j * cell, top + i * cell
            if fill is None:  # an empty cell: a faint frame in the page's own colour
                body.append(f'<g class="cell"><title>{esc(tooltips[i][j])}</title><rect x="{x0 + 1:.1f}" '
                            f'y="{y0 + 1:.1f}" width="{cell - 2}" height="{cell - 2}" fill="currentColor" '
                            'fill-opacity="0.05" rx="3"/></g>')
                continue
            tc = text_color_on(fill)
            lines = str(cell_text[i][j]).split("\n")
            t = "".join(f'<text x="{x0 + cell / 2:.1f}" y="{y0 + cell / 2 + 4 + (k - (len(lines) - 1) / 2) * 13:.1f}" '
                        f'text-anchor="middle" fill="{tc}" font-size="{FONT - (k > 0)}">{esc(s)}</text>'
                        for k, s in enumerate(lines))
            body.append(f'<g class="cell"><title>{esc(tooltips[i][j])}</title>'
                        f'<rect x="{x0 + 1:.1f}" y="{y0 + 1:.1f}" width="{cell - 2}" height="{cell - 2}" '
                        f'fill="{fill}" rx="3"/>{t}</g>')
    if scale:  # colour scale
        x0, y0, h = left + nc * cell + 24, top, 150
        steps = 30
        for s in range(steps):
            v = hi - (hi - lo) * (s + 0.5) / steps
            body.append(f'<rect x="{x0}" y="{y0 + s * h / steps:.1f}" width="14" height="{h / steps + 0.5:.1f}" '
                        f'fill="{scale_color(v, lo, hi)}"/>')
        for v in sorted({lo, 0.0 if lo < 0 < hi else lo, hi}):
            y = y0 + (hi - v) / (hi - lo) * h
            body.append(_text(x0 + 18, y + 4, _num(v, 1)))
        body.append(_text(x0, y0 + h + 16, legend))
    return _svg(width, height, body, label)


def bar_chart_svg(groups: Sequence[str], series: Sequence[str], values: Sequence[Sequence[float | None]], *,
                  lows: Sequence[Sequence[float | None]] | None = None,
                  highs: Sequence[Sequence[float | None]] | None = None,
                  colors: Sequence[str], tooltips: Sequence[Sequence[str]] | None = None,
                  y_range: tuple[float, float] | None = None, y_label: str = "", label: str = "bar chart",
                  legend: bool = True, width: int = 720, height: int = 300, ref: float | None = None,
                  group_colors: Sequence[str] | None = None, empty: str = "") -> str:
    """Grouped vertical bars: ``values[s][g]`` for series ``s`` in group ``g``; optional whiskers.

    An undefined value (``None``) is drawn as a small cross labelled "undefined".
    ``group_colors`` colours each group's bars (e.g. by category) instead of each series.
    """
    flat = [v for row in values for v in row if v is not None]
    if not groups or not flat:
        return empty_chart(empty or f"Nothing to draw in the {label}: no value is defined.")
    flat += [v for row in (lows or []) for v in row if v is not None]
    flat += [v for row in (highs or []) for v in row if v is not None]
    lo, hi = y_range if y_range else (min([0.0, *flat]), max([1.0, *flat]))
    if hi <= lo:
        hi = lo + 1
    left, right = 52, 12
    legend_rows = _legend_rows(series, width - left) if legend and len(series) > 1 else []
    top = 14 + 18 * len(legend_rows)
    ng, ns = max(len(groups), 1), max(len(series), 1)
    gw = (width - left - right) / ng
    bw = min(40.0, gw * 0.8 / ns)
    names, angle, step = _group_labels(groups, gw)
    bottom = 24 + (max(text_width(t) for t in names) * math.sin(math.radians(angle)) if angle else 0)
    ph = height - top - 70  # the plot's height as asked; the margin below fits the labels
    height = int(top + ph + bottom + 6)
    pw = width - left - right

    def y(v: float) -> float:
        return top + (hi - min(max(v, lo), hi)) / (hi - lo) * ph

    body = [f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="currentColor" stroke-opacity="0.6"/>']
    for k in range(6):
        v = lo + (hi - lo) * k / 5
        body.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="currentColor" '
                    'stroke-opacity="0.12"/>' + _text(left - 4, y(v) + 4, _num(v, 2 if hi - lo <= 2 else 0), "end"))
    base = y(0.0 if lo <= 0 <= hi else lo)
    body.append(f'<line x1="{left}" x2="{left + pw}" y1="{base:.1f}" y2="{base:.1f}" stroke="currentColor" '
                'stroke-opacity="0.6"/>')
    if ref is not None and lo <= ref <= hi:
        body.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(ref):.1f}" y2="{y(ref):.1f}" stroke="currentColor" '
                    'stroke-dasharray="4 3" stroke-opacity="0.5"/>')
    for g, name in enumerate(groups):
        gx = left + g * gw + (gw - bw * ns) / 2
        cx = left + g * gw + gw / 2
        if g % step == 0:  # every label written (a long ordered axis, e.g. days: every step-th)
            body.append(f'<g><title>{esc(name)}</title>' + (
                _text(cx, top + ph + 16, names[g], "middle") if not angle else
                _text(cx, top + ph + 14, names[g], "end", f'transform="rotate(-{angle} {cx:.1f} {top + ph + 14:.1f})"'))
                + "</g>")
        for s in range(len(series)):
            v = values[s][g]
            x0 = gx + s * bw
            tip = esc(tooltips[s][g]) if tooltips else esc(f"{series[s]} {name}: {_num(v, 3)}")
            if v is None:
                body.append(f'<g><title>{tip}</title>' + _text(x0 + bw / 2, base - 4, "×", "middle") + "</g>")
                continue
            y0, y1 = sorted((y(v), base))
            parts = [f'<rect x="{x0 + 1:.1f}" y="{y0:.1f}" width="{max(bw - 2, 1):.1f}" height="{max(y1 - y0, 0.5):.1f}" '
                     f'fill="{group_colors[g] if group_colors else colors[s % len(colors)]}"/>']
            lo_v = lows[s][g] if lows else None
            hi_v = highs[s][g] if highs else None
            if lo_v is not None and hi_v is not None:
                xm = x0 + bw / 2
                parts.append(f'<path d="M{xm:.1f} {y(lo_v):.1f}V{y(hi_v):.1f}M{xm - 4:.1f} {y(lo_v):.1f}h8'
                             f'M{xm - 4:.1f} {y(hi_v):.1f}h8" stroke="currentColor" stroke-width="1.3" fill="none"/>')
            body.append(f'<g class="bar"><title>{tip}</title>{"".join(parts)}</g>')
    if y_label:
        body.append(_text(12, top + ph / 2, y_label, "middle", f'transform="rotate(-90 12 {top + ph / 2:.1f})"'))
    for r, row in enumerate(legend_rows):  # the key above the plot, wrapped: names never run together
        for s, x in row:
            body.append(f'<rect x="{x:.1f}" y="{2 + 18 * r}" width="10" height="10" '
                        f'fill="{colors[s % len(colors)]}"/>' + _text(x + 14, 11 + 18 * r, series[s]))
    return _svg(width, height, body, label)


def _legend_rows(series: Sequence[str], room: float) -> list[list[tuple[int, float]]]:
    """The legend's entries ``(series, x)`` in rows no wider than ``room``."""
    rows: list[list[tuple[int, float]]] = [[]]
    x = 52.0
    for s, name in enumerate(series):
        w = 24 + text_width(name)
        if rows[-1] and x + w > 52 + room:
            rows.append([])
            x = 52.0
        rows[-1].append((s, x))
        x += w
    return rows


def _group_labels(groups: Sequence[str], gw: float) -> tuple[list[str], int, int]:
    """The x labels of a bar chart, their angle and every how many groups one is written.

    Horizontal when every label fits its slot; else at -35 degrees (neighbours ``gw * sin 35`` apart
    must clear a line of text, or only every ``step``-th is written: an ordered axis such as days);
    long labels are elided in the middle (the end of an id is where ids differ).
    """
    names = [fit_text(g, 220) for g in groups]
    if max(text_width(t) for t in names) <= gw - 4:
        return names, 0, 1
    step = max(1, math.ceil((FONT + 2) / (gw * math.sin(math.radians(35)))))
    return names, 35, step


MARKER_COLOR = "#8172b3"  # the Timeline tab's marker colour


def line_plot_svg(x_labels: Sequence[str], series: Sequence[tuple[str, Sequence[float | None], str, bool]], *,
                  tooltips: Sequence[Sequence[str]] | None = None, y_range: tuple[float, float] | None = None,
                  y_label: str = "", label: str = "line plot", width: int = 720, height: int = 300,
                  empty: str = "", intervals: Sequence[Sequence[tuple[float | None, float | None]] | None] = (),
                  markers: Sequence[tuple[float, str]] = ()) -> str:
    """Lines over categorical x positions; ``series`` = (name, values, colour, dashed).  Gaps at ``None``.

    ``intervals[s]``: each point's (low, high) of series ``s`` drawn as a whisker (None: none);
    ``markers``: (position, label) vertical dashed lines, the position in points (0 the first, 1.5
    half-way between the second and the third)."""
    flat = [v for _, vals, _, _ in series for v in vals if v is not None]
    flat += [b for band in intervals if band for pair in band for b in pair if b is not None]
    if not x_labels or not flat:
        return empty_chart(empty or f"Nothing to draw in the {label}: no value is defined.")
    lo, hi = y_range if y_range else (min([0.0, *flat]), max([1.0, *flat]))
    if hi <= lo:
        hi = lo + 1
    # the key on the right as wide as its longest name (up to 260 px), so that names read whole
    left, top, bottom = 52, 14, 50
    right = int(min(260, max(150, 46 + max(text_width(name) for name, *_ in series))))
    pw, ph = width - left - right, height - top - bottom
    n = max(len(x_labels), 1)

    def px(j: int) -> float:
        return left + (pw * (j + 0.5) / n)

    def py(v: float) -> float:
        return top + (hi - v) / (hi - lo) * ph

    body = [f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="currentColor" stroke-opacity="0.6"/>',
            f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="currentColor" '
            'stroke-opacity="0.6"/>']
    for k in range(6):
        v = lo + (hi - lo) * k / 5
        body.append(f'<line x1="{left}" x2="{left + pw}" y1="{py(v):.1f}" y2="{py(v):.1f}" stroke="currentColor" '
                    'stroke-opacity="0.12"/>' + _text(left - 4, py(v) + 4, _num(v, 2 if hi - lo <= 2 else 0), "end"))
    for j, xl in enumerate(x_labels):
        body.append(f'<g><title>{esc(xl)}</title>' + _text(px(j), top + ph + 16, fit_text(xl, pw / n - 6), "middle")
                    + "</g>")
    for pos, text in markers:  # under the lines; its label at the top, inside the plot
        mx = min(max(px(pos), left), left + pw)
        body.append(f'<g class="marker"><title>{esc(text)}</title><line x1="{mx:.1f}" x2="{mx:.1f}" y1="{top}" '
                    f'y2="{top + ph}" stroke="{MARKER_COLOR}" stroke-width="2" stroke-dasharray="5 3"/>'
                    + _text(mx + 3, top + 10, fit_text(text, max(40.0, left + pw - mx - 6)), "start",
                            f'style="fill: {MARKER_COLOR}"') + "</g>")
    for s, band in enumerate(intervals):
        color = series[s][2]
        for j, (lo_j, hi_j) in enumerate(band or ()):
            if lo_j is not None and hi_j is not None:
                body.append(f'<line class="interval" x1="{px(j):.1f}" x2="{px(j):.1f}" y1="{py(lo_j):.1f}" '
                            f'y2="{py(hi_j):.1f}" stroke="{color}" stroke-opacity="0.55" stroke-width="1.5"/>')
    for s, (name, vals, color, dashed) in enumerate(series):
        dash = ' stroke-dasharray="6 4"' if dashed else ""
        seg: list[str] = []
        for j, v in enumerate(vals):
            if v is None:
                seg.append("")
                continue
            seg.append(f"{'L' if seg and seg[-1] else 'M'}{px(j):.1f} {py(v):.1f}")
        d = "".join(seg)
        if d:
            body.append(f'<path d="{d}" stroke="{color}" stroke-width="{3 if dashed else 2}" fill="none"{dash}/>')
        for j, v in enumerate(vals):
            if v is not None:
                tip = esc(tooltips[s][j]) if tooltips else esc(f"{name} at {x_labels[j]}: {_num(v, 3)}")
                body.append(f'<g class="point"><title>{tip}</title><circle cx="{px(j):.1f}" cy="{py(v):.1f}" r="4" '
                            f'fill="{color}"/></g>')
        ly = top + 10 + s * 18
        body.append(f'<line x1="{left + pw + 12}" x2="{left + pw + 34}" y1="{ly - 4}" y2="{ly - 4}" stroke="{color}" '
                    f'stroke-width="{3 if dashed else 2}"{dash}/>' + f'<g><title>{esc(name)}</title>'
                    + _text(left + pw + 38, ly, fit_text(name, right - 42)) + "</g>")
    if y_label:
        body.append(_text(12, top + ph / 2, y_label, "middle", f'transform="rotate(-90 12 {top + ph / 2:.1f})"'))
    return _svg(width, height, body, label)
