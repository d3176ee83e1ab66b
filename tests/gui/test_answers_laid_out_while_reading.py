"""A crowd's answers for the next instance are laid out while the reader reads this one: the N key then
shows that document (no HTML parsed or laid out in the step), and the panel reads and looks exactly as
the answers set afresh would."""

from __future__ import annotations

import gc
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.gui.workbench.workspace import PREPARE_MS
from tests.crowd import crowd_project
from tests.gui.journey import highlighted, open_window


def _idle() -> None:
    for _ in range(6):
        QApplication.processEvents()


def test_the_n_key_shows_the_answers_laid_out_while_reading(qtbot, private_dirs, tmp_path: Path) -> None:
    win = open_window(qtbot, crowd_project(tmp_path / "crowd.hadj", 30, per_item=9))
    try:
        view = win.ws.detail.answers_view
        win.ws.table.setFocus()
        shown_ahead = 0
        for _ in range(6):
            before = highlighted(win)
            qtbot.wait(PREPARE_MS * 3)  # the reader reads: the next instance's answers are laid out
            doc = view.document()
            qtbot.keyClick(win.ws.table, Qt.Key.Key_N)
            _idle()
            assert highlighted(win) != before
            if view.document() is not doc:
                shown_ahead += 1  # another document: the one laid out while reading
            # what it shows is what the answers set afresh show, drawn the same
            text, look, top = view.toHtml(), view.grab().toImage(), view.verticalScrollBar().value()
            view.setHtml(view.__dict__["_shown"][0])
            _idle()
            assert view.toHtml() == text
            assert view.verticalScrollBar().value() == top
            assert view.grab().toImage() == look
        assert shown_ahead >= 5, shown_ahead
        # back to back (no time to read): the answers are made in the step, as before
        for _ in range(3):
            before = highlighted(win)
            qtbot.keyClick(win.ws.table, Qt.Key.Key_N)
            QApplication.processEvents()
            assert highlighted(win) != before and "answered this instance" in view.toPlainText()
    finally:
        win.close_project()
        QApplication.processEvents()
        gc.collect()
