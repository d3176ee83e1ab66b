"""The crowd's vote table at each step to the next instance: its column titles are the model's own header
items (the header paints and measures them without calling into Python), and its columns are measured
from texts whose widths it remembers (each distinct text measured once, not at every step)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import ClassVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF, QStandardItemModel
from PySide6.QtWidgets import QApplication, QTableView

from hieradjudicate.gui.workbench import text_widths
from tests.crowd import crowd_project
from tests.gui.journey import background_settled, highlighted, open_window


def _idle() -> None:
    for _ in range(6):
        QApplication.processEvents()


def test_the_vote_tables_titles_are_its_header_items_at_every_step(qtbot, private_dirs, tmp_path: Path) -> None:
    win = open_window(qtbot, crowd_project(tmp_path / "crowd.hadj", 30, per_item=9))
    try:
        m = win.ws.detail.leaf_model
        assert type(m).headerData is QStandardItemModel.headerData  # no headerData written in Python
        win.ws.table.setFocus()
        for _ in range(5):
            before = highlighted(win)
            qtbot.keyClick(win.ws.table, Qt.Key.Key_N)
            _idle()
            assert highlighted(win) != before
            titles = [m.headerData(c, Qt.Orientation.Horizontal) for c in range(m.columnCount())]
            assert titles == ["Tag", "Votes", "Share", "Posterior", "Gold"]  # (no inventory: tags)
            assert titles == [m.horizontalHeaderItem(c).text() for c in range(m.columnCount())]
            tips = [m.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) for c in range(5)]
            assert tips[0] is None and tips[4] is None and "votes / sets that answered" == tips[2]
            assert m.rowCount() > 0
    finally:
        win.close_project()
        QApplication.processEvents()
        gc.collect()


class _Counted(QFontMetricsF):
    """Font metrics (plain or italic) that count the texts they measure."""

    measured: ClassVar[list[tuple[int, str]]] = []

    def horizontalAdvance(self, text, *args):
        _Counted.measured.append((id(self), text))
        return super().horizontalAdvance(text, *args)


def test_the_vote_table_measures_each_text_once_and_keeps_qts_widths(qtbot, private_dirs, tmp_path: Path,
                                                                     monkeypatch) -> None:
    monkeypatch.setattr(text_widths, "QFontMetricsF", _Counted)
    _Counted.measured = []
    win = open_window(qtbot, crowd_project(tmp_path / "crowd.hadj", 30, per_item=9))
    try:
        t = win.ws.detail.leaf_table
        win.ws.table.setFocus()
        for _ in range(8):  # steps within a word and across words: the same senses, counts like "0.25"
            qtbot.keyClick(win.ws.table, Qt.Key.Key_N)
            _idle()
            n = t.model().columnCount()
            assert [t.sizeHintForColumn(c) for c in range(n)] == [QTableView.sizeHintForColumn(t, c)
                                                                for c in range(n)]
        assert _Counted.measured  # the counting sees the measures
        assert len(_Counted.measured) == len(set(_Counted.measured)), sorted(_Counted.measured)
    finally:
        win.close_project()
        QApplication.processEvents()
        gc.collect()


def test_a_step_measures_each_of_the_vote_tables_columns_once(qtbot, private_dirs, tmp_path: Path,
                                                               monkeypatch) -> None:
    """The sense column's mode is set only when a new word's rows forgot it: setting it again at each
    step had Qt measure every column a second time."""
    measured = []
    real = text_widths.rows_measured
    monkeypatch.setattr(text_widths, "rows_measured", lambda view: measured.append(view) or real(view))
    win = open_window(qtbot, crowd_project(tmp_path / "crowd.hadj", 30, per_item=9, per_word=40))
    try:
        background_settled(qtbot, win)  # no estimate fills the posterior column during a step
        t = win.ws.detail.leaf_table
        head = t.horizontalHeader()
        sized = [c for c in range(head.count()) if head.sectionResizeMode(c) == head.ResizeMode.ResizeToContents]
        assert len(sized) == 4  # the votes, share, posterior and gold columns
        win.ws.table.setFocus()
        qtbot.keyClick(win.ws.table, Qt.Key.Key_N)
        _idle()
        steps = 0
        for _ in range(8):
            word = int(win.wb.cols.lexelt[highlighted(win)])
            measured.clear()
            qtbot.keyClick(win.ws.table, Qt.Key.Key_N)
            _idle()
            if int(win.wb.cols.lexelt[highlighted(win)]) != word:
                continue  # another word: new rows, laid out afresh
            ours = [v for v in measured if v is t]  # (the live scores' table is measured on its own)
            assert 1 <= len(ours) <= len(sized), len(ours)
            assert head.sectionResizeMode(0) == head.ResizeMode.Interactive  # the sense column stays the user's
            steps += 1
        assert steps >= 3  # the case was met
    finally:
        win.close_project()
        QApplication.processEvents()
        gc.collect()
