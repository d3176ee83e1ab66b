"""Who answered one instance, and what: the detail panel's view of a crowd (no Qt).

A crowd project (MASC: 228 workers) has 13-25 workers per sentence, not the
same ones twice.  Per instance the panel shows only the sets that *answered
it*, grouped by their answer (the distinct tag sets, most votes first), each
group with its voters ordered by estimated competence when an estimate exists;
the number keys take the ``k``-th answer listed, never an absent set.

* :func:`answer_groups` -- the distinct answers of the answering sets;
* :func:`leaf_votes` -- per leaf: the number of votes (a label spread over
  several leaves splits its vote), the share of the voters, and the
  competence model's posterior when an estimate exists.

Everything is one slice of :meth:`Corpus.answered` per instance: no loop over
the 228 sets.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.core.inventory.labels import node_short_labels
from hieradjudicate.core.model import Corpus


@dataclass
class AnswerGroup:
    """One distinct answer given to an instance and the sets that gave it."""

    tags: tuple[str, ...]  # inventory ids, heaviest first
    short: list[str]  # their short labels (``work#2``)
    glosses: list[str]
    set_indices: list[int]  # the voters, most competent first (else project order)
    names: list[str]
    leaves: np.ndarray  # (n_leaves,) the answer's leaf vector
    competence: list[float] = field(default_factory=list)  # of each voter (NaN without an estimate)

    @property
    def votes(self) -> int:
        return len(self.set_indices)


def answer_groups(corpus: Corpus, i: int, sets: list[int], competence: dict[int, float] | None = None,
                  *, leaves: bool = True) -> list[AnswerGroup]:
    """The distinct answers of the sets in ``sets`` that answered instance ``i``.

    Ordered by number of votes (ties: the summed competence of the voters when
    given, then the first voter's project order); voters within a group by
    competence, most competent first (ties and no estimate: project order).
    ``leaves=False``: the groups' leaf vectors are not computed (empty), for a caller that reads
    their answers and votes only.
    """
    inv = corpus.inventory
    x = int(corpus.inst_lexelt[i])
    nl = int(inv.n_leaves[x])
    short = node_short_labels(inv)
    wanted = set(sets)
    comp = competence or {}
    groups: dict[bytes, AnswerGroup] = {}
    for k, r in sorted(corpus.answered(i).items()):
        if k not in wanted:
            continue
        s = corpus.sets[k]
        nodes = s.tags_at(r)
        w = s.weights_at(r)
        order = np.argsort(-w, kind="stable")
        nodes = nodes[order]
        key = np.sort(nodes).tobytes()
        g = groups.get(key)
        if g is None:
            g = groups[key] = AnswerGroup(tuple(inv.node_id[int(t)] for t in nodes),
                                          [short[int(t)] for t in nodes],
                                          [inv.node_gloss[int(t)] for t in nodes], [], [], (k, r))
        g.set_indices.append(k)
        g.names.append(s.name)
        g.competence.append(float(comp.get(k, np.nan)))
    out = list(groups.values())
    # each group's leaf vector (its first voter's row), all in one computation
    first = [g.leaves for g in out]
    found = corpus.leaves_of([k for k, _ in first], [np.array([r]) for _, r in first]) if leaves \
        else [np.zeros((1, 0))] * len(out)
    for g, p in zip(out, found):
        g.leaves = p[0, :nl].astype(float)
    for g in out:
        c = np.nan_to_num(np.asarray(g.competence), nan=-1.0)
        order = np.argsort(-c, kind="stable").tolist()
        g.set_indices = [g.set_indices[j] for j in order]
        g.names = [g.names[j] for j in order]
        g.competence = [g.competence[j] for j in order]
    project_order = {k: j for j, k in enumerate(sets)}

    def rank(g: AnswerGroup):
        weight = float(np.nansum(g.competence)) if comp else 0.0
        return (-g.votes, -weight, min(project_order[k] for k in g.set_indices))

    return sorted(out, key=rank)


@dataclass
class LeafVotes:
    """Per leaf of one instance's lexelt: votes, their share, the posterior (NaN without an estimate)."""

    votes: np.ndarray  # (n_leaves,) float: a vote spread over leaves counts in parts
    share: np.ndarray  # (n_leaves,) votes / voters
    posterior: np.ndarray  # (n_leaves,) NaN where no competence estimate exists
    voters: int


def leaf_votes(groups: list[AnswerGroup], n_leaves: int, posterior: np.ndarray | None = None) -> LeafVotes:
    """Sum the groups' leaf vectors (each voter one vote in total)."""
    votes = np.zeros(n_leaves)
    voters = 0
    for g in groups:
        votes += g.votes * g.leaves[:n_leaves]
        voters += g.votes
    share = votes / voters if voters else np.zeros(n_leaves)
    post = np.full(n_leaves, np.nan)
    if posterior is not None:
        post[:] = posterior[:n_leaves]
    return LeafVotes(votes, share, post, voters)


#: More leaves than this and a chart shows the largest ones and sums the rest into one bar.
MAX_BARS = 14


def top_leaves(P: np.ndarray, gold: np.ndarray, n_max: int = MAX_BARS) -> tuple[np.ndarray, np.ndarray]:
    """Which leaves a chart of ``P`` (leaves, series) draws one bar each, and which it sums as "the rest".

    Up to ``n_max`` leaves: all of them, in tree order.  More (``make.v`` has 49): the gold leaves and
    the leaves with the most mass in any series, largest first, ``n_max - 1`` of them; the rest (in
    tree order) go into one summed bar so that every label stays readable.
    """
    n = P.shape[0]
    if n <= n_max:
        return np.arange(n), np.zeros(0, np.int64)
    top = P.max(axis=1) if P.size else np.zeros(n)
    top = np.where(np.isfinite(top), top, 0.0)
    key = top + 2.0 * gold[:n].astype(float)  # gold first, then the largest
    order = np.argsort(-key, kind="stable")
    keep = order[:n_max - 1]
    keep = keep[(top[keep] > 0) | gold[:n][keep]] if (top[keep] > 0).any() or gold[:n].any() else keep
    rest = np.setdiff1d(np.arange(n), keep)
    return keep, rest
