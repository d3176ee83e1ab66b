"""Scoring a system against a gold standard: the leaf policy and corpus figures.

The leaf policy is Melamed & Resnik's (``metrics.md`` section 2): gold tags
are read disjunctively as a *region* of leaves, and an answer with leaf
vector ``p`` scores ``sum over l in R(gold) of p(l)``.  Corpus figures
(precision, recall, coverage, F1) are shared with the Senseval policies of
:mod:`hieradjudicate.core.scoring.senseval`, which feed :func:`corpus_figures` with
their own per-instance scores.

Everything here works on arrays (stdlib + numpy only): per-instance values
are aggregated with ``np.bincount`` over lexelt codes, never with a Python
loop per instance.

Undefined values
----------------
A figure whose denominator is zero (precision with nothing attempted,
recall over no instances) is ``None`` and the reason is stored under its
name in ``undefined``; it is never reported as 0 or NaN.  F1 is 0 when
precision and recall are both defined and both 0 (the limit of the harmonic
mean), and undefined when either is.

References
----------
I. D. Melamed and P. Resnik (2000), "Tagger evaluation given hierarchical
tag sets", *Computers and the Humanities* 34; and their "Proposal for
Senseval scoring scheme".  P. Resnik and D. Yarowsky (1997), "A perspective
on word sense disambiguation methods and their evaluation".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hieradjudicate.core.scoring.figures import (  # noqa: F401  (re-exported: the figures are part of this API)
    _POS_CODE,
    POS_NAMES,
    Figures,
    GroupedFigures,
    _figures_many,
    _grouped,
    corpus_figures,
    figures,
    lexelt_pos,
)


@dataclass(frozen=True)
class LeafScore:
    """Result of :func:`score_leaf` (policy ``leaf``).

    ``instance_score`` and ``instance_attempted`` are per gold instance (in
    the order of ``gold_instances``); the score is NaN where the system gave
    no answer.  ``cross_entropy`` and ``cost`` are means over the ``n_scored``
    answered gold instances; ``n_zero`` of them scored 0 and entered the
    cross-entropy at ``log2(floor)``.  ``unscored_answers`` counts system
    rows whose instance has no gold annotation (reported, not scored).
    """

    figures: GroupedFigures
    cross_entropy: float | None
    n_zero: int
    n_scored: int
    floor: float
    cost: float | None
    cross_entropy_by_lexelt: dict[str, float]
    cost_by_lexelt: dict[str, float]
    instance_score: np.ndarray
    instance_attempted: np.ndarray
    gold_instances: np.ndarray
    unscored_answers: int
    undefined: dict[str, str] = field(default_factory=dict)
    policy: str = "leaf"

    def as_dict(self) -> dict[str, Any]:
        o = self.figures.overall.as_dict()
        undefined = {**o.pop("undefined"), **self.undefined}
        return {
            "policy": self.policy,
            **o,
            "cross_entropy": self.cross_entropy,
            "cross_entropy_floor": self.floor,
            "zero_score_instances": self.n_zero,
            "scored_instances": self.n_scored,
            "distance_cost": self.cost,
            "unscored_answers": self.unscored_answers,
            "undefined": undefined,
            "by_lexelt": {k: v.as_dict() for k, v in self.figures.by_lexelt.items()},
            "by_pos": {k: v.as_dict() for k, v in self.figures.by_pos.items()},
            "cross_entropy_by_lexelt": dict(self.cross_entropy_by_lexelt),
            "distance_cost_by_lexelt": dict(self.cost_by_lexelt),
        }


def _unique_rows(region: np.ndarray, lexelt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """First index and inverse of each distinct (lexelt, region) row.

    The region bits are packed into 64-bit words and the rows sorted with
    ``np.lexsort`` on the words: ``np.unique(axis=0)`` sorts a structured view
    and took 0.2 s for 100,000 rows, this takes a few milliseconds.
    """
    m = region.shape[0]
    packed = np.packbits(region, axis=1)
    pad = (-packed.shape[1]) % 8
    if pad:
        packed = np.pad(packed, ((0, 0), (0, pad)))
    words = np.ascontiguousarray(packed).view(np.uint64)
    keys = [words[:, j] for j in range(words.shape[1] - 1, -1, -1)] + [lexelt]
    order = np.lexsort(keys)
    change = np.zeros(m, dtype=bool)
    change[0] = True
    for col in keys:
        c = col[order]
        change[1:] |= c[1:] != c[:-1]
    group = np.cumsum(change) - 1
    inverse = np.empty(m, dtype=np.int64)
    inverse[order] = group
    return order[change], inverse


def nearest_gold_distance(
    gold_region: np.ndarray, gold_lexelt: np.ndarray, leaf_dist: np.ndarray
) -> np.ndarray:
    """Distance from every leaf to the nearest gold leaf, ``d(gold_i, l)``.

    ``d(gold_i, l) = min over g in R(gold_i) of leaf_dist[lexelt_i, g, l]``.
    Computed once per distinct (lexelt, region) pair, so the cost is
    independent of the number of instances.

    Parameters
    ----------
    gold_region : ndarray of bool, shape (m, K)
    gold_lexelt : ndarray of int, shape (m,)
    leaf_dist : ndarray of float, shape (X, K, K)

    Returns
    -------
    ndarray of float, shape (m, K); ``inf`` where the region is empty.
    """
    gold_region = np.asarray(gold_region, dtype=bool)
    m, k = gold_region.shape
    if m == 0:
        return np.zeros((0, k))
    lex = np.asarray(gold_lexelt, np.int64)
    n_lex = int(leaf_dist.shape[0])
    if 0 < k <= 48 and n_lex < (1 << (62 - k)):
        # one 64-bit key per row: the lexelt above the region's bits (at most a few thousand distinct)
        key = (gold_region.view(np.uint8) @ (np.int64(1) << np.arange(k, dtype=np.int64))) | (lex << k)
        size = n_lex << k
        if size <= 8 * m + (1 << 16):  # a dense table: no sort at all
            seen = np.zeros(size, dtype=bool)
            seen[key] = True
            uniq = np.flatnonzero(seen)
            slot = np.zeros(size, dtype=np.int64)
            slot[uniq] = np.arange(len(uniq))
            inverse = slot[key]
        else:
            uniq, inverse = np.unique(key, return_inverse=True)
        region_u = ((uniq[:, None] >> np.arange(k)) & 1).astype(bool)
        lex_u = uniq >> k
    else:
        first, inverse = _unique_rows(gold_region, lex)
        region_u, lex_u = gold_region[first], lex[first]
    dist_u = np.where(region_u[:, :, None], leaf_dist[lex_u], np.inf).min(axis=1)
    return np.take(dist_u, inverse.reshape(-1), axis=0)


def score_leaf(
    P: np.ndarray,
    rows: np.ndarray,
    gold_region: np.ndarray,
    inst_lexelt: np.ndarray,
    *,
    gold_rows: np.ndarray | None = None,
    lexelts: Sequence[str] | None = None,
    attempted_weight: np.ndarray | None = None,
    leaf_dist: np.ndarray | None = None,
    gold_distance: np.ndarray | None = None,
    floor: float = 1e-6,
) -> LeafScore:
    """Score a system's leaf vectors against gold regions (Melamed & Resnik).

    ``score_i = sum over l in R(gold_i) of p_i(l)``;
    ``precision = sum score / attempted``, ``recall = sum score / total``,
    ``coverage = attempted / total``;
    cross-entropy ``H = -(1/N) sum_i log2 max(score_i, floor)`` and
    distance-weighted cost ``C = (1/N) sum_i sum_l p_i(l) d(gold_i, l)``, with
    ``N`` the number of answered gold instances (Resnik & Yarowsky 1997).

    Parameters
    ----------
    P : ndarray of float, shape (r, K)
        The system's leaf vectors (local leaf indices of each row's lexelt).
    rows : ndarray of int, shape (r,)
        Instance index (0..n-1) of each row of ``P``; each at most once.
    gold_region : ndarray of bool, shape (n_gold, K)
        Leaves under any gold tag of each gold instance.
    inst_lexelt : ndarray of int, shape (n,)
        Lexelt code of every instance.
    gold_rows : ndarray of int, shape (n_gold,), optional
        Instance index of each gold row; default: row ``i`` is instance ``i``.
    lexelts : sequence of str, optional
        Lexelt names by code (default: the codes as strings).
    attempted_weight : ndarray of float, shape (r,), optional
        Attempted weight per row (default 1).
    leaf_dist : ndarray of float, shape (X, K, K), optional
        Normalised tree distance between leaves per lexelt (0 on the
        diagonal); the cost is undefined without it.
    gold_distance : ndarray of float, shape (n_gold, K), optional
        :func:`nearest_gold_distance` of the gold rows, when the caller scores
        several systems against one gold and computes it once.
    floor : float
        Lower bound on a score inside the logarithm (default 1e-6).

    Returns
    -------
    LeafScore

    References
    ----------
    Melamed & Resnik (2000); ``metrics.md`` section 2.

    Examples
    --------
    >>> P = np.array([[0.5, 0.5, 0.0]])
    >>> r = score_leaf(P, np.array([0]), np.array([[True, False, False]]), np.array([0]))
    >>> r.figures.overall.precision, r.cross_entropy
    (0.5, 1.0)
    """
    P = np.asarray(P, dtype=np.float64)
    rows = np.asarray(rows, dtype=np.int64)
    gold_region = np.asarray(gold_region, dtype=bool)
    inst_lexelt = np.asarray(inst_lexelt, dtype=np.int64)
    n = inst_lexelt.shape[0]
    n_gold = gold_region.shape[0]
    if gold_rows is None:
        if n_gold != n:
            raise ValueError(f"gold_region has {n_gold} rows but there are {n} instances; pass gold_rows")
        gold_rows = np.arange(n)
    gold_rows = np.asarray(gold_rows, dtype=np.int64)
    if P.ndim != 2 or P.shape[0] != rows.shape[0] or P.shape[1] != gold_region.shape[1]:
        raise ValueError(f"P has shape {P.shape}; expected ({rows.shape[0]}, {gold_region.shape[1]})")
    if rows.size > 1 and np.any(rows[1:] <= rows[:-1]) and np.bincount(rows, minlength=n).max() > 1:
        raise ValueError("an instance has more than one system row; expected one answer per instance")
    if lexelts is None:
        lexelts = [str(i) for i in range(int(inst_lexelt.max(initial=-1)) + 1)]
    att = np.ones(rows.shape[0]) if attempted_weight is None else np.asarray(attempted_weight, float)

    gold_of = np.full(n, -1, dtype=np.int64)
    gold_of[gold_rows] = np.arange(n_gold)
    g = gold_of[rows]
    ok = g >= 0
    if ok.all():  # the usual case: no copies
        g_ok, P_ok = g, P
    else:
        g_ok, P_ok = g[ok], P[ok]
    # np.take: row gathers 4-5x faster than fancy indexing on large arrays
    row_score = np.einsum("ij,ij->i", P_ok, np.take(gold_region, g_ok, axis=0))
    inst_score = np.full(n_gold, np.nan)
    inst_score[g_ok] = row_score
    inst_att = np.zeros(n_gold)
    inst_att[g_ok] = att[ok]
    gold_lex = inst_lexelt[gold_rows]
    grouped = corpus_figures(inst_score, inst_att, gold_lex, lexelts)

    undefined: dict[str, str] = {}
    n_scored = int(g_ok.shape[0])
    lex_ok = gold_lex[g_ok]
    n_lex = len(lexelts)
    lex_n = np.bincount(lex_ok, minlength=n_lex)
    logs = -np.log2(np.maximum(row_score, floor))
    n_zero = int(np.count_nonzero(row_score <= 0))
    ce: float | None = float(logs.mean()) if n_scored else None
    lex_ce = np.bincount(lex_ok, weights=logs, minlength=n_lex)
    ce_by = {lexelts[j]: float(lex_ce[j] / lex_n[j]) for j in np.flatnonzero(lex_n).tolist()}
    if ce is None:
        undefined["cross_entropy"] = "no answered gold instance (N = 0)"
    cost: float | None = None
    cost_by: dict[str, float] = {}
    if leaf_dist is None and gold_distance is None:
        undefined["distance_cost"] = "no leaf distance given"
    elif n_scored == 0:
        undefined["distance_cost"] = "no answered gold instance (N = 0)"
    else:
        if gold_distance is not None:
            dmin = np.take(np.asarray(gold_distance, float), g_ok, axis=0)
        else:
            dmin = nearest_gold_distance(gold_region[g_ok], lex_ok, np.asarray(leaf_dist, float))
        inf = np.isinf(dmin)
        if inf.any():
            if inf.all(axis=1).any():
                raise ValueError("a gold instance has an empty gold region; expected at least one leaf")
            dmin = np.where(inf, 0.0, dmin)
        per = np.einsum("ij,ij->i", P_ok, dmin)
        cost = float(per.mean())
        lex_cost = np.bincount(lex_ok, weights=per, minlength=n_lex)
        cost_by = {lexelts[j]: float(lex_cost[j] / lex_n[j]) for j in np.flatnonzero(lex_n).tolist()}
    return LeafScore(grouped, ce, n_zero, n_scored, floor, cost, ce_by, cost_by,
                     inst_score, inst_att, gold_rows, int(np.count_nonzero(~ok)), undefined)


def score_leaf_many(
    Ps: Sequence[np.ndarray],
    rows: Sequence[np.ndarray],
    gold_region: np.ndarray,
    inst_lexelt: np.ndarray,
    *,
    gold_rows: np.ndarray | None = None,
    lexelts: Sequence[str] | None = None,
    attempted_weights: Sequence[np.ndarray | None] | None = None,
    leaf_dist: np.ndarray | None = None,
    gold_distance: np.ndarray | None = None,
    floor: float = 1e-6,
) -> list[LeafScore]:
    """:func:`score_leaf` of several systems against one gold, in one pass over the gold.

    ``score_leaf_many([P_1, ..., P_S], [rows_1, ..., rows_S], gold_region, ...)[s]`` equals
    ``score_leaf(P_s, rows_s, gold_region, ...)`` exactly (every figure, bit for bit): the same
    formulas and the same floating-point operations in the same order.  What is shared: everything
    that depends on the gold only (the instance-to-gold map, the lexelts of the gold rows and their
    counts, the 0/1 region as floats, the nearest-gold distances with their emptiness check, the
    parts of speech of the lexelts), and the row gathers when a system's rows are the gold's rows
    (the usual case: no gather at all).  Per-lexelt figures are built from arrays.

    Parameters
    ----------
    Ps : sequence of ndarray of float, shape (r_s, K)
        Each system's leaf vectors.
    rows : sequence of ndarray of int, shape (r_s,)
        Instance index of each row of ``Ps[s]``; each at most once per system.
    gold_region : ndarray of bool, shape (n_gold, K)
        Leaves under any gold tag of each gold instance; a float64 array of 0/1 is taken as it is
        (callers scoring often keep it, which saves a cast per call).
    attempted_weights : sequence of (ndarray of float, shape (r_s,), or None), optional
        Attempted weight per row of each system (default 1).

    The other parameters and the result (one :class:`LeafScore` per system, in order) are those of
    :func:`score_leaf`.

    Examples
    --------
    >>> G = np.array([[True, False], [False, True]])
    >>> a, b = score_leaf_many([np.eye(2), np.full((2, 2), 0.5)], [np.arange(2)] * 2, G, np.zeros(2, int))
    >>> a.figures.overall.precision, b.figures.overall.precision
    (1.0, 0.5)
    """
    if len(Ps) != len(rows):
        raise ValueError(f"{len(Ps)} systems' leaf vectors but {len(rows)} row arrays")
    if attempted_weights is not None and len(attempted_weights) != len(Ps):
        raise ValueError(f"{len(Ps)} systems but {len(attempted_weights)} attempted weights")
    region = np.asarray(gold_region)
    region_f = region if region.dtype == np.float64 else region.astype(bool).astype(np.float64)
    inst_lexelt = np.asarray(inst_lexelt, dtype=np.int64)
    n = inst_lexelt.shape[0]
    n_gold, K = region_f.shape
    if gold_rows is None:
        if n_gold != n:
            raise ValueError(f"gold_region has {n_gold} rows but there are {n} instances; pass gold_rows")
        gold_rows = np.arange(n)
    gold_rows = np.asarray(gold_rows, dtype=np.int64)
    if lexelts is None:
        lexelts = [str(i) for i in range(int(inst_lexelt.max(initial=-1)) + 1)]
    n_lex = len(lexelts)
    gold_of = np.full(n, -1, dtype=np.int64)
    gold_of[gold_rows] = np.arange(n_gold)
    gold_lex = inst_lexelt[gold_rows]
    lex_total = np.bincount(gold_lex, minlength=n_lex)
    lex_total_f = lex_total.astype(np.float64)
    pos_code = np.array([_POS_CODE[lexelt_pos(x)] for x in lexelts], dtype=np.int64)
    lex_names = list(lexelts)

    # the distance of every leaf to the nearest gold leaf, once for all systems
    dmin_all: np.ndarray | None = None
    empty_row: np.ndarray | None = None
    if gold_distance is not None or leaf_dist is not None:
        if gold_distance is not None:
            gd = np.asarray(gold_distance, float)
        else:
            gd = nearest_gold_distance(region_f > 0, gold_lex, np.asarray(leaf_dist, float))
        inf = np.isinf(gd)
        if inf.any():
            empty_row = inf.all(axis=1)
            gd = np.where(inf, 0.0, gd)
        dmin_all = gd

    out: list[LeafScore] = []
    ident_rows: np.ndarray | None = None  # the rows array last found equal to the gold's rows
    for s, (P, r) in enumerate(zip(Ps, rows)):
        P = np.asarray(P, dtype=np.float64)
        r = np.asarray(r, dtype=np.int64)
        if P.ndim != 2 or P.shape[0] != r.shape[0] or P.shape[1] != K:
            raise ValueError(f"P has shape {P.shape}; expected ({r.shape[0]}, {K})")
        w = None if attempted_weights is None else attempted_weights[s]
        att = np.ones(r.shape[0]) if w is None else np.asarray(w, float)
        if r.size > 1 and np.any(r[1:] <= r[:-1]) and np.bincount(r, minlength=n).max() > 1:
            raise ValueError("an instance has more than one system row; expected one answer per instance")
        ident = r is ident_rows or (r.shape == gold_rows.shape and np.array_equal(r, gold_rows))
        if ident:  # row j of the system is gold row j: no gathers, no duplicates possible
            ident_rows = r
            g_ok, P_ok, att_ok, n_unscored = None, P, att, 0
            row_score = np.einsum("ij,ij->i", P, region_f)
            inst_score = row_score.copy()
            inst_att = att.astype(np.float64, copy=True)
            lex_ok = gold_lex
        else:
            g = gold_of[r]
            ok = g >= 0
            if ok.all():
                g_ok, P_ok, att_ok = g, P, att
            else:
                g_ok, P_ok, att_ok = g[ok], P[ok], att[ok]
            n_unscored = int(np.count_nonzero(~ok))
            row_score = np.einsum("ij,ij->i", P_ok, np.take(region_f, g_ok, axis=0))
            inst_score = np.full(n_gold, np.nan)
            inst_score[g_ok] = row_score
            inst_att = np.zeros(n_gold)
            inst_att[g_ok] = att_ok
            lex_ok = gold_lex[g_ok]

        # corpus, per-lexelt and per-POS figures (corpus_figures)
        answered = ~np.isnan(inst_score)
        all_answered = bool(answered.all())
        s_ = inst_score if all_answered else np.where(answered, inst_score, 0.0)
        lex_score = np.bincount(gold_lex, weights=s_, minlength=n_lex)
        if all_answered and w is None:  # sums of ones: the counts themselves, exactly
            lex_att = lex_ans = lex_total_f
            att_sum = float(n_gold)
        else:
            lex_att = np.bincount(gold_lex, weights=inst_att, minlength=n_lex)
            lex_ans = lex_total_f if all_answered else np.bincount(gold_lex, weights=answered, minlength=n_lex)
            att_sum = float(np.sum(inst_att))
        n_answered = n_gold if all_answered else int(answered.sum())
        overall = figures(float(s_.sum()), att_sum, int(n_gold), n_answered)
        grouped = _grouped(overall, lex_score, lex_att, lex_total, lex_ans, lex_names, pos_code)

        undefined: dict[str, str] = {}
        n_scored = int(row_score.shape[0])
        lex_n = lex_total if g_ok is None else np.bincount(lex_ok, minlength=n_lex)
        nz = np.flatnonzero(lex_n)
        nz_names = [lex_names[j] for j in nz.tolist()]
        logs = -np.log2(np.maximum(row_score, floor))
        n_zero = int(np.count_nonzero(row_score <= 0))
        ce: float | None = float(logs.mean()) if n_scored else None
        lex_ce = np.bincount(lex_ok, weights=logs, minlength=n_lex)
        ce_by = dict(zip(nz_names, (lex_ce[nz] / lex_n[nz]).tolist()))
        if ce is None:
            undefined["cross_entropy"] = "no answered gold instance (N = 0)"
        cost: float | None = None
        cost_by: dict[str, float] = {}
        if dmin_all is None:
            undefined["distance_cost"] = "no leaf distance given"
        elif n_scored == 0:
            undefined["distance_cost"] = "no answered gold instance (N = 0)"
        else:
            if empty_row is not None and (empty_row.any() if g_ok is None else empty_row[g_ok].any()):
                raise ValueError("a gold instance has an empty gold region; expected at least one leaf")
            dmin = dmin_all if g_ok is None else np.take(dmin_all, g_ok, axis=0)
            per = np.einsum("ij,ij->i", P_ok, dmin)
            cost = float(per.mean())
            lex_cost = np.bincount(lex_ok, weights=per, minlength=n_lex)
            cost_by = dict(zip(nz_names, (lex_cost[nz] / lex_n[nz]).tolist()))
        out.append(LeafScore(grouped, ce, n_zero, n_scored, floor, cost, ce_by, cost_by,
                             inst_score, inst_att, gold_rows, n_unscored, undefined))
    return out
