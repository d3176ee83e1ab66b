"""Time of each named step of opening a project in the window, and of the first dashboard (#23 point 5).

    python benchmarks/bench_open_steps.py [P.hadj ...] [--repeats 3] [--shots DIR]

Without projects: MASC (228 workers) and the WSD framework's ALL + WordNet 3.0 are built from
``$HIERADJ_REALDATA`` into a temporary folder first (their creation is timed too, through the same
steps the wizard's dialog shows).  Each project is opened ``--repeats`` times in a fresh
:class:`MainWindow` through ``load_project`` (what Ctrl+O, Open recent, a drop and the command line
call); the steps the dialog showed are printed with the median seconds each took, the percent of the
bar at its start and whether the dialog was up.  Then the Dashboard tab is clicked at once and the
first figures' steps are printed the same way.  Figures only: nothing is asserted.

``--shots DIR`` (a real display, e.g. ``Xvfb :63 -screen 0 1366x768x24`` with openbox and
``QT_QPA_PLATFORM=xcb``) grabs the whole screen at two steps of the first opening and while the first
dashboard computes, into ``DIR/open_<project>_<k>.png`` and ``DIR/dashboard_<project>.png``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["HIERADJ_NO_DIALOGS"] = "1"

from _bench_util import realdata  # noqa: E402

SHOT_AT = ("Laying out", "Preparing the dashboard")


def build(folder: Path) -> list[Path]:
    """MASC and ALL + WordNet, made as the wizard makes them; prints the creation's steps."""
    from hieradjudicate.app.loading.specs import AnnotationSpec
    from hieradjudicate.app.session.session import Session

    root = realdata()
    w = root / "wsdeval"
    jobs = {"masc": ([str(root / "masc_amt" / "inventory_tree.tsv")],
                     [AnnotationSpec(str(root / "masc_amt" / "masc_amt_labels_wide.tsv.gz"))], []),
            "all_wordnet": (["/usr/share/wordnet"],
                            [AnnotationSpec(str(w / "ALL.gold.key.txt"), "gold", "gold"),
                             AnnotationSpec(str(w / "ALL.lesk_example.key.txt"), "lesk", "system")],
                            [str(w / "ALL.data.xml")])}
    out = []
    for name, (inv, specs, ctx) in jobs.items():
        path = folder / f"{name}.hadj"
        seen: list[tuple[float, str]] = []
        t0 = time.perf_counter()
        Session.create(path, inv, specs, ctx, progress=lambda _d, _t, what: seen.append(
            (time.perf_counter() - t0, what))).close()
        total = time.perf_counter() - t0
        print(f"\ncreate {name}: {total:.2f} s (load average {os.getloadavg()[0]:.2f})")
        for k, (t, what) in enumerate(seen):
            end = seen[k + 1][0] if k + 1 < len(seen) else total
            print(f"  {end - t:7.3f} s  {what}")
        out.append(path)
    return out


def firsts(record, total: float, t0: float = 0.0) -> list[tuple[str, float, float, bool]]:
    """(step, seconds, percent at its start, shown) per step, a step's own sub-progress folded in
    (``t0``: subtracted from the record's times, ``total`` is counted from it)."""
    rows = []
    for s in record:
        name = s.text.split(": ")[0]
        if rows and rows[-1][0] == name:
            continue
        rows.append((name, (s.seconds if hasattr(s, "seconds") else s.at) - t0, s.percent, s.visible))
    out = []
    for k, (name, t, pct, vis) in enumerate(rows):
        end = rows[k + 1][1] if k + 1 < len(rows) else total
        out.append((name, end - t, pct, vis))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("projects", nargs="*")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--shots", default="")
    args = ap.parse_args()
    from PySide6.QtCore import QCoreApplication, QSettings, Qt
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName("hieradjudicate-bench")
    app = QApplication.instance() or QApplication([])
    tmp = Path(tempfile.mkdtemp(prefix="hadj-bench-"))
    os.environ.setdefault("XDG_DATA_HOME", str(tmp / "data"))
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp / "settings"))
    import hieradjudicate.gui.busy as busy
    from hieradjudicate.gui.main_window import MainWindow

    projects = [Path(p) for p in args.projects] or build(tmp)
    shots = Path(args.shots) if args.shots else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    for path in projects:
        per_step: dict[str, list[float]] = {}
        order: list[tuple[str, float, bool]] = []
        totals = []
        for rep in range(args.repeats):
            win = MainWindow()
            win.show()
            app.processEvents()
            real = busy.StepDialog.report
            taken: list[str] = []

            def report(self, done, total, what, _real=real, _taken=taken, _rep=rep):
                _real(self, done, total, what)
                hit = next((s for s in SHOT_AT if what.startswith(s)), None)
                if shots and _rep == 0 and hit and hit not in _taken:
                    _taken.append(hit)
                    app.primaryScreen().grabWindow(0).save(str(shots / f"open_{path.stem}_{len(_taken)}.png"))

            busy.StepDialog.report = report
            t0 = time.perf_counter()
            ok = win.load_project(path)
            total = time.perf_counter() - t0
            busy.StepDialog.report = real
            assert ok, win.statusBar().currentMessage()
            totals.append(total)
            rows = firsts(win.open_progress, total)
            if rep == 0:
                order = [(n, p, v) for n, _s, p, v in rows]
            for name, sec, _p, _v in rows:
                per_step.setdefault(name, []).append(sec)
            if rep == args.repeats - 1:
                dash_steps(app, win, path, shots)
            win.close()
            win.deleteLater()
            app.processEvents()
        print(f"\nopen {path.name}: median {statistics.median(totals):.2f} s of {len(totals)} "
              f"(min {min(totals):.2f}, load average {os.getloadavg()[0]:.2f})")
        for name, pct, vis in order:
            sec = statistics.median(per_step.get(name, [0.0]))
            print(f"  {sec:7.3f} s  {pct:5.1f}% {'shown ' if vis else 'hidden'}  {name}")
    return 0


def dash_steps(app, win, path: Path, shots: Path | None) -> None:
    """Click the Dashboard tab at once; print the first figures' steps."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    bar = win.dashboard.tabs.tabBar()
    t0 = time.perf_counter()
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    view = win.dashboard.view
    shot = False
    while not view.first.finished and time.perf_counter() - t0 < 300:
        app.processEvents()
        if shots and not shot and view.first.isVisible() and time.perf_counter() - t0 > 0.6:
            app.primaryScreen().grabWindow(0).save(str(shots / f"dashboard_{path.stem}.png"))
            shot = True
        time.sleep(0.005)
    total = time.perf_counter() - t0
    print(f"\nfirst dashboard {path.name}: {total:.2f} s from the click (load average {os.getloadavg()[0]:.2f})")
    for name, sec, pct, vis in firsts(view.first.record, total, t0):
        print(f"  {sec:7.3f} s  {pct:5.1f}% {'shown ' if vis else 'hidden'}  {name}")


if __name__ == "__main__":
    raise SystemExit(main())
