"""Live figures: agreement of the current filter, each set's score against the gold so far, progress.

The figures are computed off the GUI thread (:class:`~hieradjudicate.gui.workers.BackgroundRunner`)
from a snapshot of the workbench: the table never waits for them.  While
they are computed the panel says "updating…"; a result that a newer filter
or decision has made stale is dropped (the runner's generation counter).
Progress counts are cheap and shown at once.
"""

from __future__ import annotations

import html
import time

from PySide6.QtWidgets import QCheckBox, QFormLayout, QLabel, QProgressBar, QVBoxLayout, QWidget

from hieradjudicate.app.logs import log_exception
from hieradjudicate.app.workbench.live import (
    AgreementFigures,
    LiveFigures,
    LiveInputs,
    live_figures,
)
from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.core.undefined import Estimate
from hieradjudicate.gui.workers import BackgroundRunner

UPDATING = "updating…"


def fmt(e: Estimate) -> str:
    return f"{e.value:.3f}" if e.value is not None else "undefined"


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
        self.include_systems.setVisible(any(s.role == "system" for s in wb.corpus.sets))
        self.include_systems.toggled.connect(lambda _on: self.refresh_agreement())
        self.kappa = QLabel()
        self.kappa.setObjectName("live_kappa")
        self.alpha = QLabel()
        self.alpha.setObjectName("live_alpha")
        self.cohen = QLabel()
        self.progress = QProgressBar()
        self.progress.setObjectName("live_progress")
        self.progress.setFormat("%v of %m resolved")
        self.counts = QLabel()
        self.counts.setWordWrap(True)
        self.scores = QLabel()
        self.scores.setObjectName("live_scores")
        self.state = QLabel()
        self.state.setObjectName("live_state")
        self.state.setStyleSheet("color: gray")
        form = QFormLayout()
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
        lay.addWidget(QLabel("<b>Score against the gold so far</b>"))
        lay.addWidget(self.scores)
        lay.addWidget(self.state)
        lay.addStretch(1)
        self.figures: AgreementFigures | None = None
        self.runner = BackgroundRunner(self)
        self._agreement_due = False
        self._asked_at = 0.0
        self.last_latency_ms: float | None = None  # request -> figures shown (benchmarks)

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
        self.progress.setMaximum(max(p["total"], 1))
        self.progress.setValue(p["resolved"])
        rem = self.wb.remaining_categories()
        self.counts.setText(f"{p['unresolved']} unresolved, {p['flagged']} flagged, {p['skipped']} skipped"
                            + ("<br>left: " + ", ".join(f"{v} {k}" for k, v in rem.items()) if rem else ""))
        inputs = LiveInputs.of(self.wb, with_agreement=self._agreement_due,
                               include_systems=self.include_systems.isChecked())
        wb = self.wb
        self._asked_at = time.perf_counter()
        self.state.setText(UPDATING)
        self.runner.start(lambda report: live_figures(wb, inputs), self._show, failed=self._failed)

    def _show(self, result: LiveFigures) -> None:
        f = result.agreement
        if f is not None:
            self._agreement_due = False
            self.figures = f
            self.scope.setText(f"<b>Annotator agreement</b> on the {f.n_instances} instances shown"
                               f"<br><small>{html.escape(f.note)}</small>")
            self.scope.setToolTip(f.note)
            self.kappa.setText(fmt(f.fleiss))
            self.kappa.setToolTip(f.fleiss.reason or "soft Fleiss kappa over leaf distributions")
            self.alpha.setText(fmt(f.alpha))
            self.cohen.setText(fmt(f.mean_cohen))
        rows = []
        for s in result.scores:
            v = "–" if s.precision is None else f"{s.precision:.3f}"
            rows.append(f"<tr><td>{s.name}</td><td style='color:gray'>{s.role}</td>"
                        f"<td align=right>{v}</td><td style='color:gray'>n={s.n_scored}</td></tr>")
        self.scores.setText("<table cellspacing=3>" + "".join(rows) + "</table>")
        self.state.setText("")
        self.last_latency_ms = (time.perf_counter() - self._asked_at) * 1000

    def _failed(self, exc: BaseException) -> None:
        path = log_exception(exc)
        self.state.setText(f"figures unavailable ({type(exc).__name__}); see {path}")

    def shutdown(self) -> None:
        """Drop pending figures and wait for a running computation (before the project closes)."""
        self.runner.cancel()
        self.runner.wait()
