"""The dashboard's paired tests and gained/lost table (#25 items 1-2) in the real window: the
figures against the dashboard API, the choice of policy and systems by keyboard, and a
double-click on a gained/lost instance opening it in the workbench."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QScrollArea

from hieradjudicate.core.compare.significance import METRICS
from hieradjudicate.gui.main_window import MainWindow
from tests.conftest import DEMO
from tests.gui.test_dashboard import _expected, decided_demo, win  # noqa: F401  (fixtures)


def _shown(panel) -> list[list[str]]:
    t = panel.tests
    return [[t.item(r, c).text() for c in range(t.columnCount())] for r in range(t.rowCount())]


def test_paired_tests_and_gained_lost_open_in_the_workbench(qtbot, win: MainWindow) -> None:  # noqa: F811
    dv = win.dashboard.view
    panel = dv.significance
    exp = _expected(win, n_resamples=20, intervals=True).significance
    assert exp is not None and len(exp.names) >= 2
    assert [panel.policy.itemText(k) for k in range(panel.policy.count())] == exp.policies
    assert panel.baseline.currentIndex() == 0 and panel.system.currentIndex() == 1
    t = exp.tests["leaf"][0]  # names[0] - names[1]; shown as system (names[1]) - baseline (names[0])
    rows = _shown(panel)
    assert [r[0] for r in rows] == ["P", "R", "F1", "McNemar (right)"]
    for k, m in enumerate(METRICS):
        v = t.metrics[m]
        assert float(rows[k][1]) == pytest.approx(-v.difference, abs=5e-4)
        assert rows[k][3] == (f"{v.p_value:.4f}" if v.p_value >= 1e-4 else f"{v.p_value:.1e}")
    np.testing.assert_allclose(panel.points.data["y"], [-t.metrics[m].difference for m in METRICS])
    assert int(rows[3][5]) == t.mcnemar.a_only and int(rows[3][6]) == t.mcnemar.b_only
    changes = exp.changes("leaf", 0, 1)
    assert panel.changes.rowCount() == len(changes) > 0
    o = exp.open_ranges  # the demo's gold: the agreed instances; the rest still open
    assert o is not None and f"rest on {o['decided']} decided instance(s); {o['open']} open" in panel.open.text()
    f1 = o["by_policy"]["leaf"]["pairs"][(0, 1)]["f1"]  # the policy chosen: leaf (#31 item 4)
    lo, hi = sorted((-f1["low"], -f1["high"]))
    assert f"[{lo:.3f}, {hi:.3f}]" in panel.open.text() and "F1 (leaf)" in panel.open.text()
    assert f"{sum(c.change == 'gained' for c in changes)} instance(s) gained" in panel.counts.text()

    # the fine policy, chosen with the keyboard
    panel.policy.setFocus()
    qtbot.keyClick(panel.policy, Qt.Key.Key_Down)
    assert panel.policy.currentText() == "fine"
    fine = exp.changes("fine", 0, 1)
    assert panel.changes.rowCount() == len(fine)
    f1 = o["by_policy"]["fine"]["pairs"][(0, 1)]["f1"]  # the "could flip" sentence follows the Policy box
    lo, hi = sorted((-f1["low"], -f1["high"]))
    assert f"[{lo:.3f}, {hi:.3f}]" in panel.open.text() and "F1 (fine)" in panel.open.text()
    assert float(_shown(panel)[2][1]) == pytest.approx(-exp.tests["fine"][0].metrics["f1"].difference, abs=5e-4)

    # swap the roles: baseline = the second system; the differences change sign
    panel.baseline.setFocus()
    qtbot.keyClick(panel.baseline, Qt.Key.Key_Down)
    assert panel.baseline.currentIndex() == 1
    panel.system.setFocus()
    qtbot.keyClick(panel.system, Qt.Key.Key_Up)
    assert panel.system.currentIndex() == 0
    assert float(_shown(panel)[2][1]) == pytest.approx(exp.tests["fine"][0].metrics["f1"].difference, abs=5e-4)
    swapped = exp.changes("fine", 1, 0)
    assert {c.change for c in swapped} <= {"gained", "lost"}
    assert sorted(c.instance for c in swapped) == sorted(c.instance for c in fine)

    # double-click the first gained/lost instance: the workbench opens on it
    first = panel.rows[0]
    dv.findChild(QScrollArea, "dash_scroll").ensureWidgetVisible(panel.changes)
    item = panel.changes.item(0, 2)
    pos = panel.changes.visualItemRect(item).center()
    # a double-click as the mouse gives it: press and release, then the double-click
    qtbot.mouseClick(panel.changes.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(panel.changes.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: win.dashboard.tabs.currentIndex() == 0)
    assert win.ws.current == first
    lexelt, inst = win.wb.corpus.instance_key(first)
    assert item.text() == inst and panel.changes.item(0, 1).text() == lexelt


def _credit_by_hand(decisions, path) -> tuple[dict, int]:
    """Each answered gold instance's credit, written out: an answer earns the weight of its tags that
    are gold tags (weights given sum to 1; none given: split evenly); and the gold's size."""
    gold = {(r.lexelt, r.instance): set(r.tags) for r in decisions if r.status == "resolved"}
    credit = {}
    for line in Path(path).read_text().splitlines():
        lexelt, inst, *tags = line.split()
        if (lexelt, inst) in gold:
            credit[(lexelt, inst)] = sum((float(w) if w else 1 / len(tags)) * (tag in gold[(lexelt, inst)])
                                         for tag, _, w in (t.partition("/") for t in tags))
    return credit, len(gold)


def _fine_by_hand(decisions, path) -> tuple[float, float]:
    credit, n = _credit_by_hand(decisions, path)
    return sum(credit.values()) / len(credit), sum(credit.values()) / n


def test_add_a_run_in_the_window_and_its_history(qtbot, win: MainWindow, tmp_path) -> None:  # noqa: F811
    from hieradjudicate.app.runs import run_history
    from hieradjudicate.io.store.runs import runs

    panel = win.dashboard.view.runs
    assert panel.table.rowCount() == 0 and "No run stored" in panel.state.text()
    # the runs start under the paired panel's policy (leaf); the fine policy, chosen with the keyboard
    assert panel.policy.currentText() == win.dashboard.view.significance.policy.currentText() == "leaf"
    panel.policy.setFocus()
    qtbot.keyClick(panel.policy, Qt.Key.Key_Down)
    assert panel.policy.currentText() == "fine"
    win.dashboard.view.findChild(QScrollArea, "dash_scroll").ensureWidgetVisible(panel)
    for name, path, note in (("lesk", DEMO / "system_lesk.ans", "first try"), ("", DEMO / "system_neural.ans", "")):
        qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
        dlg = panel.dialog
        assert dlg is not None and dlg.isVisible()
        qtbot.keyClicks(dlg.path, str(path))
        qtbot.keyClicks(dlg.name, name)
        qtbot.keyClicks(dlg.note, note)
        qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not dlg.isVisible())
    stored = runs(win.session.store)
    assert [(r.name, r.note) for r in stored] == [("lesk", "first try"), ("system_neural", "")]
    assert panel.table.rowCount() == 2 and panel.table.item(1, 0).text() == "system_neural"
    p, r = _fine_by_hand(win.session.decisions, DEMO / "system_neural.ans")
    hist = run_history(win.session)
    assert hist[1].precision == pytest.approx(p, abs=1e-12) and hist[1].recall == pytest.approx(r, abs=1e-12)
    assert float(panel.table.item(1, 3).text()) == pytest.approx(p, abs=5e-4)
    np.testing.assert_allclose(panel.lines["f1"].yData, [h.f1 for h in hist])
    # gained/lost of the last run against the first, by hand; a double-click opens one in the workbench
    assert (panel.base_run.currentText(), panel.other_run.currentText()) == ("lesk", "system_neural")
    base, _ = _credit_by_hand(win.session.decisions, DEMO / "system_lesk.ans")
    new, _ = _credit_by_hand(win.session.decisions, DEMO / "system_neural.ans")
    right = lambda c, k: c.get(k, 0.0) >= 1 - 1e-9  # noqa: E731
    keys = set(base) | set(new)
    gained = {k for k in keys if right(new, k) and not right(base, k)}
    lost = {k for k in keys if right(base, k) and not right(new, k)}
    t = panel.changes
    shown = {(t.item(r, 0).text(), t.item(r, 1).text(), t.item(r, 2).text()) for r in range(t.rowCount())}
    assert shown == {("gained", *k) for k in gained} | {("lost", *k) for k in lost}
    assert f"{len(gained)} gained, {len(lost)} lost" in panel.verdict.text()
    win.dashboard.view.findChild(QScrollArea, "dash_scroll").ensureWidgetVisible(t)
    pos = t.visualItemRect(t.item(0, 2)).center()
    qtbot.mouseClick(t.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(t.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: win.dashboard.tabs.currentIndex() == 0)
    assert win.wb.corpus.instance_key(win.ws.current) == (t.item(0, 1).text(), t.item(0, 2).text())
    win.dashboard.show_dashboard()
    # a file that is not answers is refused and said so; nothing is stored
    bad = tmp_path / "notes.txt"
    bad.write_text("hello world\n")
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(panel.dialog.path, str(bad))
    qtbot.keyClicks(panel.dialog.name, "junk")
    qtbot.mouseClick(panel.dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert panel.state.text().startswith("Not stored:") and len(runs(win.session.store)) == 2
    assert "notes.txt" in panel.state.text()
