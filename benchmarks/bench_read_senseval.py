"""Benchmark: read a 394,400-line Senseval answer file (the Senseval-3 key repeated 100 times).

The instance ids are renamed per copy (``<id>.r<copy>``) so that every line
is a new instance.  Target: well under 0.3 s (the read is part of a 0.5 s
budget that includes the leaf vectors).

Usage::

    HIERADJ_REALDATA=../shared/data python benchmarks/bench_read_senseval.py [--copies 100]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_util import measure, realdata

from hieradjudicate.io.annotations.read import read_annotations


def build(src: Path, dst: Path, copies: int) -> int:
    """Write ``copies`` renamed copies of the key's lines to ``dst``; return the line count."""
    lines = [ln.split(" ") for ln in src.read_text().splitlines() if ln.strip()]
    out = []
    for r in range(copies):
        for t in lines:
            out.append(" ".join([t[0], f"{t[1]}.r{r}", *t[2:]]))
    dst.write_text("\n".join(out) + "\n")
    return len(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    key = realdata() / "senseval3" / "EnglishLS.test.key"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big_answers.txt"
        n = build(key, path, args.copies)
        print(f"{path.name}: {n:,} lines, {path.stat().st_size / 2**20:.1f} MiB")
        src = measure("read_annotations (senseval)", lambda: read_annotations(path), args.repeats)
        print(f"  -> {len(src.item_instance):,} instances, {src.n_labels:,} labels, "
              f"{len(src.tags)} tags, {len(src.problems)} problems")


if __name__ == "__main__":
    main()
