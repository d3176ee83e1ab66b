"""Command line: ``hieradjudicate [PROJECT.hadj | demo | validate | agree | score | compare | project | report]``.

Non-GUI commands never import Qt.  Every user-facing error is one line on
stderr (exit 1); usage errors exit 2; an unexpected failure is logged with
its traceback to the log file and summarised in one line.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys

from hieradjudicate import __version__
from hieradjudicate.cli.options import add_inputs, parse_columns
from hieradjudicate.core.errors import HieradjError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # exit 2 with a one-line message, as argparse does
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")

    def _get_formatter(self):
        # argparse's own width (the terminal's less 2) without its `import shutil` (and bz2, lzma):
        # every add_argument makes a formatter, so each command paid that import at its start
        return self.formatter_class(prog=self.prog, width=_terminal_columns() - 2)


def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``: $COLUMNS, else standard output's terminal, else 80."""
    import os

    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


#: The commands of each group module (hieradjudicate.cli.<group> registers them).
COMMAND_GROUPS = {"validate": ("validate",), "metrics": ("agree", "score"), "evaluation.compare": ("compare",),
                  "competence": ("competence",), "project": ("project", "server"), "report": ("report",)}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``command`` (the first argument) one of the commands, only its
    group is registered -- the other groups' modules are not imported (``agree`` starts ~25 ms
    sooner).  Parsing, help and errors of that command are the same either way."""
    import importlib

    groups = [g for g, names in COMMAND_GROUPS.items() if command in names] or list(COMMAND_GROUPS)
    p = _Parser(prog="hieradjudicate", description="Adjudicate word-sense annotations over hierarchical "
                "sense inventories. Without a command: open the workbench.", epilog=WORKBENCH_USAGE,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"hieradjudicate {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    for group in groups:  # the order of --help
        importlib.import_module(f"hieradjudicate.cli.{group}").register(sub, add_inputs)
    if len(groups) == 1:
        return p
    # listed for --help only: main() hands these to the workbench before parsing (cli/gui.py)
    demo = sub.add_parser("demo", help="open the bundled demo project in the workbench (--screenshot PNG, "
                          "--tab, --fresh-demo as below)", add_help=False)
    gui = sub.add_parser("gui", help="open the workbench: gui [PROJECT.hadj] [--screenshot PNG] [--tab TAB]",
                         add_help=False)
    for q, name in ((demo, "demo"), (gui, "gui")):
        q.add_argument("rest", nargs=argparse.REMAINDER)
        q.set_defaults(func=lambda a, name=name: _workbench([name, *a.rest]))
    return p


def _workbench(argv: list[str]) -> int:
    from hieradjudicate.cli.gui import run_gui

    return run_gui(argv)


WORKBENCH_USAGE = """\
the workbench:
  hieradjudicate                      the start page (recent projects, new project, the demo)
  hieradjudicate demo                 the bundled demo project
  hieradjudicate PROJECT.hadj         open a project
  hieradjudicate postgresql://USER@HOST:PORT/DB?project=NAME
                                      open a team project on a PostgreSQL server
  options:  --screenshot PNG          open the window at 1280x800 (off screen without a display),
                                      save a picture of it and exit
            --tab workbench|dashboard the tab shown (and pictured)
            --fresh-demo              re-create the demo project from its files
  Without a display, PROJECT.hadj prints the project's status and no target prints the demo's
  agreement report; a missing or unreadable project is an error (exit 1).

exit codes: 0 success, 1 a problem with the input or the project (the message names the file,
the line and what was expected), 2 a usage error.  `hieradjudicate COMMAND --help` for each command."""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    from hieradjudicate.app.textout import terminal_safe_streams
    from hieradjudicate.io.atomic import sweep_pending

    sweep_pending()  # temporary files of exports and reports whose writer was killed (any command)

    gui_commands = {"demo", "gui"}
    # data (ids, tags, notes, file names) reaches the terminal only as visible escapes
    with terminal_safe_streams():
        gui_options = {"--screenshot", "--tab", "--fresh-demo"}  # `hieradjudicate --screenshot x.png`: start page
        if (not argv or argv[0] in gui_commands or argv[0].split("=", 1)[0] in gui_options
                or argv[0].endswith(".hadj") and not argv[0].startswith("-")
                or argv[0].startswith(("postgresql://", "postgres://"))):  # a project on a server
            from hieradjudicate.cli.gui import run_gui
            return run_gui(argv)
        if argv[0][:1] != "-" and ("/" in argv[0] or "." in argv[0]) and os.path.exists(argv[0]):
            return _not_a_command(argv[0])  # a path where a command or a project was expected
        return _run(argv)


def _not_a_command(path: str) -> int:
    """``hieradjudicate FILE`` with a file that is no project: open it if it is one under another
    name, else say what the window opens and how to make a project of input files (exit 2)."""
    try:
        with open(path, "rb") as fh:
            if fh.read(16) == b"SQLite format 3\x00":  # a project whose name lacks .hadj
                from hieradjudicate.cli.gui import run_gui
                return run_gui([path])
    except OSError:
        pass
    what = "a folder" if os.path.isdir(path) else "not a project"
    print(f"hieradjudicate: error: {path}: {what}; the window opens a project (P.hadj) or the demo. To work on "
          f"input files, make a project of them: hieradjudicate project new P.hadj --inventory INVENTORY "
          f"--annotations FILE ...; or read them with a command (validate, agree, score, ...; "
          f"hieradjudicate --help lists them)", file=sys.stderr)
    return 2


def _run(argv: list[str]) -> int:
    from hieradjudicate.app.memory import CLI_THRESHOLD, CLI_TRIM, fix_mmap_threshold
    from hieradjudicate.core.gc_policy import gc_paused

    # freed numpy temporaries above 32 MiB go back to the system (see app.memory); the workbench
    # fixes its own, lower threshold
    fix_mmap_threshold(CLI_THRESHOLD, trim=CLI_TRIM)
    # the command's modules (numpy's among them) are imported here: without the pause Python runs
    # some 40 collections over their objects (13 ms of `score`'s start); frozen, no later collection
    # of the command goes over them again, and they are thawed when it ends (for a caller in the
    # same process: the test suite)
    freeze = gc.get_freeze_count() == 0
    with gc_paused():
        parser = build_parser(argv[0] if argv else None)
        args = parser.parse_args(argv)
        if freeze:
            gc.freeze()
    try:
        return _dispatch(parser, args)
    finally:
        if freeze:
            gc.unfreeze()


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.command is None:
        parser.print_help()
        return 2
    try:
        if hasattr(args, "tree_columns"):
            args.tree_columns = parse_columns(args.tree_columns)
        return int(args.func(args) or 0)
    except HieradjError as exc:
        print(f"hieradjudicate: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("hieradjudicate: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # last resort: never show a traceback to a user
        from hieradjudicate.app.logs import log_exception
        path = log_exception(exc)
        print(f"hieradjudicate: internal error: {type(exc).__name__}: {exc} (details in {path})", file=sys.stderr)
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
