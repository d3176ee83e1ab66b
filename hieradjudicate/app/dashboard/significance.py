"""Dashboard figures: paired significance tests between the systems and the regression view.

For every scoring policy the dashboard shows (leaf, fine, coarse, mixed) and every pair of
systems: the difference in P, R and F1 with its paired bootstrap interval, the approximate
randomization p-value on the same metric, McNemar's exact test on per-instance correctness,
Holm's correction over the pairs when there are more than two systems
(:mod:`hieradjudicate.core.significance`).  :meth:`SignificanceView.changes` gives the
instances one system gained and lost against another (the window's gained/lost table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hieradjudicate.app.dashboard.records import Explain
from hieradjudicate.core.comparison import correct_matrix
from hieradjudicate.core.significance import METRICS, PairTest, holm_family, paired_test, pairs_of

#: Shuffles and resamples of the dashboard's tests (as ``compare``'s defaults).
SHUFFLES = 10_000
RESAMPLES = 1_000


@dataclass(frozen=True)
class Change:
    """One instance whose correctness differs between a baseline system and another."""

    instance: int  # corpus instance index
    change: str  # "gained" or "lost"
    baseline_score: float | None
    system_score: float | None


@dataclass
class SignificanceView:
    names: list[str]
    policies: list[str]
    tests: dict[str, list[PairTest]]  # policy -> one test per pair (a < b), Holm over the pairs
    scores: dict[str, np.ndarray]  # policy -> (systems, gold rows) score, NaN = not answered
    gold_rows: np.ndarray  # corpus instance index of every gold row
    threshold: float
    n: int
    explain: Explain
    #: the gold still being adjudicated (fine policy): ``{"decided", "open", "systems": {name: {metric:
    #: [low, high]}}, "pairs": {(a, b): {metric: {...}}}}`` (:mod:`hieradjudicate.core.open_range`)
    open_ranges: dict | None = None

    def changes(self, policy: str, baseline: int, system: int) -> list[Change]:
        """Instances ``system`` gets right and ``baseline`` does not (gained) and the reverse (lost)."""
        s = self.scores[policy]
        c = correct_matrix(s[[baseline, system]], threshold=self.threshold)
        out = []
        for change, mask in (("gained", c[1] & ~c[0]), ("lost", c[0] & ~c[1])):
            for j in np.flatnonzero(mask).tolist():
                out.append(Change(int(self.gold_rows[j]), change, _num(s[baseline, j]), _num(s[system, j])))
        return out


def _num(v: float) -> float | None:
    return None if np.isnan(v) else float(v)


def significance_view(names: list[str], per_policy: dict[str, tuple[np.ndarray, np.ndarray]],
                      gold_rows: np.ndarray, *, threshold: float = 1.0, seed: int = 0,
                      shuffles: int = SHUFFLES, resamples: int = RESAMPLES) -> SignificanceView | None:
    """The paired tests of every pair of systems under each policy; ``None`` with fewer than two
    systems.  ``per_policy[policy] = (scores, attempted)``, both (systems, gold rows)."""
    if len(names) < 2 or not per_policy:
        return None
    tests: dict[str, list[PairTest]] = {}
    scores: dict[str, np.ndarray] = {}
    for policy, (s, w) in per_policy.items():
        scores[policy] = s
        c = correct_matrix(s, threshold=threshold)
        tests[policy] = holm_family([
            paired_test(s[a], s[b], w[a], w[b], names=(names[a], names[b]), shuffles=shuffles,
                        resamples=resamples, seed=seed, threshold=threshold, correct_a=c[a], correct_b=c[b])
            for a, b in pairs_of(len(names))])
    holm = len(names) > 2
    e = Explain("Paired significance tests",
                "Is the difference between two systems real? For each pair, on the same decided instances: "
                "the difference a - b in precision, recall and F1 with a 95% paired bootstrap interval "
                f"({resamples} resamples of the instances), an approximate randomization p-value on the same "
                f"metric ({shuffles} shuffles, each swapping the two systems' answers on every instance with "
                "probability 1/2, unanswered ones included) and McNemar's exact test on per-instance "
                f"correctness (score >= {threshold})."
                + (" With more than two systems the p-values are also given after Holm's correction over "
                   "the pairs (p Holm)." if holm else ""),
                "p = (1 + shuffles with |difference| >= |observed|) / (1 + shuffles); McNemar p = "
                "2 P[Bin(b + c, 1/2) <= min(b, c)]",
                n=len(gold_rows), aggregation="pooled over all decided instances (micro average)",
                note="Soft answers keep their per-instance score (no 0/1 rounding) in the P, R and F1 tests.")
    return SignificanceView(list(names), list(per_policy), tests, scores, np.asarray(gold_rows), threshold,
                            len(gold_rows), e)


def open_ranges(corpus: Any, systems: list[int], names: list[str], gold_rows: np.ndarray,
                fine: tuple[np.ndarray, np.ndarray], universe: np.ndarray | None = None) -> dict | None:
    """How far the fine figures can move with the instances not decided yet (``universe``: the
    instances in view, default all): each system's range and each pair's joint range."""
    from hieradjudicate.core.open_range import difference_range, normalise, system_range

    open_mask = np.ones(corpus.n, bool) if universe is None else np.isin(np.arange(corpus.n), universe)
    open_mask[np.asarray(gold_rows, np.int64)] = False
    n_open, n_dec = int(open_mask.sum()), len(gold_rows)
    if not n_open:
        return None
    score, att = fine
    sums, out = [], {"decided": n_dec, "open": n_open, "systems": {}, "pairs": {}}
    for j, k in enumerate(systems):
        s = corpus.sets[k]
        counts = np.diff(s.tag_ptr)
        inst = np.repeat(s.rows, counts)
        keep = open_mask[inst]
        ans = normalise(inst[keep], s.tag_node[keep], s.tag_weight[keep], np.repeat(s.attempted, counts)[keep])
        S, W = float(np.nansum(score[j])), float(att[j].sum())
        sums.append((S, W, ans))
        out["systems"][names[j]] = system_range(S, W, n_dec, ans, n_open)
    for a, b in pairs_of(len(systems)):
        out["pairs"][(a, b)] = difference_range(sums[a], sums[b], n_dec, n_open)
    return out


def table_rows(view: SignificanceView) -> tuple[list[str], list[list]]:
    """One row per policy, pair and metric (and McNemar): the dashboard's and the report's table."""
    heads = ["policy", "a", "b", "test", "a value", "b value", "a - b", "ci low", "ci high", "p", "p Holm"]
    rows = []
    for policy, ts in view.tests.items():
        for t in ts:
            for m in METRICS:
                v = t.metrics[m]
                rows.append([policy, t.a, t.b, m, v.a, v.b, v.difference, v.low, v.high, v.p_value, v.p_holm])
            mc = t.mcnemar
            rows.append([policy, t.a, t.b, "McNemar (correct)", mc.a_only, mc.b_only, mc.a_only - mc.b_only,
                         None, None, mc.p_value, mc.p_holm])
    return heads, rows


__all__ = ["Change", "RESAMPLES", "SHUFFLES", "SignificanceView", "significance_view", "table_rows"]
