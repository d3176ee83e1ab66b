"""Opening a crowd: the window is usable before the annotators are weighed.  Weighing MASC's 228 sets (the
suggestion's most reliable set) sat 2.4 s at "83 %" with no repaint, then 0.7-1.4 s as a step of the
opening; it now runs off the GUI thread once the window is shown, and the first instance's suggestion
(the majority answer) is shown without it.  The instance table's categories are still told set by set."""

from __future__ import annotations

import threading
from pathlib import Path

import hieradjudicate.app.workbench.suggest as suggest_mod
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
    real = suggest_mod.reliability

    def spy(*args, **kwargs):
        weighed_in.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(suggest_mod, "reliability", spy)
    assert win.load_project(project)
    texts = [s.text for s in win.open_progress]
    assert not any(t.startswith("Weighing") for t in texts), texts  # no step of the opening any more
    assert "chosen by" in win.ws.detail.suggestion.text()  # the first instance's suggestion, at once
    qtbot.waitUntil(lambda: not win.wb.weighing and not win.ws.weigher.busy, timeout=60_000)
    assert len(weighed_in) == 1 and weighed_in[0] is not threading.main_thread()
    s = win.wb.suggestion(win.ws.current)
    assert s is not None and not s.weighing and s.reliable_set  # weighed: the most reliable set is known
    # the instance table's disagreement categories are told set by set (MASC: 1.4 s at 50 % before)
    assert len([t for t in texts if t.endswith("the disagreement category of "
                                               f"{win.session.corpus.n:,} instances")]) >= N_SETS
    percents = [s.percent for s in win.open_progress]
    assert percents == sorted(percents) and percents[-1] == 100.0
    win.close_project()
