"""Every dashboard figure as a table ``(headers, rows)``: the CSV/JSON exports and the report's tables.

Numbers stay numbers (``None`` for an undefined figure, with the reason in
its own column); instance lists are written as ``lexelt/instance`` ids
separated by spaces, cut at :data:`MAX_LISTED` with the count kept.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hieradjudicate.app.dashboard.records import DashboardData, fnum
from hieradjudicate.core.agreement.granularity import CATEGORY_NAMES

Table = tuple[list[str], list[list[Any]]]
MAX_LISTED = 200
MAX_HARDEST = 1000  # the difficulty table: the most uncertain instances


def instance_list(data: DashboardData, idx: np.ndarray, limit: int = MAX_LISTED) -> str:
    keys = [data.instance_keys(int(i)) for i in idx[:limit]]
    text = " ".join(f"{lx}/{i}" for lx, i in keys)
    return text + (f" ... ({idx.size} in all)" if idx.size > limit else "")


def _column(arr: Any, ia: np.ndarray, ib: np.ndarray) -> list[float | None]:
    """Cells ``arr[ia, ib]`` of a (masked) matrix as floats, ``None`` where masked or NaN."""
    v = np.ma.filled(np.ma.asarray(arr, dtype=float), np.nan)[ia, ib]
    return [None if x != x else x for x in v.tolist()]


_PLAIN = (str, int, type(None))


def _plain(v: Any) -> Any:
    if type(v) in _PLAIN:  # most cells (a crowd's tables have 600,000): nothing to convert
        return v
    if type(v) is float:
        return None if v != v else v
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return fnum(v)
    return v


def tables(data: DashboardData) -> dict[str, Table]:
    """Every table of the dashboard by name (plain Python values: str, int, float, None).

    Made once per :class:`DashboardData` (the report renders them and writes
    them as CSV: a crowd's pairwise table has 25,878 rows); callers must not
    change the lists they get.
    """
    cached = data.__dict__.get("_tables")
    if cached is None:
        out = _tables(data)
        cached = data.__dict__["_tables"] = {k: (h, [[_plain(v) for v in r] for r in rows])
                                             for k, (h, rows) in out.items()}
    return cached


def _tables(data: DashboardData) -> dict[str, Table]:
    out: dict[str, Table] = {}
    hm = data.heatmap
    # every pair at once (a crowd has 25,878): arrays to lists, undefined cells to None
    ia, ib = np.triu_indices(len(hm.names), 1)
    cols = [_column(arr, ia, ib) for arr in (hm.value, hm.observed, hm.expected)]
    counts = hm.category_counts[ia, ib].tolist()
    n = hm.n[ia, ib].tolist()
    rows = [[hm.names[a], hm.names[b], hm.roles[a], hm.roles[b], hm.measure, n[k], cols[0][k], cols[1][k],
             cols[2][k], *counts[k], hm.reasons.get((a, b))]
            for k, (a, b) in enumerate(zip(ia.tolist(), ib.tolist()))]
    out["pairwise"] = (["a", "b", "role_a", "role_b", "measure", "n_shared", "value", "observed", "expected",
                        *CATEGORY_NAMES, "undefined"], rows)

    lb = data.lexelts
    rows = []
    for bar in [*lb.bars, lb.overall]:
        rows.append([bar.lexelt, bar.n, lb.measure, bar.value, bar.low, bar.high, bar.observed, bar.expected,
                     bar.fleiss, bar.conger, bar.alpha, bar.mean_pair, bar.reason])
    rows.append(["(macro mean)", len([x for x in lb.bars if x.value is not None]), lb.measure, lb.macro,
                 None, None, None, None, None, None, None, None, None])
    out["lexelts"] = (["lexelt", "n", "measure", "value", "ci_low", "ci_high", "observed", "expected", "fleiss",
                       "davies_fleiss", "alpha", "mean_pairwise_cohen", "undefined"], rows)

    comp = data.competence
    if comp is not None:
        roles = {k: data.heatmap.roles[j] for j, k in enumerate(data.heatmap.set_indices)}
        out["competence"] = (["set", "role", "labels", "model", "competence", "stderr"],
                             [[comp.names[j], roles.get(k, "annotator"), int(comp.n_labels[j]), comp.model,
                               fnum(comp.competence[j]), fnum(comp.stderr[j])]
                              for j, k in enumerate(comp.set_indices)])
        hard = comp.most_uncertain()[:MAX_HARDEST]
        out["difficulty"] = (["lexelt", "instance", "entropy_bits", "most_probable_sense", "posterior"],
                             [[*data.instance_keys(int(i)), float(comp.entropy[i]), comp.best_label(int(i)),
                               float(comp.best_posterior[i])] for i in hard])
    d = data.depth
    rows = []
    for j, level in enumerate(d.levels):
        for p, (sa, sb) in enumerate(d.pairs):
            rows.append([level, f"{sa}-{sb}", d.measure, fnum(d.pair_values[p, j]), int(d.pair_n[p, j])])
        rows.append([level, "group", d.group_name, d.group_values[j], d.group_n[j]])
    out["depth"] = (["level", "series", "measure", "value", "n"], rows)

    cf = data.confusion
    if cf is not None:
        rows = []
        for r in range(len(cf.labels)):
            for c in range(len(cf.labels)):
                if cf.matrix[r, c] > 0:
                    rows.append([cf.lexelt, "leaves" if cf.depth is None else cf.depth, cf.labels[r],
                                 cf.labels[c], float(cf.matrix[r, c]), cf.glosses[r], cf.glosses[c],
                                 instance_list(data, cf.cell_instances(r, c))])
        out["confusion"] = (["lexelt", "level", f"{cf.a}_sense", f"{cf.b}_sense", "expected_count",
                             f"{cf.a}_gloss", f"{cf.b}_gloss", "instances"], rows)

    out["gold_agreement"] = (["set", "role", "n", "leaf_score", "recall", "kappa_cohen", "kappa_scott",
                              "observed", "expected_cohen", "undefined"],
                             [[g.name, g.role, g.n, g.score, g.recall, g.kappa_cohen, g.kappa_scott, g.observed,
                               g.expected_cohen, g.reason] for g in data.gold_agreement])
    out["system_scores"] = (["system", "policy", "precision", "precision_ci_low", "precision_ci_high", "recall",
                             "recall_ci_low", "recall_ci_high", "coverage", "f1", "cross_entropy",
                             "zero_score_instances", "distance_cost", "attempted", "total"],
                            [[s.system, s.policy, s.precision, *s.precision_ci, s.recall, *s.recall_ci,
                              s.coverage, s.f1, s.cross_entropy, s.zero_scores, s.cost, s.attempted, s.total]
                             for s in data.scores])
    cmp = data.comparison
    if cmp is not None:
        rows = []
        for a in range(len(cmp.names)):
            for b in range(a + 1, len(cmp.names)):
                rows.append([cmp.names[a], cmp.names[b], fnum(cmp.kappa[a, b]), float(cmp.both[a, b]),
                             float(cmp.one[a, b]), float(cmp.neither[a, b])])
        out["system_pairs"] = (["a", "b", "kappa", "both_correct", "one_correct", "both_wrong"], rows)
        out["difficulty"] = (["systems_right", "instances", "share", "instance_ids"],
                             [[k, v, v / cmp.n if cmp.n else None, instance_list(data, cmp.bar_instances[k])]
                              for k, v in enumerate(cmp.histogram)])
        out["best_subsets"] = (["size", "systems", "optimal_combination"],
                               [[len(s), " ".join(s), v] for s, v in cmp.best_subsets])
    if data.significance is not None:
        from hieradjudicate.app.dashboard.significance import table_rows

        heads, rows = table_rows(data.significance)
        out["paired_tests"] = ([h.replace(" ", "_").replace("-", "minus") for h in heads], rows)
    if data.reference is not None:  # a reference gold given as input: the window's first panel
        from hieradjudicate.app.report.reference import score_rows

        out["reference_scores"] = score_rows(data.reference)
    if data.reference_significance:
        from hieradjudicate.app.dashboard.significance import table_rows

        got = [table_rows(v) for v in data.reference_significance.values()]
        out["paired_tests_reference"] = ([h.replace(" ", "_").replace("-", "minus") for h in got[0][0]],
                                         [r for _, rows in got for r in rows])
    pr = data.progress
    out["progress_days"] = (["day", "decisions", "withdrawals", "resolved_at_end", "resolved_share"],
                            [[day, n, w, r, s] for day, n, w, r, s in
                             zip(pr.days, pr.decisions, pr.withdrawals, pr.resolved_at_end, pr.resolved_share)])
    out["status"] = (["status", "instances"], [[k, v] for k, v in pr.status_counts.items()])
    out["remaining"] = (["category", "unresolved_instances", "instance_ids"],
                        [[k, v, instance_list(data, pr.remaining_instances[k])] for k, v in pr.remaining.items()])
    out["flagged"] = (["lexelt", "instance", "status", "tags", "note", "decided_by", "decided_at", "category"],
                      [[f["lexelt"], f["instance"], f["status"], f["tags"], f["note"], f["decided_by"],
                        f["decided_at"], f["category"]] for f in pr.flagged])
    out["notes"] = (["lexelt", "instance", "status", "tags", "note", "decided_by", "decided_at"],
                    [[f["lexelt"], f["instance"], f["status"], f["tags"], f["note"], f["decided_by"],
                      f["decided_at"]] for f in pr.noted])
    return out
