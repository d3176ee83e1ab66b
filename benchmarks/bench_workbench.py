"""Workbench responsiveness on a generated project: 100,000 instances, 3 annotators.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_workbench.py [--n 100000]

Prints: time to interactive on open (target < 2 s), next unresolved with table,
detail, chart and tree updated (< 50 ms), filter change (< 200 ms).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["HIERADJ_NO_DIALOGS"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_util import generate_project  # noqa: E402


def generate(folder: Path, n: int, n_lexelts: int = 200, seed: int = 7) -> tuple[list[str], list, list[str]]:
    inv, specs, ctx, _ = generate_project(folder, n, n_lexelts=n_lexelts, seed=seed, contexts=True)
    return inv, specs, ctx


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    args = ap.parse_args()
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    from hieradjudicate.app.session.session import Session

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        os.environ["XDG_CONFIG_HOME"] = str(folder / "cfg")
        t0 = time.perf_counter()
        inv, specs, ctx = generate(folder, args.n)
        project = folder / "big.hadj"
        Session.create(project, inv, specs, ctx).close()
        print(f"generated and created the project ({args.n} instances, 3 annotators) in "
              f"{time.perf_counter() - t0:.1f} s")

        QCoreApplication.setOrganizationName("hieradjudicate-bench")
        app = QApplication.instance() or QApplication([])
        QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(folder / "settings"))
        from hieradjudicate.gui.main_window import MainWindow

        t0 = time.perf_counter()
        win = MainWindow()
        win.resize(1280, 800)
        assert win.load_project(project)
        win.show()
        app.processEvents()
        win.grab()  # everything laid out and painted once
        t_open = time.perf_counter() - t0
        ws, wb = win.ws, win.wb

        def timed(fn, repeat: int) -> list[float]:
            out = []
            for _ in range(repeat):
                t = time.perf_counter()
                fn()
                app.processEvents()
                ws.table.viewport().repaint()
                ws.detail.chart.repaint()
                ws.tree.tree.viewport().repaint()
                out.append((time.perf_counter() - t) * 1000)
            return out

        nav = timed(win.next_unresolved, 50)
        decide = timed(lambda: win.take_set(1), 30)
        boxes = ws.category_box
        choices = [2, 1, 0, 3, 5, 0]
        filt = timed(lambda: boxes.setCurrentIndex(choices.pop(0) if choices else 0), 6)
        from hieradjudicate.app.workbench.queue import Filter
        fl = [Filter(categories=(3,)), Filter(), Filter(categories=(1, 2, 3)), Filter(statuses=(0,)),
              Filter(lexelts=(5,)), Filter()]
        table_only = timed(lambda: ws.model.set_filter(fl.pop(0)), 6)

        def text_filter() -> None:
            ws.search.setText("w17.n.0")
            ws.apply_filter()

        def settle() -> None:
            t = time.perf_counter()
            while ws.live.updating and time.perf_counter() - t < 30:
                app.processEvents()
                time.sleep(0.0005)

        settle()
        fig_decide, fig_filter = [], []
        for _ in range(30):
            win.take_set(1)
            settle()
            fig_decide.append(ws.live.last_latency_ms)
        for k in (2, 1, 0, 3, 5, 0):
            boxes.setCurrentIndex(k)
            app.processEvents()
            settle()
            fig_filter.append(ws.live.last_latency_ms)
        text = timed(text_filter, 1)
        text2 = timed(lambda: (ws.search.setText("w3.n.00"), ws.apply_filter()), 1)
        sort = timed(lambda: ws.model.sort(ws.model.keys.index("agreement")), 1)
        print(f"time to interactive on open:              {t_open:.2f} s (target < 2 s)")
        print(f"next unresolved (table+detail+chart+tree): median {statistics.median(nav):.1f} ms, "
              f"max {max(nav):.1f} ms (target < 50 ms)")
        print(f"take an answer (saved, table, move on):   median {statistics.median(decide):.1f} ms, "
              f"max {max(decide):.1f} ms (live figures target < 100 ms)")
        print(f"filter change, table only:                median {statistics.median(table_only):.1f} ms, "
              f"max {max(table_only):.1f} ms (target < 200 ms)")
        print(f"filter change as the user waits for it:   median {statistics.median(filt):.1f} ms, "
              f"max {max(filt):.1f} ms (figures follow in the background)")
        print(f"live figures after a decision (worker):   median {statistics.median(fig_decide):.1f} ms, "
              f"max {max(fig_decide):.1f} ms (target < 100 ms; the table never waits)")
        print(f"live kappa/alpha after a filter (worker): median {statistics.median(fig_filter):.1f} ms, "
              f"max {max(fig_filter):.1f} ms")
        print(f"free-text filter: first {text[0]:.1f} ms (builds the haystack), then {text2[0]:.1f} ms")
        print(f"sort by leaf agreement:                   {sort[0]:.1f} ms")
        win.close()
        win.deleteLater()
        app.processEvents()
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown of Qt objects (PySide6 may crash in the final GC)


if __name__ == "__main__":
    sys.exit(main())
