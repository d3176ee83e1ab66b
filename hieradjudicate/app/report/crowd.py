"""The report at crowd scale: long per-set and per-pair tables summarised, full tables beside it as CSV.

A project with hundreds of sets (MASC: 228 workers, 25,878 pairs) would
write a table row, an SVG cell and a tooltip per pair: 72 MB of HTML that a
browser needs most of a minute to lay out.  Past :data:`MANY` sets the
report shows instead

* the pairwise matrix as one small raster image (PNG, one pixel per pair,
  sets in average-linkage order so that blocks show), with its colour scale;
* the sets with the highest and lowest mean agreement, the distribution of
  the pairwise values (histogram, quartiles) and the extreme pairs;
* the spread of the pairs' agreement at each depth (quartiles) with the group;
* extremes and quartiles of every other per-set table;

and the full tables are written beside the report as CSV (the HTML and
stderr say where).  Set colours are given only where they cannot repeat:
up to eight sets, or the systems when there are at most eight; every
other set is named, not coloured.
"""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from hieradjudicate.app.report.svg import bar_chart_svg, bin_names, esc, line_plot_svg
from hieradjudicate.core.palette import SET_COLORS, scale_color
from hieradjudicate.core.seriation import cluster_order, mean_agreement
from hieradjudicate.io.exports.csvsafe import csv_line
from hieradjudicate.io.atomic import write_atomic

MANY = 30  # more sets than this: summaries in the HTML, full tables in CSV
EXTREMES = 10  # rows shown at each end of a summarised table
UNDEFINED_RGB = (224, 224, 224)


def is_crowd(data: Any) -> bool:
    """Whether the report summarises (more than :data:`MANY` sets)."""
    return len(data.summary["sets"]) > MANY


def tables_dir(report: str | Path) -> Path:
    """Where the full tables of a summarised report go: ``<report stem>-tables/`` beside it."""
    p = Path(report)
    return p.with_name(f"{p.stem}-tables")


def set_colors(data: Any) -> dict[str, str]:
    """Colours that never repeat: every set when there are at most eight, else the systems only (if <= 8)."""
    sets = data.summary["sets"]
    if len(sets) <= len(SET_COLORS):
        return {x["name"]: SET_COLORS[k] for k, x in enumerate(sets)}
    systems = [x["name"] for x in sets if x["role"] != "annotator"]
    if len(systems) <= len(SET_COLORS):
        return {n: SET_COLORS[k] for k, n in enumerate(systems)}
    return {}


def write_sets_csv(data: Any, folder: str | Path) -> Path:
    """The project's sets (name, role, instances, multi-tag answers) as ``folder/sets.csv``."""
    path = Path(folder) / "sets.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, csv_line(["set", "role", "instances", "multi_tag"])
                 + "".join(csv_line([x["name"], x["role"], int(x["instances"]), int(x["multi_tag"])])
                           for x in data.summary["sets"]))
    return path


# -- a small PNG without any imaging library ----------------------------------------------------------
def png_bytes(rgb: np.ndarray) -> bytes:
    """``(h, w, 3)`` uint8 RGB as PNG (zlib-compressed, no filter)."""
    h, w, _ = rgb.shape

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    raw = np.concatenate([np.zeros((h, 1), np.uint8), rgb.reshape(h, w * 3).astype(np.uint8)], axis=1)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw.tobytes(), 9)) + chunk(b"IEND", b""))


def _lut(lo: float, hi: float, n: int = 256) -> np.ndarray:
    cols = [scale_color(v, lo, hi) for v in np.linspace(lo, hi, n)]
    return np.array([[int(c[i:i + 2], 16) for i in (1, 3, 5)] for c in cols], np.uint8)


def matrix_png(values: np.ndarray, lo: float = -1.0, hi: float = 1.0) -> bytes:
    """A value matrix as a PNG, one pixel per cell on the report's colour scale; NaN light grey."""
    v = np.asarray(values, float)
    lut = _lut(lo, hi)
    k = np.clip(np.round((np.nan_to_num(v, nan=lo) - lo) / (hi - lo) * 255), 0, 255).astype(np.int64)
    rgb = lut[k]
    rgb[np.isnan(v)] = UNDEFINED_RGB
    return png_bytes(rgb)


def _quartiles(x: np.ndarray) -> str:
    x = x[np.isfinite(x)]
    if not x.size:
        return "no defined value"
    q = [f"{v:.3f}".rstrip("0").rstrip(".") for v in np.percentile(x, [0, 25, 50, 75, 100])]
    return (f"{x.size} defined; min {q[0]}, lower quartile {q[1]}, median {q[2]}, "
            f"upper quartile {q[3]}, max {q[4]}")


def _csv_note(name: str, href: str | None, n_rows: int) -> str:
    if href is None:
        return f'<p class="muted">{n_rows} rows in all (the full table: <code>--tables-dir</code>).</p>'
    return (f'<p class="muted">{n_rows} rows in all: the full table is '
            f'<a href="{esc(href)}/{esc(name)}.csv">{esc(href)}/{esc(name)}.csv</a>.</p>')


def summarised_table(name: str | None, table: tuple[list[str], list[list[Any]]], key: str, href: str | None,
                     render, *, descending: bool = True) -> str:
    """The first and last :data:`EXTREMES` rows of a table sorted by column ``key``, its quartiles and a link.

    ``render(headers, rows)`` makes the HTML table; ``name`` is the CSV the
    full table went to (None: no link).
    """
    headers, rows = table
    if len(rows) <= 2 * EXTREMES:
        return render(headers, rows)
    j = headers.index(key)
    vals = np.array([np.nan if r[j] is None else float(r[j]) for r in rows])
    order = np.argsort(np.where(np.isnan(vals), np.inf, -vals if descending else vals), kind="stable")
    defined = order[np.isfinite(vals[order])]
    top, bottom = defined[:EXTREMES], defined[-EXTREMES:][::-1] if defined.size > EXTREMES else defined[:0]
    out = [f"<p>{esc(key)}: {esc(_quartiles(vals))}.</p>",
           f"<h3>Highest {esc(key)}</h3>", render(headers, [rows[i] for i in top])]
    if bottom.size:
        out += [f"<h3>Lowest {esc(key)}</h3>", render(headers, [rows[i] for i in bottom])]
    if name is not None:
        out.append(_csv_note(name, href, len(rows)))
    return "".join(out)


def _histogram(vals: np.ndarray, label: str, lo: float = -1.0, hi: float = 1.0, bins: int = 20,
               unit: str = "pairs") -> str:
    x = vals[np.isfinite(vals)]
    counts, edges = np.histogram(x, bins=bins, range=(lo, hi))
    names = bin_names(edges)
    return bar_chart_svg(names, [unit], [[float(c) for c in counts]], colors=["#3b7dd8"],
                         tooltips=[[f"{c} value(s) in [{edges[k]:.2f}, {edges[k + 1]:.2f})"
                                    for k, c in enumerate(counts)]],
                         y_range=(0.0, max(1.0, float(counts.max()) if counts.size else 1.0)), y_label=unit,
                         label=label, legend=False, width=620, height=240)


def heatmap_section(data: Any, tables: dict, href: str | None, render, explain) -> str:
    """The pairwise section for many sets: raster matrix, set extremes, histogram, extreme pairs."""
    hm = data.heatmap
    v = np.ma.filled(np.ma.asarray(hm.value, float), np.nan).astype(float)
    m = v.shape[0]
    order = cluster_order(v)
    png = base64.b64encode(matrix_png(v[np.ix_(order, order)])).decode("ascii")
    side = min(640, max(240, 3 * m))
    mean = mean_agreement(v)
    defined = (~np.isnan(v)).sum(axis=1)
    per_set = (["set", "role", "mean_agreement", "pairs_defined"],
               [[hm.names[a], hm.roles[a], None if np.isnan(mean[a]) else float(mean[a]), int(defined[a])]
                for a in range(m)])
    iu = np.triu_indices(m, 1)
    pair_vals = v[iu]
    n_undefined = int(np.isnan(pair_vals).sum())
    legend = "".join(f'<span class="swatch" style="background:{scale_color(x)}"></span>{x:+.1f} '
                     for x in (-1.0, -0.5, 0.0, 0.5, 1.0))
    return "".join([
        f"<p>{m} sets, {iu[0].size} pairs; {n_undefined} pairs share no instance and have no value "
        "(light grey). One pixel per pair, sets in average-linkage order (similar sets side by side).</p>",
        f'<img alt="pairwise {esc(hm.measure)} of {m} sets" width="{side}" height="{side}" '
        f'style="image-rendering: pixelated; border: 1px solid var(--line)" src="data:image/png;base64,{png}">',
        f'<p class="muted">Colour scale: {legend}<span class="swatch" style="background:#e0e0e0"></span>'
        "undefined. Hover is not available on the image: the full pairwise table is in the CSV.</p>",
        _histogram(pair_vals, f"distribution of pairwise {hm.measure}"),
        f"<p>Pairwise {esc(hm.measure)}: {esc(_quartiles(pair_vals))}.</p>",
        explain(hm.explain),
        "<h3>Sets by mean agreement with the others</h3>",
        summarised_table(None, per_set, "mean_agreement", None, render),
        "<h3>Pairs</h3>",
        summarised_table("pairwise", tables["pairwise"], "value", href, render),
    ])


def depth_section(data: Any, tables: dict, href: str | None, render, explain) -> str:
    """Agreement against depth for many pairs: quartiles of the pairs at each level, and the group."""
    d = data.depth
    vals = np.ma.filled(np.ma.asarray(d.pair_values, float), np.nan).reshape(len(d.pairs), len(d.levels))

    def q(p: float) -> list[float | None]:
        out = []
        for j in range(len(d.levels)):
            col = vals[:, j][np.isfinite(vals[:, j])]
            out.append(float(np.percentile(col, p)) if col.size else None)
        return out

    series = [("pairs: lower quartile", q(25), "#9ecae1", False), ("pairs: median", q(50), "#3182bd", False),
              ("pairs: upper quartile", q(75), "#9ecae1", False), ("group", list(d.group_values), "#7f7f7f", True)]
    flat = [x for _, s, _, _ in series for x in s if x is not None]
    svg = line_plot_svg(d.levels, series, y_range=(min([0.0, *flat]), 1.0), y_label=d.measure,
                        label="agreement against depth")
    return (svg + f'<p class="muted">{len(d.pairs)} pairs: their quartiles at each level, and the group.</p>'
            + explain(d.explain) + summarised_table("depth", tables["depth"], "value", href, render))
