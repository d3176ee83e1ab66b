"""Sums over many short runs of gathered values, without ``reduceat``'s cost per run (#33).

``np.add.reduceat(src.take(idx, axis=-1), starts, axis=-1)`` pays some 40 ns for every run it
sums, whatever the run's length: on MASC, where an instance has ~25 labels and an (instance, leaf)
pair ~6, that per-run cost is most of a Dawid & Skene E-step (450 k runs a pass over the labels)
and of MACE's posterior (174 k runs an iteration).  Here the runs are grouped by their length
``c`` once; each group's entries are laid out as a ``(c, runs)`` index array (the i-th entry of
every run in row i), so a sum is one ``take`` of that array and a sum over its first axis: ``c``
vector additions along the runs, no loop per run.  Each run's terms are added in their order,
left to right (``reduceat`` adds runs longer than 8 in a pairwise order: the sums agree to
rounding).
"""

from __future__ import annotations

import numpy as np


#: values gathered by one ``take`` at most (8 MB)
MAX_VALUES = 1 << 20


class Slots:
    """The runs ``starts`` (ascending, every run non-empty) of ``idx`` (``len(idx)`` entries in all),
    grouped by length, with ``idx`` (and the entries' weights ``wt``, if any) composed in once."""

    def __init__(self, starts: np.ndarray, idx: np.ndarray, wt: np.ndarray | None = None, width: int = 1) -> None:
        """``width``: the rows of the ``src`` to be summed; a group is cut into pieces of at most
        :data:`MAX_VALUES` gathered values (the temporary of one ``take``)."""
        starts = np.asarray(starts, np.int64)
        self.n = starts.size
        lengths = np.diff(np.r_[starts, idx.size])
        self.groups: list[tuple[np.ndarray | None, np.ndarray, np.ndarray | None]] = []
        if not self.n:
            return
        by_len = np.argsort(lengths, kind="stable")
        ls = lengths[by_len]
        bounds = np.flatnonzero(np.r_[True, ls[1:] != ls[:-1], True])
        for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            c = int(ls[lo])
            step = max(MAX_VALUES // (c * max(width, 1)), 1)
            for a in range(lo, hi, step):
                runs = by_len[a:min(a + step, hi)]
                pos = starts[runs][None, :] + np.arange(c)[:, None]  # (c, runs): the i-th entry of each run
                whole = runs.size == self.n  # every run has this length: already in order
                self.groups.append((None if whole else runs, idx[pos], None if wt is None else wt[pos]))

    def sum_take(self, src: np.ndarray) -> np.ndarray:
        """``np.add.reduceat(src.take(idx, axis=-1) [* wt], starts, axis=-1)``; ``src`` 1-D or ``(m, values)``."""
        return self._reduce(src, np.add)

    def max_take(self, src: np.ndarray) -> np.ndarray:
        """``np.maximum.reduceat(src.take(idx, axis=-1), starts, axis=-1)`` (no weights)."""
        return self._reduce(src, np.maximum)

    def _reduce(self, src: np.ndarray, op: np.ufunc) -> np.ndarray:
        if len(self.groups) == 1 and self.groups[0][0] is None:
            return self._one(src, op, *self.groups[0][1:])
        out = np.empty(src.shape[:-1] + (self.n,))
        for runs, at, wt in self.groups:
            out[..., runs] = self._one(src, op, at, wt)
        return out

    @staticmethod
    def _one(src: np.ndarray, op: np.ufunc, at: np.ndarray, wt: np.ndarray | None) -> np.ndarray:
        vals = src.take(at, axis=-1)
        if wt is not None:
            vals *= wt
        if op is np.add:
            return _reduceat_sum(vals)
        return op.reduce(vals, axis=-2)


#: doubles per piece of a row gathered by :class:`RowSlots`: numpy's ``take`` copies an item of at most 32
#: bytes by one assignment and a longer one by ``memmove`` (MASC, rows of 5-17 doubles: 2-3 times dearer)
ROW_PIECE = 4
#: values gathered by one ``take`` of :class:`RowSlots` at most (8 MB; pieces that stay in cache cost more in numpy calls)
ROW_VALUES = 1 << 20


class RowSlots:
    """The runs ``starts`` of ``idx`` as :class:`Slots` groups them, each entry a whole row of ``src``
    ``(rows, width)``: :meth:`sum_rows` is ``np.add.reduceat(src[idx] [* wt[:, None]], starts, axis=0)``,
    the same sums to the bit.  A row is gathered as ``width / ROW_PIECE`` pieces of 32 bytes (``src``
    padded to :attr:`width`, a multiple of :data:`ROW_PIECE`), a contiguous copy, where a gather along the
    values' axis copies every double on its own (MASC's Dawid & Skene E-step: 2.5 times cheaper)."""

    def __init__(self, starts: np.ndarray, idx: np.ndarray, wt: np.ndarray | None, width: int) -> None:
        starts = np.asarray(starts, np.int64)
        self.n = starts.size
        self.width = -(-max(width, 1) // ROW_PIECE) * ROW_PIECE
        q = self.width // ROW_PIECE
        lengths = np.diff(np.r_[starts, idx.size])
        self.groups: list[tuple[np.ndarray | None, np.ndarray, np.ndarray | None]] = []
        if not self.n:
            return
        by_len = np.argsort(lengths, kind="stable")
        ls = lengths[by_len]
        bounds = np.flatnonzero(np.r_[True, ls[1:] != ls[:-1], True])
        for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            c = int(ls[lo])
            step = max(ROW_VALUES // (c * self.width), 1)
            for a in range(lo, hi, step):
                runs = by_len[a:min(a + step, hi)]
                pos = starts[runs][None, :] + np.arange(c)[:, None]  # (c, runs): the i-th entry of each run
                at = (idx[pos][:, :, None] * q + np.arange(q)).reshape(c, runs.size * q)  # its row's pieces
                whole = runs.size == self.n
                self.groups.append((None if whole else runs, at, None if wt is None else wt[pos][:, :, None]))

    def sum_rows(self, src: np.ndarray) -> np.ndarray:
        """``(runs, width)`` sums of the rows of ``src`` (C-contiguous ``(rows, width)``)."""
        pieces = src.reshape(-1, ROW_PIECE)
        if len(self.groups) == 1 and self.groups[0][0] is None:
            return self._one(pieces, *self.groups[0][1:])
        out = np.empty((self.n, self.width))
        for runs, at, wt in self.groups:
            out[runs] = self._one(pieces, at, wt)
        return out

    def _one(self, pieces: np.ndarray, at: np.ndarray, wt: np.ndarray | None) -> np.ndarray:
        c = at.shape[0]
        vals = pieces.take(at, axis=0, mode="wrap").reshape(c, -1, self.width)  # indices in range: no check
        if wt is not None:
            vals *= wt
        return _sum_first_axis(vals.reshape(c, -1)).reshape(-1, self.width)


def _sum_first_axis(vals: np.ndarray) -> np.ndarray:
    """:func:`_reduceat_sum` of a ``(c, m)`` block in fewer passes over it: the eight partial sums of
    every eighth term by one reduction over the blocks of eight rows (numpy adds them one after the
    other, in order: ``r_j = (a_j + a_8+j) + a_16+j ...``), their pairs combined two by two by strided
    rows -- the same additions in the same order, so the same sums to the bit."""
    c = vals.shape[0]
    n = c - 1
    if n < 8 or n > 128:
        return _reduceat_sum(vals)
    top = n - n % 8
    r = vals[1:9] + vals[9:17] if top > 8 else vals[1:9].copy()
    for i in range(17, 1 + top, 8):
        r += vals[i:i + 8]
    r = r[0::2] + r[1::2]  # r0 + r1, r2 + r3, r4 + r5, r6 + r7
    r = r[0::2] + r[1::2]  # (r0 + r1) + (r2 + r3), (r4 + r5) + (r6 + r7)
    res = r[0] + r[1]
    for i in range(1 + top, c):
        res += vals[i]
    return vals[0] + res


def _reduceat_sum(vals: np.ndarray) -> np.ndarray:
    """The sums over axis -2 of ``vals`` (``(..., c, runs)``) added exactly as ``np.add.reduceat`` adds a
    run of ``c`` (so the figures are the same to the bit, and an EM that compares log-likelihoods
    takes the same steps): the first term plus numpy's pairwise sum of the other ``n = c - 1``, which
    adds them one by one when ``n < 8``, else into eight partial sums (term ``i`` into ``i % 8``) up
    to the last multiple of 8, combined as ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then
    the rest one by one (runs of more than 129 terms: by ``reduceat`` itself)."""
    c = vals.shape[-2]
    if c == 1:
        return vals[..., 0, :].copy()
    n = c - 1
    if n < 8:
        return vals[..., 0, :] + vals[..., 1:, :].sum(axis=-2)
    if n > 128:
        runs = vals.shape[-1]
        flat = np.ascontiguousarray(np.moveaxis(vals, -2, -1)).reshape(vals.shape[:-2] + (runs * c,))
        return np.add.reduceat(flat, np.arange(0, runs * c, c), axis=-1)
    rest = vals[..., 1:, :]
    top = n - n % 8
    r = rest[..., 0:8, :].copy()
    for i in range(8, top, 8):
        r += rest[..., i:i + 8, :]
    res = ((r[..., 0, :] + r[..., 1, :]) + (r[..., 2, :] + r[..., 3, :])) + \
        ((r[..., 4, :] + r[..., 5, :]) + (r[..., 6, :] + r[..., 7, :]))
    for i in range(top, n):
        res += rest[..., i, :]
    return vals[..., 0, :] + res
