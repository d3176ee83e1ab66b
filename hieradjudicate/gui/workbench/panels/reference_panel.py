"""Systems scored against the reference gold given as input: one table, the policies ``score`` has.

Shown in the live panel and on the dashboard when the project holds a set with role gold.  The title
names the reference set and says that it is an input, not the decisions made here (the gold being
adjudicated has its own table: "Precision against your decisions so far").  Computed once in the
background (the reference and the systems are inputs: they do not change while the project is open).
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate.app.logs import log_exception
from hieradjudicate.app.workbench.reference import (
    ALL_DATA,
    ReferenceFigures,
    ReferenceScore,
    cached_reference_scores,
    explain,
    reference_golds,
)
from hieradjudicate.gui.workbench.rows_model import RowsModel
from hieradjudicate.gui.workers import BackgroundRunner

_Index = QModelIndex | QPersistentModelIndex


def fmt3(v: float | None) -> str:
    return "–" if v is None else f"{v:.3f}"


class ReferenceModel(RowsModel):
    HEADERS = ("System", "Data set", "P", "R", "F1", "Coverage", "Instances")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.many_golds = False

    def set_rows(self, rows: list[ReferenceScore], many_golds: bool = False) -> None:  # type: ignore[override]
        self.many_golds = many_golds
        super().set_rows(rows)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        r, c = self.rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            name = f"{r.system} vs {r.gold}" if self.many_golds else r.system
            return (name if r.dataset == ALL_DATA else "", r.dataset or "all", fmt3(r.precision), fmt3(r.recall),
                    fmt3(r.f1), fmt3(r.coverage), str(r.total))[c]
        if role == Qt.ItemDataRole.TextAlignmentRole and c >= 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return (f"{r.system} against the reference gold {r.gold} ({r.policy} policy"
                    f"{', data set ' + r.dataset if r.dataset else ', every instance'}): P {fmt3(r.precision)}, "
                    f"R {fmt3(r.recall)}, F1 {fmt3(r.f1)}, coverage {fmt3(r.coverage)}; {r.attempted:g} attempted "
                    f"of {r.total}")
        return None


class ReferenceScores(QWidget):
    """Title naming the reference gold, a policy choice, and the scores table."""

    def __init__(self, wb: Any, parent=None, *, compact: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("reference_scores")
        self.wb = wb
        corpus = wb.corpus
        golds = [corpus.sets[g].name for g in reference_golds(corpus)]
        self.title = QLabel()
        self.title.setObjectName("reference_title")
        self.title.setWordWrap(True)
        self.title.setText(f"<b>Systems against the reference gold</b> <i>{html.escape(', '.join(golds))}</i> "
                           "<small>(input)</small>")
        self.title.setToolTip("The gold standard given as input (role gold), over every instance of it; "
                              "not your decisions (the gold being adjudicated has its own table)")
        self.policy = QComboBox()
        self.policy.setObjectName("reference_policy")
        self.policy.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.policy.currentIndexChanged.connect(lambda _: self._fill())
        self.state = QLabel("computing…")
        self.state.setStyleSheet("color: gray")
        self.model = ReferenceModel(self)
        self.table = QTableView()
        self.table.setObjectName("reference_table")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(20)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        head = self.table.horizontalHeader()
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in range(1, len(ReferenceModel.HEADERS)):
            head.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        if compact:  # a narrow dock: P, R and F1 in sight; coverage and counts are in each row's tooltip
            for c in (5, 6):
                self.table.setColumnHidden(c, True)
            for c in (2, 3, 4):
                head.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
                self.table.setColumnWidth(c, self.table.fontMetrics().horizontalAdvance("0.000") + 10)
        self.table.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
        self.table.setMinimumHeight(110)  # the overall row and most data sets of an ALL key
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("Policy"))
        row.addWidget(self.policy)
        row.addStretch(1)
        row.addWidget(self.state)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.title)
        lay.addLayout(row)
        lay.addWidget(self.table, 1)
        self.figures: ReferenceFigures | None = None
        self.runner = BackgroundRunner(self)

    def start(self) -> None:
        """Compute the figures in the background (once per project: the workbench keeps them)."""
        wb = self.wb
        self.runner.start(lambda report: cached_reference_scores(wb, wb.corpus), self._show, failed=self._failed)

    def _show(self, figures: ReferenceFigures) -> None:
        self.figures = figures
        self.policy.blockSignals(True)
        self.policy.clear()
        for p in figures.policies:
            self.policy.addItem(p, p)
        self.policy.setCurrentIndex(0)
        self.policy.blockSignals(False)
        self.state.setText(figures.note if not figures.rows else "")
        self.state.setToolTip(figures.note)
        self._fill()

    def _fill(self) -> None:
        f = self.figures
        if f is None:
            return
        policy = self.policy.currentData()
        self.model.set_rows([r for r in f.rows if r.policy == policy], len(f.golds) > 1)
        self.policy.setToolTip(explain(policy) if policy else "")

    def _failed(self, exc: BaseException) -> None:
        path = log_exception(exc)
        self.state.setText(f"scores unavailable ({type(exc).__name__}); see {path}")

    def shutdown(self) -> None:
        self.runner.cancel()
        self.runner.wait()
