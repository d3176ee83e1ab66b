"""Bootstrap confidence intervals for kappa and alpha (metrics.md, "Confidence intervals").

Instances are resampled with replacement *within each lexelt* (stratified:
every resample keeps each lexelt's number of instances; the lexelts of fewer
than 10 instances are drawn together as one stratum, see
:mod:`hieradjudicate.core.agreement.resampling`), with a fixed default seed, 1000 resamples and a 95 % interval, BCa by default (bias-corrected
and accelerated, :mod:`hieradjudicate.core.stats.bca`; the jackknife for the
acceleration is vectorised like the resampling: a leave-one-out is the
lexelt's sums minus one row), percentile on request.

Vectorised: every figure is a function of per-instance sufficient
statistics ``V`` (one row per instance).  A resample is a vector of counts
``c`` (how often each instance was drawn), and the resampled sums are
``c @ V``; the counts of a block of resamples form a ``(B, n_s)`` matrix per
stratum, so a thousand resamples cost one matrix product per stratum.  No
Python loop runs over resamples or instances.  The figures are computed a block
of resamples and a chunk of lexelts at a time (:func:`_replicates`,
:mod:`~hieradjudicate.core.agreement.lexelt_chunks`): only their values and each
lexelt's terms are kept, never the sums of every resample (all-words data: 1.9 GB).  The acceleration's jackknife
is grouped by the same strata as the resampling (:func:`jackknife`).

Resamples in which a figure is undefined (e.g. ``Pr(E) = 1``) are left out
of its percentiles and counted in ``n_undefined``.

References
----------
Efron & Tibshirani (1993), An Introduction to the Bootstrap, ch. 13
(percentile interval) and ch. 14 (BCa).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hieradjudicate.core.agreement.layout import Layout, make_layout
from hieradjudicate.core.agreement.multirater import _multi_stats, fleiss_agreement
from hieradjudicate.core.agreement.pairwise import pairwise_agreement
from hieradjudicate.core.agreement.alpha import (
    Distance,
    alpha_chance_terms,
    alpha_lexelt_terms,
    alpha_stats,
    alpha_totals,
    krippendorff_alpha,
)
from hieradjudicate.core.agreement.lexelt_chunks import LexeltStat, replicates_by_lexelt
from hieradjudicate.core.agreement.resampling import (
    Draws,
    jackknife_units,
    resample_indices,
    resampled_blocks,
    resampled_sums,
    resampled_sums_shared,
    strata_text,
)
from hieradjudicate.core.stats.bca import DEFAULT_METHOD, interval
from hieradjudicate.core.stats.strata import MIN_STRATUM
from hieradjudicate.core.stats.undefined import ZERO_TOL, Estimate

__all__ = [
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "BootstrapCI",
    "BootstrapFigures",
    "bootstrap_alpha",
    "bootstrap_figures",
    "bootstrap_fleiss",
    "bootstrap_pairwise",
    "resample_indices",
    "resampled_sums",
    "resampled_sums_shared",
    "Draws",
    "alpha_jackknife",
    "fleiss_jackknife",
]

DEFAULT_SEED = 20_240_601
DEFAULT_RESAMPLES = 1000


@dataclass(frozen=True)
class BootstrapCI:
    """A point estimate with its percentile bootstrap interval.

    ``low``/``high`` are ``None`` (with ``reason``) when no resample gave a
    defined figure; ``replicates`` holds the figure of every resample
    (masked where undefined).
    """

    estimate: Estimate
    low: float | None
    high: float | None
    level: float
    n_resamples: int
    n_undefined: int
    seed: int
    replicates: np.ma.MaskedArray = field(repr=False)
    reason: str | None = None
    method: str = DEFAULT_METHOD
    #: how many lexelts of fewer than 10 units were drawn together as one stratum (0: none)
    pooled: int = 0

    @property
    def strata(self) -> str:
        """How the resampling was stratified, in words."""
        return strata_text(self.pooled)

    @property
    def bias(self) -> float | None:
        """Mean replicate minus the estimate: how far resampling moves the figure (BCa corrects
        for it; a percentile interval does not)."""
        if self.estimate.value is None or self.replicates.count() == 0:
            return None
        return float(self.replicates.mean()) - float(self.estimate.value)


Jack = tuple[np.ndarray, np.ndarray, np.ndarray]  # leave-one-out values, defined?, stratum


def _ci(est: Estimate, values: np.ndarray, ok: np.ndarray, level: float, seed: int,
        method: str = DEFAULT_METHOD, jack: Jack | None = None, pooled: int = 0) -> BootstrapCI:
    reps = np.ma.MaskedArray(np.where(ok, values, 0.0), mask=~ok)
    if not ok.any():
        return BootstrapCI(est, None, None, level, len(values), len(values), seed, reps,
                           "the figure is undefined in every resample", method, pooled)
    jv = js = None
    if method == "bca" and jack is not None:
        jv, jok, jstrata = jack
        jv, js = jv[jok], jstrata[jok]
    low, high, used = interval(values[ok], est.value, level, method, jv, js)
    return BootstrapCI(est, low, high, level, len(values), int((~ok).sum()), seed, reps, None, used, pooled)


_JACK_CELLS = 2_000_000  # floats per block of leave-one-out sums


def jackknife(stat, V: np.ndarray, lex: np.ndarray, n_lexelts: int, min_stratum: int = MIN_STRATUM) -> list[Jack]:
    """Leave-one-out values of the figures ``stat(T, n_x)`` computes from per-lexelt sums.

    The units are the resampling's (:func:`~hieradjudicate.core.agreement.resampling.jackknife_units`):
    leaving out an instance of a lexelt resampled alone gives the sums ``S - V_i`` in its lexelt
    and that lexelt's size minus one; leaving out a lexelt of the pooled stratum (drawn whole)
    removes its sums and size.  The third array of each result is the unit's stratum, within which
    the acceleration centres the values: the lexelt, or one stratum for the pooled lexelts.
    ``stat`` takes ``T`` of shape ``(m, X, d)`` and ``n_x`` of shape ``(m, X)`` and returns a list
    of ``(values, defined)``.  Blocks keep memory bounded; no Python loop runs per unit.
    """
    V = np.asarray(V, dtype=np.float64)
    lex = np.asarray(lex, np.int64)
    X = n_lexelts
    S = np.zeros((X, V.shape[1]))
    np.add.at(S, lex, V)
    n_x = np.bincount(lex, minlength=X).astype(np.float64)
    R, lr, cnt, strata = jackknife_units(V, lex, X, min_stratum)
    step = max(1, _JACK_CELLS // max(1, X * V.shape[1]))
    parts: list[list[tuple[np.ndarray, np.ndarray]]] = []
    for c0 in range(0, len(R), step):
        Vc, lc = R[c0:c0 + step], lr[c0:c0 + step]
        m = len(Vc)
        T = np.broadcast_to(S, (m, *S.shape)).copy()
        T[np.arange(m), lc] -= Vc
        nj = np.broadcast_to(n_x, (m, X)).copy()
        nj[np.arange(m), lc] -= cnt[c0:c0 + step]
        parts.append(stat(T, nj))
    if not parts:
        return []
    return [(np.concatenate([p[k][0] for p in parts]), np.concatenate([p[k][1] for p in parts]), strata)
            for k in range(len(parts[0]))]


def _kappas(obs: np.ndarray, pe: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ok = (n > 0) & (1.0 - pe > ZERO_TOL)
    return np.where(ok, (obs - pe) / np.where(ok, 1.0 - pe, 1.0), 0.0), ok


def _pair_V(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """Per shared instance: ``[pa.pb, pa, pb]`` (the count per lexelt comes with the draws, :class:`Draws`)."""
    return np.column_stack([np.einsum("ik,ik->i", pa, pb), pa, pb])


def _pair_lexelt(K: int) -> LexeltStat:
    """Scott/S&C and Cohen kappa of a pair from its per-lexelt sums (``n_x`` each lexelt's number of
    draws: its size, or per resample where it is pooled): per lexelt its ``sum Pr_i(A)``, its size,
    and its two chance agreements weighted by its size."""
    def terms(T: np.ndarray, n_x: np.ndarray, copies: np.ndarray | None, xs: np.ndarray) -> list[np.ndarray]:
        n_x = np.broadcast_to(n_x, T.shape[:2])
        return [T[..., 0], n_x, _pe_scott(T[..., 1:], n_x, K) * n_x, _pe_cohen(T[..., 1:], n_x, K) * n_x]

    def total(t: list[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
        obs_x, n_x, q_s, q_c = t
        n = n_x.sum(axis=1)
        obs = obs_x.sum(axis=1) / np.maximum(n, 1.0)
        return [_kappas(obs, q.sum(axis=1) / np.maximum(n, 1.0), n) for q in (q_s, q_c)]
    return LexeltStat(4, terms, total)


def _whole(st: LexeltStat):
    """``stat(T, n_x, copies=None)``: the figures of sums ``T`` of every lexelt (the jackknife's)."""
    def stat(T: np.ndarray, n_x: np.ndarray, copies: np.ndarray | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
        return st.total(st.terms(T, n_x, copies, np.arange(T.shape[1])))
    return stat


def _pair_stat(K: int):
    return _whole(_pair_lexelt(K))


Reps = tuple[list[tuple[np.ndarray, np.ndarray]], int, int]  # (values, defined) per figure, lexelts, pooled


def _replicates(items: list[tuple[np.ndarray, np.ndarray]], stats: list, n_lexelts: int, n_resamples: int,
                seed: int, min_stratum: int = MIN_STRATUM) -> list[Reps]:
    """Each item's figures in every resample: ``stats[j]`` (a :class:`Draws` -> list of
    ``(values, defined)``) on the draws of ``items[j]``, computed a block of resamples at a time
    (:func:`~hieradjudicate.core.agreement.resampling.resampled_blocks`: the sums of every
    resample are never held at once); when every stat is a
    :class:`~hieradjudicate.core.agreement.lexelt_chunks.LexeltStat`, a chunk of lexelts at a time too
    (:func:`~hieradjudicate.core.agreement.lexelt_chunks.replicates_by_lexelt`: the same figures)."""
    if all(isinstance(st, LexeltStat) for st in stats):
        return [(values, n_lexelts, pooled) for values, pooled in
                replicates_by_lexelt(items, stats, n_lexelts, n_resamples, seed, min_stratum)]
    parts: list[list] = [[] for _ in items]
    pooled = [0] * len(items)
    for block in resampled_blocks(items, n_lexelts, n_resamples, seed, min_stratum):
        for j, D in enumerate(block):
            parts[j].append(stats[j](D))
            pooled[j] = D.pooled
    return [([(np.concatenate([p[k][0] for p in ps]), np.concatenate([p[k][1] for p in ps]))
              for k in range(len(ps[0]))], n_lexelts, pooled[j]) for j, ps in enumerate(parts)]


def _of_draws(D: Draws | Reps, stat) -> Reps:
    """Replicates of draws held whole, or the replicates themselves."""
    return (stat(D), D.T.shape[1], D.pooled) if isinstance(D, Draws) else D


def _pair_reps(K: int) -> LexeltStat:
    return _pair_lexelt(K)


def _pair_cis(
    D: Draws | Reps, K: int, scott: Estimate, cohen: Estimate, level: float, seed: int,
    method: str = DEFAULT_METHOD, V: np.ndarray | None = None, lex: np.ndarray | None = None,
    min_stratum: int = MIN_STRATUM,
) -> tuple[BootstrapCI, BootstrapCI]:
    """``D``: the pair's draws, or its replicates (:func:`_replicates` of :func:`_pair_reps`)."""
    ((ks, oks), (kc, okc)), X, pooled = _of_draws(D, _pair_reps(K))
    jacks: list[Jack | None] = [None, None]
    if method == "bca" and V is not None and lex is not None:
        jacks = list(pair_jackknife(V, lex, X, K, min_stratum))
    return (_ci(scott, ks, oks, level, seed, method, jacks[0], pooled),
            _ci(cohen, kc, okc, level, seed, method, jacks[1], pooled))


def pair_jackknife(V: np.ndarray, lex: np.ndarray, n_lexelts: int, K: int,
                   min_stratum: int = MIN_STRATUM) -> list[Jack]:
    """Leave-one-out Scott/S&C and Cohen kappas of a pair: what :func:`jackknife` of :func:`_pair_stat`
    gives, with only the left-out unit's lexelt recomputed (as :func:`fleiss_jackknife`), so the cost
    is the units times the leaves, not the units times every lexelt's leaves (all-words data at
    100,000 instances have some 40,000 lexelts).  ``V`` holds ``[pa.pb, pa, pb]`` per unit."""
    V = np.asarray(V, dtype=np.float64)
    lex = np.asarray(lex, np.int64)
    S = np.zeros((n_lexelts, V.shape[1]))
    np.add.at(S, lex, V)
    n_x = np.bincount(lex, minlength=n_lexelts).astype(np.float64)
    R, lr, cnt, strata = jackknife_units(V, lex, n_lexelts, min_stratum)
    n = n_x.sum() - cnt
    obs = (S[:, 0].sum() - R[:, 0]) / np.maximum(n, 1.0)
    n_left = n_x[lr] - cnt
    out: list[Jack] = []
    for pe_of in (_pe_scott, _pe_cohen):
        q = pe_of(S[:, 1:], n_x, K) * n_x  # each lexelt's chance agreement, weighted by its size
        q_left = pe_of(S[lr, 1:] - R[:, 1:], n_left, K) * n_left  # the unit's lexelt without it
        values, ok = _kappas(obs, (q.sum() - q[lr] + q_left) / np.maximum(n, 1.0), n)
        out.append((values, ok, strata))
    return out


def _pe_cohen(m: np.ndarray, n: np.ndarray, K: int) -> np.ndarray:
    """Cohen's chance agreement of each row of marginal sums ``[ma, mb]`` (last axis) over ``n`` instances."""
    return np.einsum("...k,...k->...", m[..., :K], m[..., K:]) / np.maximum(n, 1.0) ** 2


def _pe_scott(m: np.ndarray, n: np.ndarray, K: int) -> np.ndarray:
    """Scott's (S&C) chance agreement: the pooled marginal squared."""
    s = m[..., :K] + m[..., K:]
    return np.einsum("...k,...k->...", s, s) / (4.0 * np.maximum(n, 1.0) ** 2)


def bootstrap_pairwise(
    pa: np.ndarray, pb: np.ndarray, lex: np.ndarray | None = None, *, n_lexelts: int | None = None,
    n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, level: float = 0.95,
    method: str = DEFAULT_METHOD, min_stratum: int = MIN_STRATUM,
) -> tuple[BootstrapCI, BootstrapCI]:
    """Intervals (BCa by default) of the pair's Scott/Siegel-Castellan and Cohen kappa.

    Statistics per shared instance: ``[pa.pb, pa, pb]``; per resample and
    lexelt the sums give ``sum Pr_i(A)`` and both marginals (``n_x`` is the
    lexelt's number of draws), hence ``Pr_x(E)`` and the instance-weighted corpus kappa
    exactly as :func:`~hieradjudicate.core.agreement.pairwise.pairwise_agreement`
    computes it.  ``min_stratum``: the lexelts of fewer shared instances are drawn together
    (:mod:`~hieradjudicate.core.agreement.resampling`; 1 draws every lexelt alone).

    Returns
    -------
    (scott, cohen) : tuple of BootstrapCI
    """
    pa = np.asarray(pa, dtype=np.float64)
    pb = np.asarray(pb, dtype=np.float64)
    lex = np.zeros(len(pa), np.int64) if lex is None else np.asarray(lex, np.int64)
    X = int(n_lexelts if n_lexelts is not None else (lex.max() + 1 if len(lex) else 1))
    point = pairwise_agreement(pa, pb, lex, n_lexelts=X)
    V = _pair_V(pa, pb)
    D, = _replicates([(V, lex)], [_pair_reps(pa.shape[1])], X, n_resamples, seed, min_stratum)
    return _pair_cis(D, pa.shape[1], point.scott.kappa, point.cohen.kappa, level, seed, method,
                     V, lex, min_stratum)


def _fleiss_V(lay: Layout) -> np.ndarray:
    p_i, s, m_i = _multi_stats(lay)
    return np.column_stack([p_i, s, m_i])


def _fleiss_lexelt(K: int) -> LexeltStat:
    """Fleiss' kappa: per lexelt its ``sum P_i``, its size, and its chance agreement ``|pbar_x|^2``
    weighted by its size."""
    def terms(T: np.ndarray, n_x: np.ndarray, copies: np.ndarray | None, xs: np.ndarray) -> list[np.ndarray]:
        n_x = np.broadcast_to(n_x, T.shape[:2])
        pbar = T[..., 1:1 + K] / np.maximum(T[..., 1 + K], 1.0)[..., None]
        return [T[..., 0], n_x, np.einsum("bxk,bxk->bx", pbar, pbar) * n_x]

    def total(t: list[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
        obs_x, n_x, q = t
        n = n_x.sum(axis=1)
        obs = obs_x.sum(axis=1) / np.maximum(n, 1.0)
        return [_kappas(obs, q.sum(axis=1) / np.maximum(n, 1.0), n)]
    return LexeltStat(3, terms, total)


def _fleiss_stat(K: int):
    return _whole(_fleiss_lexelt(K))


def _fleiss_reps(K: int) -> LexeltStat:
    return _fleiss_lexelt(K)


def _fleiss_ci(D: Draws | Reps, K: int, est: Estimate, level: float, seed: int,
               method: str = DEFAULT_METHOD, V: np.ndarray | None = None,
               lex: np.ndarray | None = None, min_stratum: int = MIN_STRATUM) -> BootstrapCI:
    """``D``: the draws, or the replicates (:func:`_replicates` of :func:`_fleiss_reps`)."""
    ((k, ok),), X, pooled = _of_draws(D, _fleiss_reps(K))
    jack = fleiss_jackknife(V, lex, X, K, min_stratum) if method == "bca" and V is not None else None
    return _ci(est, k, ok, level, seed, method, jack, pooled)


def fleiss_jackknife(V: np.ndarray, lex: np.ndarray, n_lexelts: int, K: int, min_stratum: int = MIN_STRATUM) -> Jack:
    """Leave-one-out Fleiss kappas: what :func:`jackknife` of :func:`_fleiss_stat` gives, with only
    the left-out unit's lexelt recomputed (as :func:`alpha_jackknife`).  ``V`` holds
    ``[P_i, s_i, m_i]`` per unit (:func:`_fleiss_V`); the strata as :func:`jackknife`'s."""
    V = np.asarray(V, dtype=np.float64)
    lex = np.asarray(lex, np.int64)
    S = np.zeros((n_lexelts, V.shape[1]))
    np.add.at(S, lex, V)
    n_x = np.bincount(lex, minlength=n_lexelts).astype(np.float64)
    pbar = S[:, 1:1 + K] / np.maximum(S[:, 1 + K], 1.0)[:, None]
    q = np.einsum("xk,xk->x", pbar, pbar) * n_x
    R, lr, cnt, strata = jackknife_units(V, lex, n_lexelts, min_stratum)
    left = S[lr]  # each unit's lexelt without it (subtracted in place: one (units, d) array, not two)
    left -= R
    pbar_i = left[:, 1:1 + K] / np.maximum(left[:, 1 + K], 1.0)[:, None]
    n = n_x.sum() - cnt
    obs = (S[:, 0].sum() - R[:, 0]) / np.maximum(n, 1.0)
    pe = (q.sum() - q[lr] + np.einsum("ik,ik->i", pbar_i, pbar_i) * (n_x[lr] - cnt)) / np.maximum(n, 1.0)
    values, ok = _kappas(obs, pe, n)
    return values, ok, strata


def bootstrap_fleiss(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray, *,
    n_lexelts: int | None = None, n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
    level: float = 0.95, method: str = DEFAULT_METHOD, layout: Layout | None = None,
    min_stratum: int = MIN_STRATUM,
) -> BootstrapCI:
    """Interval (BCa by default) of Fleiss' (soft) kappa.

    Resampling units are the pairable instances (``m_i >= 2``), stratified
    by lexelt (those of fewer than ``min_stratum`` together); statistics per instance ``[P_i, s_i, m_i]``, from which
    each resample's ``Pr(A)``, ``pbar_x`` and ``Pr(E)`` follow exactly.
    ``layout``: :func:`make_layout` of the arrays when the caller has it (they are then not
    looked at; a crowd's one-leaf-per-row layout is read without its dense ``P``).
    """
    full = layout if layout is not None else make_layout(inst, rater, P, inst_lexelt, n_lexelts=n_lexelts)
    lay = full.pairable()
    est = fleiss_agreement(full).kappa  # Conger's chance agreement is not needed here
    X, K = lay.n_lexelts, lay.n_leaves
    if lay.R == 0:
        return _ci(est, np.zeros(n_resamples), np.zeros(n_resamples, bool), level, seed, method)
    V = _fleiss_V(lay)
    D, = _replicates([(V, lay.seg_lex)], [_fleiss_reps(K)], X, n_resamples, seed, min_stratum)
    return _fleiss_ci(D, K, est, level, seed, method, V, lay.seg_lex, min_stratum)


def _alpha_lexelt(dist: np.ndarray, lexelt_chance: str) -> LexeltStat:
    """Krippendorff's alpha: per lexelt its ``sum do_i``, ``n_x`` and its part of ``D_e``
    (:func:`~hieradjudicate.core.agreement.alpha.alpha_chance_terms`; the sizes are in the sums)."""
    n_chance = len(alpha_chance_terms(np.zeros(0), np.zeros(0), np.zeros(0), lexelt_chance))

    def terms(T: np.ndarray, n_x: np.ndarray, copies: np.ndarray | None, xs: np.ndarray) -> list[np.ndarray]:
        nx, pair_x, _, de_lex = alpha_lexelt_terms(T[..., 0], T[..., 1:], dist, copies=copies, xs=xs)
        return [T[..., 0], nx, *alpha_chance_terms(nx, pair_x, de_lex, lexelt_chance)]

    def total(t: list[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
        d_o, d_e, n = alpha_totals(t[0], t[1], t[2:], lexelt_chance)
        ok = (n > 0) & (d_e > ZERO_TOL)  # n > 0: some lexelt's n_x > 0 (they are sums of counts)
        return [(np.where(ok, 1.0 - d_o / np.where(ok, d_e, 1.0), 0.0), ok)]
    return LexeltStat(2 + n_chance, terms, total)


def _alpha_stat(dist: np.ndarray, lexelt_chance: str):
    return _whole(_alpha_lexelt(dist, lexelt_chance))


def _alpha_reps(dist: np.ndarray, lexelt_chance: str) -> LexeltStat:
    return _alpha_lexelt(dist, lexelt_chance)


def _alpha_ci(D: Draws | Reps, dist: np.ndarray, lexelt_chance: str, est: Estimate, level: float,
              seed: int, method: str = DEFAULT_METHOD, V: np.ndarray | None = None,
              lex: np.ndarray | None = None, min_stratum: int = MIN_STRATUM) -> BootstrapCI:
    """``D``: the draws, or the replicates (:func:`_replicates` of :func:`_alpha_reps`)."""
    ((a, ok),), X, pooled = _of_draws(D, _alpha_reps(dist, lexelt_chance))
    jack = (alpha_jackknife(V, lex, X, dist, lexelt_chance, min_stratum)
            if method == "bca" and V is not None else None)
    return _ci(est, a, ok, level, seed, method, jack, pooled)


def alpha_jackknife(V: np.ndarray, lex: np.ndarray, n_lexelts: int, dist: np.ndarray,
                    lexelt_chance: str = "within", min_stratum: int = MIN_STRATUM) -> Jack:
    """Leave-one-out alphas: what :func:`jackknife` of :func:`_alpha_stat` gives, lexelt by lexelt.

    Leaving unit ``i`` out changes only its lexelt's sums, so the corpus ``D_o`` and ``D_e`` are the
    totals with that lexelt's term replaced -- one ``(K, K)`` product per unit instead of the whole
    ``(X, K, K)`` contraction (MASC: 45 lexelts; it was most of the interval's time).  ``V`` holds
    ``[do_i, s_i]`` per unit (:func:`~hieradjudicate.core.agreement.alpha.alpha_stats`); the strata
    as :func:`jackknife`'s."""
    V = np.asarray(V, dtype=np.float64)
    lex = np.asarray(lex, np.int64)
    X = n_lexelts
    S = np.zeros((X, V.shape[1]))
    np.add.at(S, lex, V)
    do_x, n_c = S[:, 0], S[:, 1:]
    n_x = n_c.sum(axis=1)
    pair_x = np.einsum("xk,xkl,xl->x", n_c, dist, n_c)
    nxm = np.maximum(n_x, 1.0)
    de_lex = pair_x / (nxm * np.maximum(n_x - 1.0, 1.0))
    # each unit's lexelt after leaving it out (a lexelt drawn whole: nothing of it left)
    R, lr, _, strata = jackknife_units(V, lex, X, min_stratum)
    nc_i = n_c[lr]  # in place, as fleiss_jackknife's
    nc_i -= R[:, 1:]
    nx_i = nc_i.sum(axis=1)
    pair_i = np.empty(len(R))
    for x in np.unique(lr).tolist():  # one product per lexelt present, over its units
        rows = np.flatnonzero(lr == x)
        pair_i[rows] = np.einsum("ik,ik->i", nc_i[rows] @ dist[x], nc_i[rows])
    n = n_x.sum() - n_x[lr] + nx_i
    d_o = (do_x.sum() - R[:, 0]) / np.maximum(n, 1.0)
    if lexelt_chance == "within":
        de_i = pair_i / (np.maximum(nx_i, 1.0) * np.maximum(nx_i - 1.0, 1.0))
        w = n_x * de_lex
        d_e = (w.sum() - w[lr] + nx_i * de_i) / np.maximum(n, 1.0)
    elif lexelt_chance == "pooled":
        sq = (n_x ** 2).sum() - n_x[lr] ** 2 + nx_i ** 2
        d_e = (pair_x.sum() - pair_x[lr] + pair_i + n ** 2 - sq) / np.maximum(n * (n - 1.0), 1.0)
    else:
        raise ValueError("lexelt_chance must be 'within' or 'pooled'")
    ok = (n > 0) & (d_e > ZERO_TOL)
    return np.where(ok, 1.0 - d_o / np.where(ok, d_e, 1.0), 0.0), ok, strata


def bootstrap_alpha(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray, *,
    distance: Distance = "nominal", lexelt_chance: str = "within", n_lexelts: int | None = None,
    n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, level: float = 0.95,
    method: str = DEFAULT_METHOD, layout: Layout | None = None, min_stratum: int = MIN_STRATUM,
) -> BootstrapCI:
    """Interval (BCa by default) of Krippendorff's alpha (nominal or a fixed distance matrix).

    Resampling units are the pairable instances, stratified by lexelt (those of fewer than
    ``min_stratum`` together, as :func:`bootstrap_fleiss`);
    statistics per instance ``[do_i, s_i]`` (see :class:`~hieradjudicate.core.agreement.alpha.AlphaStats`).
    The ordinal metric depends on the marginals of each resample and is not
    offered here.  ``layout``: as for :func:`bootstrap_fleiss`.
    """
    if isinstance(distance, str) and distance != "nominal":
        raise ValueError("bootstrap_alpha supports 'nominal' or a distance matrix")
    full = layout if layout is not None else make_layout(inst, rater, P, inst_lexelt, n_lexelts=n_lexelts)
    point = krippendorff_alpha(inst, rater, P, inst_lexelt, distance=distance,
                               lexelt_chance=lexelt_chance, layout=full, coincidences=False)
    lay = full.pairable()
    if lay.R == 0:
        return _ci(point.alpha, np.zeros(n_resamples), np.zeros(n_resamples, bool), level, seed, method)
    st = alpha_stats(lay, distance)
    V = np.column_stack([st.do_i, st.s_i])
    D, = _replicates([(V, st.seg_lex)], [_alpha_reps(st.dist, lexelt_chance)], lay.n_lexelts, n_resamples, seed,
                     min_stratum)
    return _alpha_ci(D, st.dist, lexelt_chance, point.alpha, level, seed, method, V, st.seg_lex, min_stratum)


@dataclass(frozen=True)
class BootstrapFigures:
    """Intervals of the dashboard figures from one set of draws (see :func:`bootstrap_figures`).

    ``pairs[(a, b)]`` is ``(scott, cohen)`` as :func:`bootstrap_pairwise` returns it.
    """

    pairs: dict[tuple[int, int], tuple[BootstrapCI, BootstrapCI]]
    fleiss: BootstrapCI
    alpha: BootstrapCI
    #: why the pair intervals were not computed (``pairs`` is then empty), else None
    pairs_skipped: str | None = None


#: default bound on the draws of the pair intervals (about ten seconds of work)
MAX_PAIR_DRAWS = 3e8


def bootstrap_figures(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray, *,
    pairs: list[tuple[int, int]] | None = None, n_lexelts: int | None = None,
    distance: Distance = "nominal", lexelt_chance: str = "within",
    n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, level: float = 0.95,
    method: str = DEFAULT_METHOD, max_pair_draws: float | None = MAX_PAIR_DRAWS, layout: Layout | None = None,
) -> BootstrapFigures:
    """Pairwise kappas, Fleiss' kappa and alpha with their intervals.

    Every interval equals the one the single-figure function gives
    (:func:`bootstrap_pairwise` on the pair's shared instances in instance
    order, :func:`bootstrap_fleiss`, :func:`bootstrap_alpha`) with the same
    seed.  A pair is resampled over its shared instances only, in the lexelts
    it shares (a crowd project's pair shares a few lexelts of many), and pairs
    are processed in batches of bounded memory; pairs with the same strata
    share their draws.  A pair that shares no instance has no interval and
    costs nothing (MASC: 17,664 of 25,878 pairs).

    Parameters
    ----------
    pairs : list of (a, b), optional
        Rater pairs (default: every pair ``a < b`` of raters present).
    max_pair_draws : float, optional
        Pair intervals cost one draw per shared instance per pair per
        resample.  Above this many (a crowd project: MASC's 8,214 pairs that
        share instances hold about 16 million pair-instances) they are not
        computed and ``pairs_skipped`` says why; ``None`` computes them
        whatever the cost.  Fleiss and alpha are always computed.
    layout : Layout, optional
        :func:`make_layout` of the arrays when the caller has it (they are then not looked at):
        a crowd's one-leaf-per-row layout (:class:`~hieradjudicate.core.layout_tags.LeafLayout`)
        is read from its leaves, without a dense ``(R, K)`` ``P`` (MASC: 147 MB).
    """
    if isinstance(distance, str) and distance != "nominal":
        raise ValueError("bootstrap_figures supports 'nominal' or a distance matrix for alpha")
    full = layout if layout is not None else make_layout(inst, rater, P, inst_lexelt, n_lexelts=n_lexelts)
    X, K = full.n_lexelts, full.n_leaves
    lay = full.pairable()
    if pairs is None:
        present = np.unique(full.rater).tolist()
        pairs = [(a, b) for i, a in enumerate(present) for b in present[i + 1:]]
    skipped = None
    units = _pair_units(full, pairs)
    if max_pair_draws is not None and units * n_resamples > max_pair_draws:
        skipped = (f"pair intervals not computed: the pairs share {units:,} instance-pairs, so "
                   f"{n_resamples} resamples would draw {units * n_resamples:.2g} values (the limit is "
                   f"{max_pair_draws:.2g}); Fleiss' kappa and alpha have their intervals. Fewer "
                   "annotation sets or fewer resamples bring the pairs within reach")
        out_pairs = {}
    else:
        out_pairs = dict(_pairs_cis(full, pairs, X, K, n_resamples, seed, level, method))
    f_point = fleiss_agreement(full).kappa
    a_point = krippendorff_alpha(full.inst, full.rater, None, inst_lexelt, distance=distance, lexelt_chance=lexelt_chance,
                                 layout=full, coincidences=False).alpha
    if not lay.R:
        none = np.zeros(n_resamples, bool)
        fl = _ci(f_point, np.zeros(n_resamples), none, level, seed, method)
        al = _ci(a_point, np.zeros(n_resamples), none, level, seed, method)
        return BootstrapFigures(out_pairs, fl, al, skipped)
    st = alpha_stats(lay, distance)
    Vf, Va = _fleiss_V(lay), np.column_stack([st.do_i, st.s_i])
    Df, Da = _replicates([(Vf, lay.seg_lex), (Va, lay.seg_lex)], [_fleiss_reps(K), _alpha_reps(st.dist, lexelt_chance)],
                         X, n_resamples, seed)
    fl = _fleiss_ci(Df, K, f_point, level, seed, method, Vf, lay.seg_lex)
    del Vf, Df  # alpha's jackknife is the peak (all-words data at 100,000 instances: Vf is 20 MB)
    al = _alpha_ci(Da, st.dist, lexelt_chance, a_point, level, seed, method, Va, lay.seg_lex)
    return BootstrapFigures(out_pairs, fl, al, skipped)


def _pair_units(full: Layout, pairs: list[tuple[int, int]]) -> int:
    """How many (pair, shared instance) units the pairs hold, without visiting the pairs."""
    raters = np.unique(np.asarray(pairs, np.int64)) if pairs else np.zeros(0, np.int64)
    keep = np.isin(full.rater, raters)
    m = np.bincount(full.row_seg[keep], minlength=int(full.row_seg.max()) + 1 if full.R else 0)
    every = int((m * (m - 1) // 2).sum())  # every pair of the raters involved
    n_r = len(raters)
    return every if len(pairs) >= n_r * (n_r - 1) // 2 else min(every, every * len(pairs) // max(1, n_r * (n_r - 1) // 2) + 1)


_PAIR_BATCH_FLOATS = 32_000_000  # a batch of pairs sharing one pass of draws (its sums made a block at a time)


def _pairs_cis(full: Layout, pairs: list[tuple[int, int]], X: int, K: int, n_resamples: int, seed: int,
               level: float, method: str):
    """``((a, b), (scott, cohen))`` for every pair, in batches of bounded memory."""
    by_rater = np.argsort(full.rater, kind="stable")
    rb = np.searchsorted(full.rater[by_rater], np.arange(int(full.rater.max()) + 2 if full.R else 1))
    batch: list[tuple[tuple[int, int], np.ndarray, np.ndarray, Any]] = []
    size = 0

    def flush():
        if not batch:
            return []
        n_lex = max(int(lex.max()) + 1 for _, _, lex, _ in batch)
        draws = _replicates([(V, lex) for _, V, lex, _ in batch], [_pair_reps(K)] * len(batch), n_lex, n_resamples, seed)
        done = []
        for (key, V, lex, point), D in zip(batch, draws, strict=True):
            done.append((key, _pair_cis(D, K, point.scott.kappa, point.cohen.kappa, level, seed,
                                        method, V, lex)))
        batch.clear()
        return done

    for a, b in pairs:
        ra = by_rater[rb[a]:rb[a + 1]] if a + 1 < len(rb) else by_rater[:0]
        rbb = by_rater[rb[b]:rb[b + 1]] if b + 1 < len(rb) else by_rater[:0]
        _, ia, ib = np.intersect1d(full.row_seg[ra], full.row_seg[rbb], assume_unique=True, return_indices=True)
        pa, pb = _rows_P(full, ra[ia], K), _rows_P(full, rbb[ib], K)
        lex_full = full.row_lex[ra[ia]].astype(np.int64)
        point = pairwise_agreement(pa, pb, lex_full, n_lexelts=X)
        if len(lex_full) == 0:
            empty = np.zeros(n_resamples, bool)
            yield (a, b), tuple(_ci(e, np.zeros(n_resamples), empty, level, seed, method)
                                for e in (point.scott.kappa, point.cohen.kappa))
            continue
        # the pair's own lexelts, in order: the draws are those of the full layout (empty strata draw nothing)
        _, lex = np.unique(lex_full, return_inverse=True)
        V = _pair_V(pa, pb)
        del pa, pb  # V holds what the draws need (all-words data at 100,000 instances: 37 MB)
        cost = n_resamples * (int(lex.max()) + 1) * V.shape[1] + V.size  # sums held, and the rows kept
        if batch and size + cost > _PAIR_BATCH_FLOATS:
            yield from flush()
            size = 0
        batch.append(((a, b), V, lex, point))
        size += cost
    yield from flush()


def _rows_P(full: Layout, rows: np.ndarray, K: int) -> np.ndarray:
    """``full.P[rows]``; from the leaves when every row is one leaf (the whole ``P`` never made)."""
    leaf = full.__dict__.get("onehot_leaf")  # known without a pass over P (a crowd's layout)
    if leaf is None:
        return full.gather_P(rows)  # a sparse layout makes these rows alone
    out = np.zeros((len(rows), K))
    out[np.arange(len(rows)), leaf[rows]] = 1.0  # the unit rows of P, exactly
    return out
