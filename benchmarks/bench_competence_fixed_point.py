"""Competence on MASC to its fixed point (#33, #36): time, work, and distance from a tight run.

    python benchmarks/bench_competence_fixed_point.py [--tight] [--crowdkit N]

Dawid & Skene and MACE with their default stopping rule (parameters and posteriors estimated within
1e-7 of the fixed point): wall and CPU time, iterations, the work in full passes over the 1.08 M
labels.  ``--tight`` also runs both with ``tol=1e-12`` and prints the default run's largest
deviation from it (posteriors, competences, parameters) and how many instances change their most
probable sense (must be 0).  ``--crowdkit N``: crowd-kit's DawidSkene beside ours on the first N
words (crowd-kit runs per word: it needs 16 GB for all of MASC), per iteration and to its own
stopping rule, and ours per EM step and to our fixed point.  Figures are printed, never asserted; the
load average is printed too (the machine may be shared: CPU time is the steadier figure).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_util import realdata  # noqa: E402


def masc():
    from hieradjudicate.app.loading.load import AnnotationSpec, load
    from hieradjudicate.core.layout_tags import unit_leaves

    d = realdata() / "masc_amt"
    c = load([str(d / "inventory_tree.tsv")], [AnnotationSpec(str(d / "masc_amt_labels_wide.tsv.gz"))], []).corpus
    leaf = unit_leaves(c.inventory, list(c.sets))
    inst = np.concatenate([s.rows for s in c.sets]).astype(np.int64)
    rater = np.repeat(np.arange(len(c.sets)), [s.n for s in c.sets])
    return c, inst, rater, leaf


def timed(fn, *args, **kw):
    c0, t0 = time.process_time(), time.perf_counter()
    res = fn(*args, **kw)
    return res, time.perf_counter() - t0, time.process_time() - c0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tight", action="store_true", help="also the tol=1e-12 runs and the deviations from them")
    ap.add_argument("--crowdkit", type=int, default=0, metavar="N", help="crowd-kit beside ours on N words")
    args = ap.parse_args()
    from hieradjudicate.core.crowd.competence import dawid_skene
    from hieradjudicate.core.crowd.mace import mace

    c, inst, rater, leaf = masc()
    K, nl = c.inventory.K, c.inventory.n_leaves
    print(f"MASC: {inst.size:,} labels, {len(c.sets)} workers, {c.n:,} instances; load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    for name, fn in (("Dawid & Skene", dawid_skene), ("MACE", mace)):
        res, wall, cpu = timed(fn, inst, rater, None, c.inst_lexelt, nl, leaf=leaf, K=K)
        print(f"{name}, default: {wall:.1f} s wall, {cpu:.1f} s CPU; {res.iterations} iterations, "
              f"{res.passes:.0f} passes over the labels, converged {res.converged}, estimated distance "
              f"{res.distance:.2g}")
        if args.tight:
            ref, wall, cpu = timed(fn, inst, rater, None, c.inst_lexelt, nl, leaf=leaf, K=K, tol=1e-12,
                                   max_iter=20000)
            flips = int((res.posterior.argmax(axis=1) != ref.posterior.argmax(axis=1)).sum())
            print(f"  tol 1e-12: {wall:.1f} s wall, {cpu:.1f} s CPU, {ref.passes:.0f} passes, converged "
                  f"{ref.converged}; default vs tight: posteriors {np.abs(res.posterior - ref.posterior).max():.2g}, "
                  f"competences {np.abs(res.accuracy - ref.accuracy).max():.2g}, parameters "
                  f"{max(np.abs(res.errors - ref.errors).max(), np.abs(res.priors - ref.priors).max()):.2g}; "
                  f"{flips} instance(s) with another most probable sense")
    if args.crowdkit:
        import pandas as pd
        from crowdkit.aggregation import DawidSkene

        print("\nper word: crowd-kit to its own rule (tol 1e-5 on its ELBO, which stops far from the fixed "
              "point) and to the fixed point (its time per iteration x the plain EM iterations that reach "
              "it: crowd-kit's map is plain EM's); ours (SQUAREM, restarts included) to the fixed point")
        print(f"{'word':14s} {'labels':>7s} {'ck its':>6s} {'ck s':>7s} {'ck ms/it':>8s} {'plain its':>9s} "
              f"{'ck s to fp':>10s} {'our steps':>9s} {'our s':>6s} {'our ms/step':>11s}")
        tot = np.zeros(6)
        for x in range(min(args.crowdkit, len(c.inventory.lexelts))):
            m = c.inst_lexelt[inst] == x
            df = pd.DataFrame({"task": inst[m], "worker": rater[m], "label": leaf[m]})
            ds, ck_wall, _ = timed(DawidSkene(n_iter=10000).fit, df)
            res, our_wall, _ = timed(dawid_skene, inst[m], rater[m], None, c.inst_lexelt, nl, leaf=leaf[m], K=K)
            plain = dawid_skene(inst[m], rater[m], None, c.inst_lexelt, nl, leaf=leaf[m], K=K, accelerate=False,
                                max_iter=20000)
            n_ck = len(ds.loss_history_)
            to_fp = ck_wall / n_ck * plain.iterations
            print(f"{c.inventory.lexelts[x]:14s} {int(m.sum()):7d} {n_ck:6d} {ck_wall:7.2f} {1e3 * ck_wall / n_ck:8.1f} "
                  f"{plain.iterations:9d} {to_fp:10.1f} {res.passes:9.0f} {our_wall:6.2f} "
                  f"{1e3 * our_wall / res.passes:11.2f}")
            tot += (ck_wall, n_ck, our_wall, res.passes, plain.iterations, to_fp)
        print(f"{'all shown':14s} {'':7s} {tot[1]:6.0f} {tot[0]:7.2f} {1e3 * tot[0] / tot[1]:8.1f} {tot[4]:9.0f} "
              f"{tot[5]:10.1f} {tot[3]:9.0f} {tot[2]:6.2f} {1e3 * tot[2] / tot[3]:11.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
