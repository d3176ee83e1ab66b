"""The status bar's note of a server project's damaged rows, and their list on demand.

A row the server holds but the program cannot use (written before the server's checks, or by an
administrator with them off) is left out of everything and named by
:meth:`~hieradjudicate.io.store.pg.store.PgStore.damaged_rows` (``#id (lexelt instance): why``).
The window says how many there are in a permanent button of the status bar; clicking it lists
them, with what the lead can do (decide the instance again).  A file project's left-out rows open
it read-only and are named in the read-only banner instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMainWindow,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

WHAT_TO_DO = ("They are left out of the figures, the conflicts and the export (`project export URL "
              "--without-damaged`). The lead supersedes one by deciding its instance again; "
              "`hieradjudicate project check URL` names them too.")


class DamagedRowsDialog(QDialog):
    """The list of damaged rows, one a line, selectable for copying."""

    def __init__(self, rows: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("damaged_rows_dialog")
        self.setWindowTitle(f"{len(rows)} damaged row(s) on the server")
        self.resize(640, 320)
        head = QLabel(f"The server holds {len(rows)} row(s) the program cannot use. {WHAT_TO_DO}", self)
        head.setWordWrap(True)
        self.rows = QPlainTextEdit("\n".join(rows), self, objectName="damaged_rows_list")
        self.rows.setReadOnly(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(head)
        layout.addWidget(self.rows)
        layout.addWidget(buttons)


class DamagedRowsNote(QPushButton):
    """A flat button in the status bar: "⚠ N damaged server row(s)"; hidden when there are none."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__("", window)
        self.setObjectName("damaged_rows_note")
        self.setFlat(True)
        self.setStyleSheet("QPushButton#damaged_rows_note { color: #8a1c00; font-weight: bold; }")
        self.rows: tuple[str, ...] = ()
        self.dialog: DamagedRowsDialog | None = None
        self.clicked.connect(self.show_list)
        window.statusBar().addPermanentWidget(self)
        self.hide()

    def show_rows(self, rows: Sequence[str]) -> None:
        """Show the count of ``rows`` (``#id (lexelt instance): why``), or hide for none."""
        self.rows = tuple(rows)
        if not self.rows:
            self.hide()
            return
        self.setText(f"⚠ {len(self.rows)} damaged server row(s)")
        self.setToolTip("Rows on the server the program cannot use, left out of everything: click for the list")
        self.show()

    def show_list(self) -> None:
        if self.dialog is not None:
            self.dialog.deleteLater()
        self.dialog = DamagedRowsDialog(self.rows, self.window())
        self.dialog.show()
