"""Issue 3 speed: all dashboard figures of a 100,000-instance corpus, recomputed from scratch.

3 annotators and 5 systems over 200 lexelts (generated, 3 main senses x 3 sub-senses each); the
figures: pairwise matrix (both kappas), Fleiss + Davies & Fleiss, alpha, per-lexelt figures, and
the leaf-policy scores of the 5 systems (and the 3 annotators) against a gold set.  Also 1000
stratified bootstrap resamples of the agreement figures.  Prints figures; no asserts.

    python benchmarks/bench_metrics.py [--n 100000]
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

from bench_dashboard import generate  # noqa: E402

from hieradjudicate.app.loading.load import AnnotationSpec, load  # noqa: E402
from hieradjudicate.app.stats import Stats  # noqa: E402
from hieradjudicate.core.agreement.bootstrap import bootstrap_figures  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--lexelts", type=int, default=200)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        inv, specs, truth = generate(Path(d), args.n, n_lexelts=args.lexelts, n_systems=5)
        gold_path = Path(d) / "gold.key"
        gold_path.write_text("".join(f"{lex} {inst} {tag}\n" for lex, inst, tag in truth), encoding="utf-8")
        corpus = load(inv, specs + [AnnotationSpec(str(gold_path), "gold", "gold")]).corpus
    annot = [k for k, s in enumerate(corpus.sets) if s.role == "annotator"]
    others = [k for k, s in enumerate(corpus.sets) if s.role != "gold"]
    gold = next(k for k, s in enumerate(corpus.sets) if s.role == "gold")
    systems = [k for k, s in enumerate(corpus.sets) if s.role == "system"]
    stats = Stats(corpus)
    stats.score(systems[0], gold)  # leaf distances: inventory-only, computed once per session
    dist = stats._cache["leaf_dist"]

    def run(cold: bool) -> tuple[float, float]:
        stats._cache = {"leaf_dist": dist}  # every figure recomputed ...
        if cold:
            stats._layouts.clear()  # ... and the sorted long form of the annotations rebuilt too
        t0 = time.perf_counter()
        stats.agreement(annot, by_lexelt=True)
        t1 = time.perf_counter()
        for k in systems:
            stats.score(k, gold)
        return t1 - t0, time.perf_counter() - t1

    print(f"{corpus.n:,} instances, {len(annot)} annotators, {len(systems)} systems, a gold set, "
          f"{len(corpus.inventory.lexelts)} lexelts")
    for cold, what in ((True, "from scratch (sorting the annotations' long form included)"),
                       (False, "recomputed (the annotations' sorted long form kept, as the app keeps it)")):
        runs = [run(cold) for _ in range(7)]
        agr = statistics.median(r[0] for r in runs)
        sc = statistics.median(r[1] for r in runs)
        tot = [r[0] + r[1] for r in runs]
        print(f"  {what}:")
        print(f"    agreement (pairwise matrix, Fleiss, Davies & Fleiss, alpha, per lexelt) {agr * 1000:.1f} ms"
              f" + leaf scores of {len(systems)} systems (P, R, coverage, F1, cross-entropy, cost, per lexelt"
              f" and POS) {sc * 1000:.1f} ms (medians)")
        print(f"    all figures: best {min(tot) * 1000:.1f} ms, median {statistics.median(tot) * 1000:.1f} ms"
              " of 7 (target < 50 ms)")
    inst, rater, P = stats.long_form(annot)
    t0 = time.perf_counter()
    bootstrap_figures(inst, rater, P, corpus.inst_lexelt, n_lexelts=len(corpus.inventory.lexelts), n_resamples=1000)
    print(f"  1000 bootstrap resamples of pairwise kappas, Fleiss and alpha: {time.perf_counter() - t0:.2f} s "
          "(target < 2 s)")


if __name__ == "__main__":
    main()
