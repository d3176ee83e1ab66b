"""The child of ``screen_sweep.py``: one screen size, on the display it was started on (see there)."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

from _sweep_projects import _data, build


def clipped(root) -> list[str]:
    """Visible widgets under ``root`` whose own text is wider than the room they have."""
    from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel, QStyle, QStyleOptionComboBox, QWidget

    found = []
    for w in [root, *root.findChildren(QWidget)]:
        if not w.isVisible() or w.width() <= 1:
            continue
        fm = w.fontMetrics() if hasattr(w, "fontMetrics") else None
        if isinstance(w, QLabel) and not w.wordWrap() and w.text() and "<" not in w.text() and w.pixmap().isNull():
            need = fm.horizontalAdvance(w.text().strip()) + 2 * w.margin()  # padding spaces may go
            if need > w.contentsRect().width() + 1:
                found.append(f"label {w.text()[:50]!r}: {need} px of text in {w.contentsRect().width()}")
        elif isinstance(w, QAbstractButton) and w.text() and w.sizeHint().width() > w.width() + 1:
            found.append(f"button {w.text()[:50]!r}: wants {w.sizeHint().width()} px, has {w.width()}")
        elif isinstance(w, QComboBox) and w.currentText() and not w.isEditable() \
                and type(w).__name__ != "ElidingCombo":  # that one ends a cut text with "…"
            opt = QStyleOptionComboBox()
            w.initStyleOption(opt)
            field = w.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                             QStyle.SubControl.SC_ComboBoxEditField, w)
            need = fm.horizontalAdvance(w.currentText())
            if need > field.width():
                found.append(f"combo {w.objectName() or ''} {w.currentText()[:50]!r}: {need} px in {field.width()}")
    return found


class Sweep:
    def __init__(self, size: str, out: Path, folder: Path) -> None:
        from PySide6.QtCore import QCoreApplication, QSettings
        from PySide6.QtWidgets import QApplication

        self.size = size.replace("@", "at")
        self.out = out / self.size
        if self.out.exists():
            shutil.rmtree(self.out)
        self.out.mkdir(parents=True)
        self.folder = folder
        self.tmp = Path(tempfile.mkdtemp(prefix="hadj-sweep-run-"))
        for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
            os.environ[var] = str(self.tmp / var.lower())
        os.environ["HOME"] = str(self.tmp / "home")
        (self.tmp / "home").mkdir()
        os.environ["HIERADJ_NO_DIALOGS"] = "1"
        self.app = QApplication.instance() or QApplication([])
        QCoreApplication.setOrganizationName("hieradjudicate-sweep")
        QCoreApplication.setApplicationName("hieradjudicate-sweep")
        QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(self.tmp / "settings"))
        self.stem, self.n = "", 0

    # ------------------------------------------------------------------ helpers
    def settle(self, ms: int = 300) -> None:
        end = time.perf_counter() + ms / 1000
        while time.perf_counter() < end:
            self.app.processEvents()
            time.sleep(0.01)

    def wait(self, cond, timeout: float = 120.0) -> bool:
        end = time.perf_counter() + timeout
        while not cond():
            if time.perf_counter() > end:
                return False
            self.app.processEvents()
            time.sleep(0.02)
        return True

    def shot(self, what: str, check=None) -> None:
        self.settle(400)
        self.n += 1
        path = self.out / f"{self.stem}-{self.n:02d}-{what}.png"
        self.app.primaryScreen().grabWindow(0).save(str(path))
        problems = clipped(check) if check is not None else []
        print(f"   {path.name}" + "".join(f"\n      clipped? {p}" for p in problems), flush=True)

    def key(self, widget, key, mods=None) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        QTest.keyClick(widget, key, mods or Qt.KeyboardModifier.NoModifier)
        self.settle(100)

    def modal(self, what: str, press, inside=None) -> None:
        """``press()`` opens a dialog (modal, perhaps in its own event loop): picture it, then close it
        (or let ``inside(dialog)`` walk it)."""
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        done = []

        def look() -> None:
            dlg = QApplication.activeModalWidget()
            if dlg is None:
                if len(done) < 200:
                    done.append(None)
                    QTimer.singleShot(50, look)
                return
            done.append(dlg)
            g = dlg.frameGeometry()
            a = dlg.screen().availableGeometry()
            inside_screen = a.contains(g)
            print(f"   {what}: {dlg.width()}x{dlg.height()} (frame {g.width()}x{g.height()} at {g.x()},{g.y()}"
                  f"{'' if inside_screen else ', OFF the screen'}), minimum {dlg.minimumSizeHint().width()}x"
                  f"{dlg.minimumSizeHint().height()}", flush=True)
            if inside is not None:
                inside(dlg)
            else:
                self.shot(what, dlg)
            dlg.reject()

        QTimer.singleShot(50, look)
        press()
        self.wait(lambda: done and done[-1] is not None, 15)
        self.settle(200)

    # ------------------------------------------------------------------ one project
    def project(self, name: str) -> None:
        from PySide6.QtCore import QSettings, Qt

        from hieradjudicate.gui.main_window import MainWindow

        path = build(name, self.folder)
        if path is None:
            return
        self.stem, self.n = name, 0
        QSettings().clear()  # a first-time user: the window sizes itself from the screen
        win = MainWindow()
        win.show()
        t0 = time.perf_counter()
        assert win.load_project(str(path))
        self.wait(lambda: win.ws is not None and not win.ws.live.updating)
        a = win.screen().availableGeometry()
        f = win.frameGeometry()
        hint = win.minimumSizeHint()
        print(f"== {name} on {self.size}: opened in {time.perf_counter() - t0:.1f} s (load "
              f"{os.getloadavg()[0]:.2f}); available {a.width()}x{a.height()}, window {win.width()}x{win.height()} "
              f"(frame {f.width()}x{f.height()} at {f.x()},{f.y()}), minimum size hint {hint.width()}x{hint.height()}",
              flush=True)
        win.activateWindow()
        ws = win.ws
        ws.table.setFocus()
        self.shot("workbench", win)
        self.live_tab(win)
        ws.table.scrollToBottom()
        self.shot("table-last-rows", win)
        ws.select_row(0)
        self.key(ws.table, Qt.Key.Key_Question)
        print(f"   help overlay {win.help.width()}x{win.help.height()} in a window of {win.width()}x{win.height()}, "
              f"its text wants {win.help.sizeHint().width()}x{win.help.sizeHint().height()}")
        self.shot("help", win.help)
        self.key(win.help, Qt.Key.Key_Escape)
        ws.table.setFocus()
        self.modal("note", lambda: self.key(ws.table, Qt.Key.Key_E))
        self.modal("pick", lambda: self.key(ws.table, Qt.Key.Key_Space))
        self.modal("goto", lambda: self.key(ws.table, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier))
        self.modal("export-gold", lambda: self.key(ws.table, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier
                                                   | Qt.KeyboardModifier.ShiftModifier))
        win.activateWindow()
        ws.table.setFocus()
        self.key(ws.table, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
        view = win.dashboard.view
        self.wait(lambda: view is not None and view.data is not None and not view.updating, 300)
        hint = win.minimumSizeHint()
        print(f"   dashboard: minimum size hint {hint.width()}x{hint.height()}")
        from PySide6.QtWidgets import QScrollArea

        bar = view.findChild(QScrollArea, "dash_scroll").verticalScrollBar()
        page = 0
        while True:
            self.shot(f"dashboard-{page}", win)
            if bar.value() >= bar.maximum() or page > 12:
                break
            bar.setValue(bar.value() + bar.pageStep())
            page += 1
        self.key(view, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
        if a.height() >= 840:  # a tall screen: shrink the window (the docks tab), then grow it back
            size = win.size()
            win.resize(size.width(), 666)
            self.settle(300)
            self.shot("workbench-short", win)
            win.resize(size)
            self.settle(300)
            self.shot("workbench-grown-back", win)
        win.close()
        self.settle(200)

    def live_tab(self, win) -> None:
        """On a short window the live figures share the inventory's column as a tab: a click on it."""
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QTabBar

        for bar in win.findChildren(QTabBar):
            tabs = [bar.tabText(k) for k in range(bar.count())]
            if bar.isVisible() and "Live figures" in tabs:
                QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(tabs.index("Live figures")).center())
                self.settle(300)
                self.shot("live-figures-tab", win)
                QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(0).center())
                self.settle(100)
                return

    # ------------------------------------------------------------------ the wizard
    def wizard(self) -> None:
        from PySide6.QtCore import Qt

        from hieradjudicate.gui.main_window import MainWindow

        d = _data()
        self.stem, self.n = "wizard", 0
        win = MainWindow()
        win.show()
        self.settle(500)
        win.activateWindow()
        if d is not None and (d / "wsbest").is_dir():
            w = d / "wsbest"
            files = ([str(w / "inventory_tree.tsv")], [str(w / "wsbest_selected_senses_per_annotator.tsv")],
                     [str(w / "uses.tsv.gz")])
        else:
            demo = build("demo", self.folder).parent
            files = ([str(p) for p in demo.glob("inventory*")], [], [])

        def walk(wiz) -> None:
            pages = (wiz.inventory, wiz.annotation, wiz.contexts)
            for page, paths in zip(pages, files):
                self.shot(f"page-{page.objectName() or page.title().split()[0].lower()}-empty", wiz)
                if paths:
                    page.add_paths(paths)
                    table = page.table
                    self.wait(lambda t=table: all(t.item(r, 1) is None or t.item(r, 1).text() != "reading…"
                                                  for r in range(t.rowCount())), 60)
                self.shot(f"page-{page.title().split()[0].lower()}", wiz)
                if not wiz.currentPage().isComplete():
                    return
                wiz.next()
            self.shot("page-mapping", wiz)
            wiz.next()
            self.wait(lambda: wiz.preview.report is not None, 120)
            self.shot("page-preview", wiz)

        self.modal("wizard", lambda: self.key(win, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier), walk)
        win.close()
        self.settle(200)

    def run(self, projects: list[str], wizard: bool) -> int:
        for name in projects:
            self.project(name)
        if wizard:
            self.wizard()
        return 0
