"""One column of a table or tree takes the room its view has left (#23).

At 1920x1080 the instance table stopped short of the window's right edge; at 1024 px the Sense
inventory's Gloss column ran out of its dock (a sideways scroll bar).  :class:`FillWidth` sizes one
column to what the other visible columns leave of the viewport, never below ``least`` pixels; the
others keep their widths (and what a user drags them to).  Where even ``least`` does not fit, the
view scrolls as before.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeView


class FillWidth(QObject):
    """Keep ``column()`` of ``view`` as wide as the room left, at least ``least`` (pixels, or a function
    giving them) px; :meth:`fit` again after the view's content changed the other columns' widths."""

    def __init__(self, view: QAbstractItemView, column: Callable[[], int], least: int | Callable[[], int]) -> None:
        super().__init__(view)
        self.view, self.column, self.least = view, column, least
        self.header: QHeaderView = view.header() if isinstance(view, QTreeView) else view.horizontalHeader()
        self.header.setStretchLastSection(False)  # a tree's default, which keeps the last column >= 100 px
        self._busy = False
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self.fit)
        view.viewport().installEventFilter(self)
        self.header.sectionResized.connect(self._resized)
        self.header.sectionCountChanged.connect(lambda *_: self._timer.start())
        self.fit()

    def eventFilter(self, obj, ev) -> bool:  # noqa: N802 (Qt's name)
        if ev.type() == QEvent.Type.Resize:
            self._timer.start()  # after the layout settles (a vertical scroll bar comes and goes)
        return False

    def _resized(self, logical: int, _old: int, _new: int) -> None:
        if not self._busy and logical != self.column():
            self._timer.start()

    def fit(self) -> None:
        """Size the column now (also after columns are hidden or shown)."""
        col = self.column()
        head = self.header
        if col < 0 or col >= head.count() or head.isSectionHidden(col):
            return
        others = sum(head.sectionSize(c) for c in range(head.count()) if c != col and not head.isSectionHidden(c))
        least = self.least() if callable(self.least) else self.least
        want = max(least, self.view.viewport().width() - others)
        if head.sectionSize(col) != want:
            self._busy = True
            try:
                head.resizeSection(col, want)
            finally:
                self._busy = False
