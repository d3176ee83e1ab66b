"""Suggestions for unresolved instances: the majority answer and the most reliable annotator's.

A suggestion is only shown; it becomes a decision only by a user action (the
``A`` key of the workbench records it with source ``suggestion``, see
:func:`suggestion_decision`).  Everything is vectorised over instances; the
raters are the annotator sets (:func:`~hieradjudicate.app.session.batch.annotator_sets`).

Majority answer (``tags``, ``support``)
    With ``m`` annotators answering instance ``i`` and ``p_a`` their leaf
    vectors, the mean leaf mass is ``pbar = (1/m) sum_a p_a``.  The
    *support* of an annotator's answer (its tag set) is the mean mass inside
    its leaf region ``R_a`` (the support of ``p_a``):
    ``support(a) = sum_{l in R_a} pbar(l)`` -- the share of the annotators'
    mass that the answer covers, in [0, 1].  The suggestion is the **most
    specific** answer (fewest leaves in its region) **whose support exceeds
    1/2**: the finest reading a strict majority of the annotators' mass falls
    inside.  (Taking simply the largest support would always favour the
    broadest answer: ``1`` covers everything ``1.1`` and ``1.2`` do.)  Ties:
    higher support, then more annotators with exactly this tag set, then
    project order.  When no answer exceeds 1/2 (e.g. three disjoint answers)
    the answer with the largest support is given, with ``majority=False``.
    Only the annotators' own answers are candidates: the suggestion is always
    something an annotator wrote.

Most reliable annotator (``reliable_tags``, ``reliability``)
    The reliability of annotator ``a`` is its mean leaf agreement with the
    others' majority: over the instances ``a`` and at least one other
    annotator answered, ``sum_l p_a(l) q_a(l)`` with ``q_a`` the mean leaf
    vector of the *other* annotators (leave-one-out, so ``a`` does not agree
    with itself).  By default it is computed over all instances: the
    annotations do not change while the lexicographer works, so the ranking
    is stable and available from the first instance (``over`` restricts it,
    e.g. to the decided instances).  The suggestion is the answer of the most
    reliable annotator who answered the instance (ties: project order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.app.session.batch import annotator_sets, decided_mask, tags_of
from hieradjudicate.app.session.decisions import Decision, DecisionState
from hieradjudicate.core.arrays import sorted_unique
from hieradjudicate.core.model import Corpus

MAJORITY = 0.5


@dataclass
class Suggestion:
    """What is suggested for one instance."""

    instance: int
    tags: tuple[str, ...]
    support: float  # mean annotator leaf mass inside the answer's region
    votes: int  # annotators who gave exactly this tag set
    of: int  # annotators who answered the instance
    sets: list[str] = field(default_factory=list)  # the annotators who gave it
    majority: bool = True  # support > 1/2
    reliable_tags: tuple[str, ...] = ()
    reliable_set: str = ""
    reliability: float = float("nan")
    #: other answers the rule cannot tell from ``tags`` (as much support, as specific, as many annotators),
    #: in project order: the suggestion is the first of them in project order
    tied: tuple[tuple[str, ...], ...] = ()

    def text(self) -> str:
        head = f"{' '.join(self.tags)}  (support {self.support:.2f}; {self.votes} of {self.of}: " \
               f"{', '.join(self.sets)})"
        if self.reliable_set:
            head += f"; most reliable {self.reliable_set}: {' '.join(self.reliable_tags)}"
        return head


@dataclass
class Suggestions:
    """Suggestions for many instances, as arrays aligned with ``instances``."""

    corpus: Corpus
    raters: list[int]
    instances: np.ndarray  # (N,) global indices
    n_raters: np.ndarray  # (N,) annotators who answered
    majority_set: np.ndarray  # (N,) set index of the suggested answer, -1 = none
    majority_row: np.ndarray  # (N,) its row in that set
    support: np.ndarray  # (N,) float
    votes: np.ndarray  # (N,) int
    reliable_set: np.ndarray  # (N,) -1 = none
    reliable_row: np.ndarray
    reliability: np.ndarray  # (n_sets,) per set of the corpus, NaN for non-raters
    _voters: list[np.ndarray] = field(default_factory=list, repr=False)
    _tied: dict[int, list[tuple[int, int]]] = field(default_factory=dict, repr=False)  # j: (set, row) in project order

    def __len__(self) -> int:
        return int(self.instances.size)

    @property
    def majority(self) -> np.ndarray:
        return self.support > MAJORITY

    def item(self, j: int) -> Suggestion | None:
        """The suggestion for the ``j``-th instance, ``None`` when no annotator answered it."""
        k = int(self.majority_set[j])
        if k < 0:
            return None
        c = self.corpus
        rk = int(self.reliable_set[j])  # -1: the annotators not weighed yet (``Suggester.suggest``)
        return Suggestion(int(self.instances[j]), tags_of(c, k, int(self.majority_row[j])),
                          float(self.support[j]), int(self.votes[j]), int(self.n_raters[j]),
                          [c.sets[x].name for x in self._voters[j].tolist()],
                          bool(self.support[j] > MAJORITY),
                          tags_of(c, rk, int(self.reliable_row[j])) if rk >= 0 else (),
                          c.sets[rk].name if rk >= 0 else "",
                          float(self.reliability[rk]) if rk >= 0 else float("nan"),
                          tuple(tags_of(c, tk, tr) for tk, tr in self._tied.get(j, ())))


class Suggester:
    """Computes suggestions over one corpus; the reliabilities are computed once."""

    def __init__(self, corpus: Corpus, raters: Sequence[int] | None = None,
                 over: np.ndarray | None = None) -> None:
        self.corpus = corpus
        self.raters = list(annotator_sets(corpus) if raters is None else raters)
        self._rank = {k: x for x, k in enumerate(self.raters)}  # each rater's place in ``raters``
        self.over = over
        self._reliability: np.ndarray | None = None

    def warm(self, progress: Callable[[int, int, str], None] | None = None,
             totals: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        """Compute the reliabilities now, telling ``progress`` set by set (the window's opening);
        ``totals``: the raters' leaf vectors summed per instance and their count, when already at hand."""
        if self._reliability is None:
            self._reliability = reliability(self.corpus, self.raters, self.over, progress, totals)

    @property
    def reliability(self) -> np.ndarray:
        """Per set of the corpus: mean leaf agreement with the others' mean (NaN: not a rater,
        or never answered together with another rater)."""
        if self._reliability is None:
            self._reliability = reliability(self.corpus, self.raters, self.over)
        return self._reliability

    @property
    def weighed(self) -> bool:
        """Whether the reliabilities are computed (``warm`` ran, or a suggestion needed them)."""
        return self._reliability is not None

    def suggest(self, instances: np.ndarray | Sequence[int] | None = None, *,
                weigh: bool = True) -> Suggestions:
        """``weigh=False``: when the annotators are not weighed yet, the majority answers only (every
        ``reliable_set`` -1) instead of weighing them now (the window weighs them in the background)."""
        c = self.corpus
        inst = np.arange(c.n, dtype=np.int64) if instances is None \
            else sorted_unique(np.asarray(instances, dtype=np.int64).ravel())  # (np.unique imports numpy.ma)
        N = inst.size
        K = max(c.inventory.K, 1)
        total = np.zeros((N, K))
        m = np.zeros(N, np.int64)
        if N <= 4:  # a few instances (the one shown): the sets that answered them, not a search per set,
            # and their answers as one (answer, leaf) block, not a small computation per set (#33)
            hits = [c.answered(int(x)) for x in inst.tolist()]
            answered = set().union(*hits)
            found = []  # (set, instances j, rows r) in the raters' order, as the loop below
            for k in (k for k in self.raters if k in answered):
                pos = np.asarray([h.get(k, -1) for h in hits], np.int64)
                j = np.flatnonzero(pos >= 0)
                found.append((k, j, pos[j]))
            if found:
                P = np.concatenate(c.leaves_of([k for k, _, _ in found], [r for _, _, r in found]))
                jj = np.concatenate([j for _, j, _ in found])
                np.add.at(total, jj, P)
                m += np.bincount(jj, minlength=N)
                region = P > 0
                mean = total / np.maximum(m, 1)[:, None]
                L = {"j": jj, "k": np.repeat(np.asarray([k for k, _, _ in found], np.int64),
                                               [j.size for _, j, _ in found]),
                     "r": np.concatenate([r for _, _, r in found]), "sup": (mean[jj] * region).sum(axis=1),
                     "size": region.sum(axis=1),
                     "sig": np.concatenate([c.sets[k].signature_of(r) for k, _, r in found])}
            else:
                L = {x: np.zeros(0, np.int64) for x in ("j", "k", "r", "sup", "size", "sig")}
        else:
            where = []
            for k in self.raters:  # one set's at a time: a crowd's sets keep no leaf vectors
                pos = c.sets[k].position(inst)
                j = np.flatnonzero(pos >= 0)
                p = c.sets[k].leaves_rows(pos[j])
                total[j] += p
                m[j] += 1
                where.append((k, j, pos[j], p > 0))
            mean = total / np.maximum(m, 1)[:, None]
            parts: dict[str, list[np.ndarray]] = {x: [] for x in ("j", "k", "r", "sup", "size", "sig")}
            for k, j, r, region in where:
                s = c.sets[k]
                parts["j"].append(j)
                parts["k"].append(np.full(j.size, k, np.int64))
                parts["r"].append(r)
                parts["sup"].append((mean[j] * region).sum(axis=1))
                parts["size"].append(region.sum(axis=1))
                parts["sig"].append(s.signature_of(r))
            L = {x: (np.concatenate(v) if v else np.zeros(0, np.int64)) for x, v in parts.items()}
        known = weigh or self.weighed  # once: a weighing in another thread may end meanwhile
        rel = self.reliability if known else np.full(len(c.sets), np.nan)
        out = Suggestions(c, self.raters, inst, m, np.full(N, -1, np.int64),
                          np.full(N, -1, np.int64), np.zeros(N), np.zeros(N, np.int64),
                          np.full(N, -1, np.int64), np.full(N, -1, np.int64), rel)
        if L["j"].size == 0:
            out._voters = [np.zeros(0, np.int64) for _ in range(N)]
            return out
        # annotators per (instance, tag set)
        order = np.lexsort((L["sig"], L["j"]))
        js, sg = L["j"][order], L["sig"][order]
        start = np.ones(js.size, bool)
        start[1:] = (js[1:] != js[:-1]) | (sg[1:] != sg[:-1])
        group = np.cumsum(start) - 1
        counts = np.bincount(group)
        votes = np.empty(js.size, np.int64)
        votes[order] = counts[group]
        set_rank = np.asarray([self._rank[k] for k in L["k"].tolist()], np.int64)
        maj = L["sup"] > MAJORITY
        k1 = np.where(maj, L["size"], -L["sup"])
        k2 = np.where(maj, -L["sup"], L["size"])
        best = _first_per(L["j"], (set_rank, -votes, k2, k1, ~maj))
        jb = L["j"][best]
        out.majority_set[jb] = L["k"][best]
        out.majority_row[jb] = L["r"][best]
        out.support[jb] = L["sup"][best]
        out.votes[jb] = votes[best]
        if known:
            rel_of = np.nan_to_num(rel[L["k"]], nan=-np.inf)
            rbest = _first_per(L["j"], (set_rank, -rel_of))
            out.reliable_set[L["j"][rbest]] = L["k"][rbest]
            out.reliable_row[L["j"][rbest]] = L["r"][rbest]
        # who gave the suggested tag set (names shown next to it)
        chosen_sig = np.zeros(N, np.int64)
        chosen_sig[jb] = L["sig"][best]
        same = L["sig"] == chosen_sig[L["j"]]
        vj, vr = L["j"][same], set_rank[same]
        o = np.lexsort((vr, vj))
        vj, vk = vj[o], L["k"][same][o]
        bounds = np.searchsorted(vj, np.arange(N + 1))
        out._voters = [vk[bounds[x]:bounds[x + 1]] for x in range(N)]
        out._tied = _ties(L, best, N, maj, votes, set_rank)
        return out

    def one(self, i: int, *, weigh: bool = True) -> Suggestion | None:
        """The suggestion for instance ``i`` (whatever its status); ``weigh``: see :meth:`suggest`."""
        return self.suggest(np.asarray([i]), weigh=weigh).item(0)


def _ties(L: dict, best: np.ndarray, N: int, maj: np.ndarray, votes: np.ndarray,
          set_rank: np.ndarray) -> dict[int, list[tuple[int, int]]]:
    """Per instance with a tie, the other answers equal to the suggested one on every key of the rule
    (majority or not, as many leaves, the same support, as many annotators), each once, in project
    order, as (set, row): only project order chose between them.  Answers that merely have as many
    annotators are no tie: the rule chose by the share of the annotators' mass (WSbest's account.n
    1151: "account#3 account#5" holds more than half of it, given by one annotator of eight, beside
    "account#6" given by one)."""
    best_of = np.full(N, -1, np.int64)
    best_of[L["j"][best]] = best
    b = best_of[L["j"]]
    tie = ((maj == maj[b]) & (L["size"] == L["size"][b]) & (votes == votes[b])
           & (np.abs(L["sup"] - L["sup"][b]) <= 1e-12) & (L["sig"] != L["sig"][b]))
    if not tie.any():
        return {}
    e = np.flatnonzero(tie)
    e = e[np.lexsort((set_rank[e], L["sig"][e], L["j"][e]))]  # by instance, answer, project order
    first = np.ones(e.size, bool)
    first[1:] = (L["j"][e][1:] != L["j"][e][:-1]) | (L["sig"][e][1:] != L["sig"][e][:-1])
    e = e[first]  # each tied answer once, by the first set in project order that gave it
    e = e[np.lexsort((set_rank[e], L["j"][e]))]
    out: dict[int, list[tuple[int, int]]] = {}
    for x in e.tolist():  # only the tied answers: a few per tied instance
        out.setdefault(int(L["j"][x]), []).append((int(L["k"][x]), int(L["r"][x])))
    return out


def _first_per(group: np.ndarray, keys: tuple[np.ndarray, ...]) -> np.ndarray:
    """Index of the smallest entry by ``keys`` (last key primary) within each ``group`` value."""
    order = np.lexsort((*keys, group))
    g = group[order]
    first = np.ones(g.size, bool)
    first[1:] = g[1:] != g[:-1]
    return order[first]


def reliability(corpus: Corpus, raters: Sequence[int], over: np.ndarray | None = None,
                progress: Callable[[int, int, str], None] | None = None,
                totals: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Mean leaf agreement of each rater with the mean of the others (see the module docstring).

    ``over``: boolean mask of the instances to average over (default all).  ``progress(done, total,
    what)`` is told after each set of each of the two passes (MASC: 456 reports over ~2 s, so that a
    dialog waiting on it repaints; it ran 2.4 s at "83 %" without one).  ``totals``: the first pass's
    result (the raters' leaf vectors summed per instance, ``(n, K)``, and their count), read, not
    changed, when the caller has it (the instance table's columns sum the same vectors in the same
    order: see :func:`~hieradjudicate.app.workbench.columns.group_category`).
    """
    n, K = corpus.n, max(corpus.inventory.K, 1)
    R = len(raters)
    tell = progress if progress is not None else (lambda _d, _t, _w: None)
    if totals is not None and totals[0].shape == (n, K) and totals[1].shape == (n,):
        total, m = totals
        for x in range(R):  # done already: the bar moves on through its first half at once
            tell(x + 1, 2 * R, f"set {x + 1:,} of {R:,}")
    else:
        total = np.zeros((n, K))
        m = np.zeros(n, np.int64)
        for x, k in enumerate(raters):  # one set's leaf vectors at a time, none kept (a crowd's: 141 MiB, #23)
            s = corpus.sets[k]
            total[s.rows] += s.leaves_once()
            m[s.rows] += 1
            tell(x + 1, 2 * R, f"set {x + 1:,} of {R:,}")
    out = np.full(len(corpus.sets), np.nan)
    for x, k in enumerate(raters):
        tell(R + x + 1, 2 * R, f"set {x + 1:,} of {R:,} against the others")
        s = corpus.sets[k]
        ok = m[s.rows] >= 2
        if over is not None:
            ok &= np.asarray(over, bool)[s.rows]
        if not ok.any():
            continue
        rows, p = s.rows[ok], s.leaves_rows(np.flatnonzero(ok))
        others = (total[rows] - p) / (m[rows] - 1)[:, None]
        out[k] = float(np.einsum("ik,ik->i", p, others).mean())
    return out


def suggest(corpus: Corpus, state: DecisionState | None = None,
            instances: np.ndarray | Sequence[int] | None = None, *,
            raters: Sequence[int] | None = None, over: str = "all") -> Suggestions:
    """Suggestions for the unresolved instances (all of them, or those of ``instances``).

    ``over="decided"`` computes the reliabilities over the instances with a
    decision only (needs ``state``).
    """
    if over not in ("all", "decided"):
        raise ValueError(f"over must be 'all' or 'decided', not {over!r}")
    decided = decided_mask(corpus, state) if state is not None else np.zeros(corpus.n, bool)
    inst = np.arange(corpus.n) if instances is None else np.asarray(instances, dtype=np.int64)
    inst = inst[~decided[inst]]
    mask = decided if over == "decided" else None
    return Suggester(corpus, raters, mask).suggest(inst)


def suggestion_decision(corpus: Corpus, s: Suggestion, *, reliable: bool = False,
                        note: str = "") -> Decision:
    """The decision recording a suggestion the user accepted (source ``suggestion``)."""
    lexelt, instance = corpus.instance_key(s.instance)
    if reliable:
        return Decision(lexelt, instance, s.reliable_tags, source="suggestion", note=note,
                        basis={"rule": "most reliable", "set": s.reliable_set,
                               "reliability": round(s.reliability, 6)})
    return Decision(lexelt, instance, s.tags, source="suggestion", note=note,
                    basis={"rule": "majority", "support": round(s.support, 6), "votes": s.votes,
                           "of": s.of, "sets": list(s.sets)})
