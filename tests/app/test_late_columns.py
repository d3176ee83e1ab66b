"""A crowd's late columns (category, leaf agreement, answers), computed after the window is shown
(``compute_columns(late=True)``), say "computing…" until then and equal the columns computed at once;
the sets that answered an instance are the same before the index of every instance's sets is made."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.queue import Workbench
from tests.crowd import crowd_project


def test_late_columns_say_computing_until_finished_then_equal_the_columns_computed_at_once(tmp_path: Path) -> None:
    s = Session.open(crowd_project(tmp_path / "c.hadj", 30, per_item=9))
    try:
        now = Workbench(s.corpus, s.decisions.rows())
        late = Workbench(s.corpus, s.decisions.rows(), late=True)
        assert now.cols.ready and not late.cols.ready
        assert {late.cell(k, 0) for k in ("category", "agreement", "answers")} == {"computing…"}
        assert late.remaining_categories() == {}  # not "none left"
        told: list[tuple[int, int]] = []
        assert late.cols.finish(lambda done, total, _what: told.append((done, total)))
        assert late.cols.ready and not late.cols.finish()  # once
        assert len(told) >= 30 and told[-1][0] <= told[-1][1]
        assert np.array_equal(late.cols.category, now.cols.category)
        assert np.array_equal(late.cols.agreement, now.cols.agreement, equal_nan=True)
        assert list(late.cols.crowd) == list(now.cols.crowd)
        assert [late.cell("category", i) for i in range(s.corpus.n)] == [now.cell("category", i)
                                                                         for i in range(s.corpus.n)]
        assert late.remaining_categories() == now.remaining_categories() != {}
    finally:
        s.close()


def test_reading_a_late_column_computes_it_when_nobody_did(tmp_path: Path) -> None:
    s = Session.open(crowd_project(tmp_path / "c.hadj", 30, per_item=9))
    try:
        late = Workbench(s.corpus, s.decisions.rows(), late=True)
        assert not late.cols.ready
        assert late.set_filter(categories=(3,)).size == int((late.cols.category == 3).sum())
        assert late.cols.ready
    finally:
        s.close()


def test_the_sets_that_answered_an_instance_are_the_same_before_and_after_the_index_is_made(tmp_path: Path) -> None:
    s = Session.open(crowd_project(tmp_path / "c.hadj", 30, per_item=9))
    try:
        c = s.corpus
        assert "_answered" not in c.__dict__
        searched = [c.answered(i) for i in range(c.n)]  # one search per set: the index is not made
        assert "_answered" not in c.__dict__
        c.answer_index()
        indexed = [c.answered(i) for i in range(c.n)]
        assert searched == indexed and sum(map(len, indexed)) == sum(st.rows.size for st in c.sets)
    finally:
        s.close()
