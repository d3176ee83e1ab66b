"""Write reference.json: MASC fixed points from tight runs (``tol=1e-12``), for
tests/core/test_competence_fixed_point.py (#36 item 2).

    HIERADJ_REALDATA=../shared/data python tests/core/fixed_point/make_reference.py

Dawid & Skene on the labels of ``say-v`` and MACE on those of ``know-v`` (each word alone: the
same labels the test gives its default run).  Stored per word: every set's competence, every
instance's most probable leaf, and the whole posterior of the instances whose most probable leaf
has a posterior below 0.9 (where a run short of the fixed point shows first).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

TIGHT = 1e-12


def masc_word(word: str):
    from hieradjudicate.app.loading.load import AnnotationSpec, load
    from hieradjudicate.core.layout_tags import unit_leaves

    d = Path(os.environ["HIERADJ_REALDATA"]) / "masc_amt"
    c = load([str(d / "inventory_tree.tsv")], [AnnotationSpec(str(d / "masc_amt_labels_wide.tsv.gz"))], []).corpus
    leaf = unit_leaves(c.inventory, list(c.sets))
    inst = np.concatenate([s.rows for s in c.sets]).astype(np.int64)
    rater = np.repeat(np.arange(len(c.sets)), [s.n for s in c.sets])
    keep = c.inst_lexelt[inst] == c.inventory.lexelts.index(word)
    return inst[keep], rater[keep], leaf[keep], c


def summary(res, c, word: str) -> dict:
    x = c.inventory.lexelts.index(word)
    names = [c.inventory.label(int(v)) for v in c.inventory.lexelt_leaf_nodes[x]]
    n = len(names)
    keys = [c.instance_key(int(t))[1] for t in res.tasks]
    best = res.posterior[:, :n].argmax(axis=1)
    top = res.posterior[np.arange(len(best)), best]
    return {"word": word, "leaves": names, "iterations": res.iterations, "distance": res.distance,
            "competence": {c.sets[int(w)].name: float(a) for w, a in zip(res.workers, res.accuracy, strict=True)},
            "best": dict(zip(keys, [names[int(b)] for b in best], strict=True)),
            "uncertain": {keys[t]: res.posterior[t, :n].tolist() for t in np.flatnonzero(top < 0.9)}}


def main() -> None:
    from hieradjudicate.core.crowd.competence import dawid_skene
    from hieradjudicate.core.crowd.mace import mace

    out = {"tol": TIGHT}
    inst, rater, leaf, c = masc_word("say-v")
    ds = dawid_skene(inst, rater, None, c.inst_lexelt, c.inventory.n_leaves, leaf=leaf, K=c.inventory.K,
                     tol=TIGHT, max_iter=20000)
    assert ds.converged
    out["ds"] = summary(ds, c, "say-v")
    inst, rater, leaf, c = masc_word("know-v")
    mc = mace(inst, rater, None, c.inst_lexelt, c.inventory.n_leaves, leaf=leaf, K=c.inventory.K, tol=TIGHT,
              max_iter=20000)
    assert mc.converged
    out["mace"] = summary(mc, c, "know-v")
    (HERE / "reference.json").write_text(json.dumps(out, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
