"""Steps of the journey tests, each as a user takes it: keys, shortcuts, menu actions and buttons of
the real :class:`MainWindow` (never a private call that skips a step)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.gui.main_window import MainWindow

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def open_window(qtbot, path: Path) -> MainWindow:
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.load_project(path)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=2000)
    return win


def back_to(qtbot, win: MainWindow) -> None:
    """Wait until the window is active again (after a dialog), then give the table the keys."""
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=2000)
    win.ws.table.setFocus()


def type_into(qtbot, edit, text: str) -> None:
    """Select what the line edit holds and type ``text`` over it, as a user does."""
    edit.setFocus()
    qtbot.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)


def choose_combo(qtbot, box, data) -> None:
    """Pick the item whose data is ``data`` with the keyboard (Home, then Down)."""
    k = box.findData(data)
    assert k >= 0, data
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Home)
    for _ in range(k):
        qtbot.keyClick(box, Qt.Key.Key_Down)
    assert box.currentIndex() == k


def export_gold(qtbot, win: MainWindow, fmt: str, out: Path, *, unresolved: bool = False) -> str:
    """File ▸ Export gold… (Ctrl+Shift+E), format, file, Export; returns what the dialog says."""
    back_to(qtbot, win)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_E, CTRL_SHIFT)
    dlg = win.project_ops.export_dialog
    assert dlg is not None and dlg.isVisible()
    choose_combo(qtbot, dlg.format, fmt)
    type_into(qtbot, dlg.path, str(out))
    if unresolved != dlg.unresolved.isChecked():
        qtbot.mouseClick(dlg.unresolved, Qt.MouseButton.LeftButton,
                         pos=dlg.unresolved.rect().bottomLeft() + dlg.unresolved.rect().topLeft() / 2)
    qtbot.mouseClick(dlg.export_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.result.text().startswith(("wrote", "Not exported")), timeout=60_000)
    text = dlg.result.text()
    qtbot.mouseClick(dlg.close_button, Qt.MouseButton.LeftButton)
    return text


def resolve_agreed(qtbot, win: MainWindow) -> tuple[str, str]:
    """Decide ▸ Resolve what the annotators agree on… (Ctrl+Shift+G): the preview, then Resolve."""
    back_to(qtbot, win)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_G, CTRL_SHIFT)
    dlg = win.project_ops.agreed_dialog
    assert dlg is not None and dlg.isVisible()
    preview = dlg.preview.text()
    qtbot.mouseClick(dlg.resolve_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dlg.isVisible(), timeout=10_000)
    return preview, dlg.message
