"""The wizard's "Create on a server" choice: a project URL instead of a ``.hadj`` file.

What ``hieradjudicate project new … -o URL`` does: the project is built in a temporary file, then
published to the server (:func:`~hieradjudicate.io.store.pg.transfer.publish`); the login of the
URL becomes its lead.  The password comes from libpq's usual places, never from this field.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from hieradjudicate.core.errors import HieradjError

PLACEHOLDER = "postgresql://USER@HOST:PORT/DBNAME?project=NAME"


class ServerChoice(QWidget):
    """A box to tick and the URL; :attr:`changed` when either changes."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.on = QCheckBox("Create on a server (PostgreSQL): the team works on it; you become its lead",
                            self, objectName="on_server")
        self.url = QLineEdit(self, objectName="server_url")
        self.url.setPlaceholderText(PLACEHOLDER)
        self.url.setEnabled(False)
        note = QLabel("The password is read from ~/.pgpass, PGPASSWORD or a service file, as psql does.", self)
        note.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(QLabel("Project URL:", self))
        row.addWidget(self.url, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.on)
        lay.addLayout(row)
        lay.addWidget(note)
        self.on.toggled.connect(self.url.setEnabled)
        self.on.toggled.connect(lambda _on: self.changed.emit())
        self.url.textChanged.connect(lambda _t: self.changed.emit())

    def chosen(self) -> bool:
        return self.on.isChecked()

    def location(self) -> str:
        return self.url.text().strip()

    def problem(self) -> str | None:
        """Why the URL cannot be a project location (its form only; the server answers on creating)."""
        if not self.location():
            return f"Give the project URL ({PLACEHOLDER})."
        from hieradjudicate.io.store.pg.location import parse_location

        try:
            parse_location(self.location())
        except HieradjError as exc:
            return str(exc)
        return None
