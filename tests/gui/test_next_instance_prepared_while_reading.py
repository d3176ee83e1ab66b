"""While the user reads an instance, the window prepares the next unresolved one: after a pause the N
key shows the next instance's suggestion without computing it then, and what it shows is what a fresh
computation gives."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.app.workbench.suggest import Suggester
from hieradjudicate.gui.workbench.suggestion_text import suggestion_html
from hieradjudicate.gui.workbench.workspace import PREPARE_MS
from tests.gui.journey import highlighted, open_window


def test_after_a_pause_the_n_key_finds_the_next_suggestion_made(qtbot, demo_project, monkeypatch):
    win = open_window(qtbot, demo_project)
    ws = win.ws
    # the opening's background work ends first (the annotators weighed, the competence estimated): a
    # suggestion prepared before either ends is made again, rightly, with it
    qtbot.waitUntil(lambda: win.wb.competence is not None and not win.wb.weighing, timeout=120_000)
    ws.table.setFocus()
    made: list[int] = []
    one = Suggester.one

    def counted(self, i, **kw):
        made.append(int(i))
        return one(self, i, **kw)

    monkeypatch.setattr(Suggester, "one", counted)
    for _ in range(5):
        qtbot.keyClick(win, Qt.Key.Key_N)
        qtbot.wait(PREPARE_MS * 4)  # the user reads: the next instance is prepared meanwhile
        QApplication.processEvents()
        before = list(made)
        qtbot.keyClick(win, Qt.Key.Key_N)
        for _k in range(3):
            QApplication.processEvents()
        i = highlighted(win)
        assert i >= 0 and i in before  # prepared during the pause
        assert made[len(before):].count(i) == 0  # not computed again by the key
        fresh = Workbench(win.wb.corpus, [])  # the same instance's suggestion, computed anew
        fresh.weighing, fresh.competence = False, win.wb.competence
        if win.wb._suggester is not None and win.wb._suggester.weighed:
            fresh.warm_suggestions()
        assert ws.detail.suggestion.text() == suggestion_html(fresh, i)
