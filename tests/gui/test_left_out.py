"""#22 item 1 in the window: a decision that fails its checksum is named in the banner, never hidden."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from types import SimpleNamespace

from hieradjudicate.app.session.session import Session
from hieradjudicate.gui.main_window import MainWindow


def test_the_banner_names_a_left_out_decision(qtbot, demo_project: Path) -> None:
    with Session.open(demo_project) as s:
        lexelt, inst = s.instances()[0]
        for note in ("first", "second"):
            s.store.append_decisions([SimpleNamespace(
                lexelt=lexelt, instance=inst, tags=(), source="manual", status="flagged", note=note,
                decided_by="ann", decided_at="2026-01-01T00:00:00Z", basis=None)])
    conn = sqlite3.connect(demo_project)
    (row_id,) = conn.execute("SELECT id FROM decisions WHERE note = 'first'").fetchone()
    conn.execute("UPDATE decisions SET note = 'forged' WHERE note = 'first'")
    conn.commit()
    conn.close()
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.load_project(demo_project)
    win.show()
    qtbot.waitExposed(win)
    text = win.banner.text.text()
    assert win.banner.isVisible() and "do not match their checksum" in text
    assert f"#{row_id} ({lexelt} {inst})" in text
