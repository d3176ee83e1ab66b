"""The user guide's pictures, made from the real window: run it again whenever the window changes.

    python docs/tools/make_screenshots.py [--out docs/images] [--size 1366x768]
    HIERADJ_REALDATA=/path/to/shared/data python docs/tools/make_screenshots.py   # and the real-data ones

It starts its own Xvfb screen (a free display number) and openbox, runs the window in a child
process on that display (Qt's xcb platform: a real X window with a window manager), then stops both
again by their process ids.  Pictures (the whole screen, dialogs included):

* ``workbench.png``, ``help.png`` (the ``?`` overlay), ``dashboard.png``, ``wizard.png`` (File ▸ New
  project's preview page, filled with the demo's files) and ``report.png`` (the HTML report of the
  demo, drawn by headless Chromium when it is installed) -- from the bundled demo, always;
* with ``HIERADJ_REALDATA``: ``wsd-workbench.png``, ``wsd-live.png`` (its live figures: the system
  scored against the reference gold) and ``wsd-dashboard.png`` (the WSD evaluation
  framework's ``ALL`` with WordNet 3.0 from ``/usr/share/wordnet``, the gold as reference gold and
  the Lesk example as a system) and ``masc-workbench.png`` (MASC's 228 crowd workers).

Each PNG is written with Qt's strongest compression and, when still above 200 KB, as a palette
image, so the pictures committed with the guide stay small.  Fresh settings and a throw-away home
are used, so nothing of the user's own window sizes or recent projects shows.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))
MAX_BYTES = 200_000


# ------------------------------------------------------------------------------------------ parent
def parent(size: str, out: Path) -> int:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from _xscreen import NEEDS, missing_tools, run_on_screen  # the screen the journeys use too

    if missing_tools():
        raise SystemExit(NEEDS)
    return run_on_screen(size, [sys.executable, str(Path(__file__).resolve()), "--child", size, "--out", str(out)])


# ------------------------------------------------------------------------------------------- child
class Shots:
    def __init__(self, size: str, out: Path) -> None:
        from PySide6.QtCore import QCoreApplication, QSettings
        from PySide6.QtWidgets import QApplication

        self.w, self.h = (int(x) for x in size.split("x"))
        self.out = out
        self.out.mkdir(parents=True, exist_ok=True)
        self.tmp = Path(tempfile.mkdtemp(prefix="hadj-docs-shots-"))
        for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            os.environ[var] = str(self.tmp / var.lower())
        os.environ["HOME"] = str(self.tmp / "home")
        (self.tmp / "home").mkdir()
        os.environ["HIERADJ_NO_DIALOGS"] = "1"
        self.app = QApplication.instance() or QApplication([])
        QCoreApplication.setOrganizationName("hieradjudicate-docs")
        QCoreApplication.setApplicationName("hieradjudicate-docs")
        QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(self.tmp / "settings"))

    def settle(self, ms: int = 400) -> None:
        end = time.perf_counter() + ms / 1000
        while time.perf_counter() < end:
            self.app.processEvents()
            time.sleep(0.01)

    def wait(self, cond, timeout: float = 120.0, what: str = "") -> None:
        end = time.perf_counter() + timeout
        while not cond():
            if time.perf_counter() > end:
                raise SystemExit(f"timed out waiting for {what or cond}")
            self.app.processEvents()
            time.sleep(0.01)

    def shot(self, name: str, window=None) -> Path:
        """The whole screen, or only ``window`` with its frame (a dialog on an otherwise empty screen)."""
        self.settle()
        if window is None:
            return save_small(self.app.primaryScreen().grabWindow(0).toImage(), self.out / f"{name}.png")
        g = window.frameGeometry()
        picture = self.app.primaryScreen().grabWindow(0, g.x(), g.y(), g.width(), g.height())
        return save_small(picture.toImage(), self.out / f"{name}.png")

    def window(self, path: Path):
        from hieradjudicate.gui.main_window import MainWindow

        win = MainWindow()
        win.show()
        assert win.load_project(path), path
        win.activateWindow()
        win.raise_()
        self.wait(lambda: win.ws is not None and not win.ws.live.updating, 180, "the live figures")
        self.settle(500)
        return win

    def key(self, widget, key, mods=None) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        QTest.keyClick(widget, key, mods or Qt.KeyboardModifier.NoModifier)
        self.settle(80)

    def dashboard(self, win, name: str) -> None:
        win.dashboard.show_dashboard()
        view = win.dashboard.view
        self.wait(lambda: view.data is not None and not view.updating, 180, "the dashboard")
        self.shot(name)
        win.dashboard.show_workbench()

    # ---------------------------------------------------------------------------- the demo
    def demo(self) -> None:
        from PySide6.QtCore import Qt

        from hieradjudicate.app.demo import ensure_demo_project
        from hieradjudicate.gui.workbench.small_dialogs import go_to

        path = ensure_demo_project(self.tmp / "demo.hadj")
        win = self.window(path)
        # a few decisions by key, as a user makes them: the suggestion (A), a set's answer (2), a flag (F)
        table = win.ws.table
        table.setFocus()
        for key in (Qt.Key.Key_A, Qt.Key.Key_A, Qt.Key.Key_2, Qt.Key.Key_F):
            self.key(table, key)
        go_to(win.ws, "bank.n bank.n.005", print)
        self.settle(600)
        self.shot("workbench")
        win.show_help()
        self.shot("help")
        win.help.hide()
        self.dashboard(win, "dashboard")
        win.close()
        win.deleteLater()
        self.settle(200)
        self.wizard()
        self.report(path)

    def wizard(self) -> None:
        from hieradjudicate.app.demo import DEMO_SETS, demo_inputs
        from hieradjudicate.gui.wizard.wizard import NewProjectWizard

        demo = demo_inputs()
        wiz = NewProjectWizard()
        wiz.show()
        self.settle(300)
        wiz.inventory.add_paths([str(demo / "inventory.txt")])
        wiz.next()
        wiz.annotation.add_paths([str(demo / f) for f, _, _ in DEMO_SETS])
        for row, (_, name, role) in enumerate(DEMO_SETS):
            wiz.annotation.set_role(row, role)
            wiz.annotation.set_name(row, name)
        table = wiz.annotation.table
        self.wait(lambda: all(table.item(r, 1).text() != "reading…" for r in range(table.rowCount())), 60,
                  "the wizard reading the files")
        wiz.next()
        wiz.contexts.add_paths([str(demo / "contexts.tsv")])
        wiz.next()
        wiz.next()
        self.wait(lambda: wiz.preview.report is not None, 60, "the wizard's preview")
        wiz.preview.output.setText("/home/me/Documents/my-project.hadj")  # not the throw-away home
        self.shot("wizard", wiz)
        wiz.reject()
        wiz.deleteLater()

    def report(self, project: Path) -> None:
        chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        if chromium is None:
            print("-- report.png skipped: no Chromium to draw the HTML report", flush=True)
            return
        html = self.tmp / "report.html"
        r = subprocess.run([sys.executable, "-m", "hieradjudicate", "report", str(project), "-o", str(html)],
                           capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        if r.returncode != 0:
            raise SystemExit(f"the report failed: {r.stderr}")
        raw = self.tmp / "report-raw.png"
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--screenshot={raw}", f"--window-size={self.w},{self.h}", html.as_uri()],
                       capture_output=True, timeout=120, env={k: v for k, v in os.environ.items() if k != "DISPLAY"})
        if not raw.is_file():
            raise SystemExit("Chromium wrote no picture of the report")
        from PySide6.QtGui import QImage

        save_small(QImage(str(raw)), self.out / "report.png")

    # ---------------------------------------------------------------------------- real data
    def wsd_all(self, data: Path) -> None:
        from hieradjudicate.app.loading.load import AnnotationSpec
        from hieradjudicate.app.session.session import Session

        d, wordnet = data / "wsdeval", Path("/usr/share/wordnet")
        if not (d / "ALL.gold.key.txt").is_file() or not (wordnet / "index.noun").is_file():
            print(f"-- WSD framework pictures skipped: no {d / 'ALL.gold.key.txt'} or no WordNet at {wordnet}")
            return
        path = self.tmp / "wsd_all.hadj"
        Session.create(path, [str(wordnet)], [AnnotationSpec(str(d / "ALL.gold.key.txt"), "gold", "gold"),
                                              AnnotationSpec(str(d / "ALL.lesk_example.key.txt"), "lesk", "system")],
                       [str(d / "ALL.data.xml")]).close()
        win = self.window(path)
        ref = win.ws.live.reference
        self.wait(lambda: ref is not None and ref.figures is not None and not win.ws.live.updating, 180,
                  "the scores against the reference gold")
        self.shot("wsd-workbench")
        win.docks["live"].raise_()  # on a 768 px screen the live figures are a tab beside the inventory
        self.shot("wsd-live")
        win.docks["tree"].raise_()
        self.dashboard(win, "wsd-dashboard")
        win.close()
        win.deleteLater()

    def masc(self, data: Path) -> None:
        from hieradjudicate.app.loading.load import AnnotationSpec
        from hieradjudicate.app.session.session import Session

        d = data / "masc_amt"
        if not (d / "masc_amt_labels_wide.tsv.gz").is_file():
            print(f"-- MASC picture skipped: no {d / 'masc_amt_labels_wide.tsv.gz'}")
            return
        path = self.tmp / "masc.hadj"
        Session.create(path, [str(d / "inventory_tree.tsv")],
                       [AnnotationSpec(str(d / "masc_amt_labels_wide.tsv.gz"), None, "annotator")]).close()
        win = self.window(path)
        self.shot("masc-workbench")
        win.close()
        win.deleteLater()


def save_small(image, path: Path) -> Path:
    """``image`` as a PNG of at most :data:`MAX_BYTES` where a palette of 256 colours allows it."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    assert image.save(str(path), "PNG", 0), path  # quality 0 = strongest compression
    if path.stat().st_size > MAX_BYTES:
        flags = Qt.ImageConversionFlag.ThresholdDither | Qt.ImageConversionFlag.AvoidDither
        image.convertToFormat(QImage.Format.Format_Indexed8, flags).save(str(path), "PNG", 0)
    print(f"   wrote {path} ({path.stat().st_size // 1000} KB)", flush=True)
    return path


def child(size: str, out: Path) -> int:
    s = Shots(size, out)
    s.demo()
    data = os.environ.get("HIERADJ_REALDATA")
    if data and Path(data).is_dir():
        s.wsd_all(Path(data))
        s.masc(Path(data))
    else:
        print("-- real-data pictures skipped: set HIERADJ_REALDATA to the shared data folder", flush=True)
    shutil.rmtree(s.tmp, ignore_errors=True)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--out", default=str(DOCS / "images"))
    ap.add_argument("--size", default="1366x768")
    ap.add_argument("--child", metavar="SIZE", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args.child, Path(args.out))
    return parent(args.size, Path(args.out))


if __name__ == "__main__":
    sys.exit(main())
