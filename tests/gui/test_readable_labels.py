"""Every sense a chart shows has its label written, at 1024x700 and at 1920x1080 (#23, point 3): the
workbench's leaf chart (one labelled row per bar) and the dashboard's confusion matrix (lemma#N on
both axes, the gloss on hover over a label)."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QScrollArea, QToolTip

from tests.conftest import skip_without_realdata
from tests.gui.journey import open_window


@pytest.fixture(scope="module")
def masc_part(tmp_path_factory) -> Path:
    """MASC's first 400 rows (add-v: 7 senses named add#N, 25 workers)."""
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


def _every_bar_labelled(chart) -> None:
    ticks = chart.axis_labels()
    rows = len(chart.tick_labels)
    assert rows >= 3
    # one label per row of bars, in order, whole (never every k-th)
    assert [p for p, _ in ticks] == [float(j) for j in range(rows)]
    assert [t for _, t in ticks] == chart.tick_labels
    for bar in chart.bars:
        n = len(bar.opts["y"])
        assert n in (0, rows)
    fm = QFontMetrics(chart.font())
    assert chart.getPlotItem().vb.height() / (rows + 0.2) >= fm.height()  # rows never overprint


@pytest.mark.parametrize("size", [(1024, 700), (1920, 1080)])
def test_leaf_chart_labels_every_bar_after_a_resize(qtbot, private_dirs, masc_part: Path,
                                                    size: tuple[int, int]) -> None:
    w = open_window(qtbot, masc_part)
    w.resize(size[0] - 8, size[1] - 34)  # the frame and title bar of the screen's window
    QApplication.processEvents()
    chart = w.ws.detail.chart
    qtbot.waitUntil(lambda: len(chart.axis_labels()) == len(chart.tick_labels) > 0, timeout=60_000)
    _every_bar_labelled(chart)
    assert all(t.startswith("add#") or t in ("none (0)",) or t.endswith("others") for t in chart.tick_labels)
    # the next instance: labels follow, still one per bar
    qtbot.keyClick(w.ws.table, Qt.Key.Key_Down)
    QApplication.processEvents()
    _every_bar_labelled(chart)
    # the gloss on hover over a row's label (left of the plot), not only over its bar
    from hieradjudicate.core.inventory.labels import tooltip
    from hieradjudicate.gui.dashboard.common import widget_pos

    vb_left = widget_pos(chart, 0.0, 0.0)
    pos = vb_left - type(vb_left)(max(8, chart.getAxis("left").width() // 2), 0)
    qtbot.mouseMove(chart.viewport(), pos)
    qtbot.waitUntil(lambda: chart.toolTip() == chart.tick_tips[0], timeout=60_000)
    # the full key and gloss of the sense in that row (which sense it is depends on how many rows the
    # chart's font lets fit: compared with the row's own sense, never a fixed one)
    inv = w.wb.corpus.inventory
    node = int(inv.lexelt_leaf_nodes[int(w.wb.cols.lexelt[w.ws.detail.instance])][int(chart.shown_leaves[0])])
    assert inv.node_gloss[node] and chart.toolTip() == tooltip(inv.label(node), inv.node_gloss[node])
    w.close()


def test_confusion_names_every_sense_with_its_gloss_on_hover(qtbot, private_dirs, masc_part: Path) -> None:
    w = open_window(qtbot, masc_part)
    w.resize(1016, 666)
    w.dashboard.show_dashboard()
    dv = w.dashboard.view
    qtbot.waitUntil(lambda: dv.data is not None and dv.data.confusion is not None and not dv.updating,
                    timeout=120_000)
    panel = dv.confusion
    dv.findChild(QScrollArea, "dash_scroll").ensureWidgetVisible(panel)
    QApplication.processEvents()
    cf = panel.cf
    G = len(cf.labels)
    rows, cols = panel.axis_labels("left"), panel.axis_labels("bottom")
    assert len(rows) == G and len(cols) == G  # every row and every column named
    assert all(t.startswith(cf.labels[j]) for j, (_, t) in enumerate(rows))
    assert all(label.startswith("add#") or label == "none (0)" for label in cf.labels), cf.labels
    if panel.lettered:  # too narrow for lemma#N under each column: letters, and the row says its letter
        assert [t for _, t in cols] == [chr(65 + j) for j in range(G)]
        assert all(t.endswith(f"({chr(65 + j)})") for j, (_, t) in enumerate(rows))
    else:
        assert [t for _, t in cols] == list(cf.labels)
    # hovering a row's label shows the sense's gloss
    from hieradjudicate.gui.dashboard.common import widget_pos

    plot = panel.plot
    p = widget_pos(plot, 0.0, 0.5)
    p = p - type(p)(plot.getAxis("left").width() // 2, 0)
    qtbot.mouseMove(plot.viewport(), p)
    qtbot.waitUntil(lambda: cf.glosses[0] in QToolTip.text(), timeout=60_000)
    assert QToolTip.text().startswith(f"{cf.a}: {cf.labels[0]}")
    w.close()
