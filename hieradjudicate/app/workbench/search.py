"""Free-text search of the instance table (no Qt): one vectorised substring search per keystroke pause.

It matches what the table shows -- the lexelt (``work-n``) with the instance
id, the context snippet, every set's tags (short labels), the crowd answers,
the gold and the note -- and, through the inventory, every tag whose full id
or gloss holds the text (the columns show short labels).
"""

from __future__ import annotations

from typing import Any

import numpy as np

Workbench = Any  # hieradjudicate.app.workbench.queue.Workbench (imported by it: no cycle)


def text_mask(wb: Workbench, needle: str) -> np.ndarray:
    """Instances whose row holds ``needle`` (lower case) anywhere."""
    import pandas as pd  # app layer; one vectorised search over a precomputed haystack

    if wb._haystack is None:
        # the lexelt as the table shows it ("work-n"), so searching it finds its rows
        names = np.asarray(wb.cols.lexelt_names, dtype=object)[wb.cols.lexelt]
        parts = [names + " " + wb.cols.inst_id, wb.cols.kwic]
        parts += wb.cols.set_tags
        if wb.cols.crowd is not None:
            parts.append(wb.cols.crowd)
        hay = pd.Series(parts[0], dtype=object).astype(str)
        for p in parts[1:]:
            hay = hay + "\t" + pd.Series(p, dtype=object).astype(str)
        wb._haystack = hay.str.lower()
    found = wb._haystack.str.contains(needle, regex=False).to_numpy(dtype=bool)
    found = found | tag_mask(wb, needle)
    for changing in (wb.gold, wb.note):  # decisions change these: searched fresh
        found |= pd.Series(changing, dtype=object).astype(str).str.lower().str.contains(
            needle, regex=False).to_numpy(dtype=bool)
    return found


def tag_mask(wb: Workbench, needle: str) -> np.ndarray:
    """Instances with a tag whose full id or gloss holds ``needle`` (the columns show short labels)."""
    corpus = wb.corpus
    inv = corpus.inventory
    hit = np.fromiter((needle in k.lower() or needle in g.lower() for k, g in zip(inv.node_id, inv.node_gloss)),
                      dtype=bool, count=len(inv.node_id))  # once per node, not per instance
    out = np.zeros(corpus.n, dtype=bool)
    if not hit.any():
        return out
    for s in corpus.sets:
        tag_inst = np.repeat(s.rows, s.n_tags())
        out[tag_inst[hit[s.tag_node]]] = True
    return out
