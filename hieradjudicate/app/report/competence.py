"""The report's section on annotator competence and instance difficulty (plain HTML + SVG, no Qt).

Per set: the competence table (a crowd's is summarised by its extremes and
quartiles, the whole table written beside the report as CSV); the histogram of
the instances' posterior entropy; the hardest instances with the model's most
probable sense.  Figures come from :mod:`hieradjudicate.app.dashboard.competence`.
"""

from __future__ import annotations

from html import escape as esc
from typing import Any

import numpy as np

from hieradjudicate.app.report import crowd

HARDEST_SHOWN = 20


def section(data: Any, tables: dict, href: str | None, render, explain) -> str:
    """``render(headers, rows)`` makes an HTML table, ``explain(Explain)`` the method box."""
    comp = data.competence
    if comp is None and getattr(data, "competence_refused", ""):
        return f"<p>Not estimated: {esc(data.competence_refused)}</p>"
    if comp is None:
        return ("<p>Not estimated: the report estimates annotator competence when three or more annotator sets "
                "label an instance (Kruskal 1977; and <code>--competence none</code> was not given).</p>")
    s = comp.summary()
    out = [f"<p>{esc(comp.model)} over {len(comp.names)} annotator sets and "
           f"{int(np.isfinite(comp.entropy).sum())} instances ({comp.iterations} iteration(s), "
           f"{_state(comp)}). {esc(comp.measure[0].upper() + comp.measure[1:])} from "
           f"{s.get('competence_min', float('nan')):.3f} to {s.get('competence_max', float('nan')):.3f} "
           f"(median {s.get('competence_median', float('nan')):.3f}); mean posterior entropy "
           f"{s.get('mean_entropy_bits', float('nan')):.3f} bits.</p>"]
    table = tables["competence"]
    if crowd.is_crowd(data):
        out.append(crowd.summarised_table("competence", table, "competence", href, render))
    else:
        out.append(render(*table))
    out.append("<h3>Instance difficulty</h3>")
    out.append(crowd._histogram(comp.entropy, "posterior entropy of every instance (bits)", 0.0,
                                float(comp.hist_edges[-1]), len(comp.hist_counts), unit="instances"))
    head, rows = _with_short_senses(comp, *tables["difficulty"])
    out.append(f"<h3>The {min(HARDEST_SHOWN, len(rows))} most uncertain instances</h3>")
    out.append(render(head, rows[:HARDEST_SHOWN]))
    if len(rows) > HARDEST_SHOWN:
        out.append(crowd._csv_note("difficulty", href, len(rows)))
    out.append(explain(comp.explain))
    return "".join(out)


def _with_short_senses(comp: Any, head: list[str],
                       rows: list[list[Any]]) -> tuple[list[str], list[list[Any]]]:
    """The difficulty table with the most probable sense as everywhere else (``find#3``, ``make#12``),
    its id beside it when that says something else (MASC's ``3``, a WordNet key)."""
    if comp.short is None or "most_probable_sense" not in head:
        return head, rows
    j = head.index("most_probable_sense")
    hard = comp.most_uncertain()[:len(rows)]
    out = []
    for r, i in zip(rows, hard.tolist()):
        k = int(comp.best_node[i])
        short = comp.short[k] if k >= 0 else ""
        out.append([*r[:j], short, r[j] if r[j] != short else "", *r[j + 1:]])
    return [*head[:j], "most_probable_sense", "sense_id", *head[j + 1:]], out


def _state(comp) -> str:
    """converged, NOT converged, or NOT converged on the lexelts named (Dawid & Skene)."""
    from hieradjudicate.app.dashboard.competence import unconverged_lexelts

    if comp.converged:
        return "converged"
    if getattr(comp, "unconverged", None):
        return f"NOT converged on {unconverged_lexelts(comp.unconverged, comp.fitted)}"
    return "NOT converged"
