"""Live agreement "among annotators" counts systems only when the user ticks the box (#13 item 2)."""

from __future__ import annotations

import pytest

from hieradjudicate.app.loading.load import load
from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.app.workbench.live import agreement_figures
from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.gui.workbench.panels.live_panel import LivePanel
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
    qtbot.waitUntil(lambda: panel.figures is not None and not panel.updating, timeout=60_000)
    assert panel.figures.raters == ["ann"]
    assert panel.kappa.text() == "undefined"  # one annotator: nothing to agree with
    assert "system set(s) not counted as annotators: lesk" in panel.scope.text()
    panel.include_systems.setChecked(True)  # the user says so
    qtbot.waitUntil(lambda: panel.figures.raters == ["ann", "lesk"] and not panel.updating, timeout=60_000)
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


def _shown(qtbot, panel: LivePanel) -> None:
    panel.show()
    panel.refresh_agreement()
    qtbot.waitUntil(lambda: panel.figures is not None and not panel.updating, timeout=60_000)


def test_fewer_than_two_sets_say_so_in_a_sentence(qtbot) -> None:
    """#21 item 3: a reference gold and one system (the WSD framework's ALL + lesk), or one annotator
    alone: the live panel says why there is no agreement, not "on the 0 instances shown"."""
    wb = _wb(("annotator_ann.key", "gold", "gold"), ("system_lesk.ans", "lesk", "system"))
    panel = LivePanel(wb)
    qtbot.addWidget(panel)
    _shown(qtbot, panel)
    text = panel.scope.text()
    assert " 0 instances" not in text and "not computed" in text
    assert "needs at least two annotator sets; this project has none" in text
    assert "The reference gold (gold) is not an annotator" in text
    assert not panel.include_systems.isVisible()  # ticking it would give one set: not offered
    assert not panel.kappa.isVisible() and not panel.alpha.isVisible() and not panel.cohen.isVisible()
    assert panel.figures.fleiss.value is None and "two annotator sets" in panel.figures.fleiss.reason

    one = _wb(("annotator_ann.key", "ann", "annotator"))
    panel = LivePanel(one)
    qtbot.addWidget(panel)
    _shown(qtbot, panel)
    assert "this project has one." in panel.scope.text() and "reference gold" not in panel.scope.text()


def test_only_systems_compared_when_asked(qtbot) -> None:
    """Two systems and no annotator: the sentence says to tick the box; ticked, the figures are the
    agreement between the two systems (the same as with the two files given as annotators)."""
    wb = _wb(("system_lesk.ans", "lesk", "system"), ("system_neural.ans", "neural", "system"))
    panel = LivePanel(wb)
    qtbot.addWidget(panel)
    _shown(qtbot, panel)
    assert "Tick \u201ccount systems as annotators\u201d" in panel.scope.text()
    assert panel.include_systems.isVisible()
    panel.include_systems.setChecked(True)
    qtbot.waitUntil(lambda: panel.figures.raters == ["lesk", "neural"] and not panel.updating, timeout=60_000)
    as_annotators = agreement_figures(_wb(("system_lesk.ans", "lesk", "annotator"),
                                          ("system_neural.ans", "neural", "annotator")))
    assert panel.kappa.isVisible() and panel.kappa.text() == f"{as_annotators.fleiss.value:.3f}"
    assert panel.alpha.text() == f"{as_annotators.alpha.value:.3f}"
    assert panel.figures.n_instances > 0 and f"on the {panel.figures.n_instances} instances" in panel.scope.text()
