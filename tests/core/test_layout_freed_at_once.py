"""#33 (memory): a layout is freed as soon as its last reference goes, without waiting for the
garbage collector -- its :meth:`pairable` is itself when every instance has two annotations, and
caching that made a reference cycle (MASC: each depth cut's layout, ~60 MB, outlived the dashboard's
computation).  A crowd's ``|p_r|^2`` (all ones) is one shared value, and the sums per instance equal
the sums of ones."""

from __future__ import annotations

import gc
import weakref

import numpy as np

from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.alpha import krippendorff_alpha
from hieradjudicate.core.layout_tags import LeafLayout


def _crowd(per_item=3, n=50, K=4):
    rng = np.random.default_rng(2)
    inst = np.repeat(np.arange(n), per_item)
    rater = np.concatenate([rng.choice(8, size=per_item, replace=False) for _ in range(n)])
    leaf = rng.integers(0, K, inst.size)
    lay = make_layout(inst, rater, np.eye(K)[leaf], np.zeros(n, np.int64), n_lexelts=1)
    return lay, LeafLayout.of(lay.inst, lay.rater, lay.onehot_leaf, K, lay.row_lex, 1)


def test_a_layout_whose_instances_all_pair_is_freed_without_the_garbage_collector():
    was_enabled = gc.isenabled()  # a window earlier in the run may have switched it off for good
    gc.disable()
    try:
        for k in range(2):
            lay = _crowd()[k]
            assert lay.pairable() is lay
            krippendorff_alpha(None, None, None, None, layout=lay)  # every cache the figures fill
            ref = weakref.ref(lay)
            del lay
            assert ref() is None
    finally:
        if was_enabled:
            gc.enable()


def test_unit_rows_share_one_squared_norm_and_count_their_rows():
    dense, leaves = _crowd()
    for lay in (dense, leaves):
        assert lay.row_sq.strides == (0,) and (lay.row_sq == 1.0).all()
        np.testing.assert_array_equal(lay.seg_sq, np.add.reduceat(np.ones(lay.R), lay.seg_start))
