"""As a user meets them: Status and Gold in sight at the default window sizes,
a pairwise kappa over thin lexelts said to mean little."""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QTabBar

from tests.conftest import skip_without_realdata
from tests.crowd import crowd_project
from tests.gui.journey import click_header, open_window


@pytest.fixture(scope="module")
def crowd40(tmp_path_factory) -> Path:
    return crowd_project(tmp_path_factory.mktemp("crowd") / "crowd40.hadj", 40, per_item=9)


@pytest.fixture(scope="module")
def wsd_all(tmp_path_factory, wsd_all_project: Path) -> Path:
    """The WSD framework's ALL with its gold key and the Lesk baseline both as annotators (a copy of the
    session's: the window may write to it)."""
    out = tmp_path_factory.mktemp("wsd") / "all.hadj"
    shutil.copyfile(wsd_all_project, out)
    return out


def _in_sight(win, key: str) -> bool:
    header = win.ws.table.horizontalHeader()
    col = win.ws.model.keys.index(key)
    x = header.sectionViewportPosition(col)
    return x >= 0 and x + header.sectionSize(col) <= header.viewport().width() and not header.isSectionHidden(col)


@pytest.mark.parametrize("size", [(1024, 700), (1366, 768)])
@pytest.mark.parametrize("which", ["demo", "crowd", "wsd"])
def test_status_and_gold_are_in_sight_at_the_default_sizes(qtbot, private_dirs, request, which: str,
                                                           size: tuple[int, int]) -> None:
    path = request.getfixturevalue({"demo": "demo_project", "crowd": "crowd40", "wsd": "wsd_all"}[which])
    w = open_window(qtbot, path)
    w.resize(size[0] - 8, size[1] - 34)  # the frame and title bar of the screen's window
    QApplication.processEvents()
    bar = w.ws.table.horizontalScrollBar()
    assert bar.value() == 0
    assert _in_sight(w, "status") and _in_sight(w, "gold"), [
        (k, w.ws.table.horizontalHeader().sectionViewportPosition(w.ws.model.keys.index(k))) for k in ("status", "gold")]
    # a decision shows in the Status and Gold cells a user sees, without scrolling
    row = w.ws.current_row()
    qtbot.keyClick(w.ws.table, Qt.Key.Key_A if which == "crowd" else Qt.Key.Key_1)
    m = w.ws.model
    assert m.data(m.index(row, m.keys.index("status"))) == "resolved"
    assert m.data(m.index(row, m.keys.index("gold")))
    # sorting by a header click still works, and the decided row leads a descending Status sort
    click_header(qtbot, w, "status")
    click_header(qtbot, w, "status")
    assert bar.value() == 0
    assert m.data(m.index(0, m.keys.index("status"))) == "resolved"
    w.close()


def _dashboard(qtbot, win):
    bar = win.dashboard.tabs.findChild(QTabBar)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    view = win.dashboard.view
    qtbot.waitUntil(lambda: not view.updating and view.state.text().startswith("whole project"), timeout=120_000)
    return view


def test_pairwise_kappa_over_thin_lexelts_says_it_means_little(qtbot, private_dirs, wsd_all: Path) -> None:
    w = open_window(qtbot, wsd_all)
    view = _dashboard(qtbot, w)
    panel = view.heatmap
    hm = panel.hm
    assert hm.names == ["gold", "lesk"] and hm.measure == "cohen"
    n = int(hm.n[0, 1])
    assert n > 6000 and abs(float(hm.value[0, 1])) < 0.05  # the figure the owner saw: "0.00 n=6599"
    # the note under the panel, with the counts it rests on
    assert panel.thin.isVisible()
    note = panel.thin.text()
    assert "rests on too few instances per lexelt to mean much" in note and "fewer than 10 instances" in note
    # the lexelt counts are the project's: recount them from the corpus
    corpus = w.wb.corpus
    shared = np.intersect1d(corpus.sets[0].rows, corpus.sets[1].rows)
    per = np.bincount(corpus.inst_lexelt[shared])
    few, used = int(((per > 0) & (per < 10)).sum()), int((per > 0).sum())
    assert few * 2 > used and f"{few:,} of {used:,} lexelts" in note
    # the line a hover over the cell writes below the map says it too (asked of the panel: a synthetic
    # mouse move reaches pyqtgraph's scene only when the cell is in the scrolled viewport, which made
    # this assertion fail at random)
    text = panel.cell_text(0, 1)
    assert f"n={n}" in text and "too few instances" in text
    w.close()


def test_a_pairwise_kappa_on_big_lexelts_carries_no_such_note(qtbot, demo_project: Path) -> None:
    w = open_window(qtbot, demo_project)
    view = _dashboard(qtbot, w)
    assert not view.heatmap.thin.isVisible() and view.heatmap.hm.thin_note == ""
    w.close()


@pytest.fixture(scope="module")
def masc_part(tmp_path_factory) -> Path:
    """MASC's inventory with the first 399 sentences of its crowd labels (read from the real data)."""
    d = skip_without_realdata("masc_amt") / "masc_amt"
    tmp = tmp_path_factory.mktemp("masc")
    with gzip.open(d / "masc_amt_labels_wide.tsv.gz", "rt", encoding="utf-8") as f:
        head = [next(f) for _ in range(400)]
    (tmp / "labels.tsv").write_text("".join(head), encoding="utf-8")
    out = tmp / "masc.hadj"
    subprocess.run([sys.executable, "-m", "hieradjudicate", "project", "new", str(out),
                    "--inventory", str(d / "inventory_tree.tsv"), "--annotations", str(tmp / "labels.tsv")],
                   check=True, timeout=600, capture_output=True)
    return out


def test_masc_senses_read_lemma_n_with_the_gloss_on_hover(qtbot, private_dirs, masc_part: Path) -> None:
    w = open_window(qtbot, masc_part)
    i = w.ws.current
    assert w.wb.cols.lexelt_names[int(w.wb.cols.lexelt[i])] == "add-v"
    chart = w.ws.detail.chart
    shown = [t for t in chart.tick_labels if not t.endswith("others")]
    assert shown and all(t.startswith("add#") or t == "none (0)" for t in shown), chart.tick_labels
    # MASC's ids are WordNet's sense numbers of the lemma: add#4 is "make an addition by combining numbers"
    tips = dict(zip(chart.tick_labels, chart.tick_tips))
    if "add#4" in tips:
        assert "make an addition by combining numbers" in tips["add#4"]
    # the decided gold reads the same way in the table
    row = w.ws.current_row()
    qtbot.keyClick(w.ws.table, Qt.Key.Key_A)
    m = w.ws.model
    gold = m.data(m.index(row, m.keys.index("gold")))
    assert gold and all(g.startswith("add#") or g == "none" for g in gold.replace("(0)", "").split()), gold
    w.close()
