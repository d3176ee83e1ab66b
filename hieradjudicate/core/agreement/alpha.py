"""Krippendorff's alpha over leaf vectors (soft labels, missing data allowed).

Coincidences follow metrics.md section 3: for instance ``i`` with
``m_i >= 2`` annotations, ``o_i(c, k) = (1/(m_i-1)) sum_{r != r'} p_r,i(c) p_r',i(k)``.
Leaves of different lexelts are different categories that never co-occur in
a unit, so the coincidence matrix is block-diagonal, one ``K x K`` block per
lexelt.  Whether the *expected* disagreement pools the lexelts is the
``lexelt_chance`` option (see :func:`krippendorff_alpha`).

References
----------
Krippendorff, K. (2004, 2011). Content Analysis, 2nd ed.; "Computing
Krippendorff's Alpha-Reliability". Hayes & Krippendorff (2007),
Communication Methods and Measures 1(1). Artstein & Poesio (2008).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hieradjudicate.core.agreement.layout import Layout, make_layout
from hieradjudicate.core.stats.undefined import (
    NO_EXPECTED_DISAGREEMENT,
    NO_PAIRABLE,
    ZERO_TOL,
    Estimate,
    macro_mean,
)

__all__ = ["AlphaResult", "interval_distance", "krippendorff_alpha", "ordinal_distance", "ratio_distance"]

Distance = str | np.ndarray


@dataclass(frozen=True)
class AlphaResult:
    """Alpha with its parts.

    Attributes
    ----------
    alpha : Estimate
        ``1 - D_o / D_e``; undefined with a reason when there is no pairable
        value or ``D_e = 0``.
    observed_disagreement, expected_disagreement : float or None
        ``D_o`` and ``D_e`` of the corpus.
    n_pairable : float
        ``n``, the number of pairable values (sum of ``m_i`` over instances with ``m_i >= 2``).
    lexelt_alpha : tuple of Estimate
        Alpha within each lexelt (its own coincidences and expected disagreement).
    macro_alpha : Estimate
        Unweighted mean of the defined per-lexelt alphas.
    coincidence : ndarray of shape (X, K, K)
        The per-lexelt coincidence matrices ``o(c, k)``.
    """

    alpha: Estimate
    observed_disagreement: float | None
    expected_disagreement: float | None
    n_pairable: float
    lexelt_alpha: tuple[Estimate, ...]
    macro_alpha: Estimate
    coincidence: np.ndarray


def interval_distance(values: np.ndarray) -> np.ndarray:
    """Interval metric ``(v_c - v_k)^2`` for categories with numeric ``values``."""
    v = np.asarray(values, dtype=np.float64)
    return (v[:, None] - v[None, :]) ** 2


def ratio_distance(values: np.ndarray) -> np.ndarray:
    """Ratio metric ``((v_c - v_k) / (v_c + v_k))^2`` (0 where both are 0)."""
    v = np.asarray(values, dtype=np.float64)
    s = v[:, None] + v[None, :]
    return np.where(s != 0, (v[:, None] - v[None, :]) / np.where(s != 0, s, 1.0), 0.0) ** 2


def ordinal_distance(n_c: np.ndarray) -> np.ndarray:
    """Krippendorff's ordinal metric for categories in column order with marginals ``n_c``.

    ``d(c, k) = (sum_{g=c}^{k} n_g - (n_c + n_k) / 2)^2``.
    """
    n = np.asarray(n_c, dtype=np.float64)
    cum = np.cumsum(n)
    lo = np.minimum.outer(np.arange(len(n)), np.arange(len(n)))
    hi = np.maximum.outer(np.arange(len(n)), np.arange(len(n)))
    span = cum[hi] - cum[lo] + n[lo]
    return (span - (n[:, None] + n[None, :]) / 2.0) ** 2


def _distance_for(distance: Distance, x: int, n_c: np.ndarray) -> np.ndarray:
    K = len(n_c)
    if isinstance(distance, str):
        if distance == "nominal":
            return 1.0 - np.eye(K)
        if distance == "ordinal":
            return ordinal_distance(n_c)
        raise ValueError(f"unknown distance {distance!r}: use 'nominal', 'ordinal' or a matrix")
    d = distance[x] if distance.ndim == 3 else distance
    d = np.array(d[:K, :K], dtype=np.float64)
    np.fill_diagonal(d, 0.0)
    return d


@dataclass(frozen=True)
class AlphaStats:
    """Per-instance sufficient statistics of alpha (pairable instances only).

    ``do_i = sum_{c,k} o_i(c,k) d(c,k)`` and ``s_i = sum_r p_r,i`` (whose
    sum over instances is the marginal ``n_c``); ``seg_lex`` the lexelt of
    each instance; ``dist`` the per-lexelt distance matrices used.
    """

    do_i: np.ndarray
    s_i: np.ndarray
    seg_lex: np.ndarray
    dist: np.ndarray
    layout: Layout


def alpha_stats(lay: Layout, distance: Distance = "nominal") -> AlphaStats:
    """Per-instance statistics of a pairable layout (see :class:`AlphaStats`)."""
    X, K = lay.n_lexelts, lay.n_leaves
    s = lay.seg_sum if lay.R else np.zeros((0, K))
    n_c = lay.lexelt_sums(s)
    nominal = isinstance(distance, str) and distance == "nominal"
    if nominal:  # every lexelt's matrix the same: one (K, K), seen X times (39,000 lexelts x 25^2 leaves: 197 MB)
        dist = np.broadcast_to(1.0 - np.eye(K), (X, K, K))
    else:
        dist = np.stack([_distance_for(distance, x, n_c[x]) for x in range(X)]) if X else np.zeros((0, K, K))
    w = 1.0 / (lay.seg_m - 1.0)
    seg_term = np.empty(len(s))
    row_term = np.empty(lay.R)
    if nominal:  # s'(1 - I)s = (sum s)^2 - |s|^2, no matrix needed
        ones = np.ones(K)
        seg_term[:] = (s @ ones) ** 2 - np.einsum("ik,ik->i", s, s)
        if lay.onehot_leaf is not None:  # (1)^2 - 1 on every row
            row_term[:] = 0.0
        else:
            row_term[:] = lay.row_mass() ** 2 - lay.row_sq
    else:
        for x in range(X):
            a, b = lay.lex_segs[x], lay.lex_segs[x + 1]
            r0, r1 = lay.lex_rows[x], lay.lex_rows[x + 1]
            seg_term[a:b] = np.einsum("ik,ik->i", s[a:b] @ dist[x], s[a:b])
            Px = lay.rows_P(r0, r1)
            row_term[r0:r1] = np.einsum("rk,rk->r", Px @ dist[x], Px)
    row_sum = np.add.reduceat(row_term, lay.seg_start) if lay.R else np.zeros(0)
    return AlphaStats(w * (seg_term - row_sum), s, lay.seg_lex, dist, lay)


def pair_terms(n_c: np.ndarray, dist: np.ndarray, xs: np.ndarray | None = None) -> np.ndarray:
    """``sum_{k,l} n_c[..., i, k] dist[x_i, k, l] n_c[..., i, l]`` for every lexelt ``x_i`` of ``xs``
    (default: ``n_c``'s lexelts are ``dist``'s, in order).

    Each lexelt over its own leaves only (the columns up to its last one not zero in any row), not
    over the widest lexelt's ``K``: all-words data have thousands of lexelts of 1 to 3 leaves beside
    one of 25, and the product costs ``K^2`` per lexelt and resample.  The same figures to the bit:
    einsum adds the products one after the other, and those of the columns left out are zeros
    (``tests/core/test_agreement_intervals_by_lexelt_chunks.py`` checks it against the full
    product).  A matrix with an infinite entry is taken whole (``0 * inf`` is not zero).
    """
    K = n_c.shape[-1]
    same = dist.ndim == 3 and dist.shape[0] > 0 and dist.strides[0] == 0  # one matrix for every lexelt (nominal)
    ids = np.arange(n_c.shape[-2]) if xs is None else np.asarray(xs)
    if K <= 2 or not len(ids) or not np.isfinite(dist[0] if same else dist[ids]).all():
        return np.einsum("...xk,xkl,...xl->...x", n_c, dist if xs is None else dist[ids], n_c)
    nz = (n_c != 0).reshape(-1, *n_c.shape[-2:]).any(axis=0)  # (lexelts, K)
    width = np.where(nz.any(axis=1), K - np.argmax(nz[:, ::-1], axis=1), 0)
    out = np.zeros(n_c.shape[:-1])
    for w in np.unique(width[width > 0]).tolist():
        sel = np.flatnonzero(width == w)
        d = np.broadcast_to(dist[0, :w, :w], (len(sel), w, w)) if same else dist[ids[sel], :w, :w]
        part = n_c[..., sel, :w]
        out[..., sel] = np.einsum("...xk,xkl,...xl->...x", part, d, part)
    return out


def alpha_lexelt_terms(
    do_x: np.ndarray, n_c: np.ndarray, dist: np.ndarray, *, copies: np.ndarray | None = None,
    xs: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each lexelt's ``n_x``, ``pair_x`` (``n_c' dist n_c``), ``D_o,x`` and ``D_e,x`` (see
    :func:`alpha_from_sums`): a lexelt's own sums only, so the lexelts can be taken a chunk at a time
    (``xs``: which lexelts of ``dist`` they are, as :func:`pair_terms`)."""
    n_x = n_c.sum(axis=-1)
    pair_x = pair_terms(n_c, dist, xs)
    nxm = np.maximum(n_x, 1.0)
    do_lex = do_x / nxm
    if copies is None:
        de_lex = pair_x / (nxm * np.maximum(n_x - 1.0, 1.0))
    else:
        c = np.maximum(copies, 1.0)
        n1 = n_x / c
        de_lex = pair_x / c ** 2 / (np.maximum(n1, 1.0) * np.maximum(n1 - 1.0, 1.0))
    return n_x, pair_x, do_lex, de_lex


def alpha_chance_terms(n_x: np.ndarray, pair_x: np.ndarray, de_lex: np.ndarray, lexelt_chance: str) -> list[np.ndarray]:
    """Each lexelt's part of the corpus ``D_e``: ``n_x D_e,x`` (within), or ``pair_x`` and ``n_x^2``
    (pooled: the cross-lexelt pairs are ``n^2 - sum n_x^2``)."""
    if lexelt_chance == "within":
        return [n_x * de_lex]
    if lexelt_chance == "pooled":
        return [pair_x, n_x**2]
    raise ValueError("lexelt_chance must be 'within' or 'pooled'")


def alpha_totals(do_x: np.ndarray, n_x: np.ndarray, chance: list[np.ndarray],
                 lexelt_chance: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Corpus ``D_o``, ``D_e`` and ``n`` from the per-lexelt terms (summed over the last axis;
    ``chance``: :func:`alpha_chance_terms`)."""
    n = n_x.sum(axis=-1)
    d_o = do_x.sum(axis=-1) / np.maximum(n, 1.0)
    if lexelt_chance == "within":
        d_e = chance[0].sum(axis=-1) / np.maximum(n, 1.0)
    else:
        cross = n**2 - chance[1].sum(axis=-1)
        d_e = (chance[0].sum(axis=-1) + cross) / np.maximum(n * (n - 1.0), 1.0)
    return d_o, d_e, n


def alpha_from_sums(
    do_x: np.ndarray, n_c: np.ndarray, dist: np.ndarray, *, lexelt_chance: str = "within",
    copies: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Corpus ``D_o``, ``D_e`` and per-lexelt ``D_o,x``, ``D_e,x`` from summed statistics.

    ``do_x`` (..., X) and ``n_c`` (..., X, K) may carry leading batch axes
    (bootstrap resamples).  Returns arrays with the batch shape.  ``copies`` (..., X): how many
    copies of each lexelt its sums hold (a bootstrap drawing small lexelts whole); a lexelt's
    expected disagreement within it is that of one copy (``n_x - 1`` pairs a value with the
    values of its own copy only).
    """
    n_x, pair_x, do_lex, de_lex = alpha_lexelt_terms(do_x, n_c, dist, copies=copies)
    chance = alpha_chance_terms(n_x, pair_x, de_lex, lexelt_chance)
    d_o, d_e, _ = alpha_totals(do_x, n_x, chance, lexelt_chance)
    return d_o, d_e, do_lex, de_lex


def _alpha(d_o: float, d_e: float, n: float) -> Estimate:
    if n <= 0:
        return Estimate.undefined(NO_PAIRABLE)
    if d_e <= ZERO_TOL:
        return Estimate.undefined(NO_EXPECTED_DISAGREEMENT, int(round(n)))
    return Estimate(1.0 - d_o / d_e, None, int(round(n)))


def krippendorff_alpha(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray | None = None, *,
    distance: Distance = "nominal", lexelt_chance: str = "within", n_lexelts: int | None = None,
    coincidences: bool = True, layout: Layout | None = None,
) -> AlphaResult:
    r"""Krippendorff's alpha over leaf vectors with missing data.

    .. math::

        \alpha = 1 - \frac{D_o}{D_e},\quad
        D_o = \frac{1}{n}\sum_{c,k} o(c,k)\,d(c,k),\quad
        D_e = \frac{1}{n(n-1)}\sum_{c,k} n_c n_k\, d(c,k)

    with the soft coincidences ``o`` of the module docstring, ``n_c = sum_k
    o(c, k)`` and ``n = sum_c n_c``; instances with fewer than two
    annotations are not pairable and are left out.

    Parameters
    ----------
    inst, rater, P, inst_lexelt :
        Long-form annotations (see :func:`~hieradjudicate.core.agreement.pairwise.pairwise_matrix`);
        ``inst_lexelt`` defaults to a single lexelt.
    distance : {"nominal", "ordinal"} or ndarray, default "nominal"
        ``d(c, k)``: nominal ``1 - [c == k]``; ordinal (Krippendorff's
        rank metric, leaf columns taken in order); or a matrix of shape
        ``(K, K)`` or ``(X, K, K)`` (e.g. the tree ``leaf_dist`` or
        :func:`interval_distance`).  The diagonal is taken as 0.
    lexelt_chance : {"within", "pooled"}, default "within"
        ``"within"``: ``D_e`` is computed inside each lexelt and combined as
        the mean weighted by pairable values ``n_x`` (as kappa's chance
        agreement is, metrics.md section 3: a value of one lexelt cannot
        meet a value of another).  ``"pooled"``: one coincidence matrix over
        the union of lexelt-local categories, cross-lexelt pairs counted at
        distance 1 (what a generic alpha program computes on the corpus;
        it inflates alpha).  Both agree for a single lexelt.
    coincidences : bool, default True
        Also return the ``(X, K, K)`` coincidence matrices (zeros when False: a read-only view of one zero).
    layout : Layout, optional
        :func:`~hieradjudicate.core.agreement.layout.make_layout` of these arrays
        when the caller already has it (the other arrays are then not looked at).

    Returns
    -------
    AlphaResult

    Examples
    --------
    >>> P = np.eye(2)[[0, 0, 1, 1, 0, 1]]
    >>> krippendorff_alpha([0, 0, 1, 1, 2, 2], [0, 1, 0, 1, 0, 1], P).alpha.value
    0.4444444444444444
    """
    if layout is None:
        if inst_lexelt is None:
            inst_lexelt = np.zeros(int(np.max(inst)) + 1 if len(inst) else 0, np.int64)
        layout = make_layout(inst, rater, P, inst_lexelt, n_lexelts=n_lexelts)
    lay = layout.pairable()
    X, K = lay.n_lexelts, lay.n_leaves
    if lexelt_chance == "pooled" and isinstance(distance, str) and distance == "ordinal" and X > 1:
        raise ValueError("an ordinal metric has no meaning across lexelts: use lexelt_chance='within'")
    st = alpha_stats(lay, distance)
    sums = lay.lexelt_sums(np.column_stack([st.do_i, st.s_i])) if lay.R else np.zeros((X, 1 + K))
    do_x, n_c = sums[:, 0], sums[:, 1:]
    # not asked for: zeros seen X times, not an (X, K, K) array (39,000 lexelts x 25^2 leaves: 197 MB)
    coinc = np.zeros((X, K, K)) if coincidences else np.broadcast_to(np.zeros(1), (X, K, K))
    w_seg = 1.0 / (lay.seg_m - 1.0)
    w_row = w_seg[lay.row_seg]
    for x in range(X if coincidences else 0):
        a, b = lay.lex_segs[x], lay.lex_segs[x + 1]
        r0, r1 = lay.lex_rows[x], lay.lex_rows[x + 1]
        s = st.s_i[a:b]
        Px = lay.rows_P(r0, r1)
        coinc[x] = (s * w_seg[a:b, None]).T @ s - (Px * w_row[r0:r1, None]).T @ Px
    return _alpha_assemble(do_x, n_c, st.dist, lexelt_chance, coinc)


def _alpha_assemble(
    do_x: np.ndarray, n_c: np.ndarray, dist: np.ndarray, lexelt_chance: str, coinc: np.ndarray
) -> AlphaResult:
    """:class:`AlphaResult` from the per-lexelt ``sum_i do_i``, marginals ``n_c`` and coincidences."""
    X = len(do_x)
    d_o, d_e, do_lex, de_lex = alpha_from_sums(do_x, n_c, dist, lexelt_chance=lexelt_chance)
    n_x = n_c.sum(axis=1)
    lex = tuple(_alpha(float(do_lex[x]), float(de_lex[x]), float(n_x[x])) for x in range(X))
    n = float(n_x.sum())
    return AlphaResult(
        _alpha(float(d_o), float(d_e), n), float(d_o) if n else None, float(d_e) if n else None,
        n, lex, macro_mean(list(lex)), coinc,
    )
