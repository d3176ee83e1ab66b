"""Closing a project lets go of it: its corpus, workbench and workspace are freed once Qt has deleted the
closed project's widgets, so opening projects one after another does not pile them up.

Before, the closed project's inventory tree and instance detail stayed the docks' hidden children
(``QDockWidget.setWidget(None)`` deletes only the layout item) and the dashboard kept the Timeline page,
each holding the workbench: on MASC every reopening added about 90 MiB (RSS 232 -> 317 MiB with the
competence shown, 149 MiB after closing instead of 226)."""

from __future__ import annotations

import gc
import weakref

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.gui.main_window import MainWindow


def _deleted_and_collected() -> None:
    QApplication.processEvents()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # what the event loop does next
    gc.collect()


def test_a_closed_project_is_freed_and_one_opened_again_too(qtbot, demo_project) -> None:
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    for _ in range(2):  # opened, looked at (the dashboard built), closed; then again
        assert w.load_project(demo_project)
        w.activateWindow()  # the window's shortcuts need it active (the opening's progress dialog was)
        qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=60_000)
        bar = w.dashboard.tabs.tabBar()
        # Dashboard and back (not the Timeline: a dated-answers job it queues and the closing drops can stay
        # referenced from Qt's thread pool through PySide, holding the corpus: noticed, not mended here)
        for k in (1, 0):
            qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(k).center())
            QApplication.processEvents()
        w.ws.table.setFocus()
        refs = [weakref.ref(x) for x in (w.wb.corpus, w.wb, w.ws, w.dashboard.timeline)]
        qtbot.keyClick(w.ws.table, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)  # File > Close project
        qtbot.waitUntil(lambda: w.session is None, timeout=10_000)
        # a background job still running at the close (the Timeline's dated answers, the live figures:
        # dropped, but a job in flight runs to its end) holds the corpus until it ends, so the test waits
        # for that, 0.2 s between looks (a collection at every event would starve the job of the
        # interpreter lock); what the closed window itself holds never goes, and fails after 60 s
        alive: list[str] = ["?"]
        for _ in range(300):
            qtbot.wait(200)
            _deleted_and_collected()
            alive = [type(r()).__name__ for r in refs if r() is not None]
            if not alive:
                break
        assert not alive, f"still held 60 s after closing: {alive}"
    assert all(d.widget() is None for d in w.docks.values())
