"""File > New Project… can create the project on a server: the wizard's last page takes a project
URL instead of a file; the project is built and published as ``project new … -o URL`` does and the
window opens it from the server, its creator being the lead."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QWizard

from hieradjudicate.app.demo import DEMO_SETS, demo_inputs
from hieradjudicate.gui.main_window import MainWindow
from hieradjudicate.gui.wizard.wizard import NewProjectWizard
from hieradjudicate.io.store.pg.store import PgStore
from tests.gui.conftest import private_dirs  # noqa: F401
from tests.team.conftest import url


def _drive(qtbot, cluster, project: str, seen: dict) -> None:  # type: ignore[no-untyped-def]
    wiz = QApplication.activeModalWidget()
    assert isinstance(wiz, NewProjectWizard)
    try:
        _steps(qtbot, wiz, cluster, project, seen)
    finally:
        if wiz.isVisible() and wiz.created_path is None:
            wiz.reject()  # a failed step ends the modal wizard: the test fails instead of hanging


def _steps(qtbot, wiz: NewProjectWizard, cluster, project: str, seen: dict) -> None:  # type: ignore[no-untyped-def]
    demo = demo_inputs()
    wiz.inventory.add_paths([str(demo / "inventory.txt")])
    wiz.next()
    wiz.annotation.add_paths([str(demo / f) for f, _, _ in DEMO_SETS])
    for row, (_, name, role) in enumerate(DEMO_SETS):
        wiz.annotation.set_role(row, role)
        wiz.annotation.set_name(row, name)
    table = wiz.annotation.table
    qtbot.waitUntil(lambda: all(table.item(r, 1).text() != "reading…" for r in range(table.rowCount())))
    wiz.next()
    wiz.contexts.add_paths([str(demo / "contexts.tsv")])
    wiz.next()
    wiz.next()
    page = wiz.preview
    assert wiz.currentPage() is page
    qtbot.waitUntil(lambda: page.report is not None, timeout=60_000)
    finish = wiz.button(QWizard.WizardButton.FinishButton)
    assert not page.server.url.isEnabled()
    qtbot.mouseClick(page.server.on, Qt.MouseButton.LeftButton)  # tick "Create on a server"
    assert page.server.on.isChecked() and page.server.url.isEnabled() and not page.output.isEnabled()
    assert not finish.isEnabled() and "Give the project URL" in page.status.text()
    qtbot.keyClicks(page.server.url, url(cluster, "lead", project).replace("?project=", "?proj="))
    assert not finish.isEnabled() and "unknown URL parameter 'proj'" in page.status.text()
    page.server.url.clear()
    qtbot.keyClicks(page.server.url, url(cluster, "lead", project))
    assert finish.isEnabled() and page.status.text() == ""
    qtbot.mouseClick(finish, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: wiz.created_path is not None or "Could not finish" in page.status.text(),
                    timeout=60_000)
    seen["created"] = wiz.created_path
    seen["status"] = page.status.text()


def test_the_wizard_creates_the_project_on_a_server_and_the_window_opens_it(
        qtbot, private_dirs, cluster, queue_dir: Path) -> None:  # noqa: F811
    project = f"wizard_{os.getpid()}"
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    seen: dict = {}
    QTimer.singleShot(0, lambda: _drive(qtbot, cluster, project, seen))
    win.actions["new"].trigger()  # File > New Project…
    try:
        _opened(win, cluster, project, seen, private_dirs)
    finally:
        win.close_project()


def _opened(win: MainWindow, cluster, project: str, seen: dict, folder: Path) -> None:  # type: ignore[no-untyped-def]
    assert seen.get("created") == url(cluster, "lead", project), seen
    assert win.session is not None and project in win.windowTitle()
    assert win.server.label.text() == "Server: lead (lead)"  # a plain login, lead of this project
    with PgStore.open(url(cluster, "lead", project), read_only=True) as store:
        assert "lead" in store.roles and store.login == "lead"
    assert {s.name: s.role for s in win.session.corpus.sets} == {name: role for _, name, role in DEMO_SETS}
    assert win.session.corpus.n > 50 and win.session.corpus.contexts
    # nothing is left behind on this computer: the file was only a step on the way
    assert not list(folder.rglob("*.hadj"))
