"""Named steps of opening a project and of the dashboard's figures, told to a plain callback (#23 point 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hieradjudicate.app.dashboard.dashboard import COMPUTE_STEPS, Dashboard
from hieradjudicate.app.demo import ensure_demo_project
from hieradjudicate.app.progress import UNITS, Steps
from hieradjudicate.app.session.session import Session


def test_steps_fill_their_slots_in_order() -> None:
    told: list[tuple[int, int, str]] = []
    steps = Steps(lambda d, t, w: told.append((d, t, w)), 6)
    steps.step("one")
    inner = steps.part(2)  # code that numbers its own steps
    inner(0, 4, "a")
    inner(2, 4, "b")
    inner(4, 4, "c")
    within = steps.step("two", 2)
    within(1, 2, "half")
    steps.skip_to(5)
    steps.step("last")
    steps.finish()
    assert told == [(0, 600, "one"), (100, 600, "a"), (200, 600, "b"), (300, 600, "c"), (300, 600, "two"),
                    (400, 600, "two: half"), (500, 600, "last"), (600, 600, "Ready")]
    assert UNITS == 100


def test_a_raising_callback_stops_the_job(tmp_path: Path) -> None:
    """A cancellation raised by the callback goes through: the store is closed, nothing half open."""
    path = ensure_demo_project(tmp_path / "demo.hadj")

    class Stop(Exception):
        pass

    def stop(_d, _t, what):
        if what.startswith("Laying out"):
            raise Stop

    with pytest.raises(Stop):
        Session.open(path, progress=stop)
    with Session.open(path) as s:  # not left locked or half open
        assert not s.read_only


def _open_steps(path: Path) -> tuple[list[tuple[int, int, str]], bool]:
    told: list[tuple[int, int, str]] = []
    with Session.open(path, progress=lambda d, t, w: told.append((d, t, w))) as s:
        return told, s.from_cache


def test_session_open_names_its_steps_from_the_cache_and_when_reading_again(tmp_path: Path) -> None:
    path = ensure_demo_project(tmp_path / "demo.hadj")
    with Session.open(path) as s:
        n_ctx, answers = len(s.corpus.contexts), sum(int(x.tag_node.size) for x in s.corpus.sets)
        sets = len(s.corpus.sets)
    told, cached = _open_steps(path)
    assert cached
    names = [w for _d, _t, w in told]
    firsts = [w for k, w in enumerate(names) if k == 0 or names[k - 1] != w]
    assert firsts == ["Opening the project file", "Reading the stored corpus", "Reading the sense inventory",
                      f"Laying out {answers:,} answers of {sets} sets", f"Reading {n_ctx:,} contexts",
                      "Reading the decisions"]
    done = [d for d, _t, _w in told]
    assert done == sorted(done) and {t for _d, t, _w in told} == {Session.OPEN_SLOTS * UNITS}
    assert done[-1] == (Session.OPEN_SLOTS - 1) * UNITS  # the last slot is the decisions' (the caller goes on)

    with Session.open(path) as s:
        s.store.conn.execute("DELETE FROM arrays")  # no cache: the stored copies are read again
    told, cached = _open_steps(path)
    assert not cached
    names = [w for _d, _t, w in told]
    assert names[:2] == ["Opening the project file", "Reading the stored corpus"]
    again = [w for w in names if w.startswith("Reading the stored files again: ")]
    assert "Reading the stored files again: Reading inventory.txt" in again and len(again) >= 3
    assert names[-1] == "Reading the decisions"
    done = [d for d, _t, _w in told]
    assert done == sorted(done) and done[-1] == (Session.OPEN_SLOTS - 1) * UNITS


def test_dashboard_compute_names_each_figure(tmp_path: Path) -> None:
    path = ensure_demo_project(tmp_path / "demo.hadj")
    with Session.open(path) as s:
        dash = Dashboard(s.corpus)
        told: list[tuple[int, int, str]] = []
        dash.compute(progress=lambda d, t, w: told.append((d, t, w)))
    names = [w for _d, _t, w in told]
    assert names == [COMPUTE_STEPS[0].format(sets=f"{len(dash.group)} sets"), *COMPUTE_STEPS[1:5],
                     COMPUTE_STEPS[7], "Figures computed"]  # no decisions yet: no gold, no scores
    done = [d for d, _t, _w in told]
    assert done == sorted(done) and done[-1] == told[-1][1]
