"""Fleiss' kappa intervals of every lexelt and of all of them from one set of draws.

The bootstrap of :func:`~hieradjudicate.core.agreement.bootstrap.bootstrap_fleiss` is
stratified by lexelt: each resample draws every lexelt's instances within that
lexelt.  Its per-lexelt sums ``T[b, x]`` are therefore already a bootstrap of
each lexelt on its own, so one call gives the overall interval *and* every
lexelt's -- where one bootstrap per lexelt drew the same number of values
again, lexelt by lexelt (MASC: 46 calls, 1.0 s of a report's 5).  Each
lexelt's interval is BCa (or percentile) over its stratum, its acceleration
from the jackknife of its own instances.

When the overall interval draws the lexelts of fewer than 10 instances together
(all-words data, :mod:`~hieradjudicate.core.agreement.resampling`), such a lexelt's
draws are no bootstrap of it alone: the lexelts' intervals then come from a second
resampling, every lexelt alone (the draws they had before the pooling).
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.agreement.layout import Layout, make_layout
from hieradjudicate.core.agreement.multirater import fleiss_agreement, multi_rater_agreement
from hieradjudicate.core.stats.bca import DEFAULT_METHOD
from hieradjudicate.core.stats.strata import MIN_STRATUM, lexelt_strata
from hieradjudicate.core.agreement.bootstrap import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    BootstrapCI,
    Draws,
    _ci,
    _fleiss_ci,
    _fleiss_reps,
    _fleiss_stat,
    _fleiss_V,
    _replicates,
)
from hieradjudicate.core.agreement.resampling import lexelts_alone


def _lexelt_reps(K: int):
    """Each lexelt's Fleiss kappa in each resample ``(b, X)``: the lexelts as a batch of one-lexelt
    corpora."""
    stat = _fleiss_stat(K)

    def per(D: Draws) -> list[tuple[np.ndarray, np.ndarray]]:
        b, X, d = D.T.shape
        n = np.broadcast_to(D.n, (b, X))
        (k, ok), = stat(D.T.reshape(b * X, 1, d), n.reshape(b * X, 1))
        return [(k.reshape(b, X), ok.reshape(b, X))]
    return per


def fleiss_intervals(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray, *,
    n_lexelts: int | None = None, n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
    level: float = 0.95, method: str = DEFAULT_METHOD, lexelt_kappas: list | None = None,
    layout: Layout | None = None, min_stratum: int = MIN_STRATUM,
) -> tuple[BootstrapCI, list[BootstrapCI | None]]:
    """The overall interval (equal to :func:`bootstrap_fleiss` with the same seed) and each lexelt's
    (``None`` for a lexelt without pairable instances), all from one stratified resampling.

    ``lexelt_kappas``: each lexelt's Fleiss kappa (an ``Estimate``) when the caller has them
    (:func:`multi_rater_agreement`'s ``lexelt_fleiss``); computed otherwise.  ``layout``:
    :func:`make_layout` of the arrays when the caller has it (they are then not looked at).
    ``min_stratum``: the overall interval's, as :func:`bootstrap_fleiss`'s.
    """
    full = layout if layout is not None else make_layout(inst, rater, P, inst_lexelt, n_lexelts=n_lexelts)
    lay = full.pairable()
    X, K = lay.n_lexelts, lay.n_leaves
    est = fleiss_agreement(full).kappa
    if lay.R == 0:
        none = np.zeros(n_resamples, bool)
        return _ci(est, np.zeros(n_resamples), none, level, seed, method), [None] * X
    V = _fleiss_V(lay)
    lex = lay.seg_lex  # sorted: each lexelt's instances are one slice
    whole, per = _fleiss_reps(K), _lexelt_reps(K)
    if lexelt_strata(np.bincount(lex, minlength=X), min_stratum)[1]:  # each lexelt alone (min_stratum 1)
        D, = _replicates([(V, lex)], [whole], X, n_resamples, seed, min_stratum)
        k_lex, ok_lex = np.zeros((n_resamples, X)), np.zeros((n_resamples, X), bool)
        stat, sizes = _fleiss_stat(K), np.bincount(lex, minlength=X).astype(np.float64)
        for x, Tx in lexelts_alone(V, lex, X, n_resamples, seed):  # a lexelt's sums at a time
            (k_lex[:, x], ok_lex[:, x]), = stat(Tx, sizes[x:x + 1])
    else:  # the same draws
        D, = _replicates([(V, lex)], [lambda D: whole(D) + per(D)], X, n_resamples, seed, min_stratum)
        (k_lex, ok_lex) = D[0].pop()
    overall = _fleiss_ci(D, K, est, level, seed, method, V, lex, min_stratum)
    if lexelt_kappas is None:
        lexelt_kappas = [f.kappa for f in multi_rater_agreement(None, None, None, None, layout=full).lexelt_fleiss]
    bounds = np.searchsorted(lex, np.arange(X + 1))
    out: list[BootstrapCI | None] = []
    for x in range(X):
        lo, hi = int(bounds[x]), int(bounds[x + 1])
        if hi == lo:
            out.append(None)
            continue
        one = ([(k_lex[:, x], ok_lex[:, x])], 1, 0)
        out.append(_fleiss_ci(one, K, lexelt_kappas[x], level, seed, method, V[lo:hi], np.zeros(hi - lo, np.int64)))
    return overall, out
