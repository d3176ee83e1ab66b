"""The adjudication so far, kept incrementally: current status, the gold set, progress by day.

:class:`DecisionTracker` reads decision rows (the whole history once, then
each batch the session saves) and keeps, per instance, the status and the
gold tags of the current decision.  A decision touches a few rows of the
arrays; :meth:`DecisionTracker.gold_set` then builds the adjudicated gold as
an :class:`~hieradjudicate.core.model.AnnotationSet` with a handful of
vectorised gathers, so a dashboard refresh after one decision never walks
the history again.

Only decisions with status ``resolved`` make gold; ``flagged`` and
``skipped`` instances count as not yet adjudicated (and flagged ones are
listed with their notes).  A row with status ``unresolved`` withdraws the
previous decision.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from hieradjudicate.core.arrays import sorted_unique
from hieradjudicate.core.model import AnnotationSet, Corpus, tag_set_signature
from hieradjudicate.io.store.project_store import DecisionRow

#: ``conflict``: a server project's adjudicators differ (not resolved until the lead decides)
STATUS_NAMES = ("unresolved", "resolved", "flagged", "skipped", "conflict")
UNRESOLVED, RESOLVED, FLAGGED, SKIPPED, CONFLICT = 0, 1, 2, 3, 4
_CODE = {name: k for k, name in enumerate(STATUS_NAMES)}


@dataclass(frozen=True)
class DayCount:
    day: str  # YYYY-MM-DD (UTC, from decided_at)
    decisions: int  # rows that set a status (resolved, flagged, skipped)
    withdrawals: int  # rows that made an instance unresolved again (undo)
    resolved_at_end: int  # instances resolved after the day's last row


class DecisionTracker:
    """Current status and gold tags of every instance, updated row by row.

    Parameters
    ----------
    corpus : the project's corpus (instances are matched by lexelt and id).
    rows : decision rows in the order they were saved (``Store.iter_history()``);
        more arrive through :meth:`apply`.
    """

    def __init__(self, corpus: Corpus, rows: Iterable[DecisionRow] = ()) -> None:
        self.corpus = corpus
        n = corpus.n
        inv = corpus.inventory
        self.status = np.zeros(n, np.int8)
        self._nodes = np.full((n, 1), -1, np.int64)  # gold nodes per instance, -1 padding
        self._leaves = np.zeros((n, max(inv.K, 1)))
        self.current: dict[int, DecisionRow] = {}
        self.unknown: list[tuple[str, str, str]] = []  # (lexelt, instance, tag) not in the inventory
        self.unmatched = 0  # rows for instances not in the corpus
        self._days: dict[str, list[int]] = {}
        self.version = 0
        self._gold: tuple[int, AnnotationSet | None] | None = None
        self._n_resolved = 0
        self.apply(rows)

    @property
    def n_resolved(self) -> int:
        return self._n_resolved

    def apply(self, rows: Iterable[DecisionRow]) -> np.ndarray:
        """Take saved rows into account (oldest first); returns the instance indices changed."""
        corpus, inv = self.corpus, self.corpus.inventory
        changed: list[int] = []
        resolved = self._n_resolved
        for row in rows:
            i = corpus.instance_index(row.lexelt, row.instance)
            day = (row.decided_at or "unknown")[:10]
            counts = self._days.setdefault(day, [0, 0, resolved]) if row.status != "conflict" else [0, 0, 0]
            if i < 0:
                self.unmatched += 1
                continue
            was = int(self.status[i])
            if row.status == "unresolved":
                noted = bool(row.note) and row.source != "reopen"  # a note alone: no decision, kept
                counts[1] += int(not noted or was != UNRESOLVED)
                if noted:
                    self.current[i] = row
                else:
                    self.current.pop(i, None)
                self.status[i] = UNRESOLVED
                self._set_gold(i, ())
            else:
                counts[0] += 1
                self.current[i] = row
                self.status[i] = _CODE.get(row.status, UNRESOLVED)
                x = int(corpus.inst_lexelt[i])
                nodes = []
                for t in row.tags:
                    node = inv.lookup(x, t)
                    if node >= 0:
                        nodes.append(node)
                    else:
                        self.unknown.append((row.lexelt, row.instance, t))
                self._set_gold(i, tuple(nodes) if row.status == "resolved" else ())
            resolved += int(self.status[i] == RESOLVED) - int(was == RESOLVED)
            counts[2] = resolved
            changed.append(i)
        self._n_resolved = resolved
        if changed:
            self.version += 1
        return sorted_unique(np.asarray(changed, np.int64))  # (np.unique imports numpy.ma: ~20 ms of an opening)

    def _set_gold(self, i: int, nodes: tuple[int, ...]) -> None:
        inv = self.corpus.inventory
        if len(nodes) > self._nodes.shape[1]:
            grow = np.full((self._nodes.shape[0], len(nodes) - self._nodes.shape[1]), -1, np.int64)
            self._nodes = np.hstack([self._nodes, grow])
        self._nodes[i] = -1
        self._nodes[i, :len(nodes)] = nodes
        self._leaves[i] = 0.0
        for t in nodes:  # uniform over the listed tags (a single tag gets 1)
            a, b = inv.d_ptr[t], inv.d_ptr[t + 1]
            self._leaves[i, inv.d_leaf[a:b]] += inv.d_prob[a:b] / len(nodes)

    def gold_set(self, name: str = "gold") -> AnnotationSet | None:
        """The adjudicated gold so far (resolved instances), or ``None`` before the first one."""
        if self._gold is not None and self._gold[0] == self.version:
            return self._gold[1]
        rows = np.flatnonzero((self.status == RESOLVED) & (self._nodes[:, 0] >= 0))
        gold = None
        if rows.size:
            sub = self._nodes[rows]
            present = sub >= 0
            counts = present.sum(axis=1)
            ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
            node = sub[present]
            weight = np.repeat(1.0 / counts, counts)
            gold = AnnotationSet(name, "gold", rows, ptr, node, weight, np.ones(rows.size),
                                 source="decisions")
            gold.leaves = self._leaves[rows]
            gold.signature = tag_set_signature(ptr, node)
        self._gold = (self.version, gold)
        return gold

    def days(self) -> list[DayCount]:
        """Decisions and withdrawals per day, with the number resolved at the end of each day."""
        return [DayCount(d, c[0], c[1], c[2]) for d, c in sorted(self._days.items())]

    def flagged(self) -> list[tuple[int, DecisionRow]]:
        """Flagged instances with their current decision row (notes included), oldest first."""
        out = [(i, r) for i, r in self.current.items() if r.status == "flagged"]
        return sorted(out, key=lambda t: t[1].id)

    def noted(self) -> list[tuple[int, DecisionRow]]:
        """Every instance with a note (a decision's or a note alone), oldest first."""
        out = [(i, r) for i, r in self.current.items() if r.note]
        return sorted(out, key=lambda t: t[1].id)
