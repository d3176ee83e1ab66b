"""Scores against a reference gold given as input (no Qt).

A set with role ``gold`` in the project is a reference a researcher came to score against (the
framework's ``ALL.gold.key.txt``, a published key).  It is kept apart from the gold being adjudicated
(the decisions marked resolved): both can exist, and every figure here names the reference set it uses.
Each system is scored against each reference gold under the policies ``hieradjudicate score`` has
(leaf: Melamed & Resnik; fine, coarse, mixed: scorer2 with the inventory's tree as the sense map), over
every instance of the reference, with the per-data-set figures of an ``ALL`` key: the same figures as
``hieradjudicate score --gold FILE --system FILE --policy P`` on the project's input files.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.app.dashboard.scores import POLICY_TEXT, TreeCredit, policy_scores, scorable_policies
from hieradjudicate.app.datasets import by_dataset
from hieradjudicate.app.stats import Stats
from hieradjudicate.core.model import Corpus
from hieradjudicate.core.scoring.scoring import corpus_figures

ALL_DATA = ""  # the ``dataset`` of a row over every instance of the reference


@dataclass(frozen=True)
class ReferenceScore:
    """One system's figures against one reference gold under one policy (one data set, or all)."""

    system: str
    gold: str
    policy: str
    dataset: str  # ALL_DATA: every instance of the reference gold
    precision: float | None
    recall: float | None
    coverage: float | None
    f1: float | None
    attempted: float
    total: int


@dataclass
class ReferenceFigures:
    golds: list[str]  # the reference gold sets (role gold), by name
    systems: list[str]  # the sets scored against them
    policies: tuple[str, ...]
    rows: list[ReferenceScore] = field(default_factory=list)
    note: str = ""  # policies left out and why, or why nothing is scored

    def get(self, system: str, policy: str, dataset: str = ALL_DATA, gold: str | None = None
            ) -> ReferenceScore | None:
        for r in self.rows:
            if (r.system, r.policy, r.dataset) == (system, policy, dataset) and (gold is None or r.gold == gold):
                return r
        return None


def reference_golds(corpus: Corpus) -> list[int]:
    return [k for k, s in enumerate(corpus.sets) if s.role == "gold"]


def scored_sets(corpus: Corpus) -> list[int]:
    """The sets scored against a reference gold: the systems (every non-gold set when there is none)."""
    systems = [k for k, s in enumerate(corpus.sets) if s.role == "system"]
    return systems or [k for k, s in enumerate(corpus.sets) if s.role == "annotator"][:12]


def reference_scores(corpus: Corpus, stats: Stats | None = None) -> ReferenceFigures:
    """Every scored set against every reference gold, under each policy the inventory supports."""
    golds, systems = reference_golds(corpus), scored_sets(corpus)
    policies, note = scorable_policies(corpus.inventory)
    out = ReferenceFigures([corpus.sets[g].name for g in golds], [corpus.sets[k].name for k in systems],
                           policies, note=note)
    if not golds or not systems:
        out.note = "no reference gold (a set with role gold) in the project" if not golds else \
            "no system or annotator set to score against the reference gold"
        return out
    stats = stats or Stats(corpus)
    credit = TreeCredit(corpus.inventory) if any(p != "leaf" for p in policies) else None
    inst_ids = np.asarray(corpus.inst_id, dtype=object)
    lexelts = corpus.inventory.lexelts
    for g in golds:
        gold = corpus.sets[g]
        strata = corpus.inst_lexelt[gold.rows]
        per = {policy: instance_scores(corpus, stats, credit, g, systems, policy) for policy in policies}
        for j, k in enumerate(systems):
            s = corpus.sets[k]
            for policy in policies:
                rows, scores, attempted = per[policy]
                score, att = scores[j], attempted[j]
                fig = corpus_figures(score, att, strata, lexelts).overall
                out.rows.append(ReferenceScore(s.name, gold.name, policy, ALL_DATA, fig.precision, fig.recall,
                                               fig.coverage, fig.f1, float(fig.attempted), int(fig.total)))
                for name, d in by_dataset(lambda rr: inst_ids[rr], rows, score, att).items():
                    cov = d["attempted"] / d["total"] if d["total"] else None
                    out.rows.append(ReferenceScore(s.name, gold.name, policy, name, _f(d["precision"]),
                                                   _f(d["recall"]), cov, _f(d["f1"]), d["attempted"], d["total"]))
    return out


def instance_scores(corpus: Corpus, stats: Stats, credit: TreeCredit | None, g: int, systems: list[int],
                    policy: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(rows, score, attempted)`` of ``systems`` against reference gold ``g`` under ``policy``: the
    gold's instances (corpus indices) and the (systems, rows) score (NaN: not answered) and attempted
    matrices -- what the figures above and the paired tests against the reference rest on."""
    gold = corpus.sets[g]
    score = np.full((len(systems), gold.n), np.nan)
    att = np.zeros((len(systems), gold.n))
    if policy == "leaf":
        for j, r in enumerate(stats.scores(systems, g)):
            if not np.array_equal(r.gold_instances, gold.rows):  # the leaf scores are over the gold's rows
                raise AssertionError("leaf scores not over the reference gold's instances")
            score[j], att[j] = r.instance_score, r.instance_attempted
        return gold.rows, score, att
    assert credit is not None
    for j, k in enumerate(systems):
        score[j], att[j] = policy_scores(credit, corpus.sets[k], gold, policy)
    return gold.rows, score, att


def _f(v: float | None) -> float | None:
    return None if v is None else float(v)


_LOCK = threading.Lock()


def cached_reference_scores(holder: object, corpus: Corpus) -> ReferenceFigures:
    """:func:`reference_scores`, computed once per ``holder`` (the workbench): the reference gold and
    the systems are inputs, they do not change while a project is open.  Safe from several threads."""
    with _LOCK:
        got = getattr(holder, "_reference_figures", None)
        if got is None:
            got = reference_scores(corpus)
            setattr(holder, "_reference_figures", got)
        return got


def explain(policy: str) -> str:
    return POLICY_TEXT.get(policy, policy)
