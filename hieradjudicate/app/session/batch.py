"""Batch decisions: accept what the annotators agree on, or one set's answers, as ONE command.

Each function returns a :class:`BatchDecide` -- a :class:`~hieradjudicate.app.session.commands.Decide`
holding every decision of the batch -- so that running it through a
:class:`~hieradjudicate.app.session.commands.CommandStack` saves the batch in one
transaction and undoes it as a whole.  The selection is vectorised over the
corpus arrays (set rows, tag-set signatures, leaf regions); Python only
builds the :class:`~hieradjudicate.app.session.decisions.Decision` records.

Who counts as an annotator
    The sets with role ``annotator``, and only those: a system is never
    counted as an annotator unless the user says so (``include_systems``),
    so one annotator and one system never "all agree" (#13).  The same rule
    serves the workbench's agreement column, its live agreement and its
    suggestions.  Pass ``sets`` to choose explicitly.

When do "all annotators agree" (:func:`agreement`)
    On an instance at least ``min_annotators`` (default 2) of the chosen sets
    answered, and

    * ``identical``: every one of them gave the same tag *set* (equal
      tag-set signatures: order, duplicates and weights ignored);
    * ``compatible`` (option): their leaf regions (supports of the leaf
      vectors) form a chain by inclusion -- every pair is nested, so they
      differ in granularity only.  The answer taken is the most specific
      (smallest region) or the least specific (largest region); among
      answers with equal regions the first set in project order wins.

    An instance only one annotator answered is never accepted by default:
    one opinion is not an agreement (pass ``min_annotators=1`` to accept it).
    Sets that did not answer an instance are ignored for that instance.

Which instances are touched
    Only unresolved ones (no current decision): a resolved, flagged or
    skipped instance is the lexicographer's and stays as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hieradjudicate.app.raters import annotator_sets, rater_note  # noqa: F401 (their home before)
from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision, DecisionState
from hieradjudicate.core.model import Corpus

SPECIFIC = ("most", "least")


class BatchDecide(Decide):
    """A :class:`Decide` that also says what the batch considered and left out."""

    def __init__(self, decisions: Sequence[Decision], label: str, *, instances: np.ndarray,
                 skipped: dict[str, int] | None = None) -> None:
        super().__init__(decisions, label)
        self.instances = instances  # global instance index of each decision
        self.skipped = dict(skipped or {})

    def summary(self) -> str:
        text = f"{self.label}: {len(self.decisions)} instance(s)"
        left = ", ".join(f"{n} {why}" for why, n in self.skipped.items() if n)
        return text + (f" (left out: {left})" if left else "")


def decided_mask(corpus: Corpus, state: DecisionState) -> np.ndarray:
    """``True`` for every instance of the corpus that has a current decision (any status)."""
    mask = np.zeros(corpus.n, dtype=bool)
    idx = [corpus.instance_index(*row.key) for row in state]
    idx_arr = np.asarray([i for i in idx if i >= 0], dtype=np.int64)
    mask[idx_arr] = True
    return mask


def tags_of(corpus: Corpus, k: int, r: int) -> tuple[str, ...]:
    """The tags (node ids, in the set's order) of row ``r`` of set ``k``."""
    ids = corpus.inventory.node_id
    return tuple(ids[int(t)] for t in corpus.sets[k].tags_at(r))


@dataclass
class Agreement:
    """Instances on which the annotators agree (arrays aligned with ``instances``)."""

    instances: np.ndarray  # (N,) global instance indices
    chosen: np.ndarray  # (N,) set whose answer is taken
    identical: np.ndarray  # (N,) bool: identical tag sets (else only compatible)
    n_annotators: np.ndarray  # (N,) annotators who answered
    sets: list[int]  # the sets compared
    compatible: bool
    specific: str

    def rule(self, j: int) -> str:
        return "identical" if self.identical[j] else "compatible"


def agreement(corpus: Corpus, *, compatible: bool = False, specific: str = "most",
              sets: Sequence[int] | None = None, min_annotators: int = 2) -> Agreement:
    """Every instance on which all annotators agree (see the module docstring), vectorised.

    The chain test for ``compatible``: with ``c_l`` the number of annotators
    whose region holds leaf ``l`` and ``n_a`` the number whose region is at
    least as large as annotator ``a``'s, the regions form a chain iff every
    leaf of every region has ``c_l >= n_a`` (induction over region sizes).
    """
    if specific not in SPECIFIC:
        raise ValueError(f"specific must be one of {SPECIFIC}, not {specific!r}")
    raters = list(annotator_sets(corpus) if sets is None else sets)
    n = corpus.n
    m = np.zeros(n, np.int64)
    big = np.iinfo(np.int64).max
    sig_min = np.full(n, big, np.int64)
    sig_max = np.full(n, -big - 1, np.int64)
    first = np.full(n, -1, np.int64)
    for k in reversed(raters):
        s = corpus.sets[k]
        m[s.rows] += 1
        sig_min[s.rows] = np.minimum(sig_min[s.rows], s.signature)
        sig_max[s.rows] = np.maximum(sig_max[s.rows], s.signature)
        first[s.rows] = k
    enough = m >= max(min_annotators, 1)
    identical = enough & (sig_min == sig_max)
    chosen = first.copy()
    agreed = identical.copy()
    if compatible and raters:
        # each set's leaves once, kept by no set (a crowd's would stay: MASC, 147 MB), as booleans
        regions = [corpus.sets[k].leaves_once() > 0 for k in raters]
        K = regions[0].shape[1]
        count = np.zeros((n, K), np.int32)
        hist = np.zeros((n, K + 2), np.int32)
        sizes = []
        for k, region in zip(raters, regions, strict=True):
            s = corpus.sets[k]
            size = region.sum(axis=1)
            count[s.rows] += region
            hist[s.rows, size] += 1  # rows are unique within a set
            sizes.append(size)
        at_least = np.cumsum(hist[:, ::-1], axis=1)[:, ::-1]  # at_least[i, z] = #sizes >= z
        broken = np.zeros(n, bool)
        best = np.full(n, big if specific == "most" else -1, np.int64)
        pick = np.full(n, -1, np.int64)
        for k, region, size in zip(raters, regions, sizes, strict=True):
            rows = corpus.sets[k].rows
            need = at_least[rows, size]
            broken[rows] |= (region & (count[rows] < need[:, None])).any(axis=1)
            better = size < best[rows] if specific == "most" else size > best[rows]
            best[rows[better]] = size[better]
            pick[rows[better]] = k
        chain = enough & ~broken
        agreed = identical | chain
        chosen = np.where(identical, first, pick)
    inst = np.flatnonzero(agreed)
    return Agreement(inst, chosen[inst], identical[inst], m[inst], raters, compatible, specific)


def accept_agreed(corpus: Corpus, state: DecisionState, *, compatible: bool = False,
                  specific: str = "most", sets: Sequence[int] | None = None,
                  min_annotators: int = 2, note: str = "", include_systems: bool = False) -> BatchDecide:
    """One command resolving every unresolved instance on which all annotators agree.

    Source ``auto-agreement``; the basis records the rule and the sets' tags:
    ``{"rule": "identical", "sets": [names], "tags": [...]}`` or
    ``{"rule": "compatible", "specific": "most", "sets": {name: [tags]}}``.
    Re-import uses it to tell whether the agreement still holds.
    """
    if sets is None:
        sets = annotator_sets(corpus, include_systems=include_systems)
    agr = agreement(corpus, compatible=compatible, specific=specific, sets=sets,
                    min_annotators=min_annotators)
    undecided = ~decided_mask(corpus, state)[agr.instances]
    keep = np.flatnonzero(undecided)
    names = [corpus.sets[k].name for k in agr.sets]
    target = agr.instances[keep]
    present = _present(corpus, agr.sets, target)
    decisions = []
    for j, i in enumerate(target.tolist()):
        k = int(agr.chosen[keep[j]])
        answers = present[j]
        tags = next(tags_of(corpus, k, r) for x, r in answers if agr.sets[x] == k)
        basis: dict[str, Any]
        if agr.identical[keep[j]]:
            basis = {"rule": "identical", "sets": [names[x] for x, _ in answers],
                     "tags": list(tags)}
        else:
            basis = {"rule": "compatible", "specific": specific,
                     "sets": {names[x]: list(tags_of(corpus, agr.sets[x], r)) for x, r in answers}}
        lexelt, instance = corpus.instance_key(i)
        decisions.append(Decision(lexelt, instance, tags, source="auto-agreement", note=note,
                                  basis=basis))
    what = f"compatible, {specific} specific" if compatible else "identical"
    label = f"accept agreed ({what})"
    return BatchDecide(decisions, label, instances=agr.instances[keep],
                       skipped={"already decided": int((~undecided).sum())})


def _present(corpus: Corpus, sets: Sequence[int], target: np.ndarray) -> list[list[tuple[int, int]]]:
    """For each target instance (sorted), the ``(position in sets, row)`` of every set answering it."""
    cols, xs, rows = [], [], []
    for x, k in enumerate(sets):
        _, ia, ib = np.intersect1d(target, corpus.sets[k].rows, assume_unique=True,
                                   return_indices=True)
        cols.append(ia)
        xs.append(np.full(ia.size, x, np.int64))
        rows.append(ib)
    out: list[list[tuple[int, int]]] = [[] for _ in range(target.size)]
    if not cols:
        return out
    col, x_arr, row = (np.concatenate(a) for a in (cols, xs, rows))
    order = np.lexsort((x_arr, col))
    for c, x, r in zip(col[order].tolist(), x_arr[order].tolist(), row[order].tolist(),
                       strict=True):
        out[c].append((x, r))
    return out


def selection_indices(corpus: Corpus, selection: np.ndarray | Sequence[int] | None) -> np.ndarray:
    """Instance indices from a boolean mask (length ``n``), an index array, or ``None`` (all)."""
    if selection is None:
        return np.arange(corpus.n, dtype=np.int64)
    sel = np.asarray(selection)
    if sel.dtype == bool:
        if sel.shape != (corpus.n,):
            raise ValueError(f"a selection mask needs {corpus.n} values, not {sel.shape}")
        return np.flatnonzero(sel)
    sel = np.unique(sel.astype(np.int64))
    if sel.size and (sel[0] < 0 or sel[-1] >= corpus.n):
        raise ValueError("selection holds instance indices outside the corpus")
    return sel


def accept_set(corpus: Corpus, state: DecisionState, set_name: str,
               selection: np.ndarray | Sequence[int] | None = None, *, overwrite: bool = False,
               note: str = "") -> BatchDecide:
    """One command taking set ``set_name``'s answers for the selected instances.

    Source ``set:<name>``, basis ``{"set": name, "tags": [...]}`` (the tags
    without their weights).  Instances the set did not answer are left out;
    so are decided ones unless ``overwrite`` (an explicit choice: the
    previous decisions stay in the history and come back on undo).
    """
    k = corpus.set_names().index(set_name) if set_name in corpus.set_names() else -1
    if k < 0:
        corpus.get_set(set_name)  # raises KeyError naming the sets
    s = corpus.sets[k]
    inst = selection_indices(corpus, selection)
    pos = s.position(inst)
    answered = pos >= 0
    decided = decided_mask(corpus, state)[inst]
    take = answered & (overwrite | ~decided)
    decisions = []
    for i, r in zip(inst[take].tolist(), pos[take].tolist(), strict=True):
        tags = tags_of(corpus, k, r)
        lexelt, instance = corpus.instance_key(i)
        decisions.append(Decision(lexelt, instance, tags, source=f"set:{set_name}", note=note,
                                  basis={"set": set_name, "tags": list(tags)}))
    skipped = {"not answered by the set": int((~answered).sum()),
               "already decided": int((answered & ~take).sum())}
    return BatchDecide(decisions, f"accept {set_name}'s answers", instances=inst[take],
                       skipped=skipped)
