"""A flagged instance's decided tags are held under the flag, not a gold decision: the probability chart
frames them grey and dotted and its key says "held under the flag (not gold)", the sense table and the
sense tree mark them ⚑ held, not ★ gold, the instance table's Gold cell is grey italics; F unflags and
they are gold again.  Real keys on the demo."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from hieradjudicate.gui.colors import GOLD, HELD
from tests.gui.journey import highlighted, open_window


def _marks(ws) -> list[str]:
    """The sense table's Gold column as the user reads it."""
    m = ws.detail.leaf_model
    col = m.columnCount() - 1
    assert m.headerData(col, Qt.Orientation.Horizontal) == "Gold"
    return [m.data(m.index(r, col)) for r in range(m.rowCount()) if m.data(m.index(r, col))]


def _table_gold(ws, i: int) -> tuple:
    """The font, text colour and tooltip of instance ``i``'s Gold cell in the instance table."""
    m = ws.model
    ix = m.index(ws.wb.row_of(i), m.keys.index("gold"))
    brush = m.data(ix, Qt.ItemDataRole.ForegroundRole)
    return (m.data(ix, Qt.ItemDataRole.FontRole), brush.color().name() if brush is not None else "",
            m.data(ix, Qt.ItemDataRole.ToolTipRole) or "")


def _key(ws) -> str:
    """The chart's colour key, above it."""
    return ws.detail.findChild(QLabel, "chart_legend").text()


def _tree_marks(ws) -> set[str]:
    """The decision marks in the sense tree's "Here" column."""
    items = ws.tree.items.values()
    return {m for item in items for m in item.text(1).split() if m in ("★", "⚑")}


def _frame(ws) -> tuple[str, Qt.PenStyle, int]:
    """The colour and style of the frame around the decided senses in the chart, and how many it frames."""
    bars = ws.detail.chart.gold_bars
    pen = bars.opts["pen"]
    return pen.color().name(), pen.style(), len(bars.opts["y"])


def test_a_flagged_instances_tags_are_drawn_as_held_not_gold_until_unflagged(qtbot, demo_project: Path):
    win = open_window(qtbot, demo_project)
    wb, ws = win.wb, win.ws
    i = highlighted(win)
    qtbot.keyClick(ws.table, Qt.Key.Key_F)  # flag
    answer = wb.answer_of_key(i, 2)
    qtbot.keyClick(ws.table, Qt.Key.Key_2)  # decide under the flag: the tags are held
    if ws.current != i:
        qtbot.keyClick(ws.table, Qt.Key.Key_Up)
    assert highlighted(win) == i and wb.cell("status", i) == "flagged" and wb.gold[i] == " ".join(answer.tags)
    key = _key(ws)
    assert "held under the flag (not gold)" in key and "┅ gold" not in key
    color, style, n = _frame(ws)
    assert (color, style) == (HELD.lower(), Qt.PenStyle.DotLine) and n >= 1
    assert _marks(ws) and set(_marks(ws)) == {"⚑ held"}
    assert _tree_marks(ws) == {"⚑"}
    # the instance table's Gold cell: the tags in grey italics, its tooltip says they are held
    font, color, tip = _table_gold(ws, i)
    assert font.italic() and not font.bold() and color == HELD.lower() and "not gold until you unflag" in tip
    # F unflags: the same tags are now the gold, drawn and marked as gold
    qtbot.keyClick(ws.table, Qt.Key.Key_F)
    if ws.current != i:
        qtbot.keyClick(ws.table, Qt.Key.Key_Up)
    assert highlighted(win) == i and wb.cell("status", i) == "resolved"
    assert "┅ gold" in _key(ws) and "held" not in _key(ws)
    color, style, n = _frame(ws)
    assert (color, style) == (GOLD.lower(), Qt.PenStyle.DashLine) and n >= 1
    assert set(_marks(ws)) == {"★ gold"} and _tree_marks(ws) == {"★"}
    font, color, tip = _table_gold(ws, i)
    assert font.bold() and not font.italic() and color != HELD.lower() and not tip
    win.close()
