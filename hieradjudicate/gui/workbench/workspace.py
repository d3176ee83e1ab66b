"""The widgets of an open project: filter bar, instance table, legend, tree, detail, live figures."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionComboBox,
    QStylePainter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate.app.workbench.queue import Filter, Workbench
from hieradjudicate.gui.opaque import paint_alone
from hieradjudicate.gui.workbench.panels.detail_panel import DetailPanel
from hieradjudicate.gui.workbench.fill_width import FillWidth, least_in_sight
from hieradjudicate.gui.workbench.esc_to import EscTo
from hieradjudicate.gui.workbench.instance_model import STATUS_MARKS, InstanceModel, InstanceRole, Legend
from hieradjudicate.gui.workbench.inventory_tree import InventoryTree
from hieradjudicate.gui.workbench.panels.live_panel import LivePanel
from hieradjudicate.gui.workers import BackgroundRunner, hold_until_painted, one_after_another

CATEGORY_CHOICES = (("All agreement categories", ()), ("Any disagreement", (1, 2, 3)),
                    ("≠ Disjoint", (3,)), ("∩ Overlapping", (2,)), ("⊂ Compatible (granularity)", (1,)),
                    ("= Identical", (0,)), ("· Single (fewer than two annotators)", (-1,)))
STATUS_CHOICES = (("Any status", ()), ("Unresolved", (0,)), ("Resolved", (1,)), ("Flagged", (2,)),
                  ("Skipped", (3,)), ("In conflict (team)", (4,)), ("Not resolved", (0, 2, 3, 4)),
                  ("Has a note", "note"))
#: ms an instance is shown without another key before the next unresolved one's panels are prepared
PREPARE_MS = 60

_WIDTHS = {"category": 92, "lexelt": 58, "instance": 150, "kwic": 250, "agreement": 52, "status": 82,
           "gold": 56, "answers": 260, "note": 120}


def _typical(tags) -> str:
    """The longest of a sample of a column's strings (a width estimate without reading 100,000 rows)."""
    sample = tags[:: max(1, len(tags) // 500)]
    return max(sample.tolist(), key=len, default="")


def fit_row_header(table: QTableView, n: int) -> int:
    """Make the row header wide enough for a decided row's mark and the project's largest row number
    ("⚑ 44682", in the bold of the highlighted row): Qt sizes it from the first and last hundred rows
    as they were when it last looked, so a mark added later was cut ("✓ 24").  Returns the width."""
    head = table.verticalHeader()
    bold = QFont(head.font())
    bold.setBold(True)
    fm = QFontMetrics(bold)
    number = "8" * max(3, len(str(max(n, 1))))
    widest = max(fm.horizontalAdvance(f"{mark} {number}") for mark in STATUS_MARKS if mark)
    margin = head.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, head)
    width = widest + 2 * margin + 6
    head.setMinimumWidth(width)
    return width


class MiddleElide(QStyledItemDelegate):
    """Elides a cell in the middle, so the part of an id that differs from its neighbours shows."""

    MIDDLE = Qt.TextElideMode.ElideMiddle  # looked up once: a painted cell calls this

    def initStyleOption(self, option, index) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = self.MIDDLE


class ElidingCombo(QComboBox):
    """A combo box narrower than its text that ends the text with "…" (Qt cut it mid-letter: "All agreemen")."""

    def paintEvent(self, _ev) -> None:
        p = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        p.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        opt.currentText = self.fontMetrics().elidedText(opt.currentText, Qt.TextElideMode.ElideRight, field.width())
        p.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)


class Workspace(QWidget):
    """Central widget of an open project; the tree, detail and live panels live in docks."""

    instance_changed = Signal(int)
    filter_changed = Signal()
    columns_ready = Signal()  # a crowd's late columns are computed (see ``_late_columns``)

    def __init__(self, wb: Workbench, parent=None) -> None:
        super().__init__(parent)
        self.wb = wb
        #: instance indices the table is limited to (team mode: "Only my assignments"); () = all
        self.only: tuple[int, ...] = ()
        self.model = InstanceModel(wb, self)
        self.table = QTableView()
        self.table.setObjectName("instance_table")
        self.table.setModel(self.model)
        # the column titles follow no selection (their sections are not highlighted): with the table's
        # own, each step to another row (a selection of every column) repainted every title
        head = self.table.horizontalHeader()
        head.setSelectionModel(QItemSelectionModel(self.model, head))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        paint_alone(self.table.verticalScrollBar())  # it moves at each step: nothing under it is painted
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setHighlightSections(False)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        fm = self.table.fontMetrics()
        head = self.table.horizontalHeader()
        head_fm = head.fontMetrics()
        margin = head.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, head)
        arrow = head.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, head)
        self._middle = MiddleElide(self.table)
        for c, key in enumerate(self.model.keys):
            width = _WIDTHS.get(key, 46)
            if key.startswith("set:"):  # as wide as its usual tag string (short labels), within reason
                width = max(width, min(100, fm.horizontalAdvance(_typical(wb.cols.set_tags[int(key[4:])])) + 12))
            elif key == "gold" and wb.cols.set_tags:  # reads like the answers: "document#1", never "docu…"
                bold = QFont(self.table.font())
                bold.setBold(True)  # the highlighted row is bold
                width = max(width, min(110, max(QFontMetrics(bold).horizontalAdvance(_typical(t))
                                                for t in wb.cols.set_tags) + 14))
            elif key == "lexelt":
                width = max(width, min(110, fm.horizontalAdvance(max(wb.cols.lexelt_names, key=len, default="")) + 12))
            # and its title, within reason: "[1] lesk (system)" was cut on both sides, "Leaf agr." lost its L
            # and room for the sort arrow ("Leaf agr." lost its "." under it); a set's title may take 170
            cap = 170 if key.startswith("set:") else 140
            width = max(width, min(cap, head_fm.horizontalAdvance(self.model.specs[c].title) + 2 * margin
                                   + 4 + arrow))
            self.table.setColumnWidth(c, width)
            if key in ("instance", "lexelt"):  # ids differ at the end: "senseval2…d000.s000.t000"
                self.table.setItemDelegateForColumn(c, self._middle)
            if key == "kwic" and not wb.corpus.contexts:  # no context in the project: no empty 250 px
                self.table.setColumnHidden(c, True)
        # the answers sit beside the gold, before lexelt, instance and context (#31: at 1024 px they were
        # past the context, off-screen on every row; the panel below shows the whole context anyway);
        # only the header's visual order moves: the model's columns (and their keys) stay as they are
        after = self.model.keys.index("gold") if "gold" in self.model.keys else -1
        for c, key in enumerate(self.model.keys):
            if after >= 0 and (key.startswith("set:") or key == "answers"):
                head.moveSection(head.visualIndex(c), head.visualIndex(after) + 1)
                after = c
        # wide enough for a marked row number ("✓ 44682") from the start: a decision's mark never
        # widens the header (which re-laid out and repainted the whole table at every decision)
        fit_row_header(self.table, wb.corpus.n)
        self.fill = FillWidth(self.table, self._fill_column, least_in_sight(
            self.table, self._fill_column, lambda: _WIDTHS.get(self._fill_key(), 46)))
        self.legend = Legend()
        self.legend.chosen.connect(self._legend_chosen)
        self.tree = InventoryTree(wb)
        self.detail = DetailPanel(wb)
        self.live = LivePanel(wb)
        self._build_filter_bar()
        self.category_box.currentIndexChanged.connect(
            lambda _k: self.legend.show_filter(tuple(self.category_box.currentData() or ())))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(self.filter_bar)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.legend)
        self.shown = -1  # the instance the panels show: always the highlighted row's (see ``_sync``)
        self._moving_on = self._stale = False  # see ``moving_on``
        self.place = -1  # the last instance shown: kept through a search that finds nothing
        sel = self.table.selectionModel()
        sel.currentRowChanged.connect(self._sync)
        sel.selectionChanged.connect(self._sync)
        self.model.layoutChanged.connect(self._follow)
        self._live_timer = QTimer(self, singleShot=True, interval=0)
        self._live_timer.timeout.connect(self.live.refresh_agreement)
        #: the next unresolved instance's suggestion and answers, made once an instance has been shown
        #: for PREPARE_MS without another key: the N key then finds them made (MASC: ~3 of a step's ~21 ms)
        self._prepare_timer = QTimer(self, singleShot=True, interval=PREPARE_MS)
        self._prepare_timer.timeout.connect(self._prepare_next)
        self._live_timer.start()  # after the window is shown: the table is usable first
        #: off the GUI thread once the window is shown, one after the other: a crowd's late columns
        #: (category, leaf agreement, answers: ``Columns.finish``; their cells say "computing…" until
        #: then), then the annotators' weighing (the suggestion's most reliable set, which reads the
        #: columns' sums).  On MASC they were 1.1 and 0.7 CPU-s of the opening on the GUI thread.
        self.weigher = BackgroundRunner(self, background=True)
        self._weigh_timer = QTimer(self, singleShot=True, interval=0)
        self._weigh_timer.timeout.connect(self._late_columns)
        wb.start_weighing()
        self._weigh_timer.start()
        # these jobs and the live figures' start once the table is painted: its first look is not shared;
        # the late columns after the live figures' first job, not beside it (their peaks added up)
        hold_until_painted(self.table.viewport(), (self.live.runner, self.weigher))
        one_after_another(self.live.runner, self.weigher)

    def _late_columns(self) -> None:
        cols = self.wb.cols
        if cols.ready:
            self._weigh()
            return
        self.weigher.start(lambda report: cols.finish(report), lambda _computed: self._columns_ready(),
                           failed=lambda _exc: self._columns_ready())  # (then computed where first read)

    def _columns_ready(self) -> None:
        """The late columns are in: their cells, the rows' colours and the live panel's counts."""
        m = self.model
        if m.rowCount():
            self.table.viewport().update()  # every cell's colour: the visible rows are repainted
            m.dataChanged.emit(m.index(0, 0), m.index(m.rowCount() - 1, m.columnCount() - 1))
        self.live.show_counts()
        self.columns_ready.emit()
        self._weigh()

    def _weigh(self) -> None:
        wb = self.wb

        def weigh(report):
            wb.warm_suggestions(report)
            wb.corpus.answer_index()  # which sets answered each instance: the steps to the next instance

        self.weigher.start(weigh, lambda _none: wb.weighed(),
                           failed=lambda _exc: wb.weighed())  # a suggestion then weighs them itself

    def _fill_key(self) -> str:
        """The column a wide window's room goes to: the context, else the answers, else the note."""
        keys = self.model.keys
        return next((k for k in ("kwic", "answers", "note") if k in keys
                     and not self.table.isColumnHidden(keys.index(k))), "")

    def _fill_column(self) -> int:
        key = self._fill_key()
        return self.model.keys.index(key) if key else -1

    # ------------------------------------------------------------------ filter bar
    def _build_filter_bar(self) -> None:
        wb = self.wb
        self.lexelt_box = ElidingCombo()
        self.lexelt_box.setObjectName("filter_lexelt")
        self.lexelt_box.addItem("All lexelts", ())
        for x, name in enumerate(wb.cols.lexelt_names):
            self.lexelt_box.addItem(name, (x,))
        self.category_box = ElidingCombo()
        self.category_box.setObjectName("filter_category")
        for text, codes in CATEGORY_CHOICES:
            self.category_box.addItem(text, codes)
        self.status_box = ElidingCombo()
        self.status_box.setObjectName("filter_status")
        for text, codes in STATUS_CHOICES:
            self.status_box.addItem(text, codes)
        self.pair_a, self.pair_b = ElidingCombo(), ElidingCombo()
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
        # Return or Esc: the search is done, the keys (1-9, A, N, ...) are the table's again
        self.search.returnPressed.connect(self._search_done)
        self._esc = EscTo({self.search: self._search_done, self.tree.search: self.table.setFocus})
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
            # narrow (their text ends in "…") on a 1024 px window, as wide as their longest item (within
            # 240 px) where the window has room: "All agreem…" on a 1920 px screen read as a cut
            longest = max((w.fontMetrics().horizontalAdvance(w.itemText(k)) for k in range(w.count())), default=0)
            w.setMaximumWidth(max(w.minimumSizeHint().width(), min(240, longest + 40)))
            bar.addWidget(w, 1)
        bar.addWidget(self.search, 3)
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
                      text=self.search.text(), has_note=note, only=self.only)

    def set_only(self, instances: tuple[int, ...]) -> None:
        """Show only these instances (with the other filters; () shows all): team mode's
        "Only my assignments"."""
        self.only = tuple(instances)
        self.apply_filter()

    def _search_done(self) -> None:
        if self._text_timer.isActive():  # what was typed last is searched before the keys move on
            self._text_timer.stop()
            self.apply_filter()
        self.table.setFocus()

    def apply_filter(self) -> None:
        keep = self.current if self.current >= 0 else self.place
        self.model.set_filter(self.current_filter())
        self._update_count()
        self._live_timer.start()  # figures follow right after the table is repainted
        row = self.wb.row_of(keep) if keep >= 0 else -1  # the same instance, wherever its row is now
        if row < 0:
            row = self.wb.next_unresolved(-1)
        self.select_row(row if row >= 0 or self.wb.view.size == 0 else 0)  # nothing shown: no instance
        self.filter_changed.emit()

    def sort_most_uncertain(self, *, keep_place: bool = False) -> None:
        """Order the table by the competence model's uncertainty, most uncertain first, from the top;
        ``keep_place``: the highlighted instance stays highlighted (an estimate that arrives later
        never moves the highlight without the user)."""
        here = self.current
        self.table.horizontalHeader().setSortIndicatorShown(False)  # no column holds this order
        self.model.reorder(lambda: self.wb.set_sort("uncertainty"))
        if keep_place and here >= 0 and self.select_instance(here):
            return
        row = self.wb.next_unresolved(-1)
        self.select_row(row if row >= 0 else 0)

    def _legend_chosen(self, code: int) -> None:
        """A legend chip: only its rows, or all rows again when they are what is shown."""
        self.set_category(() if tuple(self.category_box.currentData() or ()) == (code,) else (code,))
        self.legend.show_filter(tuple(self.category_box.currentData() or ()))
        self.table.setFocus()

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
    @property
    def current(self) -> int:
        """The instance of the highlighted row, or -1 when no row is highlighted: every key acts on it."""
        sel = self.table.selectionModel()
        idx = sel.currentIndex()
        if not idx.isValid() or not sel.isRowSelected(idx.row(), QModelIndex()):
            return -1
        i = self.model.data(idx, InstanceRole)
        return -1 if i is None else int(i)

    def select_row(self, row: int) -> None:
        """Highlight ``row`` (and show its instance); a row that does not exist highlights none."""
        sel = self.table.selectionModel()
        if not 0 <= row < self.model.rowCount():
            sel.clear()
            self._sync()
            return
        idx = self.model.index(row, 0)
        sel.setCurrentIndex(idx, QItemSelectionModel.SelectionFlag.ClearAndSelect
                            | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(idx)
        self._sync()

    def select_instance(self, i: int) -> bool:
        """Highlight instance ``i``'s row; False (nothing changes) when the filter does not show it."""
        row = self.wb.row_of(i)
        if row < 0:
            return False
        self.select_row(row)
        return True

    def current_row(self) -> int:
        return self.table.selectionModel().currentIndex().row() if self.current >= 0 else -1

    def no_instance_reason(self) -> str:
        """Why no instance is highlighted, in the user's words (for the status bar)."""
        if self.wb.view.size == 0:
            what = f"the search \u201c{self.search.text()}\u201d" if self.search.text().strip() else "the filter"
            return f"No instance: {what} shows none of the {self.wb.corpus.n} instances"
        return "No instance is highlighted: click a row (or press Down) first"

    def _follow(self) -> None:
        """After a new order: keep the highlighted instance in sight and the panels on it."""
        idx = self.table.selectionModel().currentIndex()
        if idx.isValid():
            self.table.scrollTo(idx)
        self._sync()

    def _sync(self, *_args) -> None:
        """The panels show the highlighted row's instance, or none when no row is highlighted.

        Qt moves the current index and the selection one after the other (a click: current first; a
        key or ``setCurrentIndex``: selection first); in between, another row is still selected and
        nothing changes here, so a move never blanks the panels (and rebuilds the tree) on the way."""
        i = self.current
        if i < 0 and self.table.selectionModel().selectedRows():
            return  # half-way through a move: the next signal completes it
        if i == self.shown:
            return
        if i >= 0:
            self._show(i)
        else:
            self.shown = -1
            self.detail.show_none(self.no_instance_reason())
            self.tree.show_none()
            self.instance_changed.emit(-1)

    def _show(self, i: int) -> None:
        self.shown = self.place = i
        self._stale = False
        self.detail.show_instance(i)
        self.tree.show_instance(i)
        self.instance_changed.emit(i)
        self._prepare_timer.start()

    def _prepare_next(self) -> None:
        """Make what the panels will show for the next unresolved instance (see ``_prepare_timer``);
        the workbench keeps it beside the shown instance's."""
        if self.shown < 0:
            return
        row = self.wb.next_unresolved(self.current_row(), 1)
        if row < 0:
            return
        j = int(self.wb.view[row])
        self.wb.suggestion(j)
        if self.detail.crowd:
            self.wb.answer_groups(j)

    def refresh_current(self) -> None:
        if self.shown >= 0:
            self._show(self.shown)

    def shutdown(self) -> None:
        """Stop background work before the project closes."""
        self._live_timer.stop()
        self._weigh_timer.stop()
        self._prepare_timer.stop()
        self.weigher.cancel()
        self.weigher.wait(30_000)
        self.wb.weighed()
        self.live.shutdown()

    def decisions_saved(self, instances: list[int]) -> None:
        self.model.instances_changed(instances)
        head = self.table.verticalHeader()  # the rows' marks (✓, ⚑): their header sections repainted
        if len(instances) > 64:
            head.viewport().update()
        else:
            for r in map(self.wb.row_of, instances):
                if r >= 0:
                    head.viewport().update(0, head.sectionViewportPosition(r), head.viewport().width(),
                                           head.sectionSize(r))
        self.live.refresh_decisions()
        if self.shown in instances:
            if self._moving_on:  # the next instance is shown next: drawing this one again is wasted
                self._stale = True
            else:
                self.refresh_current()

    @contextmanager
    def moving_on(self) -> Iterator[None]:
        """A decision that moves to the next instance: the panels are not redrawn for the instance
        decided (half of a decision's time on a crowd) unless :meth:`refresh_if_stale` finds it still
        shown afterwards (no next instance)."""
        self._moving_on = True
        try:
            yield
        finally:
            self._moving_on = False

    def refresh_if_stale(self) -> None:
        """Redraw the panels if a decision saved under :meth:`moving_on` left them showing its
        instance as it was before."""
        if self._stale:
            self.refresh_current()
