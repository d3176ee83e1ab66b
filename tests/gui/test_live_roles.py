"""Live agreement "among annotators" counts systems only when the user ticks the box (#13 item 2)."""

from __future__ import annotations

import pytest

from hieradjudicate.app.loading.load import load
from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.app.workbench.live import agreement_figures
from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.gui.workbench.live_panel import LivePanel
from tests.conftest import DEMO


def _wb(*sets: tuple[str, str, str]) -> Workbench:
    specs = [AnnotationSpec(str(DEMO / f), n, role) for f, n, role in sets]
    return Workbench(load([str(DEMO / "inventory.txt")], specs).corpus)


def test_one_annotator_and_one_system_no_agreement_unless_asked(qtbot) -> None:
    wb = _wb(("annotator_ann.key", "ann", "annotator"), ("system_lesk.ans", "lesk", "system"))
    panel = LivePanel(wb)
    qtbot.addWidget(panel)
    panel.show()
    assert panel.include_systems.isVisible() and not panel.include_systems.isChecked()
    panel.refresh_agreement()
    qtbot.waitUntil(lambda: panel.figures is not None and not panel.updating, timeout=10_000)
    assert panel.figures.raters == ["ann"]
    assert panel.kappa.text() == "undefined"  # one annotator: nothing to agree with
    assert "system set(s) not counted as annotators: lesk" in panel.scope.text()
    panel.include_systems.setChecked(True)  # the user says so
    qtbot.waitUntil(lambda: panel.figures.raters == ["ann", "lesk"] and not panel.updating, timeout=10_000)
    alone = agreement_figures(wb, include_systems=True)
    assert panel.kappa.text() == f"{alone.fleiss.value:.3f}"
    assert "sets compared as annotators: ann, lesk (systems included: lesk)" in panel.scope.text()


def test_no_box_without_systems(qtbot) -> None:
    wb = _wb(("annotator_ann.key", "ann", "annotator"), ("annotator_ben.key", "ben", "annotator"))
    panel = LivePanel(wb)
    qtbot.addWidget(panel)
    panel.show()
    assert not panel.include_systems.isVisible()


def test_the_system_changes_the_figure_only_when_counted() -> None:
    wb = _wb(("annotator_ann.key", "ann", "annotator"), ("annotator_ben.key", "ben", "annotator"),
             ("system_lesk.ans", "lesk", "system"))
    default = agreement_figures(wb)
    counted = agreement_figures(wb, include_systems=True)
    assert default.raters == ["ann", "ben"] and counted.raters == ["ann", "ben", "lesk"]
    assert default.fleiss.value != pytest.approx(counted.fleiss.value)
    two = _wb(("annotator_ann.key", "ann", "annotator"), ("annotator_ben.key", "ben", "annotator"))
    assert default.fleiss.value == pytest.approx(agreement_figures(two).fleiss.value, abs=1e-12)
