"""Builders for small hand-made corpora (Figure 1 of metrics.md)."""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.model import CorpusBuilder
from hieradjudicate.core.records import AnnotationSource, InventorySource, SenseRecord

FIGURE1 = [("A", None), ("A.1", "A"), ("A.1a", "A.1"), ("A.1b", "A.1"), ("A.2", "A"),
           ("B", None), ("B.1", "B"), ("B.2", "B"), ("B.3", "B")]


def inventory_source(senses=FIGURE1, lexelt="x.n", **extra) -> InventorySource:
    recs = [SenseRecord(lexelt, s, p, gloss=f"gloss of {s}", line=i + 1, file="fig1.txt", **extra.get(s, {}))
            for i, (s, p) in enumerate(senses)]
    return InventorySource("fig1.txt", "test", recs)


def annotation_source(rows, name="set", path="ann.key") -> AnnotationSource:
    """rows: list of (lexelt, instance, set, [(tag, weight|None), ...])."""
    items: dict = {}
    sets: dict = {}
    tags: dict = {}
    it, st, tg, wt, ln = [], [], [], [], []
    for line, (lex, inst, sname, answer) in enumerate(rows, 1):
        i = items.setdefault((lex, inst), len(items))
        s = sets.setdefault(sname, len(sets))
        for tag, w in answer:
            it.append(i)
            st.append(s)
            tg.append(tags.setdefault(tag, len(tags)))
            wt.append(np.nan if w is None else w)
            ln.append(line)
    return AnnotationSource(path, "test", list(sets), [k[0] for k in items], [k[1] for k in items], list(tags),
                            np.asarray(it, np.int64), np.asarray(st, np.int64), np.asarray(tg, np.int64),
                            np.asarray(wt, float), np.asarray(ln, np.int64))


def build(annotations, inventory=None, roles=None):
    b = CorpusBuilder()
    b.add_inventory(inventory or inventory_source())
    for src in annotations:
        b.add_annotations(src, roles=roles)
    return b.build()
