"""#21 item 2 with File ▸ Re-import a set… (the window builds new views on the re-imported corpus):
the highlighted row, the instance panel and the instance every key acts on stay one and the same, on
the instance that was highlighted, in the order and the search the user had, after the re-import and
after its undo; the keys reach the table again once the dialog is closed.

Driven as a user would: header clicks, typing into the search field, the menu action, the dialog's
combo box, path field and buttons, key presses on the table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.app.demo import demo_inputs
from tests.gui.journey import back_to, click_header, highlighted, open_window, type_into

CTRL = Qt.KeyboardModifier.ControlModifier


def _search(qtbot, win, text: str) -> None:
    type_into(qtbot, win.ws.search, text)
    qtbot.waitUntil(lambda: win.wb.filter.text == text, timeout=60_000)


def _changed_ben(win, key: tuple[str, str], folder: Path) -> Path:
    """ben's file with another leaf as the answer for ``key``."""
    lines = (demo_inputs() / "annotator_ben.key").read_text(encoding="utf-8").splitlines()
    inv = win.wb.corpus.inventory
    leaves = [inv.node_id[int(n)] for n in inv.lexelt_nodes[inv.lexelts.index(key[0])] if inv.node_is_leaf[int(n)]]
    k = next(j for j, line in enumerate(lines) if line.split()[:2] == list(key))
    now = lines[k].split()[2:]
    new_tag = next(t for t in leaves if t not in now)
    lines[k] = f"{key[0]} {key[1]} {new_tag}"
    out = folder / "ben_v2.key"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def _reimport(qtbot, win, set_name: str, path: Path) -> list[str]:
    """File ▸ Re-import a set…: the set, the file, Re-import, then Close; returns what it said."""
    back_to(qtbot, win)
    win.actions["reimport"].trigger()
    dlg = win.project_ops.reimport_dialog
    assert dlg is not None and dlg.isVisible()
    box = dlg.set_box
    k = box.findText(set_name)
    assert k >= 0
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Home)
    for _ in range(k):
        qtbot.keyClick(box, Qt.Key.Key_Down)
    type_into(qtbot, dlg.path, str(path))
    old = win.wb
    qtbot.mouseClick(dlg.go, Qt.MouseButton.LeftButton)
    lines = list(dlg.lines)
    assert lines and lines[0].startswith(f"re-imported {set_name} from"), dlg.result.text()
    qtbot.waitUntil(lambda: win.wb is not old, timeout=60_000)  # the new views on the new corpus
    qtbot.mouseClick(dlg.buttons.button(dlg.buttons.StandardButton.Close), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win and not dlg.isVisible(), timeout=60_000)
    return lines


def test_reimport_and_its_undo_keep_the_highlight_the_order_and_the_keys(qtbot, demo_project: Path,
                                                                         tmp_path: Path) -> None:
    win = open_window(qtbot, demo_project)
    session = win.session
    # the user's place: the table sorted by "Leaf agr." (descending), a search, a row a few down
    click_header(qtbot, win, "agreement")
    click_header(qtbot, win, "agreement")
    _search(qtbot, win, "bank")
    shown = win.wb.view.size
    assert 4 < shown < win.wb.corpus.n
    win.ws.table.setFocus()
    for _ in range(3):
        qtbot.keyClick(win.ws.table, Qt.Key.Key_Down)
    here = win.wb.key_of(highlighted(win))
    order = [win.wb.key_of(int(i)) for i in win.wb.view]

    said = _reimport(qtbot, win, "ben", _changed_ben(win, here, tmp_path))
    assert "1 instance(s) changed" in said[0]
    wb = win.wb
    assert wb.corpus is session.corpus
    i = highlighted(win)  # one highlighted row, shown in the panel, the keys' target ...
    assert wb.key_of(i) == here  # ... on the instance highlighted before
    assert wb.sort_key == "agreement" and wb.sort_descending  # the order and the search are kept
    assert win.ws.search.text() == "bank" and wb.filter.text == "bank" and wb.view.size == shown
    head = win.ws.table.horizontalHeader()
    assert head.sortIndicatorSection() == win.ws.model.keys.index("agreement")
    assert head.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    agr = np.nan_to_num(wb.cols.agreement, nan=-1.0)[wb.view]  # sorted by the re-imported figures
    assert (np.diff(agr) <= 0).all()
    assert {wb.key_of(int(j)) for j in wb.view} == set(order)

    # keys reach the table without a click, and act on the highlighted instance
    assert QApplication.focusWidget() is win.ws.table
    qtbot.keyClick(win.ws.table, Qt.Key.Key_A)
    assert session.decisions.current(*here) is not None and wb.status[wb.corpus.instance_index(*here)] == 1
    nxt = highlighted(win)
    assert nxt >= 0 and wb.key_of(nxt) != here and wb.status[nxt] == 0

    # undo the decision, then the whole re-import: the highlight, the panel and the keys agree
    qtbot.keyClick(win.ws.table, Qt.Key.Key_Z, CTRL)
    assert session.decisions.current(*here) is None
    assert wb.key_of(highlighted(win)) == here
    before = win.wb
    said: list[str] = []  # every message the status bar shows from here (one stays 5 s: a busy machine
    win.statusBar().messageChanged.connect(said.append)  # rebuilds the views for longer than that)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_Z, CTRL)
    qtbot.waitUntil(lambda: win.wb is not before and any(said), timeout=60_000)
    # it flagged no decision: the status bar names the step undone, never still "re-imported ben …"
    shown = [m for m in said if m]
    assert shown and shown[-1] == "Undone: re-import ben_v2.key", said
    wb = win.wb
    assert wb.corpus.get_set("ben") is not None and wb.corpus is session.corpus
    i = highlighted(win)
    assert wb.key_of(i) == here
    assert wb.sort_key == "agreement" and wb.sort_descending and wb.filter.text == "bank"
    qtbot.waitUntil(lambda: QApplication.focusWidget() is win.ws.table, timeout=60_000)  # keys, without a click
    qtbot.keyClick(win.ws.table, Qt.Key.Key_A)
    assert session.decisions.current(*here) is not None
    assert highlighted(win) != i
    win.close()


def test_reimport_during_a_search_with_no_result_keeps_the_place(qtbot, demo_project: Path, tmp_path: Path) -> None:
    win = open_window(qtbot, demo_project)
    win.ws.table.setFocus()
    for _ in range(5):
        qtbot.keyClick(win.ws.table, Qt.Key.Key_Down)
    here = win.wb.key_of(highlighted(win))
    changed = _changed_ben(win, here, tmp_path)
    _search(qtbot, win, "zq-no-such-thing-qz")
    assert win.wb.view.size == 0 and highlighted(win) == -1
    _reimport(qtbot, win, "ben", changed)
    assert win.ws.search.text() == "zq-no-such-thing-qz" and win.wb.view.size == 0
    assert highlighted(win) == -1  # still no instance shown, none acted on
    qtbot.keyClick(win.ws.table, Qt.Key.Key_1)
    assert len(win.session.decisions) == 0
    _search(qtbot, win, "")  # clearing the search comes back to the place before it
    assert win.wb.key_of(highlighted(win)) == here
    win.close()
