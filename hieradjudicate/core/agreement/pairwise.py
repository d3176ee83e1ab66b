"""Agreement of two annotators over leaf distributions: Scott's pi and Cohen's kappa (metrics.md section 3).

Pure numpy on the array contract of the model (instances ``0..n-1`` with ``inst_lexelt``; annotations
in long form ``inst, rater, P``, see :mod:`~hieradjudicate.core.agreement.layout`).  Chance agreement
is computed *within* a lexelt (its own marginals) and combined over lexelts as the instance-weighted
mean, so that leaves of different lexelts never meet.  :func:`pairwise_agreement` takes one pair,
:func:`pairwise_matrix` every pair of a layout (per lexelt on demand).  Undefined figures follow
:mod:`hieradjudicate.core.stats.undefined`.

References
----------
Melamed & Resnik (2000), "Tagger evaluation given hierarchical tag sets", Computers and the
Humanities 34; Scott (1955); Cohen (1960); Artstein & Poesio (2008), Computational Linguistics 34(4).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from hieradjudicate.core.stats.undefined import (
    CHANCE_ONE,
    DEFINED,
    NO_SHARED,
    SAME_RATER,
    ZERO_TOL,
    Agreement,
    Estimate,
    chance_corrected,
    macro_mean,
    masked,
)
from hieradjudicate.core.agreement.layout import Layout, group_sum, make_layout


@dataclass(frozen=True)
class PairwiseAgreement:
    """Two raters over the instances both annotated.

    ``scott`` and ``cohen`` share ``observed`` (``Pr(A)``) and differ in
    ``expected`` (``Pr(E)``); ``lexelt_*`` hold the per-lexelt figures
    (lexelt ``x`` at position ``x``) and ``macro_*`` their unweighted mean
    over the lexelts whose kappa is defined.
    """

    scott: Agreement
    cohen: Agreement
    lexelt_scott: tuple[Agreement, ...]
    lexelt_cohen: tuple[Agreement, ...]
    macro_scott: Estimate
    macro_cohen: Estimate

    @property
    def n(self) -> int:
        return self.scott.n


def _pair_result(n_x: np.ndarray, sum_a_x: np.ndarray, pe_s_x: np.ndarray, pe_c_x: np.ndarray) -> PairwiseAgreement:
    """Assemble a :class:`PairwiseAgreement` from per-lexelt sufficient statistics."""
    n = int(n_x.sum())
    lex_s, lex_c = [], []
    for nx, sa, ps, pc in zip(n_x.tolist(), sum_a_x.tolist(), pe_s_x.tolist(), pe_c_x.tolist()):
        obs = sa / nx if nx else None
        lex_s.append(chance_corrected(obs, ps if nx else None, int(nx)))
        lex_c.append(chance_corrected(obs, pc if nx else None, int(nx)))
    if n:
        obs = float(sum_a_x.sum()) / n
        scott = chance_corrected(obs, float(n_x @ pe_s_x) / n, n)
        cohen = chance_corrected(obs, float(n_x @ pe_c_x) / n, n)
    else:
        scott = cohen = chance_corrected(None, None, 0)
    return PairwiseAgreement(
        scott, cohen, tuple(lex_s), tuple(lex_c),
        macro_mean([a.kappa for a in lex_s]), macro_mean([a.kappa for a in lex_c]),
    )


def pairwise_agreement(
    pa: np.ndarray, pb: np.ndarray, lex: np.ndarray | None = None, *, n_lexelts: int | None = None
) -> PairwiseAgreement:
    r"""Observed agreement and Scott/Cohen kappa of two raters over leaf vectors.

    .. math::

        \Pr(A) = \frac1{|T|}\sum_{i\in T}\sum_l p_{a,i}(l)\,p_{b,i}(l),\qquad
        \kappa = \frac{\Pr(A)-\Pr(E)}{1-\Pr(E)}

    Within lexelt ``x`` (instances ``T_x``): Siegel & Castellan / Scott
    ``Pr_x(E) = sum_l ((P_a(l) + P_b(l)) / 2)^2`` (pooled marginal) and
    Cohen ``Pr_x(E) = sum_l P_a(l) P_b(l)`` (own marginals), with
    ``P_a(l) = mean_{i in T_x} p_a,i(l)``.  The corpus ``Pr(E)`` is the
    mean of the ``Pr_x(E)`` weighted by ``|T_x|`` (metrics.md section 3).

    Parameters
    ----------
    pa, pb : ndarray of shape (n_shared, K)
        Leaf vectors of the two raters on the instances both annotated.
    lex : ndarray of int, shape (n_shared,), optional
        Lexelt of each instance (default: one lexelt).
    n_lexelts : int, optional
        Number of lexelts ``X`` (default ``lex.max() + 1``).

    Returns
    -------
    PairwiseAgreement
        Kappa is undefined (``value=None`` with a reason) when no instance
        is shared or ``Pr(E) = 1``.

    Examples
    --------
    >>> a = np.array([[1., 0.], [0., 1.], [1., 0.]])
    >>> str(pairwise_agreement(a, a).cohen.kappa)
    '1.0000'
    """
    pa = np.asarray(pa, dtype=np.float64)
    pb = np.asarray(pb, dtype=np.float64)
    lex = np.zeros(len(pa), np.int64) if lex is None else np.asarray(lex, np.int64)
    X = int(n_lexelts if n_lexelts is not None else (lex.max() + 1 if len(lex) else 1))
    n_x = np.bincount(lex, minlength=X).astype(np.float64)
    sum_a_x = np.bincount(lex, weights=np.einsum("ik,ik->i", pa, pb), minlength=X)
    ma, mb = group_sum(pa, lex, X), group_sum(pb, lex, X)
    den = np.maximum(n_x, 1.0) ** 2
    pe_c = np.einsum("xk,xk->x", ma, mb) / den
    pe_s = np.einsum("xk,xk->x", ma + mb, ma + mb) / (4.0 * den)
    return _pair_result(n_x, sum_a_x, pe_s, pe_c)


def bennett_s(observed: float | None, n_categories: int) -> Estimate:
    """Bennett, Alpert & Goldstein's (1954) S: chance = ``1/q`` for ``q`` categories."""
    if observed is None:
        return Estimate.undefined(NO_SHARED)
    if n_categories <= 1:
        return Estimate.undefined(CHANCE_ONE)
    pe = 1.0 / n_categories
    return Estimate((observed - pe) / (1.0 - pe))


@dataclass(frozen=True)
class PairwiseMatrix:
    """All pairs of raters at once (rows/columns = rater ids ``0..m-1``).

    Figures are :class:`numpy.ma.MaskedArray` with undefined cells masked;
    ``reason_*`` hold the reason codes of :mod:`~hieradjudicate.core.stats.undefined`.
    ``lexelt_*`` (shape ``(X, m, m)``) are kept only with ``per_lexelt=True``:
    the shared counts, the sums of per-instance agreement and both ``Pr_x(E)``.
    """

    n: np.ndarray
    observed: np.ma.MaskedArray
    expected_scott: np.ma.MaskedArray
    expected_cohen: np.ma.MaskedArray
    kappa_scott: np.ma.MaskedArray
    kappa_cohen: np.ma.MaskedArray
    reason_scott: np.ndarray
    reason_cohen: np.ndarray
    macro_scott: np.ma.MaskedArray
    macro_cohen: np.ma.MaskedArray
    lexelt_n: np.ndarray | None = None
    lexelt_sum_a: np.ndarray | None = None
    lexelt_pe_scott: np.ndarray | None = None
    lexelt_pe_cohen: np.ndarray | None = None
    #: each lexelt's mean pairwise Cohen kappa over the pairs defined in it, ``(X,)`` (NaN: none);
    #: kept with ``per_lexelt=True`` or ``"mean"`` (which keeps no ``(X, m, m)`` table)
    lexelt_mean_cohen: np.ndarray | None = None

    def mean_kappa(self, variant: str = "cohen") -> Estimate:
        """Mean over unordered pairs with a defined kappa (Light's kappa for ``"cohen"``)."""
        k = self.kappa_cohen if variant == "cohen" else self.kappa_scott
        iu = np.triu_indices(k.shape[0], 1)
        values = np.asarray(k[iu].compressed(), dtype=np.float64)
        if not values.size:
            return macro_mean([])
        return Estimate(float(np.mean(values)), None, int(values.size))  # macro_mean of every value

    def pair(self, a: int, b: int) -> PairwiseAgreement:
        """The full :class:`PairwiseAgreement` of raters ``a`` and ``b`` (needs ``per_lexelt=True``)."""
        if self.lexelt_n is None or self.lexelt_sum_a is None:
            raise ValueError("pairwise_matrix(..., per_lexelt=True) keeps the per-lexelt figures")
        assert self.lexelt_pe_scott is not None and self.lexelt_pe_cohen is not None
        return _pair_result(
            self.lexelt_n[:, a, b].astype(np.float64), self.lexelt_sum_a[:, a, b],
            self.lexelt_pe_scott[:, a, b], self.lexelt_pe_cohen[:, a, b],
        )


def _kappa_codes(n: np.ndarray, pe: np.ndarray) -> np.ndarray:
    codes = np.full(n.shape, DEFINED, np.int8)
    codes[1.0 - pe <= ZERO_TOL] = CHANCE_ONE
    codes[n == 0] = NO_SHARED
    if n.ndim == 2:
        np.fill_diagonal(codes, SAME_RATER)
    return codes


def _safe_kappa(pa: np.ndarray, pe: np.ndarray, codes: np.ndarray) -> np.ndarray:
    den = np.where(codes == DEFINED, 1.0 - pe, 1.0)
    return np.where(codes == DEFINED, (pa - pe) / den, 0.0)


def _local_raters(rater: np.ndarray, present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct raters of ``rater`` and each row's index among them (no sort of the rows)."""
    present[rater] = True
    raters_x = np.flatnonzero(present)
    present[raters_x] = False
    loc = np.empty(len(present), dtype=np.int64)
    loc[raters_x] = np.arange(len(raters_x))
    return raters_x, loc[rater]


#: A dense BLAS multiply-add costs about this fraction of one scattered (bincount) update.
_DENSE_FLOP_COST = 1.0 / 24.0


def _lexelt_pair_stats(
    lay: Layout, x: int, r0: int, r1: int, present: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Pair sums of lexelt ``x`` over the raters present in it.

    Returns ``raters_x``, the shared counts ``n_ab``, the agreement sums
    ``sum_a[a, b] = sum_i p_a,i . p_b,i`` and ``S[l, a, b] = sum_{i shared} p_b,i(l)``.
    Two ways to the same sums, whichever is cheaper: dense matmuls over the
    ``(n_x, m_x)`` presence matrix (cost ``~ n_x m_x^2 K``), or, when each
    instance carries few of the lexelt's raters, the ordered pairs of
    annotations within each instance (segments padded to the longest one
    with an absent rater), accumulated by ``bincount`` (cost ``~ sum_i m_i
    (m_i + nnz_i)`` with ``nnz_i`` the nonzero leaf masses of the instance).
    When every annotation is one leaf (:attr:`Layout.onehot_leaf`) the sums are
    counts and the dense products run in float32 on the leaves, without ``P``
    (:func:`_pair_stats_onehot`); a complete design keeps its own path.
    """
    leaf = lay.onehot_leaf
    if leaf is not None:  # the leaves in use from the rows' leaves, without reading P
        used = np.bincount(leaf[r0:r1], minlength=lay.n_leaves) > 0
        kx = int(used.sum())
    else:
        Px = lay.rows_P(r0, r1)
        used = Px.any(axis=0)
        if not used.all():
            Px = Px[:, used]
        kx = Px.shape[1]
    raters_x, rloc = _local_raters(lay.rater[r0:r1], present)
    s0, s1 = int(lay.lex_segs[x]), int(lay.lex_segs[x + 1])
    iloc = lay.row_seg[r0:r1] - np.int64(s0)
    nx, mx = s1 - s0, len(raters_x)
    seg_m = lay.seg_m[s0:s1]
    c = int(seg_m.max())
    if c == mx and r1 - r0 == nx * mx:
        rl = rloc.reshape(nx, mx)
        if (rl == rl[0]).all():  # complete: every instance has every rater, in the same order
            if leaf is not None:
                Px = lay.P[r0:r1][:, used]
            return (raters_x, *_pair_stats_complete(Px.reshape(nx, mx * kx), rl[0], nx, mx, kx))
    if leaf is not None:
        return (raters_x, *_pair_stats_onehot(leaf[r0:r1], rloc, iloc, nx, mx, used))
    nnz = int(np.count_nonzero(Px))
    sparse_cost = nx * c * c * 2 + c * nnz
    dense_cost = _DENSE_FLOP_COST * (2.0 * nx * mx * mx * kx + nx * mx * mx)
    if sparse_cost < dense_cost:
        onehot = nnz == r1 - r0 and bool((Px.max(axis=1) == 1.0).all())
        return (raters_x, *_pair_stats_sparse(Px, rloc, iloc, lay.seg_start[s0:s1] - r0, seg_m, nx, mx, kx, c,
                                              onehot))
    # Y[i, l, r] (leaf-major per instance) so that Z = Y.reshape(n*K, m) needs no copy.
    Y = np.zeros((nx, kx, mx))
    Y[iloc, :, rloc] = Px
    A = np.zeros((nx, mx))
    A[iloc, rloc] = 1.0
    n_ab = A.T @ A
    S = (A.T @ Y.reshape(nx, kx * mx)).reshape(mx, kx, mx).transpose(1, 0, 2)  # S[l, a, b]
    Z = Y.reshape(nx * kx, mx)
    return raters_x, n_ab, Z.T @ Z, S


def _pair_stats_onehot(
    leaf: np.ndarray, rloc: np.ndarray, iloc: np.ndarray, nx: int, mx: int, used: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n_ab``, ``sum_a`` and ``S`` of a lexelt whose annotations are each one leaf (``leaf``).

    The dense products of :func:`_lexelt_pair_stats` on 0/1 matrices: every entry is a count below
    ``2^24``, exact in float32 (half the work of float64) and in any summation order, so the
    figures equal those of the float64 and the sparse paths."""
    cols = np.flatnonzero(used)
    kx = cols.size
    local = np.zeros(len(used), dtype=np.int64)
    local[cols] = np.arange(kx)
    Y = np.zeros((nx, kx, mx), dtype=np.float32)
    Y[iloc, local[leaf], rloc] = 1.0
    A = np.zeros((nx, mx), dtype=np.float32)
    A[iloc, rloc] = 1.0
    n_ab = (A.T @ A).astype(np.float64)
    S = (A.T @ Y.reshape(nx, kx * mx)).reshape(mx, kx, mx).transpose(1, 0, 2).astype(np.float64)
    Z = Y.reshape(nx * kx, mx)
    return n_ab, (Z.T @ Z).astype(np.float64), S


def _pair_stats_complete(
    Yt: np.ndarray, pos_rater: np.ndarray, nx: int, mx: int, kx: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n_ab``, ``sum_a`` and ``S`` when every instance carries every rater (``Yt[i, j*K + l]``, rater ``pos_rater[j]``)."""
    G = (Yt.T @ Yt).reshape(mx, kx, mx, kx)
    sum_pos = np.einsum("akbk->ab", G)
    tot = (np.ones(nx) @ Yt).reshape(mx, kx)  # tot[j, l] = sum_i p_j,i(l)
    inv = np.empty(mx, dtype=np.int64)
    inv[pos_rater] = np.arange(mx)
    sum_a = sum_pos[np.ix_(inv, inv)]
    T = tot[inv]  # by local rater
    S = np.ascontiguousarray(np.broadcast_to(T.T[:, None, :], (kx, mx, mx)))  # S[l, a, b] = T[b, l]
    return np.full((mx, mx), float(nx)), sum_a, S


def _pair_stats_sparse(
    Px: np.ndarray, rloc: np.ndarray, iloc: np.ndarray, starts: np.ndarray, seg_m: np.ndarray,
    nx: int, mx: int, kx: int, c: int, onehot: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n_ab``, ``sum_a`` and ``S`` of one lexelt from the ordered pairs of annotations per instance.

    ``onehot``: every row of ``Px`` is a unit vector (exactly one leaf of mass 1), so the pair sums
    are counts of keys and need no weights.
    """
    m1 = mx + 1  # local rater mx = padding (absent)
    if int(seg_m.min()) == c:
        rl = rloc.reshape(nx, c)
        Pp = Px.reshape(nx, c, kx)
    else:
        pos = np.arange(len(rloc)) - np.repeat(starts, seg_m)
        rl = np.full((nx, c), mx, dtype=np.int64)
        rl[iloc, pos] = rloc
        Pp = np.zeros((nx, c, kx))
        Pp[iloc, pos] = Px
    key = (rl * m1)[:, :, None] + rl[:, None, :]
    n_ab = np.bincount(key.ravel(), minlength=m1 * m1).reshape(m1, m1)[:mx, :mx].astype(np.float64)
    if onehot:  # one leaf per annotation: every sum is a count
        lf = Pp.argmax(axis=2)
        same = lf[:, :, None] == lf[:, None, :]
        sum_a = np.bincount(key[same], minlength=m1 * m1).reshape(m1, m1)[:mx, :mx].astype(np.float64)
        key2 = (lf[:, None, :] * m1 + rl[:, :, None]) * m1 + rl[:, None, :]  # [i, s, t] -> (l_t, r_s, r_t)
        S = np.bincount(key2.ravel(), minlength=kx * m1 * m1).reshape(kx, m1, m1)[:, :mx, :mx]
        return n_ab, sum_a, S.astype(np.float64)
    dots = np.matmul(Pp, Pp.transpose(0, 2, 1))
    sum_a = np.bincount(key.ravel(), weights=dots.ravel(), minlength=m1 * m1).reshape(m1, m1)[:mx, :mx]
    ii, tt, ll = np.nonzero(Pp)
    v = Pp[ii, tt, ll]
    # pair (annotation s of the instance, nonzero (t, l, v)): S[l, rater s, rater t] += v
    key2 = (ll[:, None] * m1 + rl[ii]) * m1 + rl[ii, tt][:, None]
    S = np.bincount(key2.ravel(), weights=np.broadcast_to(v[:, None], key2.shape).ravel(),
                    minlength=kx * m1 * m1).reshape(kx, m1, m1)[:, :mx, :mx]
    return n_ab, sum_a, S


def pairwise_matrix(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray, *,
    n_raters: int | None = None, n_lexelts: int | None = None, per_lexelt: bool | str = False,
    layout: Layout | None = None,
) -> PairwiseMatrix:
    """Pairwise ``Pr(A)``, both ``Pr(E)`` and both kappas for every pair of raters.

    Each cell equals :func:`pairwise_agreement` on the instances the two
    raters share.  Computed per lexelt over the raters present in it: with
    ``Y`` the dense ``(n_x, m_x, K)`` tensor of leaf vectors and ``A`` the
    ``(n_x, m_x)`` presence matrix, the shared counts are ``A^T A``, the
    agreement sums ``sum_l Y_l^T Y_l`` and the marginal sums over shared
    instances ``S[a, b, :] = sum_i A[i, a] Y[i, b, :]`` (three matmuls per
    lexelt; no loop over instances or pairs).

    Parameters
    ----------
    inst, rater : ndarray of int, shape (R,)
        Instance and rater of each annotation row (no pair twice).
    P : ndarray of shape (R, K)
        Leaf vectors.
    inst_lexelt : ndarray of int, shape (n,)
        Lexelt of each instance.
    n_raters, n_lexelts : int, optional
        ``m`` and ``X`` (default: inferred).
    per_lexelt : bool or "mean", default False
        Keep the ``(X, m, m)`` per-lexelt statistics (needed by :meth:`PairwiseMatrix.pair`);
        ``"mean"``: keep only each lexelt's mean pairwise Cohen kappa
        (:attr:`PairwiseMatrix.lexelt_mean_cohen`), not the four tables (a crowd: 228 raters in
        46 lexelts, 76 MB and as much again for their mean).
    layout : Layout, optional
        :func:`make_layout` of these arrays, when the caller already has it
        (the other arguments are then not looked at).

    Notes
    -----
    When the raters present on each instance are few compared with the
    raters of the lexelt (e.g. 24 of 229), the same sums are taken over the
    pairs of annotations of each instance instead of dense matrices
    (see :func:`_lexelt_pair_stats`); the figures are the same.
    """
    lay = layout if layout is not None else make_layout(inst, rater, P, inst_lexelt, n_lexelts=n_lexelts)
    m = int(n_raters if n_raters is not None else (lay.rater.max() + 1 if lay.R else 0))
    return _pairwise_assemble(_iter_pair_stats(lay, m), m, lay.n_lexelts, per_lexelt)


def _iter_pair_stats(lay: Layout, m: int):  # type: ignore[no-untyped-def]
    present = np.zeros(m + 1, dtype=bool)
    for x in range(lay.n_lexelts):
        r0, r1 = int(lay.lex_rows[x]), int(lay.lex_rows[x + 1])
        if r1 - r0:
            yield (x, *_lexelt_pair_stats(lay, x, r0, r1, present))


def _pairwise_assemble(stats, m: int, X: int, per_lexelt: bool | str) -> PairwiseMatrix:  # type: ignore[no-untyped-def]
    """The :class:`PairwiseMatrix` from per-lexelt ``(x, raters_x, n_ab, sum_a, S[l, a, b])``
    (``per_lexelt``: see :func:`pairwise_matrix`)."""
    N = np.zeros((m, m))
    SA, WS, WC = np.zeros((m, m)), np.zeros((m, m)), np.zeros((m, m))
    MS, MC, CS, CC = np.zeros((m, m)), np.zeros((m, m)), np.zeros((m, m)), np.zeros((m, m))
    keep = (np.zeros((X, m, m)), np.zeros((X, m, m)), np.zeros((X, m, m)), np.zeros((X, m, m))) \
        if per_lexelt is True else None
    iu = np.triu_indices(m, 1) if per_lexelt else None
    # each lexelt's defined kappas by pair, laid out as the tables' k[:, iu[0], iu[1]] is (column-major)
    pair_kappa = np.full((X, len(iu[0])), np.nan, order="F") if iu is not None else None
    for x, raters_x, n_ab, sum_a, S in stats:
        # S[l, a, b]: Pr_x(E) Cohen = S_ab . S_ba / n^2, Scott = |S_ab + S_ba|^2 / (4 n^2)
        cross = S[0] * S[0].T
        sq = S[0] * S[0]
        for l in range(1, S.shape[0]):
            cross += S[l] * S[l].T
            sq += S[l] * S[l]
        den = np.maximum(n_ab, 1.0)
        den2 = den * den
        pe_c = cross / den2
        pe_s = (sq + sq.T + 2.0 * cross) / (4.0 * den2)
        lo, hi = int(raters_x[0]), int(raters_x[-1]) + 1
        ix = (slice(lo, hi), slice(lo, hi)) if hi - lo == len(raters_x) else np.ix_(raters_x, raters_x)
        N[ix] += n_ab
        SA[ix] += sum_a
        WS[ix] += n_ab * pe_s
        WC[ix] += n_ab * pe_c
        obs = sum_a / den
        shared = n_ab > 0
        for pe, acc, cnt in ((pe_s, MS, CS), (pe_c, MC, CC)):
            kap, ok = defined_kappa(obs, pe, shared)
            acc[ix] += kap
            cnt[ix] += ok
            if pair_kappa is not None and pe is pe_c:
                full = np.full((m, m), np.nan)
                full[ix] = np.where(ok, kap, np.nan)
                pair_kappa[x] = full[iu]
        if keep is not None:
            for arr, val in zip(keep, (n_ab, sum_a, pe_s, pe_c)):
                arr[x][ix] = val
    pm = matrix_from_sums(N, SA, WS, WC, MS, CS, MC, CC, keep)
    if pair_kappa is None:
        return pm
    # the mean over each lexelt's unordered pairs with a defined kappa, summed as the mean over the
    # kept tables sums them (an (X, pairs) array in the same memory order: the same value to the bit)
    n_def = (~np.isnan(pair_kappa)).sum(axis=1)
    mean = np.where(n_def > 0, np.nansum(pair_kappa, axis=1) / np.maximum(n_def, 1), np.nan)
    return replace(pm, lexelt_mean_cohen=mean)


def matrix_from_sums(N: np.ndarray, SA: np.ndarray, WS: np.ndarray, WC: np.ndarray, MS: np.ndarray,
                     CS: np.ndarray, MC: np.ndarray, CC: np.ndarray, keep=None) -> PairwiseMatrix:
    """Assemble a :class:`PairwiseMatrix` from (m, m) sums over lexelts: shared counts ``N``,
    agreement sums ``SA``, instance-weighted chance sums ``WS``/``WC`` (Scott/Cohen), and the
    sums and counts of defined per-lexelt kappas for the macro means (``MS``/``CS``, ``MC``/``CC``).
    ``keep`` holds the optional per-lexelt tables ``(n, sum_a, pe_scott, pe_cohen)``."""
    den = np.maximum(N, 1.0)
    pa, pe_s, pe_c = SA / den, WS / den, WC / den
    code_s, code_c = _kappa_codes(N, pe_s), _kappa_codes(N, pe_c)
    code_n = _kappa_codes(N, np.zeros_like(N))
    mcode_s = np.where(CS > 0, code_n, 4).astype(np.int8)
    mcode_c = np.where(CC > 0, code_n, 4).astype(np.int8)
    np.fill_diagonal(mcode_s, SAME_RATER)
    np.fill_diagonal(mcode_c, SAME_RATER)
    return PairwiseMatrix(
        n=N.astype(np.int64),
        observed=masked(pa, code_n), expected_scott=masked(pe_s, code_n), expected_cohen=masked(pe_c, code_n),
        kappa_scott=masked(_safe_kappa(pa, pe_s, code_s), code_s),
        kappa_cohen=masked(_safe_kappa(pa, pe_c, code_c), code_c),
        reason_scott=code_s, reason_cohen=code_c,
        macro_scott=masked(MS / np.maximum(CS, 1), mcode_s), macro_cohen=masked(MC / np.maximum(CC, 1), mcode_c),
        lexelt_n=None if keep is None else keep[0].astype(np.int64),
        lexelt_sum_a=None if keep is None else keep[1],
        lexelt_pe_scott=None if keep is None else keep[2],
        lexelt_pe_cohen=None if keep is None else keep[3],
    )


def defined_kappa(obs: np.ndarray, pe: np.ndarray, shared: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-lexelt kappas for the macro means: ``(obs - pe) / (1 - pe)`` where the pair shares
    instances and ``1 - Pr(E)`` exceeds :data:`ZERO_TOL`, else 0; and that mask."""
    q = 1.0 - pe
    ok = shared & (q > ZERO_TOL)
    q[~ok] = 1.0
    kap = (obs - pe) / q
    kap[~ok] = 0.0
    return kap, ok
