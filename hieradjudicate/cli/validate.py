"""``validate``: read every input as strictly as a project would and say what was found (no Qt)."""

from __future__ import annotations

import argparse
import sys

from hieradjudicate.app.textout import csv_text, json_text, text_table
from hieradjudicate.cli.options import specs


def register(sub, add_inputs) -> None:
    p = sub.add_parser("validate", help="read inventories, annotations and contexts and report what was found")
    add_inputs(p, skip_option=False)
    p.add_argument("--contexts", action="append", default=[], metavar="PATH", help="context file; repeatable")
    p.set_defaults(func=cmd_validate)


def cmd_validate(args: argparse.Namespace) -> int:
    from hieradjudicate.app.loading.load import load, validation_report

    if not args.inventory and not args.annotations and not args.contexts:
        print("hieradjudicate validate: error: give at least one --inventory, --annotations or --contexts file",
              file=sys.stderr)
        return 2
    result = load(args.inventory, specs(args), args.contexts, tree_columns=args.tree_columns, strict=False)
    rep = validation_report(result)
    # problems that make a project unreliable: errors, duplicate answers, lexelts the inventory lacks
    dups = sum(f["duplicates"] for f in rep["files"])
    unknown = rep["unknown_lexelts"] if args.inventory else []
    ok = not rep["errors"] and not dups and not unknown
    rep["valid"] = ok
    # every failure names its cause (project new refuses the same inputs for the same causes)
    rep["causes"] = ([f"{len(rep['errors'])} error(s)"] if rep["errors"] else []) \
        + ([f"{dups} duplicate answer line(s)"] if dups else []) \
        + ([absent_lexelts_text(unknown)] if unknown else [])
    if args.format == "json":
        print(json_text(rep))
    elif args.format == "csv":
        rows = [[n, s["role"], s["instances"], s["multi_tag"], s["unknown_tags"], s["labels"]]
                for n, s in rep["sets"].items()]
        sys.stdout.write(csv_text(["set", "role", "instances", "multi_tag", "unknown_tags", "labels"], rows))
        problems = _problem_rows(rep)
        if problems:  # what makes it invalid, after the sets' table and an empty line (as the text says it)
            sys.stdout.write("\n" + csv_text(["severity", "file", "line", "column", "message"], problems))
    else:
        print(_validate_text(rep))
    return 0 if ok else 1


def _problem_rows(rep: dict) -> list[list]:
    """The errors and warnings as rows, then each cause of invalidity that is not a line's error
    (duplicate answers, lexelts the inventory lacks)."""
    rows = [[sev, p.get("file", ""), p.get("line", ""), p.get("column", ""), p["message"]]
            for sev, key in (("error", "errors"), ("warning", "warnings")) for p in rep[key]]
    return rows + [["error", "", "", "", c] for c in rep["causes"] if not c.endswith(" error(s)")]


def absent_lexelts_text(absent: list[str]) -> str:
    """"3 lexelt(s) of the annotations are absent from the inventory: a.n, b.v, c.a"."""
    return (f"{len(absent)} lexelt(s) of the annotations are absent from the inventory: "
            + ", ".join(absent[:20]) + (" ..." if len(absent) > 20 else ""))


def _validate_text(rep: dict) -> str:
    out = []
    for f in rep["files"]:
        state = "FAILED" if f["failed"] else f"read as {f['format']}"
        extra = []
        if f["skipped_lines"]:
            extra.append(f"{f['skipped_lines']} line(s) skipped")
        if f["duplicates"]:
            extra.append(f"{f['duplicates']} duplicate line(s) ignored")
        if f["sets"]:
            extra.append(f"{len(f['sets'])} set(s)")
        out.append(f"{f['kind']:<12} {f['path']}: {state}" + (f" ({', '.join(extra)})" if extra else ""))
    out.append("")
    out.append(f"lexelts {rep['lexelts']}, senses {rep['senses']}, max depth {rep['max_depth']}, "
               f"max branching {rep['max_branching']}, instances {rep['instances']}")
    if rep["sets"]:
        rows = [[n, s["role"], s["instances"], s["multi_tag"], s["unknown_tags"]] for n, s in rep["sets"].items()]
        if len(rows) > 40:
            inst = [r[2] for r in rows]
            out.append(f"{len(rows)} annotation sets (instances per set: min {min(inst)}, max {max(inst)}); "
                       "use --format json for each")
        else:
            out.append(text_table(["set", "role", "instances", "multi-tag", "outside-inventory"], rows))
    if "instances_with_context" in rep:
        out.append(f"instances with a context: {rep['instances_with_context']} of {rep['instances']}")
    if rep["unknown_lexelts"]:
        out.append(f"lexelts absent from the inventory: {', '.join(rep['unknown_lexelts'][:20])}"
                   + (" ..." if len(rep["unknown_lexelts"]) > 20 else ""))
    if rep["outside_tags"]:
        shown = ", ".join(f"{t['lexelt']}:{t['tag']} ({t['uses']})" for t in rep["outside_tags"][:15])
        more = len(rep["outside_tags"]) - 15
        out.append(f"tags outside the inventory, kept as leaves of their own: {shown}"
                   + (f" and {more} more" if more > 0 else ""))
    for kind in ("errors", "warnings"):
        probs = rep[kind]
        if probs:
            out.append(f"{len(probs)} {kind[:-1]}(s):")
            for p in probs[:50]:
                where = p["file"] + (f":{p['line']}" if p["line"] is not None else "")
                where += f":{p['column']}" if p.get("column") else ""
                out.append(f"  {where}: {p['message']}")
    out.append("valid" if rep["valid"] else "NOT valid: " + "; ".join(rep["causes"]))
    return "\n".join(out)
