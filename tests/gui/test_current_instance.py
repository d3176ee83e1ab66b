"""#21 item 2: the instance every key acts on is the highlighted row's, after sorting, filtering, searching,
clearing a search, undo and reopening; a search that finds nothing shows no instance.

Driven as a user would: header clicks on the header's viewport, typing into the search field, key presses
on the table. Runs on the demo and, with HIERADJ_REALDATA, on MASC (228 crowd workers, 44,682 instances).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.gui.main_window import MainWindow
from hieradjudicate.gui.workbench.instance_model import InstanceRole
from tests.conftest import skip_without_realdata
from tests.gui.journey import open_window

CTRL = Qt.KeyboardModifier.ControlModifier


_open = open_window  # the one way every journey opens the window (tests/gui/journey.py)


def _highlighted(win: MainWindow) -> list[int]:
    """The instances of the rows the table paints as selected."""
    ws = win.ws
    return [int(ws.model.data(ix, InstanceRole)) for ix in ws.table.selectionModel().selectedRows()]


def _consistent(win: MainWindow) -> int:
    """The highlighted row, the instance panel and the instance keys act on are one and the same."""
    ws = win.ws
    hi = _highlighted(win)
    assert len(hi) <= 1
    want = hi[0] if hi else -1
    assert ws.current == want, (win.wb.key_of(ws.current) if ws.current >= 0 else None,
                                win.wb.key_of(want) if want >= 0 else None)
    assert ws.detail.instance == want
    return want


def _search(qtbot, win: MainWindow, text: str) -> None:
    ws = win.ws
    qtbot.mouseClick(ws.search, Qt.MouseButton.LeftButton)
    qtbot.keyClick(ws.search, Qt.Key.Key_A, CTRL)
    if text:
        qtbot.keyClicks(ws.search, text)
    else:
        qtbot.keyClick(ws.search, Qt.Key.Key_Backspace)
    want = win.wb.mask(ws.current_filter()).sum()
    qtbot.waitUntil(lambda: win.wb.filter.text == text and win.wb.view.size == want, timeout=60_000)


def _click_header(qtbot, win: MainWindow, key: str) -> None:
    ws = win.ws
    col = ws.model.keys.index(key)
    header = ws.table.horizontalHeader()
    bar = ws.table.horizontalScrollBar()
    while header.sectionViewportPosition(col) + header.sectionSize(col) > header.viewport().width() \
            and bar.value() < bar.maximum():  # scroll right, as a user would, until the header shows
        bar.setValue(bar.value() + bar.singleStep() * 4)
        QApplication.processEvents()
    x = header.sectionViewportPosition(col) + header.sectionSize(col) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))


def _click_row(qtbot, win: MainWindow, i: int) -> None:
    ws = win.ws
    row = win.wb.row_of(i)
    assert row >= 0
    ws.table.scrollTo(ws.model.index(row, 0))
    rect = ws.table.visualRect(ws.model.index(row, 2))
    qtbot.mouseClick(ws.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _press(qtbot, win: MainWindow, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    win.ws.table.setFocus()
    qtbot.keyClick(win.ws.table, key, modifier)


def _journey(qtbot, win: MainWindow, inst_id: str, sort_key: str, decide_key) -> None:
    ws, wb = win.ws, win.wb
    target = next(i for i in range(wb.corpus.n) if wb.cols.inst_id[i] == inst_id)
    _consistent(win)

    # find it, click its row, clear the search: the place is kept (not row 1)
    _search(qtbot, win, inst_id)
    _click_row(qtbot, win, target)
    assert _consistent(win) == target
    _search(qtbot, win, "")
    assert wb.view.size == wb.corpus.n
    assert _consistent(win) == target and wb.row_of(target) != 0

    # sort by a header click: the highlight follows the instance, and a key decides the highlighted one
    _click_header(qtbot, win, sort_key)
    assert wb.sort_key == sort_key
    assert _consistent(win) == target
    before = len(win.session.decisions)
    _press(qtbot, win, decide_key)
    assert len(win.session.decisions) == before + 1
    assert wb.status[target] == 1 and win.session.decisions.current(*wb.key_of(target)) is not None
    nxt = _consistent(win)  # moved on by itself, to a row that is highlighted
    assert nxt >= 0 and nxt != target and wb.status[nxt] == 0

    # sort again (descending): the highlighted instance is still the one shown and acted on
    _click_header(qtbot, win, sort_key)
    assert wb.sort_descending
    assert _consistent(win) == nxt
    _press(qtbot, win, decide_key)
    assert wb.status[nxt] == 1 and len(win.session.decisions) == before + 2
    third = _consistent(win)

    # a search with no result shows no instance; keys then do nothing and say why
    _search(qtbot, win, "zq-no-such-thing-qz")
    assert wb.view.size == 0
    assert _consistent(win) == -1
    assert "No instance" in ws.detail.context.toPlainText()
    for key in (Qt.Key.Key_1, Qt.Key.Key_A, Qt.Key.Key_F):
        _press(qtbot, win, key)
    assert len(win.session.decisions) == before + 2
    assert "No instance" in win.statusBar().currentMessage()
    # clearing it comes back to the place before it
    _search(qtbot, win, "")
    assert _consistent(win) == third

    # undo of a decision the filter hides: the highlight and the panel stay together on their row
    _search(qtbot, win, inst_id)
    _click_row(qtbot, win, target)
    _search(qtbot, win, wb.cols.inst_id[third])
    shown = _consistent(win)
    assert shown >= 0 and wb.row_of(nxt) < 0 < wb.row_of(shown) + 1
    _press(qtbot, win, Qt.Key.Key_Z, CTRL)  # undoes the decision on ``nxt``, not shown here
    assert wb.status[nxt] == 0
    assert _consistent(win) == shown
    assert "not shown by the current filter" in win.statusBar().currentMessage()
    # undo of one that is shown: its row is highlighted and shown
    _search(qtbot, win, "")
    _press(qtbot, win, Qt.Key.Key_Z, CTRL)
    assert wb.status[target] == 0
    assert _consistent(win) == target


def test_keys_act_on_the_highlighted_row_demo(qtbot, demo_project: Path) -> None:
    win = _open(qtbot, demo_project)
    # the steps: find bank.n.007, clear the search, click "Leaf agr.", press 1
    _journey(qtbot, win, "bank.n.007", "agreement", Qt.Key.Key_1)
    win.close()


def test_filter_keeps_the_instance_and_modeltester(qtbot, qtmodeltester, demo_project: Path) -> None:
    win = _open(qtbot, demo_project)
    ws, wb = win.ws, win.wb
    _click_header(qtbot, win, "agreement")
    qtmodeltester.check(ws.model)  # persistent indexes moved by the sort are valid ones
    i = _consistent(win)
    _press(qtbot, win, Qt.Key.Key_D, CTRL)  # filter: disjoint only
    assert ws.category_box.currentData() == (3,)
    j = _consistent(win)
    assert j == (i if wb.cols.category[i] == 3 else j) and wb.cols.category[j] == 3
    _click_header(qtbot, win, "instance")
    assert _consistent(win) == j
    qtmodeltester.check(ws.model)
    win.close()


def test_reopen_keeps_the_place(qtbot, demo_project: Path) -> None:
    win = _open(qtbot, demo_project)
    target = next(i for i in range(win.wb.corpus.n) if win.wb.cols.inst_id[i] == "hard.a.022")
    _click_row(qtbot, win, target)
    assert _consistent(win) == target
    win.reopen_project()
    assert win.wb.cols.inst_id[_consistent(win)] == "hard.a.022"
    win.close()


@pytest.fixture(scope="module")
def masc_project(tmp_path_factory) -> Path:
    d = skip_without_realdata("masc_amt") / "masc_amt"
    out = tmp_path_factory.mktemp("masc") / "masc.hadj"
    subprocess.run([sys.executable, "-m", "hieradjudicate", "project", "new", str(out),
                    "--inventory", str(d / "inventory_tree.tsv"),
                    "--annotations", str(d / "masc_amt_labels_wide.tsv.gz")], check=True, timeout=600)
    return out


def test_keys_act_on_the_highlighted_row_masc(qtbot, private_dirs: Path, masc_project: Path) -> None:
    win = _open(qtbot, masc_project)
    assert win.wb.corpus.n == 44682 and len(win.wb.corpus.sets) == 228
    inst_id = str(win.wb.cols.inst_id[1234])  # an instance well inside the table
    # "1" is annotator 1, who labelled few sentences: the suggestion key decides on any instance
    _journey(qtbot, win, inst_id, "agreement", Qt.Key.Key_A)
    win.close()


def test_a_search_with_no_result_shows_no_instance(qtbot, demo_project: Path) -> None:
    win = _open(qtbot, demo_project)
    before = _consistent(win)
    assert before >= 0
    _search(qtbot, win, "zq-no-such-thing-qz")
    assert win.wb.view.size == 0 and _consistent(win) == -1
    assert win.ws.tree.tree.topLevelItemCount() == 0
    _press(qtbot, win, Qt.Key.Key_1)
    assert len(win.session.decisions) == 0
    assert "shows none of the" in win.statusBar().currentMessage()
    _search(qtbot, win, "")
    assert _consistent(win) == before
    win.close()


def test_undo_of_a_hidden_instance_leaves_the_highlight(qtbot, demo_project: Path) -> None:
    win = _open(qtbot, demo_project)
    wb = win.wb
    first = _consistent(win)
    _press(qtbot, win, Qt.Key.Key_A)
    assert wb.status[first] == 1
    _search(qtbot, win, "hard.a")
    shown = _consistent(win)
    assert wb.row_of(first) < 0 and shown >= 0
    _press(qtbot, win, Qt.Key.Key_Z, CTRL)
    assert wb.status[first] == 0
    assert _consistent(win) == shown
    win.close()


def test_moving_the_highlight_never_blanks_the_panels(qtbot, demo_project: Path) -> None:
    """A click moves Qt's current index before the selection (a key, the other way round): the panels
    go from one instance straight to the next, never through "no instance" (which rebuilds the tree)."""
    win = _open(qtbot, demo_project)
    ws = win.ws
    seen: list[int] = []
    ws.instance_changed.connect(seen.append)
    for _ in range(4):
        _press(qtbot, win, Qt.Key.Key_Down)
    for i in (int(win.wb.view[3]), int(win.wb.view[9]), int(win.wb.view[1])):
        _click_row(qtbot, win, i)
        assert _consistent(win) == i
    assert -1 not in seen and len(seen) == 7
    # Ctrl+click on the highlighted row takes the highlight away: then no instance, and keys do nothing
    rect = ws.table.visualRect(ws.model.index(1, 2))
    qtbot.mouseClick(ws.table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                     rect.center())
    assert _consistent(win) == -1 and seen[-1] == -1
    _press(qtbot, win, Qt.Key.Key_A)
    assert len(win.session.decisions) == 0
    assert "No instance is highlighted" in win.statusBar().currentMessage()
    win.close()
