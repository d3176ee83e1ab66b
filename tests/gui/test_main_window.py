"""Drive the real main window on the demo with the keyboard, then reopen the project file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication

from hieradjudicate.app.session.session import Session
from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.alpha import krippendorff_alpha
from hieradjudicate.gui.colors import category_color
from hieradjudicate.gui.workbench.instance_model import CategoryRole, InstanceRole
from hieradjudicate.gui.workbench.pick_dialog import PickDialog
from tests.gui.journey import open_window


def _press(qtbot, widget, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(widget, key, modifier)


_open = open_window  # the one way every journey opens the window (tests/gui/journey.py)


def test_keyboard_adjudication_survives_reopen(qtbot, demo_project: Path) -> None:
    win = _open(qtbot, demo_project)
    ws, wb = win.ws, win.wb
    table = ws.table
    table.setFocus()
    _press(qtbot, table, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)  # filter: disjoint
    assert ws.category_box.currentData() == (3,)
    assert wb.view.size > 25 and (wb.cols.category[wb.view] == 3).all()

    # the live kappa is the agreement API's figure on exactly these instances
    annot = [k for k, s in enumerate(wb.corpus.sets) if s.role == "annotator"]
    inst, rater, P, _ = wb.corpus.long_form(sets=annot)
    keep = np.isin(inst, np.flatnonzero(wb.cols.category == 3))
    X = len(wb.corpus.inventory.lexelts)
    fleiss = multi_rater_agreement(inst[keep], rater[keep], P[keep], wb.corpus.inst_lexelt, n_lexelts=X)
    alpha = krippendorff_alpha(inst[keep], rater[keep], P[keep], wb.corpus.inst_lexelt, n_lexelts=X)
    qtbot.waitUntil(lambda: ws.live.figures is not None and ws.live.figures.n_instances == wb.view.size)
    assert ws.live.figures.fleiss.value == pytest.approx(fleiss.fleiss.kappa.value, abs=1e-12)
    assert ws.live.kappa.text() == f"{fleiss.fleiss.kappa.value:.3f}"
    assert ws.live.alpha.text() == f"{alpha.alpha.value:.3f}"
    # ... and what the command line prints for the same filter
    demo = Path(__file__).resolve().parents[2] / "resources" / "demo"
    cli = subprocess.run([sys.executable, "-m", "hieradjudicate", "agree", "--inventory", str(demo / "inventory.txt"),
                          *[a for n in ("ann", "ben", "cho") for a in ("--annotations", str(demo / f"annotator_{n}.key"))],
                          "--category", "disjoint", "--format", "json"], capture_output=True, text=True, timeout=120)
    printed = json.loads(cli.stdout)
    assert printed["fleiss"]["n"] == ws.live.figures.n_instances
    assert ws.live.figures.fleiss.value == pytest.approx(printed["fleiss"]["kappa"], abs=1e-12)
    assert ws.live.figures.alpha.value == pytest.approx(printed["alpha"]["value"], abs=1e-12)

    plan = ["1", "2", "A", "3", "1", "A", "2", "pick", "3", "A", "1", "2", "A", "3", "1", "A", "2", "3", "A", "1"]
    expected: list[tuple[tuple[str, str], tuple[str, ...], str]] = []
    presses = 0
    for step in plan:
        # offscreen leaves no window active after a modal dialog; a desktop re-activates the window
        qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=60_000)
        i = ws.current
        assert i >= 0 and wb.status[i] == 0
        key = wb.key_of(i)
        if step in "123" and wb.answer_of_key(i, int(step)) is None:
            step = "A"
        if step == "pick":
            x = int(wb.cols.lexelt[i])
            inv = wb.corpus.inventory
            node = next(int(n) for n in inv.lexelt_nodes[x] if "2." in inv.node_id[int(n)].lower()
                        or "2." in inv.node_gloss[int(n)].lower())
            expected.append((key, (inv.node_id[node],), "manual"))

            def drive() -> None:
                dlg = QApplication.activeModalWidget()
                assert isinstance(dlg, PickDialog)
                qtbot.keyClicks(dlg.search, "2.")
                qtbot.keyClick(dlg.search, Qt.Key.Key_Return)

            from PySide6.QtCore import QTimer
            QTimer.singleShot(50, drive)
            _press(qtbot, table, Qt.Key.Key_Space)
            presses += 1 + 2 + 1
        elif step == "A":
            s = wb.suggestion(i)
            expected.append((key, tuple(s.tags), "suggestion"))
            _press(qtbot, table, Qt.Key.Key_A)
            presses += 1
        else:
            a = wb.answer_of_key(i, int(step))
            expected.append((key, tuple(a.tags), f"set:{a.name}"))
            _press(qtbot, table, getattr(Qt.Key, f"Key_{step}"))
            presses += 1
        qtbot.waitUntil(lambda: ws.current != i, timeout=60_000)  # moved on by itself
        assert wb.status[i] == 1 and wb.gold[i] == " ".join(expected[-1][1])
    assert len(win.session.decisions) == 20
    assert presses / len(plan) <= 1.2, presses / len(plan)

    def platform_keys(std: QKeySequence.StandardKey) -> None:
        combo = QKeySequence.keyBindings(std)[0][0]
        qtbot.keyClick(table, combo.key(), combo.keyboardModifiers())

    platform_keys(QKeySequence.StandardKey.Undo)
    platform_keys(QKeySequence.StandardKey.Undo)
    assert len(win.session.decisions) == 18
    platform_keys(QKeySequence.StandardKey.Redo)
    assert len(win.session.decisions) == 19
    assert "19 decisions" in win.windowTitle() and "saved" in win.windowTitle()

    # row colours and roles of the table
    model = ws.model
    for row in range(min(model.rowCount(), 30)):
        idx = model.index(row, 0)
        assert model.data(idx, CategoryRole) == 3
        assert model.data(idx, Qt.ItemDataRole.BackgroundRole).color() == category_color(3)
        assert "disjoint" in model.data(idx, Qt.ItemDataRole.DisplayRole)
    gold_col = model.keys.index("gold")
    row0 = wb.row_of(wb.corpus.instance_index(*expected[0][0]))
    assert model.data(model.index(row0, gold_col)) == " ".join(expected[0][1])
    assert model.data(model.index(row0, 0), InstanceRole) == wb.corpus.instance_index(*expected[0][0])
    win.close()

    session = Session.open(demo_project)
    try:
        snap = session.decisions.snapshot()
        want = expected[:19]
        assert len(snap) == 19
        assert {k: (d.tags, d.source) for k, d in snap.items()} == {k: (t, s) for k, t, s in want}
    finally:
        session.close()
    print(f"key presses per decision: {presses}/{len(plan)} = {presses / len(plan):.2f}; "
          f"with the 3 undo/redo presses, per final decision: {(presses + 3) / 19:.2f}")


def test_models_pass_modeltester(qtbot, qtmodeltester, demo_project: Path) -> None:
    win = _open(qtbot, demo_project)
    qtmodeltester.check(win.ws.model)
    qtmodeltester.check(win.ws.detail.leaf_model)
    win.ws.set_category((1, 2, 3))
    qtmodeltester.check(win.ws.model)
    win.close()


def test_detail_tree_and_chart_follow_the_instance(qtbot, demo_project: Path) -> None:
    win = _open(qtbot, demo_project)
    ws, wb = win.ws, win.wb
    i = ws.current
    ctx = wb.context(i)
    a, b = ctx.head
    assert ctx.text[a:b] in ws.detail.context.toPlainText()
    assert "background" in ws.detail.context.toHtml()
    lm = ws.detail.leaf_model
    n_leaves = int(wb.corpus.inventory.n_leaves[int(wb.cols.lexelt[i])])
    answers = wb.answers(i)
    # leaf rows of the table carry the same probabilities as the chart's bars
    chart = ws.detail.chart
    for k, bar in enumerate(chart.bars[:len(answers)]):
        lengths = np.asarray(bar.opts["width"])  # horizontal bars: one row per leaf shown
        keep = chart.shown_leaves
        assert lengths.shape[0] == len(chart.tick_labels) and keep.size <= n_leaves
        np.testing.assert_allclose(lengths[:keep.size], answers[k].leaves[keep])
        if keep.size < n_leaves:  # the rest summed into one "others" row
            assert lengths[-1] == pytest.approx(answers[k].leaves.sum() - answers[k].leaves[keep].sum())
    total = sum(lm.data(lm.index(r, 1), Qt.ItemDataRole.UserRole + 20) for r in range(lm.rowCount())
                if lm.is_leaf[r])
    assert total == pytest.approx(answers[0].leaves.sum())
    # the tree marks the first set's tags with "1"
    marked = [it.text(0) for it in ws.tree.items.values() if "1" in it.text(1).split()]
    assert sorted(marked) == sorted(answers[0].tags)
    win.close()


def test_help_overlay_lists_every_shortcut(qtbot, demo_project: Path) -> None:
    from hieradjudicate.gui.actions import ACTIONS, shortcut_text

    win = _open(qtbot, demo_project)
    win.show_help()
    assert win.help.isVisible()
    text = win.help.text()
    for spec in ACTIONS:
        if spec.shortcut is not None and not spec.id.startswith("take"):
            assert shortcut_text(spec) in text, spec.id
    assert "1 – 9" in text
    qtbot.keyClick(win.help, Qt.Key.Key_Escape)
    assert not win.help.isVisible()
    win.close()
