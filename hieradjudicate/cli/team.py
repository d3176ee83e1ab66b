"""``hieradjudicate project publish|pull|team|assign|conflicts|progress`` and ``server setup``: team mode.

A project URL is ``postgresql://USER@HOST:PORT/DBNAME?project=NAME`` (libpq parameters such as
``sslmode`` may follow); the password comes from ``~/.pgpass``, ``PGPASSWORD`` or a service file.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from hieradjudicate.core.errors import HieradjError


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def register(psub: Any) -> None:
    from hieradjudicate.cli.options import add_seed_option

    p = psub.add_parser("publish", help="copy a .hadj project (inputs, decisions, history) into a new "
                        "project on a PostgreSQL server; you become its lead")
    p.add_argument("project", metavar="P.hadj")
    p.add_argument("url", metavar="URL", help="postgresql://USER@HOST:PORT/DB?project=NAME")
    p.set_defaults(func=cmd_publish)

    p = psub.add_parser("pull", help="write a server project into a .hadj file")
    p.add_argument("url", metavar="URL")
    p.add_argument("out", metavar="P.hadj")
    p.add_argument("--overwrite", action="store_true", help="replace an existing file")
    p.set_defaults(func=cmd_pull)

    p = psub.add_parser("team", help="give logins a role in a server project (lead's), or list the team")
    p.add_argument("url", metavar="URL")
    for kind in ("leads", "adjudicators", "viewers"):
        p.add_argument(f"--{kind}", type=_names, default=[], metavar="A,B,...")
    p.add_argument("--remove", action="store_true", help="take the roles named back instead of giving them")
    p.set_defaults(func=cmd_team)

    p = psub.add_parser("assign", help="split the open instances among adjudicators (lead's); "
                        "--overlap gives a share to two of them, blind")
    p.add_argument("url", metavar="URL")
    p.add_argument("--adjudicators", type=_names, required=True, metavar="A,B,...")
    p.add_argument("--overlap", type=float, default=0.0, metavar="F",
                   help="share of the instances decided twice, blind (default 0; e.g. 0.1)")
    p.add_argument("--by", choices=("instance", "lexelt"), default="instance",
                   help="split single instances (default) or whole lexelts")
    p.add_argument("--seed", type=int, default=0, help="seed of the random split (default 0)")
    p.set_defaults(func=cmd_assign)

    p = psub.add_parser("conflicts", help="the lead's conflict queue: instances whose adjudicators differ")
    p.add_argument("url", metavar="URL")
    p.add_argument("--format", choices=("text", "csv", "json"), default="text")
    p.set_defaults(func=cmd_conflicts)

    p = psub.add_parser("progress", help="per adjudicator: progress, speed, kappa on the overlap with "
                        "intervals, overturn rate")
    p.add_argument("url", metavar="URL")
    p.add_argument("--format", choices=("text", "csv", "json"), default="text")
    p.add_argument("--resamples", type=int, default=1000, metavar="N", help="bootstrap resamples (default 1000)")
    add_seed_option(p, "20240601")
    p.set_defaults(func=cmd_progress)


def _server(url: str) -> None:
    from hieradjudicate.io.store.locations import is_server_location

    if not is_server_location(url):
        local = ""
        if url.endswith(".hadj") or os.path.isfile(url):  # a project file where a team project was expected
            local = ("; this command works on a team project on a PostgreSQL server, and this names a project file "
                     "(project publish P.hadj URL puts it on a server; project status P.hadj gives its decisions "
                     "per status and per lexelt)")
        raise HieradjError(f"{url}: expected a server project URL "
                           f"(postgresql://USER@HOST:PORT/DBNAME?project=NAME){local}")


def cmd_publish(args: argparse.Namespace) -> int:
    from hieradjudicate.app.team import publish_project as publish

    _server(args.url)
    counts = publish(args.project, args.url)
    print(f"published {args.project} to {_shown(args.url)}: {counts['decisions']} decision row(s), "
          f"{counts['batches']} batch(es), {counts['files']} stored file(s)")
    return 0


def _shown(url: str) -> str:
    from hieradjudicate.io.store.pg.location import parse_location

    return str(parse_location(url))


def cmd_pull(args: argparse.Namespace) -> int:
    from hieradjudicate.io.store.pg.transfer import pull

    _server(args.url)
    counts = pull(args.url, args.out, overwrite=args.overwrite)
    print(f"wrote {args.out}: {counts['decisions']} decision row(s), {counts['files']} stored file(s)")
    return 0


def cmd_team(args: argparse.Namespace) -> int:
    from hieradjudicate.io.store.pg.store import PgStore
    from hieradjudicate.io.store.pg.team import team_members
    from hieradjudicate.io.store.pg.transfer import grant

    _server(args.url)
    people = {"lead": args.leads, "adjudicator": args.adjudicators, "viewer": args.viewers}
    if any(people.values()):
        for line in grant(args.url, {k: v for k, v in people.items() if v}, remove=args.remove):
            print(f"{'took back' if args.remove else 'granted'} {line}")
    with PgStore.open(args.url, read_only=True) as store:
        for kind, logins in team_members(store).items():
            print(f"{kind}: {', '.join(logins) or '(none)'}")
    return 0


def cmd_assign(args: argparse.Namespace) -> int:
    from hieradjudicate.app.session.session import Session
    from hieradjudicate.app.team import plan_assignment
    from hieradjudicate.io.store.pg.team import assigned, require_lead, team_members, write_assignments

    _server(args.url)
    with Session.open(args.url) as s:
        store = s.store
        require_lead(store, "assign work")
        known = set(team_members(store)["adjudicator"])
        missing = [a for a in args.adjudicators if a not in known]
        if missing:
            raise HieradjError(f"{_shown(args.url)}: {', '.join(missing)} not adjudicator(s) of this "
                               f"project (project team URL --adjudicators {','.join(missing)}); nothing "
                               "was assigned")
        taken = {(r[0], r[1]) for r in assigned(store)}
        open_keys = [k for k in s.instances() if k not in taken and s.decisions.current(*k) is None]
        rows = plan_assignment(open_keys, args.adjudicators, overlap=args.overlap, by=args.by,
                               seed=args.seed)
        n = write_assignments(store, rows)
    per: dict[str, int] = {}
    for r in rows:
        per[r[2]] = per.get(r[2], 0) + 1
    blind = sum(1 for r in rows if r[3]) // 2
    print(f"assigned {len(open_keys)} open instance(s) ({n} assignment(s), {blind} decided twice, blind): "
          + ", ".join(f"{k} {v}" for k, v in per.items()))
    return 0


def cmd_conflicts(args: argparse.Namespace) -> int:
    from hieradjudicate.app.textout import csv_text, json_text, text_table
    from hieradjudicate.io.store.pg.store import PgStore
    from hieradjudicate.io.store.pg.team import conflicts, require_lead

    _server(args.url)
    with PgStore.open(args.url, read_only=True) as store:
        require_lead(store, "see the conflict queue")
        rows = conflicts(store)
    import json

    header = ["lexelt", "instance", "adjudicator", "status", "tags", "note", "decision",
              "changed after unblinding"]
    table = [[r.lexelt, r.instance, r.decided_by, r.status, " ".join(json.loads(r.tags)), r.note,
              f"#{r.id}", "yes" if r.changed else ""] for r in rows]
    if args.format == "csv":
        sys.stdout.write(csv_text(header, table))
    elif args.format == "json":
        print(json_text([dict(zip(header, t, strict=True)) for t in table]))
    else:
        n = len({(r.lexelt, r.instance) for r in rows})
        print(f"{n} instance(s) in conflict" + (":" if n else ""))
        if n:
            print(text_table(header, table))
    return 0


def cmd_progress(args: argparse.Namespace) -> int:
    from hieradjudicate.app.session.session import Session
    from hieradjudicate.app.team import figures, figures_json, figures_table
    from hieradjudicate.app.textout import csv_text, json_text, text_table
    from hieradjudicate.cli.options import resample_warning
    from hieradjudicate.core.agreement.bootstrap import DEFAULT_SEED
    from hieradjudicate.io.store.pg.team import adjudicator_rows, assigned, lead_rows, require_lead

    _server(args.url)
    n_resamples = max(args.resamples, 0)
    seed = DEFAULT_SEED if args.seed is None else args.seed
    resample_warning(n_resamples, "--resamples")
    with Session.open(args.url, read_only=True) as s:
        require_lead(s.store, "see every adjudicator's figures")
        figs = figures(s.corpus, assigned(s.store), adjudicator_rows(s.store), lead_rows(s.store),
                       n_resamples=n_resamples, seed=seed)
    header, rows = figures_table(figs)
    if args.format == "csv":
        sys.stdout.write(csv_text(header, rows))
    elif args.format == "json":
        print(json_text(figures_json(figs, n_resamples=n_resamples, seed=seed)))
    else:
        print(text_table(header, rows))
        for f in figs:
            for reason in f.reasons:
                print(f"{f.name}: kappa not computed: {reason}")
    return 0


def register_server(sub: Any) -> None:
    """``hieradjudicate server setup ADMIN_URL --leads A,B``: the database administrator's command,
    once per database (again to add leads or after updating the program; :mod:`~hieradjudicate.io.store.pg.setup`)."""
    p = sub.add_parser("server", help="the database administrator's set-up of a PostgreSQL database for "
                       "team projects: server setup ADMIN_URL --leads A,B")
    ssub = p.add_subparsers(dest="server_command", metavar="SUBCOMMAND")
    q = ssub.add_parser("setup", help="once per database (again to add leads): the roles and functions "
                        "that let the named leads publish and manage their projects without CREATEROLE")
    q.add_argument("url", metavar="ADMIN_URL", help="postgresql://ADMIN@HOST:PORT/DB (a superuser's login)")
    q.add_argument("--leads", type=_names, action="extend", default=[], metavar="A,B,...",
                   help="logins that may publish projects in this database (may be repeated)")
    q.set_defaults(func=cmd_setup)
    p.set_defaults(func=lambda args: _server_usage(p))


def _server_usage(p: argparse.ArgumentParser) -> int:
    p.print_usage()
    return 2


def cmd_setup(args: argparse.Namespace) -> int:
    from hieradjudicate.io.store.locations import is_server_location
    from hieradjudicate.io.store.pg.setup import setup

    if not is_server_location(args.url):
        raise HieradjError(f"{args.url}: expected the database's URL (postgresql://ADMIN@HOST:PORT/DB)")
    for line in setup(args.url, args.leads):
        print(line)
    return 0
