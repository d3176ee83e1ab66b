"""``hieradjudicate server setup ADMIN_URL --leads A,B``: the database administrator's command.

Run once per database with the administrator's own login (a superuser), and again to add leads
or after updating the program; see :mod:`hieradjudicate.io.store.pg.setup`.
"""

from __future__ import annotations

import argparse
from typing import Any

from hieradjudicate.core.errors import HieradjError


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def register(sub: Any, add_inputs: Any = None) -> None:
    p = sub.add_parser("server", help="the database administrator's set-up of a PostgreSQL database for "
                       "team projects: server setup ADMIN_URL --leads A,B")
    ssub = p.add_subparsers(dest="server_command", metavar="SUBCOMMAND")
    q = ssub.add_parser("setup", help="once per database (again to add leads): the roles and functions "
                        "that let the named leads publish and manage their projects without CREATEROLE")
    q.add_argument("url", metavar="ADMIN_URL", help="postgresql://ADMIN@HOST:PORT/DB (a superuser's login)")
    q.add_argument("--leads", type=_names, action="extend", default=[], metavar="A,B,...",
                   help="logins that may publish projects in this database (may be repeated)")
    q.set_defaults(func=cmd_setup)
    p.set_defaults(func=lambda args: _usage(p))


def _usage(p: argparse.ArgumentParser) -> int:
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
