"""The adjudication over time: one point per day, week or N decisions (issue 32).

The project keeps every decision row with its time (``decided_at``, UTC).
:func:`decision_timeline` replays those rows once, oldest first (:class:`~hieradjudicate.app.timeline.replay.Replay`:
the dashboard's :class:`~hieradjudicate.app.dashboard.gold.DecisionTracker` rules over arrays,
held to the tracker by the tests), and at the end of each bin takes the figures the dashboard
shows at that moment:

* the counts of resolved, flagged, skipped and open instances, and the rows of
  the bin (decisions and withdrawals);
* each set's leaf score against the gold decided so far (the figure of the
  dashboard's "agreement with the gold" table, kept incrementally by
  :class:`~hieradjudicate.app.timeline.scores.IncrementalScores`), with its BCa interval
  (:func:`~hieradjudicate.core.scoring.score_bootstrap.bootstrap_scores`) for the
  systems and, when there are few, for the annotator sets;
* how often the gold overturns the annotators' majority: among resolved
  instances where more than half of the annotator sets that answered gave the
  same tag set, the share whose gold is another tag set (BCa interval of the
  stratified bootstrap, drawn per lexelt: :func:`~hieradjudicate.core.stats.timeline_stats.share_interval`).

The replay reads each row once; each point scores again only the answers of the instances
decided in it.
No Qt.  The import points (agreement at each import and re-import) are in
:mod:`hieradjudicate.app.timeline.imports`, markers, before/after and the
forecast in :mod:`hieradjudicate.app.timeline.marks`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

import numpy as np

from hieradjudicate.app.dashboard.gold import STATUS_NAMES
from hieradjudicate.app.timeline.replay import Replay
from hieradjudicate.app.timeline.resume import Checkpoint, fingerprint
from hieradjudicate.app.timeline.scores import IncrementalScores
from hieradjudicate.core.model import Corpus
from hieradjudicate.core.scoring.score_bootstrap import bootstrap_scores
from hieradjudicate.core.stats.timeline_stats import share_interval
from hieradjudicate.io.store.records import DecisionRow

BY_CHOICES = ("day", "week")  # or a positive integer N: every N decision rows
#: above this many annotator sets only the systems' scores carry intervals (a crowd: 228 sets x points)
MAX_INTERVAL_SETS = 20


@dataclass(frozen=True)
class Figure:
    """A figure with its 95 % interval (``low``/``high`` None: no interval, ``why`` says so)."""

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int = 0
    why: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n, "why": self.why}


@dataclass(frozen=True)
class DecisionPoint:
    label: str  # the day (YYYY-MM-DD), the week's Monday ("week of YYYY-MM-DD") or "rows a-b"
    start: str  # decided_at of the bin's first row
    end: str  # decided_at of the bin's last row
    decisions: int  # rows that set a status
    withdrawals: int  # rows that made an instance open again
    counts: dict[str, int]  # resolved / flagged / skipped / open (/ conflict) after the bin
    overturn: Figure  # share of majority instances whose gold is another answer
    scores: dict[str, Figure]  # set name -> leaf score against the gold so far
    instances: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0, np.int64))
    by_person: dict[str, int] = field(default_factory=dict)  # rows that set a status, per decided_by


@dataclass(frozen=True)
class DecisionTimeline:
    by: str
    points: list[DecisionPoint]
    sets: list[str]
    n_instances: int
    note: str  # what the timeline rests on
    day_resolved: dict[str, int] = field(default_factory=dict)  # resolved instances at each day's end
    status: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0, np.int8))  # now, per instance
    checkpoint: Any = field(repr=False, default=None)  # resume.Checkpoint: the closed points, to keep
    replay: Any = field(repr=False, default=None)  # the Replay of the rows (a marker's before/after forks it)
    majority: Any = field(repr=False, default=None)  # (has, signature) per instance: the annotators' majority

    def column(self, name: str) -> list[float | None]:
        """One figure over the points: ``resolved``, ``decisions``, ``overturn``, ``score:<set>``."""
        if name.startswith("score:"):
            return [p.scores[name[6:]].value if name[6:] in p.scores else None for p in self.points]
        if name == "overturn":
            return [p.overturn.value for p in self.points]
        if name in ("decisions", "withdrawals"):
            return [float(getattr(p, name)) for p in self.points]
        return [float(p.counts.get(name, 0)) for p in self.points]


def parse_by(text: str | int) -> str | int:
    """``day``, ``week`` or a positive number of decisions; raises ValueError naming the choices."""
    if isinstance(text, int) or str(text).isdigit():
        n = int(text)
        if n < 1:
            raise ValueError(f"--by {text}: the number of decisions per point must be at least 1")
        return n
    if text not in BY_CHOICES:
        raise ValueError(f"--by {text!r}: expected import, day, week or a number of decisions")
    return str(text)


def week_of(day: str) -> str:
    """The Monday (YYYY-MM-DD) of the ISO week of ``day``; ``day`` itself when it is no date."""
    try:
        d = date.fromisoformat(day[:10])
    except ValueError:
        return day
    return (d - timedelta(days=d.weekday())).isoformat()


def majority(corpus: Corpus, sets: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """``(has, signature)`` per instance: ``has[i]`` when more than half of the ``sets`` that answered
    instance ``i`` gave the same tag set (by :attr:`AnnotationSet.signature`), which ``signature[i]``
    holds.  Vectorised over every label (a crowd's 1.08 M)."""
    n = corpus.n
    has = np.zeros(n, bool)
    sig = np.zeros(n, np.int64)
    if not sets:
        return has, sig
    inst = np.concatenate([corpus.sets[k].rows for k in sets])
    s = np.concatenate([np.asarray(corpus.sets[k].signature, np.int64) for k in sets])
    answered = np.bincount(inst, minlength=n)
    order = np.lexsort((s, inst))
    inst, s = inst[order], s[order]
    start = np.ones(inst.size, bool)
    start[1:] = (inst[1:] != inst[:-1]) | (s[1:] != s[:-1])
    heads = np.flatnonzero(start)
    runs = np.diff(np.append(heads, inst.size))
    r_inst, r_sig = inst[heads], s[heads]
    # the longest run per instance: sort runs by (instance, -length), the first of each instance
    o = np.lexsort((-runs, r_inst))
    first = np.ones(o.size, bool)
    first[1:] = r_inst[o][1:] != r_inst[o][:-1]
    best = o[first]
    ok = 2 * runs[best] > answered[r_inst[best]]
    has[r_inst[best][ok]] = True
    sig[r_inst[best][ok]] = r_sig[best][ok]
    return has, sig


def _bins(rows: Sequence[DecisionRow], by: str | int) -> list[tuple[str, int, int]]:
    """``(label, first, stop)`` runs of consecutive rows of one bin (rows in time order)."""
    if isinstance(by, int):
        return [(f"rows {a + 1}-{min(a + by, len(rows))}", a, min(a + by, len(rows)))
                for a in range(0, len(rows), by)]
    days = [(r.decided_at or "unknown")[:10] for r in rows]
    keys = days if by == "day" else [f"week of {w}" for w in map(week_of, days)]
    out: list[tuple[str, int, int]] = []
    a = 0
    for j in range(1, len(keys) + 1):
        if j == len(keys) or keys[j] != keys[a]:
            out.append((keys[a], a, j))
            a = j
    return out


def decision_timeline(corpus: Corpus, rows: Iterable[DecisionRow], *, by: str | int = "day",
                      n_resamples: int = 1000, seed: int = 0,
                      max_interval_sets: int = MAX_INTERVAL_SETS, resume: Any = None,
                      key: str | None = None) -> DecisionTimeline:
    """The adjudication's figures at the end of each bin of decision rows (see the module docstring).

    Rows are taken in time order (``decided_at``, ties in saving order: the saving order whenever
    the clock did not go back), so the last point is the state the dashboard shows now.
    ``n_resamples=0`` leaves every interval out.  ``resume``: a
    :class:`~hieradjudicate.app.timeline.resume.Checkpoint` of an earlier view (taken up when it still
    fits these rows: only the points after it are computed); ``key``: the key of the checkpoint handed
    back (None: none).
    """
    by = parse_by(by)
    rows = sorted(rows, key=lambda r: r.decided_at or "")  # stable: saving order within a time
    sets = [k for k, s in enumerate(corpus.sets) if s.role != "gold"]
    ann = [k for k, s in enumerate(corpus.sets) if s.role == "annotator"]
    with_ci = [k for k in sets if corpus.sets[k].role == "system" or len(ann) <= max_interval_sets]
    bins = _bins(rows, by)
    cp = resume if _fits(resume, rows, bins, corpus.n) else None
    # the majority depends on the inputs alone, which the key holds: one kept for them serves any rows
    kept = cp if cp is not None else resume if resume is not None and key is not None and resume.key == key \
        and resume.has_major.size == corpus.n else None
    has_major, major_sig = (kept.has_major, kept.major_sig) if kept is not None else majority(corpus, ann)
    tracker = Replay(corpus, rows)
    inc = IncrementalScores(corpus, sets)
    points: list[DecisionPoint] = []
    day_resolved: dict[str, int] = {}
    first = 0
    if cp is not None:  # the closed points kept: replay only the rows after them
        points, day_resolved, first = list(cp.points), dict(cp.day_resolved), len(cp.points)
        tracker.restore(cp.last, cp.stop)
        later = tracker.inst[cp.stop:]
        inc.restore(cp.sums, cp.atts, cp.n, tracker.gold_set(), np.unique(later[later >= 0]),
                    [u for u, k in enumerate(sets) if k in with_ci])
    days = [(r.decided_at or "unknown")[:10] for r in rows]
    day_ends = {j for j in range(1, len(rows)) if days[j] != days[j - 1]} | {len(rows)}
    checkpoint = cp
    for j_bin, (label, a, b) in enumerate(bins[first:], first):
        chunk = rows[a:b]
        # the bin in segments cut at the ends of days: the resolved count at each day's end (the forecast)
        cuts = sorted({a, b} | {j for j in day_ends if a < j < b})
        touched = []
        for c0, c1 in zip(cuts[:-1], cuts[1:]):
            touched.append(tracker.advance(c1))
            if c1 in day_ends:
                day_resolved[days[c1 - 1]] = tracker.n_resolved
        withdrawals = sum(r.status == "unresolved" for r in chunk)
        people: dict[str, int] = {}
        for r in chunk:  # who decided (a team project: each adjudicator's speed)
            if r.status != "unresolved":
                people[r.decided_by] = people.get(r.decided_by, 0) + 1
        counts = np.bincount(tracker.status, minlength=len(STATUS_NAMES))
        named = {("open" if name == "unresolved" else name): int(counts[k])
                 for k, name in enumerate(STATUS_NAMES) if name != "conflict" or counts[k]}
        gold = tracker.gold_set()
        scores: dict[str, Figure] = {}
        overturn = Figure(None, why="no resolved instance yet")
        inc.update(gold, np.unique(np.concatenate(touched)))
        if gold is not None and gold.n:
            strata = corpus.inst_lexelt[gold.rows]
            sums, atts, answered = inc.figures()
            for u, k in enumerate(sets):
                scores[corpus.sets[k].name] = _score_figure(inc, u, gold, sums[u], atts[u], int(answered[u]), strata,
                                                            k in with_ci, n_resamples, seed)
            overturn = _overturn(gold.rows, np.asarray(gold.signature, np.int64), has_major, major_sig,
                                 corpus.inst_lexelt, n_resamples, seed)
        points.append(DecisionPoint(label, chunk[0].decided_at, chunk[-1].decided_at, len(chunk) - withdrawals,
                                    withdrawals, named, overturn, scores, np.unique(np.concatenate(touched)),
                                    dict(sorted(people.items()))))
        if key is not None and j_bin == len(bins) - 2:  # the last closed point: keep the state here
            checkpoint = Checkpoint(key, [x[2] for x in bins[:j_bin + 1]], fingerprint(rows, b), list(points),
                                    dict(day_resolved), tracker.last.copy(), inc.sums.copy(), inc.atts.copy(),
                                    inc.n.copy(), has_major, major_sig)
    note = ("The timeline rests on the times decisions were saved (decided_at, UTC); the inputs "
            "carry no dates of their own.")
    return DecisionTimeline(str(by), points, [corpus.sets[k].name for k in sets], corpus.n, note, day_resolved,
                            tracker.status.copy(), checkpoint, tracker, (has_major, major_sig))


def point_from_json(d: dict[str, Any], instances: np.ndarray) -> DecisionPoint:
    """A point from its plain form (as :mod:`~hieradjudicate.app.timeline.resume` keeps it)."""
    return DecisionPoint(d["label"], d["start"], d["end"], int(d["decisions"]), int(d["withdrawals"]),
                         dict(d["counts"]), Figure(**d["overturn"]), {k: Figure(**f) for k, f in d["scores"].items()},
                         instances, dict(d["by_person"]))


def _fits(cp: Any, rows: Sequence[DecisionRow], bins: list[tuple[str, int, int]], n: int) -> bool:
    """Whether the checkpoint ``cp`` covers the first bins of these rows (same rows, same cuts)."""
    if cp is None or not cp.stops or cp.last.size != n or len(cp.stops) >= len(bins):  # the last: always
        return False
    m = len(cp.stops)
    if [b for _, _, b in bins[:m]] != cp.stops or [lab for lab, _, _ in bins[:m]] != [p.label for p in cp.points]:
        return False
    return fingerprint(rows, cp.stop) == cp.fingerprint


def _score_figure(inc: IncrementalScores, u: int, gold: Any, total: float, attempted: float, n: int,
                  strata: np.ndarray, interval: bool, n_resamples: int, seed: int) -> Figure:
    if n == 0 or attempted <= 1e-12:  # the running sums of nothing: zero up to rounding
        return Figure(None, n=n, why="nothing attempted on the resolved instances")
    value = float(total / attempted)
    if not interval or n_resamples <= 0:
        why = f"no interval: more than {MAX_INTERVAL_SETS} annotator sets" if not interval else "no resamples"
        return Figure(value, n=n, why=why)
    score, att = inc.instance_scores(u, gold)
    b = bootstrap_scores(score, att, strata=strata, n_resamples=n_resamples, seed=seed).precision
    return Figure(value, b.low, b.high, n, b.reason)


def overturn_outcomes(gold_rows: np.ndarray, gold_sig: np.ndarray, has_major: np.ndarray,
                      major_sig: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(instances, overturned)``: the resolved instances with a majority and whether the gold
    differs from it (1.0) or not (0.0)."""
    keep = has_major[gold_rows]
    inst = gold_rows[keep]
    return inst, (gold_sig[keep] != major_sig[inst]).astype(np.float64)


def _overturn(gold_rows: np.ndarray, gold_sig: np.ndarray, has_major: np.ndarray, major_sig: np.ndarray,
              inst_lexelt: np.ndarray, n_resamples: int, seed: int) -> Figure:
    inst, y = overturn_outcomes(gold_rows, gold_sig, has_major, major_sig)
    if not inst.size:
        return Figure(None, why="no resolved instance has a majority of the annotator sets")
    value = float(y.mean())
    if n_resamples <= 0:
        return Figure(value, n=int(inst.size), why="no resamples")
    low, high, _ = share_interval(y, inst_lexelt[inst], n_resamples=n_resamples, seed=seed)
    return Figure(value, low, high, int(inst.size))
