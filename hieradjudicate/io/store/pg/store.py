"""A project on a PostgreSQL server, with the ``.hadj`` store's methods (:class:`PgStore`).

The session, the CLI and the window use it exactly like
:class:`~hieradjudicate.io.store.project_store.Store`: decisions are append-only rows, the current
decision of an instance is its latest row, a batch is one transaction and a call that writes
returns only after the server committed (``synchronous_commit`` as the server has it: on, by
default, so a committed decision is on the server's disk).  Differences:

* who decides is the database login (``current_user``), stamped by the server;
* what the login may do is the role it holds in the project (see :mod:`.ddl`); a viewer gets
  the project read-only with the reason, an adjudicator writes decisions only;
* every decision carries a client id; when the connection breaks, the batch goes to the
  offline queue on disk (:mod:`.queue`) and is sent once when the server is back.  Rows kept
  only in the queue have negative ids until then; :attr:`PgStore.offline` says so.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Self

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.pg import ddl
from hieradjudicate.io.store.pg.blobs import StoredBlobs
from hieradjudicate.io.store.pg.connection import (  # re-exported: the other modules import them from here
    ServerUnreachable,
    _first_line,
    _is_connection_error,
    _psycopg,
    connect,
    waiting_note,
)
from hieradjudicate.io.store.pg.current import apply_conflicts, conflicts_sql, key_params
from hieradjudicate.io.store.pg.location import ServerLocation, parse_location
from hieradjudicate.io.store.pg.queue import OfflineQueue
from hieradjudicate.io.store.records import (
    BatchRow,
    DecisionFields,
    DecisionRow,
    check_decision,
    row_from_db,
    utc_now,
)

COLUMNS = "id, lexelt, instance, tags, source, status, note, decided_by, decided_at, batch, basis"
#: rows the program can use (a row written before the server's checks, or by an administrator,
#: may not be one: it is left out of everything and named in :attr:`PgStore.left_out`)
SOUND = ddl.sound_sql()


def _rows(raw: Sequence[Sequence[Any]]) -> list[DecisionRow]:
    """Decision rows of :data:`COLUMNS` (already :data:`SOUND`); a basis that is not JSON is dropped."""
    out = []
    for r in raw:
        try:
            out.append(row_from_db(r))
        except ValueError:
            out.append(row_from_db((*r[:10], None)))
    return out
#: one statement per batch (one notification, one round trip), whatever its size
_INSERT = ("INSERT INTO decisions (lexelt, instance, tags, source, status, note, decided_at, basis,"
           " client_id, batch, team_role)"
           " SELECT *, %s::bigint, %s::text FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[],"
           " %s::text[], %s::text[], %s::text[], %s::text[], %s::uuid[])"
           " ON CONFLICT (client_id) DO NOTHING RETURNING id, client_id, decided_by")


class PgStore(StoredBlobs):
    """An open server project.  Use :meth:`open`; close it (or use ``with``)."""

    bad_ids: tuple[int, ...] = ()
    #: while offline, how often a reconnection is tried
    retry_seconds = 5.0
    schema_version = 3  # the file layout it mirrors (decisions with basis), for callers that ask

    def __init__(self, loc: ServerLocation, conn: Any, roles: set[str], login: str,
                 read_only_reason: str | None) -> None:
        self.location = loc
        self.path = loc  # what messages and the window title show (str(path), path.name)
        self._conn: Any = conn
        self.roles = roles
        self.login = login
        self.read_only_reason = read_only_reason
        self.queue = OfflineQueue(loc.queue_key, login)
        self._provisional = 0
        self._failed_at: float | None = None
        self.offline = False
        #: rows left out for being unusable (``#id (lexelt instance): why``; see :meth:`damaged_rows`)
        self.left_out: tuple[str, ...] = ()
        #: a sentence when queued decisions were refused on sending (kept aside, see flush_queue)
        self.rejected: str | None = None
        #: whether this login may refresh the corpus cache (the lead's)
        self.may_cache = "lead" in roles and read_only_reason is None

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, location: str | ServerLocation, *, read_only: bool = False,
             check: bool = True) -> PgStore:
        loc = location if isinstance(location, ServerLocation) else parse_location(str(location))
        try:
            conn = connect(loc)
        except ServerUnreachable as exc:
            if exc.reached:
                raise
            raise ServerUnreachable(str(exc) + waiting_note(loc)) from None
        try:
            roles, login = cls._login_roles(conn, loc)
            if not roles:
                raise ProjectError(f"{loc}: the login {login} has no role in project {loc.project} "
                                   "(ask the lead: hieradjudicate project team URL --adjudicators "
                                   f"{login})")
            reason = None
            if read_only:
                reason = f"{loc}: opened read-only"
            elif roles == {"viewer"}:
                reason = f"{loc}: {login} is a viewer of this project; opened read-only"
            store = cls(loc, conn, roles, login, reason)
            store.left_out = store.damaged_rows()
            if reason is None:
                store.flush_queue()
            return store
        except BaseException:
            conn.close()
            raise

    @staticmethod
    def _login_roles(conn: Any, loc: ServerLocation) -> tuple[set[str], str]:
        psycopg = _psycopg()
        try:
            row = conn.execute(
                "SELECT current_user, n.nspname IS NOT NULL, r.rolsuper FROM pg_roles r"
                " LEFT JOIN pg_namespace n ON n.nspname = %s WHERE r.rolname = current_user",
                (loc.schema,)).fetchone()
            login, exists, superuser = row
            if not exists:
                raise ProjectError(f"{loc}: there is no project {loc.project!r} in the database "
                                   f"{loc.dbname} (publish one: hieradjudicate project publish "
                                   "P.hadj URL)")
            roles = {kind for kind in ddl.ROLES
                     if superuser or conn.execute("SELECT pg_has_role(current_user, %s, 'MEMBER')",
                                                  (loc.role(kind),)).fetchone()[0]}
            if not roles:
                return set(), str(login)
            conn.execute("SELECT set_config('search_path', %s, false)", (loc.schema,))
            if conn.execute("SELECT to_regproc(%s)", (f'"{loc.schema}".check_decision',)).fetchone()[0] is None:
                raise ProjectError(f"{loc}: the project was not published completely (or by an older "
                                   "version of the program); publish it again")
            version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        except psycopg.errors.InsufficientPrivilege:
            return set(), str(conn.info.user)
        except psycopg.Error as exc:
            raise ProjectError(f"{loc}: cannot read the project ({_first_line(exc)})") from None
        if version is None or version[0] != ddl.PG_SCHEMA_VERSION:
            raise ProjectError(f"{loc}: the project's layout {version and version[0]!r} is not one this "
                               f"program reads ({ddl.PG_SCHEMA_VERSION}); update hieradjudicate")
        return roles, str(login)

    # ---------------------------------------------------------------- lifetime
    @property
    def read_only(self) -> bool:
        return self.read_only_reason is not None

    @property
    def conn(self) -> Any:
        if self._conn is None:
            raise ProjectError(f"{self.location}: the project is closed")
        if self._conn.closed or self._conn.broken:
            self._reconnect()
        return self._conn

    def _reconnect(self) -> None:
        """A new connection; while offline, tried at most every :attr:`retry_seconds` (a decision
        goes to the queue at once instead of waiting for a connection timeout each time)."""
        try:
            self._conn.close()
        except Exception:  # noqa: BLE001 - a broken connection may fail to close; it is dropped
            pass
        now = time.monotonic()
        if self._failed_at is not None and now < self._failed_at + self.retry_seconds:
            raise ServerUnreachable(f"{self.location}: the server cannot be reached (offline)")
        try:
            conn = connect(self.location, timeout=3)
        except ServerUnreachable:
            self._failed_at = time.monotonic()
            raise
        self._failed_at = None
        conn.execute("SELECT set_config('search_path', %s, false)", (self.location.schema,))
        self._conn = conn
        self.offline = False

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            finally:
                self._conn = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _error(self, what: str, exc: BaseException) -> ProjectError:
        psycopg = _psycopg()
        if isinstance(exc, psycopg.errors.InsufficientPrivilege):
            return ProjectError(f"{self.location}: {self.login} may not {what} ({_first_line(exc)}); "
                                "nothing of this change was saved")
        return ProjectError(f"{self.location}: could not {what} ({_first_line(exc)}); nothing of this "
                            "change was saved")

    @contextmanager
    def _write(self, what: str) -> Iterator[Any]:
        if self.read_only_reason is not None:
            raise ProjectError(f"cannot {what}: {self.read_only_reason}")
        psycopg = _psycopg()
        try:
            conn = self.conn
            with conn.transaction(), conn.cursor() as cur:
                yield cur
        except psycopg.Error as exc:
            raise self._error(what, exc) from None

    def transaction(self, what: str) -> Any:
        return self._write(what)

    def _read(self, sql: str, params: Sequence[Any] = (), *, binary: bool = False) -> list[tuple[Any, ...]]:
        """Rows of a query (``binary``: blobs come as bytes, not as hex text twice their size)."""
        psycopg = _psycopg()
        try:
            return self.conn.execute(sql, params, binary=binary).fetchall()
        except psycopg.Error as exc:
            if _is_connection_error(exc):
                self.offline = True
            raise ProjectError(f"{self.location}: cannot read from the server ({_first_line(exc)})") \
                from None

    def integrity_check(self) -> list[str]:
        return ["ok"]  # the server keeps its own pages; checks and constraints are in the schema

    # ------------------------------------------------------- meta and settings
    def meta(self) -> dict[str, str]:
        return dict(self._read("SELECT key, value FROM meta"))

    def get_setting(self, key: str, default: Any = None) -> Any:
        rows = self._read("SELECT value FROM settings WHERE key = %s", (key,))
        return default if not rows else json.loads(rows[0][0])

    def set_setting(self, key: str, value: Any) -> None:
        with self._write(f"save the setting {key!r}") as cur:
            cur.execute("INSERT INTO settings (key, value) VALUES (%s, %s) ON CONFLICT (key)"
                        " DO UPDATE SET value = excluded.value", (key, json.dumps(value)))

    def settings(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self._read("SELECT key, value FROM settings")}

    def user(self) -> str:
        """Who decides: the database login (the server stamps it on every row)."""
        return self.login

    # -------------------------------------------------------------- decisions
    @property
    def team_role(self) -> str:
        return "lead" if "lead" in self.roles else "adjudicator"

    def append_decisions(self, decisions: Sequence[DecisionFields], *,
                         batch_label: str | None = None, batch_kind: str = "do",
                         created_by: str | None = None) -> list[DecisionRow]:
        """Append decisions in one server transaction; offline, keep them in the queue on disk."""
        rows = [check_decision(d) for d in decisions]
        if not rows:
            return []
        if self.read_only_reason is not None:
            raise ProjectError(f"cannot save {len(rows)} decision(s): {self.read_only_reason}")
        entry = {"batch": None if batch_label is None else
                 {"label": batch_label, "kind": batch_kind, "client_id": str(uuid.uuid4())},
                 "role": self.team_role,
                 "rows": [[*values, str(uuid.uuid4())] for values in rows]}
        if self.queue.pending():
            self.flush_queue()
            if self.queue.pending():  # unreachable, or another process of this login sends the
                return self._keep_offline(entry, behind=not self.offline)  # queue: keep the order
        try:
            return self._send(entry)
        except ServerUnreachable:
            return self._keep_offline(entry)
        except ProjectError:
            raise
        except Exception as exc:  # noqa: BLE001 - sorted below: connection lost or refused
            if not _is_connection_error(exc):
                raise self._error(f"save {len(rows)} decision(s)", exc) from None
            return self._keep_offline(entry)

    def _send(self, entry: dict[str, Any]) -> list[DecisionRow]:
        """One batch in one transaction; a row already on the server (same client id) is kept once."""
        conn = self.conn
        out: list[DecisionRow] = []
        with conn.transaction(), conn.cursor() as cur:
            batch_id = None
            if entry["batch"] is not None:
                b = entry["batch"]
                cur.execute("INSERT INTO batches (label, kind, created_at, client_id)"
                            " VALUES (%s, %s, %s, %s) ON CONFLICT (client_id) DO NOTHING RETURNING id",
                            (b["label"], b["kind"], utc_now(), b["client_id"]))
                got = cur.fetchone()
                if got is None:
                    got = cur.execute("SELECT id FROM batches WHERE client_id = %s",
                                      (b["client_id"],)).fetchone()
                batch_id = got[0]
            rows = entry["rows"]
            columns = [[v[c] for v in rows] for c in (0, 1, 2, 3, 4, 5, 7, 8, 9)]
            cur.execute(_INSERT, (batch_id, entry["role"], *columns))
            returned = {str(cid): (rid, who) for rid, cid, who in cur.fetchall()}
            for v in entry["rows"]:
                rid, who = returned.get(v[9], (None, self.login))
                if rid is None:  # sent before the connection broke: it is on the server already
                    rid = cur.execute("SELECT id FROM decisions WHERE client_id = %s", (v[9],)).fetchone()[0]
                out.append(row_from_db((rid, v[0], v[1], v[2], v[3], v[4], v[5], who, v[7],
                                        batch_id, v[8])))
        return out

    def _keep_offline(self, entry: dict[str, Any], *, behind: bool = False) -> list[DecisionRow]:
        """Queue a batch (``behind``: the server is reached but another process of this login is
        sending the queue; it sends this batch too unless it has just let go, then this one does)."""
        try:
            self.queue.append(entry)
        except OSError as exc:
            raise ProjectError(f"{self.location}: the server cannot be reached and the offline queue "
                               f"{self.queue.path} cannot be written ({exc.strerror}); nothing of this "
                               "change was saved") from None
        if behind:
            self.flush_queue()
        else:
            self.offline = True
        out = []
        for v in entry["rows"]:
            self._provisional -= 1
            out.append(row_from_db((self._provisional, v[0], v[1], v[2], v[3], v[4], v[5],
                                    self.login, v[7], None, v[8])))
        return out

    def flush_queue(self) -> int:
        """Send the queued batches (each once); returns how many decisions were sent.
        Unreachable: sets :attr:`offline` and returns 0 (the queue stays).  Another process of
        this login sending the queue: returns 0 at once (that one sends it all, see :mod:`.queue`).

        A batch the server refuses (e.g. the instance was assigned to someone else meanwhile) is
        not lost and does not block the others: it moves to the queue's ``.rejected.jsonl`` file
        and :attr:`rejected` says so (the window shows it)."""
        if not self.queue.pending():
            return 0
        sent = 0
        with self.queue.sending() as sender:
            if sender is None:
                return 0
            while True:
                try:
                    self.conn  # noqa: B018 - offline: fails at once, before the queue is read
                except ServerUnreachable:
                    self.offline = True
                    return sent
                taken = sender.take()
                n = self._send_taken(taken.entries) if taken.entries else 0
                if n is None:
                    return sent
                sent += n
                if sender.drop(taken):
                    break
        self.offline = False
        return sent

    def _send_taken(self, entries: list[dict[str, Any]]) -> int | None:
        """Send queued batches in one transaction; None when the server cannot be reached."""
        psycopg = _psycopg()
        refused: list[tuple[dict[str, Any], str]] = []
        try:
            conn = self.conn
            sent = 0
            with conn.transaction():
                for entry in entries:
                    try:
                        sent += len(self._send(entry))  # its own savepoint
                    except (psycopg.errors.InsufficientPrivilege, psycopg.errors.IntegrityError,
                            psycopg.errors.DataError) as exc:
                        refused.append((entry, _first_line(exc)))
        except ServerUnreachable:
            self.offline = True
            return None
        except Exception as exc:  # noqa: BLE001
            if _is_connection_error(exc):
                self.offline = True
                return None
            raise self._error("send the offline queue", exc) from None
        if refused:
            self.queue.set_aside(refused)
            n = sum(len(e["rows"]) for e, _ in refused)
            self.rejected = (f"{n} decision(s) made offline were refused by the server ({refused[0][1]}); "
                             f"they are kept in {self.queue.rejected_path}")
        return sent

    def _latest_sql(self) -> str:
        return (f"SELECT {COLUMNS} FROM (SELECT DISTINCT ON (lexelt, instance) {COLUMNS} FROM decisions"
                f" WHERE {SOUND} ORDER BY lexelt, instance, id DESC) latest")

    def latest_decisions(self, *, include_withdrawn: bool = True) -> list[DecisionRow]:
        """The current row per instance; an instance whose adjudicators differ gets a row of
        status ``conflict`` instead of whichever of their rows is newest (:mod:`.current`)."""
        sql = self._latest_sql() + ("" if include_withdrawn else " WHERE status <> 'unresolved'")
        rows = _rows(self._read(sql + " ORDER BY id"))
        return apply_conflicts(rows, self._read(conflicts_sql()))

    def current_of(self, keys: Collection[tuple[str, str]]) -> dict[tuple[str, str], DecisionRow]:
        """:meth:`latest_decisions` (withdrawals included) of some instances only."""
        if not keys:
            return {}
        lex, inst = key_params(keys)
        rows = _rows(self._read(
            self._latest_sql() + " WHERE (lexelt, instance) IN (SELECT * FROM unnest(%s::text[],"
            " %s::text[]))", (lex, inst)))
        return {r.key: r for r in apply_conflicts(rows, self._read(conflicts_sql(True),
                                                                   (lex, inst, lex, inst, lex, inst)))}

    def history(self, lexelt: str, instance: str) -> list[DecisionRow]:
        return _rows(self._read(
            f"SELECT {COLUMNS} FROM decisions WHERE lexelt = %s AND instance = %s AND {SOUND} ORDER BY id",
            (lexelt, instance)))

    def iter_history(self) -> Iterator[DecisionRow]:
        yield from _rows(self._read(f"SELECT {COLUMNS} FROM decisions WHERE {SOUND} ORDER BY id"))

    def rows_in(self, ranges: Sequence[tuple[int, int]], limit: int | None = None) -> list[DecisionRow]:
        """Rows this login may see with ids in the ``(low, high)`` ranges, the first ``limit`` by id
        (a follower asks for the ranges it has not read: :mod:`hieradjudicate.app.session.horizon`)."""
        if not ranges:
            return []
        ranges = [(int(a), int(b)) for a, b in ranges]
        # an index range scan from the lowest id asked for, never a scan of the whole history
        within = " OR ".join(["id BETWEEN %s AND %s"] * len(ranges))
        return _rows(self._read(
            f"SELECT {COLUMNS} FROM decisions WHERE {SOUND} AND id >= %s AND ({within}) ORDER BY id LIMIT %s",
            (min(a for a, _ in ranges), *(v for r in ranges for v in r), limit)))

    def snapshot_bounds(self) -> tuple[int, int]:
        """The server's ``xmin`` (oldest transaction still running) and ``xmax`` (next to start)."""
        row = self._read("SELECT pg_snapshot_xmin(s)::text::bigint, pg_snapshot_xmax(s)::text::bigint"
                         " FROM pg_current_snapshot() s")[0]
        return int(row[0]), int(row[1])

    def add_senses(self, pairs: Sequence[tuple[str, str]]) -> None:
        """Make (lexelt, tag) pairs of a re-imported input known to the server (the lead's)."""
        if "lead" not in self.roles or not pairs:
            return
        with self._write("record the senses of the re-imported input") as cur:
            cur.execute("INSERT INTO senses SELECT * FROM unnest(%s::text[], %s::text[]) ON CONFLICT DO NOTHING",
                        ([p[0] for p in pairs], [p[1] for p in pairs]))

    def damaged_rows(self) -> tuple[str, ...]:
        """``#id (lexelt instance): why`` of every row this login may read that the program cannot use."""
        return tuple(f"#{i} ({lx} {inst}): {why}" for i, lx, inst, why in self._read(
            f"SELECT id, lexelt, instance, {ddl.why_damaged_sql()} FROM decisions"
            f" WHERE NOT {SOUND} ORDER BY id"))

    def count_decisions(self) -> int:
        return int(self._read("SELECT count(*) FROM decisions")[0][0])

    def batches(self) -> list[BatchRow]:
        return [BatchRow(*r) for r in self._read(
            "SELECT id, label, kind, created_by, created_at FROM batches ORDER BY id")]
