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
#: cell widths a table keeps (then it forgets them all and measures afresh)
WIDTHS_KEPT = 4096


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
    #: (font, style, what :meth:`_metrics` returns for them), made at the first measure
    _held_metrics: tuple | None = None

    def sizeHintForColumn(self, column: int) -> int:  # noqa: N802 (Qt's name)
        m = self.model()
        text_of = self.cell_text
        if text_of is None or m is None or not 0 <= column < m.columnCount(self.rootIndex()):
            return super().sizeHintForColumn(column)
        plain, italic, margin, widths = self._metrics()
        hint = 0
        for r in rows_measured(self):
            cell = text_of(r, column)
            width = widths.get(cell)
            if width is None:
                text, slant = cell
                width = math.ceil((italic if slant else plain).horizontalAdvance(text)) + margin if text else margin
                if len(widths) >= WIDTHS_KEPT:
                    widths.clear()
                widths[cell] = width
            hint = max(hint, width)
        return hint + 1 if self.showGrid() else hint

    def _metrics(self) -> tuple[QFontMetricsF, QFontMetricsF, int, dict[tuple[str, bool], int]]:
        """The view's font metrics (plain, italic), a cell's margins and the widths of the cells
        measured so far by (text, italic), kept while the font and style stay: a step to the next
        instance measures each column twice (when its cells change and when the header is laid out),
        over mostly the texts of the step before ("0.25", the senses of a word)."""
        self.ensurePolished()
        font, style = self.font(), self.style()
        held = self._held_metrics
        if held is not None and held[0] == font and held[1] is style:
            return held[2]
        slanted = QFont(font)
        slanted.setItalic(True)
        margin = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self) + 1)
        metrics = (QFontMetricsF(font), QFontMetricsF(slanted), margin, {})
        self._held_metrics = (font, style, metrics)
        return metrics
