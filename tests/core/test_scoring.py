"""Leaf policy (metrics.md section 2) and corpus figures."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from hieradjudicate.core.scoring.scoring import corpus_figures, figures, lexelt_pos, score_leaf

LEAVES = ["A.1a", "A.1b", "A.2", "B.1", "B.2", "B.3"]
# Figure 1: D(tag) as leaf vectors, built by hand.
D = {
    "A": [F(1, 4), F(1, 4), F(1, 2), 0, 0, 0],
    "A.1": [F(1, 2), F(1, 2), 0, 0, 0, 0],
    "B": [0, 0, 0, F(1, 3), F(1, 3), F(1, 3)],
    **{leaf: [1 if j == i else 0 for j in range(6)] for i, leaf in enumerate(LEAVES)},
}
REGION = {
    "A": {0, 1, 2}, "A.1": {0, 1}, "B": {3, 4, 5},
    **{leaf: {i} for i, leaf in enumerate(LEAVES)},
}

TABLE = [
    ("B", "A", F(0)),
    ("A", "A", F(1)),
    ("A", "A.1", F(1)),
    ("A", "A.1b", F(1)),
    ("A.1", "A", F(1, 2)),
    ("A.1 A.2", "A", F(1)),
    ("A.1a", "A", F(1, 4)),
    ("A.1a B.2", "B", F(1, 3)),
    ("A.1a B.2", "A.1", F(1, 2)),
    ("A.1a B.2", "A.1 B.2", F(3, 4)),
    ("A.1a B.2", "A.1 B", F(5, 12)),
]


def leaf_vector(answer: str) -> list[float]:
    """Unweighted multi-tag answers are uniform mixtures of their tags' D."""
    tags = answer.split()
    return [float(sum(F(D[t][j]) for t in tags) / len(tags)) for j in range(6)]


def region(gold: str) -> list[bool]:
    leaves = set().union(*(REGION[t] for t in gold.split()))
    return [j in leaves for j in range(6)]


@pytest.mark.parametrize("gold,answer,expected", TABLE)
def test_figure1_table_row(gold, answer, expected):
    r = score_leaf(np.array([leaf_vector(answer)]), np.array([0]), np.array([region(gold)]),
                   np.array([0]), lexelts=["x.n"])
    assert r.instance_score[0] == pytest.approx(float(expected), abs=1e-12)
    assert r.figures.overall.precision == pytest.approx(float(expected), abs=1e-12)


def test_figure1_table_as_corpus():
    P = np.array([leaf_vector(a) for _, a, _ in TABLE])
    G = np.array([region(g) for g, _, _ in TABLE])
    n = len(TABLE)
    r = score_leaf(P, np.arange(n), G, np.zeros(n, int), lexelts=["x.n"])
    np.testing.assert_allclose(r.instance_score, [float(e) for *_, e in TABLE], atol=1e-12)
    total = float(sum(e for *_, e in TABLE))
    assert r.figures.overall.score_sum == pytest.approx(total, abs=1e-12)
    assert r.n_zero == 1
    logs = [-np.log2(max(float(e), 1e-6)) for *_, e in TABLE]
    assert r.cross_entropy == pytest.approx(np.mean(logs), abs=1e-12)
    assert r.figures.by_pos["n"].recall == pytest.approx(total / n, abs=1e-12)


@pytest.mark.parametrize("answer,expected", [
    ({"A": 1}, 1.0),
    ({"A": .5, "B": .5}, 1.0),
    ({"A": .3, "C": .7}, .3),
    ({"A": .3, "B": .4, "C": .3}, .7),
    ({"A": 1 / 3, "B": 1 / 3, "C": 1 / 3}, 2 / 3),
])
def test_flat_examples(answer, expected):
    flat = ["A", "B", "C", "D", "E"]
    P = np.array([[answer.get(t, 0.0) for t in flat]])
    G = np.array([[t in ("A", "B") for t in flat]])
    r = score_leaf(P, np.array([0]), G, np.array([0]))
    assert r.instance_score[0] == pytest.approx(expected, abs=1e-12)


def test_partial_coverage_and_unscored_rows():
    # 3 instances, gold on 0 and 2; system answers 0 (right), 1 (no gold), not 2
    P = np.array([[1.0, 0.0], [0.0, 1.0]])
    G = np.array([[True, False], [False, True]])
    r = score_leaf(P, np.array([0, 1]), G, np.array([0, 0, 1]), gold_rows=np.array([0, 2]),
                   lexelts=["a.n", "b.v"])
    o = r.figures.overall
    assert (o.score_sum, o.attempted, o.total) == (1.0, 1.0, 2)
    assert (o.precision, o.recall, o.coverage) == (1.0, 0.5, 0.5)
    assert o.f1 == pytest.approx(2 / 3)
    assert r.unscored_answers == 1
    assert np.isnan(r.instance_score[1])
    assert r.figures.by_lexelt["b.v"].precision is None
    assert "precision" in r.figures.by_lexelt["b.v"].undefined
    assert r.figures.by_pos["v"].recall == 0.0


def test_distance_cost_against_naive():
    rng = np.random.default_rng(0)
    n, K, X = 40, 5, 3
    lex = rng.integers(0, X, n)
    pts = rng.random((X, K, 2))
    dist = np.linalg.norm(pts[:, :, None] - pts[:, None], axis=-1)
    dist /= dist.max(axis=(1, 2), keepdims=True)
    G = rng.random((n, K)) < 0.3
    G[np.arange(n), rng.integers(0, K, n)] = True
    P = rng.random((n, K))
    P /= P.sum(1, keepdims=True)
    r = score_leaf(P, np.arange(n), G, lex, leaf_dist=dist)
    naive = []
    for i in range(n):
        d = [min(dist[lex[i], g, l] for g in np.flatnonzero(G[i])) for l in range(K)]
        naive.append(sum(P[i, l] * d[l] for l in range(K)))
    assert r.cost == pytest.approx(np.mean(naive), abs=1e-12)
    for j in range(X):
        assert r.cost_by_lexelt[str(j)] == pytest.approx(np.mean(np.array(naive)[lex == j]), abs=1e-12)


def test_perfect_system_zero_cost_and_entropy():
    G = np.eye(4, dtype=bool)
    dist = (1 - np.eye(4))[None]
    r = score_leaf(G.astype(float), np.arange(4), G, np.zeros(4, int), leaf_dist=dist)
    assert r.cost == 0.0 and r.cross_entropy == 0.0 and r.figures.overall.f1 == 1.0


def test_annotator_as_gold_upper_bound():
    """An annotator's own leaf vectors as the system against its own regions score 1."""
    P = np.array([leaf_vector("A.1a"), leaf_vector("B.2")])
    G = np.array([region("A.1a"), region("B.2")])
    assert score_leaf(P, np.arange(2), G, np.zeros(2, int)).figures.overall.precision == 1.0


def test_undefined_policies():
    f = figures(0.0, 0.0, 0)
    assert f.precision is None and f.recall is None and f.coverage is None and f.f1 is None
    assert set(f.undefined) == {"precision", "recall", "coverage", "f1"}
    z = figures(0.0, 2.0, 4)
    assert (z.precision, z.recall, z.f1) == (0.0, 0.0, 0.0)
    r = score_leaf(np.zeros((0, 3)), np.zeros(0, int), np.ones((2, 3), bool), np.zeros(2, int))
    assert r.cross_entropy is None and "cross_entropy" in r.as_dict()["undefined"]


def test_errors():
    with pytest.raises(ValueError, match="more than one"):
        score_leaf(np.ones((2, 1)), np.array([0, 0]), np.ones((1, 1), bool), np.zeros(1, int))
    with pytest.raises(ValueError, match="shape"):
        score_leaf(np.ones((1, 2)), np.array([0]), np.ones((1, 1), bool), np.zeros(1, int))


@pytest.mark.parametrize("lexelt,pos", [("interest.n", "n"), ("add-v", "v"), ("fair.a", "a"),
                                        ("well.r", "r"), ("bank", "?"), ("x.j", "?")])
def test_lexelt_pos(lexelt, pos):
    assert lexelt_pos(lexelt) == pos


def test_corpus_figures_order_invariant():
    rng = np.random.default_rng(1)
    s = np.where(rng.random(50) < .2, np.nan, rng.random(50))
    a = np.where(np.isnan(s), 0.0, 1.0)
    c = rng.integers(0, 3, 50)
    perm = rng.permutation(50)
    g1 = corpus_figures(s, a, c, ["a.n", "b.v", "c.n"])
    g2 = corpus_figures(s[perm], a[perm], c[perm], ["a.n", "b.v", "c.n"])
    assert g1.overall.precision == pytest.approx(g2.overall.precision)
    assert g1.by_pos["n"].recall == pytest.approx(g2.by_pos["n"].recall)
    assert g1.by_pos["n"].total == np.count_nonzero(c != 1)
