"""The systems against a reference gold given as input, for the dashboard and the report (no Qt):
their scores (:func:`hieradjudicate.app.workbench.reference.reference_scores`, the window's
reference panel) and the paired tests between them over every instance of the reference, within
each data set of the WSD framework's ``ALL`` files and each part of speech -- the tests ``compare
--gold KEY --system A --system B`` runs, with the same settings (#31 item 2).  The reference and the
systems are inputs: computed once per project, whatever the decisions."""

from __future__ import annotations

from typing import Any

from hieradjudicate.app.dashboard.scores import TreeCredit, scorable_policies
from hieradjudicate.app.dashboard.significance import SignificanceView, significance_view
from hieradjudicate.app.paired import Settings
from hieradjudicate.app.stats import Stats
from hieradjudicate.app.workbench.reference import (
    ReferenceFigures,
    cached_reference_scores,
    instance_scores,
    reference_golds,
    reference_scores,
    scored_sets,
)
from hieradjudicate.core.model import Corpus


def reference_view(corpus: Corpus, settings: Settings | None = None, holder: object | None = None
                   ) -> tuple[ReferenceFigures | None, dict[str, SignificanceView]]:
    """``(scores against every reference gold, {reference gold name: paired tests})``; ``(None, {})``
    without a set of role gold.  A reference with fewer than two systems has no tests (none listed).
    ``holder``: where the scores are kept once computed (the window's reference panel shares them)."""
    golds = reference_golds(corpus)
    if not golds:
        return None, {}
    stats = Stats(corpus)
    figures = reference_scores(corpus, stats) if holder is None else cached_reference_scores(holder, corpus)
    systems = [k for k, s in enumerate(corpus.sets) if s.role == "system"]
    tests: dict[str, SignificanceView] = {}
    if len(systems) < 2 or systems != scored_sets(corpus):
        return figures, tests
    policies = scorable_policies(corpus.inventory)[0]
    credit = TreeCredit(corpus.inventory) if any(p != "leaf" for p in policies) else None
    names = [corpus.sets[k].name for k in systems]
    for g in golds:
        per: dict[str, Any] = {}
        rows = None
        for policy in policies:
            rows, score, att = instance_scores(corpus, stats, credit, g, systems, policy)
            per[policy] = (score, att)
        view = significance_view(names, per, rows, corpus=corpus, gold=corpus.sets[g].name, settings=settings)
        if view is not None:
            tests[corpus.sets[g].name] = view
    return figures, tests


__all__ = ["reference_view"]
