"""Issue 31, minor window items: after closing a project the start page offers nothing of it (no "Undo
decide …", no old status text) and the title counts decisions in words."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from tests.gui.journey import open_window


def test_closing_a_project_leaves_no_undo_or_status_of_it(qtbot, demo_project: Path) -> None:
    win = open_window(qtbot, demo_project)
    i = win.ws.current
    qtbot.keyClick(win.ws.table, Qt.Key.Key_1)  # decide, then move on
    qtbot.waitUntil(lambda: win.ws.current != i, timeout=2000)
    assert " · 1 decision — " in win.windowTitle()  # one decision, not "1 decisions"
    lex, inst = win.wb.key_of(i)
    assert win.actions["undo"].text() == f"&Undo decide {lex} {inst}"
    win.statusBar().showMessage("Decided something", 60_000)
    win.actions["close"].trigger()  # File ▸ Close project
    assert win.session is None and win.stack.currentWidget() is win.start
    assert win.actions["undo"].text() == "&Undo" and not win.actions["undo"].isEnabled()
    assert win.statusBar().currentMessage() == ""
    assert win.windowTitle() == "hieradjudicate"
    win.close()
