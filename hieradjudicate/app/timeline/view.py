"""Everything the timeline shows, for one open project (the command line, the report and the window).

:func:`project_timeline` gathers the decision points, the import points, the
markers with their before/after comparisons and the forecast;
:func:`as_json` makes it plain data (numbers as numbers, ``None`` for an
undefined figure).  No Qt.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from hieradjudicate.app.timeline.dated import as_json as dated_json
from hieradjudicate.app.timeline.decisions import DecisionTimeline, decision_timeline
from hieradjudicate.app.timeline.imports import ImportPoint, import_timeline
from hieradjudicate.app.timeline.marks import Marker, forecast, fleiss_before_after, markers, \
    overturn_before_after, score_before_after
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.core.stats.timeline_stats import Difference, Forecast

#: the before/after comparisons of a marker: key in ``before_after[j]`` and what it compares
BEFORE_AFTER = (("overturn", "gold overturns the majority"), ("fleiss", "Fleiss' kappa"),
                ("made", "Fleiss' kappa of the answers made before / after it (the dates inside the inputs)"))


def before_after_figures(keys: Any) -> list[tuple[str, str]]:
    """``(key, what it compares)`` of a marker's comparisons present in ``keys``: those of
    :data:`BEFORE_AFTER`, then each system's score (``score:NAME``)."""
    keys = list(keys)
    return [kn for kn in BEFORE_AFTER if kn[0] in keys] + \
        [(k, f"{k[6:]}'s score against the gold so far") for k in sorted(k for k in keys if k.startswith("score:"))]


PENDING = Difference(None, None, None, None, None, False, 0, 0, "", "being computed")
NO_DATES = ("The timeline rests on import and decision times only: the inputs carry no dates of their "
            "own (Label Studio's created_at, Prodigy's _timestamp, a table's date column).")


@dataclass
class TimelineView:
    decisions: DecisionTimeline
    imports: list[ImportPoint]
    markers: list[Marker]
    before_after: list[dict[str, Difference]]  # one per marker: "overturn", "fleiss", "made", "score:NAME"
    forecast: Forecast
    dates: tuple[str | None, str | None, str | None]  # expected, earliest, latest finishing day
    note: str
    seconds: dict[str, float] = field(default_factory=dict)
    dated: Any = None  # dated.DatedTimeline: agreement by week of annotation, where the inputs carry dates


def project_timeline(store: Any, corpus: Any, *, by: str | int = "day", n_resamples: int = 1000, seed: int | None = None,
                     imports: bool = True, compare: bool = True, stats: Any = None, dated: bool = True) -> TimelineView:
    """The timeline of an open project (``store`` and ``corpus`` as the session holds them).

    The window computes the same in two parts off its thread: :func:`decisions_view` from the rows
    and markers read here, :func:`rebuilt_parts` from the stored copies (older states rebuilt: a
    crowd's take a minute)."""
    t0 = time.perf_counter()
    brief = getattr(store, "brief_history", None)  # a project file: only the columns the timeline reads
    rows = brief() if brief is not None else list(store.iter_history())
    key, kept = kept_points(store, by, n_resamples, seed)
    v = decisions_view(corpus, rows, markers(store), by=by, n_resamples=n_resamples, seed=seed, compare=compare,
                       resume=kept, key=key)
    keep_points(store, v, kept)
    v.seconds = {"read decisions": round(time.perf_counter() - t0 - sum(v.seconds.values()), 3), **v.seconds}
    t0 = time.perf_counter()
    if imports:
        try:
            v.imports = import_timeline(store, corpus, n_resamples=n_resamples, seed=seed, stats=stats)
        except ProjectError:
            if not hasattr(store, "location"):
                raise
            v.imports = []  # a team member without access to the stored copies: no import points
    v.seconds["import points"] = round(time.perf_counter() - t0, 3)
    t0 = time.perf_counter()
    if compare:
        for m, ba in zip(v.markers, v.before_after):
            ba["fleiss"] = fleiss_before_after(store, corpus, m.at, n_resamples=n_resamples,
                                               seed=0 if seed is None else seed)
    v.seconds["Fleiss before/after"] = round(time.perf_counter() - t0, 3)
    if dated:  # the dates inside the inputs, read again from the stored copies that can hold them
        from hieradjudicate.app.timeline.dated import dated_timeline, made_before_after, project_answers, with_dates

        t0 = time.perf_counter()
        seed0 = 0 if seed is None else seed
        try:
            ans = project_answers(store, corpus)
        except ProjectError:
            if not hasattr(store, "location"):
                raise
            ans = None  # a team member without access to the stored copies
        v.dated = dated_timeline(corpus, ans, n_resamples=n_resamples, seed=seed0)
        if compare and ans is not None:  # agreement of the answers made before and after each marker
            for m, ba in zip(v.markers, v.before_after):
                made = made_before_after(corpus, ans, m.at, n_resamples=n_resamples, seed=seed0)
                if made is not None:
                    ba["made"] = made
        v.note = with_dates(v.note, v.dated)
        v.seconds["dates inside the inputs"] = round(time.perf_counter() - t0, 3)
    return v


def kept_points(store: Any, by: str | int, n_resamples: int, seed: int | None) -> tuple[str | None, Any]:
    """The key of the decision points' checkpoint and the one the project keeps (None: none); read
    in the store's thread, handed to :func:`decisions_view`."""
    from hieradjudicate.app.timeline.decisions import MAX_INTERVAL_SETS, parse_by, point_from_json
    from hieradjudicate.app.timeline.resume import content_key, kept_majority, load, make_key

    by = parse_by(by)
    content = content_key(store)
    key = make_key(content, by, n_resamples, 0 if seed is None else seed, MAX_INTERVAL_SETS)
    kept = load(store, key, by, point_from_json)
    return key, kept if kept is not None else kept_majority(store, key, content)  # no point: the majority


def keep_points(store: Any, v: TimelineView, kept: Any) -> None:
    """Keep the view's checkpoint in the project when it moved on (the store's thread)."""
    from hieradjudicate.app.timeline.resume import save

    cp = v.decisions.checkpoint
    if cp is not None and cp is not kept:
        save(store, cp, v.decisions.by)


def decisions_view(corpus: Any, rows: list[Any], marks: list[Marker], *, by: str | int = "day",
                   n_resamples: int = 1000, seed: int | None = None, compare: bool = True, resume: Any = None,
                   key: str | None = None) -> TimelineView:
    """The decision points, the markers' overturn before/after and the forecast, from rows and markers
    already read (no store: any thread); the import points and Fleiss before/after are left pending.
    ``resume``/``key``: the decision points' checkpoint kept in the project and the key of the one to keep
    (:func:`kept_points`)."""
    t: dict[str, float] = {}
    seed = 0 if seed is None else seed
    t0 = time.perf_counter()
    dec = decision_timeline(corpus, rows, by=by, n_resamples=n_resamples, seed=seed, resume=resume, key=key)
    t["decision points"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    ba: list[dict[str, Difference]] = []
    if compare:
        ba = [{"overturn": overturn_before_after(corpus, rows, m.at, n_resamples=n_resamples, seed=seed, timeline=dec),
               "fleiss": PENDING,
               **score_before_after(corpus, m.at, dec, n_resamples=n_resamples, seed=seed)} for m in marks]
    t["overturn before/after"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    f, *dates = forecast(dec.day_resolved, dec.status, n_resamples=n_resamples, seed=seed)
    t["forecast"] = time.perf_counter() - t0
    return TimelineView(dec, [], list(marks), ba, f, tuple(dates), NO_DATES, {k: round(v, 3) for k, v in t.items()})


def rebuilt_parts(copies: Any, corpus: Any, marks: list[Marker], *, n_resamples: int = 1000,
                  seed: int | None = None) -> tuple[list[ImportPoint], dict[str, Any], list[Difference]]:
    """The import points (with the cache entries they add) and each marker's Fleiss before/after,
    from :class:`~hieradjudicate.app.timeline.imports.StoredCopies` (no store: any thread)."""
    from hieradjudicate.app.timeline.imports import compute_import_points, import_plan

    plan = import_plan(copies, n_resamples=n_resamples, seed=seed, fetch=False)
    points, added = compute_import_points(plan, corpus) if plan.events else ([], {})
    diffs = [fleiss_before_after(copies, corpus, m.at, n_resamples=n_resamples, seed=0 if seed is None else seed)
             for m in marks]
    return points, added, diffs


def as_json(v: TimelineView) -> dict[str, Any]:
    """Plain data: numbers as numbers, ``None`` where undefined."""
    f = v.forecast
    return {
        "note": v.note,
        "by": v.decisions.by,
        "instances": v.decisions.n_instances,
        "markers": [{"label": m.label, "at": m.at} for m in v.markers],
        "imports": [{"at": p.event.at, "label": p.event.label, "instances": p.n_instances,
                     "sets": len(p.sets), "figures": {k: x.as_dict() for k, x in p.figures.items()},
                     "per_set": p.per_set} for p in v.imports],
        "points": [{"label": p.label, "start": p.start, "end": p.end, "decisions": p.decisions,
                    "withdrawals": p.withdrawals, "counts": p.counts, "by_person": p.by_person, "overturn": p.overturn.as_dict(),
                    "scores": {k: x.as_dict() for k, x in p.scores.items()}} for p in v.decisions.points],
        "before_after": [{"marker": {"label": m.label, "at": m.at},
                          **{k: asdict(d) for k, d in ba.items()}} for m, ba in zip(v.markers, v.before_after)],
        "forecast": {**asdict(f), "expected": v.dates[0], "earliest": v.dates[1], "latest": v.dates[2]},
        "seconds": v.seconds,
        "dated": dated_json(v.dated),
    }
