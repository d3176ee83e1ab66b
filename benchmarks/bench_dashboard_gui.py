"""Dashboard tab refresh after one decision on a generated 100,000-instance project (target < 200 ms).

The project of ``bench_dashboard.py`` (200 lexelts, 3 annotators, 2 systems,
half of it adjudicated).  The dashboard widget is shown off screen at
1280x800 with per-lexelt intervals cached; each round applies one decision
row, recomputes every figure (the gold-dependent ones without their bootstrap
intervals, which the GUI computes in the background) and updates and paints
every plot.  Prints min / median of the whole round and of its parts.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_dashboard_gui.py [--n 100000] [--repeats 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--decided", type=int, default=50_000)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--no-intervals", action="store_true", help="skip caching the per-lexelt intervals")
    args = ap.parse_args()
    import numpy as np
    from bench_dashboard import generate

    from hieradjudicate.app.loading.load import load
    from hieradjudicate.gui.app import make_app
    from hieradjudicate.gui.dashboard.dashboard import RESAMPLES, DashboardView, TrackerSnapshot, compute
    from hieradjudicate.gui.dashboard.work import DashboardWork
    from hieradjudicate.io.store.project_store import DecisionRow

    app = make_app()
    with tempfile.TemporaryDirectory() as tmp:
        inv, specs, truth = generate(Path(tmp), args.n)
        corpus = load(inv, specs).corpus
    rows = [DecisionRow(k + 1, lex, inst, (tag,), "manual", "resolved", "", "bench",
                        f"2026-01-{1 + k * 28 // max(args.decided, 1):02d}T12:00:00.000Z")
            for k, (lex, inst, tag) in enumerate(truth[:args.decided])]
    session = SimpleNamespace(corpus=corpus, path="bench.hadj", store=SimpleNamespace(iter_history=lambda: rows),
                              decisions=SimpleNamespace(subscribe=lambda _f: (lambda: None), conflicts=lambda: []))
    wb = SimpleNamespace(corpus=corpus, view=np.arange(corpus.n))
    t0 = time.perf_counter()
    dv = DashboardView(DashboardWork(session, wb))
    dv.resize(1280, 760)
    dv.show()
    dv.build_all()
    app.processEvents()
    print(f"{corpus.n} instances, {len(corpus.inventory.lexelts)} lexelts, {len(corpus.sets)} sets, "
          f"{args.decided} decided; view set-up {(time.perf_counter() - t0) * 1000:.0f} ms")
    t0 = time.perf_counter()
    dv.refresh(force_sync=True)
    app.processEvents()
    print(f"first refresh (cold caches, no intervals): {(time.perf_counter() - t0) * 1000:.0f} ms")
    if not args.no_intervals:
        t0 = time.perf_counter()
        compute(dv.ci_dash, TrackerSnapshot(dv.tracker), None, measure="cohen", n_resamples=RESAMPLES,
                intervals=False)
        dv._ci_ready.add(dv._key(None))
        print(f"per-lexelt intervals ({RESAMPLES} resamples; background in the GUI): "
              f"{(time.perf_counter() - t0) * 1000:.0f} ms")
        dv.refresh(force_sync=True)
        app.processEvents()
    total, comp, draw = [], [], []
    for k in range(args.repeats):
        lex, inst, tag = truth[args.decided + k]
        row = DecisionRow(len(rows) + k + 1, lex, inst, (tag,), "manual", "resolved", "", "bench",
                          "2026-02-01T12:00:00.000Z")
        t0 = time.perf_counter()
        dv.tracker.apply([row])
        dv.refresh(force_sync=True)
        app.processEvents()  # paint
        total.append((time.perf_counter() - t0) * 1000)
        comp.append(dv.last["compute_ms"])
        draw.append(dv.last["draw_ms"])
        assert dv.data is not None and dv.data.gold_n == args.decided + k + 1
    print(f"refresh of all dashboard plots after one decision: min {min(total):.0f} ms, median "
          f"{statistics.median(total):.0f} ms over {len(total)} (figures: median {statistics.median(comp):.0f} ms; "
          f"plot updates: median {statistics.median(draw):.0f} ms; the rest: snapshot and painting); "
          f"target 200 ms; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print(f"last figure timings: {dv.data.timings_ms}")
    dv.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
