"""Leaf vectors and tag-set signatures of annotation rows (CSR arrays of tags), all rows at once."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from hieradjudicate.core.arrays import zeros
from hieradjudicate.core.inventory.inventory import Inventory

__all__ = ["leaf_terms", "leaf_vectors", "node_hashes", "tag_set_signature"]


def _node_hash(nodes: np.ndarray) -> np.ndarray:
    """A pseudo-random, odd 62-bit value per node id, for tag-set signatures.

    A pure function of the id (the splitmix64 finaliser), so no table is kept or grown at run
    time and any node id, however large, has its value: the signatures depend on nothing but
    the tags.
    """
    z = nodes.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return (z >> np.uint64(2)).astype(np.int64) | 1


@lru_cache(maxsize=4)
def node_hashes(n: int) -> np.ndarray:
    """The hash of every node id below ``n`` (read-only, kept: 8 bytes a node of an inventory), so that
    the signature of a set of one tag per row, its tag's hash, is one gather (:func:`tag_set_signature`
    gives the same values)."""
    table = _node_hash(np.arange(n))
    table.flags.writeable = False
    return table


def leaf_vectors(inv: Inventory, tag_ptr: np.ndarray, tag_node: np.ndarray, tag_weight: np.ndarray) -> np.ndarray:
    """``p(l) = sum_t w_t D(t)(l)`` for all rows at once (sparse expansion + bincount)."""
    flat, vals = leaf_terms(inv, tag_ptr, tag_node, tag_weight)
    out = zeros((tag_ptr.size - 1, max(inv.K, 1)))
    np.add.at(out.reshape(-1), flat, vals)
    return out


def leaf_terms(inv: Inventory, tag_ptr: np.ndarray, tag_node: np.ndarray,
               tag_weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The terms :func:`leaf_vectors` adds, in its order: cell ``flat`` (``row * K + leaf``, ``K`` the
    widest lexelt's leaves, at least 1) of the ``(rows, K)`` array gets ``vals``."""
    R = tag_ptr.size - 1
    K = max(inv.K, 1)
    tag_row = np.repeat(np.arange(R, dtype=np.int64), np.diff(tag_ptr))
    start = inv.d_ptr[tag_node]
    length = inv.d_ptr[tag_node + 1] - start
    total = int(length.sum())
    first = np.cumsum(length) - length
    idx = np.arange(total, dtype=np.int64) - np.repeat(first - start, length)
    flat = np.repeat(tag_row * K, length) + inv.d_leaf[idx]
    vals = np.repeat(tag_weight, length) * inv.d_prob[idx]
    return flat, vals


def tag_set_signature(tag_ptr: np.ndarray, tag_node: np.ndarray) -> np.ndarray:
    """Order- and duplicate-insensitive signature of each row's tag set."""
    R = tag_ptr.size - 1
    if R == tag_node.size:  # one tag per row (a crowd's labels): the signature is the tag's hash
        if R == 0:
            return np.zeros(0, dtype=np.int64)
        top = int(tag_node.max())
        return node_hashes(top + 1)[tag_node] if top < R else _node_hash(tag_node)
    row = np.repeat(np.arange(R, dtype=np.int64), np.diff(tag_ptr))
    order = np.lexsort((tag_node, row))
    r, t = row[order], tag_node[order]
    keep = np.ones(r.size, dtype=bool)
    keep[1:] = (r[1:] != r[:-1]) | (t[1:] != t[:-1])
    sig = np.zeros(R, dtype=np.int64)
    t = t[keep]
    # hash each node id once when ids are fewer than tags (the usual case), then gather
    h = _node_hash(np.arange(int(t.max()) + 1))[t] if t.size and t.max() < t.size else _node_hash(t)
    np.add.at(sig, r[keep], h)
    return sig
