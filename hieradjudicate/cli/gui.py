"""``hieradjudicate`` [PATH.hadj | demo] [--screenshot PNG] [--tab workbench|dashboard]: start the workbench.

Without a display (no ``DISPLAY``/``WAYLAND_DISPLAY`` and ``QT_QPA_PLATFORM``
unset) the window cannot open: with ``--screenshot`` the offscreen platform
is used; otherwise a sentence says so and the project's status is printed
(the demo's agreement report for ``demo`` or no target) instead of letting
Qt abort.  A project that does not exist, is a folder or cannot be read is
an error (exit 1) with or without a display, before any window opens: a
screenshot never shows the start page in place of a project that failed.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hieradjudicate", description="Open the adjudication workbench.")
    p.add_argument("target", nargs="?", help="a project file (.hadj), a server project URL "
                   "(postgresql://USER@HOST:PORT/DB?project=NAME), or 'demo' for the bundled demo")
    p.add_argument("--screenshot", metavar="PNG", help="open the window at 1280×800, save a picture of it, exit")
    p.add_argument("--tab", choices=("workbench", "dashboard"), default="workbench",
                   help="the tab shown (with --screenshot: the tab pictured)")
    p.add_argument("--fresh-demo", action="store_true", help="re-create the demo project from its files")
    return p


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("QT_QPA_PLATFORM"))


NO_DISPLAY = ("hieradjudicate: no display is available (DISPLAY and WAYLAND_DISPLAY are unset), so the "
              "workbench window cannot open; {what} Use a desktop session, or --screenshot PNG to render "
              "the window off screen.")


def project_problem(target: str) -> str | None:
    """Why ``target`` cannot be opened as a project (missing, a folder, unreadable), or ``None``.

    A server URL is checked for its form here; the server itself answers when it is opened."""
    from hieradjudicate.core.errors import HieradjError
    from hieradjudicate.io.store.locations import is_server_location

    if is_server_location(target):
        from hieradjudicate.io.store.pg.location import parse_location

        try:
            parse_location(target)
        except HieradjError as exc:
            return str(exc)
        return None
    p = Path(target)
    if not p.exists():
        return f"{target}: no such project file"
    if p.is_dir():
        return f"{target}: is a folder, not a project file (.hadj)"
    if not os.access(p, os.R_OK):
        return f"{target}: cannot read the project file (permission denied)"
    return None


def run_gui(argv: list[str]) -> int:
    argv = list(argv)
    if argv and argv[0] == "gui":
        argv = argv[1:]
    args = _parser().parse_args(argv)
    project = args.target if args.target and args.target != "demo" else None
    if project is not None:
        problem = project_problem(project)
        if problem:
            print(f"hieradjudicate: error: {problem}", file=sys.stderr)
            return 1
    if args.screenshot:
        folder = Path(args.screenshot).resolve().parent
        if Path(args.screenshot).is_dir() or not folder.is_dir():
            print(f"hieradjudicate: error: --screenshot {args.screenshot}: "
                  + ("is a folder; give a file name" if Path(args.screenshot).is_dir()
                     else f"the folder {folder} does not exist"), file=sys.stderr)
            return 1
    if not has_display():
        if args.screenshot:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        elif project is not None:
            return _print_status(project)
        else:
            print(NO_DISPLAY.format(what="here is the demo's agreement report instead."))
            from hieradjudicate.app.demo import agreement_report
            try:
                print(agreement_report())
            except Exception as exc:  # noqa: BLE001
                print(f"hieradjudicate: error: {exc}", file=sys.stderr)
                return 1
            return 0
    from hieradjudicate.gui.app import run
    return run(args.target, screenshot=args.screenshot, fresh_demo=args.fresh_demo, tab=args.tab)


def _print_status(project: str) -> int:
    """No display: the status of the project asked for (not the demo's figures)."""
    from hieradjudicate.app.session.session import Session
    from hieradjudicate.cli.project import status_dict, status_text
    from hieradjudicate.core.errors import HieradjError

    print(NO_DISPLAY.format(what=f"here is the status of {project} instead."), file=sys.stderr)
    try:
        with Session.open(project, read_only=True) as session:
            print(status_text(status_dict(session)))
    except HieradjError as exc:
        print(f"hieradjudicate: error: {exc}", file=sys.stderr)
        return 1
    return 0
