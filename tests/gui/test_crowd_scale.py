"""Crowd scale (#14): a project with hundreds of sets never grows the window; lists scroll in their docks."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QTableView

from hieradjudicate.gui.main_window import MainWindow
from tests.crowd import crowd_project


@pytest.fixture(scope="module")
def crowd228(tmp_path_factory) -> Path:
    return crowd_project(tmp_path_factory.mktemp("crowd") / "crowd228.hadj", 228)


@pytest.fixture
def crowd_win(qtbot, private_dirs, crowd228: Path) -> Iterator[MainWindow]:
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.load_project(crowd228)
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: not w.ws.live.updating and w.ws.live.figures is not None, timeout=120_000)
    yield w
    w.close_project()
    QApplication.processEvents()
    gc.collect()


def test_228_sets_never_grow_the_window(crowd_win: MainWindow) -> None:
    assert len(crowd_win.wb.corpus.sets) == 228
    QApplication.processEvents()
    screen = crowd_win.screen().availableGeometry()  # 800 high on the offscreen platform
    assert crowd_win.height() <= 800  # as the window was made: the layout did not force it taller
    assert crowd_win.minimumSizeHint().height() <= screen.height()
    assert crowd_win.minimumSize().height() <= screen.height()
    # no dock asks for more height than a screen has, whatever the number of sets
    for name, dock in crowd_win.docks.items():
        assert dock.minimumSizeHint().height() < 600, name
        assert dock.widget().minimumSizeHint().height() < 600, name


def test_live_scores_are_one_scrolling_sortable_filterable_table(qtbot, crowd_win: MainWindow) -> None:
    live = crowd_win.ws.live
    assert isinstance(live.scores, QTableView)
    assert live.score_model.rowCount() == 228  # one model row per set, not one widget per set
    assert live.scores.verticalScrollBar().maximum() > 0  # it scrolls inside the dock
    live.score_filter.setText("22")  # sets 22, 122, 220..228
    names = [live.score_proxy.index(r, 0).data() for r in range(live.score_proxy.rowCount())]
    assert names and all("22" in n for n in names)
    assert sorted(names) == sorted(n for n in (s.name for s in crowd_win.wb.corpus.sets) if "22" in n)
    live.score_filter.clear()
    live.scores.sortByColumn(0, Qt.SortOrder.DescendingOrder)
    names = [live.score_proxy.index(r, 0).data() for r in range(live.score_proxy.rowCount())]
    assert len(names) == 228 and names == sorted(names, reverse=True)


def test_leaf_chart_labels_never_overprint(qtbot) -> None:
    import numpy as np
    from PySide6.QtGui import QFontMetrics

    from hieradjudicate.gui.workbench.panels.detail_panel import LeafChart

    chart = LeafChart()
    qtbot.addWidget(chart)
    chart.resize(260, 200)
    chart.show()
    qtbot.waitExposed(chart)
    chart.ensure_sets(["a", "b"])
    labels = [f"account#{j + 1}" for j in range(24)]
    chart.show_data(labels, np.full((24, 2), 0.5), np.zeros(24, bool))
    QApplication.processEvents()
    ticks = chart.axis_labels()
    # one row per leaf shown, each labelled (#23: a narrow chart wrote every fourth label); the rows
    # that do not fit the height are summed into "N others"
    rows = len(chart.tick_labels)
    assert 3 <= rows < 24 and chart.tick_labels[-1] == f"{24 - rows + 1} others"
    assert [t for _, t in ticks] == chart.tick_labels and [p for p, _ in ticks] == list(range(rows))
    fm = QFontMetrics(chart.font())
    px_per_row = chart.getPlotItem().vb.height() / (rows + 0.2)
    assert px_per_row >= fm.height()  # neighbours never touch
    chart.resize(260, 420)
    QApplication.processEvents()
    assert len(chart.axis_labels()) > rows  # a taller chart holds more rows


def _plot_items(dv) -> int:
    """Every graphics item in the dashboard's plots (pyqtgraph scene items)."""
    import pyqtgraph as pg

    return sum(len(w.scene().items()) for w in dv.findChildren(pg.PlotWidget))


@pytest.fixture(scope="module")
def crowd10(tmp_path_factory) -> Path:
    return crowd_project(tmp_path_factory.mktemp("crowd") / "crowd10.hadj", 10)


def _dashboard_items(qtbot, path: Path) -> tuple[int, object]:
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.load_project(path)
    w.show()
    qtbot.waitExposed(w)
    w.dashboard.show_dashboard()
    dv = w.dashboard.view
    qtbot.waitUntil(lambda: dv.data is not None and not dv.updating and not dv.slow.busy, timeout=120_000)
    QApplication.processEvents()
    n = _plot_items(dv)
    hm = dv.heatmap
    info = (len(hm.shown), hm.image.image.shape, sum(t.isVisible() for t in hm.texts.items))
    w.close_project()
    QApplication.processEvents()
    gc.collect()
    return n, info


def test_dashboard_item_count_does_not_grow_with_the_pairs(qtbot, private_dirs, crowd10, crowd228) -> None:
    n10, (m10, shape10, text10) = _dashboard_items(qtbot, crowd10)
    n228, (m228, shape228, text228) = _dashboard_items(qtbot, crowd228)
    assert (m10, shape10) == (10, (10, 10)) and (m228, shape228) == (228, (228, 228))  # one image each
    assert text10 == 100 and text228 == 0  # cell text only where it fits
    # 45 pairs against 25,878: the scene holds no more items (fewer: no cell text)
    assert n228 <= n10, (n10, n228)


def test_heatmap_focus_on_a_subset(qtbot, private_dirs, crowd228) -> None:
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.load_project(crowd228)
    w.show()
    w.dashboard.show_dashboard()
    dv = w.dashboard.view
    qtbot.waitUntil(lambda: dv.data is not None and not dv.updating, timeout=120_000)
    hm = dv.heatmap
    hm.show_box.setCurrentIndex(1)  # top 30 by mean agreement
    assert hm.shown.size == 30 and hm.image.image.shape == (30, 30)
    from hieradjudicate.core.seriation import mean_agreement

    mean = mean_agreement(hm.hm.value)
    assert np.nanmin(mean[hm.shown]) >= np.nanmax(np.delete(mean, hm.shown))  # the best 30
    assert sum(t.isVisible() for t in hm.texts.items) == 900  # values written once they fit
    hm.show_box.setCurrentIndex(0)
    hm.filter.setText("22")
    names = [hm.hm.names[j] for j in hm.shown]
    assert names and all("22" in n for n in names)
    v = np.ma.filled(np.ma.asarray(hm.hm.value, float), np.nan)
    np.testing.assert_allclose(hm.image.image, v[np.ix_(hm.shown, hm.shown)], equal_nan=True)
    a, b = int(hm.shown[0]), int(hm.shown[1])
    assert hm.cell_text(a, b).startswith(f"{hm.hm.names[a]} × {hm.hm.names[b]}")
    w.close_project()


def test_long_lexelt_and_set_names_never_widen_the_window(qtbot, private_dirs, tmp_path) -> None:
    from hieradjudicate.app.loading.specs import AnnotationSpec
    from hieradjudicate.app.session.session import Session

    long_lex = "supplement au voyage de bougainville ou dialogue entre a et b " * 2
    t = tmp_path / "long.tsv"
    t.write_text("lexelt\tinstance\tannotator\ttag\n"
                 + "".join(f"{long_lex}{k}\t{k}\t{'x' * 60}{a}\thttp://example.org/entity/Q{k + a}\n"
                           for k in range(5) for a in range(2)))
    Session.create(tmp_path / "long.hadj", [], [AnnotationSpec(str(t))]).close()
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.load_project(tmp_path / "long.hadj")
    w.show()
    qtbot.waitExposed(w)
    assert w.minimumSizeHint().width() <= 1280
    assert w.width() <= 1280
    assert w.ws.table.model().index(0, w.ws.model.keys.index("set:0")).data().startswith("Q")  # URI tail
    w.close_project()


def test_competence_panel_queue_order_and_weighted_suggestion(qtbot, crowd_win: MainWindow) -> None:
    w = crowd_win
    bar = w.dashboard.tabs.tabBar()  # the panel is built when the Dashboard tab is first shown
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    dv = w.dashboard.view
    # estimated in the background once the dashboard's figures are in (prefetched after opening)
    qtbot.waitUntil(lambda: w.wb.competence is not None, timeout=600_000)  # hang guard only
    comp = w.wb.competence
    panel = dv.competence_panel
    assert len(panel.points.data) == 228  # one scatter item, a point per set
    assert "Dawid & Skene: 228 annotator sets" in panel.status.text()
    w.order_most_uncertain()
    qtbot.waitUntil(lambda: w.wb.sort_key == "uncertainty", timeout=60_000)
    e = comp.entropy[w.wb.view]
    assert e[0] == np.nanmax(comp.entropy)
    # the detail panel names both suggestions; Shift+A takes the weighted one
    i = w.ws.current
    assert "Competence-weighted" in w.ws.detail.suggestion.text()
    want = (w.wb.corpus.inventory.node_id[int(comp.best_node[i])],)
    w.take_weighted_suggestion()
    assert tuple(w.wb.gold[i].split()) == want and w.wb.source[i] == "suggestion"
    # a click on a histogram bar lists its instances in the side panel, most uncertain first
    j = int(np.flatnonzero(comp.hist_counts)[-1])
    panel.list_bar(j)
    from hieradjudicate.gui.dashboard.dashboard import LIST_LIMIT

    assert dv.instances.count() == min(int(comp.hist_counts[j]), LIST_LIMIT) > 0
    first = dv.instances.item(0).data(Qt.ItemDataRole.UserRole)
    assert comp.entropy[first] == comp.entropy[comp.bin_instances(j)].max()


def test_competence_model_switch_reorders_the_queue(qtbot, crowd_win: MainWindow) -> None:
    w = crowd_win
    bar = w.dashboard.tabs.tabBar()  # the panel is built when the Dashboard tab is first shown
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    dv = w.dashboard.view
    qtbot.waitUntil(lambda: w.wb.competence is not None, timeout=600_000)  # hang guard only
    w.order_most_uncertain()
    qtbot.waitUntil(lambda: w.wb.sort_key == "uncertainty", timeout=60_000)
    dv.competence_panel.model_box.setCurrentIndex(1)  # MACE
    qtbot.waitUntil(lambda: w.wb.competence is not None and w.wb.competence.model == "MACE", timeout=600_000)
    comp = w.wb.competence
    assert "MACE: 228 annotator sets" in dv.competence_panel.status.text()
    e = comp.entropy[w.wb.view]
    assert e[0] == np.nanmax(comp.entropy)  # the queue follows the new model's uncertainty
    assert "MACE" in w.ws.detail.suggestion.text()
