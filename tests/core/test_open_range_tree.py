"""The leaf policy's range over the open instances' outcomes (#25 gap 3): the subtree recursion
against enumerating every set of gold tags (every subset of the selectable nodes) on random trees."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from hieradjudicate.core.scoring.open_range_tree import subtree_extremes


def random_tree(rng) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Nodes in pre-order; an internal node may get a self leaf (not selectable on its own)."""
    parent = [-1]
    selectable = [True]
    for _ in range(int(rng.integers(3, 8))):
        parent.append(int(rng.integers(-1, len(parent))))
        selectable.append(True)
    parent = np.array(parent)
    internal = np.flatnonzero(np.bincount(parent[parent >= 0], minlength=parent.size) > 0)
    for v in internal.tolist():
        if rng.random() < 0.5:  # a self leaf under v
            parent = np.append(parent, v)
            selectable.append(False)
    V = parent.size
    is_leaf = np.bincount(parent[parent >= 0], minlength=V) == 0
    leaves = np.flatnonzero(is_leaf)
    member = np.zeros((V, leaves.size), bool)
    for slot, leaf in enumerate(leaves.tolist()):
        v = leaf
        while v >= 0:
            member[v, slot] = True
            v = parent[v]
    return member, parent, np.array(selectable)


@pytest.mark.parametrize("seed", range(12))
def test_subtree_extremes_equal_enumerating_every_gold(seed: int) -> None:
    rng = np.random.default_rng(seed)
    member, parent, selectable = random_tree(rng)
    C = rng.normal(size=(4, member.shape[1]))
    C[0] = np.abs(C[0])  # one instance where every leaf helps A
    tags = np.flatnonzero(selectable)
    values = [np.zeros(C.shape[0])]
    for r in range(1, tags.size + 1):
        for g in itertools.combinations(tags.tolist(), r):
            region = member[list(g)].any(axis=0)
            values.append(C[:, region].sum(axis=1))
    values = np.array(values)
    low, high = subtree_extremes(C, member, parent, selectable)
    np.testing.assert_allclose(high, values.max(axis=0), atol=1e-12)
    np.testing.assert_allclose(low, values.min(axis=0), atol=1e-12)
    assert high[0] == pytest.approx(C[0].sum())  # all leaves reachable: choose every top
