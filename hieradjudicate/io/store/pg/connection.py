"""Connecting to the project's server: quick failure detection, and a failure said in one line.

A failure names the server (host, port) and libpq's reason, and says whether the server was
reached at all (then it refused the login or database) or not (then decisions made offline in
an earlier session, if any, are named with the folder where they wait).
"""

from __future__ import annotations

from typing import Any

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.pg.location import ServerLocation
from hieradjudicate.io.store.pg.queue import OfflineQueue


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise ProjectError("a project on a PostgreSQL server needs psycopg 3: "
                           "pip install 'hieradjudicate[team]'") from None
    return psycopg


#: libpq settings that make a dead server or network show within about 5 s
LIVENESS = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 2,
            "tcp_user_timeout": 5000}


class ServerUnreachable(ProjectError):
    """The server could not be reached (``reached`` False) or refused the login (True)."""

    reached = False


#: words of libpq's message when the server answered but refused the login or database
_REFUSED = ("authentication", "password", "does not exist", "pg_hba.conf", "permission denied",
            "too many connections", "starting up", "shutting down", "SSL")


def connect(loc: ServerLocation, *, autocommit: bool = True, timeout: int = 10) -> Any:
    """A connection to the project's database; a failure is one line without secrets."""
    psycopg = _psycopg()
    given = {k for k, _v in loc.params}
    # a dead network is noticed in seconds, not after the system's TCP timeout (minutes), unless
    # the URL says otherwise
    quick = {k: v for k, v in {**LIVENESS, "connect_timeout": timeout,
                               "application_name": "hieradjudicate"}.items() if k not in given}
    try:
        conn = psycopg.connect(loc.conninfo(), autocommit=autocommit, **quick)
    except psycopg.Error as exc:
        raise _connect_problem(loc, exc) from None
    return conn


def _connect_problem(loc: ServerLocation, exc: BaseException) -> ServerUnreachable:
    """One line: which server (host, port), and libpq's reason; whether it was reached at all."""
    import os

    host = loc.host or os.environ.get("PGHOST") or "the local socket"
    port = loc.port or os.environ.get("PGPORT") or 5432
    first = _first_line(exc)
    reason = first.rsplit(" failed: ", 1)[-1] if " failed: " in first else first
    where = f"{loc}: cannot connect to the server at host {host}, port {port}"
    if any(word in reason for word in _REFUSED):
        out = ServerUnreachable(f"{where}: the server refused the connection ({reason})")
        out.reached = True
        return out
    return ServerUnreachable(f"{where}: the server cannot be reached ({reason}); is it running, and is "
                             "the network up?")


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _is_connection_error(exc: BaseException) -> bool:
    psycopg = _psycopg()
    return isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError)


def waiting_note(loc: ServerLocation) -> str:
    """Where decisions made offline in an earlier session wait (empty when none do)."""
    import os

    from hieradjudicate.io.store.records import login_name

    login = loc.user or os.environ.get("PGUSER") or login_name()
    queue = OfflineQueue(loc.queue_key, login)
    try:
        n = len(queue)
    except (OSError, ValueError, KeyError, TypeError):
        return ""
    if not n:
        return ""
    return (f". {n} decision(s) made by {login} while the server could not be reached wait on this "
            f"computer in {queue.path}; they will be sent when the server is back and the project is "
            "opened again")
