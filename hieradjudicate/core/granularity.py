"""Leaf-level views of agreement and their roll-up to a cut of the sense tree.

* :func:`rollup` maps leaf vectors to group vectors at a granularity (the
  model's ``leaf_group``: top-level ancestor for depth 1, ...), so that every
  agreement figure can be computed at any depth (metrics.md, "Granularity").
* :func:`specific_agreement` / :func:`specific_agreement_multi`: positive
  specific agreement per leaf.
* :func:`expected_confusion` and :func:`rollup_confusion`: the expected leaf
  confusion matrix of a pair, at leaves or at a cut.
* :func:`instance_disagreement`: per-instance leaf agreement and category
  (identical / compatible / overlapping / disjoint).

References
----------
Melamed & Resnik (2000); Fleiss (1975) and Uebersax (1982) for specific
agreement with several raters; Cicchetti & Feinstein (1990).
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.agreement import group_sum, make_layout

__all__ = [
    "CATEGORY_NAMES",
    "COMPATIBLE",
    "DISJOINT",
    "IDENTICAL",
    "OVERLAPPING",
    "expected_confusion",
    "instance_disagreement",
    "rollup",
    "rollup_confusion",
    "specific_agreement",
    "specific_agreement_multi",
]

IDENTICAL, COMPATIBLE, OVERLAPPING, DISJOINT = 0, 1, 2, 3
CATEGORY_NAMES = ("identical", "compatible", "overlapping", "disjoint")


def _n_lex(lex: np.ndarray, n_lexelts: int | None) -> int:
    return int(n_lexelts if n_lexelts is not None else (lex.max() + 1 if len(lex) else 1))


def _group_matrix(leaf_group: np.ndarray, G: int) -> np.ndarray:
    """``M[x, l, g] = 1`` when leaf ``l`` of lexelt ``x`` is in group ``g`` (one 0/1 matrix per lexelt)."""
    X, K = leaf_group.shape
    M = np.zeros((X, K, G))
    xs, ks = np.nonzero(leaf_group >= 0)
    M[xs, ks, leaf_group[xs, ks]] = 1.0
    return M


def rollup(P: np.ndarray, row_lexelt: np.ndarray, leaf_group: np.ndarray, n_groups: np.ndarray | int) -> np.ndarray:
    """Sum the leaf columns of each group: leaf vectors at a cut of the tree.

    ``out[r, g] = sum_{l : leaf_group[x_r, l] == g} P[r, l]`` with ``x_r`` the
    lexelt of row ``r``.  Padding leaves (``leaf_group == -1``) carry no mass.

    Parameters
    ----------
    P : ndarray of shape (R, K)
    row_lexelt : ndarray of int, shape (R,)
        Lexelt of each row (``inst_lexelt[inst]`` for long-form annotations).
    leaf_group : ndarray of int, shape (X, K)
        Local group of each leaf of each lexelt, -1 for padding.
    n_groups : int or ndarray of int, shape (X,)
        Number of groups (per lexelt); the output has ``max(n_groups)`` columns.

    Returns
    -------
    ndarray of shape (R, G)
    """
    P = np.asarray(P, dtype=np.float64)
    row_lexelt = np.asarray(row_lexelt, dtype=np.int64)
    leaf_group = np.asarray(leaf_group, dtype=np.int64)
    X, K = leaf_group.shape
    G = int(np.max(n_groups)) if np.size(n_groups) else 0
    M = _group_matrix(leaf_group, G)
    out = np.empty((len(P), G))
    order = np.argsort(row_lexelt, kind="stable")
    bounds = np.searchsorted(row_lexelt[order], np.arange(X + 1))
    for x in range(X):
        rows = order[bounds[x]:bounds[x + 1]]
        if len(rows):
            out[rows] = P[rows, :K] @ M[x]
    return out


def rollup_confusion(C: np.ndarray, leaf_group: np.ndarray, n_groups: np.ndarray | int) -> np.ndarray:
    """Roll a per-lexelt ``(X, K, K)`` leaf matrix up to ``(X, G, G)`` group blocks (sum of cells)."""
    C = np.asarray(C, dtype=np.float64)
    M = _group_matrix(np.asarray(leaf_group, dtype=np.int64), int(np.max(n_groups)) if np.size(n_groups) else 0)
    return np.einsum("xkg,xkl,xlh->xgh", M, C, M)


def _masked_ratio(num: np.ndarray, den: np.ndarray) -> np.ma.MaskedArray:
    ok = den > 0
    return np.ma.MaskedArray(np.where(ok, num / np.where(ok, den, 1.0), 0.0), mask=~ok)


def specific_agreement(
    pa: np.ndarray, pb: np.ndarray, lex: np.ndarray | None = None, *, n_lexelts: int | None = None
) -> np.ma.MaskedArray:
    r"""Positive specific agreement of two raters on each leaf of each lexelt.

    .. math:: PSA_x(l) = \frac{2\sum_{i\in T_x} p_{a,i}(l)p_{b,i}(l)}{\sum_{i\in T_x} (p_{a,i}(l)+p_{b,i}(l))}

    Returns an ``(X, K)`` masked array; a leaf neither rater used in the
    lexelt is masked (0/0: undefined).
    """
    pa = np.asarray(pa, dtype=np.float64)
    pb = np.asarray(pb, dtype=np.float64)
    lex = np.zeros(len(pa), np.int64) if lex is None else np.asarray(lex, np.int64)
    X = _n_lex(lex, n_lexelts)
    return _masked_ratio(2.0 * group_sum(pa * pb, lex, X), group_sum(pa + pb, lex, X))


def specific_agreement_multi(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray, *, n_lexelts: int | None = None
) -> np.ma.MaskedArray:
    r"""Specific agreement on each leaf for any number of raters (missing data allowed).

    .. math:: PSA_x(l) = \frac{\sum_i \sum_{r\ne r'} p_{r,i}(l)p_{r',i}(l)}{\sum_i (m_i-1)\sum_r p_{r,i}(l)}

    over instances with ``m_i >= 2``: of the agreement opportunities the
    raters' mass on ``l`` creates, the share another rater matched.  For two
    raters this is :func:`specific_agreement`.
    """
    lay = make_layout(inst, rater, P, inst_lexelt, n_lexelts=n_lexelts).pairable()
    X, K = lay.n_lexelts, lay.P.shape[1]
    if lay.R == 0:
        return np.ma.MaskedArray(np.zeros((X, K)), mask=np.ones((X, K), bool))
    s = np.add.reduceat(lay.P, lay.seg_start, axis=0)
    sq = np.add.reduceat(lay.P * lay.P, lay.seg_start, axis=0)
    num = group_sum(s * s - sq, lay.seg_lex, X)
    den = group_sum(s * (lay.seg_m - 1.0)[:, None], lay.seg_lex, X)
    return _masked_ratio(num, den)


def expected_confusion(
    pa: np.ndarray, pb: np.ndarray, lex: np.ndarray | None = None, *, n_lexelts: int | None = None
) -> np.ndarray:
    """Expected leaf confusion matrix of a pair per lexelt: ``C_x = sum_{i in T_x} pa_i (outer) pb_i``.

    Row = rater a's leaf, column = rater b's leaf; shape ``(X, K, K)``, each
    block sums to the number of shared instances of the lexelt.  Roll it up
    with :func:`rollup_confusion`.
    """
    pa = np.asarray(pa, dtype=np.float64)
    pb = np.asarray(pb, dtype=np.float64)
    lex = np.zeros(len(pa), np.int64) if lex is None else np.asarray(lex, np.int64)
    X, K = _n_lex(lex, n_lexelts), pa.shape[1]
    C = np.zeros((X, K, K))
    order = np.argsort(lex, kind="stable")
    bounds = np.searchsorted(lex[order], np.arange(X + 1))
    for x in range(X):
        rows = order[bounds[x]:bounds[x + 1]]
        C[x] = pa[rows].T @ pb[rows]
    return C


def instance_disagreement(
    pa: np.ndarray, pb: np.ndarray, same_tags: np.ndarray, *, atol: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Per-instance leaf agreement and disagreement category of a pair.

    Parameters
    ----------
    pa, pb : ndarray of shape (n, K)
        Leaf vectors of the two raters on the same instances.
    same_tags : ndarray of bool, shape (n,)
        Whether the two tag sets are identical (tags are not visible here).
    atol : float, default 0
        A leaf belongs to a support when its mass exceeds ``atol``.

    Returns
    -------
    agreement : ndarray of shape (n,)
        ``sum_l pa(l) pb(l)`` (e.g. 3/8 for two annotators both writing ``A``
        in the Figure 1 inventory).
    category : ndarray of int8, shape (n,)
        :data:`IDENTICAL` (same tags), :data:`COMPATIBLE` (one support
        contains the other: a difference of granularity only),
        :data:`OVERLAPPING` (supports intersect) or :data:`DISJOINT`.
    """
    pa = np.asarray(pa, dtype=np.float64)
    pb = np.asarray(pb, dtype=np.float64)
    agree = np.einsum("ik,ik->i", pa, pb)
    sa, sb = pa > atol, pb > atol
    meet = (sa & sb).any(axis=1)
    nested = ~(sa & ~sb).any(axis=1) | ~(sb & ~sa).any(axis=1)
    cat = np.full(len(pa), DISJOINT, dtype=np.int8)
    cat[meet] = OVERLAPPING
    cat[meet & nested] = COMPATIBLE
    cat[np.asarray(same_tags, dtype=bool)] = IDENTICAL
    return agree, cat
