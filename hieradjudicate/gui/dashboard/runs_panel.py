"""Stored system runs in the window: the runs of the project (name, date, note), "Add run…",
and the run history: precision, recall and F1 of every stored run against the gold adjudicated
so far under the chosen policy (leaf, fine, coarse, mixed; it follows the dashboard's policy
choice in the paired tests), one line per metric over the runs in the order they were stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from hieradjudicate.core.errors import HieradjError
from hieradjudicate.gui.dashboard.common import Panel, set_line, set_ticks
from hieradjudicate.gui.dashboard.gold_plots import _fill, _table
from hieradjudicate.gui.dashboard.significance_panel import CHANGES_LIMIT, _p

COLORS = {"precision": "#3b7dd8", "recall": "#2ca02c", "f1": "#d1352b"}


class AddRunDialog(QDialog):
    """The answer file, the run's name and an optional note."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("add_run_dialog")
        self.setWindowTitle("Add a stored run")
        form = QFormLayout(self)
        self.path = QLineEdit(objectName="run_path")
        browse = QPushButton("Browse…", objectName="run_browse")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        form.addRow("Answer file", row)
        self.name = QLineEdit(objectName="run_name")
        self.note = QLineEdit(objectName="run_note")
        form.addRow("Name", self.name)
        form.addRow("Note", self.note)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "A system's answer file")
        if path:
            self.path.setText(path)
            if not self.name.text():
                self.name.setText(Path(path).stem)


def _policies(session: Any) -> tuple[str, ...]:
    """The policies the project's inventory can score (coarse and mixed need a sense hierarchy)."""
    from hieradjudicate.app.dashboard.scores import scorable_policies

    return scorable_policies(session.corpus.inventory)[0]


def follow_policy(runs: RunsPanel, policy: str) -> None:
    """The dashboard's policy choice (the paired tests' policy) chosen in the runs panel too."""
    if policy and runs.policy.findText(policy) >= 0:
        runs.policy.setCurrentText(policy)


class RunsPanel(Panel):
    instance_opened = Signal(int)  # corpus instance index (double-click in the gained/lost table)

    def __init__(self, session: Any, parent=None) -> None:
        super().__init__("runs", "Stored runs", parent)
        self.session = session
        self.add_button = QPushButton("Add run…", objectName="add_run")
        self.add_button.setToolTip("Keep a system's answer file in the project with a name and a note")
        self.add_button.clicked.connect(self.ask)
        self.state = QLabel(objectName="runs_state")
        self.state.setWordWrap(True)
        self.controls.addWidget(self.add_button)
        self.policy = QComboBox(objectName="run_policy")
        self.policy.setToolTip("The scoring policy of the run history and of the run-against-run view")
        self.policy.addItems(list(_policies(session)))
        self.policy.setCurrentText("fine")
        self.policy.currentTextChanged.connect(lambda _: self.refresh(force=True))
        self.controls.addWidget(QLabel("Policy"))
        self.controls.addWidget(self.policy)
        self.controls.addWidget(self.state, 1)
        self.plot = self.add_plot(2)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.addLegend(offset=(-10, 10))
        self.plot.setYRange(0, 1, padding=0.05)
        self.lines = {m: self.plot.plot([], [], pen=pg.mkPen(c, width=2), symbol="o", symbolSize=7,
                                        symbolBrush=c, name={"f1": "F1"}.get(m, m)) for m, c in COLORS.items()}
        self.table = _table(["run", "stored", "note", "precision", "recall", "F1"])
        self.table.setObjectName("stored_runs")
        self.body.addWidget(self.table, 2)
        pick = QHBoxLayout()
        self.base_run = QComboBox(objectName="run_baseline")
        self.other_run = QComboBox(objectName="run_other")
        for label, w in (("Baseline run", self.base_run), ("Run", self.other_run)):
            pick.addWidget(QLabel(label))
            pick.addWidget(w, 1)
            w.currentIndexChanged.connect(lambda _: self.show_changes())
        self.body.addLayout(pick)
        self.verdict = QLabel(objectName="run_verdict")
        self.verdict.setWordWrap(True)
        self.body.addWidget(self.verdict)
        self.changes = _table(["change", "lexelt", "instance", "baseline score", "run score"])
        self.changes.setObjectName("run_changes")
        self.changes.cellDoubleClicked.connect(self._open)
        self.body.addWidget(self.changes, 2)
        self.change_rows: list[int] = []
        self.dialog: AddRunDialog | None = None
        self.history: list = []
        self._key: Any = None
        self.set_explain("The system runs stored in the project (Add run…, or hieradjudicate project add-run "
                         "P.hadj NAME=FILE), each scored against the gold adjudicated so far (the resolved "
                         "decisions) under the chosen policy (it follows the paired tests' policy): "
                         "precision = correct / answered, recall = correct "
                         "/ decided instances, F1 = 2PR / (P + R); one line per metric over the runs, oldest "
                         "first. compare --baseline NAME --project P gives the paired tests against a run.")

    def update_data(self, data: Any) -> None:
        self.refresh(data.gold_n)

    def refresh(self, gold_n: int | None = None, *, force: bool = False) -> None:
        from hieradjudicate.app.runs import run_history
        from hieradjudicate.io.store.runs import runs

        stored = runs(self.session.store)
        policy = self.policy.currentText() or "fine"
        key = (gold_n, len(self.session.decisions), tuple(r.name for r in stored), policy)
        if key == self._key and not force:
            return
        self._key = key
        self.state.setText("")
        try:
            self.history = run_history(self.session, policy)
        except HieradjError as exc:
            self.history = []
            self.state.setText(str(exc))
        by = {h.name: h for h in self.history}
        _fill(self.table, [[r.name, r.added_at.replace("T", " ")[:19], r.note,
                            *((by[r.name].precision, by[r.name].recall, by[r.name].f1) if r.name in by
                              else (None, None, None))] for r in stored])
        x = np.arange(len(self.history), dtype=float)
        for m, line in self.lines.items():
            set_line(line, x, [np.nan if getattr(h, m) is None else getattr(h, m) for h in self.history])
        set_ticks(self.plot, "bottom", [h.name for h in self.history])
        self.plot.setXRange(-0.5, max(len(self.history), 1) - 0.5, padding=0)
        for combo, default in ((self.base_run, 0), (self.other_run, len(self.history) - 1)):
            keep = combo.currentText()
            combo.blockSignals(True)
            combo.clear()
            combo.addItems([h.name for h in self.history])
            at = combo.findText(keep)
            if combo is self.other_run and keep == self.base_run.currentText():
                at = -1  # the same run twice compares nothing: the newest run instead
            combo.setCurrentIndex(at if at >= 0 else default)
            combo.blockSignals(False)
        self.show_changes()
        if not stored:
            self.state.setText("No run stored yet.")
        elif not self.history:
            self.state.setText(f"{len(stored)} run(s) stored; no resolved decision yet to score them against.")
        self.set_empty(None if self.history else
                       "No run stored yet: Add run… keeps a system's answers, scored here against the gold"
                       if not stored else "No run to draw: see the line above")
        self.plot.getPlotItem().legend.setVisible(bool(self.history))  # not a key to lines that are not there

    def show_changes(self) -> None:
        """Gained/lost instances of the chosen run against the baseline run (the chosen policy), with the
        paired test of F1; a double-click on an instance opens it in the workbench."""
        from hieradjudicate.app.paired import ALL, run_tests
        from hieradjudicate.core.compare.comparison import correct_matrix

        a, b = self.base_run.currentIndex(), self.other_run.currentIndex()
        if a < 0 or b < 0 or a == b or a >= len(self.history) or b >= len(self.history):
            self.changes.setRowCount(0)
            self.change_rows = []
            self.verdict.setText("Choose two different runs: the instances one gained and lost against the other."
                                 if len(self.history) >= 2 else "")
            return
        ha, hb = self.history[a], self.history[b]
        right = correct_matrix(np.vstack([ha.score, hb.score]))
        rows, self.change_rows = [], []
        keys = self.session.corpus.instance_key
        for change, mask in (("gained", right[1] & ~right[0]), ("lost", right[0] & ~right[1])):
            for j in np.flatnonzero(mask)[:CHANGES_LIMIT].tolist():
                i = int(ha.instances[j])
                self.change_rows.append(i)
                sa, sb = ha.score[j], hb.score[j]
                rows.append([change, *keys(i), None if np.isnan(sa) else float(sa), None if np.isnan(sb) else float(sb)])
        _fill(self.changes, rows)
        # the paired panel's and compare's tests, settings and seed (app/paired.py): the same figures
        (t,) = run_tests(np.vstack([ha.score, hb.score]), np.vstack([ha.attempted_per_instance,
                                                                     hb.attempted_per_instance]),
                         [ha.name, hb.name])[ALL][ALL]
        f1 = t.metrics["f1"]
        diff = "undefined" if f1.difference is None else f"{-f1.difference:+.3f}"
        ci = "" if f1.low is None else f", interval [{-f1.high:.3f}, {-f1.low:.3f}]"
        self.verdict.setText(f"{hb.name} against {ha.name} ({self.policy.currentText()}): {t.mcnemar.b_only} gained, {t.mcnemar.a_only} "
                             f"lost; F1 {diff}{ci} (randomization p = {_p(f1.p_value)}, {t.shuffles:,} shuffles, "
                             f"seed {t.seed}; McNemar p = {_p(t.mcnemar.p_value)}).")

    def _open(self, row: int, _col: int) -> None:
        if 0 <= row < len(self.change_rows):
            self.instance_opened.emit(self.change_rows[row])

    def ask(self) -> None:
        """Open the Add-run dialog (not blocking: the run is stored when it is accepted)."""
        if self.session.read_only:
            self.state.setText(f"Cannot add a run: {self.session.read_only_reason}")
            return
        self.dialog = AddRunDialog(self)
        self.dialog.accepted.connect(self._add)
        self.dialog.open()

    def _add(self) -> None:
        from hieradjudicate.app.runs import store_run

        d = self.dialog
        assert d is not None
        path, name = d.path.text().strip(), d.name.text().strip() or Path(d.path.text().strip()).stem
        try:
            run = store_run(self.session, name, path, d.note.text().strip())
        except HieradjError as exc:
            self.state.setText(f"Not stored: {exc}")
            return
        self.refresh(force=True)
        self.state.setText(f"Stored run {run.name} ({run.answered} answered instance(s) of the project"
                           + (f"; {run.outside} outside it" if run.outside else "") + ").")
