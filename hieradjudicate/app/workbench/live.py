"""Live figures of the workbench (no Qt): agreement of the current filter, scores, progress.

Agreement is computed by the core metrics on the annotator sets restricted
to the instances of the current filter; scores compare every set with the
gold adjudicated so far (metrics.md sections 3 and 5).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.app.session.batch import annotator_sets, rater_note
from hieradjudicate.app.workbench.live_scores import SetScore, score_keeper
from hieradjudicate.app.workbench.queue import RESOLVED, Workbench
from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.dashboard import all_figures
from hieradjudicate.core.layout_tags import LeafLayout
from hieradjudicate.core.scoring.scoring import score_leaf
from hieradjudicate.core.stats.undefined import Estimate


@dataclass
class AgreementFigures:
    n_instances: int
    fleiss: Estimate
    alpha: Estimate
    mean_cohen: Estimate
    raters: list[str] = field(default_factory=list)
    #: the sets compared and the systems left out, in words (shown with the figures)
    note: str = ""
    #: why no agreement can be computed at all (fewer than two sets to compare), in a sentence; "" else
    reason: str = ""


def live_raters(wb: Workbench, include_systems: bool = False) -> list[int]:
    """The sets the live agreement compares: the annotator sets, plus the systems only when the user
    ticked "count systems as annotators" (see :func:`~hieradjudicate.app.session.batch.annotator_sets`)."""
    return annotator_sets(wb.corpus, include_systems=True) if include_systems else list(wb.cols.annotators)


def filter_long_form(wb: Workbench, instances: np.ndarray | None = None, include_systems: bool = False):
    """Long-form ``inst, rater, P`` of the compared sets on ``instances`` (default: the view).

    The rows come sorted by (lexelt, instance) from the corpus' one shared copy
    (:meth:`~hieradjudicate.core.model.Corpus.layout`), so the metrics' layout
    copies nothing but the subset.
    """
    keep = np.zeros(wb.corpus.n, dtype=bool)
    keep[wb.view if instances is None else instances] = True
    chosen = sorted(set(live_raters(wb, include_systems)))
    lay = wb.corpus.layout(chosen)
    if keep.all():
        return lay.inst, lay.rater, lay.P, chosen
    sel = keep[lay.inst]
    return lay.inst[sel], lay.rater[sel], lay.P[sel], chosen


def filter_layout(wb: Workbench, instances: np.ndarray | None = None, include_systems: bool = False):
    """The layout of the compared sets restricted to ``instances`` (default: the view), and the sets.

    The corpus' shared layout itself when every instance is kept; a crowd's (one leaf per row,
    :class:`~hieradjudicate.core.layout_tags.LeafLayout`) stays compact when restricted: its leaf
    per row is filtered, the dense ``P`` (MASC: 147 MB) is never made.  Equal to the layout the
    metrics make of :func:`filter_long_form` (the rows are already sorted; a subset stays sorted).
    """
    keep = np.zeros(wb.corpus.n, dtype=bool)
    keep[wb.view if instances is None else instances] = True
    chosen = sorted(set(live_raters(wb, include_systems)))
    lay = wb.corpus.layout(chosen)
    if keep.all():
        return lay, chosen
    sel = keep[lay.inst]
    leaf = lay.__dict__.get("onehot_leaf") if isinstance(lay, LeafLayout) else None
    if leaf is not None:
        return LeafLayout.of(lay.inst[sel], lay.rater[sel], leaf[sel], lay.n_leaves, lay.row_lex[sel],
                             lay.n_lexelts), chosen
    return make_layout(lay.inst[sel], lay.rater[sel], lay.P[sel], wb.corpus.inst_lexelt,
                       n_lexelts=lay.n_lexelts), chosen


def agreement_figures(wb: Workbench, instances: np.ndarray | None = None, *,
                      include_systems: bool = False) -> AgreementFigures:
    """Fleiss kappa (soft), Krippendorff's alpha and mean pairwise Cohen kappa of the filter."""
    chosen = sorted(set(live_raters(wb, include_systems)))
    note = rater_note(wb.corpus, live_raters(wb, include_systems), include_systems=include_systems)
    if len(chosen) < 2:  # nothing to compare: said so, never "0 instances" and an empty coefficient
        why = no_agreement_reason(wb, len(chosen), include_systems)
        none = Estimate(None, why)
        return AgreementFigures(0, none, none, none, [wb.corpus.sets[k].name for k in chosen], note, why)
    lay, chosen = filter_layout(wb, instances, include_systems)
    names = [wb.corpus.sets[k].name for k in chosen]
    n = int(lay.seg_inst.size)  # one segment per instance
    figs = all_figures(None, None, None, wb.corpus.inst_lexelt, n_raters=len(chosen),
                       n_lexelts=lay.n_lexelts, layout=lay)
    fleiss, alpha = figs.multi.fleiss.kappa, figs.alpha.alpha
    cohen = figs.pairwise.mean_kappa("cohen")
    return AgreementFigures(n, fleiss, alpha, cohen, names, note)


def no_agreement_reason(wb: Workbench, n_compared: int, include_systems: bool) -> str:
    """Why agreement among annotators cannot be computed with ``n_compared`` (< 2) sets, and what would
    make it computable, in a sentence."""
    sets = wb.corpus.sets
    systems = [s.name for s in sets if s.role == "system"]
    golds = [s.name for s in sets if s.role == "gold"]
    what = "annotator or system sets" if include_systems else "annotator sets"
    text = (f"Agreement among annotators needs at least two {what}; this project has "
            f"{'none' if n_compared == 0 else 'one'}.")
    if systems and not include_systems and len(systems) + n_compared >= 2:
        text += " Tick \u201ccount systems as annotators\u201d to compare the systems with each other."
    if golds:
        text += f" The reference gold ({', '.join(golds)}) is not an annotator: the systems are scored against it."
    return text


def set_scores(wb: Workbench, decided: np.ndarray | None = None,
               gold_leaves: np.ndarray | None = None) -> list[SetScore]:
    """Each set's precision against the gold adjudicated so far (Melamed & Resnik leaf score):
    :func:`full_set_scores`, from the workbench's
    :class:`~hieradjudicate.app.workbench.live_scores.ScoreKeeper`, which rescores only the
    answers to the instances whose gold changed since its last call.

    ``decided`` (the resolved instances) and ``gold_leaves`` (their gold leaf
    regions) default to the workbench's current ones; pass a
    :class:`LiveInputs` snapshot's to compute in another thread.
    """
    if decided is None:
        decided = np.flatnonzero(wb.status == RESOLVED)
    if gold_leaves is None:
        gold_leaves = wb.gold_leaves[decided]
    return score_keeper(wb, wb.corpus).scores(wb.shown_sets(), decided, gold_leaves)


def full_set_scores(wb: Workbench, decided: np.ndarray | None = None,
                    gold_leaves: np.ndarray | None = None) -> list[SetScore]:
    """The definition of :func:`set_scores`: :func:`~hieradjudicate.core.scoring.scoring.score_leaf` of
    every set against the decided instances, computed afresh (one pass per set; the tests compare)."""
    if decided is None:
        decided = np.flatnonzero(wb.status == RESOLVED)
    if gold_leaves is None:
        gold_leaves = wb.gold_leaves[decided]
    out = []
    corpus = wb.corpus
    for k in wb.shown_sets():
        s = corpus.sets[k]
        if decided.size == 0:
            out.append(SetScore(s.name, s.role, None, 0))
            continue
        ok = np.isin(s.rows, decided)
        r = score_leaf(s.leaves_once()[ok], s.rows[ok], gold_leaves, corpus.inst_lexelt,
                       gold_rows=decided, lexelts=corpus.inventory.lexelts,
                       attempted_weight=s.attempted[ok])
        out.append(SetScore(s.name, s.role, r.figures.overall.precision, r.n_scored))
    return out


@dataclass
class LiveInputs:
    """What the live figures depend on, copied from the workbench at one moment.

    The workbench's arrays change in the GUI thread with every decision and
    filter; a snapshot lets another thread compute from a consistent state
    (copying is a few milliseconds at 100,000 instances).  The corpus and the
    table columns never change while a project is open and are not copied.
    """

    view: np.ndarray
    decided: np.ndarray
    gold_leaves: np.ndarray
    with_agreement: bool
    include_systems: bool = False  # the user's choice: systems counted as annotators

    @classmethod
    def of(cls, wb: Workbench, *, with_agreement: bool, include_systems: bool = False) -> LiveInputs:
        decided = np.flatnonzero(wb.status == RESOLVED)
        return cls(wb.view.copy(), decided, wb.gold_leaves[decided], with_agreement, include_systems)


@dataclass
class LiveFigures:
    agreement: AgreementFigures | None  # None when only the scores were asked for
    scores: list[SetScore]


def live_figures(wb: Workbench, inputs: LiveInputs) -> LiveFigures:
    """Agreement of the filter (when asked for) and the scores, from a snapshot only.

    Reads ``wb.corpus`` and ``wb.cols`` (fixed while the project is open) and
    the workbench's long-form cache, so at most one such computation may run
    at a time.
    """
    agreement = (agreement_figures(wb, inputs.view, include_systems=inputs.include_systems)
                 if inputs.with_agreement else None)
    return LiveFigures(agreement, set_scores(wb, inputs.decided, inputs.gold_leaves))
