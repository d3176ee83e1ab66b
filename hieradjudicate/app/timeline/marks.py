"""Markers on the timeline, before/after comparisons and the finishing forecast (issue 32).

A marker ("guidelines v2" at a time) is kept in the project's settings (the
row ``timeline_markers``, a JSON list): the file store and the team server
store both have settings, so no schema change is needed and older versions
of the program open the project unchanged (they ignore the row).

Before/after a marker:

* **overturn** -- the share of majority instances whose gold overturns the
  annotators' majority: before = the gold as it stood at the marker, after =
  the instances whose current decision was made after it.  Paired when both
  sides hold the same instances (every instance decided before was decided
  again after), unpaired otherwise.
* **fleiss** -- Fleiss' kappa of the annotations in effect at the marker
  (the last import before it) against the annotations now.  Instances are
  matched by (lexelt, instance id); paired when the same instances are
  pairable on both sides, unpaired otherwise.  No import after the marker:
  nothing to compare, and the result says so.

No Qt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import numpy as np

from hieradjudicate.app.dashboard.gold import RESOLVED
from hieradjudicate.app.timeline.decisions import majority, overturn_outcomes
from hieradjudicate.app.timeline.imports import DIFFERENCES, _kept_differences, difference_key, group_of, \
    import_events
from hieradjudicate.app.timeline.replay import Replay
from hieradjudicate.core.errors import HieradjError
from hieradjudicate.core.model import Corpus
from hieradjudicate.core.stats.timeline_stats import Difference, Forecast, finish_forecast, fleiss_difference, \
    mean_difference, precision_difference
from hieradjudicate.io.store.records import DecisionRow, utc_now

SETTING = "timeline_markers"


@dataclass(frozen=True)
class Marker:
    label: str
    at: str  # ISO 8601 UTC, as decided_at: 2026-01-31T12:00:00.000Z


def parse_at(text: str) -> str:
    """``YYYY-MM-DD`` (the start of that day, UTC) or an ISO date and time (UTC unless it says
    otherwise) as the stored form; raises :class:`HieradjError` naming the expected form."""
    t = text.strip()
    try:
        if len(t) == 10:
            d = datetime.combine(date.fromisoformat(t), datetime.min.time(), UTC)
        else:
            d = datetime.fromisoformat(t.replace("Z", "+00:00"))
            d = d.replace(tzinfo=UTC) if d.tzinfo is None else d.astimezone(UTC)
    except ValueError:
        raise HieradjError(f"--at {text!r}: expected a date YYYY-MM-DD or a date and time "
                           "YYYY-MM-DDTHH:MM[:SS] (UTC)") from None
    return d.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def markers(store: Any) -> list[Marker]:
    """The project's markers, oldest first (a damaged row gives none rather than a failure)."""
    raw = store.get_setting(SETTING, []) or []
    out = [Marker(str(m["label"]), str(m["at"])) for m in raw
           if isinstance(m, dict) and "label" in m and "at" in m]
    return sorted(out, key=lambda m: m.at)


def add_marker(store: Any, label: str, at: str | None = None) -> Marker:
    """Store a marker (``at`` default: now); the project must be writable."""
    label = label.strip()
    if not label:
        raise HieradjError("a marker needs a label, e.g. \"guidelines v2\"")
    if any(ord(c) < 32 for c in label):
        raise HieradjError("a marker's label cannot hold control characters")
    m = Marker(label, parse_at(at) if at else utc_now())
    kept = [{"label": x.label, "at": x.at} for x in markers(store)]
    store.set_setting(SETTING, [*kept, {"label": m.label, "at": m.at}])
    return m


def _sorted_rows(rows: Iterable[DecisionRow]) -> list[DecisionRow]:
    return sorted(rows, key=lambda r: r.decided_at or "")


def overturn_before_after(corpus: Corpus, rows: Iterable[DecisionRow], at: str, *, n_resamples: int = 1000,
                          seed: int = 0, timeline: Any = None) -> Difference:
    """The overturn share before and after the marker at ``at`` (module docstring).  ``timeline``: the
    :class:`~hieradjudicate.app.timeline.decisions.DecisionTimeline` of the same rows, whose replay and
    majority are taken instead of being computed again."""
    if timeline is not None and timeline.replay is not None:
        replay, (has, sig) = timeline.replay.fork(), timeline.majority
        rows = replay.rows
    else:
        rows = _sorted_rows(rows)
        has, sig = majority(corpus, [k for k, s in enumerate(corpus.sets) if s.role == "annotator"])
        replay = Replay(corpus, rows)
    cut = next((j for j, r in enumerate(rows) if (r.decided_at or "") >= at), len(rows))
    replay.advance(cut)
    g = replay.gold_set()
    empty = (np.zeros(0, np.int64), np.zeros(0))
    ib, yb = overturn_outcomes(g.rows, np.asarray(g.signature, np.int64), has, sig) if g is not None else empty
    replay.advance(len(rows))
    g = replay.gold_set()
    ia, ya = empty
    if g is not None:
        when = np.asarray(replay.at, dtype=object)[replay.current_rows(g.rows)]
        late = np.asarray(when >= at, bool)
        ia, ya = overturn_outcomes(g.rows[late], np.asarray(g.signature, np.int64)[late], has, sig)
    paired = ib.size > 0 and np.array_equal(ib, ia)
    lex = corpus.inst_lexelt
    return mean_difference(yb, ya, lex[ib], lex[ia], paired=paired, n_resamples=n_resamples, seed=seed)


def set_scores(corpus: Corpus, k: int, gold: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(instances, score, attempted)`` of set ``k``'s answers on the gold's instances (those it
    answered), each scored as the timeline's scores are (the mass of its leaf vector inside the gold
    region: :class:`~hieradjudicate.app.timeline.scores.IncrementalScores`)."""
    st = corpus.sets[k]
    pos = np.asarray(st.position(gold.rows), np.int64)
    ok = pos >= 0
    P = st.leaves_rows(pos[ok])
    score = np.einsum("ij,ij->i", P, np.asarray(gold.leaves)[ok] > 0)
    return gold.rows[ok], score, np.asarray(st.attempted, np.float64)[pos[ok]]


def score_before_after(corpus: Corpus, at: str, timeline: Any, *, n_resamples: int = 1000,
                       seed: int = 0) -> dict[str, Difference]:
    """Each system's score against the gold before and after the marker at ``at`` (``score:NAME``):
    before = against the gold as it stood at the marker, after = on the instances whose current
    decision was made after it (as :func:`overturn_before_after`); paired when both sides hold the
    same instances, unpaired otherwise
    (:func:`~hieradjudicate.core.stats.timeline_stats.precision_difference`)."""
    systems = [k for k, st in enumerate(corpus.sets) if st.role == "system"]
    if not systems or timeline is None or timeline.replay is None:
        return {}
    replay = timeline.replay.fork()
    rows = replay.rows
    cut = next((j for j, r in enumerate(rows) if (r.decided_at or "") >= at), len(rows))
    replay.advance(cut)
    before = replay.gold_set()
    replay.advance(len(rows))
    after = replay.gold_set()
    if after is not None:  # only the instances whose current decision was made after the marker
        when = np.asarray(replay.at, dtype=object)[replay.current_rows(after.rows)]
        late = np.flatnonzero(np.asarray(when >= at, bool))
        after = _gold_rows(after, late)
    lex = corpus.inst_lexelt
    out: dict[str, Difference] = {}
    empty = (np.zeros(0, np.int64), np.zeros(0), np.zeros(0))
    for k in systems:
        ib, sb, ab = set_scores(corpus, k, before) if before is not None else empty
        ia, sa, aa = set_scores(corpus, k, after) if after is not None else empty
        paired = ib.size > 0 and np.array_equal(ib, ia)
        out[f"score:{corpus.sets[k].name}"] = precision_difference(
            sb, ab, lex[ib], sa, aa, lex[ia], paired=paired, n_resamples=n_resamples, seed=seed)
    return out


def _gold_rows(gold: Any, keep: np.ndarray) -> Any:
    """The instances ``keep`` (positions in ``gold.rows``) of a gold: what :func:`set_scores` reads."""
    from types import SimpleNamespace

    return SimpleNamespace(rows=gold.rows[keep], leaves=np.asarray(gold.leaves)[keep])


def fleiss_before_after(store: Any, corpus: Corpus, at: str, *, n_resamples: int = 1000, seed: int = 0,
                        rebuild: Callable[[Any, list[Any]], Corpus] | None = None) -> Difference:
    """Fleiss' kappa of the annotations in effect at ``at`` against those now (module docstring)."""
    events = import_events(store)
    before = [e for e in events if e.at < at]
    if not before:
        return Difference(None, None, None, None, None, False, 0, 0, "",
                          "the project was created after the marker: no annotations before it")
    if before[-1].files == events[-1].files:
        return Difference(None, None, None, None, None, False, 0, 0, "",
                          "no import after the marker: the annotations are the same on both sides")
    by_id = {f.id: f for f in store.files(active_only=False)}
    key = difference_key(by_id, before[-1].files, events[-1].files, n_resamples, seed)
    kept = _kept_differences(store)
    if key in kept:  # the same copies on both sides: the same figures (they never change)
        return Difference(**kept[key])
    from hieradjudicate.app.timeline.states import corpus_side, load_side, rebased, state_name

    sb = load_side(store, state_name(by_id, before[-1].files), corpus)  # kept when that state came to be
    if sb is None:  # a project made by an older version: the state at the marker rebuilt (once: kept)
        if rebuild is None:
            from hieradjudicate.app.session.stored_inputs import reload_corpus as rebuild
        old = rebuild(store, [by_id[i] for i in before[-1].files])
        side = corpus_side(old, group_of(old))
        _keep_side(store, state_name(by_id, before[-1].files), side, old)
        sb = rebased(side, old, corpus)
        del old, side  # a crowd's older corpus is hundreds of MB
    sa = load_side(store, state_name(by_id, events[-1].files), corpus)
    if sa is None:
        sa = corpus_side(corpus, group_of(corpus))
    # fleiss_difference pairs the sides when they hold the same pairable instances
    d = fleiss_difference(sb, sa, n_resamples=n_resamples, seed=seed)
    _keep_difference(store, key, d)
    return d


def _keep_side(store: Any, name: str, side: Any, old: Corpus) -> None:
    """A rebuilt state's Fleiss side kept (from a thread's copy of the store: held for its owner)."""
    from hieradjudicate.app.timeline.states import save_side, side_arrays

    if hasattr(store, "held_sides"):
        store.held_sides[name] = side_arrays(side, old)
    else:
        save_side(store, name, side, old)


def _keep_difference(store: Any, key: str, d: Difference) -> None:
    """Kept in the project when it can be written; from a thread's copy of the store
    (:class:`~hieradjudicate.app.timeline.imports.StoredCopies`), held for its owner to write."""
    from dataclasses import asdict

    from hieradjudicate.core.errors import ProjectError

    if hasattr(store, "held"):
        store.held[key] = asdict(d)
        return
    if not hasattr(store, "put_arrays") or getattr(store, "read_only", True):
        return
    try:
        store.put_arrays(DIFFERENCES, {}, {**_kept_differences(store), key: asdict(d)})
    except ProjectError:
        pass


def progress_per_day(day_resolved: dict[str, int]) -> tuple[list[str], np.ndarray]:
    """Calendar days from the first day with decisions to the last, and the net change in resolved
    instances on each (zero on a day without decisions), from the resolved count at each day's end
    (:attr:`DecisionTimeline.day_resolved`)."""
    if not day_resolved:
        return [], np.zeros(0)
    try:
        first, last = date.fromisoformat(min(day_resolved)), date.fromisoformat(max(day_resolved))
    except ValueError:  # a row without a date: the days as they are
        keys = sorted(day_resolved)
        return keys, np.diff([0, *[day_resolved[k] for k in keys]]).astype(np.float64)
    days = [(first + timedelta(days=k)).isoformat() for k in range((last - first).days + 1)]
    level, ends = 0, []
    for d in days:
        level = day_resolved.get(d, level)
        ends.append(level)
    return days, np.diff([0, *ends]).astype(np.float64)


def forecast(day_resolved: dict[str, int], status: np.ndarray, *, n_resamples: int = 1000,
             seed: int = 0) -> tuple[Forecast, str | None, str | None, str | None]:
    """The forecast and its dates ``(expected, earliest, latest)`` (YYYY-MM-DD; None when open-ended):
    days counted from the last day with decisions.  ``status``: the current status per instance."""
    days, per = progress_per_day(day_resolved)
    open_ = int((status != RESOLVED).sum())
    f = finish_forecast(per, open_, n_resamples=n_resamples, seed=seed)
    if not days or f.days is None:
        return f, None, None, None
    try:
        last = date.fromisoformat(days[-1])
    except ValueError:
        return f, None, None, None

    def when(d: float | None) -> str | None:
        return None if d is None else (last + timedelta(days=float(np.ceil(d)))).isoformat()

    return f, when(f.days), when(f.days_low), when(f.days_high)


__all__ = ["Marker", "SETTING", "add_marker", "fleiss_before_after", "forecast", "markers",
           "overturn_before_after", "parse_at", "progress_per_day"]
