"""``hieradjudicate project check|repair``: is a project sound, and a sound copy when it is not."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(psub: Any) -> None:
    p = psub.add_parser("check", help="check a project without changing it: pages, the decisions' "
                        "index and checksums, the stored input copies, the corpus cache (exit 1 if damaged)")
    p.add_argument("project", metavar="P")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_check)

    p = psub.add_parser("repair", help="make a sound project from what a damaged one holds: the input "
                        "copies, settings and every decision whose checksum holds (the damaged file is "
                        "kept as P.damaged unless -o names another output)")
    p.add_argument("project", metavar="P")
    p.add_argument("-o", "--output", metavar="OUT.hadj", help="write the repaired project here instead")
    p.add_argument("--input", metavar="PATH", action="append", default=[],
                   help="the original of an input file whose stored copy is damaged (matched by the "
                   "SHA-256 recorded at import; repeatable)")
    p.set_defaults(func=cmd_repair)


def _file_only(project: str, what: str) -> None:
    from hieradjudicate.core.errors import HieradjError
    from hieradjudicate.io.store.locations import is_server_location

    if is_server_location(project):
        raise HieradjError(f"{what} is for .hadj files; a project on a server is kept whole by the "
                           "server itself (its own pages, constraints and rights); to check a copy, "
                           "project pull URL P.hadj and check that")


def cmd_check(args: argparse.Namespace) -> int:
    from hieradjudicate.io.store.health import check
    from hieradjudicate.io.store.locations import is_server_location

    server = is_server_location(args.project)
    if server:  # rights, usable rows and the hash chain of a server project
        from hieradjudicate.io.store.pg.health import check_server

        findings = check_server(args.project)
    else:
        findings = check(args.project)
    sound = all(f.ok for f in findings)
    if args.format == "json":
        print(json.dumps({"project": args.project, "sound": sound,
                          "checks": [{"check": f.check, "ok": f.ok, "detail": f.detail} for f in findings]},
                         indent=2))
    else:
        for f in findings:
            print(f"{'ok     ' if f.ok else 'REFUSED' if f.refused else 'DAMAGED'}  {f.check}: {f.detail}")
        print(f"{args.project}: " + ("sound" if sound else
                                     "not checked (see above)" if any(f.refused for f in findings) else
                                     "damaged; the rows named are left out of everything; the lead "
                                     "supersedes one by deciding its instance again" if server else
                                     "damaged; `hieradjudicate project repair` makes a sound copy of what "
                                     "is intact"))
    return 0 if sound else 1


def cmd_repair(args: argparse.Namespace) -> int:
    from hieradjudicate.app.session.repair import repair_project

    _file_only(args.project, "project repair")

    out = repair_project(args.project, args.output, args.input)
    print(f"repaired project: {out.output} ({out.files} stored input copies, {out.decisions} decision rows, "
          f"{out.runs} stored run(s))")
    for line in out.rebuilt or ():
        print(line)
    if out.truncated:
        print(f"{out.truncated}: every row on the pages that are left was read")
    if out.mended_schema:
        print(f"the schema text of {', '.join(out.mended_schema)} was damaged; the rows were read with it "
              "as the program writes it")
    if out.kept_as is not None:
        print(f"the damaged file is kept as {out.kept_as}")
    if out.flagged:
        print(f"kept but flagged ({len(out.flagged)}; check them): " + "; ".join(out.flagged),
              file=sys.stderr)
    if out.unreadable:
        n = sum(b - a + 1 for a, b in out.unreadable)
        print(f"unreadable (damaged pages; {n} id(s), not all of them need have held a decision): "
              + ", ".join(f"#{a}" if a == b else f"#{a}-#{b}" for a, b in out.unreadable), file=sys.stderr)
    if out.left_out:
        print(f"left out ({len(out.left_out)}): " + "; ".join(out.left_out), file=sys.stderr)
    if out.runs_left_out:
        print(f"stored runs left out ({len(out.runs_left_out)}; add them again with project add-run): "
              + "; ".join(out.runs_left_out), file=sys.stderr)
    return 0
