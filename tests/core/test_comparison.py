"""System comparison (Pedersen 2002): kappa on correct/incorrect, optimal combination, difficulty."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from hieradjudicate.core.compare.comparison import (
    best_subsets,
    compare_systems,
    correct_matrix,
    instance_difficulty,
    optimal_combination,
    pairwise_agreement,
)


@pytest.fixture
def scores():
    rng = np.random.default_rng(7)
    s = rng.choice([0.0, 0.5, 1.0, np.nan], size=(5, 200), p=[.3, .1, .5, .1])
    s[1] = np.where(rng.random(200) < .8, s[0], s[1])  # a correlated pair
    return s


def test_correct_matrix_threshold_and_nan():
    s = np.array([[1.0, 0.6 + 0.4, 0.5, np.nan, 0.9999999999999]])
    np.testing.assert_array_equal(correct_matrix(s)[0], [True, True, False, False, True])
    np.testing.assert_array_equal(correct_matrix(s, threshold=0.5)[0], [True, True, True, False, True])


def test_kappa_matches_sklearn(scores):
    c = correct_matrix(scores)
    pw = pairwise_agreement(c)
    for a, b in itertools.combinations(range(c.shape[0]), 2):
        assert float(pw.kappa[a, b]) == pytest.approx(cohen_kappa_score(c[a], c[b]), abs=1e-12)
        assert float(pw.kappa[a, b]) == pytest.approx(float(pw.kappa[b, a]), abs=1e-14)
        n = c.shape[1]
        assert pw.both[a, b] == pytest.approx(np.sum(c[a] & c[b]) / n)
        assert pw.one[a, b] == pytest.approx(np.sum(c[a] ^ c[b]) / n)
        assert pw.neither[a, b] == pytest.approx(np.sum(~c[a] & ~c[b]) / n)
        assert pw.both[a, b] + pw.one[a, b] + pw.neither[a, b] == pytest.approx(1.0)
    assert float(pw.kappa[0, 0]) == pytest.approx(1.0)


def test_kappa_undefined_when_chance_is_one():
    c = np.array([[1, 1, 1], [1, 1, 1], [0, 0, 0]], bool)
    pw = pairwise_agreement(c, names=["a", "b", "z"])
    assert pw.kappa.mask[0, 1] and "Pr(E) = 1" in pw.reason(0, 1)
    assert not pw.kappa.mask[0, 2] and float(pw.kappa[0, 2]) == 0.0  # always-right vs always-wrong
    empty = pairwise_agreement(np.zeros((2, 0), bool))
    assert empty.kappa.mask.all() and empty.reason(0, 1) is not None


def test_optimal_combination_and_best_subsets(scores):
    c = correct_matrix(scores)
    S = c.shape[0]
    assert optimal_combination(c, [0]) == pytest.approx(c[0].mean())
    assert optimal_combination(c) == pytest.approx(c.any(0).mean())
    best = best_subsets(c, names=list("abcde"))
    for b in best:
        brute = max(itertools.combinations(range(S), b.size), key=lambda t: c[list(t)].any(0).mean())
        assert b.optimal == pytest.approx(c[list(brute)].any(0).mean(), abs=1e-12)
        assert b.optimal == pytest.approx(optimal_combination(c, b.systems), abs=1e-12)
        assert b.names == tuple("abcde"[s] for s in b.systems)
    assert [b.size for b in best] == [1, 2, 3, 4, 5]
    assert best[-1].optimal == pytest.approx(optimal_combination(c))
    assert optimal_combination(np.zeros((2, 0), bool)) is None


def test_difficulty(scores):
    c = correct_matrix(scores)
    lex = np.arange(200) % 3
    d = instance_difficulty(c, inst_lexelt=lex, lexelts=["a.n", "b.v", "c.a"])
    assert d.histogram.sum() == 200 and d.histogram.shape == (6,)
    for k in range(6):
        assert d.histogram[k] == np.sum(c.sum(0) == k)
    np.testing.assert_array_equal(d.unsolved, np.flatnonzero(~c.any(0)))
    assert d.by_lexelt["b.v"] == pytest.approx(c[:, lex == 1].sum(0).mean())
    assert d.lexelt_instances == {"a.n": 67, "b.v": 67, "c.a": 66}


def test_pedersen_toy_example():
    # 4 instances, 3 systems; instance 3 nobody gets; instance 0 everybody
    s = np.array([[1, 1, 0, 0], [1, 0, 1, 0], [1, 1, np.nan, 0.5]], float)
    r = compare_systems(s, names=["x", "y", "z"], inst_lexelt=np.array([0, 0, 1, 1]),
                        lexelts=["p.n", "q.v"])
    np.testing.assert_array_equal(r.difficulty.histogram, [1, 1, 1, 1])
    np.testing.assert_array_equal(r.difficulty.unsolved, [3])
    assert r.difficulty.by_lexelt == {"p.n": 2.5, "q.v": 0.5}
    assert r.optimal_all == 0.75
    assert r.best_subsets[0].names == ("x",) and r.best_subsets[1].optimal == 0.75
    np.testing.assert_allclose(r.accuracy, [0.5, 0.5, 0.5])
    assert compare_systems(np.zeros((2, 0))).accuracy is None
