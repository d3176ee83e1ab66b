"""``hieradjudicate`` [PATH.hadj | demo] [--screenshot PNG] [--tab workbench|dashboard]: start the workbench.

Without a display (no ``DISPLAY``/``WAYLAND_DISPLAY`` and ``QT_QPA_PLATFORM``
unset) the window cannot open: with ``--screenshot`` the offscreen platform
is used; otherwise a sentence says so and the demo's agreement report is
printed instead of letting Qt abort.
"""

from __future__ import annotations

import argparse
import os
import sys


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hieradjudicate", description="Open the adjudication workbench.")
    p.add_argument("target", nargs="?", help="a project file (.hadj), or 'demo' for the bundled demo")
    p.add_argument("--screenshot", metavar="PNG", help="open the window at 1280×800, save a picture of it, exit")
    p.add_argument("--tab", choices=("workbench", "dashboard"), default="workbench",
                   help="the tab shown (with --screenshot: the tab pictured)")
    p.add_argument("--fresh-demo", action="store_true", help="re-create the demo project from its files")
    return p


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("QT_QPA_PLATFORM"))


def run_gui(argv: list[str]) -> int:
    argv = list(argv)
    if argv and argv[0] == "gui":
        argv = argv[1:]
    args = _parser().parse_args(argv)
    if not has_display():
        if args.screenshot:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        else:
            print("hieradjudicate: no display is available (DISPLAY and WAYLAND_DISPLAY are unset), so the "
                  "workbench window cannot open; here is the demo's agreement report instead. Use a desktop "
                  "session, or --screenshot PATH to render the window off screen.")
            from hieradjudicate.app.demo import agreement_report
            try:
                print(agreement_report())
            except Exception as exc:  # noqa: BLE001
                print(f"hieradjudicate: error: {exc}", file=sys.stderr)
                return 1
            return 0
    from hieradjudicate.gui.app import run
    return run(args.target, screenshot=args.screenshot, fresh_demo=args.fresh_demo, tab=args.tab)
