"""#33 (memory): each lexelt's mean pairwise Cohen kappa is computed lexelt by lexelt
(``per_lexelt="mean"``), without the four ``(X, m, m)`` tables (a crowd: 76 MB) -- the same value to
the last bit as the mean taken over the tables; and a layout's rows taken alone equal the layout
made of those rows."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.pairwise import pairwise_matrix
from hieradjudicate.core.dashboard import all_figures
from hieradjudicate.core.layout_tags import LeafLayout


def _long_form(rng, n=240, m=12, K=5, X=4, per_item=4, complete=False):
    if complete:
        inst, rater = np.repeat(np.arange(n), m), np.tile(np.arange(m), n)
    else:
        inst = np.repeat(np.arange(n), per_item)
        rater = np.concatenate([rng.choice(m, size=per_item, replace=False) for _ in range(n)])
    P = np.eye(K)[rng.integers(0, K, inst.size)]
    P[::7] = rng.dirichlet(np.ones(K), size=P[::7].shape[0])  # some soft rows
    lex = rng.integers(0, X, n)
    lex[lex == X - 1] = 0  # lexelt X-1 has no instance
    return inst, rater, P, lex, m, X


def _mean_of_tables(pm, m):
    """The mean over pairs of each lexelt's defined Cohen kappas, from the kept tables."""
    ln = pm.lexelt_n.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        obs = pm.lexelt_sum_a / np.maximum(ln, 1.0)
        pe = pm.lexelt_pe_cohen
        k = np.where((ln > 0) & (1.0 - pe > 1e-12), (obs - pe) / (1.0 - pe), np.nan)
        iu = np.triu_indices(m, 1)
        kp = k[:, iu[0], iu[1]]
        n_def = (~np.isnan(kp)).sum(axis=1)
        return np.where(n_def > 0, np.nansum(kp, axis=1) / np.maximum(n_def, 1), np.nan)


@pytest.mark.parametrize("complete", [False, True])
def test_lexelt_mean_kappa_without_the_tables_equals_their_mean_to_the_bit(complete):
    inst, rater, P, lex, m, X = _long_form(np.random.default_rng(4), complete=complete)
    tables = all_figures(inst, rater, P, lex, n_raters=m, n_lexelts=X, per_lexelt=True).pairwise
    mean = all_figures(inst, rater, P, lex, n_raters=m, n_lexelts=X, per_lexelt="mean").pairwise
    want = _mean_of_tables(tables, m)
    assert np.isnan(want[X - 1]) and np.isfinite(want[:X - 1]).all()
    np.testing.assert_array_equal(mean.lexelt_mean_cohen, want)
    np.testing.assert_array_equal(tables.lexelt_mean_cohen, want)
    assert mean.lexelt_n is None and mean.lexelt_sum_a is None and mean.lexelt_pe_cohen is None
    plain = pairwise_matrix(inst, rater, P, lex, n_raters=m, n_lexelts=X)
    assert plain.lexelt_mean_cohen is None
    np.testing.assert_array_equal(np.ma.filled(mean.kappa_cohen, 9.0), np.ma.filled(plain.kappa_cohen, 9.0))


def test_rows_taken_from_a_layout_equal_the_layout_of_those_rows():
    rng = np.random.default_rng(8)
    inst, rater, P, lex, m, X = _long_form(rng)
    P = np.eye(P.shape[1])[P.argmax(axis=1)]  # one leaf per row: a crowd's
    lay = make_layout(inst, rater, P, lex, n_lexelts=X)
    leaves = LeafLayout.of(lay.inst, lay.rater, lay.onehot_leaf, lay.n_leaves, lay.row_lex, X)
    rows = np.flatnonzero(rng.random(lay.R) < 0.4)
    want = make_layout(lay.inst[rows], lay.rater[rows], lay.P[rows], lex, n_lexelts=X)
    for got in (lay.take(rows), leaves.take(rows)):
        for name in ("inst", "rater", "row_lex", "row_seg", "seg_start", "seg_m", "seg_inst", "lex_rows", "lex_segs"):
            np.testing.assert_array_equal(getattr(got, name), getattr(want, name))
        np.testing.assert_array_equal(got.P, want.P)
    assert isinstance(leaves.take(rows), LeafLayout) and leaves.take(rows).__dict__.get("_P") is None
    x0 = slice(int(lay.lex_rows[1]), int(lay.lex_rows[2]))
    one = make_layout(lay.inst[x0], lay.rater[x0], lay.P[x0], np.zeros(lex.size, np.int64), n_lexelts=1)
    for got in (lay.take(x0, one_lexelt=True), leaves.take(x0, one_lexelt=True)):
        assert got.n_lexelts == 1 and (got.row_lex == 0).all()
        np.testing.assert_array_equal(got.P, one.P)
        np.testing.assert_array_equal(got.lex_segs, one.lex_segs)
