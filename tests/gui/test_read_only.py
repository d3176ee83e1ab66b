"""A second copy of the program gets the project read-only: the window says so and cannot decide."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtCore import Qt

import hieradjudicate
from hieradjudicate.gui.main_window import MainWindow

ROOT = str(Path(hieradjudicate.__file__).resolve().parent.parent)

HOLDER = textwrap.dedent("""
    import sys
    from hieradjudicate.app.session.session import Session
    session = Session.open(sys.argv[1])
    print("ready", session.read_only, flush=True)
    sys.stdin.readline()
    session.close()
    print("closed", flush=True)
""")


def test_second_opener_is_read_only_and_says_so(qtbot, demo_project: Path) -> None:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.Popen([sys.executable, "-c", HOLDER, str(demo_project)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env=env)
    assert child.stdin is not None and child.stdout is not None
    try:
        assert child.stdout.readline().split() == ["ready", "False"]
        win = MainWindow()
        qtbot.addWidget(win)
        assert win.load_project(demo_project)
        win.show()
        qtbot.waitExposed(win)
        assert win.session.read_only
        assert "read-only" in win.windowTitle() and "another hieradjudicate" in win.windowTitle()
        assert win.banner.isVisible() and "Read-only" in win.banner.text.text()
        assert f"pid {child.pid}" in win.banner.text.text()
        for key in ("take1", "take2", "suggest", "pick", "flag", "skip", "note", "undo", "redo"):
            assert not win.actions[key].isEnabled(), key
        assert win.actions["next"].isEnabled()  # reading and moving around still work
        before = win.ws.current
        qtbot.keyClick(win.ws.table, Qt.Key.Key_1)
        win.take_set(1)  # a button or menu that slipped through is refused too
        assert len(win.session.decisions) == 0 and win.wb.status[before] == 0

        child.stdin.write("close\n")
        child.stdin.flush()
        assert child.stdout.readline().strip() == "closed"
        win.banner.retry.click()  # the other program is gone: now writable
        assert win.session is not None and not win.session.read_only
        assert not win.banner.isVisible() and "all saved" in win.windowTitle()
        assert win.actions["take1"].isEnabled()
        win.close()
    finally:
        child.kill()
        child.wait()
