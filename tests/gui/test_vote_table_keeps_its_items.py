"""The crowd's vote table keeps its items when the next instance has the same rows (another instance of
the same word): only the cells whose text or colour changed are set again, and every cell then shows
exactly what a table built afresh for that instance shows (texts, italics, tooltips, colours).  The view
hears of every changed cell (one ``dataChanged`` around them) and of no column that stayed: within a
word the senses' column keeps its labels, and it is not repainted."""

from __future__ import annotations

import gc
from pathlib import Path

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.gui.main_window import MainWindow
from hieradjudicate.gui.workbench.panels.crowd_detail import VoteModel
from tests.crowd import crowd_project
from tests.gui.journey import highlighted, open_window

ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.FontRole, Qt.ItemDataRole.ToolTipRole,
         Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.TextAlignmentRole)


def _cells(model) -> list[list]:
    """Every cell's roles as drawn, and the item's address (the same item when it was kept)."""
    return [[[model.data(model.index(r, c), role) for role in ROLES] for c in range(model.columnCount())]
            for r in range(model.rowCount())]


def _addresses(model) -> list[int]:
    return [shiboken6.getCppPointer(model.item(r, c))[0] for r in range(model.rowCount())
            for c in range(model.columnCount())]


def _afresh(win: MainWindow, i: int) -> VoteModel:
    """The vote table's model built anew for instance ``i`` (as a first instance of its word)."""
    wb, shown = win.wb, win.ws.detail.leaf_model
    fresh = VoteModel()
    fresh.held = shown.held
    fresh.update(wb, i, wb.leaf_votes(i, wb.answer_groups(i)), wb.gold_region(i))
    return fresh


def test_the_next_instance_of_a_word_keeps_the_vote_tables_items(qtbot, private_dirs, tmp_path: Path) -> None:
    w: MainWindow = open_window(qtbot, crowd_project(tmp_path / "crowd.hadj", 40, per_item=9, per_word=8))
    try:
        model = w.ws.detail.leaf_model
        assert isinstance(model, VoteModel)
        kept = renewed = 0
        seen = set()
        told: list[tuple[int, int, int, int]] = []  # the rows and columns of each dataChanged
        model.dataChanged.connect(lambda a, b, *_: told.append((a.row(), b.row(), a.column(), b.column())))
        # steps inside a word and across words; a decision (1 moves on), back to it, a flag, the next one
        for key in [Qt.Key.Key_N] * 10 + [Qt.Key.Key_1, Qt.Key.Key_Up, Qt.Key.Key_F, Qt.Key.Key_N]:
            i0 = highlighted(w)
            word0, rows0, items0 = int(w.wb.cols.lexelt[i0]), model.rowCount(), _addresses(model)
            cells0 = _cells(model)
            told.clear()
            qtbot.keyClick(w.ws.table, key)
            QApplication.processEvents()
            i = highlighted(w)
            assert model.rowCount() > 0
            assert _cells(model) == _cells(_afresh(w, i)), key  # drawn as a table built for it afresh
            if int(w.wb.cols.lexelt[i]) == word0 and model.rowCount() == rows0:
                assert _addresses(model) == items0  # the same word's rows: the items were kept
                kept += 1
                changed = {(r, c) for r, (row, was) in enumerate(zip(_cells(model), cells0))
                           for c, (now, before) in enumerate(zip(row, was)) if now != before}
                assert all(any(r0 <= r <= r1 and c0 <= c <= c1 for r0, r1, c0, c1 in told) for r, c in changed)
                assert all(c0 >= 1 for _, _, c0, _ in told)  # the senses' labels stay: not repainted
            else:
                renewed += 1
            seen.update(str(model.data(model.index(r, 4))) for r in range(model.rowCount()))
        assert kept >= 3 and renewed >= 1, (kept, renewed)  # both paths were taken
        assert {"★ gold", "⚑ held"} <= seen, seen  # a decided instance, then one under a flag
    finally:
        w.close_project()
        QApplication.processEvents()
        gc.collect()
