"""make_layout's shortcut for a long form of whole sets (each over the same instances, in order) gives
exactly the layout of the stable sort by (lexelt, instance)."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.agreement.layout import _layout_sorted, make_layout

FIELDS = ("inst", "rater", "P", "row_lex", "row_seg", "seg_start", "seg_m", "seg_inst", "seg_lex", "lex_rows",
          "lex_segs")


def layout_by_sort(inst, rater, P, inst_lexelt, X):
    inst, rater, P = np.asarray(inst, np.int64), np.asarray(rater, np.int64), np.asarray(P, float)
    row_lex = np.asarray(inst_lexelt, np.int64)[inst]
    order = np.argsort(row_lex * len(inst_lexelt) + inst, kind="stable")
    return _layout_sorted(inst[order], rater[order], P[order], row_lex[order], X)


@pytest.mark.parametrize("seed", range(40))
def test_make_layout_equals_stable_sort(seed):
    rng = np.random.default_rng(seed)
    for t in range(12):
        n = int(rng.integers(1, 60))
        X = int(rng.integers(1, 6)) if t else 70_000  # lexelt codes beyond 16 bits too
        il = rng.integers(0, X, n)
        S = int(rng.integers(1, 5))
        ids = np.sort(rng.choice(n, int(rng.integers(1, n + 1)), replace=False))
        kind = t % 4
        if kind == 0:  # whole sets over the same instances: the shortcut
            inst = np.tile(ids, S)
        elif kind == 1:  # sets over different instances
            inst = np.concatenate([np.sort(rng.choice(n, int(rng.integers(0, n + 1)), replace=False))
                                   for _ in range(S)])
        elif kind == 2:  # any order
            inst = rng.integers(0, n, int(rng.integers(0, 3 * n)))
        else:  # almost whole sets
            inst = np.tile(ids, S)
            inst[-1] = ids[0]
        rater = rng.integers(0, 4, len(inst))
        P = rng.random((len(inst), 3))
        got, ref = make_layout(inst, rater, P, il, n_lexelts=X), layout_by_sort(inst, rater, P, il, X)
        for f in FIELDS:
            a, b = getattr(got, f), getattr(ref, f)
            assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), f
        assert got.n_lexelts == ref.n_lexelts and got._uniform_m == ref._uniform_m
