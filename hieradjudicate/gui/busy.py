"""Feedback for a step the user waits on (opening a project: MASC takes about 1.5 s).

The step runs on the GUI thread (the project must be open before anything
else can happen), so the feedback is what can be drawn before it starts: a
message in the status bar, painted at once, and the wait cursor until it ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMainWindow


@contextmanager
def busy(window: QMainWindow, text: str) -> Iterator[None]:
    bar = window.statusBar()
    bar.showMessage(text)
    bar.repaint()  # drawn now: the event loop is blocked until the step ends
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        yield
    finally:
        QApplication.restoreOverrideCursor()
        if bar.currentMessage() == text:
            bar.clearMessage()
