"""Agreement of many annotators over leaf distributions (metrics.md section 3).

Fleiss' kappa and Davies & Fleiss / Conger's kappa, corpus and per lexelt.

Pure numpy on the one-leaf-per-row :class:`~hieradjudicate.core.agreement.layout.Layout`.  Chance
agreement is computed within each lexelt and combined over lexelts as the instance-weighted mean;
how instances with different numbers of annotations count is named by the rules
:data:`FLEISS_MISSING_RULE`, :data:`GWET_FLEISS_RULE` and :data:`CONGER_MARGINAL_RULE`, which every
output that shows these figures repeats.  Undefined figures follow
:mod:`hieradjudicate.core.stats.undefined`.

References
----------
Siegel & Castellan (1988); Fleiss (1971); Davies & Fleiss (1982); Conger (1980); Gwet (2014),
Handbook of Inter-Rater Reliability (irrCAC).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hieradjudicate.core.stats.undefined import (
    Agreement,
    Estimate,
    chance_corrected,
    macro_mean,
)
from hieradjudicate.core.agreement.fleiss_missing import (  # noqa: F401 (re-exported: the rules name the figures)
    FLEISS_MISSING_RULE,
    GWET_FLEISS_RULE,
    gwet_fleiss_chance,
)
from hieradjudicate.core.agreement.layout import Layout, make_layout


@dataclass(frozen=True)
class MultiRaterAgreement:
    """Fleiss (soft) and Davies & Fleiss / Conger kappa, corpus and per lexelt.

    ``fleiss`` is the variant :data:`FLEISS_MISSING_RULE` names; ``fleiss_gwet``
    Gwet's generalisation for missing ratings (:data:`GWET_FLEISS_RULE`, irrCAC's
    ``fleiss.kappa.raw``).  They differ only when instances have different numbers
    of annotations (single-rated ones included)."""

    fleiss: Agreement
    conger: Agreement
    lexelt_fleiss: tuple[Agreement, ...]
    lexelt_conger: tuple[Agreement, ...]
    macro_fleiss: Estimate
    macro_conger: Estimate
    fleiss_gwet: Agreement | None = None
    lexelt_fleiss_gwet: tuple[Agreement, ...] = ()


def _multi_stats(lay: Layout) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-instance ``P_i`` (Fleiss), the sums ``s_i`` and ``m_i`` (pairable layout)."""
    m_i = lay.seg_m.astype(np.float64)
    s = lay.seg_sum
    pairs = m_i * (m_i - 1.0)
    p_i = (np.einsum("ik,ik->i", s, s) - lay.seg_sq) / pairs
    return p_i, s, m_i


CONGER_MARGINAL_RULE = (
    "Davies & Fleiss (Conger) chance agreement: mean over all ordered pairs of distinct annotators "
    "of the lexelt of P_r . P_r', each annotator's marginal P_r taken over every instance it "
    "labelled in the lexelt, single-rated instances included (Gwet 2014, irrCAC); Pr(A) over "
    "instances with >= 2 annotations"
)


def conger_chance(full: Layout) -> np.ndarray:
    """Per-lexelt ``Pr_x(E)`` of Davies & Fleiss / Conger (Gwet's form), shape ``(X,)``.

    ``Pr_x(E) = (|sum_r P_r|^2 - sum_r |P_r|^2) / (r_x (r_x - 1))``, the mean
    over the ``r_x (r_x - 1)`` ordered pairs of distinct annotators present in
    lexelt ``x`` of ``P_r . P_r'``.  The rule (:data:`CONGER_MARGINAL_RULE`):
    ``P_r`` is rater ``r``'s mean leaf vector over *every* instance of ``x`` it
    annotated, single-rated instances included -- the rule with which irrCAC's
    published values (Ben/Gerry 0.657, g1g2 0.659) follow.  ``full`` is the
    layout before :meth:`Layout.pairable`.  0 where fewer than two raters.
    Vectorised over (lexelt, rater) groups: no loop over raters or instances.
    """
    X = full.n_lexelts
    if full.R == 0:
        return np.zeros(X)
    m = int(full.rater.max()) + 1
    key = full.row_lex * np.int64(m) + full.rater
    leaf = full.onehot_leaf
    if leaf is not None:  # counts: the same values as the weighted sums, in one pass
        K = full.n_leaves
        tot = np.bincount(key * K + leaf, minlength=X * m * K).reshape(X * m, K).astype(np.float64)
    else:
        tot = full.group_sums(key, X * m)
    cnt = np.bincount(key, minlength=X * m).astype(np.float64)
    marg = tot / np.maximum(cnt, 1.0)[:, None]
    present = (cnt > 0).reshape(X, m)
    r_x = present.sum(axis=1).astype(np.float64)
    S = marg.reshape(X, m, -1).sum(axis=1)  # absent raters have zero marginals
    sq = np.einsum("gk,gk->g", marg, marg).reshape(X, m).sum(axis=1)
    pairs = r_x * (r_x - 1.0)
    return np.where(pairs > 0, (np.einsum("xk,xk->x", S, S) - sq) / np.maximum(pairs, 1.0), 0.0)


def multi_rater_agreement(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray, *, n_lexelts: int | None = None,
    layout: Layout | None = None,
) -> MultiRaterAgreement:
    r"""Fleiss' kappa (soft labels) and Davies & Fleiss / Conger's kappa.

    Over the instances with ``m_i >= 2`` annotations (others are left out):

    .. math::

        P_i = \frac{1}{m_i(m_i-1)}\sum_{r\ne r'}\sum_l p_{r,i}(l)p_{r',i}(l),
        \qquad \Pr(A) = \operatorname{mean}_i P_i

    *Fleiss*: ``Pr_x(E) = sum_l pbar_x(l)^2`` with ``pbar_x`` the mean of
    all leaf vectors of lexelt ``x`` (annotation-weighted, Fleiss 1971;
    :data:`FLEISS_MISSING_RULE`).  *Fleiss, Gwet's generalisation*
    (``fleiss_gwet``): ``pbar_x`` replaced by the mean over every annotated
    instance of its share of annotations per leaf (:func:`gwet_fleiss_chance`,
    irrCAC's ``fleiss.kappa.raw``).
    *Conger* (Davies & Fleiss 1982): ``Pr_x(E)`` = mean over all ordered
    pairs of distinct raters of the lexelt of ``sum_l P_r(l) P_r'(l)``, each
    rater with its own marginal ``P_r`` in the lexelt (metrics.md section 3;
    Gwet's form for missing data, irrCAC ``conger.kappa.raw``), see
    :func:`conger_chance` for which instances feed ``P_r``.  For complete
    data this is NLTK ``AnnotationTask.multi_kappa``.  Both ``Pr(E)`` are combined over
    lexelts weighted by their pairable instances, as for pairs; for a single
    lexelt this is exactly the formula of metrics.md section 3.

    ``layout`` (optional) is :func:`make_layout` of these arrays when the
    caller already has it; the other arguments are then not looked at.
    """
    full = layout if layout is not None else make_layout(inst, rater, P, inst_lexelt, n_lexelts=n_lexelts)
    lay = full.pairable()
    X = lay.n_lexelts
    if lay.R == 0:
        empty = chance_corrected(None, None, 0)
        return MultiRaterAgreement(empty, empty, (empty,) * X, (empty,) * X, macro_mean([]), macro_mean([]),
                                   empty, (empty,) * X)
    p_i, s, m_i = _multi_stats(lay)
    n_x = np.diff(lay.lex_segs).astype(np.float64)
    sums = lay.lexelt_sums(np.column_stack([p_i, m_i, s]))
    sa_x, nrow, tot = sums[:, 0], sums[:, 1], sums[:, 2:]
    return _multi_assemble(n_x, sa_x, conger_chance(full) * n_x, nrow, tot, gwet_fleiss_chance(full))


def fleiss_agreement(layout: Layout) -> Agreement:
    """Fleiss' (soft) kappa of :func:`multi_rater_agreement` alone, from a layout.

    The point estimate an interval needs: :func:`multi_rater_agreement`
    without Conger's chance agreement (per (lexelt, rater) marginals), which
    costs as much again and which the caller does not use.
    """
    lay = layout.pairable()
    if lay.R == 0:
        return chance_corrected(None, None, 0)
    p_i, s, m_i = _multi_stats(lay)
    n_x = np.diff(lay.lex_segs).astype(np.float64)
    sums = lay.lexelt_sums(np.column_stack([p_i, m_i, s]))
    return _multi_assemble(n_x, sums[:, 0], np.zeros(lay.n_lexelts), sums[:, 1], sums[:, 2:]).fleiss


def _multi_assemble(
    n_x: np.ndarray, sa_x: np.ndarray, se_x: np.ndarray, nrow: np.ndarray, tot: np.ndarray,
    pe_g: np.ndarray | None = None,
) -> MultiRaterAgreement:
    """Fleiss and Conger from per-lexelt sums: pairable instances ``n_x``, ``sum P_i``, ``sum E_i``,
    annotations ``sum m_i`` and leaf totals ``sum s_i``; ``pe_g`` the per-lexelt chance agreement of
    Gwet's Fleiss (:func:`gwet_fleiss_chance`; ``None``: every instance has the same number of
    annotations, so it is Fleiss')."""
    X = len(n_x)
    pbar = tot / np.maximum(nrow, 1.0)[:, None]
    pe_f = np.einsum("xk,xk->x", pbar, pbar)
    pe_g = pe_f if pe_g is None else pe_g
    den = np.maximum(n_x, 1.0)
    lex_f, lex_c, lex_g = [], [], []
    for x in range(X):
        nx = int(n_x[x])
        lex_f.append(chance_corrected(sa_x[x] / den[x] if nx else None, float(pe_f[x]), nx))
        lex_c.append(chance_corrected(sa_x[x] / den[x] if nx else None, float(se_x[x] / den[x]), nx))
        lex_g.append(chance_corrected(sa_x[x] / den[x] if nx else None, float(pe_g[x]), nx))
    n = int(n_x.sum())
    if n == 0:
        empty = chance_corrected(None, None, 0)
        return MultiRaterAgreement(empty, empty, (empty,) * X, (empty,) * X, macro_mean([]), macro_mean([]),
                                   empty, (empty,) * X)
    obs = float(sa_x.sum()) / n
    fleiss = chance_corrected(obs, float(n_x @ pe_f) / n, n)
    conger = chance_corrected(obs, float(se_x.sum()) / n, n)
    gwet = chance_corrected(obs, float(n_x @ pe_g) / n, n)
    return MultiRaterAgreement(
        fleiss, conger, tuple(lex_f), tuple(lex_c),
        macro_mean([a.kappa for a in lex_f]), macro_mean([a.kappa for a in lex_c]), gwet, tuple(lex_g),
    )
