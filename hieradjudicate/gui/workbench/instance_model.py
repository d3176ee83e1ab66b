"""The instance table: a QAbstractTableModel over the workbench's column arrays.

Rows are positions in ``Workbench.view`` (a numpy index array); sorting and
filtering replace that array (no proxy model).  Rows are coloured by
disagreement category through ``BackgroundRole`` and the category column
says the same in words and a symbol, so colour is never the only cue.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from hieradjudicate.app.workbench.columns import CATEGORY_ICONS, CATEGORY_LABELS
from hieradjudicate.app.workbench.queue import FLAGGED, RESOLVED, STATUS_NAMES, Filter, Workbench
from hieradjudicate.gui.colors import HELD, HELD_TIP, category_brushes, category_color

CategoryRole = Qt.ItemDataRole.UserRole + 1
InstanceRole = Qt.ItemDataRole.UserRole + 2
_Index = QModelIndex | QPersistentModelIndex
_DISPLAY, _TOOLTIP, _FONT = int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.ToolTipRole), int(Qt.ItemDataRole.FontRole)
_ALIGN, _BACKGROUND = int(Qt.ItemDataRole.TextAlignmentRole), int(Qt.ItemDataRole.BackgroundRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_HORIZONTAL = Qt.Orientation.Horizontal
_ANSWERED = frozenset((_DISPLAY, _TOOLTIP, _FONT, _ALIGN, _BACKGROUND, _FOREGROUND, int(CategoryRole), int(InstanceRole)))
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
#: the mark of a decided row in the row header, by status code (unresolved, resolved, flagged, skipped)
STATUS_MARKS = ("", "✓", "⚑", "↷", "⚠")  # one per STATUS_NAMES code (⚠: in conflict, team mode)


class InstanceModel(QAbstractTableModel):
    def __init__(self, wb: Workbench, parent=None) -> None:
        super().__init__(parent)
        self.wb = wb
        self.specs = wb.columns()
        self.keys = [c.key for c in self.specs]
        self._brushes = category_brushes()
        self._bold = QFont()
        self._bold.setBold(True)
        self._done = QBrush(QColor(110, 110, 110))
        self._held, self._held_brush = QFont(), QBrush(QColor(HELD))  # a flag's tags: no gold decision
        self._held.setItalic(True)

    # -- shape
    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else int(self.wb.view.size)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.keys)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        # a header section painted asks some seven roles: plain ints compared with ints, the rest at once
        if role != _DISPLAY and role != _TOOLTIP:
            return None
        if orientation == _HORIZONTAL:
            if 0 <= section < len(self.specs):
                return self.specs[section].title if role == _DISPLAY else self.specs[section].tip or None
        elif 0 <= section < self.wb.view.size:
            # a decided row is marked in the table itself, whatever columns are scrolled into view
            st = int(self.wb.status[int(self.wb.view[section])])
            if role == _DISPLAY:
                return f"{STATUS_MARKS[st]} {section + 1}" if st else str(section + 1)
            if st:
                return STATUS_NAMES[st]
        return None

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        # a painted cell asks seven roles, each a call from C++ into Python: the roles are plain ints
        # compared with ints (an enum member's lookup cost more than the answer), unasked ones return first
        if role not in _ANSWERED:
            return None
        row, col = index.row(), index.column()  # an invalid index: row and column -1
        wb = self.wb
        if not (0 <= row < wb.view.size and 0 <= col < len(self.keys)):
            return None
        i = int(wb.view[row])
        if role == _DISPLAY:
            return wb.cell(self.keys[col], i)
        if role == _BACKGROUND:  # (no colour while the category column is computed: Columns.ready)
            return self._brushes[int(wb.cols.category[i])] if wb.cols.ready else None
        key = self.keys[col]
        if role == _ALIGN:
            return _RIGHT if key == "agreement" else None
        st = wb.status[i]
        held = st == FLAGGED and key == "gold"
        if role == _FOREGROUND:
            if st == RESOLVED:
                return self._done  # decided rows read quieter than the ones still to do
            return self._held_brush if held else None
        if role == _FONT:
            if held:
                return self._held  # italic, not the bold of a gold decision
            return self._bold if key == "gold" or (key == "status" and st != 0) else None
        if role == CategoryRole:
            return int(wb.cols.category[i]) if wb.cols.ready else None
        if role == InstanceRole:
            return i
        # the tooltip
        if held and wb.gold[i]:
            return HELD_TIP
        if key == "kwic":
            c = wb.context(i)
            return c.text if c is not None else None
        if key == "category":
            if not wb.cols.ready:
                return "the disagreement categories are being computed"
            return f"{CATEGORY_LABELS[int(wb.cols.category[i])]} ({wb.cols.category_basis})"
        if key.startswith("set:") or key == "answers":
            return wb.tag_tooltip(i, int(key[4:]) if key.startswith("set:") else None)
        return None

    # (no ``flags``: Qt's own answers enabled and selectable, without a call into Python per cell)

    # -- view changes
    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self.keys):
            return
        self.reorder(lambda: self.wb.set_sort(self.keys[column], order == Qt.SortOrder.DescendingOrder))

    def reorder(self, change: Callable[[], object]) -> None:
        """Run ``change`` (a new order of the same rows) and move every persistent index (the view's
        current row and selection) to its instance's new row: the highlight follows the instance,
        never a row number that now holds another one."""
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        size = self.wb.view.size
        held = np.array([int(self.wb.view[ix.row()]) if 0 <= ix.row() < size else -1 for ix in old], np.int64)
        change()
        rows = self.wb.rows_of(held)
        self.changePersistentIndexList(old, [self.index(int(r), ix.column()) if r >= 0 else QModelIndex()
                                             for ix, r in zip(old, rows)])
        self.layoutChanged.emit()

    def set_filter(self, f: Filter | None = None, **changes) -> None:
        self.beginResetModel()
        self.wb.set_filter(f, **changes)
        self.endResetModel()

    def instances_changed(self, instances: list[int]) -> None:
        """Repaint only the rows of the instances whose decision changed."""
        last = len(self.keys) - 1
        if len(instances) > 64:  # a batch (resolve agreed, an import): one range, found in one pass
            rows = np.flatnonzero(np.isin(self.wb.view, np.asarray(instances, dtype=np.int64)))
            if rows.size:
                self.dataChanged.emit(self.index(int(rows[0]), 0), self.index(int(rows[-1]), last))
            return
        for i in instances:  # the row's mark in the vertical header: the view repaints it (Workspace);
            r = self.wb.row_of(i)  # headerDataChanged made the table lay out and repaint everything
            if r >= 0:
                self.dataChanged.emit(self.index(r, 0), self.index(r, last))


class Legend(QWidget):
    """What the row colours mean (with the same symbols as the category column); each chip is a filter:
    a click shows only its rows, a second click all rows again (``chosen`` says which was clicked)."""

    chosen = Signal(int)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(4, 0, 4, 0)
        lay.addWidget(QLabel("Rows:"))
        self.chips: dict[int, QPushButton] = {}
        for code in (3, 2, 1, 0, -1):
            sw = QPushButton(f"{CATEGORY_ICONS[code]} {CATEGORY_LABELS[code]}")
            c: QColor = category_color(code)
            sw.setCheckable(True)
            sw.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys stay with the table
            sw.setCursor(Qt.CursorShape.PointingHandCursor)
            sw.setStyleSheet(f"QPushButton {{ background:{c.name()}; color:black; border:1px solid #888; "
                             "padding:1px 6px; } QPushButton:checked { border:2px solid black; font-weight:bold; }")
            sw.setObjectName(f"legend_{CATEGORY_LABELS[code]}")
            sw.setToolTip({3: "no sense in common", 2: "some senses in common",
                           1: "one answer contains the other: granularity only",
                           0: "same tags", -1: "fewer than two annotators"}[code]
                          + " (click: only these rows; click again: all rows)")
            sw.clicked.connect(lambda _checked=False, code=code: self.chosen.emit(code))
            self.chips[code] = sw
            lay.addWidget(sw)
        lay.addStretch(1)

    def show_filter(self, codes: tuple[int, ...]) -> None:
        """Check the chip whose rows the category filter shows alone (none for any other filter)."""
        for code, sw in self.chips.items():
            sw.setChecked(tuple(codes) == (code,))
