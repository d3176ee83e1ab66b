"""Annotator competence on MASC (#14): Dawid & Skene and MACE over 1.08 M labels.

    python benchmarks/bench_competence.py [--project masc.hadj]

Without ``--project`` the corpus is read from ``$HIERADJ_REALDATA/masc_amt``.
Prints, for each model, the time of the estimate (target < 2 s, set when Dawid & Skene wrongly
stopped after 2 iterations; it now runs to its stopping rule or --max-iter), its iterations,
whether it converged, the last parameter move and the growth of the process's peak RSS during it (the sorted
long form it reads is made first and not counted).  Figures are printed,
never asserted; the load average is printed too (the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_util import realdata  # noqa: E402


def peak_mb() -> float:
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    return int(fields["VmHWM"].split()[0]) / 1024


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--project", help="a .hadj project (default: MASC read from the real data)")
    args = ap.parse_args()
    from hieradjudicate.app.memory import fix_mmap_threshold
    from hieradjudicate.core.competence import dawid_skene
    from hieradjudicate.core.mace import mace

    fix_mmap_threshold()
    if args.project:
        from hieradjudicate.app.session.session import Session

        with Session.open(args.project, read_only=True) as s:
            corpus = s.corpus
    else:
        from hieradjudicate.app.loading.load import load
        from hieradjudicate.app.loading.specs import AnnotationSpec

        d = realdata() / "masc_amt"
        corpus = load([str(d / "inventory_tree.tsv")], [AnnotationSpec(str(d / "masc_amt_labels_wide.tsv.gz"))],
                      []).corpus
    lay = corpus.layout(list(range(len(corpus.sets))))
    print(f"{len(corpus.sets)} sets, {corpus.n:,} instances, {lay.R:,} labels; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    for name, fit in (("Dawid & Skene", dawid_skene), ("MACE", mace)):
        before = peak_mb()
        t = time.perf_counter()
        res = fit(lay.inst, lay.rater, lay.P, corpus.inst_lexelt, corpus.inventory.n_leaves)
        el = time.perf_counter() - t
        print(f"{name:14s} {el:6.2f} s (target < 2 s), {res.iterations} iteration(s), "
              f"{'converged' if res.converged else 'not converged'} (last move {res.change:.2g}); "
              f"peak RSS +{max(0.0, peak_mb() - before):.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
