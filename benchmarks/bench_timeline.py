"""The timeline at MASC scale (issue 32): 44,682 instances decided over 30 simulated days and
re-imports of the crowd file, then the CLI's timeline and the view's parts timed.

    PYTHONPATH=. python benchmarks/bench_timeline.py [--reimports N] [--keep DIR]

Builds the MASC project (benchmarks/_bench_util.build_masc), saves one day's decisions at a time
(each instance takes its first worker's label; decided_at spread over 30 days), re-imports the
crowd file N times (default 2; the issue's simulation asks 5, each costs a full read of the file),
then prints the wall time and peak RSS of `project timeline --by day`, `--by import` (first: the
older states rebuilt; then read from the project's cache) and the parts of the view.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench_util import build_masc, realdata  # noqa: E402


def simulate(path: Path, reimports: int) -> None:
    from hieradjudicate.app.session.commands import Decide
    from hieradjudicate.app.session.decisions import Decision
    from hieradjudicate.app.session.session import Session

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
        for _ in range(reimports):
            s.reimport(c.sets[0].name, src)


def run(args: list[str]) -> None:
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", "import resource,sys,runpy; sys.argv=['hieradjudicate',*sys.argv[1:]];"
                          "from hieradjudicate.cli.entry import main; rc=main(sys.argv[1:]);"
                          "print('peak RSS %.0f MiB' % (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss/1024),"
                          " file=sys.stderr); sys.exit(rc)", *args], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    print(f"{' '.join(args[:4])} {' '.join(args[4:])}: {wall:.2f} s, {out.stderr.strip().splitlines()[-1]}, "
          f"exit {out.returncode}, {len(out.stdout.splitlines())} lines")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reimports", type=int, default=2)
    ap.add_argument("--keep", type=Path)
    a = ap.parse_args()
    folder = a.keep or Path(tempfile.mkdtemp(prefix="bench-timeline-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "masc.hadj"
    if not path.exists():
        t0 = time.perf_counter()
        build_masc(folder)
        simulate(path, a.reimports)
        print(f"built and simulated in {time.perf_counter() - t0:.1f} s: {path}")
    for extra in (["--by", "day"], ["--by", "week"], ["--by", "import"], ["--by", "import"]):
        run(["project", "timeline", str(path), *extra, "--format", "csv"])
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from hieradjudicate.app.session.session import Session
    from hieradjudicate.gui.dashboard.timeline.timeline_page import TimelinePage

    app = QApplication.instance() or QApplication([])
    with Session.open(path, read_only=True) as s:
        page = TimelinePage(s.session if hasattr(s, "session") else s)
        page.resize(1200, 700)
        c0, t0 = time.process_time(), time.perf_counter()
        page.refresh()  # what the tab does when first shown: reads here, computes off the GUI thread
        shown = time.perf_counter() - t0
        while page.view is None:
            app.processEvents()
            time.sleep(0.01)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        t1 = time.perf_counter()
        while page.runner.busy:
            app.processEvents()
            time.sleep(0.05)
        print(f"Timeline tab: GUI thread free after {shown:.2f} s; the decisions' figures drawn after {wall:.2f} s "
              f"(CPU of the process {cpu:.2f} s; parts {page.view.seconds}); the import points "
              f"{time.perf_counter() - t1:.1f} s later; "
              f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB; "
              f"load {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
