"""A crowd's vote table sizes its columns from each cell's text and font, not through Qt's delegate measure
(seven calls into Python a cell at every instance shown): the widths are Qt's own, instance after
instance, decided (★ gold) and flagged (⚑ held) ones included."""

from __future__ import annotations

import gc
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QTableView

from hieradjudicate.gui.main_window import MainWindow
from hieradjudicate.gui.workbench.panels.crowd_detail import VoteTable
from tests.crowd import crowd_project
from tests.gui.journey import open_window


def _widths(t: QTableView) -> tuple[list[int], list[int]]:
    n = t.model().columnCount()
    return [t.sizeHintForColumn(c) for c in range(n)], [QTableView.sizeHintForColumn(t, c) for c in range(n)]


def test_vote_columns_are_as_wide_as_qts_measure_of_their_contents(qtbot, private_dirs, tmp_path: Path) -> None:
    w: MainWindow = open_window(qtbot, crowd_project(tmp_path / "crowd.hadj", 40, per_item=9))
    try:
        t = w.ws.detail.leaf_table
        assert isinstance(t, VoteTable)
        seen = set()
        # six instances; take answer 1 (and move on); back up to the decided one; flag it; the next one
        for key in [Qt.Key.Key_N] * 6 + [Qt.Key.Key_1, Qt.Key.Key_Up, Qt.Key.Key_F, Qt.Key.Key_N]:
            qtbot.keyClick(w.ws.table, key)
            QApplication.processEvents()
            ours, qt = _widths(t)
            assert t.model().rowCount() > 0
            assert ours == qt, (key, ours, qt)
            gold = [t.model().data(t.model().index(r, 4)) for r in range(t.model().rowCount())]
            seen.update(g for g in gold if g)
        # and the header shows them: each answer column at least its contents' width
        head = t.horizontalHeader()
        assert all(head.sectionSize(c) >= QTableView.sizeHintForColumn(t, c) for c in range(1, 5))
        assert {"★ gold", "⚑ held"} <= seen, seen  # the decided instance, then under a flag
    finally:
        w.close_project()
        QApplication.processEvents()
        gc.collect()


def test_live_score_columns_are_as_wide_as_qts_measure_sorted_filtered_and_scrolled(qtbot, private_dirs,
                                                                                       tmp_path: Path) -> None:
    """The live scores' table (one row per set, reset at every decision) is measured from its texts over
    the rows Qt looks at: the visible ones, then above and below up to the header's precision."""
    w: MainWindow = open_window(qtbot, crowd_project(tmp_path / "crowd.hadj", 60, per_item=9))
    try:
        live = w.ws.live
        t = live.scores
        assert t.cell_text is not None and t.horizontalHeader().resizeContentsPrecision() < 60

        def same() -> None:
            qtbot.waitUntil(lambda: not live.updating)
            QApplication.processEvents()
            assert t.model().rowCount() > 0
            ours = [t.sizeHintForColumn(c) for c in range(4)]
            qt = [QTableView.sizeHintForColumn(t, c) for c in range(4)]
            assert ours == qt, (ours, qt)

        for key in (Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_1):  # three decisions: precisions of several widths
            qtbot.keyClick(w.ws.table, key)
            same()
        t.sortByColumn(2, Qt.SortOrder.DescendingOrder)  # the user sorts by precision
        same()
        t.verticalScrollBar().setValue(t.verticalScrollBar().maximum() // 2)  # rows above and below
        same()
        qtbot.keyClicks(live.score_filter, "1")  # the filter box: only some sets
        same()
        assert t.model().rowCount() < len(w.wb.corpus.sets)
    finally:
        w.close_project()
        QApplication.processEvents()
        gc.collect()


def test_text_sized_tables_measure_the_rows_qt_measures(qtbot) -> None:
    """Rows of distinct widths (the widest far below): at each scroll position, precision and with hidden
    rows, the width from the texts is Qt's, which looks at the visible rows, then above and below."""
    from PySide6.QtGui import QStandardItem, QStandardItemModel

    from hieradjudicate.gui.workbench.text_widths import TextSizedTable

    texts = [("m" * ((r * 7) % 23 + 1), r % 5 == 0) for r in range(120)]
    model = QStandardItemModel(len(texts), 1)
    for r, (text, slant) in enumerate(texts):
        item = QStandardItem(text)
        if slant:
            font = QFont()
            font.setItalic(True)
            item.setFont(font)
        model.setItem(r, 0, item)
    t = TextSizedTable()
    t.setModel(model)
    t.cell_text = lambda r, c: texts[r]
    t.resize(300, 200)
    qtbot.addWidget(t)
    t.show()
    qtbot.waitExposed(t)
    checked = set()
    for precision in (0, 1, 7, 32, 1000):
        t.horizontalHeader().setResizeContentsPrecision(precision)
        for value in (0, 13, 60, 10_000):
            t.verticalScrollBar().setValue(value)
            for hidden in ((), (3, 61, 62)):
                for r in range(len(texts)):
                    t.setRowHidden(r, r in hidden)
                QApplication.processEvents()
                ours, qt = t.sizeHintForColumn(0), QTableView.sizeHintForColumn(t, 0)
                assert ours == qt, (precision, value, hidden, ours, qt)
                checked.add(qt)
    assert len(checked) > 3  # the rows looked at decide the width: the cases differ
