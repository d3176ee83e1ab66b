"""What the server knows, shown in the window (#30): its damaged rows as a note in the status bar
with the list on a click, and a blind answer changed after the pair opened marked in the lead's
conflict queue and counted in the per-adjudicator table."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QPushButton  # noqa: E402

from hieradjudicate.app.session.commands import Decide  # noqa: E402
from hieradjudicate.app.session.decisions import Decision  # noqa: E402
from hieradjudicate.app.session.session import Session  # noqa: E402
from hieradjudicate.gui.main_window import MainWindow  # noqa: E402
from hieradjudicate.io.store.pg.location import parse_location  # noqa: E402
from hieradjudicate.io.store.pg.store import PgStore  # noqa: E402
from hieradjudicate.io.store.pg.team import write_assignments  # noqa: E402
from tests.gui.conftest import private_dirs  # noqa: E402,F401
from tests.team.conftest import url  # noqa: E402


def _plant_damaged_row(cluster, project: str) -> int:  # type: ignore[no-untyped-def]
    """A row as the cluster's superuser writes it with every guard off: tags that are no list."""
    schema = parse_location(url(cluster, "lead", project)).schema
    with cluster.admin("team") as conn:
        conn.execute(f"SET search_path = {schema}")
        for c in ("decisions_tags_check", "decisions_status_check", "decisions_decided_at_check", "decisions_check"):
            conn.execute(f"ALTER TABLE decisions DROP CONSTRAINT IF EXISTS {c}")
        conn.execute("SET session_replication_role = replica")
        return int(conn.execute(
            "INSERT INTO decisions (lexelt, instance, tags, source, status, decided_at, decided_by, team_role)"
            " VALUES ('bank.n', 'bank.n.003', '{broken', 'manual', 'resolved', '2026-01-01T00:00:00Z',"
            " 'alice', 'adjudicator') RETURNING id").fetchone()[0])


def _open(qtbot, cluster, login: str, project: str) -> MainWindow:  # type: ignore[no-untyped-def]
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.load_project(url(cluster, login, project))
    win.show()
    qtbot.waitExposed(win)
    return win


@pytest.mark.parametrize("login", ["lead", "alice"])
def test_the_status_bar_counts_the_damaged_rows_and_lists_them_on_a_click(qtbot, private_dirs, cluster,
                                                                         published: str, login: str,
                                                                         queue_dir: Path) -> None:  # noqa: F811
    with Session.open(url(cluster, "lead", published)) as s:
        before = s.decisions.current("bank.n", "bank.n.003")
    rid = _plant_damaged_row(cluster, published)
    win = _open(qtbot, cluster, login, published)
    note = win.server.damaged
    assert note.isVisible() and note.text() == "⚠ 1 damaged server row(s)"
    qtbot.mouseClick(note, Qt.MouseButton.LeftButton)
    dlg = note.dialog
    assert dlg is not None and dlg.isVisible()
    assert dlg.rows.toPlainText() == f"#{rid} (bank.n bank.n.003): its tags are not a list of sense ids"
    dlg.close()
    # the window goes on: the instance shows its answer from before the damaged row
    i = win.wb.corpus.instance_index("bank.n", "bank.n.003")
    assert win.wb.gold[i] == ("" if before is None else " ".join(before.tags))
    win.close_project()
    assert not note.isVisible()


def test_no_note_without_damaged_rows(qtbot, private_dirs, cluster, published: str,
                                      queue_dir: Path) -> None:  # noqa: F811
    win = _open(qtbot, cluster, "lead", published)
    assert not win.server.damaged.isVisible()
    win.close_project()


def test_the_lead_sees_an_answer_changed_after_unblinding(qtbot, private_dirs, cluster, published: str,
                                                          queue_dir: Path) -> None:  # noqa: F811
    with PgStore.open(url(cluster, "lead", published)) as lead:
        write_assignments(lead, [("bank.n", "bank.n.003", "alice", True), ("bank.n", "bank.n.003", "bob", True)])
    with Session.open(url(cluster, "alice", published)) as a, Session.open(url(cluster, "bob", published)) as b:
        a.execute(Decide([Decision("bank.n", "bank.n.003", ("1",))]))
        b.execute(Decide([Decision("bank.n", "bank.n.003", ("2",))]))  # opens the pair: they differ
        a.execute(Decide([Decision("bank.n", "bank.n.003", ("2",))]))  # alice copies bob's after reading it
    win = _open(qtbot, cluster, "lead", published)
    win.actions["team"].trigger()  # Go > Team progress and conflicts…
    view = win.server.team_view
    qtbot.waitUntil(lambda: view.refreshed == 1, timeout=60_000)
    head = [view.conflicts.horizontalHeaderItem(c).text() for c in range(view.conflicts.columnCount())]
    col = head.index("changed after unblinding")
    shown = {view.conflicts.item(r, 2).text(): (view.conflicts.item(r, 4).text(), view.conflicts.item(r, col).text())
             for r in range(view.conflicts.rowCount())}
    assert shown == {"alice": ("1", "yes"), "bob": ("2", "")}  # alice's blind answer, marked
    assert "1 answer(s) changed after unblinding" in view.note.text()
    head = [view.figures.horizontalHeaderItem(c).text() for c in range(view.figures.columnCount())]
    col = head.index("changed after unblinding")
    counts = {view.figures.item(r, 0).text(): view.figures.item(r, col).text() for r in range(view.figures.rowCount())}
    assert counts == {"alice": "1", "bob": "0"}
    view.close()
    QApplication.processEvents()
    win.close_project()


def test_a_row_damaged_after_opening_is_named_when_the_team_view_refreshes(qtbot, private_dirs, cluster,
                                                                           published: str,
                                                                           queue_dir: Path) -> None:  # noqa: F811
    win = _open(qtbot, cluster, "lead", published)
    win.actions["team"].trigger()  # Go > Team progress and conflicts…
    view = win.server.team_view
    qtbot.waitUntil(lambda: view.refreshed == 1, timeout=60_000)
    assert not win.server.damaged.isVisible()
    rid = _plant_damaged_row(cluster, published)
    view.findChild(QPushButton, "team_refresh").click()
    qtbot.waitUntil(lambda: view.refreshed == 2, timeout=60_000)
    assert win.server.damaged.isVisible() and win.server.damaged.rows == (
        f"#{rid} (bank.n bank.n.003): its tags are not a list of sense ids",)
    view.close()
    win.close_project()
