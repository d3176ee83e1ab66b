"""#36 item 1: a leaf that no label of a lexelt uses keeps prior 0 and is never an answer."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.crowd.competence import dawid_skene
from tests.conftest import skip_without_realdata


def masc_word(word: str):
    """MASC's labels of one word as (inst, rater, leaf, inst_lexelt, n_leaves, K, corpus)."""
    d = skip_without_realdata("masc_amt") / "masc_amt"
    from hieradjudicate.app.loading.load import AnnotationSpec, load
    from hieradjudicate.core.layout_tags import unit_leaves

    c = load([str(d / "inventory_tree.tsv")], [AnnotationSpec(str(d / "masc_amt_labels_wide.tsv.gz"))], []).corpus
    leaf = unit_leaves(c.inventory, list(c.sets))
    inst = np.concatenate([s.rows for s in c.sets]).astype(np.int64)
    rater = np.repeat(np.arange(len(c.sets)), [s.n for s in c.sets])
    keep = c.inst_lexelt[inst] == c.inventory.lexelts.index(word)
    return inst[keep], rater[keep], leaf[keep], c.inst_lexelt, c.inventory.n_leaves, c.inventory.K, c


def test_an_unused_leaf_has_prior_and_posterior_exactly_zero() -> None:
    # one lexelt of three leaves; nobody ever answers leaf 2; the workers disagree on some instances
    rng = np.random.default_rng(3)
    n, W = 300, 9
    truth = rng.integers(0, 2, n)
    inst, rater = np.nonzero(rng.random((n, W)) < 0.7)
    skill = np.linspace(0.55, 0.95, W)[rater]
    label = np.where(rng.random(inst.size) < skill, truth[inst], 1 - truth[inst])
    out = dawid_skene(inst, rater, None, np.zeros(n, np.int64), np.array([3]), leaf=label, K=3)
    assert out.priors[0, 2] == 0.0
    assert np.all(out.posterior[:, 2] == 0.0)
    assert out.priors[0, :2].sum() == pytest.approx(1.0)


def test_masc_number_n_instance_4_7_is_not_given_the_unused_sense_0() -> None:
    """Nobody used sense 0 in number-n; instance 4.7's 25 annotators chose 8 most often (8 times).
    With the unused sense's prior clipped at 1e-10 instead of 0 it became a class confused
    uniformly by everyone, and 4.7 went to it with posterior 1.000."""
    inst, rater, leaf, lex, n_leaves, K, c = masc_word("number-n")
    x = c.inventory.lexelts.index("number-n")
    names = [c.inventory.label(int(v)) for v in c.inventory.lexelt_leaf_nodes[x]]
    zero = names.index("0")
    assert not np.any(leaf == zero)  # the premise: nobody used it
    t = next(i for i in np.unique(inst) if c.instance_key(int(i))[1] == "4.7")
    for accelerate in (True, False):
        out = dawid_skene(inst, rater, None, lex, n_leaves, leaf=leaf, K=K, accelerate=accelerate)
        post = out.posterior[np.searchsorted(out.tasks, t)]
        assert out.priors[x, zero] == 0.0 and post[zero] == 0.0
        assert names[int(post.argmax())] != "0"
        assert np.all(out.posterior[:, zero] == 0.0)


def test_masc_number_n_plain_em_equals_crowdkit() -> None:
    """crowd-kit's label space is the labels seen, so on one word sense 0 does not exist there: plain EM
    (crowd-kit's run, iteration for iteration) now gives its posteriors (it differed by 1.0 on 4.7)."""
    ck = pytest.importorskip("crowdkit.aggregation", reason="crowd-kit is the oracle (the test extra)")
    pd = pytest.importorskip("pandas")
    inst, rater, leaf, lex, n_leaves, K, c = masc_word("number-n")
    ours = dawid_skene(inst, rater, None, lex, n_leaves, leaf=leaf, K=K, accelerate=False, max_iter=60, tol=0.0)
    ds = ck.DawidSkene(n_iter=ours.iterations, tol=-np.inf)
    probas = ds.fit_predict_proba(pd.DataFrame({"task": inst, "worker": rater, "label": leaf}))
    ref = np.zeros((len(ours.tasks), K))
    cols = np.asarray(probas.columns, np.int64)
    ref[:, cols] = probas.loc[ours.tasks].to_numpy()
    assert np.abs(ours.posterior - ref).max() < 1e-6
