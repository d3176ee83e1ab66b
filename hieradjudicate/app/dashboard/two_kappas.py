"""What the System comparison's kappa is, beside the pairwise map's (#31): two systems' kappa in the
"Pairwise agreement" map (lesk x resnik -0.003 on semeval2015) and in the "System comparison" table
(0.079) are different figures, and the window says so where the second is shown."""

from __future__ import annotations

from typing import Any

import numpy as np

from hieradjudicate.app.dashboard.agree import MEASURE_NAMES


def _f(v: float) -> str:
    return f"{v:.3f}"


def two_kappas_note(cmp: Any, heatmap: Any) -> str:
    """One paragraph (plain text) saying what the comparison table's kappa measures, what the pairwise
    map's measures, and, for each pair of systems shown in both, the two figures side by side."""
    text = (f"Kappa here: do two systems get the same instances right? Right = leaf score at least "
            f"{cmp.threshold:g} against the adjudicated gold (unanswered = wrong), over the {cmp.n:,} decided "
            "instances; chance from each system's accuracy (Pedersen 2002). ")
    if heatmap is None:
        return text.strip()
    name = MEASURE_NAMES.get(heatmap.measure, heatmap.measure)
    text += (f"The Pairwise agreement map's {name} asks instead whether they chose the same sense, over the "
             "instances both answered, chance from each lexelt's sense shares: two systems can pick different "
             "senses yet be right and wrong on the same instances, or the reverse.")
    pos = {n: k for k, n in enumerate(heatmap.names)}
    kappa = np.ma.filled(np.ma.asarray(cmp.kappa, float), np.nan)
    hv = np.ma.filled(np.ma.asarray(heatmap.value, float), np.nan)
    pairs = []
    for a in range(len(cmp.names)):
        for b in range(a + 1, len(cmp.names)):
            i, j = pos.get(cmp.names[a]), pos.get(cmp.names[b])
            if i is None or j is None or not (np.isfinite(kappa[a, b]) and np.isfinite(hv[i, j])):
                continue
            pairs.append(f"{cmp.names[a]} × {cmp.names[b]}: right/wrong {_f(kappa[a, b])} here, senses "
                         f"{_f(hv[i, j])} there ({int(heatmap.n[i, j]):,} shared)")
    if pairs:
        text += " " + "; ".join(pairs[:3]) + ("; …" if len(pairs) > 3 else "") + "."
    return text


__all__ = ["two_kappas_note"]
