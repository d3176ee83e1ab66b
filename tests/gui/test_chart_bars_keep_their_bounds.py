"""The instance chart's bar items answer Qt's repeated questions for their bounding rectangle without
measuring a pixel through the view's transform again (pyqtgraph did at each), and the rectangle they
keep is always the one pyqtgraph computes afresh: after steps to other instances (new bars, another
number of rows: another vertical range), after a decision that frames a gold sense, and after the
window is resized (another pixel size)."""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.gui.main_window import MainWindow
from hieradjudicate.gui.workbench.panels.chart_bars import ChartBars
from tests.crowd import crowd_project
from tests.gui.journey import background_settled, open_window


def test_the_bars_kept_bounds_are_pyqtgraphs_after_steps_decisions_and_resizes(qtbot, private_dirs,
                                                                               tmp_path: Path) -> None:
    w: MainWindow = open_window(qtbot, crowd_project(tmp_path / "crowd.hadj", 30, per_item=7, per_word=6))
    try:
        background_settled(qtbot, w)
        chart = w.ws.detail.chart
        items = [*chart.bars, chart.gold_bars]
        assert items and all(isinstance(b, ChartBars) for b in items)
        measured = []
        for b in items:  # each time pyqtgraph measures a pixel through the view's transform
            pixel = b.pixelVectors
            b.pixelVectors = lambda *a, _f=pixel, **k: (measured.append(1), _f(*a, **k))[1]
        w.ws.table.setFocus()
        steps = [Qt.Key.Key_N] * 7 + [Qt.Key.Key_1, Qt.Key.Key_Up, "resize", Qt.Key.Key_N, Qt.Key.Key_Up, "resize"]
        framed = False
        for step in steps:
            if step == "resize":
                w.resize(w.width() + 120, w.height() + 80)
            else:
                qtbot.keyClick(w.ws.table, step)
            QApplication.processEvents()
            framed |= len(chart.gold_bars.opts["y"]) > 0
            for b in items:
                b.boundingRect()  # computed at most once for what the bars and the view are now
                before = len(measured)
                kept = [b.boundingRect() for _ in range(3)]
                assert len(measured) == before, step  # asked again: nothing measured again
                assert all(r == pg.BarGraphItem.boundingRect(b) for r in kept), step
        assert framed  # the decision framed its sense: the gold item's bounds were checked with bars
    finally:
        w.close_project()
        QApplication.processEvents()
