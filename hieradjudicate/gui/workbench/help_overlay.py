"""The ``?`` overlay listing every shortcut of the action table."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
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
        self.point_size = 11.0
        self._style(self.point_size)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.hide()

    def _style(self, points: float) -> None:
        self.point_size = points
        self.setStyleSheet("QLabel#help_overlay { background: rgba(250,250,250,240); color: black;"
                           f" border: 2px solid #555; border-radius: 8px; padding: 16px; font-size: {points:g}pt; }}")

    def popup(self) -> None:
        p = self.parentWidget()
        # never taller or wider than the window, and no line cut: a smaller font where the text does
        # not fit (a 1024x700 window, a 768 px screen, 150 % scaling; #23)
        for points in (11.0, 10.0, 9.0, 8.0, 7.0):
            self._style(points)
            self.adjustSize()
            if self.width() <= p.width() - 8 and self.height() <= p.height() - 8:
                break
        self.resize(min(self.width(), p.width() - 8), min(self.height(), p.height() - 8))
        self.move((p.width() - self.width()) // 2, max(4, (p.height() - self.height()) // 2))
        self.show()
        self.raise_()
        self.setFocus()

    def event(self, ev) -> bool:
        # a key pressed here only closes the overlay: taken before the window's shortcuts see it,
        # or 1 would decide the instance behind it, N move on, and the overlay stay open
        if ev.type() == QEvent.Type.ShortcutOverride:
            ev.accept()
            return True
        return super().event(ev)

    def keyPressEvent(self, ev) -> None:
        self.hide()

    def mousePressEvent(self, ev) -> None:
        self.hide()
