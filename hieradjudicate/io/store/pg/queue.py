"""The offline queue: decisions made while the server cannot be reached, kept on disk.

One JSON line per saved batch (its decisions' column values and a client id each), appended
and ``fsync``-ed before the caller is told the decisions are kept.  When the server is back the
lines are sent in one transaction with ``ON CONFLICT (client_id) DO NOTHING``, so a batch that
did reach the server before the connection broke is not stored twice, and the file is emptied
only after that commit.  A torn last line (the machine stopped while writing it) was never
reported kept and is dropped.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any


def queue_folder() -> Path:
    """``$HIERADJ_QUEUE_DIR``, else ``$XDG_STATE_HOME/hieradjudicate/queue`` (~/.local/state)."""
    env = os.environ.get("HIERADJ_QUEUE_DIR")
    if env:
        return Path(env)
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "hieradjudicate" / "queue"


class OfflineQueue:
    """The queue file of one project location and login."""

    def __init__(self, location: str, login: str, folder: Path | None = None) -> None:
        key = hashlib.sha256(f"{location}\n{login}".encode()).hexdigest()[:24]
        self.path = (folder or queue_folder()) / f"{key}.jsonl"

    def append(self, entry: dict[str, Any]) -> None:
        """Add one batch and sync it to disk (raises OSError when the disk refuses)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = (json.dumps(entry, sort_keys=True) + "\n").encode("utf-8")
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)

    def entries(self) -> list[dict[str, Any]]:
        """Every complete batch waiting, oldest first."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return []
        out = []
        for raw in data.split(b"\n"):
            if not raw.strip():
                continue
            try:
                out.append(json.loads(raw))
            except ValueError:
                continue  # a torn last line: never reported kept
        return out

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

    def __len__(self) -> int:
        return sum(len(e["rows"]) for e in self.entries())

    def clear(self) -> None:
        """Forget the queue (after the server committed every batch of it)."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
