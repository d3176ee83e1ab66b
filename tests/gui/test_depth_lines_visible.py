"""The depth chart on the demo: pairs whose figures are equal (or nearly, as ann–cho and ben–cho) are
drawn side by side, never on each other, and hovering one names it with its exact value (#31)."""

from __future__ import annotations

import gc
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication, QToolTip

from hieradjudicate.gui.dashboard.common import widget_pos
from hieradjudicate.gui.main_window import MainWindow


def _dashboard(qtbot, path: Path) -> MainWindow:
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.load_project(path)
    w.resize(1024, 700)
    w.show()
    qtbot.waitExposed(w)
    w.dashboard.show_dashboard()
    dv = w.dashboard.view
    qtbot.waitUntil(lambda: dv.data is not None and not dv.updating and not dv.slow.busy, timeout=60_000)
    return w


def test_every_pair_of_the_depth_chart_is_a_point_of_its_own_and_hover_names_it(qtbot, demo_project: Path):
    w = _dashboard(qtbot, demo_project)
    panel = w.dashboard.view.depth_panel
    d = panel.data
    vals = np.ma.filled(np.ma.asarray(d.pair_values, float), np.nan)
    assert len(panel.lines) == len(d.pairs) >= 3
    xs = np.array([line.xData for line in panel.lines])
    for p, line in enumerate(panel.lines):  # the figures themselves, unchanged
        np.testing.assert_allclose(line.yData, vals[p], equal_nan=True)
    # no two pairs, and no pair and the group, share an x at any level; each stays inside its level's slot
    everyone = np.vstack([xs, panel.group.xData[None, :]])
    for j in range(len(d.levels)):
        assert len(set(np.round(everyone[:, j], 9))) == len(d.pairs) + 1
        assert np.all(np.abs(everyone[:, j] - j) < 0.25)
    # hovering each pair's point at the leaves: the tooltip names that pair and its exact value
    j = len(d.levels) - 1
    plot = panel.plot
    for p, (a, b) in enumerate(d.pairs):
        # the scene's own mouse-move signal at the point (a synthetic move of the offscreen
        # platform's cursor does not always reach the view: the test would hang on the platform)
        plot.scene().sigMouseMoved.emit(plot.mapToScene(widget_pos(plot, float(xs[p, j]), float(vals[p, j]))))
        want = f"{a}–{b} at {d.levels[j]}: {vals[p, j]:.4f}"
        qtbot.waitUntil(lambda want=want: QToolTip.text().startswith(want), timeout=60_000)
        close = [k for k in range(len(d.pairs)) if k != p and abs(vals[k, j] - vals[p, j]) <= 0.01]
        for k in close:  # the pairs it nearly covers are named beside it
            assert f"{'–'.join(d.pairs[k])} {vals[k, j]:.4f}" in QToolTip.text()
    w.close_project()
    QApplication.processEvents()
    gc.collect()


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 300])
def test_pair_offsets_are_distinct_symmetric_and_leave_the_level_to_the_group(n: int):
    from hieradjudicate.gui.dashboard.plots import PAIR_SPREAD, pair_offsets

    o = pair_offsets(n)
    assert o.size == n and len(set(o.round(12))) == n
    assert np.all(o != 0) and np.all(np.abs(o) <= PAIR_SPREAD / 2)
