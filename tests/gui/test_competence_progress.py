"""#24 follow-up: the background competence estimate says how far it is ("iteration k of at most N")
and, where it shows the figures, whether it converged ("NOT converged after N iterations")."""

from __future__ import annotations

import gc
import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.core.crowd import competence
from hieradjudicate.gui.dashboard.competence_panel import CompetencePanel
from hieradjudicate.gui.main_window import MainWindow
from tests.crowd import crowd_project


@pytest.fixture(scope="module")
def crowd12(tmp_path_factory) -> Path:
    return crowd_project(tmp_path_factory.mktemp("crowd") / "crowd12.hadj", 12)


def _open(qtbot, path: Path, monkeypatch) -> tuple[MainWindow, list[str]]:
    said: list[str] = []
    original = CompetencePanel.set_pending

    def spy(panel, text: str) -> None:  # records what the panel is told, then tells it
        said.append(text)
        original(panel, text)

    monkeypatch.setattr(CompetencePanel, "set_pending", spy)
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.load_project(path)
    w.show()
    qtbot.waitExposed(w)
    bar = w.dashboard.tabs.tabBar()  # the panel is built when the Dashboard tab is first shown
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    return w, said


def _close(w: MainWindow) -> None:
    w.close_project()
    QApplication.processEvents()
    gc.collect()


def test_progress_then_not_converged_after_the_cap(qtbot, private_dirs, crowd12, monkeypatch) -> None:
    monkeypatch.setattr(competence, "MAX_ITER", 4)  # the cap the window's estimate runs under
    w, said = _open(qtbot, crowd12, monkeypatch)
    qtbot.waitUntil(lambda: w.wb.competence is not None, timeout=600_000)
    steps = [int(m.group(1)) for t in said if (m := re.search(r"Dawid & Skene\) in the background: iteration (\d+) "
                                                             r"of at most 4", t))]
    assert steps and steps == sorted(steps) and steps[-1] == 4
    status = w.dashboard.view.competence_panel.status.text()
    # stopped by the cap all together: every lexelt named as not converged (none was confirmed)
    assert re.search(r"NOT converged after 4 iterations on (\d+) of \1 lexelts \(.*\(their figures may still move\)",
                     status)
    assert w.wb.competence.iterations == 4 and not w.wb.competence.converged
    _close(w)


def test_a_converged_estimate_says_after_how_many_iterations(qtbot, private_dirs, crowd12, monkeypatch) -> None:
    w, said = _open(qtbot, crowd12, monkeypatch)
    qtbot.waitUntil(lambda: w.wb.competence is not None, timeout=600_000)
    comp = w.wb.competence
    assert comp.converged
    status = w.dashboard.view.competence_panel.status.text()
    assert f"Estimate converged after {comp.iterations} iteration(s)" in status and "NOT" not in status
    assert any(f"iteration {comp.iterations} of at most {competence.MAX_ITER}" in t for t in said)
    _close(w)
