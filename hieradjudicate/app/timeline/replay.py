"""The decision history as arrays: the adjudication's state after any prefix of it, vectorised.

:class:`~hieradjudicate.app.dashboard.gold.DecisionTracker` keeps the state row by row (one
write into an ``n x K`` array per row: on MASC's 44,682 decisions most of a timeline's time).
:class:`Replay` reads each row once (its instance, status and known tags), computes every row's
gold leaf vector in one pass (:func:`~hieradjudicate.core.inventory.leaves.leaf_vectors`), and keeps only
the latest row per instance (``np.maximum.at`` over each new stretch of rows).  The state it gives
-- status per instance, the gold set with its leaves and tag-set signatures -- follows the
tracker's rules exactly: ``unresolved`` withdraws, only ``resolved`` rows with at least one tag of
the inventory make gold, tags outside the inventory are dropped, several tags share the mass
equally; the tests hold it to the tracker at every point.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hieradjudicate.app.dashboard.gold import RESOLVED, STATUS_NAMES
from hieradjudicate.core.gc_policy import gc_paused
from hieradjudicate.core.inventory.leaves import leaf_vectors, tag_set_signature
from hieradjudicate.core.model import AnnotationSet, Corpus
from hieradjudicate.io.store.records import DecisionRow

_CODE = {name: k for k, name in enumerate(STATUS_NAMES)}


class Replay:
    """``rows`` in the order they take effect; :meth:`advance` to a row, then read the state."""

    def __init__(self, corpus: Corpus, rows: Sequence[DecisionRow]) -> None:
        self.corpus = corpus
        self.rows = rows
        inv, lex = corpus.inventory, corpus.inst_lexelt
        n_rows = len(rows)
        with gc_paused():  # a list or tuple per row and no cycle among them: the collector would walk them
            self.inst = corpus.instance_indices([r.lexelt for r in rows], [r.instance for r in rows])
            code = _CODE.get
            self.code = np.array([code(r.status, 0) for r in rows], np.int64).reshape(-1)
            self.at = [r.decided_at or "" for r in rows]
            counts = np.zeros(n_rows, np.int64)
            nodes: list[int] = []
            lens: list[int] = []
            lookup = inv.lookup
            seen: dict[tuple[int, tuple[str, ...]], list[int]] = {}  # (lexelt, tags) -> nodes: few distinct
            gold = np.flatnonzero((self.code == RESOLVED) & (self.inst >= 0))  # gold rows only
            for j, x in zip(gold.tolist(), lex[self.inst[gold]].tolist()):
                tags = rows[j].tags
                got = seen.get((x, tags))
                if got is None:
                    got = seen[(x, tags)] = [t for t in (lookup(x, tag) for tag in tags) if t >= 0]
                lens.append(len(got))
                nodes.extend(got)
        counts[gold] = np.asarray(lens, np.int64)
        self.ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self.node = np.asarray(nodes, np.int64)
        self.weight = np.repeat(1.0 / np.maximum(counts, 1), counts)
        self.has_gold = counts > 0
        self.leaves = leaf_vectors(inv, self.ptr, self.node, self.weight)
        self.last = np.full(corpus.n, -1, np.int64)
        self.done = 0

    def fork(self) -> Replay:
        """A replay of the same rows back at their start (the rows' arrays shared, not computed again)."""
        other = object.__new__(Replay)
        other.__dict__.update(self.__dict__)
        other.last = np.full(self.corpus.n, -1, np.int64)
        other.done = 0
        return other

    def restore(self, last: np.ndarray, done: int) -> None:
        """Take up the state kept after the first ``done`` rows (``last``: the row in effect per
        instance then, as :attr:`last` held it), so that only the rows after them are replayed."""
        if last.shape != self.last.shape or not 0 <= done <= self.code.size:
            raise ValueError("the kept state does not fit these rows")
        self.last = np.asarray(last, np.int64).copy()
        self.done = int(done)

    def advance(self, stop: int) -> np.ndarray:
        """Take rows up to ``stop`` (exclusive) into account; returns the instances they touch."""
        seg = np.arange(self.done, stop, dtype=np.int64)
        self.done = max(self.done, stop)
        inst = self.inst[seg]
        ok = inst >= 0
        np.maximum.at(self.last, inst[ok], seg[ok])  # rows in order: the latest row per instance
        return np.unique(inst[ok])

    @property
    def status(self) -> np.ndarray:
        """Status code per instance (:data:`STATUS_NAMES`), 0 (unresolved) where nothing was decided."""
        if not self.code.size:  # no decision yet
            return np.zeros(self.corpus.n, np.int64)
        return np.where(self.last >= 0, self.code[np.maximum(self.last, 0)], 0)

    @property
    def n_resolved(self) -> int:
        return int(np.count_nonzero(self.status == RESOLVED))

    def current_rows(self, instances: np.ndarray) -> np.ndarray:
        """The row index in effect for each instance (-1: none)."""
        return self.last[np.asarray(instances, np.int64)]

    def gold_set(self, name: str = "gold") -> AnnotationSet | None:
        """The gold so far, as :meth:`DecisionTracker.gold_set` builds it (None before the first)."""
        if not self.code.size:
            return None
        last = np.maximum(self.last, 0)
        rows = np.flatnonzero((self.last >= 0) & (self.code[last] == RESOLVED) & self.has_gold[last])
        if not rows.size:
            return None
        j = self.last[rows]
        counts = np.diff(self.ptr)[j]
        ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        idx = np.repeat(self.ptr[j] - ptr[:-1], counts) + np.arange(int(ptr[-1]), dtype=np.int64)
        node = self.node[idx]
        gold = AnnotationSet(name, "gold", rows, ptr, node, self.weight[idx], np.ones(rows.size),
                             source="decisions")
        gold.leaves = self.leaves[j]
        gold.signature = tag_set_signature(ptr, node)
        return gold
