"""Issue #23: an empty plot shows a sentence saying why (what is missing, what would make it appear),
not bare axes from -400 to 400 (x0.001); the heat map's first set name sits inside its axis.  Driven
in the real window: the Dashboard tab opened with a click on its tab bar, the workbench filter typed
into its search box."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QTabBar

from tests.conftest import DEMO
from tests.crowd import crowd_project
from tests.gui.journey import open_window, type_into

NONE_IN_VIEW = "No instance in the workbench filter"


def _dashboard(qtbot, win, scope: str = "whole project"):
    bar = win.dashboard.tabs.findChild(QTabBar)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    view = win.dashboard.view
    qtbot.waitUntil(lambda: not view.updating and view.state.text().startswith(scope), timeout=60_000)
    QApplication.processEvents()
    return view


def _sentence(plot) -> str:
    item = plot.__dict__.get("_empty_text")  # the one TextItem Panel.set_empty puts over a plot
    return item.toPlainText() if item is not None and item.isVisible() else ""


def _says(panel, plot) -> str:
    """The sentence over ``plot``, after checking that it is in sight inside the plot and that the
    axes show no numbers (the -400..400 of an empty view box)."""
    text = _sentence(plot)
    if not text:
        return ""
    pi = plot.getPlotItem()
    for name in ("left", "bottom"):
        ax = pi.getAxis(name)
        assert not ax.style["showValues"] and not ax.autoSIPrefix, (panel.title, name)
    item = plot.__dict__["_empty_text"]
    box, rect = pi.getViewBox().sceneBoundingRect(), item.sceneBoundingRect()
    assert plot.isVisible() and box.adjusted(-2, -2, 2, 2).contains(rect), (panel.title, box, rect)
    return text


def test_the_demos_empty_plots_say_why(qtbot, demo_project: Path) -> None:
    """No decision yet, no stored run: every plot that has nothing to draw says so."""
    win = open_window(qtbot, demo_project)
    win.resize(1920 - 8, 1080 - 34)
    view = _dashboard(qtbot, win)
    said = {p.key: _says(p, p.plots[0]) for p in (view.significance, view.comparison, view.scores, view.runs,
                                                   view.progress)}
    for key in ("significance", "comparison", "scores"):
        assert said[key].startswith("No decision yet: resolve some instances"), (key, said[key])
    assert said["runs"].startswith("No run stored yet: Add run…")
    assert not view.runs.plot.getPlotItem().legend.isVisible()  # no key to lines that are not there
    assert said["progress"].startswith("No decision yet")
    assert _says(view.progress, view.progress.remaining_plot) == ""  # the open instances are drawn
    # the comparison's kappa table and optimal combination: not an empty white box over the sentence
    assert not view.comparison.table.isVisible() and not view.comparison.optimal.isVisible()
    assert not view.significance.zero.isVisible()  # no zero line through its sentence
    # the drawn figures say nothing over themselves
    qtbot.waitUntil(lambda: view.competence is not None, timeout=600_000)
    for panel in (view.heatmap, view.lexelts, view.depth_panel, view.confusion, view.competence_panel):
        assert all(_sentence(p) == "" for p in panel.plots), panel.title
    win.close()


def test_a_filter_that_leaves_no_instance_is_said_in_every_panel(qtbot, demo_project: Path) -> None:
    win = open_window(qtbot, demo_project)
    type_into(qtbot, win.ws.search, "zzqqxxnothing")
    qtbot.waitUntil(lambda: win.ws.count.text().startswith("0 of 400"), timeout=60_000)
    view = _dashboard(qtbot, win, scope="0 of 400")
    for panel in (view.heatmap, view.lexelts, view.depth_panel, view.progress, view.gold, view.scores,
                  view.comparison, view.significance):
        for plot in panel.plots:
            assert _says(panel, plot).startswith(NONE_IN_VIEW), panel.title
    assert not view.heatmap.texts.items or not any(t.isVisible() for t in view.heatmap.texts.items)
    # back to the whole project: the figures again, the sentences gone
    type_into(qtbot, win.ws.search, "")
    qtbot.waitUntil(lambda: win.ws.count.text().startswith("400 of 400"), timeout=60_000)
    qtbot.waitUntil(lambda: not view.updating and view.state.text().startswith("whole project"), timeout=60_000)
    for panel in (view.heatmap, view.lexelts, view.depth_panel):
        assert _sentence(panel.plots[0]) == "", panel.title
        assert panel.plots[0].getPlotItem().getAxis("left").style["showValues"]
    win.close()


def test_competence_and_tests_without_the_sets_they_need(qtbot, private_dirs: Path) -> None:
    """A reference gold and one system: no competence (no annotator sets) and nothing to test."""
    path = private_dirs / "ref.hadj"
    subprocess.run([sys.executable, "-m", "hieradjudicate", "project", "new", str(path), "--inventory",
                    str(DEMO / "inventory.txt"), "--annotations", f"gold={DEMO / 'annotator_ann.key'}:gold",
                    "--annotations", f"lesk={DEMO / 'system_lesk.ans'}:system"], check=True, timeout=600,
                   capture_output=True)
    win = open_window(qtbot, path)
    win.resize(1920 - 8, 1080 - 34)
    view = _dashboard(qtbot, win)
    comp = view.competence_panel
    qtbot.waitUntil(lambda: "needs three or more" in comp.status.text(), timeout=60_000)
    for plot in comp.plots:
        assert _says(comp, plot) == ("No competence to show: the estimate needs three or more annotator sets on "
                                     "an instance (this project has 0)")
    for panel in (view.significance, view.comparison):
        assert _says(panel, panel.plots[0]) == "One system (lesk): comparing needs at least two", panel.title
    assert not view.significance.note.isVisible()  # not "no adjudicated gold yet" for want of a system
    win.close()


@pytest.fixture(scope="module")
def crowd228(tmp_path_factory) -> Path:
    return crowd_project(tmp_path_factory.mktemp("crowd228") / "crowd228.hadj", 228, per_item=9)


def test_the_heatmaps_first_names_are_inside_their_axes(qtbot, private_dirs, crowd228: Path) -> None:
    """228 sets in a 1024x700 window: the top name on the left axis is drawn whole (it was half above
    the axis, cut), the first name on the bottom axis is there (it was dropped)."""
    win = open_window(qtbot, crowd228)
    win.resize(1024 - 8, 700 - 34)
    view = _dashboard(qtbot, win)
    plot = view.heatmap.plot
    vb = plot.getPlotItem().getViewBox()
    qtbot.waitUntil(lambda: vb.width() > 50)
    QApplication.processEvents()
    left, bottom = plot.getAxis("left"), plot.getAxis("bottom")
    fm = QFontMetrics(left.style.get("tickFont") or plot.font())
    y, name = left._tickLevels[0][0]
    centre = vb.mapViewToScene(QPointF(0, y)).y()
    top = vb.sceneBoundingRect().top()  # the axis runs along the map (its bounding rect is taller)
    assert centre - fm.height() / 2 >= top - 0.5, (name, centre, fm.height(), top)
    x, name = bottom._tickLevels[0][0]
    centre = vb.mapViewToScene(QPointF(x, 0)).x()
    assert centre - fm.horizontalAdvance(name) / 2 >= vb.sceneBoundingRect().left() - 0.5, (name, centre)
    win.close()
