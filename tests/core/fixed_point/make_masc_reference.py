"""Write masc_reference.json: Dawid & Skene and MACE on the whole of MASC with their default stopping
rule, for tests/core/test_competence_masc_reference.py (the figures must not move when the code that
computes them is made faster).

    HIERADJ_REALDATA=../shared/data python tests/core/fixed_point/make_masc_reference.py [ds | mace]

With a model named, only its section is written again and the other's stored figures are kept (so a
change to one model's rule does not restate the other's figures with new rounding).
Stored per model: every set's competence, the posterior over its lexelt's leaves of every
:data:`EVERY`-th instance (by its key), and each lexelt's posterior summed over its instances (so a
change anywhere shows).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

EVERY = 50  #: the posterior of one instance in this many is stored whole


def masc():
    from hieradjudicate.app.loading.load import AnnotationSpec, load
    from hieradjudicate.core.layout_tags import unit_leaves

    d = Path(os.environ["HIERADJ_REALDATA"]) / "masc_amt"
    c = load([str(d / "inventory_tree.tsv")], [AnnotationSpec(str(d / "masc_amt_labels_wide.tsv.gz"))], []).corpus
    leaf = unit_leaves(c.inventory, list(c.sets))
    inst = np.concatenate([s.rows for s in c.sets]).astype(np.int64)
    rater = np.repeat(np.arange(len(c.sets)), [s.n for s in c.sets])
    return inst, rater, leaf, c


def summary(res, c) -> dict:
    x_task = c.inst_lexelt[res.tasks]
    sums = np.zeros((len(c.inventory.lexelts), res.posterior.shape[1]))
    np.add.at(sums, x_task, res.posterior)
    keys = [f"{c.inventory.lexelts[int(x)]} {c.instance_key(int(t))[1]}"
            for t, x in zip(res.tasks, x_task, strict=True)]
    return {"iterations": res.iterations, "converged": bool(res.converged),
            "competence": {c.sets[int(w)].name: float(a) for w, a in zip(res.workers, res.accuracy, strict=True)},
            "posterior": {keys[t]: res.posterior[t, :c.inventory.n_leaves[x_task[t]]].tolist()
                          for t in range(0, len(keys), EVERY)},
            "lexelt_sums": sums.tolist()}


def main() -> None:
    from hieradjudicate.core.crowd.competence import dawid_skene
    from hieradjudicate.core.crowd.mace import mace

    only = sys.argv[1:]
    if any(m not in ("ds", "mace") for m in only):
        raise SystemExit(f"models: ds, mace (not {only})")
    path = HERE / "masc_reference.json"
    inst, rater, leaf, c = masc()
    args = (inst, rater, None, c.inst_lexelt, c.inventory.n_leaves)
    out = json.loads(path.read_text(encoding="utf-8")) if only else {}
    out["every"] = EVERY
    for name, fit in (("ds", dawid_skene), ("mace", mace)):
        if not only or name in only:
            out[name] = summary(fit(*args, leaf=leaf, K=c.inventory.K), c)
    path.write_text(json.dumps(out, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
