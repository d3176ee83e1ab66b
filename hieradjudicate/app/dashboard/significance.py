"""Dashboard figures: paired significance tests between the systems and the regression view.

For every scoring policy the dashboard shows (leaf, fine, coarse, mixed) and every pair of
systems: the difference in P, R and F1 with its paired bootstrap interval, the approximate
randomization p-value on the same metric, McNemar's exact test on per-instance correctness,
Holm's correction over the pairs when there are more than two systems
(:mod:`hieradjudicate.core.compare.significance`).  :meth:`SignificanceView.changes` gives the
instances one system gained and lost against another (the window's gained/lost table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hieradjudicate.app.dashboard.records import Explain
from hieradjudicate.app.paired import ALL, RESAMPLES, SHUFFLES, Settings, group_label, groupings, run_tests
from hieradjudicate.core.compare.comparison import correct_matrix
from hieradjudicate.core.compare.significance import METRICS, PairTest, pairs_of

#: the gold of the tests when it is the decisions marked resolved (else the reference gold's name)
ADJUDICATED = "the adjudicated gold"


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
    tests: dict[str, list[PairTest]]  # policy -> one test per pair (a < b) over every instance, Holm over the pairs
    scores: dict[str, np.ndarray]  # policy -> (systems, gold rows) score, NaN = not answered
    gold_rows: np.ndarray  # corpus instance index of every gold row
    threshold: float
    n: int
    explain: Explain
    #: the gold still being adjudicated: ``{"decided", "open", "by_policy": {policy: {"systems": {name:
    #: {metric: [low, high]}}, "pairs": {(a, b): {metric: {...}}}, "joint": bool}}}``
    #: (:mod:`hieradjudicate.core.scoring.open_range`, :mod:`hieradjudicate.core.scoring.open_range_tree`)
    open_ranges: dict | None = None
    #: policy -> group label ("all instances", "data set senseval2", "part of speech n") -> tests
    groups: dict[str, dict[str, list[PairTest]]] = field(default_factory=dict)
    gold: str = ADJUDICATED  # what the systems are tested against
    settings: Settings = field(default_factory=Settings)
    #: group label (as in ``groups``) -> boolean mask over the gold rows; "all instances" is every row
    group_rows: dict[str, np.ndarray] = field(default_factory=dict)

    def changes(self, policy: str, baseline: int, system: int, group: str | None = None) -> list[Change]:
        """Instances ``system`` gets right and ``baseline`` does not (gained) and the reverse (lost),
        within ``group`` (a label of ``groups``: a data set or a part of speech; default every instance)."""
        s = self.scores[policy]
        c = correct_matrix(s[[baseline, system]], threshold=self.threshold)
        keep = self.group_rows.get(group) if group is not None else None
        if keep is not None:
            c = c & keep[None, :]
        out = []
        for change, mask in (("gained", c[1] & ~c[0]), ("lost", c[0] & ~c[1])):
            for j in np.flatnonzero(mask).tolist():
                out.append(Change(int(self.gold_rows[j]), change, _num(s[baseline, j]), _num(s[system, j])))
        return out


def _num(v: float) -> float | None:
    return None if np.isnan(v) else float(v)


def significance_view(names: list[str], per_policy: dict[str, tuple[np.ndarray, np.ndarray]],
                      gold_rows: np.ndarray, *, threshold: float = 1.0, corpus: Any = None,
                      gold: str = ADJUDICATED, settings: Settings | None = None) -> SignificanceView | None:
    """The paired tests of every pair of systems under each policy, over every gold instance and
    within each data set (the WSD framework's ``ALL``) and part of speech (``corpus`` gives the
    instance ids and lexelts), as ``compare`` runs them (:func:`hieradjudicate.app.paired.run_tests`);
    ``None`` with fewer than two systems.  ``per_policy[policy] = (scores, attempted)``, both
    (systems, gold rows)."""
    if len(names) < 2 or not per_policy:
        return None
    st = settings or Settings(threshold=threshold)
    rows = np.asarray(gold_rows, np.int64)
    groups_of = []
    if corpus is not None:
        ids = np.asarray(corpus.inst_id, dtype=object)
        groups_of = groupings(lambda idx: ids[rows[idx]], rows.size, corpus.inst_lexelt[rows],
                              corpus.inventory.lexelts)
    tests: dict[str, list[PairTest]] = {}
    by: dict[str, dict[str, list[PairTest]]] = {}
    scores: dict[str, np.ndarray] = {}
    for policy, (s, w) in per_policy.items():
        scores[policy] = s
        got = run_tests(s, w, names, groups_of, settings=st)
        tests[policy] = got[ALL][ALL]
        by[policy] = {group_label(g, name): ts for g, per in got.items() for name, ts in per.items()}
    group_rows = {group_label(g.title, name): g.codes == k for g in groups_of for k, name in enumerate(g.names)}
    holm = len(names) > 2
    against = "the same decided instances" if gold == ADJUDICATED else f"every instance of the reference gold {gold}"
    e = Explain("Paired significance tests",
                f"Is the difference between two systems real? For each pair, on {against} (and within each "
                "data set and part of speech): the difference a - b in precision, recall and F1 with a 95% "
                f"paired bootstrap interval ({st.resamples} resamples of the instances), an approximate "
                f"randomization p-value on the same metric ({st.shuffles} shuffles, each swapping the two "
                "systems' answers on every instance with probability 1/2, unanswered ones included) and "
                f"McNemar's exact test on per-instance correctness (score >= {st.threshold}); seed "
                f"{st.seed}, as hieradjudicate compare (the same figures)."
                + (" With more than two systems the p-values are also given after Holm's correction over "
                   "the pairs of each group (p Holm)." if holm else ""),
                "p = (1 + shuffles with |difference| >= |observed|) / (1 + shuffles); McNemar p = "
                "2 P[Bin(b + c, 1/2) <= min(b, c)]",
                n=len(rows), aggregation="pooled over the instances of each group (micro average)",
                note="Soft answers keep their per-instance score (no 0/1 rounding) in the P, R and F1 tests.")
    return SignificanceView(list(names), list(per_policy), tests, scores, rows, st.threshold, len(rows), e,
                            groups=by, gold=gold, settings=st, group_rows=group_rows)


#: how each policy's range of a difference is worked out over the open instances
OPEN_HOW = {"leaf": "over the joint outcomes (the same gold for both systems, every subtree region)",
            "fine": "over the joint outcomes (the same gold for both systems)",
            "coarse": "over the joint outcomes (the same gold for both systems)",
            "mixed": ("from each system's own range (under mixed an answer's credit is capped and not a sum "
                      "over the gold tags: the flag is conservative)")}


def open_ranges(corpus: Any, systems: list[int], names: list[str], gold_rows: np.ndarray,
                per_policy: dict[str, tuple[np.ndarray, np.ndarray]], universe: np.ndarray | None = None,
                top: np.ndarray | None = None) -> dict | None:
    """How far each policy's figures can move with the instances not decided yet (``universe``: the
    instances in view, default all), as ``compare --gold P.hadj`` works them out: each system's range
    and each pair's range of the difference (joint under leaf, fine and coarse -- ``top`` maps a
    sense to its top-level sense -- and from each system's own range under mixed)."""
    from hieradjudicate.core.scoring.open_range import difference_range, normalise, system_range
    from hieradjudicate.core.scoring.open_range_tree import leaf_difference_range

    open_mask = np.ones(corpus.n, bool) if universe is None else np.isin(np.arange(corpus.n), universe)
    open_mask[np.asarray(gold_rows, np.int64)] = False
    n_open, n_dec = int(open_mask.sum()), len(gold_rows)
    if not n_open:
        return None
    open_inst = np.flatnonzero(open_mask)
    out: dict = {"decided": n_dec, "open": n_open, "by_policy": {}}
    for policy, (score, att) in per_policy.items():
        sums, one = [], {"systems": {}, "pairs": {}, "joint": policy != "mixed", "how": OPEN_HOW[policy]}
        for j, k in enumerate(systems):
            s = corpus.sets[k]
            counts = np.diff(s.tag_ptr)
            inst = np.repeat(s.rows, counts)
            keep = open_mask[inst]
            tag = s.tag_node if policy != "coarse" or top is None else top[s.tag_node]
            ans = normalise(inst[keep], tag[keep], s.tag_weight[keep], np.repeat(s.attempted, counts)[keep])
            S, W = float(np.nansum(score[j])), float(att[j].sum())
            sums.append((S, W, ans))
            one["systems"][names[j]] = system_range(S, W, n_dec, ans, n_open)
        leaf = _leaf_open(corpus, systems, sums, open_inst) if policy == "leaf" else None
        for a, b in pairs_of(len(systems)):
            if leaf is not None:
                d = leaf_difference_range(corpus.inventory, corpus.inst_lexelt[open_inst], leaf[a], leaf[b], n_dec)
            elif policy != "mixed":
                d = difference_range(sums[a], sums[b], n_dec, n_open)
            else:
                d = _own_ranges(one["systems"][names[a]], one["systems"][names[b]])
            one["pairs"][(a, b)] = d
        out["by_policy"][policy] = one
    return out


def _leaf_open(corpus: Any, systems: list[int], sums: list, open_inst: np.ndarray) -> list[tuple]:
    """Each system's ``(S, W, P, att)`` with its leaf vectors on the open instances (zeros: no answer)."""
    out = []
    for (S, W, _), k in zip(sums, systems, strict=True):
        s = corpus.sets[k]
        pos = s.position(open_inst)
        P = np.zeros((open_inst.size, corpus.inventory.K))
        att = np.zeros(open_inst.size)
        ok = pos >= 0
        P[ok] = s.leaves[pos[ok]]
        att[ok] = s.attempted[pos[ok]]
        out.append((S, W, P, att))
    return out


def _own_ranges(ra: dict, rb: dict) -> dict:
    """The difference's range from each system's own range (overlapping ranges may flip)."""
    d = {}
    for m in METRICS:
        (a0, a1), (b0, b1) = ra[m], rb[m]
        ok = None not in (a0, a1, b0, b1)
        d[m] = {"observed": None, "low": a0 - b1 if ok else None, "high": a1 - b0 if ok else None,
                "could_flip": bool(a0 < b1 and b0 < a1) if ok else None}
    return d


def table_rows(view: SignificanceView) -> tuple[list[str], list[list]]:
    """One row per policy, group, pair and metric (and McNemar): the dashboard's and the report's table."""
    heads = ["gold", "policy", "group", "a", "b", "test", "a value", "b value", "a - b", "ci low", "ci high", "p",
             "p Holm"]
    rows = []
    for policy in view.policies:
        for group, ts in (view.groups.get(policy) or {ALL: view.tests[policy]}).items():
            for t in ts:
                for m in METRICS:
                    v = t.metrics[m]
                    rows.append([view.gold, policy, group, t.a, t.b, m, v.a, v.b, v.difference, v.low, v.high,
                                 v.p_value, v.p_holm])
                mc = t.mcnemar
                rows.append([view.gold, policy, group, t.a, t.b, "McNemar (correct)", mc.a_only, mc.b_only,
                             mc.a_only - mc.b_only, None, None, mc.p_value, mc.p_holm])
    return heads, rows


__all__ = ["ADJUDICATED", "Change", "RESAMPLES", "SHUFFLES", "SignificanceView", "open_ranges", "significance_view",
           "table_rows"]
