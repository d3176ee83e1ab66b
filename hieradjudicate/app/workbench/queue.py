"""The workbench view-model (no Qt): instance table columns, filters, sort, navigation.

The table is a set of column arrays computed once (:mod:`.wb_columns`); the
view is a numpy index array ``view`` (positions -> instance indices) made by
boolean masks for the structured filters and one vectorised substring search
for free text, then ordered by ``argsort`` of the sort column.  Qt item models
(``gui/instance_model.py``) only read these arrays.

Decisions change two arrays (``status``, ``gold``) at the rows touched; the
view itself is re-made only when a filter or the sort changes, so rows never
jump away under the lexicographer's cursor.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from hieradjudicate.app.dashboard.competence import CompetenceFigures
from hieradjudicate.app.workbench.columns import (
    CATEGORY_ICONS,
    CATEGORY_LABELS,
    LATE_KEYS,
    NO_PAIR,
    Columns,
    compute_columns,
    pair_category,
)
from hieradjudicate.app.workbench.instance_answers import AnswerGroup, LeafVotes, answer_groups, leaf_votes
from hieradjudicate.app.workbench.search import text_mask
from hieradjudicate.app.workbench.suggest import Suggester
from hieradjudicate.core.inventory.labels import is_none_sense, node_short_labels, short_tag
from hieradjudicate.core.model import Corpus
from hieradjudicate.io.store.project_store import DecisionRow

#: ``conflict``: a server project's adjudicators differ (not resolved until the lead decides)
STATUS_NAMES = ("unresolved", "resolved", "flagged", "skipped", "conflict")
UNRESOLVED, RESOLVED, FLAGGED, SKIPPED, CONFLICT = 0, 1, 2, 3, 4
_STATUS_CODE = {name: k for k, name in enumerate(STATUS_NAMES)}
#: how a set's role is written after its name in headers (annotators are the default: nothing added)
ROLE_SHORT = {"system": "system", "gold": "reference gold"}


@dataclass(frozen=True)
class Filter:
    """What the instance table shows.  Empty tuples / ``None`` mean "no restriction"."""

    lexelts: tuple[int, ...] = ()
    categories: tuple[int, ...] = ()
    statuses: tuple[int, ...] = ()
    pair: tuple[int, int] | None = None  # two set indices: instances where these two disagree
    text: str = ""
    has_note: bool = False  # only instances whose decision carries a note
    only: tuple[int, ...] = ()  # instance indices (team mode: those assigned to this adjudicator)


@dataclass(frozen=True)
class ColumnSpec:
    key: str  # "lexelt", "instance", "kwic", "set:<k>", "answers", "category", "agreement", "status", "gold"
    title: str
    tip: str = ""


@dataclass
class Answer:
    """One set's answer for the detail panel."""

    set_index: int
    name: str
    role: str
    tags: list[str]
    weights: list[float]
    glosses: list[str]
    leaves: np.ndarray  # (n_leaves,) leaf vector of the lexelt
    short: list[str] = field(default_factory=list)  # short labels of ``tags`` (core.labels)


@dataclass
class Suggestion:
    """The suggestion shown for an instance (computed by :mod:`hieradjudicate.app.workbench.suggest`)."""

    tags: tuple[str, ...]
    support: int  # annotators who gave exactly these tags
    of: int
    sets: list[str] = field(default_factory=list)
    mass: float = float("nan")  # mean annotator leaf mass inside the tags' region
    reliable: tuple[str, ...] = ()  # the answer of the most reliable annotator
    reliable_set: str = ""
    #: the annotators are being weighed (in the background): ``reliable`` is not known yet, not "none"
    weighing: bool = False
    #: the competence-weighted suggestion: the most probable leaf of the competence model, its posterior
    weighted: tuple[str, ...] = ()
    weighted_posterior: float = float("nan")
    weighted_model: str = ""
    #: other answers the rule cannot tell from ``tags`` (as much of the annotators' mass, as specific, as many
    #: annotators): a tie, the suggestion being the first in project order
    tied: tuple[tuple[str, ...], ...] = ()
    #: the suggested tags that say "none of these" (MASC's sense ``0``): taking it makes no sense the gold
    none_of_these: tuple[str, ...] = ()

    def text(self) -> str:
        head = f"{' '.join(self.tags)}  ({self.support} of {self.of}: {', '.join(self.sets)})"
        if self.weighted:
            head += (f"; competence-weighted ({self.weighted_model}): {' '.join(self.weighted)} "
                     f"(posterior {self.weighted_posterior:.2f})")
        return head


#: a late column's cell while it is computed (``Columns.finish``)
COMPUTING = "computing…"


class Workbench:
    """Instance table state over a corpus and the current decisions.

    Parameters
    ----------
    corpus : the project's corpus.
    rows : the current decision of every decided instance (``DecisionState`` iterates them).
    progress : ``progress(done, total, what)`` hears the parts of computing the columns.
    """

    def __init__(self, corpus: Corpus, rows: Iterable[DecisionRow] = (), *, crowd_threshold: int = 8,
                 progress: Callable[[int, int, str], None] | None = None, late: bool = False) -> None:
        self.corpus = corpus
        self.cols: Columns = compute_columns(corpus, crowd_threshold=crowd_threshold, progress=progress,
                                             late=late)
        n = corpus.n
        self.status = np.zeros(n, np.int8)
        self.gold = np.full(n, "", dtype=object)
        self.source = np.full(n, "", dtype=object)
        self.note = np.full(n, "", dtype=object)
        self.gold_leaves = np.zeros((n, max(corpus.inventory.K, 1)), dtype=bool)
        self.filter = Filter()
        self.sort_key: str | None = None
        self.sort_descending = False
        self._haystack = None
        self._sort_cache: dict[str, np.ndarray] = {}
        self.apply_rows(rows)
        self.view = np.arange(n, dtype=np.int64)
        self.auto_advance = True
        self._suggester: Suggester | None = None  # made on first use
        #: a weighing of the annotators runs elsewhere (the window's background job, see
        #: :meth:`warm_suggestions`): a suggestion meanwhile leaves the most reliable set unknown
        #: (``Suggestion.weighing``) instead of weighing them itself
        self.weighing = False
        #: annotator competence and instance difficulty, once estimated (off the GUI thread: seconds)
        self.competence: CompetenceFigures | None = None

    # ------------------------------------------------------------ columns
    @property
    def crowd(self) -> bool:
        return self.cols.crowd_mode

    @property
    def set_names(self) -> list[str]:
        return self.corpus.set_names()

    def shown_sets(self) -> list[int]:
        """The sets ``1``-``9`` refer to: every set in project order (annotators first)."""
        sets = self.corpus.sets
        key = (id(sets), len(sets), tuple(s.role for s in sets))  # the order of the roles: a crowd's 228
        last = self.__dict__.get("_shown_sets")              # sets were sorted at every instance shown
        if last is None or last[0] != key:
            order = sorted(range(len(sets)), key=lambda k: (("annotator", "system", "gold").index(sets[k].role), k))
            last = self.__dict__["_shown_sets"] = (key, order)
        return list(last[1])

    def columns(self) -> list[ColumnSpec]:
        # Status and Gold sit next to Agreement: they stay in sight at 1024 px however many sets follow
        c = [ColumnSpec("category", "Agreement", f"disagreement category, {self.cols.category_basis}"),
             ColumnSpec("status", "Status"), ColumnSpec("gold", "Gold", "the decided senses (full ids: tooltip)"),
             ColumnSpec("lexelt", "Lexelt"), ColumnSpec("instance", "Instance"),
             ColumnSpec("kwic", "Context", "keyword in context; the head word in [brackets]")]
        if self.crowd:
            c.append(ColumnSpec("answers", "Answers", "each tag and how many chose it"))
        else:
            for j, k in enumerate(self.shown_sets()):
                s = self.corpus.sets[k]
                # "[1] 17", never "1 17": worker ids are often numbers themselves
                key = f"[{j + 1}] " if j < 9 else ""
                role = "" if s.role == "annotator" else f" ({ROLE_SHORT.get(s.role, s.role)})"  # cannot be missed
                tip = f"{s.role} {s.name}" + (f" (key {j + 1} takes its answer)" if j < 9 else "")
                c.append(ColumnSpec(f"set:{k}", f"{key}{s.name}{role}", tip))
        c += [ColumnSpec("agreement", "Leaf agr.", "mean pairwise leaf agreement"),
              ColumnSpec("note", "Note", "the note saved with the decision (E edits it)")]
        return c

    def cell(self, key: str, i: int) -> str:
        """Display text of column ``key`` for instance ``i``."""
        if key in LATE_KEYS and not self.cols.ready:  # being computed (the window's background job)
            return COMPUTING
        if key == "lexelt":
            return self.cols.lexelt_names[int(self.cols.lexelt[i])]
        if key == "instance":
            return self.cols.inst_id[i]
        if key == "kwic":
            return self.cols.kwic[i]
        if key.startswith("set:"):
            return self.cols.set_tags[int(key[4:])][i]
        if key == "answers":
            return self.cols.crowd[i] if self.cols.crowd is not None else ""
        if key == "category":
            c = int(self.cols.category[i])
            return f"{CATEGORY_ICONS[c]} {CATEGORY_LABELS[c]}"
        if key == "agreement":
            a = self.cols.agreement[i]
            return "" if np.isnan(a) else f"{a:.2f}"
        if key == "status":
            return STATUS_NAMES[int(self.status[i])]
        if key == "gold":  # the same short labels as every other column (full ids in the tooltip)
            g = self.gold[i]
            if not g:
                return ""
            x = int(self.cols.lexelt[i])
            return " ".join(short_tag(self.corpus.inventory, x, t) for t in str(g).split())
        if key == "note":
            return str(self.note[i]).replace("\n", " ⏎ ")
        raise KeyError(key)

    # ------------------------------------------------------------ decisions
    def _set_row(self, i: int, row: DecisionRow | None) -> None:
        self.note[i] = (row.note or "") if row is not None else ""
        if row is None or row.status == "unresolved":
            self.status[i], self.gold[i], self.source[i] = UNRESOLVED, "", ""
        else:
            self.status[i] = _STATUS_CODE[row.status]
            self.gold[i] = " ".join(row.tags)
            self.source[i] = row.source
        self.gold_leaves[i] = False
        region = self.gold_region(i)
        self.gold_leaves[i, :region.size] = region

    def apply_rows(self, rows: Iterable[DecisionRow]) -> list[int]:
        """Update status and gold from saved rows; returns the instance indices changed."""
        changed = []
        for r in rows:
            i = self.corpus.instance_index(r.lexelt, r.instance)
            if i >= 0:
                self._set_row(i, r)
                changed.append(i)
        for key in ("status", "gold", "note"):
            self._sort_cache.pop(key, None)
        return changed

    def key_of(self, i: int) -> tuple[str, str]:
        return self.cols.lexelt_names[int(self.cols.lexelt[i])], str(self.cols.inst_id[i])

    # ------------------------------------------------------------ filter and sort
    def set_filter(self, f: Filter | None = None, **changes) -> np.ndarray:
        """Replace the filter (or change some of its fields) and rebuild the view."""
        self.filter = replace(f or self.filter, **changes)
        self._rebuild()
        return self.view

    def mask(self, f: Filter | None = None) -> np.ndarray:
        """Boolean mask of the instances ``f`` (default: the current filter) keeps."""
        f = f or self.filter
        n = self.corpus.n
        m = np.ones(n, dtype=bool)
        if f.lexelts:
            m &= np.isin(self.cols.lexelt, f.lexelts)
        if f.pair is not None:
            cat, _ = pair_category(self.corpus, *f.pair)
            wanted = f.categories or (1, 2, 3)
            m &= np.isin(cat, wanted)
        elif f.categories:
            m &= np.isin(self.cols.category, f.categories)
        if f.statuses:
            m &= np.isin(self.status, f.statuses)
        if f.has_note:
            m &= self.note.astype(bool)
        if f.text.strip():
            m &= self._text_mask(f.text.strip().lower())
        if f.only:
            keep = np.zeros(n, dtype=bool)
            keep[np.asarray(f.only, dtype=np.int64)] = True
            m &= keep
        return m

    def _text_mask(self, needle: str) -> np.ndarray:
        return text_mask(self, needle)

    def set_sort(self, key: str | None, descending: bool = False) -> np.ndarray:
        self.sort_key, self.sort_descending = key, descending
        self._rebuild()
        return self.view

    def _sort_values(self, key: str) -> np.ndarray:
        """A rank array for the column (cached: strings are ranked once)."""
        if key in self._sort_cache:
            return self._sort_cache[key]
        if key == "lexelt":
            v = self.cols.lexelt * (self.corpus.n + 1) + np.arange(self.corpus.n)
        elif key == "category":
            v = self.cols.category.astype(np.int64)
        elif key == "agreement":
            v = np.nan_to_num(self.cols.agreement, nan=-1.0)
        elif key == "status":
            v = self.status.astype(np.int64)
        elif key == "uncertainty":  # most uncertain first; instances without a posterior last
            if self.competence is None:
                raise ValueError("no competence estimate yet: the uncertainty order needs one")
            v = np.nan_to_num(-self.competence.entropy, nan=np.inf)
        elif key == "kwic":  # the whole sentence, not the clipped snippet ("…f the European [Public]…")
            texts = np.full(self.corpus.n, "\U0010ffff", dtype=object)  # no context: last
            for i, c in self.corpus.contexts.items():
                texts[i] = " ".join(c.text.split()).casefold()
            v = np.argsort(np.argsort(texts.astype(str), kind="stable"), kind="stable")
        else:
            strings = np.asarray([self.cell(key, i) for i in range(self.corpus.n)], dtype=object)
            v = np.argsort(np.argsort(strings.astype(str), kind="stable"), kind="stable")
        self._sort_cache[key] = v
        return v

    def _rebuild(self) -> None:
        idx = np.flatnonzero(self.mask())
        if self.sort_key:
            v = self._sort_values(self.sort_key)[idx]
            order = np.argsort(-v if self.sort_descending else v, kind="stable")
            idx = idx[order]
        self.view = idx.astype(np.int64)

    # ------------------------------------------------------------ navigation
    def row_of(self, i: int) -> int:
        """Position of instance ``i`` in the view, or -1."""
        hits = np.flatnonzero(self.view == i)
        return int(hits[0]) if hits.size else -1

    def rows_of(self, instances: np.ndarray) -> np.ndarray:
        """Positions of many instances in the view at once (-1 where an instance is not shown)."""
        instances = np.asarray(instances, dtype=np.int64)
        if instances.size == 0:
            return np.zeros(0, np.int64)
        where = np.full(self.corpus.n, -1, np.int64)
        where[self.view] = np.arange(self.view.size)
        ok = (instances >= 0) & (instances < self.corpus.n)
        out = np.full(instances.size, -1, np.int64)
        out[ok] = where[instances[ok]]
        return out

    def next_unresolved(self, pos: int, step: int = 1) -> int:
        """View position of the next (``step=1``) or previous unresolved instance after ``pos``; -1 if none."""
        if step > 0:
            rest = self.status[self.view[pos + 1:]] == UNRESOLVED
            hit = np.flatnonzero(rest)
            return int(pos + 1 + hit[0]) if hit.size else -1
        start = max(pos, 0)
        rest = self.status[self.view[:start]] == UNRESOLVED
        hit = np.flatnonzero(rest)
        return int(hit[-1]) if hit.size else -1

    # ------------------------------------------------------------ one instance
    def answers(self, i: int) -> list[Answer]:
        """Every set's answer for instance ``i`` (sets in :meth:`shown_sets` order)."""
        inv = self.corpus.inventory
        x = int(self.cols.lexelt[i])
        nl = int(inv.n_leaves[x])
        short = node_short_labels(inv)
        out = []
        answered = self.corpus.answered(i)
        for k in self.shown_sets():
            s = self.corpus.sets[k]
            r = answered.get(k, -1)
            if r < 0:
                out.append(Answer(k, s.name, s.role, [], [], [], np.zeros(nl)))
                continue
            nodes = s.tags_at(r)
            out.append(Answer(k, s.name, s.role, [inv.label(int(t)) for t in nodes],
                              s.weights_at(r).tolist(), [inv.node_gloss[int(t)] for t in nodes],
                              s.leaves_rows(np.array([r]))[0, :nl].copy(), [short[int(t)] for t in nodes]))
        return out

    def tag_tooltip(self, i: int, k: int | None = None) -> str | None:
        """Full keys and glosses of the tags in a cell (set ``k``, or every set), shown short in the table."""
        inv = self.corpus.inventory
        sets = [self.corpus.sets[k]] if k is not None else [self.corpus.sets[j] for j in self.shown_sets()]
        nodes: list[int] = []
        answered = self.corpus.answered(i)
        for s, k in zip(sets, [k] if k is not None else self.shown_sets()):
            r = answered.get(k, -1)
            if r >= 0:
                nodes += [int(t) for t in s.tags_at(r) if int(t) not in nodes]
        short = node_short_labels(inv)
        lines = [f"{short[t]} = {inv.label(t)}" + (f": {inv.node_gloss[t]}" if inv.node_gloss[t] else "")
                 for t in nodes]
        return "\n".join(lines) or None

    def answer_of_key(self, i: int, k: int) -> Answer | None:
        """The answer the ``k``-th key (1-based) takes, or None when there is none.

        With a few sets key ``k`` is the ``k``-th set (a table column); in a crowd it is the ``k``-th
        distinct answer listed for this instance (:meth:`answer_groups`), never an absent worker.
        """
        if self.crowd:
            groups = self.answer_groups(i)
            if not 1 <= k <= min(9, len(groups)):
                return None
            g = groups[k - 1]
            return Answer(g.set_indices[0], g.names[0], self.corpus.sets[g.set_indices[0]].role, list(g.tags),
                          [], list(g.glosses), g.leaves, list(g.short))
        order = self.shown_sets()
        if not 1 <= k <= min(9, len(order)):
            return None
        a = next(a for a in self.answers(i) if a.set_index == order[k - 1])
        return a if a.tags else None

    def answer_groups(self, i: int) -> list[AnswerGroup]:
        """The distinct answers of the sets that answered instance ``i`` (most votes first; voters by
        estimated competence when an estimate exists)."""
        comp = self.competence  # the panels ask thrice per instance shown

        def make() -> list[AnswerGroup]:
            held = self.__dict__.get("_weights")  # each estimate's weights made once, not per instance
            if comp is None:
                weights = None
            elif held is not None and held[0] is comp:
                weights = held[1]
            else:
                weights = {k: float(c) for k, c in zip(comp.set_indices, comp.competence)}
                self.__dict__["_weights"] = (comp, weights)
            return answer_groups(self.corpus, int(i), self.shown_sets(), weights)

        return self._remembered("_groups", int(i), (comp,), make)

    def _remembered(self, name: str, i: int, stamp: tuple, make: Callable[[], Any]) -> Any:
        """``make()`` for instance ``i``, kept for the last two instances asked (the one shown and the
        one the window prepares for the next key) while every item of ``stamp`` is the same object."""
        held = self.__dict__.setdefault(name, {})
        got = held.get(i)
        if got is not None and len(got[0]) == len(stamp) and all(a is b for a, b in zip(got[0], stamp)):
            return got[1]
        value = make()
        held.pop(i, None)
        while len(held) >= 2:
            held.pop(next(iter(held)))
        held[i] = (stamp, value)
        return value

    def leaf_votes(self, i: int, groups: list[AnswerGroup] | None = None) -> LeafVotes:
        """Votes, share and (with an estimate) the competence posterior of each leaf of instance ``i``."""
        nl = int(self.corpus.inventory.n_leaves[int(self.cols.lexelt[i])])
        comp = self.competence
        post = comp.posterior[i] if comp is not None and comp.posterior is not None else None
        if post is not None and not np.isfinite(post[:nl]).all():
            post = None
        return leaf_votes(self.answer_groups(i) if groups is None else groups, nl, post)

    def warm_suggestions(self, progress=None) -> None:
        """Weigh the annotators now (the suggestion's "most reliable" set), telling ``progress`` set by
        set: the first :meth:`suggestion` would otherwise do it in one block (MASC: 2 s, no repaint).
        Safe in a background thread while :attr:`weighing` is set (the suggestions meanwhile do not
        weigh); the suggester is made in the caller's thread by :meth:`start_weighing`."""
        if self._suggester is None:
            self._suggester = Suggester(self.corpus, self.cols.annotators)
        # the annotators' summed leaf vectors the columns computed: the weighing's first pass, not redone
        totals, self.cols.leaf_sums = self.cols.leaf_sums, None
        self._suggester.warm(progress, totals)

    def start_weighing(self) -> None:
        """Before :meth:`warm_suggestions` runs in another thread: from now until :meth:`weighed`,
        a suggestion does not weigh the annotators itself (see :attr:`weighing`)."""
        if self._suggester is None:
            self._suggester = Suggester(self.corpus, self.cols.annotators)
        self.weighing = not self._suggester.weighed

    def weighed(self) -> None:
        """The background weighing ended (or failed: a suggestion then weighs them itself)."""
        self.weighing = False

    def suggestion(self, i: int) -> Suggestion | None:
        """The majority answer of the annotators (see :mod:`hieradjudicate.app.workbench.suggest`)."""
        if self._suggester is None:
            self._suggester = Suggester(self.corpus, self.cols.annotators)
        pending = self.weighing and not self._suggester.weighed
        # the same while the weighing's state and the estimate stay (the annotators' answers do not change)
        stamp = (pending, self._suggester.weighed, self.competence)

        def make() -> Suggestion | None:
            s = self._suggester.one(int(i), weigh=not pending)
            if s is None:
                return None
            out = Suggestion(s.tags, s.votes, s.of, s.sets, s.support, s.reliable_tags, s.reliable_set,
                             weighing=pending and not s.reliable_set, tied=s.tied)
            x = int(self.cols.lexelt[i])
            inv = self.corpus.inventory
            out.none_of_these = tuple(t for t in s.tags if (n := inv.lookup(x, t)) >= 0
                                      and is_none_sense(inv.node_gloss[n]))
            comp = self.competence
            if comp is not None and comp.best_node[i] >= 0:
                out.weighted = (self.corpus.inventory.node_id[int(comp.best_node[i])],)
                out.weighted_posterior = float(comp.best_posterior[i])
                out.weighted_model = comp.model
            return out

        return self._remembered("_suggested", int(i), stamp, make)

    def set_competence(self, comp: CompetenceFigures) -> None:
        """Use an estimate of :func:`~hieradjudicate.app.dashboard.competence.estimate`: suggestions get the
        competence-weighted answer, and the ``uncertainty`` sort key (most uncertain first) exists."""
        self.competence = comp
        self._sort_cache.pop("uncertainty", None)

    def gold_region(self, i: int) -> np.ndarray:
        """Leaves under the current gold tags of instance ``i`` (bool, n_leaves)."""
        inv = self.corpus.inventory
        x = int(self.cols.lexelt[i])
        region = np.zeros(int(inv.n_leaves[x]), dtype=bool)
        for t in str(self.gold[i]).split():
            node = inv.lookup(x, t)
            if node >= 0:
                region[inv.d_leaf[inv.d_ptr[node]:inv.d_ptr[node + 1]]] = True
        return region

    def context(self, i: int):
        return self.corpus.contexts.get(int(i))

    # ------------------------------------------------------------ summaries
    def progress(self, view_only: bool = False) -> dict[str, int]:
        st = self.status[self.view] if view_only else self.status
        counts = np.bincount(st, minlength=len(STATUS_NAMES))
        out = {name: int(counts[k]) for k, name in enumerate(STATUS_NAMES)}
        out["total"] = int(st.size)
        return out

    def remaining_categories(self) -> dict[str, int]:
        """Categories of the unresolved instances (all of the project); empty while the category column
        is being computed (``Columns.ready``)."""
        if not self.cols.ready:
            return {}
        cat = self.cols.category[self.status == UNRESOLVED]
        return {CATEGORY_LABELS[c]: int((cat == c).sum()) for c in (3, 2, 1, 0, NO_PAIR) if (cat == c).any()}
