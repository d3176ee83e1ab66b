"""One column of a table or tree takes the room its view has left (#23).

At 1920x1080 the instance table stopped short of the window's right edge; at 1024 px the Sense
inventory's Gloss column ran out of its dock (a sideways scroll bar).  :class:`FillWidth` sizes one
column to what the other visible columns leave of the viewport, never below ``least`` pixels; the
others keep their widths (and what a user drags them to), except the ``give`` columns, which shrink
(in order, each down to its floor, eliding their text) before the filling column goes below ``least``
and grow back to their own width when there is room.  Where even that does not fit, the view scrolls.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeView


class FillWidth(QObject):
    """Keep ``column()`` of ``view`` as wide as the room left, at least ``least`` (pixels, or a function
    giving them) px; :meth:`fit` again after the view's content changed the other columns' widths."""

    def __init__(self, view: QAbstractItemView, column: Callable[[], int], least: int | Callable[[], int],
                 give: tuple[tuple[int, int], ...] = ()) -> None:
        super().__init__(view)
        self.view, self.column, self.least, self.give = view, column, least, give
        self.natural: dict[int, int] = {}  # the give columns' own widths (as their content or a user set them)
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

    def _resized(self, logical: int, _old: int, new: int) -> None:
        if not self._busy and logical != self.column():
            if any(c == logical for c, _ in self.give):
                self.natural[logical] = new
            self._timer.start()

    def fit(self) -> None:
        """Size the column now (also after columns are hidden or shown)."""
        col = self.column()
        head = self.header
        if col < 0 or col >= head.count() or head.isSectionHidden(col):
            return
        least = self.least() if callable(self.least) else self.least
        room = self.view.viewport().width()
        sizes = {c: head.sectionSize(c) for c in range(head.count()) if c != col and not head.isSectionHidden(c)}
        for c, _ in self.give:
            if c in sizes:
                sizes[c] = self.natural.setdefault(c, sizes[c])
        short = sum(sizes.values()) + least - room
        for c, floor in self.give:
            if short > 0 and c in sizes:
                take = max(0, min(short, sizes[c] - floor))
                sizes[c] -= take
                short -= take
        self._busy = True
        try:
            for c, _ in self.give:
                if c in sizes and head.sectionSize(c) != sizes[c]:
                    head.resizeSection(c, sizes[c])
            want = max(least, room - sum(sizes.values()))
            if head.sectionSize(col) != want:
                head.resizeSection(col, want)
        finally:
            self._busy = False


def least_in_sight(view: QAbstractItemView, column: Callable[[], int], own: Callable[[], int] | int,
                   share: float = 0.6) -> Callable[[], int]:
    """A :class:`FillWidth` ``least`` for ``column()``: its ``own`` width, or down to ``share`` of it
    when that is all it takes for every other visible column to be in sight (a 1760 px window cut the
    instance table's Note column off for 50 px, the sense table's Gold column for 30); when more is
    missing (a narrow screen) it keeps its own width and the view scrolls."""
    def least() -> int:
        base = own() if callable(own) else own
        col = column()
        head = view.header() if isinstance(view, QTreeView) else view.horizontalHeader()
        if col < 0 or col >= head.count():
            return base
        others = sum(head.sectionSize(c) for c in range(head.count()) if c != col and not head.isSectionHidden(c))
        left = view.viewport().width() - others
        return min(base, left) if left >= int(base * share) else base
    return least

