"""A hidden tab holds no room: the project's page is as short as the shown tab lets it be, so the
instance dock below it can take the height a longer suggestion needs without the window being laid
out again (and shrinking back) on the next step.  The Timeline tab, hidden, used to hold the
workbench's table area at its own minimum height."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.gui.journey import open_window


def _click_tab(qtbot, tabs, text: str) -> None:
    j = next(j for j in range(tabs.count()) if tabs.tabText(j) == text)
    bar = tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(j).center())
    qtbot.waitUntil(lambda: tabs.currentIndex() == j)
    for _ in range(4):
        QApplication.processEvents()


def _page(tabs, text: str):
    return tabs.widget(next(j for j in range(tabs.count()) if tabs.tabText(j) == text))


def test_only_the_shown_tab_sets_the_project_pages_minimum_height(qtbot, demo_project):
    win = open_window(qtbot, demo_project)
    tabs = win.dashboard.tabs
    central = win.centralWidget()
    timeline = _page(tabs, "Timeline")
    workbench = _page(tabs, "Workbench")
    assert timeline.minimumSizeHint().height() > workbench.minimumSizeHint().height()  # the case tested

    def least() -> int:
        return central.minimumSizeHint().height()

    # on the workbench: its own minimum (and the tab bar's), not the hidden Timeline's
    assert least() < timeline.minimumSizeHint().height()
    _click_tab(qtbot, tabs, "Timeline")
    assert least() >= timeline.minimumSizeHint().height()  # shown, the Timeline keeps its room
    _click_tab(qtbot, tabs, "Workbench")
    assert least() < timeline.minimumSizeHint().height()


def test_the_instance_dock_keeps_its_height_from_step_to_step(qtbot, demo_project):
    """On a window as short as a 1024x700 screen gives, the N key through every instance leaves the
    instance table's height as it was: no step lays the window out again."""
    win = open_window(qtbot, demo_project)
    win.resize(1024, 640)
    for _ in range(6):
        QApplication.processEvents()
    ws = win.ws
    ws.table.setFocus()
    qtbot.keyClick(win, Qt.Key.Key_N)
    for _ in range(6):
        QApplication.processEvents()
    heights = set()
    for _ in range(ws.model.rowCount() + 2):
        qtbot.keyClick(win, Qt.Key.Key_N)
        for _ in range(6):
            QApplication.processEvents()
        heights.add(ws.table.height())
    assert len(heights) == 1, heights
