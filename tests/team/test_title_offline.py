"""Issue 31 (minor): offline with decisions queued on this computer, the window title never says
"all saved"; it says how many wait for the server, and "all saved" again once they are sent."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402

from hieradjudicate.gui.main_window import MainWindow, window_title  # noqa: E402
from tests.gui.conftest import private_dirs  # noqa: E402,F401
from tests.gui.journey import back_to  # noqa: E402
from tests.team.conftest import url  # noqa: E402


@pytest.fixture
def restart(cluster):  # type: ignore[no-untyped-def]
    yield cluster
    if cluster.pid is None:
        cluster.start_server()


def test_title_counts_decisions_in_words() -> None:
    assert window_title("p.hadj", 1) == "p.hadj — all saved · 1 decision — hieradjudicate"
    assert window_title("p.hadj", 2, waiting=1) == \
        "p.hadj — offline: 1 decision not yet on the server · 2 decisions — hieradjudicate"


def test_offline_with_queued_decisions_the_title_does_not_say_all_saved(
        qtbot, private_dirs, restart, published: str, queue_dir: Path) -> None:  # noqa: F811
    cluster = restart
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    assert win.load_project(url(cluster, "lead", published))
    back_to(qtbot, win)
    assert "all saved" in win.windowTitle()
    cluster.kill()
    i = win.ws.current
    qtbot.keyClick(win.ws.table, Qt.Key.Key_F)  # flag: kept on this computer
    assert win.wb.status[i] != 0
    qtbot.waitUntil(lambda: win.server.label.text().startswith("Offline: 1 decision(s) kept"), timeout=60_000)
    assert "all saved" not in win.windowTitle()
    assert "offline: 1 decision not yet on the server" in win.windowTitle()
    cluster.start_server()
    qtbot.waitUntil(lambda: win.server.label.text().startswith("Server:"), timeout=60_000)
    assert "all saved" in win.windowTitle()
    win.close_project()
