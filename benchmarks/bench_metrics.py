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

from hieradjudicate.app.loading import AnnotationSpec, load  # noqa: E402
from hieradjudicate.app.stats import Stats  # noqa: E402
from hieradjudicate.core.bootstrap import bootstrap_figures  # noqa: E402


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
    stats = Stats(corpus)
    stats.score(others[0], gold)  # leaf distances once (inventory-only, cached for the session)
    times = []
    for _ in range(7):
        stats._cache = {"leaf_dist": stats._cache["leaf_dist"]}
        t0 = time.perf_counter()
        stats.agreement(annot, by_lexelt=True)
        t1 = time.perf_counter()
        for k in others:
            stats.score(k, gold)
        t2 = time.perf_counter()
        times.append((t2 - t0, t1 - t0, t2 - t1))
    tot = statistics.median(t[0] for t in times)
    agr = statistics.median(t[1] for t in times)
    sc = statistics.median(t[2] for t in times)
    print(f"{corpus.n:,} instances, {len(annot)} annotators (+ gold), {len(others) - len(annot)} systems, "
          f"{len(corpus.inventory.lexelts)} lexelts")
    print(f"  agreement (pairwise, Fleiss, Conger, alpha, per lexelt): {agr * 1000:.1f} ms (median of 7)")
    t0 = time.perf_counter()
    for k in others[len(annot):]:
        stats._cache.pop(("score", k, gold, None), None)
        stats.score(k, gold)
    print(f"  after a decision (annotator agreement unchanged and cached; gold distances kept): "
          f"{len(others) - len(annot)} system scores {(time.perf_counter() - t0) * 1000:.1f} ms")
    print(f"  leaf scores (precision, recall, coverage, F1, cross-entropy, cost, per lexelt and POS) of "
          f"{len(others)} sets vs the gold: {sc * 1000:.1f} ms")
    print(f"  all dashboard figures: {tot * 1000:.1f} ms (target < 50 ms); best {min(t[0] for t in times) * 1000:.1f} ms")
    inst, rater, P = stats.long_form(annot)
    t0 = time.perf_counter()
    bootstrap_figures(inst, rater, P, corpus.inst_lexelt, n_lexelts=len(corpus.inventory.lexelts), n_resamples=1000)
    print(f"  1000 bootstrap resamples of pairwise kappas, Fleiss and alpha: {time.perf_counter() - t0:.2f} s "
          "(target < 2 s)")


if __name__ == "__main__":
    main()
