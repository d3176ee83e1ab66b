"""#23: opening builds none of the dashboard's pyqtgraph widgets (about a second of every open on MASC);
the competence estimate behind Shift+A still runs at open, and the first click on "Dashboard" shows
the step box while the panels are built, then the figures.  Synthetic crowd data shaped like MASC's
(40 worker sets, each labelling a subset)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.gui.main_window import MainWindow
from tests.crowd import crowd_project


@pytest.fixture(scope="module")
def crowd40(tmp_path_factory) -> Path:
    return crowd_project(tmp_path_factory.mktemp("crowd") / "crowd40.hadj", 40)


@pytest.fixture
def win(qtbot, private_dirs, crowd40: Path) -> Iterator[MainWindow]:
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    assert w.load_project(crowd40)
    yield w
    w.close_project()
    QApplication.processEvents()
    gc.collect()


def _plots(w: MainWindow) -> int:
    return len(w.findChildren(pg.PlotWidget))


def test_open_builds_no_dashboard_plot_yet_shift_a_takes_the_weighted_suggestion(qtbot, win: MainWindow) -> None:
    w = win
    live_plots = _plots(w)  # the workbench's own (the live panel's, the detail's leaf chart)
    assert w.dashboard.view is None and w.dashboard.tabs.currentIndex() == 0
    assert w.dashboard.tabs.widget(1).findChildren(pg.PlotWidget) == []  # the Dashboard tab's page: empty
    # the estimate runs at open all the same (after the warm-up of the dashboard's figures)
    qtbot.waitUntil(lambda: w.wb.competence is not None, timeout=600_000)
    i = w.ws.current
    weighted = w.wb.suggestion(i).weighted
    assert weighted and w.wb.source[i] != "suggestion"
    # the window active again (the opening's step box was the active window a moment ago): a
    # window-wide shortcut reaches the window that is active
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=60_000)
    w.ws.table.setFocus()
    qtbot.keyClick(w.ws.table, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)
    assert tuple(w.wb.gold[i].split()) == tuple(weighted) and w.wb.source[i] == "suggestion"
    assert w.session.decisions.current(*w.wb.key_of(i)).basis["model"] == w.wb.competence.model
    assert w.dashboard.view is None and _plots(w) == live_plots  # still nothing of the dashboard built


def test_first_click_on_the_dashboard_shows_the_step_box_then_the_figures(qtbot, win: MainWindow) -> None:
    w = win
    before = _plots(w)
    bar = w.dashboard.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    view = w.dashboard.view
    assert view is not None and w.dashboard.tabs.currentIndex() == 1
    # the box stood over the tab while each slice of panels was built (the GUI thread is busy meanwhile)
    texts = [s.text for s in view.first.record]
    building = [k for k, t in enumerate(texts) if t.startswith("Building the dashboard's panels: ")]
    assert len(building) == 4 and all(view.first.record[k].visible for k in building)
    assert view.data is None and view.first.isVisible()  # then the figures: never a blank tab
    assert _plots(w) >= before + 12  # the dashboard's plots (the competence panel has two)
    qtbot.waitUntil(lambda: view.first.finished, timeout=60_000)
    assert not view.first.isVisible() and view.data is not None
    texts = [s.text for s in view.first.record]
    assert texts[-1] == "Drawing the figures" and building[-1] < len(texts) - 1
    assert view.heatmap.isVisible() and len(view.panels) == 11
