"""The window on a server project: opened with File > Open from server…, the others' decisions
arrive without reopening, and a dead server shows as offline while decisions wait on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QPushButton  # noqa: E402

from hieradjudicate.app.session.commands import Decide  # noqa: E402
from hieradjudicate.app.session.decisions import Decision  # noqa: E402
from hieradjudicate.app.session.session import Session  # noqa: E402
from hieradjudicate.gui.main_window import MainWindow  # noqa: E402
from hieradjudicate.gui.team.team_live import ServerDialog  # noqa: E402
from hieradjudicate.io.store.pg.store import PgStore  # noqa: E402
from hieradjudicate.io.store.pg.team import write_assignments  # noqa: E402
from tests.gui.conftest import private_dirs  # noqa: E402,F401
from tests.team.conftest import url  # noqa: E402


@pytest.fixture
def restart(cluster):  # type: ignore[no-untyped-def]
    yield cluster
    if cluster.pid is None:
        cluster.start_server()


def _fill_server_dialog(qtbot, cluster, project: str, done: list) -> None:  # type: ignore[no-untyped-def]
    dlg = QApplication.activeModalWidget()
    assert isinstance(dlg, ServerDialog)
    for widget, text in ((dlg.user, "alice"), (dlg.host, "127.0.0.1"), (dlg.db, "team"),
                         (dlg.project, project)):
        widget.clear()
        qtbot.keyClicks(widget, text)
    dlg.port.setValue(cluster.port)
    dlg.sslmode.setCurrentText("disable")
    box = dlg.findChild(QDialogButtonBox)
    qtbot.mouseClick(box.button(QDialogButtonBox.StandardButton.Open), Qt.MouseButton.LeftButton)
    done.append(True)


def test_open_from_server_live_updates_and_offline(qtbot, private_dirs, restart, published: str,
                                                   queue_dir: Path) -> None:  # noqa: F811
    cluster = restart
    with PgStore.open(url(cluster, "lead", published)) as lead:
        keys = [k for k in Session.open(url(cluster, "lead", published)).instances() if k[0] == "bank.n"]
        write_assignments(lead, [(*k, "alice", False) for k in keys])
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    done: list = []
    QTimer.singleShot(0, lambda: _fill_server_dialog(qtbot, cluster, published, done))
    win.actions["open_server"].trigger()  # File > Open from server…
    assert done and win.session is not None
    assert published in win.windowTitle()
    assert win.server.label.text() == "Server: alice (adjudicator)"
    wb = win.wb
    # an adjudicator starts with the table limited to her assignments (Go > Only my assignments)
    assert win.actions["mine"].isChecked() and wb.view.size == len(keys)
    assert {wb.key_of(int(i)) for i in wb.view} == set(keys)
    win.actions["mine"].trigger()
    assert wb.view.size == wb.corpus.n
    win.actions["mine"].trigger()
    assert wb.view.size == len(keys)

    # the lead decides elsewhere: the window shows it, and its progress moves, without reopening
    other = next(k for k in keys[7:] if wb.status[wb.corpus.instance_index(*k)] == 0)
    i = wb.corpus.instance_index(*other)
    resolved = wb.progress()["resolved"]
    with Session.open(url(cluster, "lead", published)) as lead_session:
        lead_session.execute(Decide([Decision(*other, ("3.2",), note="from the lead")]))
    qtbot.waitUntil(lambda: wb.gold[i] == "3.2", timeout=60_000)
    assert win.session.decisions.current(*other).decided_by == "lead"
    assert win.ws.live.progress.value() == resolved + 1

    # alice decides with the keyboard: saved on the server in her name
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=60_000)
    win.ws.table.setFocus()
    open_keys = [key for key in keys if wb.status[wb.corpus.instance_index(*key)] == 0 and key != other]
    target = open_keys[0]
    j = wb.corpus.instance_index(*target)
    win.ws.select_row(wb.row_of(j))
    qtbot.keyClick(win.ws.table, Qt.Key.Key_F)  # flag
    with PgStore.open(url(cluster, "lead", published)) as lead:
        last = lead.history(*target)[-1]
    assert (last.decided_by, last.status) == ("alice", "flagged")

    # the server dies: the window says so, the decision waits on disk, then reaches the server once
    cluster.kill()
    target2 = open_keys[1]
    k = wb.corpus.instance_index(*target2)
    win.ws.select_row(wb.row_of(k))
    qtbot.keyClick(win.ws.table, Qt.Key.Key_F)
    assert wb.status[k] != 0  # shown as decided meanwhile
    qtbot.waitUntil(lambda: win.server.label.text().startswith("Offline: 1 decision(s) kept"), timeout=60_000)
    cluster.start_server()
    qtbot.waitUntil(lambda: win.server.label.text().startswith("Server:"), timeout=60_000)
    with PgStore.open(url(cluster, "lead", published)) as lead:
        rows = [r for r in lead.history(*target2) if r.decided_by == "alice"]
    assert [r.status for r in rows] == ["flagged"]
    win.close_project()


def test_the_lead_sees_progress_and_conflicts_and_resolves_one(qtbot, private_dirs, cluster, published: str,
                                                               queue_dir: Path) -> None:  # noqa: F811
    with Session.open(url(cluster, "lead", published)) as lead:
        keys = [k for k in lead.instances() if k[0] == "bank.n" and lead.decisions.current(*k) is None]
        target = keys[0]
        write_assignments(lead.store, [(*target, "alice", True), (*target, "bob", True),
                                       (*keys[1], "carol", False)])
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.load_project(url(cluster, "lead", published))
    win.show()
    qtbot.waitExposed(win)
    win.actions["team"].trigger()  # Go > Team progress and conflicts…
    view = win.server.team_view
    assert view is not None and view.isVisible()
    qtbot.waitUntil(lambda: view.refreshed == 1, timeout=60_000)
    names = [view.figures.item(r, 0).text() for r in range(view.figures.rowCount())]
    assert names == ["alice", "bob", "carol"] and view.conflicts.rowCount() == 0
    with Session.open(url(cluster, "alice", published)) as a, Session.open(url(cluster, "bob", published)) as b:
        a.execute(Decide([Decision(*target, ("1.1",))]))
        b.execute(Decide([Decision(*target, ("2.2",))]))
    # the blind pair disagrees: the conflict appears in the open view without pressing Refresh
    qtbot.waitUntil(lambda: view.conflicts.rowCount() == 2, timeout=60_000)
    assert view.tabs.tabText(1) == "Conflicts (1)"
    assert {view.conflicts.item(r, 2).text() for r in range(2)} == {"alice", "bob"}
    decided = {view.figures.item(r, 0).text(): view.figures.item(r, 2).text()
               for r in range(view.figures.rowCount())}
    assert decided == {"alice": "1", "bob": "1", "carol": "0"}
    # the table and the live figures count it in conflict, not as bob's (newer) answer resolved
    i = win.wb.corpus.instance_index(*target)
    qtbot.waitUntil(lambda: win.wb.cell("status", i) == "conflict", timeout=60_000)
    assert win.wb.gold[i] == "" and win.wb.progress()["conflict"] == 1
    qtbot.waitUntil(lambda: "1 in conflict" in win.ws.live.counts.text(), timeout=60_000)
    mark = win.ws.table.model().headerData(win.wb.row_of(i), Qt.Orientation.Vertical)
    assert mark.startswith("⚠ ")  # the row's mark in the table itself
    # a double click takes the lead to the instance; the lead decides it with the keyboard
    rect = view.conflicts.visualItemRect(view.conflicts.item(0, 1))
    qtbot.mouseDClick(view.conflicts.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert win.ws.current == i
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=60_000)
    win.ws.table.setFocus()
    qtbot.keyClick(win.ws.table, Qt.Key.Key_F)  # the lead's decision (flag) ends the conflict
    shown = view.refreshed
    qtbot.mouseClick(view.findChild(QPushButton, "team_refresh"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.refreshed > shown, timeout=60_000)
    assert view.conflicts.rowCount() == 0 and view.tabs.tabText(1) == "Conflicts (0)"
    assert win.wb.cell("status", i) == "flagged" and win.wb.progress()["conflict"] == 0
    win.close_project()
