"""The workbench and dashboard at crowd scale (#14): MASC, 228 annotators, 44,682 instances.

    xvfb-run -a python benchmarks/bench_crowd.py [--project P.hadj]   (or QT_QPA_PLATFORM=offscreen)

Without ``--project`` the MASC project is built from ``$HIERADJ_REALDATA/masc_amt``
into a temporary folder.  Prints (targets from issue #14): open to interactive
(< 2 s), next instance (< 50 ms), refresh after a decision: table + live
figures (< 200 ms), Dashboard first drawn (< 1.5 s), RSS (< 800 MB), window
size, and the report's size, writing time and CSV folder.  Figures are
printed, never asserted; the machine is shared (the load average is printed).
The last line is ``BENCH-RESULT `` and a JSON list of ``{"figure", "ours", "peer",
"unit", "target"}`` against issue #33's targets (open <= 1 s, next <= 16 ms, refresh
<= 50 ms, RSS <= 300 MB after opening, the dashboard and a competence estimate, peak
<= 350 MB), for ``benchmarks/run.py`` to collect.  Beside the wall times, the GUI
thread's own CPU time of a step is printed: on a loaded machine it is the cost of the
step itself.  The next instance is timed twice: as before, with the table's viewport, the
chart and the tree repainted whole (forced), and as a user's N key followed by the events
until idle, where Qt repaints only what changed -- back to back, and :data:`PACE` apart as a reader
presses them, the window preparing the next instance in between (all three rows are in ``BENCH-RESULT``).  After the keys,
a diagnostic line counts the paint events of ten more N keys per widget: a widget painted more than
once a step paints in vain.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["HIERADJ_NO_DIALOGS"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_util import build_masc, widget_name  # noqa: E402


#: seconds between two N keys at a reader's pace (a fast reader: ~7 instances a second)
PACE = 0.15


def rss_mb() -> float:
    """Current resident set (VmRSS) and peak (VmHWM) of this process, MiB."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def p95(values: list[float]) -> float:
    import numpy as np

    return float(np.percentile(values, 95))


def paints_per_key(app, win, keys: int) -> str:
    """The paint events ``keys`` N keys cause, per widget (its class and the nearest named widget
    above it), most first: a diagnostic of how many paints one step costs."""
    from PySide6.QtCore import QEvent, QObject, Qt
    from PySide6.QtTest import QTest

    class Paints(QObject):
        seen: dict[str, int] = {}

        def eventFilter(self, obj, ev) -> bool:  # noqa: N802 (Qt's name)
            if ev.type() == QEvent.Type.Paint:
                key = widget_name(obj)
                self.seen[key] = self.seen.get(key, 0) + 1
            return False

    paints = Paints()
    app.installEventFilter(paints)
    try:
        for _ in range(keys):
            QTest.keyClick(win, Qt.Key.Key_N)
            for _ in range(3):
                app.processEvents()
    finally:
        app.removeEventFilter(paints)
    top = sorted(paints.seen.items(), key=lambda kv: -kv[1])[:14]
    return ", ".join(f"{k} {v / keys:.1f}" for k, v in top)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--project", help="a .hadj project (default: MASC built from the real data)")
    ap.add_argument("--no-report", action="store_true")
    args = ap.parse_args()
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import numpy"], check=True)
    print(f"machine yardstick: python -c 'import numpy' took {time.perf_counter() - t:.2f} s")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        project = Path(args.project) if args.project else build_masc(folder)
        from PySide6.QtCore import QCoreApplication, QSettings
        from PySide6.QtWidgets import QApplication

        QCoreApplication.setOrganizationName("hieradjudicate-bench")
        app = QApplication.instance() or QApplication([])
        QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(folder / "settings"))
        from hieradjudicate.gui.main_window import MainWindow

        t0, c0 = time.perf_counter(), time.thread_time()
        win = MainWindow()  # sized from the screen (#23)
        assert win.load_project(project)
        win.show()
        app.processEvents()
        win.grab()  # laid out and painted once: the table answers keys from here
        t_open, c_open = time.perf_counter() - t0, time.thread_time() - c0
        rss_open = rss_mb()
        ws = win.ws

        def settle(cond, limit: float = 120.0) -> float:
            t = time.perf_counter()
            while not cond() and time.perf_counter() - t < limit:
                app.processEvents()
                time.sleep(0.001)
            return time.perf_counter() - t

        # the steps a user takes at once, while the background work of opening runs as the program
        # schedules it: the live figures, then the dashboard's prefetch, then the competence estimate
        # (#23: < 50 ms median, < 100 ms p95); each step records whether work was running

        def background() -> bool:
            w = win.dashboard.work  # the warm-up and the estimate run before the tab's widgets exist
            return bool(ws.live.updating or ws.weigher.busy or (w is not None and (w.estimator.busy or w.warm.busy)))

        busy_nav, nav_bg = [], []
        for _ in range(60):
            was = background()
            t = time.perf_counter()
            win.next_unresolved()
            app.processEvents()
            ws.table.viewport().repaint()
            ws.detail.chart.repaint()
            nav_bg.append((time.perf_counter() - t) * 1000)
            busy_nav.append(was)
        t_live = settle(lambda: not ws.live.updating and ws.live.figures is not None)

        cpu: list[float] = []  # the GUI thread's own CPU time of each timed step (the load does not count)

        def timed(fn, repeat: int) -> list[float]:
            out = []
            for _ in range(repeat):
                t, c = time.perf_counter(), time.thread_time()
                fn()
                app.processEvents()
                ws.table.viewport().repaint()
                ws.detail.chart.repaint()
                ws.tree.tree.viewport().repaint()
                out.append((time.perf_counter() - t) * 1000)
                cpu.append((time.thread_time() - c) * 1000)
            return out

        nav = timed(win.next_unresolved, 30)
        refresh, shown = [], []
        for _ in range(15):  # a decision: saved, table, detail and progress at once, live figures in the worker
            t = time.perf_counter()
            win.take_set(1)
            app.processEvents()
            ws.table.viewport().repaint()
            shown.append((time.perf_counter() - t) * 1000)
            settle(lambda: not ws.live.updating)
            refresh.append((time.perf_counter() - t) * 1000)
        size = win.size()
        t = time.perf_counter()
        win.dashboard.show_dashboard()
        dv = win.dashboard.view
        settle(lambda: dv.data is not None and not dv.updating, 600)
        app.processEvents()
        win.grab()
        t_dash = time.perf_counter() - t
        rss_end = rss_mb()
        load = os.getloadavg()[0]
        print(f"project {project.name}: {len(win.wb.corpus.sets)} sets, {win.wb.corpus.n} instances; "
              f"load average {load:.2f} on {os.cpu_count()} CPUs")
        print(f"open to interactive (painted):        {t_open:.2f} s (target < 2 s; GUI thread CPU {c_open:.2f} s; "
              f"the late columns and the weighing in the background after it); live figures after "
              f"{t_live:.2f} s more (worker)")
        print(f"window size:                          {size.width()}x{size.height()} (from the screen); minimum "
              f"{win.minimumSizeHint().width()}x{win.minimumSizeHint().height()} (target fits 1024x700)")
        during = [t for t, b in zip(nav_bg, busy_nav) if b] or nav_bg
        print(f"next instance while background work runs ({sum(busy_nav)} of {len(busy_nav)} steps with work "
              f"running): median {statistics.median(during):.1f} ms, p95 {p95(during):.1f} ms, "
              f"max {max(during):.1f} ms (targets < 50 ms, p95 < 100 ms)")
        print(f"next instance after that:             median {statistics.median(nav):.1f} ms, "
              f"p95 {p95(nav):.1f} ms, max {max(nav):.1f} ms")
        print(f"decision shown (saved, table, detail): median {statistics.median(shown):.0f} ms, "
              f"p95 {p95(shown):.0f} ms (target < 150 ms)")
        print(f"refresh after a decision (all figs):  median {statistics.median(refresh):.0f} ms, "
              f"max {max(refresh):.0f} ms (live figures included; target < 150 ms)")
        print(f"Dashboard first drawn:                {t_dash:.2f} s (target < 1.5 s)")
        print(f"RSS after open {rss_open[0]:.0f} MiB; after the dashboard {rss_end[0]:.0f} MiB, "
              f"peak {rss_end[1]:.0f} MiB (target < 800 MB)")
        # what the background prefetch spared the click: the same figures computed cold (the corpus'
        # sorted long form is shared with the live figures, so it is not rebuilt), and the competence
        settle(lambda: win.wb.competence is not None, 120)
        comp = win.wb.competence
        settle(lambda: not win.dashboard.work.estimator.busy and not win.dashboard.work.warm.busy
               and not ws.weigher.busy, 60)
        app.processEvents()
        steady = rss_mb()
        print(f"RSS once the background work is done: {steady[0]:.0f} MiB (peak so far {steady[1]:.0f} MiB)")
        # the same keys once the warm-up and the estimate are done: the cost of the step itself,
        # without the background threads taking the interpreter in turns
        win.dashboard.show_workbench()
        app.processEvents()
        cpu.clear()
        nav2 = timed(win.next_unresolved, 30)
        nav2_cpu = list(cpu)
        # the same step as a user takes it: the N key through the window's shortcut, then the events
        # until the window is idle, its paint included -- Qt repaints only what changed (the old and
        # new rows, or the row scrolled in), where the figure above forces three full repaints
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        ws.table.setFocus()
        app.processEvents()
        key_wall, key_cpu, moved = [], [], 0
        for _ in range(30):
            before = ws.current
            t, c = time.perf_counter(), time.thread_time()
            QTest.keyClick(win, Qt.Key.Key_N)
            for _ in range(3):  # posted paints, then the views' delayed layouts and what they repaint
                app.processEvents()
            key_wall.append((time.perf_counter() - t) * 1000)
            key_cpu.append((time.thread_time() - c) * 1000)
            moved += ws.current != before
        print(f"  next instance as a user's N key (events until idle, paint included; {moved} of 30 keys moved): "
              f"median {statistics.median(key_wall):.1f} ms, max {max(key_wall):.1f} ms (GUI thread CPU median "
              f"{statistics.median(key_cpu):.1f} ms)")
        # the same keys at a reader's pace: the events of PACE s processed between two keys, as while a
        # user reads the instance (the window prepares the next one's suggestion and answers then)
        paced_wall, paced_cpu = [], []
        for _ in range(30):
            t, c = time.perf_counter(), time.thread_time()
            QTest.keyClick(win, Qt.Key.Key_N)
            for _ in range(3):
                app.processEvents()
            paced_wall.append((time.perf_counter() - t) * 1000)
            paced_cpu.append((time.thread_time() - c) * 1000)
            settle(lambda: False, PACE)
        print(f"  the same keys {PACE * 1000:.0f} ms apart (a reader's pace): median {statistics.median(paced_wall):.1f} ms, "
              f"max {max(paced_wall):.1f} ms (GUI thread CPU median {statistics.median(paced_cpu):.1f} ms)")
        print("  paint events per N key (10 keys; a widget painted more than once a step paints in vain): "
              + paints_per_key(app, win, 10))
        refresh2, refresh2_cpu = [], []
        for _ in range(15):
            t, c = time.perf_counter(), time.thread_time()
            win.take_set(1)
            app.processEvents()
            settle(lambda: not ws.live.updating)
            refresh2.append((time.perf_counter() - t) * 1000)
            refresh2_cpu.append((time.thread_time() - c) * 1000)  # the wait for the worker included
        print(f"  with no background work: next instance median {statistics.median(nav2):.1f} ms, max "
              f"{max(nav2):.1f} ms (GUI thread CPU median {statistics.median(nav2_cpu):.1f} ms); refresh median "
              f"{statistics.median(refresh2):.0f} ms, max {max(refresh2):.0f} ms (GUI thread CPU median "
              f"{statistics.median(refresh2_cpu):.1f} ms, polling for the worker included)")
        # the Dawid & Skene estimate running again in the background (the model box: MACE, then back), the
        # keys timed meanwhile: the estimate must not starve the GUI; its progress line is sampled
        panel = win.dashboard.view.competence_panel
        est = win.dashboard.view.comp
        panel.model_box.setCurrentIndex(1)
        panel.model_box.setCurrentIndex(0)
        app.processEvents()
        nav3 = []
        t_est = time.perf_counter()
        seen = set()
        while est.runner.busy and len(nav3) < 60:
            nav3 += timed(win.next_unresolved, 1)
            seen.add(panel.status.text())
            settle(lambda: False, 0.25)
        print(f"  while Dawid & Skene runs in the background: next instance median {statistics.median(nav3):.1f} ms, "
              f"max {max(nav3):.1f} ms over {len(nav3)} keys (target < 50 ms)")
        prog = sorted(t for t in seen if "iteration" in t)
        print(f"  progress lines seen: {len(prog)}, e.g. {prog[-1] if prog else '(none)'!r}")
        settle(lambda: not est.runner.busy, 600)
        comp = est.result
        print(f"  re-estimate done after {time.perf_counter() - t_est:.1f} s: {panel.status.text()[-120:]!r}")
        switched = rss_mb()
        print(f"  RSS after the re-estimate {switched[0]:.0f} MiB; peak RSS of the window's own work so far (VmHWM): "
              f"{switched[1]:.0f} MiB (before the cold figures below, which a second Dashboard computes beside the window's)")
        from hieradjudicate.app.dashboard.dashboard import Dashboard

        t = time.perf_counter()
        Dashboard(win.wb.corpus).compute(n_resamples=0)
        t_cold = time.perf_counter() - t
        print(f"dashboard figures computed cold:      {t_cold:.2f} s (the background prefetch after opening "
              "computes these; a click finds them cached)")
        if comp is not None:
            print(f"competence estimate ({comp.model}):  {comp.seconds:.2f} s in the background, "
                  f"{comp.iterations} iteration(s), {'converged' if comp.converged else 'NOT converged'} "
                  "(target: well under 60 s)")
        print(f"peak RSS of the whole window run (VmHWM): {rss_mb()[1]:.0f} MiB (target < 763 MiB = 800 MB)")
        win.close_project()
        if not args.no_report:
            out = folder / "report.html"
            t = time.perf_counter()
            r = subprocess.run([sys.executable, "-m", "hieradjudicate", "report", str(project), "-o", str(out)],
                               capture_output=True, text=True)
            t_rep = time.perf_counter() - t
            if r.returncode:
                print(f"report failed: {r.stderr.strip()[-300:]}")
            else:
                csvs = sorted((folder / "report-tables").glob("*.csv")) if (folder / "report-tables").exists() else []
                print(f"report: {out.stat().st_size / 1e6:.2f} MB written in {t_rep:.1f} s (targets < 5 MB, "
                      f"< 5 s; includes starting Python and reading the project); {len(csvs)} CSV beside it")
    mib = 1e6 / 2**20  # the targets are in MB (#33): 300 MB = 286 MiB, 350 MB = 334 MiB
    result = [("open to first interaction", round(t_open, 2), "s", 1.0),
              ("next instance (median, no background work)", round(statistics.median(nav2), 1), "ms", 16),
              ("next instance, a user's N key (median, Qt's own repaint)", round(statistics.median(key_wall), 1),
               "ms", 16),
              (f"next instance, a user's N key {PACE * 1000:.0f} ms after the last (median)",
               round(statistics.median(paced_wall), 1), "ms", 16),
              ("a decision's full refresh (median, no background work)", round(statistics.median(refresh2), 1), "ms", 50),
              ("RSS after opening", round(rss_open[0]), "MiB", round(300 * mib)),
              ("RSS after the dashboard", round(rss_end[0]), "MiB", round(300 * mib)),
              ("RSS after a competence estimate", round(max(steady[0], switched[0])), "MiB", round(300 * mib)),
              ("peak RSS of the window", round(switched[1]), "MiB", round(350 * mib))]
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print("BENCH-RESULT " + json.dumps([{"figure": f, "ours": v, "peer": None, "unit": u, "target": tg}
                                         for f, v, u, tg in result]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
