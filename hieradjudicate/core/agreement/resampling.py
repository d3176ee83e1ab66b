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


def resampled_sums_shared(
    items: list[tuple[np.ndarray, np.ndarray]], n_lexelts: int, n_resamples: int, seed: int,
    min_stratum: int = MIN_STRATUM,
) -> list[Draws]:
    """:func:`resampled_sums` of several ``(V, lex)`` at once, drawing each resample once.

    Items whose lexelts have the same sizes have the same strata and get the same draws from the
    same seed, so they share one pass over :func:`resample_indices` (one count matrix, one product
    with the stacked columns); the result of each item is what :func:`resampled_sums` gives for it
    alone.  ``min_stratum``: lexelts of fewer units are pooled (1: none is; the strata are then the
    lexelts).
    """
    out: list[Draws] = [Draws(np.empty(0), np.empty(0), 0)] * len(items)
    groups: dict[bytes, list[tuple[int, np.ndarray]]] = {}
    bounds_of: dict[bytes, np.ndarray] = {}
    for j, (V, lex) in enumerate(items):
        V = np.asarray(V, dtype=np.float64)
        Vs, bounds = _grouped_rows(V, lex, n_lexelts)
        key = np.diff(bounds).tobytes()
        groups.setdefault(key, []).append((j, Vs))
        bounds_of[key] = bounds
    for key, members in groups.items():
        bounds = bounds_of[key]
        sizes = np.diff(bounds)
        stratum_of, pooled = lexelt_strata(sizes, min_stratum)
        W = np.hstack([Vs for _, Vs in members]) if len(members) > 1 else members[0][1]
        T = np.zeros((n_resamples, n_lexelts, W.shape[1]))
        n = sizes.astype(np.float64)
        copies = None
        if pooled:
            n = np.broadcast_to(n, (n_resamples, n_lexelts)).copy()
            copies = np.ones((n_resamples, n_lexelts))
        by_stratum = np.argsort(stratum_of, kind="stable")  # each stratum's lexelts, in order
        s_bounds = np.searchsorted(stratum_of[by_stratum], np.arange(int(stratum_of.max(initial=-1)) + 2))
        # what a stratum draws: a lexelt alone its units, the pooled stratum its lexelts
        s_units = np.where(np.diff(s_bounds) > 1, np.diff(s_bounds),
                           np.bincount(stratum_of, weights=sizes, minlength=len(s_bounds) - 1)).astype(np.int64)
        for s, b0, _b1, idx in resample_indices(s_units, n_resamples, seed):
            lexs = by_stratum[s_bounds[s]:s_bounds[s + 1]]
            if len(lexs) == 1:
                x = int(lexs[0])
                _draw_lexelt(T, x, b0, idx, W[bounds[x]:bounds[x + 1]])
                continue
            lens = sizes[lexs]  # each at least 1
            starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
            rows = np.repeat(bounds[lexs] - starts, lens) + np.arange(int(lens.sum()))
            S = np.add.reduceat(W[rows], starts, axis=0)  # each pooled lexelt's sums
            _draw_whole(T, n, copies, lexs, b0, idx, S, sizes[lexs].astype(np.float64))
        col = 0
        for j, Vs in members:
            d = Vs.shape[1]
            out[j] = Draws(T[..., col:col + d] if len(members) > 1 else T, n, pooled, copies)
            col += d
    return out


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
    return (np.vstack([V[keep], S[lexs]]), np.concatenate([lex[keep], lexs]),
            np.concatenate([np.ones(int(keep.sum())), sizes[lexs].astype(np.float64)]),
            np.concatenate([lex[keep], np.full(len(lexs), n_lexelts, np.int64)]))


def strata_text(pooled: int) -> str:
    """How an agreement figure's resampling was stratified, for its label."""
    if not pooled:
        return "stratified by lexelt"
    return (f"stratified by lexelt; the {pooled} lexelts of fewer than {MIN_STRATUM} instances "
            "resampled whole, as one stratum")
