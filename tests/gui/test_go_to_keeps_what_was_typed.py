"""Go ▸ Go to instance (Ctrl+G) with a mistyped id keeps the dialog open, with what was typed and
why it names no instance, so one more key mends it (before: the dialog closed, the typing was lost
and the status bar said only that there was no such instance)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.gui.journey import back_to, in_dialog, open_window


def test_a_mistyped_instance_keeps_the_dialog_and_the_typing(qtbot, demo_project: Path) -> None:
    win = open_window(qtbot, demo_project)
    lex, inst = win.wb.key_of(int(win.wb.view[5]))
    typo = f"{lex} {inst}x"
    seen_after_typo: dict = {}

    def act(dlg) -> None:
        qtbot.keyClicks(dlg.field, typo)
        qtbot.keyClick(dlg.field, Qt.Key.Key_Return)
        seen_after_typo.update(visible=dlg.isVisible(), text=dlg.field.text(), why=dlg.why.text(),
                               shown=dlg.why.isVisible())
        qtbot.keyClick(dlg.field, Qt.Key.Key_End)
        qtbot.keyClick(dlg.field, Qt.Key.Key_Backspace)  # the mistyped "x" away
        qtbot.keyClick(dlg.field, Qt.Key.Key_Return)

    seen = in_dialog(qtbot, "goto_dialog", act)
    back_to(qtbot, win)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    assert len(seen) == 1, seen
    assert seen_after_typo["visible"], "the dialog closed on a mistyped instance"
    assert seen_after_typo["text"] == typo
    assert seen_after_typo["shown"] and "No instance" in seen_after_typo["why"]
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=60_000)
    assert win.wb.key_of(win.ws.current) == (lex, inst)
    win.close()
