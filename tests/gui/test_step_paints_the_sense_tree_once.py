"""A step to the next instance (the N key) paints the sense tree at most once (and only the rows whose marks
changed when no column changes its width): its columns are fitted
inside the step, so no timer or queued geometry update paints the whole tree again after the step's
own paint, and the widths it shows then are the ones it keeps."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication

from tests.gui.journey import PaintCounter, highlighted, open_window


def _idle() -> None:
    for _ in range(6):
        QApplication.processEvents()


def _widths(tree) -> list[int]:
    head = tree.header()
    return [head.sectionSize(c) for c in range(head.count())]


def _watched_tree(qtbot, path, watch: QObject):
    """The project's window with the keys on its instance table and ``watch`` filtering the sense
    tree's viewport: (window, tree)."""
    win = open_window(qtbot, path)
    tree = win.ws.tree.tree
    win.ws.table.setFocus()
    _idle()
    tree.viewport().installEventFilter(watch)
    return win, tree


def test_the_n_key_paints_the_sense_tree_once_with_its_final_column_widths(qtbot, demo_project):
    counter = PaintCounter()
    win, tree = _watched_tree(qtbot, demo_project, counter)
    per_key = []
    for _ in range(12):
        before = highlighted(win)
        counter.paints = 0
        qtbot.keyClick(win, Qt.Key.Key_N)
        _idle()
        assert highlighted(win) != before  # the key moved to another instance
        per_key.append(counter.paints)
        shown = _widths(tree)
        _idle()
        assert _widths(tree) == shown  # nothing fitted the columns again after the step's paint
    assert sum(per_key) >= 1  # the counting sees the tree's paints
    assert max(per_key) == 1, per_key
    # the gloss still takes what the other columns leave of the dock: no sideways scroll bar
    head = tree.header()
    assert sum(_widths(tree)) == tree.viewport().width() or tree.horizontalScrollBar().maximum() > 0
    assert head.sectionSize(3) > 0


class _Regions(QObject):
    """The regions of the paint events of the widget it is installed on."""

    def __init__(self) -> None:
        super().__init__()
        self.regions: list = []

    def eventFilter(self, _obj, ev) -> bool:  # noqa: N802 (Qt's name)
        if ev.type() == QEvent.Type.Paint:
            self.regions.append(ev.region().boundingRect())
        return False


def test_a_step_that_keeps_the_columns_repaints_only_the_rows_it_marks(qtbot, demo_project):
    """Within a word the tree stays; when the marks move but no column changes its width, only the rows
    whose marks changed are repainted, not the whole tree."""
    seen = _Regions()
    win, tree = _watched_tree(qtbot, demo_project, seen)
    partial = 0
    for _ in range(12):
        before, widths = highlighted(win), _widths(tree)
        word = int(win.wb.cols.lexelt[before])
        seen.regions.clear()
        qtbot.keyClick(win, Qt.Key.Key_N)
        _idle()
        now = highlighted(win)
        if int(win.wb.cols.lexelt[now]) != word or _widths(tree) != widths or not seen.regions:
            continue
        whole = tree.viewport().rect()
        assert all(r.height() < whole.height() for r in seen.regions), (seen.regions, whole)
        partial += 1
    assert partial >= 2  # the case was met
