"""The timeline at MASC scale (issue 32): 44,682 instances decided over 30 simulated days, re-imports
of the crowd file and a marker, then the CLI's timeline and the Timeline tab timed.

    PYTHONPATH=. python benchmarks/bench_timeline.py [--reimports N] [--keep DIR]

Builds the MASC project (benchmarks/_bench_util.build_masc), saves one day's decisions at a time
(each instance takes its first worker's label; decided_at spread over 30 days), re-imports the
crowd file N times (default 5, the issue's simulation; each a different file: 2 % of the items lose
their last label, as a re-annotated file would) and puts a marker between the 2nd and 3rd re-import.
The project creation and each re-import keep their state's timeline figures as they happen (issue
32: computed incrementally); the simulation times that part of each re-import (CPU s).  Then, each
in a fresh process (CPU seconds of that process, its wall time, peak RSS):

* ``project timeline --by day`` and ``--by import``: the first view (the project as the simulation
  left it: nothing viewed yet, so no decision point kept), the same view again (the kept points
  read), and the view after one more decision (only the new point computed);
* the Timeline tab opened, first and again: the GUI thread's time until it is free, and until the
  decisions' figures are drawn;
* ``--by import`` of the same project as an older version left it (nothing of the timeline kept:
  every older state rebuilt once, one at a time, and kept).

The machine is shared: CPU seconds are the figures to compare with the targets (wall times and the
load average are printed beside them).  The last line is ``BENCH-RESULT`` and a JSON list.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench_util import build_masc, realdata  # noqa: E402

TAB = r"""
import os, resource, sys, time
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtWidgets import QApplication
from hieradjudicate.app.session.session import Session
from hieradjudicate.gui.dashboard.timeline.timeline_page import TimelinePage
app = QApplication([])
with Session.open(sys.argv[1]) as s:
    page = TimelinePage(s)
    page.resize(1200, 700)
    c0, t0 = time.process_time(), time.perf_counter()
    page.refresh()  # what the tab does when first shown: reads here, computes off the GUI thread
    free = time.perf_counter() - t0
    while page.view is None:
        app.processEvents()
        time.sleep(0.005)
    drawn, cpu = time.perf_counter() - t0, time.process_time() - c0
    while page.runner.busy:
        app.processEvents()
        time.sleep(0.02)
    app.processEvents()
    imports = time.perf_counter() - t0
    print(free, drawn, cpu, imports, time.process_time() - c0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def simulate(folder: Path, path: Path, reimports: int) -> list[float]:
    """Decide and re-import (see the module docstring); the CPU seconds each re-import spent keeping its
    state's timeline figures."""
    from hieradjudicate.app.session import reimport as reimport_module
    from hieradjudicate.app.session.commands import Decide
    from hieradjudicate.app.session.decisions import Decision
    from hieradjudicate.app.session.session import Session
    from hieradjudicate.app.timeline.marks import add_marker

    kept: list[float] = []
    keep_state = getattr(reimport_module, "keep_state", None)  # None: a version that keeps nothing then

    def timed(*a, **k):
        c0 = time.process_time()
        keep_state(*a, **k)
        kept.append(time.process_time() - c0)
    if keep_state is not None:
        reimport_module.keep_state = timed

    with Session.open(path) as s:
        c = s.corpus
        ptr, k, r = c.answer_index()
        first_set, first_row = k[ptr[:-1]], r[ptr[:-1]]
        days = 30
        per_day = -(-c.n // days)
        for d in range(days):
            batch = []
            for i in range(d * per_day, min(c.n, (d + 1) * per_day)):
                st = c.sets[int(first_set[i])]
                lex, inst = c.instance_key(i)
                batch.append(Decision(lex, inst, tuple(c.tag_strings(st, int(first_row[i]))), f"set:{st.name}",
                                      decided_by="lead", decided_at=f"2026-04-{d + 1:02d}T12:{i % 60:02d}:00.000Z"))
            s.execute(Decide(batch, f"day {d + 1}"))
        src = realdata() / "masc_amt" / "masc_amt_labels_wide.tsv.gz"
        lines = gzip.decompress(src.read_bytes()).decode().splitlines(keepends=True)
        for v in range(reimports):
            out = [lines[0]]
            for j, line in enumerate(lines[1:]):
                head, _, labels = line.rstrip("\n").rpartition("\t")
                labs = labels.split(",")
                out.append(f"{head}\t{','.join(labs[:-1])}\n" if j % 50 == v and len(labs) > 2 else line)
            p = folder / f"masc_v{v + 2}.tsv.gz"
            p.write_bytes(gzip.compress("".join(out).encode()))
            s.reimport(c.sets[0].name, p)
            if v == 1:
                time.sleep(1.1)
                add_marker(s.store, "guidelines v2")  # between the 2nd and 3rd re-import
                time.sleep(1.1)
    if keep_state is not None:
        reimport_module.keep_state = keep_state
    return kept


def one_more_decision(path: Path) -> None:
    from hieradjudicate.app.session.commands import Decide
    from hieradjudicate.app.session.decisions import Decision
    from hieradjudicate.app.session.session import Session

    with Session.open(path) as s:
        c = s.corpus
        lex, inst = c.instance_key(7)
        st = c.sets[0]
        s.execute(Decide([Decision(lex, inst, ("1",), f"set:{st.name}", decided_by="lead",
                                   decided_at="2026-04-30T18:00:00.000Z")], "one more"))


def first(path: Path, built: Path) -> None:
    """The project as the simulation left it (nothing viewed yet): the next view is a first one."""
    import shutil

    shutil.copyfile(built, path)


def forget(path: Path) -> None:
    """Drop everything the timeline keeps in the project, as an older version left it."""
    import sqlite3

    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DELETE FROM arrays WHERE name LIKE 'timeline-%'")
    conn.close()


def child(args: list[str]) -> tuple[float, float, str]:
    """(CPU s, wall s, stdout) of one fresh process."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode:
        sys.exit(f"{args}: exit {out.returncode}\n{out.stderr[-2000:]}")
    return r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime, wall, out.stdout


def cli(path: Path, by: str) -> tuple[float, float, float, int]:
    code = ("import resource,sys; from hieradjudicate.cli.entry import main; rc=main(sys.argv[1:]); "
            "print('RSS', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss/1024); sys.exit(rc)")
    cpu, wall, out = child(["-c", code, "project", "timeline", str(path), "--by", by, "--format", "csv"])
    lines = out.splitlines()
    return cpu, wall, float(lines[-1].split()[1]), len(lines) - 1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reimports", type=int, default=5)
    ap.add_argument("--keep", type=Path)
    ap.add_argument("--simulate-in", type=Path, help=argparse.SUPPRESS)  # the child that simulates
    a = ap.parse_args()
    if a.simulate_in:
        print("KEPT " + json.dumps(simulate(a.simulate_in, a.simulate_in / "masc.hadj", a.reimports)))
        return
    folder = a.keep or Path(tempfile.mkdtemp(prefix="bench-timeline-"))
    folder.mkdir(parents=True, exist_ok=True)
    path, built = folder / "masc.hadj", folder / "masc-built.hadj"
    results: list[dict[str, object]] = []
    if not built.exists():
        t0 = time.perf_counter()
        build_masc(folder)
        # in a child: a process's peak RSS outlives its exec, so this one stays small for the measured children
        _, _, out = child([__file__, "--simulate-in", str(folder), "--reimports", str(a.reimports)])
        kept = json.loads(out.splitlines()[-1].removeprefix("KEPT "))
        first(built, path)  # kept as the simulation left it
        print(f"built and simulated in {time.perf_counter() - t0:.1f} s: {path}")
        print("each re-import's state figures kept in " + ", ".join(f"{x:.2f}" for x in kept) + " CPU-s "
              f"(load {os.getloadavg()[0]:.2f})")
        results.append({"figure": "a re-import keeping its state's timeline figures (max over the re-imports)",
                        "ours": round(max(kept), 2) if kept else None, "peer": None, "unit": "CPU s",
                        "target": "(part of the re-import)"})
    peak = {"first": 0.0, "later": 0.0}

    def note(figure: str, cpu: float, wall: float, target: str, rss: float | None = None) -> None:
        load = os.getloadavg()[0]
        extra = f", peak RSS {rss:.0f} MiB" if rss is not None else ""
        print(f"{figure}: {cpu:.2f} CPU-s (wall {wall:.2f} s{extra}; load {load:.2f} on {os.cpu_count()} CPUs)")
        results.append({"figure": figure, "ours": round(cpu, 2), "peer": None, "unit": "CPU s", "target": target})
        if rss is not None:
            k = "first" if "first" in figure else "later"
            peak[k] = max(peak[k], rss)

    for by in ("day", "import"):
        for when in ("first view", "again", "after one more decision"):
            if when == "first view":
                first(path, built)
            if when == "after one more decision":
                one_more_decision(path)
            cpu, wall, rss, n = cli(path, by)
            note(f"project timeline --by {by}, {when} ({n} rows)", cpu, wall, "< 3 s", rss)
    for when in ("first opening", "again", "after one more decision"):
        if when == "first opening":
            first(path, built)
        if when == "after one more decision":
            one_more_decision(path)
        _, _, out = child(["-c", TAB, str(path)])
        free, drawn, cpu, imports, cpu_all, rss = map(float, out.split())
        note(f"Timeline tab, {when}: decisions' figures drawn (GUI thread free after {free:.2f} s; "
             f"import points after {imports:.1f} s, {cpu_all:.1f} CPU-s)", cpu, drawn, "< 2 s", rss)
    first(path, built)
    forget(path)
    cpu, wall, rss, n = cli(path, "import")
    print(f"project timeline --by import of a project an older version made (every older state rebuilt "
          f"once, then kept): {cpu:.2f} CPU-s (wall {wall:.2f} s, peak RSS {rss:.0f} MiB; load {os.getloadavg()[0]:.2f})")
    results.append({"figure": "project timeline --by import, a project an older version made (older states "
                    "rebuilt once)", "ours": round(cpu, 2), "peer": None, "unit": "CPU s", "target": "(once)"})
    results.append({"figure": "peak RSS of that rebuild", "ours": round(rss), "peer": None, "unit": "MiB",
                    "target": "within bench_crowd.py (298 / 579 MiB)"})
    for k, what in (("first", "the first views"), ("later", "the later views")):
        results.append({"figure": f"peak RSS of {what}", "ours": round(peak[k]), "peer": None, "unit": "MiB",
                        "target": "within bench_crowd.py (298 / 579 MiB)"})
        print(f"peak RSS of {what}: {peak[k]:.0f} MiB")
    print("BENCH-RESULT " + json.dumps(results))


if __name__ == "__main__":
    main()
