"""``hieradjudicate project ...``: create, inspect, decide, export a ``.hadj`` project (no Qt).

Every write command opens the project for writing; when another
hieradjudicate has it open, the project comes up read-only and the command
stops with one line saying so (exit 1) before changing anything.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hieradjudicate.app.session.decisions_csv import check_tags as _check_tags
from hieradjudicate.app.session.decisions_csv import read_decisions_csv  # noqa: F401 (tests use it here)
from hieradjudicate.cli import health, team, timeline
from hieradjudicate.cli.evaluation import runs
from hieradjudicate.cli.options import add_skip_option, positive
from hieradjudicate.core.errors import HieradjError, ProjectError

WRITE_HINT = "nothing was changed"


def register(sub: Any, add_inputs: Callable[..., None]) -> None:
    proj = sub.add_parser("project", help="create, inspect, decide and export a .hadj project")
    psub = proj.add_subparsers(dest="project_command", metavar="ACTION",
                               parser_class=type(proj))
    proj.set_defaults(func=lambda args: _usage(proj))

    p = psub.add_parser("new", help="create a project from inventory, annotation and context files")
    p.add_argument("out", metavar="OUT.hadj")
    add_inputs(p)
    p.add_argument("--contexts", action="append", default=[], metavar="PATH",
                   help="context file; repeatable")
    p.add_argument("--user", help="who decides (default: the login name)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing project")
    p.set_defaults(func=cmd_new)

    p = psub.add_parser("status", help="decisions per status and per lexelt")
    p.add_argument("project", metavar="P")
    p.add_argument("--format", choices=("text", "json", "csv"), default="text",
                   help="output format (csv: one row per lexelt)")
    p.set_defaults(func=cmd_status)

    p = psub.add_parser("decide", help="record one decision, or change an instance's note or flag",
                        description="The note and the flag are marks on the instance: they stay through "
                        "every later decision until changed here (--note '' clears the note, --unflag "
                        "removes the flag) or in the window.")
    p.add_argument("project", metavar="P")
    p.add_argument("lexelt")
    p.add_argument("instance")
    p.add_argument("tags", nargs="*", metavar="TAG", help="gold tag(s): inventory sense ids")
    p.add_argument("--note", default=None, metavar="TEXT",
                   help="the instance's note ('' clears it; default: the note stays)")
    mark = p.add_mutually_exclusive_group()
    mark.add_argument("--flag", action="store_true", help="flag the instance for review")
    mark.add_argument("--unflag", action="store_true", help="remove the flag")
    mark.add_argument("--skip", action="store_true", help="mark it skipped (a flagged one stays flagged)")
    p.set_defaults(func=cmd_decide)

    p = psub.add_parser("import-decisions", help="record decisions from a CSV file, as one step")
    p.add_argument("project", metavar="P")
    p.add_argument("file", metavar="FILE.csv",
                   help="columns lexelt, instance, tags (space or ; separated); optional "
                        "status, note, source")
    p.set_defaults(func=cmd_import)

    p = psub.add_parser("resolve-agreed", help="resolve every unresolved instance the annotator sets "
                        "agree on (identical tags; --compatible: nested answers too); systems are not "
                        "counted unless --include-systems")
    p.add_argument("project", metavar="P")
    p.add_argument("--compatible", choices=("most", "least"), metavar="most|least",
                   help="also accept nested answers, taking the most or least specific")
    p.add_argument("--min-annotators", type=positive, default=2, metavar="N",
                   help="annotators who must have answered (default 2)")
    p.add_argument("--include-systems", action="store_true",
                   help="count the sets with role system as annotators too (by default only the sets "
                        "with role annotator are compared)")
    p.set_defaults(func=cmd_resolve_agreed)

    p = psub.add_parser("reimport", help="replace a changed annotation file; flags the decisions "
                        "whose basis changed")
    p.add_argument("project", metavar="P")
    p.add_argument("name", metavar="NAME", help="a set name of the file (or the file's id)")
    p.add_argument("path", metavar="PATH")
    add_skip_option(p)
    p.set_defaults(func=cmd_reimport)

    p = psub.add_parser("export", help="write the adjudicated gold standard")
    p.add_argument("project", metavar="P")
    p.add_argument("--format", choices=("senseval", "wsdeval", "csv", "jsonl", "xmi", "labelstudio", "prodigy"),
                   required=True, help="xmi, labelstudio, prodigy: the gold written back into the tool's own "
                   "file the project was built from (a zip of XMI for INCEpTION/WebAnno; Label Studio's "
                   "task import JSON; Prodigy JSONL)")
    p.add_argument("-o", "--output", required=True, metavar="OUT")
    p.add_argument("--include-unresolved", action="store_true",
                   help="CSV/JSON Lines: also write instances not resolved, with their status")
    p.add_argument("--without-damaged", action="store_true",
                   help="export even though some decisions failed their checksum (they are left out "
                   "and named on stderr); without it such an export is refused")
    p.set_defaults(func=cmd_export)

    p = psub.add_parser("history", help="every decision ever recorded (the audit trail)")
    p.add_argument("project", metavar="P")
    p.add_argument("--format", choices=("csv", "text", "json"), default="csv")
    p.add_argument("-o", "--output", metavar="OUT", help="write to a file (default: stdout)")
    p.set_defaults(func=cmd_history)

    health.register(psub)
    team.register(psub)
    team.register_server(sub)  # hieradjudicate server setup: the administrator's command
    runs.register(psub)
    timeline.register(psub)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    print(f"{parser.prog}: error: give an action (new, status, decide, import-decisions, "
          "resolve-agreed, reimport, export, history, check, repair, publish, pull, team, "
          "assign, conflicts, progress, add-run, runs, timeline, mark)", file=sys.stderr)
    return 2


def _open(path: str, *, write: bool) -> Any:
    from hieradjudicate.app.session.session import Session

    from hieradjudicate.io.store.locations import is_server_location

    if not is_server_location(path) and not Path(path).exists():
        raise HieradjError(f"{path}: no such project")
    session = Session.open(path, read_only=not write)
    warn_left_out(session)
    if write and session.read_only:
        reason = session.read_only_reason
        session.close()
        raise HieradjError(f"cannot change the project: "
                           f"{str(reason).removesuffix('; opened read-only')}; {WRITE_HINT}")
    return session


def warn_left_out(session: Any) -> None:
    """Say on stderr which decisions every figure and file of this command leaves out (never silent)."""
    from hieradjudicate.app.session.session import left_out_text

    left = session.store.left_out
    if left:
        print(f"{session.path}: warning: {left_out_text(left)}; they are not in what this command "
              "shows or writes (`hieradjudicate project check` for details, `project repair` keeps "
              "what is intact)", file=sys.stderr)


def inventory_policy(args: argparse.Namespace, result: Any) -> None:
    """Lexelts the inventory lacks (a cut or different inventory): refused as ``validate`` does,
    unless ``--skip-bad-lines`` (then said on stderr)."""
    from hieradjudicate.cli.validate import absent_lexelts_text

    corpus = getattr(result, "corpus", None)
    if not args.inventory or corpus is None:
        return
    inv = corpus.inventory
    absent = sorted(set(inv.lexelts) - inv.known_lexelts)
    if not absent:
        return
    text = absent_lexelts_text(absent)
    if not getattr(args, "skip_bad_lines", False):
        raise HieradjError(f"{text}; `hieradjudicate validate` says the same; --skip-bad-lines builds "
                           "the project anyway (their tags become senses of their own)")
    print(f"hieradjudicate project new: warning: {text}; their tags become senses of their own "
          "(--skip-bad-lines)", file=sys.stderr)


def context_warnings(result: Any) -> None:
    """Say on stderr which context files name instances the annotations lack (another task's file, or
    ids written otherwise): the project is made, but those instances show no context."""
    from hieradjudicate.core.model import UNMATCHED_CONTEXTS

    for p in getattr(result, "problems", []):
        if p.severity == "warning" and UNMATCHED_CONTEXTS in p.message:
            print(f"hieradjudicate project new: warning: {p.file}: {p.message}", file=sys.stderr)


def cmd_new(args: argparse.Namespace) -> int:
    from hieradjudicate.app.session.session import Session
    from hieradjudicate.cli.options import reading_policy, specs

    if not args.annotations:
        print("hieradjudicate project new: error: give at least one --annotations (and --inventory)",
              file=sys.stderr)
        return 2
    if not args.inventory:  # e.g. entity links from INCEpTION: the labels are the senses
        print("hieradjudicate project new: note: no --inventory; every tag becomes a sense of its own "
              "(a flat inventory per lexelt)", file=sys.stderr)
    from hieradjudicate.io.store.locations import is_server_location

    if is_server_location(args.out):  # built as a file, then published: the server gets it whole
        from hieradjudicate.app.team import publish_project as publish

        with tempfile.TemporaryDirectory(prefix="hadj-") as tmp:
            made = Path(tmp) / "new.hadj"
            with Session.create(made, args.inventory, specs(args), args.contexts,
                                tree_columns=args.tree_columns, user=args.user,
                                check=lambda res: (reading_policy(args, res), context_warnings(res))) as s:
                n, lexelts = s.corpus.n, len(s.corpus.inventory.lexelts)
            publish(made, args.out)
        print(f"created {args.out}: {n} instances, {lexelts} lexelts (you are its lead)")
        return 0
    with Session.create(args.out, args.inventory, specs(args), args.contexts,
                        tree_columns=args.tree_columns, overwrite=args.overwrite,
                        user=args.user, check=lambda res: (reading_policy(args, res),
                                                           inventory_policy(args, res),
                                                           context_warnings(res))) as s:
        all_sets = s.corpus.sets
        if len(all_sets) <= 12:
            sets = ", ".join(f"{x.name} ({x.role})" for x in all_sets)
        else:  # a crowd project: a count per role, not 228 names on one line
            roles = Counter(x.role for x in all_sets)
            sets = ", ".join(f"{n} {role}" for role, n in roles.items()) + " sets (project status lists them)"
        print(f"created {args.out}: {s.corpus.n} instances, {len(s.corpus.inventory.lexelts)} "
              f"lexelts, sets {sets}")
    return 0


def status_dict(session: Any) -> dict[str, Any]:
    """Counts per status, overall and per lexelt (every instance of the corpus, plus decided
    instances that are no longer in it)."""
    statuses: tuple[str, ...] = ("unresolved", "resolved", "flagged", "skipped")
    if hasattr(session.store, "location"):  # a server project: adjudicators may differ
        statuses += ("conflict",)
    per_lex: dict[str, Counter[str]] = {}
    keys = session.instances()
    known = set(keys)
    for lexelt, inst in keys:
        per_lex.setdefault(lexelt, Counter())[session.decisions.status(lexelt, inst)] += 1
    for row in session.decisions:
        if row.key not in known:
            per_lex.setdefault(row.lexelt, Counter())[row.status] += 1
    total: Counter[str] = Counter()
    for c in per_lex.values():
        total.update(c)
    return {
        "project": str(session.path),
        "instances": sum(total.values()),
        "status": {s: total[s] for s in statuses},
        "lexelts": {lex: {**{s: c[s] for s in statuses}, "total": sum(c.values())}
                    for lex, c in sorted(per_lex.items())},
        "sets": [{"name": s.name, "role": s.role, "instances": s.n} for s in session.corpus.sets],
        "left_out": list(session.store.left_out),
    }


def cmd_status(args: argparse.Namespace) -> int:
    from hieradjudicate.app.textout import json_text

    with _open(args.project, write=False) as s:
        d = status_dict(s)
    if args.format == "json":
        print(json_text(d))
        return 0
    if args.format == "csv":
        from hieradjudicate.app.textout import csv_text

        st = list(d["status"])
        sys.stdout.write(csv_text(["lexelt", *st, "total"],
                                  [[lex, *(c[k] for k in st), c["total"]] for lex, c in d["lexelts"].items()]))
        return 0
    print(status_text(d))
    return 0


def status_text(d: dict[str, Any]) -> str:
    """The text form of :func:`status_dict` (``project status`` and the no-display fallback)."""
    from hieradjudicate.app.textout import text_table

    st = d["status"]
    rows = [[lex, *(c[k] for k in st), c["total"]] for lex, c in d["lexelts"].items()]
    sets = ", ".join(f"{x['name']} ({x['role']}, {x['instances']})" for x in d["sets"])
    left = d.get("left_out") or []
    warn = [f"left out of these counts ({len(left)} decision row(s) failed their checksum): "
            + "; ".join(left[:20]) + ("; ..." if len(left) > 20 else "")] if left else []
    if st.get("conflict"):
        warn.append(f"{st['conflict']} instance(s) in conflict: their adjudicators differ; not resolved until "
                    "the lead decides them (project conflicts URL)")
    return "\n".join([f"{d['project']}: {d['instances']} instances: "
                      + ", ".join(f"{n} {'in conflict' if k == 'conflict' else k}" for k, n in st.items()),
                      *warn,
                      f"sets: {sets}", text_table(["lexelt", *st, "total"], rows)])


def _saved_line(row: Any) -> str:
    text = f"saved #{row.id} {row.lexelt} {row.instance} {row.status}"
    if row.tags:
        text += " " + " ".join(row.tags)
    return text + f" ({row.source})" + (f"; note: {row.note}" if row.note else "")


def cmd_decide(args: argparse.Namespace) -> int:
    from hieradjudicate.app.session import markers

    if args.skip and args.tags:
        print("hieradjudicate project decide: error: give TAGs or --skip, not both", file=sys.stderr)
        return 2
    if not args.tags and not (args.flag or args.unflag or args.skip) and args.note is None:
        print("hieradjudicate project decide: error: give at least one TAG (or --note, --flag, --unflag, "
              "--skip)", file=sys.stderr)
        return 2
    with _open(args.project, write=True) as s:
        tags = _check_tags(s, args.lexelt, args.instance, args.tags, args.project) if args.tags else None
        flag = True if args.flag else False if args.unflag else None
        d = markers.edit(s.decisions, args.lexelt, args.instance, tags=tags, skip=args.skip, flag=flag,
                         note=args.note)
        if d is None:
            print(f"{args.lexelt} {args.instance}: unchanged (nothing saved)")
            return 0
        what = "decide" if tags else "flag" if args.flag else "unflag" if args.unflag else \
            "skip" if args.skip else "note on"
        for row in s.execute(markers.command(d, what)):
            print(_saved_line(row))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from hieradjudicate.app.session.project_ops import import_decisions

    with _open(args.project, write=True) as s:
        print(import_decisions(s, args.file))
    return 0


def cmd_resolve_agreed(args: argparse.Namespace) -> int:
    from hieradjudicate.app.session.project_ops import plan_resolve_agreed, resolve_agreed

    with _open(args.project, write=True) as s:
        plan = plan_resolve_agreed(s, compatible=args.compatible, min_annotators=args.min_annotators,
                                   include_systems=args.include_systems)
        print(resolve_agreed(s, plan))
    return 0


def cmd_reimport(args: argparse.Namespace) -> int:
    from hieradjudicate.app.session.project_ops import reimport, reimport_lines

    with _open(args.project, write=True) as s:
        notice, result = reimport(s, args.name, args.path, skip_bad_lines=bool(args.skip_bad_lines))
        if notice:
            print(f"hieradjudicate: warning: {notice}", file=sys.stderr)
        for line in reimport_lines(result):
            print(line)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from hieradjudicate.app.session.project_ops import export

    with _open(args.project, write=False) as s:
        summary = export(s, args.output, args.format, include_unresolved=args.include_unresolved,
                         without_left_out=args.without_damaged)
    print(summary)
    return 0


def _history_rows(path: str) -> tuple[list[Any], dict[int, str]]:
    """Every decision row and the batch labels; from a project too damaged to open, every row that
    can still be read (damaged pages skipped, each left-out row named on stderr)."""
    from hieradjudicate.io.store.health import salvage
    from hieradjudicate.io.store.records import row_from_db

    try:
        with _open(path, write=False) as s:
            return list(s.store.iter_history()), {b.id: b.label for b in s.store.batches()}
    except ProjectError as exc:
        if "damaged" not in str(exc):
            raise
        reason = str(exc)
    found = salvage(path)
    print(f"warning: {reason}\n{path}: the history below is every row that can still be read "
          f"({len(found.decisions)})", file=sys.stderr)
    if found.unreadable:
        print("unreadable ids (damaged pages): " + ", ".join(
            f"#{a}" if a == b else f"#{a}-#{b}" for a, b in found.unreadable), file=sys.stderr)
    for what, items in (("left out", found.left_out), ("flagged", found.flagged)):
        if items:
            print(f"{what} ({len(items)}): " + "; ".join(items), file=sys.stderr)
    return [row_from_db(r) for r in found.decisions], {b[0]: b[1] for b in found.batches}


def cmd_history(args: argparse.Namespace) -> int:
    from hieradjudicate.io.exports.gold import export_history

    if args.output:  # never over the project it reads (a damaged one is read from as it is)
        from hieradjudicate.app.session.project_ops import refuse_overwriting

        refuse_overwriting(args.output, [(args.project, "the project itself")], "the history")
    rows, labels = _history_rows(args.project)
    if args.format == "csv":
        from hieradjudicate.io.exports.gold import escaped_text

        escaped: list[str] = []
        if args.output:
            n = export_history(rows, args.output, batch_labels=labels, escaped=escaped)
            print(f"wrote {n} decision row(s) to {args.output}"
                  + (f"; {escaped_text(escaped)}" if escaped else ""), file=sys.stderr)
            return 0
        with tempfile.TemporaryDirectory(prefix="hadj-") as tmp:
            target = Path(tmp) / "history.csv"
            export_history(rows, target, batch_labels=labels, escaped=escaped)
            sys.stdout.write(target.read_text(encoding="utf-8"))
        if escaped:
            print(f"warning: {escaped_text(escaped)}", file=sys.stderr)
        return 0
    if args.format == "json":
        from hieradjudicate.app.textout import json_text

        lines = [{"id": r.id, "lexelt": r.lexelt, "instance": r.instance, "tags": list(r.tags),
                  "status": r.status, "source": r.source, "decided_by": r.decided_by,
                  "decided_at": r.decided_at, "note": r.note, "batch": r.batch, "basis": r.basis}
                 for r in rows]
        text = json_text(lines) + "\n"
    else:
        lines = [f"#{r.id} {r.decided_at} {r.decided_by}: {r.lexelt} {r.instance} {r.status}"
                 + (f" {' '.join(r.tags)}" if r.tags else "") + f" ({r.source})"
                 + (f" — {r.note}" if r.note else "") for r in rows]
        text = "".join(line + "\n" for line in lines)
    if args.output:
        from hieradjudicate.io.exports.gold import write_text_atomic

        write_text_atomic(args.output, text)
        print(f"wrote {len(lines)} decision row(s) to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
