"""The Timeline tab with a Label Studio export that carries dates (issue 32): opened with a click, it
plots agreement by week of annotation and each annotator's drift as scikit-learn computes them, and
its note says the dates inside the inputs are used; without dates the panel stays hidden."""

from __future__ import annotations

import pytest

from tests.app.test_timeline_dated import NAMES, make_answers, make_project, oracle_week
from tests.gui.journey import open_timeline


def test_timeline_tab_plots_weekly_agreement_and_drift_from_the_inputs_dates(qtbot, tmp_path) -> None:
    answers = make_answers(seed=8)
    s = make_project(tmp_path, answers)
    path = s.path
    s.close()
    _, _, page = open_timeline(qtbot, path)
    qtbot.waitUntil(lambda: page.view is not None and page.dated.result is not None, timeout=60_000)
    assert page.dated.isVisible()
    assert "dates inside the inputs" in page.note.text() and "only" not in page.note.text()
    weeks = [w.week for w in page.dated.result.weeks]
    curves = {c.name(): c.getData()[1] for c in page.dated.plot.getPlotItem().listDataItems()}
    oracle = [oracle_week(answers, w) for w in weeks]
    assert list(curves["mean pairwise kappa"]) == pytest.approx([o[0] for o in oracle], abs=1e-12)
    for who in NAMES:
        want = [o[1][who] for o in oracle if who in o[1]]
        assert list(curves[f"drift {who}"]) == pytest.approx(want, abs=1e-12)
    assert "s per item" in page.dated.summary.text()


def test_timeline_tab_without_dates_keeps_the_sentence_and_hides_the_panel(qtbot, tmp_path) -> None:
    from hieradjudicate.app.loading.load import AnnotationSpec
    from hieradjudicate.app.session.session import Session

    inv = tmp_path / "inventory.txt"
    inv.write_text("# lexelt bank.n\n1: one\n2: two\n")
    keys = []
    for who in ("a", "b"):
        k = tmp_path / f"{who}.key"
        k.write_text("bank.n b1 1\nbank.n b2 2\n")
        keys.append(AnnotationSpec(str(k), name=who))
    s = Session.create(tmp_path / "p.hadj", [str(inv)], keys)
    path = s.path
    s.close()
    _, _, page = open_timeline(qtbot, path)
    qtbot.waitUntil(lambda: page.view is not None and page.dated.done == page.dated.generation > 0,
                    timeout=60_000)
    assert "import and decision times only" in page.note.text()
    assert not page.dated.isVisible() and page.dated.result is None


def test_weeks_plot_draws_the_marker_and_hovering_a_drift_point_gives_its_interval(qtbot, tmp_path) -> None:
    from datetime import timedelta

    import pyqtgraph as pg
    from PySide6.QtCore import QPointF

    from hieradjudicate.app.timeline.marks import add_marker
    from tests.app.test_timeline_dated import START

    s = make_project(tmp_path, make_answers(seed=8))
    add_marker(s.store, "guidelines v2", (START + timedelta(days=13)).strftime("%Y-%m-%d"))
    path = s.path
    s.close()
    _, _, page = open_timeline(qtbot, path)
    qtbot.waitUntil(lambda: page.view is not None and page.dated.result is not None, timeout=60_000)
    plot = page.dated.plot.getPlotItem()
    lines = [i for i in plot.items if isinstance(i, pg.InfiniteLine)]
    assert [ln.objectName() for ln in lines] == ["marker:guidelines v2"] and 1.0 < lines[0].value() < 2.0
    assert any(isinstance(i, pg.ErrorBarItem) for i in plot.items)  # the intervals
    last = page.dated.result.weeks[-1]
    f = last.drift["cho"]
    assert f.low is not None and f.low < f.value < f.high
    x = float(len(page.dated.result.weeks) - 1)
    qtbot.waitUntil(lambda: plot.vb.sceneBoundingRect().contains(plot.vb.mapViewToScene(QPointF(x, f.value))),
                    timeout=60_000)  # the panel laid out once shown
    page.dated.plot.scene().sigMouseMoved.emit(plot.vb.mapViewToScene(QPointF(x, f.value)))
    assert f"{f.value:.3f} [{f.low:.3f}, {f.high:.3f}]" in page.dated.hover.text()
    assert "answers made before / after it" in page.dated.summary.text()
