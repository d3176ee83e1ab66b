"""Dashboard figures against the adjudicated gold (5)-(6): recomputed after every decision.

* every set's agreement with the gold (leaf score and kappa);
* system scores under four policies - ``leaf`` (Melamed & Resnik, with
  cross-entropy and distance-weighted cost) and the Senseval policies
  ``fine``, ``coarse``, ``mixed`` derived from the inventory tree (see
  :func:`policy_scores`) - with bootstrap intervals when asked for;
* the Pedersen (2002) system comparison on the leaf scores.
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.app.dashboard.records import (
    Explain,
    GoldAgreementRow,
    ScoreRow,
    SystemComparisonView,
    fnum,
)
from hieradjudicate.core.agreement.pairwise import pairwise_agreement
from hieradjudicate.core.compare.comparison import compare_systems
from hieradjudicate.core.inventory.inventory import Inventory
from hieradjudicate.core.model import AnnotationSet, Corpus
from hieradjudicate.core.scoring.score_bootstrap import bootstrap_scores
from hieradjudicate.core.scoring.scoring import LeafScore, corpus_figures, nearest_gold_distance, score_leaf
from hieradjudicate.core.scoring.senseval import SPLIT_CREDIT

POLICIES = ("leaf", "fine", "coarse", "mixed")
POLICY_TEXT = {
    "leaf": "Melamed & Resnik: score = the answer's leaf mass inside the gold region (leaves under any gold tag)",
    "fine": "Senseval fine: an answer tag earns 1 when it equals a gold tag",
    "coarse": "Senseval coarse: as fine after mapping every tag to its top-level sense",
    "mixed": ("Senseval mixed: 1 for the gold tag or a more specific sense under it; for a less specific "
              "answer the downward probability of the gold tag under it (1/(b1*b2*...))"),
}
SCORE_FORMULA = ("precision = sum of scores / attempted, recall = sum of scores / gold instances, "
                 "coverage = attempted / gold instances, F1 = 2PR / (P + R). " + SPLIT_CREDIT)


NO_HIERARCHY = ("Coarse and mixed scores are left out: the inventory has no sense hierarchy (every sense is "
                "top-level), so both would only repeat the fine score under another name. Give a sense map "
                "or a tree inventory with parents to have them.")


def scorable_policies(inv: Inventory) -> tuple[tuple[str, ...], str]:
    """The policies whose figures mean what their names say, and why any are left out.

    Coarse maps every tag to its top-level sense and mixed credits nesting; in an
    inventory without any parent relation both equal fine (#13: the old dashboard
    printed the fine figure under the coarse label)."""
    if inv.max_depth() >= 2:
        return POLICIES, ""
    return tuple(p for p in POLICIES if p not in ("coarse", "mixed")), NO_HIERARCHY


class TreeCredit:
    """Per-node arrays for the Senseval policies over the compiled inventory."""

    def __init__(self, inv: Inventory) -> None:
        n = inv.n_nodes
        self.depth = inv.node_depth
        D = inv.max_depth()
        self.anc = np.stack([inv.ancestor_at_depth(d) for d in range(1, D + 1)]) if n else np.zeros((0, 0), np.int64)
        self.top = inv.ancestor_at_depth(1)
        cum = np.ones(n)
        for i in range(n):  # pre-order within each lexelt: parents first
            p = inv.node_parent[i]
            if p >= 0:
                cum[i] = cum[p] * inv.downward[i]
        self.cum = cum

    def is_ancestor_or_self(self, anc: np.ndarray, node: np.ndarray) -> np.ndarray:
        return self.anc[self.depth[anc] - 1, node] == anc


def policy_scores(credit: TreeCredit, s: AnnotationSet, gold: AnnotationSet, policy: str
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Per gold instance score (NaN where unanswered) and attempted weight under a Senseval policy.

    An answer tag's weight is its normalised weight times the row's attempted
    share (scorer2: weights are divided by their sum only when it exceeds 1);
    the instance score is ``min(1, sum_a w_a * credit(a))``.
    """
    shared, ig, is_ = np.intersect1d(gold.rows, s.rows, assume_unique=True, return_indices=True)
    score = np.full(gold.n, np.nan)
    att = np.zeros(gold.n)
    if not shared.size:
        return score, att
    na = np.diff(s.tag_ptr)[is_]
    nk = np.diff(gold.tag_ptr)[ig]
    # every answer tag of the aligned rows
    row_of_a = np.repeat(np.arange(shared.size), na)
    a_pos = np.repeat(s.tag_ptr[is_], na) + (np.arange(row_of_a.size) - np.repeat(np.cumsum(na) - na, na))
    # every (answer tag, gold tag) pair of the same instance
    reps = nk[row_of_a]
    pair_a = np.repeat(np.arange(a_pos.size), reps)
    k_off = np.arange(pair_a.size) - np.repeat(np.cumsum(reps) - reps, reps)
    k_pos = gold.tag_ptr[ig][row_of_a[pair_a]] + k_off
    a, k = s.tag_node[a_pos[pair_a]], gold.tag_node[k_pos]
    if policy == "fine":
        c = (a == k).astype(float)
    elif policy == "coarse":
        c = (credit.top[a] == credit.top[k]).astype(float)
    elif policy == "mixed":
        c = np.where(credit.is_ancestor_or_self(k, a), 1.0,
                     np.where(credit.is_ancestor_or_self(a, k), credit.cum[k] / credit.cum[a], 0.0))
    else:
        raise ValueError(f"policy {policy!r}; expected fine, coarse or mixed")
    if policy == "mixed":
        per_a = np.minimum(1.0, np.bincount(pair_a, weights=c, minlength=a_pos.size))
    else:
        per_a = np.zeros(a_pos.size)
        np.maximum.at(per_a, pair_a, c)
    w = s.tag_weight[a_pos] * s.attempted[is_][row_of_a]
    score[ig] = np.minimum(1.0, np.bincount(row_of_a, weights=w * per_a, minlength=shared.size))
    att[ig] = s.attempted[is_]
    return score, att


def restrict_gold(gold: AnnotationSet, keep: np.ndarray | None) -> AnnotationSet:
    if keep is None:
        return gold
    sel = np.flatnonzero(keep[gold.rows])
    if sel.size == gold.n:
        return gold
    counts = np.diff(gold.tag_ptr)[sel]
    ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    idx = np.repeat(gold.tag_ptr[sel], counts) + (np.arange(int(counts.sum())) - np.repeat(ptr[:-1], counts))
    out = AnnotationSet(gold.name, gold.role, gold.rows[sel], ptr, gold.tag_node[idx], gold.tag_weight[idx],
                        gold.attempted[sel], source=gold.source)
    out.leaves = gold.leaves[sel]
    out.signature = gold.signature[sel]
    return out


def gold_agreement(corpus: Corpus, sets: list[int], gold: AnnotationSet
                   ) -> tuple[list[GoldAgreementRow], dict[int, LeafScore]]:
    """Each set's leaf score and kappa against the gold adjudicated so far (5); also the scores."""
    X = len(corpus.inventory.lexelts)
    region = gold.leaves > 0
    out = []
    scores: dict[int, LeafScore] = {}
    for k in sets:
        s = corpus.sets[k]
        shared, ig, is_ = np.intersect1d(gold.rows, s.rows, assume_unique=True, return_indices=True)
        # only the decided rows' leaf vectors, computed from their tags and not kept: a crowd's sets
        # would otherwise each keep all of theirs (MASC: 228 sets, 147 MB) for a few decided rows;
        # score_leaf drops the rows outside the gold, so the shared rows give the same figures
        L = s.leaves_rows(is_)
        pa = pairwise_agreement(L, gold.leaves[ig], corpus.inst_lexelt[shared], n_lexelts=X)
        sc = score_leaf(L, s.rows[is_], region, corpus.inst_lexelt, gold_rows=gold.rows,
                        lexelts=corpus.inventory.lexelts, attempted_weight=s.attempted[is_])
        scores[k] = sc
        ov = sc.figures.overall
        kc = pa.cohen.kappa
        e = Explain(f"{s.name} against the adjudicated gold",
                    f"How well {s.name}'s answers match the decisions made so far ({shared.size} decided "
                    f"instances {s.name} answered).",
                    "leaf score = mean over instances of the answer's mass inside the gold region; "
                    f"kappa (Cohen) = {'(Pr(A) - Pr(E)) / (1 - Pr(E))'} over leaf vectors",
                    pa.cohen.observed, pa.cohen.expected, int(shared.size),
                    "pooled over lexelts (chance within each lexelt, instance-weighted)",
                    value=kc.value, reason=kc.reason)
        out.append(GoldAgreementRow(s.name, s.role, int(shared.size), ov.precision, ov.recall, kc.value,
                                    pa.scott.kappa.value, pa.cohen.observed, pa.cohen.expected, kc.reason, e))
    return out, scores


def leaf_cost(s: AnnotationSet, gold: AnnotationSet, dmin: np.ndarray) -> float | None:
    """Distance-weighted cost ``(1/N) sum_i sum_l p_i(l) d(gold_i, l)`` over the answered gold instances,
    with ``dmin`` the distance of every leaf to the nearest gold leaf per gold row (as in ``score_leaf``)."""
    shared, ig, is_ = np.intersect1d(gold.rows, s.rows, assume_unique=True, return_indices=True)
    if not shared.size:
        return None
    d = dmin[ig]
    return float(np.einsum("ij,ij->i", s.leaves[is_], np.where(np.isinf(d), 0.0, d)).mean())


def system_scores(corpus: Corpus, systems: list[int], gold: AnnotationSet, credit: TreeCredit,
                  dmin: np.ndarray | None, leaf_scores: dict[int, LeafScore], *, n_resamples: int, seed: int = 0,
                  policies: tuple[str, ...] = POLICIES,
                  per_policy: dict[str, tuple[np.ndarray, np.ndarray]] | None = None
                  ) -> tuple[list[ScoreRow], np.ndarray]:
    """Scores of every system under each policy; also the (systems, gold rows) leaf score matrix.

    ``leaf_scores`` are the leaf-policy results of :func:`gold_agreement` (not computed twice);
    ``dmin`` (gold rows x K) the nearest-gold-leaf distances for the cost.  A ``per_policy`` dict
    is filled with every policy's (systems, gold rows) score and attempted matrices (the paired tests).
    """
    rows: list[ScoreRow] = []
    lexelts = corpus.inventory.lexelts
    strata = corpus.inst_lexelt[gold.rows]
    leaf_matrix = np.full((len(systems), gold.n), np.nan)
    for j, k in enumerate(systems):
        s = corpus.sets[k]
        for policy in policies:
            ce = cost = None
            zero = None
            if policy == "leaf":
                r = leaf_scores[k]
                score, att, fig = r.instance_score, r.instance_attempted, r.figures.overall
                ce, zero = r.cross_entropy, r.n_zero
                cost = leaf_cost(s, gold, dmin) if dmin is not None else None
                leaf_matrix[j] = score
            else:
                score, att = policy_scores(credit, s, gold, policy)
                fig = corpus_figures(score, att, strata, lexelts).overall
            if per_policy is not None:
                if policy not in per_policy:
                    per_policy[policy] = (np.full((len(systems), gold.n), np.nan), np.zeros((len(systems), gold.n)))
                per_policy[policy][0][j], per_policy[policy][1][j] = score, att
            pci: tuple[float | None, float | None] = (None, None)
            rci: tuple[float | None, float | None] = (None, None)
            if n_resamples > 0:
                b = bootstrap_scores(np.nan_to_num(score, nan=0.0), att, strata=strata,
                                     n_resamples=n_resamples, seed=seed)
                pci, rci = (b.precision.low, b.precision.high), (b.recall.low, b.recall.high)
            e = Explain(f"{s.name}, {policy} policy", POLICY_TEXT[policy], SCORE_FORMULA, n=gold.n,
                        aggregation="pooled over all decided instances (micro average)", value=fig.precision,
                        note=f"95% bootstrap interval of precision [{pci[0]}, {pci[1]}]" if n_resamples else "")
            rows.append(ScoreRow(s.name, policy, fig.precision, fig.recall, fig.coverage, fig.f1, pci, rci,
                                 ce, zero, cost, fig.attempted, fig.total, e))
    return rows, leaf_matrix


def comparison(corpus: Corpus, systems: list[int], gold: AnnotationSet, leaf_matrix: np.ndarray,
               threshold: float = 1.0) -> SystemComparisonView:
    """Pairwise system kappa, optimal combination and instance difficulty (Pedersen 2002)."""
    names = [corpus.sets[k].name for k in systems]
    lex = corpus.inst_lexelt[gold.rows]
    cmp = compare_systems(leaf_matrix, names=names, threshold=threshold, inst_lexelt=lex,
                          lexelts=corpus.inventory.lexelts)
    hist = [int(v) for v in cmp.difficulty.histogram]
    bars = [gold.rows[cmp.difficulty.n_right == k] for k in range(len(hist))]
    pw = cmp.pairwise
    e = Explain("System comparison (Pedersen 2002)",
                f"An instance is correct for a system when its leaf score is at least {threshold}. "
                "Kappa compares two systems' correct/incorrect patterns; the optimal combination is the "
                "share at least one system gets right; the histogram counts instances by how many systems "
                "get them right (click a bar: list them).",
                "kappa = (Pr(A) - Pr(E)) / (1 - Pr(E)) over the 2x2 correct/incorrect table",
                n=gold.n, aggregation="pooled over all decided instances")
    acc = [None] * len(names) if cmp.accuracy is None else [float(v) for v in cmp.accuracy]
    return SystemComparisonView(names, threshold, acc, pw.kappa, pw.both, pw.one, pw.neither,
                                fnum(cmp.optimal_all), [(s.names, s.optimal) for s in cmp.best_subsets],
                                hist, bars, gold.n, e)


class NearestGold:
    """``d(gold_i, l)`` per instance, recomputed only for instances whose gold tags changed."""

    def __init__(self, n: int, K: int, leaf_dist: np.ndarray) -> None:
        self.leaf_dist = leaf_dist
        self.d = np.zeros((n, max(K, 1)))
        self.sig = np.zeros(n, np.int64)  # gold signature the row was computed for (0 = none)

    def rows(self, gold: AnnotationSet, inst_lexelt: np.ndarray) -> np.ndarray:
        stale = np.flatnonzero(self.sig[gold.rows] != gold.signature)
        if stale.size:
            inst = gold.rows[stale]
            self.d[inst] = nearest_gold_distance(gold.leaves[stale] > 0, inst_lexelt[inst], self.leaf_dist)
            self.sig[inst] = gold.signature[stale]
        return self.d[gold.rows]


__all__ = ["POLICIES", "NearestGold", "TreeCredit", "comparison", "gold_agreement", "leaf_cost", "policy_scores",
           "restrict_gold", "system_scores"]
