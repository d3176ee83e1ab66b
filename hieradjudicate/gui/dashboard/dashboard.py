"""The dashboard tab: every agreement figure of the project, live, with the instances behind it.

:class:`DashboardView` is built when the tab is first shown (its panels in
slices, each named in its step box; see :meth:`DashboardView.build_all`).  It works
on a :class:`~hieradjudicate.gui.dashboard.work.DashboardWork`, made at open:
the app layer's cached figures, the decisions' tracker, the warm-up and the
competence estimate, which run whether or not the tab was ever shown.
After a decision, or when the workbench filter changes (scope "workbench
filter"), the figures are recomputed: in the GUI thread when the last such
computation took under :data:`SYNC_MS`, else off it (a
:class:`BackgroundRunner`; its generation counter drops stale results).
Bootstrap intervals of the gold-dependent figures are slow on a large gold
(~20 s at 100,000 instances): they run in a second runner on demand
("Compute intervals"), automatically for projects under :data:`AUTO_CI_MAX`
instances, and the panel titles say whether they are shown.  Until the
first figures are drawn, :class:`FirstFigures` names each one being computed
over a bar (the computation's own steps, see ``Dashboard.compute``).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QListWidgetItem, QWidget

from hieradjudicate.app.dashboard.dashboard import DashboardData
from hieradjudicate.app.memory import release_free_memory
from hieradjudicate.app.workbench.reference import reference_golds
from hieradjudicate.gui.dashboard.common import Panel
from hieradjudicate.gui.dashboard.competence_panel import CompetencePanel
from hieradjudicate.gui.dashboard.first_figures import FirstFigures
from hieradjudicate.gui.dashboard.frame import build_frame
from hieradjudicate.gui.dashboard.gold_plots import (
    ComparisonPanel,
    GoldPanel,
    ProgressPanel,
    ScoresPanel,
)
from hieradjudicate.gui.dashboard.heatmap import HeatmapPanel
from hieradjudicate.gui.dashboard.plots import ConfusionPanel, DepthPanel, LexeltPanel
from hieradjudicate.gui.dashboard.reference import ReferencePanel
from hieradjudicate.gui.dashboard.runs_panel import RunsPanel, follow_policy
from hieradjudicate.gui.dashboard.significance_panel import SignificancePanel
from hieradjudicate.gui.dashboard.work import DashboardWork, TrackerSnapshot, compute, too_few_sets
from hieradjudicate.gui.workers import BackgroundRunner

SYNC_MS = 50.0
AUTO_CI_MAX = 20_000
RESAMPLES = 1000
LIST_LIMIT = 5000


def _say_why_not(panel: Any, why: str) -> None:
    """Show ``why`` (a sentence) in place of the panel's plots, or the plots again when ``why`` is ""."""
    label = panel.findChild(QLabel, "why_not")
    if label is None and not why:
        return
    if label is None:
        label = QLabel(objectName="why_not", wordWrap=True)
        label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        panel.body.insertWidget(2, label)  # under the title and the selectors
    label.setText(why)
    label.setVisible(bool(why))
    for plot in panel.plots:
        plot.setVisible(not why)
    note = getattr(panel, "note", None)  # a line about the plot's lines ("solid line: pooled ...") goes with it
    if isinstance(note, QLabel):
        note.setVisible(not why)


#: a refresh asked while a crowd's late columns are still computed looks again this often (ms) ...
COLUMNS_POLL_MS = 100
#: ... for this long at most (ms), then computes the figures itself
COLUMNS_WAIT_MS = 20_000


class DashboardView(QWidget):
    """The Dashboard tab (see the module docstring)."""

    pair_requested = Signal(int, int)  # set indices: filter the workbench to their disagreements
    lexelt_requested = Signal(int)
    instance_requested = Signal(int)

    def __init__(self, work: DashboardWork, parent: QWidget | None = None, *, progress: Any = None) -> None:
        """The controls, the side panel and the step box now (no pyqtgraph plot); the panels by
        :meth:`build_all`.  ``progress(done, total, what)`` hears each slice as well as the step box."""
        super().__init__(parent)
        self.setObjectName("dashboard")
        self.work, self.session, self.wb = work, work.session, work.wb
        self.dash, self.ci_dash, self.tracker = work.dash, work.ci_dash, work.tracker
        self.comp, self.warm = work.comp, work.warm
        self.fast = BackgroundRunner(self)
        self.slow = BackgroundRunner(self)
        self.reporter = BackgroundRunner(self)
        self.data: DashboardData | None = None
        self.auto_ci = self.session.corpus.n <= AUTO_CI_MAX
        self._ci_ready: set[Any] = set()  # (measure kind, selection key) with lexelt intervals cached
        self._gold_ci = False
        self._sync_ms: dict[Any, float] = {}
        self._dirty = True
        self._refresh_after_warm = False
        self._columns_wait = 0  # ms a refresh has waited for a crowd's late columns (see _wait_for_columns)
        self._columns_poll_on = False
        self.conf_opts: dict[str, Any] = {}
        self.last: dict[str, float] = {}
        self.panels: list[Panel] = []
        self.reference: ReferencePanel | None = None
        self._runs_followed = False
        self._tell = progress or (lambda _done, _total, _what: None)
        self.grid = build_frame(self)  # the controls, the side panel; the grid the panels go into
        self.first = FirstFigures(self)  # the steps and a bar until the first figures are drawn
        for report in work.warm_reports:  # the warm-up's steps so far: the box goes on from them
            self.first.report(*report)
        self._slices = [self._build_agreement, self._build_gold, self._build_systems, self._build_grid]
        self.first.step.setText("Building the dashboard's panels")  # each slice is told when it starts
        self._update_ci_state()
        work.view = self
        work.decisions_applied.connect(self.decisions_saved)
        work.warmed.connect(self._warmed)

    # ------------------------------------------------------------------ widgets
    @property
    def built(self) -> bool:
        return not self._slices

    def build_all(self) -> None:
        """Build the panels, slice by slice, each named in the step box (painted at once: the GUI thread
        is busy until the last slice; MASC: about a second in all), then compute and draw the figures."""
        total = len(self._slices)
        names = ("heat map, per-lexelt bars, depth curve", "confusions, gold, scores",
                 "competence, significance, runs", "laying them out")
        while self._slices:
            k = total - len(self._slices)
            what = f"Building the dashboard's panels: {names[k]}"
            self._tell(k, total, what)
            self.first.building(what)
            self._slices[0]()
            self._slices.pop(0)
        self._tell(total, total, "The dashboard's panels are built")
        if self.isVisible():
            self.refresh()

    def _build_agreement(self) -> None:
        self.heatmap, self.lexelts, self.depth_panel = HeatmapPanel(), LexeltPanel(), DepthPanel()

    def _build_gold(self) -> None:
        self.confusion, self.gold, self.scores = ConfusionPanel(), GoldPanel(), ScoresPanel()
        self.comparison, self.progress = ComparisonPanel(), ProgressPanel()

    def _build_systems(self) -> None:
        self.competence_panel = CompetencePanel()
        self.work.comp.attach(self.competence_panel)  # the estimate may be under way, or there
        self.significance, self.runs = SignificancePanel(), RunsPanel(self.session)
        self.significance.instance_opened.connect(self.instance_requested)
        self.runs.instance_opened.connect(self.instance_requested)
        self.significance.policy.currentTextChanged.connect(lambda p: follow_policy(self.runs, p))
        # a gold given as input: the systems' scores against it come first, across the grid
        self.reference = ReferencePanel(self.wb) if reference_golds(self.session.corpus) else None

    def _build_grid(self) -> None:
        grid = self.grid
        self.panels = [self.heatmap, self.lexelts, self.depth_panel, self.confusion, self.progress,
                       self.gold, self.scores, self.comparison, self.competence_panel,
                       self.significance, self.runs]
        heights = (320, 320, 360, 420, 300, 640)  # two rows fill a 1280x800 window; the rest scrolls
        top_row = 0 if self.reference is None else 1
        if self.reference is not None:
            self.reference.setFixedHeight(300)
            self.reference.explain_requested.connect(self.show_explain)
            grid.addWidget(self.reference, 0, 0, 1, 2)
        for k, p in enumerate(self.panels):
            p.setMinimumWidth(250)  # two columns fit a 1024 px window (#23)
            if p is self.competence_panel:  # alone on its row: both plots side by side
                p.setFixedHeight(heights[4])
                grid.addWidget(p, top_row + 4, 0, 1, 2)
            elif p is self.significance or p is self.runs:  # the systems' row after it
                p.setFixedHeight(heights[5])
                grid.addWidget(p, top_row + 5, 0 if p is self.significance else 1)
            else:
                p.setFixedHeight(heights[k // 2])
                grid.addWidget(p, top_row + k // 2, k % 2)
            p.explain_requested.connect(self.show_explain)
            p.instances_requested.connect(self.show_instances)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        self.heatmap.cell_clicked.connect(self._cell_clicked)
        self.lexelts.lexelt_clicked.connect(self.lexelt_requested)
        self.confusion.selection_changed.connect(self._confusion_changed)
        self.first.raise_()  # over the panels just laid out

    # ------------------------------------------------------------------ inputs
    @property
    def updating(self) -> bool:
        return self.fast.busy or self._refresh_after_warm or self._columns_poll_on

    def selection(self) -> np.ndarray | None:
        if not self.scope.currentData() or self.wb.view.size == self.wb.corpus.n:
            return None
        return np.sort(self.wb.view)

    def _key(self, selection: np.ndarray | None) -> Any:
        return (self.measure.currentData() == "alpha",
                None if selection is None else hash(np.asarray(selection, np.int64).tobytes()))

    def options(self, selection: np.ndarray | None) -> dict[str, Any]:
        ready = self._key(selection) in self._ci_ready
        return {"measure": self.measure.currentData(), "n_resamples": RESAMPLES if ready else 0,
                "intervals": False, **self.conf_opts}

    def decisions_saved(self) -> None:
        """The work's tracker took a decision (see :class:`DashboardWork`)."""
        self._gold_ci = False
        self.refresh()

    def filter_changed(self) -> None:
        if self.scope.currentData():
            self.refresh()

    def showEvent(self, ev) -> None:
        super().showEvent(ev)
        if not self.built:
            self.first.waiting()  # the panels are being built: the box says which
        elif self._dirty:
            self.refresh()

    # ------------------------------------------------------------------ computing
    def _warmed(self) -> None:
        if self._refresh_after_warm:  # the tab was shown meanwhile: its figures are cached now
            self._refresh_after_warm = False
            self.refresh()

    def request_competence(self, then: Any = None, *, again: bool = False) -> None:
        self.work.request_competence(then, again=again)

    @property
    def competence(self) -> Any:
        return self.work.competence

    @property
    def estimator(self) -> BackgroundRunner:
        return self.work.estimator

    def refresh(self, *, force_sync: bool = False) -> None:
        """Recompute every figure (now if that was fast last time, else in the background)."""
        if not self.built or (not self.isVisible() and not force_sync):
            self._dirty = True  # computed when the tab is shown (its panels built)
            return
        if self.warm.busy and not force_sync:  # the warm-up computes these figures: wait for it
            self._refresh_after_warm = True
            self.state.setText("updating…")
            self.first.waiting()
            return
        if not force_sync and self._wait_for_columns():
            return
        self._dirty = False
        sel = self.selection()
        opts = self.options(sel)
        snap = TrackerSnapshot(self.tracker)
        key = (self._key(sel), tuple(sorted((k, str(v)) for k, v in opts.items())))
        if force_sync or self._sync_ms.get(key, 1e9) < SYNC_MS:
            self.fast.cancel()
            self._apply(compute(self.dash, snap, sel, **opts), key)
        else:
            self.state.setText("updating…")
            self.fast.start(lambda r: compute(self.dash, snap, sel, r, **opts),
                            lambda d: self._computed(d, key), failed=self._failed, progress=self.first.report)
            if self.data is None:
                self.first.waiting()
        if self.auto_ci and not (self._gold_ci and self._key(sel) in self._ci_ready):
            self.request_intervals()

    def _wait_for_columns(self) -> bool:
        """Whether this refresh waits for a crowd's late columns, computed in the background after the
        project opened (:data:`COLUMNS_POLL_MS`, at most :data:`COLUMNS_WAIT_MS`).  Once they are there the
        dashboard takes their worst category as its own instead of computing it again beside them: on
        MASC, the tab clicked a few seconds after opening made that second pass over 1.08 M answers,
        beside the columns' own, and the two made the window's peak."""
        if self.wb.cols.ready or self._columns_wait >= COLUMNS_WAIT_MS:
            self.work.share_category()
            return False
        if not self._columns_poll_on:
            self._columns_poll_on = True
            QTimer.singleShot(COLUMNS_POLL_MS, self, self._columns_poll)
        self.state.setText("updating…")
        if self.data is None:
            self.first.waiting()
        return True

    def _columns_poll(self) -> None:
        self._columns_poll_on = False
        self._columns_wait += COLUMNS_POLL_MS
        self.refresh()

    def request_intervals(self) -> None:
        """Bootstrap intervals of every figure for the current scope, off the GUI thread."""
        sel = self.selection()
        opts = {**self.options(sel), "n_resamples": RESAMPLES, "intervals": True}
        snap = TrackerSnapshot(self.tracker)
        key = self._key(sel)
        self.ci_state.setText("computing intervals…")
        self.ci_button.setEnabled(False)
        self.slow.start(lambda _r: compute(self.ci_dash, snap, sel, **opts),
                        lambda d: self._intervals_done(d, key, snap.version), failed=self._failed)

    def _intervals_done(self, data: DashboardData, key: Any, version: int) -> None:
        release_free_memory()  # the bootstrap's freed temporaries leave its thread's malloc arena
        self.ci_button.setEnabled(True)
        self._ci_ready.add(key)
        if key == self._key(self.selection()) and version == self.tracker.version:
            self._gold_ci = True
            self._apply(data, None)
        else:
            self.refresh()  # per-lexelt intervals now cached; gold intervals are out of date
        self._update_ci_state()

    def _computed(self, data: DashboardData, key: Any) -> None:
        release_free_memory()  # the worker's freed temporaries leave its thread's malloc arena
        self._apply(data, key)

    def _apply(self, data: DashboardData, key: Any) -> None:
        self.first.drawing()
        t0 = time.perf_counter()
        self.data = data
        if self.competence is None and not self.estimator.busy:  # after the figures: not competing with them
            self.request_competence()
        if self.confusion.pair_box.count() == 0:
            names = [s.name for s in self.dash.corpus.sets]
            sets = self.dash.sets
            # pairs sharing instances, most shared first (a crowd has 25,878 pairs, most sharing nothing)
            pairs = self.dash.pairs_by_shared(sets, limit=500) if len(sets) > 30 else \
                [(a, b) for i, a in enumerate(sets) for b in sets[i + 1:]]
            levels = [(lv, d) for lv, d in zip(data.depth.levels, data.depth.depths)]
            self.confusion.fill_choices(names, pairs, list(self.dash.corpus.inventory.lexelts), levels)
        for p in self.panels:
            p.update_data(data.confusion if p is self.confusion else data)  # type: ignore[attr-defined]
        # the stored runs are scored under the paired panel's policy from the start (its box is filled
        # with its signals blocked): one policy, one set of figures in both panels (#31 item 4); later
        # the paired panel's changes are followed, and a choice in the runs panel is kept
        if not self._runs_followed and self.significance.policy.currentText():
            self._runs_followed = True
            follow_policy(self.runs, self.significance.policy.currentText())
        why = too_few_sets(self.dash)
        for p in (self.heatmap, self.lexelts, self.depth_panel, self.confusion):
            _say_why_not(p, why)  # an empty plot never stands without its reason
        if data.confusion is not None:
            self.confusion.show_choice(data.confusion, data.options.confusion_pair or data.confusion.pair
                                       or (self.dash.group[0], self.dash.group[1]))
        total = data.timings_ms.get("total", 0.0)
        if key is not None:
            self._sync_ms[key] = total
        elif self.last:
            total = self.last.get("compute_ms", total)  # intervals took longer, in the background
        self.last = {"compute_ms": total, "draw_ms": (time.perf_counter() - t0) * 1000}
        scope = ("whole project" if data.selection_n == self.dash.corpus.n
                 else f"{data.selection_n} of {self.dash.corpus.n} instances (workbench filter)")
        self.state.setText(f"{scope} · {data.gold_n} resolved · computed in {total:.0f} ms, drawn in "
                           f"{self.last['draw_ms']:.0f} ms")
        self._update_ci_state()
        self.first.done()

    def _update_ci_state(self) -> None:
        lex = self._key(self.selection()) in self._ci_ready
        if self.slow.busy:
            return
        if lex and self._gold_ci:
            text = "intervals shown"
        elif lex:
            text = "score intervals out of date" if self.data is not None and self.data.gold_n else "intervals shown"
        else:
            text = "no intervals yet"
        self.ci_state.setText(text + (" · updated automatically" if self.auto_ci else ""))

    def _failed(self, exc: BaseException) -> None:
        from hieradjudicate.app.logs import log_exception

        self.ci_button.setEnabled(True)
        self.first.done()  # the reason shows in the state line
        self.state.setText(f"could not compute the figures ({type(exc).__name__}: {exc}); see the log")
        log_exception(exc)

    def _confusion_changed(self) -> None:
        self.conf_opts = self.confusion.choice()
        self.refresh()

    # ------------------------------------------------------------------ clicks
    def _cell_clicked(self, r: int, c: int) -> None:
        if self.data is not None:
            idx = self.data.heatmap.set_indices
            self.pair_requested.emit(int(idx[r]), int(idx[c]))

    def show_explain(self, title: str, text: str) -> None:
        self.explain.setPlainText(f"{title}\n\n{text}" if text else title)

    def show_instances(self, what: str, idx: Any) -> None:
        idx = np.asarray(idx, np.int64)
        self.list_title.setText(f"<b>{len(idx)} instance(s)</b>: {what}"
                                + (f" (first {LIST_LIMIT})" if len(idx) > LIST_LIMIT else ""))
        self.instances.clear()
        key = self.dash.corpus.instance_key
        for i in idx[:LIST_LIMIT]:
            lx, inst = key(int(i))
            item = QListWidgetItem(f"{lx}  {inst}")
            item.setData(Qt.ItemDataRole.UserRole, int(i))
            self.instances.addItem(item)

    def _open_item(self, item: QListWidgetItem) -> None:
        self.instance_requested.emit(int(item.data(Qt.ItemDataRole.UserRole)))

    # ------------------------------------------------------------------ exports
    def export_plots(self, folder: str | Path) -> list[Path]:
        out_dir = Path(folder)
        out_dir.mkdir(parents=True, exist_ok=True)
        return [p for panel in self.panels for p in panel.export_png(out_dir / f"{panel.key}.png")]

    def export_tables(self, folder: str | Path, fmt: str = "csv") -> list[Path]:
        from hieradjudicate.app.report.html import export_tables

        if self.data is None:
            self.refresh(force_sync=True)
        assert self.data is not None
        return export_tables(self.data, folder, fmt)

    def report_data(self) -> DashboardData:
        """The whole project's figures with every interval (the report's content; slow on large projects)."""
        opts = {**self.options(None), "n_resamples": RESAMPLES, "intervals": True}
        return compute(self.ci_dash, TrackerSnapshot(self.tracker), None, **opts)

    def export_report(self, path: str | Path, done=None, failed=None, *, wait: bool = False,
                      left_out: tuple[str, ...] = ()) -> None:
        """Write the HTML report of the whole project in the background (``done(path)`` afterwards);
        ``left_out`` names the decisions that failed their checksum (the report says so at its top)."""
        from hieradjudicate.app.report.html import write_report

        snap = TrackerSnapshot(self.tracker)
        opts = {**self.options(None), "n_resamples": RESAMPLES, "intervals": True}
        title = f"Agreement report: {self.dash.title}"

        def job(_r):
            return write_report(compute(self.ci_dash, snap, None, **opts), path, title=title,
                                left_out=left_out)

        self.reporter.start(job, done or (lambda _p: None), failed=failed or self._failed)
        if wait:
            self.reporter.wait()

    def shutdown(self) -> None:
        """Stop the tab's own jobs (the work's warm-up and estimate stop with it: :meth:`DashboardWork.shutdown`)."""
        runners = (self.fast, self.slow, self.reporter)
        for r in runners:
            r.cancel()
        for r in runners:
            r.wait(30_000)
        if self.reference is not None:
            self.reference.shutdown()
