"""The suggestion line of the detail panel: what A and Shift+A would take, a tie, a "none of these"."""

from __future__ import annotations

import html
import math

from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.app.workbench.suggest import MAJORITY
from hieradjudicate.core.inventory.labels import short_tag


def suggestion_html(wb: Workbench, i: int) -> str:
    s = wb.suggestion(i)
    if s is None:
        return "<b>Suggestion</b>: none"
    inv = wb.corpus.inventory
    x = int(wb.cols.lexelt[i])

    def short(tags) -> str:
        return html.escape(" ".join(short_tag(inv, x, t) for t in tags))

    sets = ", ".join(s.sets[:8]) + (f", … {len(s.sets) - 8} more" if len(s.sets) > 8 else "")
    text = (f"<b>Suggestion</b> (A): <b>{short(s.tags)}</b> — chosen by {s.support} of "
            f"{s.of} annotators ({html.escape(sets)})")
    if 2 * s.support <= s.of and not s.tied and not math.isnan(s.mass):  # no majority gave it as is: why it
        if s.mass > MAJORITY:
            text += f"; {s.mass:.0%} of the sense mass falls within it"
        else:
            text += f"; no answer holds more than half the sense mass, this one the most ({s.mass:.0%})"
    if s.tied:  # short: this panel is narrow, and a taller line would push the instance table (test_hidden_tabs)
        others = "; ".join(short(t) for t in s.tied)
        text += (f"<br><b style='color:#b35c00'>A tie</b>: {others}, as much sense mass and as many votes; "
                 f"A takes the first in project order — decide by hand")
    if s.none_of_these:
        text += ("<br><b style='color:#b35c00'>“None of these”</b>: taking it makes the gold say that no sense "
                 f"of the inventory fits ({short(s.none_of_these)})")
    if s.weighted:
        differs = "" if set(s.weighted) == set(s.tags) else " <i>(differs from the majority)</i>"
        text += (f"<br><b>Competence-weighted</b> (Shift+A): <b>{short(s.weighted)}</b> — {s.weighted_model} "
                 f"posterior {s.weighted_posterior:.2f}{differs}")
    return text
