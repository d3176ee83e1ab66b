"""Steps of the journey tests, each as a user takes it: keys, shortcuts, menu actions and buttons of
the real :class:`MainWindow` (never a private call that skips a step)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtWidgets import QApplication, QTabBar

from hieradjudicate.gui.main_window import MainWindow
from hieradjudicate.gui.workbench.instance_model import InstanceRole

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


class PaintCounter(QObject):
    """An event filter counting the paint events of the widgets it is installed on."""

    def __init__(self) -> None:
        super().__init__()
        self.paints = 0

    def eventFilter(self, _obj, ev) -> bool:  # noqa: N802 (Qt's name)
        if ev.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


def open_window(qtbot, path: Path) -> MainWindow:
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.load_project(path)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=60_000)
    return win


def background_settled(qtbot, win: MainWindow) -> None:
    """Wait until the background work that rewrites the instance panel is done: a crowd's weighing
    (the suggestion's most reliable set) and the competence estimate (the weighted suggestion, the
    vote table's posterior column).  A result landing between a key and a test's check is laid out at
    the event loop's next turn: a moment a test would otherwise hit only under load."""
    qtbot.waitUntil(lambda: not win.wb.weighing and not win.ws.weigher.busy and win.wb.competence is not None,
                    timeout=60_000)
    QApplication.processEvents()


def back_to(qtbot, win: MainWindow) -> None:
    """Wait until the window is active again (after a dialog), then give the table the keys."""
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=60_000)
    win.ws.table.setFocus()


def click_header(qtbot, win: MainWindow, key: str) -> None:
    """Click column ``key``'s header on the header's viewport (scrolling right first when it is out of
    sight, as a user would): the table sorts by it, ascending, then descending on a second click."""
    ws = win.ws
    col = ws.model.keys.index(key)
    header = ws.table.horizontalHeader()
    bar = ws.table.horizontalScrollBar()
    while header.sectionViewportPosition(col) + header.sectionSize(col) > header.viewport().width() \
            and bar.value() < bar.maximum():
        bar.setValue(bar.value() + bar.singleStep() * 4)
        QApplication.processEvents()
    x = header.sectionViewportPosition(col) + header.sectionSize(col) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))


def highlighted(win: MainWindow) -> int:
    """The instance of the one row the table paints as selected (-1: none), after checking that the
    instance panel shows it and that it is the instance every key acts on."""
    ws = win.ws
    rows = [int(ws.model.data(ix, InstanceRole)) for ix in ws.table.selectionModel().selectedRows()]
    assert len(rows) <= 1, rows
    i = rows[0] if rows else -1
    assert ws.current == i and ws.detail.instance == i, (ws.current, ws.detail.instance, i)
    return i


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
    qtbot.waitUntil(lambda: not dlg.isVisible(), timeout=60_000)
    return preview, dlg.message


def in_dialog(qtbot, name: str, act) -> list:
    """Run ``act(dialog)`` on the modal dialog ``name`` once it is open (it blocks the caller); returns
    what was seen (the dialog, and any exception ``act`` raised, after which the dialog is rejected)."""
    from PySide6.QtCore import QTimer

    seen: list = []

    def drive() -> None:
        dlg = QApplication.activeModalWidget()
        if dlg is None or dlg.objectName() != name:
            QTimer.singleShot(20, drive)
            return
        seen.append(dlg)
        try:
            dlg.activateWindow()  # as a window manager would: keys typed here are the dialog's
            qtbot.waitUntil(lambda: QApplication.activeWindow() is dlg, timeout=60_000)
            act(dlg)
        except BaseException as exc:  # never leave a modal dialog open: the test would hang
            seen.append(exc)
            dlg.reject()

    QTimer.singleShot(30, drive)
    return seen


def write_note(qtbot, win: MainWindow, text: str) -> None:
    """E on the highlighted row, select what the note holds, type ``text`` over it, Ctrl+Enter."""

    def act(dlg) -> None:
        qtbot.keyClick(dlg.editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClick(dlg.editor, Qt.Key.Key_Delete)
        qtbot.keyClicks(dlg.editor, text)
        qtbot.keyClick(dlg.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    seen = in_dialog(qtbot, "note_dialog", act)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_E)
    assert len(seen) == 1, seen
    back_to(qtbot, win)


def open_dashboard(qtbot, win: MainWindow, *, timeout: int = 120_000):
    """A click on the Dashboard tab; its view once the whole project's figures are in."""
    bar = win.dashboard.tabs.findChild(QTabBar)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    view = win.dashboard.view
    qtbot.waitUntil(lambda: not view.updating and view.state.text().startswith("whole project"), timeout=timeout)
    QApplication.processEvents()
    return view


def open_timeline(qtbot, path: Path):
    """The project's window with its dashboard's Timeline tab clicked: (window, the tabs, the page)."""
    win = open_window(qtbot, path)
    tabs = win.dashboard.tabs
    k_tab = next(j for j in range(tabs.count()) if tabs.tabText(j) == "Timeline")
    bar = tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(k_tab).center())
    return win, tabs, win.dashboard.timeline
