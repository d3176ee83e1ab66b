"""Competence in the views (#14): the dashboard's figures, the queue's order and the weighted suggestion."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.app.dashboard.competence import estimate
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.core.crowd.competence import dawid_skene
from tests.crowd import crowd_project


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = crowd_project(tmp_path_factory.mktemp("comp") / "c.hadj", 30, per_item=7, seed=4)
    with Session.open(path, read_only=True) as s:
        yield s.corpus


def test_figures_are_the_models_own_aligned_with_sets_and_instances(corpus):
    comp = estimate(corpus)
    sets = sorted(range(len(corpus.sets)))
    inst, rater, P, chosen = corpus.long_form(sets=sets)
    ref = dawid_skene(inst, rater, P, corpus.inst_lexelt, corpus.inventory.n_leaves)
    assert chosen == comp.set_indices
    np.testing.assert_allclose(comp.competence[ref.workers], ref.accuracy, atol=1e-9)
    np.testing.assert_allclose(comp.stderr[ref.workers], ref.stderr, atol=1e-9)
    np.testing.assert_allclose(comp.entropy[ref.tasks], ref.entropy, atol=1e-9)
    inv = corpus.inventory
    for t in (0, len(ref.tasks) // 2, len(ref.tasks) - 1):
        i = int(ref.tasks[t])
        k = int(ref.posterior[t].argmax())
        assert comp.best_node[i] == inv.lexelt_leaf_nodes[int(corpus.inst_lexelt[i])][k]
        assert comp.best_posterior[i] == pytest.approx(ref.posterior[t, k])
    # the histogram's bars partition the instances with a posterior
    bars = [comp.bin_instances(j) for j in range(len(comp.hist_counts))]
    assert [b.size for b in bars] == comp.hist_counts.tolist()
    assert np.array_equal(np.sort(np.concatenate(bars)), np.sort(ref.tasks))
    order = comp.most_uncertain()
    assert np.all(np.diff(comp.entropy[order]) <= 0) and order.size == ref.tasks.size
    assert comp.model == "Dawid & Skene" and "Dawid & Skene" in comp.explain.text()


def test_queue_orders_most_uncertain_first_and_suggests_the_weighted_answer(corpus):
    wb = Workbench(corpus)
    with pytest.raises(ValueError, match="competence"):
        wb.set_sort("uncertainty")
    comp = estimate(corpus)
    wb.set_competence(comp)
    view = wb.set_sort("uncertainty")
    e = comp.entropy[view]
    finite = np.isfinite(e)
    assert np.all(np.diff(e[finite]) <= 0) and not np.isfinite(e[finite.sum():]).any()
    i = int(view[0])
    s = wb.suggestion(i)
    assert s.weighted == (corpus.inventory.node_id[int(comp.best_node[i])],)
    assert s.weighted_posterior == pytest.approx(comp.best_posterior[i]) and s.weighted_model == "Dawid & Skene"
    assert "competence-weighted (Dawid & Skene)" in s.text()
    # a hard instance: the model is not sure, and its answer is one an annotator gave
    assert s.weighted_posterior < 1.0
    given = {t for a in wb.answers(i) for t in a.tags}
    assert set(s.weighted) <= given


def test_fewer_than_two_sets_is_refused(corpus):
    with pytest.raises(ValueError, match="three or more annotator sets"):
        estimate(corpus, [0])
    with pytest.raises(ValueError, match="model"):
        estimate(corpus, model="nope")
