"""Opening a project weighs the annotators (the suggestion's most reliable set) from the leaf vectors the
instance table's columns already summed per instance: the same reliabilities as a weighing of its own,
the sums let go afterwards, and the progress still told set by set through both halves."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.app.workbench.suggest import Suggester
from tests.crowd import crowd_project


def test_the_weighing_reuses_the_columns_sums_with_the_same_reliabilities(tmp_path: Path) -> None:
    s = Session.open(crowd_project(tmp_path / "c.hadj", 30, per_item=9))
    try:
        wb = Workbench(s.corpus, s.decisions.rows())
        sums, count = wb.cols.leaf_sums
        assert sums.shape == (s.corpus.n, max(s.corpus.inventory.K, 1)) and count.sum() > 0
        told: list[tuple[int, int]] = []
        wb.warm_suggestions(lambda done, total, _what: told.append((done, total)))
        assert wb.cols.leaf_sums is None  # not held once read
        alone = Suggester(s.corpus, wb.cols.annotators)  # weighs the annotators on its own
        assert np.isfinite(alone.reliability).sum() >= 20
        for i in range(s.corpus.n):  # the most reliable set's answer, as the workbench offers it
            got, want = wb.suggestion(i), alone.one(i)
            assert (got is None) == (want is None), i
            if got is not None:
                assert (got.reliable, got.reliable_set) == (want.reliable_tags, want.reliable_set), i
        assert len({wb.suggestion(i).reliable_set for i in range(s.corpus.n)} - {""}) > 1
        R = len(wb.cols.annotators)
        assert [d for d, _ in told] == list(range(1, 2 * R + 1)) and {t for _, t in told} == {2 * R}
    finally:
        s.close()


def test_a_suggestion_asked_while_the_annotators_are_weighed_elsewhere_leaves_the_reliable_set_unknown(
        tmp_path: Path) -> None:
    s = Session.open(crowd_project(tmp_path / "c.hadj", 30, per_item=9))
    try:
        wb = Workbench(s.corpus, s.decisions.rows())
        alone = Suggester(s.corpus, wb.cols.annotators)
        wb.start_weighing()  # the window's background weighing has not ended yet
        assert wb.weighing
        early = [wb.suggestion(i) for i in range(s.corpus.n)]
        assert not wb._suggester.weighed  # nothing weighed by the suggestions themselves
        for i, got in enumerate(early):
            want = alone.one(i)
            assert (got is None) == (want is None), i
            if got is not None:  # the majority answer as ever; the most reliable set not guessed
                assert (got.tags, got.support, got.of) == (want.tags, want.votes, want.of), i
                assert got.weighing and got.reliable == () and got.reliable_set == "", i
        wb.warm_suggestions()
        wb.weighed()
        after = [wb.suggestion(i) for i in range(s.corpus.n)]
        assert any(a is not None for a in after)
        for i, got in enumerate(after):
            if got is not None:
                want = alone.one(i)
                assert not got.weighing and (got.reliable, got.reliable_set) == (want.reliable_tags,
                                                                                 want.reliable_set), i
    finally:
        s.close()


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
