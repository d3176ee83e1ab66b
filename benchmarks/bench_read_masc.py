"""Benchmark: read the MASC crowd file (44,682 sentences, 1,084,551 labels, packed wide table).

Target: under 1.5 s.

Usage::

    HIERADJ_REALDATA=../shared/data python benchmarks/bench_read_masc.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_util import measure, realdata

from hieradjudicate.io.annotations.read import read_annotations


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    path = realdata() / "masc_amt" / "masc_amt_labels_wide.tsv.gz"
    src = measure("read_annotations (masc)", lambda: read_annotations(path), args.repeats)
    print(f"  -> {len(src.item_instance):,} instances, {len(src.set_names)} annotators, "
          f"{src.n_labels:,} labels, {len(src.tags)} tags, {len(src.problems)} problems")


if __name__ == "__main__":
    main()
