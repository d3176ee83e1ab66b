"""The QApplication: settings names, exception hook, screenshot mode."""

from __future__ import annotations

import sys

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from hieradjudicate.app.logs import log_exception
from hieradjudicate.core.errors import HieradjError
from hieradjudicate.resources import icon_path


def make_app() -> QApplication:
    app = QApplication.instance()
    if app is None:
        QCoreApplication.setOrganizationName("hieradjudicate")
        QCoreApplication.setApplicationName("hieradjudicate")
        app = QApplication(sys.argv[:1])
        # window icon and the link to the installed desktop entry (task bars, file managers)
        QGuiApplication.setDesktopFileName("io.github.hieradjudicate")
        try:
            app.setWindowIcon(QIcon(str(icon_path(256))))
        except HieradjError:  # an install without its icons still runs
            pass
    return app  # type: ignore[return-value]


def _excepthook(exc_type, exc, tb) -> None:
    path = log_exception(exc)
    QMessageBox.critical(None, "hieradjudicate",
                         f"Something unexpected went wrong ({exc_type.__name__}: {exc}).\n"
                         f"Your decisions are saved. Details are in {path}.")


def run(target: str | None, *, screenshot: str | None = None, fresh_demo: bool = False,
        tab: str = "workbench") -> int:
    app = make_app()
    from hieradjudicate.gui.main_window import MainWindow

    if screenshot:
        import os
        os.environ["HIERADJ_FIXED_GEOMETRY"] = "1"
        os.environ["HIERADJ_NO_DIALOGS"] = "1"
    else:
        sys.excepthook = _excepthook
    win = MainWindow()
    if not screenshot and target:
        win.show()  # the opening's dialog stands over the window, not alone on the screen
        app.processEvents()
    if target == "demo":
        if fresh_demo:
            from hieradjudicate.app.demo import ensure_demo_project
            ensure_demo_project(fresh=True)
        win.open_demo()
    elif target and not win.load_project(target) and screenshot:
        # a picture of the start page in place of the project would pass for success
        print(f"hieradjudicate: error: {win.statusBar().currentMessage() or f'could not open {target}'}",
              file=sys.stderr)
        win.close()
        return 1
    win.dashboard.show_tab(tab)
    if screenshot:
        win.resize(1280, 800)
        win.show()
        ok = {"rc": 0}

        waited = {"ms": 0}

        def shoot() -> None:
            live = win.ws.live if win.ws is not None else None
            busy = (live is not None and live.updating) or win.dashboard.busy()
            if busy and waited["ms"] < 90_000:  # a crowd dashboard takes seconds: picture its figures
                waited["ms"] += 50  # the figures are computed in the background: picture them
                QTimer.singleShot(50, shoot)
                return
            app.processEvents()
            img = win.grab()
            if not img.save(screenshot, "PNG"):
                print(f"hieradjudicate: error: could not write {screenshot}", file=sys.stderr)
                ok["rc"] = 1
            win.close()
            app.quit()

        QTimer.singleShot(600, shoot)
        app.exec()
        return ok["rc"]
    win.show()
    return int(app.exec())
