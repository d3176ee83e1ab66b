"""Benchmark: ``score --policy fine|coarse|mixed`` on Senseval-3 × 100 beside the C ``scorer2``.

Builds a 394,400-line key and answer file (instance ids renamed per copy, byte-sorted as
``scorer2`` needs) in a temporary folder from ``$HIERADJ_REALDATA`` (default ``../shared/data``),
then runs, for each policy and ``--repeat`` times in turn, ``python -m hieradjudicate score`` and
the compiled ``scorer2`` on the same files, every run in a fresh process pinned to one core
(``--cpu``, default 1), the bytecode of the package cached beforehand (as an installed program
has it).  Printed: every run's wall time, CPU time and peak RSS; whether our figures equal
``scorer2``'s; and, as the last line, the ``BENCH-RESULT`` of ``benchmarks/run.py``.  Targets
(issue 33): at most 0.8 × ``scorer2``'s wall time and 1.0 × its peak memory, each policy.

**Where scorer2 comes from.**  Its C source (``scorer2.c``, by S. Cotton, U.Penn, distributed with
the Senseval tasks) is not part of this repository: its licence is not stated.  A copy is in
the public GitHub repository ``biksboro13/word-sense-disambiguation`` (file ``scorer2.c``).  Give
it as ``--scorer2-source PATH`` (or ``$HIERADJ_SCORER2_SOURCE``, or put it in the cache folder as
``scorer2.c``): it is compiled with ``gcc -O2`` into the cache folder (``$HIERADJ_BENCH_CACHE``,
default ``~/.cache/hieradjudicate-bench``), once per source.  ``--scorer2 PATH`` takes an already
compiled program instead.  Without either (or without gcc) our figures are measured alone and
the table says why there is no peer.

Usage::

    python benchmarks/bench_score.py [--quick] [--copies 100] [--repeat 2] [--cpu 1]
        [--scorer2-source scorer2.c | --scorer2 PATH] [--answers baseline_responses.txt]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
POLICIES = ("fine", "coarse", "mixed")
SOURCE_HINT = ("pass --scorer2-source PATH to scorer2.c (file scorer2.c of the public GitHub repository "
               "biksboro13/word-sense-disambiguation) or set HIERADJ_SCORER2_SOURCE")


def cache_dir() -> Path:
    d = Path(os.environ.get("HIERADJ_BENCH_CACHE") or Path.home() / ".cache" / "hieradjudicate-bench")
    d.mkdir(parents=True, exist_ok=True)
    return d


def scorer2_program(binary: str | None, source: str | None) -> tuple[str | None, str]:
    """The compiled scorer2 to run and how it was found, or ``(None, why not)``."""
    if binary:
        return (binary, f"given: {binary}") if os.access(binary, os.X_OK) else (None, f"{binary} is not executable")
    src = Path(source) if source else cache_dir() / "scorer2.c"
    if not src.is_file():
        return None, f"no scorer2 source ({src} missing): {SOURCE_HINT}"
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        return None, "no C compiler (gcc) to build scorer2 from its source"
    digest = hashlib.sha256(src.read_bytes()).hexdigest()[:12]
    exe = cache_dir() / f"scorer2-{digest}"
    if not exe.exists():
        proc = subprocess.run([gcc, "-O2", "-w", "-o", str(exe), str(src)], capture_output=True, text=True)
        if proc.returncode:
            return None, f"gcc could not build {src}: {proc.stderr.strip().splitlines()[-1:]}"
    return str(exe), f"compiled from {src} (sha256 {digest}…) with gcc -O2"


def repeat_file(src: Path, dst: Path, copies: int) -> int:
    lines = [ln for ln in src.read_text().splitlines() if ln.strip()]
    out = []
    for c in range(copies):
        for ln in lines:
            lexelt, inst, rest = ln.split(" ", 2)
            out.append(f"{lexelt} {inst}.c{c} {rest}")
    dst.write_text("\n".join(sorted(out, key=lambda ln: ln.encode())) + "\n")
    return len(out)


def timed_run(argv: list[str], env: dict | None = None) -> dict:
    """Wall time (s), CPU time (s, user + system), peak RSS (MiB), exit code and output of one run."""
    with tempfile.TemporaryFile() as out:
        t = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode(errors="replace")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024,
            "rc": proc.returncode, "out": text}


def ours_figures(text: str) -> tuple[str, str] | None:
    """Precision and recall (3 decimals) from our text output (the one system's row)."""
    for ln in text.splitlines():
        m = re.match(r"\S+\s+(\d\.\d{3})\s+(\d\.\d{3})\s+\d\.\d{3}\s", ln)
        if m:
            return m.group(1), m.group(2)
    return None


def scorer2_figures(text: str) -> tuple[str, str] | None:
    p, r = re.search(r"precision: (\d\.\d{3})", text), re.search(r"recall: (\d\.\d{3})", text)
    return (p.group(1), r.group(1)) if p and r else None


def ours_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(HERE.parent) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules compiled once, not at every start
    env["PYTHONPYCACHEPREFIX"] = str(cache_dir() / "pycache")
    return env


def pin(cpu: int) -> str:
    """Pin this process (and so every child) to ``cpu`` when it exists."""
    try:
        if cpu in os.sched_getaffinity(0):
            os.sched_setaffinity(0, {cpu})
            return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        pass
    return "not pinned"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one run of each instead of --repeat")
    ap.add_argument("--copies", type=int, default=100)
    ap.add_argument("--answers", default="baseline_responses.txt")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--cpu", type=int, default=1, help="the core every run is pinned to (default 1)")
    ap.add_argument("--scorer2", help="a compiled C scorer2 to run beside ours")
    ap.add_argument("--scorer2-source", default=os.environ.get("HIERADJ_SCORER2_SOURCE"),
                    help="scorer2.c, compiled with gcc into the cache folder (default: $HIERADJ_SCORER2_SOURCE, "
                         "else scorer2.c in the cache folder)")
    args = ap.parse_args()
    repeat = 1 if args.quick else args.repeat
    data = Path(os.environ.get("HIERADJ_REALDATA") or HERE.parent.parent / "shared" / "data") / "senseval3"
    if not (data / "EnglishLS.test.key").exists():
        print(f"no Senseval-3 data in {data} (set HIERADJ_REALDATA)")
        print("BENCH-RESULT " + json.dumps([{"figure": "score on Senseval-3 × 100", "ours": None, "peer": None,
                                             "unit": "s", "target": "<= 0.8x peer",
                                             "note": f"skipped: no Senseval-3 data in {data}"}]))
        return 0
    pinned = pin(args.cpu)
    exe, how = scorer2_program(args.scorer2, args.scorer2_source)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; {pinned}; scorer2: {how}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        key_p, ans_p, smap_p = Path(tmp) / "key.txt", Path(tmp) / "answers.txt", Path(tmp) / "map.sorted"
        # written by a child process: a spawned program's peak RSS starts from ours (exec keeps
        # the larger high-water mark), so this process stays small (no numpy here)
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
            n_key = pool.submit(repeat_file, data / "EnglishLS.test.key", key_p, args.copies).result()
            n_ans = pool.submit(repeat_file, data / "answers" / args.answers, ans_p, args.copies).result()
        map_p = data / "EnglishLS.sensemap"
        smap_p.write_bytes(b"".join(sorted(map_p.read_bytes().splitlines(keepends=True))))
        print(f"key {n_key:,} lines, answers {n_ans:,} lines ({args.answers} × {args.copies})")
        env = ours_env()
        ours_argv = lambda p: [sys.executable, "-m", "hieradjudicate", "score", "--inventory", str(map_p),
                               "--gold", str(key_p), "--system", str(ans_p), "--policy", p]
        timed_run(ours_argv("fine"), env)  # fills the bytecode cache
        for policy in POLICIES:
            runs: dict[str, list[dict]] = {"ours": [], "scorer2": []}
            for _ in range(repeat):  # in turn, so that both meet the same load
                runs["ours"].append(timed_run(ours_argv(policy), env))
                if exe:
                    argv = [exe, str(ans_p), str(key_p)] + ([] if policy == "fine" else [str(smap_p), "-g", policy])
                    runs["scorer2"].append(timed_run(argv))
            for who, rs in runs.items():
                for r in rs:
                    status = "ok" if r["rc"] == 0 else f"exit {r['rc']}"
                    print(f"{who:8s} {policy:6s}: wall {r['wall'] * 1000:6.0f} ms, CPU {r['cpu'] * 1000:6.0f} ms, "
                          f"peak RSS {r['rss']:6.1f} MiB ({status}; load {os.getloadavg()[0]:.2f})")
            ours, theirs = runs["ours"], runs["scorer2"]
            failed = next((r for r in ours if r["rc"]), None)
            note = f"ours failed (exit {failed['rc']})" if failed else ""
            if exe and not failed:
                a, b = ours_figures(ours[-1]["out"]), scorer2_figures(theirs[-1]["out"])
                same = a is not None and a == b
                print(f"figures {policy}: ours {a}, scorer2 {b} ({'equal' if same else 'DIFFERENT'})")
                note = "precision and recall equal scorer2's" if same else f"FIGURES DIFFER: ours {a}, scorer2 {b}"
            elif not exe:
                note = f"no peer: {how}"
            best = lambda rs, k: min(r[k] for r in rs) if rs and not failed else None
            peak = lambda rs: max(r["rss"] for r in rs) if rs and not failed else None
            rows += [
                {"figure": f"score --policy {policy}, Senseval-3 × {args.copies}: wall time",
                 "ours": best(ours, "wall"), "peer": best(theirs, "wall"), "unit": "s", "target": "<= 0.8x peer",
                 "note": note},
                {"figure": f"score --policy {policy}: CPU time", "ours": best(ours, "cpu"),
                 "peer": best(theirs, "cpu"), "unit": "s", "target": "<= 0.8x peer", "note": ""},
                {"figure": f"score --policy {policy}: peak RSS", "ours": peak(ours), "peer": peak(theirs),
                 "unit": "MiB", "target": "<= 1.0x peer", "note": ""},
            ]
    print(f"load average {os.getloadavg()[0]:.2f} afterwards")
    for r in rows:
        for k in ("ours", "peer"):
            if isinstance(r[k], float):
                r[k] = round(r[k], 3)
    print("BENCH-RESULT " + json.dumps(rows, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
