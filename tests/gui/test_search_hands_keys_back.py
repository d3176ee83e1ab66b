"""Ctrl+F, a search, then Return (or Esc) gives the keys back to the table: the next 1 decides the
highlighted instance of what was found (before: the keys stayed in the search field, so "1" was
typed into the search and the table showed nothing).  Esc does the same in the sense inventory's
search."""

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


def test_esc_in_the_sense_search_lets_the_next_key_decide(qtbot, demo_project: Path) -> None:
    win = open_window(qtbot, demo_project)
    back_to(qtbot, win)
    i = highlighted(win)
    search = win.ws.tree.search
    qtbot.mouseClick(search, Qt.MouseButton.LeftButton)  # the sense inventory's own search, left
    assert search.hasFocus()
    qtbot.keyClicks(search, "1")
    qtbot.keyClick(search, Qt.Key.Key_Escape)  # the sense search kept, the keys the table's
    assert win.ws.table.hasFocus()
    qtbot.keyClick(win.ws.table, Qt.Key.Key_2)
    assert search.text() == "1"
    assert win.wb.status[i] == 1, "the 2 after the sense search did not decide the highlighted instance"
    win.close()
