"""A step to the next instance (the N key) repaints what changed -- the suggestion, the scroll bars that
move -- without painting the window, its dock and the detail panel again beneath them: those widgets
fill their own background with the colour their parents paint (they look the same)."""

from __future__ import annotations

import gc
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QWidget

from hieradjudicate.gui.main_window import MainWindow
from tests.crowd import crowd_project
from tests.gui.journey import PaintCounter, highlighted, open_window


def _idle() -> None:
    for _ in range(6):
        QApplication.processEvents()


def _geometry(win: MainWindow) -> list:
    """Where the detail panel's widgets are: a step that moves none of them lays nothing out."""
    d = win.ws.detail
    return [w.geometry() for w in (d.suggestion, d.context, d.answers_view, d.leaf_table, d.chart)]


def test_a_step_repaints_the_suggestion_and_scroll_bars_alone(qtbot, private_dirs, tmp_path: Path) -> None:
    win = open_window(qtbot, crowd_project(tmp_path / "crowd.hadj", 30, per_item=9, per_word=40))
    try:
        d = win.ws.detail
        beneath = PaintCounter()  # the widgets under the suggestion and the scroll bars
        for w in (win, d, win.findChild(QObject, "dock_detail"), win.ws):
            w.installEventFilter(beneath)
        painted = PaintCounter()
        d.suggestion.installEventFilter(painted)
        win.ws.table.setFocus()
        qtbot.keyClick(win.ws.table, Qt.Key.Key_N)  # the first step after opening paints the whole window
        _idle()
        alone, moved = 0, True
        for _ in range(30):
            before, where = highlighted(win), _geometry(win)
            beneath.paints = painted.paints = 0
            qtbot.keyClick(win.ws.table, Qt.Key.Key_N)
            _idle()
            assert highlighted(win) != before  # the key moved to another instance
            laid_out, moved = moved, _geometry(win) != where
            if laid_out or moved or not painted.paints:
                continue  # a step that laid the panel out (or the one after) repaints it whole (rightly)
            assert beneath.paints == 0, beneath.paints
            alone += 1
        assert alone >= 5  # the case was met: steps that repainted the suggestion alone
        # and they look as before: filled with the colour their parents paint
        for w in (d.suggestion, d.answers_view.verticalScrollBar(), win.ws.table.verticalScrollBar()):
            parent: QWidget = w.parentWidget()
            assert w.autoFillBackground()
            assert w.palette().color(w.backgroundRole()) == parent.palette().color(QPalette.ColorRole.Window)
    finally:
        win.close_project()
        QApplication.processEvents()
        gc.collect()
