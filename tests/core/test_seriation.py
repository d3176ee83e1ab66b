"""Heat-map orders (#14 item 2): mean agreement and average-linkage leaf order against scipy."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.seriation import cluster_order, mean_agreement, mean_order


def _blocks(seed=0):
    rng = np.random.default_rng(seed)
    groups = rng.permutation(np.repeat([0, 1, 2], [5, 7, 4]))
    m = groups.size
    v = np.where(groups[:, None] == groups[None, :], 0.8, 0.1) + rng.normal(0, 0.02, (m, m))
    v = (v + v.T) / 2
    np.fill_diagonal(v, np.nan)
    return v, groups


def test_mean_order_highest_first_undefined_last():
    v = np.array([[np.nan, 0.2, np.nan], [0.2, np.nan, 0.9], [np.nan, 0.9, np.nan]])
    np.testing.assert_allclose(mean_agreement(v), [0.2, 0.55, 0.9])
    assert mean_order(v).tolist() == [2, 1, 0]
    lonely = np.full((3, 3), np.nan)
    lonely[0, 1] = lonely[1, 0] = 0.5
    assert mean_order(lonely).tolist() == [0, 1, 2]
    masked = np.ma.masked_invalid(v)
    assert mean_order(masked).tolist() == [2, 1, 0]


def test_cluster_order_puts_each_block_together():
    v, groups = _blocks()
    order = cluster_order(v)
    assert sorted(order.tolist()) == list(range(groups.size))
    runs = np.count_nonzero(np.diff(groups[order])) + 1
    assert runs == 3  # every block contiguous


def test_cluster_order_matches_scipy_average_linkage_clusters():
    hierarchy = pytest.importorskip("scipy.cluster.hierarchy")
    from scipy.spatial.distance import squareform

    v, _ = _blocks(3)
    d = 1.0 - v
    np.fill_diagonal(d, 0.0)
    z = hierarchy.linkage(squareform(d, checks=False), method="average")
    ref = hierarchy.fcluster(z, 3, criterion="maxclust")
    order = cluster_order(v)
    # the same three clusters, each one contiguous run in our order
    runs = np.count_nonzero(np.diff(ref[order])) + 1
    assert runs == 3


def test_pairs_sharing_nothing_join_last_and_tiny_inputs():
    v = np.full((4, 4), np.nan)
    v[0, 1] = v[1, 0] = 0.9
    v[2, 3] = v[3, 2] = 0.8
    order = cluster_order(v).tolist()
    assert {tuple(sorted(order[:2])), tuple(sorted(order[2:]))} == {(0, 1), (2, 3)}
    assert cluster_order(np.zeros((0, 0))).tolist() == []
    assert cluster_order(np.full((2, 2), np.nan)).tolist() == [0, 1]
