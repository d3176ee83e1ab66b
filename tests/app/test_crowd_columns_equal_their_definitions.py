"""A crowd's late columns equal their definitions: the worst category is ``worst_category`` of every
answer's whole support (the columns compare only each instance's distinct answers, packed), and the
answers column counts each instance's tags, the most frequent first."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.columns import IDENTICAL, NO_PAIR, crowd_summaries, group_category
from hieradjudicate.core.agreement.granularity import DISJOINT, worst_category
from hieradjudicate.core.inventory.labels import node_short_labels
from tests.crowd import crowd_project


def test_a_crowds_worst_category_equals_worst_category_of_every_answers_support(tmp_path: Path) -> None:
    s = Session.open(crowd_project(tmp_path / "c.hadj", 30, per_item=9, seed=3))
    try:
        corpus = s.corpus
        raters = [k for k, st in enumerate(corpus.sets) if st.role == "annotator"]
        assert len(raters) > 12  # the crowd's path
        sets = [corpus.sets[k] for k in raters]
        expected = worst_category(np.concatenate([st.rows for st in sets]),
                                  np.concatenate([st.signature for st in sets]),
                                  np.concatenate([st.leaves_once() > 0 for st in sets]), corpus.n)
        worst, _agreement, m = group_category(corpus, raters)
        assert np.array_equal(worst, expected)
        # instances whose answers are all the same (identical, from one distinct answer) and some that differ
        assert np.count_nonzero((worst == IDENTICAL) & (m >= 2)) > 0
        assert np.count_nonzero(worst == DISJOINT) > 0
        assert np.all((worst == NO_PAIR) == (m < 2))
    finally:
        s.close()


def test_a_crowds_answers_column_counts_each_instances_tags_most_frequent_first(tmp_path: Path) -> None:
    s = Session.open(crowd_project(tmp_path / "c.hadj", 30, per_item=9, seed=4))
    try:
        corpus = s.corpus
        raters = [k for k, st in enumerate(corpus.sets) if st.role == "annotator"]
        ids = node_short_labels(corpus.inventory)
        counts: list[Counter] = [Counter() for _ in range(corpus.n)]
        for k in raters:
            st = corpus.sets[k]
            for r, i in enumerate(st.rows.tolist()):
                counts[i].update(st.tags_at(r).tolist())
        expected = [", ".join(f"{ids[t]} ×{c}" for t, c in sorted(cnt.items(), key=lambda tc: (-tc[1], tc[0])))
                    for cnt in counts]
        got = crowd_summaries(corpus, raters).tolist()
        assert any("," in text for text in got)  # instances with more than one answer
        assert got == expected
    finally:
        s.close()
