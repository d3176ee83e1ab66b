"""The dashboard's paired tests and regression view: is system B really better than system A?

Choose the gold (the adjudicated gold, or a reference gold given as input), the group (every
instance, a data set of the WSD framework's ALL, a part of speech), a policy, a baseline and a
system: the figures are those of ``hieradjudicate compare`` (:mod:`hieradjudicate.app.paired`).
The plot shows the difference (system - baseline)
in precision, recall and F1 with its 95% paired bootstrap interval; the table gives every
test of the pair (approximate randomization p, McNemar, Holm's correction with more than
two systems); the second table lists the instances the system gained and lost against the
baseline -- double-click one to open it in the workbench.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QHeaderView, QLabel

from hieradjudicate.app.dashboard.significance import ADJUDICATED
from hieradjudicate.app.paired import ALL, p_text

from hieradjudicate.core.compare.significance import METRICS
from hieradjudicate.gui.dashboard.common import Panel, fmt, set_ticks
from hieradjudicate.gui.dashboard.gold_plots import NO_DECISION, NO_GOLD, _fill, _table, why_no_systems

#: Gained/lost rows shown at most (the CSV/JSON of ``compare`` list them all).
CHANGES_LIMIT = 5000
LABEL = {"precision": "P", "recall": "R", "f1": "F1"}
#: the paired tests' columns (McNemar: the instances only the baseline / only the system gets right)
TEST_HEADS = ["test", "difference", "interval", "p", "p Holm", "baseline", "system"]


def _p(v: float | None) -> str:
    return p_text(v)  # as compare and the report print it


class SignificancePanel(Panel):
    instance_opened = Signal(int)  # corpus instance index (double-click in the gained/lost table)

    def __init__(self, parent=None) -> None:
        super().__init__("significance", "Paired tests and regression", parent)
        self.note = QLabel(NO_GOLD)
        self.note.setWordWrap(True)
        self.body.addWidget(self.note)
        self.gold = QComboBox(objectName="sig_gold")
        self.gold.setToolTip("What the systems are tested against: the decisions marked resolved, or a "
                             "reference gold given as input (over every instance of it)")
        self.group = QComboBox(objectName="sig_group")
        self.group.setToolTip("Every instance, or the instances of one data set (the WSD framework's ALL) or "
                              "of one part of speech, as hieradjudicate compare tests them")
        self.policy = QComboBox(objectName="sig_policy")
        self.baseline = QComboBox(objectName="sig_baseline")
        self.system = QComboBox(objectName="sig_system")
        for label, w in (("Policy", self.policy), ("Baseline", self.baseline), ("System", self.system)):
            self.controls.addWidget(QLabel(label))
            self.controls.addWidget(w)
        self.controls.addStretch(1)
        where = QHBoxLayout()  # a second row: two more boxes would push the first off a 1024 px window
        where.setContentsMargins(0, 0, 0, 0)
        for label, w in (("Gold", self.gold), ("Group", self.group)):
            where.addWidget(QLabel(label))
            where.addWidget(w, 1)
        self.body.addLayout(where)
        self.settings = QLabel(objectName="sig_settings")
        self.settings.setWordWrap(True)
        self.settings.setStyleSheet("color: gray")
        self.body.addWidget(self.settings)
        self.plot = self.add_plot(2)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.getAxis("left").setLabel("system - baseline")
        self.plot.getAxis("left").setSIPrefixEnableRanges(())  # 0.1, not "100 (x0.001)" with a clipped label
        self.zero = pg.InfiniteLine(pos=0, angle=0, pen=pg.mkPen("#888", style=pg.QtCore.Qt.PenStyle.DashLine))
        self.plot.addItem(self.zero)
        self.points = pg.ScatterPlotItem(size=9, brush=pg.mkBrush("#3b7dd8"))
        self.errors = pg.ErrorBarItem(x=np.zeros(0), y=np.zeros(0), pen=pg.mkPen("#3b7dd8", width=2), beam=0.15)
        self.plot.addItem(self.errors)
        self.plot.addItem(self.points)
        # the difference, its interval and p first: in a 1024 px window the panel is ~370 px wide (#31)
        self.tests = _table(TEST_HEADS)
        self.tests.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.tests.horizontalHeaderItem(1).setToolTip("system - baseline, with its 95% paired bootstrap interval")
        self.tests.horizontalHeaderItem(5).setToolTip("the baseline's value (McNemar: instances only it gets right)")
        self.tests.horizontalHeaderItem(6).setToolTip("the system's value (McNemar: instances only it gets right)")
        self.tests.setObjectName("paired_tests")
        self.body.addWidget(self.tests, 2)
        self.open = QLabel(objectName="sig_open")
        self.open.setWordWrap(True)
        self.body.addWidget(self.open)
        self.counts = QLabel(objectName="sig_counts")
        self.counts.setWordWrap(True)
        self.body.addWidget(self.counts)
        self.changes = _table(["change", "lexelt", "instance", "baseline score", "system score"])
        self.changes.setObjectName("gained_lost")
        self.changes.cellDoubleClicked.connect(self._open)
        self.body.addWidget(self.changes, 3)
        self.adjudicated: Any = None  # the tests against the decisions marked resolved
        self.references: dict[str, Any] = {}  # reference gold name -> its tests
        self.keys: Any = None
        self.rows: list[int] = []
        for w in (self.policy, self.baseline, self.system, self.group):
            w.currentIndexChanged.connect(lambda _: self.redraw())
        self.gold.currentIndexChanged.connect(lambda _: self._fill_choices())

    @property
    def sig(self) -> Any:
        """The tests of the gold chosen (``None``: nothing tested)."""
        key = self.gold.currentData()
        if key is None:
            return None
        return self.adjudicated if key == "" else self.references.get(key)

    def update_data(self, data: Any) -> None:
        self.keys = data.instance_keys
        if data.options.intervals:  # the reference's tests come with the intervals (once per project)
            self.references = dict(data.reference_significance or {})
        quick = data.significance is None and data.comparison is not None and len(data.comparison.names) >= 2
        if not quick:
            self.adjudicated = data.significance
        self._fill_gold()
        self.note.setVisible(False)
        if quick and self.adjudicated is None:
            # a quick pass after a decision: the tests come with the intervals (computed in the background)
            self.note.setVisible(True)
            self.note.setText("The paired tests against your decisions are computed with the intervals (in the "
                              "background, or with Compute intervals).")
        elif quick:
            self.note.setVisible(True)
            self.note.setText("The paired tests against your decisions are of an earlier gold: they are computed "
                              "again with the intervals.")
        if self.sig is None:
            if quick:
                self._clear()
                self.set_empty("Not tested yet: the paired tests come with the intervals (Compute intervals)")
                return
            why = why_no_systems(data, 2) or "Not tested yet: the paired tests come with the intervals"
            sets = data.summary.get("sets", [])
            if not data.options.intervals and any(x["role"] == "gold" for x in sets) and \
                    sum(x["role"] == "system" for x in sets) >= 2:
                why = "Testing the systems against the reference gold (with the intervals, in the background)…"
            self.note.setVisible(why == NO_DECISION)  # what the adjudicated gold is; any other reason: below
            self.note.setText(NO_GOLD)
            self.set_explain(NO_GOLD if why == NO_DECISION else why)
            self._clear()
            self.set_empty(why)
            return
        self._fill_choices()

    def _fill_gold(self) -> None:
        """The golds tested against: the adjudicated one (when there are tests) and every reference."""
        items = ([("the adjudicated gold (your decisions)", "")] if self.adjudicated is not None else []) + \
            [(f"reference gold {name} (input)", name) for name in self.references]
        keep = self.gold.currentData()
        self.gold.blockSignals(True)
        self.gold.clear()
        for text, key in items:
            self.gold.addItem(text, key)
        at = self.gold.findData(keep) if keep is not None else -1
        self.gold.setCurrentIndex(at if at >= 0 else (0 if items else -1))
        self.gold.blockSignals(False)
        self.gold.setEnabled(len(items) > 1)

    def _fill_choices(self) -> None:
        sig = self.sig
        if sig is None:
            return
        policy = self.policy.currentText() or sig.policies[0]
        groups = list(sig.groups.get(policy if policy in sig.groups else sig.policies[0], {})) or ["all instances"]
        for combo, items, default in ((self.policy, sig.policies, self.policy.currentText()),
                                      (self.group, groups, self.group.currentText()),
                                      (self.baseline, sig.names, self.baseline.currentText()),
                                      (self.system, sig.names, self.system.currentText())):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(items)
            if default in items:
                combo.setCurrentText(default)
            combo.blockSignals(False)
        if self.baseline.currentIndex() == self.system.currentIndex():
            self.system.blockSignals(True)
            self.system.setCurrentIndex(1 if self.baseline.currentIndex() == 0 else 0)
            self.system.blockSignals(False)
        against = sig.gold if sig.gold == ADJUDICATED else f"the reference gold {sig.gold}"
        self.settings.setText(f"Against {against}, {sig.n} instance(s); {sig.settings.text()}: the figures of "
                              "hieradjudicate compare.")
        self.set_explain(sig.explain.text() + "\n\nDouble-click a gained or lost instance: open it in the workbench.")
        self.redraw()

    def set_empty(self, text: str | None, plots: Any = None) -> None:
        super().set_empty(text, plots)
        self.zero.setVisible(not text)  # no zero line through the sentence

    def _clear(self) -> None:
        self.points.setData([], [])
        self.errors.setData(x=np.zeros(0), y=np.zeros(0), top=np.zeros(0), bottom=np.zeros(0))
        self.tests.setRowCount(0)
        self.changes.setRowCount(0)
        self.counts.setText("")
        self.rows = []

    def redraw(self) -> None:
        sig = self.sig
        if sig is None:
            return
        policy, base, other = self.policy.currentText(), self.baseline.currentIndex(), self.system.currentIndex()
        if policy not in sig.tests or base < 0 or other < 0 or base == other:
            self._clear()
            self.counts.setText("Choose two different systems.")
            self.set_empty("Choose two different systems above: their difference is drawn here")
            return
        a, b = sorted((base, other))
        pairs = [(x, y) for x in range(len(sig.names)) for y in range(x + 1, len(sig.names))]
        group = self.group.currentText()
        by = sig.groups.get(policy) or {}
        if group not in by:  # the policy chosen has no instance in that group
            group = "all instances"
        t = (by.get(group) or sig.tests[policy])[pairs.index((a, b))]
        sign = 1.0 if other == a else -1.0  # tests are a - b with a < b: turn into system - baseline
        rows, xs, ys, lo, hi = [], [], [], [], []
        for k, m in enumerate(METRICS):
            v = t.metrics[m]
            vb, vs = (v.a, v.b) if base == a else (v.b, v.a)
            diff = None if v.difference is None else sign * v.difference
            ci = (None, None) if v.low is None else sorted((sign * v.low, sign * v.high))
            rows.append([LABEL[m], diff, "undefined" if ci[0] is None else f"[{fmt(ci[0])}, {fmt(ci[1])}]",
                         _p(v.p_value), _p(v.p_holm) if t.holm else "-", vb, vs])
            if diff is not None and ci[0] is not None:
                xs.append(k)
                ys.append(diff)
                lo.append(diff - ci[0])
                hi.append(ci[1] - diff)
        mc = t.mcnemar
        only_base, only_sys = (mc.a_only, mc.b_only) if base == a else (mc.b_only, mc.a_only)
        rows.append(["McNemar (right)", only_sys - only_base, "-", _p(mc.p_value), _p(mc.p_holm) if t.holm else "-",
                     only_base, only_sys])
        _fill(self.tests, rows)
        self.tests.setColumnHidden(TEST_HEADS.index("p Holm"), not t.holm)  # two systems: no correction
        self.set_empty(None if xs else "No difference is defined for this pair here (see the table below)")
        self.points.setData(xs, ys)
        self.errors.setData(x=np.array(xs, float), y=np.array(ys, float), top=np.array(hi, float),
                            bottom=np.array(lo, float))
        set_ticks(self.plot, "bottom", [LABEL[m] for m in METRICS])
        self.plot.setXRange(-0.5, len(METRICS) - 0.5, padding=0)
        self.open.setText(self._open_text(sig, policy, base, other, a, b, sign))
        changes = sig.changes(policy, base, other, group)  # the group chosen above, as the tests
        gained = sum(c.change == "gained" for c in changes)
        shown = changes[:CHANGES_LIMIT]
        within = "" if group == ALL else f", {group}"
        self.counts.setText(f"{sig.names[other]} against {sig.names[base]} ({policy}{within}): "
                            f"{gained} instance(s) gained, "
                            f"{len(changes) - gained} lost" + (f" (first {CHANGES_LIMIT} listed)"
                                                               if len(changes) > CHANGES_LIMIT else ""))
        self.rows = [c.instance for c in shown]
        _fill(self.changes, [[c.change, *self.keys(c.instance), c.baseline_score, c.system_score] for c in shown])

    @staticmethod
    def _open_text(sig: Any, policy: str, base: int, other: int, a: int, b: int, sign: float) -> str:
        """Whether the F1 difference of the policy chosen could flip with the instances still open."""
        if sig.gold != ADJUDICATED:
            return (f"The reference gold {sig.gold} is given as input: every one of its {sig.n} instances is "
                    "scored; no instance is open.")
        o = sig.open_ranges
        if not o:
            return f"The gold holds every instance in view ({sig.n} decided)."
        one = o["by_policy"].get(policy)
        f1 = None if one is None else one["pairs"][(a, b)]["f1"]
        if f1 is None or f1["low"] is None:
            return f"These figures rest on {o['decided']} decided instance(s); {o['open']} still open."
        lo, hi = sorted((sign * f1["low"], sign * f1["high"]))
        return (f"The gold is still being adjudicated: these figures rest on {o['decided']} decided instance(s); "
                f"{o['open']} open. Over every outcome of the open ones, F1 ({policy}) of {sig.names[other]} - "
                f"{sig.names[base]} lies in [{fmt(lo)}, {fmt(hi)}] ({one['how']}): the difference "
                + ("<b>could flip</b>." if f1["could_flip"] else "holds."))

    def _open(self, row: int, _col: int) -> None:
        if 0 <= row < len(self.rows):
            self.instance_opened.emit(self.rows[row])
