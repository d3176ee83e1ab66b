"""The agreement intervals' working memory on all-words data: thousands of lexelts, some of many senses.

Every figure is computed from resampled per-lexelt sums ``(resamples, lexelts, d)``, ``d`` set by the
widest lexelt; all-words data (ALL: 2,808 lexelts of up to 25 leaves, 1,000 resamples) held them
whole in 1.9 GB.  The replicates are now computed a block of resamples at a time
(:func:`~hieradjudicate.core.agreement.resampling.resampled_blocks`), the blocks stacked being the
same draws.  Measured by tracemalloc (numpy reports its arrays to it) against the size of the sums
held whole: deterministic, no time involved.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import hieradjudicate.core.agreement.resampling as resampling
from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.bootstrap import (
    _pair_cis,
    _pair_V,
    bootstrap_alpha,
    bootstrap_figures,
    bootstrap_fleiss,
    bootstrap_pairwise,
    resampled_sums,
)
from hieradjudicate.core.agreement.lexelt_intervals import fleiss_intervals

K = 20  # the widest lexelt's leaves
B = 200
CELLS = 20_000  # sums per block (the product's 4,000,000 made small, as the corpus): blocks of 16 resamples


def _all_words(seed: int = 0, small: int = 150, large: int = 10, raters: int = 3):
    """``raters`` annotators on ``small`` lexelts of 1 to 3 instances and ``large`` of 10 to 15, each
    lexelt with its own number of senses (2 to K); one-hot labels agreeing about two times in three."""
    rng = np.random.default_rng(seed)
    sizes = np.concatenate([rng.integers(1, 4, small), rng.integers(10, 16, large)])
    senses = rng.integers(2, K + 1, len(sizes))
    senses[0] = K
    inst_lex = np.repeat(np.arange(len(sizes)), sizes)
    true = (rng.random(len(inst_lex)) * senses[inst_lex]).astype(np.int64)
    inst = np.repeat(np.arange(len(inst_lex)), raters)
    rater = np.tile(np.arange(raters), len(inst_lex))
    fresh = (rng.random(len(inst)) * senses[inst_lex[inst]]).astype(np.int64)
    leaf = np.where(rng.random(len(inst)) < 0.67, true[inst], fresh)
    P = np.zeros((len(inst), K))
    P[np.arange(len(inst)), leaf] = 1.0
    return inst, rater, P, inst_lex, len(sizes)


def _peak(fn, *args, **kwargs) -> int:
    tracemalloc.start()
    try:
        fn(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _whole_sums_bytes(X: int, d: int) -> int:
    """What the resampled sums of every resample take, held at once."""
    return B * X * d * 8


@pytest.mark.parametrize("figure", ["pairs, Fleiss and alpha", "Fleiss", "alpha", "Fleiss by lexelt"])
def test_an_interval_on_many_lexelts_holds_a_block_of_resamples_not_all_of_them(
    figure: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before the blocks each call peaked at 2.2 times the whole sums (here 5 to 10 MB; on ALL 0.6 to 1 GB
    of sums, 1.9 GB peak); a block at a time, at 0.3 to 0.5 times."""
    monkeypatch.setattr(resampling, "_T_CELLS", CELLS)
    inst, rater, P, lex, X = _all_words()
    lay = make_layout(inst, rater, P, lex, n_lexelts=X)
    calls = {
        "pairs, Fleiss and alpha": (bootstrap_figures, {"pairs": [(0, 1)]}, 1 + 2 * K),
        "Fleiss": (bootstrap_fleiss, {}, K + 2),
        "alpha": (bootstrap_alpha, {}, K + 1),
        "Fleiss by lexelt": (fleiss_intervals, {}, K + 2),
    }
    fn, extra, d = calls[figure]
    peak = _peak(fn, inst, rater, P, lex, n_lexelts=X, n_resamples=B, method="percentile", layout=lay, **extra)
    assert B > 4 * resampling._MIN_ROWS  # the blocks are several
    assert peak < 0.75 * _whole_sums_bytes(X, d)


def test_blocks_of_resamples_give_the_intervals_of_the_sums_held_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The blocks stacked are the same draws: only the matrix products' rounding may differ."""
    inst, rater, P, lex, X = _all_words(seed=1, raters=2)
    pa, pb = P[rater == 0], P[rater == 1]
    monkeypatch.setattr(resampling, "_T_CELLS", CELLS)
    blocks = bootstrap_pairwise(pa, pb, lex, n_lexelts=X, n_resamples=B, seed=11)
    V = _pair_V(pa, pb)
    whole = _pair_cis(resampled_sums(V, lex, X, B, 11), K, blocks[0].estimate, blocks[1].estimate, 0.95, 11,
                      "bca", V, lex)
    for got, want in zip(blocks, whole, strict=True):
        np.testing.assert_allclose(got.replicates.filled(np.nan), want.replicates.filled(np.nan), rtol=0, atol=1e-12)
        assert got.pooled == want.pooled > 0
        assert (got.low, got.high) == pytest.approx((want.low, want.high), abs=1e-12)
