"""Where the GUI thread's time goes in one N key on MASC (#33): a breakdown, not a figure to hold.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_next_key_parts.py [--project P.hadj] [--keys 40]

Opens the project (default: MASC built from ``$HIERADJ_REALDATA/masc_amt`` into a temporary folder;
a given project is copied first, the keys never change it), waits for the opening's background work,
then presses N ``--keys`` times back to back and as many times :data:`PACE` apart, each key followed
by the events until idle, as ``bench_crowd.py`` does.  Prints, per key (both kinds together), the
GUI thread's CPU time of

* the steps' named parts (the panels' ``show_instance``, the answers' HTML, the vote table, the
  suggestion, the chart, the sense tree: see :data:`PARTS`), each including what it calls;
* each widget's paint events (a widget and the nearest named widget above it);
* the events delivered from the event loop, by type (``Shortcut``: the step itself; ``UpdateRequest``:
  the window's paint; ``LayoutRequest``: a layout done again; ``MetaCall``: queued calls -- on MASC
  the chart scene's, inside which Qt paints the window, so it holds most of the paints listed).

Every event goes through a Python ``notify`` and every part through a wrapper while they are
counted, so these figures are a little above ``bench_crowd.py``'s (the reference); the median
GUI-thread CPU of a key is printed without that instrumentation first.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["HIERADJ_NO_DIALOGS"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_util import build_masc, widget_name

#: seconds between two paced N keys (as bench_crowd.PACE)
PACE = 0.15
_DP = "hieradjudicate.gui.workbench.panels.detail_panel"
_Q = "hieradjudicate.app.workbench.queue"
#: (module, qualified name) of the functions timed, outermost first
PARTS = (("hieradjudicate.gui.main_window", "MainWindow._step"),
         ("hieradjudicate.gui.workbench.workspace", "Workspace.select_row"),
         (_DP, "DetailPanel.show_instance"), (_DP, "set_html"), (_DP, "suggestion_html"), (_Q, "Workbench.suggestion"),
         ("hieradjudicate.gui.workbench.panels.crowd_detail", "VoteModel.update"), (_DP, "LeafChart.show_data"),
         (_Q, "Workbench.answer_groups"), (_DP, "groups_html"), (_DP, "DetailPanel._sense_column"),
         ("hieradjudicate.gui.workbench.inventory_tree", "InventoryTree.show_instance"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--project", help="a .hadj project (copied first; default: MASC built from the real data)")
    ap.add_argument("--keys", type=int, default=40, help="N keys of each kind (back to back, paced)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        project = folder / "project.hadj"
        shutil.copy(args.project, project) if args.project else shutil.move(build_masc(folder), project)
        from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QApplication, QWidget

        costs: dict[str, float] = {}
        counting = [False]

        def add(key: str, since: float) -> None:
            costs[key] = costs.get(key, 0.0) + (time.thread_time() - since) * 1000

        class App(QApplication):
            depth = 0

            def notify(self, obj, ev) -> bool:
                if not counting[0]:
                    return super().notify(obj, ev)
                kind, c = ev.type(), time.thread_time()
                App.depth += 1
                try:
                    return super().notify(obj, ev)
                finally:
                    App.depth -= 1
                    if kind == QEvent.Type.Paint and isinstance(obj, QWidget):
                        add(f"paint  {widget_name(obj)}", c)
                    elif App.depth == 0:
                        add(f"event  {kind.name}", c)

        for module, qual in PARTS:
            owner = importlib.import_module(module)
            *path, name = qual.split(".")
            for p in path:
                owner = getattr(owner, p)
            fn = getattr(owner, name)

            def timed(*a, _fn=fn, _key=f"part   {qual}", **kw):
                if not counting[0]:
                    return _fn(*a, **kw)
                c = time.thread_time()
                try:
                    return _fn(*a, **kw)
                finally:
                    add(_key, c)
            setattr(owner, name, timed)

        QCoreApplication.setOrganizationName("hieradjudicate-bench")
        app = App([])
        QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(folder / "settings"))
        from hieradjudicate.gui.main_window import MainWindow

        win = MainWindow()
        assert win.load_project(project)
        win.show()
        app.processEvents()
        ws = win.ws

        def settle(cond, limit: float = 120.0) -> None:
            t = time.perf_counter()
            while not cond() and time.perf_counter() - t < limit:
                app.processEvents()
                time.sleep(0.001)

        settle(lambda: win.wb.competence is not None and not ws.weigher.busy and not win.wb.weighing
               and not ws.live.updating)
        settle(lambda: False, 0.5)
        ws.table.setFocus()
        app.processEvents()

        def keys(pace: float, count: bool) -> list[float]:
            cpu = []
            for _ in range(args.keys):
                counting[0] = count
                c = time.thread_time()
                QTest.keyClick(win, Qt.Key.Key_N)
                for _ in range(3):  # as bench_crowd.py: posted paints, then the views' delayed layouts
                    app.processEvents()
                cpu.append((time.thread_time() - c) * 1000)
                counting[0] = False
                if pace:
                    settle(lambda: False, pace)
            return cpu

        plain = {"back to back": keys(0, False), f"{PACE * 1000:.0f} ms apart": keys(PACE, False)}
        keys(0, True)
        keys(PACE, True)
        print(f"project {args.project or 'MASC'}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
        print("N key, GUI-thread CPU median (no instrumentation): "
              + ", ".join(f"{k} {statistics.median(v):.1f} ms" for k, v in plain.items()))
        print(f"per N key ({2 * args.keys} keys counted, half back to back, half paced), GUI-thread CPU ms:")
        for key, ms in sorted(costs.items(), key=lambda kv: -kv[1]):
            if ms / (2 * args.keys) >= 0.05:
                print(f"  {ms / (2 * args.keys):6.2f}  {key}")
        win.close_project()
    return 0


if __name__ == "__main__":
    sys.exit(main())
