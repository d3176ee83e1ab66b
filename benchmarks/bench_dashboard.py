"""Dashboard refresh on a generated 100,000-instance project (3 annotators, 2 systems).

Prints: the first computation of every figure (cold: includes the per-lexelt
bootstrap intervals, cached afterwards), and the refresh after one decision
(the gold-dependent figures: agreement with the gold, system scores under
four policies, system comparison, progress), without and with bootstrap
intervals of the gold-dependent figures.  Target: refresh within 200 ms.

    python benchmarks/bench_dashboard.py [--n 100000] [--decided 50000] [--resamples 1000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_util import generate_project  # noqa: E402


def generate(folder: Path, n: int, n_lexelts: int = 200, seed: int = 7, n_systems: int = 2):
    inv, specs, _, truth = generate_project(folder, n, n_lexelts=n_lexelts, seed=seed, n_systems=n_systems)
    return inv, specs, truth


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--decided", type=int, default=50_000)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    from hieradjudicate.app.dashboard.dashboard import Dashboard
    from hieradjudicate.app.dashboard.gold import DecisionTracker
    from hieradjudicate.app.loading.load import load
    from hieradjudicate.io.store.project_store import DecisionRow

    with tempfile.TemporaryDirectory() as tmp:
        inv, specs, truth = generate(Path(tmp), args.n)
        t0 = time.perf_counter()
        corpus = load(inv, specs).corpus
        print(f"corpus: {corpus.n} instances, {len(corpus.sets)} sets, loaded in {time.perf_counter() - t0:.2f} s")
    rows = [DecisionRow(k + 1, lex, inst, (tag,), "manual", "resolved", "", "bench",
                        f"2026-01-{1 + k * 28 // max(args.decided, 1):02d}T12:00:00.000Z")
            for k, (lex, inst, tag) in enumerate(truth[:args.decided])]
    t0 = time.perf_counter()
    tracker = DecisionTracker(corpus, rows)
    print(f"decision tracker over {len(rows)} history rows: {(time.perf_counter() - t0) * 1000:.0f} ms")
    t0 = time.perf_counter()
    dash = Dashboard(corpus)
    print(f"dashboard set-up (pair categories): {(time.perf_counter() - t0) * 1000:.0f} ms")
    t0 = time.perf_counter()
    data = dash.compute(tracker=tracker, n_resamples=args.resamples)
    print(f"cold compute, all figures with {args.resamples} resamples: {(time.perf_counter() - t0) * 1000:.0f} ms "
          f"{data.timings_ms}")

    def one_decision(k: int, intervals: bool) -> float:
        lex, inst, tag = truth[args.decided + k]
        row = DecisionRow(len(rows) + k + 1, lex, inst, (tag,), "manual", "resolved", "", "bench",
                          "2026-02-01T12:00:00.000Z")
        t0 = time.perf_counter()
        tracker.apply([row])
        d = dash.compute(tracker=tracker, n_resamples=args.resamples, intervals=intervals)
        el = time.perf_counter() - t0
        assert d.gold_n == args.decided + k + 1
        return el

    times = [one_decision(k, False) for k in range(args.repeats)]
    print(f"refresh after one decision (points, no gold-side intervals): min {min(times) * 1000:.0f} ms, "
          f"median {statistics.median(times) * 1000:.0f} ms over {len(times)}; last parts {dash_last(dash, tracker)}")
    times = [one_decision(args.repeats + k, True) for k in range(2)]
    print(f"refresh after one decision with bootstrap intervals of the system scores: "
          f"min {min(times) * 1000:.0f} ms (run off the GUI thread)")
    return 0


def dash_last(dash, tracker) -> dict:
    return dash.compute(tracker=tracker, intervals=False).timings_ms


if __name__ == "__main__":
    sys.exit(main())
