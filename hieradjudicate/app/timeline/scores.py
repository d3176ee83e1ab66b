"""Every set's leaf score against the gold so far, kept incrementally over the decision points.

The leaf score of an answer is the mass its leaf vector puts inside the gold region of its
instance (Melamed & Resnik; :func:`~hieradjudicate.core.scoring.scoring.score_leaf`); a set's score
(precision) is the sum of its answers' scores over the gold instances it answered divided by
their attempted weight -- what ``score_leaf`` computes as the overall precision.  Between two
points only the instances with a new decision change their gold, so only their answers are
scored again (MASC: a day's ~1,500 instances x ~24 answers, not 1.08 M answers x 30 points); the
sums per set move by the changed answers' contributions only.  The figures equal ``score_leaf``'s
to the rounding of a different summation order (tested to 1e-12).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hieradjudicate.core.inventory.leaves import leaf_vectors
from hieradjudicate.core.model import AnnotationSet, Corpus


class IncrementalScores:
    """Scores of ``sets`` (corpus indices) against a changing gold; :meth:`update` after each point."""

    def __init__(self, corpus: Corpus, sets: Sequence[int]) -> None:
        self.corpus = corpus
        self.sets = list(sets)
        ptr, k, r = corpus.answer_index()  # every answer, by instance then set
        pos = np.full(len(corpus.sets), -1, np.int64)
        pos[self.sets] = np.arange(len(self.sets))
        j = pos[k.astype(np.int64)]
        keep = j >= 0
        self.inst = np.repeat(np.arange(corpus.n, dtype=np.int64), np.diff(ptr))[keep]
        self.j = j[keep]
        self.row = r.astype(np.int64)[keep]
        self.ptr = np.concatenate([[0], np.cumsum(np.bincount(self.inst, minlength=corpus.n))])
        # each answer's attempted weight and only tag, gathered from every set's rows laid end to end
        # (one gather over the answers, not one scattered write per set: 228 sets of a crowd)
        chosen = [corpus.sets[kk] for kk in self.sets]
        first = np.zeros(len(chosen) + 1, np.int64)
        np.cumsum([len(st.attempted) for st in chosen], out=first[1:])
        g = first[self.j] + self.row  # the answer's row among all of them
        self.att = _joined([np.asarray(st.attempted, np.float64) for st in chosen], np.float64)[g]
        # each answer's only tag where its row has one tag of weight 1 in a set whose leaf vectors are
        # computed from its tags (a crowd's every answer): scored in one leaf_vectors call per point
        # with no gather per set; -1: through the set (several tags, or leaf vectors held)
        dtype = np.int32 if corpus.inventory.n_nodes < 2**31 else np.int64
        self.single = _joined([_single_tags(st, corpus.inventory) for st in chosen], dtype)[g].astype(dtype)
        self.score = np.zeros(self.j.size)
        self.counted = np.zeros(self.j.size, bool)  # the answer's instance is in the gold
        m = len(self.sets)
        self.sums, self.atts, self.n = np.zeros(m), np.zeros(m), np.zeros(m, np.int64)

    def _answers(self, instances: np.ndarray) -> np.ndarray:
        lens = self.ptr[instances + 1] - self.ptr[instances]
        start = np.repeat(self.ptr[instances], lens)
        return start + (np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens))

    def update(self, gold: AnnotationSet | None, changed: np.ndarray) -> None:
        """Score again the answers of the ``changed`` instances against ``gold`` (None: no gold), and
        move their contributions in the per-set sums (out with the old score, in with the new)."""
        if not changed.size:
            return
        idx = self._answers(np.asarray(changed, np.int64))
        m = len(self.sets)
        old = idx[self.counted[idx]]
        self.sums -= np.bincount(self.j[old], weights=self.score[old], minlength=m)
        self.atts -= np.bincount(self.j[old], weights=self.att[old], minlength=m)
        self.n -= np.bincount(self.j[old], minlength=m)
        self.counted[idx] = False
        idx = self._score(gold, idx)
        if not idx.size:
            return
        jj = self.j[idx]
        self.sums += np.bincount(jj, weights=self.score[idx], minlength=m)
        self.atts += np.bincount(jj, weights=self.att[idx], minlength=m)
        self.n += np.bincount(jj, minlength=m)

    def _score(self, gold: AnnotationSet | None, idx: np.ndarray) -> np.ndarray:
        """Score the answers ``idx`` against ``gold`` and mark those on a gold instance counted;
        returns them (the sums are the caller's)."""
        if gold is None or not gold.n or not idx.size:
            return idx[:0]
        g = np.searchsorted(gold.rows, self.inst[idx])
        g = np.minimum(g, gold.n - 1)
        hit = gold.rows[g] == self.inst[idx]
        idx, g = idx[hit], g[hit]
        if not idx.size:
            return idx
        region = gold.leaves[g] > 0
        node = self.single[idx]
        one = node >= 0
        if one.any():  # answers of one tag: their leaf vectors from their tags, in one call
            m = int(one.sum())
            P = leaf_vectors(self.corpus.inventory, np.arange(m + 1, dtype=np.int64), node[one].astype(np.int64),
                             np.ones(m))
            self.score[idx[one]] = np.einsum("ij,ij->i", P, region[one])
        if not one.all():  # the others through their sets, every set's in one computation (Corpus.leaves_of)
            rest = np.flatnonzero(~one)
            jj = self.j[idx[rest]]
            order = rest[np.argsort(jj, kind="stable")]  # each set's answers as one slice (no mask per set)
            us, starts = np.unique(self.j[idx[order]], return_index=True)
            ends = np.append(starts[1:], order.size)
            rows = [self.row[idx[order[a:b]]] for a, b in zip(starts.tolist(), ends.tolist())]
            P = self.corpus.leaves_of([self.sets[u] for u in us.tolist()], rows)
            self.score[idx[order]] = np.einsum("ij,ij->i", np.concatenate(P), region[order])
        self.counted[idx] = True
        return idx

    def restore(self, sums: np.ndarray, atts: np.ndarray, n: np.ndarray, gold: AnnotationSet | None,
                instances: np.ndarray, whole: Sequence[int] = ()) -> None:
        """Take up per-set sums kept at an earlier point whose gold was ``gold``; the answers of
        ``instances`` (those the rows after that point touch) get their scores against it, so that
        :meth:`update` can move them out, and so do all the answers of the sets ``whole`` (positions
        in ``sets``: those whose per-instance scores make an interval).  No other answer is read."""
        self.sums, self.atts = np.array(sums, np.float64), np.array(atts, np.float64)
        self.n = np.array(n, np.int64)
        idx = self._answers(np.asarray(instances, np.int64))
        if len(whole):
            idx = np.union1d(idx, np.flatnonzero(np.isin(self.j, np.asarray(whole, np.int64))))
        self._score(gold, idx)

    def figures(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(score sum, attempted sum, answered count)`` per set over the gold instances."""
        return self.sums, self.atts, self.n

    def instance_scores(self, u: int, gold: AnnotationSet) -> tuple[np.ndarray, np.ndarray]:
        """Set ``u``'s score and attempted weight per gold row (0 where it gave no answer)."""
        s, a = np.zeros(gold.n), np.zeros(gold.n)
        sel = self.j == u
        g = np.searchsorted(gold.rows, self.inst[sel])
        g = np.minimum(g, gold.n - 1)
        hit = gold.rows[g] == self.inst[sel]
        s[g[hit]] = self.score[sel][hit]
        a[g[hit]] = self.att[sel][hit]
        return s, a


def _joined(parts: list[np.ndarray], dtype: type) -> np.ndarray:
    return np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype)


def _single_tags(st: AnnotationSet, inventory: Any) -> np.ndarray:
    """Per row of ``st``: its only tag's node where it has one tag of weight 1 and the set's leaf
    vectors are computed from its tags, else -1."""
    out = np.full(len(st.attempted), -1, np.int64)
    if st.leaves_from_tags(inventory):
        a = np.asarray(st.tag_ptr, np.int64)
        one = np.flatnonzero(a[1:] - a[:-1] == 1)
        one = one[np.asarray(st.tag_weight)[a[one]] == 1.0]
        out[one] = np.asarray(st.tag_node)[a[one]]
    return out
