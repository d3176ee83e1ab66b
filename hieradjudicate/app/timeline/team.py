"""The lead's timeline of a team project (issue 32): per adjudicator, over time, the figures of
``project progress``, and when each is expected to finish.

A server project's rows are taken in saving order (their id, given by the server); a point ends
with the last row of a day (the server's commit time, UTC), a week or N rows.  At each point
:func:`hieradjudicate.app.team.figures` is computed on the rows saved up to that point, so a
point's figures are those ``project progress`` would have shown then: decisions, decided,
overturn rate (the lead deciding an instance otherwise later), overlap pairs and kappa on the
overlap (each adjudicator's answer given while the pair was blind).  The assignments have no
time: every point uses the current ones.  The per-adjudicator forecast draws the days to finish
from the decided assignments per calendar day, as the project's forecast does for instances.

No Qt; no SQL (the rows are read by :mod:`hieradjudicate.io.store.pg.team`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from hieradjudicate.app.dashboard.gold import RESOLVED
from hieradjudicate.app.team import AdjudicatorFigures, figures
from hieradjudicate.app.timeline.decisions import Figure, parse_by, week_of
from hieradjudicate.app.timeline.marks import forecast
from hieradjudicate.core.agreement.bootstrap import BootstrapCI
from hieradjudicate.core.model import Corpus
from hieradjudicate.core.stats.timeline_stats import Forecast


@dataclass(frozen=True)
class PersonPoint:
    """One adjudicator's figures at the end of one point."""

    decisions: int  # rows of this point that set a status (speed)
    decided: int  # assigned instances decided so far
    overturned: int
    overturn: Figure  # overturned / decided so far
    overlap_pairs: int
    changed_after_open: int
    cohen: Figure
    scott: Figure


@dataclass(frozen=True)
class TeamPoint:
    label: str
    end: str  # commit time (UTC, ISO) of the point's last row
    last_id: int
    people: dict[str, PersonPoint]


@dataclass(frozen=True)
class PersonForecast:
    name: str
    assigned: int
    open: int
    forecast: Forecast
    expected: str | None
    earliest: str | None
    latest: str | None


@dataclass
class TeamTimeline:
    by: str
    points: list[TeamPoint]
    forecasts: list[PersonForecast] = field(default_factory=list)
    note: str = ("Team figures rest on the server's commit times (UTC) and saving order; every point "
                 "uses the current assignments.")


def _day(epoch: float) -> str:
    return datetime.fromtimestamp(float(epoch), UTC).date().isoformat()


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(float(epoch), UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _kappa(c: BootstrapCI | None, pairs: int) -> Figure:
    if c is None or c.estimate.value is None:
        return Figure(None, n=pairs, why="no blind instance decided by both adjudicators yet" if not pairs
                      else "undefined (no variation on the overlap)")
    return Figure(float(c.estimate.value), c.low, c.high, pairs, None if c.low is not None else
                  (getattr(c, "reason", None) or "no interval"))


def _person(fig: AdjudicatorFigures, decisions: int) -> PersonPoint:
    rate = fig.overturn_rate
    return PersonPoint(decisions, fig.decided, fig.overturned,
                       Figure(rate, n=fig.decided, why=None if rate is not None else "nothing decided yet"),
                       fig.overlap_pairs, fig.changed_after_open,
                       _kappa(fig.cohen, fig.overlap_pairs), _kappa(fig.scott, fig.overlap_pairs))


def team_timeline(corpus: Corpus, assignments: Sequence[tuple[str, str, str, bool]],
                  adjudicator_rows: Sequence[tuple[Any, ...]], lead_rows: Sequence[tuple[Any, ...]], *,
                  by: str | int = "day", n_resamples: int = 1000, seed: int = 0) -> TeamTimeline:
    """See the module.  Rows as :func:`~hieradjudicate.io.store.pg.team.adjudicator_rows` and
    :func:`~hieradjudicate.io.store.pg.team.lead_rows` read them (the lead's with its commit time)."""
    by = parse_by(by)
    # (id, commit time, adjudicator or None for the lead, sets a status)
    merged = sorted([(int(r[5]), float(r[6]), r[2], r[4] != "unresolved") for r in adjudicator_rows]
                    + [(int(r[4]), float(r[5]), None, r[3] != "unresolved") for r in lead_rows])
    ids = np.asarray([m[0] for m in merged], np.int64)
    days = [_day(m[1]) for m in merged]
    if isinstance(by, int):
        keys = [f"rows {(j // by) * by + 1}-{min((j // by + 1) * by, len(merged))}" for j in range(len(merged))]
    else:
        keys = days if by == "day" else [f"week of {week_of(d)}" for d in days]
    adj_ids = np.asarray([int(r[5]) for r in adjudicator_rows], np.int64)
    lead_ids = np.asarray([int(r[4]) for r in lead_rows], np.int64)
    points: list[TeamPoint] = []
    a = 0
    for j in range(1, len(merged) + 1):
        if j < len(merged) and keys[j] == keys[a]:
            continue
        cut = int(ids[j - 1])
        adj = [r for r, keep in zip(adjudicator_rows, adj_ids <= cut) if keep]
        lead = [r for r, keep in zip(lead_rows, lead_ids <= cut) if keep]
        figs = figures(corpus, assignments, adj, lead, n_resamples=n_resamples)
        speed: dict[str, int] = {}
        for _id, _t, who, sets in merged[a:j]:
            if who is not None and sets:
                speed[who] = speed.get(who, 0) + 1
        points.append(TeamPoint(keys[a], _iso(merged[j - 1][1]), cut,
                                {f.name: _person(f, speed.get(f.name, 0)) for f in figs}))
        a = j
    return TeamTimeline(str(by), points, _forecasts(assignments, adjudicator_rows, n_resamples, seed))


def _forecasts(assignments: Sequence[tuple[str, str, str, bool]], adjudicator_rows: Sequence[tuple[Any, ...]],
               n_resamples: int, seed: int) -> list[PersonForecast]:
    """Per adjudicator: assigned instances decided (current answer not unresolved) at each day's end."""
    mine: dict[str, set[tuple[str, str]]] = {}
    for lex, inst, who, _blind in assignments:
        mine.setdefault(who, set()).add((lex, inst))
    out = []
    for who in sorted(mine):
        state: dict[tuple[str, str], bool] = {}
        day_decided: dict[str, int] = {}
        for r in adjudicator_rows:  # id order
            if r[2] != who or (r[0], r[1]) not in mine[who]:
                continue
            state[(r[0], r[1])] = r[4] != "unresolved"
            day_decided[_day(r[6])] = sum(state.values())
        decided = sum(state.values())
        status = np.zeros(len(mine[who]), np.int8)
        status[:decided] = RESOLVED
        f, expected, earliest, latest = forecast(day_decided, status, n_resamples=n_resamples, seed=seed)
        out.append(PersonForecast(who, len(mine[who]), len(mine[who]) - decided, f, expected, earliest, latest))
    return out


def as_json(t: TeamTimeline) -> dict[str, Any]:
    """Plain data (numbers as numbers, ``None`` where undefined)."""
    from dataclasses import asdict

    return {
        "note": t.note,
        "by": t.by,
        "points": [{"label": p.label, "end": p.end, "last_id": p.last_id,
                    "people": {who: {"decisions": q.decisions, "decided": q.decided, "overturned": q.overturned,
                                     "overturn_rate": q.overturn.as_dict(), "overlap_pairs": q.overlap_pairs,
                                     "changed_after_unblinding": q.changed_after_open,
                                     "kappa_cohen": q.cohen.as_dict(), "kappa_scott": q.scott.as_dict()}
                               for who, q in p.people.items()}} for p in t.points],
        "forecasts": [{"adjudicator": f.name, "assigned": f.assigned, "open": f.open, **asdict(f.forecast),
                       "expected": f.expected, "earliest": f.earliest, "latest": f.latest} for f in t.forecasts],
    }
