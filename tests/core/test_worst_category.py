"""Worst pairwise category over a crowd's answers (core.granularity.worst_category), against pairs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from hieradjudicate.core.agreement.layout import layout_from_blocks, make_layout
from hieradjudicate.core.agreement.granularity import (
    COMPATIBLE,
    DISJOINT,
    IDENTICAL,
    OVERLAPPING,
    instance_disagreement,
    pair_category_counts,
    worst_category,
)


def brute(inst, sig, sup, n):
    out = np.full(n, -1, np.int8)
    for i in range(n):
        rows = np.flatnonzero(inst == i)
        if len(rows) < 2:
            continue
        cats = [instance_disagreement(sup[[a]].astype(float), sup[[b]].astype(float),
                                      np.array([sig[a] == sig[b]]))[1][0] for a, b in itertools.combinations(rows, 2)]
        out[i] = max(cats)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_equals_every_pair_compared(seed):
    rng = np.random.default_rng(seed)
    n, R, K = int(rng.integers(1, 9)), int(rng.integers(0, 40)), int(rng.integers(1, 20))
    inst = rng.integers(0, n, R)
    sup = rng.random((R, K)) < 0.25
    sup[np.arange(R), rng.integers(0, K, R)] = True
    # equal supports usually share a signature; sometimes different tags give the same support
    sig = np.array([hash(tuple(s)) % 997 for s in sup], np.int64) + rng.integers(0, 2, R) * 1000
    np.testing.assert_array_equal(worst_category(inst, sig, sup, n), brute(inst, sig, sup, n))


def test_three_answers_that_meet_pairwise_but_share_no_leaf_are_overlapping_not_disjoint():
    # {A,B}, {B,C}, {A,C}: every pair meets; no leaf is in all three (a leaf-count shortcut says disjoint)
    sup = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]], bool)
    got = worst_category(np.zeros(3, np.int64), np.array([1, 2, 3]), sup, 1)
    assert got[0] == OVERLAPPING


def test_categories_and_single_answers():
    sup = np.array([[1, 0, 0], [1, 0, 0], [1, 1, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0]], bool)
    inst = np.array([0, 0, 1, 1, 2, 2])
    sig = np.array([7, 7, 8, 9, 1, 2])
    got = worst_category(inst, sig, sup, 4)
    assert got.tolist() == [IDENTICAL, COMPATIBLE, DISJOINT, -1]


def test_pairs_are_built_blockwise_without_changing_the_answer(monkeypatch):
    import hieradjudicate.core.agreement.granularity as g

    rng = np.random.default_rng(3)
    n, R, K = 30, 600, 6
    inst = rng.integers(0, n, R)
    sup = rng.random((R, K)) < 0.3
    sup[np.arange(R), rng.integers(0, K, R)] = True
    sig = np.array([hash(tuple(s)) for s in sup], np.int64)
    whole = worst_category(inst, sig, sup, n)
    monkeypatch.setattr(g, "_PAIR_BLOCK", 5)  # far smaller than one instance's pairs
    np.testing.assert_array_equal(worst_category(inst, sig, sup, n), whole)
    np.testing.assert_array_equal(whole, brute(inst, sig, sup, n))


def test_layout_from_blocks_equals_the_layout_of_the_concatenation():
    rng = np.random.default_rng(0)
    n = 60
    lexs = rng.integers(0, 4, n)
    ib = [np.sort(rng.choice(n, int(rng.integers(0, 40)), replace=False)) for _ in range(6)]
    Pb = [rng.random((len(b), 3)) for b in ib]
    a = layout_from_blocks(ib, Pb, lexs, n_lexelts=4)
    b = make_layout(np.concatenate(ib), np.repeat(np.arange(6), [len(x) for x in ib]), np.concatenate(Pb), lexs,
                    n_lexelts=4)
    for f in ("inst", "rater", "P", "row_lex", "row_seg", "seg_start", "seg_m", "seg_inst", "seg_lex", "lex_rows",
              "lex_segs"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f), err_msg=f)


@pytest.mark.parametrize("K", [3, 17, 64, 70])  # one 64-bit word per support up to 64 leaves, bytes beyond
def test_pair_category_counts_equal_every_pair_compared(K):
    rng = np.random.default_rng(K)
    n, m = 25, 6
    rows = [(i, r) for i in range(n) for r in range(m) if rng.random() < 0.6]
    inst = np.array([x[0] for x in rows])
    rater = np.array([x[1] for x in rows])
    sup = rng.random((len(rows), K)) < 3.0 / K
    sup[np.arange(len(rows)), rng.integers(0, K, len(rows))] = True
    sig = np.array([hash(tuple(s)) % 97 for s in sup]) + rng.integers(0, 2, len(rows)) * 100
    got = pair_category_counts(inst, rater, sig, sup, m)
    want = np.zeros((m, m, 4), np.int64)
    for i in range(n):
        idx = np.flatnonzero(inst == i)
        for x, y in itertools.permutations(idx, 2):
            _, c = instance_disagreement(sup[[x]].astype(float), sup[[y]].astype(float), np.array([sig[x] == sig[y]]))
            want[rater[x], rater[y], c[0]] += 1
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(worst_category(inst, sig, sup, n), brute(inst, sig, sup, n))
