"""Project store figures: decision latency (commit and fsync included), batch, open, arrays.

Run: ``python benchmarks/bench_store.py [--dir DIR] [--n 2000] [--masc DATA/masc_amt]``.
With ``--masc`` (or ``HIERADJ_REALDATA`` set) it also times creating and reopening a
session on the MASC data.  Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from hieradjudicate.app.session.commands import CommandStack, Decide
from hieradjudicate.app.session.decisions import Decision, DecisionState
from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.session import Session
from hieradjudicate.io.store.project_store import Store


def bench_masc(masc: Path, folder: Path) -> None:
    """Create a session from MASC (44,682 instances, 1,084,551 labels), resolve all, reopen."""
    path = folder / "masc.hadj"
    t0 = time.perf_counter()
    session = Session.create(path, [str(masc / "inventory_tree.tsv")],
                             [AnnotationSpec(str(masc / "masc_amt_labels_wide.tsv.gz"))])
    print(f"MASC: create project {time.perf_counter() - t0:.2f} s "
          f"({session.corpus.n} instances, {len(session.corpus.sets)} sets)")
    batch = [Decision(lexelt, inst, ("0",), source="auto-agreement")
             for lexelt, inst in session.instances()]
    t0 = time.perf_counter()
    session.execute(Decide(batch, "resolve all"))
    print(f"MASC: resolve all {len(batch)} instances in one batch {time.perf_counter() - t0:.2f} s")
    session.close()
    print(f"MASC: project file {path.stat().st_size / 1e6:.0f} MB")
    for run in range(2):
        t0 = time.perf_counter()
        session = Session.open(path)
        print(f"MASC: reopen #{run + 1} (corpus from cache: {session.from_cache}, "
              f"{len(session.decisions)} decisions) {time.perf_counter() - t0:.2f} s")
        session.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dir", default=None, help="folder for the project (default: a temp dir)")
    parser.add_argument("--n", type=int, default=2000, help="single decisions to time")
    realdata = os.environ.get("HIERADJ_REALDATA")
    parser.add_argument("--masc", default=str(Path(realdata) / "masc_amt") if realdata else None,
                        help="folder of the MASC data (default: $HIERADJ_REALDATA/masc_amt)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        path = Path(tmp) / "bench.hadj"
        t0 = time.perf_counter()
        store = Store.create(path)
        print(f"create empty project: {1000 * (time.perf_counter() - t0):.1f} ms")

        # A MASC-sized corpus cache: 1,084,551 labels, 44,682 instances.
        n_labels, n_items = 1_084_551, 44_682
        rng = np.random.default_rng(0)
        arrays = {"item": np.sort(rng.integers(0, n_items, n_labels)),
                  "set": rng.integers(0, 1000, n_labels), "tag": rng.integers(0, 40, n_labels),
                  "weight": rng.random(n_labels), "leaf": rng.random((n_items, 8))}
        t0 = time.perf_counter()
        store.put_arrays("corpus", arrays, {"n": n_labels})
        print(f"put_arrays MASC-sized ({sum(a.nbytes for a in arrays.values()) / 1e6:.0f} MB): "
              f"{time.perf_counter() - t0:.2f} s")

        state = DecisionState(store)
        stack = CommandStack(state)
        times = []
        for i in range(args.n):
            d = Decision("bank.n", f"bank.n.{i % 5000}", ("1", "2.a"), note="bench")
            t0 = time.perf_counter()
            stack.execute(Decide([d]))
            times.append(time.perf_counter() - t0)
        ms = sorted(1000 * t for t in times)
        print(f"one decision via CommandStack (commit+fsync), n={args.n}: "
              f"median {statistics.median(ms):.2f} ms, p95 {ms[int(0.95 * len(ms))]:.2f} ms, "
              f"p99 {ms[int(0.99 * len(ms))]:.2f} ms, max {ms[-1]:.2f} ms")
        t0 = time.perf_counter()
        stack.undo()
        print(f"undo one decision: {1000 * (time.perf_counter() - t0):.2f} ms")

        batch = [Decision("masc.n", str(i), ("1",), source="auto-agreement")
                 for i in range(n_items)]
        t0 = time.perf_counter()
        stack.execute(Decide(batch, "accept agreed"))
        print(f"batch of {n_items} decisions (one transaction): "
              f"{time.perf_counter() - t0:.2f} s")
        t0 = time.perf_counter()
        stack.undo()
        print(f"undo that batch: {time.perf_counter() - t0:.2f} s")
        store.close()

        size = path.stat().st_size / 1e6
        t0 = time.perf_counter()
        store = Store.open(path)
        t_open = time.perf_counter() - t0
        t0 = time.perf_counter()
        state = DecisionState(store)
        t_state = time.perf_counter() - t0
        t0 = time.perf_counter()
        got = store.get_arrays("corpus")
        t_arrays = time.perf_counter() - t0
        assert got is not None
        print(f"reopen ({size:.0f} MB file): open+validate+quick_check {1000 * t_open:.0f} ms, "
              f"load {len(state)} current decisions {1000 * t_state:.0f} ms, "
              f"get_arrays {1000 * t_arrays:.0f} ms")
        t0 = time.perf_counter()
        ok = store.integrity_check()
        print(f"full integrity_check: {1000 * (time.perf_counter() - t0):.0f} ms ({ok[0]})")
        store.close()
        if args.masc:
            bench_masc(Path(args.masc), Path(tmp))


if __name__ == "__main__":
    main()
