"""Project locations on a PostgreSQL server: ``postgresql://USER@HOST:PORT/DB?project=NAME``.

A location is either a ``.hadj`` path (the embedded default) or such a URL.  The URL names
the login, the server and the database; ``project`` names the project in that database (a
schema of its own).  Other query parameters are libpq's own (``sslmode``, ``sslrootcert``,
``service``, ``connect_timeout`` ...) and are passed through unchanged, so ``sslmode=require``
is honoured.  A password is refused in the URL: libpq reads it from its usual places
(``~/.pgpass``, ``PGPASSWORD``, a service file), so it never enters a project, a command line
that others can see, or a log.  :meth:`ServerLocation.__str__` is the URL without secrets and
is what every message shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from hieradjudicate.core.errors import ProjectError

SCHEMES = ("postgresql", "postgres")
#: a project name becomes a schema and three role names: lower-case letters, digits and _
PROJECT_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
#: libpq parameters a URL may carry (everything else is a mistake worth naming)
LIBPQ_PARAMS = frozenset({
    "sslmode", "sslrootcert", "sslcert", "sslkey", "sslcrl", "sslcompression", "sslsni",
    "service", "connect_timeout", "application_name", "target_session_attrs", "gssencmode",
    "channel_binding", "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
    "tcp_user_timeout", "options", "passfile", "requirepeer", "krbsrvname",
})


def is_server_location(location: object) -> bool:
    """Whether ``location`` is a server URL (not a file path)."""
    text = str(location)
    return any(text.startswith(f"{s}://") for s in SCHEMES)


@dataclass(frozen=True)
class ServerLocation:
    """A parsed project URL.  ``name`` is the project (used where a file name would be)."""

    user: str | None
    host: str | None
    port: int | None
    dbname: str
    project: str
    params: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        return self.project

    @property
    def schema(self) -> str:
        """The PostgreSQL schema holding the project's tables."""
        return f"hadj_{self.project}"

    def role(self, kind: str) -> str:
        """The group role of ``kind`` (lead, adjudicator, viewer) in this project of this database.

        Roles are cluster-wide: the database's tag (:func:`db_tag`) keeps a project ``demo`` of one
        database apart from ``demo`` of another.  The server computes the same names
        (``hieradjudicate.role_name`` made by ``server setup``)."""
        return project_role(self.dbname, self.project, kind)

    def db_role(self, kind: str) -> str:
        """The database's own roles made by ``server setup``: ``owner`` (owns every project's
        objects, NOLOGIN) and ``leads`` (the logins that may publish here)."""
        return f"hadj_{kind}_{db_tag(self.dbname)}"

    @property
    def queue_key(self) -> str:
        """What names the project's offline queue: server, port, database and project, not the
        login (given apart) nor libpq settings such as ``sslmode`` (the same project opened with
        another spelling of its URL finds the decisions waiting)."""
        return str(ServerLocation(None, self.host or "", self.port or 5432, self.dbname, self.project))

    def conninfo(self) -> str:
        """The libpq connection URL (no project parameter, never a password)."""
        netloc = ""
        if self.user:
            netloc += quote(self.user, safe="") + "@"
        if self.host:
            netloc += f"[{self.host}]" if ":" in self.host else quote(self.host, safe="/")
        if self.port:
            netloc += f":{self.port}"
        query = "&".join(f"{k}={quote(v, safe='')}" for k, v in self.params)
        return f"postgresql://{netloc}/{quote(self.dbname, safe='')}" + (f"?{query}" if query else "")

    def __str__(self) -> str:
        base = self.conninfo()
        if not self.project:
            return base
        return base + ("&" if "?" in base else "?") + f"project={self.project}"


def db_tag(dbname: str) -> str:
    """8 hex digits naming a database in role names (the start of the SHA-256 of its name)."""
    import hashlib

    return hashlib.sha256(dbname.encode("utf-8")).hexdigest()[:8]


def project_role(dbname: str, project: str, kind: str) -> str:
    """``hadj_<project>_<kind>_<db tag>``; within PostgreSQL's 63 bytes (a long project name is
    cut and followed by 10 hex digits of its hash)."""
    import hashlib

    name = f"hadj_{project}_{kind}_{db_tag(dbname)}"
    if len(name.encode("utf-8")) <= 63:
        return name
    digest = hashlib.sha256(project.encode("utf-8")).hexdigest()[:10]
    return f"hadj_{project[:20]}_{digest}_{kind}_{db_tag(dbname)}"


def parse_location(text: str, *, need_project: bool = True) -> ServerLocation:
    """Parse a project URL; every mistake is one line naming the URL and what was expected.

    ``need_project=False``: a server URL without ``?project=`` (the administrator's, for
    ``server setup``); its project is empty."""
    shown = _redact(text)
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise ProjectError(f"{shown}: not a valid server URL ({exc}); expected "
                           "postgresql://USER@HOST:PORT/DBNAME?project=NAME") from None
    if parts.scheme not in SCHEMES:
        raise ProjectError(f"{shown}: expected a postgresql:// URL")
    if parts.password is not None:
        raise ProjectError(f"{shown}: a password does not belong in the project URL (it would be "
                           "shown and remembered); put it in ~/.pgpass, PGPASSWORD or a service file")
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname or "/" in dbname:
        raise ProjectError(f"{shown}: the URL names no database (expected "
                           "postgresql://USER@HOST:PORT/DBNAME?project=NAME)")
    project = None
    params: list[tuple[str, str]] = []
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key == "project":
            project = value
        elif key == "password":
            raise ProjectError(f"{shown}: a password does not belong in the project URL; put it in "
                               "~/.pgpass, PGPASSWORD or a service file")
        elif key in LIBPQ_PARAMS:
            params.append((key, value))
        else:
            raise ProjectError(f"{shown}: unknown URL parameter {key!r} (expected project=NAME and "
                               "libpq parameters such as sslmode)")
    if not project and not need_project:
        project = ""
    elif not project:
        raise ProjectError(f"{shown}: the URL names no project; add ?project=NAME")
    if project and not PROJECT_NAME.fullmatch(project):
        raise ProjectError(f"{shown}: project name {project!r} must start with a letter and hold only "
                           "lower-case letters, digits and _ (at most 40)")
    user = unquote(parts.username) if parts.username else None
    host = unquote(parts.hostname) if parts.hostname else None
    return ServerLocation(user, host, port, dbname, project, tuple(params))


def _redact(text: str) -> str:
    """The URL as it may be shown: a password (if someone typed one) replaced by ***."""
    text = re.sub(r"(://[^/@:]*:)[^/@]*@", r"\1***@", text)
    return re.sub(r"(?i)([?&]password=)[^&]*", r"\1***", text)
