"""The ``?`` overlay listing every shortcut of the action table."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from hieradjudicate.gui.actions import help_html


class HelpOverlay(QLabel):
    """The ``?`` overlay listing every shortcut; any key or click closes it."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("help_overlay")
        self.setText(help_html())
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setStyleSheet("QLabel#help_overlay { background: rgba(250,250,250,240); color: black;"
                           " border: 2px solid #555; border-radius: 8px; padding: 16px; font-size: 11pt; }")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.hide()

    def popup(self) -> None:
        self.adjustSize()
        p = self.parentWidget()
        # never taller or wider than the window: it fits a 768 px screen (#23)
        self.resize(min(self.width(), p.width() - 8), min(self.height(), p.height() - 8))
        self.move((p.width() - self.width()) // 2, max(4, (p.height() - self.height()) // 2))
        self.show()
        self.raise_()
        self.setFocus()

    def keyPressEvent(self, ev) -> None:
        self.hide()

    def mousePressEvent(self, ev) -> None:
        self.hide()
