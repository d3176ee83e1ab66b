"""The dashboard tab on the demo: every plot item's data against the dashboard/metrics API, clicks, exports."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QScrollArea

from hieradjudicate.app.dashboard.dashboard import Dashboard
from hieradjudicate.app.dashboard.gold import DecisionTracker
from hieradjudicate.app.session.session import Session
from hieradjudicate.core.agreement.pairwise import pairwise_agreement
from hieradjudicate.gui.dashboard.common import widget_pos
from hieradjudicate.gui.main_window import MainWindow


@pytest.fixture
def decided_demo(demo_project: Path) -> Path:
    with Session.open(demo_project) as s:
        s.accept_agreed(compatible=True)  # a gold for the gold-dependent plots
    return demo_project


def _wait(qtbot, dv) -> None:
    qtbot.waitUntil(lambda: dv.data is not None and not dv.updating and not dv.slow.busy, timeout=60_000)


@pytest.fixture
def win(qtbot, decided_demo: Path) -> Iterator[MainWindow]:
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.load_project(decided_demo)
    w.show()
    qtbot.waitExposed(w)
    w.dashboard.show_dashboard()
    _wait(qtbot, w.dashboard.view)
    yield w
    w.close_project()
    QApplication.processEvents()
    gc.collect()  # pyqtgraph's reference cycles go here, in the GUI thread, not in a later test's worker


def _expected(win: MainWindow, **opts):
    s = win.session
    tracker = DecisionTracker(s.corpus, s.store.iter_history())
    return Dashboard(s.corpus).compute(tracker=tracker, **opts)


def _nan(a) -> np.ndarray:
    return np.ma.filled(np.ma.asarray(a, float), np.nan)


def test_every_plot_item_holds_the_dashboard_figures(win: MainWindow) -> None:
    dv = win.dashboard.view
    assert dv.data.gold_n > 100 and dv.data.selection_n == win.wb.corpus.n
    exp = _expected(win, n_resamples=1000, intervals=True)
    # heatmap: image values, and one cell against the metrics API itself
    hm = exp.heatmap
    shown = dv.heatmap.shown  # the display order (clustered); every set on the demo
    assert sorted(shown.tolist()) == list(range(len(hm.names)))
    np.testing.assert_allclose(dv.heatmap.image.image, _nan(hm.value)[np.ix_(shown, shown)], equal_nan=True)
    corpus = win.wb.corpus
    sa, sb = (corpus.sets[k] for k in hm.set_indices[:2])
    shared = np.intersect1d(sa.rows, sb.rows)
    api = pairwise_agreement(sa.leaves[np.searchsorted(sa.rows, shared)], sb.leaves[np.searchsorted(sb.rows, shared)],
                             corpus.inst_lexelt[shared], n_lexelts=len(corpus.inventory.lexelts))
    r, c = int(np.flatnonzero(shown == 0)[0]), int(np.flatnonzero(shown == 1)[0])
    assert dv.heatmap.image.image[r, c] == pytest.approx(float(api.cohen.kappa.value), abs=1e-12)
    texts = [t.toPlainText() for t in dv.heatmap.texts.items if t.isVisible()]
    assert f"{hm.value[0, 1]:.2f}\nn={int(hm.n[0, 1])}" in texts
    # per-lexelt bars (horizontal: width = value) with their intervals, in the sort order shown
    order = exp.lexelts.sorted("value")
    opts = dv.lexelts.bars.opts
    np.testing.assert_allclose(opts["width"], [b.value for b in order])
    np.testing.assert_allclose(dv.lexelts.errors.opts["x"], [b.value for b in order])
    np.testing.assert_allclose(dv.lexelts.errors.opts["left"], [b.value - b.low for b in order])
    np.testing.assert_allclose(dv.lexelts.errors.opts["right"], [b.high - b.value for b in order])
    assert dv.lexelts.pooled.value() == pytest.approx(exp.lexelts.overall.value)
    # agreement against depth: one line per pair and the group
    d = exp.depth
    for p, line in enumerate(dv.depth_panel.lines):
        np.testing.assert_allclose(line.yData, _nan(d.pair_values)[p], equal_nan=True)
    np.testing.assert_allclose(dv.depth_panel.group.yData, [np.nan if v is None else v for v in d.group_values])
    # confusion: the matrix (scaled to its maximum; empty cells transparent)
    cf = exp.confusion
    top = cf.matrix.max()
    np.testing.assert_allclose(dv.confusion.image.image, np.where(cf.matrix > 0, cf.matrix / top, np.nan),
                               equal_nan=True)
    # agreement with the gold: leaf score and Cohen's kappa per set
    rows = exp.gold_agreement
    np.testing.assert_allclose(dv.gold.score.bars.opts["height"], [r.score for r in rows])
    np.testing.assert_allclose(dv.gold.kappa.bars.opts["height"], [r.kappa_cohen for r in rows])
    # system scores: precision per system and policy, with the bootstrap intervals
    np.testing.assert_allclose(dv.scores.bars.bars.opts["height"], [r.precision for r in exp.scores])
    np.testing.assert_allclose(dv.scores.bars.errors.opts["top"],
                               [r.precision_ci[1] - r.precision for r in exp.scores])
    assert dv.scores.table.rowCount() == len(exp.scores)
    # system comparison: the difficulty histogram and the pairwise kappa table
    np.testing.assert_allclose(dv.comparison.bars.bars.opts["height"], exp.comparison.histogram)
    assert float(dv.comparison.table.item(0, 1).text()) == pytest.approx(float(exp.comparison.kappa[0, 1]),
                                                                          abs=5e-4)
    # progress: decisions per day, resolved share, open instances by category
    pr = exp.progress
    np.testing.assert_allclose(dv.progress.days.bars.opts["height"], pr.decisions)
    np.testing.assert_allclose(dv.progress.share.yData, pr.resolved_share)
    np.testing.assert_allclose(dv.progress.remaining.opts["width"], [pr.remaining[c] for c in dv.progress.cats])
    # every figure explains itself
    for panel in dv.panels:
        assert panel.toolTip() and panel.plots[0].toolTip() == panel.explain_text
    assert "Pr(A)" in dv.heatmap.toolTip() and "instance" in dv.heatmap.toolTip()


def test_heatmap_click_filters_the_workbench_to_the_pair_disagreements(qtbot, win: MainWindow) -> None:
    dv, wb = win.dashboard.view, win.wb
    hm = dv.data.heatmap
    dv.heatmap.cell_clicked.emit(0, 2)  # what a click on the cell (row 0, column 2) maps to
    assert win.dashboard.tabs.currentIndex() == 0
    assert np.array_equal(np.sort(wb.view), np.sort(hm.cell_instances(0, 2)))
    assert win.ws.model.rowCount() == hm.cell_instances(0, 2).size
    # a real mouse click, mapped from data coordinates (column 1, row 0)
    win.clear_filter()
    win.dashboard.show_dashboard()
    _wait(qtbot, dv)
    plot = dv.heatmap.plot
    shown = dv.heatmap.shown.tolist()  # display position of sets 0 and 1
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton,
                     pos=widget_pos(plot, shown.index(1) + 0.5, shown.index(0) + 0.5))
    qtbot.waitUntil(lambda: win.dashboard.tabs.currentIndex() == 0)
    want = np.sort(dv.data.heatmap.cell_instances(0, 1))
    assert want.size > 0 and np.array_equal(np.sort(wb.view), want)
    assert (win.ws.pair_a.currentData(), win.ws.pair_b.currentData()) == (hm.set_indices[0], hm.set_indices[1])


def test_lexelt_bar_click_filters_to_the_lexelt_and_the_dashboard_follows(qtbot, win: MainWindow) -> None:
    dv, wb = win.dashboard.view, win.wb
    k = 2
    bar = dv.lexelts.order[k]
    plot = dv.lexelts.plot
    plot.getPlotItem().getViewBox().setYRange(-0.6, len(dv.lexelts.order) - 0.4, padding=0)
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=widget_pos(plot, bar.value / 2, k))
    qtbot.waitUntil(lambda: win.dashboard.tabs.currentIndex() == 0)
    assert win.ws.lexelt_box.currentData() == (bar.x,)
    assert wb.view.size == bar.n or (wb.corpus.inst_lexelt[wb.view] == bar.x).all()
    assert set(wb.corpus.inst_lexelt[wb.view]) == {bar.x}
    win.dashboard.show_dashboard()
    qtbot.waitUntil(lambda: dv.data.selection_n == wb.view.size and not dv.updating, timeout=60_000)
    assert [b.lexelt for b in dv.data.lexelts.bars if b.n] == [bar.lexelt]


def test_confusion_cell_lists_instances_and_opens_one(qtbot, win: MainWindow) -> None:
    dv = win.dashboard.view
    cf = dv.data.confusion
    r, c = np.argwhere(cf.matrix > 0)[0]
    plot = dv.confusion.plot
    dv.findChild(QScrollArea, "dash_scroll").ensureWidgetVisible(dv.confusion)
    qtbot.wait(50)
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=widget_pos(plot, c + 0.5, r + 0.5))
    want = cf.cell_instances(int(r), int(c))
    assert dv.instances.count() == want.size
    got = [dv.instances.item(j).data(Qt.ItemDataRole.UserRole) for j in range(dv.instances.count())]
    assert got == [int(i) for i in want]
    assert cf.glosses[r] in dv.confusion.cell_text(int(r), int(c))
    dv._open_item(dv.instances.item(0))  # what a double-click does
    assert win.dashboard.tabs.currentIndex() == 0 and win.ws.current == int(want[0])


def test_changing_the_confusion_level_and_measure_recomputes(qtbot, win: MainWindow) -> None:
    dv = win.dashboard.view
    dv.confusion.level_box.setCurrentIndex(0)  # depth 1
    qtbot.waitUntil(lambda: dv.data.confusion.depth == 1 and not dv.updating, timeout=60_000)
    dv.measure.setCurrentIndex(2)  # alpha
    qtbot.waitUntil(lambda: dv.data.heatmap.measure == "alpha" and not dv.updating, timeout=60_000)
    shown = dv.heatmap.shown
    np.testing.assert_allclose(dv.heatmap.image.image, _nan(dv.data.heatmap.value)[np.ix_(shown, shown)],
                               equal_nan=True)
    assert dv.data.lexelts.measure == "alpha"


def test_a_decision_updates_the_gold_plots(qtbot, win: MainWindow) -> None:
    dv = win.dashboard.view
    before = dv.data.gold_n
    win.dashboard.show_workbench()
    win.ws.select_row(win.wb.next_unresolved(-1))
    win.take_set(1)
    win.dashboard.show_dashboard()
    qtbot.waitUntil(lambda: dv.data.gold_n == before + 1 and not dv.updating, timeout=60_000)
    exp = _expected(win, intervals=False)
    np.testing.assert_allclose(dv.gold.kappa.bars.opts["height"], [r.kappa_cohen for r in exp.gold_agreement])
    assert dv.progress.status.text().startswith(f"{before + 1} of")


def test_exports(qtbot, win: MainWindow, tmp_path: Path) -> None:
    dv = win.dashboard.view
    pngs = dv.export_plots(tmp_path / "png")
    assert len(pngs) >= len(dv.panels) and all(p.stat().st_size > 1000 for p in pngs)
    assert pngs[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    tables = dv.export_tables(tmp_path / "tables", "csv")
    assert {"pairwise", "lexelts", "system_scores"} <= {p.stem for p in tables}
    done: list[Path] = []
    dv.export_report(tmp_path / "r.html", done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=60_000)
    html = done[0].read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "Pairwise agreement" in html
    assert {"export_report", "export_tables", "export_plots", "dashboard_tab"} <= set(win.actions)
