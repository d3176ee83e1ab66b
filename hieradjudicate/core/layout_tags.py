"""The layout of annotation sets computed from their tags, without their leaf vectors.

:meth:`~hieradjudicate.core.model.Corpus.layout` needs the leaf vectors of every set in
(lexelt, instance) order.  Made from the sets' ``leaves`` that is two ``(R, K)`` arrays (MASC:
147 MB each, mostly page faults); made from the tags it is one: the rows are placed by
:func:`~hieradjudicate.core.agreement.layout.block_positions`, their tags gathered in that order, and
:func:`~hieradjudicate.core.inventory.leaves.leaf_vectors` computes each row exactly as it computes it for
its set.  When every row is one tag whose leaf vector is a unit vector (a crowd's labels), the
layout also knows each row's leaf (see :attr:`~hieradjudicate.core.agreement.layout.Layout.onehot_leaf`);
otherwise, when the leaf vectors are mostly zeros (all-words keys: a few rows of two senses among rows
of one leaf of up to 25), it holds each row's nonzero entries
(:class:`~hieradjudicate.core.agreement.layout_sparse.SparseLayout`), and only dense leaf vectors
(soft labels over most leaves) are laid out dense.
"""

from __future__ import annotations

import numpy as np

from dataclasses import fields
from functools import cached_property

from hieradjudicate.core.agreement.layout import Layout, _layout_sorted, block_positions
from hieradjudicate.core.agreement.layout_sparse import SparseLayout, sparse_rows
from hieradjudicate.core.arrays import narrow, zeros
from hieradjudicate.core.inventory.inventory import Inventory
from hieradjudicate.core.inventory.leaves import leaf_terms


def layout_from_tags(inv: Inventory, sets: list, inst_lexelt: np.ndarray) -> Layout:
    """The layout of ``sets`` (rater ``j`` = ``sets[j]``, each an
    :class:`~hieradjudicate.core.model.AnnotationSet`); equal to
    :func:`~hieradjudicate.core.agreement.layout.layout_from_blocks` of their rows and leaf vectors."""
    inst_lexelt = np.asarray(inst_lexelt, dtype=np.int64)
    positions, inst = block_positions([np.asarray(s.rows, np.int64) for s in sets], inst_lexelt)
    R = len(inst)
    rater = np.empty(R, dtype=np.int32 if len(sets) < 2**31 else np.int64)  # LeafLayout's width (narrow)
    for j, pos in enumerate(positions):
        rater[pos] = j
    K = max(inv.K, 1)
    leaf = _unit_leaves(inv, sets, positions, R, np.int32 if K < 2**31 else np.int64)
    if leaf is not None:
        row_lex = inst_lexelt[inst]
        inst = narrow(inst)  # the 64-bit column freed before the layout's arrays are made
        return LeafLayout.of(inst, rater, leaf, K, row_lex, len(inv.lexelts))
    rater = rater.astype(np.int64)
    source_row = np.empty(R, dtype=np.int64)  # each sorted row's row in the sets side by side
    offset = 0
    for pos in positions:
        source_row[pos] = np.arange(offset, offset + len(pos))
        offset += len(pos)
    tag_offset = np.cumsum([0] + [s.tag_node.size for s in sets])
    tag_start = np.concatenate([s.tag_ptr[:-1] + o for s, o in zip(sets, tag_offset.tolist())])
    counts = np.concatenate([np.diff(s.tag_ptr) for s in sets])[source_row]
    ptr = np.zeros(R + 1, dtype=np.int64)
    np.cumsum(counts, out=ptr[1:])
    idx = np.repeat(tag_start[source_row] - ptr[:-1], counts) + np.arange(int(ptr[-1]))
    node = np.concatenate([s.tag_node for s in sets])[idx]
    weight = np.concatenate([s.tag_weight for s in sets])[idx]
    flat, vals = leaf_terms(inv, ptr, node, weight)
    del node, weight, idx
    if 3 * len(vals) < R * K:  # mostly zeros (all-words keys: one leaf of 25 on most rows): the entries
        row_p, col, val = sparse_rows(flat, vals, R, K)
        return SparseLayout.of(inst, rater, row_p, col, val, K, inst_lexelt[inst], len(inv.lexelts))
    P = zeros((R, K))  # leaf_vectors of the sorted rows
    np.add.at(P.reshape(-1), flat, vals)
    return _layout_sorted(inst, rater, P, inst_lexelt[inst], len(inv.lexelts))


def unit_leaves(inv: Inventory, sets: list) -> np.ndarray | None:
    """The leaf of every row of ``sets`` side by side (the order of
    :meth:`~hieradjudicate.core.model.Corpus.long_form`) when every row is one tag whose leaf vector
    is a unit vector, else ``None``: a crowd's labels without their ``(R, K)`` leaf vectors."""
    sizes = [s.n for s in sets]
    ends = np.cumsum(sizes)
    return _unit_leaves(inv, sets, [np.arange(e - n, e) for e, n in zip(ends.tolist(), sizes)], int(sum(sizes)))


def _unit_leaves(inv: Inventory, sets: list, positions: list[np.ndarray], R: int,
                 dtype: type = np.int64) -> np.ndarray | None:
    """The leaf (of type ``dtype``) of every sorted row when each row of every set is one tag whose
    leaf vector is a unit vector (one leaf, ``weight * D(t)(leaf) == 1``: exactly what leaf_vectors
    writes), else ``None``.  One set at a time: no array of all the tags is made."""
    leaf = np.empty(R, dtype=dtype)
    for s, pos in zip(sets, positions):
        node = s.tag_node
        if node.size != len(pos):  # a row with several tags (or none)
            return None
        start = inv.d_ptr[node]
        if not (bool((inv.d_ptr[node + 1] - start == 1).all())
                and bool((s.tag_weight * inv.d_prob[start] == 1.0).all())):
            return None
        leaf[pos] = inv.d_leaf[start]
    return leaf


class LeafLayout(Layout):
    """A :class:`~hieradjudicate.core.agreement.layout.Layout` whose rows are unit leaf vectors, held as
    the leaf of each row (:attr:`onehot_leaf`); the dense ``P`` is made on first use.

    The agreement figures of such rows are counts taken from the leaves, so ``agree`` on a crowd
    never makes ``P`` (MASC: 147 MB).  Everything else -- equality, :func:`dataclasses.replace`,
    the workbench's figures -- reads ``P`` as usual and gets the same array
    :func:`~hieradjudicate.core.inventory.leaves.leaf_vectors` would give.
    """

    @classmethod
    def of(cls, inst: np.ndarray, rater: np.ndarray, leaf: np.ndarray, K: int, row_lex: np.ndarray,
           X: int) -> LeafLayout:
        """The layout of sorted rows ``inst``, ``rater`` with leaf ``leaf`` of ``K``; the three row
        columns held in 32 bits (:func:`narrow`)."""
        inst, rater, leaf = narrow(inst), narrow(rater), narrow(leaf)
        lay = _layout_sorted(inst, rater, None, row_lex, X, cls=cls)
        lay.__dict__["onehot_leaf"] = leaf  # the cached_property's slot (the dataclass is frozen)
        lay.__dict__["_K"] = K
        return lay  # type: ignore[return-value]

    @property  # type: ignore[override]
    def P(self) -> np.ndarray:
        P = self.__dict__.get("_P")
        if P is None:
            leaf = self.__dict__["onehot_leaf"]
            P = zeros((len(leaf), self.__dict__["_K"]))
            P[np.arange(len(leaf)), leaf] = 1.0  # what leaf_vectors adds to a zero
            self.__dict__["_P"] = P
        return P

    def release_P(self) -> None:
        """Forget the whole ``P`` made for a reader that needed it (MASC: 147 MB); the next reader
        makes it again from the leaves.  A reader holding it keeps its own reference."""
        if self.__dict__.get("onehot_leaf") is not None:
            self.__dict__["_P"] = None

    def rows_P(self, r0: int, r1: int) -> np.ndarray:
        P = self.__dict__.get("_P")
        if P is not None:
            return P[r0:r1]
        leaf = self.__dict__["onehot_leaf"][r0:r1]
        out = zeros((len(leaf), self.__dict__["_K"]))
        out[np.arange(len(leaf)), leaf] = 1.0  # the same rows as P[r0:r1], made alone
        return out

    @classmethod
    def like(cls, lay: Layout, leaf: np.ndarray, K: int) -> LeafLayout:
        """The rows and segments of ``lay`` (its arrays shared, not made again) with leaf ``leaf``
        of ``K`` per row: what :meth:`of` gives for the same rows, without its sort bookkeeping."""
        out = cls(**{f.name: (None if f.name == "P" else getattr(lay, f.name)) for f in fields(Layout)})
        out.__dict__["onehot_leaf"] = leaf
        out.__dict__["_K"] = K
        return out

    def take(self, rows: np.ndarray | slice, one_lexelt: bool = False) -> Layout:
        leaf = self.__dict__.get("onehot_leaf")
        if leaf is None:
            return super().take(rows, one_lexelt)
        lex, X = self._taken_lexelts(rows, one_lexelt)
        return LeafLayout.of(self.inst[rows], self.rater[rows], leaf[rows], self.n_leaves, lex, X)

    @P.setter
    def P(self, value: np.ndarray | None) -> None:  # the dataclass's __init__ sets the field
        self.__dict__["_P"] = value

    @property
    def n_leaves(self) -> int:
        P = self.__dict__.get("_P")
        return int(P.shape[1]) if P is not None else int(self.__dict__.get("_K", 0))

    @cached_property
    def _pairable(self) -> Layout:
        leaf = self.__dict__.get("onehot_leaf")
        if self.__dict__.get("_P") is not None or leaf is None:
            return super()._pairable
        keep = self.seg_m[self.row_seg] >= 2
        return LeafLayout.of(self.inst[keep], self.rater[keep], leaf[keep], self.n_leaves, self.row_lex[keep],
                             self.n_lexelts)
