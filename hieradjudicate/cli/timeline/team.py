"""``project timeline URL --measure people`` on a server project, for its lead: per adjudicator and
point, decisions, overturn rate and Cohen's/Scott's kappa on the overlap, and each one's forecast
(:mod:`hieradjudicate.app.timeline.team`)."""

from __future__ import annotations

from typing import Any


def team_json(session: Any, by: str | int, *, n_resamples: int, seed: int) -> dict[str, Any]:
    from hieradjudicate.app.timeline.team import as_json, team_timeline
    from hieradjudicate.io.store.pg.team import adjudicator_rows, assigned, lead_rows

    store = session.store
    t = team_timeline(session.corpus, assigned(store), adjudicator_rows(store), lead_rows(store), by=by,
                      n_resamples=n_resamples, seed=seed)
    return as_json(t)


def team_rows(team: dict[str, Any]) -> list[list[Any]]:
    """Long-form rows ``[point, time, measure, value, low, high, n]`` of the team timeline."""
    rows: list[list[Any]] = []
    for p in team["points"]:
        for who, q in p["people"].items():
            rows.append([p["label"], p["end"], f"decisions:{who}", q["decisions"], None, None, None])
            for key in ("overturn_rate", "kappa_cohen", "kappa_scott"):
                f = q[key]
                rows.append([p["label"], p["end"], f"{key}:{who}", f["value"], f["low"], f["high"], f["n"]])
    return rows


def forecast_lines(team: dict[str, Any]) -> list[str]:
    from hieradjudicate.app.textout import fmt

    out = [team["note"]]
    for f in team["forecasts"]:
        if f["open"] == 0:
            out.append(f"forecast {f['adjudicator']}: all {f['assigned']} assigned decided")
        elif f["expected"]:
            ci = f" (95% interval {f['earliest']} to {f['latest'] or 'open-ended'})" if f["earliest"] else ""
            out.append(f"forecast {f['adjudicator']}: {f['open']} of {f['assigned']} assigned open at "
                       f"{fmt(f['per_day'])} decided per calendar day: done about {f['expected']}{ci}")
        else:
            out.append(f"forecast {f['adjudicator']}: {f['open']} of {f['assigned']} assigned open; "
                       + (f["why"] or "done"))
    return out
