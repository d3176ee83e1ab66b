"""Team work on a server project: splitting the open instances, and the lead's figures.

:func:`plan_assignment` is pure (numpy): which adjudicator gets which open instance, with a
fraction ``overlap`` given to two adjudicators (blind double adjudication).  :func:`figures`
computes, per adjudicator, progress, speed, agreement with the other adjudicator on the overlap
(Scott's pi / Siegel & Castellan kappa and Cohen's kappa over leaf distributions, with BCa
bootstrap intervals: the figures and code the annotator agreement uses) and the lead's
overturn rate.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hieradjudicate.core.agreement.bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED, BootstrapCI, bootstrap_pairwise
from hieradjudicate.core.errors import HieradjError
from hieradjudicate.core.inventory.leaves import leaf_vectors
from hieradjudicate.core.model import Corpus

#: a pause longer than this between two decisions of one person is a break, not work
BREAK_SECONDS = 600.0

Key = tuple[str, str]


def project_senses(path: str | os.PathLike[str]) -> list[tuple[str, str]]:
    """Every (lexelt, sense id or alias) of a file project's inventory: the tags a server accepts."""
    from hieradjudicate.app.session.session import Session

    from hieradjudicate.io.store.pg.transfer import inventory_senses

    with Session.open(path, read_only=True) as s:
        return inventory_senses(s.corpus.inventory)


def publish_project(path: str | os.PathLike[str], url: str) -> dict[str, int]:
    """``project publish``: the file project, with its inventory's senses, into a new server project."""
    from hieradjudicate.io.store.pg.transfer import publish

    return publish(path, url, senses=project_senses(path))


def plan_assignment(keys: Sequence[Key], adjudicators: Sequence[str], *, overlap: float = 0.0,
                    by: str = "instance", seed: int = 0) -> list[tuple[str, str, str, bool]]:
    """Split ``keys`` among ``adjudicators``: ``(lexelt, instance, adjudicator, blind)`` rows.

    ``by="instance"``: a seeded random ``overlap`` share of the instances goes to two different
    adjudicators (partners rotate), the rest to one, so that everyone's load differs by at most
    one.  ``by="lexelt"``: whole lexelts go to one adjudicator each (largest first to the least
    loaded); within each lexelt an ``overlap`` share also goes to a second adjudicator.
    """
    people = list(dict.fromkeys(a.strip() for a in adjudicators if a.strip()))
    if not people:
        raise HieradjError("give at least one adjudicator")
    if not 0.0 <= overlap <= 1.0:
        raise HieradjError(f"--overlap must be between 0 and 1, not {overlap}")
    if overlap > 0 and len(people) < 2:
        raise HieradjError("blind double adjudication (--overlap) needs at least two adjudicators")
    if by not in ("instance", "lexelt"):
        raise HieradjError(f"--by must be instance or lexelt, not {by!r}")
    n, m = len(keys), len(people)
    if n == 0:
        return []
    rng = np.random.default_rng(seed)
    if by == "instance":
        order = rng.permutation(n)
        nb = int(round(overlap * n))
        j = np.arange(nb)
        first = j % m
        second = (first + 1 + (j // m) % max(m - 1, 1)) % m
        load = np.bincount(np.concatenate([first, second]), minlength=m)
        ns = n - nb
        target = -(-(2 * nb + ns) // m)
        need = np.maximum(target - load, 0)
        single = np.repeat(np.arange(m), need)[:ns]
        if len(single) < ns:  # cannot happen (target rounds up), kept as a guard
            single = np.concatenate([single, np.arange(ns - len(single)) % m])
        who = [(order[:nb], first, True), (order[:nb], second, True), (order[nb:], single, False)]
        out = []
        for idx, person, blind in who:
            out += [(keys[i][0], keys[i][1], people[p], blind)
                    for i, p in zip(idx.tolist(), person.tolist(), strict=True)]
        return out
    groups: dict[str, list[int]] = defaultdict(list)
    for i, (lex, _inst) in enumerate(keys):
        groups[lex].append(i)
    load = np.zeros(m, np.int64)
    out = []
    for lex in sorted(groups, key=lambda x: (-len(groups[x]), x)):
        idx = np.array(groups[lex])
        owner = int(np.argmin(load))
        load[owner] += len(idx)
        nb = int(round(overlap * len(idx)))
        pick = set(rng.choice(len(idx), size=nb, replace=False).tolist()) if nb else set()
        second = -1
        if nb:
            others = [p for p in np.argsort(load, kind="stable").tolist() if p != owner]
            second = others[0]
            load[second] += nb
        for k, i in enumerate(idx.tolist()):
            out.append((keys[i][0], keys[i][1], people[owner], k in pick))
            if k in pick:
                out.append((keys[i][0], keys[i][1], people[second], True))
    return out


#: fewer overlap pairs than this give kappa without an interval: resampling one pair (or a few) gives a
#: zero-width or meaningless interval ("-0.500 [-0.500, -0.500]")
MIN_INTERVAL_PAIRS = 10


@dataclass
class AdjudicatorFigures:
    """The lead's figures of one adjudicator."""

    name: str
    assigned: int = 0
    decided: int = 0
    decisions: int = 0  # rows written (re-decisions count)
    median_seconds: float | None = None  # between consecutive decisions, breaks left out
    per_hour: float | None = None  # decisions per hour of work
    overlap_pairs: int = 0  # blind instances both adjudicators decided
    #: blind instances where this person answered otherwise after the pair opened (their answer
    #: given while blind is the one compared)
    changed_after_open: int = 0
    scott: BootstrapCI | None = None
    cohen: BootstrapCI | None = None
    overturned: int = 0
    reasons: list[str] = field(default_factory=list)

    @property
    def progress(self) -> float | None:
        return self.decided / self.assigned if self.assigned else None

    @property
    def overturn_rate(self) -> float | None:
        return self.overturned / self.decided if self.decided else None


def _tags(text: str) -> tuple[str, ...]:
    return tuple(json.loads(text))


def _leaf_rows(corpus: Corpus, items: Sequence[tuple[str, tuple[str, ...]]]) -> tuple[np.ndarray, np.ndarray]:
    """Leaf vectors of decisions ``(lexelt, tags)`` (each tag weighted 1/len) and their lexelt codes."""
    inv = corpus.inventory
    lex_code = {name: k for k, name in enumerate(inv.lexelts)}
    ptr, nodes, weights, lex = [0], [], [], []
    for lexelt, tags in items:
        found = [inv.lookup(lexelt, t) for t in tags]
        found = [f for f in found if f >= 0]
        nodes += found
        weights += [1.0 / len(found)] * len(found) if found else []
        ptr.append(len(nodes))
        lex.append(lex_code.get(lexelt, 0))
    P = leaf_vectors(inv, np.asarray(ptr, np.int64), np.asarray(nodes, np.int64),
                     np.asarray(weights, np.float64))
    return P, np.asarray(lex, np.int64)


def figures(corpus: Corpus, assignments: Sequence[tuple[str, str, str, bool]],
            adjudicator_rows: Sequence[tuple[Any, ...]], lead_rows: Sequence[tuple[Any, ...]], *,
            n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED) -> list[AdjudicatorFigures]:
    """Per adjudicator (see the module); rows as :mod:`hieradjudicate.io.store.pg.team` reads them.

    A row's eighth field, when given, is the time its blind pair opened (None: not an open blind
    pair) and its ninth its batch.  Speed counts only decisions written one per step: the rows of an import or any other step that writes many at once carry one commit time,
    which is no adjudication speed (one import read as about 148 million decisions an hour)."""
    people = sorted({a[2] for a in assignments} | {r[2] for r in adjudicator_rows})
    out = {p: AdjudicatorFigures(p) for p in people}
    latest: dict[tuple[str, str, str], tuple[Any, ...]] = {}
    blind_answer: dict[tuple[str, str, str], tuple[Any, ...]] = {}  # given while the pair was blind
    changed: set[tuple[str, str, str]] = set()
    times: dict[str, list[float]] = defaultdict(list)
    per_batch: dict[Any, int] = defaultdict(int)
    for row in adjudicator_rows:
        if len(row) > 8 and row[8] is not None:
            per_batch[row[8]] += 1
    for row in adjudicator_rows:  # id order
        key = (row[0], row[1], row[2])
        latest[key] = row
        opened = row[7] if len(row) > 7 else None
        if opened is None or float(row[6]) <= float(opened):
            blind_answer[key] = row
        elif key in blind_answer and (row[3], row[4]) != (blind_answer[key][3], blind_answer[key][4]):
            changed.add(key)
        out[row[2]].decisions += 1
        if len(row) <= 8 or row[8] is None or per_batch[row[8]] == 1:
            times[row[2]].append(float(row[6]))
    current = {k: r for k, r in latest.items() if r[4] != "unresolved"}
    for lex, inst, person, _blind in assignments:
        out[person].assigned += 1
        if (lex, inst, person) in current:
            out[person].decided += 1
    for person, ts in times.items():
        gaps = np.diff(np.sort(np.asarray(ts)))
        gaps = gaps[gaps <= BREAK_SECONDS]
        if len(gaps):
            out[person].median_seconds = float(np.median(gaps))
            mean = float(gaps.mean())
            out[person].per_hour = 3600.0 / mean if mean > 0 else None
    # the lead overturns a decision by deciding the instance later with other tags or status
    lead_last: dict[Key, tuple[Any, ...]] = {}
    for row in lead_rows:
        lead_last[(row[0], row[1])] = row
    for (lex, inst, person), row in current.items():
        lead = lead_last.get((lex, inst))
        if lead is not None and lead[4] > row[5] and (_tags(lead[2]), lead[3]) != (_tags(row[3]), row[4]):
            out[person].overturned += 1
    # agreement on the overlap: each blind instance decided by both halves gives one pair
    blind: dict[Key, list[str]] = defaultdict(list)
    for lex, inst, person, is_blind in assignments:
        if is_blind:
            blind[(lex, inst)].append(person)
    pairs: dict[str, list[tuple[tuple[Any, ...], tuple[Any, ...]]]] = defaultdict(list)
    for (lex, inst), two in blind.items():
        rows = [blind_answer.get((lex, inst, p)) for p in two]
        rows = [r if r is not None and r[4] != "unresolved" else None for r in rows]
        for p in two:
            if (lex, inst, p) in changed:
                out[p].changed_after_open += 1
        if len(two) == 2 and all(r is not None for r in rows):
            a, b = rows
            pairs[two[0]].append((a, b))
            pairs[two[1]].append((b, a))
    for person, fig in out.items():
        mine = pairs.get(person, [])
        fig.overlap_pairs = len(mine)
        if not mine:
            fig.reasons.append("no blind instance decided by both adjudicators yet")
            continue
        if len(mine) < MIN_INTERVAL_PAIRS:
            fig.reasons.append(f"only {len(mine)} overlap pair(s): kappa without an interval (a bootstrap "
                               f"interval needs at least {MIN_INTERVAL_PAIRS} pairs)")
        pa, lex = _leaf_rows(corpus, [(a[0], _tags(a[3])) for a, _ in mine])
        pb, _ = _leaf_rows(corpus, [(b[0], _tags(b[3])) for _, b in mine])
        fig.scott, fig.cohen = bootstrap_pairwise(pa, pb, lex, n_lexelts=len(corpus.inventory.lexelts),
                                                  n_resamples=n_resamples, seed=seed)
    return [out[p] for p in people]


def figures_table(figs: Sequence[AdjudicatorFigures]) -> tuple[list[str], list[list[str]]]:
    """Header and rows for text/CSV output; an undefined figure is '—' with its reason listed."""

    def pct(x: float | None) -> str:
        return "—" if x is None else f"{100 * x:.1f}%"

    def ci(c: BootstrapCI | None, pairs: int) -> str:
        if c is None or c.estimate.value is None:
            return "—"
        if pairs < MIN_INTERVAL_PAIRS:
            return f"{c.estimate.value:.3f} (too few pairs for an interval)"
        if c.low is None or c.high is None:
            return f"{c.estimate.value:.3f}"
        return f"{c.estimate.value:.3f} [{c.low:.3f}, {c.high:.3f}]"

    header = ["adjudicator", "assigned", "decided", "progress", "median s/decision", "per hour",
              "overlap pairs", "changed after unblinding", "kappa (Scott) 95% CI", "kappa (Cohen) 95% CI", "overturned", "overturn rate"]
    rows = [[f.name, str(f.assigned), str(f.decided), pct(f.progress),
             "—" if f.median_seconds is None else f"{f.median_seconds:.1f}",
             "—" if f.per_hour is None else f"{f.per_hour:.0f}", str(f.overlap_pairs),
             str(f.changed_after_open), ci(f.scott, f.overlap_pairs), ci(f.cohen, f.overlap_pairs),
             str(f.overturned), pct(f.overturn_rate)] for f in figs]
    return header, rows


def figures_json(figs: Sequence[AdjudicatorFigures], *, n_resamples: int, seed: int) -> dict[str, Any]:
    """The figures as numbers (``None`` where undefined, with the reasons), for ``--format json``."""

    def ci(c: BootstrapCI | None) -> dict[str, Any] | None:
        if c is None or c.estimate.value is None:
            return None
        return {"estimate": float(c.estimate.value), "low": c.low, "high": c.high, "strata": c.strata}

    return {"resamples": n_resamples, "seed": seed, "level": 0.95, "adjudicators": [
        {"adjudicator": f.name, "assigned": f.assigned, "decided": f.decided, "progress": f.progress,
         "median_seconds_per_decision": f.median_seconds, "decisions_per_hour": f.per_hour,
         "overlap_pairs": f.overlap_pairs, "kappa_scott": ci(f.scott), "kappa_cohen": ci(f.cohen),
         "overturned": f.overturned, "overturn_rate": f.overturn_rate, "reasons": list(f.reasons)}
        for f in figs]}
