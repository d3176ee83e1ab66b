"""The one-leaf-per-row layout every agreement figure reads: annotation rows sorted by (lexelt, instance).

An annotation set gives long-form rows ``inst, rater, P`` (``P`` the leaf vector, lexelt-local leaf
columns padded with zeros to ``K``).  :class:`Layout` holds them sorted by lexelt, then instance,
with each instance's segment (its rows, their sums and sums of squares, how many raters) so that
pairwise (:mod:`~hieradjudicate.core.agreement.pairwise`), multi-rater
(:mod:`~hieradjudicate.core.agreement.multirater`) and alpha
(:mod:`~hieradjudicate.core.agreement.alpha`) figures are sums over segments and lexelts.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property

import numpy as np


def group_sum(values: np.ndarray, key: np.ndarray, n_groups: int) -> np.ndarray:
    """Row sums of ``values`` (R, K) by integer ``key`` (R,), shape (n_groups, K); one bincount per column."""
    out = np.empty((n_groups, values.shape[1]))
    for k in range(values.shape[1]):
        out[:, k] = np.bincount(key, weights=values[:, k], minlength=n_groups)
    return out


@dataclass(frozen=True)
class Layout:
    """Annotation rows sorted by (lexelt, instance), with segment bookkeeping.

    A *segment* is one instance's block of rows.  ``lex_rows[x]:lex_rows[x+1]``
    are the rows and ``lex_segs[x]:lex_segs[x+1]`` the segments of lexelt ``x``.
    """

    inst: np.ndarray
    rater: np.ndarray
    P: np.ndarray
    row_lex: np.ndarray
    row_seg: np.ndarray
    seg_start: np.ndarray
    seg_m: np.ndarray
    seg_inst: np.ndarray
    seg_lex: np.ndarray
    lex_rows: np.ndarray
    lex_segs: np.ndarray
    n_lexelts: int

    @property
    def R(self) -> int:
        return len(self.inst)

    @property
    def n_leaves(self) -> int:
        """``K``, the columns of ``P``."""
        return int(self.P.shape[1])

    def pairable(self) -> Layout:
        """The same layout restricted to instances with at least two annotations (computed once).
        The layout itself when every instance has two: not kept in its own cache, where it would
        be a reference cycle that keeps a temporary layout's arrays until the garbage collector runs
        (MASC: a depth cut's layout, ~60 MB, after every dashboard computation)."""
        if not len(self.seg_m) or int(self.seg_m.min()) >= 2:
            return self
        return self._pairable

    @cached_property
    def _pairable(self) -> Layout:
        keep = self.seg_m[self.row_seg] >= 2
        return _layout_sorted(self.inst[keep], self.rater[keep], self.P[keep], self.row_lex[keep], self.n_lexelts)

    @cached_property
    def _uniform_m(self) -> int:
        """The common number of annotations per instance, or 0 when it varies."""
        if not len(self.seg_m):
            return 0
        c = int(self.seg_m[0])
        return c if int(self.seg_m.min()) == c == int(self.seg_m.max()) else 0

    def seg_sums(self, V: np.ndarray) -> np.ndarray:
        """Sums of the rows of ``V`` (rows in layout order) over each instance's segment."""
        c = self._uniform_m
        if c and V.ndim == 2 and V.shape[1] > 1:
            V3 = V.reshape(-1, c, V.shape[1])
            out = V3[:, 0].copy()
            for j in range(1, c):
                out += V3[:, j]
            return out
        if not len(self.seg_start):
            return np.zeros((0,) + V.shape[1:])
        return np.add.reduceat(V, self.seg_start, axis=0)

    def lexelt_sums(self, V: np.ndarray) -> np.ndarray:
        """Sums of per-instance rows ``V`` (segment order) over each lexelt, shape ``(X, ...)``."""
        X = self.n_lexelts
        out = np.zeros((X,) + V.shape[1:])
        nz = np.flatnonzero(np.diff(self.lex_segs) > 0)
        if len(nz):
            out[nz] = np.add.reduceat(V, self.lex_segs[nz], axis=0)
        return out

    def with_leaves(self, P: np.ndarray) -> Layout:
        """These rows and segments (their arrays shared) with the leaf vectors ``P``, as a plain dense
        :class:`Layout`: a subclass's own way of holding its rows (leaves, entries) does not carry over
        to vectors it did not make (e.g. rolled up to a cut of the tree)."""
        return Layout(**{f.name: (P if f.name == "P" else getattr(self, f.name)) for f in fields(Layout)})

    def take(self, rows: np.ndarray | slice, one_lexelt: bool = False) -> Layout:
        """The layout of rows ``rows`` (increasing positions or a slice: a subset of sorted rows
        stays sorted), equal to :func:`make_layout` of those rows; a crowd's layout stays one leaf
        per row (see :class:`~hieradjudicate.core.layout_tags.LeafLayout`).  ``one_lexelt``: every
        row in lexelt 0 of a layout of one lexelt (``make_layout`` with an ``inst_lexelt`` of zeros)."""
        lex, X = self._taken_lexelts(rows, one_lexelt)
        P = self.rows_P(rows.start, rows.stop) if isinstance(rows, slice) else self.P[rows]
        return _layout_sorted(self.inst[rows], self.rater[rows], P, lex, X)

    def _taken_lexelts(self, rows: np.ndarray | slice, one_lexelt: bool) -> tuple[np.ndarray, int]:
        if one_lexelt:
            return np.zeros(len(self.inst[rows]), np.int64), 1
        return self.row_lex[rows], self.n_lexelts

    def release_P(self) -> None:
        """Drop ``P`` when it can be made again from what the layout keeps (see
        :class:`~hieradjudicate.core.layout_tags.LeafLayout`); a dense layout keeps its ``P``."""

    def rows_P(self, r0: int, r1: int) -> np.ndarray:
        """``P[r0:r1]``: a layout that holds no ``P`` (a crowd's one leaf per row) makes these rows
        alone, not the whole array (MASC: 147 MB)."""
        return self.P[r0:r1]

    def gather_P(self, rows: np.ndarray) -> np.ndarray:
        """``P[rows]`` (positions); a layout that holds no ``P`` makes these rows alone."""
        return self.P[rows]

    def row_mass(self) -> np.ndarray:
        """``sum_l p_r(l)`` per row (``P @ 1``)."""
        return self.P @ np.ones(self.n_leaves)

    def group_sums(self, key: np.ndarray, n_groups: int) -> np.ndarray:
        """:func:`group_sum` of ``P`` by ``key``: the rows' leaf vectors summed by group, in row order."""
        return group_sum(self.P, key, n_groups)

    @cached_property
    def onehot_leaf(self) -> np.ndarray | None:
        """The leaf of each row when every row of ``P`` is a unit vector (one leaf of mass 1, as
        when every label is one leaf tag), else ``None``.

        Every sum of such rows is then a count, exact in any order: the figures below take them
        from the leaf indices (``bincount``) or from float32 products of 0/1 matrices, and are the
        same to the last bit as the sums over ``P`` they replace."""
        R = self.R
        if R == 0 or self.P.ndim != 2 or self.P.shape[1] == 0 or np.count_nonzero(self.P) != R:
            return None
        leaf = self.P.argmax(axis=1)
        return leaf if bool((self.P[np.arange(R), leaf] == 1.0).all()) else None

    @cached_property
    def seg_sum(self) -> np.ndarray:
        """``s_i = sum_r p_r,i`` per instance, shape ``(n_seg, K)``."""
        leaf = self.onehot_leaf
        if leaf is not None:
            K = self.n_leaves
            n = len(self.seg_start)
            return np.bincount(self.row_seg * np.int64(K) + leaf, minlength=n * K).reshape(n, K).astype(np.float64)
        return self.seg_sums(self.P)

    @cached_property
    def row_sq(self) -> np.ndarray:
        """``|p_r|^2`` per row (read-only; one shared 1 for every row of unit vectors, not an array
        of ones: MASC 8.7 MB per layout)."""
        if self.onehot_leaf is not None:
            return np.broadcast_to(np.float64(1.0), (self.R,))
        return np.einsum("rk,rk->r", self.P, self.P)

    @cached_property
    def seg_sq(self) -> np.ndarray:
        """``sum_r |p_r,i|^2`` per instance (the count of rows when every row is a unit vector)."""
        if not len(self.seg_start):
            return np.zeros(0)
        if self.onehot_leaf is not None:
            return self.seg_m.astype(np.float64)  # sums of ones: exact counts
        return np.add.reduceat(self.row_sq, self.seg_start)


def _layout_sorted(inst: np.ndarray, rater: np.ndarray, P: np.ndarray | None, row_lex: np.ndarray, X: int,
                   cls: type[Layout] | None = None) -> Layout:
    R = len(inst)
    new = np.ones(R, dtype=bool)
    if R:
        new[1:] = inst[1:] != inst[:-1]
    seg_start = np.flatnonzero(new)
    # the two per-row codes in 32 bits when they fit (MASC's crowd layout: 1.08 M rows, 8.3 MiB less
    # for the session); every reader indexes with them or widens them to 64 bits before arithmetic
    row_seg = np.cumsum(new, dtype=np.int32 if R < 2**31 else np.int64) - 1
    if X < 2**31:
        row_lex = np.asarray(row_lex).astype(np.int32, copy=False)
    seg_m = np.diff(np.append(seg_start, R))
    seg_lex = row_lex[seg_start].astype(np.int64)
    grid = np.arange(X + 1)
    return (cls or Layout)(
        inst, rater, P, row_lex, row_seg, seg_start, seg_m, inst[seg_start], seg_lex,
        np.searchsorted(row_lex, grid), np.searchsorted(seg_lex, grid), X,
    )


def make_layout(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray, *, n_lexelts: int | None = None
) -> Layout:
    """Sort long-form annotations by (lexelt, instance); no copy when already sorted."""
    inst = np.asarray(inst, dtype=np.int64)
    rater = np.asarray(rater, dtype=np.int64)
    P = np.asarray(P, dtype=np.float64)
    inst_lexelt = np.asarray(inst_lexelt, dtype=np.int64)
    if P.ndim != 2 or len(P) != len(inst) or len(rater) != len(inst):
        raise ValueError("inst, rater and P must have the same number of rows and P must be 2-D")
    X = int(n_lexelts if n_lexelts is not None else (inst_lexelt.max() + 1 if len(inst_lexelt) else 1))
    row_lex = inst_lexelt[inst]
    key = row_lex * len(inst_lexelt) + inst
    if len(key) > 1 and np.any(key[1:] < key[:-1]):
        # The usual long form: S sets' rows one after the other, each set over the same instances in
        # increasing order (Corpus.long_form of a complete design).  The stable sort by key is then the
        # order of the instances by lexelt (a radix sort of n small codes), each followed by its S rows.
        R = len(inst)
        desc = np.flatnonzero(inst[1:] <= inst[:-1])
        S = len(desc) + 1
        L = R // S
        if (L * S == R and np.array_equal(desc, np.arange(1, S) * L - 1)
                and (inst.reshape(S, L) == inst[:L]).all()):
            lex0 = row_lex[:L]
            small = int(lex0.min()) >= 0 and int(lex0.max()) < (1 << 16)
            pos = np.argsort(lex0.astype(np.uint16) if small else lex0, kind="stable")
            seg_inst, seg_lex = inst[:L][pos], lex0[pos]
            row_lex = np.repeat(seg_lex.astype(np.int32) if X < 2**31 else seg_lex, S)  # as _layout_sorted
            grid = np.arange(X + 1)
            return Layout(
                np.repeat(seg_inst, S), rater.reshape(S, L)[:, pos].T.ravel(),
                np.take(P, (pos[:, None] + L * np.arange(S)).ravel(), axis=0), row_lex,
                np.repeat(np.arange(L, dtype=np.int32 if R < 2**31 else np.int64), S), np.arange(0, R, S),
                np.full(L, S), seg_inst, seg_lex,
                np.searchsorted(row_lex, grid), np.searchsorted(seg_lex, grid), X,
            )
        order = np.argsort(key, kind="stable")
        # np.take gathers rows 4-5x faster than fancy indexing (300,000 x 9: 20 ms -> 4 ms)
        inst, rater, P, row_lex = inst[order], rater[order], np.take(P, order, axis=0), row_lex[order]
    return _layout_sorted(inst, rater, P, row_lex, X)


def layout_from_blocks(
    inst_blocks: list[np.ndarray], P_blocks: list[np.ndarray], inst_lexelt: np.ndarray, *, n_lexelts: int
) -> Layout:
    """:func:`make_layout` of the concatenated blocks (rater ``j`` = block ``j``) without concatenating ``P``.

    Each block's leaf vectors are written straight to their sorted rows: one
    ``(R, K)`` array is made instead of two (MASC: 147 MB each).  The result
    equals ``make_layout(concat(inst_blocks), raters, concat(P_blocks), ...)``.
    """
    inst_lexelt = np.asarray(inst_lexelt, dtype=np.int64)
    K = P_blocks[0].shape[1] if P_blocks else 1
    if not inst_blocks:
        return make_layout(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, K)), inst_lexelt,
                           n_lexelts=n_lexelts)
    inst_blocks = [np.asarray(b, np.int64) for b in inst_blocks]
    if all(len(b) < 2 or bool((b[1:] > b[:-1]).all()) for b in inst_blocks):
        return _layout_by_counting(inst_blocks, P_blocks, inst_lexelt, K, int(n_lexelts))
    inst = np.concatenate(inst_blocks)
    rater = np.repeat(np.arange(len(inst_blocks)), [len(b) for b in inst_blocks])
    row_lex = inst_lexelt[inst]
    order = np.argsort(row_lex * len(inst_lexelt) + inst, kind="stable")
    pos = np.empty(len(order), np.int64)
    pos[order] = np.arange(len(order))
    P = np.empty((len(order), K))
    lo = 0
    for b in P_blocks:
        P[pos[lo:lo + len(b)]] = b
        lo += len(b)
    return _layout_sorted(inst[order], rater[order], P, row_lex[order], int(n_lexelts))


def block_positions(inst_blocks: list[np.ndarray], inst_lexelt: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Where :func:`make_layout` puts each row of the concatenated blocks (rater ``j`` = block
    ``j``), for blocks that hold each instance at most once (the rows of annotation sets), and the
    sorted instance of every position.

    The stable sort by (lexelt, instance) is then a counting sort -- the instances in that order,
    each followed by its rows in block order -- with no sort of the rows."""
    n = len(inst_lexelt)
    inst_order = np.argsort(inst_lexelt, kind="stable")  # by lexelt, then instance
    counts = np.zeros(n, dtype=np.int64)
    for b in inst_blocks:
        counts[b] += 1
    sizes = counts[inst_order]
    first = np.zeros(n, dtype=np.int64)  # the next free sorted row of each instance
    first[inst_order] = np.cumsum(sizes) - sizes
    positions = []
    for b in inst_blocks:
        positions.append(first[b])
        first[b] += 1
    return positions, np.repeat(inst_order, sizes)


def _layout_by_counting(inst_blocks: list[np.ndarray], P_blocks: list[np.ndarray], inst_lexelt: np.ndarray,
                        K: int, X: int) -> Layout:
    """:func:`layout_from_blocks` by :func:`block_positions`."""
    positions, inst = block_positions(inst_blocks, inst_lexelt)
    rater = np.empty(len(inst), dtype=np.int64)
    P = np.empty((len(inst), K))
    for j, (pos, Pb) in enumerate(zip(positions, P_blocks)):
        rater[pos] = j
        P[pos] = Pb
    return _layout_sorted(inst, rater, P, inst_lexelt[inst], X)
