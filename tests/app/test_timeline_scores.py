"""The timeline's incremental scores take two paths -- a one-tag answer of a set whose leaf vectors are
computed from its tags is scored from its tag, any other answer through its set's leaf vectors -- and
both give the scores from scratch."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.app.timeline.decisions import decision_timeline
from hieradjudicate.app.timeline.scores import IncrementalScores
from tests.app.test_timeline import _scratch_scores, project  # noqa: F401 (the fixture)


def test_one_tag_answers_and_held_leaf_vectors_both_score_as_from_scratch(project: Session) -> None:  # noqa: F811
    c = project.corpus
    sets = [k for k, s in enumerate(c.sets) if s.role != "gold"]
    held = c.get_set("ann")
    _ = held.leaves  # its leaf vectors now held: its answers go through the set
    inc = IncrementalScores(c, sets)
    by_tag = inc.single >= 0
    u = sets.index(c.sets.index(held))
    assert by_tag.any() and not by_tag[inc.j == u].any()  # both paths are taken
    several = [k for k in sets if np.any(np.diff(c.sets[k].tag_ptr) > 1)]
    for k in several:  # a row of several tags is never scored from one tag
        pos = sets.index(k)
        rows = inc.row[inc.j == pos]
        assert not by_tag[inc.j == pos][np.diff(c.sets[k].tag_ptr)[rows] > 1].any()
    tl = decision_timeline(c, project.store.iter_history(), n_resamples=0)
    for p in tl.points:
        want = _scratch_scores(project, p.label)
        assert set(want) == set(p.scores)
        for name, v in want.items():
            assert p.scores[name].value == pytest.approx(v, abs=1e-12)
