"""The batched and vectorised scoring paths equal the per-system / loop ones exactly (bit for bit).

* :func:`score_leaf_many` against :func:`score_leaf` called once per system;
* :func:`corpus_figures` (per-lexelt and per-POS figures built from arrays) against the original
  loop over lexelts calling :func:`figures`, kept here as the reference;
* :func:`nearest_gold_distance` (64-bit region keys) against a naive loop over rows.
"""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.scoring.scoring import (
    Figures,
    GroupedFigures,
    LeafScore,
    _unique_rows,
    corpus_figures,
    figures,
    lexelt_pos,
    nearest_gold_distance,
    score_leaf,
    score_leaf_many,
)

NAMES = ["bank.n", "run.v", "fair-j", "add-v", "quick.a", "x", "slow.r", "cold.n"]


def assert_figures_equal(a: Figures, b: Figures) -> None:
    for name in ("score_sum", "attempted", "total", "answered", "precision", "recall", "coverage", "f1"):
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None), name
        if x is not None:
            assert x == y or (np.isnan(x) and np.isnan(y)), (name, x, y)
            assert np.float64(x).tobytes() == np.float64(y).tobytes(), (name, x, y)
    assert a.undefined == b.undefined
    assert list(a.undefined) == list(b.undefined)


def assert_grouped_equal(a: GroupedFigures, b: GroupedFigures) -> None:
    assert_figures_equal(a.overall, b.overall)
    assert list(a.by_lexelt) == list(b.by_lexelt)
    assert list(a.by_pos) == list(b.by_pos)
    for k in a.by_lexelt:
        assert_figures_equal(a.by_lexelt[k], b.by_lexelt[k])
    for k in a.by_pos:
        assert_figures_equal(a.by_pos[k], b.by_pos[k])


def assert_leaf_equal(a: LeafScore, b: LeafScore) -> None:
    assert_grouped_equal(a.figures, b.figures)
    for name in ("cross_entropy", "cost"):
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None), name
        if x is not None:
            assert np.float64(x).tobytes() == np.float64(y).tobytes(), (name, x, y)
    assert (a.n_zero, a.n_scored, a.floor, a.unscored_answers, a.policy) == (
        b.n_zero, b.n_scored, b.floor, b.unscored_answers, b.policy)
    assert a.undefined == b.undefined
    for name in ("cross_entropy_by_lexelt", "cost_by_lexelt"):
        x, y = getattr(a, name), getattr(b, name)
        assert list(x) == list(y)
        assert all(np.float64(x[k]).tobytes() == np.float64(y[k]).tobytes() for k in x), name
    for name in ("instance_score", "instance_attempted", "gold_instances"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape
        assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), name
        assert x.tobytes() == y.tobytes(), name
    assert a.as_dict().keys() == b.as_dict().keys()


def _leaf_dist(rng, X, K):
    pts = rng.random((X, K, 2))
    d = np.linalg.norm(pts[:, :, None] - pts[:, None], axis=-1)
    return d / np.maximum(d.max(axis=(1, 2), keepdims=True), 1e-300)


def _case(seed: int):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    K = int(rng.choice([1, 2, 5, 9, 13]))
    X = int(rng.integers(1, len(NAMES) + 1))
    lex = rng.integers(0, X, n)
    gold_rows = np.sort(rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False)) if seed % 3 else np.arange(n)
    G = rng.random((len(gold_rows), K)) < rng.uniform(0.05, 0.7)
    G[np.arange(len(gold_rows)), rng.integers(0, K, len(gold_rows))] = True
    Ps, rows, atts = [], [], []
    for s in range(int(rng.integers(1, 6))):
        kind = rng.integers(0, 4)
        if kind == 0:
            r = gold_rows.copy()  # the usual case: a row for every gold instance, in gold order
        elif kind == 1:
            r = rows[-1] if rows else gold_rows  # the very same array as another system's
        elif kind == 2:
            r = np.sort(rng.choice(n, size=int(rng.integers(0, n + 1)), replace=False))  # some not in gold
        else:
            r = rng.permutation(gold_rows)[: int(rng.integers(0, len(gold_rows) + 1))]  # unsorted subset
        P = rng.random((len(r), K)) * (rng.random((len(r), K)) < 0.6)
        P[rng.random(len(r)) < 0.1] = 0.0  # some zero scores
        P /= np.maximum(P.sum(1, keepdims=True), 1.0)
        Ps.append(P)
        rows.append(r)
        atts.append(None if rng.random() < 0.5 else rng.uniform(0.2, 1.0, len(r)))
    return rng, n, K, X, lex, gold_rows, G, Ps, rows, atts


@pytest.mark.parametrize("seed", range(60))
def test_score_leaf_many_equals_score_leaf(seed):
    rng, _n, K, X, lex, gold_rows, G, Ps, rows, atts = _case(seed)
    dist = _leaf_dist(rng, X, K)
    gd = nearest_gold_distance(G, lex[gold_rows], dist)
    names = NAMES[:X]
    for kw in ({"leaf_dist": dist}, {"gold_distance": gd}, {}):
        for lexelts in (names, None):
            ref = [score_leaf(P, r, G, lex, gold_rows=gold_rows, lexelts=lexelts, attempted_weight=a, **kw)
                   for P, r, a in zip(Ps, rows, atts)]
            got = score_leaf_many(Ps, rows, G, lex, gold_rows=gold_rows, lexelts=lexelts, attempted_weights=atts,
                                  **kw)
            assert len(got) == len(ref)
            for a, b in zip(got, ref):
                assert_leaf_equal(a, b)
            # the float form of the region (what the app caches) gives the same
            got_f = score_leaf_many(Ps, rows, G.astype(float), lex, gold_rows=gold_rows, lexelts=lexelts,
                                    attempted_weights=atts, **kw)
            for a, b in zip(got_f, ref):
                assert_leaf_equal(a, b)


def test_score_leaf_many_default_gold_rows_and_floor():
    rng = np.random.default_rng(5)
    n, K = 50, 4
    lex = rng.integers(0, 3, n)
    G = np.eye(K, dtype=bool)[rng.integers(0, K, n)]
    Ps = [np.eye(K)[rng.integers(0, K, n)], rng.dirichlet(np.ones(K), n)]
    for floor in (1e-6, 1e-3):
        ref = [score_leaf(P, np.arange(n), G, lex, floor=floor) for P in Ps]
        got = score_leaf_many(Ps, [np.arange(n)] * 2, G, lex, floor=floor)
        for a, b in zip(got, ref):
            assert_leaf_equal(a, b)
    assert score_leaf_many([], [], G, lex) == []


def test_score_leaf_many_errors_like_score_leaf():
    G = np.ones((1, 1), bool)
    with pytest.raises(ValueError, match="more than one"):
        score_leaf_many([np.ones((2, 1))], [np.array([0, 0])], G, np.zeros(1, int))
    with pytest.raises(ValueError, match="shape"):
        score_leaf_many([np.ones((1, 2))], [np.array([0])], G, np.zeros(1, int))
    with pytest.raises(ValueError, match="pass gold_rows"):
        score_leaf_many([np.ones((1, 1))], [np.array([0])], G, np.zeros(2, int))
    # an empty gold region among the scored instances: the cost cannot be computed
    G2 = np.array([[True, False], [False, False]])
    dist = (1 - np.eye(2))[None]
    for rows in (np.arange(2), np.array([1])):
        P = np.full((len(rows), 2), 0.5)
        with pytest.raises(ValueError, match="empty gold region"):
            score_leaf(P, rows, G2, np.zeros(2, int), leaf_dist=dist)
        with pytest.raises(ValueError, match="empty gold region"):
            score_leaf_many([P], [rows], G2, np.zeros(2, int), leaf_dist=dist)
    # ... but not when only instances with a region are scored
    P = np.full((1, 2), 0.5)
    ref = score_leaf(P, np.array([0]), G2, np.zeros(2, int), leaf_dist=dist)
    assert_leaf_equal(score_leaf_many([P], [np.array([0])], G2, np.zeros(2, int), leaf_dist=dist)[0], ref)


# -- corpus_figures: the original loop over lexelts is the reference ---------------------------------
def corpus_figures_loop(score, attempted, lexelt_code, lexelts):
    n_lex = len(lexelts)
    answered = ~np.isnan(score)
    s = np.where(answered, score, 0.0)
    code = np.asarray(lexelt_code, dtype=np.int64)
    lex_score = np.bincount(code, weights=s, minlength=n_lex)
    lex_att = np.bincount(code, weights=attempted, minlength=n_lex)
    lex_total = np.bincount(code, minlength=n_lex)
    lex_ans = np.bincount(code, weights=answered, minlength=n_lex)
    by_lexelt = {}
    pos_sums = {}
    for j in np.flatnonzero(lex_total).tolist():
        name = lexelts[j]
        by_lexelt[name] = figures(lex_score[j], lex_att[j], int(lex_total[j]), int(lex_ans[j]))
        acc = pos_sums.setdefault(lexelt_pos(name), [0.0, 0.0, 0, 0])
        acc[0] += lex_score[j]
        acc[1] += lex_att[j]
        acc[2] += int(lex_total[j])
        acc[3] += int(lex_ans[j])
    by_pos = {p: figures(a[0], a[1], int(a[2]), int(a[3])) for p, a in sorted(pos_sums.items())}
    overall = figures(float(s.sum()), float(np.sum(attempted)), int(s.shape[0]), int(answered.sum()))
    return GroupedFigures(overall, by_lexelt, by_pos)


@pytest.mark.parametrize("seed", range(40))
def test_corpus_figures_equals_loop(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(0, 300))
    X = len(NAMES)
    code = rng.integers(0, int(rng.integers(1, X + 1)), n)
    score = rng.random(n) * (rng.random(n) < 0.7)
    score[rng.random(n) < rng.uniform(0, 1)] = np.nan  # unanswered; whole lexelts unanswered too
    att = np.where(np.isnan(score), 0.0, rng.choice([1.0, 0.5, 0.25], n))
    if seed % 4 == 0:
        att[:] = 0.0  # nothing attempted anywhere
    assert_grouped_equal(corpus_figures(score, att, code, NAMES), corpus_figures_loop(score, att, code, NAMES))


def test_nearest_gold_distance_equals_naive_loop():
    rng = np.random.default_rng(11)
    for trial in range(200):
        m = int(rng.integers(0, 120))
        K = int(rng.choice([1, 3, 8, 9, 17, 48, 49, 70]))
        X = int(rng.integers(1, 20)) if trial % 20 else 5000  # 5000 x 2^K: the sort, not the table
        R = rng.random((m, K)) < rng.uniform(0, 1)
        lex = rng.integers(0, X, m)
        D = rng.random((X, K, K))
        got = nearest_gold_distance(R, lex, D)
        naive = np.array([[min((D[lex[i], g, l] for g in np.flatnonzero(R[i])), default=np.inf) for l in range(K)]
                          for i in range(m)]).reshape(m, K)
        assert got.shape == (m, K) and np.array_equal(got, naive)


def test_unique_rows_still_groups_rows():
    R = np.array([[1, 0], [0, 1], [1, 0], [1, 0]], bool)
    first, inverse = _unique_rows(R, np.array([0, 0, 0, 1]))
    assert len(first) == 3
    assert inverse[0] == inverse[2] != inverse[3]
