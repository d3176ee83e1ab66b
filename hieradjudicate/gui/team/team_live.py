"""The window's side of team mode: "Open from server…", live updates and the server state.

:class:`ServerPanel` belongs to the main window.  For a project on a server it polls a
:class:`~hieradjudicate.app.session.follow.ServerFollower` every 200 ms (never blocking the
window), so the others' decisions, the progress and the live figures move within a poll of their
commit; a label in the status bar says whether the server is reached and how many decisions
wait in the offline queue.  For a ``.hadj`` file it does nothing.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate.core.errors import HieradjError
from hieradjudicate.gui.damaged_rows import DamagedRowsNote

POLL_MS = 200


class ServerDialog(QDialog):
    """Login, server, database and project; the URL it makes never holds a password."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open from server")
        self.setObjectName("server_dialog")
        form = QFormLayout()
        self.user = QLineEdit(self, objectName="server_user")
        self.host = QLineEdit("localhost", self, objectName="server_host")
        self.port = QSpinBox(self, objectName="server_port")
        self.port.setRange(1, 65535)
        self.port.setValue(5432)
        self.db = QLineEdit(self, objectName="server_db")
        self.project = QLineEdit(self, objectName="server_project")
        self.sslmode = QComboBox(self, objectName="server_sslmode")
        self.sslmode.addItems(["prefer", "require", "verify-ca", "verify-full", "disable"])
        for label, w in (("Login", self.user), ("Server", self.host), ("Port", self.port),
                         ("Database", self.db), ("Project", self.project), ("TLS (sslmode)", self.sslmode)):
            form.addRow(label, w)
        note = QLabel("The password is read from ~/.pgpass, PGPASSWORD or a service file, as psql does; "
                      "it is never asked for or kept here.", self)
        note.setWordWrap(True)
        self.problem = QLabel("", self, objectName="server_problem")
        self.problem.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open
                                   | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)

    def url(self) -> str:
        from urllib.parse import quote

        user = self.user.text().strip()
        host = self.host.text().strip()
        netloc = (quote(user, safe="") + "@" if user else "") + host + f":{self.port.value()}"
        return (f"postgresql://{netloc}/{quote(self.db.text().strip(), safe='')}"
                f"?project={self.project.text().strip()}&sslmode={self.sslmode.currentText()}")

    def _accept(self) -> None:
        from hieradjudicate.io.store.pg.location import parse_location

        try:
            parse_location(self.url())
        except HieradjError as exc:
            self.problem.setText(str(exc))
            return
        self.accept()


class ServerPanel(QObject):
    """Owned by the main window; see the module."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.follower: Any = None
        self.label = QLabel("", window, objectName="server_state")
        self.label.hide()
        window.statusBar().addPermanentWidget(self.label)
        self.damaged = DamagedRowsNote(window)  # the server's rows the program cannot use
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)
        self.team_view: Any = None

    def show_team(self) -> None:
        """The lead's team view (per-adjudicator figures, conflict queue)."""
        if self.follower is None:
            self.window.statusBar().showMessage("Team progress and conflicts are for a project on a "
                                                "server (File > Open from server…)", 6000)
            return
        from hieradjudicate.gui.team.team_view import TeamView

        if self.team_view is None:
            self.team_view = TeamView(self.window)
        self.team_view.show()
        self.team_view.refresh()

    def open_dialog(self) -> None:
        dlg = ServerDialog(self.window)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.window.load_project(dlg.url())  # type: ignore[attr-defined]

    def show_mine(self, on: bool) -> None:
        """Limit the table to the instances assigned to this login (or show all again)."""
        ws = getattr(self.window, "ws", None)
        if ws is None:
            return
        if not on:
            ws.set_only(())
            return
        if self.follower is None:
            self.window.statusBar().showMessage("Assignments belong to a project on a server", 6000)
            return
        from hieradjudicate.io.store.pg.team import assigned

        corpus = self.window.session.corpus
        login = self.follower.store.login
        try:
            mine = [corpus.instance_index(lex, inst)
                    for lex, inst, who, _blind in assigned(self.follower.store) if who == login]
        except HieradjError as exc:
            self.window.statusBar().showMessage(str(exc), 8000)
            return
        mine = [i for i in mine if i >= 0]
        if not mine:
            self.window.statusBar().showMessage(f"Nothing is assigned to {login} yet", 6000)
            return
        ws.set_only(tuple(sorted(mine)))
        self.window.statusBar().showMessage(f"{len(mine)} instance(s) assigned to {login}", 4000)

    def attach(self, session: Any) -> None:
        self.detach()
        if not hasattr(session.store, "location"):
            return  # a .hadj file
        self.damaged.show_rows(getattr(session.store, "left_out", ()))
        from hieradjudicate.app.session.follow import ServerFollower

        try:
            self.follower = ServerFollower(session)
        except HieradjError as exc:
            self.window.statusBar().showMessage(f"Live updates are off: {exc}", 8000)
            return
        self.label.show()
        self._show_state()
        self.timer.start()
        if self.follower.store.roles == {"adjudicator"}:  # an adjudicator starts with their own work
            self.window.actions["mine"].setChecked(True)

    def detach(self) -> None:
        self.timer.stop()
        mine = getattr(self.window, "actions", {}).get("mine")
        if mine is not None and mine.isChecked():
            mine.blockSignals(True)
            mine.setChecked(False)
            mine.blockSignals(False)
        if self.team_view is not None:
            self.team_view.runner.cancel()
            self.team_view.runner.wait()
            self.team_view.close()
            self.team_view.deleteLater()
            self.team_view = None
        if self.follower is not None:
            self.follower.close()
            self.follower = None
        self.label.hide()
        self.damaged.show_rows(())

    def poll(self) -> None:
        if self.follower is None:
            return
        try:
            rows = self.follower.poll()
        except HieradjError as exc:
            self.window.statusBar().showMessage(str(exc), 8000)
            rows = []
        if self.follower.store.rejected:
            self.window.statusBar().showMessage(self.follower.store.rejected, 15000)
            self.follower.store.rejected = None
        if rows and self.team_view is not None:
            self.team_view.decisions_arrived()
        if rows:
            others = sum(1 for r in rows if r.decided_by != self.follower.store.login)
            if others:
                self.window.statusBar().showMessage(f"{others} decision(s) by others arrived", 3000)
        self._show_state()

    def _show_state(self) -> None:
        store = self.follower.store
        waiting = len(store.queue)
        if self.follower.offline or store.offline:
            text = (f"Offline: {waiting} decision(s) kept on this computer, sent when the server is back"
                    if waiting else "Offline: the server cannot be reached")
        else:
            text = f"Server: {store.login} ({', '.join(sorted(store.roles))})"
        self.label.setText(text)
        self.window._update_title()  # "all saved" only once nothing waits on this computer
