"""``project timeline`` (the figures over time) and ``project mark`` (a dated marker), issue 32."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from hieradjudicate.cli.timeline.dated import DATED_MEASURES, dated_rows, dated_text, is_dated

IMPORT_MEASURES = ("mean_kappa_cohen", "mean_kappa_scott", "fleiss", "conger", "alpha")
DECISION_MEASURES = ("resolved", "flagged", "skipped", "open", "decisions", "withdrawals", "people", "overturn",
                     "scores")


def register(psub: Any) -> None:
    p = psub.add_parser("timeline", help="the figures over time: agreement at each import, the adjudication "
                        "per day/week/N decisions, markers with before/after, the finishing forecast")
    p.add_argument("project", metavar="P")
    p.add_argument("--by", default="day", metavar="import|day|week|N",
                   help="points at each import, each day or week of decisions, or every N decisions "
                        "(default day)")
    p.add_argument("--measure", action="append", default=[], metavar="NAME",
                   help="figures shown (repeatable): " + ", ".join(IMPORT_MEASURES) + " or fleiss:LEXELT (imports); "
                        + ", ".join(DECISION_MEASURES) + " or score:SET (decisions); "
                        + ", ".join(DATED_MEASURES) + " or drift:SET (by week of annotation, where the inputs "
                        "carry dates); default all")
    p.add_argument("--format", choices=("text", "csv", "json"), default="text")
    p.add_argument("--seed", type=int, default=None, help="seed of the bootstrap intervals (default fixed)")
    p.add_argument("--resamples", type=int, default=1000, metavar="N",
                   help="bootstrap resamples per interval (default 1000; 0: no intervals)")
    p.set_defaults(func=cmd_timeline)

    p = psub.add_parser("mark", help="put a dated marker on the timeline (e.g. \"guidelines v2\")")
    p.add_argument("project", metavar="P")
    p.add_argument("label", metavar="LABEL")
    p.add_argument("--at", metavar="DATE", help="YYYY-MM-DD or YYYY-MM-DDTHH:MM (UTC); default now")
    p.set_defaults(func=cmd_mark)


def _open(path: str, *, write: bool, decisions: bool = True) -> Any:
    """The project (a file or a server URL), as `project` opens it: a missing file, or one that cannot
    be written when ``write``, is an error; decisions failing their checksum are named on stderr."""
    from pathlib import Path

    from hieradjudicate.app.session.session import Session
    from hieradjudicate.core.errors import HieradjError
    from hieradjudicate.io.store.locations import is_server_location

    if not is_server_location(path) and not Path(path).exists():
        raise HieradjError(f"{path}: no such project")
    session = Session.open(path, read_only=not write, decisions=decisions)
    _warn(session)
    if write and session.read_only:
        reason = str(session.read_only_reason).removesuffix("; opened read-only")
        session.close()
        raise HieradjError(f"cannot change the project: {reason}; nothing was changed")
    return session


def _warn(session: Any) -> None:
    from hieradjudicate.app.session.session import left_out_text

    if session.store.left_out:
        print(f"{session.path}: warning: {left_out_text(session.store.left_out)}; they are not in what this "
              "command shows (`hieradjudicate project check` for details)", file=sys.stderr)


def cmd_mark(args: argparse.Namespace) -> int:
    from hieradjudicate.app.timeline.marks import add_marker

    with _open(args.project, write=True) as s:
        m = add_marker(s.store, args.label, args.at)
    print(f"marked {m.at}: {m.label}")
    return 0


def _measures(args: argparse.Namespace, imports: bool) -> list[str]:
    from hieradjudicate.core.errors import HieradjError

    allowed = IMPORT_MEASURES if imports else DECISION_MEASURES
    chosen = args.measure or [*allowed, *DATED_MEASURES]
    for m in chosen:
        if m not in allowed and not is_dated(m) and not m.startswith("score:" if not imports else "fleiss:"):
            raise HieradjError(f"--measure {m!r} with --by {args.by}: expected one of {', '.join(allowed)}"
                               + (" or fleiss:LEXELT" if imports else " or score:SET") + ", "
                               + ", ".join(DATED_MEASURES) + " or drift:SET")
    return chosen


def cmd_timeline(args: argparse.Namespace) -> int:
    from hieradjudicate.app.textout import json_text
    from hieradjudicate.app.timeline.decisions import parse_by
    from hieradjudicate.app.timeline.view import as_json, project_timeline
    from hieradjudicate.core.errors import HieradjError

    imports = args.by == "import"
    try:
        by = "day" if imports else parse_by(args.by)
    except ValueError as exc:
        raise HieradjError(str(exc)) from None
    if args.resamples < 0:
        raise HieradjError(f"--resamples {args.resamples}: expected 0 or more")
    measures = _measures(args, imports)
    with _open_for_cache(args.project) as s:  # kept in it: the closed points, older imports' figures, dates
        _say_rebuilding(s, args, imports or args.format == "json")
        v = project_timeline(s.store, s.corpus, by=by, n_resamples=args.resamples, seed=args.seed,
                             imports=imports or args.format == "json")
        team = None if imports else _team(s, by, args, measures)
    d = as_json(v)
    if team is not None:
        d["team"] = team
    if args.format == "json":
        print(json_text(d))
        return 0
    dated = [m for m in measures if is_dated(m)]
    headers, rows = _table(d, [m for m in measures if not is_dated(m)], imports)
    if args.format == "csv":
        rows = rows + dated_rows(d, dated)
        from hieradjudicate.app.textout import csv_text

        sys.stdout.write(csv_text(headers, rows))
        return 0
    out = _text(d, headers, rows) if rows or len(dated) < len(measures) else d["note"]
    asked = dated and (d.get("dated") or any(is_dated(m) for m in args.measure))  # by default: only when dated
    print(out + ("\n" + "\n".join(dated_text(d, dated, _wide)) if asked else ""))
    return 0


def _say_rebuilding(session: Any, args: argparse.Namespace, imports: bool) -> None:
    """On stderr: the older states this view rebuilds once (a project made by an older version)."""
    from hieradjudicate.app.timeline.imports import REBUILD_NOTE, states_to_rebuild
    from hieradjudicate.core.errors import HieradjError

    try:
        n = states_to_rebuild(session.store, n_resamples=args.resamples, seed=args.seed) if imports else 0
    except HieradjError:  # a team member without the stored copies: no import points at all
        n = 0
    if n:
        print(f"{session.path}: {REBUILD_NOTE.format(n=n)}", file=sys.stderr)


def _team(session: Any, by: str | int, args: argparse.Namespace, measures: list[str]) -> dict[str, Any] | None:
    """The lead's per-adjudicator timeline of a server project (None for a file project, another
    login, or when neither ``people`` nor json is asked for)."""
    if "lead" not in getattr(session.store, "roles", ()) or ("people" not in measures and args.format != "json"):
        return None
    from hieradjudicate.cli.timeline.team import team_json

    return team_json(session, by, n_resamples=args.resamples, seed=0 if args.seed is None else args.seed)


def _open_for_cache(path: str) -> Any:
    """The project opened so that the figures of older imports can be kept in it (a cache: rebuilding a
    crowd's older state takes a minute); read-only when it is open elsewhere or cannot be written."""
    from hieradjudicate.io.store.locations import is_server_location

    if is_server_location(path) or not _current_schema(path):  # never migrate a file for a cache
        return _open(path, write=False, decisions=False)
    from hieradjudicate.app.session.session import Session
    from hieradjudicate.core.errors import HieradjError

    try:  # the timeline reads the whole history itself: not the current decisions
        s = Session.open(path, decisions=False)  # read-only (saying why) when another program holds it
    except HieradjError:
        return _open(path, write=False, decisions=False)  # what stops a write does not stop a read
    _warn(s)
    return s


def _current_schema(path: str) -> bool:
    from pathlib import Path

    from hieradjudicate.io.store.schema import SCHEMA_VERSION, read_only_connection

    try:
        conn = read_only_connection(Path(path))
        try:
            return int(conn.execute("PRAGMA user_version").fetchone()[0]) == SCHEMA_VERSION
        finally:
            conn.close()
    except Exception:  # anything unreadable: opened read-only, which names the problem
        return False


def _cells(f: dict[str, Any]) -> list[Any]:
    return [f["value"], f["low"], f["high"], f["n"]]


def _table(d: dict[str, Any], measures: list[str], imports: bool) -> tuple[list[str], list[list[Any]]]:
    """Long form: one row per point and figure."""
    headers = ["point", "time", "measure", "value", "low", "high", "n"]
    rows: list[list[Any]] = []
    if imports:
        for p in d["imports"]:
            for m in measures:
                if m in p["figures"]:  # a lexelt without two answers at this import has no figure
                    rows.append([p["label"], p["at"], m, *_cells(p["figures"][m])])
        return headers, rows
    for p in d["points"]:
        for m in measures:
            if m in ("decisions", "withdrawals"):
                rows.append([p["label"], p["end"], m, p[m], None, None, None])
            elif m in ("resolved", "flagged", "skipped", "open"):
                rows.append([p["label"], p["end"], m, p["counts"].get(m, 0), None, None, None])
            elif m == "overturn":
                rows.append([p["label"], p["end"], m, *_cells(p["overturn"])])
            elif m == "people" and "team" in d:  # a server project's adjudicators: below
                continue
            elif m == "people":  # decisions per adjudicator (decided_by)
                for who, k in p["by_person"].items():
                    rows.append([p["label"], p["end"], f"decisions:{who}", k, None, None, None])
            elif m == "scores":
                for name, f in p["scores"].items():
                    rows.append([p["label"], p["end"], f"score:{name}", *_cells(f)])
            elif m[6:] in p["scores"]:
                rows.append([p["label"], p["end"], m, *_cells(p["scores"][m[6:]])])
    if "people" in measures and "team" in d:
        from hieradjudicate.cli.timeline.team import team_rows

        rows += team_rows(d["team"])
    return headers, rows


def _wide(headers: list[str], rows: list[list[Any]]) -> tuple[list[str], list[list[Any]]]:
    """The long rows as one line per point: ``value [low, high]`` per figure."""
    from hieradjudicate.app.textout import fmt

    cols: list[str] = []
    lines: dict[tuple[str, str], dict[str, str]] = {}
    for point, at, m, v, lo, hi, _n in rows:
        if m not in cols:
            cols.append(m)
        cell = fmt(v) if isinstance(v, float) or v is None else str(v)
        if lo is not None and hi is not None:
            cell += f" [{fmt(lo)}, {fmt(hi)}]"
        lines.setdefault((point, at), {})[m] = cell
    return ["point", "until", *cols], [[p, at, *(c.get(m, "") for m in cols)] for (p, at), c in lines.items()]


def _text(d: dict[str, Any], headers: list[str], rows: list[list[Any]]) -> str:
    from hieradjudicate.app.textout import fmt, text_table

    out = [d["note"], ""]
    if rows:
        h, w = _wide(headers, rows)
        if len(h) > 14:  # a crowd's scores: the text shows the first figures, csv and json every one
            out.append(f"(showing {14 - 2} of {len(h) - 2} figures; --format csv or json lists them all)")
            h, w = h[:14], [r[:14] for r in w]
        out.append(text_table(h, w))
    else:
        out.append("no points yet (no decision saved)")
    for m in d["markers"]:
        out.append(f"marker {m['at']}: {m['label']}")
    for ba in d["before_after"]:
        out.append(f"before/after {ba['marker']['label']} ({ba['marker']['at']}):")
        from hieradjudicate.app.timeline.view import before_after_figures

        for k, name in before_after_figures(ba):
            x = ba[k]
            if x["difference"] is None:
                out.append(f"  {name}: {x['why']}")
                continue
            out.append(f"  {name}: {fmt(x['before'])} -> {fmt(x['after'])}, difference {fmt(x['difference'])} "
                       f"[{fmt(x['low'])}, {fmt(x['high'])}] ({'paired by instance' if x['paired'] else 'unpaired'}, "
                       f"{x['n_before']} / {x['n_after']} instances, {x['method']})")
    if "team" in d:
        from hieradjudicate.cli.timeline.team import forecast_lines

        out += forecast_lines(d["team"])
    f = d["forecast"]
    if f["expected"]:
        ci = f" (95% interval {f['earliest']} to {f['latest'] or 'open-ended'})" if f["earliest"] else ""
        out.append(f"forecast: {f['open']} instances open at {fmt(f['per_day'])} resolved per calendar day: done "
                   f"about {f['expected']}{ci}")
    else:
        out.append(f"forecast: {f['open']} instances open; " + (f["why"] or "done"))
    return "\n".join(out)
