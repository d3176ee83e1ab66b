"""The Timeline tab's team part (issue 32), for the lead of a project on a server: per adjudicator
and point, speed, overturn rate and kappa on the overlap, and each one's forecast.

The figures are :func:`hieradjudicate.app.timeline.team.team_timeline` (``project timeline URL
--measure people``); the rows are read in the GUI thread (the store's connection stays there), the
figures computed off it.  Hidden for a file project and for any login but the lead's.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QAbstractItemView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from hieradjudicate.core.errors import HieradjError
from hieradjudicate.gui.workers import BackgroundRunner

HEADER = ["point", "adjudicator", "decisions", "decided", "overturn rate", "overlap pairs",
          "changed after unblinding", "kappa (Cohen) 95% CI", "kappa (Scott) 95% CI"]


def _fig(f: Any, pct: bool = False) -> str:
    if f.value is None:
        return "—"
    if pct:
        return f"{100 * f.value:.1f}% (n = {f.n})"
    if f.low is not None and f.high is not None:
        return f"{f.value:.3f} [{f.low:.3f}, {f.high:.3f}]"
    return f"{f.value:.3f}"


class TeamTimelinePanel(QWidget):
    """See the module."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("timeline_team")
        self.title = QLabel("<b>Adjudicators over time</b> (the figures of project progress at the end of each point)",
                            objectName="timeline_team_title")
        self.table = QTableWidget(objectName="timeline_team_table")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.forecasts = QLabel(objectName="timeline_team_forecasts", wordWrap=True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.title)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.forecasts)
        self.runner = BackgroundRunner(self)
        self.timeline: Any = None
        self.generation = 0
        self.hide()

    def refresh(self, session: Any, by: str | int, n_resamples: int) -> None:
        store = session.store
        if "lead" not in getattr(store, "roles", ()):
            self.hide()
            return
        from hieradjudicate.app.timeline.team import team_timeline
        from hieradjudicate.io.store.pg.team import adjudicator_rows, assigned, lead_rows

        try:
            rows = assigned(store), adjudicator_rows(store), lead_rows(store)
        except HieradjError as exc:
            self.forecasts.setText(f"No team figures: {exc}")
            self.show()
            return
        self.generation += 1
        gen, corpus = self.generation, session.corpus
        self.forecasts.setText("Computing the adjudicators' figures...")
        self.show()
        self.runner.start(lambda _r: team_timeline(corpus, *rows, by=by, n_resamples=n_resamples),
                          lambda t: self._show(gen, t),
                          failed=lambda exc: self.forecasts.setText(f"The team figures could not be computed: {exc}"))

    def _show(self, gen: int, t: Any) -> None:
        if gen != self.generation:
            return
        self.timeline = t
        lines = [[p.label, who, str(q.decisions), str(q.decided), _fig(q.overturn, pct=True), str(q.overlap_pairs),
                  str(q.changed_after_open), _fig(q.cohen), _fig(q.scott)]
                 for p in t.points for who, q in p.people.items()]
        self.table.clear()
        self.table.setColumnCount(len(HEADER))
        self.table.setHorizontalHeaderLabels(HEADER)
        self.table.setRowCount(len(lines))
        for r, line in enumerate(lines):
            for c, text in enumerate(line):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        out = []
        for f in t.forecasts:
            if f.open == 0:
                out.append(f"{f.name}: all {f.assigned} decided")
            elif f.expected:
                ci = f" (95% interval {f.earliest} to {f.latest or 'open-ended'})" if f.earliest else ""
                out.append(f"{f.name}: {f.open} of {f.assigned} open at {f.forecast.per_day:.1f} a day, done about "
                           f"<b>{f.expected}</b>{ci}")
            else:
                out.append(f"{f.name}: {f.open} of {f.assigned} open; {f.forecast.why or 'done'}")
        self.forecasts.setText("Forecast per adjudicator: " + "; ".join(out) + f". <i>{t.note}</i>")
