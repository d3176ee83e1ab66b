"""A crowd's vote table sizes its columns from each cell's text and font, not through Qt's delegate measure
(seven calls into Python a cell at every instance shown): the widths are Qt's own, instance after
instance, decided (★ gold) and flagged (⚑ held) ones included."""

from __future__ import annotations

import gc
from pathlib import Path

from PySide6.QtCore import Qt
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
