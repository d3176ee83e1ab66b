"""Write a file whole or not at all, never through a link planted at a temporary name.

Where the file system allows it (Linux ``O_TMPFILE``) the data are written
into a file without a name, which is given a fresh name (``link`` fails on
an existing name, link or not) only once it is complete and synced, and at
once renamed onto the target: a writer killed while writing leaves nothing.
Elsewhere the temporary file is created exclusively (``mkstemp``: ``O_CREAT |
O_EXCL``, an unpredictable name).  A symbolic link at the target's name is
replaced by the file, never followed.

A writer killed between naming its temporary file and renaming it leaves a
``.NAME.PID-XXXX.tmp``.  It is removed once its process is gone: by the next
write of the same file (:func:`sweep_temporaries`), and by the next start of
the program, whatever the command (:func:`sweep_pending`): before it names a
temporary file, each writer records the folder and name in a small file of
its own under ``$XDG_STATE_HOME/hieradjudicate/writing`` (``PID-TOKEN``),
removed once the write is over; a record whose process is gone is swept.

``HIERADJ_TEST_KILL_AT`` (tests only) names a moment at which the writer kills
itself with SIGKILL: ``recorded``, ``temporary``, ``written`` or ``renamed``.
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

# secrets, signal and tempfile are imported where used: every command's start sweeps (sweep_pending)
# and most never write a file

_TMP = re.compile(r"^\..+\.(\d+)-[^.]+\.tmp$")


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> Path:
    """Write ``data`` (str as UTF-8, line ends kept) to ``path`` atomically; raises ``OSError``."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    sweep_temporaries(folder, target.name)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    record = _record(folder, target.name)
    try:
        _kill_at("recorded")
        fd = _unnamed(folder)
        tmp = None
        if fd is not None:
            try:
                _write_all(fd, payload)
                tmp = _link_fresh(fd, folder, target.name)
            finally:
                os.close(fd)
            if tmp is not None:
                _kill_at("temporary")
                _kill_at("written")
        if tmp is None:
            import tempfile

            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}-", suffix=".tmp",
                                       dir=folder)
            try:
                _kill_at("temporary")
                _write_all(fd, payload)
                mask = os.umask(0)
                os.umask(mask)
                os.fchmod(fd, 0o666 & ~mask)
                _kill_at("written")
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            finally:
                os.close(fd)
        try:
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _kill_at("renamed")
    finally:
        if record is not None:
            record.unlink(missing_ok=True)
    return target


def _kill_at(moment: str) -> None:
    """Tests only: die by SIGKILL at ``moment`` when ``HIERADJ_TEST_KILL_AT`` names it."""
    if os.environ.get("HIERADJ_TEST_KILL_AT") == moment:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


def pending_dir() -> Path:
    """Where writers record the temporary files they are about to name (one file per write)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "hieradjudicate" / "writing"


def _record(folder: Path, name: str) -> Path | None:
    """Record (folder, name) for :func:`sweep_pending`; ``None`` where the state folder is unusable."""
    try:
        where = pending_dir()
        where.mkdir(parents=True, exist_ok=True)
        from secrets import token_hex

        path = where / f"{os.getpid()}-{token_hex(6)}"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError:
        return None  # the next write of the same file still sweeps it
    try:
        os.write(fd, os.fsencode(os.path.abspath(folder)) + b"\0" + os.fsencode(name))
    except OSError:
        os.close(fd)
        path.unlink(missing_ok=True)
        return None
    os.close(fd)
    return path


def sweep_pending() -> int:
    """At start: remove the temporaries of writers that were killed, wherever they wrote.

    Reads the records of :func:`_record` whose process is gone, sweeps their
    folder for that name and removes the record.  Returns the records handled;
    never raises (a start must not fail for this).
    """
    where = pending_dir()
    try:
        names = os.listdir(where)
    except OSError:
        return 0
    if not names:
        return 0
    from hieradjudicate.io.store.sidecars import pid_alive

    done = 0
    for n in names:
        pid = n.split("-", 1)[0]
        if not pid.isdigit() or pid_alive(int(pid)):
            continue
        record = where / n
        try:
            if record.is_symlink() or not record.is_file() or record.stat().st_size > 65536:
                continue
            folder, _, name = record.read_bytes().partition(b"\0")
            if name and b"/" not in name:
                sweep_temporaries(Path(os.fsdecode(folder)), os.fsdecode(name))
            record.unlink()
            done += 1
        except OSError:
            continue
    return done


_NO_UNNAMED: set[int] = set()  # devices where an unnamed file cannot be given a name


def _unnamed(folder: Path) -> int | None:
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        if os.stat(folder).st_dev in _NO_UNNAMED:
            return None
    except OSError:
        pass
    try:
        return os.open(folder, flag | os.O_WRONLY | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        if isinstance(exc, (PermissionError, FileNotFoundError, NotADirectoryError)) \
                or exc.errno == errno.ENOSPC:
            raise
        return None  # the file system has no unnamed files: use a named temporary


def _write_all(fd: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        n = os.write(fd, view)
        view = view[n:]
    os.fsync(fd)


def _link_fresh(fd: int, folder: Path, name: str) -> str | None:
    """A fresh name for the unnamed file; ``None`` where the file system cannot (overlay: EXDEV)."""
    for _ in range(100):
        from secrets import token_hex

        tmp = str(folder / f".{name}.{os.getpid()}-{token_hex(4)}.tmp")
        try:
            os.link(f"/proc/self/fd/{fd}", tmp, follow_symlinks=True)
            return tmp
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno in (errno.EXDEV, errno.EPERM, errno.EOPNOTSUPP, errno.ENOENT, errno.EACCES):
                _NO_UNNAMED.add(os.fstat(fd).st_dev)
                return None
            raise
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))


def sweep_temporaries(folder: Path, name: str) -> None:
    """Remove ``.NAME.PID-XXXX.tmp`` files of writers that were killed (their pid is gone)."""
    from hieradjudicate.io.store.sidecars import pid_alive

    prefix = f".{name}."
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix)]
    except OSError:
        return
    for n in names:
        m = _TMP.match(n)
        if m and n[len(prefix):].split("-", 1)[0].isdigit() and not pid_alive(int(m.group(1))):
            p = folder / n
            try:
                if p.is_file() and not p.is_symlink():
                    p.unlink()
            except OSError:
                pass
