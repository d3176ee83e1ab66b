"""Live figures: agreement of the current filter, each set's score against the gold so far, progress.

The figures are computed off the GUI thread (:class:`~hieradjudicate.gui.workers.BackgroundRunner`)
from a snapshot of the workbench: the table never waits for them.  While
they are computed the panel says "updating…"; a result that a newer filter
or decision has made stale is dropped (the runner's generation counter).
Progress counts are cheap and shown at once.

The per-set scores are a table view over a model (one row per set, sortable
and filterable), so a crowd project with hundreds of sets scrolls inside the
dock instead of growing the window by one label row per set.
"""

from __future__ import annotations

import html
import time
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate.app.logs import log_exception
from hieradjudicate.app.raters import annotator_sets
from hieradjudicate.app.workbench.live import (
    AgreementFigures,
    LiveFigures,
    LiveInputs,
    SetScore,
    live_figures,
)
from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.app.workbench.reference import reference_golds
from hieradjudicate.core.agreement.fleiss_missing import FLEISS_MISSING_RULE
from hieradjudicate.core.stats.undefined import Estimate
from hieradjudicate.gui.workbench.panels.reference_panel import ReferenceScores
from hieradjudicate.gui.workbench.rows_model import RowsModel
from hieradjudicate.gui.workbench.text_widths import TextSizedTable
from hieradjudicate.gui.workers import BackgroundRunner

UPDATING = "updating…"
_Index = QModelIndex | QPersistentModelIndex
SortRole = Qt.ItemDataRole.UserRole + 30
_DISPLAY, _ALIGN, _SORT = int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.TextAlignmentRole), int(SortRole)
_ANSWERED = frozenset((_DISPLAY, _ALIGN, _SORT, int(Qt.ItemDataRole.ToolTipRole)))
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def fmt(e: Estimate) -> str:
    return f"{e.value:.3f}" if e.value is not None else "undefined"


def progress_style() -> str:
    """A progress bar whose text stays readable over the filled part.

    Some styles (Fusion) draw the text in the highlighted-text colour over
    the chunk and the window-text colour elsewhere; others draw one colour
    everywhere, white on a white-ish chunk past half.  A light chunk with
    dark text reads in every style and theme.
    """
    return ("QProgressBar { border: 1px solid palette(mid); border-radius: 3px; text-align: center;"
            " color: palette(window-text); background: palette(base); }"
            " QProgressBar::chunk { background-color: rgba(70, 160, 90, 110); }")


def short_note(note: str, n_sets: int, limit: int = 160) -> str:
    """The note naming the sets compared, or a count of them when the list would fill the dock."""
    if len(note) <= limit:
        return note
    return f"{n_sets} sets compared (hover for the list)"


class SetScoreModel(RowsModel):
    """One row per set: name, role, precision against the gold so far, instances scored."""

    HEADERS = ("Set", "Role", "Precision", "n")

    def set_scores(self, scores: list[SetScore]) -> None:
        # a reset, measured against telling the view of the changed rows only: the reset's work waits
        # for the paint and costs less (MASC, measured once each: 18 against 26 ms of GUI-thread CPU per decision; one
        # dataChanged made the proxy filter and the header measure its columns at once)
        self.set_rows(scores)

    def text(self, row: int, c: int) -> str:
        """What cell (``row``, ``c``) writes."""
        s = self.rows[row]
        return (s.name, s.role, "–" if s.precision is None else f"{s.precision:.3f}", str(s.n_scored))[c]

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        # roles are plain ints compared with ints (a painted cell asks seven, each a call into Python)
        if role not in _ANSWERED or not 0 <= index.row() < len(self.rows):  # an invalid index: row -1
            return None
        s, c = self.rows[index.row()], index.column()
        if role == _DISPLAY:
            return self.text(index.row(), c)
        if role == _SORT:  # numbers sort as numbers; an undefined precision sorts first
            return (s.name, s.role, -1.0 if s.precision is None else s.precision, s.n_scored)[c]
        if role == _ALIGN:
            return _RIGHT if c >= 2 else None
        if c == 2 and s.precision is None:  # the tooltip
            return "no instance of this set is resolved yet"
        return None


class LivePanel(QWidget):
    def __init__(self, wb: Workbench, parent=None) -> None:
        super().__init__(parent)
        self.wb = wb
        self.scope = QLabel()
        self.scope.setObjectName("live_scope")
        self.scope.setWordWrap(True)  # the sets compared are named under the title: wrap, never widen the dock
        # systems are counted as annotators only when the user says so (#13)
        self.include_systems = QCheckBox("count systems as annotators")
        self.include_systems.setObjectName("live_include_systems")
        self.include_systems.setToolTip("By default the agreement compares the sets with role annotator only")
        # offered where ticking it gives two sets or more to compare
        self.include_systems.setVisible(any(s.role == "system" for s in wb.corpus.sets)
                                        and len(annotator_sets(wb.corpus, include_systems=True)) >= 2)
        self.include_systems.toggled.connect(lambda _on: self.refresh_agreement())
        self.kappa = QLabel()
        self.kappa.setObjectName("live_kappa")
        self.alpha = QLabel()
        self.alpha.setObjectName("live_alpha")
        self.cohen = QLabel()
        self.progress = QProgressBar()
        self.progress.setObjectName("live_progress")
        self.progress.setFormat("%v of %m resolved")
        self.progress.setStyleSheet(progress_style())
        self.counts = QLabel()
        self.counts.setWordWrap(True)
        self.score_model = SetScoreModel(self)
        self.score_proxy = QSortFilterProxyModel(self)
        self.score_proxy.setSourceModel(self.score_model)
        self.score_proxy.setSortRole(SortRole)
        self.score_proxy.setFilterKeyColumn(0)
        self.score_proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.scores = TextSizedTable()  # its columns measured from the texts (a reset at every decision)
        self.scores.cell_text = self._score_text
        self.scores.setObjectName("live_scores")
        self.scores.setModel(self.score_proxy)
        self.scores.setSortingEnabled(True)
        self.scores.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.scores.verticalHeader().hide()
        self.scores.verticalHeader().setDefaultSectionSize(20)
        self.scores.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.scores.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.scores.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        head = self.scores.horizontalHeader()
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in (1, 2, 3):
            head.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        # the widths from the visible rows and a few more, not from all 228 of a crowd at every
        # refresh (role, precision and count cells are short and alike)
        head.setResizeContentsPrecision(32)
        # the table takes the dock's spare height and scrolls; it never asks for a row per set
        self.scores.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
        self.scores.setMinimumHeight(60)
        self.score_filter = QLineEdit(placeholderText="Filter sets…")
        self.score_filter.setObjectName("live_scores_filter")
        self.score_filter.setClearButtonEnabled(True)
        self.score_filter.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.score_filter.textChanged.connect(self.score_proxy.setFilterFixedString)
        self.state = QLabel()
        self.state.setObjectName("live_state")
        self.state.setStyleSheet("color: gray")
        form = self.form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Fleiss κ", self.kappa)
        form.addRow("Krippendorff α", self.alpha)
        form.addRow("mean Cohen κ", self.cohen)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.addWidget(self.scope)
        lay.addWidget(self.include_systems)
        lay.addLayout(form)
        lay.addWidget(self.progress)
        lay.addWidget(self.counts)
        self.reference: ReferenceScores | None = None
        if reference_golds(wb.corpus):  # a gold given as input: the systems' scores against it, at once
            self.reference = ReferenceScores(wb, compact=True)
            lay.addWidget(self.reference, 3)  # before the decisions' table: the scores the researcher came for
            # never squeezed to its header row (#31: a dock split restored from a project without a reference
            # gold gave it 62 px); the dock scrolls instead
            # (one more line for its title, which wraps in a narrow dock)
            self.reference.setMinimumHeight(self.reference.minimumSizeHint().height()
                                            + self.reference.title.fontMetrics().lineSpacing())
            self.reference.start()
        lay.addWidget(QLabel("<b>Precision against your decisions so far</b> <small>(the gold being "
                             "adjudicated)</small>", wordWrap=True))
        if len(wb.shown_sets()) > 8:  # a filter box only where there is something to find
            lay.addWidget(self.score_filter)
        else:
            self.score_filter.hide()
        lay.addWidget(self.scores, 1)
        lay.addWidget(self.state)
        self.figures: AgreementFigures | None = None
        self.runner = BackgroundRunner(self)
        self._agreement_due = False
        self._asked_at = 0.0
        self.last_latency_ms: float | None = None  # request -> figures shown (benchmarks)

    def _score_text(self, row: int, c: int) -> tuple[str, bool]:
        """The scores table's cell (a row of the sorted, filtered view) as written: plain text."""
        return self.score_model.text(self.score_proxy.mapToSource(self.score_proxy.index(row, c)).row(), c), False

    @property
    def updating(self) -> bool:
        return self.runner.busy

    def refresh_agreement(self) -> None:
        """After a filter change: agreement of the annotators on the filtered instances."""
        self._agreement_due = True
        for label in (self.kappa, self.alpha, self.cohen):
            label.setText(UPDATING)
        self.scope.setText(f"<b>Annotator agreement</b> on the {self.wb.view.size} instances shown")
        self.refresh_decisions()

    def refresh_decisions(self) -> None:
        """After a decision: progress at once, scores (and any due agreement) in the background."""
        p = self.wb.progress()
        # QProgressBar.setValue repaints at once (the dock's styled bar: 10-16 ms of every decision on a
        # loaded machine); with updates off it only schedules the repaint, painted with the rest
        self.progress.setUpdatesEnabled(False)
        self.progress.setMaximum(max(p["total"], 1))
        self.progress.setValue(p["resolved"])
        self.progress.setUpdatesEnabled(True)
        self.show_counts(p)
        inputs = LiveInputs.of(self.wb, with_agreement=self._agreement_due,
                               include_systems=self.include_systems.isChecked())
        wb = self.wb
        self._asked_at = time.perf_counter()
        self.state.setText(UPDATING)
        self.runner.start(lambda report: live_figures(wb, inputs), self._show, failed=self._failed)

    def show_counts(self, p: dict[str, int] | None = None) -> None:
        """The decisions' counts and the categories left (once the category column is computed)."""
        p = self.wb.progress() if p is None else p
        rem = self.wb.remaining_categories()
        self.counts.setText(f"{p['unresolved']} unresolved, {p['flagged']} flagged, {p['skipped']} skipped"
                            + (f", {p['conflict']} in conflict" if p.get("conflict") else "")
                            + ("<br>left: " + ", ".join(f"{v} {k}" for k, v in rem.items()) if rem else ""))

    def _show(self, result: LiveFigures) -> None:
        f = result.agreement
        if f is not None:
            self._agreement_due = False
            self.figures = f
            if f.reason:  # fewer than two sets to compare: a sentence, not three "undefined" of 0 instances
                self.scope.setText(f"<b>Annotator agreement</b>: not computed<br><small>{html.escape(f.reason)} "
                                   f"({html.escape(short_note(f.note, len(f.raters)))})</small>")
            else:
                self.scope.setText(f"<b>Annotator agreement</b> on the {f.n_instances} instances shown"
                                   f"<br><small>{html.escape(short_note(f.note, len(f.raters)))}</small>")
            self.scope.setToolTip(f.note)
            for label in (self.kappa, self.alpha, self.cohen):  # their rows take no room then
                self.form.setRowVisible(label, not f.reason)
            self.kappa.setText(fmt(f.fleiss))
            self.kappa.setToolTip(f.fleiss.reason or f"soft Fleiss kappa over leaf distributions: {FLEISS_MISSING_RULE}")
            self.alpha.setText(fmt(f.alpha))
            self.cohen.setText(fmt(f.mean_cohen))
        self.score_model.set_scores(result.scores)
        self.state.setText("")
        self.last_latency_ms = (time.perf_counter() - self._asked_at) * 1000

    def _failed(self, exc: BaseException) -> None:
        path = log_exception(exc)
        self.state.setText(f"figures unavailable ({type(exc).__name__}); see {path}")

    def shutdown(self) -> None:
        """Drop pending figures and wait for a running computation (before the project closes)."""
        self.runner.cancel()
        self.runner.wait()
        if self.reference is not None:
            self.reference.shutdown()
