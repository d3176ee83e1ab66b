"""Opening a project weighs the annotators (the suggestion's most reliable set) from the leaf vectors the
instance table's columns already summed per instance: the same reliabilities as a weighing of its own,
the sums let go afterwards, and the progress still told set by set through both halves.  While the window
weighs them in the background, a suggestion gives the majority answer and leaves the most reliable set
unknown (not "none") instead of weighing them itself."""

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

