"""The widgets of an open project: filter bar, instance table, legend, tree, detail, live figures."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate.app.workbench.queue import Filter, Workbench
from hieradjudicate.gui.workbench.detail_panel import DetailPanel
from hieradjudicate.gui.workbench.instance_model import InstanceModel, InstanceRole, Legend
from hieradjudicate.gui.workbench.inventory_tree import InventoryTree
from hieradjudicate.gui.workbench.live_panel import LivePanel

CATEGORY_CHOICES = (("All agreement categories", ()), ("Any disagreement", (1, 2, 3)),
                    ("≠ Disjoint", (3,)), ("∩ Overlapping", (2,)), ("⊂ Compatible (granularity)", (1,)),
                    ("= Identical", (0,)))
STATUS_CHOICES = (("Any status", ()), ("Unresolved", (0,)), ("Resolved", (1,)), ("Flagged", (2,)),
                  ("Skipped", (3,)), ("Not resolved", (0, 2, 3)), ("Has a note", "note"))
_WIDTHS = {"category": 92, "lexelt": 58, "instance": 150, "kwic": 250, "agreement": 52, "status": 82,
           "gold": 56, "answers": 260, "note": 120}


def _typical(tags) -> str:
    """The longest of a sample of a column's strings (a width estimate without reading 100,000 rows)."""
    sample = tags[:: max(1, len(tags) // 500)]
    return max(sample.tolist(), key=len, default="")


class MiddleElide(QStyledItemDelegate):
    """Elides a cell in the middle, so the part of an id that differs from its neighbours shows."""

    def initStyleOption(self, option, index) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


class Workspace(QWidget):
    """Central widget of an open project; the tree, detail and live panels live in docks."""

    instance_changed = Signal(int)
    filter_changed = Signal()

    def __init__(self, wb: Workbench, parent=None) -> None:
        super().__init__(parent)
        self.wb = wb
        self.model = InstanceModel(wb, self)
        self.table = QTableView()
        self.table.setObjectName("instance_table")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setHighlightSections(False)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        fm = self.table.fontMetrics()
        self._middle = MiddleElide(self.table)
        for c, key in enumerate(self.model.keys):
            width = _WIDTHS.get(key, 46)
            if key.startswith("set:"):  # as wide as its usual tag string (short labels), within reason
                width = max(width, min(100, fm.horizontalAdvance(_typical(wb.cols.set_tags[int(key[4:])])) + 12))
            elif key == "lexelt":
                width = max(width, min(110, fm.horizontalAdvance(max(wb.cols.lexelt_names, key=len, default="")) + 12))
            self.table.setColumnWidth(c, width)
            if key in ("instance", "lexelt"):  # ids differ at the end: "senseval2…d000.s000.t000"
                self.table.setItemDelegateForColumn(c, self._middle)
        self.legend = Legend()
        self.tree = InventoryTree(wb)
        self.detail = DetailPanel(wb)
        self.live = LivePanel(wb)
        self._build_filter_bar()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(self.filter_bar)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.legend)
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        self.current = -1
        self._live_timer = QTimer(self, singleShot=True, interval=0)
        self._live_timer.timeout.connect(self.live.refresh_agreement)
        self._live_timer.start()  # after the window is shown: the table is usable first

    # ------------------------------------------------------------------ filter bar
    def _build_filter_bar(self) -> None:
        wb = self.wb
        self.lexelt_box = QComboBox()
        self.lexelt_box.setObjectName("filter_lexelt")
        self.lexelt_box.addItem("All lexelts", ())
        for x, name in enumerate(wb.cols.lexelt_names):
            self.lexelt_box.addItem(name, (x,))
        self.category_box = QComboBox()
        self.category_box.setObjectName("filter_category")
        for text, codes in CATEGORY_CHOICES:
            self.category_box.addItem(text, codes)
        self.status_box = QComboBox()
        self.status_box.setObjectName("filter_status")
        for text, codes in STATUS_CHOICES:
            self.status_box.addItem(text, codes)
        self.pair_a, self.pair_b = QComboBox(), QComboBox()
        for box, first in ((self.pair_a, "Any pair of sets"), (self.pair_b, "…")):
            box.addItem(first, -1)
            for j, k in enumerate(wb.shown_sets()[:40]):
                box.addItem(f"[{j + 1}] {wb.corpus.sets[k].name}" if j < 9 else wb.corpus.sets[k].name, k)
        self.pair_a.setToolTip("Show instances where these two sets disagree (in the category chosen)")
        self.pair_b.setToolTip(self.pair_a.toolTip())
        self.search = QLineEdit(placeholderText="Search text, ids, tags…  (Ctrl+F)")
        self.search.setObjectName("filter_text")
        self.search.setClearButtonEnabled(True)
        self.count = QLabel()
        self.count.setObjectName("filter_count")
        self._text_timer = QTimer(self, singleShot=True, interval=180)
        self._text_timer.timeout.connect(self.apply_filter)
        self.search.textChanged.connect(self._text_timer.start)
        for box in (self.lexelt_box, self.category_box, self.status_box, self.pair_a, self.pair_b):
            box.currentIndexChanged.connect(self.apply_filter)
            box.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        for box in (self.lexelt_box, self.category_box, self.status_box, self.pair_a, self.pair_b):
            # long lexelt or set names: the list pops up wide, the box stays narrow (it sized to its
            # longest item: a 1703 px window; five boxes at their longest made the window 1172 px wide)
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(7)
            box.view().setMinimumWidth(260)
            box.setToolTip(box.toolTip() or box.currentText())
            box.currentTextChanged.connect(lambda text, b=box: b.setToolTip(text) if b not in
                                           (self.pair_a, self.pair_b) else None)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        for w in (self.lexelt_box, self.category_box, self.status_box, self.pair_a, self.pair_b):
            bar.addWidget(w)
        bar.addWidget(self.search, 1)
        bar.addWidget(self.count)
        self.filter_bar = bar
        self._update_count()

    def current_filter(self) -> Filter:
        a, b = self.pair_a.currentData(), self.pair_b.currentData()
        pair = (int(a), int(b)) if a is not None and b is not None and a >= 0 and b >= 0 and a != b else None
        status = self.status_box.currentData()
        note = status == "note"
        return Filter(lexelts=tuple(self.lexelt_box.currentData() or ()),
                      categories=tuple(self.category_box.currentData() or ()),
                      statuses=() if note else tuple(status or ()), pair=pair,
                      text=self.search.text(), has_note=note)

    def apply_filter(self) -> None:
        keep = self.current
        self.model.set_filter(self.current_filter())
        self._update_count()
        self._live_timer.start()  # figures follow right after the table is repainted
        row = self.wb.row_of(keep) if keep >= 0 else -1
        if row < 0:
            row = self.wb.next_unresolved(-1)
        self.select_row(row if row >= 0 else 0)
        self.filter_changed.emit()

    def sort_most_uncertain(self) -> None:
        """Order the table by the competence model's uncertainty, most uncertain first, from the top."""
        self.table.horizontalHeader().setSortIndicatorShown(False)  # no column holds this order
        self.model.layoutAboutToBeChanged.emit()
        self.wb.set_sort("uncertainty")
        self.model.layoutChanged.emit()
        row = self.wb.next_unresolved(-1)
        self.select_row(row if row >= 0 else 0)

    def set_category(self, codes: tuple[int, ...]) -> None:
        for k in range(self.category_box.count()):
            if tuple(self.category_box.itemData(k)) == tuple(codes):
                self.category_box.setCurrentIndex(k)
                return

    def clear_filter(self) -> None:
        for box in (self.lexelt_box, self.category_box, self.status_box, self.pair_a, self.pair_b):
            box.blockSignals(True)
            box.setCurrentIndex(0)
            box.blockSignals(False)
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
        self.apply_filter()

    def _update_count(self) -> None:
        self.count.setText(f"{self.wb.view.size:,} of {self.wb.corpus.n:,}")
        self.count.setToolTip(f"{self.wb.view.size:,} instances shown of the project's {self.wb.corpus.n:,}")

    # ------------------------------------------------------------------ current row
    def select_row(self, row: int) -> None:
        if not 0 <= row < self.model.rowCount():
            self.current = -1
            return
        idx = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            idx, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(idx)
        if self.current != int(self.wb.view[row]):
            self._show(int(self.wb.view[row]))

    def select_instance(self, i: int) -> None:
        row = self.wb.row_of(i)
        if row >= 0:
            self.select_row(row)
        else:
            self._show(i)

    def current_row(self) -> int:
        return self.table.selectionModel().currentIndex().row()

    def _row_changed(self, cur, _prev) -> None:
        if cur.isValid():
            i = self.model.data(cur, InstanceRole)
            if i is not None and i != self.current:
                self._show(int(i))

    def _show(self, i: int) -> None:
        self.current = i
        self.detail.show_instance(i)
        self.tree.show_instance(i)
        self.instance_changed.emit(i)

    def refresh_current(self) -> None:
        if self.current >= 0:
            self._show(self.current)

    def shutdown(self) -> None:
        """Stop background work before the project closes."""
        self._live_timer.stop()
        self.live.shutdown()

    def decisions_saved(self, instances: list[int]) -> None:
        self.model.instances_changed(instances)
        self.live.refresh_decisions()
        if self.current in instances:
            self.refresh_current()
