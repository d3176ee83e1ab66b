"""Esc in a search field: what the field's owner does then (the table takes the keys again)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QWidget


class EscTo(QObject):
    """An event filter on each field of ``then``: Esc there calls its function (and goes no further)."""

    def __init__(self, then: dict[QWidget, Callable[[], object]]) -> None:
        super().__init__()
        self.then = dict(then)
        for field in self.then:
            field.installEventFilter(self)

    def eventFilter(self, obj, ev) -> bool:  # noqa: N802 (Qt's name)
        if ev.type() == QEvent.Type.KeyPress and ev.key() == Qt.Key.Key_Escape and obj in self.then:
            self.then[obj]()
            return True
        return False
