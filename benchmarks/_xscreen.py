"""A private X screen for the scripts that drive the real window (``journeys.py``,
``screen_sweep.py``, ``docs/tools/make_screenshots.py``): Xvfb on a free display number and
openbox on it, a child process run there with Qt's xcb platform, then both stopped again (by
their process ids)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Mapping, Sequence

NEEDS = "needs Xvfb and openbox (Debian: apt-get install xvfb openbox)"


def missing_tools() -> list[str]:
    """The programs of :data:`NEEDS` that are not installed."""
    return [tool for tool in ("Xvfb", "openbox") if shutil.which(tool) is None]


def start_xvfb(w: int, h: int) -> tuple[subprocess.Popen, str]:
    """Xvfb with one ``w``×``h`` screen on a free display number, and that display (``":N"``)."""
    r, wfd = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(wfd), "-screen", "0", f"{w}x{h}x24", "-nolisten", "tcp"],
                            pass_fds=(wfd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(wfd)
    with os.fdopen(r) as fh:
        number = fh.readline().strip()
    if not number:
        xvfb.terminate()
        raise SystemExit(f"Xvfb did not start ({NEEDS})")
    return xvfb, f":{number}"


def stop(proc: subprocess.Popen | None) -> None:
    """Stop a process this script started (terminate, then kill after 10 s)."""
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def run_on_screen(size: str, args: Sequence[str], *, env: Mapping[str, str] | None = None,
                  xvfb: tuple[subprocess.Popen, str] | None = None, note: str = "") -> int:
    """Run ``args`` on a fresh ``WxH`` screen with openbox (``xvfb``: one already started, stopped
    here too) and return its exit code; ``env`` is added to the child's environment."""
    w, h = (int(x) for x in size.split("x"))
    proc, display = xvfb or start_xvfb(w, h)
    wm = None
    try:
        child_env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", **(env or {}))
        wm = subprocess.Popen(["openbox"], env=child_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)  # the window manager takes the screen before the first window maps
        print(f"== {size} on display {display} (Xvfb pid {proc.pid}, openbox pid {wm.pid}){note}", flush=True)
        return subprocess.run(list(args), env=child_env, check=False).returncode
    finally:
        stop(wm)
        stop(proc)
