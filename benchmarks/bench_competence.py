"""Annotator competence on MASC (#14, #24): Dawid & Skene and MACE over 1.08 M labels.

    python benchmarks/bench_competence.py [--project masc.hadj] [--plain] [--no-mace]

First the cost of one Dawid & Skene EM iteration, before (the padded code, kept as the test oracle
tests/core/ds_reference.py) and now (compact arrays: core/crowd/ds_em.py), as (time of 11 iterations -
time of 1) / 10, so that the set-up is not counted.  Then the estimates to their stopping rule:
Dawid & Skene accelerated (SQUAREM, the default), with ``--plain`` also plain EM, and MACE.

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
    ap.add_argument("--plain", action="store_true", help="also run plain EM to convergence (MASC: ~1,100 iterations)")
    ap.add_argument("--no-mace", action="store_true")
    args = ap.parse_args()
    from hieradjudicate.app.memory import fix_mmap_threshold
    from hieradjudicate.core.crowd.competence import dawid_skene
    from hieradjudicate.core.crowd.mace import mace

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
    from tests.core.ds_reference import dawid_skene_padded

    data = (lay.inst, lay.rater, lay.P, corpus.inst_lexelt, corpus.inventory.n_leaves)
    per: dict[str, float] = {}
    for name, fit, kw in (("before (padded)", dawid_skene_padded, {}),
                          ("now (compact)", dawid_skene, {"accelerate": False})):
        t = time.perf_counter()
        fit(*data, max_iter=1, tol=0.0, **kw)
        one = time.perf_counter() - t
        t = time.perf_counter()
        fit(*data, max_iter=11, tol=0.0, **kw)
        per[name] = (time.perf_counter() - t - one) / 10
        print(f"Dawid & Skene, one EM iteration, {name:16s} {per[name] * 1000:6.0f} ms (set-up and first "
              f"iteration {one:.2f} s)")
    print(f"  per-iteration speed-up: {per['before (padded)'] / per['now (compact)']:.1f}x")
    runs = [("D&S SQUAREM", dawid_skene, {})]
    if args.plain:
        runs.append(("D&S plain EM", dawid_skene, {"accelerate": False}))
    if not args.no_mace:
        runs.append(("MACE", mace, {}))
    for name, fit, kw in runs:
        before = peak_mb()
        t = time.perf_counter()
        res = fit(*data, **kw)
        el = time.perf_counter() - t
        print(f"{name:14s} {el:6.2f} s (target: well under 60 s), {res.iterations} EM iteration(s), "
              f"{'converged' if res.converged else 'not converged'} (last move {res.change:.2g}); "
              f"peak RSS +{max(0.0, peak_mb() - before):.0f} MiB; load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
