"""``hieradjudicate project add-run|runs``: keep system runs in a project (name, date, note)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from hieradjudicate.core.errors import HieradjError


def register(psub: Any) -> None:
    p = psub.add_parser("add-run", help="keep a system's answer file in the project as a named run (for "
                        "compare --baseline NAME --project P and the run history)")
    p.add_argument("project", metavar="P")
    p.add_argument("run", metavar="NAME=FILE", help="the run's name and its answer file")
    p.add_argument("--note", default="", help="a note kept with the run")
    p.set_defaults(func=cmd_add_run)

    p = psub.add_parser("runs", help="the stored runs: name, date, note")
    p.add_argument("project", metavar="P")
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    p.set_defaults(func=cmd_runs)


def _open(path: str, *, write: bool):
    from hieradjudicate.app.session.session import Session

    if not Path(path).exists():
        raise HieradjError(f"{path}: no such project")
    session = Session.open(path, read_only=not write)
    if write and session.read_only:
        reason = str(session.read_only_reason).removesuffix("; opened read-only")
        session.close()
        raise HieradjError(f"cannot change the project: {reason}; nothing was changed")
    return session


def cmd_add_run(args: argparse.Namespace) -> int:
    from hieradjudicate.app.runs import store_run

    name, eq, path = args.run.partition("=")
    if not eq or not name.strip() or not path:
        raise HieradjError(f"add-run {args.run!r}: expected NAME=FILE (the run's name, '=', its answer file)")
    with _open(args.project, write=True) as s:
        run = store_run(s, name, path, args.note)
    if run.outside:
        print(f"hieradjudicate: warning: {run.outside} answered instance(s) of {path} are not in the project",
              file=sys.stderr)
    print(f"stored run {run.name} ({run.answered} answered instance(s) of the project) at {run.added_at}")
    return 0


def cmd_runs(args: argparse.Namespace) -> int:
    from hieradjudicate.app.textout import csv_text, json_text, text_table
    from hieradjudicate.io.store.runs import runs

    with _open(args.project, write=False) as s:
        rows = runs(s.store)
    keys = ["name", "added_at", "added_by", "note", "source_path", "size", "sha256"]
    table = [[getattr(r, k) for k in keys] for r in rows]
    if args.format == "json":
        print(json_text([dict(zip(keys, t)) for t in table]))
    elif args.format == "csv":
        sys.stdout.write(csv_text(keys, table))
    else:
        print(text_table(["run", "stored", "by", "note"], [t[:4] for t in table]) if rows
              else "no run stored (project add-run P NAME=FILE)")
    return 0
