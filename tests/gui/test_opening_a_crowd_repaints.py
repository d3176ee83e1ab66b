"""#31: opening MASC sat 2.4 s at "83 %" with no repaint: the first suggestion weighed 228 annotator
sets in one block inside "Showing the first instance".  The weighing is now a step of its own that
tells the dialog after every set (the dialog repaints on each report, at most every DRAW_S), so the
count of reports is checked, not the time."""

from __future__ import annotations

from pathlib import Path

import hieradjudicate.app.workbench.suggest as suggest_mod
from hieradjudicate.gui.main_window import MainWindow
from tests.crowd import crowd_project

N_SETS = 60


def test_the_annotators_are_weighed_in_a_step_of_their_own_reporting_every_set(qtbot, tmp_path: Path,
                                                                             monkeypatch) -> None:
    project = crowd_project(tmp_path / "crowd.hadj", N_SETS)
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    during: list[str] = []  # the step the dialog showed when the weighing started
    real = suggest_mod.reliability

    def spy(*args, **kwargs):
        during.append(win.open_progress[-1].text if getattr(win, "open_progress", None) else "")
        return real(*args, **kwargs)

    monkeypatch.setattr(suggest_mod, "reliability", spy)
    assert win.load_project(project)
    texts = [s.text for s in win.open_progress]
    assert len(during) == 1 and during[0].startswith("Weighing the annotators"), during
    weighing = [t for t in texts if t.startswith("Weighing the annotators")]
    assert len(weighing) >= 2 * N_SETS  # told after each set of both passes, not once for the block
    assert f"set {N_SETS} of {N_SETS} against the others" in weighing[-1]
    shown = texts.index(next(t for t in texts if t.startswith("Showing the first instance")))
    assert texts.index(weighing[-1]) < shown  # all of it before the instance is shown
    assert win.ws.detail.instance >= 0 and "chosen by" in win.ws.detail.suggestion.text()
    # the instance table's disagreement categories are told set by set too (MASC: 1.4 s at 50 % before)
    assert len([t for t in texts if t.endswith("the disagreement category of "
                                               f"{win.session.corpus.n:,} instances")]) >= N_SETS
    percents = [s.percent for s in win.open_progress]
    assert percents == sorted(percents) and percents[-1] == 100.0
    win.close_project()
