"""The offline queue: decisions made while the server cannot be reached, kept on disk.

One JSON line per saved batch (its decisions' column values and a client id each), appended
and ``fsync``-ed before the caller is told the decisions are kept.  Every process of one login on
one project (the window, a CLI command, a second window) shares the file, so two locks
(``flock``, beside the queue) keep them from losing each other's lines:

``<key>.lock``
    held for an instant: while a line is appended, while a sender reads the lines it will send
    and while it removes them once the server committed them (the rest of the file, lines
    appended meanwhile, is written back first: nothing appended is removed unsent);
``<key>.sending``
    held by the one process that sends the queue (never waited for: a process that finds it
    taken appends behind, and the sender sends those lines too before it lets go; see
    :meth:`OfflineQueue.sending`).

The lines are sent with ``ON CONFLICT (client_id) DO NOTHING``: a batch that reached the server
before a connection broke, or that a sender sent before it stopped, is stored once.  A torn last
line (the machine stopped while writing it) was never reported kept and is dropped; the next
append starts a new line after it.

Appending costs the same at the 10,000th batch as at the first: it writes one line and reads at
most one byte; :func:`len` reads only what was appended since it last looked.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def queue_folder() -> Path:
    """``$HIERADJ_QUEUE_DIR``, else ``$XDG_STATE_HOME/hieradjudicate/queue`` (~/.local/state)."""
    env = os.environ.get("HIERADJ_QUEUE_DIR")
    if env:
        return Path(env)
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "hieradjudicate" / "queue"


#: counts of what the queue read from its file (tests check that appending does not grow them)
READS = {"bytes": 0, "lines": 0}


def _parse(raw: bytes) -> dict[str, Any] | None:
    READS["lines"] += 1
    try:
        entry = json.loads(raw)
    except ValueError:
        return None  # a torn line: never reported kept
    return entry if isinstance(entry, dict) else None


def _read_from(fd: int, offset: int) -> bytes:
    size = os.fstat(fd).st_size
    data = os.pread(fd, max(0, size - offset), offset) if size > offset else b""
    READS["bytes"] += len(data)
    return data


@contextmanager
def _flock(path: Path, *, wait: bool = True) -> Iterator[bool]:
    """An exclusive ``flock`` on ``path`` (created); ``wait=False``: yields False when taken."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)  # releases the lock


@dataclass
class Taken:
    """The complete lines a sender read: their entries and where they end in the file."""

    entries: list[dict[str, Any]]
    end: int
    inode: int


class Sending:
    """The sender's side of the queue while it holds ``<key>.sending`` (see :meth:`OfflineQueue.sending`)."""

    def __init__(self, queue: OfflineQueue, fd: int) -> None:
        self.queue = queue
        self._fd: int | None = fd

    def take(self) -> Taken:
        """Every complete line waiting now, oldest first."""
        with self.queue._append_lock():
            fd = self.queue._open_read()
            if fd is None:
                return Taken([], 0, 0)
            try:
                data, inode = _read_from(fd, 0), os.fstat(fd).st_ino
            finally:
                os.close(fd)
        end = data.rfind(b"\n") + 1
        entries = [e for raw in data[:end].split(b"\n") if raw.strip() for e in [_parse(raw)] if e]
        return Taken(entries, end, inode)

    def drop(self, taken: Taken) -> bool:
        """Remove the lines of ``taken`` (the server committed them); lines appended since stay.
        Returns True when the queue is empty: then this sender has let go of ``.sending`` already
        (before the append lock: a process that appends after this finds it free and sends)."""
        q = self.queue
        with q._append_lock():
            fd = q._open_read()
            rest = b""
            if fd is not None:
                try:
                    if os.fstat(fd).st_ino != taken.inode:
                        raise RuntimeError(f"{q.path} was replaced while this process sent it")
                    rest = _read_from(fd, taken.end)
                finally:
                    os.close(fd)
            if b"\n" not in rest:  # nothing appended since (at most a torn line, never reported kept)
                q._unlink()
                self.release()
                return True
            tmp = q.path.with_name(q.path.name + f".{os.getpid()}.tmp")
            out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.write(out, rest)
                os.fsync(out)
            finally:
                os.close(out)
            os.replace(tmp, q.path)
            q._sync_folder()
            return False

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class OfflineQueue:
    """The queue file of one project location and login."""

    def __init__(self, location: str, login: str, folder: Path | None = None) -> None:
        key = hashlib.sha256(f"{location}\n{login}".encode()).hexdigest()[:24]
        self.path = (folder or queue_folder()) / f"{key}.jsonl"
        # what len() has counted: (inode, bytes read, decisions in them)
        self._counted = (0, 0, 0)

    # ------------------------------------------------------------ files and locks
    def _lock_path(self, what: str) -> Path:
        return self.path.with_suffix(f".{what}")

    def _append_lock(self) -> Any:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        return _flock(self._lock_path("lock"))

    def _open_read(self) -> int | None:
        try:
            return os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return None

    def _unlink(self) -> None:
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass

    def _sync_folder(self) -> None:
        fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    # -------------------------------------------------------------------- adding
    def append(self, entry: dict[str, Any]) -> None:
        """Add one batch and sync it to disk (raises OSError when the disk refuses)."""
        line = (json.dumps(entry, sort_keys=True) + "\n").encode("utf-8")
        with self._append_lock():
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                size = os.fstat(fd).st_size
                if size and os.pread(fd, 1, size - 1) != b"\n":
                    line = b"\n" + line  # after a torn line: a line of its own
                os.write(fd, line)
                os.fsync(fd)
            finally:
                os.close(fd)

    def pending(self) -> bool:
        """Whether anything waits (one ``stat``)."""
        try:
            return self.path.stat().st_size > 0
        except FileNotFoundError:
            return False

    # ------------------------------------------------------------------- sending
    @contextmanager
    def sending(self) -> Iterator[Sending | None]:
        """The right to send the queue, or None when another process is sending it (that one
        sends what this process appends meanwhile: it lets go only once the queue is empty, and
        a process that appended after that finds the right free)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self._lock_path("sending"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            yield None
            return
        s = Sending(self, fd)
        try:
            yield s
        finally:
            s.release()

    # ------------------------------------------------------------------- reading
    def entries(self) -> list[dict[str, Any]]:
        """Every complete batch waiting, oldest first."""
        fd = self._open_read()
        if fd is None:
            return []
        try:
            data = _read_from(fd, 0)
        finally:
            os.close(fd)
        return [e for raw in data.split(b"\n") if raw.strip() for e in [_parse(raw)] if e]

    def __len__(self) -> int:
        """Decisions waiting; reads only the lines appended since the last call."""
        fd = self._open_read()
        if fd is None:
            self._counted = (0, 0, 0)
            return 0
        try:
            st = os.fstat(fd)
            inode, done, count = self._counted
            if inode != st.st_ino or st.st_size < done:
                done, count = 0, 0  # the file was rewritten (a sender removed what it sent)
            data = _read_from(fd, done)
        finally:
            os.close(fd)
        end = data.rfind(b"\n") + 1
        for raw in data[:end].split(b"\n"):
            e = _parse(raw) if raw.strip() else None
            if e is not None:
                count += len(e.get("rows") or ())
        self._counted = (st.st_ino, done + end, count)
        return count

    # ------------------------------------------------------------------ refused
    @property
    def rejected_path(self) -> Path:
        return self.path.with_suffix(".rejected.jsonl")

    def set_aside(self, refused: list[tuple[dict[str, Any], str]]) -> None:
        """Keep batches the server refused, with its reason, beside the queue (synced)."""
        fd = os.open(self.rejected_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            for entry, reason in refused:
                os.write(fd, (json.dumps({**entry, "refused": reason}, sort_keys=True) + "\n").encode())
            os.fsync(fd)
        finally:
            os.close(fd)
