"""The report's confusion matrices: senses as ``lemma#N`` with their gloss on hover, many senses summed.

Rows are set ``a``'s senses, columns set ``b``'s; the axes are named once
(not ``a: make#3`` in every label, which pushed the sense out of a clipped
label).  A lexelt with more than :data:`MAX_SENSES` senses (``make.v``: 49
leaves, a 49 x 49 grid) shows the senses that carry the most mass in either
set and one "N others" row and column summing the rest
(:meth:`Confusion.summed`); the full matrix is in the confusion table (CSV/JSON export).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from hieradjudicate.app.report.svg import esc, heatmap_svg
from hieradjudicate.core.inventory.labels import without_rank
from hieradjudicate.core.palette import scale_color

MAX_SENSES = 15  # rows (and columns) drawn, "N others" included


_KEYED = re.compile(r"^\((?P<key>[^)]+)\) ?(?P<gloss>.*)$", re.DOTALL)


def sense_tip(label: str, gloss: str) -> str:
    """``make#3: gloss (make%2:36:01::)``: the short label, the gloss without its own ``lemma#N:``
    and the full key (the dashboard's confusion glosses read ``(key) lemma#N: gloss``)."""
    m = _KEYED.match(gloss or "")
    key, text = (m["key"], m["gloss"]) if m else ("", gloss or "")
    text = without_rank(text)
    return f"{label}: {text}" + (f" ({key})" if key and key != label else "") if text else \
        (f"{label} ({key})" if key and key != label else label)


def confusion_html(data: Any, cf: Any, table, explain) -> str:
    """One confusion matrix with its heading, method box and glosses; ``table(headers, rows)`` renders
    a table, ``explain(Explain)`` the method box."""
    G = len(cf.labels)
    if G == 0 or cf.n == 0:
        return f"<p>No shared instances of {esc(cf.a)} and {esc(cf.b)} in {esc(cf.lexelt)}.</p>"
    full = cf
    cf = cf.summed(MAX_SENSES)
    K = len(cf.labels)
    M = np.asarray(cf.matrix, float)
    tips_of = [sense_tip(lab, g) for lab, g in zip(cf.labels, cf.glosses)]
    top = max(float(M.max()), 1e-9)
    vals = [[float(M[r, c]) / top for c in range(K)] for r in range(K)]
    text = [[(f"{M[r, c]:.2f}".rstrip("0").rstrip(".") if M[r, c] > 0 else "") for c in range(K)] for r in range(K)]
    tips = []
    for r in range(K):
        row = []
        for c in range(K):
            inst = cf.cell_instances(r, c)
            ids = " ".join(i for _, i in (data.instance_keys(int(k)) for k in inst[:12]))
            row.append(f"{cf.a}: {tips_of[r]}\n{cf.b}: {tips_of[c]}\n"
                       f"expected count {M[r, c]:.3f} on {inst.size} instance(s)"
                       + (f": {ids}" + (" …" if inst.size > 12 else "") if inst.size else ""))
        tips.append(row)
    colors = [[scale_color(v, 0.0, 1.0) if v > 0 else None for v in row] for row in vals]
    svg = heatmap_svg(cf.labels, cf.labels, vals, text, tips, lo=0.0, hi=1.0, label=f"confusion {cf.lexelt}",
                      legend="share of largest", cell=max(30, min(52, 520 // K)), colors=colors,
                      row_tips=[f"{cf.a}: {t}" for t in tips_of], col_tips=[f"{cf.b}: {t}" for t in tips_of],
                      row_title=f"{cf.a} (rows)", col_title=f"{cf.b} (columns)")
    more = "" if cf is full else (
        f'<p class="muted">{G} senses: the {K - 1} that carry the most in either set, and one row and '
        f"column summing the other {G - K + 1}; the full matrix is in the confusion table.</p>")
    gl = table(["sense", "gloss"], [[lab, g] for lab, g in zip(full.labels, full.glosses)])
    return (f"<h3>{esc(cf.lexelt)} — {esc(cf.a)} × {esc(cf.b)}, "
            f"{'leaves' if cf.depth is None else 'depth ' + str(cf.depth)}</h3>" + svg + more + explain(cf.explain)
            + f"<details><summary>Glosses of {esc(cf.lexelt)}</summary>{gl}</details>")
