"""Opening a server project while the server is down: the command line and the window say which
server (host, port) and libpq's reason; the window names the decisions an earlier session left
waiting on disk, and they reach the server when it is back and the project is opened again."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from hieradjudicate.gui.main_window import MainWindow
from hieradjudicate.gui.team.team_live import ServerDialog
from hieradjudicate.io.store.pg.store import PgStore
from hieradjudicate.io.store.pg.team import write_assignments
from tests.gui.conftest import private_dirs  # noqa: F401
from tests.team.conftest import url


@pytest.fixture
def restart(cluster):  # type: ignore[no-untyped-def]
    """The server is running again after the test, whatever happened."""
    yield cluster
    if cluster.pid is None:
        cluster.start_server()


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_the_command_line_names_the_server_and_the_reason(restart, published: str) -> None:
    cluster = restart
    cluster.kill()
    code, out, err = cli("project", "status", url(cluster, "lead", published))
    assert code == 1 and out == ""
    assert f"cannot connect to the server at host 127.0.0.1, port {cluster.port}" in err
    assert "the server cannot be reached (Connection refused)" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def _open_from_server(qtbot, win: MainWindow, cluster, project: str) -> None:  # type: ignore[no-untyped-def]
    done: list = []

    def fill() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, ServerDialog)
        try:
            steps(dlg)
        finally:
            if dlg.isVisible():
                dlg.reject()  # a failed step ends the dialog: the test fails instead of hanging

    def steps(dlg: ServerDialog) -> None:
        for widget, text in ((dlg.user, "alice"), (dlg.host, "127.0.0.1"), (dlg.db, "team"),
                             (dlg.project, project)):
            widget.clear()
            qtbot.keyClicks(widget, text)
        dlg.port.setValue(cluster.port)
        dlg.sslmode.setCurrentText("disable")  # (the queue is found whatever the URL's libpq settings)
        box = dlg.findChild(QDialogButtonBox)
        qtbot.mouseClick(box.button(QDialogButtonBox.StandardButton.Open), Qt.MouseButton.LeftButton)
        done.append(True)

    QTimer.singleShot(0, fill)
    win.actions["open_server"].trigger()  # File > Open from server…
    assert done


def test_the_window_says_the_server_is_down_and_where_queued_decisions_wait(
        qtbot, private_dirs, restart, published: str, queue_dir: Path) -> None:  # noqa: F811
    cluster = restart
    with Session.open(url(cluster, "lead", published)) as lead:
        keys = [k for k in lead.instances() if k[0] == "bank.n" and lead.decisions.current(*k) is None][:2]
        write_assignments(lead.store, [(*k, "alice", False) for k in keys])
    with Session.open(url(cluster, "alice", published)) as alice:  # an earlier session
        cluster.kill()
        rows = alice.execute(Decide([Decision(*keys[0], ("1.1",), note="made offline")]))
        assert rows[0].id < 0 and alice.store.offline
        queue_file = alice.store.queue.path
    assert queue_file.exists()

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    try:
        _in_the_window(qtbot, win, cluster, published, keys, queue_file)
    finally:
        win.close_project()


def _in_the_window(qtbot, win: MainWindow, cluster, published: str, keys: list, queue_file: Path) -> None:  # type: ignore[no-untyped-def]
    _open_from_server(qtbot, win, cluster, published)
    assert win.session is None
    said = win.statusBar().currentMessage()
    assert f"cannot connect to the server at host 127.0.0.1, port {cluster.port}" in said
    assert "Connection refused" in said
    assert f"1 decision(s) made by alice while the server could not be reached wait on this computer in {queue_file}" in said
    assert "they will be sent when the server is back" in said

    cluster.start_server()
    _open_from_server(qtbot, win, cluster, published)
    assert win.session is not None and win.server.label.text() == "Server: alice (adjudicator)"
    assert not queue_file.exists()
    with PgStore.open(url(cluster, "lead", published)) as lead:
        sent = [r for r in lead.history(*keys[0]) if r.decided_by == "alice"]
    assert [(r.tags, r.note) for r in sent] == [(("1.1",), "made offline")]
    assert win.session.decisions.current(*keys[0]).note == "made offline"
