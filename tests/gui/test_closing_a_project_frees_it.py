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
    for _ in range(2):  # opened, looked at (dashboard and timeline tabs built), closed; then again
        assert w.load_project(demo_project)
        w.activateWindow()  # the window's shortcuts need it active (the opening's progress dialog was)
        qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=60_000)
        bar = w.dashboard.tabs.tabBar()
        for k in (1, 2, 0):  # Dashboard, Timeline, back to the Workbench
            qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(k).center())
            QApplication.processEvents()
        w.ws.table.setFocus()
        refs = [weakref.ref(x) for x in (w.wb.corpus, w.wb, w.ws, w.dashboard.timeline)]
        qtbot.keyClick(w.ws.table, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)  # File > Close project
        qtbot.waitUntil(lambda: w.session is None, timeout=10_000)
        _deleted_and_collected()
        alive = [type(r()).__name__ for r in refs if r() is not None]
        assert not alive, f"still held after closing: {alive}"
    assert all(d.widget() is None for d in w.docks.values())
