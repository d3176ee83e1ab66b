"""The live per-set scores kept between decisions equal a fresh full computation (issue 23, point 5).

:func:`~hieradjudicate.app.workbench.live.set_scores` rescores only the answers to the instances
whose gold changed (:class:`~hieradjudicate.app.workbench.live_scores.ScoreKeeper`).  After every
decision, re-decision and withdrawal of a random journey its figures must be those of a new keeper
bit for bit (they depend on the decisions only), and those of ``score_leaf`` over every set
(:func:`~hieradjudicate.app.workbench.live.full_set_scores`, the definition) within 1e-12 -- exactly
where every score is 0 or 1 (a crowd's single labels).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hieradjudicate.app.workbench.live import full_set_scores, set_scores
from hieradjudicate.app.workbench.live_scores import ScoreKeeper, score_keeper
from hieradjudicate.app.workbench.queue import RESOLVED, Workbench
from hieradjudicate.io.store.project_store import DecisionRow
from tests.app.test_workbench import corpus as example_corpus
from tests.conftest import skip_without_realdata
from tests.crowd import crowd_project


def _row(wb: Workbench, i: int, tags: tuple[str, ...], status: str, k: int) -> DecisionRow:
    lex, inst = wb.key_of(i)
    return DecisionRow(k, lex, inst, tags, "manual", status, "", "me", "2026-01-01T00:00:00Z")


def _answer_tags(wb: Workbench, i: int, rng: np.random.Generator) -> tuple[str, ...]:
    """The tags of one set that answered ``i``, or of two together (a gold of two senses)."""
    answered = sorted(wb.corpus.answered(i).items())
    picks = rng.choice(len(answered), size=min(len(answered), int(rng.integers(1, 3))), replace=False)
    tags: list[str] = []
    for p in picks.tolist():
        k, r = answered[p]
        tags += [t for t in wb.corpus.tag_strings(wb.corpus.sets[k], r) if t not in tags]
    return tuple(tags)


def _check(wb: Workbench, full: bool) -> None:
    kept = set_scores(wb)
    decided = np.flatnonzero(wb.status == RESOLVED)
    fresh = ScoreKeeper(wb.corpus).scores(wb.shown_sets(), decided, wb.gold_leaves[decided])
    assert kept == fresh  # bit for bit: the figures never depend on the path to the decisions
    if not full:
        return
    ref = full_set_scores(wb)
    assert [(s.name, s.role, s.n_scored) for s in kept] == [(s.name, s.role, s.n_scored) for s in ref]
    for a, b in zip(kept, ref):
        assert (a.precision is None) == (b.precision is None), a.name
        if a.precision is not None:
            assert abs(a.precision - b.precision) <= 1e-12, (a.name, a.precision, b.precision)


def _journey(wb: Workbench, steps: int, seed: int, full_every: int = 1) -> None:
    rng = np.random.default_rng(seed)
    n = wb.corpus.n
    touched: list[int] = []
    _check(wb, True)  # nothing decided: every precision undefined
    for step in range(steps):
        if touched and rng.random() < 0.25:  # withdraw or decide again an instance decided before
            i = int(rng.choice(touched))
            status = "unresolved" if rng.random() < 0.5 else "resolved"
        else:
            i, status = int(rng.integers(n)), "resolved"
            touched.append(i)
        tags = _answer_tags(wb, i, rng) if status == "resolved" else ()
        if status == "resolved" and not tags:
            continue
        wb.apply_rows([_row(wb, i, tags, status, step + 1)])
        _check(wb, step % full_every == 0 or step == steps - 1)


def test_scores_follow_decisions_with_fractional_answers() -> None:
    """Several tags per answer and tags above the leaves: scores between 0 and 1."""
    wb = Workbench(example_corpus())
    _journey(wb, 40, seed=1)


def test_scores_follow_decisions_of_the_demo_project(tmp_path: Path) -> None:
    from hieradjudicate.app.demo import ensure_demo_project
    from hieradjudicate.app.session.session import Session

    with Session.open(ensure_demo_project(tmp_path / "demo.hadj"), read_only=True) as session:
        wb = Workbench(session.corpus, list(session.decisions))
        _journey(wb, 60, seed=2)


@pytest.fixture(scope="module")
def crowd228(tmp_path_factory) -> Path:
    return crowd_project(tmp_path_factory.mktemp("crowd") / "crowd228.hadj", 228)


def test_scores_of_a_crowd_equal_score_leaf_exactly(crowd228: Path) -> None:
    from hieradjudicate.app.session.session import Session

    with Session.open(crowd228, read_only=True) as session:
        wb = Workbench(session.corpus, list(session.decisions))
        _journey(wb, 50, seed=3, full_every=10)
        decided = np.flatnonzero(wb.status == RESOLVED)
        assert decided.size > 20
        # one-hot answers: every score 0 or 1, the sums exact whatever their order
        assert set_scores(wb) == full_set_scores(wb)


def test_only_the_answers_to_the_decided_instance_are_rescored() -> None:
    wb = Workbench(example_corpus())
    set_scores(wb)
    keeper = score_keeper(wb, wb.corpus)
    i = wb.corpus.instance_index("x.n", "i3")
    wb.apply_rows([_row(wb, i, ("B.2",), "resolved", 1)])
    set_scores(wb)
    assert keeper.rescored == len(wb.corpus.answered(i)) == 4  # three annotators and the system
    set_scores(wb)
    assert keeper.rescored == 0  # nothing changed: nothing rescored
    wb.apply_rows([_row(wb, i, (), "unresolved", 2)])  # a withdrawal rescores nothing, sums again
    after = set_scores(wb)
    assert keeper.rescored == 0 and all(s.precision is None and s.n_scored == 0 for s in after)


@pytest.fixture(scope="module")
def masc_project(tmp_path_factory) -> Path:
    d = skip_without_realdata("masc_amt") / "masc_amt"
    out = tmp_path_factory.mktemp("masc") / "masc.hadj"
    subprocess.run([sys.executable, "-m", "hieradjudicate", "project", "new", str(out),
                    "--inventory", str(d / "inventory_tree.tsv"),
                    "--annotations", str(d / "masc_amt_labels_wide.tsv.gz")], check=True, timeout=600,
                   capture_output=True)
    return out


def test_masc_scores_after_decisions_equal_a_full_computation(masc_project: Path) -> None:
    """MASC (228 workers, 44,682 instances): 30 decisions, each rescoring only its instance's answers."""
    from hieradjudicate.app.session.session import Session

    with Session.open(masc_project, read_only=True) as session:
        wb = Workbench(session.corpus, list(session.decisions))
        rng = np.random.default_rng(4)
        set_scores(wb)
        keeper = score_keeper(wb, wb.corpus)
        for step, i in enumerate(rng.choice(wb.corpus.n, 30, replace=False).tolist()):
            wb.apply_rows([_row(wb, i, _answer_tags(wb, i, rng), "resolved", step + 1)])
            kept = set_scores(wb)
            assert keeper.rescored == len(wb.corpus.answered(i))
        assert len(kept) == 228
        assert kept == full_set_scores(wb)  # every score 0 or 1: equal to the bit
        assert sum(s.n_scored for s in kept) == sum(len(wb.corpus.answered(i)) for i in np.flatnonzero(
            wb.status == RESOLVED).tolist())


def _agreement_from_long_form(wb: Workbench) -> tuple:
    """The live agreement as it was computed before: from the dense long form of the view."""
    from hieradjudicate.app.workbench.live import filter_long_form
    from hieradjudicate.core.dashboard import all_figures

    inst, rater, P, chosen = filter_long_form(wb)
    figs = all_figures(inst, rater, P, wb.corpus.inst_lexelt, n_raters=len(chosen),
                       n_lexelts=len(wb.corpus.inventory.lexelts))
    return (int(np.unique(inst).size), figs.multi.fleiss.kappa, figs.alpha.alpha,
            figs.pairwise.mean_kappa("cohen"))


@pytest.mark.parametrize("compact", [False, True])
def test_live_agreement_reads_the_compact_layout_and_equals_the_long_form(crowd228: Path,
                                                                           compact: bool) -> None:
    """A crowd's layout holds one leaf per row (no dense P): the live agreement of the whole view and
    of a filter is computed from it (a filter's rows keep their leaves, live.py asks for no P) and its
    figures are those of the dense long form to the bit.  (Krippendorff's alpha still reads ``P`` per
    lexelt when the design is not complete: core/agreement/alpha.py.)"""
    from hieradjudicate.app.session.session import Session
    from hieradjudicate.app.workbench.live import agreement_figures
    from hieradjudicate.core.layout_tags import LeafLayout

    with Session.open(crowd228, read_only=True) as session:
        wb = Workbench(session.corpus, list(session.decisions))
        if compact:  # as when no set's leaf vectors are held: the layout is made from the tags
            for s in wb.corpus.sets:
                s._leaves, s._inventory = None, wb.corpus.inventory
        else:  # sets that hold their own leaf vectors and no inventory: the dense layout
            for s in wb.corpus.sets:
                s._leaves, s._inventory = s.leaves_once(), None
        wb.corpus.__dict__.pop("_layouts", None)
        lay = wb.corpus.layout(sorted(wb.cols.annotators))
        assert isinstance(lay, LeafLayout) == compact
        views = (wb.view, wb.view[::3].copy())
        live = []
        for view in views:
            wb.view = view
            live.append(agreement_figures(wb))
        for view, f in zip(views, live):
            wb.view = view
            assert (f.n_instances, f.fleiss, f.alpha, f.mean_cohen) == _agreement_from_long_form(wb)
