"""The workbench view-model without Qt: columns, filters, sort, navigation, live figures."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.app.workbench.columns import COMPATIBLE, DISJOINT, IDENTICAL, OVERLAPPING
from hieradjudicate.app.workbench.live import agreement_figures, set_scores
from hieradjudicate.app.workbench.queue import RESOLVED, UNRESOLVED, Filter, Workbench
from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.io.store.project_store import DecisionRow
from tests.core.helpers import annotation_source, build

# metrics.md worked example (three annotators) plus a system
EXAMPLE = {
    "i1": (["A.1a"], ["A.1a"], ["A.1"]),
    "i2": (["A"], ["A.2"], ["A.2"]),
    "i3": (["B.2"], ["B"], ["B.2", "B.3"]),
    "i4": (["B.1"], ["A.1b"], ["B.1"]),
    "i5": (["A.1a", "B.2"], ["A.1a"], ["A.1a"]),
    "i6": (["B.3"], ["B.3"], ["B"]),
    "i7": (["B.1"], ["B.1"], ["B.1"]),
}


def corpus():
    rows = []
    for inst, answers in EXAMPLE.items():
        for r, tags in zip(("r1", "r2", "r3"), answers):
            rows.append(("x.n", inst, r, [(t, None) for t in tags]))
    sys_rows = [("x.n", inst, "sys", [(answers[0][0], None)]) for inst, answers in EXAMPLE.items()]
    return build([annotation_source(rows), annotation_source(sys_rows, path="sys.ans")],
                 roles={"r1": "annotator", "r2": "annotator", "r3": "annotator", "sys": "system"})


def row(inst: str, tags: tuple[str, ...], status: str = "resolved", k: int = 1) -> DecisionRow:
    return DecisionRow(k, "x.n", inst, tags, "manual", status, "", "me", "2026-01-01T00:00:00Z")


@pytest.fixture
def wb() -> Workbench:
    return Workbench(corpus())


def idx(wb: Workbench, inst: str) -> int:
    return wb.corpus.instance_index("x.n", inst)


def test_categories_worst_pair(wb: Workbench) -> None:
    cat = {inst: int(wb.cols.category[idx(wb, inst)]) for inst in EXAMPLE}
    assert cat == {"i1": COMPATIBLE, "i2": COMPATIBLE, "i3": COMPATIBLE, "i4": DISJOINT,
                   "i5": COMPATIBLE, "i6": COMPATIBLE, "i7": IDENTICAL}
    # i1: pairs agree 1, 1/2, 1/2 -> mean 2/3
    assert wb.cols.agreement[idx(wb, "i1")] == pytest.approx(2 / 3)
    assert wb.cell("kwic", 0) == ""
    assert wb.cell("set:0", idx(wb, "i5")) == "A.1a B.2"


def test_filters_are_index_arrays(wb: Workbench) -> None:
    v = wb.set_filter(categories=(DISJOINT, OVERLAPPING))
    assert sorted(wb.cols.inst_id[v]) == ["i4"]
    v = wb.set_filter(categories=(COMPATIBLE,), lexelts=(0,))
    assert sorted(wb.cols.inst_id[v]) == ["i1", "i2", "i3", "i5", "i6"]
    wb.set_filter(Filter())
    v = wb.set_filter(Filter(text="b.3"))
    assert sorted(wb.cols.inst_id[v]) == ["i3", "i6"]
    v = wb.set_filter(Filter(pair=(0, 1)))  # r1 vs r2 disagree
    assert sorted(wb.cols.inst_id[v]) == ["i2", "i3", "i4", "i5"]
    v = wb.set_filter(Filter(pair=(0, 1), categories=(DISJOINT,)))
    assert list(wb.cols.inst_id[v]) == ["i4"]
    wb.apply_rows([row("i4", ("B.1",))])
    v = wb.set_filter(Filter(statuses=(UNRESOLVED,)))
    assert "i4" not in set(wb.cols.inst_id[v]) and v.size == 6
    assert wb.set_filter(Filter()).size == 7


def test_sort_and_navigation(wb: Workbench) -> None:
    v = wb.set_sort("category", descending=True)
    assert wb.cols.category[v[0]] == DISJOINT
    assert (np.diff(wb.cols.category[v].astype(int)) <= 0).all()
    wb.set_sort("instance")
    assert list(wb.cols.inst_id[wb.view]) == sorted(EXAMPLE)
    wb.apply_rows([row("i2", ("A.2",)), row("i3", ("B.2",), k=2)])
    assert wb.next_unresolved(0) == 3  # i2, i3 decided
    assert wb.next_unresolved(3, -1) == 0
    assert wb.next_unresolved(6) == -1
    wb.apply_rows([DecisionRow(3, "x.n", "i2", (), "undo", "unresolved", "", "me", "t")])
    assert wb.status[idx(wb, "i2")] == UNRESOLVED and wb.gold[idx(wb, "i2")] == ""


def test_suggestion_and_answers(wb: Workbench) -> None:
    s = wb.suggestion(idx(wb, "i2"))
    assert s.tags == ("A.2",) and s.support == 2 and s.of == 3
    a = wb.answer_of_key(idx(wb, "i3"), 3)
    assert a.tags == ["B.2", "B.3"] and a.leaves.sum() == pytest.approx(1)
    assert wb.answer_of_key(idx(wb, "i3"), 9) is None


def test_live_figures_match_the_agreement_api(wb: Workbench) -> None:
    f = agreement_figures(wb)
    inst, rater, P, _ = wb.corpus.long_form(sets=wb.cols.annotators)
    ref = multi_rater_agreement(inst, rater, P, wb.corpus.inst_lexelt)
    assert f.fleiss.value == pytest.approx(ref.fleiss.kappa.value, abs=1e-12)
    wb.set_filter(categories=(COMPATIBLE,))
    sub = agreement_figures(wb)
    assert sub.n_instances == 5
    wb.apply_rows([row("i1", ("A.1a",)), row("i2", ("A",), k=2)])
    scores = {s.name: s for s in set_scores(wb)}
    # r1: i1 A.1a -> 1, i2 A (gold A) -> 1 ; r3: i1 A.1 vs gold A.1a -> 1/2, i2 A.2 -> 1
    assert scores["r1"].precision == pytest.approx(1.0)
    assert scores["r3"].precision == pytest.approx(0.75)
    assert scores["r1"].n_scored == 2
    assert wb.progress()["resolved"] == 2 and wb.status[idx(wb, "i1")] == RESOLVED


def test_crowd_mode_summarises_answers() -> None:
    rows = [("x.n", "i1", f"w{k}", [("A.1a" if k < 6 else "B", None)]) for k in range(10)]
    rows += [("x.n", "i2", f"w{k}", [("B.2", None)]) for k in range(3)]
    wb = Workbench(build([annotation_source(rows)]))
    assert wb.crowd and not any(c.key.startswith("set:") for c in wb.columns())
    assert wb.cell("answers", idx(wb, "i1")) == "A.1a ×6, B ×4"
    assert wb.cell("answers", idx(wb, "i2")) == "B.2 ×3"  # each instance its own answers, none run on
    assert wb.cols.category[idx(wb, "i1")] == DISJOINT
    assert wb.cols.category[idx(wb, "i2")] == IDENTICAL
