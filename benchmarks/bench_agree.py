"""Benchmark: ``hieradjudicate agree`` on the MASC crowd file, end to end and by stage.

The command (issue 33: at most 3 s and 300 MB end to end, interpreter start included)::

    hieradjudicate agree --inventory masc_amt/inventory_tree.tsv \\
        --annotations masc_amt/masc_amt_labels_wide.tsv.gz --ci 1000

(``--ci 1000`` unless other arguments of agree are given after ``--``.)

``--all-words N``: instead, ``agree --include-systems`` of the all-words gold keys
(``wsdeval/ALL.gold.key.txt``) against Lesk's (``ALL.lesk_example.key.txt``), the pair repeated
``N`` times with every copy's instances and lemmas renamed (copy ``k``: ``art`` -> ``art_ck``): the
same all-words shape (most lexelts of fewer than 10 instances, drawn whole) with ``N`` times the
instances *and* the lexelts.  ``N = 1`` is the files themselves (7,253 instances, 2,808 lexelts);
14 makes about 100,000 instances.  No peer; the target is the MASC command's (3 s CPU, 300 MB).

Printed: the best of ``--repeats`` wall times of the command in a fresh process and its peak RSS;
then, from as many fresh processes running the same command through ``cli.entry.main``, the best
time of each stage: ``start`` (from the first line of the child to the reading: imports, argument
parsing), ``read`` (the files, up to the corpus build), ``build`` (``CorpusBuilder.build``),
``figures`` (``Stats.agreement_dict``) and ``output`` (the rest: rendering and writing).  Figures
only, never an assert on time.  The last line is the ``BENCH-RESULT`` of ``benchmarks/run.py``
(targets without a peer: no other program computes these figures).

Usage::

    HIERADJ_REALDATA=../shared/data python benchmarks/bench_agree.py [--quick] [--repeats 2]
        [--bytecode-cache DIR] [--all-words N] [-- EXTRA ARGS]

``--quick``: one run, no stages.  Without ``--bytecode-cache`` a temporary cache is used, so the
modules are compiled once (as installed) whatever ``PYTHONDONTWRITEBYTECODE`` says.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _bench_util import realdata  # noqa: E402

STAGES = ("start", "read", "build", "figures", "output")


def command(extra: list[str]) -> list[str]:
    d = realdata() / "masc_amt"
    return ["agree", "--inventory", str(d / "inventory_tree.tsv"),
            "--annotations", str(d / "masc_amt_labels_wide.tsv.gz"), *extra]


def all_words_command(copies: int, extra: list[str], tmp: Path) -> list[str]:
    """``agree`` of ALL's gold keys against Lesk's, ``copies`` times over (see the module's text)."""
    d = realdata() / "wsdeval"
    files = {"gold": d / "ALL.gold.key.txt", "lesk": d / "ALL.lesk_example.key.txt"}
    if copies > 1:
        for name, src in list(files.items()):
            lines = src.read_text().splitlines()
            out = []
            for k in range(copies):
                tail = f"_c{k}" if k else ""
                for line in lines:
                    inst, *keys = line.split()
                    out.append(" ".join([inst + tail, *(key.replace("%", tail + "%", 1) for key in keys)]))
            files[name] = tmp / f"{name}.key.txt"
            files[name].write_text("\n".join(out) + "\n")
    return ["agree", "--annotations", f"gold={files['gold']}", "--annotations", f"lesk={files['lesk']}",
            "--include-systems", *extra]


PYC_PREFIX: str | None = None  # --bytecode-cache: where compiled modules are kept between runs


def _env() -> dict[str, str]:
    env = dict(os.environ)
    root = str(HERE.parent)  # this checkout's package, whatever is installed
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if PYC_PREFIX:  # as an installed package runs: modules compiled once, not at every start
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = PYC_PREFIX
    return env


def run_once(argv: list[str]) -> tuple[float, float, float]:
    """Wall time (s), peak RSS (MiB) and CPU time (s, user + system) of one
    ``python -m hieradjudicate ARGV`` (output discarded)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "hieradjudicate", *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=_env())
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode:
        raise SystemExit(f"the command failed (exit {proc.returncode}): {err.strip()}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def child(argv: list[str]) -> None:
    """Run the command in this process with every stage timed; print the times as JSON on stderr."""
    t0 = time.perf_counter()
    marks: dict[str, float] = {}
    from hieradjudicate.app import stats as app_stats
    from hieradjudicate.app.loading import load as app_load
    from hieradjudicate.cli import entry
    from hieradjudicate.core import model

    def timed(owner, name: str, stage: str) -> None:
        fn = getattr(owner, name)

        def wrapper(*a, **k):
            marks.setdefault(f"{stage}_begin", time.perf_counter())
            try:
                return fn(*a, **k)
            finally:
                marks[f"{stage}_end"] = time.perf_counter()

        setattr(owner, name, wrapper)

    timed(app_load, "load", "load")
    timed(model.CorpusBuilder, "build", "build")
    timed(app_stats.Stats, "agreement_dict", "figures")
    with open(os.devnull, "w") as null:
        out, sys.stdout = sys.stdout, null
        try:
            rc = entry.main(argv)
        finally:
            sys.stdout = out
    t1 = time.perf_counter()
    if rc:
        raise SystemExit(rc)
    times = {
        "start": marks["load_begin"] - t0,
        "read": marks["build_begin"] - marks["load_begin"],
        "build": marks["build_end"] - marks["build_begin"],
        "figures": marks["figures_end"] - marks["figures_begin"],
    }
    times["output"] = (t1 - t0) - sum(times.values())
    print(json.dumps(times), file=sys.stderr)


def stages_once(argv: list[str]) -> dict[str, float]:
    proc = subprocess.run([sys.executable, __file__, "--child", "--", *argv], capture_output=True, text=True,
                          env=_env())
    if proc.returncode:
        raise SystemExit(f"the staged run failed (exit {proc.returncode}): {proc.stderr.strip()}")
    return json.loads(proc.stderr.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="one run, no stage timings")
    ap.add_argument("--bytecode-cache", metavar="DIR",
                    help="keep compiled modules in DIR (PYTHONPYCACHEPREFIX; a warm-up run fills it): the "
                         "start of an installed package, where PYTHONDONTWRITEBYTECODE would otherwise "
                         "make every run compile every module")
    ap.add_argument("--all-words", type=int, metavar="N", default=0,
                    help="all-words keys (ALL gold against Lesk) repeated N times, lemmas renamed per copy")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("extra", nargs="*", help="other arguments of agree (after --; default --ci 1000)")
    args = ap.parse_args()
    if args.child:
        child(args.extra)
        return
    extra = args.extra or ["--ci", "1000"]
    import tempfile

    words_dir = tempfile.TemporaryDirectory()
    argv = all_words_command(args.all_words, extra, Path(words_dir.name)) if args.all_words else command(extra)
    corpus = f"ALL x {args.all_words}" if args.all_words else "MASC"
    if args.all_words and not (realdata() / "wsdeval" / "ALL.gold.key.txt").exists():
        print("no all-words data (set HIERADJ_REALDATA)")
        return
    if not args.all_words and not Path(argv[2]).exists():
        print(f"no MASC data at {argv[2]} (set HIERADJ_REALDATA)")
        print("BENCH-RESULT " + json.dumps([{"figure": "agree on MASC", "ours": None, "peer": None, "unit": "s",
                                             "target": "<= 3 s", "note": "skipped: no MASC data"}]))
        return
    if args.quick:
        args.repeats = 1
    global PYC_PREFIX
    tmp_cache = None
    if args.bytecode_cache is None:
        tmp_cache = tempfile.TemporaryDirectory()
        args.bytecode_cache = tmp_cache.name
    PYC_PREFIX = args.bytecode_cache
    compiled = "modules compiled once (a bytecode cache)" if PYC_PREFIX else (
        "modules compiled at every start (PYTHONDONTWRITEBYTECODE)" if os.environ.get("PYTHONDONTWRITEBYTECODE")
        else "bytecode as the environment has it")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; python {sys.version.split()[0]}; {compiled}")
    if PYC_PREFIX:
        run_once(argv)  # fills the cache
    runs = [run_once(argv) for _ in range(args.repeats)]
    walls = sorted(w for w, _, _ in runs)
    cpu = min(c for _, _, c in runs)
    rss = max(r for _, r, _ in runs)
    print(f"agree on {corpus}, end to end: best {walls[0]:.2f} s (all: {', '.join(f'{w:.2f}' for w in walls)}), "
          f"CPU {cpu:.2f} s, peak RSS {rss:.0f} MiB ({rss * 2**20 / 1e6:.0f} MB)")
    if not args.quick:
        staged = [stages_once(argv) for _ in range(args.repeats)]
        print("stages (best of {}): ".format(args.repeats)
              + ", ".join(f"{s} {min(t[s] for t in staged) * 1000:.0f} ms" for s in STAGES))
    print(f"load average {os.getloadavg()[0]:.2f} afterwards")
    what = "agree " + " ".join(extra) + f" on {corpus}"
    print("BENCH-RESULT " + json.dumps([
        {"figure": f"{what}: wall time", "ours": round(walls[0], 3), "peer": None, "unit": "s", "target": "<= 3 s",
         "note": "no peer: a fixed target"},
        {"figure": f"{what}: CPU time", "ours": round(cpu, 3), "peer": None, "unit": "s", "target": "<= 3 s",
         "note": ""},
        {"figure": f"{what}: peak RSS", "ours": round(rss * 2**20 / 1e6, 1), "peer": None, "unit": "MB",
         "target": "<= 300 MB", "note": ""}]))
    if tmp_cache is not None:
        tmp_cache.cleanup()
    words_dir.cleanup()


if __name__ == "__main__":
    main()
