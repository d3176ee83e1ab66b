"""Who answered one instance (#23.1), the search, Go to instance and the suggestion's warnings (#23.4)."""

from __future__ import annotations

import gzip
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.goto import find_instance
from hieradjudicate.app.workbench.instance_answers import MAX_BARS, top_leaves
from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.core.inventory.labels import is_none_sense
from tests.conftest import skip_without_realdata
from tests.crowd import crowd_project


@pytest.fixture(scope="module")
def crowd(tmp_path_factory) -> Workbench:
    path = crowd_project(tmp_path_factory.mktemp("c") / "c.hadj", 60, per_item=9)
    s = Session.open(path)
    yield Workbench(s.corpus, list(s.decisions))
    s.close()


def _raw_crowd_labels(path: Path) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """The wide table as written: (lexelt, instance) -> [(worker, sense)], read without the program."""
    out = {}
    for line in path.read_text().splitlines()[1:]:
        word, form, sent, labels = line.split("\t")
        out[(word, sent)] = [tuple(x.split(":")) for x in labels.split(",")]  # one form: the sentence id
    return out


def test_groups_are_the_sets_that_answered_this_instance(crowd: Workbench) -> None:
    wb = crowd
    assert wb.crowd and len(wb.corpus.sets) == 60
    for i in (0, 7, 100, wb.corpus.n - 1):
        groups = wb.answer_groups(i)
        answered = {wb.corpus.sets[k].name for k in wb.corpus.answered(i)}
        voters = [n for g in groups for n in g.names]
        assert sorted(voters) == sorted(answered)  # every voter answered; nobody twice; nobody missing
        assert 1 <= len(answered) <= 9
        votes = [g.votes for g in groups]
        assert votes == sorted(votes, reverse=True)  # most votes first
        # keys 1..n take the listed answers, never an absent set
        for k in range(1, 10):
            a = wb.answer_of_key(i, k)
            if k <= len(groups):
                assert a is not None and tuple(a.tags) == groups[k - 1].tags
            else:
                assert a is None


def test_crowd_groups_match_the_raw_file(tmp_path: Path) -> None:
    path = crowd_project(tmp_path / "c.hadj", 30, per_item=7, seed=3)
    raw = _raw_crowd_labels(path.with_suffix(".tsv"))
    s = Session.open(path)
    try:
        wb = Workbench(s.corpus, [])
        for (lex, inst), labels in list(raw.items())[:25]:
            i = s.corpus.instance_index(lex, inst)
            assert i >= 0
            want = Counter(sense for _, sense in labels)
            got = {g.tags: g.votes for g in wb.answer_groups(i)}
            assert {t[0]: v for t, v in got.items()} == dict(want)
            lv = wb.leaf_votes(i)
            assert lv.voters == len(labels)
            assert lv.votes.sum() == pytest.approx(len(labels))  # one vote per worker
            assert np.isnan(lv.posterior).all()  # no estimate yet: no posterior shown
    finally:
        s.close()


def test_posterior_is_the_competence_models(crowd: Workbench) -> None:
    from hieradjudicate.app.dashboard.competence import estimate

    comp = estimate(crowd.corpus)
    crowd.set_competence(comp)
    try:
        for i in (0, 5, 50):
            lv = crowd.leaf_votes(i)
            nl = lv.votes.size
            np.testing.assert_allclose(lv.posterior, comp.posterior[i, :nl], rtol=1e-6)
            assert lv.posterior.sum() == pytest.approx(1.0, abs=1e-5)
            # the most probable leaf is the one the estimate names
            inv = crowd.corpus.inventory
            leaves = inv.lexelt_leaf_nodes[int(crowd.cols.lexelt[i])]
            assert int(leaves[int(np.argmax(lv.posterior))]) == int(comp.best_node[i])
            # voters of a group, most competent first
            rank = dict(zip(comp.set_indices, comp.competence))
            for g in crowd.answer_groups(i):
                c = [rank[k] for k in g.set_indices]
                assert c == sorted(c, reverse=True)
    finally:
        crowd.competence = None


def test_top_leaves_keeps_gold_and_the_largest() -> None:
    P = np.zeros((49, 2))
    P[[3, 10, 40], 0] = [0.5, 0.3, 0.2]
    gold = np.zeros(49, bool)
    gold[45] = True
    keep, rest = top_leaves(P, gold)
    assert keep.tolist()[:1] == [45] and set(keep.tolist()) == {3, 10, 40, 45}
    assert sorted(keep.tolist() + rest.tolist()) == list(range(49))
    few = np.ones((MAX_BARS, 1))
    assert top_leaves(few, np.zeros(MAX_BARS, bool))[0].tolist() == list(range(MAX_BARS))


def test_search_finds_the_lexelt_as_the_table_shows_it(crowd: Workbench) -> None:
    name = crowd.cols.lexelt_names[0]
    view = crowd.set_filter(text=name)
    try:
        want = np.flatnonzero(crowd.cols.lexelt == 0)
        assert sorted(view.tolist()) == want.tolist() and want.size == 40
    finally:
        crowd.set_filter(text="")


def test_go_to_instance_forms(crowd: Workbench) -> None:
    lex, inst = crowd.key_of(17)
    assert find_instance(crowd, f"{lex} {inst}") == (17, "")
    assert find_instance(crowd, f"{lex}/{inst}") == (17, "")
    i, why = find_instance(crowd, inst)  # "18" exists in every lexelt: refused, with the remedy
    assert i == -1 and "type the lexelt too" in why
    i, why = find_instance(crowd, "nowhere 9.9")
    assert i == -1 and "No instance" in why


def test_none_of_these_glosses() -> None:
    assert is_none_sense("not clear / none of the above (SenseId 0)")
    assert is_none_sense("None of these")
    assert not is_none_sense("a row or tier of similar objects")
    assert not is_none_sense("")


def test_masc_work_n_1_1_shows_its_25_workers() -> None:
    d = skip_without_realdata("masc_amt") / "masc_amt"
    with gzip.open(d / "masc_amt_labels_wide.tsv.gz", "rt") as f:
        line = next(ln for ln in f if ln.startswith("work-n\t1\t1\t"))
    labels = [tuple(x.split(":")) for x in line.split("\t")[3].strip().split(",")]
    from hieradjudicate.app.loading.load import load
    from hieradjudicate.app.loading.specs import AnnotationSpec

    res = load([str(d / "inventory_tree.tsv")], [AnnotationSpec(str(d / "masc_amt_labels_wide.tsv.gz"))])
    wb = Workbench(res.corpus, [])
    i = res.corpus.instance_index("work-n", "1.1")
    groups = wb.answer_groups(i)
    assert sum(g.votes for g in groups) == len(labels) == 25
    assert sorted(n for g in groups for n in g.names) == sorted(w for w, _ in labels)
    assert [(g.tags, g.votes) for g in groups] == [((s,), c) for s, c in Counter(s for _, s in labels).most_common()]
    # key 2 takes the second answer listed (sense 3, five workers), not the project's second worker
    assert wb.answer_of_key(i, 2).tags == ["3"]
    s = wb.suggestion(i)
    assert s.tags == ("1",) and not s.tied and not s.none_of_these
    # an instance whose majority is "0" (not clear / none of these) says so
    # MASC's sense 0 reads "none (0)"
    zero = next(j for j in range(res.corpus.n) if str(wb.cols.crowd[j]).startswith("none (0) ×"))
    sz = wb.suggestion(zero)
    assert sz.tags == ("0",) and sz.none_of_these == ("0",)


def test_kept_suggestions_and_answers_follow_the_estimate_and_the_weighing(tmp_path: Path) -> None:
    """The workbench keeps the suggestion and the answers of the instance shown and of the one the
    window prepares next; asked in any order, before and after the annotators are weighed and an
    estimate arrives, each equals what a fresh workbench computes in the same state."""
    from hieradjudicate.app.dashboard.competence import estimate

    path = crowd_project(tmp_path / "c.hadj", 30, per_item=7, seed=5)
    s = Session.open(path)
    try:
        wb = Workbench(s.corpus, [])
        order = [3, 4, 3, 9, 4, 3, 0]

        def fresh(comp=None, weighed=False) -> Workbench:
            other = Workbench(s.corpus, [])
            if weighed:
                other.warm_suggestions()
            if comp is not None:
                other.set_competence(comp)
            return other

        def same(a, b) -> None:
            assert (a is None) == (b is None)
            if a is not None:
                assert a == b

        wb.start_weighing()  # the window's opening: the suggestions do not weigh while it runs
        before = [wb.suggestion(i) for i in order]
        assert all(s_.weighing for s_ in before if s_ is not None)
        wb.warm_suggestions()
        wb.weighed()
        ref = fresh(weighed=True)
        for i in order:
            same(wb.suggestion(i), ref.suggestion(i))
            assert not wb.suggestion(i).weighing
        comp = estimate(s.corpus)
        wb.set_competence(comp)
        ref = fresh(comp, weighed=True)
        for i in order:
            same(wb.suggestion(i), ref.suggestion(i))
            assert wb.suggestion(i).weighted  # the estimate's answer, not the one kept from before it
            assert [(g.tags, g.set_indices) for g in wb.answer_groups(i)] == \
                [(g.tags, g.set_indices) for g in ref.answer_groups(i)]
    finally:
        s.close()
