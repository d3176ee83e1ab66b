"""Gold-dependent plots of the dashboard: agreement with the gold, system scores and comparison, progress.

The gold is the set of decisions marked resolved so far; before the first
one these panels say so instead of drawing empty axes.
"""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QTableWidget, QTableWidgetItem, QWidget

from hieradjudicate.app.dashboard.two_kappas import two_kappas_note
from hieradjudicate.core.agreement.granularity import CATEGORY_NAMES
from hieradjudicate.core.palette import CATEGORY_COLORS, GOLD_COLOR, mix, set_color
from hieradjudicate.gui.dashboard.common import (
    Panel,
    cat_fill,
    fmt,
    nan_or,
    nearest_slot,
    none_in_view,
    set_line,
    set_ticks,
    theme,
    view_pos,
)
from hieradjudicate.gui.dashboard.common import tip as _tip

POLICIES = ("leaf", "fine", "coarse", "mixed")
POLICY_SHADE = (0.0, 0.3, 0.5, 0.68)  # mixed towards the background: full colour = leaf
NO_GOLD = ("No adjudicated gold yet: resolve some instances (the adjudicated gold is the decisions marked "
           "resolved; a reference gold given as input is scored in its own panel).")


NO_DECISION = "No decision yet: resolve some instances and the systems are scored against them"


def why_no_systems(data: Any, need: int = 1) -> str:
    """Why the systems' panels have nothing to draw, in a sentence ("" when they have): no instance in
    view, fewer than ``need`` systems, or no adjudicated gold yet."""
    systems = list(data.summary.get("systems", []))
    if len(systems) < need:
        if not systems:
            return "No system in this project: the scores are of the sets given the role system when it was made"
        return f"One system ({systems[0]}): comparing needs at least two"
    if none_in_view(data):
        return none_in_view(data)
    if not data.gold_n:
        return NO_DECISION
    return ""


def _table(headers: list[str]) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.verticalHeader().setVisible(False)
    t.verticalHeader().setDefaultSectionSize(20)
    t.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    t.horizontalHeader().setStretchLastSection(True)
    return t


def _fill(t: QTableWidget, rows: list[list[Any]], tips: list[str] | None = None) -> None:
    t.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            item = QTableWidgetItem(fmt(v) if isinstance(v, float) or v is None else str(v))
            if isinstance(v, (int, float)) or v is None:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if tips:
                item.setToolTip(tips[r])
            t.setItem(r, c, item)
    t.resizeColumnsToContents()


class _Bars:
    """A bar chart on one plot: BarGraphItem + ErrorBarItem, created once."""

    def __init__(self, plot: pg.PlotWidget) -> None:
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.2)
        self.errors = pg.ErrorBarItem(x=np.zeros(0), y=np.zeros(0), beam=0.08, pen=pg.mkPen(theme()["fg"]))
        plot.addItem(self.bars)
        plot.addItem(self.errors)

    def set(self, x, heights, width, colors, low=None, high=None) -> None:
        x, h = np.asarray(x, float), np.asarray(heights, float)
        self.bars.setOpts(x=x, height=np.nan_to_num(h), width=width, brushes=[pg.mkBrush(c) for c in colors],
                          pen=pg.mkPen(None))
        if low is None:
            self.errors.setData(x=np.zeros(0), y=np.zeros(0), top=np.zeros(0), bottom=np.zeros(0))
            return
        lo, hi = np.asarray(low, float), np.asarray(high, float)
        ok = np.isfinite(lo) & np.isfinite(hi) & np.isfinite(h)
        self.errors.setData(x=x[ok], y=h[ok], top=(hi - h)[ok], bottom=(h - lo)[ok], beam=min(width * 0.6, 0.15))


class GoldPanel(Panel):
    """Each set's agreement with the adjudicated gold so far: leaf score and Cohen's kappa per set."""

    def __init__(self, parent=None) -> None:
        super().__init__("gold", "Agreement with the adjudicated gold", parent)
        self.note = QLabel(NO_GOLD)
        self.note.setWordWrap(True)
        self.body.addWidget(self.note)
        self.plot = self.add_plot()
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.showGrid(y=True, alpha=0.25)
        self.kappa = _Bars(self.plot)
        self.score = _Bars(self.plot)
        self.rows: list[Any] = []
        self.plot.scene().sigMouseMoved.connect(self._moved)

    def update_data(self, data: Any) -> None:
        rows = self.rows = data.gold_agreement
        self.note.setVisible(not rows and not none_in_view(data))
        x = np.arange(len(rows), dtype=float)
        bg = theme()["bg"]
        names = [s["name"] for s in data.summary["sets"]]
        cols = [set_color(names.index(r.name)) if r.name in names else theme()["muted"] for r in rows]
        self.score.set(x - 0.18, [nan_or(r.score) for r in rows], 0.34, [mix(c, bg, 0.55) for c in cols])
        self.kappa.set(x + 0.18, [nan_or(r.kappa_cohen) for r in rows], 0.34, cols)
        set_ticks(self.plot, "bottom", [r.name for r in rows])
        self.plot.setXRange(-0.6, max(len(rows), 1) - 0.4, padding=0)
        self.plot.setYRange(min([0.0, *[r.kappa_cohen for r in rows if r.kappa_cohen is not None]]), 1.0)
        self.title_label.setText(f"<b>Agreement with the gold</b> <small>({data.gold_n} resolved; faded: leaf "
                                 "score, full: Cohen's κ)</small>")
        self.set_explain("\n\n".join(r.explain.text() for r in rows) if rows else NO_GOLD)
        self.set_empty(None if rows else none_in_view(data) or "No decision yet: nothing to compare with")

    def _moved(self, pos) -> None:
        p = view_pos(self.plot, pos)
        if p is not None and (k := nearest_slot(p.x(), len(self.rows))) >= 0:
            _tip(self.plot, self.rows[k].explain.text())


class ScoresPanel(Panel):
    """System scores against the gold under four policies, with bootstrap intervals, and their table."""

    METRICS = (("precision", "precision"), ("recall", "recall"), ("F1", "f1"))

    def __init__(self, parent=None) -> None:
        super().__init__("scores", "System scores against the adjudicated gold", parent)
        self.metric_box = QComboBox()
        self.metric_box.setObjectName("score_metric")
        for text, _ in self.METRICS:
            self.metric_box.addItem(text)
        self.metric_box.currentIndexChanged.connect(lambda _: self.update_data(self.data) if self.data else None)
        self.controls.addWidget(QLabel("Bars show"))
        self.controls.addWidget(self.metric_box)
        self.controls.addStretch(1)
        self.note = QLabel(NO_GOLD)
        self.note.setWordWrap(True)
        self.body.addWidget(self.note)
        self.plot = self.add_plot(2)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.showGrid(y=True, alpha=0.25)
        self.bars = _Bars(self.plot)
        self.table = _table(["system", "policy", "precision [95% CI]", "recall [95% CI]", "coverage", "F1",
                             "cross-entropy", "cost"])
        self.table.setObjectName("score_table")
        self.body.addWidget(self.table, 2)
        self.data: Any = None
        self.shown: list[Any] = []
        self.plot.scene().sigMouseMoved.connect(self._moved)

    def update_data(self, data: Any) -> None:
        self.data = data
        rows = data.scores
        self.note.setVisible(not rows and why_no_systems(data) == NO_DECISION)
        systems = list(dict.fromkeys(r.system for r in rows))
        names = [s["name"] for s in data.summary["sets"]]
        bg = theme()["bg"]
        _, attr = self.METRICS[self.metric_box.currentIndex()]
        x, h, lo, hi, cols = [], [], [], [], []
        self.shown = []
        for r in rows:
            s, p = systems.index(r.system), POLICIES.index(r.policy) if r.policy in POLICIES else 0
            x.append(s + (p - 1.5) * 0.2)
            h.append(nan_or(getattr(r, attr)))
            ci = getattr(r, f"{attr}_ci", (None, None))
            lo.append(nan_or(ci[0]))
            hi.append(nan_or(ci[1]))
            cols.append(mix(set_color(names.index(r.system)), bg, POLICY_SHADE[p]))
            self.shown.append(r)
        self.bars.set(x, h, 0.18, cols, lo, hi)
        set_ticks(self.plot, "bottom", systems)
        self.plot.setXRange(-0.6, max(len(systems), 1) - 0.4, padding=0)
        self.plot.setYRange(0.0, 1.0, padding=0.02)
        has_ci = any(np.isfinite(v) for v in lo)
        self.title_label.setText("<b>System scores against the adjudicated gold</b> <small>(per system: leaf, "
                                 "fine, coarse, mixed, "
                                 f"full colour to faded; {'95% CIs' if has_ci else 'no intervals yet'})</small>")
        def ci(v, c) -> str:
            return f"{fmt(v)} [{fmt(c[0])}, {fmt(c[1])}]"

        _fill(self.table, [[r.system, r.policy, ci(r.precision, r.precision_ci), ci(r.recall, r.recall_ci),
                            r.coverage, r.f1, r.cross_entropy, r.cost] for r in rows],
              [r.explain.text() for r in rows])
        self.set_explain("\n\n".join(r.explain.text() for r in rows[:4]) if rows else NO_GOLD)
        self.set_empty(None if rows else why_no_systems(data) or "No score is defined here")

    def _moved(self, pos) -> None:
        p = view_pos(self.plot, pos)
        if p is None or not self.shown:
            return
        xs = np.array([s + (POLICIES.index(r.policy) - 1.5) * 0.2 if r.policy in POLICIES else s
                       for r in self.shown for s in [list(dict.fromkeys(q.system for q in self.shown)).index(r.system)]])
        k = int(np.argmin(np.abs(xs - p.x())))
        if abs(xs[k] - p.x()) < 0.1:
            _tip(self.plot, self.shown[k].explain.text())


class ComparisonPanel(Panel):
    """Pairwise system kappa, optimal combination and the instance difficulty histogram (Pedersen 2002)."""

    def __init__(self, parent=None) -> None:
        super().__init__("comparison", "System comparison on the adjudicated gold", parent)
        self.note = QLabel(NO_GOLD)
        self.note.setWordWrap(True)
        self.body.addWidget(self.note)
        self.top = QWidget()  # the kappa table and the optimal combination: hidden with no systems
        row = QHBoxLayout(self.top)
        row.setContentsMargins(0, 0, 0, 0)
        self.table = _table([])
        self.table.setObjectName("system_kappa")
        row.addWidget(self.table, 1)
        self.optimal = QLabel()
        self.optimal.setWordWrap(True)
        self.optimal.setObjectName("optimal_combination")
        row.addWidget(self.optimal, 1)
        self.body.addWidget(self.top, 1)
        self.kappa_note = QLabel()  # what this kappa is, beside the pairwise map's (-0.003 there, 0.079 here)
        self.kappa_note.setObjectName("comparison_kappa_note")
        self.kappa_note.setWordWrap(True)
        self.body.addWidget(self.kappa_note)
        self.plot = self.add_plot(2)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.getAxis("bottom").setLabel("systems right")
        self.bars = _Bars(self.plot)
        self.cmp: Any = None
        self.plot.scene().sigMouseClicked.connect(self._clicked)

    def update_data(self, data: Any) -> None:
        cmp = self.cmp = data.comparison
        self.note.setVisible(cmp is None and why_no_systems(data, 2) == NO_DECISION)
        self.top.setVisible(cmp is not None)  # not an empty table (a small white box) beside an empty label
        self.kappa_note.setVisible(cmp is not None)
        self.kappa_note.setText("" if cmp is None else
                                f"<small>{html.escape(two_kappas_note(cmp, getattr(data, 'heatmap', None)))}</small>")
        if cmp is None:
            self.bars.set([], [], 0.7, [])
            self.table.setRowCount(0)
            self.optimal.setText("")
            why = why_no_systems(data, 2) or "Nothing to compare here"
            self.set_explain(NO_GOLD if not data.gold_n else why)
            self.set_empty(why)
            return
        self.set_empty(None)
        m = len(cmp.names)
        self.table.setColumnCount(m)
        self.table.setHorizontalHeaderLabels(cmp.names)
        self.table.setVerticalHeaderLabels(cmp.names)
        self.table.verticalHeader().setVisible(True)
        kappa = np.ma.filled(np.ma.asarray(cmp.kappa, float), np.nan)
        _fill(self.table, [[None if (a == b or not np.isfinite(kappa[a, b])) else float(kappa[a, b])
                            for b in range(m)] for a in range(m)])
        self.table.setMaximumHeight(24 + 21 * min(m, 6))
        acc = ", ".join(f"{n} {fmt(a)}" for n, a in zip(cmp.names, cmp.accuracy))
        best = "<br>".join(f"{' + '.join(s)}: {fmt(v)}" for s, v in cmp.best_subsets[:4])
        self.optimal.setText(f"<b>Optimal combination</b> (an oracle picking a right system): "
                             f"{fmt(cmp.optimal_all)}<br><small>accuracy: {acc}</small><br>{best}")
        k = np.arange(len(cmp.histogram), dtype=float)
        colors = [mix(GOLD_COLOR, CATEGORY_COLORS[3].strong, 1 - j / max(len(k) - 1, 1)) for j in range(len(k))]
        self.bars.set(k, cmp.histogram, 0.7, colors)
        set_ticks(self.plot, "bottom", [str(j) for j in range(len(k))])
        self.plot.setXRange(-0.6, len(k) - 0.4, padding=0)
        self.plot.setYRange(0, max([1, *cmp.histogram]), padding=0.05)
        self.set_explain(cmp.explain.text() + "\n\nClick a bar: list the instances exactly that many systems "
                         "get right.")

    def _clicked(self, ev) -> None:
        p = view_pos(self.plot, ev.scenePos())
        if p is None or self.cmp is None or ev.button() != Qt.MouseButton.LeftButton:
            return
        k = nearest_slot(p.x(), len(self.cmp.histogram), 0.35)
        if k >= 0:
            self.instances_requested.emit(f"instances exactly {k} system(s) get right", self.cmp.bar_instances[k])


class ProgressPanel(Panel):
    """Decisions per day (bars) with the resolved share (line, right axis); open instances by category."""

    def __init__(self, parent=None) -> None:
        super().__init__("progress", "Adjudication progress", parent)
        self.status = QLabel()
        self.status.setObjectName("progress_status")
        self.status.setWordWrap(True)  # "0 of 44682 resolved (0.0%), … 44682 open" was cut at 1024 px
        self.body.addWidget(self.status)
        self.plot = self.add_plot()
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.getAxis("left").setLabel("decisions per day")
        self.days = _Bars(self.plot)
        pi = self.plot.getPlotItem()
        self.share_vb = pg.ViewBox()
        self.share_vb.setMouseEnabled(x=False, y=False)
        pi.showAxis("right")
        pi.scene().addItem(self.share_vb)
        pi.getAxis("right").linkToView(self.share_vb)
        pi.getAxis("right").setLabel("resolved share")
        self.share_vb.setXLink(pi)
        self.share_vb.setYRange(0, 1, padding=0.02)
        self.share = pg.PlotDataItem([], [], pen=pg.mkPen(GOLD_COLOR, width=2.5), symbol="o", symbolSize=6,
                                     symbolBrush=GOLD_COLOR, symbolPen=None)
        self.share_vb.addItem(self.share)
        pi.getViewBox().sigResized.connect(lambda: self.share_vb.setGeometry(pi.getViewBox().sceneBoundingRect()))
        self.remaining_plot = self.add_plot()
        self.remaining_plot.setMouseEnabled(x=False, y=False)
        self.remaining_plot.getPlotItem().getViewBox().invertY(True)
        self.remaining = pg.BarGraphItem(x0=[], y=[], width=[], height=0.7)
        self.remaining_plot.addItem(self.remaining)
        self.cats = [*CATEGORY_NAMES, "single"]
        set_ticks(self.remaining_plot, "left", self.cats)
        self.remaining_plot.getAxis("bottom").setLabel("open instances by worst annotator category")
        self.pr: Any = None
        self.remaining_plot.scene().sigMouseClicked.connect(self._clicked)

    def update_data(self, data: Any) -> None:
        pr = self.pr = data.progress
        n = len(pr.days)
        x = np.arange(n, dtype=float)
        self.days.set(x, pr.decisions, 0.6, [mix(GOLD_COLOR, theme()["bg"], 0.45)] * n)
        set_line(self.share, x, np.asarray(pr.resolved_share, float))
        labels = [d[5:] if len(d) == 10 else d for d in pr.days]
        set_ticks(self.plot, "bottom", labels, max_labels=12)
        self.plot.setXRange(-0.6, max(n, 1) - 0.4, padding=0)
        self.plot.setYRange(0, max([1, *pr.decisions]), padding=0.05)
        codes = [*range(len(CATEGORY_NAMES)), -1]
        vals = [pr.remaining.get(c, 0) for c in self.cats]
        self.remaining.setOpts(x0=np.zeros(len(vals)), y=np.arange(len(vals), dtype=float),
                               width=np.asarray(vals, float), height=0.7,
                               brushes=[pg.mkBrush(cat_fill(c)) for c in codes], pen=pg.mkPen(None))
        self.remaining_plot.setXRange(0, max([1, *vals]), padding=0.03)
        self.remaining_plot.setYRange(-0.6, len(vals) - 0.4, padding=0)
        sc = pr.status_counts
        self.status.setText(f"{sc.get('resolved', 0)} of {pr.total} resolved "
                            f"({100 * sc.get('resolved', 0) / max(pr.total, 1):.1f}%), {sc.get('flagged', 0)} "
                            f"flagged, {sc.get('skipped', 0)} skipped, {sc.get('unresolved', 0)} open"
                            + ("" if n else " · no decisions yet"))
        none = none_in_view(data)
        self.set_empty(None if n else none or "No decision yet: each day's decisions appear here as bars, "
                       "the share resolved as a line", [self.plot])
        self.set_empty(None if sum(vals) else none or "No open instance here: every one is resolved",
                       [self.remaining_plot])
        self.set_explain(pr.explain.text() + "\n\nClick a category bar: list its open instances.")

    def _clicked(self, ev) -> None:
        p = view_pos(self.remaining_plot, ev.scenePos())
        if p is None or self.pr is None or ev.button() != Qt.MouseButton.LeftButton:
            return
        k = nearest_slot(p.y(), len(self.cats), 0.4)
        if k >= 0:
            self.instances_requested.emit(f"open instances: {self.cats[k]}",
                                          self.pr.remaining_instances[self.cats[k]])
