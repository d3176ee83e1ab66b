"""A crowd shows who answered, the window fits small screens, notes and Go to instance work from the
keyboard, labels read like a dictionary: each as a user meets it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRect, QSettings, Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.app.session.session import Session
from hieradjudicate.core.tags_only import tags_only
from hieradjudicate.gui.main_window import MainWindow
from hieradjudicate.gui.window_geometry import first_geometry, screen_key
from tests.crowd import crowd_project
from tests.gui.journey import in_dialog, open_window

_open = open_window  # the one way every journey opens the window (tests/gui/journey.py)


def _go_to(qtbot, win: MainWindow, text: str) -> None:
    def act(dlg) -> None:
        qtbot.keyClicks(dlg.field, text)
        qtbot.keyClick(dlg.field, Qt.Key.Key_Return)

    seen = in_dialog(qtbot, "goto_dialog", act)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    assert seen and len(seen) == 1, seen
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=60_000)  # keys go to the window again


@pytest.fixture(scope="module")
def crowd60(tmp_path_factory) -> Path:
    return crowd_project(tmp_path_factory.mktemp("crowd") / "crowd60.hadj", 60, per_item=9)


@pytest.fixture
def crowd_win(qtbot, private_dirs, crowd60: Path) -> Iterator[MainWindow]:
    w = _open(qtbot, crowd60)
    yield w
    w.close_project()
    QApplication.processEvents()
    gc.collect()


# ---------------------------------------------------------------- 1. who answered
def test_crowd_panel_lists_who_answered_and_keys_take_the_listed_answers(qtbot, crowd_win: MainWindow,
                                                                         crowd60: Path) -> None:
    w, wb = crowd_win, crowd_win.wb
    _go_to(qtbot, w, "word3-n 17")
    i = w.ws.current
    assert wb.key_of(i) == ("word3-n", "17")
    assert w.ws.table.selectionModel().currentIndex().row() == wb.row_of(i)  # selected in the table too
    answered = sorted(wb.corpus.sets[k].name for k in wb.corpus.answered(i))
    text = w.ws.detail.answers_view.toPlainText()
    assert f"{len(answered)} sets answered this instance" in text
    groups = wb.answer_groups(i)
    for g in groups:  # every voter named, nobody who did not answer
        for name in g.names:
            assert name in text
    assert sorted(n for g in groups for n in g.names) == answered
    # the vote table: one row per sense with its votes, no column per worker
    lm = w.ws.detail.leaf_model
    assert lm.columnCount() == 5 and [lm.headerData(c, Qt.Orientation.Horizontal) for c in range(5)] == \
        ["Tag" if tags_only(wb.corpus.inventory) else "Sense", "Votes", "Share", "Posterior", "Gold"]  # #31
    inv = wb.corpus.inventory
    nodes = inv.lexelt_nodes[int(wb.cols.lexelt[i])]
    shown = {inv.node_id[int(n)]: lm.data(lm.index(r, 1)) for r, n in enumerate(nodes.tolist())}
    for g in groups:
        assert shown[g.tags[0]] == f"{g.votes:g}"
    # the chart's bars are the shares of the votes
    share = np.asarray(w.ws.detail.chart.bars[0].opts["width"])  # horizontal bars
    assert share.sum() == pytest.approx(1.0)
    # key 2 takes the second answer listed, from the keyboard
    second = groups[1].tags if len(groups) > 1 else None
    qtbot.keyClick(w.ws.table, Qt.Key.Key_2)
    if second is None:
        assert wb.status[i] == 0
    else:
        assert tuple(wb.gold[i].split()) == second
        assert w.session.decisions.current("word3-n", "17").tags == second  # saved in the store


def test_set_headers_never_read_like_two_numbers(qtbot, private_dirs, tmp_path: Path) -> None:
    path = crowd_project(tmp_path / "few.hadj", 4, per_item=4)  # worker ids 1..4: numbers
    w = _open(qtbot, path)
    m = w.ws.model
    titles = [m.headerData(c, Qt.Orientation.Horizontal) for c in range(m.columnCount())]
    sets = [t for t in titles if t.startswith("[")]
    assert sets == ["[1] 1", "[2] 2", "[3] 3", "[4] 4"]
    lm = w.ws.detail.leaf_model
    assert lm.headerData(1, Qt.Orientation.Horizontal) == "[1] 1"
    w.close()


# ---------------------------------------------------------------- 2. the screen
def test_first_geometry_fits_the_available_screen() -> None:
    for w, h in ((1024, 700), (1280, 800), (1366, 768), (1280, 720), (1920, 1080)):
        avail = QRect(0, 0, w, h - 30)  # a task bar
        g = first_geometry(avail)
        assert avail.contains(g) and g.height() + 34 <= avail.height()  # room for the title bar


def test_size_is_remembered_per_screen(qtbot, demo_project: Path, monkeypatch) -> None:
    # a --screenshot run in this process (tests/cli) fixes the geometry for what follows: not here
    monkeypatch.delenv("HIERADJ_FIXED_GEOMETRY", raising=False)
    w = _open(qtbot, demo_project)
    w.resize(700, 560)
    w.close()
    key = screen_key(w.screen())
    assert isinstance(QSettings().value(key), type(w.saveGeometry()))
    w2 = MainWindow()
    qtbot.addWidget(w2)
    assert (w2.width(), w2.height()) == (700, 560)
    # a size remembered for this screen that no longer fits it is not used
    w2.resize(5000, 4000)
    QSettings().setValue(key, w2.saveGeometry())
    w3 = MainWindow()
    qtbot.addWidget(w3)
    a = w3.screen().availableGeometry()
    assert w3.width() <= a.width() and w3.height() <= a.height()


@pytest.mark.parametrize("which", ["demo", "crowd"])
def test_works_at_1024x700(qtbot, demo_project: Path, crowd60: Path, which: str) -> None:
    w = _open(qtbot, demo_project if which == "demo" else crowd60)
    for tab in ("workbench", "dashboard"):
        if tab == "dashboard":
            qtbot.keyClick(w.ws.table, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
            QApplication.processEvents()
        hint = w.minimumSizeHint()
        assert hint.width() <= 1024 - 8 and hint.height() <= 700 - 34, (tab, hint)
    qtbot.keyClick(w, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    w.resize(1016, 666)
    qtbot.waitUntil(lambda: w.fitter.tabbed, timeout=60_000)  # the left column tabs on a short window
    live = w.ws.live
    qtbot.waitUntil(lambda: not live.updating, timeout=60_000)
    QApplication.processEvents()
    # no text under a control: the form rows of the live figures never overlap
    rows = [live.kappa, live.alpha, live.cohen, live.progress]
    for a, b in zip(rows, rows[1:]):
        assert a.geometry().bottom() < b.geometry().top() or a.x() != b.x(), (a.objectName(), b.objectName())
    # and the docks grow back when the window does
    w.resize(1400, 1000)
    qtbot.waitUntil(lambda: not w.fitter.tabbed, timeout=60_000)
    assert not w.tabifiedDockWidgets(w.docks["tree"])
    w.close()


def test_help_overlay_fits_the_window_it_is_shown_in_uncut(qtbot, demo_project: Path) -> None:
    w = _open(qtbot, demo_project)
    w.resize(1016, 666)  # a 1024x768 screen less a window frame and a panel
    QApplication.processEvents()
    qtbot.keyClick(w.ws.table, Qt.Key.Key_Question)
    assert w.help.isVisible()
    # measured against the space the overlay has, not a pixel count: its own size before any
    # clipping (which depends on the installed fonts) fits the window, so no line is cut
    hint = w.help.sizeHint()
    assert hint.height() <= w.height() - 8 and hint.width() <= w.width() - 8, (hint, w.size())
    assert w.help.geometry().bottom() <= w.height() and w.help.geometry().right() <= w.width()
    w.close()


def test_decided_rows_are_marked_in_the_table(qtbot, demo_project: Path) -> None:
    w = _open(qtbot, demo_project)
    row = w.ws.current_row()
    m = w.ws.model
    assert m.headerData(row, Qt.Orientation.Vertical) == str(row + 1)
    qtbot.keyClick(w.ws.table, Qt.Key.Key_1)  # take set 1 and move on
    assert m.headerData(row, Qt.Orientation.Vertical) == f"✓ {row + 1}"
    assert m.data(m.index(row, 1), Qt.ItemDataRole.ForegroundRole) is not None
    qtbot.keyClick(w.ws.table, Qt.Key.Key_F)  # flag the next one
    assert m.headerData(w.ws.current_row(), Qt.Orientation.Vertical).startswith("⚑")
    w.close()


# ---------------------------------------------------------------- 4. notes and small dialogs
def _note(qtbot, win: MainWindow, keys) -> None:
    seen = in_dialog(qtbot, "note_dialog", keys)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_E)
    assert len(seen) == 1, seen
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=60_000)


def test_notes_are_saved_shown_filtered_and_searched(qtbot, demo_project: Path) -> None:
    w = _open(qtbot, demo_project)
    i = w.ws.current
    lex, inst = w.wb.key_of(i)

    def type_and_save(dlg) -> None:
        qtbot.keyClicks(dlg.editor, "ask Ann about this")
        qtbot.keyClick(dlg.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    _note(qtbot, w, type_and_save)
    # a note alone is no decision (issue 31): the instance keeps it and stays unresolved
    assert w.session.decisions.note(lex, inst) == "ask Ann about this"
    assert w.session.decisions.current(lex, inst) is None and w.wb.status[i] == 0
    assert "ask Ann about this" in w.ws.detail.context.toPlainText()
    col = w.ws.model.keys.index("note")
    assert w.ws.model.data(w.ws.model.index(w.ws.current_row(), col)) == "ask Ann about this"

    def escape(dlg) -> None:  # Esc cancels: the note stays as it was
        qtbot.keyClicks(dlg.editor, " and Ben")
        qtbot.keyClick(dlg.editor, Qt.Key.Key_Escape)

    _note(qtbot, w, escape)
    assert w.wb.note[i] == "ask Ann about this"

    def shift_tab_enter(dlg) -> None:  # Shift+Tab then Enter must not drop what was typed
        qtbot.keyClicks(dlg.editor, " and Ben")
        qtbot.keyClick(dlg.editor, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)

    _note(qtbot, w, shift_tab_enter)
    assert w.wb.note[i] == "ask Ann about this and Ben"
    # the "Has a note" filter keeps exactly the noted instance; the search finds the note too
    box = w.ws.status_box
    box.setCurrentIndex(box.findText("Has a note"))
    assert w.wb.view.tolist() == [i]
    box.setCurrentIndex(0)
    w.ws.search.setText("about this and ben")
    w.ws.apply_filter()
    assert w.wb.view.tolist() == [i]
    w.close()
    s = Session.open(demo_project)  # reopened: the note survived
    try:
        assert s.decisions.note(lex, inst) == "ask Ann about this and Ben"
    finally:
        s.close()


def test_pick_dialog_space_ticks_from_the_search_field(qtbot, demo_project: Path) -> None:
    w = _open(qtbot, demo_project)
    i = w.ws.current

    def act(dlg) -> None:
        qtbot.keyClicks(dlg.search, "ridge")
        qtbot.keyClick(dlg.search, Qt.Key.Key_Space)  # ticks the highlighted sense
        dlg.search.clear()
        qtbot.keyClicks(dlg.search, "tier")  # "a row or tier of similar objects"
        qtbot.keyClick(dlg.search, Qt.Key.Key_Space)  # and a second one
        ticked = [n for n, it in dlg.items.items() if it.checkState(0) == Qt.CheckState.Checked]
        assert len(ticked) == 2
        qtbot.keyClick(dlg.search, Qt.Key.Key_Return)

    seen = in_dialog(qtbot, "pick_dialog", act)
    qtbot.keyClick(w.ws.table, Qt.Key.Key_Space)
    assert len(seen) == 1, seen
    assert len(w.wb.gold[i].split()) == 2
    w.close()


def test_go_to_instance_hidden_by_the_filter(qtbot, demo_project: Path) -> None:
    w = _open(qtbot, demo_project)
    w.ws.set_category((3,))  # disjoint only
    target = int(np.flatnonzero(w.wb.cols.category != 3)[0])
    lex, inst = w.wb.key_of(target)
    _go_to(qtbot, w, f"{lex} {inst}")
    assert w.ws.current == target
    assert int(w.wb.view[w.ws.table.selectionModel().currentIndex().row()]) == target
    # a text naming no instance keeps the dialog open: tests/gui/test_go_to_keeps_what_was_typed.py
    w.close()


# ---------------------------------------------------------------- 3. labels
def test_chart_labels_are_lemma_n_and_many_leaves_stay_readable(qtbot) -> None:
    from hieradjudicate.gui.workbench.panels.detail_panel import LeafChart

    chart = LeafChart()
    qtbot.addWidget(chart)
    chart.resize(300, 200)
    chart.ensure_sets(["a"])
    labels = [f"make#{j + 1}" for j in range(49)]
    P = np.zeros((49, 1))
    P[[4, 20], 0] = [0.6, 0.4]
    chart.show_data(labels, P, np.zeros(49, bool))
    assert chart.tick_labels == ["make#5", "make#21", "47 others"]
    # the gloss on hover: the pointer over the first bar names its sense in full
    from hieradjudicate.gui.dashboard.common import widget_pos

    chart.show()
    qtbot.waitExposed(chart)
    tips = [f"make%2:36:0{j}:: gloss {j}" for j in range(49)]
    chart.show_data(labels, P, np.zeros(49, bool), tips)
    qtbot.mouseMove(chart.viewport(), widget_pos(chart, 0.3, 0))  # row 0
    qtbot.waitUntil(lambda: chart.toolTip() == tips[4], timeout=60_000)
    assert chart.empty_text.toPlainText() == ""
    chart.show_data(labels[:3], np.zeros((3, 1)), np.zeros(3, bool))  # nobody answered
    assert chart.empty_text.toPlainText() == "No answer to chart for this instance"
    assert chart.tick_labels == ["make#1", "make#2", "make#3"]  # the lemma stays: never a bare "#2"


def test_gold_column_and_instance_ids_read_short(qtbot, private_dirs, tmp_path: Path) -> None:
    from tests.conftest import skip_without_realdata

    d = skip_without_realdata("wsdeval") / "wsdeval"
    from hieradjudicate.cli.entry import main

    path = tmp_path / "wsd.hadj"
    assert main(["project", "new", str(path), "--inventory", "/usr/share/wordnet",
                 "--annotations", f"gold={d / 'senseval2.gold.key.txt'}",
                 "--annotations", f"lesk={d / 'ALL.lesk_example.key.txt'}",
                 "--contexts", str(d / "senseval2.data.xml")]) == 0
    w = _open(qtbot, path)
    i = w.ws.current
    qtbot.keyClick(w.ws.table, Qt.Key.Key_1)
    m = w.ws.model
    row = w.wb.row_of(i)
    gold = m.data(m.index(row, m.keys.index("gold")))
    assert "%" not in gold and "#" in gold  # art#3, not art%1:09:00::
    assert "%" in w.wb.gold[i]  # the saved key is the full sense key
    # the instance column elides in the middle: the differing end of "d000.s000.t000" shows
    from PySide6.QtWidgets import QStyleOptionViewItem

    col = m.keys.index("instance")
    opt = QStyleOptionViewItem()
    w.ws.table.itemDelegateForColumn(col).initStyleOption(opt, m.index(row, col))
    assert opt.textElideMode == Qt.TextElideMode.ElideMiddle
    w.close()
