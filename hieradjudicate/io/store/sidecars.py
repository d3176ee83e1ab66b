"""Files beside a project: SQLite's own sidecars and our temporary builds.

A project is built under a temporary name beside its target and renamed into
place.  A process killed meanwhile leaves that file (and its SQLite sidecars)
behind; :func:`sweep_stale_builds` removes such leftovers once their owner is
gone, so they never pile up (a killed ``project new`` on MASC left 654 MB).

A ``-wal``/``-shm``/``-journal`` file beside a path belongs to the database
that was there.  Renaming a new database onto that path would let SQLite
apply the old log to the new file (a damaged project); :func:`remove_sidecars`
clears them first, under the target's writer lock.
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

#: SQLite's files beside a database (write-ahead log, its index, rollback journal)
SIDECARS = ("-wal", "-shm", "-journal")

# ".NAME.new-PID" (Session.create) and ".NAME.creating-PID" (Store.create), possibly nested
# (the store builds ".{.NAME.new-PID}.creating-PID"), each with SQLite's sidecars.
_BUILD = re.compile(r"^\..+\.(?:new|creating)-(\d+)(?:-wal|-shm|-journal)?$")


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists on this machine (EPERM: it does, not ours)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except OSError as exc:
        return exc.errno == errno.EPERM
    return True


def sweep_stale_builds(folder: Path) -> list[Path]:
    """Remove temporary project builds in ``folder`` whose creating process is gone.

    Every pid in a (possibly nested) temporary name must be dead: a build whose
    owner still runs is left alone.  Returns the removed paths; a file that
    cannot be removed (permissions) is left and not reported as removed.
    """
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        if not _BUILD.match(name):
            continue
        pids = [int(p) for p in re.findall(r"\.(?:new|creating)-(\d+)", name)]
        if any(pid_alive(p) for p in pids):
            continue
        path = folder / name
        try:
            if path.is_file() and not path.is_symlink():
                path.unlink()
                removed.append(path)
        except OSError:
            pass
    return removed


def remove_sidecars(path: Path) -> None:
    """Remove SQLite's sidecar files of ``path`` (call only while no one has it open)."""
    for suffix in SIDECARS:
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def remove_build(tmp: Path) -> None:
    """Remove a temporary build and its sidecars."""
    tmp.unlink(missing_ok=True)
    remove_sidecars(tmp)
