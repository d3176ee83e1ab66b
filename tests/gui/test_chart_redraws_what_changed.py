"""The instance chart sets again only the bar items whose bars change from one instance to the next,
and after any walk through the instances it draws exactly what a chart drawn afresh for the instance
shown draws: every set's bars, the gold frame, the empty-chart text and the rows in view."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.gui.main_window import MainWindow
from tests.crowd import crowd_project
from tests.gui.journey import open_window


def _drawn(chart) -> list:
    items = [*chart.bars, chart.gold_bars]
    out = [[np.asarray(b.opts.get(k) if b.opts.get(k) is not None else [], float).tolist()
            for k in ("x0", "y", "width")] + [b.opts.get("height")] for b in items]
    return [out, chart.empty_text.textItem.toPlainText(), chart.tick_labels,
            chart.getPlotItem().getViewBox().viewRange()[1]]


def test_the_chart_after_a_walk_draws_what_a_fresh_chart_draws(qtbot, private_dirs, tmp_path: Path) -> None:
    w: MainWindow = open_window(qtbot, crowd_project(tmp_path / "crowd.hadj", 30, per_item=7, per_word=6))
    try:
        chart = w.ws.detail.chart
        names = ["share of the votes", "competence posterior"]
        calls, draws = [], []
        show = chart.show_data
        chart.show_data = lambda *a, **k: (draws.append(1), show(*a, **k))[1]

        def count(item) -> None:
            set_opts = item.setOpts
            item.setOpts = lambda *a, _f=set_opts, **k: (calls.append(1), _f(*a, **k))[1]

        for b in [*chart.bars, chart.gold_bars]:
            count(b)
        for key in [Qt.Key.Key_N] * 8 + [Qt.Key.Key_1, Qt.Key.Key_Up, Qt.Key.Key_N]:
            qtbot.keyClick(w.ws.table, key)
            QApplication.processEvents()
            walked = _drawn(chart)
            data = chart._data
            chart.ensure_sets(names[:1])  # new bar items, nothing remembered: the same data drawn afresh
            chart.ensure_sets(names)
            for b in chart.bars:
                count(b)
            chart.show_data(*data)
            QApplication.processEvents()
            assert walked == _drawn(chart), key
        shown = min(len(chart.bars), 2)  # the bar items that hold bars, and the gold frame
        assert len(draws) >= 2 * 8  # each step's draw and the same drawn afresh
        # the afresh draws set every item; the steps' draws left some as they were
        assert 0 < len(calls) < len(draws) * (shown + 1)
    finally:
        w.close_project()
        QApplication.processEvents()
