"""Benchmark: scorer2 policies on the Senseval-3 key and answers repeated 100 times.

Builds a 394,400-line key and answer file (instance ids renamed per copy) in a
temporary folder from ``$HIERADJ_REALDATA`` (default ``../shared/data``),
then prints the time to read them, to score each policy, and -- when the
``hieradjudicate score`` command exists -- the end-to-end time of the CLI
(interpreter start included).  The target (issue 14): no slower than the C
``scorer2`` on the same files, in at most 1.5 times its memory.

Usage::

    python benchmarks/bench_score.py [--copies 100] [--answers baseline_responses.txt]
        [--cmd "hieradjudicate score --policy {policy} ..."]

``--cmd`` is a template with ``{key}``, ``{answers}``, ``{map}``,
``{policy}`` and ``{python}`` placeholders for the end-to-end run.  The files
are byte-sorted (the C ``scorer2`` needs that); ``--scorer2 PATH`` runs a
compiled ``scorer2`` on the same files beside ours, and every end-to-end run
prints its peak RSS.  Run it with bytecode caches written (unset
``PYTHONDONTWRITEBYTECODE``), as an installed program has them.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from hieradjudicate.core.scoring.senseval import POLICIES, SenseMap, score_senseval
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
    dst.write_text("\n".join(sorted(out, key=lambda ln: ln.encode())) + "\n")
    return len(out)


def timed_run(argv: list[str], repeat: int) -> tuple[float, int, int]:
    """Best wall time of ``repeat`` runs, the largest peak RSS (KiB) and the last exit code."""
    best, rss, rc = float("inf"), 0, 0
    for _ in range(repeat):
        t = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        best = min(best, time.perf_counter() - t)
        rss, rc = max(rss, usage.ru_maxrss), os.waitstatus_to_exitcode(status)
        proc.returncode = rc
    return best, rss, rc


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
    ap.add_argument("--scorer2", help="a compiled C scorer2 to run on the same files")
    args = ap.parse_args()
    data = Path(os.environ.get("HIERADJ_REALDATA", "../shared/data")) / "senseval3"
    with tempfile.TemporaryDirectory() as tmp:
        key_p, ans_p = Path(tmp) / "key.txt", Path(tmp) / "answers.txt"
        # written by a child process: a spawned program's peak RSS starts from ours (exec
        # keeps the larger high-water mark), so this process stays small until the runs
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
            n_key = pool.submit(repeat_file, data / "EnglishLS.test.key", key_p, args.copies).result()
            n_ans = pool.submit(repeat_file, data / "answers" / args.answers, ans_p, args.copies).result()
        map_p = data / "EnglishLS.sensemap"
        print(f"key {n_key:,} lines, answers {n_ans:,} lines ({args.answers} x {args.copies})")
        # end to end first: a child's peak RSS counts the parent's pages at fork
        for policy in POLICIES:
            cmd = args.cmd.format(python=shlex.quote(sys.executable), key=key_p, answers=ans_p,
                                  map=map_p, policy=policy)
            t, rss, rc = timed_run(shlex.split(cmd), args.repeat)
            status = "ok" if rc == 0 else f"exit {rc}"
            print(f"end to end {policy:6s}: {t * 1000:6.0f} ms, peak RSS {rss / 1024:5.1f} MiB ({status})")
            if args.scorer2:
                smap_p = Path(tmp) / "map.sorted"
                smap_p.write_bytes(b"".join(sorted(map_p.read_bytes().splitlines(keepends=True))))
                argv = [args.scorer2, str(ans_p), str(key_p)] + ([] if policy == "fine" else [str(smap_p), "-g", policy])
                t, rss, rc = timed_run(argv, args.repeat)
                print(f"C scorer2  {policy:6s}: {t * 1000:6.0f} ms, peak RSS {rss / 1024:5.1f} MiB")
        t_key, key = best_of(args.repeat, lambda: read_annotations(key_p))
        t_ans, ans = best_of(args.repeat, lambda: read_annotations(ans_p))
        t_map, inv = best_of(args.repeat, lambda: read_inventory(map_p, format="senseval-sensemap"))
        smap = SenseMap.from_records(inv.senses)
        print(f"read: key {t_key * 1000:.0f} ms, answers {t_ans * 1000:.0f} ms, map {t_map * 1000:.1f} ms")
        for policy in POLICIES:
            t, r = best_of(args.repeat, lambda p=policy: score_senseval(key, ans, policy=p, sense_map=smap))
            print(f"score {policy:6s}: {t * 1000:6.1f} ms  precision {r.precision:.3f} "
                  f"recall {r.recall:.3f} attempted {r.attempted:,.0f} total {r.total:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
