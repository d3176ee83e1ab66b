"""The agreement intervals computed a chunk of lexelts at a time give the figures of the sums held whole, to the bit.

Each resample's figure is a sum over lexelts of per-lexelt terms
(:mod:`~hieradjudicate.core.agreement.lexelt_chunks`): a block of resamples holds the terms of every
lexelt and the sums of a few lexelts only, a pooled lexelt's terms are looked up by how many times it
was drawn, and alpha's ``n' D n`` is taken over each lexelt's own leaves.  Chunks of one or two
lexelts and blocks of a few resamples are forced here; soft labels (thirds) make every rounding show.
"""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.agreement import lexelt_chunks, resampling
from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.alpha import alpha_stats, pair_terms
from hieradjudicate.core.agreement.bootstrap import (
    _alpha_reps,
    _fleiss_reps,
    _fleiss_V,
    _pair_reps,
    _pair_V,
    _replicates,
    bootstrap_figures,
)

K = 12


def _soft(seed: int, small: int, large: int, raters: int = 3):
    """``raters`` annotators on ``small`` lexelts of 1 to 3 instances and ``large`` of 10 to 14, each of
    its own number of senses; a label is one sense, or two or three senses shared equally."""
    rng = np.random.default_rng(seed)
    sizes = np.concatenate([rng.integers(1, 4, small), rng.integers(10, 15, large)])
    rng.shuffle(sizes)  # the pooled lexelts among the others
    senses = rng.integers(1, K + 1, len(sizes))
    senses[0] = K
    inst_lex = np.repeat(np.arange(len(sizes)), sizes)
    inst = np.repeat(np.arange(len(inst_lex)), raters)
    rater = np.tile(np.arange(raters), len(inst_lex))
    P = np.zeros((len(inst), K))
    for chance in (1.0, 0.2, 0.2):  # a first sense of the instance's lexelt, sometimes a second and a third
        leaf = (rng.random(len(inst)) * senses[inst_lex[inst]]).astype(np.int64)
        P[np.arange(len(inst)), leaf] = np.maximum(P[np.arange(len(inst)), leaf], rng.random(len(inst)) < chance)
    P /= P.sum(axis=1, keepdims=True)
    return inst, rater, P, inst_lex, len(sizes)


def _old_path(stats):
    """The same figures computed on every lexelt's sums, a block of resamples at a time."""
    return [lambda D, st=st: st(D) for st in stats]


def _assert_same(new, old) -> None:
    assert len(new) == len(old)
    for (vals_new, X_new, pooled_new), (vals_old, X_old, pooled_old) in zip(new, old, strict=True):
        assert (X_new, pooled_new) == (X_old, pooled_old)
        for (v_new, ok_new), (v_old, ok_old) in zip(vals_new, vals_old, strict=True):
            assert ok_new.any()
            np.testing.assert_array_equal(ok_new, ok_old)
            assert np.array_equal(v_new, v_old), np.abs(v_new - v_old).max()  # to the bit


@pytest.mark.parametrize("shape", ["all-words (small lexelts pooled)", "lexical sample (every lexelt alone)"])
@pytest.mark.parametrize("chunking", ["one lexelt, several blocks", "two lexelts, one block"])
@pytest.mark.parametrize("lexelt_chance", ["within", "pooled"])
def test_fleiss_and_alpha_by_lexelt_chunks_equal_the_figures_of_every_lexelts_sums(
    shape: str, chunking: str, lexelt_chance: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    small, large = (120, 8) if shape.startswith("all-words") else (0, 30)
    inst, rater, P, lex, X = _soft(3, small, large)
    lay = make_layout(inst, rater, P, lex, n_lexelts=X).pairable()
    st = alpha_stats(lay, "nominal")
    items = [(_fleiss_V(lay), lay.seg_lex), (np.column_stack([st.do_i, st.s_i]), lay.seg_lex)]
    stats = [_fleiss_reps(K), _alpha_reps(st.dist, lexelt_chance)]
    if chunking.startswith("one"):
        monkeypatch.setattr(resampling, "_T_CELLS", 20_000)  # the old blocks: a few resamples each
        monkeypatch.setattr(lexelt_chunks, "_TERM_CELLS", 8_000)
        monkeypatch.setattr(lexelt_chunks, "_CHUNK_CELLS", 1)
        for module in (resampling, lexelt_chunks):  # each block drawn by pieces, each piece's products by parts
            monkeypatch.setattr(module, "_BLOCK", 60)
            monkeypatch.setattr(module, "_CHUNK", 25)
    else:
        monkeypatch.setattr(lexelt_chunks, "_CHUNK_CELLS", 2 * 150 * (2 * K + 3))
    new = _replicates(items, stats, X, 150, 7)
    old = _replicates(items, _old_path(stats), X, 150, 7)
    _assert_same(new, old)
    assert new[0][2] == (sum(np.bincount(lex) < 10) if small else 0)


def test_pair_intervals_by_lexelt_chunks_equal_the_figures_of_every_lexelts_sums(monkeypatch: pytest.MonkeyPatch) -> None:
    _, rater, P, lex, X = _soft(4, 150, 10, raters=2)
    pa, pb = P[rater == 0], P[rater == 1]
    items = [(_pair_V(pa, pb), lex), (_pair_V(pb, pa), lex)]
    stats = [_pair_reps(K)] * 2
    monkeypatch.setattr(resampling, "_T_CELLS", 50_000)
    monkeypatch.setattr(lexelt_chunks, "_TERM_CELLS", 10_000)
    monkeypatch.setattr(lexelt_chunks, "_CHUNK_CELLS", 3 * 8 * (2 * K + 1) * 2)
    _assert_same(_replicates(items, stats, X, 120, 5), _replicates(items, _old_path(stats), X, 120, 5))


def test_alpha_with_a_distance_matrix_by_lexelt_chunks_equals_the_figures_of_every_lexelts_sums(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    inst, rater, P, lex, X = _soft(5, 100, 10)
    lay = make_layout(inst, rater, P, lex, n_lexelts=X).pairable()
    dist = np.abs(np.subtract.outer(np.arange(K), np.arange(K))) / 3.0  # an interval-like metric
    st = alpha_stats(lay, dist)
    items = [(np.column_stack([st.do_i, st.s_i]), lay.seg_lex)]
    stats = [_alpha_reps(st.dist, "within")]
    monkeypatch.setattr(lexelt_chunks, "_CHUNK_CELLS", 1)
    _assert_same(_replicates(items, stats, X, 100, 9), _replicates(items, _old_path(stats), X, 100, 9))


def test_alphas_products_over_each_lexelts_own_leaves_equal_the_products_over_every_leaf() -> None:
    rng = np.random.default_rng(0)
    X, B = 400, 5
    width = rng.integers(0, K + 1, X)
    n_c = rng.integers(0, 9, (B, X, K)) / 3.0 + rng.random((B, X, K))
    n_c[np.broadcast_to(np.arange(K) >= width[:, None], n_c.shape)] = 0.0
    for dist in (np.broadcast_to(1.0 - np.eye(K), (X, K, K)), rng.random((X, K, K))):
        full = np.einsum("...xk,xkl,...xl->...x", n_c, np.ascontiguousarray(dist), n_c)
        assert np.array_equal(pair_terms(n_c, dist), full)
        assert np.array_equal(pair_terms(n_c[0], dist), full[0])
        xs = rng.permutation(X)[:50]
        assert np.array_equal(pair_terms(n_c[:, xs], dist, xs), full[:, xs])


def test_the_dashboard_intervals_by_lexelt_chunks_are_those_of_larger_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    inst, rater, P, lex, X = _soft(6, 200, 12)
    lay = make_layout(inst, rater, P, lex, n_lexelts=X)
    whole = bootstrap_figures(inst, rater, None, lex, n_lexelts=X, n_resamples=200, layout=lay)
    monkeypatch.setattr(lexelt_chunks, "_CHUNK_CELLS", 1)
    monkeypatch.setattr(lexelt_chunks, "_TERM_CELLS", 1)
    chunked = bootstrap_figures(inst, rater, None, lex, n_lexelts=X, n_resamples=200, layout=lay)
    pairs = [ci for key in sorted(whole.pairs) for ci in whole.pairs[key]]
    pairs_chunked = [ci for key in sorted(chunked.pairs) for ci in chunked.pairs[key]]
    assert len(pairs) == 6
    for a, b in zip([whole.fleiss, whole.alpha, *pairs], [chunked.fleiss, chunked.alpha, *pairs_chunked], strict=True):
        assert a.low is not None and (a.low, a.high) == (b.low, b.high)
        assert np.array_equal(a.replicates.filled(np.nan), b.replicates.filled(np.nan), equal_nan=True)


def test_no_resamples_give_empty_replicates_with_the_pooled_count_of_some() -> None:
    inst, rater, P, lex, X = _soft(5, 40, 4)
    lay = make_layout(inst, rater, P, lex, n_lexelts=X).pairable()
    items, stats = [(_fleiss_V(lay), lay.seg_lex)], [_fleiss_reps(K)]
    (none, X0, pooled0), = _replicates(items, stats, X, 0, 7)
    (some, X5, pooled5), = _replicates(items, stats, X, 5, 7)
    assert (X0, pooled0) == (X5, pooled5) and pooled0 > 0
    assert len(none) == len(some)
    for (v0, ok0), (v5, ok5) in zip(none, some, strict=True):
        assert v0.shape == (0, *v5.shape[1:]) and ok0.shape == (0, *ok5.shape[1:])
