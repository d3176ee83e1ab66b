"""Opening a project makes the Timeline tab's page but not its plots (pyqtgraph's plot items: 0.1-0.2
CPU-s of every opening of MASC); the first click on the tab makes them.  The window is laid out the same
before and after: the page's minimum height (the tabs' while the Timeline is shown) is the same with the
plots' stand-ins as with the plots, and back on the workbench the detail dock and the instance table
keep their heights once the tab has been visited (hidden, the Timeline holds no room:
tests/gui/test_hidden_tabs_hold_no_room.py)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.app.session.session import Session
from hieradjudicate.gui.main_window import MainWindow
from tests.app.test_timeline import project  # noqa: F401  (the fixture)


def _click_tab(qtbot, tabs, text: str) -> None:
    bar = tabs.tabBar()
    k = next(j for j in range(tabs.count()) if tabs.tabText(j) == text)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(k).center())


def _settle(qtbot) -> None:
    """The window laid out again (the docks come back after a tab change)."""
    for _ in range(5):
        QApplication.processEvents()
        qtbot.wait(20)


def test_the_timeline_plots_are_made_at_the_first_click_and_the_docks_stay_where_they_were(
        qtbot, project: Session, monkeypatch) -> None:  # noqa: F811
    path = project.path
    project.close()
    monkeypatch.setenv("HIERADJ_FIXED_GEOMETRY", "1")  # the size asked for, whatever the offscreen screen's
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1024, 670)  # a short window: the tabs' minimum height bounds the detail dock's
    win.show()
    qtbot.waitExposed(win)
    assert win.load_project(path)
    _settle(qtbot)
    tabs, page, dock = win.dashboard.tabs, win.dashboard.timeline, win.docks["detail"]
    assert page.imports_plot is None and page.findChildren(pg.PlotWidget) == []  # no plot made yet
    before = (page.minimumSizeHint(), dock.geometry(), win.ws.table.viewport().height())

    _click_tab(qtbot, tabs, "Timeline")
    qtbot.waitUntil(lambda: page.view is not None and page.rebuilding.text() == "", timeout=60_000)
    assert isinstance(page.imports_plot, pg.PlotWidget) and page.decisions_plot.isVisible()
    # the stand-ins are gone: every view left is a plot (the dated answers' panel's is hidden: no dates)
    assert all(isinstance(v, pg.PlotWidget) for v in page.findChildren(pg.GraphicsView))
    assert not page.dated.isVisible()
    assert page.minimumSizeHint() == before[0]

    _click_tab(qtbot, tabs, "Workbench")
    _settle(qtbot)
    # the docks come back through queued relayouts: on a loaded machine the last may come after the
    # settling above, so the layout is waited for (a real change of it still fails, after 10 s)
    now = lambda: (page.minimumSizeHint(), dock.geometry(), win.ws.table.viewport().height())  # noqa: E731
    qtbot.waitUntil(lambda: now() == before, timeout=10_000)
    win.close_project()
