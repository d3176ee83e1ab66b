"""The draws of the agreement bootstrap: resampled per-lexelt sums of per-unit statistics.

Every agreement figure (kappa, alpha) is a function of per-lexelt sums of per-unit statistics
``V`` (one row per resampling unit) and of the lexelts' sizes: chance agreement is computed per
lexelt.  A resample is a vector of counts ``c`` (how often each unit was drawn); the resampled
sums of lexelt ``x`` are ``c_x @ V_x``, so a block of resamples costs one matrix product.

Units are drawn within *strata* (metrics.md, "Confidence intervals"): each lexelt is its own
stratum, except that the lexelts of fewer than :data:`~hieradjudicate.core.stats.strata.MIN_STRATUM`
units form one (:func:`~hieradjudicate.core.stats.strata.lexelt_strata`): a lexelt of ``n`` units
resampled alone keeps ``(n - 1) / n`` of its variance, none for one unit, and all-words data are
mostly such lexelts.  The pooled stratum is resampled by *whole lexelts* (a cluster bootstrap: each
resample draws as many of its lexelts, with replacement, as it holds): chance agreement is computed
per lexelt from the lexelt's own units, and drawing single units across the small lexelts changes
what that chance agreement measures (a lexelt of two instances drawn as one instance twice has the
chance agreement of one instance).  In simulation (``benchmarks/bench_ci_coverage_all_words.py``:
2 annotators, 150 lexelts of 1 to 3 instances) the 95 % BCa interval of Cohen's kappa covered the
population value 0.195 of the time with every lexelt alone, 0.475 with the small lexelts' instances
drawn one by one as one stratum, and 0.935 with their lexelts drawn whole.

The sums are still taken per lexelt; a lexelt of the pooled stratum is drawn ``c[b, x]`` times
(0, 1, 2, ...), so :class:`Draws` carries each lexelt's number of units ``n[b, x] = c[b, x] n_x``
and its number of copies.  Lexical-sample data (every lexelt of 10 units or more) are drawn exactly
as before, from the same seed in the same order.

No Python loop runs over resamples or units (one runs per stratum, and per chunk of resamples).
The intervals need each resample's figure, not its sums: :func:`resampled_blocks` gives the same
draws a block of resamples at a time, so the sums held stay bounded however many lexelts there are
(all-words data: thousands, each as wide as the widest lexelt).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from hieradjudicate.core.stats.strata import MIN_STRATUM, lexelt_strata

_BLOCK = 4_000_000  # counts per block of resamples (memory bound: 32 MB of float64)
_CHUNK = 1 << 17  # counts per chunk of resamples: counting and the product stay in cache
_POOLED_CELLS = 1 << 21  # floats of a pooled stratum's per-unit products held at once (16 MB)


@dataclass(frozen=True)
class Draws:
    """Resampled per-lexelt sums.

    ``T[b, x, :]``: the sum of the rows of ``V`` of lexelt ``x`` drawn in resample ``b``.
    ``n``: each lexelt's number of units drawn -- its size ``(X,)`` when no lexelt is pooled (fixed
    by the design), ``(B, X)`` per resample otherwise.  ``copies``: ``(B, X)``, how many times each
    lexelt was drawn whole (1 for a lexelt resampled alone), ``None`` when none is pooled; a figure
    whose per-lexelt chance term is not a function of proportions (alpha's ``n_x - 1``) needs it.
    ``pooled``: how many lexelts form the pooled stratum (0: stratified by lexelt alone).
    """

    T: np.ndarray
    n: np.ndarray
    pooled: int
    copies: np.ndarray | None = None


def resample_indices(
    stratum_sizes: np.ndarray, n_resamples: int, seed: int
) -> Iterator[tuple[int, int, int, np.ndarray]]:
    """The draws: ``(s, b0, b1, idx)`` with ``idx`` of shape ``(b1 - b0, n_s)``.

    ``idx[j]`` lists the local units of stratum ``s`` drawn in resample ``b0 + j``.  The order of
    the draws is fixed by the seed, so that a naive implementation can replay them.
    """
    rng = np.random.default_rng(seed)
    for s, n_s in enumerate(np.asarray(stratum_sizes, dtype=np.int64).tolist()):
        if n_s == 0:
            continue
        step = max(1, _BLOCK // n_s)
        for b0 in range(0, n_resamples, step):
            b1 = min(n_resamples, b0 + step)
            yield s, b0, b1, rng.integers(0, n_s, size=(b1 - b0, n_s))


def _grouped_rows(V: np.ndarray, lex: np.ndarray, n_lexelts: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of ``V`` sorted (stably) by lexelt, and the lexelt bounds."""
    lex = np.asarray(lex, dtype=np.int64)
    if len(lex) > 1 and np.any(lex[1:] < lex[:-1]):
        order = np.argsort(lex, kind="stable")
        V, lex = V[order], lex[order]
    return V, np.searchsorted(lex, np.arange(n_lexelts + 1))


def _counts(idx: np.ndarray, n_s: int) -> np.ndarray:
    """``(k, n_s)``: how often each unit is drawn in each row of ``idx``."""
    k = len(idx)
    flat = idx + (np.arange(k, dtype=np.int64) * n_s)[:, None]
    return np.bincount(flat.ravel(), minlength=k * n_s).reshape(k, n_s).astype(np.float64)


def _draw_lexelt(T: np.ndarray, x: int, b0: int, idx: np.ndarray, Wx: np.ndarray) -> None:
    """A stratum of one lexelt: its sums for the resamples ``b0..`` of ``idx``."""
    n_x = idx.shape[1]
    step = max(1, _CHUNK // n_x)
    for c0 in range(0, len(idx), step):
        sub = idx[c0:c0 + step]
        T[b0 + c0:b0 + c0 + len(sub), x] = _counts(sub, n_x) @ Wx


def _draw_whole(T: np.ndarray, N: np.ndarray, C: np.ndarray, lexs: np.ndarray, b0: int, idx: np.ndarray,
                S: np.ndarray, sizes: np.ndarray) -> None:
    """The pooled stratum: its lexelts ``lexs`` (sums ``S``, sizes ``sizes``) drawn whole, ``idx``
    naming the lexelts drawn in each resample ``b0..``."""
    L, d = S.shape
    step = max(1, min(_CHUNK // L, _POOLED_CELLS // max(1, L * d)))
    for c0 in range(0, len(idx), step):
        c = _counts(idx[c0:c0 + step], L)
        rows = slice(b0 + c0, b0 + c0 + len(c))
        T[rows, lexs] = c[:, :, None] * S[None]
        N[rows, lexs] = c * sizes
        C[rows, lexs] = c


def _groups(items: list[tuple[np.ndarray, np.ndarray]], n_lexelts: int, min_stratum: int) -> list[_Group]:
    """The items grouped by their lexelts' sizes (hence strata), each group's plan of draws."""
    groups: dict[bytes, list[tuple[int, np.ndarray]]] = {}
    bounds_of: dict[bytes, np.ndarray] = {}
    for j, (V, lex) in enumerate(items):
        V = np.asarray(V, dtype=np.float64)
        Vs, bounds = _grouped_rows(V, lex, n_lexelts)
        key = np.diff(bounds).tobytes()
        groups.setdefault(key, []).append((j, Vs))
        bounds_of[key] = bounds
    return [_Group(members, bounds_of[key], n_lexelts, min_stratum) for key, members in groups.items()]


class _Group:
    """Items with the same strata: their stacked columns ``W`` and what each stratum draws."""

    def __init__(self, members: list[tuple[int, np.ndarray]], bounds: np.ndarray, n_lexelts: int,
                 min_stratum: int) -> None:
        self.members, self.bounds, self.X = members, bounds, n_lexelts
        self.sizes = sizes = np.diff(bounds)
        stratum_of, self.pooled = lexelt_strata(sizes, min_stratum)
        self.W = np.hstack([Vs for _, Vs in members]) if len(members) > 1 else members[0][1]
        self.by_stratum = np.argsort(stratum_of, kind="stable")  # each stratum's lexelts, in order
        self.s_bounds = np.searchsorted(stratum_of[self.by_stratum],
                                        np.arange(int(stratum_of.max(initial=-1)) + 2))
        # what a stratum draws: a lexelt alone its units, the pooled stratum its lexelts
        self.s_units = np.where(np.diff(self.s_bounds) > 1, np.diff(self.s_bounds),
                                np.bincount(stratum_of, weights=sizes, minlength=len(self.s_bounds) - 1)
                                ).astype(np.int64)
        self._whole: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def empty(self, rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Zeroed sums, sizes and copies for ``rows`` resamples."""
        T = np.zeros((rows, self.X, self.W.shape[1]))
        n = self.sizes.astype(np.float64)
        copies = None
        if self.pooled:
            n = np.broadcast_to(n, (rows, self.X)).copy()
            copies = np.ones((rows, self.X))
        return T, n, copies

    def fill(self, T: np.ndarray, n: np.ndarray, copies: np.ndarray | None, s: int, b0: int,
             idx: np.ndarray) -> None:
        """The sums of stratum ``s`` for the draws ``idx``, into rows ``b0..`` of ``T``."""
        lexs = self.by_stratum[self.s_bounds[s]:self.s_bounds[s + 1]]
        if len(lexs) == 1:
            x = int(lexs[0])
            _draw_lexelt(T, x, b0, idx, self.W[self.bounds[x]:self.bounds[x + 1]])
            return
        S, sizes = self.whole(s, lexs)  # each pooled lexelt's sums and size
        _draw_whole(T, n, copies, lexs, b0, idx, S, sizes)

    def whole(self, s: int, lexs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The sums and sizes of the lexelts ``lexs`` of the pooled stratum ``s`` (each drawn whole)."""
        if s not in self._whole:
            lens = self.sizes[lexs]  # each at least 1
            starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
            rows = np.repeat(self.bounds[lexs] - starts, lens) + np.arange(int(lens.sum()))
            self._whole[s] = np.add.reduceat(self.W[rows], starts, axis=0), lens.astype(np.float64)
        return self._whole[s]

    def split(self, T: np.ndarray, n: np.ndarray, copies: np.ndarray | None, out: list[Draws]) -> None:
        """Each member's :class:`Draws` (its columns of ``T``) into ``out``."""
        col = 0
        for j, Vs in self.members:
            d = Vs.shape[1]
            out[j] = Draws(T[..., col:col + d] if len(self.members) > 1 else T, n, self.pooled, copies)
            col += d


def resampled_sums_shared(
    items: list[tuple[np.ndarray, np.ndarray]], n_lexelts: int, n_resamples: int, seed: int,
    min_stratum: int = MIN_STRATUM,
) -> list[Draws]:
    """:func:`resampled_sums` of several ``(V, lex)`` at once, drawing each resample once.

    Items whose lexelts have the same sizes have the same strata and get the same draws from the
    same seed, so they share one pass over :func:`resample_indices` (one count matrix, one product
    with the stacked columns); the result of each item is what :func:`resampled_sums` gives for it
    alone.  ``min_stratum``: lexelts of fewer units are pooled (1: none is; the strata are then the
    lexelts).  The sums of every resample are held at once, ``(n_resamples, n_lexelts, d)``:
    :func:`resampled_blocks` gives the same draws a block of resamples at a time.
    """
    out: list[Draws] = [Draws(np.empty(0), np.empty(0), 0)] * len(items)
    for g in _groups(items, n_lexelts, min_stratum):
        T, n, copies = g.empty(n_resamples)
        for s, b0, _b1, idx in resample_indices(g.s_units, n_resamples, seed):
            g.fill(T, n, copies, s, b0, idx)
        g.split(T, n, copies, out)
    return out


_T_CELLS = 4_000_000  # resampled sums held at once by resampled_blocks (32 MB of float64)
_MIN_ROWS = 4  # resamples per block at least: a block costs a Python step per stratum (16 held 1.18 GiB on
# all-words data at 100,000 instances, 39,000 lexelts; 4 holds 747 MiB, the same figures to the bit)



def stream_states(g: _Group, n_resamples: int, seed: int) -> dict[int, dict]:
    """Where each stratum's draws start in the generator's stream (drawing and dropping them, by pieces
    of ``_CHUNK`` indices: the stream is the same however the draws are cut)."""
    first = np.random.default_rng(seed)
    st = {}
    for s, n_s in enumerate(g.s_units.tolist()):
        if n_s:
            st[s] = first.bit_generator.state
            k = max(1, _CHUNK // n_s)
            for r0 in range(0, n_resamples, k):
                first.integers(0, n_s, size=(min(k, n_resamples - r0), n_s))
    return st

def resampled_blocks(
    items: list[tuple[np.ndarray, np.ndarray]], n_lexelts: int, n_resamples: int, seed: int,
    min_stratum: int = MIN_STRATUM, cells: int | None = None,
) -> Iterator[list[Draws]]:
    """The :func:`resampled_sums_shared` draws, a block of consecutive resamples at a time.

    Each block holds about ``cells`` sums, whatever the number of resamples (all-words data: thousands
    of lexelts, every one as wide as the widest; held whole, 2,808 lexelts x 27 columns x 1,000
    resamples took 607 MB), and at least the sums of :data:`_MIN_ROWS` resamples (a block costs a
    Python step per stratum: with ``n_lexelts x d`` above ``cells / 16``, memory grows as the input,
    ``16 n_lexelts d`` floats, and not as the resamples).  The blocks, stacked, are exactly the draws of
    :func:`resampled_sums_shared`: the draws of a stratum are a stream of the one generator, so a
    first pass notes where each stratum's stream starts (drawing and dropping its indices) and each
    block continues every stratum's stream from where the last block left it.  One block when all
    the sums fit (no second pass).
    """
    cells = _T_CELLS if cells is None else cells
    groups = _groups(items, n_lexelts, min_stratum)
    width = sum(g.W.shape[1] for g in groups)
    step = max(_MIN_ROWS, cells // max(1, n_lexelts * width))
    if step >= n_resamples:
        yield resampled_sums_shared(items, n_lexelts, n_resamples, seed, min_stratum)
        return
    rng = np.random.default_rng(seed)
    gen = rng.bit_generator
    states = [stream_states(g, n_resamples, seed) for g in groups]
    for b0 in range(0, n_resamples, step):
        rows = min(step, n_resamples - b0)
        out: list[Draws] = [Draws(np.empty(0), np.empty(0), 0)] * len(items)
        for g, st in zip(groups, states, strict=True):
            T, n, copies = g.empty(rows)
            for s, state in st.items():
                n_s = int(g.s_units[s])
                gen.state = state
                k = max(1, _BLOCK // n_s)
                for r0 in range(0, rows, k):
                    g.fill(T, n, copies, s, r0, rng.integers(0, n_s, size=(min(k, rows - r0), n_s)))
                st[s] = gen.state
            g.split(T, n, copies, out)
        yield out


def lexelts_alone(V: np.ndarray, lex: np.ndarray, n_lexelts: int, n_resamples: int, seed: int
                  ) -> Iterator[tuple[int, np.ndarray]]:
    """``(x, T_x)`` for each lexelt with units, every lexelt resampled alone (``min_stratum`` 1):
    ``T_x`` ``(n_resamples, 1, d)`` is ``resampled_sums(V, lex, X, B, seed, 1).T[:, x:x + 1]``, the
    same products, one lexelt at a time."""
    g = _groups([(V, lex)], n_lexelts, 1)[0]
    cur, Tx = -1, np.empty(0)
    for s, b0, _b1, idx in resample_indices(g.s_units, n_resamples, seed):
        x = int(g.by_stratum[g.s_bounds[s]])
        if x != cur:
            if cur >= 0:
                yield cur, Tx
            cur, Tx = x, np.zeros((n_resamples, 1, g.W.shape[1]))
        _draw_lexelt(Tx, 0, b0, idx, g.W[g.bounds[x]:g.bounds[x + 1]])
    if cur >= 0:
        yield cur, Tx


def resampled_sums(V: np.ndarray, lex: np.ndarray, n_lexelts: int, n_resamples: int, seed: int,
                   min_stratum: int = MIN_STRATUM) -> Draws:
    """The :class:`Draws` of ``V`` (one row per unit, lexelt ``lex``): ``T[b, x, :]`` = sum of the
    rows of lexelt ``x`` drawn in resample ``b``."""
    return resampled_sums_shared([(V, lex)], n_lexelts, n_resamples, seed, min_stratum)[0]


def jackknife_units(V: np.ndarray, lex: np.ndarray, n_lexelts: int, min_stratum: int = MIN_STRATUM
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The resampling units, for the jackknife of the BCa acceleration: ``(R, l, cnt, strata)``.

    Leaving unit ``u`` out subtracts ``R[u]`` from the sums of lexelt ``l[u]`` and ``cnt[u]`` from
    its size; ``strata[u]`` is the unit's resampling stratum, within which the acceleration centres
    the leave-one-out values.  A unit is an instance of a lexelt resampled alone (its row, 1, the
    lexelt), or a whole lexelt of the pooled stratum (its sums, its size, stratum ``n_lexelts``):
    the jackknife leaves out what the bootstrap draws, and groups as it does -- centred per lexelt,
    a lexelt drawn whole would have no influence at all.  Without pooling: ``(V, lex, 1, lex)``,
    the instance jackknife within lexelts.
    """
    V = np.asarray(V, dtype=np.float64)
    lex = np.asarray(lex, np.int64)
    sizes = np.bincount(lex, minlength=n_lexelts)
    pooled = lexelt_strata(sizes, min_stratum)[1]
    if not pooled:
        return V, lex, np.ones(len(lex)), lex
    small = (sizes > 0) & (sizes < min_stratum)
    keep = ~small[lex]
    lexs = np.flatnonzero(small)
    S = np.zeros((n_lexelts, V.shape[1]))
    np.add.at(S, lex[~keep], V[~keep])
    R = np.empty((int(keep.sum()) + len(lexs), V.shape[1]))  # V[keep] over S[lexs], without a copy of each
    np.compress(keep, V, axis=0, out=R[:len(R) - len(lexs)])
    R[len(R) - len(lexs):] = S[lexs]
    return (R, np.concatenate([lex[keep], lexs]),
            np.concatenate([np.ones(int(keep.sum())), sizes[lexs].astype(np.float64)]),
            np.concatenate([lex[keep], np.full(len(lexs), n_lexelts, np.int64)]))


def strata_text(pooled: int) -> str:
    """How an agreement figure's resampling was stratified, for its label."""
    if not pooled:
        return "stratified by lexelt"
    return (f"stratified by lexelt; the {pooled} lexelts of fewer than {MIN_STRATUM} instances "
            "resampled whole, as one stratum")
