"""The Timeline of a project minutes old: its time axis says how long in a unit that reads (s, min,
h, d), never "days since the first event (x1e-06)" over ticks 0 … 800 (what a new user saw)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from tests.gui.journey import back_to, open_timeline, open_window


def test_a_young_projects_timeline_axis_reads_in_seconds_or_minutes(qtbot, demo_project: Path) -> None:
    win = open_window(qtbot, demo_project)
    back_to(qtbot, win)
    for key in (Qt.Key.Key_1, Qt.Key.Key_2):  # two decisions, seconds after the project was made
        qtbot.keyClick(win.ws.table, key)
    win.close()
    win, _tabs, page = open_timeline(qtbot, demo_project)
    qtbot.waitUntil(lambda: page.view is not None and bool(page.view.imports) and not page.runner.busy,
                    timeout=60_000)
    for plot in (page.imports_plot, page.decisions_plot):
        axis = plot.getAxis("bottom")
        assert "x1e" not in axis.labelString(), axis.labelString()
        lo, hi = plot.getPlotItem().vb.viewRange()[0]
        assert hi - lo < 1, "a project minutes old spans less than a day"
        ticks = [s for spacing, values in axis.tickValues(lo, hi, 600)
                 for s in axis.tickStrings(values, axis.autoSIPrefixScale, spacing)]
        assert ticks and all(t == "0" or t.endswith((" s", " min", " h")) for t in ticks), ticks
    win.close()
