"""A layout holds its per-row segment and lexelt codes in 32 bits (a crowd's layout: 1.08 M rows on
MASC, 8.3 MiB less for the session), a crowd's one-leaf-per-row layout its rows' instance, rater and
leaf too (12.4 MiB less), and every figure read from it -- the agreement figures, their intervals,
Dawid & Skene's and MACE's estimates -- equals, to the last bit, the figure read from the same
layout with those codes in 64 bits."""

from __future__ import annotations

import dataclasses

import numpy as np

from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.bootstrap import bootstrap_figures
from hieradjudicate.core.crowd.competence import dawid_skene
from hieradjudicate.core.crowd.mace import mace
from hieradjudicate.core.dashboard import all_figures
from hieradjudicate.core.layout_tags import LeafLayout


def _crowd(seed: int = 3, n: int = 300, m: int = 9, K: int = 4, X: int = 5):
    """One leaf per row; instances with one to four raters (some not pairable), lexelt X-1 empty."""
    rng = np.random.default_rng(seed)
    per = rng.integers(1, 5, n)
    inst = np.repeat(np.arange(n), per)
    rater = np.concatenate([rng.choice(m, size=k, replace=False) for k in per])
    leaf = rng.integers(0, K, inst.size)
    lex = rng.integers(0, X - 1, n)
    lay = make_layout(inst, rater, np.eye(K)[leaf], lex, n_lexelts=X)
    crowd = LeafLayout.of(lay.inst, lay.rater, lay.P.argmax(axis=1), K, lay.row_lex, X)
    return crowd, lex, m, X


def _widened(lay: LeafLayout) -> LeafLayout:
    wide = LeafLayout.like(lay, lay.onehot_leaf.astype(np.int64), lay.n_leaves)
    for name in ("row_seg", "row_lex", "inst", "rater", "seg_inst"):  # the frozen dataclass's slots
        wide.__dict__[name] = getattr(lay, name).astype(np.int64)
    return wide


def _equal(a, b, where: str = "") -> None:
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        assert type(a) is type(b), where
        for f in dataclasses.fields(a):
            _equal(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b)):
            _equal(x, y, f"{where}[{k}]")
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _equal(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, np.ndarray):
        assert np.array_equal(np.ma.getmaskarray(a), np.ma.getmaskarray(b)), where
        assert np.array_equal(np.ma.filled(a, 0), np.ma.filled(b, 0), equal_nan=a.dtype.kind == "f"), where
    elif isinstance(a, float) and np.isnan(a):
        assert isinstance(b, float) and np.isnan(b), where
    else:
        assert a == b, where


def test_a_layouts_row_codes_are_32_bit_and_every_figure_equals_the_64_bit_ones():
    lay, lex, m, X = _crowd()
    assert lay.row_seg.dtype == np.int32 and lay.row_lex.dtype == np.int32
    assert lay.seg_lex.dtype == np.int64  # the per-instance codes, read by the bootstrap's strata
    wide = _widened(lay)
    assert wide.row_seg.dtype == np.int64 and lay.pairable() is not lay  # some instances have one rater
    np.testing.assert_array_equal(lay.seg_sum, wide.seg_sum)
    for per_lexelt in (False, True, "mean"):
        _equal(all_figures(None, None, None, lex, n_raters=m, n_lexelts=X, per_lexelt=per_lexelt, layout=lay),
               all_figures(None, None, None, lex, n_raters=m, n_lexelts=X, per_lexelt=per_lexelt, layout=wide))
    pairs = [(a, b) for a in range(m) for b in range(a + 1, m)]
    _equal(bootstrap_figures(None, None, None, lex, pairs=pairs, n_lexelts=X, n_resamples=40, layout=lay),
           bootstrap_figures(None, None, None, lex, pairs=pairs, n_lexelts=X, n_resamples=40, layout=wide))


def test_a_crowds_layout_holds_its_rows_instance_rater_and_leaf_in_32_bits_and_estimates_equal_the_64_bit_ones():
    lay, lex, _, X = _crowd()
    assert lay.inst.dtype == lay.rater.dtype == lay.onehot_leaf.dtype == np.int32
    wide = _widened(lay)
    assert wide.inst.dtype == wide.rater.dtype == wide.onehot_leaf.dtype == np.int64
    # the crowd's pairs and a rater's rows are made from the narrow columns as from the wide ones
    for narrow_lay, wide_lay in ((lay.pairable(), wide.pairable()), (lay.take(np.flatnonzero(lay.rater == 2)),
                                                                     wide.take(np.flatnonzero(wide.rater == 2)))):
        assert narrow_lay.R and narrow_lay.inst.dtype == np.int32
        np.testing.assert_array_equal(narrow_lay.seg_inst, wide_lay.seg_inst)
        np.testing.assert_array_equal(narrow_lay.onehot_leaf, wide_lay.onehot_leaf)
    n_leaves = np.full(X, lay.n_leaves)
    for fit in (dawid_skene, mace):
        narrow_fit, wide_fit = (fit(x.inst, x.rater, None, lex, n_leaves, leaf=x.onehot_leaf, K=x.n_leaves, max_iter=60)
                                for x in (lay, wide))
        _equal(narrow_fit, wide_fit, fit.__name__)
        assert narrow_fit.iterations > 5  # an estimate, not its start
    # the caller's codes are read, never written (the estimates read them in place)
    np.testing.assert_array_equal(lay.inst, wide.inst)
    np.testing.assert_array_equal(lay.rater, wide.rater)
    np.testing.assert_array_equal(lay.onehot_leaf, wide.onehot_leaf)
