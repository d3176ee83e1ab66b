"""Bootstrap confidence intervals for kappa and alpha (metrics.md, "Confidence intervals").

Instances are resampled with replacement *within each lexelt* (stratified:
every resample keeps each lexelt's number of instances), with a fixed
default seed, 1000 resamples and a 95 % interval, BCa by default (bias-corrected
and accelerated, :mod:`hieradjudicate.core.stats.bca`; the jackknife for the
acceleration is vectorised like the resampling: a leave-one-out is the
lexelt's sums minus one row), percentile on request.

Vectorised: every figure is a function of per-instance sufficient
statistics ``V`` (one row per instance).  A resample is a vector of counts
``c`` (how often each instance was drawn), and the resampled sums are
``c @ V``; the counts of a block of resamples form a ``(B, n_x)`` matrix per
lexelt, so a thousand resamples cost one matrix product per lexelt.  No
Python loop runs over resamples or instances.

Resamples in which a figure is undefined (e.g. ``Pr(E) = 1``) are left out
of its percentiles and counted in ``n_undefined``.

References
----------
Efron & Tibshirani (1993), An Introduction to the Bootstrap, ch. 13
(percentile interval) and ch. 14 (BCa).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hieradjudicate.core.agreement.agreement import (
    Layout,
    _multi_stats,
    fleiss_agreement,
    make_layout,
    pairwise_agreement,
)
from hieradjudicate.core.agreement.alpha import Distance, alpha_from_sums, alpha_stats, krippendorff_alpha
from hieradjudicate.core.stats.bca import DEFAULT_METHOD, interval
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
    "alpha_jackknife",
    "fleiss_jackknife",
]

DEFAULT_SEED = 20_240_601
DEFAULT_RESAMPLES = 1000
_BLOCK = 4_000_000  # counts per block of resamples (memory bound: 32 MB of float64)


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

    @property
    def bias(self) -> float | None:
        """Mean replicate minus the estimate: how far resampling moves the figure (BCa corrects
        for it; a percentile interval does not)."""
        if self.estimate.value is None or self.replicates.count() == 0:
            return None
        return float(self.replicates.mean()) - float(self.estimate.value)


def resample_indices(
    lexelt_sizes: np.ndarray, n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
) -> Iterator[tuple[int, int, int, np.ndarray]]:
    """The draws: ``(x, b0, b1, idx)`` with ``idx`` of shape ``(b1 - b0, n_x)``.

    ``idx[j]`` lists the local instances of lexelt ``x`` drawn in resample
    ``b0 + j``.  The order of the draws is fixed by the seed, so that a naive
    implementation can replay them.
    """
    rng = np.random.default_rng(seed)
    for x, n_x in enumerate(np.asarray(lexelt_sizes, dtype=np.int64).tolist()):
        if n_x == 0:
            continue
        step = max(1, _BLOCK // n_x)
        for b0 in range(0, n_resamples, step):
            b1 = min(n_resamples, b0 + step)
            yield x, b0, b1, rng.integers(0, n_x, size=(b1 - b0, n_x))


def _grouped_rows(V: np.ndarray, lex: np.ndarray, n_lexelts: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of ``V`` sorted (stably) by lexelt, and the lexelt bounds."""
    lex = np.asarray(lex, dtype=np.int64)
    if len(lex) > 1 and np.any(lex[1:] < lex[:-1]):
        order = np.argsort(lex, kind="stable")
        V, lex = V[order], lex[order]
    return V, np.searchsorted(lex, np.arange(n_lexelts + 1))


_CHUNK = 1 << 17  # counts per chunk of resamples: counting and the product stay in cache


def resampled_sums_shared(
    items: list[tuple[np.ndarray, np.ndarray]], n_lexelts: int, n_resamples: int, seed: int
) -> list[np.ndarray]:
    """:func:`resampled_sums` of several ``(V, lex)`` at once, drawing each resample once.

    Items whose strata have the same sizes get the same draws from the same
    seed, so they share one pass over :func:`resample_indices` (one count
    matrix, one product with the stacked columns); the result of each item
    is what :func:`resampled_sums` gives for it alone.
    """
    out: list[np.ndarray] = [np.empty(0)] * len(items)
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
        W = np.hstack([Vs for _, Vs in members]) if len(members) > 1 else members[0][1]
        T = np.zeros((n_resamples, n_lexelts, W.shape[1]))
        for x, b0, b1, idx in resample_indices(np.diff(bounds), n_resamples, seed):
            n_x = idx.shape[1]
            Wx = W[bounds[x]:bounds[x + 1]]
            step = max(1, _CHUNK // n_x)
            offs = (np.arange(min(step, b1 - b0), dtype=np.int64) * n_x)[:, None]
            for c0 in range(0, b1 - b0, step):
                sub = idx[c0:c0 + step]
                k = len(sub)
                flat = sub + offs[:k]
                counts = np.bincount(flat.ravel(), minlength=k * n_x).reshape(k, n_x).astype(np.float64)
                T[b0 + c0:b0 + c0 + k, x] = counts @ Wx
        col = 0
        for j, Vs in members:
            d = Vs.shape[1]
            out[j] = T[..., col:col + d] if len(members) > 1 else T
            col += d
    return out


def resampled_sums(V: np.ndarray, lex: np.ndarray, n_lexelts: int, n_resamples: int, seed: int) -> np.ndarray:
    """``T[b, x, :]`` = sum of the rows of ``V`` of lexelt ``x`` drawn in resample ``b``."""
    return resampled_sums_shared([(V, lex)], n_lexelts, n_resamples, seed)[0]


Jack = tuple[np.ndarray, np.ndarray, np.ndarray]  # leave-one-out values, defined?, stratum


def _ci(est: Estimate, values: np.ndarray, ok: np.ndarray, level: float, seed: int,
        method: str = DEFAULT_METHOD, jack: Jack | None = None) -> BootstrapCI:
    reps = np.ma.MaskedArray(np.where(ok, values, 0.0), mask=~ok)
    if not ok.any():
        return BootstrapCI(est, None, None, level, len(values), len(values), seed, reps,
                           "the figure is undefined in every resample", method)
    jv = js = None
    if method == "bca" and jack is not None:
        jv, jok, jstrata = jack
        jv, js = jv[jok], jstrata[jok]
    low, high, used = interval(values[ok], est.value, level, method, jv, js)
    return BootstrapCI(est, low, high, level, len(values), int((~ok).sum()), seed, reps, None, used)


_JACK_CELLS = 2_000_000  # floats per block of leave-one-out sums


def jackknife(stat, V: np.ndarray, lex: np.ndarray, n_lexelts: int) -> list[Jack]:
    """Leave-one-out values of the figures ``stat(T, n_x)`` computes from per-lexelt sums.

    Leaving unit ``i`` out gives the sums ``S - V_i`` in its lexelt and that
    lexelt's size minus one; ``stat`` takes ``T`` of shape ``(m, X, d)`` and
    ``n_x`` of shape ``(m, X)`` and returns a list of ``(values, defined)``.
    Blocks keep memory bounded; no Python loop runs per unit.
    """
    V = np.asarray(V, dtype=np.float64)
    lex = np.asarray(lex, np.int64)
    X = n_lexelts
    S = np.zeros((X, V.shape[1]))
    np.add.at(S, lex, V)
    n_x = np.bincount(lex, minlength=X).astype(np.float64)
    step = max(1, _JACK_CELLS // max(1, X * V.shape[1]))
    parts: list[list[tuple[np.ndarray, np.ndarray]]] = []
    for c0 in range(0, len(V), step):
        Vc, lc = V[c0:c0 + step], lex[c0:c0 + step]
        m = len(Vc)
        T = np.broadcast_to(S, (m, *S.shape)).copy()
        T[np.arange(m), lc] -= Vc
        nj = np.broadcast_to(n_x, (m, X)).copy()
        nj[np.arange(m), lc] -= 1.0
        parts.append(stat(T, nj))
    if not parts:
        return []
    return [(np.concatenate([p[k][0] for p in parts]), np.concatenate([p[k][1] for p in parts]), lex)
            for k in range(len(parts[0]))]


def _kappas(obs: np.ndarray, pe: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ok = (n > 0) & (1.0 - pe > ZERO_TOL)
    return np.where(ok, (obs - pe) / np.where(ok, 1.0 - pe, 1.0), 0.0), ok


def _pair_V(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """Per shared instance: ``[pa.pb, pa, pb]`` (the count is the stratum size, fixed by the design)."""
    return np.column_stack([np.einsum("ik,ik->i", pa, pb), pa, pb])


def _pair_stat(K: int):
    """Scott/S&C and Cohen kappa of a pair from its per-lexelt sums (``n_x`` the stratum sizes)."""
    def stat(T: np.ndarray, n_x: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        n_x = np.broadcast_to(n_x, T.shape[:2])
        ma, mb = T[..., 1:1 + K], T[..., 1 + K:]
        den = np.maximum(n_x, 1.0) ** 2
        pe_c = np.einsum("bxk,bxk->bx", ma, mb) / den
        sab = ma + mb
        pe_s = np.einsum("bxk,bxk->bx", sab, sab) / (4.0 * den)
        n = n_x.sum(axis=1)
        obs = T[..., 0].sum(axis=1) / np.maximum(n, 1.0)
        return [_kappas(obs, (pe_x * n_x).sum(axis=1) / np.maximum(n, 1.0), n) for pe_x in (pe_s, pe_c)]
    return stat


def _pair_cis(
    T: np.ndarray, n_x: np.ndarray, K: int, scott: Estimate, cohen: Estimate, level: float, seed: int,
    method: str = DEFAULT_METHOD, V: np.ndarray | None = None, lex: np.ndarray | None = None,
) -> tuple[BootstrapCI, BootstrapCI]:
    stat = _pair_stat(K)
    jacks: list[Jack | None] = [None, None]
    if method == "bca" and V is not None and lex is not None:
        jacks = list(jackknife(stat, V, lex, T.shape[1]))
    (ks, oks), (kc, okc) = stat(T, n_x)
    return (_ci(scott, ks, oks, level, seed, method, jacks[0]),
            _ci(cohen, kc, okc, level, seed, method, jacks[1]))


def bootstrap_pairwise(
    pa: np.ndarray, pb: np.ndarray, lex: np.ndarray | None = None, *, n_lexelts: int | None = None,
    n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, level: float = 0.95,
    method: str = DEFAULT_METHOD,
) -> tuple[BootstrapCI, BootstrapCI]:
    """Intervals (BCa by default) of the pair's Scott/Siegel-Castellan and Cohen kappa.

    Statistics per shared instance: ``[pa.pb, pa, pb]``; per resample and
    lexelt the sums give ``sum Pr_i(A)`` and both marginals (``n_x`` is the
    stratum size), hence ``Pr_x(E)`` and the instance-weighted corpus kappa
    exactly as :func:`~hieradjudicate.core.agreement.agreement.pairwise_agreement`
    computes it.

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
    T = resampled_sums(V, lex, X, n_resamples, seed)
    n_x = np.bincount(lex, minlength=X).astype(np.float64)
    return _pair_cis(T, n_x, pa.shape[1], point.scott.kappa, point.cohen.kappa, level, seed, method,
                     V, lex)


def _fleiss_V(lay: Layout) -> np.ndarray:
    p_i, s, m_i = _multi_stats(lay)
    return np.column_stack([p_i, s, m_i])


def _fleiss_stat(K: int):
    def stat(T: np.ndarray, n_x: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        n_x = np.broadcast_to(n_x, T.shape[:2])
        n = n_x.sum(axis=1)
        obs = T[..., 0].sum(axis=1) / np.maximum(n, 1.0)
        pbar = T[..., 1:1 + K] / np.maximum(T[..., 1 + K], 1.0)[..., None]
        pe = (np.einsum("bxk,bxk->bx", pbar, pbar) * n_x).sum(axis=1) / np.maximum(n, 1.0)
        return [_kappas(obs, pe, n)]
    return stat


def _fleiss_ci(T: np.ndarray, n_x: np.ndarray, K: int, est: Estimate, level: float, seed: int,
               method: str = DEFAULT_METHOD, V: np.ndarray | None = None,
               lex: np.ndarray | None = None) -> BootstrapCI:
    stat = _fleiss_stat(K)
    jack = fleiss_jackknife(V, lex, T.shape[1], K) if method == "bca" and V is not None else None
    (k, ok), = stat(T, n_x)
    return _ci(est, k, ok, level, seed, method, jack)


def fleiss_jackknife(V: np.ndarray, lex: np.ndarray, n_lexelts: int, K: int) -> Jack:
    """Leave-one-out Fleiss kappas: what :func:`jackknife` of :func:`_fleiss_stat` gives, with only
    the left-out unit's lexelt recomputed (as :func:`alpha_jackknife`).  ``V`` holds
    ``[P_i, s_i, m_i]`` per unit (:func:`_fleiss_V`)."""
    V = np.asarray(V, dtype=np.float64)
    lex = np.asarray(lex, np.int64)
    S = np.zeros((n_lexelts, V.shape[1]))
    np.add.at(S, lex, V)
    n_x = np.bincount(lex, minlength=n_lexelts).astype(np.float64)
    pbar = S[:, 1:1 + K] / np.maximum(S[:, 1 + K], 1.0)[:, None]
    q = np.einsum("xk,xk->x", pbar, pbar) * n_x
    left = S[lex] - V  # each unit's lexelt without it
    pbar_i = left[:, 1:1 + K] / np.maximum(left[:, 1 + K], 1.0)[:, None]
    n = n_x.sum() - 1.0
    obs = (S[:, 0].sum() - V[:, 0]) / max(n, 1.0)
    pe = (q.sum() - q[lex] + np.einsum("ik,ik->i", pbar_i, pbar_i) * (n_x[lex] - 1.0)) / max(n, 1.0)
    values, ok = _kappas(obs, pe, np.full(len(V), n))
    return values, ok, lex


def bootstrap_fleiss(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray, *,
    n_lexelts: int | None = None, n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
    level: float = 0.95, method: str = DEFAULT_METHOD, layout: Layout | None = None,
) -> BootstrapCI:
    """Interval (BCa by default) of Fleiss' (soft) kappa.

    Resampling units are the pairable instances (``m_i >= 2``), stratified
    by lexelt; statistics per instance ``[P_i, s_i, m_i]``, from which
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
    T = resampled_sums(V, lay.seg_lex, X, n_resamples, seed)
    n_x = np.bincount(lay.seg_lex, minlength=X).astype(np.float64)
    return _fleiss_ci(T, n_x, K, est, level, seed, method, V, lay.seg_lex)


def _alpha_stat(dist: np.ndarray, lexelt_chance: str):
    def stat(T: np.ndarray, n_x: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        d_o, d_e, _, _ = alpha_from_sums(T[..., 0], T[..., 1:], dist, lexelt_chance=lexelt_chance)
        n = T[..., 1:].sum(axis=(1, 2))
        ok = (n > 0) & (d_e > ZERO_TOL)
        return [(np.where(ok, 1.0 - d_o / np.where(ok, d_e, 1.0), 0.0), ok)]
    return stat


def _alpha_ci(T: np.ndarray, dist: np.ndarray, lexelt_chance: str, est: Estimate, level: float,
              seed: int, method: str = DEFAULT_METHOD, V: np.ndarray | None = None,
              lex: np.ndarray | None = None) -> BootstrapCI:
    stat = _alpha_stat(dist, lexelt_chance)
    jack = alpha_jackknife(V, lex, T.shape[1], dist, lexelt_chance) if method == "bca" and V is not None else None
    (a, ok), = stat(T, np.zeros(T.shape[:2]))
    return _ci(est, a, ok, level, seed, method, jack)


def alpha_jackknife(V: np.ndarray, lex: np.ndarray, n_lexelts: int, dist: np.ndarray,
                    lexelt_chance: str = "within") -> Jack:
    """Leave-one-out alphas: what :func:`jackknife` of :func:`_alpha_stat` gives, lexelt by lexelt.

    Leaving unit ``i`` out changes only its lexelt's sums, so the corpus ``D_o`` and ``D_e`` are the
    totals with that lexelt's term replaced -- one ``(K, K)`` product per unit instead of the whole
    ``(X, K, K)`` contraction (MASC: 45 lexelts; it was most of the interval's time).  ``V`` holds
    ``[do_i, s_i]`` per unit (:func:`~hieradjudicate.core.agreement.alpha.alpha_stats`)."""
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
    # each unit's lexelt after leaving it out
    nc_i = n_c[lex] - V[:, 1:]
    nx_i = nc_i.sum(axis=1)
    pair_i = np.empty(len(V))
    for x in np.unique(lex).tolist():  # one product per lexelt present, over its units
        rows = np.flatnonzero(lex == x)
        pair_i[rows] = np.einsum("ik,ik->i", nc_i[rows] @ dist[x], nc_i[rows])
    n = n_x.sum() - n_x[lex] + nx_i
    d_o = (do_x.sum() - V[:, 0]) / np.maximum(n, 1.0)
    if lexelt_chance == "within":
        de_i = pair_i / (np.maximum(nx_i, 1.0) * np.maximum(nx_i - 1.0, 1.0))
        w = n_x * de_lex
        d_e = (w.sum() - w[lex] + nx_i * de_i) / np.maximum(n, 1.0)
    elif lexelt_chance == "pooled":
        sq = (n_x ** 2).sum() - n_x[lex] ** 2 + nx_i ** 2
        d_e = (pair_x.sum() - pair_x[lex] + pair_i + n ** 2 - sq) / np.maximum(n * (n - 1.0), 1.0)
    else:
        raise ValueError("lexelt_chance must be 'within' or 'pooled'")
    ok = (n > 0) & (d_e > ZERO_TOL)
    return np.where(ok, 1.0 - d_o / np.where(ok, d_e, 1.0), 0.0), ok, lex


def bootstrap_alpha(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray, *,
    distance: Distance = "nominal", lexelt_chance: str = "within", n_lexelts: int | None = None,
    n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, level: float = 0.95,
    method: str = DEFAULT_METHOD, layout: Layout | None = None,
) -> BootstrapCI:
    """Interval (BCa by default) of Krippendorff's alpha (nominal or a fixed distance matrix).

    Resampling units are the pairable instances, stratified by lexelt;
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
    T = resampled_sums(V, st.seg_lex, lay.n_lexelts, n_resamples, seed)
    return _alpha_ci(T, st.dist, lexelt_chance, point.alpha, level, seed, method, V, st.seg_lex)


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
    Tf, Ta = resampled_sums_shared([(Vf, lay.seg_lex), (Va, lay.seg_lex)], X, n_resamples, seed)
    n_x = np.bincount(lay.seg_lex, minlength=X).astype(np.float64)
    fl = _fleiss_ci(Tf, n_x, K, f_point, level, seed, method, Vf, lay.seg_lex)
    al = _alpha_ci(Ta, st.dist, lexelt_chance, a_point, level, seed, method, Va, lay.seg_lex)
    return BootstrapFigures(out_pairs, fl, al, skipped)


def _pair_units(full: Layout, pairs: list[tuple[int, int]]) -> int:
    """How many (pair, shared instance) units the pairs hold, without visiting the pairs."""
    raters = np.unique(np.asarray(pairs, np.int64)) if pairs else np.zeros(0, np.int64)
    keep = np.isin(full.rater, raters)
    m = np.bincount(full.row_seg[keep], minlength=int(full.row_seg.max()) + 1 if full.R else 0)
    every = int((m * (m - 1) // 2).sum())  # every pair of the raters involved
    n_r = len(raters)
    return every if len(pairs) >= n_r * (n_r - 1) // 2 else min(every, every * len(pairs) // max(1, n_r * (n_r - 1) // 2) + 1)


_PAIR_BATCH_FLOATS = 32_000_000  # resampled sums held at once (256 MB of float64)


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
        T = resampled_sums_shared([(V, lex) for _, V, lex, _ in batch], n_lex, n_resamples, seed)
        done = []
        for (key, V, lex, point), Tp in zip(batch, T, strict=True):
            n_x = np.bincount(lex, minlength=n_lex).astype(np.float64)
            done.append((key, _pair_cis(Tp, n_x, K, point.scott.kappa, point.cohen.kappa, level, seed,
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
        return full.P[rows]
    out = np.zeros((len(rows), K))
    out[np.arange(len(rows)), leaf[rows]] = 1.0  # the unit rows of P, exactly
    return out
