"""The Note and Go-to-instance dialogs.

The note dialog saves with Ctrl+Enter (and the Save button), cancels with Esc
only: Tab and Shift+Tab never reach a Cancel button (it takes no focus), so
"Shift+Tab then Enter" saves instead of silently dropping what was typed.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class NoteDialog(QDialog):
    def __init__(self, text: str, where: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("note_dialog")
        self.setWindowTitle("Note")
        self.editor = QPlainTextEdit(text)
        self.editor.setObjectName("note_text")
        self.editor.setTabChangesFocus(True)
        self.editor.moveCursor(self.editor.textCursor().MoveOperation.End)
        buttons = QDialogButtonBox()
        self.save = QPushButton("Save  (Ctrl+Enter)")
        self.save.setObjectName("note_save")
        self.save.setDefault(True)
        cancel = QPushButton("Cancel  (Esc)")
        cancel.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab/Shift+Tab then Enter must not drop the note
        buttons.addButton(self.save, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(cancel, QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        for seq in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(seq), self, activated=self.accept)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(f"Note on {where}:"))
        lay.addWidget(self.editor)
        lay.addWidget(buttons)
        self.resize(460, 220)
        self.editor.setFocus()

    def text(self) -> str:
        return self.editor.toPlainText()


class GoToDialog(QDialog):
    """Asks for ``lexelt instance`` (or an instance id); the window resolves and selects it.
    ``check(text)`` says why a text names no instance ("" when it does): the dialog then stays open
    with the text and the reason, so a typo costs one key, not the whole typing."""

    def __init__(self, parent: QWidget | None = None, text: str = "",
                 check: Callable[[str], str] | None = None) -> None:
        super().__init__(parent)
        self.check = check
        self.setObjectName("goto_dialog")
        self.setWindowTitle("Go to instance")
        self.field = QLineEdit(text)
        self.field.setObjectName("goto_text")
        self.field.setPlaceholderText("lexelt instance, e.g. work-n 1.1")
        self.field.selectAll()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("Instance (lexelt and id, or an id only one lexelt has):"))
        lay.addWidget(self.field)
        self.why = QLabel()
        self.why.setObjectName("goto_why")
        self.why.setWordWrap(True)
        self.why.setStyleSheet("color: #b00020")
        self.why.hide()
        lay.addWidget(self.why)
        lay.addWidget(buttons)
        self.field.setFocus()

    def accept(self) -> None:
        why = self.check(self.text()) if self.check is not None else ""
        if why:
            self.why.setText(why)
            self.why.show()
            self.adjustSize()  # the reason's lines in sight
            self.field.setFocus()
            return
        super().accept()

    def text(self) -> str:
        return self.field.text()


def go_to(ws, text: str, tell) -> bool:
    """Select the instance ``text`` names through the table's selection model; ``tell`` says why not."""
    from hieradjudicate.app.workbench.goto import find_instance

    i, why = find_instance(ws.wb, text)
    if i < 0:
        tell(why)
        return False
    if ws.wb.row_of(i) < 0:  # hidden by the filter: show everything, then select it
        ws.clear_filter()
        tell("The filter hid that instance: showing all instances")
    ws.select_instance(i)
    ws.table.setFocus()
    return True
