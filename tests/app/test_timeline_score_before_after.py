"""Before/after a marker: each system's score against the gold decided so far, with the bootstrap
interval of the difference; each side equals the timeline's own score at that point (to 1e-12)."""

from __future__ import annotations

import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.app.timeline.marks import add_marker
from hieradjudicate.app.timeline.view import as_json, project_timeline
from tests.app.test_timeline import DAYS, project  # noqa: F401  (the fixture)


def _view(project: Session):  # noqa: F811
    return project_timeline(project.store, project.corpus, n_resamples=300, seed=0, imports=False, dated=False)


def test_a_markers_system_score_before_equals_the_timelines_score_at_the_marker(project: Session) -> None:  # noqa: F811
    add_marker(project.store, "guidelines v2", DAYS[1])  # after the first day's decisions
    v = _view(project)
    d = v.before_after[0]["score:lesk"]
    first_day = v.decisions.points[0]
    assert d.before == pytest.approx(first_day.scores["lesk"].value, abs=1e-12)
    assert d.n_before == first_day.scores["lesk"].n
    assert not d.paired and d.method == "unpaired percentile bootstrap"
    assert d.difference == pytest.approx(d.after - d.before, abs=1e-12)
    assert d.low <= d.difference <= d.high
    assert "score:lesk" in as_json(v)["before_after"][0]


def test_a_marker_before_every_decision_scores_all_the_gold_after_it(project: Session) -> None:  # noqa: F811
    add_marker(project.store, "start", "2000-01-01")
    v = _view(project)
    d = v.before_after[0]["score:lesk"]
    last = v.decisions.points[-1]
    assert d.before is None and d.difference is None and d.why == "one side has no instance"
    assert d.after == pytest.approx(last.scores["lesk"].value, abs=1e-12) and d.n_after == last.scores["lesk"].n
