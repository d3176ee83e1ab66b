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


def test_export_gold_refuses_a_gold_with_a_left_out_decision_unless_told(qtbot, demo_project: Path,
                                                                         tmp_path: Path) -> None:
    """#22 item 1 through File > Export gold…: the window refuses as `project export` does, names the
    decision, and writes the gold without it only when the user ticks the box that says so."""
    from PySide6.QtCore import Qt

    from tests.gui.journey import CTRL_SHIFT, back_to, choose_combo, open_window, type_into

    with Session.open(demo_project) as s:
        (a_lex, a_inst), (b_lex, b_inst) = s.instances()[:2]
        for lexelt, inst, note in ((a_lex, a_inst, "first"), (b_lex, b_inst, "second")):
            s.store.append_decisions([SimpleNamespace(
                lexelt=lexelt, instance=inst, tags=("1",), source="manual", status="resolved", note=note,
                decided_by="ann", decided_at="2026-01-01T00:00:00Z", basis=None)])
    conn = sqlite3.connect(demo_project)
    (row_id,) = conn.execute("SELECT id FROM decisions WHERE note = 'first'").fetchone()
    conn.execute("UPDATE decisions SET note = 'forged' WHERE note = 'first'")
    conn.commit()
    conn.close()
    win = open_window(qtbot, demo_project)
    back_to(qtbot, win)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_E, CTRL_SHIFT)
    dlg = win.project_ops.export_dialog
    assert dlg.without_left_out.isVisibleTo(dlg) and not dlg.without_left_out.isChecked()
    choose_combo(qtbot, dlg.format, "senseval")
    out = tmp_path / "gold.key"
    type_into(qtbot, dlg.path, str(out))
    qtbot.mouseClick(dlg.export_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.result.text().startswith(("wrote", "Not exported")), timeout=60_000)
    assert dlg.result.text().startswith("Not exported:") and f"#{row_id} ({a_lex} {a_inst})" in dlg.result.text()
    assert not out.exists()
    box = dlg.without_left_out
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().bottomLeft() + box.rect().topLeft() / 2)
    assert box.isChecked()
    qtbot.mouseClick(dlg.export_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.result.text().startswith("wrote"), timeout=60_000)
    lines = out.read_text().splitlines()
    assert len(lines) == 1 and lines[0].split()[:2] == [b_lex, b_inst]
