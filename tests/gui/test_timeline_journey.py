"""The Timeline tab through the real window (issue 32): open it with a click, read the plots, add a
marker with the keyboard and a click, see it drawn and compared before/after, hover a point."""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPointF, Qt

from hieradjudicate.app.session.session import Session
from hieradjudicate.app.timeline_marks import markers
from hieradjudicate.io.store.project_store import Store
from tests.app.test_timeline import DAYS, project  # noqa: F401  (the fixture)
from tests.gui.journey import open_window, type_into


def test_timeline_tab_draws_the_days_and_takes_a_marker(qtbot, project: Session) -> None:  # noqa: F811
    path = project.path
    n = project.corpus.n
    project.close()
    win = open_window(qtbot, path)
    tabs = win.dashboard.tabs
    k = next(j for j in range(tabs.count()) if tabs.tabText(j) == "Timeline")
    bar = tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(k).center())
    page = win.dashboard.timeline
    qtbot.waitUntil(lambda: page.view is not None, timeout=60_000)
    assert tabs.currentWidget() is page and "import and decision times only" in page.note.text()
    # the resolved share per day, as drawn, equals the counts of the view
    curve = next(c for c in page.decisions_plot.getPlotItem().listDataItems() if c.name() == "resolved share")
    _, ys = curve.getData()
    assert [round(y * n) for y in ys] == [p.counts["resolved"] for p in page.view.decisions.points]
    assert [p.label for p in page.view.decisions.points] == list(DAYS)

    type_into(qtbot, page.marker_label, "guidelines v2")
    type_into(qtbot, page.marker_at, "2026-03-03")
    qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Marker added" in page.hover.text(), timeout=60_000)
    lines = [i for i in page.decisions_plot.getPlotItem().items if isinstance(i, pg.InfiniteLine)]
    assert len(lines) == 1 and lines[0].value() == pytest.approx(page._x("2026-03-03T00:00:00.000Z"))
    assert "guidelines v2" in page.details.toPlainText() and "unpaired" in page.details.toPlainText()

    # hover the last day's overturn point: its figure and interval are shown
    last = page.view.decisions.points[-1]
    vb = page.decisions_plot.getPlotItem().vb
    scene = vb.mapViewToScene(QPointF(page._x(last.end), last.overturn.value))
    # what a mouse move over the plot emits (QTest's move reaches no hover handler offscreen)
    page.decisions_plot.scene().sigMouseMoved.emit(scene)
    assert f"{last.overturn.value:.3f} [{last.overturn.low:.3f}, {last.overturn.high:.3f}]" in page.hover.text()
    win.close()
    with Store.open(path, read_only=True) as st:  # the marker is in the project
        assert [(m.label, m.at) for m in markers(st)] == [("guidelines v2", "2026-03-03T00:00:00.000Z")]
