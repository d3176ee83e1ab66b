"""Issue 2 speed: read a 394,400-line Senseval answer file and compute every leaf vector; load MASC.

Prints figures (no asserts).  Run: python benchmarks/bench_core.py  [HIERADJ_REALDATA=../shared/data]
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from hieradjudicate.core.model import CorpusBuilder
from hieradjudicate.io.annotations.read import read_annotations
from hieradjudicate.io.inventories.read import read_inventory

DATA = Path(os.environ.get("HIERADJ_REALDATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


def big_answers(tmp: Path, copies: int = 100) -> Path:
    lines = (DATA / "senseval3" / "EnglishLS.test.key").read_text().splitlines()
    out = tmp / "answers_x100.txt"
    with open(out, "w") as fh:
        for k in range(copies):
            for ln in lines:
                lex, inst, rest = ln.split(" ", 2)
                fh.write(f"{lex} {inst}.r{k} {rest}\n")
    return out


def main() -> None:
    s3 = DATA / "senseval3"
    inv = [read_inventory(s3 / "EnglishLS.sensemap"), read_inventory(s3 / "EnglishLS.dictionary.xml")]
    with tempfile.TemporaryDirectory() as d:
        path = big_answers(Path(d))
        n_lines = sum(1 for _ in open(path))
        best = []
        for _ in range(5):
            t0 = time.perf_counter()
            src = read_annotations(path)
            t1 = time.perf_counter()
            b = CorpusBuilder()
            for s in inv:
                b.add_inventory(s)
            b.add_annotations(src)
            corpus = b.build()
            t2 = time.perf_counter()
            best.append((t2 - t0, t1 - t0, t2 - t1))
        tot, rd, lv = min(best)
        tracemalloc.start()
        src = read_annotations(path)
        b = CorpusBuilder()
        for s in inv:
            b.add_inventory(s)
        b.add_annotations(src)
        corpus = b.build()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        leaves = corpus.sets[0].leaves
        print(f"senseval answers: {n_lines:,} lines, {corpus.n:,} instances, leaf matrix {leaves.shape} "
              f"({leaves.nbytes / 2**20:.1f} MiB)")
        print(f"  read {rd:.3f} s + inventory/leaf vectors {lv:.3f} s = {tot:.3f} s (best of 5; target < 0.5 s)")
        print(f"  peak traced memory {peak / 2**20:.0f} MiB (target < 500 MB)")
    masc = DATA / "masc_amt"
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        b = CorpusBuilder()
        b.add_inventory(read_inventory(masc / "inventory_tree.tsv"))
        b.add_annotations(read_annotations(masc / "masc_amt_labels_wide.tsv.gz"))
        c = b.build()
        times.append(time.perf_counter() - t0)
    labels = sum(int(s.tag_node.size) for s in c.sets)
    print(f"MASC wide: {c.n:,} instances, {len(c.sets)} annotators, {labels:,} labels: load + leaf vectors "
          f"{min(times):.3f} s (best of 3; target < 2 s)")
    print(f"process max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    sys.exit(main())
