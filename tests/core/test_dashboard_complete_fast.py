"""The dashboard's all-lexelts pairwise assembly of a complete design equals the per-lexelt loop
(:func:`_pairwise_assemble`, kept for ``per_lexelt=True``) bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.dashboard import all_figures

FIELDS = ("observed", "expected_scott", "expected_cohen", "kappa_scott", "kappa_cohen", "macro_scott",
          "macro_cohen")


@pytest.mark.parametrize("seed", range(40))
def test_complete_pairwise_equals_per_lexelt_loop(seed):
    rng = np.random.default_rng(seed)
    n, K = int(rng.integers(1, 200)), int(rng.integers(1, 7))
    X = int(rng.integers(1, 12))
    il = rng.integers(0, X, n)
    m = int(rng.integers(2, 6))
    c = int(rng.integers(2, m + 1))
    raters = rng.permutation(m)[:c]  # any raters, in any order (not always contiguous)
    ids = np.sort(rng.choice(n, int(rng.integers(1, n + 1)), replace=False))
    inst = np.tile(ids, c)
    rater = np.repeat(raters, len(ids))
    kind = seed % 3
    if kind == 0:  # one leaf each, often the same: kappas near and at 1, chance agreement at 1
        P = np.eye(K)[rng.integers(0, max(1, K // 3), len(inst))]
    elif kind == 1:
        P = rng.dirichlet(np.ones(K), len(inst))
    else:
        P = np.eye(K)[np.zeros(len(inst), int)]  # everybody the same leaf: Pr(E) = 1, kappa undefined
    fast = all_figures(inst, rater, P, il, n_raters=m, n_lexelts=X).pairwise
    loop = all_figures(inst, rater, P, il, n_raters=m, n_lexelts=X, per_lexelt=True).pairwise
    assert np.array_equal(fast.n, loop.n)
    for name in ("reason_scott", "reason_cohen"):
        assert np.array_equal(getattr(fast, name), getattr(loop, name))
    for name in FIELDS:
        a, b = getattr(fast, name), getattr(loop, name)
        assert np.array_equal(np.ma.getmaskarray(a), np.ma.getmaskarray(b)), name
        assert np.ma.getdata(a).tobytes() == np.ma.getdata(b).tobytes(), name
    assert fast.lexelt_n is None and loop.lexelt_n is not None
