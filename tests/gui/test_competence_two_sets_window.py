"""A project whose instances have at most two annotator sets: the window never runs Dawid & Skene
(not identifiable), and says why — on the dashboard's competence panel, and when Ctrl+U asks for
the most uncertain first (no traceback, no "internal error", no endless wait)."""

from __future__ import annotations

import gc

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.crowd import crowd_project
from tests.gui.journey import open_window

REASON = "Dawid & Skene needs three or more annotator sets on an instance to tell their errors apart"


def test_two_sets_per_instance_panel_and_ctrl_u_say_why(qtbot, private_dirs, tmp_path) -> None:
    win = open_window(qtbot, crowd_project(tmp_path / "two.hadj", 4, per_item=2))  # four sets, two per item
    try:
        qtbot.keyClick(win.ws.table, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: REASON in win.statusBar().currentMessage(), timeout=600_000)
        assert win.statusBar().currentMessage().startswith("Most uncertain first needs the competence estimate: ")
        assert win.wb.competence is None and win.wb.sort_key != "uncertainty"
        bar = win.dashboard.tabs.tabBar()  # the Dashboard tab builds the panel
        qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
        panel = win.dashboard.view.competence_panel
        qtbot.waitUntil(lambda: REASON in panel.status.text(), timeout=600_000)
        assert panel.status.text().startswith("Competence is not estimated: ")
        assert "at most 2 (sets: " in panel.status.text() and "Add a set." in panel.status.text()
        assert "internal error" not in panel.status.text().lower()
        qtbot.keyClick(win.ws.table, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier)  # asked again: said at once
        assert REASON in win.statusBar().currentMessage()
        assert not win.dashboard.work.comp.runner.busy
    finally:
        win.close()
        QApplication.processEvents()
        gc.collect()
