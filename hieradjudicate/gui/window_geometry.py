"""Where the main window opens and how big: from the screen, remembered per screen.

The first window on a screen takes most of the screen's *available* geometry
(without the task bar), never more, so its bottom (status bar, chart axis,
score table) never falls off a 1280×800, 1366×768 or 1080 px screen at 150 %
scaling.  The last size is remembered per screen (its name and available
size: a laptop panel and a monitor each keep their own), and a remembered
size that does not fit the screen it opens on is not used.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QByteArray, QRect, QSettings, QTimer
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QWidget

#: Share of the available screen a first window takes (the rest shows what is behind it).
SHARE = 0.92
#: The smallest screen the window is made for (issue #23): its minimum size fits in it.
SMALLEST = (1024, 700)
#: Room for the title bar and borders the window manager adds (known only once the window is shown).
DECORATION = (8, 34)


def screen_key(screen: QScreen | None) -> str:
    """The QSettings key of a screen: its name and available size."""
    if screen is None:
        return "window/geometry"
    g = screen.availableGeometry()
    name = "".join(c if c.isalnum() else "_" for c in (screen.name() or "screen"))
    return f"window/geometry_{name}_{g.width()}x{g.height()}"


def first_geometry(avail: QRect) -> QRect:
    """A window of :data:`SHARE` of the available area (all of it, less the frame, on a small screen),
    centred."""
    avail = avail.adjusted(0, 0, -DECORATION[0], -DECORATION[1])
    w = avail.width() if avail.width() <= SMALLEST[0] else max(SMALLEST[0], int(avail.width() * SHARE))
    h = avail.height() if avail.height() <= SMALLEST[1] else max(SMALLEST[1], int(avail.height() * SHARE))
    w, h = min(w, avail.width()), min(h, avail.height())
    return QRect(avail.x() + (avail.width() - w) // 2, avail.y() + (avail.height() - h) // 2, w, h)


def place(window: QWidget) -> None:
    """Restore the size remembered for the window's screen, else size it from the screen."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    saved = QSettings().value(screen_key(screen))
    if isinstance(saved, QByteArray) and not os.environ.get("HIERADJ_FIXED_GEOMETRY"):
        if window.restoreGeometry(saved) and fits(window, screen):
            return
    if screen is not None:
        g = first_geometry(screen.availableGeometry())
        window.resize(g.size())
        window.move(g.topLeft())
    else:
        window.resize(1024, 700)
    QTimer.singleShot(0, lambda: within_screen(window))


def within_screen(window: QWidget) -> None:
    """Once shown (the frame is known): move and shrink the window so that its frame is on the screen."""
    screen = window.screen()
    if screen is None or not window.isVisible() or window.isMaximized() or window.isFullScreen() \
            or os.environ.get("HIERADJ_FIXED_GEOMETRY"):  # a screenshot pictures the size it asked for
        return
    a, f = screen.availableGeometry(), window.frameGeometry()
    dw, dh = max(0, f.width() - a.width()), max(0, f.height() - a.height())
    if dw or dh:
        window.resize(window.width() - dw, window.height() - dh)
    f = window.frameGeometry()
    x = min(max(f.x(), a.x()), a.right() - f.width() + 1)
    y = min(max(f.y(), a.y()), a.bottom() - f.height() + 1)
    if (x, y) != (f.x(), f.y()):
        window.move(x, y)


def fits(window: QWidget, screen: QScreen | None) -> bool:
    if screen is None:
        return True
    a = screen.availableGeometry()
    return window.width() <= a.width() and window.height() <= a.height()


def remember(window: QWidget) -> None:
    """Save the window's size for the screen it is on."""
    if os.environ.get("HIERADJ_FIXED_GEOMETRY"):
        return  # a screenshot run leaves the user's saved layout alone
    QSettings().setValue(screen_key(window.screen()), window.saveGeometry())
