"""Opening a crowd: the window is usable before the annotators are weighed and before the instance table's
category, leaf agreement and answers columns are computed.  Weighing MASC's 228 sets (the suggestion's
most reliable set) sat 2.4 s at "83 %" with no repaint, then 0.7-1.4 s as a step of the opening, and
the columns 1.1 s; both now run off the GUI thread once the window is shown (the columns first: the
weighing reads their sums), and the first instance's suggestion (the majority answer) is shown
without them."""

from __future__ import annotations

import threading
from pathlib import Path

import hieradjudicate.app.workbench.columns as columns_mod
import hieradjudicate.app.workbench.suggest as suggest_mod
from PySide6.QtCore import Qt

from hieradjudicate.gui.main_window import MainWindow
from tests.crowd import crowd_project

N_SETS = 60


def test_the_annotators_are_weighed_off_the_gui_thread_after_the_first_instance_is_shown(
        qtbot, tmp_path: Path, monkeypatch) -> None:
    project = crowd_project(tmp_path / "crowd.hadj", N_SETS)
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    weighed_in: list[threading.Thread] = []  # the thread each weighing ran in
    columns_in: list[threading.Thread] = []  # the thread the category column was computed in
    real, real_columns = suggest_mod.reliability, columns_mod.group_category

    def spy(*args, **kwargs):
        weighed_in.append(threading.current_thread())
        return real(*args, **kwargs)

    def spy_columns(*args, **kwargs):
        columns_in.append(threading.current_thread())
        return real_columns(*args, **kwargs)

    monkeypatch.setattr(suggest_mod, "reliability", spy)
    monkeypatch.setattr(columns_mod, "group_category", spy_columns)
    assert win.load_project(project)
    texts = [s.text for s in win.open_progress]
    assert not any(t.startswith("Weighing") or "disagreement category" in t for t in texts), texts
    assert "chosen by" in win.ws.detail.suggestion.text()  # the first instance's suggestion, at once
    qtbot.waitUntil(lambda: not win.wb.weighing and not win.ws.weigher.busy, timeout=60_000)
    assert len(weighed_in) == 1 and weighed_in[0] is not threading.main_thread()
    s = win.wb.suggestion(win.ws.current)
    assert s is not None and not s.weighing and s.reliable_set  # weighed: the most reliable set is known
    assert len(columns_in) == 1 and columns_in[0] is not threading.main_thread()
    # the columns are in: the category cells and colours, and the live panel's categories left
    ws, wb = win.ws, win.wb
    col = ws.model.keys.index("category")
    row = ws.table.rowAt(0)
    i = int(wb.view[row])
    assert wb.cols.ready and ws.model.index(row, col).data() == wb.cell("category", i) != "computing…"
    assert ws.model.index(row, col).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert "left:" in ws.live.counts.text()
    percents = [s.percent for s in win.open_progress]
    assert percents == sorted(percents) and percents[-1] == 100.0
    win.close_project()
