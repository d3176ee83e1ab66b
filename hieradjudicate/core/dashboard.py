"""All agreement figures of the dashboard from one layout (metrics.md section 3).

:func:`all_figures` returns what :func:`~hieradjudicate.core.agreement.pairwise.pairwise_matrix`,
:func:`~hieradjudicate.core.agreement.multirater.multi_rater_agreement` and
:func:`~hieradjudicate.core.agreement.alpha.krippendorff_alpha` return, computed from a
single :func:`~hieradjudicate.core.agreement.layout.make_layout` (one sort, shared
segment sums).  For a *complete design* (every instance annotated by the
same raters, the usual case of a few annotators who each tag everything)
every figure is a function of two statistics per lexelt ``x``, with
``Y_x`` the ``(n_x, m K)`` matrix of the raters' leaf vectors side by side:

* the Gram matrix ``G_x = Y_x^T Y_x``, whose ``(a, b)`` block is
  ``sum_i p_a,i p_b,i^T``: its traces are the pair agreement sums
  ``sum_i p_a,i . p_b,i`` (pairs, Fleiss' ``Pr(A)``), the sum of its
  off-diagonal blocks over ``m - 1`` is alpha's coincidence matrix;
* the column sums ``T_x = 1^T Y_x``: each rater's leaf totals (marginals of
  Scott, Cohen, Conger, Fleiss and alpha).

so the whole dashboard costs one ``(mK x n_x) @ (n_x x mK)`` product per
lexelt.  Other designs go through the three functions with the shared layout.
The figures are the same either way (up to floating-point rounding).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hieradjudicate.core.agreement.layout import Layout, make_layout
from hieradjudicate.core.agreement.multirater import (
    MultiRaterAgreement,
    _multi_assemble,
    conger_chance,
    multi_rater_agreement,
)
from hieradjudicate.core.agreement.pairwise import (
    PairwiseMatrix,
    _iter_pair_stats,
    _pairwise_assemble,
    defined_kappa,
    matrix_from_sums,
    pairwise_matrix,
)
from hieradjudicate.core.agreement.alpha import (
    AlphaResult,
    Distance,
    _alpha_assemble,
    _distance_for,
    krippendorff_alpha,
)

__all__ = ["DashboardFigures", "all_figures", "complete_design"]


@dataclass(frozen=True)
class DashboardFigures:
    """The pairwise matrix, Fleiss/Conger and Krippendorff's alpha of one set of annotations."""

    pairwise: PairwiseMatrix
    multi: MultiRaterAgreement
    alpha: AlphaResult


def complete_design(lay: Layout) -> np.ndarray | None:
    """The raters of every instance, in row order, when all instances carry the same ``m >= 2`` raters in
    the same order (else ``None``)."""
    c = lay._uniform_m
    if c < 2 or lay.R != c * len(lay.seg_m):
        return None
    r = lay.rater.reshape(-1, c)
    first = r[0]
    if len(np.unique(first)) != c or not (r == first).all():
        return None
    return first.copy()


def all_figures(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray | None, inst_lexelt: np.ndarray, *,
    n_raters: int | None = None, n_lexelts: int | None = None, per_lexelt: bool | str = False,
    distance: Distance = "nominal", lexelt_chance: str = "within", coincidences: bool = True,
    layout: Layout | None = None,
) -> DashboardFigures:
    """Pairwise matrix, multi-rater kappas and alpha from one shared layout.

    Parameters are those of :func:`~hieradjudicate.core.agreement.pairwise.pairwise_matrix`
    (``n_raters``, ``n_lexelts``, ``per_lexelt``) and of
    :func:`~hieradjudicate.core.agreement.alpha.krippendorff_alpha` (``distance``,
    ``lexelt_chance``, ``coincidences``); ``layout`` is :func:`make_layout`
    of the arrays when the caller already has it (``inst``, ``rater`` and ``P``, which may then be
    ``None``, are not looked at).

    Returns
    -------
    DashboardFigures
        ``pairwise``, ``multi`` and ``alpha`` equal the three functions' results.
    """
    lay = layout if layout is not None else make_layout(inst, rater, P, inst_lexelt, n_lexelts=n_lexelts)
    m = int(n_raters if n_raters is not None else (lay.rater.max() + 1 if lay.R else 0))
    if lexelt_chance == "pooled" and isinstance(distance, str) and distance == "ordinal" and lay.n_lexelts > 1:
        raise ValueError("an ordinal metric has no meaning across lexelts: use lexelt_chance='within'")
    perm = complete_design(lay)
    if perm is not None and int(perm.max()) < m:
        return _complete_figures(lay, perm, m, per_lexelt, distance, lexelt_chance, coincidences)
    al = krippendorff_alpha(inst, rater, P, inst_lexelt, distance=distance, lexelt_chance=lexelt_chance,
                            coincidences=coincidences, layout=lay)
    c = lay._uniform_m
    if c >= 2 and lay.R and int(lay.rater.max()) < m:
        return _uniform_figures(lay, c, m, per_lexelt, al)
    return DashboardFigures(
        pairwise_matrix(inst, rater, P, inst_lexelt, n_raters=m, per_lexelt=per_lexelt, layout=lay),
        multi_rater_agreement(inst, rater, P, inst_lexelt, layout=lay),
        al,
    )


def _uniform_figures(lay: Layout, c: int, m: int, per_lexelt: bool | str, al: AlphaResult) -> DashboardFigures:
    """Every instance has ``c >= 2`` raters (not always the same): Fleiss' ``P_i`` with a constant ``m_i``.

    Conger's chance agreement is :func:`~hieradjudicate.core.agreement.multirater.conger_chance`
    (every instance is pairable, so ``lay`` is also the full layout).
    """
    X = lay.n_lexelts
    pm = _pairwise_assemble(_iter_pair_stats(lay, m), m, X, per_lexelt)
    pairs = float(c * (c - 1))
    s = lay.seg_sum
    p_i = (np.einsum("ik,ik->i", s, s) - lay.seg_sq) / pairs
    sums = lay.lexelt_sums(np.column_stack([p_i, s]))
    n_x = np.diff(lay.lex_segs).astype(np.float64)
    multi = _multi_assemble(n_x, sums[:, 0], conger_chance(lay) * n_x, c * n_x, sums[:, 1:])
    return DashboardFigures(pm, multi, al)


def _complete_figures(
    lay: Layout, perm: np.ndarray, m: int, per_lexelt: bool | str, distance: Distance, lexelt_chance: str,
    coincidences: bool,
) -> DashboardFigures:
    X, K, c = lay.n_lexelts, lay.n_leaves, len(perm)
    order = np.argsort(perm)  # order[j]: position of the j-th smallest rater
    raters_x = perm[order]
    n_x = np.diff(lay.lex_segs).astype(np.float64)
    traces = np.zeros((X, c, c))  # by position
    tot = np.zeros((X, c, K))
    coinc_raw = np.zeros((X, K, K))  # sum over a != b of the (a, b) blocks
    ones = np.ones(int(n_x.max()) if X else 0)
    for x in np.flatnonzero(n_x).tolist():
        r0, r1 = int(lay.lex_rows[x]), int(lay.lex_rows[x + 1])
        nx = int(n_x[x])
        Yt = lay.rows_P(r0, r1).reshape(nx, c * K)
        G = (Yt.T @ Yt).reshape(c, K, c, K)
        traces[x] = np.einsum("akbk->ab", G)
        tot[x] = (ones[:nx] @ Yt).reshape(c, K)
        blocks = G.sum(axis=(0, 2))
        coinc_raw[x] = blocks - np.einsum("akal->kl", G)

    def pair_stats():  # type: ignore[no-untyped-def]
        ix = np.ix_(order, order)
        for x in np.flatnonzero(n_x).tolist():
            T = tot[x][order]
            S = np.ascontiguousarray(np.broadcast_to(T.T[:, None, :], (K, c, c)))  # S[l, a, b] = T[b, l]
            yield x, raters_x, np.full((c, c), n_x[x]), traces[x][ix], S

    if per_lexelt:
        pm = _pairwise_assemble(pair_stats(), m, X, per_lexelt)
    else:
        pm = _complete_pairwise(traces, tot, n_x, order, raters_x, m)
    pairs = float(c * (c - 1))
    off = traces.sum(axis=(1, 2)) - np.einsum("xaa->x", traces)
    sa_x = off / pairs
    marg = tot / np.maximum(n_x, 1.0)[:, None, None]
    msum = marg.sum(axis=1)
    e_x = (np.einsum("xk,xk->x", msum, msum) - np.einsum("xak,xak->x", marg, marg)) / pairs
    leaf_tot = tot.sum(axis=1)
    multi = _multi_assemble(n_x, sa_x, n_x * e_x, c * n_x, leaf_tot)
    coinc = coinc_raw / (c - 1.0)
    dist = np.stack([_distance_for(distance, x, leaf_tot[x]) for x in range(X)]) if X else np.zeros((0, K, K))
    do_x = np.einsum("xkl,xkl->x", coinc, dist)
    alpha = _alpha_assemble(do_x, leaf_tot, dist, lexelt_chance, coinc if coincidences else np.zeros((X, K, K)))
    return DashboardFigures(pm, multi, alpha)


def _complete_pairwise(traces: np.ndarray, tot: np.ndarray, n_x: np.ndarray, order: np.ndarray,
                       raters_x: np.ndarray, m: int) -> PairwiseMatrix:
    """:func:`_pairwise_assemble` of the complete design's per-lexelt statistics, all lexelts at once.

    The same element-wise operations as the per-lexelt loop, on ``(X, c, c)`` arrays: the sums over
    leaves in leaf order and the sums over lexelts in lexelt order (``np.cumsum`` accumulates in
    order), so every figure is the same to the last bit.
    """
    xs = np.flatnonzero(n_x)
    c = len(order)
    N = np.zeros((m, m))
    SA, WS, WC = np.zeros((m, m)), np.zeros((m, m)), np.zeros((m, m))
    MS, MC, CS, CC = np.zeros((m, m)), np.zeros((m, m)), np.zeros((m, m)), np.zeros((m, m))
    if len(xs):
        T = tot[xs][:, order]  # (X', c, K): S[l, a, b] = T[b, l]
        K = T.shape[2]
        cross = T[:, None, :, 0] * T[:, :, None, 0]  # S[0] * S[0].T
        sq = np.broadcast_to(T[:, None, :, 0] * T[:, None, :, 0], cross.shape).copy()  # S[0] * S[0]
        for l in range(1, K):
            cross += T[:, None, :, l] * T[:, :, None, l]
            sq += T[:, None, :, l] * T[:, None, :, l]
        n_ab = np.broadcast_to(n_x[xs][:, None, None], cross.shape)
        den = np.maximum(n_ab, 1.0)
        den2 = den * den
        pe_c = cross / den2
        pe_s = (sq + sq.transpose(0, 2, 1) + 2.0 * cross) / (4.0 * den2)
        sum_a = traces[xs][:, order][:, :, order]
        lo, hi = int(raters_x[0]), int(raters_x[-1]) + 1
        ix = (slice(lo, hi), slice(lo, hi)) if hi - lo == c else np.ix_(raters_x, raters_x)

        def total(v: np.ndarray) -> np.ndarray:  # sum over the lexelts in lexelt order
            return np.cumsum(v, axis=0)[-1]

        N[ix] += total(n_ab)
        SA[ix] += total(sum_a)
        WS[ix] += total(n_ab * pe_s)
        WC[ix] += total(n_ab * pe_c)
        obs = sum_a / den
        shared = n_ab > 0
        for pe, acc, cnt in ((pe_s, MS, CS), (pe_c, MC, CC)):
            kap, ok = defined_kappa(obs, pe, shared)
            acc[ix] += total(kap)
            cnt[ix] += total(ok.astype(np.float64))
    return matrix_from_sums(N, SA, WS, WC, MS, CS, MC, CC)
