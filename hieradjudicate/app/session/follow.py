"""Following a server project live: the others' decisions reach this session within a poll.

A :class:`ServerFollower` holds a second connection that ``LISTEN``s on the project's channel
(the server sends ``NOTIFY`` from a trigger after every committed batch, with the batch's id
range).  :meth:`poll` (the window calls it every 200 ms; it never blocks) reads the rows of the
announced ranges (what this login may see: row-level security applies; ids are taken before
commit, so "every id above the last one seen" would miss a slower transaction) and hands them to
:meth:`DecisionState.apply_external`, so the table, the live figures and the dashboard move
as after a local save.  A blind pair's hidden half appears once the pair is complete: after
one's own decision on a blind instance its history is read again.  When the server cannot be
reached :attr:`offline` is set and the follower reconnects on a later poll (and the store
sends its offline queue).
"""

from __future__ import annotations

import time
from typing import Any

from hieradjudicate.core.errors import ProjectError


class ServerFollower:
    """Live updates of one session's server project (see the module)."""

    RETRY_SECONDS = 2.0

    def __init__(self, session: Any) -> None:
        self.session = session
        self.store = session.store
        self.last_id = self._max_id()
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
                # catch up on what was missed while away: everything above what was seen, and the
                # notifications from now on
                ranges = [(self.last_id + 1, 2**62)]
            else:
                ranges = [_range(n.payload) for n in self._conn.notifies(timeout=0)]
                ranges = [r for r in ranges if r is not None]
            if not ranges and not self._recheck:
                return []
            rows = self.store.rows_in(ranges)
            for key in sorted(self._recheck):
                rows += self.store.history(*key)
            self._recheck.clear()
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
        if rows:
            self.last_id = max(self.last_id, max(r.id for r in rows))
        return self.session.decisions.apply_external(rows)

    def close(self) -> None:
        self._unsubscribe()
        if self._conn is not None:
            try:
                self._conn.close()
            finally:
                self._conn = None


def _range(payload: str) -> tuple[int, int] | None:
    try:
        low, high = (int(x) for x in payload.split())
    except ValueError:
        return None
    return low, high


def _is_offline(exc: BaseException) -> bool:
    from hieradjudicate.io.store.pg.store import ServerUnreachable, _is_connection_error

    if isinstance(exc, ServerUnreachable) or _is_connection_error(exc):
        return True
    return isinstance(exc, ProjectError) and "cannot read from the server" in str(exc)
