"""Screenshots of the real window on a real (virtual) screen, for a person to look at (#23).

    Xvfb :7 -screen 0 1366x768x24 &  DISPLAY=:7 openbox &
    DISPLAY=:7 QT_QPA_PLATFORM=xcb python benchmarks/screenshots.py P1.hadj [P2.hadj ...] [--out benchmarks/out]

Opens each project in a fresh window sized as a first-time user's would be
(fresh settings: the size comes from the screen), shows the instance named by
``--goto`` (or the first unresolved one), grabs the whole screen into
``<out>/<project>_<W>x<H>_workbench.png``, then the Dashboard tab
(``..._dashboard.png``) and the ``?`` overlay (``..._help.png``).  Prints the
window's size and its minimum size hint next to the screen's available area.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["HIERADJ_NO_DIALOGS"] = "1"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("projects", nargs="+")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "out"))
    ap.add_argument("--goto", action="append", default=[], help="instance per project (lexelt id), in order")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName("hieradjudicate-screenshots")
    app = QApplication.instance() or QApplication([])
    tmp = tempfile.mkdtemp()
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, tmp)
    from hieradjudicate.gui.main_window import MainWindow
    from hieradjudicate.gui.workbench.small_dialogs import go_to

    screen = app.primaryScreen()
    g = screen.geometry()
    tag = f"{g.width()}x{g.height()}"

    def settle(cond, limit: float = 60.0) -> None:
        t = time.perf_counter()
        while not cond() and time.perf_counter() - t < limit:
            app.processEvents()
            time.sleep(0.01)
        for _ in range(20):
            app.processEvents()
            time.sleep(0.01)

    def shot(name: str) -> None:
        app.processEvents()
        path = out / f"{name}_{tag}.png"
        screen.grabWindow(0).save(str(path))
        print(f"  wrote {path}")

    for j, p in enumerate(args.projects):
        QSettings().clear()
        win = MainWindow()
        assert win.load_project(p)
        win.show()
        settle(lambda: win.ws is not None and not win.ws.live.updating, 60)
        if j < len(args.goto) and args.goto[j]:
            go_to(win.ws, args.goto[j], print)
            settle(lambda: True, 1)
        a = screen.availableGeometry()
        frame = win.frameGeometry()
        print(f"{Path(p).name} on {tag} (available {a.width()}x{a.height()}): window {win.width()}x{win.height()}"
              f" (with frame {frame.width()}x{frame.height()} at {frame.x()},{frame.y()}), minimum size hint "
              f"{win.minimumSizeHint().width()}x{win.minimumSizeHint().height()}")
        stem = Path(p).stem
        shot(f"{stem}_workbench")
        win.show_help()
        shot(f"{stem}_help")
        win.help.hide()
        win.dashboard.show_dashboard()
        dv = win.dashboard.view
        settle(lambda: dv.data is not None and not dv.updating, 120)
        print(f"  dashboard: minimum size hint {win.minimumSizeHint().width()}x{win.minimumSizeHint().height()}")
        shot(f"{stem}_dashboard")
        win.dashboard.show_workbench()
        win.close()
        app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
