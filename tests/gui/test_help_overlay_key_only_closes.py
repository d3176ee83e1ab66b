"""The ? overlay says "Press any key or click to close": a key pressed there closes it and does nothing
else, and the next key is the table's again (before: 1 decided the instance behind the overlay, N
moved on, and the overlay stayed open)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.gui.journey import back_to, highlighted, open_window


@pytest.mark.parametrize("key", [Qt.Key.Key_1, Qt.Key.Key_A, Qt.Key.Key_N, Qt.Key.Key_F])
def test_a_key_on_the_help_overlay_closes_it_and_decides_nothing(qtbot, demo_project: Path, key) -> None:
    win = open_window(qtbot, demo_project)
    back_to(qtbot, win)
    i = highlighted(win)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_Question)
    assert win.help.isVisible()
    qtbot.keyClick(QApplication.focusWidget(), key)
    assert not win.help.isVisible(), "the overlay stayed open"
    assert len(win.session.decisions) == 0, "a key that closes the overlay made a decision"
    assert highlighted(win) == i, "a key that closes the overlay moved the table"
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_1)  # the keys are the table's again
    assert win.wb.status[i] == 1
    win.close()
