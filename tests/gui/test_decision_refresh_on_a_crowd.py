"""A decision's refresh on a crowd, from the keyboard.

The live panel's per-set precision after every key equals the figures computed afresh by
``score_leaf`` over every set; the panels show the next instance (drawn once, not first for the
decided one); when no instance is left to move on to, they show the decided one as decided.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.app.workbench.live import full_set_scores
from hieradjudicate.app.workbench.queue import RESOLVED
from hieradjudicate.gui.main_window import MainWindow
from tests.crowd import crowd_project
from tests.gui.journey import open_window


@pytest.fixture(scope="module")
def crowd60(tmp_path_factory) -> Path:
    return crowd_project(tmp_path_factory.mktemp("crowd") / "crowd60.hadj", 60, per_item=9)


@pytest.fixture
def win(qtbot, private_dirs, crowd60: Path) -> Iterator[MainWindow]:
    w = open_window(qtbot, crowd60)
    qtbot.waitUntil(lambda: not w.ws.live.updating and w.ws.live.figures is not None, timeout=60_000)
    yield w
    w.close_project()
    QApplication.processEvents()
    gc.collect()


def _shown_scores(w: MainWindow) -> dict[str, tuple[str, str]]:
    """What the live panel's score table shows: set -> (precision, n), read through its view's model."""
    model = w.ws.live.scores.model()
    return {model.index(r, 0).data(): (model.index(r, 2).data(), model.index(r, 3).data())
            for r in range(model.rowCount())}


def _expected(w: MainWindow) -> dict[str, tuple[str, str]]:
    return {s.name: ("–" if s.precision is None else f"{s.precision:.3f}", str(s.n_scored))
            for s in full_set_scores(w.wb)}


def test_keys_decide_and_the_live_scores_are_the_recomputed_ones(qtbot, win: MainWindow) -> None:
    w, ws = win, win.ws
    assert all(p == "–" for p, _ in _shown_scores(w).values())  # nothing decided yet
    for step in range(6):
        i = ws.current
        answered = w.wb.answer_groups(i)[0].tags  # key 1: the first answer listed
        qtbot.keyClick(ws.table, Qt.Key.Key_1)
        assert w.wb.status[i] == RESOLVED and tuple(w.wb.gold[i].split()) == answered
        assert ws.current != i and ws.shown == ws.current  # moved on; the panels show the next one
        lex, inst = w.wb.key_of(ws.current)
        assert inst in ws.detail.context.toPlainText()
        qtbot.waitUntil(lambda: not ws.live.updating, timeout=60_000)
        assert ws.live.progress.value() == step + 1
        shown, expected = _shown_scores(w), _expected(w)
        assert shown == expected
        assert sum(int(n) for _, n in shown.values()) == sum(
            len(w.wb.corpus.answered(int(j))) for j in w.wb.status.nonzero()[0].tolist())
    assert sum(p != "–" for p, _ in _shown_scores(w).values()) >= 6  # the sets that answered were scored


def test_the_last_instance_left_is_shown_decided(qtbot, win: MainWindow) -> None:
    """No instance to move on to: the panels are drawn again for the decided instance."""
    w, ws = win, win.ws
    qtbot.keyClick(ws.table, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(ws.search, "word3-n 17")
    qtbot.waitUntil(lambda: 0 < w.wb.view.size < 5, timeout=60_000)
    ws.table.setFocus()
    qtbot.keyClick(ws.table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    for _ in range(int(w.wb.view.size)):
        i = ws.current
        qtbot.keyClick(ws.table, Qt.Key.Key_1)
    assert (w.wb.status[w.wb.view] == RESOLVED).all()
    assert ws.current == i and ws.shown == i  # stayed on the last one decided
    assert "resolved" in ws.detail.context.toPlainText().split("\n")[0]  # "(word3-n, resolved)"
    gold = w.wb.gold[i].split()
    inv = w.wb.corpus.inventory
    x = int(w.wb.cols.lexelt[i])
    marked = {inv.node_id[n]: item.text(1) for n, item in ws.tree.items.items()}
    assert all("★" in marked[t] for t in gold if inv.lookup(x, t) >= 0)  # the gold starred in the tree
    qtbot.waitUntil(lambda: not ws.live.updating, timeout=60_000)
    assert _shown_scores(w) == _expected(w)
