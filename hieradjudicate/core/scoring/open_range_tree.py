"""The leaf policy's range of a difference over the outcomes of the open instances.

Under the leaf policy an answer scores the mass of its leaf vector ``p`` inside the gold
region: the union of the leaves under the gold tags.  A gold tag is a node of the sense
tree (a self leaf -- "the sense itself" -- comes only with its sense, never alone), so the
regions an open instance can get are the unions of the subtrees of chosen nodes.  With
the denominators fixed (``P = S / W``, ``R = S / n``, ``F1 = 2 S / (W + n)``: the attempted
weight and the instance count do not depend on the gold), the difference ``m_A - m_B``
is ``base + sum over open instances of sum over l in region_i of c_i(l)`` with
``c_i = k_A p_A,i - k_B p_B,i``, separable per instance.  Its largest value per instance
is a tree recursion: the best a subtree can add is

    best(v) = max(0, [v is a tag] * total(v), sum of best(child) over v's children)

(choose ``v`` and cover its whole subtree, or leave it and choose below), summed over the
top-level senses; its smallest is ``-best`` of ``-c``.  Every level of the tree is one
matrix product over all open instances of a lexelt: no loop per instance.
"""

from __future__ import annotations

import numpy as np


def subtree_extremes(C: np.ndarray, member: np.ndarray, parent: np.ndarray, selectable: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` per row of ``C`` of ``sum over l in region of C[i, l]`` over every region
    that is a union of subtrees of selectable nodes (the empty union included: 0).

    Parameters
    ----------
    C : (m, K) per open instance, per leaf slot of the lexelt: the difference's coefficient.
    member : (V, K) bool, the leaf slots under each node of the lexelt (a leaf: itself).
    parent : (V,) index of each node's parent among the V nodes (-1: a top-level sense).
    selectable : (V,) bool, whether a gold tag can be the node (False for self leaves).
    """
    C = np.asarray(C, np.float64)
    return -_best(-C, member, parent, selectable), _best(C, member, parent, selectable)


def _best(C: np.ndarray, member: np.ndarray, parent: np.ndarray, selectable: np.ndarray) -> np.ndarray:
    V = parent.size
    depth = np.zeros(V, np.int64)
    for _ in range(V):  # depth by the parent chain (a tree of V nodes is at most V deep)
        nxt = np.where(parent >= 0, depth[np.maximum(parent, 0)] + 1, 0)
        if np.array_equal(nxt, depth):
            break
        depth = nxt
    total = C @ member.T.astype(np.float64)  # (m, V): the whole subtree of each node
    best = np.zeros_like(total)
    child = np.zeros((V, V))
    has = parent >= 0
    child[np.flatnonzero(has), parent[has]] = 1.0  # child[u, v] = 1: u is a child of v
    chosen = np.where(selectable, total, -np.inf)
    for d in range(int(depth.max(initial=0)), -1, -1):
        at = np.flatnonzero(depth == d)
        below = best @ child[:, at]
        best[:, at] = np.maximum(np.maximum(below, chosen[:, at]), 0.0)
    return best[:, parent < 0].sum(axis=1)


def lexelt_tree(inv, x: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(member (V, K_x), parent (V,), selectable (V,))`` of lexelt ``x`` of an
    :class:`~hieradjudicate.core.inventory.inventory.Inventory` (nodes local to the lexelt, in its order)."""
    nodes = np.asarray(inv.lexelt_nodes[x], np.int64)
    local = np.full(inv.n_nodes, -1, np.int64)
    local[nodes] = np.arange(nodes.size)
    par = np.asarray(inv.node_parent, np.int64)[nodes]
    parent = np.where(par >= 0, local[np.maximum(par, 0)], -1)
    leaves = np.asarray(inv.lexelt_leaf_nodes[x], np.int64)
    member = np.zeros((nodes.size, leaves.size), bool)
    slot = np.arange(leaves.size)
    cur = local[leaves]
    while cur.size:  # every leaf marks itself and each ancestor, one tree level per pass
        member[cur, slot] = True
        keep = parent[cur] >= 0
        cur, slot = parent[cur][keep], slot[keep]
    return member, parent, np.asarray(inv.node_self_of, np.int64)[nodes] < 0


def _coef(metric: str, W: float, n: int) -> float | None:
    if metric == "recall":
        return 1.0 / n if n else None
    if W <= 0:
        return None
    return 1.0 / W if metric == "precision" else 2.0 / (W + n)


def leaf_difference_range(inv, open_lexelt: np.ndarray, a: tuple, b: tuple, n_decided: int) -> dict[str, dict]:
    """``{metric: {"observed", "low", "high", "could_flip"}}`` of ``m_A - m_B`` under the leaf policy.

    ``a``/``b`` = ``(S, W, P, att)``: the score and attempted sums on the decided instances, the
    leaf vectors ``P`` (n_open, K; zeros where not answered) and attempted weights ``att`` (n_open,)
    on the open instances, whose lexelts are ``open_lexelt``."""
    (Sa, Wa, Pa, att_a), (Sb, Wb, Pb, att_b) = a, b
    n_open = open_lexelt.size
    n_all = n_decided + n_open
    trees = {int(x): lexelt_tree(inv, int(x)) for x in np.unique(open_lexelt).tolist()}
    out = {}
    for m in ("precision", "recall", "f1"):
        ka_dec, kb_dec = _coef(m, Wa, n_decided), _coef(m, Wb, n_decided)
        ka, kb = _coef(m, Wa + float(att_a.sum()), n_all), _coef(m, Wb + float(att_b.sum()), n_all)
        if None in (ka_dec, kb_dec, ka, kb):
            out[m] = {"observed": None, "low": None, "high": None, "could_flip": None}
            continue
        observed = ka_dec * Sa - kb_dec * Sb
        low = high = ka * Sa - kb * Sb
        C = ka * Pa - kb * Pb
        for x, (member, parent, selectable) in trees.items():
            rows = np.flatnonzero(open_lexelt == x)
            lo, hi = subtree_extremes(C[rows][:, :member.shape[1]], member, parent, selectable)
            low, high = low + float(lo.sum()), high + float(hi.sum())
        flip = low <= 0 if observed > 0 else (high >= 0 if observed < 0 else bool(low < 0 or high > 0))
        out[m] = {"observed": observed, "low": float(low), "high": float(high), "could_flip": bool(flip)}
    return out


__all__ = ["leaf_difference_range", "lexelt_tree", "subtree_extremes"]
