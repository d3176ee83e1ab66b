"""Every screen a new user meets, at every screen size, as PNGs for a person to look at (#23, "fit").

    python benchmarks/screen_sweep.py [--sizes 1024x700,1366x768,1920x1080,1920x1080@1.5]
                                      [--projects demo,masc,wsbest,wsd] [--out benchmarks/out/sweep] [--no-wizard]

For each size the script starts its own Xvfb (a free display number) and openbox (as
``benchmarks/journeys.py`` does; ``@1.5`` runs the child with ``QT_SCALE_FACTOR=1.5``: 150 % scaling,
a 1920x1080 screen is then 1280x720 logical pixels), then in a child process on that display, for each
project, with fresh settings (the window sized from the screen as a first-time user's is):

* the workbench (first unresolved instance), the Live figures tab where the docks are tabbed, the table
  scrolled to its last row (the row header's widest number), and on a tall screen the window shrunk to
  666 px (docks tabbed) and grown back (docks side by side again);
* the ``?`` overlay (the key, as a user presses it), the Note dialog (``E``), the Pick dialog (``Space``),
  Go to instance (``Ctrl+G``), the Export gold dialog (``Ctrl+Shift+E``);
* the Dashboard tab (``Ctrl+2``) once its "updating…" ends, then page by page down its scroll area;
* once per size, the New project wizard (``Ctrl+N``) page by page with the WSbest files (or the demo's).

Each picture is the whole screen, ``OUT/<size>/<project>-NN-<what>.png``.  The script prints the window's
size and minimum size hint beside the screen's available area, and every widget it finds whose text is
wider than the widget (a QLabel without word wrap, a button, a combo box's current text): a first list of
what to look at, not a judgement (the pictures are).  Projects: ``demo`` is the bundled demo; ``masc``,
``wsbest`` and ``wsd`` (the WSD framework's ALL, gold + Lesk, WordNet 3.0) are built into a temporary folder
from ``$HIERADJ_REALDATA`` (or ``../shared/data``) and skipped, saying so, without it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

SIZES = "1024x700,1366x768,1920x1080,1920x1080@1.5"
PROJECTS = "demo,masc,wsbest,wsd"


from _sweep_projects import build  # noqa: E402  (the projects both processes build)
from _xscreen import run_on_screen  # noqa: E402


# ------------------------------------------------------------------------------------------ parent
def _xvfb_on(number: str, w: int, h: int) -> tuple[subprocess.Popen, str]:
    xvfb = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", f"{w}x{h}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.time() + 10
    while not Path(f"/tmp/.X11-unix/X{number}").exists() and xvfb.poll() is None and time.time() < end:
        time.sleep(0.1)
    if xvfb.poll() is not None:
        raise SystemExit(f"Xvfb :{number} did not start (is the display taken?)")
    return xvfb, f":{number}"


def run_size(size: str, out: Path, projects: str, wizard: bool, folder: Path, display: str = "") -> int:
    geom, _, scale = size.partition("@")
    w, h = (int(x) for x in geom.split("x"))
    args = [sys.executable, str(Path(__file__).resolve()), "--child", size, "--out", str(out),
            "--projects", projects, "--folder", str(folder)] + ([] if wizard else ["--no-wizard"])
    return run_on_screen(geom, args, env={"QT_SCALE_FACTOR": scale} if scale else None,
                         xvfb=_xvfb_on(display, w, h) if display else None,
                         note=f"{' at scale ' + scale if scale else ''}; load {os.getloadavg()[0]:.2f}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default=SIZES)
    ap.add_argument("--projects", default=PROJECTS)
    ap.add_argument("--out", default=str(HERE / "out" / "sweep"))
    ap.add_argument("--folder", default="", help="where the projects are built (default: a temporary folder)")
    ap.add_argument("--no-wizard", action="store_true")
    ap.add_argument("--display", default="", help="the X display number to start Xvfb on (default: a free one)")
    ap.add_argument("--child", default="")
    args = ap.parse_args()
    folder = Path(args.folder or tempfile.mkdtemp(prefix="hadj-sweep-"))
    folder.mkdir(parents=True, exist_ok=True)
    if args.child:
        from sweep_child import Sweep

        return Sweep(args.child, Path(args.out), folder).run(args.projects.split(","), not args.no_wizard)
    for name in args.projects.split(","):
        build(name, folder)  # once, before the sizes
    rc = 0
    for size in args.sizes.split(","):
        rc |= run_size(size, Path(args.out), args.projects, not args.no_wizard, folder, args.display)
    print(f"pictures in {args.out}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
