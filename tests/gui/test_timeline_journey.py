"""The Timeline tab through the real window (issue 32): open it with a click, read the plots, add a
marker with the keyboard and a click, see it drawn and compared before/after, hover a point."""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPointF, Qt

from hieradjudicate.app.session.session import Session
from hieradjudicate.app.stats import Stats
from hieradjudicate.app.timeline.marks import markers
from hieradjudicate.io.store.project_store import Store
from tests.app.test_timeline import DAYS, project  # noqa: F401  (the fixture)
from tests.gui.journey import open_timeline, type_into


def plot_pos(plot, x: float, y: float):
    """Where the data point (x, y) is on the plot's viewport."""
    scene = plot.getPlotItem().vb.mapViewToScene(QPointF(x, y))
    return plot.mapFromScene(scene)


def test_timeline_tab_draws_the_days_and_takes_a_marker(qtbot, project: Session) -> None:  # noqa: F811
    path = project.path
    n = project.corpus.n
    project.close()  # its corpus stays readable
    win, tabs, page = open_timeline(qtbot, path)
    qtbot.waitUntil(lambda: page.view is not None and bool(page.view.imports), timeout=60_000)
    assert page.view.imports[-1].figures["fleiss"].value == pytest.approx(
        Stats(project.corpus).agreement_dict(pairs=False)["fleiss"]["kappa"], abs=1e-12)
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
    qtbot.waitUntil(lambda: page.view_generation == page.generation and bool(page.view.markers)
                    and page.rebuilding.text() == "", timeout=60_000)
    lines = [i for i in page.decisions_plot.getPlotItem().items if isinstance(i, pg.InfiniteLine)]
    assert len(lines) == 1 and lines[0].value() == pytest.approx(page._x("2026-03-03T00:00:00.000Z"))
    text = page.details.toPlainText()
    assert "guidelines v2" in text and "unpaired" in text and "created after the marker" in text

    # hover the last day's overturn point: its figure and interval are shown
    last = page.view.decisions.points[-1]
    vb = page.decisions_plot.getPlotItem().vb
    scene = vb.mapViewToScene(QPointF(page._x(last.end), last.overturn.value))
    # what a mouse move over the plot emits (QTest's move reaches no hover handler offscreen)
    page.decisions_plot.scene().sigMouseMoved.emit(scene)
    assert f"{last.overturn.value:.3f} [{last.overturn.low:.3f}, {last.overturn.high:.3f}]" in page.hover.text()

    # click the second day's resolved-share point: the workbench shows the instances decided that day
    k = 1
    day = page.view.decisions.points[k]
    y = day.counts["resolved"] / n
    at = plot_pos(page.decisions_plot, page._x(day.end), y)
    qtbot.mouseClick(page.decisions_plot.viewport(), Qt.MouseButton.LeftButton, pos=at)
    qtbot.waitUntil(lambda: tabs.currentIndex() == 0, timeout=60_000)
    assert sorted(int(i) for i in win.ws.wb.view) == sorted(day.instances.tolist())
    assert day.instances.size == 10
    bar = tabs.tabBar()  # back to the Timeline tab
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(tabs.indexOf(page)).center())
    qtbot.mouseClick(page.show_all, Qt.MouseButton.LeftButton)
    assert win.ws.wb.view.size == n
    win.close()
    with Store.open(path, read_only=True) as st:  # the marker is in the project
        assert [(m.label, m.at) for m in markers(st)] == [("guidelines v2", "2026-03-03T00:00:00.000Z")]


def test_clicking_an_import_point_shows_the_instances_its_sets_answer(qtbot, project: Session,  # noqa: F811
                                                                      tmp_path: Path) -> None:
    from tests.app.test_reimport import edit_key

    edit_key(tmp_path / "src" / "annotator_ben.key", tmp_path / "ben_v2.key", {"bank.n.002": "4"})
    project.reimport("ben", tmp_path / "ben_v2.key")
    path, n = project.path, project.corpus.n
    ben = sorted(int(i) for i in project.corpus.get_set("ben").rows)
    project.close()
    win, tabs, page = open_timeline(qtbot, path)
    qtbot.waitUntil(lambda: page.view is not None and len(page.view.imports) == 2, timeout=60_000)
    reimport = page.view.imports[1]
    assert reimport.event.label.startswith("re-import of ben")
    at = plot_pos(page.imports_plot, page._x(reimport.event.at), reimport.figures["fleiss"].value)
    qtbot.mouseClick(page.imports_plot.viewport(), Qt.MouseButton.LeftButton, pos=at)
    qtbot.waitUntil(lambda: tabs.currentIndex() == 0, timeout=60_000)
    assert sorted(int(i) for i in win.ws.wb.view) == ben and len(ben) < n
    win.close()


def test_the_timeline_tab_reads_the_decision_rows_off_the_gui_thread(qtbot, project: Session,  # noqa: F811
                                                                    monkeypatch) -> None:
    import threading

    from hieradjudicate.io.store import project_store
    from tests.gui.journey import open_window

    path, n_rows = project.path, len(list(project.store.iter_history()))
    project.close()
    win = open_window(qtbot, path)
    on_gui_thread: list[bool] = []
    real, real_brief = project_store.row_from_db, project_store.brief_rows

    def spy(r):  # every decision row the store reads from here on, and in which thread
        on_gui_thread.append(threading.current_thread() is threading.main_thread())
        return real(r)

    def spy_brief(rows):  # the same, read as the columns the timeline uses
        got = real_brief(rows)
        on_gui_thread.extend([threading.current_thread() is threading.main_thread()] * len(got))
        return got
    monkeypatch.setattr(project_store, "row_from_db", spy)
    monkeypatch.setattr(project_store, "brief_rows", spy_brief)
    tabs = win.dashboard.tabs
    bar = tabs.tabBar()
    k_tab = next(j for j in range(tabs.count()) if tabs.tabText(j) == "Timeline")
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(k_tab).center())
    page = win.dashboard.timeline
    qtbot.waitUntil(lambda: page.view is not None, timeout=60_000)
    assert sum(p.decisions + p.withdrawals for p in page.view.decisions.points) == n_rows
    assert len(on_gui_thread) >= n_rows and not any(on_gui_thread)
    win.close()


def test_the_timeline_legends_leave_every_point_in_sight(qtbot, project: Session) -> None:  # noqa: F811
    """The lines' names stand beside the plots, not over them, and the two plots (one time axis)
    end at the same pixel, so the last day's points are drawn in both, uncovered."""
    path = project.path
    project.close()
    win, tabs, page = open_timeline(qtbot, path)
    win.resize(1024, 700)
    qtbot.waitUntil(lambda: page.view is not None and bool(page.view.imports) and not page.runner.busy,
                    timeout=60_000)
    qtbot.wait(50)  # the layout after the resize
    rights = []
    for plot in (page.imports_plot, page.decisions_plot):
        item = plot.getPlotItem()
        vb, legend = item.vb, item.legend
        assert legend.items, "the lines are named in the legend"
        view_rect = vb.mapRectToScene(vb.boundingRect())
        legend_rect = legend.mapRectToScene(legend.boundingRect())
        assert legend_rect.left() >= view_rect.right() - 1  # beside the view, not over it
        shown = vb.viewRect()
        for curve in item.listDataItems():
            xs, ys = curve.getData()
            for x, y in zip(xs, ys):
                assert shown.contains(QPointF(float(x), float(y))), (curve.name(), x, y)
        rights.append(plot.mapToGlobal(plot.mapFromScene(view_rect.topRight())).x())
    assert abs(rights[0] - rights[1]) <= 1
    win.close()
