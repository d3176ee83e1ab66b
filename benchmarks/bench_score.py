"""Benchmark: scorer2 policies on the Senseval-3 key and answers repeated 100 times.

Builds a 394,400-line key and answer file (instance ids renamed per copy) in a
temporary folder from ``$HIERADJ_REALDATA`` (default ``../shared/data``),
then prints the time to read them, to score each policy, and -- when the
``hieradjudicate score`` command exists -- the end-to-end time of the CLI
(interpreter start included).  The target is 0.7 s end to end for
``--policy mixed`` (the C ``scorer2`` takes 0.35 s).

Usage::

    python benchmarks/bench_score.py [--copies 100] [--answers baseline_responses.txt]
        [--cmd "hieradjudicate score --policy {policy} ..."]

``--cmd`` is a template with ``{key}``, ``{answers}``, ``{map}``,
``{policy}`` and ``{python}`` placeholders for the end-to-end run.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hieradjudicate.core.senseval import POLICIES, SenseMap, score_senseval
from hieradjudicate.io.annotations.read import read_annotations
from hieradjudicate.io.inventories.read import read_inventory

DEFAULT_CMD = "{python} -m hieradjudicate score --inventory {map} --gold {key} --system {answers} --policy {policy}"


def repeat_file(src: Path, dst: Path, copies: int) -> int:
    lines = [ln for ln in src.read_text().splitlines() if ln.strip()]
    out = []
    for c in range(copies):
        for ln in lines:
            lexelt, inst, rest = ln.split(" ", 2)
            out.append(f"{lexelt} {inst}.c{c} {rest}")
    dst.write_text("\n".join(out) + "\n")
    return len(out)


def best_of(n: int, fn):
    best, result = float("inf"), None
    for _ in range(n):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=100)
    ap.add_argument("--answers", default="baseline_responses.txt")
    ap.add_argument("--cmd", default=os.environ.get("HIERADJ_SCORE_CMD", DEFAULT_CMD))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    data = Path(os.environ.get("HIERADJ_REALDATA", "../shared/data")) / "senseval3"
    with tempfile.TemporaryDirectory() as tmp:
        key_p, ans_p = Path(tmp) / "key.txt", Path(tmp) / "answers.txt"
        n_key = repeat_file(data / "EnglishLS.test.key", key_p, args.copies)
        n_ans = repeat_file(data / "answers" / args.answers, ans_p, args.copies)
        map_p = data / "EnglishLS.sensemap"
        print(f"key {n_key:,} lines, answers {n_ans:,} lines ({args.answers} x {args.copies})")
        t_key, key = best_of(args.repeat, lambda: read_annotations(key_p))
        t_ans, ans = best_of(args.repeat, lambda: read_annotations(ans_p))
        t_map, inv = best_of(args.repeat, lambda: read_inventory(map_p, format="senseval-sensemap"))
        smap = SenseMap.from_records(inv.senses)
        print(f"read: key {t_key * 1000:.0f} ms, answers {t_ans * 1000:.0f} ms, map {t_map * 1000:.1f} ms")
        for policy in POLICIES:
            t, r = best_of(args.repeat, lambda p=policy: score_senseval(key, ans, policy=p, sense_map=smap))
            print(f"score {policy:6s}: {t * 1000:6.1f} ms  precision {r.precision:.3f} "
                  f"recall {r.recall:.3f} attempted {r.attempted:,.0f} total {r.total:,}")
        help_out = subprocess.run([sys.executable, "-m", "hieradjudicate", "--help"],
                                  check=False, capture_output=True, text=True).stdout
        if " score" not in help_out and "score," not in help_out and ",score" not in help_out:
            print("end to end: skipped (no 'hieradjudicate score' command yet)")
            return 0
        for policy in POLICIES:
            cmd = args.cmd.format(python=shlex.quote(sys.executable), key=key_p, answers=ans_p,
                                  map=map_p, policy=policy)
            argv = shlex.split(cmd)
            t, proc = best_of(args.repeat, lambda a=argv: subprocess.run(a, check=False, capture_output=True,
                                                                         text=True))
            status = "ok" if proc.returncode == 0 else f"exit {proc.returncode}: {proc.stderr.strip()[:200]}"
            print(f"end to end {policy:6s}: {t * 1000:6.0f} ms ({status})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
