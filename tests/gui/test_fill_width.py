"""Issue #23: the workbench's tables use the width they are given.  At 1920x1080 the instance table
stopped short of the window's right edge; the Sense inventory's Gloss column ran out of its dock (a
sideways scroll bar) and the leaf table left room unused.  The most useful column takes what the
others leave: the context (else the crowd's answers), the gloss, the sense."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from tests.crowd import crowd_project
from tests.gui.journey import open_window

BIG = (1920 - 8, 1080 - 34)  # a 1920x1080 screen less the window frame and title bar
SMALL = (1024 - 8, 700 - 34)


def _columns(view, head) -> tuple[int, list[int]]:
    """The viewport's width and the widths of the visible columns."""
    shown = [c for c in range(head.count()) if not head.isSectionHidden(c)]
    return view.viewport().width(), [head.sectionSize(c) for c in shown]


def _settle(qtbot, view, head) -> None:
    """Wait until the view's columns stop changing after a resize (the fit runs once the layout settled)."""
    last: list = []

    def same() -> bool:
        QApplication.processEvents()
        now = _columns(view, head)
        ok = now == (last[0] if last else None)
        last[:] = [now]
        return ok

    qtbot.waitUntil(same, timeout=60_000)


def _sized(qtbot, w, size) -> None:
    w.resize(*size)
    for view, head in ((w.ws.table, w.ws.table.horizontalHeader()), (w.ws.tree.tree, w.ws.tree.tree.header()),
                       (w.ws.detail.leaf_table, w.ws.detail.leaf_table.horizontalHeader())):
        _settle(qtbot, view, head)


def test_the_demo_tables_fill_a_1920_window(qtbot, demo_project: Path) -> None:
    w = open_window(qtbot, demo_project)
    _sized(qtbot, w, BIG)
    ws = w.ws
    table, head = ws.table, ws.table.horizontalHeader()
    room, widths = _columns(table, head)
    assert sum(widths) == room, (room, widths)  # no unused room at the right, no scroll bar
    kwic = ws.model.keys.index("kwic")
    assert table.columnWidth(kwic) > 250  # the context took the room
    # the sense tree: the gloss fills the dock, no sideways scroll
    tree = ws.tree.tree
    room, widths = _columns(tree, tree.header())
    assert sum(widths) == room and tree.horizontalScrollBar().maximum() == 0, (room, widths)
    # the leaf table: the sense column takes what the sets' columns leave
    leaf = ws.detail.leaf_table
    room, widths = _columns(leaf, leaf.horizontalHeader())
    assert sum(widths) == room, (room, widths)
    # back on a 1024 px screen: the context is as wide as before (the table scrolls for the rest)
    _sized(qtbot, w, SMALL)
    assert table.columnWidth(kwic) == 250
    w.close()


def test_a_dragged_column_gives_its_room_to_the_context(qtbot, demo_project: Path) -> None:
    """A user widens the Instance column with the mouse: the context column gives way, the table still
    ends at the window's edge."""
    w = open_window(qtbot, demo_project)
    _sized(qtbot, w, BIG)
    table, head = w.ws.table, w.ws.table.horizontalHeader()
    kwic = w.ws.model.keys.index("kwic")
    before = table.columnWidth(kwic)
    col = w.ws.model.keys.index("instance")
    edge = head.sectionViewportPosition(col) + head.sectionSize(col) - 1
    y = head.height() // 2
    qtbot.mousePress(head.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(edge, y))
    qtbot.mouseMove(head.viewport(), QPoint(edge + 40, y))
    qtbot.mouseRelease(head.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(edge + 40, y))
    _settle(qtbot, table, head)
    assert table.columnWidth(col) > 150
    room, widths = _columns(table, head)
    assert sum(widths) == room and table.columnWidth(kwic) < before, (room, widths)
    w.close()


@pytest.fixture(scope="module")
def crowd(tmp_path_factory) -> Path:
    return crowd_project(tmp_path_factory.mktemp("crowd") / "crowd30.hadj", 30)


def test_a_crowds_answers_fill_a_1920_window(qtbot, private_dirs, crowd: Path) -> None:
    """No contexts (the column is hidden): the crowd's answers take the room."""
    w = open_window(qtbot, crowd)
    _sized(qtbot, w, BIG)
    table, head = w.ws.table, w.ws.table.horizontalHeader()
    room, widths = _columns(table, head)
    assert sum(widths) == room, (room, widths)
    assert table.columnWidth(w.ws.model.keys.index("answers")) > 260
    w.close()
