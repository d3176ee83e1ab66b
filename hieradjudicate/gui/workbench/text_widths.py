"""Tables whose columns are sized to their contents from the cells' texts and fonts alone.

A column sized to its contents (``ResizeToContents``) is measured by Qt at every model reset: each
cell it looks at goes through the delegate, which asks the model seven roles -- seven calls from C++
into Python a cell.  The crowd's vote table is reset at every instance shown and the live scores'
table at every decision, and their cells are plain text in the view's font (or its italic): no icon,
no check box, no wrapping.  :class:`TextSizedTable` measures those texts with the font's metrics and
adds the delegate's margins and the grid line as :meth:`QTableView.sizeHintForColumn` does, over the
same rows (the visible ones, then alternately below and above up to the horizontal header's
``resizeContentsPrecision``): the same widths as Qt's (tests/gui/test_vote_table_column_widths.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import QStyle, QTableView

#: a cell's text and whether it is written in italic
CellText = Callable[[int, int], tuple[str, bool]]


def rows_measured(view: QTableView) -> list[int]:
    """The logical rows :meth:`QTableView.sizeHintForColumn` looks at (Qt 6's order and limit)."""
    head = view.verticalHeader()
    model = view.model()
    n = model.rowCount(view.rootIndex())
    most = view.horizontalHeader().resizeContentsPrecision()  # the column's header's, as in Qt
    top = max(0, head.visualIndexAt(0))
    bottom = head.visualIndexAt(view.viewport().height())
    if not view.isVisible() or bottom == -1:
        bottom = n - 1
    out: list[int] = []
    row = top
    while row <= bottom:
        logical = head.logicalIndex(row)
        if not head.isSectionHidden(logical):
            out.append(logical)
            if len(out) == most:
                break
        row += 1
    last, up, down = n - 1, top, row - 1
    done = len(out) if most != 0 else 0
    while done != most and (up > 0 or down < last):
        logical = -1
        if (done % 2 and up > 0) or down == last:
            while up > 0:
                up -= 1
                if not head.isSectionHidden(head.logicalIndex(up)):
                    logical = head.logicalIndex(up)
                    break
        else:
            while down < last:
                down += 1
                if not head.isSectionHidden(head.logicalIndex(down)):
                    logical = head.logicalIndex(down)
                    break
        if logical < 0:
            continue
        out.append(logical)
        done += 1
    return out


class TextSizedTable(QTableView):
    """A table view whose ``sizeHintForColumn`` reads ``cell_text(row, column)`` (the view's model's
    row) instead of asking the delegate; without one it is Qt's own."""

    cell_text: CellText | None = None

    def sizeHintForColumn(self, column: int) -> int:  # noqa: N802 (Qt's name)
        m = self.model()
        text_of = self.cell_text
        if text_of is None or m is None or not 0 <= column < m.columnCount(self.rootIndex()):
            return super().sizeHintForColumn(column)
        self.ensurePolished()
        plain = QFontMetricsF(self.font())
        slanted = QFont(self.font())
        slanted.setItalic(True)
        italic = QFontMetricsF(slanted)
        margin = 2 * (self.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self) + 1)
        hint, rows = 0, rows_measured(self)
        for r in rows:
            text, slant = text_of(r, column)
            width = math.ceil((italic if slant else plain).horizontalAdvance(text)) + margin if text else margin
            hint = max(hint, width)
        return hint + 1 if self.showGrid() else hint
