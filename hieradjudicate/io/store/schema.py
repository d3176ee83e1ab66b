"""Schema, migrations and pre-open validation of the ``.hadj`` project file.

The project file is an SQLite database.  Its layout is versioned: version 1
is created by :data:`BASE_SCHEMA` and every later version by one function in
:data:`MIGRATIONS` (``MIGRATIONS[i]`` turns version ``i + 1`` into ``i + 2``).
A new project is built by running the same migrations, so every migration is
exercised by every new project, not only by old files.

:func:`check_header` looks at the raw bytes before SQLite is involved, so
that a text file, random bytes or a truncated file give a one-line message
and are never handed to a writable connection.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.chain import ChainReport, chain_all, verify
from hieradjudicate.io.store.runs import add_runs_table

#: ``PRAGMA application_id`` of every hieradjudicate project ("HADJ").
APPLICATION_ID = 0x4841444A

SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100

REQUIRED_TABLES = frozenset({"meta", "settings", "files", "arrays", "batches", "decisions"})
STATUSES = ("resolved", "flagged", "skipped", "unresolved")
FILE_KINDS = ("inventory", "annotations", "contexts")

BASE_SCHEMA = """
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL            -- JSON
);
CREATE TABLE files (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('inventory', 'annotations', 'contexts')),
    role TEXT,
    set_names TEXT NOT NULL DEFAULT '[]',   -- JSON list
    format TEXT,
    options TEXT NOT NULL DEFAULT '{}',     -- JSON: how the file was read
    source_path TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    compression TEXT NOT NULL CHECK (compression IN ('zlib', 'none')),
    active INTEGER NOT NULL DEFAULT 1,      -- 0 once replaced by a re-import
    data BLOB NOT NULL
);
CREATE TABLE arrays (
    name TEXT PRIMARY KEY,
    meta TEXT NOT NULL DEFAULT '{}',        -- JSON
    updated_at TEXT NOT NULL,
    data BLOB NOT NULL                      -- .npz bytes
);
CREATE TABLE batches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    label TEXT NOT NULL,
    kind TEXT NOT NULL,                     -- do / undo / redo / import ...
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE decisions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lexelt TEXT NOT NULL,
    instance TEXT NOT NULL,
    tags TEXT NOT NULL,                     -- JSON list of node ids
    source TEXT NOT NULL,
    status TEXT NOT NULL
        CHECK (status IN ('resolved', 'flagged', 'skipped', 'unresolved')),
    note TEXT NOT NULL DEFAULT '',
    decided_by TEXT NOT NULL,
    decided_at TEXT NOT NULL,
    batch INTEGER REFERENCES batches(id)
);
CREATE INDEX decisions_instance ON decisions (lexelt, instance, id);
CREATE INDEX files_kind ON files (kind, active);
"""


def _v1_to_v2(conn: sqlite3.Connection) -> None:
    """Version 2: a decision records its basis (what it was based on)."""
    conn.execute("ALTER TABLE decisions ADD COLUMN basis TEXT")


def _v2_to_v3(conn: sqlite3.Connection) -> None:
    """Version 3: decisions carry a hash chain (a changed or missing decision is detected)."""
    conn.execute("ALTER TABLE decisions ADD COLUMN chain TEXT")
    chain_all(conn)


#: Ordered migrations; ``MIGRATIONS[i]`` migrates version ``i + 1`` to ``i + 2``.
#: Version 4: stored system runs (:func:`hieradjudicate.io.store.runs.add_runs_table`).
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1_to_v2, _v2_to_v3, add_runs_table]

#: The schema version this program writes.
SCHEMA_VERSION = 1 + len(MIGRATIONS)


def init_schema(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> None:
    """Create the version-1 tables and migrate them to ``target`` (in the caller's transaction)."""
    for statement in BASE_SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    set_version(conn, 1)
    migrate(conn, 1, target)


def set_version(conn: sqlite3.Connection, version: int) -> None:
    """Record the schema version in the meta table and in ``PRAGMA user_version``."""
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", (str(version),)
    )
    conn.execute(f"PRAGMA user_version = {int(version)}")


def migrate(conn: sqlite3.Connection, current: int, target: int = SCHEMA_VERSION) -> None:
    """Apply the migrations from ``current`` up to ``target`` (in the caller's transaction)."""
    for version in range(current, target):
        MIGRATIONS[version - 1](conn)
        set_version(conn, version + 1)


def check_header(path: Path) -> None:
    """Reject what cannot be a project before SQLite opens it (reads 100 bytes, writes nothing).

    Raises
    ------
    ProjectError
        One line naming the file and what is wrong with it.
    """
    name = str(path)
    planted = planted_side_file(path)
    if planted is not None:
        raise ProjectError(planted)
    if not path.exists():
        raise ProjectError(f"{name}: no such file (expected a hieradjudicate project, .hadj)")
    if path.is_dir():
        raise ProjectError(f"{name}: is a folder, not a hieradjudicate project file")
    try:
        st = path.stat()
    except OSError as exc:
        raise ProjectError(f"{name}: cannot read the project file ({exc.strerror})") from None
    if not stat.S_ISREG(st.st_mode):
        # a FIFO or a device would block or stream forever: never open it
        kind = "a named pipe (FIFO)" if stat.S_ISFIFO(st.st_mode) else "not a regular file"
        raise ProjectError(f"{name}: is {kind}, not a hieradjudicate project file")
    try:
        size = st.st_size
        with open(path, "rb") as fh:
            head = fh.read(HEADER_SIZE)
    except OSError as exc:
        raise ProjectError(f"{name}: cannot read the project file ({exc.strerror})") from None
    if size == 0:
        raise ProjectError(f"{name}: the file is empty (0 bytes); it is not a usable project")
    if len(head) < len(SQLITE_MAGIC) and SQLITE_MAGIC.startswith(head):
        raise ProjectError(f"{name}: the file is truncated ({size} bytes); the project is damaged")
    if not head.startswith(SQLITE_MAGIC):
        raise ProjectError(f"{name}: {_describe_foreign(head)}, not a hieradjudicate project")
    if len(head) < HEADER_SIZE:
        raise ProjectError(f"{name}: the file is truncated ({size} bytes); the project is damaged")
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    n_pages = int.from_bytes(head[28:32], "big")
    counter_valid = head[24:28] == head[92:96]
    # After a crash during a checkpoint the main file may legitimately be short
    # while the write-ahead log still holds the pages; SQLite's check decides then.
    pending = any(path.with_name(path.name + s).exists() and path.with_name(path.name + s).stat().st_size > 0
                  for s in ("-wal", "-journal"))
    if counter_valid and n_pages and not pending and size < page_size * n_pages:
        raise ProjectError(
            f"{name}: the file is truncated ({size} of {page_size * n_pages} bytes); "
            "the project is damaged (restore a backup)"
        )


def planted_side_file(path: Path) -> str | None:
    """What is wrong when ``NAME-journal`` (``-wal``, ``-shm``) beside the project is not a file
    SQLite made: a symbolic link (SQLite would write through it, or roll the project back from
    whatever it points to) or anything but a regular file.  None when all is as SQLite left it."""
    for suffix in ("-journal", "-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.is_symlink():
            try:
                to = f" to {os.readlink(side)}"
            except OSError:
                to = ""
            what = f"is a symbolic link{to}"
        elif side.exists() and not side.is_file():
            what = "is not a regular file"
        else:
            continue
        return (f"{side}: {what}, not the {suffix[1:]} file SQLite writes beside {path.name}; "
                "the project was not opened (SQLite would follow it). The project itself is not "
                "damaged by it: remove the link and open the project again")
    return None


def _describe_foreign(head: bytes) -> str:
    """Name what a non-SQLite file looks like, for the error message."""
    sample = head[:HEADER_SIZE]
    if sample.startswith(b"PK\x03\x04"):
        return "this is a ZIP archive"
    if sample.startswith(b"\x1f\x8b"):
        return "this is a gzip file"
    try:
        text = sample.decode("utf-8")
    except UnicodeDecodeError:
        return "this is not an SQLite database (unrecognised binary data)"
    if all(ch.isprintable() or ch in "\r\n\t" for ch in text.lstrip("\ufeff")):
        return "this is a text file"
    return "this is not an SQLite database (unrecognised data)"


def inspect_schema(conn: sqlite3.Connection, name: str) -> int:
    """Check that an open database is a hieradjudicate project and return its schema version.

    Only reads.  Raises :class:`ProjectError` (one line) when the file is a
    foreign SQLite database, is damaged, or was written by a newer program.
    """
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as exc:
        raise ProjectError(f"{name}: the project file is damaged or not a database ({exc})") from None
    if app_id != APPLICATION_ID or "meta" not in tables:
        raise ProjectError(
            f"{name}: this is an SQLite database of another program, not a hieradjudicate project"
        )
    missing = sorted(REQUIRED_TABLES - tables)
    if missing:
        raise ProjectError(f"{name}: the project file is damaged: its table(s) {', '.join(missing)} "
                           "are missing (restore a backup)")
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise ProjectError(f"{name}: the project file is damaged ({exc})") from None
    if row is None or not str(row[0]).isdigit():
        raise ProjectError(f"{name}: the project has no valid schema version; it is damaged")
    version = int(row[0])
    if version > SCHEMA_VERSION:
        raise ProjectError(
            f"{name}: the project was saved by a newer hieradjudicate (schema version {version}; "
            f"this program reads up to {SCHEMA_VERSION}); update hieradjudicate to open it"
        )
    if version < 1:
        raise ProjectError(f"{name}: the project has an invalid schema version {version}")
    return version


def quick_check(conn: sqlite3.Connection, name: str) -> None:
    """Run ``PRAGMA quick_check`` (milliseconds even for large projects) and raise if damaged."""
    try:
        rows = [r[0] for r in conn.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as exc:
        raise ProjectError(f"{name}: the project file is damaged ({exc})") from None
    if rows != ["ok"]:
        raise ProjectError(f"{name}: the project file is damaged ({'; '.join(rows)[:200]})")


def backup_path(path: Path, version: int) -> Path:
    """``NAME.hadj.bak-v<version>``, with a numeric suffix if that name is taken."""
    candidate = path.with_name(f"{path.name}.bak-v{version}")
    n = 2
    while os.path.exists(candidate):
        candidate = path.with_name(f"{path.name}.bak-v{version}-{n}")
        n += 1
    return candidate


def ro_uri(path: Path, *, immutable: bool = False) -> str:
    """SQLite URI opening ``path`` read-only (and as immutable: no locks, no -wal/-shm files)."""
    return f"{path.absolute().as_uri()}?mode=ro" + ("&immutable=1" if immutable else "")


def connect(target: str, *, uri: bool) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit) that waits for locks."""
    conn = sqlite3.connect(target, uri=uri, isolation_level=None, timeout=10.0)
    conn.execute("PRAGMA busy_timeout = 10000")
    return conn


def read_only_connection(p: Path) -> sqlite3.Connection:
    """A read-only connection that creates no file beside ``p``.

    Where nobody can be writing (the folder is not writable, so no writer could
    make its journal) or an old write-ahead-log project has no log, the file is
    read as ``immutable``: no locks, no ``-shm``.  Otherwise ``mode=ro`` with
    locks, which in rollback-journal mode creates nothing either.
    """
    wal_file = p.with_name(p.name + "-wal").exists()
    journal = p.with_name(p.name + "-journal").exists()
    try:
        with open(p, "rb") as fh:
            wal_mode = fh.read(20)[18:20] == b"\x02\x02"
    except OSError:
        wal_mode = False
    immutable = (not os.access(p.parent, os.W_OK) and not journal and not wal_file) \
        or (wal_mode and not wal_file)
    try:
        return connect(ro_uri(p, immutable=immutable), uri=True)
    except sqlite3.Error as exc:
        raise ProjectError(f"{p}: cannot open the project ({exc})") from None


def validate_read_only(p: Path, check: bool) -> tuple[int, ChainReport | None]:
    """Read-only checks; nothing in the file can change here, and no file appears beside it.

    Returns the schema version and, from version 3 on, what the decision
    history's hash chain says (``None`` without ``check`` or before version 3).
    """
    conn = read_only_connection(p)
    try:
        version = inspect_schema(conn, str(p))
        chain = None
        if check:
            quick_check(conn, str(p))
            decisions_check(conn, str(p))
            if version >= 3:
                chain = verify(conn)
        return version, chain
    except sqlite3.Error as exc:
        raise ProjectError(f"{p}: the project file is damaged or cannot be read ({exc})") from None
    finally:
        conn.close()


def decisions_check(conn: sqlite3.Connection, name: str) -> None:
    """Full ``integrity_check`` of the decisions table and of every other table's indexes
    (``quick_check`` does not compare an index with its table: a decision missing from the index,
    or a damaged ``files_kind`` or ``meta`` key index -- which picks the files a project loads and
    reads its schema version -- went unnoticed).  The other tables' checks cost milliseconds:
    their blobs are walked by ``quick_check`` anyway."""
    for table, what in (("decisions", "decisions"), ("files", "stored input copies"),
                        ("meta", "project information"), ("settings", "settings"),
                        ("batches", "batches"), ("arrays", "corpus cache")):
        try:
            rows = [r[0] for r in conn.execute(f"PRAGMA integrity_check({table})")]
        except sqlite3.DatabaseError as exc:
            raise ProjectError(f"{name}: the project file is damaged ({exc})") from None
        if rows != ["ok"]:
            raise ProjectError(f"{name}: the project's {what} are damaged ({'; '.join(rows)[:200]}); "
                               "run `hieradjudicate project check` for details")


def recover_journal(p: Path) -> None:
    """Roll back a transaction a crash left in ``p-journal`` (it was never reported saved).

    SQLite does this on the first read of a writable connection; a read-only
    one cannot, and an immutable one would read the half-written pages.  Done
    only while nobody holds the writer lock, and only when we may write here.
    """
    journal = p.with_name(p.name + "-journal")
    if not journal.exists() or not os.access(p.parent, os.W_OK) or not os.access(p, os.W_OK):
        return
    fd = os.open(p, os.O_RDONLY | os.O_CLOEXEC)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return  # the writer is alive; its journal is not stale
        conn = connect(str(p), uri=False)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error:
            pass  # damage is reported by the checks that follow
        finally:
            conn.close()
    finally:
        os.close(fd)


def _flock_holder(p: Path) -> int | None:
    """The pid holding a ``flock`` on ``p``, from ``/proc/locks`` (Linux; None elsewhere)."""
    try:
        st = p.stat()
        with open("/proc/locks", encoding="ascii", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    want = f":{st.st_ino}"
    for line in lines:
        parts = line.split()
        if len(parts) > 5 and parts[1] == "FLOCK" and parts[5].endswith(want):
            dev = parts[5][:-len(want)].split(":")
            try:
                if len(dev) == 2 and os.makedev(int(dev[0], 16), int(dev[1], 16)) == st.st_dev:
                    return int(parts[4])
            except ValueError:
                continue
    return None


def lock_owner(p: Path) -> str:
    """Who holds the writer lock ("pid 123, user ann"): the process the system names as holding
    it, else as the project recorded it (the record is written with the holder's first change)."""
    try:
        conn = connect(ro_uri(p), uri=True)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key='lock_owner'").fetchone()
        finally:
            conn.close()
        owner = json.loads(row[0]) if row else {}
    except (sqlite3.Error, ValueError):
        owner = {}
    holder = _flock_holder(p)
    if holder is not None and owner.get("pid") != holder:
        try:
            import pwd

            user = pwd.getpwuid(os.stat(f"/proc/{holder}").st_uid).pw_name
        except (OSError, KeyError, ImportError):
            user = ""
        owner = {"pid": holder, "user": user}
    if not owner:
        return "pid unknown"
    parts = [f"pid {owner['pid']}" if "pid" in owner else "pid unknown"]
    if owner.get("host") and owner["host"] != socket.gethostname():
        parts.append(f"on {owner['host']}")
    if owner.get("user"):
        parts.append(f"user {owner['user']}")
    return ", ".join(parts)
