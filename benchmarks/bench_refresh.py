"""A decision's refresh on MASC (228 workers, 44,682 instances), part by part (#23: < 150 ms).

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_refresh.py [--project P.hadj] [--decisions 40]

Opens the project in the real :class:`~hieradjudicate.gui.main_window.MainWindow`, then takes
set 1's answer on the highlighted instance (the key ``1``: saved, the table row and the panels
updated, the next unresolved instance shown) ``--decisions`` times, each time waiting for the
live figures computed in the worker.  Prints median, p95 and max of each part:

* store commit -- ``Session.execute`` (the decision written to the project file), the callbacks excluded;
* table update -- the changed rows announced to the table (``instance_model.instances_changed``);
* live (GUI) -- progress and counts set, the snapshot taken, the worker started;
* detail redraw -- the detail panel and the inventory tree shown for the decided and the next instance;
* paint -- the events processed and the table and chart repainted;
* live figures (worker) -- the per-set scores (and any due agreement) computed off the GUI thread;
* live figures shown (GUI) -- the worker's result put in the panel (the per-set score table);
* decision shown -- key to painted; all figures -- key to the live figures shown.

Wall times and, per part, the CPU time of the thread that ran it (``time.thread_time``: what
the part itself costs, which other processes on the machine do not stretch).  Figures are printed, never asserted; the machine is shared (the load average is printed beside them).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["HIERADJ_NO_DIALOGS"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_crowd import build_masc, p95  # noqa: E402

TIMES: dict[str, float] = defaultdict(float)
CPU: dict[str, float] = defaultdict(float)


def timed(name: str, fn):
    """``fn`` wrapped to add its wall time to ``TIMES[name]`` and its thread's CPU time to ``CPU[name]``."""
    def wrapper(*args, **kwargs):
        t, c = time.perf_counter(), time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            TIMES[name] += (time.perf_counter() - t) * 1000
            CPU[name] += (time.thread_time() - c) * 1000
    return wrapper


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--project", help="a .hadj project (default: MASC built from the real data)")
    ap.add_argument("--decisions", type=int, default=40)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        project = Path(args.project) if args.project else build_masc(folder)
        from PySide6.QtCore import QCoreApplication, QSettings
        from PySide6.QtWidgets import QApplication

        QCoreApplication.setOrganizationName("hieradjudicate-bench")
        app = QApplication.instance() or QApplication([])
        QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(folder / "settings"))
        import hieradjudicate.gui.workbench.panels.live_panel as live_panel
        from hieradjudicate.gui.main_window import MainWindow

        win = MainWindow()
        assert win.load_project(project)
        win.show()
        app.processEvents()
        win.grab()
        ws = win.ws

        def settle(cond, limit: float = 120.0) -> None:
            t = time.perf_counter()
            while not cond() and time.perf_counter() - t < limit:
                app.processEvents()
                time.sleep(0.0005)

        # the background work of opening (first live figures, the dashboard's prefetch, the competence
        # estimate) done first: the figures are those of the decision itself
        settle(lambda: not ws.live.updating and ws.live.figures is not None)
        view = win.dashboard.view
        settle(lambda: win.wb.competence is not None, 180)
        settle(lambda: view is None or not (view.estimator.busy or view.warm.busy), 180)

        session = win.session
        inner_execute = session.commands.execute

        def execute(command):  # the commit alone: the subscribers' time is counted in their parts
            t, c = time.perf_counter(), time.thread_time()
            before, before_cpu = dict(TIMES), dict(CPU)
            out = inner_execute(command)
            total, total_cpu = (time.perf_counter() - t) * 1000, (time.thread_time() - c) * 1000
            TIMES["store commit"] += total - sum(TIMES[k] - before.get(k, 0.0) for k in list(TIMES))
            CPU["store commit"] += total_cpu - sum(CPU[k] - before_cpu.get(k, 0.0) for k in list(CPU))
            return out

        session.commands.execute = execute
        ws.model.instances_changed = timed("table update", ws.model.instances_changed)
        ws.live.refresh_decisions = timed("live (GUI)", ws.live.refresh_decisions)
        ws.detail.show_instance = timed("detail redraw", ws.detail.show_instance)
        ws.tree.show_instance = timed("detail redraw", ws.tree.show_instance)
        live_panel.live_figures = timed("live figures (worker)", live_panel.live_figures)

        ws.live._show = timed("live figures shown (GUI)", ws.live._show)

        parts: dict[str, list[float]] = defaultdict(list)
        cpu: dict[str, list[float]] = defaultdict(list)
        names = ("store commit", "table update", "live (GUI)", "detail redraw", "paint", "live figures (worker)",
                 "live figures shown (GUI)")
        for _ in range(args.decisions):
            TIMES.clear()
            CPU.clear()
            t, c = time.perf_counter(), time.thread_time()
            win.take_set(1)
            t_paint, c_paint = time.perf_counter(), time.thread_time()
            app.processEvents()
            ws.table.viewport().repaint()
            ws.detail.chart.repaint()
            TIMES["paint"] += (time.perf_counter() - t_paint) * 1000
            CPU["paint"] += (time.thread_time() - c_paint) * 1000
            shown, shown_cpu = (time.perf_counter() - t) * 1000, (time.thread_time() - c) * 1000
            settle(lambda: not ws.live.updating)
            every = (time.perf_counter() - t) * 1000
            for k in names:
                parts[k].append(TIMES.get(k, 0.0))
                cpu[k].append(CPU.get(k, 0.0))
            parts["decision shown"].append(shown)
            cpu["decision shown"].append(shown_cpu)
            parts["all figures"].append(every)
        load = os.getloadavg()
        print(f"project {project.name}: {len(win.wb.corpus.sets)} sets, {win.wb.corpus.n} instances; "
              f"{args.decisions} decisions; load average {load[0]:.2f} {load[1]:.2f} on {os.cpu_count()} CPUs")
        print("  (wall time; CPU = the time the part's thread ran, which the load does not stretch)")
        for k, v in parts.items():
            line = f"  {k:26s} median {statistics.median(v):6.1f} ms, p95 {p95(v):6.1f} ms, max {max(v):6.1f} ms"
            if k in cpu:
                line += f"; CPU median {statistics.median(cpu[k]):5.1f} ms, max {max(cpu[k]):5.1f} ms"
            print(line)
        win.close_project()
    return 0


if __name__ == "__main__":
    sys.exit(main())
