"""Following a server project live: the others' decisions reach this session within a poll.

A :class:`ServerFollower` holds a second connection that ``LISTEN``s on the project's channel
(the server sends ``NOTIFY`` from a trigger after every committed batch, with the batch's id
range).  :meth:`poll` (the window calls it every 200 ms; it never blocks) treats a notification
as a hint only: any login of the database can send one with any payload.  A notification that
names no id this session has not read costs no query; otherwise the follower reads the ids it has
not read (:class:`~hieradjudicate.app.session.horizon.Horizon`: above the highest read, and the
gaps below it a slower transaction may still fill), at most :attr:`ServerFollower.CHUNK` rows a
poll, and hands them to :meth:`DecisionState.apply_external`, so the table, the live figures and
the dashboard move as after a local save.  A blind pair's hidden half appears once the pair is
complete: after one's own decision on a blind instance its history is read again.  When the
server cannot be reached :attr:`offline` is set and the follower reconnects on a later poll (and
the store sends its offline queue).
"""

from __future__ import annotations

import time
from typing import Any

from hieradjudicate.app.session.horizon import Horizon
from hieradjudicate.core.errors import ProjectError


class ServerFollower:
    """Live updates of one session's server project (see the module)."""

    RETRY_SECONDS = 2.0
    #: at most this many rows read in one poll (a catch-up goes on over the next polls)
    CHUNK = 2000
    #: ids below the highest at opening that are still looked at (a slower transaction's)
    OPEN_LAG = 200

    def __init__(self, session: Any) -> None:
        self.session = session
        self.store = session.store
        top = self._max_id()
        # what was read at opening (the session loaded every row); the last few ids may still fill
        recent = [int(r[0]) for r in self.store._read("SELECT id FROM decisions WHERE id > %s",
                                                       (top - self.OPEN_LAG,))]
        self.horizon = Horizon(top, recent, safe=max(0, top - self.OPEN_LAG))
        self.horizon.read((), *self.store.snapshot_bounds())
        self._more = False
        #: notifications received (tests wait for theirs to arrive)
        self.hints = 0
        self.offline = False
        self._conn: Any = None
        self._next_try = 0.0
        self._recheck: set[tuple[str, str]] = set()
        self._blind = self._blind_keys()
        self._unsubscribe = session.decisions.subscribe(self._own_rows)
        self._listen()

    def _max_id(self) -> int:
        rows = self.store._read("SELECT COALESCE(max(id), 0) FROM decisions")
        return int(rows[0][0])

    def _blind_keys(self) -> set[tuple[str, str]]:
        rows = self.store._read("SELECT lexelt, instance FROM assignments WHERE blind"
                                " AND adjudicator = current_user")
        return {(r[0], r[1]) for r in rows}

    def _listen(self) -> None:
        from psycopg import sql

        from hieradjudicate.io.store.pg.store import connect

        self._conn = connect(self.store.location, timeout=3)
        self._conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.store.location.schema)))

    def _own_rows(self, rows: list[Any]) -> None:
        self._recheck.update(r.key for r in rows if r.key in self._blind and r.id > 0)

    def poll(self) -> list[Any]:
        """Apply what others committed since the last poll; returns the rows applied."""
        try:
            if self._conn is None or self._conn.closed or self._conn.broken:
                if time.monotonic() < self._next_try:
                    return []
                self._next_try = time.monotonic() + self.RETRY_SECONDS
                self._listen()
                self.store.flush_queue()
                self.offline = self.store.offline
                self._more = True  # catch up on what was missed while away
            else:
                for n in self._conn.notifies(timeout=0):
                    self.hints += 1
                    hint = _range(n.payload)
                    if hint is not None and self.horizon.names_something_new(*hint):
                        self._more = True
            if not (self._more or self.horizon.settling or self._recheck):
                return []
            rows = []
            if self._more or self.horizon.settling:
                rows = self.store.rows_in(self.horizon.ranges(), self.CHUNK)
                if rows or self.horizon.settling:  # (nothing new: one indexed query, no more)
                    self.horizon.read((r.id for r in rows), *self.store.snapshot_bounds())
                self._more = len(rows) == self.CHUNK
            for key in sorted(self._recheck):
                rows += self.store.history(*key)
            self._recheck.clear()
            # what the project now holds for these instances: a conflict where adjudicators differ,
            # not simply the newest row
            current = self.store.current_of({r.key for r in rows})
        except (ProjectError, Exception) as exc:  # noqa: BLE001 - the server went away
            if not _is_offline(exc):
                raise
            self.offline = True
            if self._conn is not None:
                try:
                    self._conn.close()
                except Exception:  # noqa: BLE001
                    pass
            return []
        self.offline = self.store.offline
        return self.session.decisions.apply_external(rows, current=current)

    def close(self) -> None:
        self._unsubscribe()
        if self._conn is not None:
            try:
                self._conn.close()
            finally:
                self._conn = None


def _range(payload: str) -> tuple[int, int] | None:
    """A notification's ``low high``; None for anything else (a forged payload is ignored)."""
    parts = payload.split()
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 19 for p in parts):
        return None
    low, high = int(parts[0]), int(parts[1])
    return (low, high) if low <= high else None


def _is_offline(exc: BaseException) -> bool:
    from hieradjudicate.io.store.pg.store import ServerUnreachable, _is_connection_error

    if isinstance(exc, ServerUnreachable) or _is_connection_error(exc):
        return True
    return isinstance(exc, ProjectError) and "cannot read from the server" in str(exc)
