"""The timeline (issue 32): a project built step by step -- import, decisions on given days, a
re-import, a marker -- whose every point equals the figure computed from scratch at that step."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from hieradjudicate.app.dashboard.dashboard import Dashboard
from hieradjudicate.app.dashboard.gold import DecisionTracker
from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.stats import Stats
from hieradjudicate.app.timeline.decisions import decision_timeline
from hieradjudicate.app.timeline.imports import import_timeline
from hieradjudicate.app.timeline.marks import add_marker, fleiss_before_after, markers, overturn_before_after
from hieradjudicate.app.timeline.view import as_json, project_timeline
from hieradjudicate.core.errors import HieradjError
from tests.app.test_reimport import edit_key
from tests.app.test_session import DEMO

NAMES = ("ann", "ben", "cho")
DAYS = ("2026-03-02", "2026-03-03", "2026-03-05")  # a day without decisions in between


def _specs(src: Path) -> list[AnnotationSpec]:
    return [AnnotationSpec(str(src / f"annotator_{n}.key"), name=n) for n in NAMES] + \
        [AnnotationSpec(str(src / "system_lesk.ans"), name="lesk", role="system")]


@pytest.fixture
def project(tmp_path: Path):
    """The demo project with 30 decisions over three days: each day's instances take ben's answer
    (so the gold sometimes overturns the majority), one a day is flagged; on the last day one
    instance is decided again with another answer and one is withdrawn."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("inventory.txt", "annotator_ann.key", "annotator_ben.key", "annotator_cho.key",
                 "system_lesk.ans"):
        shutil.copy(DEMO / name, src / name)
    s = Session.create(tmp_path / "p.hadj", [str(src / "inventory.txt")], _specs(src))
    c = s.corpus
    ben = c.get_set("ben")
    keys = s.instances()
    j = 0
    for d, day in enumerate(DAYS):
        batch = []
        for k in range(10):
            lex, inst = keys[j]
            j += 1
            p = int(ben.position([c.instance_index(lex, inst)])[0])
            tags = tuple(c.tag_strings(ben, p)) if p >= 0 else ("1",)
            status = "flagged" if k == 9 else "resolved"
            batch.append(Decision(lex, inst, tags, "set:ben", status, decided_by="lead" if k % 3 else "kim",
                                  decided_at=f"{day}T09:{k:02d}:00.000Z"))
        s.execute(Decide(batch))
    lex, inst = keys[1]  # decided again on the last day, with another answer (its gold changes)
    s.execute(Decide([Decision(lex, inst, ("4",), "manual", decided_by="lead",
                               decided_at=f"{DAYS[2]}T12:00:00.000Z")]))
    lex, inst = keys[0]
    s.execute(Decide([Decision(lex, inst, (), "manual", "unresolved", decided_by="lead",
                               decided_at=f"{DAYS[2]}T17:00:00.000Z")]))
    yield s
    s.close()


def _frame(s: Session) -> pd.DataFrame:
    rows = list(s.store.iter_history())
    return pd.DataFrame({"id": [r.id for r in rows], "lexelt": [r.lexelt for r in rows],
                         "instance": [r.instance for r in rows], "status": [r.status for r in rows],
                         "tags": [r.tags for r in rows], "at": [r.decided_at for r in rows],
                         "by": [r.decided_by for r in rows]})


def test_each_day_counts_equal_a_groupby_of_the_decisions(project: Session) -> None:
    tl = decision_timeline(project.corpus, project.store.iter_history(), by="day", n_resamples=0)
    df = _frame(project)
    df["day"] = df["at"].str[:10]
    per_day = df[df.status != "unresolved"].groupby("day").size()
    assert [p.label for p in tl.points] == list(DAYS)
    assert [p.decisions for p in tl.points] == per_day.tolist()
    who = df[df.status != "unresolved"].groupby(["day", "by"]).size()
    assert [p.by_person for p in tl.points] == [{b: int(k) for (d, b), k in who.items() if d == day} for day in DAYS]
    for p in tl.points:  # the state after the day: the latest row per instance up to its end
        last = df[df.day <= p.label].sort_values("id").groupby(["lexelt", "instance"]).tail(1)
        count = last.status.value_counts()
        assert p.counts["resolved"] == count.get("resolved", 0)
        assert p.counts["flagged"] == count.get("flagged", 0)
        assert p.counts["open"] == project.corpus.n - count.get("resolved", 0) - count.get("flagged", 0)


def test_every_n_decisions_and_weeks_cut_the_same_history(project: Session) -> None:
    rows = list(project.store.iter_history())
    tl = decision_timeline(project.corpus, rows, by=7, n_resamples=0)
    assert [p.decisions + p.withdrawals for p in tl.points] == [7, 7, 7, 7, 4]
    weeks = decision_timeline(project.corpus, rows, by="week", n_resamples=0)
    assert [p.label for p in weeks.points] == ["week of 2026-03-02"]
    assert weeks.points[-1].counts == tl.points[-1].counts


def _scratch_scores(s: Session, upto: str) -> dict[str, float | None]:
    """Each set's leaf score against the gold decided by ``upto``, from a fresh tracker and the
    dashboard's own gold-agreement function (a different code path from the timeline's)."""
    from hieradjudicate.app.dashboard.scores import gold_agreement

    rows = [r for r in s.store.iter_history() if r.decided_at[:10] <= upto]
    gold = DecisionTracker(s.corpus, rows).gold_set()
    sets = [k for k, x in enumerate(s.corpus.sets) if x.role != "gold"]
    got, _ = gold_agreement(s.corpus, sets, gold)
    return {r.name: r.score for r in got}


def test_scores_at_each_day_equal_the_scores_from_scratch(project: Session) -> None:
    tl = decision_timeline(project.corpus, project.store.iter_history(), n_resamples=0)
    for p in tl.points:
        want = _scratch_scores(project, p.label)
        assert set(want) == set(p.scores)
        for name, v in want.items():
            assert p.scores[name].value == pytest.approx(v, abs=1e-12)


def test_the_last_point_equals_the_dashboards_current_figures(project: Session) -> None:
    rows = list(project.store.iter_history())
    tl = decision_timeline(project.corpus, rows, n_resamples=0)
    data = Dashboard(project.corpus).compute(tracker=DecisionTracker(project.corpus, rows), intervals=False)
    assert {r.name: r.score for r in data.gold_agreement} == {k: f.value for k, f in tl.points[-1].scores.items()}
    assert data.progress.status_counts["resolved"] == tl.points[-1].counts["resolved"]
    assert data.progress.decisions == [p.decisions for p in tl.points]


def _overturn_by_hand(s: Session, upto: str) -> tuple[int, int]:
    """(majority instances resolved, overturned), counting tag sets with a Counter."""
    c = s.corpus
    rows = [r for r in s.store.iter_history() if r.decided_at[:10] <= upto]
    current: dict[tuple[str, str], object] = {}
    for r in rows:
        current[r.key] = r
    n = over = 0
    for key, r in current.items():
        if r.status != "resolved":
            continue
        i = c.instance_index(*key)
        answers = []
        for name in NAMES:
            st = c.get_set(name)
            p = int(st.position([i])[0])
            if p >= 0:
                answers.append(frozenset(c.tag_strings(st, p)))
        top, k = Counter(answers).most_common(1)[0] if answers else (None, 0)
        if 2 * k > len(answers):
            n += 1
            over += frozenset(r.tags) != top
    return n, over


def test_overturn_share_equals_a_count_by_hand(project: Session) -> None:
    tl = decision_timeline(project.corpus, project.store.iter_history(), n_resamples=300, seed=3)
    for p in tl.points:
        n, over = _overturn_by_hand(project, p.label)
        assert p.overturn.n == n and p.overturn.value == pytest.approx(over / n, abs=1e-12)
        assert p.overturn.low <= p.overturn.value <= p.overturn.high
    assert any(p.overturn.value > 0 for p in tl.points)  # ben is overruled somewhere: the test can fail


def test_intervals_are_the_same_with_the_same_seed(project: Session) -> None:
    a = decision_timeline(project.corpus, project.store.iter_history(), n_resamples=200, seed=5)
    b = decision_timeline(project.corpus, project.store.iter_history(), n_resamples=200, seed=5)
    assert [p.scores["lesk"] for p in a.points] == [p.scores["lesk"] for p in b.points]
    assert a.points[-1].scores["lesk"].low is not None


def test_import_points_equal_the_figures_of_each_state(project: Session, tmp_path: Path) -> None:
    src = tmp_path / "src"
    before = Stats(project.corpus).agreement_dict(pairs=False)
    edit_key(src / "annotator_ben.key", tmp_path / "ben_v2.key",
             {"bank.n.002": "4", "bank.n.005": "2.2", "bank.n.006": "4", "bank.n.007": "4"})
    project.reimport("ben", tmp_path / "ben_v2.key")
    pts = import_timeline(project.store, project.corpus, n_resamples=0)
    assert [p.event.label for p in pts] == ["project created", "re-import of ben"]
    now = Stats(project.corpus).agreement_dict(pairs=False)
    for p, want in zip(pts, (before, now)):
        assert p.figures["fleiss"].value == pytest.approx(want["fleiss"]["kappa"], abs=1e-12)
        assert p.figures["conger"].value == pytest.approx(want["conger"]["kappa"], abs=1e-12)
        assert p.figures["alpha"].value == pytest.approx(want["alpha"]["value"], abs=1e-12)
        assert p.figures["mean_kappa_cohen"].value == pytest.approx(want["mean_kappa_cohen"], abs=1e-12)
    assert pts[-1].figures["fleiss"].value == now["fleiss"]["kappa"]  # the current corpus, exactly
    by_lex = Stats(project.corpus).agreement_dict(pairs=False, by_lexelt=True)["by_lexelt"]
    assert {k[7:]: f.value for k, f in pts[-1].figures.items() if k.startswith("fleiss:")} == \
        {lex: d["fleiss"] for lex, d in by_lex.items()}
    assert pts[0].figures["fleiss"].value != pts[1].figures["fleiss"].value
    # the older state is kept in the project: read again without rebuilding anything
    again = import_timeline(project.store, project.corpus, n_resamples=0,
                            rebuild=lambda *_: pytest.fail("rebuilt a cached state"))
    assert again[0].figures == pts[0].figures


def test_fleiss_before_after_a_reimport_is_paired_and_covers_the_direct_difference(
        project: Session, tmp_path: Path) -> None:
    src = tmp_path / "src"
    k0 = Stats(project.corpus).agreement_dict(pairs=False)["fleiss"]["kappa"]
    add_marker(project.store, "guidelines v2", "2026-03-04")
    changes = {f"bank.n.{k:03d}": "4" for k in range(2, 40, 3)}
    edit_key(src / "annotator_ben.key", tmp_path / "ben_v2.key", changes)
    project.reimport("ben", tmp_path / "ben_v2.key")
    k1 = Stats(project.corpus).agreement_dict(pairs=False)["fleiss"]["kappa"]
    d = fleiss_before_after(project.store, project.corpus, markers(project.store)[0].at.replace("2026-03-04",
                                                                                              "2099-01-01"),
                            n_resamples=400, seed=1)
    assert d.why is not None  # a marker after every import: nothing to compare
    d = fleiss_before_after(project.store, project.corpus, "2000-01-01T00:00:00.000Z", n_resamples=400, seed=1)
    assert d.why is not None  # before every import too
    ev_at = project.store.files(active_only=False)[-1].imported_at
    d = fleiss_before_after(project.store, project.corpus, ev_at, n_resamples=400, seed=1)
    assert d.paired and d.n_before == d.n_after
    assert d.before == pytest.approx(k0, abs=1e-12) and d.after == pytest.approx(k1, abs=1e-12)
    assert d.difference == pytest.approx(k1 - k0, abs=1e-12) and d.difference < 0
    assert d.low <= d.difference <= d.high


def test_overturn_before_after_a_marker(project: Session) -> None:
    at = "2026-03-03T00:00:00.000Z"
    d = overturn_before_after(project.corpus, project.store.iter_history(), at, n_resamples=300, seed=2)
    n_b, o_b = _overturn_by_hand(project, "2026-03-02")
    assert not d.paired and d.n_before == n_b and d.before == pytest.approx(o_b / n_b, abs=1e-12)
    assert d.difference == pytest.approx(d.after - d.before, abs=1e-12)
    assert d.low <= d.difference <= d.high


def test_forecast_equals_open_over_the_mean_progress_per_calendar_day(project: Session) -> None:
    v = project_timeline(project.store, project.corpus, n_resamples=300, seed=0, imports=False)
    df = _frame(project)
    # per calendar day from the first to the last: the change in resolved instances
    resolved = []
    for day in pd.date_range(DAYS[0], DAYS[-1]).strftime("%Y-%m-%d"):
        last = df[df["at"].str[:10] <= day].sort_values("id").groupby(["lexelt", "instance"]).tail(1)
        resolved.append(int((last.status == "resolved").sum()))
    per_day = np.diff([0, *resolved])
    open_ = project.corpus.n - resolved[-1]
    assert v.forecast.open == open_ and v.forecast.n_days == 4
    assert v.forecast.days == pytest.approx(open_ / per_day.mean(), abs=1e-9)
    assert v.forecast.days_low <= v.forecast.days <= v.forecast.days_high
    assert v.dates[0] is not None and v.dates[0] > DAYS[-1]


def test_markers_are_kept_in_the_settings_and_bad_dates_are_refused(project: Session) -> None:
    version = project.store.meta()["schema_version"]
    add_marker(project.store, "guidelines v2", "2026-03-03")
    add_marker(project.store, "kick-off", "2026-03-01T08:30")
    assert [(m.label, m.at) for m in markers(project.store)] == [
        ("kick-off", "2026-03-01T08:30:00.000Z"), ("guidelines v2", "2026-03-03T00:00:00.000Z")]
    assert project.store.meta()["schema_version"] == version  # no migration: older versions open it
    with pytest.raises(HieradjError, match="YYYY-MM-DD"):
        add_marker(project.store, "x", "03/03/2026")
    with pytest.raises(HieradjError, match="label"):
        add_marker(project.store, "  ")


def test_json_view_holds_numbers_and_says_what_the_timeline_rests_on(project: Session) -> None:
    add_marker(project.store, "guidelines v2", "2026-03-03")
    d = json.loads(json.dumps(as_json(project_timeline(project.store, project.corpus, n_resamples=100))))
    assert "import and decision times only" in d["note"]
    assert isinstance(d["points"][0]["scores"]["lesk"]["value"], float)
    assert isinstance(d["points"][0]["counts"]["resolved"], int)
    assert d["before_after"][0]["marker"]["label"] == "guidelines v2"
    assert d["before_after"][0]["overturn"]["paired"] is False


def test_cli_keeps_older_import_figures_in_the_project(project: Session, tmp_path: Path, capsys) -> None:
    from hieradjudicate.app.timeline.imports import CACHE
    from hieradjudicate.cli.entry import main
    from hieradjudicate.io.store.project_store import Store

    edit_key(tmp_path / "src" / "annotator_ben.key", tmp_path / "ben_v2.key", {"bank.n.002": "4"})
    project.reimport("ben", tmp_path / "ben_v2.key")
    path = str(project.path)
    project.close()
    assert main(["project", "timeline", path, "--by", "import", "--format", "json", "--resamples", "0"]) == 0
    first = json.loads(capsys.readouterr().out)["imports"]
    with Store.open(path, read_only=True) as st:
        assert CACHE in st.array_names()
    assert main(["project", "timeline", path, "--by", "import", "--format", "json", "--resamples", "0"]) == 0
    assert json.loads(capsys.readouterr().out)["imports"] == first
    assert [p["label"] for p in first] == ["project created", "re-import of ben"]


def test_replay_gives_the_trackers_state_after_every_row(project: Session) -> None:
    """The timeline's vectorised replay against the dashboard's tracker, row by row."""
    from hieradjudicate.app.timeline.replay import Replay

    keys = project.instances()
    at = f"{DAYS[2]}T18:00:00.000Z"
    project.execute(Decide([  # two tags, a tag outside the inventory, only unknown tags, skipped
        Decision(*keys[40], ("1", "2"), "manual", decided_by="lead", decided_at=at),
        Decision(*keys[41], ("1", "zzz"), "manual", decided_by="lead", decided_at=at),
        Decision(*keys[42], ("zzz",), "manual", decided_by="lead", decided_at=at),
        Decision(*keys[43], ("1",), "manual", "skipped", decided_by="lead", decided_at=at),
        Decision("no.such.lexelt", "x1", ("1",), "manual", decided_by="lead", decided_at=at)]))
    rows = sorted(project.store.iter_history(), key=lambda r: r.decided_at)
    replay = Replay(project.corpus, rows)
    tracker = DecisionTracker(project.corpus)
    for j in range(len(rows)):
        assert np.array_equal(replay.advance(j + 1), tracker.apply(rows[j:j + 1]))
        assert np.array_equal(replay.status, tracker.status)
        a, b = replay.gold_set(), tracker.gold_set()
        assert (a is None) == (b is None)
        if a is not None:
            assert np.array_equal(a.rows, b.rows) and np.array_equal(a.tag_ptr, b.tag_ptr)
            assert np.array_equal(a.tag_node, b.tag_node) and np.array_equal(a.signature, b.signature)
            assert np.allclose(a.leaves, b.leaves, rtol=0, atol=1e-15)


def test_the_windows_threaded_parts_equal_the_direct_ones(project: Session, tmp_path: Path) -> None:
    """What the Timeline tab computes in another thread from the stored copies read beforehand."""
    from hieradjudicate.app.timeline.imports import StoredCopies
    from hieradjudicate.app.timeline.view import rebuilt_parts

    edit_key(tmp_path / "src" / "annotator_ben.key", tmp_path / "ben_v2.key", {"bank.n.002": "4", "bank.n.008": "4"})
    project.reimport("ben", tmp_path / "ben_v2.key")
    at = project.store.files(active_only=False)[-1].imported_at
    add_marker(project.store, "v2", at)
    marks = markers(project.store)
    points, added, diffs = rebuilt_parts(StoredCopies(project.store), project.corpus, marks, n_resamples=200)
    direct = import_timeline(project.store, project.corpus, n_resamples=200, cache=False)
    assert [p.figures for p in points] == [p.figures for p in direct] and len(added) == 2  # the newest too
    d = fleiss_before_after(project.store, project.corpus, at, n_resamples=200, seed=0)
    assert diffs == [d] and d.paired


def test_a_project_without_decisions_has_a_timeline_that_says_so(tmp_path: Path, capsys) -> None:
    from hieradjudicate.cli.entry import main

    src = tmp_path / "src"
    src.mkdir()
    for name in ("inventory.txt", "annotator_ann.key", "annotator_ben.key", "annotator_cho.key", "system_lesk.ans"):
        shutil.copy(DEMO / name, src / name)
    Session.create(tmp_path / "p.hadj", [str(src / "inventory.txt")], _specs(src)).close()
    assert main(["project", "timeline", str(tmp_path / "p.hadj"), "--resamples", "50"]) == 0
    out = capsys.readouterr().out
    assert "no points yet" in out and "fewer than two days" in out
    assert main(["project", "timeline", str(tmp_path / "p.hadj"), "--format", "json", "--resamples", "50"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["points"] == [] and d["forecast"]["open"] == 400 and len(d["imports"]) == 1


def test_each_lexelts_fleiss_at_an_import_carries_the_dashboards_interval(project: Session) -> None:
    from hieradjudicate.app.timeline.imports import group_of
    from hieradjudicate.core.agreement.lexelt_intervals import fleiss_intervals

    pts = import_timeline(project.store, project.corpus, n_resamples=300, seed=5, cache=False)
    c = project.corpus
    inst, rater, P, _ = c.long_form(sets=group_of(c))
    _, per = fleiss_intervals(inst, rater, P, c.inst_lexelt, n_lexelts=len(c.inventory.lexelts), n_resamples=300,
                              seed=5)
    got = {k[7:]: f for k, f in pts[-1].figures.items() if k.startswith("fleiss:")}
    assert got and all(f.low is not None for f in got.values())
    for x, lex in enumerate(c.inventory.lexelts):
        if lex in got:
            assert (got[lex].low, got[lex].high) == pytest.approx((per[x].low, per[x].high), abs=1e-12)
            assert got[lex].low <= got[lex].value <= got[lex].high
