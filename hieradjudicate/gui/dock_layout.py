"""The docks on small and large windows: tabbed when the window is short, side by side again when it grows.

On a 1024×700 screen the left column cannot hold both the sense inventory and
the live figures (the figures' labels were drawn over one another): below
:data:`TAB_BELOW` px of window height the two docks share the column as tabs,
and when the window grows again they are split again with their default
heights ("docks grow back").  The live figures sit in a scroll area, so a
short dock scrolls instead of overprinting text under a control.

The central widget's minimum height is the shown page's (:func:`size_to_current_page`), not the
tallest page's: a stacked widget counts every page, so the Timeline tab's 324 px held the
workbench's 128 px table area at 354 px even while hidden, and the instance dock had no room to
grow for a longer suggestion without squeezing the table below its minimum -- on every such step
the window was laid out twice (the dock grew, then shrank back), 50 ms each on MASC.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QMainWindow,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

#: window heights below this tab the inventory and the live figures into one column
TAB_BELOW = 760
_HYSTERESIS = 40


def scrolling(widget: QWidget) -> QScrollArea:
    """``widget`` in a vertical scroll area that resizes it to the dock's width."""
    area = QScrollArea()
    area.setObjectName(f"{widget.objectName() or 'panel'}_scroll")
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(widget)
    return area


def size_to_current_page(pages: QStackedWidget | QTabWidget, *, follow: bool = True) -> Callable[[int], None]:
    """From now on only the current page of ``pages`` counts for its size hints: a hidden page's
    size policy is ``Ignored`` (its minimum counts as 0), the shown page's its own again.  Pages
    added later are set aside at the next change of page.  ``follow=False``: not on every change
    of page by itself; the caller calls the returned function with the new page's index (where
    docks are hidden and shown with the page: hidden before a taller page takes its room, shown
    after the page is short again, or the layout in between squeezes them and they keep it)."""

    def fit(current: int) -> None:
        for j in range(pages.count()):
            w = pages.widget(j)
            own = w.__dict__.get("_own_size_policy")
            if j == current:
                if own is not None:
                    w.setSizePolicy(own)
                    del w.__dict__["_own_size_policy"]
            elif own is None:
                w.__dict__["_own_size_policy"] = w.sizePolicy()
                w.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)

    if follow:
        pages.currentChanged.connect(fit)
    fit(pages.currentIndex())
    return fit


class DockFitter(QObject):
    """Tabs ``upper`` and ``lower`` (same dock area) on a short window, splits them on a tall one."""

    def __init__(self, window: QMainWindow, upper: QDockWidget, lower: QDockWidget, detail: QDockWidget) -> None:
        super().__init__(window)
        self.window, self.upper, self.lower, self.detail = window, upper, lower, detail
        self.tabbed = False
        self.heights = (420, 300)  # of upper and lower when split (a reference gold's scores: more below)
        window.installEventFilter(self)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        if obj is self.window and ev.type() == QEvent.Type.Resize:
            QTimer.singleShot(0, self.fit)
        return False

    def active(self) -> bool:
        return self.upper.isVisible() or self.lower.isVisible()

    def fit(self) -> None:
        if not self.active():
            return
        h = self.window.height()
        if not self.tabbed and h < TAB_BELOW:
            self.window.tabifyDockWidget(self.upper, self.lower)
            self.upper.raise_()
            self.tabbed = True
        elif self.tabbed and h >= TAB_BELOW + _HYSTERESIS:
            area = self.window.dockWidgetArea(self.upper)
            self.window.removeDockWidget(self.lower)  # out of the tab bar, then below the upper one
            self.window.addDockWidget(area, self.lower)
            self.window.splitDockWidget(self.upper, self.lower, Qt.Orientation.Vertical)
            self.lower.show()
            self.tabbed = False
            self.default_sizes()

    def default_sizes(self) -> None:
        """The docks' default share of the window (a third of the height for the instance panel)."""
        w = self.window
        w.resizeDocks([self.upper], [min(290, max(200, w.width() // 4))], Qt.Orientation.Horizontal)
        w.resizeDocks([self.detail], [max(240, min(360, int(w.height() * 0.42)))], Qt.Orientation.Vertical)
        if not self.tabbed:
            w.resizeDocks([self.upper, self.lower], list(self.heights), Qt.Orientation.Vertical)

    def restore(self, version: int, has_project) -> None:
        """The dock layout the user left (``window/state``), else the defaults for this window size."""
        state = QSettings().value("window/state")
        # a screenshot pictures the default layout, whatever the user's last session left
        if isinstance(state, QByteArray) and not os.environ.get("HIERADJ_FIXED_GEOMETRY"):
            self.window.restoreState(state, version)
            self.tabbed = bool(self.window.tabifiedDockWidgets(self.upper))
            return

        def defaults() -> None:
            if has_project():
                self.fit()  # tabbed on a short window
                self.default_sizes()

        defaults()
        # before the window is shown the dock layout has no height to share out: again once it has
        QTimer.singleShot(0, defaults)
