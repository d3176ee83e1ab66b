"""What the Dashboard tab shows while its first figures are computed: the named steps and a bar.

The figures are computed off the GUI thread (the warm-up after a project
opens, or the tab's own refresh); until the first set arrives the panels
would stand empty.  :class:`FirstFigures` covers them with a box naming the
step being computed ("Pairwise agreement of 228 sets", "Agreement per
lexelt", ...) over a bar that advances, then "Drawing the figures" while the
panels are filled in the GUI thread, and goes away.  It hears every report of
the computation (shown or not: the warm-up may be half done when the tab is
first shown) and keeps them in :attr:`FirstFigures.record` (text, percent,
whether the box was visible), for tests and benchmarks.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QFrame, QLabel, QProgressBar, QVBoxLayout, QWidget

SCALE = 1000


class Shown(NamedTuple):
    text: str
    percent: float
    visible: bool
    at: float  # time.perf_counter() when it was shown


class FirstFigures(QFrame):
    """A box over its parent's middle (see the module docstring)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("dash_first_figures")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(16, 12, 16, 12)
        self.title = QLabel("<b>Computing the dashboard's figures</b>")
        self.step = QLabel("Waiting for the instance table's figures…", objectName="dash_first_step")
        self.step.setWordWrap(True)
        self.bar = QProgressBar(objectName="dash_first_bar")
        self.bar.setRange(0, SCALE)
        self.bar.setValue(0)
        for w in (self.title, self.step, self.bar):
            lay.addWidget(w)
        self.setFixedWidth(420)
        self.record: list[Shown] = []
        self.finished = False
        self.hide()
        parent.installEventFilter(self)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        if obj is self.parent() and ev.type() == QEvent.Type.Resize:
            self._place()
        return False

    def _place(self) -> None:
        p = self.parentWidget()
        if p is not None:
            self.adjustSize()
            self.move(max((p.width() - self.width()) // 2, 0), max((p.height() - self.height()) // 3, 0))

    # ------------------------------------------------------------------ the computation's reports
    def report(self, done: int, total: int, what: str) -> None:
        if self.finished or self.bar.value() >= SCALE:  # computed: a pass over the cached figures adds nothing
            return
        value = max(round(SCALE * min(max(done / total, 0.0), 1.0)) if total else SCALE, self.bar.value())
        self.step.setText(what)
        self.bar.setValue(value)
        self.record.append(Shown(what, round(100.0 * value / SCALE, 1), self.isVisible(), time.perf_counter()))

    def building(self, what: str) -> None:
        """The tab's panels are being built (before any figure is drawn): say which, the bar where it is."""
        if self.finished:
            return
        self.step.setText(what)
        self.record.append(Shown(what, round(100.0 * self.bar.value() / SCALE, 1), self.isVisible(),
                                 time.perf_counter()))
        if self.isVisible():
            self.repaint()  # the GUI thread builds the panels next: the text is painted first

    def waiting(self) -> None:
        """The tab is shown and has no figures yet: show the box (until :meth:`done`)."""
        if self.finished:
            return
        self._place()
        self.show()
        self.raise_()

    def drawing(self) -> None:
        """The figures are computed: say that they are being drawn (in the GUI thread, next)."""
        if self.finished or not self.isVisible():
            return
        self.bar.setValue(SCALE)
        self.step.setText("Drawing the figures")
        self.record.append(Shown("Drawing the figures", 100.0, True, time.perf_counter()))
        self.repaint()

    def done(self) -> None:
        """The first figures are drawn: the box goes for good."""
        if not self.finished:
            self.finished = True
            self.hide()
