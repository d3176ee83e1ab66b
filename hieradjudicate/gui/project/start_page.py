"""The start page: new project, open, recent projects, the demo."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

RECENT_KEY = "recent_projects"


def recent_projects() -> list[str]:
    value = QSettings().value(RECENT_KEY, [])
    if isinstance(value, str):
        return [value]
    return [str(v) for v in (value or [])]


def remember_project(path: str) -> None:
    items = [p for p in recent_projects() if p != path]
    QSettings().setValue(RECENT_KEY, [path, *items][:10])


class StartPage(QWidget):
    new_requested = Signal()
    open_requested = Signal()
    demo_requested = Signal()
    recent_requested = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        title = QLabel("<h1>hieradjudicate</h1><p>Adjudicate word-sense annotation disagreements over "
                       "hierarchical sense inventories.</p><p>Drop a <code>.hadj</code> project here, or:</p>")
        title.setWordWrap(True)
        buttons = QVBoxLayout()
        for text, signal in (("New project…", self.new_requested), ("Open project…", self.open_requested),
                             ("Open the demo", self.demo_requested)):
            b = QPushButton(text)
            b.setMinimumHeight(36)
            b.clicked.connect(signal.emit)
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.recent = QListWidget()
        self.recent.addItems(recent_projects())
        self.recent.itemActivated.connect(lambda it: self.recent_requested.emit(it.text()))
        row = QHBoxLayout()
        row.addLayout(buttons, 1)
        right = QVBoxLayout()
        right.addWidget(QLabel("<b>Open recent</b>"))
        right.addWidget(self.recent)
        row.addLayout(right, 2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(60, 40, 60, 40)
        lay.addWidget(title)
        lay.addLayout(row, 1)
        lay.setAlignment(Qt.AlignmentFlag.AlignTop)
