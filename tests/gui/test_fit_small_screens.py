"""Issue #23 point 2 at 1024×700: nothing cut in the window a user sees (the dashboard's Scope box,
the row numbers with a decided row's mark, the help overlay, the panels' titles) and no empty Context
column in a project without contexts."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QStyle

from tests.crowd import crowd_project
from tests.gui.journey import open_dashboard, open_window, resolve_agreed

SMALL = (1024 - 8, 700 - 34)  # a 1024x700 screen less the window frame and title bar


@pytest.fixture(scope="module")
def big_crowd(tmp_path_factory) -> Path:
    """A MASC-like crowd project (no contexts) with 10,000 instances: five-digit row numbers."""
    return crowd_project(tmp_path_factory.mktemp("crowd") / "crowd10k.hadj", 6, n_words=5, per_word=2000,
                         per_item=3)


def _small(qtbot, path: Path):
    w = open_window(qtbot, path)
    w.resize(*SMALL)
    QApplication.processEvents()
    return w


def test_the_window_and_its_dashboard_fit_1024x700(qtbot, demo_project: Path) -> None:
    w = _small(qtbot, demo_project)
    hint = w.minimumSizeHint()
    assert hint.width() <= SMALL[0] and hint.height() <= SMALL[1], hint
    open_dashboard(qtbot, w)
    hint = w.minimumSizeHint()
    assert hint.width() <= SMALL[0] and hint.height() <= SMALL[1], hint
    assert w.width() == SMALL[0] and w.height() == SMALL[1]
    w.close()


def test_the_scope_box_shows_all_of_its_text_at_1024(qtbot, demo_project: Path) -> None:
    w = _small(qtbot, demo_project)
    view = open_dashboard(qtbot, w)
    for box in (view.scope, view.measure):
        for k in range(box.count()):
            box.setCurrentIndex(k)
            QApplication.processEvents()
            assert box.sizeHint().width() <= box.width(), (box.currentText(), box.sizeHint(), box.width())
            assert box.fontMetrics().horizontalAdvance(box.currentText()) + 24 <= box.width(), box.currentText()
    # the figures' state says what it says on one line under the controls (it wrapped into five)
    state = view.state
    assert state.isVisible() and state.height() <= 2 * state.fontMetrics().lineSpacing() + 4, state.height()
    w.close()


def test_panel_titles_wrap_instead_of_running_under_their_buttons(qtbot, demo_project: Path) -> None:
    w = _small(qtbot, demo_project)
    view = open_dashboard(qtbot, w)
    for panel in view.panels:
        label = panel.title_label
        if not label.isVisible():
            continue
        assert label.wordWrap() and label.heightForWidth(label.width()) <= label.height() + 1, \
            (panel.title, label.text(), label.width(), label.height())
    w.close()


def _row_header_needs(w, row: int) -> int:
    head = w.ws.table.verticalHeader()
    bold = QFont(head.font())
    bold.setBold(True)  # the highlighted row's number is bold
    text = w.ws.model.headerData(row, Qt.Orientation.Vertical)
    margin = head.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, head)
    return QFontMetrics(bold).horizontalAdvance(text) + 2 * margin


def test_the_row_header_holds_a_decided_rows_mark_and_a_five_digit_number(qtbot, private_dirs,
                                                                         big_crowd: Path) -> None:
    w = _small(qtbot, big_crowd)
    ws = w.ws
    assert ws.model.rowCount() == 10_000
    ws.table.setFocus()
    qtbot.keyClick(ws.table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)  # the last row
    row = ws.current_row()
    assert row == 9_999
    qtbot.keyClick(ws.table, Qt.Key.Key_A)  # the suggestion: decided
    QApplication.processEvents()
    text = ws.model.headerData(row, Qt.Orientation.Vertical)
    assert text == "✓ 10000", text
    head = ws.table.verticalHeader()
    assert head.width() >= _row_header_needs(w, row), (head.width(), _row_header_needs(w, row))
    # and on the first row too (Qt measures the first and last hundred rows only when it looks)
    qtbot.keyClick(ws.table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(ws.table, Qt.Key.Key_F)  # flagged: ⚑
    QApplication.processEvents()
    assert ws.model.headerData(0, Qt.Orientation.Vertical).startswith("⚑")
    assert head.width() >= _row_header_needs(w, 0)
    w.close()


def test_the_row_header_holds_the_marks_of_a_batch_of_decisions(qtbot, demo_project: Path) -> None:
    """Resolve agreed marks many rows at once (no per-row header signal): "✓ 24" was cut."""
    w = _small(qtbot, demo_project)
    head = w.ws.table.verticalHeader()
    resolve_agreed(qtbot, w)
    QApplication.processEvents()
    marked = [r for r in range(w.ws.model.rowCount()) if w.ws.model.headerData(r, Qt.Orientation.Vertical)[0] == "✓"]
    assert len(marked) > 64
    assert head.width() >= max(_row_header_needs(w, r) for r in marked), head.width()
    w.close()


def test_no_context_column_without_contexts(qtbot, private_dirs, big_crowd: Path) -> None:
    w = _small(qtbot, big_crowd)
    col = w.ws.model.keys.index("kwic")
    assert w.ws.table.isColumnHidden(col)
    w.close()


def test_the_context_column_shows_with_contexts(qtbot, demo_project: Path) -> None:
    w = _small(qtbot, demo_project)
    col = w.ws.model.keys.index("kwic")
    assert not w.ws.table.isColumnHidden(col) and w.ws.table.columnWidth(col) >= 200
    w.close()


@pytest.mark.parametrize("size", [SMALL, (900, 520)])
def test_the_help_overlay_fits_the_window_with_no_line_cut(qtbot, demo_project: Path, size) -> None:
    w = _small(qtbot, demo_project)
    w.resize(*size)
    QApplication.processEvents()
    w.ws.table.setFocus()
    qtbot.keyClick(w.ws.table, Qt.Key.Key_Question)
    help_ = w.help
    assert help_.isVisible()
    assert help_.height() <= w.height() - 8 and help_.width() <= w.width() - 8
    assert help_.geometry().top() >= 0 and help_.geometry().bottom() <= w.height()
    need = help_.sizeHint()
    assert need.width() <= help_.width() and need.height() <= help_.height(), (need, help_.size())
    qtbot.keyClick(help_, Qt.Key.Key_Escape)
    assert not help_.isVisible()
    w.close()


@pytest.fixture(scope="module")
def crowd228(tmp_path_factory) -> Path:
    """As many crowd workers as MASC has (228): three-digit set names."""
    return crowd_project(tmp_path_factory.mktemp("crowd228") / "crowd228.hadj", 228, per_item=9)


def test_the_heatmaps_set_names_never_run_together_at_1024(qtbot, private_dirs, crowd228: Path) -> None:
    """228 sets in a 1024 px window: every k-th name on the bottom axis, each with room for its width
    ("162156150" ran together on MASC)."""
    from PySide6.QtCore import QPointF

    w = _small(qtbot, crowd228)
    view = open_dashboard(qtbot, w)
    plot = view.heatmap.plot
    qtbot.waitUntil(lambda: plot.getPlotItem().getViewBox().width() > 50)
    QApplication.processEvents()
    axis = plot.getAxis("bottom")
    ticks = axis._tickLevels[0] if axis._tickLevels else []
    assert len(ticks) >= 2, ticks
    fm = QFontMetrics(axis.style.get("tickFont") or plot.font())
    vb = plot.getPlotItem().getViewBox()
    xs = [vb.mapViewToScene(QPointF(x, 0)).x() for x, _ in ticks]
    for (x0, (_, a)), (x1, (_, b)) in zip(zip(xs, ticks), zip(xs[1:], ticks[1:])):
        assert x1 - x0 >= (fm.horizontalAdvance(a) + fm.horizontalAdvance(b)) / 2 + 2, (a, b, x1 - x0)
    w.close()


def _field_width(box) -> int:
    from PySide6.QtWidgets import QStyleOptionComboBox

    opt = QStyleOptionComboBox()
    box.initStyleOption(opt)
    return box.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                      QStyle.SubControl.SC_ComboBoxEditField, box).width()


def test_the_filter_boxes_show_their_text_where_the_window_has_room(qtbot, demo_project: Path) -> None:
    w = _small(qtbot, demo_project)
    ws = w.ws
    boxes = (ws.category_box, ws.status_box, ws.pair_a)
    w.resize(1920 - 8, 1080 - 34)
    QApplication.processEvents()
    for box in boxes:
        text = box.currentText()
        assert box.fontMetrics().horizontalAdvance(text) <= _field_width(box), (text, box.width())
    # and back on a 1024 px window they are narrower again, and nothing of the bar is pushed out
    w.resize(*SMALL)
    QApplication.processEvents()
    assert ws.category_box.width() < ws.category_box.fontMetrics().horizontalAdvance("All agreement categories")
    assert ws.count.geometry().right() <= ws.width()
    w.close()


@pytest.mark.parametrize("which", ["demo", "crowd"])
def test_every_column_title_fits_its_column(qtbot, private_dirs, request, which: str) -> None:
    """"Leaf agr." lost its L in 52 px; "[1] lesk (system)" was cut on both sides."""
    path = request.getfixturevalue({"demo": "demo_project", "crowd": "big_crowd"}[which])
    w = _small(qtbot, path)
    table = w.ws.table
    head = table.horizontalHeader()
    margin = head.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, head)
    for c, spec in enumerate(w.ws.model.specs):
        if table.isColumnHidden(c):
            continue
        need = head.fontMetrics().horizontalAdvance(spec.title) + 2 * margin
        assert table.columnWidth(c) >= min(need, 140), (spec.title, table.columnWidth(c), need)
    w.close()
