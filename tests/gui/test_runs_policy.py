"""The window's run history and run-against-run view follow the dashboard's policy choice (#25
gap 2): chosen with the keyboard in the paired tests, the runs panel scores under it too; and it
can be chosen in the runs panel itself."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QScrollArea

from hieradjudicate.gui.main_window import MainWindow
from tests.conftest import DEMO
from tests.gui.test_dashboard import decided_demo, win  # noqa: F401  (fixtures)


def _add_runs(qtbot, win: MainWindow) -> None:  # noqa: F811
    panel = win.dashboard.view.runs
    win.dashboard.view.findChild(QScrollArea, "dash_scroll").ensureWidgetVisible(panel)
    for name, path in (("lesk", DEMO / "system_lesk.ans"), ("neural", DEMO / "system_neural.ans")):
        qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
        dlg = panel.dialog
        qtbot.keyClicks(dlg.path, str(path))
        qtbot.keyClicks(dlg.name, name)
        qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not dlg.isVisible())  # noqa: B023


def _shown_f1(panel) -> list[float]:
    return [float(panel.table.item(r, 5).text()) for r in range(panel.table.rowCount())]


def test_runs_follow_the_dashboard_policy(qtbot, win: MainWindow) -> None:  # noqa: F811
    from hieradjudicate.app.runs import run_history
    from hieradjudicate.core.compare.comparison import correct_matrix

    _add_runs(qtbot, win)
    dv = win.dashboard.view
    runs, sig = dv.runs, dv.significance
    # from the first figures, the runs under the paired tests' policy (#31 item 4: the runs panel was on
    # fine while the paired panel showed leaf, two p-values for one pair)
    assert runs.policy.currentText() == sig.policy.currentText() == "leaf"
    assert [runs.policy.itemText(k) for k in range(runs.policy.count())] == ["leaf", "fine", "coarse", "mixed"]
    # the paired tests' policy chosen with the keyboard: leaf -> fine -> coarse; the runs follow
    sig.policy.setFocus()
    qtbot.keyClick(sig.policy, Qt.Key.Key_Down)
    qtbot.keyClick(sig.policy, Qt.Key.Key_Down)
    assert sig.policy.currentText() == "coarse" and runs.policy.currentText() == "coarse"
    coarse = run_history(win.session, "coarse")
    fine = run_history(win.session, "fine")
    assert [h.f1 for h in coarse] != [h.f1 for h in fine]
    assert _shown_f1(runs) == pytest.approx([h.f1 for h in coarse], abs=5e-4)
    np.testing.assert_allclose(runs.lines["f1"].yData, [h.f1 for h in coarse])
    right = correct_matrix(np.vstack([coarse[0].score, coarse[1].score]))
    gained, lost = int((right[1] & ~right[0]).sum()), int((right[0] & ~right[1]).sum())
    assert runs.changes.rowCount() == gained + lost
    assert f"neural against lesk (coarse): {gained} gained, {lost} lost" in runs.verdict.text()
    # chosen in the runs panel itself: leaf
    runs.policy.setFocus()
    qtbot.keyClick(runs.policy, Qt.Key.Key_Home)
    assert runs.policy.currentText() == "leaf"
    leaf = run_history(win.session, "leaf")
    assert _shown_f1(runs) == pytest.approx([h.f1 for h in leaf], abs=5e-4)
    assert "(leaf)" in runs.verdict.text()
