"""Write ``docs/reference.md``, the command reference, from the program's own argument parser.

    python docs/tools/gen_reference.py            # rewrite docs/reference.md
    python docs/tools/gen_reference.py --check    # exit 1 (and say so) when it is out of date

Every command, sub-command, option, choice, default and help text comes from
:func:`hieradjudicate.cli.entry.build_parser` (and the workbench's own parser in
``cli/gui.py``), so the reference cannot drift from the program:
``tests/test_docs.py`` fails when the committed file differs from what this writes.
The text is formatted at a fixed width (not the terminal's), so it is the same on every machine.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(DOCS.parent))  # the checkout's package, not an installed one

WIDTH = 96
#: Commands listed by the top-level parser only for --help (main() hands them to the workbench).
WORKBENCH_COMMANDS = ("demo", "gui")


def _formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(prog, width=WIDTH, max_help_position=32)


def _usage(parser: argparse.ArgumentParser) -> str:
    f = _formatter(parser.prog)
    f.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return f.format_help().strip()


_MD_SPECIAL = re.compile(r"([\\`*_<>\[\]|#])")


def _md(text: str) -> str:
    """Help text as literal Markdown (``*.ans``, ``<head>``, ``[NAME=]`` stay as written)."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    if not action.help or action.help == argparse.SUPPRESS:
        return ""
    return _formatter(parser.prog)._expand_help(action)


def _invocation(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    return _formatter(parser.prog)._format_action_invocation(action)


def _subparsers(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, help, parser) of each sub-command, in the parser's order."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                out.append((name, helps.get(name, ""), sub))
    return out


def _arguments(parser: argparse.ArgumentParser) -> list[str]:
    lines = []
    for action in parser._actions:
        if isinstance(action, (argparse._SubParsersAction, argparse._HelpAction)):
            continue
        if action.help == argparse.SUPPRESS:
            continue
        inv = _invocation(parser, action)
        text = _md(_help(parser, action))
        extra = []
        if action.option_strings and action.required:
            extra.append("required")
        if (action.option_strings and action.default not in (None, False, [], argparse.SUPPRESS)
                and "default" not in (action.help or "") and not isinstance(action, argparse._VersionAction)):
            extra.append(f"default: `{action.default}`")
        if getattr(action, "nargs", None) == argparse.REMAINDER:
            continue
        tail = f" ({'; '.join(extra)})" if extra else ""
        lines.append(f"* `{inv}`" + (f": {text}" if text else "") + tail)
    return lines


def _command(parser: argparse.ArgumentParser, name: str, helptext: str, depth: int) -> list[str]:
    title = parser.prog
    out = [f"{'#' * depth} `{title}`", ""]
    if helptext:
        out += [_md(helptext[0].upper() + helptext[1:]) + ".", ""]
    if parser.description:
        out += [_md(parser.description), ""]
    out += ["```text", _usage(parser), "```", ""]
    args = _arguments(parser)
    if args:
        out += args + [""]
    subs = _subparsers(parser)
    if subs:
        out += ["| action | what it does |", "|---|---|"]
        out += [f"| [`{n}`](#{_anchor(s.prog)}) | {_md(h)} |" for n, h, s in subs] + [""]
        for n, h, s in subs:
            out += _command(s, n, h, depth + 1)
    return out


def _anchor(title: str) -> str:
    """The id MkDocs' toc extension gives a heading made of ``title`` in backticks."""
    return re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", title).strip().lower())


def render() -> str:
    from hieradjudicate.cli import entry, gui

    top = entry.build_parser()
    workbench = gui._parser()
    lines = [
        "# Command reference",
        "",
        "<!-- Written by docs/tools/gen_reference.py from the program's own argument parser: do not edit;",
        "     run `python docs/tools/gen_reference.py` after changing an option (tests/test_docs.py checks). -->",
        "",
        "Every command and option of `hieradjudicate`, with the help text the program itself prints "
        "(`hieradjudicate COMMAND --help`). The [task pages](index.md) show them at work.",
        "",
        "Exit codes: 0 success, 1 a problem with the input or the project (the message names the file, "
        "the line and what was expected), 2 a usage error.",
        "",
        "## The workbench",
        "",
        "```text",
        entry.WORKBENCH_USAGE,
        "```",
        "",
        "```text",
        _usage(workbench).replace("usage: hieradjudicate", "usage: hieradjudicate [gui|demo]", 1),
        "```",
        "",
        *_arguments(workbench),
        "",
        "## Commands",
        "",
        "```text",
        _usage(top),
        "```",
        "",
        *_arguments(top),
        "",
        "| command | what it does |",
        "|---|---|",
    ]
    subs = [(n, h, s) for n, h, s in _subparsers(top) if n not in WORKBENCH_COMMANDS]
    lines += [f"| [`{n}`](#{_anchor(s.prog)}) | {_md(h)} |" for n, h, s in subs] + [""]
    for n, h, s in subs:
        lines += _command(s, n, h, 3)
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--check", action="store_true", help="compare with docs/reference.md, write nothing")
    ap.add_argument("--out", default=str(DOCS / "reference.md"))
    args = ap.parse_args(argv)
    text = render()
    out = Path(args.out)
    if args.check:
        if not out.is_file() or out.read_text(encoding="utf-8") != text:
            print(f"{out} is out of date: run python docs/tools/gen_reference.py", file=sys.stderr)
            return 1
        return 0
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
