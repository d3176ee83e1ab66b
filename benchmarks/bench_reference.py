"""Benchmark (#21 items 2 and 3): scores against a reference gold, and the highlight kept by identity.

Builds a project of the WSD framework's ``ALL`` gold key and the Lesk system output repeated ``--copies``
times (15 copies: 108,795 instances; ids renamed per copy, the data-set prefix kept so the per-data-set
figures are computed too) with the WordNet 3.0 inventory, then prints

* the time and memory of every system's scores against the reference gold (four policies, per data set):
  what the live panel and the dashboard compute once per project, in the background;
* the time of a header-click sort with the highlighted row moved to its instance's new row
  (``InstanceModel.reorder``: the sort plus one vectorised position look-up), and of one
  ``Workbench.rows_of`` look-up, on the same project and (with the real data) on MASC.

Usage::

    python benchmarks/bench_reference.py [--copies 15]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench_util import measure, realdata  # noqa: E402

from hieradjudicate.app.loading.specs import AnnotationSpec  # noqa: E402
from hieradjudicate.app.session.session import Session  # noqa: E402
from hieradjudicate.app.workbench.queue import Workbench  # noqa: E402
from hieradjudicate.app.workbench.reference import reference_scores  # noqa: E402


def repeat_key(src: Path, dst: Path, copies: int) -> int:
    lines = [ln for ln in src.read_text().splitlines() if ln.strip()]
    out = []
    for c in range(copies):
        for ln in lines:
            inst, rest = ln.split(" ", 1)
            ds, tail = inst.split(".d", 1)
            out.append(f"{ds}.d{c}{tail} {rest}")
    dst.write_text("\n".join(out) + "\n")
    return len(out)


def sort_with_highlight(wb: Workbench, key: str) -> None:
    """What a header click costs: the new order, then the highlighted instance's new row."""
    held = np.array([int(wb.view[len(wb.view) // 2])])
    wb._sort_cache.pop(key, None)  # a first click on this column (the rank is cached after it)
    wb.set_sort(key, descending=bool(wb.sort_descending) is False)
    wb.rows_of(held)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", type=int, default=15)
    args = ap.parse_args()
    d = realdata() / "wsdeval"
    if not (d / "ALL.gold.key.txt").is_file() or not Path("/usr/share/wordnet/index.noun").is_file():
        sys.exit(f"needs {d}/ALL.gold.key.txt and WordNet 3.0 at /usr/share/wordnet")
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        n = repeat_key(d / "ALL.gold.key.txt", t / "ALL.gold.key.txt", args.copies)
        repeat_key(d / "ALL.lesk_example.key.txt", t / "ALL.lesk_example.key.txt", args.copies)
        specs = [AnnotationSpec(str(t / "ALL.gold.key.txt"), "gold", "gold"),
                 AnnotationSpec(str(t / "ALL.lesk_example.key.txt"), "lesk", "system")]
        Session.create(t / "p.hadj", ["/usr/share/wordnet"], specs).close()
        with Session.open(t / "p.hadj") as s:
            c = s.corpus
            print(f"project: {c.n} instances ({n} gold lines), {len(c.inventory.lexelts)} lexelts, "
                  f"sets {[x.name for x in c.sets]}")
            f = measure("reference scores (4 policies, per data set)", lambda: reference_scores(c), repeats=3)
            row = f.get("lesk", "fine")  # type: ignore[union-attr]
            print(f"  lesk fine: P {row.precision:.4f} R {row.recall:.4f} F1 {row.f1:.4f} over {row.total}")
            wb = Workbench(c)
            measure("header sort + highlight by identity (agreement)", lambda: sort_with_highlight(wb, "agreement"))
            measure("header sort + highlight by identity (instance, strings)",
                    lambda: sort_with_highlight(wb, "instance"), repeats=3)
            measure("rows_of one instance", lambda: wb.rows_of(np.array([c.n // 3])))
    masc = realdata() / "masc_amt"
    if (masc / "masc_amt_labels_wide.tsv.gz").is_file():
        with tempfile.TemporaryDirectory() as tmp:
            p = Path(tmp) / "m.hadj"
            Session.create(p, [str(masc / "inventory_tree.tsv")],
                           [AnnotationSpec(str(masc / "masc_amt_labels_wide.tsv.gz"))]).close()
            with Session.open(p) as s:
                wb = Workbench(s.corpus)
                print(f"MASC: {s.corpus.n} instances, {len(s.corpus.sets)} sets")
                measure("MASC header sort + highlight by identity (agreement)",
                        lambda: sort_with_highlight(wb, "agreement"))
    print(f"pid {os.getpid()} done")


if __name__ == "__main__":
    main()
