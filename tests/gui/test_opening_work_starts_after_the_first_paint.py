"""Opening a crowd: the background work of the opening (the live figures, the instance table's late
columns, then the annotators' weighing) starts once the instance table has been painted, not beside its
first paint (a job running Python takes the interpreter lock in turns with the GUI thread, which calls
into Python for every cell painted); in a window that is not shown it starts all the same (after a
wait: :data:`hieradjudicate.gui.workers.PAINT_WAIT_MS`); the late columns start once the live figures'
first job has ended, not beside it (their memory peaks added up)."""

from __future__ import annotations

from pathlib import Path

import hieradjudicate.app.workbench.columns as columns_mod
import hieradjudicate.gui.workbench.panels.live_panel as live_mod
import hieradjudicate.gui.workers as workers_mod
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication

from hieradjudicate.gui.main_window import MainWindow
from tests.crowd import crowd_project

N_SETS = 30


class _Paints(QObject):
    """Counts the paints of the instance table's cells (an application-wide filter: the table is made
    by the opening)."""

    def __init__(self) -> None:
        super().__init__()
        self.n = 0

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        if ev.type() == QEvent.Type.Paint and obj.parent() is not None \
                and obj.parent().objectName() == "instance_table":
            self.n += 1
        return False


def _spy(monkeypatch, module, name: str, seen: list[int], paints: _Paints) -> None:
    real = getattr(module, name)

    def spy(*args, **kwargs):
        seen.append(paints.n)  # how many paints of the table came before this job's work
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)


def test_the_opening_s_background_work_starts_after_the_table_is_painted(qtbot, tmp_path: Path,
                                                                         monkeypatch) -> None:
    monkeypatch.setattr(workers_mod, "PAINT_WAIT_MS", 600_000)  # (only the paint releases the work here)
    project = crowd_project(tmp_path / "crowd.hadj", N_SETS)
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()  # as the program does: the window first, then the project
    qtbot.waitExposed(win)
    paints = _Paints()
    columns_at: list[int] = []
    live_at: list[int] = []
    _spy(monkeypatch, columns_mod, "group_category", columns_at, paints)
    _spy(monkeypatch, live_mod, "live_figures", live_at, paints)
    QApplication.instance().installEventFilter(paints)
    try:
        assert win.load_project(project)
        qtbot.waitUntil(lambda: win.wb.cols.ready and not win.ws.weigher.busy and not win.ws.live.updating,
                        timeout=60_000)
    finally:
        QApplication.instance().removeEventFilter(paints)
    assert paints.n >= 1
    assert columns_at and columns_at[0] >= 1  # computed after the table's first paint
    assert live_at and live_at[0] >= 1
    assert "computing…" not in win.ws.model.index(0, win.ws.model.keys.index("category")).data()
    win.close_project()


def test_the_late_columns_start_after_the_live_figures_first_job_has_ended(qtbot, tmp_path: Path,
                                                                           monkeypatch) -> None:
    project = crowd_project(tmp_path / "crowd.hadj", N_SETS)
    events: list[str] = []
    real_live, real_group = live_mod.live_figures, columns_mod.group_category

    def live(*args, **kwargs):
        events.append("live starts")
        try:
            return real_live(*args, **kwargs)
        finally:
            events.append("live ends")

    def group(*args, **kwargs):
        events.append("columns start")
        return real_group(*args, **kwargs)

    monkeypatch.setattr(live_mod, "live_figures", live)
    monkeypatch.setattr(columns_mod, "group_category", group)
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    assert win.load_project(project)
    qtbot.waitUntil(lambda: win.wb.cols.ready and not win.ws.weigher.busy and not win.ws.live.updating,
                    timeout=60_000)
    assert "columns start" in events and "live starts" in events
    assert events.index("live ends") < events.index("columns start")
    assert win.ws.live.figures is not None
    win.close_project()


def test_a_window_not_shown_computes_the_late_columns_and_weighs_all_the_same(qtbot, tmp_path: Path) -> None:
    project = crowd_project(tmp_path / "crowd.hadj", N_SETS)
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.load_project(project)
    assert not win.isVisible()
    qtbot.waitUntil(lambda: win.wb.cols.ready and not win.wb.weighing and win.ws.live.figures is not None,
                    timeout=60_000)
    s = win.wb.suggestion(win.ws.current)
    assert s is not None and not s.weighing
    win.close_project()
