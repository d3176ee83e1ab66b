"""Ctrl+F, a search, then Return (or Esc) gives the keys back to the table: the next 1 decides the
highlighted instance of what was found (before: the keys stayed in the search field, so "1" was
typed into the search and the table showed nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.gui.journey import back_to, highlighted, open_window


@pytest.mark.parametrize("leave", [Qt.Key.Key_Return, Qt.Key.Key_Escape])
def test_return_or_esc_in_the_search_lets_the_next_key_decide(qtbot, demo_project: Path, leave) -> None:
    win = open_window(qtbot, demo_project)
    back_to(qtbot, win)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert win.ws.search.hasFocus()
    qtbot.keyClicks(win.ws.search, "bank")
    qtbot.waitUntil(lambda: 0 < win.ws.model.rowCount() < win.wb.corpus.n, timeout=10_000)
    found = win.ws.model.rowCount()
    qtbot.keyClick(win.ws.search, leave)
    assert win.ws.table.hasFocus()
    i = highlighted(win)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_1)
    assert win.ws.search.text() == "bank"
    assert win.wb.status[i] == 1, "the 1 after the search did not decide the highlighted instance"
    assert win.ws.model.rowCount() == found
    win.close()
