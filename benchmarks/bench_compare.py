"""Benchmark: ``compare`` with paired tests (10,000 shuffles) end to end, and the bootstrap's coverage.

Targets (issue 25 item 4): the WSD framework's ``ALL`` (7,253 instances), two systems,
10,000 shuffles in < 2 s; Senseval-3 x 100 (394,400 instances) in < 10 s and < 1 GB.
Every run is the real command in a child process (interpreter start included); its wall
time and peak RSS are printed, with the time of the paired tests alone, in process.

    python benchmarks/bench_compare.py [--copies 100] [--repeat 3] [--coverage TRIALS]

``ALL`` has one system output (simplified Lesk); the second system is Lesk with every
fourth answer left out and every seventh replaced by the gold's first key (seeded edits,
so the two differ both ways).  Senseval-3 compares two of its real submissions
(``baseline_responses.txt``, ``ens_weighted.txt``: weighted answers, scored soft).
``--coverage`` simulates the paired bootstrap interval's coverage (known population).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench_util import realdata  # noqa: E402
from bench_score import repeat_file, timed_run  # noqa: E402

from hieradjudicate.core.compare.significance import METRICS, paired_test  # noqa: E402


def second_system(lesk: Path, gold: Path, out: Path) -> None:
    key = {ln.split()[0]: ln.split()[1] for ln in gold.read_text().splitlines() if ln.strip()}
    lines = []
    for k, ln in enumerate(x for x in lesk.read_text().splitlines() if x.strip()):
        if k % 4 == 0:
            continue
        inst = ln.split()[0]
        lines.append(f"{inst} {key[inst]}" if k % 7 == 0 and inst in key else ln)
    out.write_text("\n".join(lines) + "\n")


def tests_alone(argv_py: list[str]) -> None:
    """The paired tests of the whole evaluation alone (no reading), in process."""
    from hieradjudicate.cli.entry import build_parser
    from hieradjudicate.cli.evaluation.compare import _scores

    args = build_parser("compare").parse_args(argv_py)
    names, scores, attempted, *_ = _scores(args)
    t = time.perf_counter()
    res = paired_test(scores[0], scores[1], attempted[0], attempted[1], names=tuple(names[:2]))
    dt = time.perf_counter() - t
    f1 = res.metrics["f1"]
    print(f"  paired tests alone ({scores.shape[1]:,} instances, 10,000 shuffles, 1,000 resamples, P/R/F1 and "
          f"McNemar): {dt * 1000:.0f} ms; F1 {f1.a:.3f} vs {f1.b:.3f}, p = {f1.p_value:.4f}, "
          f"McNemar p = {res.mcnemar.p_value:.3g}")


def run(label: str, argv: list[str], repeat: int, target_s: float, target_mb: float | None) -> None:
    t, rss, rc = timed_run([sys.executable, "-m", "hieradjudicate", *argv], repeat)
    mem = f", target < {target_mb:.0f} MiB" if target_mb else ""
    print(f"{label}: {t:.2f} s (best of {repeat}; target < {target_s:.0f} s), peak RSS {rss / 1024:.0f} MiB{mem}"
          f" ({'ok' if rc == 0 else f'exit {rc}'})")


def coverage(trials: int, n: int) -> None:
    rows = np.array([[1, 1, 1, 1], [1, 0, 1, 1], [0, 1, 1, 1], [0, 0, 1, 1], [1, 0, 1, 0],
                     [0, 0, 1, 0], [0.5, 1, 1, 1], [0, 1, 0, 1]], float)
    prob = np.array([0.25, 0.12, 0.08, 0.2, 0.15, 0.1, 0.05, 0.05])
    E = prob @ rows
    truth = {"precision": E[0] / E[2] - E[1] / E[3], "recall": E[0] - E[1],
             "f1": 2 * E[0] / (E[2] + 1) - 2 * E[1] / (E[3] + 1)}
    rng = np.random.default_rng(0)
    hits = dict.fromkeys(METRICS, 0)
    t0 = time.perf_counter()
    for t in range(trials):
        x = rows[rng.choice(len(rows), size=n, p=prob)]
        res = paired_test(np.where(x[:, 2] > 0, x[:, 0], np.nan), np.where(x[:, 3] > 0, x[:, 1], np.nan),
                          shuffles=1, resamples=1000, seed=t)
        for m in METRICS:
            hits[m] += res.metrics[m].low <= truth[m] <= res.metrics[m].high
    print(f"coverage of the 95 % paired bootstrap interval ({trials} samples of {n} instances, 1,000 "
          f"resamples): " + ", ".join(f"{m} {hits[m] / trials:.3f}" for m in METRICS)
          + f" ({time.perf_counter() - t0:.1f} s)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--coverage", type=int, default=0, metavar="TRIALS")
    ap.add_argument("--soft", action="store_true",
                    help="also the worst case: every instance a distinct soft score (no two rows alike)")
    ap.add_argument("--leaf", action="store_true", help="also the leaf policy on Senseval-3 x copies")
    args = ap.parse_args()
    data = realdata()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        w = data / "wsdeval"
        other = Path(tmp) / "ALL.other.key"
        second_system(w / "ALL.lesk_example.key.txt", w / "ALL.gold.key.txt", other)
        argv = ["compare", "--gold", str(w / "ALL.gold.key.txt"), "--policy", "fine",
                "--system", f"lesk={w / 'ALL.lesk_example.key.txt'}", "--system", f"other={other}"]
        run("ALL (7,253 instances), 2 systems, 10,000 shuffles, end to end", argv, args.repeat, 2, None)
        tests_alone(argv)
        s3 = data / "senseval3"
        key_p, a_p, b_p = (Path(tmp) / f for f in ("key.txt", "a.txt", "b.txt"))
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
            n = pool.submit(repeat_file, s3 / "EnglishLS.test.key", key_p, args.copies).result()
            pool.submit(repeat_file, s3 / "answers" / "baseline_responses.txt", a_p, args.copies).result()
            pool.submit(repeat_file, s3 / "answers" / "ens_weighted.txt", b_p, args.copies).result()
        for policy in ("fine", "coarse", "mixed") + (("leaf",) if args.leaf else ()):
            argv = ["compare", "--gold", str(key_p), "--policy", policy, "--inventory", str(s3 / "EnglishLS.sensemap"),
                    "--system", f"baseline={a_p}", "--system", f"weighted={b_p}"]
            run(f"Senseval-3 x {args.copies} ({n:,} instances), 2 systems, 10,000 shuffles, {policy}, end to end",
                argv, args.repeat, 10, 1024)
            if policy == "fine":
                tests_alone(argv)
    if args.coverage:
        coverage(args.coverage, 200)
    if args.soft:
        rng = np.random.default_rng(0)
        for n in (7_253, 394_400):
            a, b = rng.random(n), rng.random(n)
            a[rng.random(n) < 0.1] = np.nan
            t, c = time.perf_counter(), time.process_time()
            paired_test(a, b)
            print(f"worst case, {n:,} distinct soft scores, 10,000 shuffles, 1,000 resamples: "
                  f"{time.perf_counter() - t:.2f} s (CPU {time.process_time() - c:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
