"""A layout whose leaf vectors are held as (row, leaf, weight) entries, not as a dense ``(R, K)`` array.

All-words sets are mostly one tag on one leaf per row, but a gold key with a few rows of two or
three senses is not one leaf per row everywhere, so the one-leaf layout
(:class:`~hieradjudicate.core.layout_tags.LeafLayout`) does not apply; held dense, the leaf vectors
are ``rows x the widest lexelt's leaves`` (ALL's gold keys against Lesk's, 14 times over: 194,000
rows x 25 leaves, 37 MiB, and as much again for the pairable copy), almost all zeros.

:class:`SparseLayout` keeps each row's nonzero entries (CSR: ``ptr``, ``col``, ``val``) and makes
dense rows only for the rows a figure reads at once (a lexelt's, a pair's, a chunk's).  Every figure
is the one of the dense layout to the bit: the entries are those
:func:`~hieradjudicate.core.inventory.leaves.leaf_vectors` adds up, in its order; the figures that
read whole rows (the segments' sums, ``|p|^2``, ``sum_l p(l)``) run the dense code on chunks of
dense rows, the same operations on the same rows; and the sums by group of rows are ``bincount``s
in row order, which add the nonzero terms in the order the dense column sums add them (adding a
zero changes no sum).
"""

from __future__ import annotations

from functools import cached_property
from itertools import pairwise

import numpy as np

from hieradjudicate.core.agreement.layout import Layout, _layout_sorted

_ROWS = 1 << 15  # dense rows made at once by the whole-layout figures (25 leaves: 6.4 MB)


def sparse_rows(flat: np.ndarray, vals: np.ndarray, R: int, K: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR ``(ptr, col, val)`` of the ``(R, K)`` array that ``np.add.at(zeros.ravel(), flat, vals)``
    makes: the terms of one cell added in their order, as ``np.add.at`` adds them; cells that stay
    zero are left out."""
    cells, where = np.unique(flat, return_inverse=True)
    val = np.zeros(len(cells))
    np.add.at(val, where, vals)
    keep = val != 0.0
    cells, val = cells[keep], val[keep]
    row = cells // K
    ptr = np.zeros(R + 1, dtype=np.int64)
    np.cumsum(np.bincount(row, minlength=R), out=ptr[1:])
    col = (cells - row * K).astype(np.int32 if K < 2**31 else np.int64)
    return ptr, col, val


class SparseLayout(Layout):
    """A :class:`~hieradjudicate.core.agreement.layout.Layout` whose ``P`` is held as CSR entries; the
    dense ``P`` is made on first use by a reader that needs all of it (and kept, as
    :class:`~hieradjudicate.core.layout_tags.LeafLayout` keeps its own)."""

    @classmethod
    def of(cls, inst: np.ndarray, rater: np.ndarray, ptr: np.ndarray, col: np.ndarray, val: np.ndarray, K: int,
           row_lex: np.ndarray, X: int) -> SparseLayout:
        """The layout of sorted rows ``inst``, ``rater`` whose row ``r`` holds ``val[ptr[r]:ptr[r+1]]``
        in the columns ``col[...]`` of ``K``."""
        lay = _layout_sorted(inst, rater, None, row_lex, X, cls=cls)
        d = lay.__dict__
        d["_ptr"], d["_col"], d["_val"], d["_K"] = ptr, col, val, K
        nnz = np.diff(ptr)
        unit = len(nnz) > 0 and K > 0 and bool((nnz == 1).all()) and bool((val == 1.0).all())
        d["onehot_leaf"] = col.astype(np.int64) if unit else None  # the cached_property's slot
        return lay  # type: ignore[return-value]

    @property  # type: ignore[override]
    def P(self) -> np.ndarray:
        P = self.__dict__.get("_P")
        if P is None:
            P = self.rows_P(0, self.R)
            self.__dict__["_P"] = P
        return P

    @P.setter
    def P(self, value: np.ndarray | None) -> None:  # the dataclass's __init__ sets the field
        self.__dict__["_P"] = value

    def release_P(self) -> None:
        """Forget the whole ``P`` made for a reader that needed it; the entries make it again."""
        self.__dict__["_P"] = None

    @property
    def n_leaves(self) -> int:
        return int(self.__dict__.get("_K", 0))

    def _dense(self, rows: np.ndarray) -> np.ndarray:
        """The dense rows ``rows`` (positions), from the entries."""
        d = self.__dict__
        ptr, col, val = d["_ptr"], d["_col"], d["_val"]
        lo, n = ptr[rows], ptr[rows + 1] - ptr[rows]
        first = np.cumsum(n) - n
        idx = np.arange(int(n.sum()), dtype=np.int64) - np.repeat(first - lo, n)
        out = np.zeros((len(rows), d["_K"]))
        out[np.repeat(np.arange(len(rows)), n), col[idx]] = val[idx]
        return out

    def rows_P(self, r0: int, r1: int) -> np.ndarray:
        P = self.__dict__.get("_P")
        if P is not None:
            return P[r0:r1]
        return self._dense(np.arange(r0, r1, dtype=np.int64))

    def gather_P(self, rows: np.ndarray) -> np.ndarray:
        P = self.__dict__.get("_P")
        return P[rows] if P is not None else self._dense(np.asarray(rows, np.int64))

    def take(self, rows: np.ndarray | slice, one_lexelt: bool = False) -> Layout:
        d = self.__dict__
        pos = np.arange(self.R)[rows]
        ptr, n = d["_ptr"], np.diff(d["_ptr"])[pos]
        new_ptr = np.zeros(len(pos) + 1, dtype=np.int64)
        np.cumsum(n, out=new_ptr[1:])
        idx = np.arange(int(new_ptr[-1]), dtype=np.int64) - np.repeat(new_ptr[:-1] - ptr[pos], n)
        lex, X = self._taken_lexelts(rows, one_lexelt)
        return SparseLayout.of(self.inst[rows], self.rater[rows], new_ptr, d["_col"][idx], d["_val"][idx],
                               self.n_leaves, lex, X)

    @cached_property
    def _pairable(self) -> Layout:
        return self.take(np.flatnonzero(self.seg_m[self.row_seg] >= 2))

    def _chunks(self, align_segments: bool):
        """``(r0, r1)`` row ranges of about :data:`_ROWS` rows covering the layout; with
        ``align_segments``, each range whole segments."""
        R = self.R
        if not align_segments:
            return [(r0, min(R, r0 + _ROWS)) for r0 in range(0, R, _ROWS)]
        cuts = np.unique(np.searchsorted(self.seg_start, np.arange(0, R, _ROWS)))
        bounds = np.append(self.seg_start[cuts[cuts < len(self.seg_start)]], R).tolist()
        return list(pairwise(bounds))

    def _row_values(self, fn) -> np.ndarray:
        """``fn(dense rows)`` of every row, a chunk of rows at a time (a function row by row)."""
        out = np.empty(self.R)
        for r0, r1 in self._chunks(False):
            out[r0:r1] = fn(self.rows_P(r0, r1))
        return out

    @cached_property
    def seg_sum(self) -> np.ndarray:
        if self.onehot_leaf is not None:  # counts from the leaves (a selection of one-leaf rows)
            return Layout.seg_sum.func(self)  # type: ignore[attr-defined]
        K, n = self.n_leaves, len(self.seg_start)
        out = np.empty((n, K))
        c = self._uniform_m
        for r0, r1 in self._chunks(True):
            s0, s1 = int(self.row_seg[r0]), int(self.row_seg[r1 - 1]) + 1
            V = self.rows_P(r0, r1)
            if c and K > 1:  # the sums seg_sums takes for this layout: the same path, chunk by chunk
                V3 = V.reshape(-1, c, K)
                part = V3[:, 0].copy()
                for j in range(1, c):
                    part += V3[:, j]
            else:
                part = np.add.reduceat(V, self.seg_start[s0:s1] - r0, axis=0)
            out[s0:s1] = part
        return out

    @cached_property
    def row_sq(self) -> np.ndarray:
        if self.onehot_leaf is not None:
            return Layout.row_sq.func(self)  # type: ignore[attr-defined]
        return self._row_values(lambda V: np.einsum("rk,rk->r", V, V))

    def row_mass(self) -> np.ndarray:
        ones = np.ones(self.n_leaves)
        return self._row_values(lambda V: V @ ones)

    def group_sums(self, key: np.ndarray, n_groups: int) -> np.ndarray:
        d = self.__dict__
        K = d["_K"]
        row = np.repeat(np.arange(self.R), np.diff(d["_ptr"]))
        cell = np.asarray(key, np.int64)[row] * K + d["_col"]
        return np.bincount(cell, weights=d["_val"], minlength=n_groups * K).reshape(n_groups, K)
