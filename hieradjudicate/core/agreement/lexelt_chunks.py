"""The agreement bootstrap's replicates a chunk of lexelts at a time: per-lexelt terms, never every lexelt's sums.

Every agreement figure is a function of sums over lexelts of per-lexelt *terms* -- a lexelt's observed
agreement, its size, its chance agreement weighted by its size -- and a lexelt's terms are a function
of that lexelt's resampled sums alone (:class:`LexeltStat`).  So a block of resamples needs the sums
of a chunk of lexelts at a time, and holds the terms of every lexelt, one float per term, lexelt and
resample: all-words data at 100,000 instances (39,000 lexelts, the widest of 25 leaves) held the sums
of 4 resamples in 1 x 39,000 x 53 floats per resample and peaked at 747 MiB; the terms are 6 floats.

A lexelt of the pooled stratum (:mod:`~hieradjudicate.core.agreement.resampling`) is drawn whole
``c`` times, so its sums are ``c`` times its own and its terms a function of ``c`` alone: they are
computed once per lexelt and count (``0, 1, 2, ...``; a table) and looked up, not computed for every
resample (all-words data: 37,000 of the 39,000 lexelts).

The figures are the ones of the sums held whole, to the bit: the draws are the same (each stratum's
stream of the one generator); a lexelt's terms are the same elementwise operations on the same
values; the sums over lexelts are taken over the whole row of terms, in lexelt order, as before; and
a lexelt resampled alone takes its sums as matrix products over the same rows as the blocks of
:func:`~hieradjudicate.core.agreement.resampling.resampled_blocks` did (a product's rounding
depends on how many rows it has).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from hieradjudicate.core.agreement import resampling
from hieradjudicate.core.agreement.resampling import _BLOCK, _CHUNK, Draws, _counts, _Group, _groups

Terms = list[np.ndarray]
Values = list[tuple[np.ndarray, np.ndarray]]

_TERM_CELLS = 2_000_000  # per-lexelt terms held for a block of resamples (16 MB of float64)
_CHUNK_CELLS = 1_000_000  # resampled sums of a chunk of lexelts held at once (8 MB)


@dataclass(frozen=True)
class LexeltStat:
    """Figures from per-lexelt sums in two steps.

    ``terms(T, n, copies, xs)``: ``T`` ``(r, m, d)`` the sums of the lexelts ``xs`` (``m`` of them) in
    ``r`` resamples, ``n`` ``(r, m)`` their numbers of units drawn, ``copies`` ``(r, m)`` how many
    times each was drawn whole (``None`` when no lexelt is pooled); returns ``n_terms`` arrays
    ``(r, m)``, each lexelt's own.  ``total(terms)``: the figures, a list of ``(values, defined)``
    of shape ``(r,)``, from the terms of every lexelt ``(r, X)``.  Called on :class:`Draws`, the
    figures of draws held whole.
    """

    n_terms: int
    terms: Callable[[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray], Terms]
    total: Callable[[Terms], Values]

    def __call__(self, D: Draws) -> Values:
        X = D.T.shape[1]
        return self.total(self.terms(D.T, np.broadcast_to(D.n, D.T.shape[:2]), D.copies, np.arange(X)))


def _product_rows(groups: list[_Group], X: int, B: int) -> int:
    """The rows of :func:`~hieradjudicate.core.agreement.resampling.resampled_blocks`' blocks (``B``
    when one block): a lexelt's products are taken over the same rows, so the figures stay the same."""
    width = sum(g.W.shape[1] for g in groups)
    step = max(resampling._MIN_ROWS, resampling._T_CELLS // max(1, X * width))
    return min(B, step)


def _by_stat(g: _Group, stats: list[LexeltStat], T: np.ndarray) -> Iterator[tuple[int, LexeltStat, np.ndarray]]:
    """Each member's ``(j, stat, sums)``: its own columns of the group's sums ``T`` (the members' ``V``
    side by side in the last axis)."""
    col = 0
    for j, st in enumerate(stats):
        dj = g.members[j][1].shape[1]
        yield j, st, (T[..., col:col + dj] if len(stats) > 1 else T)
        col += dj


class _Tables:
    """Each pooled lexelt's terms as a function of how many times it is drawn (its sums ``c S``, size
    ``c n``, copies ``c``), for ``c`` up to the largest count seen."""

    def __init__(self, g: _Group, stats: list[LexeltStat], lexs: np.ndarray, S: np.ndarray,
                 sizes: np.ndarray) -> None:
        self.g, self.stats, self.lexs, self.S, self.sizes = g, stats, lexs, S, sizes
        self.tab: list[Terms] = [[np.zeros((0, len(lexs))) for _ in range(st.n_terms)] for st in stats]

    def ensure(self, cmax: int) -> None:
        have = self.tab[0][0].shape[0] if self.tab else 0
        if cmax < have:
            return
        c = np.arange(have, cmax + 1, dtype=np.float64)
        L, d = self.S.shape
        new: list[list[list[np.ndarray]]] = [[[] for _ in range(st.n_terms)] for st in self.stats]
        step = max(1, _CHUNK_CELLS // max(1, len(c) * d))
        for l0 in range(0, L, step):
            sl = slice(l0, min(L, l0 + step))
            T = c[:, None, None] * self.S[None, sl]
            n = c[:, None] * self.sizes[None, sl]
            copies = np.broadcast_to(c[:, None], n.shape)
            for j, st, Tj in _by_stat(self.g, self.stats, T):
                for t, term in enumerate(st.terms(Tj, n, copies, self.lexs[sl])):
                    # a copy: a term may be a view of T (a column of the sums), which would keep every
                    # chunk's sums alive until the tables are stacked (all-words data at 100,000
                    # instances: ~100 MiB of sums for 6 tables of 3.5 MiB)
                    new[j][t].append(np.array(term))
        self.tab = [[np.vstack([old, np.concatenate(parts, axis=1)]) for old, parts in zip(tab, nj, strict=True)]
                    for tab, nj in zip(self.tab, new, strict=True)]


class _GroupRun:
    """One group's figures, a block of resamples at a time."""

    def __init__(self, g: _Group, stats: list[LexeltStat], ostep: int, n_resamples: int, seed: int,
                 blocks: int) -> None:
        self.g, self.stats, self.ostep = g, stats, ostep
        self.rng = np.random.default_rng(seed)
        self.states = resampling.stream_states(g, n_resamples, seed) if blocks > 1 else None
        self.tables: _Tables | None = None
        self.pool_s = -1
        if g.pooled:
            self.pool_s = int(np.argmax(np.diff(g.s_bounds) > 1))
            lexs = g.by_stratum[g.s_bounds[self.pool_s]:g.s_bounds[self.pool_s + 1]]
            S, sizes = g.whole(self.pool_s, lexs)
            self.tables = _Tables(g, stats, lexs, S, sizes)

    def _draws(self, s: int, n_s: int, rows: int) -> Iterator[tuple[int, np.ndarray, list[tuple[int, int]]]]:
        """Stratum ``s``'s indices for the next ``rows`` resamples: ``(p0, idx, segments)``, ``idx`` the
        draws of rows ``p0 ..`` (as many rows as fit in ``_CHUNK`` indices, at least one product's) and
        ``segments`` the rows ``[c0, c1)`` of each matrix product -- those of resampled_blocks: its
        blocks of :func:`_product_rows` rows, each drawn by pieces of ``_BLOCK // n_s`` rows, each
        piece's products by ``_CHUNK // n_s`` rows (resampling's ``_draw_lexelt``)."""
        gen = self.rng.bit_generator
        if self.states is not None:
            gen.state = self.states[s]
        k, step = max(1, _BLOCK // n_s), max(1, _CHUNK // n_s)
        p0, segs = 0, []
        for ob in range(0, rows, self.ostep):
            ob1 = min(ob + self.ostep, rows)
            for r0 in range(ob, ob1, k):
                r1 = min(r0 + k, ob1)
                for c0 in range(r0, r1, step):
                    c1 = min(c0 + step, r1)
                    if c1 - p0 > step:  # the piece is full: draw it
                        yield p0, self.rng.integers(0, n_s, size=(c0 - p0, n_s)), segs
                        p0, segs = c0, []
                    segs.append((c0, c1))
        if rows > p0:
            yield p0, self.rng.integers(0, n_s, size=(rows - p0, n_s)), segs
        if self.states is not None:
            self.states[s] = gen.state

    def block(self, rows: int) -> list[Values]:
        """The figures of every member for the next ``rows`` resamples (each stratum's stream goes on)."""
        g, X = self.g, self.g.X
        bufs = [[np.empty((rows, X)) for _ in range(st.n_terms)] for st in self.stats]
        W = g.W.shape[1]
        solo = X - (len(self.tables.lexs) if self.tables is not None else 0)  # the lexelts not pooled
        chunk: list[int] = []
        T = np.zeros((rows, max(1, min(_CHUNK_CELLS // max(1, rows * W), solo)), W))

        def flush() -> None:
            xs = np.asarray(chunk, np.int64)
            Tc = T[:, :len(xs)]
            n = np.broadcast_to(g.sizes[xs].astype(np.float64), (rows, len(xs)))
            copies = np.ones((rows, len(xs))) if g.pooled else None
            self._terms(bufs, Tc, n, copies, xs)
            T[:] = 0.0
            chunk.clear()

        for s in range(len(g.s_bounds) - 1):
            n_s = int(g.s_units[s])
            if s == self.pool_s:
                self._pooled(bufs, s, n_s, rows)
                continue
            x = int(g.by_stratum[g.s_bounds[s]])
            if n_s:
                Wx = g.W[g.bounds[x]:g.bounds[x + 1]]
                for p0, idx, segs in self._draws(s, n_s, rows):  # into the chunk
                    c = _counts(idx, n_s)
                    for c0, c1 in segs:
                        T[c0:c1, len(chunk)] = c[c0 - p0:c1 - p0] @ Wx
            chunk.append(x)
            if len(chunk) == T.shape[1]:
                flush()
        if chunk:
            flush()
        return [st.total(b) for st, b in zip(self.stats, bufs, strict=True)]

    def _terms(self, bufs: list[Terms], T: np.ndarray, n: np.ndarray, copies: np.ndarray | None,
               xs: np.ndarray) -> None:
        for j, st, Tj in _by_stat(self.g, self.stats, T):
            for buf, term in zip(bufs[j], st.terms(Tj, n, copies, xs), strict=True):
                buf[:, xs] = term

    def _pooled(self, bufs: list[Terms], s: int, n_s: int, rows: int) -> None:
        """The pooled stratum's terms: each lexelt's, looked up by how many times it was drawn."""
        assert self.tables is not None
        tab = self.tables
        cols = np.arange(n_s)
        for r0, idx, _ in self._draws(s, n_s, rows):
            c = _counts(idx, n_s).astype(np.int64)
            tab.ensure(int(c.max(initial=0)))
            for j in range(len(self.stats)):
                for buf, t in zip(bufs[j], tab.tab[j], strict=True):
                    buf[r0:r0 + len(idx), tab.lexs] = t[c, cols]


def replicates_by_lexelt(items: list[tuple[np.ndarray, np.ndarray]], stats: list[LexeltStat], n_lexelts: int,
                         n_resamples: int, seed: int, min_stratum: int) -> list[tuple[Values, int]]:
    """Each item's figures in every resample and its number of pooled lexelts: ``stats[j]`` on the
    draws of ``items[j]`` (what :func:`~hieradjudicate.core.agreement.resampling.resampled_blocks`
    gives), a block of resamples and a chunk of lexelts at a time.  No resample (``n_resamples`` 0:
    figures without intervals) gives every figure's columns empty, laid out as one resample's."""
    if n_resamples <= 0:
        return [([(v[:0], ok[:0]) for v, ok in values], pooled)
                for values, pooled in replicates_by_lexelt(items, stats, n_lexelts, 1, seed, min_stratum)]
    groups = _groups(items, n_lexelts, min_stratum)
    ostep = _product_rows(groups, n_lexelts, n_resamples)
    n_terms = sum(stats[j].n_terms for g in groups for j, _ in g.members)
    rows = max(1, _TERM_CELLS // max(1, n_lexelts * n_terms))
    rows = n_resamples if ostep >= n_resamples else max(ostep, rows // ostep * ostep)
    rows = min(rows, n_resamples)
    blocks = -(-n_resamples // rows)
    parts: list[list[Values]] = [[] for _ in items]
    pooled = [0] * len(items)
    for g in groups:
        run = _GroupRun(g, [stats[j] for j, _ in g.members], ostep, n_resamples, seed, blocks)
        for b0 in range(0, n_resamples, rows):
            for (j, _), values in zip(g.members, run.block(min(rows, n_resamples - b0)), strict=True):
                parts[j].append(values)
        for j, _ in g.members:
            pooled[j] = g.pooled
    return [([(np.concatenate([p[k][0] for p in ps]), np.concatenate([p[k][1] for p in ps]))
              for k in range(len(ps[0]))], pooled[j]) for j, ps in enumerate(parts)]
