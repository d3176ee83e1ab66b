"""The banner above the table while a project is open read-only (another program is writing it)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton


class ReadOnlyBanner(QFrame):
    """Says why nothing can be decided, and offers to open the project again.

    Opening again gets write access once the other program has closed the
    project; until then the project opens read-only again and the banner stays.
    """

    reopen_requested = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("read_only_banner")
        self.setStyleSheet("QFrame#read_only_banner { background: #fff3c4; border-bottom: 1px solid #c9a800; }"
                           " QFrame#read_only_banner QLabel { color: #3a3000; }")
        self.text = QLabel()
        self.text.setObjectName("read_only_text")
        self.text.setWordWrap(True)
        self.retry = QPushButton("Open again")
        self.retry.setToolTip("Open the project again: for writing if the other program has closed it")
        self.retry.clicked.connect(self.reopen_requested.emit)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 6, 10, 6)
        lay.addWidget(self.text, 1)
        lay.addWidget(self.retry)
        self.hide()

    def show_reason(self, reason: str | None) -> None:
        """Show the banner with ``reason`` (from the project store), or hide it for ``None``."""
        if not reason:
            self.hide()
            return
        self.text.setText(f"<b>Read-only</b> — {reason}. You can read this project but not decide: "
                          "decisions are disabled until it is opened for writing.")
        self.show()
