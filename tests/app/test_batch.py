"""Batch decisions: accept agreed (identical / compatible chain), accept a set; one undo step."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hieradjudicate.app.session.batch import accept_agreed, accept_set, agreement
from hieradjudicate.app.session.commands import CommandStack, Decide
from hieradjudicate.app.session.decisions import Decision, DecisionState
from hieradjudicate.io.store.project_store import Store
from tests.core.helpers import annotation_source, build

# Figure 1: A (A.1 (A.1a, A.1b), A.2), B (B.1, B.2, B.3)
EXAMPLE = {
    "i1": (["A.1a"], ["A.1a"], ["A.1"]),  # nested: A.1a < A.1
    "i2": (["A"], ["A.2"], ["A.2"]),  # nested
    "i3": (["B.2"], ["B"], ["B.2", "B.3"]),  # chain B.2 < {B.2,B.3} < B
    "i4": (["B.1"], ["A.1b"], ["B.1"]),  # disjoint
    "i5": (["A.1a", "B.2"], ["A.1a"], ["A.1a"]),  # nested
    "i6": (["B.3"], ["B.3"], ["B"]),  # nested
    "i7": (["B.1"], ["B.1"], ["B.1"]),  # identical
    "i8": (["A.2", "A.1a"], ["A.1a", "A.2"], None),  # identical set, r3 missing
    "i9": (["B.2"], None, None),  # one annotator only
    "i10": (["A.1a"], ["A.1b"], ["A.1"]),  # not a chain: A.1a, A.1b both under A.1
}


def corpus(example=EXAMPLE):
    rows = []
    for inst, answers in example.items():
        for r, tags in zip(("r1", "r2", "r3"), answers, strict=True):
            if tags is not None:
                rows.append(("x.n", inst, r, [(t, None) for t in tags]))
    sys_rows = [("x.n", inst, "sys", [("B", None)]) for inst in example]
    return build([annotation_source(rows), annotation_source(sys_rows, path="sys.ans")],
                 roles={"r1": "annotator", "r2": "annotator", "r3": "annotator", "sys": "system"})


@pytest.fixture
def state(tmp_path: Path):
    store = Store.create(tmp_path / "p.hadj")
    yield DecisionState(store)
    store.close()


def picked(c, agr) -> dict[str, str]:
    return {c.inst_id[i]: c.sets[k].name for i, k in zip(agr.instances, agr.chosen, strict=True)}


def test_identical_needs_two_annotators_and_ignores_systems() -> None:
    c = corpus()
    agr = agreement(c)
    assert sorted(picked(c, agr)) == ["i7", "i8"]  # i9: one annotator only; sys disagrees
    assert agr.n_annotators.tolist() == [3, 2]
    assert sorted(c.inst_id[i] for i in agreement(c, min_annotators=1).instances) == \
        ["i7", "i8", "i9"]


def test_compatible_chain_most_and_least_specific() -> None:
    c = corpus()
    most = picked(c, agreement(c, compatible=True, specific="most"))
    least = picked(c, agreement(c, compatible=True, specific="least"))
    assert sorted(most) == sorted(least) == ["i1", "i2", "i3", "i5", "i6", "i7", "i8"]
    assert most["i1"] == "r1" and least["i1"] == "r3"  # A.1a vs A.1
    assert most["i3"] == "r1" and least["i3"] == "r2"  # B.2 vs B
    assert most["i5"] == "r2" and least["i5"] == "r1"  # A.1a vs {A.1a, B.2}
    with pytest.raises(ValueError):
        agreement(c, compatible=True, specific="medium")


def _chain_brute(regions: list[np.ndarray]) -> bool:
    return all(not (a & ~b).any() or not (b & ~a).any()
               for a, b in itertools.combinations(regions, 2))


LEAF_TAGS = ["A.1a", "A.1b", "A.2", "B.1", "B.2", "B.3", "A.1", "A", "B"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.lists(st.sampled_from(LEAF_TAGS), min_size=1, max_size=3)
                         | st.none(), min_size=4, max_size=4), min_size=1, max_size=12))
def test_chain_test_matches_pairwise_nesting(answers) -> None:
    rows = []
    for n, per in enumerate(answers):
        for r, tags in enumerate(per):
            if tags is not None:
                rows.append(("x.n", f"i{n}", f"r{r}", [(t, None) for t in tags]))
    assume(rows)  # every answer None: no instance, nothing to check (hypothesis draws another)
    c = build([annotation_source(rows)])
    agr = agreement(c, compatible=True)
    got = set(agr.instances.tolist())
    for i in range(c.n):
        regions = []
        for s in c.sets:
            r = int(s.position(np.asarray([i]))[0])
            if r >= 0:
                regions.append(s.leaves[r] > 0)
        assert (i in got) == (len(regions) >= 2 and _chain_brute(regions)), i
    for i, k in zip(agr.instances.tolist(), agr.chosen.tolist(), strict=True):
        s = c.sets[k]
        size = (s.leaves[int(s.position(np.asarray([i]))[0])] > 0).sum()
        others = [(x.leaves[int(x.position(np.asarray([i]))[0])] > 0).sum()
                  for x in c.sets if x.position(np.asarray([i]))[0] >= 0]
        assert size == min(others)


def test_accept_agreed_is_one_undoable_batch_on_unresolved_only(state: DecisionState) -> None:
    c = corpus()
    stack = CommandStack(state)
    stack.execute(Decide([Decision("x.n", "i7", ("B",), note="mine")]))
    cmd = accept_agreed(c, state, compatible=True, specific="most")
    assert isinstance(cmd, Decide) and cmd.skipped == {"already decided": 1}
    rows = stack.execute(cmd)
    assert len(rows) == 6 and {r.source for r in rows} == {"auto-agreement"}
    assert state.current("x.n", "i7").note == "mine"  # a decided instance is not touched
    cur = state.current("x.n", "i3")
    assert cur.tags == ("B.2",) and cur.basis == {
        "rule": "compatible", "specific": "most",
        "sets": {"r1": ["B.2"], "r2": ["B"], "r3": ["B.2", "B.3"]}}
    assert state.current("x.n", "i8").basis["rule"] == "identical"  # identical wins over nested
    assert len(state.store.batches()) == 1
    stack.undo()  # the whole batch at once
    assert len(state) == 1 and state.current("x.n", "i7").tags == ("B",)


def test_identical_basis_names_the_sets(state: DecisionState) -> None:
    c = corpus()
    cmd = accept_agreed(c, state)
    CommandStack(state).execute(cmd)
    assert state.current("x.n", "i8").basis == {"rule": "identical", "sets": ["r1", "r2"],
                                                "tags": ["A.2", "A.1a"]}
    assert state.current("x.n", "i8").tags == ("A.2", "A.1a")


def test_accept_set_selection(state: DecisionState) -> None:
    c = corpus()
    stack = CommandStack(state)
    stack.execute(Decide([Decision("x.n", "i1", ("A",))]))
    mask = np.isin(np.asarray(c.inst_id), ["i1", "i2", "i8", "i9"])
    cmd = accept_set(c, state, "r3", mask)
    assert cmd.skipped == {"not answered by the set": 2, "already decided": 1}
    rows = stack.execute(cmd)
    assert [(r.instance, r.tags, r.source) for r in rows] == [("i2", ("A.2",), "set:r3")]
    assert rows[0].basis == {"set": "r3", "tags": ["A.2"]}
    rows = stack.execute(accept_set(c, state, "r3", [c.instance_index("x.n", "i1")],
                                    overwrite=True))
    assert state.current("x.n", "i1").tags == ("A.1",)
    stack.undo()
    assert state.current("x.n", "i1").tags == ("A",)
    with pytest.raises(KeyError, match="r1, r2, r3"):
        accept_set(c, state, "nobody")
    with pytest.raises(ValueError):
        accept_set(c, state, "r1", np.ones(3, bool))
