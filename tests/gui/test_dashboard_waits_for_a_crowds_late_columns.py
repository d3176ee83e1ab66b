"""The Dashboard tab clicked while a crowd's late columns are still computed (in the background after
opening) waits for them, then takes their worst category as its own: it does not make that pass
over every answer a second time beside theirs (on MASC the two side by side made the window's peak)."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QTabBar

from hieradjudicate.app.dashboard import dashboard as app_dashboard
from hieradjudicate.app.workbench.columns import Columns
from tests.crowd import crowd_project
from tests.gui.journey import open_window


def test_dashboard_clicked_before_the_late_columns_waits_and_shares_their_category(qtbot, private_dirs,
                                                                                   tmp_path, monkeypatch) -> None:
    project = crowd_project(tmp_path / "crowd12.hadj", 12, per_item=6)
    go_on = threading.Event()
    finish = Columns.finish

    def held_finish(self, *args, **kwargs):  # the background job's columns wait until the test lets them
        if threading.current_thread() is not threading.main_thread():
            go_on.wait(60)
        return finish(self, *args, **kwargs)

    computed: list[int] = []
    worst = app_dashboard.worst_category

    def counted(*args, **kwargs):
        computed.append(1)
        return worst(*args, **kwargs)

    monkeypatch.setattr(Columns, "finish", held_finish)
    monkeypatch.setattr(app_dashboard, "worst_category", counted)
    win = open_window(qtbot, project)
    try:
        assert win.wb.crowd and not win.wb.cols.ready
        bar = win.dashboard.tabs.findChild(QTabBar)
        qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
        qtbot.waitUntil(lambda: win.dashboard.view is not None and win.dashboard.view.built, timeout=60_000)
        view = win.dashboard.view
        qtbot.wait(400)  # several looks for the columns
        assert view.updating and view.data is None and view.state.text() == "updating…"
        assert not computed and not win.wb.cols.ready
        go_on.set()
        qtbot.waitUntil(lambda: view.data is not None and not view.updating, timeout=60_000)
        assert win.wb.cols.ready
        assert not computed  # the workbench's column taken, not computed again
        assert view.dash.worst_category is win.wb.cols.category
        assert view.state.text().startswith("whole project")
    finally:
        go_on.set()
        win.close_project()
        QApplication.processEvents()
        gc.collect()
