"""Annotation sets and the corpus: every answer as a leaf vector, computed in one step.

A :class:`Corpus` holds the compiled :class:`~hieradjudicate.core.inventory.inventory.Inventory`,
the instances (lexelt + id) and the annotation sets.  An :class:`AnnotationSet`
stores, for the instances it annotated (``rows``, sorted global instance
indices), its tags as CSR arrays of global nodes with normalised weights, and
the leaf vectors ``leaves`` (len(rows) x K) computed by one sparse expansion of
the ``D(t)`` matrix, never per instance -- for a set the builder made, on first
use (``agree`` lays the sets out from their tags, :mod:`~hieradjudicate.core.layout_tags`,
and never needs them).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.core.errors import Problem
from hieradjudicate.core.inventory.inventory import Inventory
from hieradjudicate.core.inventory.inventory_builder import InventoryBuilder
from hieradjudicate.core.inventory.leaves import leaf_vectors, node_hashes, tag_set_signature
from hieradjudicate.core.records import ROLES, AnnotationSource, Context

_LAYOUT_LOCK = threading.Lock()
_INDEX_LOCK = threading.Lock()
_NONE: dict[str, int] = {}  # a lexelt the corpus does not have: no instance


@dataclass
class AnnotationSet:
    """One annotator's, system's or gold standard's answers."""

    name: str
    role: str
    rows: np.ndarray  # (R,) sorted global instance indices
    tag_ptr: np.ndarray  # (R+1,)
    tag_node: np.ndarray  # global nodes
    tag_weight: np.ndarray  # normalised per row (sum 1)
    attempted: np.ndarray  # (R,) raw weight sum capped at 1 (partial attempts), 1 when unweighted
    source: str = ""
    tag_line: np.ndarray | None = field(repr=False, default=None)
    _leaves: np.ndarray | None = field(repr=False, default=None, compare=False)
    _signature: np.ndarray | None = field(repr=False, default=None, compare=False)
    #: the inventory the leaf vectors are computed from on first use (set by the corpus builder)
    _inventory: Inventory | None = field(repr=False, default=None, compare=False)

    @property
    def signature(self) -> np.ndarray:
        """``(R,)`` hash of each row's tag *set* (see :func:`~hieradjudicate.core.inventory.leaves.tag_set_signature`);
        computed on first use for a set made by :class:`CorpusBuilder`."""
        if self._signature is None and self._inventory is not None:
            if self._one_tag_per_row:
                # one tag per row (a crowd's labels): its tag's hash, gathered from the inventory's
                # table when asked instead of kept (MASC: 228 sets, 8.3 MiB held while the project is
                # open); the values tag_set_signature gives
                return self.signature_of(slice(None))
            self._signature = tag_set_signature(self.tag_ptr, self.tag_node)
        return self._signature

    @property
    def _one_tag_per_row(self) -> bool:
        return self.tag_ptr.size - 1 == self.tag_node.size

    def signature_of(self, rows: np.ndarray | slice) -> np.ndarray:
        """``signature[rows]``; for a set of one tag per row only those rows' hashes are gathered (the
        instance shown: a few rows of each of ~24 sets, not each set's whole signature)."""
        if self._signature is None and self._inventory is not None and self._one_tag_per_row:
            return node_hashes(self._inventory.n_nodes)[self.tag_node[rows]]
        return self.signature[rows]

    @signature.setter
    def signature(self, value: np.ndarray) -> None:
        self._signature = value

    @property
    def leaves(self) -> np.ndarray:
        """``(R, K)`` leaf vectors, one row per annotated instance.

        A set made by :class:`CorpusBuilder` computes them on first use: the ``agree`` command
        never needs them one set at a time (the layout is computed from the tags, see
        :meth:`Corpus.layout`), and a crowd's are 147 MB."""
        if self._leaves is None and self._inventory is not None:
            self._leaves = leaf_vectors(self._inventory, self.tag_ptr, self.tag_node, self.tag_weight)
        return self._leaves

    def leaves_once(self) -> np.ndarray:
        """The leaf vectors without keeping them: the held copy when there is one, else computed
        for the caller alone (a pass over every set of a crowd that needs each set's leaves once
        holds one set's at a time, not 1.08 M x 17 floats for MASC)."""
        if self._leaves is None and self._inventory is not None:
            return leaf_vectors(self._inventory, self.tag_ptr, self.tag_node, self.tag_weight)
        return self.leaves

    def leaves_from_tags(self, inventory: Inventory) -> bool:
        """Whether this set's leaf vectors are computed from its tags over ``inventory`` (none held):
        :func:`leaf_vectors` of a row's tags there gives the row's vector exactly."""
        return self._leaves is None and self._inventory is not None and self._inventory is inventory

    def leaves_rows(self, r: np.ndarray) -> np.ndarray:
        """``leaves[r]`` without computing or keeping every row's: the held copy's rows when there is
        one, else the rows ``r`` (positions in this set) computed from their tags -- the same values,
        since :func:`leaf_vectors` computes each row from its own tags alone."""
        if self._leaves is None and self._inventory is not None:
            r = np.asarray(r, dtype=np.int64).reshape(-1)
            a, b = self.tag_ptr[r], self.tag_ptr[r + 1]
            ptr = np.zeros(r.size + 1, dtype=np.int64)
            np.cumsum(b - a, out=ptr[1:])
            idx = np.repeat(a - ptr[:-1], b - a) + np.arange(int(ptr[-1]), dtype=np.int64)
            return leaf_vectors(self._inventory, ptr, self.tag_node[idx], self.tag_weight[idx])
        return self.leaves[r]

    @leaves.setter
    def leaves(self, value: np.ndarray) -> None:
        self._leaves = value

    @property
    def n(self) -> int:
        return int(self.rows.size)

    def n_tags(self) -> np.ndarray:
        return np.diff(self.tag_ptr)

    def position(self, instances: np.ndarray) -> np.ndarray:
        """Row position of each global instance in this set, -1 where not annotated."""
        instances = np.asarray(instances)
        pos = np.searchsorted(self.rows, instances)
        pos = np.minimum(pos, max(self.rows.size - 1, 0))
        ok = (self.rows.size > 0) & (self.rows[pos] == instances) if self.rows.size else np.zeros(instances.shape, bool)
        return np.where(ok, pos, -1)

    def tags_at(self, r: int) -> np.ndarray:
        return self.tag_node[self.tag_ptr[r]:self.tag_ptr[r + 1]]

    def weights_at(self, r: int) -> np.ndarray:
        return self.tag_weight[self.tag_ptr[r]:self.tag_ptr[r + 1]]


@dataclass
class Corpus:
    """Inventory, instances and annotation sets: the aggregate everything else reads."""

    inventory: Inventory
    inst_lexelt: np.ndarray  # (n,) lexelt index
    inst_id: list[str]  # (n,) instance id strings
    sets: list[AnnotationSet]
    problems: list[Problem] = field(default_factory=list)
    contexts: dict[int, Context] = field(default_factory=dict)
    #: ``{lexelt: {instance id: index}}``, made on first use: keyed by the corpus's own id strings, no
    #: ``(lexelt, instance)`` tuple per instance (MASC: 44,682 tuples, ~3 MiB held while open)
    _index: dict[str, dict[str, int]] | None = field(default=None, repr=False)

    @property
    def n(self) -> int:
        return int(self.inst_lexelt.size)

    def set_names(self) -> list[str]:
        return [s.name for s in self.sets]

    def get_set(self, name: str) -> AnnotationSet:
        for s in self.sets:
            if s.name == name:
                return s
        raise KeyError(f"no annotation set named {name!r}; sets are: {', '.join(self.set_names())}")

    def instance_index(self, lexelt: str, instance: str) -> int:
        if self._index is None:
            index: dict[str, dict[str, int]] = {x: {} for x in self.inventory.lexelts}
            by_x = list(index.values())
            for k, (x, i) in enumerate(zip(self.inst_lexelt.tolist(), self.inst_id)):
                by_x[x][i] = k  # a repeated key: the last, as before
            self._index = index
        return self._index.get(lexelt, _NONE).get(instance, -1)

    def instance_indices(self, lexelts: Sequence[str], instances: Sequence[str]) -> np.ndarray:
        """:meth:`instance_index` of each ``(lexelts[j], instances[j])`` (-1: not in the corpus), in one
        pass (a decision history's 44,682 rows: no method call per row)."""
        self.instance_index("", "")  # the index, made once
        get = self._index.get  # type: ignore[union-attr]
        return np.array([get(x, _NONE).get(i, -1) for x, i in zip(lexelts, instances)], np.int64).reshape(-1)

    def instance_key(self, i: int) -> tuple[str, str]:
        return self.inventory.lexelts[int(self.inst_lexelt[i])], self.inst_id[i]

    def answered(self, i: int) -> dict[int, int]:
        """``{set index: row}`` of the sets that answered instance ``i``: one slice of
        :meth:`answer_index`, instead of one search per set -- a crowd's 228 searches were most
        of a step to the next instance.  Before the index is made (MASC: 0.2-0.4 s; the window makes it
        in the background), one search per set: the same answer, ~1 ms, the index not waited for."""
        idx = self.__dict__.get("_answered")
        if idx is None or idx[0] != tuple(map(id, self.sets)):
            i = int(i)
            out = {}
            for k, s in enumerate(self.sets):
                r = int(np.searchsorted(s.rows, i))
                if r < s.rows.size and s.rows[r] == i:
                    out[k] = r
            return out
        ptr, k, r = self.answer_index()
        a, b = int(ptr[i]), int(ptr[i + 1])
        return dict(zip(k[a:b].tolist(), r[a:b].tolist()))

    def leaves_of(self, sets: list[int], rows: list[np.ndarray]) -> list[np.ndarray]:
        """``[sets[j].leaves_rows(rows[j]) ...]`` in one :func:`leaf_vectors` call for the sets that keep
        no leaf vectors (a crowd's): the tags of every asked row gathered once, instead of one small
        computation per set (a crowd instance's ~24 sets were a third of a step to the next instance).
        The same values: each row's vector is computed from its own tags alone, in their order."""
        out: list[np.ndarray | None] = [None] * len(sets)
        lazy, ptrs, nodes, weights = [], [], [], []
        for j, (k, r) in enumerate(zip(sets, rows)):
            s = self.sets[k]
            r = np.asarray(r, dtype=np.int64).reshape(-1)
            if not s.leaves_from_tags(self.inventory):
                out[j] = s.leaves_rows(r)
                continue
            lazy.append((j, r.size))
            if r.size == 1:  # one row (the instance shown): its tags are one slice, no index array
                a, b = int(s.tag_ptr[r[0]]), int(s.tag_ptr[r[0] + 1])
                ptrs.append((b - a,))
                nodes.append(s.tag_node[a:b])
                weights.append(s.tag_weight[a:b])
                continue
            a, b = s.tag_ptr[r], s.tag_ptr[r + 1]
            idx = np.repeat(a - (np.cumsum(b - a) - (b - a)), b - a) + np.arange(int((b - a).sum()), dtype=np.int64)
            ptrs.append(b - a)
            nodes.append(s.tag_node[idx])
            weights.append(s.tag_weight[idx])
        if lazy:
            counts = np.concatenate(ptrs).astype(np.int64, copy=False)
            ptr = np.zeros(counts.size + 1, dtype=np.int64)
            np.cumsum(counts, out=ptr[1:])
            P = leaf_vectors(self.inventory, ptr, np.concatenate(nodes), np.concatenate(weights))
            at = 0
            for j, n in lazy:
                out[j] = P[at:at + n]
                at += n
        return out  # type: ignore[return-value]

    def answer_index(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every set's rows ordered by instance, then set: ``ptr`` (``n + 1``), ``set`` and ``row``
        (int32, one per answer), so that ``set[ptr[i]:ptr[i + 1]]`` and ``row[ptr[i]:ptr[i + 1]]``
        are the sets that answered instance ``i`` and their rows.  Made on first use (MASC's 1.08 M
        rows: 8.7 MB), remade if the sets change."""
        key = tuple(map(id, self.sets))
        idx = self.__dict__.get("_answered")
        if idx is not None and idx[0] == key:
            return idx[1], idx[2], idx[3]
        with _INDEX_LOCK:  # the GUI thread and the live figures' worker may ask at once: one copy
            idx = self.__dict__.get("_answered")
            if idx is None or idx[0] != key:
                sizes = [s.rows.size for s in self.sets]
                inst = np.concatenate([s.rows for s in self.sets]) if self.sets else np.zeros(0, np.int64)
                k = np.repeat(np.arange(len(self.sets)), sizes)
                r = np.arange(inst.size) - np.repeat(np.cumsum(sizes) - sizes, sizes)
                order = np.argsort(inst, kind="stable")  # sets in order within an instance
                ptr = np.searchsorted(inst[order], np.arange(self.n + 1))
                idx = self.__dict__["_answered"] = (key, ptr, k[order].astype(np.int32), r[order].astype(np.int32))
        return idx[1], idx[2], idx[3]

    def tag_strings(self, s: AnnotationSet, r: int) -> list[str]:
        return [self.inventory.node_id[int(t)] for t in s.tags_at(r)]

    def rows_lexelt(self, s: AnnotationSet) -> np.ndarray:
        return self.inst_lexelt[s.rows]

    def long_form(self, sets: list[int] | None = None, roles: tuple[str, ...] | None = None):
        """All annotations as (inst, rater, P) rows, the input of the multi-rater metrics."""
        chosen = [k for k, s in enumerate(self.sets)
                  if (sets is None or k in sets) and (roles is None or s.role in roles)]
        if not chosen:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, max(self.inventory.K, 1))), chosen
        inst = np.concatenate([self.sets[k].rows for k in chosen])
        rater = np.concatenate([np.full(self.sets[k].n, j, np.int64) for j, k in enumerate(chosen)])
        P = np.concatenate([self.sets[k].leaves for k in chosen])
        return inst, rater, P, chosen

    def layout(self, sets: list[int]):
        """The long form of ``sets`` sorted as :func:`~hieradjudicate.core.agreement.layout.make_layout` sorts it
        (raters numbered as :meth:`long_form` numbers them), made once per set of sets.

        The workbench's live figures and the dashboard read the same copy: with
        a crowd the leaf vectors are the bulk of the memory (MASC: 1.08 M rows x
        17 leaves, 147 MB per copy), and every agreement figure is independent of
        the order of the rows.  Annotations never change while a corpus is open.
        """
        # imported here: agreement never imports the model, and the model needs it only for this
        from hieradjudicate.core.agreement.layout import layout_from_blocks
        from hieradjudicate.core.layout_tags import layout_from_tags

        wanted = set(sets)
        chosen = tuple(k for k in range(len(self.sets)) if k in wanted)
        cache = self.__dict__.setdefault("_layouts", {})
        with _LAYOUT_LOCK:  # the live figures and the dashboard's worker may ask at once: one copy
            if chosen not in cache:
                picked = [self.sets[k] for k in chosen]
                # sets the builder made have leaf vectors computed from their tags (on first use): the
                # layout computes them from the tags too, whether some set holds its own already or not
                if picked and all(s._inventory is self.inventory for s in picked):
                    cache[chosen] = layout_from_tags(self.inventory, picked, self.inst_lexelt)
                else:
                    cache[chosen] = layout_from_blocks([s.rows for s in picked], [s.leaves for s in picked],
                                                       self.inst_lexelt, n_lexelts=len(self.inventory.lexelts))
            return cache[chosen]

    def region(self, s: AnnotationSet) -> np.ndarray:
        """Boolean leaf region (support of the leaf vector) of each row."""
        return s.leaves > 0

    def rebuild_leaves(self) -> None:
        """Recompute leaf vectors after the downward probabilities changed."""
        for s in self.sets:
            s.leaves = leaf_vectors(self.inventory, s.tag_ptr, s.tag_node, s.tag_weight)


class CorpusBuilder:
    """Builds a :class:`Corpus` from inventory records and annotation sources."""

    def __init__(self) -> None:
        self.inventory = InventoryBuilder()
        self.sources: list[tuple[AnnotationSource, dict[str, str], dict[str, str]]] = []
        self.contexts: list[Context] = []
        self.context_files: list[tuple[str, int]] = []  # (path, how many of self.contexts), in order
        self.problems: list[Problem] = []

    def add_inventory(self, source) -> None:
        self.inventory.add(source.senses)
        self.problems.extend(source.problems)

    def add_annotations(self, source: AnnotationSource, *, role: str = "annotator",
                        roles: dict[str, str] | None = None, rename: dict[str, str] | None = None) -> None:
        """Add every set of ``source``; ``roles`` per set name override ``role``."""
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, not {role!r}")
        r = {n: (roles or {}).get(n, role) for n in source.set_names}
        self.sources.append((source, r, dict(rename or {})))
        self.problems.extend(source.problems)

    def add_contexts(self, source) -> None:
        self.contexts.extend(source.contexts)
        self.context_files.append((source.path, len(source.contexts)))
        self.problems.extend(source.problems)

    def build(self) -> Corpus:
        # 1. unique (lexelt, tag) pairs in all sources: few, resolved in Python
        lex_names: dict[str, int] = {}
        per_source = []
        for src, _, _ in self.sources:
            ulex = list(dict.fromkeys(src.item_lexelt))
            for u in ulex:
                lex_names.setdefault(u, len(lex_names))
            lmap = {u: lex_names[u] for u in ulex}
            item_lex = np.fromiter(map(lmap.__getitem__, src.item_lexelt), np.int64, len(src.item_lexelt))
            pair = item_lex[src.item] * max(len(src.tags), 1) + src.tag
            upair, inv_pair = _unique_inverse(pair)
            per_source.append((item_lex, upair, inv_pair))
        lex_list = list(lex_names)
        used: dict[str, set[str]] = {}
        for (src, _, _), (_, upair, _) in zip(self.sources, per_source):
            nt = max(len(src.tags), 1)
            for p in upair.tolist():
                used.setdefault(lex_list[p // nt], set()).add(src.tags[p % nt])
        inv = self.inventory.build(used)
        problems = list(self.inventory.problems) + self.problems
        # 2. instances: (lexelt, id) -> global index, first appearance order
        index: dict[tuple[str, str], int] = {}
        inst_lex: list[np.ndarray] = []
        inst_ids: list[str] = []
        sets: list[AnnotationSet] = []
        lex_to_inv = np.asarray([inv.lexelt_index(name) for name in lex_list], dtype=np.int64)
        for (src, roles, rename), (item_lex, upair, inv_pair) in zip(self.sources, per_source):
            if not inst_ids:  # first source: its items are the instances, no dictionary needed
                gidx = None
                inst_lex.append(lex_to_inv[item_lex])
                inst_ids.extend(src.item_instance)
            else:
                if not index:
                    names = inv.lexelts
                    lexs = np.concatenate(inst_lex).tolist()
                    index = {(names[x], i): k for k, (x, i) in enumerate(zip(lexs, inst_ids))}
                keys = list(zip(src.item_lexelt, src.item_instance))
                gidx = np.asarray([index.get(k, -1) for k in keys], dtype=np.int64)
                missing = np.flatnonzero(gidx < 0)
                base = len(inst_ids)
                gidx[missing] = base + np.arange(missing.size)
                for j, m in enumerate(missing.tolist()):
                    index[keys[m]] = base + j
                inst_lex.append(lex_to_inv[item_lex[missing]])
                inst_ids.extend(src.item_instance[m] for m in missing.tolist())
            nt = max(len(src.tags), 1)
            node_of_pair = np.asarray([inv.lookup(int(lex_to_inv[p // nt]), src.tags[p % nt]) for p in upair.tolist()],
                                      dtype=np.int64)
            names = [rename.get(n, n) for n in src.set_names]
            sets.extend(_make_sets(inv, names, [roles[n] for n in src.set_names], src.set,
                                   src.item if gidx is None else gidx[src.item], node_of_pair[inv_pair],
                                   src.weight, src.line, src.path))
        inst_lexelt = np.concatenate(inst_lex) if inst_lex else np.zeros(0, np.int64)
        corpus = Corpus(inv, inst_lexelt, inst_ids, sets, problems)
        corpus._index = None
        found = np.zeros(len(self.contexts), bool)
        for k, c in enumerate(self.contexts):
            i = corpus.instance_index(c.lexelt, c.instance)
            if i >= 0:
                corpus.contexts[i] = c
                found[k] = True
        corpus.problems.extend(_unmatched_contexts(self.context_files, self.contexts, found, corpus.n))
        return corpus


#: the start of the warning about contexts that name no instance (commands that create a project print it)
UNMATCHED_CONTEXTS = "context(s) of this file name no instance of the annotations"


def _unmatched_contexts(files: list[tuple[str, int]], contexts: list, found: np.ndarray, n: int) -> list[Problem]:
    """A warning per context file some of whose contexts matched no instance: a context file of
    another task, or ids written otherwise, would otherwise leave the instances without a context
    and no word why."""
    out, start = [], 0
    for path, count in files:
        missed = np.flatnonzero(~found[start:start + count]) + start
        if missed.size:
            c = contexts[int(missed[0])]
            out.append(Problem(path, c.line, f"{missed.size} of {count} {UNMATCHED_CONTEXTS} (first: {c.lexelt} "
                               f"{c.instance}); they are not shown. {int(found[start:start + count].sum())} of "
                               f"the {n} instances got a context from it. Do its ids match the annotations' "
                               "(lexelt and instance)?", severity="warning"))
        start += count
    return out


def _unique_inverse(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)`` of non-negative integers; by counting when the
    values are small (the (lexelt, tag) pairs of a million labels: a few hundred), without a sort."""
    if values.size == 0 or int(values.min()) < 0 or int(values.max()) > 4 * values.size + 4096:
        return np.unique(values, return_inverse=True)
    present = np.bincount(values) > 0
    code = np.cumsum(present) - 1
    return np.flatnonzero(present), code[values]


def _set_order(set_code: np.ndarray, inst: np.ndarray, n_sets: int) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """The labels sorted by (set, instance), stable: the order (``None`` when they already are),
    the sorted instances, and where each set's labels begin.

    Readers give each set's labels in instance order, so a stable sort by set alone (a radix sort
    of small codes) is usually all it takes; otherwise one stable sort by (set, instance)."""
    n = set_code.size
    bounds = np.zeros(n_sets + 1, dtype=np.int64)
    if n:
        np.cumsum(np.bincount(set_code, minlength=n_sets), out=bounds[1:])
    if n_sets <= 1 or n == 0:
        order, ic = None, inst
    else:
        small = np.uint8 if n_sets <= 1 << 8 else np.uint16 if n_sets <= 1 << 16 else np.int64
        order = np.argsort(set_code.astype(small), kind="stable")
        ic = inst[order]
    if n > 1:
        down = np.flatnonzero(ic[1:] < ic[:-1]) + 1  # where the instance decreases: only at a set's start?
        if down.size and not bool(np.isin(down, bounds).all()):
            order = np.argsort(set_code * (int(inst.max()) + 1) + inst, kind="stable")
            ic = inst[order]
    if order is not None and bool((order == np.arange(n)).all()):
        order = None
    return order, ic, bounds


def _make_sets(inv: Inventory, names: list[str], roles: list[str], set_code: np.ndarray, inst: np.ndarray,
               node: np.ndarray, weight: np.ndarray, line: np.ndarray, source: str) -> list[AnnotationSet]:
    """The annotation sets of one source, computed for all labels at once and sliced per set.

    Every row (one set's answer for one instance) is computed as it would be alone: the weights
    of all rows come from one call each (no loop over sets but the slicing); a set's arrays are
    views of the shared ones.  The leaf vectors and signatures are left to the first use."""
    order, inst, bounds = _set_order(set_code, inst, len(names))
    if order is not None:
        node, line = node[order], line[order]
        if not bool(np.isnan(weight).all()):  # no weight given at all (a crowd): NaNs in any order
            weight = weight[order]
    del order
    n = inst.size
    new_row = np.ones(n, dtype=bool)
    np.not_equal(inst[1:], inst[:-1], out=new_row[1:])
    new_row[bounds[1:-1][bounds[1:-1] < n]] = True  # a set's first label starts a row
    if bool(new_row.all()):  # one tag per row (a crowd's labels): a row's sum is its one value
        del new_row
        ptr = np.arange(n + 1, dtype=np.int64)
        rows = inst
        starts = ptr[:-1]
        tw, attempted = _single_tag_weights(weight)
    else:
        starts = np.flatnonzero(new_row)
        del new_row
        ptr = np.empty(starts.size + 1, dtype=np.int64)
        ptr[:-1] = starts
        ptr[-1] = n
        rows = inst[starts]
        tw, attempted = _row_weights(weight, starts, np.diff(ptr))
    row_bounds = np.searchsorted(starts, bounds)
    out = []
    for k, (name, role) in enumerate(zip(names, roles)):
        a, b = int(bounds[k]), int(bounds[k + 1])
        if a == b:
            continue
        ra, rb = int(row_bounds[k]), int(row_bounds[k + 1])
        out.append(AnnotationSet(name, role, rows[ra:rb], ptr[ra:rb + 1] - a, node[a:b], tw[a:b], attempted[ra:rb],
                                 source=source, tag_line=line[a:b], _inventory=inv))  # leaves, signature on first use
    return out


def _row_weights(weight: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each label's weight normalised within its row (NaN: none given; one unweighted tag makes the
    row unweighted, uniform; all-zero weights read as uniform) and each row's attempted mass."""
    unweighted = np.add.reduceat(np.isnan(weight).astype(np.int64), starts) > 0 if starts.size else np.zeros(0, bool)
    unw_label = np.repeat(unweighted, counts)
    w = np.where(unw_label, 1.0, weight)
    wsum = np.add.reduceat(w, starts) if starts.size else np.zeros(0)
    zero = wsum <= 0
    if zero.any():  # all weights zero: nothing to normalise, read as uniform
        w = np.where(np.repeat(zero, counts), 1.0, w)
        wsum = np.add.reduceat(w, starts)
    attempted = np.where(unweighted, 1.0, np.minimum(np.add.reduceat(np.where(unw_label, 0, weight), starts), 1.0)
                         if starts.size else np.zeros(0))
    return w / np.repeat(wsum, counts), attempted


def _single_tag_weights(weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_row_weights` when every row holds one tag: the same arithmetic on each value alone
    (a row's sum is its value), and when no weight is given at all, ones (w / w = 1)."""
    unweighted = np.isnan(weight)
    if bool(unweighted.all()):
        return np.ones(weight.size), np.ones(weight.size)
    w = np.where(unweighted, 1.0, weight)
    zero = w <= 0
    if zero.any():
        w = np.where(zero, 1.0, w)
    attempted = np.where(unweighted, 1.0, np.minimum(np.where(unweighted, 0, weight), 1.0))
    return w / w, attempted
