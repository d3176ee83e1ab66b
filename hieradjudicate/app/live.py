"""Live figures of the workbench (no Qt): agreement of the current filter, scores, progress.

Agreement is computed by the core metrics on the annotator sets restricted
to the instances of the current filter; scores compare every set with the
gold adjudicated so far (metrics.md sections 3 and 5).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.app.workbench import RESOLVED, Workbench
from hieradjudicate.core.agreement import multi_rater_agreement, pairwise_matrix
from hieradjudicate.core.alpha import krippendorff_alpha
from hieradjudicate.core.scoring import score_leaf
from hieradjudicate.core.undefined import Estimate


@dataclass
class SetScore:
    name: str
    role: str
    precision: float | None
    n_scored: int


@dataclass
class AgreementFigures:
    n_instances: int
    fleiss: Estimate
    alpha: Estimate
    mean_cohen: Estimate
    raters: list[str] = field(default_factory=list)


def filter_long_form(wb: Workbench, instances: np.ndarray | None = None):
    """Long-form ``inst, rater, P`` of the annotator sets on ``instances`` (default: the view)."""
    keep = np.zeros(wb.corpus.n, dtype=bool)
    keep[wb.view if instances is None else instances] = True
    cached = getattr(wb, "_annotator_long_form", None)
    if cached is None:  # the annotations never change while a project is open: concatenate once
        cached = wb.corpus.long_form(sets=wb.cols.annotators)
        wb._annotator_long_form = cached
    inst, rater, P, chosen = cached
    if keep.all():
        return inst, rater, P, chosen
    sel = keep[inst]
    return inst[sel], rater[sel], P[sel], chosen


def agreement_figures(wb: Workbench, instances: np.ndarray | None = None) -> AgreementFigures:
    """Fleiss kappa (soft), Krippendorff's alpha and mean pairwise Cohen kappa of the filter."""
    inst, rater, P, chosen = filter_long_form(wb, instances)
    X = len(wb.corpus.inventory.lexelts)
    lex = wb.corpus.inst_lexelt
    names = [wb.corpus.sets[k].name for k in chosen]
    n = int(np.unique(inst).size)
    fleiss = multi_rater_agreement(inst, rater, P, lex, n_lexelts=X).fleiss.kappa
    alpha = krippendorff_alpha(inst, rater, P, lex, n_lexelts=X).alpha
    cohen = pairwise_matrix(inst, rater, P, lex, n_raters=len(chosen), n_lexelts=X).mean_kappa("cohen")
    return AgreementFigures(n, fleiss, alpha, cohen, names)


def set_scores(wb: Workbench) -> list[SetScore]:
    """Each set's precision against the gold adjudicated so far (Melamed & Resnik leaf score)."""
    decided = np.flatnonzero(wb.status == RESOLVED)
    out = []
    corpus = wb.corpus
    for k in wb.shown_sets():
        s = corpus.sets[k]
        if decided.size == 0:
            out.append(SetScore(s.name, s.role, None, 0))
            continue
        ok = np.isin(s.rows, decided)
        r = score_leaf(s.leaves[ok], s.rows[ok], wb.gold_leaves[decided], corpus.inst_lexelt,
                       gold_rows=decided, lexelts=corpus.inventory.lexelts,
                       attempted_weight=s.attempted[ok])
        out.append(SetScore(s.name, s.role, r.figures.overall.precision, r.n_scored))
    return out
