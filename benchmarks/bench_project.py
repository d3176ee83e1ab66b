"""Project figures through the Session: one decision (commit included), MASC create / reopen,
and the batch, suggestion and re-import operations on MASC.

Run: ``python benchmarks/bench_project.py [--n 1000] [--dir DIR]``; the MASC part needs
``HIERADJ_REALDATA`` (or ``../shared/data``) with ``masc_amt/inventory_tree.tsv`` and
``masc_amt/masc_amt_labels_wide.tsv.gz``.  Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench_util import realdata

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.session import Session

DEMO = Path(__file__).resolve().parent.parent / "resources" / "demo"


def load_note() -> str:
    return f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"


def bench_decisions(folder: Path, n: int) -> None:
    path = folder / "demo.hadj"
    s = Session.create(path, [str(DEMO / "inventory.txt")],
                       [AnnotationSpec(str(DEMO / f"annotator_{a}.key")) for a in ("ann", "ben", "cho")])
    keys = s.instances()
    times = []
    for k in range(n):
        lexelt, inst = keys[k % len(keys)]
        d = Decision(lexelt, inst, ("1",), note="bench")
        t0 = time.perf_counter()
        s.execute(Decide([d]))
        times.append(1000 * (time.perf_counter() - t0))
    ms = sorted(times)
    print(f"one decision through Session.execute (commit + fsync), n={n}: median "
          f"{statistics.median(ms):.2f} ms, p95 {ms[int(0.95 * n)]:.2f} ms, max {ms[-1]:.2f} ms "
          f"({load_note()})")
    s.close()


def bench_masc(masc: Path, folder: Path) -> None:
    path = folder / "masc.hadj"
    t0 = time.perf_counter()
    s = Session.create(path, [str(masc / "inventory_tree.tsv")],
                       [AnnotationSpec(str(masc / "masc_amt_labels_wide.tsv.gz"))])
    labels = sum(int(x.tag_node.size) for x in s.corpus.sets)
    print(f"MASC: create project {time.perf_counter() - t0:.2f} s ({s.corpus.n} instances, "
          f"{labels} labels, {len(s.corpus.sets)} sets; {load_note()})")
    t0 = time.perf_counter()
    sug = s.suggestions()
    print(f"MASC: suggestions for {len(sug)} unresolved instances {time.perf_counter() - t0:.2f} s")
    t0 = time.perf_counter()
    cmd = s.accept_agreed()
    print(f"MASC: resolve agreed (identical) {len(cmd.decisions)} instances, one batch "
          f"{time.perf_counter() - t0:.2f} s")
    t0 = time.perf_counter()
    cmd = s.accept_agreed(compatible=True, specific="most")
    print(f"MASC: resolve agreed (compatible) {len(cmd.decisions)} more instances "
          f"{time.perf_counter() - t0:.2f} s")
    s.close()
    for run in range(3):
        t0 = time.perf_counter()
        s = Session.open(path)
        print(f"MASC: reopen #{run + 1} (corpus from cache: {s.from_cache}, {len(s.decisions)} "
              f"decisions) {time.perf_counter() - t0:.2f} s")
        s.close()
    s = Session.open(path)
    t0 = time.perf_counter()
    res = s.reimport(s.corpus.sets[0].name, masc / "masc_amt_labels_wide.tsv.gz")
    print(f"MASC: re-import the (unchanged) wide table {time.perf_counter() - t0:.2f} s "
          f"({res.changed} instances changed, {len(res.flagged)} flagged)")
    s.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1000, help="single decisions to time")
    parser.add_argument("--dir", default=None, help="folder for the projects (default: temp)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        bench_decisions(Path(tmp), args.n)
        masc = realdata() / "masc_amt"
        if (masc / "masc_amt_labels_wide.tsv.gz").exists():
            bench_masc(masc, Path(tmp))
        else:
            print(f"MASC: skipped ({masc} not found; set HIERADJ_REALDATA)")


if __name__ == "__main__":
    main()
