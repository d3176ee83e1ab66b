"""The decision points kept in the project: a view after more decisions takes up the closed points and
computes only the new ones, and every point equals the timeline computed from scratch (to 1e-12)."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.timeline import replay as replay_module
from hieradjudicate.app.timeline.decisions import decision_timeline
from hieradjudicate.app.timeline.resume import PREFIX
from hieradjudicate.app.timeline.view import project_timeline
from tests.app.test_timeline import project  # noqa: F401  (the fixture)

R = 200  # resamples: the intervals are compared too


def _same_figure(a, b) -> None:
    for x, y in ((a.value, b.value), (a.low, b.low), (a.high, b.high)):
        assert (x is None) == (y is None)
        if x is not None:
            assert x == pytest.approx(y, abs=1e-12)
    assert a.n == b.n


def _same_timeline(got, want) -> None:
    assert [p.label for p in got.points] == [p.label for p in want.points]
    for p, q in zip(got.points, want.points):
        assert (p.start, p.end, p.decisions, p.withdrawals, p.counts, p.by_person) == \
            (q.start, q.end, q.decisions, q.withdrawals, q.counts, q.by_person)
        assert np.array_equal(p.instances, q.instances)
        _same_figure(p.overturn, q.overturn)
        assert set(p.scores) == set(q.scores)
        for name in p.scores:
            _same_figure(p.scores[name], q.scores[name])
    assert got.day_resolved == want.day_resolved
    assert np.array_equal(got.status, want.status)


def _decide_day(s: Session, day: str, keys: list[tuple[str, str]], tags: tuple[str, ...] = ("1",)) -> None:
    s.execute(Decide([Decision(lex, inst, tags, "manual", decided_by="lead", decided_at=f"{day}T10:{k:02d}:00.000Z")
                      for k, (lex, inst) in enumerate(keys)]))


def _view(s: Session, by="day"):
    return project_timeline(s.store, s.corpus, by=by, n_resamples=R, imports=False, compare=False,
                            dated=False).decisions


@pytest.mark.parametrize("by", ["day", 4])
def test_each_view_after_more_decisions_equals_the_timeline_from_scratch(project: Session, monkeypatch,  # noqa: F811
                                                                         by) -> None:
    taken_up: list[int] = []
    restore = replay_module.Replay.restore
    monkeypatch.setattr(replay_module.Replay, "restore",
                        lambda self, last, done: (taken_up.append(done), restore(self, last, done))[1])
    keys = project.instances()
    _view(project, by)  # the first view keeps the closed points
    assert PREFIX + str(by) in project.store.array_names()
    steps = [("2026-03-06", keys[30:34], ("2",)), ("2026-03-06", keys[34:36], ("1",)),  # the last day grows
             ("2026-03-09", keys[2:5], ("3",)),  # instances decided before, decided again
             ("2026-03-10", keys[36:40], ("1",))]
    for day, ks, tags in steps:
        _decide_day(project, day, ks, tags)
        got = _view(project, by)
        want = decision_timeline(project.corpus, project.store.iter_history(), by=by, n_resamples=R, seed=0)
        _same_timeline(got, want)
    assert len(taken_up) == len(steps) and all(d > 0 for d in taken_up)  # each view took up the kept points


def test_a_decision_saved_with_an_earlier_time_starts_afresh(project: Session, monkeypatch) -> None:  # noqa: F811
    taken_up: list[int] = []
    restore = replay_module.Replay.restore
    monkeypatch.setattr(replay_module.Replay, "restore",
                        lambda self, last, done: (taken_up.append(done), restore(self, last, done))[1])
    keys = project.instances()
    _view(project)
    _decide_day(project, "2026-03-02", keys[30:33], ("2",))  # a clock behind: lands on the first day
    got = _view(project)
    assert taken_up == []  # the kept points no longer are the first rows: computed from the start
    _same_timeline(got, decision_timeline(project.corpus, project.store.iter_history(), n_resamples=R, seed=0))


def test_the_kept_points_belong_to_the_inputs_they_were_computed_from(project: Session) -> None:  # noqa: F811
    from hieradjudicate.app.timeline.resume import content_key, make_key

    _view(project)
    arrays, meta = project.store.get_arrays(PREFIX + "day")
    assert meta["key"] == make_key(content_key(project.store), "day", R, 0, 20)
    assert [f[0] for f in content_key(project.store)] == [f.sha256 for f in project.store.files()]
    # another number of resamples is another key: nothing taken up from the kept points
    other = project_timeline(project.store, project.corpus, by="day", n_resamples=0, imports=False, compare=False,
                             dated=False).decisions
    assert all(p.overturn.low is None for p in other.points)


def test_every_import_point_and_fleiss_before_after_is_kept_by_content_and_read_back_equal(
        project: Session, tmp_path, monkeypatch) -> None:  # noqa: F811
    from hieradjudicate.app.timeline import imports, marks
    from tests.app.test_reimport import edit_key

    edit_key(tmp_path / "src" / "annotator_ben.key", tmp_path / "ben_v2.key", {"bank.n.002": "4", "bank.n.008": "4"})
    project.reimport("ben", tmp_path / "ben_v2.key")
    marks.add_marker(project.store, "v2", project.store.files(active_only=False)[-1].imported_at)
    first = project_timeline(project.store, project.corpus, n_resamples=R)
    kept = project.store.get_arrays(imports.CACHE)[1]  # at these resamples (those of an import are kept too)
    assert len([k for k in kept if k.endswith(f"|{R}|None")]) == 2  # the newest state's figures too

    def computed(*_a, **_k):
        raise AssertionError("computed again")
    monkeypatch.setattr(imports, "corpus_figures", computed)
    monkeypatch.setattr(marks, "fleiss_difference", computed)
    again = project_timeline(project.store, project.corpus, n_resamples=R)
    assert [p.figures for p in again.imports] == [p.figures for p in first.imports]
    assert again.before_after[0]["fleiss"] == first.before_after[0]["fleiss"]
    assert first.before_after[0]["fleiss"].difference is not None


def test_overturn_before_after_from_the_timelines_replay_equals_its_own(project: Session) -> None:  # noqa: F811
    from hieradjudicate.app.timeline.marks import overturn_before_after

    rows = list(project.store.iter_history())
    _view(project)
    _decide_day(project, "2026-03-06", project.instances()[30:34], ("2",))
    rows = list(project.store.iter_history())
    tl = _view(project)  # taken up from the kept points: its replay restored, then forked from the start
    for at in ("2026-03-03T00:00:00.000Z", "2026-03-05T10:00:00.000Z"):
        own = overturn_before_after(project.corpus, rows, at, n_resamples=R)
        assert overturn_before_after(project.corpus, rows, at, n_resamples=R, timeline=tl) == own
        assert own.difference is not None


def test_the_tab_reads_no_stored_copy_once_every_older_state_is_kept(project: Session, tmp_path) -> None:  # noqa: F811
    from hieradjudicate.app.timeline.imports import StoredCopies
    from hieradjudicate.app.timeline.marks import add_marker, markers
    from hieradjudicate.app.timeline.view import rebuilt_parts
    from tests.app.test_reimport import edit_key

    edit_key(tmp_path / "src" / "annotator_ben.key", tmp_path / "ben_v2.key", {"bank.n.002": "4"})
    project.reimport("ben", tmp_path / "ben_v2.key")
    add_marker(project.store, "v2", project.store.files(active_only=False)[-1].imported_at)
    marks = markers(project.store)
    first = StoredCopies(project.store, marks, n_resamples=R)
    assert first._bytes  # the state before the re-import is to be rebuilt: its copies are read
    points, added, diffs = rebuilt_parts(first, project.corpus, marks, n_resamples=R)
    project_timeline(project.store, project.corpus, n_resamples=R)  # keeps every state and difference
    again = StoredCopies(project.store, marks, n_resamples=R)
    assert again._bytes == {}
    points2, _, diffs2 = rebuilt_parts(again, project.corpus, marks, n_resamples=R)
    assert [p.figures for p in points2] == [p.figures for p in points] and diffs2 == diffs


def _count_majorities(monkeypatch) -> list[int]:
    from hieradjudicate.app.timeline import decisions as decisions_module

    calls: list[int] = []
    real = decisions_module.majority
    monkeypatch.setattr(decisions_module, "majority", lambda *a: (calls.append(1), real(*a))[1])
    return calls


def test_the_first_view_takes_the_majority_kept_at_import_and_equals_the_timeline_from_scratch(
        project: Session, monkeypatch) -> None:  # noqa: F811
    from hieradjudicate.app.timeline.resume import MAJORITY

    assert MAJORITY in project.store.array_names()  # kept when the project was made
    calls = _count_majorities(monkeypatch)
    got = _view(project)  # nothing of the timeline viewed yet
    assert calls == []
    _same_timeline(got, decision_timeline(project.corpus, project.store.iter_history(), n_resamples=R, seed=0))
    assert calls == [1]  # the timeline from scratch computes its own


def test_a_majority_kept_for_other_inputs_is_not_taken(project: Session, monkeypatch) -> None:  # noqa: F811
    import json

    from hieradjudicate.app.timeline.resume import MAJORITY, VERSION

    n = project.corpus.n
    project.store.put_arrays(MAJORITY, {"has_major": np.ones(n, bool), "major_sig": np.arange(n)},
                             {"key": json.dumps([VERSION, [["0" * 64, "annotations", None]]])})
    calls = _count_majorities(monkeypatch)
    got = _view(project)
    assert calls == [1]
    _same_timeline(got, decision_timeline(project.corpus, project.store.iter_history(), n_resamples=R, seed=0))
