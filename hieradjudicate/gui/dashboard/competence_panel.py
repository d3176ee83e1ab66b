"""The dashboard's competence panel: whom to trust, and which instances are hard.

Left, every annotator set's competence (sorted) with its standard error as
one scatter item and one error-bar item, whatever the crowd; hover names the
set.  Right, the histogram of the instances' posterior entropy; a click on a
bar lists its instances (most uncertain first) in the side panel.  The
estimate (:func:`hieradjudicate.app.dashboard.competence.estimate`) is made
off the GUI thread; until it arrives the panel says so.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel

from hieradjudicate.app.dashboard.competence import KEPT, MODELS, convergence_text, estimate
from hieradjudicate.core.errors import NotIdentifiable
from hieradjudicate.core.palette import GOLD_COLOR, mix
from hieradjudicate.gui.dashboard.common import (
    Panel,
    make_plot,
    nearest_slot,
    set_ticks,
    theme,
    tip,
    view_pos,
)
from hieradjudicate.gui.workers import BackgroundRunner

#: Dawid & Skene's worker processes, started by the window, run at this lower CPU priority (nice)
BACKGROUND_NICE = 10


class CompetencePanel(Panel):
    """Competence per set (sorted, +/- s.e.) and the difficulty histogram with drill-down."""

    model_changed = Signal(str)  # "ds" or "mace": estimate again with that model

    def __init__(self, parent=None) -> None:
        super().__init__("competence", "Annotator competence and instance difficulty", parent)
        self.model_box = QComboBox(objectName="competence_model")
        self.model_box.addItem("Dawid & Skene", "ds")
        self.model_box.addItem("MACE", "mace")
        self.model_box.setToolTip("The competence model: Dawid & Skene (a confusion matrix per annotator and "
                                  "lexelt) or MACE (each annotator knows the sense or spams)")
        self.model_box.currentIndexChanged.connect(lambda _: self.model_changed.emit(self.model_box.currentData()))
        self.controls.addWidget(QLabel("Model"))
        self.controls.addWidget(self.model_box)
        self.controls.addStretch(1)
        self.status = QLabel("Competence not estimated yet: it is computed in the background.")
        self.status.setObjectName("competence_status")
        self.status.setWordWrap(True)
        self.body.addWidget(self.status)
        row = QHBoxLayout()  # the two plots side by side: the panel spans the dashboard's width
        self.body.addLayout(row, 1)
        self.sets_plot = make_plot()
        self.hist_plot = make_plot()
        self.plots += [self.sets_plot, self.hist_plot]
        row.addWidget(self.sets_plot, 3)
        row.addWidget(self.hist_plot, 2)
        # the figure explains itself before its estimate is in (the estimate runs in the background
        # and can take a while on a crowd); the model's own method text replaces this when it is
        self.set_explain("Each annotator set's estimated competence (left) and how uncertain each "
                         "instance's sense is (right: the entropy of its posterior over the senses), by "
                         "the model chosen in the box. The estimate is computed in the background; its "
                         "method, stopping rule and distance from the fixed point are given here once "
                         "it is done.")
        self.sets_plot.setMouseEnabled(x=False, y=False)
        self.sets_plot.getAxis("left").setLabel("competence")
        self.sets_plot.getAxis("bottom").setLabel("annotator sets, sorted")
        fg = theme()["fg"]
        self.errors = pg.ErrorBarItem(x=np.zeros(0), y=np.zeros(0), pen=pg.mkPen(theme()["muted"]))
        self.points = pg.ScatterPlotItem(size=6, brush=pg.mkBrush(fg), pen=None)
        self.sets_plot.addItem(self.errors)
        self.sets_plot.addItem(self.points)
        self.hist_plot.setMouseEnabled(x=False, y=False)
        # short enough for the plot's width at 1024 px ("… 0 = the model is su" was cut)
        self.hist_plot.getAxis("bottom").setLabel("posterior entropy (bits; 0 = sure)")
        self.hist_plot.getAxis("left").setLabel("instances")
        self.hist = pg.BarGraphItem(x=[], height=[], width=0.1)
        self.hist_plot.addItem(self.hist)
        self.comp: Any = None
        self._order = np.zeros(0, np.int64)
        self.sets_plot.scene().sigMouseMoved.connect(self._moved)
        self.hist_plot.scene().sigMouseClicked.connect(self._clicked)
        self.set_pending(self.status.text())

    def update_data(self, data: Any) -> None:  # the agreement figures do not change this panel
        return

    def set_pending(self, text: str, why: str = "Not estimated yet: the estimate is made in the background "
                    "(its progress is on the line above)") -> None:
        """``text`` on the status line; until a first estimate is drawn, ``why`` over both plots (not
        axes from -400 to 400)."""
        self.status.setText(text)
        if self.comp is None:
            self.set_empty(why)

    def set_competence(self, comp: Any) -> None:
        self.comp = comp
        self.set_empty(None)
        order = np.argsort(np.nan_to_num(comp.competence, nan=-1.0), kind="stable")
        self._order = order
        x = np.arange(order.size, dtype=float)
        y = comp.competence[order]
        se = np.nan_to_num(comp.stderr[order])
        ok = np.isfinite(y)
        self.points.setData(x=x[ok], y=y[ok])
        self.errors.setData(x=x[ok], y=y[ok], top=se[ok], bottom=se[ok], beam=0.0 if order.size > 40 else 0.3)
        self.sets_plot.setXRange(-0.8, max(order.size - 0.2, 1.0), padding=0)
        if order.size <= 40:  # few sets: their names under their points; a crowd: ranks (hover names them)
            set_ticks(self.sets_plot, "bottom", [comp.names[int(k)] for k in order])
            self.sets_plot.getAxis("bottom").setLabel("annotator sets, by competence")
        else:
            self.sets_plot.getAxis("bottom").setTicks(None)
            self.sets_plot.getAxis("bottom").setLabel("annotator sets, by competence (rank; hover for the name)")
        self.sets_plot.setYRange(0.0, 1.0, padding=0.03)
        edges = comp.hist_edges
        width = float(edges[1] - edges[0]) if edges.size > 1 else 0.1
        centres = (edges[:-1] + edges[1:]) / 2
        self.hist.setOpts(x=centres, height=comp.hist_counts.astype(float), width=width * 0.9,
                          brush=pg.mkBrush(mix(GOLD_COLOR, theme()["bg"], 0.35)), pen=pg.mkPen(None))
        self.hist_plot.setXRange(float(edges[0]), float(edges[-1]), padding=0.02)
        self.hist_plot.setYRange(0, max(1.0, float(comp.hist_counts.max(initial=0))), padding=0.05)
        s = comp.summary()
        self.status.setText(
            f"{comp.model}: {len(comp.names)} annotator sets, {comp.measure} {s.get('competence_min', 0):.2f} to "
            f"{s.get('competence_max', 0):.2f} (median {s.get('competence_median', 0):.2f}); instance "
            f"difficulty: mean entropy {s.get('mean_entropy_bits', 0):.2f} bits. "
            f"Estimate {convergence_text(comp.iterations, comp.converged, comp.unconverged, comp.fitted)} in {comp.seconds:.1f} s{KEPT if comp.kept else ''}. Click a bar for its instances; "
            "Go > Most uncertain first orders the workbench by it.")
        # the measure's name on the axis, what it means in the status line above ("competence (expected
        # share right)" ran past the plot's height at 1024x700)
        self.sets_plot.getAxis("left").setLabel(comp.measure.split(" (")[0])
        self.set_explain(comp.explain.text())

    def _moved(self, pos) -> None:
        p = view_pos(self.sets_plot, pos)
        if p is None or self.comp is None or not self._order.size:
            return
        j = nearest_slot(p.x(), self._order.size, 0.5)
        if j < 0:
            return
        k = int(self._order[j])
        c = self.comp
        tip(self.sets_plot, f"{c.names[k]}: {c.measure} {c.competence[k]:.3f} +/- {c.stderr[k]:.3f} "
                            f"over {int(c.n_labels[k])} labels")

    def _clicked(self, ev) -> None:
        p = view_pos(self.hist_plot, ev.scenePos())
        if p is None or self.comp is None or ev.button() != Qt.MouseButton.LeftButton:
            return
        edges = self.comp.hist_edges
        j = int(np.searchsorted(edges, p.x(), side="right")) - 1
        if 0 <= j < edges.size - 1:
            self.list_bar(j)

    def list_bar(self, j: int) -> None:
        """List the instances of histogram bar ``j`` in the side panel, most uncertain first."""
        edges = self.comp.hist_edges
        inst = self.comp.bin_instances(j)
        inst = inst[np.argsort(-self.comp.entropy[inst], kind="stable")]
        self.instances_requested.emit(f"entropy {edges[j]:.2f}-{edges[j + 1]:.2f} bits", inst)


class CompetenceEstimator(QObject):
    """The estimate behind the panel: made once per open project, off the GUI thread (at the GUI
    thread's CPU priority: see :class:`~hieradjudicate.gui.workers.BackgroundRunner`); made again
    when the panel's model changes.  ``request(then)`` runs ``then()`` once it is there; ``ready`` is
    emitted each time an estimate arrives (the workbench's order and suggestions follow it:
    :meth:`Workbench.set_competence`)."""

    ready = Signal()
    #: what the estimate says of itself ("… iteration 12 of at most 1000…"), for a user waiting on it
    said = Signal(str)

    def __init__(self, parent: QObject, wb: Any, panel: CompetencePanel | None) -> None:
        super().__init__(parent)
        self.wb, self.panel = wb, None
        self.runner = BackgroundRunner(self, background=True)
        self.result: Any = None
        self.model = "ds"
        self.pending, self.pending_why = "", None  # what the panel says until an estimate is there (said again to a panel built later)
        self._waiting: list[Any] = []
        #: model -> why it was refused on this project's data (its message): not run again
        self.refused: dict[str, str] = {}
        if panel is not None:
            self.attach(panel)

    def attach(self, panel: CompetencePanel) -> None:
        """The dashboard's panel, built after the estimate may have started: it shows where it is."""
        self.panel = panel
        k = panel.model_box.findData(self.model)
        panel.model_box.blockSignals(True)
        panel.model_box.setCurrentIndex(max(k, 0))
        panel.model_box.blockSignals(False)
        panel.model_changed.connect(self._model_changed)
        if self.result is not None:
            panel.set_competence(self.result)
        elif self.pending:
            panel.set_pending(self.pending, *([self.pending_why] if self.pending_why else []))

    def _say(self, text: str, why: str | None = None) -> None:
        self.pending, self.pending_why = text, why
        self.said.emit(text)
        if self.panel is not None:
            self.panel.set_pending(text, *([why] if why else []))

    def request(self, then: Any = None, *, again: bool = False) -> None:
        if self.result is not None:
            if then is not None:
                then()
            return
        if then is not None:
            self._waiting.append(then)
        if self.runner.busy and not again:  # ``again``: a new model supersedes the running estimate
            return
        if self.model in self.refused:  # the annotations never change while the project is open
            self._waiting.clear()
            why = self.refused[self.model]
            self._say(f"Competence is not estimated: {why}", f"No competence to show: {why}")
            return
        sets = list(self.wb.cols.annotators)
        if len(sets) < 2:
            # Dawid & Skene and MACE need an instance labelled by three sets (Kruskal 1977); said at once
            self._say(f"Competence needs three or more annotator sets on an instance; this project has {len(sets)}.",
                      "No competence to show: the estimate needs three or more annotator sets on an instance "
                      f"(this project has {len(sets)})")
            self._waiting.clear()
            return
        model = self.model
        self._say(f"Estimating annotator competence ({MODELS[model]}) in the background…")
        corpus = self.wb.corpus
        name = MODELS[model]
        # Dawid & Skene's workers yield the CPUs to the window's own thread when it needs one
        # an estimate of the same labels made before (kept on disk) is read instead of made again
        self.runner.start(lambda r: estimate(corpus, sets, model=model, progress=lambda k, n: r(k, n, name),
                                             nice=BACKGROUND_NICE, keep=True),
                          self._done, failed=self._failed, progress=self._progress)

    def _progress(self, k: int, n: int, name: str) -> None:
        self._say(f"Estimating annotator competence ({name}) in the background: "
                               f"iteration {k} of at most {n}…")

    def _model_changed(self, model: str) -> None:
        self.model = model
        self.result = None
        self.request(again=True)

    def _done(self, comp: Any) -> None:
        self.result = comp
        self.wb.set_competence(comp)
        if self.panel is not None:
            self.panel.set_competence(comp)
        waiting, self._waiting = self._waiting, []
        for fn in waiting:
            fn()
        self.ready.emit()

    def _failed(self, exc: BaseException) -> None:
        self._waiting.clear()
        if isinstance(exc, NotIdentifiable):  # refused on these data (two sets per instance): the reason
            self.refused[self.model] = str(exc)
            self._say(f"Competence is not estimated: {exc}", f"No competence to show: {exc}")
            return
        self._say(f"Competence could not be estimated: {exc}",
                  "No competence to show: the estimate failed (why: on the line above)")
