"""The dashboard's plots raise no warning (issue #35): a line or scatter with nothing to draw was
given all-NaN data, whose bounds pyqtgraph takes with ``np.nanmin`` ("All-NaN slice encountered",
32 of a suite run's warnings).  Driven in the real window: a workbench filter that leaves no
instance, the Dashboard tab, then the whole project again."""

from __future__ import annotations

import warnings
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QTabBar

from tests.gui.journey import open_window, type_into


def test_the_dashboard_of_an_empty_filter_and_back_raises_no_warning(qtbot, demo_project: Path) -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        win = open_window(qtbot, demo_project)
        type_into(qtbot, win.ws.search, "zzqqxxnothing")
        qtbot.waitUntil(lambda: win.ws.count.text().startswith("0 of 400"), timeout=60_000)
        bar = win.dashboard.tabs.findChild(QTabBar)
        qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
        view = win.dashboard.view
        qtbot.waitUntil(lambda: not view.updating and view.state.text().startswith("0 of 400"), timeout=60_000)
        for plot in (p for panel in (view.depth_panel, view.lexelts, view.progress) for p in panel.plots):
            plot.grab()  # painted: the bounds are taken again when drawn
        type_into(qtbot, win.ws.search, "")
        qtbot.waitUntil(lambda: win.ws.count.text().startswith("400 of 400"), timeout=60_000)
        qtbot.waitUntil(lambda: not view.updating and view.state.text().startswith("whole project"),
                        timeout=60_000)
        QApplication.processEvents()
        win.close()
    mine = [f"{w.filename}:{w.lineno}: {w.category.__name__}: {w.message}" for w in seen
            if issubclass(w.category, RuntimeWarning) or "/hieradjudicate/" in w.filename]
    assert mine == [], "\n".join(mine)
