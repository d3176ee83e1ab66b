"""The lead's team view in the window: per-adjudicator figures and the conflict queue.

Opened with **Go → Team progress and conflicts…** on a server project.  The figures are those of
``project progress`` (:func:`hieradjudicate.app.team.figures`), the queue that of
``project conflicts``; both refresh when decisions arrive (at most every 0.8 s, computed off the
GUI thread).  Double-clicking a conflict selects its instance in the workbench, where the lead
decides it.
"""

from __future__ import annotations

import json
import time
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate.gui.workers import BackgroundRunner

REFRESH_SECONDS = 0.8
#: the conflict queue's mark of a blind answer the person changed after the pair opened (the
#: answer shown is the one given while blind, as ``project conflicts`` says)
CHANGED = "yes"


def _table(parent: QWidget, name: str) -> QTableWidget:
    t = QTableWidget(parent)
    t.setObjectName(name)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.verticalHeader().hide()
    return t


def _fill(t: QTableWidget, header: list[str], rows: list[list[str]]) -> None:
    t.clear()
    t.setColumnCount(len(header))
    t.setHorizontalHeaderLabels(header)
    t.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            t.setItem(r, c, QTableWidgetItem(str(text)))
    t.resizeColumnsToContents()


class TeamView(QDialog):
    """See the module.  ``window`` is the main window (its session and workspace)."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self.setObjectName("team_view")
        self.setWindowTitle("Team progress and conflicts")
        self.resize(900, 420)
        self.note = QLabel("", self, objectName="team_note")
        self.note.setWordWrap(True)
        self.tabs = QTabWidget(self)
        self.figures = _table(self, "team_figures")
        self.conflicts = _table(self, "team_conflicts")
        self.tabs.addTab(self.figures, "Adjudicators")
        self.tabs.addTab(self.conflicts, "Conflicts")
        self.conflicts.cellDoubleClicked.connect(self._go_to)
        refresh = QPushButton("Refresh", self, objectName="team_refresh")
        refresh.clicked.connect(self.refresh)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.tabs)
        layout.addWidget(refresh)
        self._keys: list[tuple[str, str]] = []
        self._last = 0.0
        self._pending = False
        self.runner = BackgroundRunner(self)
        #: how many results were shown (tests wait for the next one)
        self.refreshed = 0

    def refresh(self) -> None:
        """Recompute off the GUI thread (MASC-sized, 20 adjudicators: about 0.8 s with the
        intervals); the tables change when the result is in."""
        from hieradjudicate.app.team import figures
        from hieradjudicate.io.store.pg.team import (
            adjudicator_rows,
            assigned,
            conflicts,
            lead_rows,
            require_lead,
        )

        session = self.window.session
        self._last = time.monotonic()
        if session is None:
            return

        def work(_report: Any) -> tuple[Any, Any]:
            store = session.store
            require_lead(store, "see the team's figures and conflicts")
            figs = figures(session.corpus, assigned(store), adjudicator_rows(store), lead_rows(store))
            return figs, conflicts(store), store.damaged_rows()

        self.runner.start(work, self._show, failed=lambda exc: self.note.setText(str(exc)))

    def _show(self, result: tuple[Any, Any]) -> None:
        from hieradjudicate.app.team import figures_table

        figs, queue, damaged = result
        note = getattr(getattr(self.window, "server", None), "damaged", None)
        if note is not None:  # rows written since the project was opened are named too
            note.show_rows(damaged)
        header, rows = figures_table(figs)
        _fill(self.figures, header, rows)
        _fill(self.conflicts, ["lexelt", "instance", "adjudicator", "status", "tags", "note",
                               "changed after unblinding"],
              [[c.lexelt, c.instance, c.decided_by, c.status, " ".join(json.loads(c.tags)), c.note,
                CHANGED if c.changed else ""] for c in queue])
        self._keys = [(c.lexelt, c.instance) for c in queue]
        n = len(set(self._keys))
        self.tabs.setTabText(1, f"Conflicts ({n})")
        reasons = [f"{f.name}: {r}" for f in figs for r in f.reasons]
        changed = sum(1 for c in queue if c.changed)
        self.note.setText(f"{n} instance(s) in conflict"
                          + (f" ({changed} answer(s) changed after unblinding: the answer given blind "
                             "is shown)" if changed else "")
                          + "; kappa on the overlap with BCa 95 % intervals"
                          + ("; " + "; ".join(reasons) if reasons else ""))
        self.refreshed += 1

    def decisions_arrived(self) -> None:
        """Refresh now, or once 0.8 s since the last refresh have passed (never more often)."""
        if not self.isVisible() or self._pending:
            return
        wait = REFRESH_SECONDS - (time.monotonic() - self._last)
        if wait <= 0:
            self.refresh()
            return
        self._pending = True
        QTimer.singleShot(int(wait * 1000) + 1, self._deferred)

    def _deferred(self) -> None:
        self._pending = False
        if self.isVisible():
            self.refresh()

    def _go_to(self, row: int, _column: int) -> None:
        if not 0 <= row < len(self._keys) or self.window.wb is None:
            return
        wb = self.window.wb
        i = wb.corpus.instance_index(*self._keys[row])
        if i >= 0:
            if wb.row_of(i) < 0:  # hidden by the table's filter: show everything
                self.window.clear_filter()
            self.window.ws.select_row(wb.row_of(i))
            self.window.ws.table.setFocus(Qt.FocusReason.OtherFocusReason)
