"""Widgets that paint their own background, so that Qt does not paint what lies under them.

A widget that changes at every step to the next instance (the suggestion's label, a scroll bar whose
range or position moves) is transparent by default: Qt then repaints, under its rectangle, every
widget above it up to the window (MASC: the main window, the tab pages, the dock, the detail panel,
its splitter -- nine paint events for one scroll bar; 1.2 ms of a step).  Filled with the palette's
window colour, as its parents fill it, it looks the same and is painted alone.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget


def paint_alone(*widgets: QWidget) -> None:
    """Make each widget fill its background itself (``autoFillBackground``): Qt paints nothing under it."""
    for w in widgets:
        w.setAutoFillBackground(True)
