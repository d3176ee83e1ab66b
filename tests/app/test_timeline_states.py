"""Each state of the annotations keeps its timeline figures when it comes to be (the project's
creation, a re-import): a view after imports made through the normal path rebuilds no older state
and computes no import point's figures again, and what it shows equals the figures computed from
the rebuilt corpora (to 1e-12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.app.timeline import imports, marks, states
from hieradjudicate.app.timeline.imports import DIFFERENCES, import_timeline
from hieradjudicate.app.timeline.marks import add_marker, fleiss_before_after, markers
from hieradjudicate.app.timeline.view import project_timeline
from tests.app.test_reimport import edit_key
from tests.app.test_timeline import project  # noqa: F401  (the fixture)


def _two_reimports_around_a_marker(project: Session, tmp_path: Path) -> str:  # noqa: F811
    src = tmp_path / "src"
    edit_key(src / "annotator_ben.key", tmp_path / "ben_v2.key", {f"bank.n.{k:03d}": "4" for k in range(2, 30, 3)})
    project.reimport("ben", tmp_path / "ben_v2.key")
    at = project.store.files(active_only=False)[-1].imported_at
    add_marker(project.store, "guidelines v2", at)
    edit_key(src / "annotator_cho.key", tmp_path / "cho_v2.key", {f"bank.n.{k:03d}": "2" for k in range(1, 20, 4)})
    project.reimport("cho", tmp_path / "cho_v2.key")
    return at


def _fail(*_a, **_k):
    raise AssertionError("an older state was rebuilt or its figures computed again")


def test_a_view_after_imports_made_through_the_normal_path_computes_no_state(
        project: Session, tmp_path: Path, monkeypatch) -> None:  # noqa: F811
    _two_reimports_around_a_marker(project, tmp_path)
    from hieradjudicate.app.session import stored_inputs

    monkeypatch.setattr(imports, "corpus_figures", _fail)  # no import point's figures computed
    monkeypatch.setattr(stored_inputs, "reload_corpus", _fail)  # no older state rebuilt
    monkeypatch.setattr(states, "corpus_side", _fail)  # no layout of any state's annotations made
    v = project_timeline(project.store, project.corpus, n_resamples=states.RESAMPLES)
    assert [p.event.label.split(" of ")[0] for p in v.imports] == ["project created", "re-import", "re-import"]
    assert all(p.figures["fleiss"].low is not None for p in v.imports)
    d = v.before_after[0]["fleiss"]
    assert d.difference is not None and d.paired and d.low <= d.difference <= d.high


def test_the_kept_figures_equal_those_of_the_rebuilt_states(project: Session, tmp_path: Path) -> None:  # noqa: F811
    at = _two_reimports_around_a_marker(project, tmp_path)
    kept = project_timeline(project.store, project.corpus, n_resamples=states.RESAMPLES, dated=False)
    # from scratch: every kept figure and side dropped, the older states rebuilt from their stored copies
    for name in project.store.array_names():
        if name.startswith(states.PREFIX) or name in (imports.CACHE, DIFFERENCES):
            project.store.put_arrays(name, {}, {})
    rebuilt = import_timeline(project.store, project.corpus, n_resamples=states.RESAMPLES, cache=False)
    assert [p.figures for p in kept.imports] == [p.figures for p in rebuilt]
    scratch = fleiss_before_after(project.store, project.corpus, markers(project.store)[0].at,
                                  n_resamples=states.RESAMPLES, seed=0)
    got = kept.before_after[0]["fleiss"]
    for a, b in ((got.before, scratch.before), (got.after, scratch.after), (got.difference, scratch.difference),
                 (got.low, scratch.low), (got.high, scratch.high)):
        assert a == pytest.approx(b, abs=1e-12)
    assert (got.paired, got.n_before, got.n_after, got.method) == \
        (scratch.paired, scratch.n_before, scratch.n_after, scratch.method)
    assert at == markers(project.store)[0].at


def test_a_project_without_kept_states_rebuilds_each_once_and_keeps_it(
        project: Session, tmp_path: Path, monkeypatch) -> None:  # noqa: F811
    _two_reimports_around_a_marker(project, tmp_path)
    for name in project.store.array_names():  # what an older version left: nothing kept
        if name.startswith("timeline-"):
            project.store.put_arrays(name, {}, {})
    for name in [n for n in project.store.array_names() if n.startswith(states.PREFIX)]:
        project.store.conn.execute("DELETE FROM arrays WHERE name = ?", (name,))
    first = project_timeline(project.store, project.corpus, n_resamples=states.RESAMPLES, dated=False)
    assert any(n.startswith(states.PREFIX) for n in project.store.array_names())  # the state at the marker
    monkeypatch.setattr(imports, "corpus_figures", _fail)
    monkeypatch.setattr(marks, "fleiss_difference", _fail)
    again = project_timeline(project.store, project.corpus, n_resamples=states.RESAMPLES, dated=False)
    assert [p.figures for p in again.imports] == [p.figures for p in first.imports]
    assert again.before_after[0]["fleiss"] == first.before_after[0]["fleiss"]


def test_the_windows_threaded_parts_rebuild_nothing_after_the_normal_path(
        project: Session, tmp_path: Path, monkeypatch) -> None:  # noqa: F811
    from hieradjudicate.app.session import stored_inputs
    from hieradjudicate.app.timeline.imports import StoredCopies
    from hieradjudicate.app.timeline.view import rebuilt_parts

    _two_reimports_around_a_marker(project, tmp_path)
    direct = project_timeline(project.store, project.corpus, n_resamples=states.RESAMPLES, dated=False)
    project.store.put_arrays(DIFFERENCES, {}, {})  # the difference itself not kept: computed from the sides
    marks_ = markers(project.store)
    copies = StoredCopies(project.store, marks_, n_resamples=states.RESAMPLES)
    monkeypatch.setattr(stored_inputs, "reload_corpus", _fail)
    monkeypatch.setattr(states, "corpus_side", _fail)
    points, added, diffs = rebuilt_parts(copies, project.corpus, marks_, n_resamples=states.RESAMPLES)
    assert not added and [p.figures for p in points] == [p.figures for p in direct.imports]
    assert diffs == [direct.before_after[0]["fleiss"]]


def test_the_command_line_says_when_it_rebuilds_an_older_projects_states(
        project: Session, tmp_path: Path, capsys) -> None:  # noqa: F811
    from hieradjudicate.cli.entry import main

    _two_reimports_around_a_marker(project, tmp_path)
    project.store.put_arrays(imports.CACHE, {}, {})  # as an older version left it: no state's figures kept
    path = project.path
    project.close()
    assert main(["project", "timeline", str(path), "--by", "import", "--resamples", "50"]) == 0
    assert "rebuilding 2 older state(s)" in capsys.readouterr().err
    assert main(["project", "timeline", str(path), "--by", "import", "--resamples", "50"]) == 0
    assert "rebuilding" not in capsys.readouterr().err  # kept by the first view
