"""Live figures: agreement of the current filter, each set's score against the gold so far, progress."""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QLabel, QProgressBar, QVBoxLayout, QWidget

from hieradjudicate.app.live import AgreementFigures, agreement_figures, set_scores
from hieradjudicate.app.workbench import Workbench
from hieradjudicate.core.undefined import Estimate


def fmt(e: Estimate) -> str:
    return f"{e.value:.3f}" if e.value is not None else "undefined"


class LivePanel(QWidget):
    def __init__(self, wb: Workbench, parent=None) -> None:
        super().__init__(parent)
        self.wb = wb
        self.scope = QLabel()
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
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Fleiss κ", self.kappa)
        form.addRow("Krippendorff α", self.alpha)
        form.addRow("mean Cohen κ", self.cohen)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.addWidget(self.scope)
        lay.addLayout(form)
        lay.addWidget(self.progress)
        lay.addWidget(self.counts)
        lay.addWidget(QLabel("<b>Score against the gold so far</b>"))
        lay.addWidget(self.scores)
        lay.addStretch(1)
        self.figures: AgreementFigures | None = None

    def refresh_agreement(self) -> None:
        """After a filter change: agreement of the annotators on the filtered instances."""
        f = agreement_figures(self.wb)
        self.figures = f
        self.scope.setText(f"<b>Annotator agreement</b> on the {f.n_instances} instances shown")
        self.kappa.setText(fmt(f.fleiss))
        self.kappa.setToolTip(f.fleiss.reason or "soft Fleiss kappa over leaf distributions")
        self.alpha.setText(fmt(f.alpha))
        self.cohen.setText(fmt(f.mean_cohen))
        self.refresh_decisions()

    def refresh_decisions(self) -> None:
        """After a decision: progress and scores."""
        p = self.wb.progress()
        self.progress.setMaximum(max(p["total"], 1))
        self.progress.setValue(p["resolved"])
        rem = self.wb.remaining_categories()
        self.counts.setText(f"{p['unresolved']} unresolved, {p['flagged']} flagged, {p['skipped']} skipped"
                            + ("<br>left: " + ", ".join(f"{v} {k}" for k, v in rem.items()) if rem else ""))
        rows = []
        for s in set_scores(self.wb):
            v = "–" if s.precision is None else f"{s.precision:.3f}"
            rows.append(f"<tr><td>{s.name}</td><td style='color:gray'>{s.role}</td>"
                        f"<td align=right>{v}</td><td style='color:gray'>n={s.n_scored}</td></tr>")
        self.scores.setText("<table cellspacing=3>" + "".join(rows) + "</table>")
