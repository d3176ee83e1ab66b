"""A step to the next instance (the N key) repaints the rows that changed, never the instance table's
column titles: they show no selection, and repainting every title at each step was wasted work."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.gui.journey import PaintCounter, click_header, highlighted, open_window


def _idle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def test_the_n_key_repaints_rows_but_not_the_column_titles(qtbot, demo_project):
    win = open_window(qtbot, demo_project)
    ws = win.ws
    ws.table.setFocus()
    _idle()
    titles, rows = PaintCounter(), PaintCounter()
    ws.table.horizontalHeader().viewport().installEventFilter(titles)
    ws.table.viewport().installEventFilter(rows)
    for _ in range(3):
        before = highlighted(win)
        qtbot.keyClick(win, Qt.Key.Key_N)
        _idle()
        assert highlighted(win) != before  # the key moved to another instance
    assert rows.paints >= 1  # the rows were repainted (the counting sees paints)
    assert titles.paints == 0
    # the titles still answer a click: the table sorts by the column
    click_header(qtbot, win, "instance")
    _idle()
    assert ws.table.horizontalHeader().sortIndicatorSection() == ws.model.keys.index("instance")
    assert titles.paints >= 1
