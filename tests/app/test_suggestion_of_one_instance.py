"""The suggestion of the instance shown reads its sets' leaf vectors in one computation
(``Corpus.leaves_of``): the same figures as the pass over many instances, which reads them set by set."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.instance_answers import answer_groups
from hieradjudicate.app.workbench.suggest import Suggester
from hieradjudicate.core.model import Corpus
from tests.app.test_batch import corpus as small_corpus
from tests.conftest import skip_without_realdata
from tests.crowd import crowd_project

FIELDS = ("instance", "tags", "support", "votes", "of", "sets", "majority", "reliable_tags", "reliable_set")


def _instances(c: Corpus, n: int) -> np.ndarray:
    return np.unique(np.linspace(0, c.n - 1, min(n, c.n)).astype(np.int64))


def _check(c: Corpus, instances: np.ndarray) -> int:
    """Every instance: the one-instance suggestion equals the many-instance pass's, field by field,
    and the leaf vectors read at once equal those read set by set; returns how many were compared."""
    sg = Suggester(c)
    many = sg.suggest(instances)  # more than four instances: each set's rows read on their own
    compared = 0
    for j, i in enumerate(many.instances.tolist()):
        one, ref = sg.one(i), many.item(j)
        assert (one is None) == (ref is None), i
        if ref is None:
            continue
        for f in FIELDS:
            assert getattr(one, f) == getattr(ref, f), (i, f)
        assert np.array_equal(one.reliability, ref.reliability, equal_nan=True)
        hits = c.answered(i)
        sets, rows = list(hits), [np.array([r]) for r in hits.values()]
        for k, got, r in zip(sets, c.leaves_of(sets, rows), rows):
            assert np.array_equal(got, c.sets[k].leaves_rows(r)), (i, k)
        nl = int(c.inventory.n_leaves[int(c.inst_lexelt[i])])
        for g in answer_groups(c, i, sets):
            first = c.sets[g.set_indices[0]]
            assert np.array_equal(g.leaves, first.leaves_rows(np.array([hits[g.set_indices[0]]]))[0, :nl]), i
        compared += 1
    return compared


def test_a_small_crowds_suggestions_are_the_same_read_at_once(tmp_path: Path) -> None:
    path = crowd_project(tmp_path / "c.hadj", 30, per_item=9)
    s = Session.open(path)
    try:
        c = s.corpus
        assert _check(c, _instances(c, 80)) > 60
    finally:
        s.close()


def test_sets_with_several_tags_a_row_give_the_same_suggestions_read_at_once() -> None:
    c = small_corpus()
    assert _check(c, np.arange(c.n)) >= 5


@pytest.fixture(scope="module")
def masc() -> Corpus:
    d = skip_without_realdata("masc_amt") / "masc_amt"
    from hieradjudicate.app.loading.load import load
    from hieradjudicate.app.loading.specs import AnnotationSpec

    return load([str(d / "inventory_tree.tsv")], [AnnotationSpec(str(d / "masc_amt_labels_wide.tsv.gz"))]).corpus


def test_masc_suggestions_are_the_same_read_at_once(masc: Corpus) -> None:
    assert _check(masc, _instances(masc, 60)) == 60


def _check_few(c: Corpus, instances: np.ndarray) -> int:
    """Two to four instances asked at once (the path of the instance shown, summed over several
    instances in one block) give the many-instance pass's suggestions, field by field."""
    sg = Suggester(c)
    many = sg.suggest(instances)
    at = {i: j for j, i in enumerate(many.instances.tolist())}
    compared = 0
    for size in (2, 3, 4):
        for start in range(0, instances.size - size + 1, size):
            few = sg.suggest(instances[start:start + size])
            assert few.instances.size == size
            for j, i in enumerate(few.instances.tolist()):
                got, ref = few.item(j), many.item(at[i])
                assert (got is None) == (ref is None), i
                if ref is None:
                    continue
                for f in FIELDS:
                    assert getattr(got, f) == getattr(ref, f), (i, f, size)
                compared += 1
    return compared


def test_a_few_instances_at_once_give_the_same_suggestions(tmp_path: Path) -> None:
    path = crowd_project(tmp_path / "c.hadj", 30, per_item=9)
    s = Session.open(path)
    try:
        assert _check_few(s.corpus, _instances(s.corpus, 40)) > 60
    finally:
        s.close()
    c = small_corpus()
    assert _check_few(c, np.arange(c.n)) >= 5


def test_masc_suggestions_of_a_few_instances_at_once_are_the_same(masc: Corpus) -> None:
    assert _check_few(masc, _instances(masc, 48)) > 100
