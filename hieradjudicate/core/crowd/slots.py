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
