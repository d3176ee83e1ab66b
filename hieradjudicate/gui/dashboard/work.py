"""The dashboard's work that runs whether or not its tab was ever shown: no widget in here.

:class:`DashboardWork` is made when a project opens (the window owns it, through
:class:`~hieradjudicate.gui.dashboard.controller.DashboardController`); the
:class:`~hieradjudicate.gui.dashboard.dashboard.DashboardView` and its pyqtgraph
panels are built only when the Dashboard tab is first shown (building them took
about a second of every open on MASC, while the user is on the workbench).
What it holds:

* the app layer's cached figures (:class:`Dashboard`) and the decisions'
  :class:`DecisionTracker`, fed by the session's saved rows;
* the warm-up: the whole project's figures computed in the background after
  the workbench's own first figures, so that a first click on "Dashboard"
  finds them cached (its steps are kept and replayed into the tab's step box);
* the competence estimate (:class:`CompetenceEstimator`, Dawid & Skene by
  default) that feeds the workbench's competence-weighted suggestion (Shift+A),
  its uncertainty order and the live panel; the competence panel attaches to
  it when the tab is built.
"""

from __future__ import annotations

import copy
import time
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QObject, Signal

from hieradjudicate.app.dashboard.dashboard import Dashboard, DashboardData, no_agreement_text
from hieradjudicate.app.dashboard.gold import DecisionTracker
from hieradjudicate.app.memory import release_free_memory
from hieradjudicate.gui.dashboard.competence_panel import CompetenceEstimator
from hieradjudicate.gui.workers import BackgroundRunner

MEASURES = (("Cohen's κ", "cohen"), ("Scott's π", "scott"), ("Krippendorff's α", "alpha"))


class TrackerSnapshot:
    """What a background computation reads of the tracker, copied in the GUI thread (no shared state)."""

    def __init__(self, tracker: DecisionTracker) -> None:
        self.version = tracker.version
        self.status = tracker.status.copy()
        self._gold = tracker.gold_set()
        self._days = tracker.days()
        self._flagged = tracker.flagged()
        self._noted = tracker.noted()

    def gold_set(self):
        return self._gold

    def days(self):
        return self._days

    def flagged(self):
        return self._flagged

    def noted(self):
        return self._noted


def compute(dash: Dashboard, snap: TrackerSnapshot, selection: np.ndarray | None, progress: Any = None,
            **options: Any) -> DashboardData:
    """One dashboard snapshot (runs in either thread); drops cached figures of other selections.
    ``progress``: the background runner's ``report`` (each figure's step; raises once superseded)."""
    skey = None if selection is None else hash(np.asarray(selection, np.int64).tobytes())
    cache = dash._cache
    for k in list(cache):
        if isinstance(k, tuple) and k and k[-1] not in (None, skey):
            cache.pop(k, None)
    t0 = time.perf_counter()
    data = dash.compute(snap.gold_set(), selection, tracker=snap, progress=progress,  # type: ignore[arg-type]
                        **options)
    data.timings_ms["total"] = round((time.perf_counter() - t0) * 1000, 2)
    return data


def too_few_sets(dash: Dashboard) -> str:
    """Why the agreement figures (pairwise, per lexelt, by depth, confusions) cannot be computed, in a
    sentence; "" when there are two sets or more to compare (the report says the same)."""
    return no_agreement_text(dash.corpus, dash.sets, "in the panel above")


class DashboardWork(QObject):
    """See the module docstring.  ``view`` is the tab's view once built (None before)."""

    decisions_applied = Signal()  # the tracker took a decision: the view's figures are out of date
    warmed = Signal()  # the warm-up ended (its figures are cached, or it failed)

    def __init__(self, session: Any, wb: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session, self.wb = session, wb
        corpus = session.corpus
        self.dash = Dashboard(corpus, title=Path(str(getattr(session, "path", "project"))).stem)
        # the scores against a reference gold: the ones the reference panel computes (once per project)
        self.dash.reference_holder = wb
        self.share_category()
        self.ci_dash = copy.copy(self.dash)  # shares the figure cache, has its own nearest-gold state
        self.ci_dash._nearest = None
        self.tracker = DecisionTracker(corpus, session.store.iter_history())
        self.tracker.apply(session.decisions.conflicts())  # a server project's: not the latest row
        self._unsubscribe = session.decisions.subscribe(self._decisions_saved)
        self.warm = BackgroundRunner(self, background=True)  # the figures, before the tab is first shown
        self.comp = CompetenceEstimator(self, wb, None)
        self.view: Any = None
        self.warm_reports: list[tuple[int, int, str]] = []  # the warm-up's steps so far (replayed to the view)

    def share_category(self) -> None:
        """The workbench's category column as the dashboard's worst category (computed once, not twice),
        once the column is there (a crowd's is computed in the background: ``Columns.ready``)."""
        cols = self.wb.cols
        if cols.ready and cols.category_basis == "worst pair of annotators":  # not against a reference gold
            self.dash.share_worst_category(cols.annotators, cols.category)

    # ------------------------------------------------------------------ decisions
    def _decisions_saved(self, rows) -> None:
        self.tracker.apply(rows)
        self.decisions_applied.emit()

    # ------------------------------------------------------------------ the warm-up
    def prefetch(self) -> None:
        """Compute the figures in the background before the tab is first shown.

        The annotator-only figures (pairwise matrix, per-lexelt bars, depth
        curve, categories) never change while a project is open and take
        seconds on a crowd (MASC: about 1.5 s of numpy); computed while the
        user reads the workbench, a click on "Dashboard" draws at once.  A
        refresh asked for meanwhile waits for this job and finds them cached.
        The options are the tab's defaults (its first measure, no intervals):
        the first refresh asks for the same cached figures.
        """
        v = self.view
        if self.warm.busy or (v is not None and (v.data is not None or v.fast.busy or v.isVisible())):
            return
        self.share_category()
        snap = TrackerSnapshot(self.tracker)
        opts = {"measure": MEASURES[0][1], "n_resamples": 0, "intervals": False}
        self.warm_reports = []
        self.warm.start(lambda r: compute(self.dash, snap, None, r, **opts), self._warmed,
                        failed=lambda _e: self._warmed(None),  # a real failure shows when the tab computes
                        progress=self._warm_report)

    def _warm_report(self, done: int, total: int, what: str) -> None:
        self.warm_reports.append((done, total, what))
        if self.view is not None:
            self.view.first.report(done, total, what)

    def _warmed(self, _data: Any) -> None:
        # the warm-up thread's freed temporaries stay in its malloc arena (MASC: ~27 MiB) unless
        # handed back: the competence estimate that follows would start from there
        release_free_memory()
        self.warmed.emit()
        self.request_competence()

    # ------------------------------------------------------------------ competence
    def request_competence(self, then: Any = None, *, again: bool = False) -> None:
        """Estimate annotator competence off the GUI thread (see :class:`CompetenceEstimator`)."""
        self.comp.request(then, again=again)

    @property
    def competence(self) -> Any:
        return self.comp.result

    @property
    def estimator(self) -> BackgroundRunner:
        return self.comp.runner

    def shutdown(self) -> None:
        self._unsubscribe()
        runners = (self.warm, self.estimator)
        for r in runners:
            r.cancel()
        for r in runners:
            r.wait(30_000)
