"""Each set's precision against the gold adjudicated so far, kept between decisions (no Qt).

The live panel shows, after every decision, each set's Melamed & Resnik leaf precision against
the decisions so far (:func:`~hieradjudicate.app.workbench.live.full_set_scores` is the
definition: :func:`~hieradjudicate.core.scoring.scoring.score_leaf` of every set).  Computed afresh that
is one scoring pass per set -- a crowd's 228 sets took 100-200 ms in the worker after every key
(MASC), and the sets' dense leaf vectors (147 MB) were kept for it.

A decision changes the gold of one instance, and with it the scores of the few answers to that
instance (MASC: 24 of 1.08 M).  :class:`ScoreKeeper` keeps the score of every answer to a decided
instance (in :meth:`~hieradjudicate.core.model.Corpus.answer_index` order: by instance, then set)
and recomputes only the answers to the instances whose gold changed since the last call, from
their tags (no set's leaf vectors are made or kept).  The sums are then taken afresh over the
answers to the decided instances, in that fixed order: the figures depend only on the decisions,
never on the path that led to them, so a keeper updated decision by decision gives bit for bit
what a new keeper gives for the same decisions.  Against ``score_leaf``, whose sums run in
another order, they agree within floating-point rounding (exactly when every score is 0 or 1, as
with a crowd's single labels).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from hieradjudicate.core.inventory.leaves import leaf_vectors
from hieradjudicate.core.model import Corpus


@dataclass
class SetScore:
    name: str
    role: str
    precision: float | None
    n_scored: int


def _rows_of(ptr: np.ndarray, instances: np.ndarray) -> np.ndarray:
    """Positions in the answer index of every answer to ``instances`` (in their order)."""
    start, end = ptr[instances], ptr[instances + 1]
    length = end - start
    total = int(length.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    first = np.cumsum(length) - length
    return np.arange(total, dtype=np.int64) + np.repeat(start - first, length)


class ScoreKeeper:
    """The score of every answer to a decided instance, updated for the instances whose gold changed.

    One keeper per workbench; :meth:`scores` may be called from any thread (one call at a time
    computes, the others wait)."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self._lock = threading.Lock()
        self._key: tuple | None = None
        #: how many answers the last call scored afresh (tests and benchmarks read it)
        self.rescored = 0

    def _setup(self) -> None:
        corpus = self.corpus
        self.ptr, self.set_of, self.row_of = corpus.answer_index()
        sizes = np.array([s.rows.size for s in corpus.sets], dtype=np.int64)
        self.offset = np.concatenate([[0], np.cumsum(sizes)])  # set j's answers: offset[j]:offset[j + 1]
        self.score = np.zeros(int(self.offset[-1]))  # by set, then row; meaningful where decided
        self.decided = np.zeros(corpus.n, dtype=bool)
        self.gold: np.ndarray | None = None  # the gold leaves each kept score was computed with
        S = len(corpus.sets)
        self.n_scored = np.zeros(S, dtype=np.int64)
        self.score_sum = np.zeros(S)
        self.att_sum = np.zeros(S)
        self._key = tuple(map(id, corpus.sets))

    def scores(self, order: list[int], decided: np.ndarray, gold_leaves: np.ndarray) -> list[SetScore]:
        """:class:`SetScore` of the sets ``order`` (indices into ``corpus.sets``) against the gold
        ``gold_leaves`` (bool, one row per instance of ``decided``, sorted instance indices)."""
        decided = np.asarray(decided, dtype=np.int64)
        gold_leaves = np.asarray(gold_leaves, dtype=bool)
        with self._lock:
            self._update(decided, gold_leaves)
            n_scored, score_sum, att_sum = self.n_scored.tolist(), self.score_sum.tolist(), self.att_sum.tolist()
        out = []
        for j in order:
            s = self.corpus.sets[j]
            if decided.size == 0:
                out.append(SetScore(s.name, s.role, None, 0))
                continue
            a = att_sum[j]
            out.append(SetScore(s.name, s.role, score_sum[j] / a if a > 0 else None, n_scored[j]))
        return out

    def _update(self, decided: np.ndarray, gold_leaves: np.ndarray) -> None:
        """Rescore the answers to the instances newly decided or decided otherwise, and sum again
        the sets that answered them or an instance no longer decided."""
        if self._key != tuple(map(id, self.corpus.sets)):
            self._setup()
        if self.gold is None or self.gold.shape[1] != gold_leaves.shape[1]:
            self.gold = np.zeros((self.corpus.n, gold_leaves.shape[1]), dtype=bool)
            self.decided[:] = False
            self.score_sum[:] = self.att_sum[:] = self.n_scored[:] = 0
            touched = np.ones(len(self.corpus.sets), dtype=bool)
        else:
            touched = np.zeros(len(self.corpus.sets), dtype=bool)
        changed = ~self.decided[decided]
        changed |= (self.gold[decided] != gold_leaves).any(axis=1)
        todo = decided[changed]
        now = np.zeros(self.corpus.n, dtype=bool)
        now[decided] = True
        dropped = np.flatnonzero(self.decided & ~now)
        self.rescored = self._rescore(todo, gold_leaves[changed]) if todo.size else 0
        self.gold[todo] = gold_leaves[changed]
        self.decided = now
        touched[self.set_of[_rows_of(self.ptr, np.concatenate([todo, dropped]))]] = True
        for j in np.flatnonzero(touched).tolist():  # the sums of a set depend on its answers only
            s = self.corpus.sets[j]
            on = now[s.rows]
            self.n_scored[j] = int(np.count_nonzero(on))
            self.score_sum[j] = float(self.score[self.offset[j]:self.offset[j + 1]][on].sum())
            self.att_sum[j] = float(np.asarray(s.attempted, dtype=np.float64)[on].sum())

    def _rescore(self, instances: np.ndarray, gold: np.ndarray) -> int:
        """Score every answer to ``instances`` against ``gold`` (their gold leaves); returns how many."""
        rows = _rows_of(self.ptr, instances)
        if rows.size == 0:
            return 0
        length = self.ptr[instances + 1] - self.ptr[instances]
        region = np.repeat(gold, length, axis=0)  # each answer's gold region
        k = self.set_of[rows]
        by_set = np.argsort(k, kind="stable")
        bounds = np.flatnonzero(np.diff(k[by_set])) + 1
        inv = self.corpus.inventory
        for part in np.split(by_set, bounds):
            j = int(k[part[0]])
            s = self.corpus.sets[j]
            r = self.row_of[rows[part]].astype(np.int64)
            if s._leaves is not None or s._inventory is None:  # leaf vectors given (or already held)
                P = s.leaves[r]
            else:  # the rows' leaf vectors from their tags, as leaf_vectors computes the whole set's
                start, end = s.tag_ptr[r], s.tag_ptr[r + 1]
                ptr = np.zeros(r.size + 1, dtype=np.int64)
                np.cumsum(end - start, out=ptr[1:])
                idx = np.arange(int(ptr[-1]), dtype=np.int64) + np.repeat(start - ptr[:-1], end - start)
                P = leaf_vectors(inv, ptr, s.tag_node[idx], s.tag_weight[idx])
            self.score[self.offset[j] + r] = np.einsum("ij,ij->i", P, region[part])
        return int(rows.size)


_KEEPERS_LOCK = threading.Lock()


def score_keeper(owner: object, corpus: Corpus) -> ScoreKeeper:
    """The keeper of ``owner`` (a workbench), made on first use."""
    with _KEEPERS_LOCK:
        keeper = owner.__dict__.get("_score_keeper")
        if keeper is None or keeper.corpus is not corpus:
            keeper = owner.__dict__["_score_keeper"] = ScoreKeeper(corpus)
        return keeper
