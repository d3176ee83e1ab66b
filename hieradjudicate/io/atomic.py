"""Write a file whole or not at all, never through a link planted at a temporary name.

Where the file system allows it (Linux ``O_TMPFILE``) the data are written
into a file without a name, which is given a fresh name (``link`` fails on
an existing name, link or not) only once it is complete and synced, and at
once renamed onto the target: a writer killed while writing leaves nothing.
Elsewhere the temporary file is created exclusively (``mkstemp``: ``O_CREAT |
O_EXCL``, an unpredictable name).  A symbolic link at the target's name is
replaced by the file, never followed; a ``.NAME.PID-XXXX.tmp`` left by a
killed writer is removed by :func:`sweep_temporaries` once its process is gone.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import tempfile
from pathlib import Path

_TMP = re.compile(r"^\..+\.(\d+)-[^.]+\.tmp$")


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> Path:
    """Write ``data`` (str as UTF-8, line ends kept) to ``path`` atomically; raises ``OSError``."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    sweep_temporaries(folder, target.name)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd = _unnamed(folder)
    tmp = None
    if fd is not None:
        try:
            _write_all(fd, payload)
            tmp = _link_fresh(fd, folder, target.name)
        finally:
            os.close(fd)
    if tmp is None:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}-", suffix=".tmp", dir=folder)
        try:
            _write_all(fd, payload)
            mask = os.umask(0)
            os.umask(mask)
            os.fchmod(fd, 0o666 & ~mask)
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
    return target


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
        tmp = str(folder / f".{name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
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
