"""#23 item 5 (memory on MASC): the depth curve rolls a crowd's one-hot rows up without a dense
copy, and the workbench's group columns hold no set's leaf vectors -- the same figures exactly."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from hieradjudicate.app.dashboard.agree import _rolled_layout
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.columns import group_category
from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.pairwise import pairwise_matrix
from hieradjudicate.core.agreement.granularity import rollup
from hieradjudicate.core.layout_tags import LeafLayout
from tests.crowd import crowd_project


def _crowd(rng, n=300, m=9, K=6, X=3, onehot=True):
    inst = np.repeat(np.arange(n), m)
    rater = np.tile(np.arange(m), n)
    keep = rng.random(inst.size) < 0.7
    inst, rater = inst[keep], rater[keep]
    lex = np.arange(n) % X
    P = np.zeros((inst.size, K))
    P[np.arange(inst.size), rng.integers(0, K, inst.size)] = 1.0
    if not onehot:
        P[::5] = rng.dirichlet(np.ones(K), size=P[::5].shape[0])
    # a cut per lexelt: leaves grouped 0,0,1,1,2,2 / 0,1,1,1,2,3 / 0,0,0,1,1,-1 (one padding leaf)
    group = np.array([[0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 3], [0, 0, 0, 1, 1, -1]])
    P[(lex[inst] == 2), 5] = 0.0  # lexelt 2 has five leaves
    P[(lex[inst] == 2) & (P.sum(axis=1) == 0), 0] = 1.0
    n_groups = np.array([3, 4, 2])
    return inst, rater, P, lex, group, n_groups, X, m


def _figures(inst, rater, lay, lex, X, m):
    pm = pairwise_matrix(inst, rater, lay.P, lex, n_raters=m, n_lexelts=X, layout=lay)
    mr = multi_rater_agreement(inst, rater, lay.P, lex, n_lexelts=X, layout=lay).fleiss
    return pm, mr


def test_rolled_crowd_layout_holds_groups_and_gives_the_dense_figures_to_the_bit():
    rng = np.random.default_rng(3)
    inst, rater, P, lex, group, n_groups, X, m = _crowd(rng)
    lay = make_layout(inst, rater, P, lex, n_lexelts=X)
    dense = replace(lay, P=rollup(lay.P, lay.row_lex, group, n_groups))
    rolled = _rolled_layout(lay, group, n_groups)
    assert isinstance(rolled, LeafLayout) and rolled.__dict__.get("_P") is None  # no (R, G) array made
    np.testing.assert_array_equal(rolled.onehot_leaf, dense.onehot_leaf)
    a, b = _figures(inst, rater, rolled, lex, X, m), _figures(inst, rater, dense, lex, X, m)
    for name in ("n", "kappa_cohen", "kappa_scott", "observed", "expected_cohen", "expected_scott"):
        np.testing.assert_array_equal(np.ma.filled(np.ma.asarray(getattr(a[0], name), float), np.nan),
                                      np.ma.filled(np.ma.asarray(getattr(b[0], name), float), np.nan))
    assert (a[1].kappa.value, a[1].observed, a[1].expected, a[1].n) == \
        (b[1].kappa.value, b[1].observed, b[1].expected, b[1].n)
    np.testing.assert_array_equal(rolled.P, dense.P)  # when read, the same array


def test_rolled_layout_of_weighted_rows_is_the_dense_rollup():
    rng = np.random.default_rng(4)
    inst, rater, P, lex, group, n_groups, X, m = _crowd(rng, onehot=False)
    lay = make_layout(inst, rater, P, lex, n_lexelts=X)
    rolled = _rolled_layout(lay, group, n_groups)
    assert not isinstance(rolled, LeafLayout)
    np.testing.assert_array_equal(rolled.P, rollup(lay.P, lay.row_lex, group, n_groups))


def test_group_columns_keep_no_leaf_vectors_and_equal_the_held_ones(tmp_path):
    path = crowd_project(tmp_path / "c.hadj", 20, per_item=7)
    with Session.open(path, read_only=True) as s:
        c = s.corpus
        raters = list(range(len(c.sets)))
        want = group_category(c, raters)
        held = [st.leaves for st in c.sets]
        # the sets as CorpusBuilder makes them: leaf vectors computed on first use
        c.sets = [replace(st, _leaves=None, _inventory=c.inventory) for st in c.sets]
        got = group_category(c, raters)
        assert all(st._leaves is None for st in c.sets)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
        for st, h in zip(c.sets, held):
            np.testing.assert_array_equal(st.leaves_once(), h)
            assert st._leaves is None
