"""Agreement figures of the dashboard that do not depend on decisions (1)-(4).

Each function takes the layout of the chosen sets' annotations (sorted by lexelt and instance,
already restricted to the instance selection) and calls the metrics of :mod:`hieradjudicate.core`
- so every number drawn is a number the metrics API gives.  A crowd's layout holds one leaf per
row (:class:`~hieradjudicate.core.layout_tags.LeafLayout`): no figure here makes its dense
``(R, K)`` leaf vectors (MASC: 147 MB).  Results are cached by
:class:`~hieradjudicate.app.dashboard.dashboard.Dashboard`.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from hieradjudicate.app.dashboard.records import (
    Confusion,
    DepthCurve,
    Explain,
    Heatmap,
    LazyCells,
    LazyPoints,
    LexeltBar,
    LexeltBars,
    fnum,
)
from hieradjudicate.app.dashboard.thin import group_thin, pair_thin
from hieradjudicate.core.agreement.layout import Layout
from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.pairwise import pairwise_matrix
from hieradjudicate.core.agreement.alpha import krippendorff_alpha
from hieradjudicate.core.agreement.bootstrap import DEFAULT_SEED, bootstrap_alpha, bootstrap_fleiss
from hieradjudicate.core.dashboard import all_figures
from hieradjudicate.core.agreement.granularity import instance_disagreement, pair_category_counts, rollup
from hieradjudicate.core.inventory.labels import node_short_labels
from hieradjudicate.core.layout_tags import LeafLayout
from hieradjudicate.core.agreement.lexelt_intervals import fleiss_intervals
from hieradjudicate.core.model import Corpus
from hieradjudicate.core.stats.undefined import REASONS

POOLED = ("pooled over lexelts: chance agreement computed within each lexelt and combined "
          "as the instance-weighted mean")
KAPPA_FORMULA = "(Pr(A) - Pr(E)) / (1 - Pr(E))"
PR_A = "Pr(A) = mean over shared instances of sum_l pa(l) pb(l) (leaf vectors)"
PE = {
    "cohen": "Cohen: Pr(E) = sum_l Pa(l) Pb(l), each set's own marginal within the lexelt",
    "scott": "Scott / Siegel & Castellan: Pr(E) = sum_l ((Pa(l) + Pb(l)) / 2)^2, pooled marginal",
}
ALPHA_FORMULA = ("alpha = 1 - D_o / D_e over soft coincidences o(c,k) = sum_i 1/(m_i-1) sum_{r!=r'} "
                 "p_r(c) p_r'(k); D_e within each lexelt, weighted by pairable values")
FLEISS_FORMULA = ("Fleiss (soft): P_i = mean over ordered pairs of raters of sum_l p_r(l) p_r'(l); "
                  "Pr(A) = mean P_i, Pr(E) = sum_l pbar(l)^2 within each lexelt, pbar the mean of the annotations "
                  "of instances with >= 2 (with missing ratings not Gwet's generalisation, irrCAC's, which "
                  "averages each instance's shares over every annotated instance; agree prints both)")
MEASURE_NAMES = {"cohen": "Cohen's kappa", "scott": "Scott's pi (Siegel & Castellan kappa)",
                 "alpha": "Krippendorff's alpha", "fleiss": "Fleiss' kappa (soft)"}


def level_name(depth: int | None) -> str:
    return "leaves" if depth is None else f"depth {depth}"


class PairRows:
    """The rows of each rater of a layout, to make the layout of any pair of raters (its rows in
    layout order) without a pass over every row per pair."""

    def __init__(self, lay: Layout, m: int) -> None:
        self.lay = lay
        self.order = np.argsort(lay.rater, kind="stable")  # each rater's rows, increasing
        self.bounds = np.searchsorted(lay.rater[self.order], np.arange(m + 1))

    def layout(self, a: int, b: int) -> Layout:
        """The layout of raters ``a`` and ``b``: :func:`make_layout` of their rows."""
        o, k = self.order, self.bounds
        rows = np.sort(np.concatenate([o[k[a]:k[a + 1]], o[k[b]:k[b + 1]]]))
        return self.lay.take(rows)

    def alpha(self, a: int, b: int):  # type: ignore[no-untyped-def]
        """Krippendorff's alpha of raters ``a`` and ``b``."""
        return krippendorff_alpha(None, None, None, None, n_lexelts=self.lay.n_lexelts, coincidences=False,
                                  layout=self.layout(a, b))


def shared_counts(corpus: Corpus, sets: list[int]) -> np.ndarray:
    """Instances each pair of ``sets`` shares, ``(m, m)``: one product of the sets' incidence matrix.

    A crowd has most pairs sharing nothing (MASC: 17,664 of 25,878); this
    finds them without intersecting every pair's rows.
    """
    m = len(sets)
    out = np.zeros((m, m), np.int64)
    step = max(1, 4_000_000 // max(m, 1))  # instances per block: the block stays near 16 MB
    rows = [corpus.sets[k].rows for k in sets]
    for lo in range(0, corpus.n, step):
        hi = min(lo + step, corpus.n)
        inc = np.zeros((m, hi - lo), np.float32)  # exact: a block's counts stay below 2**24
        for j, r in enumerate(rows):
            inside = r[(r >= lo) & (r < hi)]
            inc[j, inside - lo] = 1.0
        out += np.rint(inc @ inc.T).astype(np.int64)
    return out


def pair_sharing_most(corpus: Corpus, group: list[int], x: int) -> tuple[tuple[int, int], int]:
    """The pair of ``group`` that answered the most instances of lexelt ``x`` together (ties: the
    first in ``group``'s order) and how many: one product of the sets' incidence on the lexelt."""
    inside = np.flatnonzero(corpus.inst_lexelt == x)
    if not inside.size or len(group) < 2:
        return ((group[0], group[1]) if len(group) >= 2 else (0, 0)), 0
    inc = np.zeros((len(group), inside.size), np.float32)
    for j, k in enumerate(group):
        rows = corpus.sets[k].rows
        pos = np.searchsorted(inside, rows)
        ok = (pos < inside.size) & (inside[np.minimum(pos, inside.size - 1)] == rows)
        inc[j, pos[ok]] = 1.0
    shared = np.rint(inc @ inc.T).astype(np.int64)
    iu = np.triu_indices(len(group), 1)
    best = int(np.argmax(shared[iu]))
    return (group[int(iu[0][best])], group[int(iu[1][best])]), int(shared[iu][best])


def pair_categories(corpus: Corpus, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
    """Shared instances of sets ``a`` and ``b`` and their category (identical ... disjoint)."""
    sa, sb = corpus.sets[a], corpus.sets[b]
    shared, ia, ib = np.intersect1d(sa.rows, sb.rows, assume_unique=True, return_indices=True)
    if not shared.size:
        return shared, np.zeros(0, np.int8)
    _, cat = instance_disagreement(sa.leaves_rows(ia), sb.leaves_rows(ib), sa.signature[ia] == sb.signature[ib])
    return shared, cat


def heatmap(corpus: Corpus, sets: list[int], lay: Layout, measure: str,
            pair_categories, keep: np.ndarray | None, pm=None) -> Heatmap:
    """Pairwise kappa (Cohen or Scott) or alpha of every pair of ``sets`` (1).

    ``pair_categories(a, b)`` (corpus set indices) gives a pair's shared
    instances and categories; it is called only for the cells a user hovers
    or clicks (and for the report's tables), never for all pairs up front.
    ``lay``: the layout of ``sets`` (rater ``j`` = ``sets[j]``); ``pm`` its :func:`pairwise_matrix`
    when the caller has it.
    """
    X = len(corpus.inventory.lexelts)
    lex = corpus.inst_lexelt
    m = len(sets)
    if pm is None:
        pm = pairwise_matrix(None, None, None, lex, n_raters=m, n_lexelts=X, layout=lay)
    names = [corpus.sets[k].name for k in sets]
    reasons: dict[tuple[int, int], str] = {}
    iu = np.triu_indices(m, 1)
    if measure == "alpha":
        value = np.ma.masked_all((m, m))
        observed = np.ma.masked_all((m, m))
        expected = np.ma.masked_all((m, m))
        none_reason = None
        rows = PairRows(lay, m)
        for a, b in zip(*iu):  # a pair sharing nothing has no alpha: one call says why, for all of them
            a, b = int(a), int(b)
            if not pm.n[a, b] and none_reason is not None:
                reasons[(a, b)] = none_reason
                continue
            r = rows.alpha(a, b)
            for arr, v in ((value, r.alpha.value),
                           (observed, None if r.observed_disagreement is None else 1 - r.observed_disagreement),
                           (expected, None if r.expected_disagreement is None else 1 - r.expected_disagreement)):
                if v is not None:
                    arr[a, b] = arr[b, a] = v
            if r.alpha.reason:
                reasons[(a, b)] = r.alpha.reason
                if not pm.n[a, b]:
                    none_reason = r.alpha.reason
    else:
        value = pm.kappa_cohen if measure == "cohen" else pm.kappa_scott
        codes = pm.reason_cohen if measure == "cohen" else pm.reason_scott
        observed = pm.observed
        expected = pm.expected_cohen if measure == "cohen" else pm.expected_scott
        for a, b in zip(*np.nonzero(np.triu(np.asarray(codes) != 0, 1))):
            reasons[(int(a), int(b))] = REASONS[int(codes[a, b])]
    formula = ALPHA_FORMULA if measure == "alpha" else f"{KAPPA_FORMULA}; {PR_A}; {PE[measure]}"

    def pair_data(a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
        shared, cat = pair_categories(sets[a], sets[b])
        if keep is not None:
            sel = keep[shared]
            shared, cat = shared[sel], cat[sel]
        return shared, cat

    def cell(a: int, b: int) -> Explain:
        n_dis = int(hm.pair_counts(a, b)[1:].sum())
        return Explain(
            f"{MEASURE_NAMES[measure]}: {names[a]} vs {names[b]}",
            f"Chance-corrected agreement of {names[a]} and {names[b]} over the instances both "
            f"annotated; {n_dis} of them differ (click: list them).",
            formula, fnum(observed[a, b]), fnum(expected[a, b]), int(pm.n[a, b]), POOLED,
            value=fnum(value[a, b]), reason=reasons.get((a, b)),
            observed_label="1 - D_o" if measure == "alpha" else "observed agreement Pr(A)",
            expected_label="1 - D_e" if measure == "alpha" else "chance agreement Pr(E)")

    exp = Explain(f"Pairwise {MEASURE_NAMES[measure]} of all sets",
                  "Each cell compares two annotation sets (annotators and systems) over the "
                  "instances both answered; the number below is how many. Every annotation is "
                  "first spread over the leaves of its lexelt's sense tree. Between two systems this is "
                  "agreement on the sense chosen; the System comparison's kappa is agreement on being right "
                  "against the gold, another figure.", formula, aggregation=POOLED)
    def all_counts() -> np.ndarray:
        chosen = [corpus.sets[k] for k in sets]
        rows = [s.rows if keep is None else s.rows[keep[s.rows]] for s in chosen]
        sel = [slice(None) if keep is None else keep[s.rows] for s in chosen]
        return pair_category_counts(
            np.concatenate(rows), np.repeat(np.arange(m), [len(r) for r in rows]),
            np.concatenate([s.signature[k] for s, k in zip(chosen, sel)]),
            np.concatenate([s.leaves_once()[k] > 0 for s, k in zip(chosen, sel)]), m)  # none kept (#23)

    def thin(a: int, b: int) -> str:
        if a == b or not pm.n[a, b]:
            return ""
        return pair_thin(lex[pair_data(min(a, b), max(a, b))[0]], X)

    hm = Heatmap(list(sets), names, [corpus.sets[k].role for k in sets], measure, value, pm.n.copy(),
                 observed, expected, reasons, pair_data, exp, LazyCells(m, cell), all_counts,
                 thin_note=group_thin(lay.inst, lex, X), pair_thin=thin)
    return hm


def lexelt_mean_pair(pm, m: int) -> np.ndarray:
    """Each lexelt's mean pairwise Cohen kappa over the pairs defined in it, ``(X,)`` (NaN: none),
    from the per-lexelt sufficient statistics of ``pm`` (``per_lexelt=True``) at once, or as
    ``pm`` kept it (``per_lexelt="mean"``)."""
    if pm.lexelt_mean_cohen is not None:
        return pm.lexelt_mean_cohen
    ln = pm.lexelt_n.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        obs_x = pm.lexelt_sum_a / np.maximum(ln, 1.0)
        pe_x = pm.lexelt_pe_cohen
        k_x = np.where((ln > 0) & (1.0 - pe_x > 1e-12), (obs_x - pe_x) / (1.0 - pe_x), np.nan)
        iu = np.triu_indices(m, 1)
        kp = k_x[:, iu[0], iu[1]]  # (X, pairs): each lexelt's pairwise kappas
        n_def = (~np.isnan(kp)).sum(axis=1)
        return np.where(n_def > 0, np.nansum(kp, axis=1) / np.maximum(n_def, 1), np.nan)


def lexelt_bars(corpus: Corpus, group: list[int], lay: Layout, measure: str, n_resamples: int,
                seed: int = DEFAULT_SEED, figs=None, mean_pair: np.ndarray | None = None) -> LexeltBars:
    """Per-lexelt Fleiss kappa or alpha of the annotator group with bootstrap intervals (2).

    ``lay``: the layout of ``group``'s annotations; ``figs``: its :func:`all_figures`
    (``per_lexelt=True`` or ``"mean"`` unless ``mean_pair``, the :func:`lexelt_mean_pair` of its
    pairwise matrix, is given) when the caller has it.
    """
    X = len(corpus.inventory.lexelts)
    lex = corpus.inst_lexelt
    if figs is None:
        figs = all_figures(None, None, None, lex, n_raters=len(group), n_lexelts=X, per_lexelt="mean",
                           coincidences=False, layout=lay)
    multi, alpha, pm = figs.multi, figs.alpha, figs.pairwise
    names = [corpus.sets[k].name for k in group]
    use_alpha = measure == "alpha"
    boot = bootstrap_alpha if use_alpha else bootstrap_fleiss
    formula = ALPHA_FORMULA if use_alpha else f"{FLEISS_FORMULA}; kappa = {KAPPA_FORMULA}"
    gname = MEASURE_NAMES["alpha" if use_alpha else "fleiss"]

    strata = ""  # how the overall interval was stratified

    def interval(sel: slice | None) -> tuple[float | None, float | None]:
        nonlocal strata
        if n_resamples <= 0:
            return None, None
        if sel is None:
            ci = boot(None, None, None, lex, n_lexelts=X, n_resamples=n_resamples, seed=seed, layout=lay)
            strata = ci.strata
        else:  # one lexelt: the same draws as stratified resampling with the other strata empty
            ci = boot(None, None, None, None, n_lexelts=1, n_resamples=n_resamples, seed=seed,
                      layout=lay.take(sel, one_lexelt=True))
        return ci.low, ci.high

    if mean_pair is None:
        mean_pair = lexelt_mean_pair(pm, len(group))
    bars = []
    shown = [x for x in range(X) if multi.lexelt_fleiss[x].n]
    overall_ci = None
    if n_resamples > 0 and not use_alpha:
        # Fleiss: one stratified resampling gives every lexelt's interval and the overall one
        ov, per = fleiss_intervals(None, None, None, lex, n_lexelts=X, n_resamples=n_resamples, seed=seed,
                                   lexelt_kappas=[f.kappa for f in multi.lexelt_fleiss], layout=lay)
        cis = {x: (per[x].low, per[x].high) if per[x] is not None else (None, None) for x in shown}
        overall_ci = (ov.low, ov.high)
        strata = ov.strata
    else:  # alpha: one bootstrap per lexelt, two at a time (their draws and products release the GIL)
        rows_of = [slice(int(lay.lex_rows[x]), int(lay.lex_rows[x + 1])) for x in shown]
        with ThreadPoolExecutor(max_workers=2) as pool:
            cis = dict(zip(shown, pool.map(interval, rows_of)))
    for x in shown:
        f, c, al = multi.lexelt_fleiss[x], multi.lexelt_conger[x], alpha.lexelt_alpha[x]
        est = al if use_alpha else f.kappa
        lo, hi = cis[x]
        name = corpus.inventory.lexelts[x]
        e = Explain(f"{gname} in {name}", f"Agreement of {', '.join(names)} on the instances of {name} "
                    "that at least two of them annotated (click: filter to this lexelt).", formula,
                    None if use_alpha else f.observed, None if use_alpha else f.expected, f.n,
                    "within one lexelt (its own marginals)", value=est.value, reason=est.reason,
                    note=f"95% bootstrap interval [{_f(lo)}, {_f(hi)}], {n_resamples} resamples"
                    if n_resamples else "")
        bars.append(LexeltBar(name, x, f.n, est.value, lo, hi, f.observed, f.expected, est.reason,
                              f.kappa.value, c.kappa.value, al.value,
                              None if np.isnan(mean_pair[x]) else float(mean_pair[x]), e))
    est = alpha.alpha if use_alpha else multi.fleiss.kappa
    lo, hi = overall_ci if overall_ci is not None else interval(None)
    f = multi.fleiss
    overall_e = Explain(f"{gname}, all lexelts", "The group's agreement over every selected instance.",
                        formula, None if use_alpha else f.observed, None if use_alpha else f.expected,
                        f.n, POOLED, value=est.value, reason=est.reason,
                        note=f"95% bootstrap interval [{_f(lo)}, {_f(hi)}], {n_resamples} resamples, {strata}"
                        if n_resamples else "")
    overall = LexeltBar("(all)", -1, f.n, est.value, lo, hi, f.observed, f.expected, est.reason,
                        f.kappa.value, multi.conger.kappa.value, alpha.alpha.value,
                        pm.mean_kappa("cohen").value, overall_e)
    macro = (alpha.macro_alpha if use_alpha else multi.macro_fleiss).value
    e = Explain(f"{gname} per lexelt", "One bar per lexelt with its 95% BCa bootstrap interval "
                "(instances resampled within the lexelt). Sort by value to find the unreliable lexelts.",
                formula, None if use_alpha else f.observed, None if use_alpha else f.expected, f.n,
                f"per lexelt; the macro mean over lexelts is {_f(macro)}, the pooled figure {_f(est.value)}",
                value=est.value)
    return LexeltBars("alpha" if use_alpha else "fleiss", names, bars, overall, macro, n_resamples, e)


def _f(v: float | None) -> str:
    return "undefined" if v is None else f"{v:.3f}"


def depth_curve(corpus: Corpus, group: list[int], lay: Layout, measure: str, groups_at, *,
                figs=None) -> DepthCurve:
    """Agreement of every pair and of the group at each cut of the tree (3).

    ``lay``: the layout of ``group``'s annotations; ``figs`` (its :func:`all_figures`, for the
    leaves) spares recomputing what the other figures computed; each cut reuses the layout's order
    with rolled-up leaf vectors.  Pairs' explain records are made when a point is hovered.
    """
    X = len(corpus.inventory.lexelts)
    lex = corpus.inst_lexelt
    D = corpus.inventory.max_depth()
    depths: list[int | None] = [*range(1, D), None] if D > 1 else [None]
    names = [corpus.sets[k].name for k in group]
    m = len(group)
    iu = np.triu_indices(m, 1)
    pairs = list(zip(iu[0].tolist(), iu[1].tolist()))
    vals = np.ma.masked_all((len(pairs), len(depths)))
    pn = np.zeros((len(pairs), len(depths)), np.int64)
    pobs = np.full((len(pairs), len(depths)), np.nan)
    pexp = np.full((len(pairs), len(depths)), np.nan)
    gvals: list[float | None] = []
    gn: list[int] = []
    gex: dict[tuple[int, int], Explain] = {}
    use_alpha = measure == "alpha"
    gname = MEASURE_NAMES["alpha" if use_alpha else "fleiss"]
    for j, d in enumerate(depths):
        # the same order, leaf vectors rolled up
        lay_d = lay if d is None else _rolled_layout(lay, *groups_at(d))
        pm = figs.pairwise if (d is None and figs is not None) else \
            pairwise_matrix(None, None, None, lex, n_raters=m, n_lexelts=X, layout=lay_d)
        pn[:, j] = pm.n[iu]
        if use_alpha:
            rows = PairRows(lay_d, m)
            for p, (a, b) in enumerate(pairs):
                v = rows.alpha(a, b).alpha.value if pm.n[a, b] else None
                if v is not None:
                    vals[p, j] = v
        else:
            k = pm.kappa_cohen if measure == "cohen" else pm.kappa_scott
            vals[:, j] = k[iu]
            pobs[:, j] = np.ma.filled(np.ma.asarray(pm.observed, float)[iu], np.nan)
            pexp[:, j] = np.ma.filled(np.ma.asarray(pm.expected_cohen if measure == "cohen"
                                                    else pm.expected_scott, float)[iu], np.nan)
        if use_alpha:
            r = figs.alpha if (d is None and figs is not None) else \
                krippendorff_alpha(None, None, None, lex, n_lexelts=X, coincidences=False, layout=lay_d)
            gv, gobs, gexp, n_g = r.alpha.value, None, None, int(r.alpha.n)
        else:
            mr = (figs.multi if (d is None and figs is not None) else
                  multi_rater_agreement(None, None, None, lex, n_lexelts=X, layout=lay_d)).fleiss
            gv, gobs, gexp, n_g = mr.kappa.value, mr.observed, mr.expected, mr.n
        gvals.append(gv)
        gn.append(n_g)
        gex[(-1, j)] = Explain(f"{gname} of the group at {level_name(d)}", "All annotators together.",
                               ALPHA_FORMULA if use_alpha else FLEISS_FORMULA, gobs, gexp, n_g, POOLED, value=gv)

    def point(p: int, j: int) -> Explain:
        if p < 0:
            return gex[(p, j)]
        a, b = pairs[p]
        return Explain(f"{MEASURE_NAMES[measure]} {names[a]}-{names[b]} at {level_name(depths[j])}",
                       "Both annotations are rolled up to the senses at this depth "
                       "(each leaf's mass goes to its ancestor) before comparing.",
                       ALPHA_FORMULA if use_alpha else KAPPA_FORMULA, fnum(pobs[p, j]), fnum(pexp[p, j]),
                       int(pn[p, j]), POOLED, value=fnum(vals[p, j]))

    e = Explain(f"{MEASURE_NAMES[measure]} against the depth of the sense tree",
                "Agreement when only the distinctions down to a depth count: depth 1 compares the "
                "top-level senses, 'leaves' the finest senses. Where a line drops, annotators agree on "
                "the broad sense but not on the finer one.", KAPPA_FORMULA if not use_alpha else ALPHA_FORMULA,
                aggregation=POOLED)
    return DepthCurve([level_name(d) for d in depths], depths, measure, [(names[a], names[b]) for a, b in pairs],
                      vals, pn, gname, gvals, gn, e, LazyPoints(len(pairs), len(depths), point))


def _rolled_layout(lay: Layout, group: np.ndarray, n_groups: np.ndarray) -> Layout:
    """``lay`` with its leaf vectors rolled up to the groups of a cut (same order).

    When every row is one leaf (a crowd's labels) the rolled-up row is one group of mass 1, and
    the layout is made from each row's group (:class:`LeafLayout`, its segments shared with
    ``lay``): no dense ``(R, G)`` array (MASC: 1.08 M rows, 83 MiB at depth 1), the same figures
    to the last bit."""
    leaf = lay.onehot_leaf
    if leaf is not None and lay.R:
        g = np.asarray(group, np.int64)[lay.row_lex, leaf]
        if bool((g >= 0).all()):
            G = int(np.max(n_groups)) if np.size(n_groups) else 0
            return LeafLayout.like(lay, g, G)
    return lay.with_leaves(rollup(lay.P, lay.row_lex, group, n_groups))


def confusion(corpus: Corpus, a: int, b: int, x: int, depth: int | None, groups_at,
              keep: np.ndarray | None) -> Confusion:
    """Expected confusion matrix of sets ``a``, ``b`` within lexelt ``x`` at ``depth`` (4)."""
    inv = corpus.inventory
    sa, sb = corpus.sets[a], corpus.sets[b]
    shared, ia, ib = np.intersect1d(sa.rows, sb.rows, assume_unique=True, return_indices=True)
    sel = corpus.inst_lexelt[shared] == x
    if keep is not None:
        sel &= keep[shared]
    shared, ia, ib = shared[sel], ia[sel], ib[sel]
    group, n_groups, nodes = groups_at(depth)
    G = int(n_groups[x])
    lexs = np.full(shared.size, x, np.int64)
    pa = rollup(sa.leaves_rows(ia), lexs, group, n_groups)[:, :G]
    pb = rollup(sb.leaves_rows(ib), lexs, group, n_groups)[:, :G]
    C = pa.T @ pb
    ra, rb = pa > 0, pb > 0
    cells = {}
    for r, c in zip(*np.nonzero(C > 0)):
        cells[(int(r), int(c))] = shared[ra[:, r] & rb[:, c]]
    short = node_short_labels(inv)  # sense keys and URIs would not fit a matrix's margins
    labels = [short[int(t)] for t in nodes[x]]
    # the full key goes with the gloss where the label shortened it
    glosses = [inv.node_gloss[int(t)] if short[int(t)] == inv.label(int(t))
               else f"({inv.label(int(t))}) {inv.node_gloss[int(t)]}".strip() for t in nodes[x]]
    n = int(shared.size)
    obs = float(np.trace(C) / n) if n else None
    exp_ = float(C.sum(axis=1) @ C.sum(axis=0) / n**2) if n else None
    lexelt = inv.lexelts[x]
    e = Explain(f"Confusion of {sa.name} (rows) and {sb.name} (columns) in {lexelt}, {level_name(depth)}",
                "Expected count of instances on which one set chose the row sense and the other the column "
                "sense: an annotation spread over several leaves contributes fractions. The diagonal is "
                "agreement; large off-diagonal cells are the senses that get confused.",
                "C[r, c] = sum over shared instances of pa(r) * pb(c); Pr(A) = trace / n, "
                "Pr(E) (Cohen) = sum_r rowsum_r * colsum_r / n^2", obs, exp_, n,
                f"within the lexelt {lexelt}")
    return Confusion(sa.name, sb.name, lexelt, x, depth, labels, glosses, C, n, cells, e)
