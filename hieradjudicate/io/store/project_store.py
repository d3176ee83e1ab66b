"""The ``.hadj`` project file: an SQLite store that never loses a saved decision.

* Opening validates before anything can write: the raw header is checked, then
  the file is opened read-only for the application id, the schema version and
  ``PRAGMA quick_check``; only then is it opened for writing.  A file that is
  damaged, foreign or newer gives a one-line :class:`ProjectError` and its
  bytes are unchanged.
* One writer: the first process takes an exclusive ``flock`` on the file; a
  second one gets the project read-only and :attr:`Store.read_only_reason`
  says why.  Keep one :class:`Store` per file per process (a second open in
  the same process is refused: closing a second descriptor would drop
  SQLite's own POSIX locks).
* Rollback journal (``journal_mode=DELETE``) with ``synchronous=FULL``: every
  call that writes returns only after its transaction is in the project file
  itself and synced; a batch is one transaction.  No committed decision lives
  only in a side file: deleting or damaging a ``-wal`` (the old write-ahead
  log, which lost 40 of 340 saved decisions that way) cannot lose anything,
  and read-only opens create no files.  A ``-journal`` left by a crash is
  rolled back (the interrupted transaction was never reported saved).
* Decisions are append-only; the current decision of an instance is its
  latest row.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import json
import os
import socket
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

import numpy as np

from hieradjudicate import __version__
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store import schema
from hieradjudicate.io.store.blob import pack_blob, unpack_blob
from hieradjudicate.io.store.chain import extend as extend_chain
from hieradjudicate.io.store.records import (
    BRIEF_COLUMNS,
    BatchRow,
    BriefRow,
    DecisionFields,
    DecisionRow,
    FileRecord,
    brief_rows,
    check_decision,
    login_name,
    row_from_db,
    utc_now,
)
from hieradjudicate.io.store.sidecars import remove_build, remove_sidecars, sweep_stale_builds

__all__ = ["BatchRow", "DecisionFields", "DecisionRow", "FileRecord", "Store", "login_name",
           "utc_now"]

class InvalidDecision(ProjectError, ValueError):
    """A decision the store refuses (a message for the user; still a ValueError for callers)."""


_OPEN_IN_PROCESS: dict[tuple[int, int], str] = {}
_DECISION_COLUMNS = (
    "id, lexelt, instance, tags, source, status, note, decided_by, decided_at, batch, basis"
)


class Store:
    """An open project file.  Use :meth:`create` or :meth:`open`; close it (or use ``with``)."""

    def __init__(self, path: Path, conn: sqlite3.Connection, lock_fd: int | None,
                 version: int, read_only_reason: str | None, bad_ids: Sequence[int] = (),
                 left_out: Sequence[str] = ()) -> None:
        self.path = path
        #: decision rows that failed their checksum (or cannot be verified): left out of everything
        #: read; :attr:`left_out` names each of them ("#17 (bank.n 3): does not match its checksum")
        self.bad_ids = tuple(bad_ids)
        self.left_out = tuple(left_out)
        self._trusted = (" AND id NOT IN (" + ",".join(str(int(i)) for i in self.bad_ids) + ")"
                         if self.bad_ids else "")
        self._conn: sqlite3.Connection | None = conn
        self._lock_fd = lock_fd
        self.schema_version = version
        self.read_only_reason = read_only_reason
        #: meta rows (who holds the writer lock) written with the first change
        self._owner: list[tuple[str, str]] | None = None
        # an older project read without upgrading it: columns it does not have yet read as NULL
        self._columns = _DECISION_COLUMNS if version >= 2 else _DECISION_COLUMNS.replace(", basis", ", NULL")
        st = os.stat(path)
        self._key = (st.st_dev, st.st_ino)
        _OPEN_IN_PROCESS[self._key] = str(path)

    # ------------------------------------------------------------------ opening
    @classmethod
    def create(cls, path: str | os.PathLike[str], *, overwrite: bool = False) -> Store:
        """Create a new, empty project and open it for writing.

        The file is built under a temporary name and renamed into place, so
        that a crash never leaves a half-made project.
        """
        p = Path(path)
        if p.exists() and not overwrite:
            raise ProjectError(f"{p}: already exists (choose another name or allow overwriting)")
        sweep_stale_builds(p.parent)
        tmp = p.with_name(f".{p.name}.creating-{os.getpid()}")
        remove_build(tmp)
        try:
            conn = schema.connect(str(tmp), uri=False)
            try:
                conn.execute("PRAGMA journal_mode = DELETE")
                conn.execute("BEGIN IMMEDIATE")
                schema.init_schema(conn)
                now = utc_now()
                conn.executemany(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                    [("app_version", __version__), ("created", now), ("created_by", login_name())],
                )
                conn.execute("COMMIT")
            finally:
                conn.close()
            cls.replace_into(tmp, p)
        except (sqlite3.Error, OSError) as exc:
            remove_build(tmp)
            raise ProjectError(f"{p}: could not create the project ({exc})") from None
        except BaseException:
            remove_build(tmp)
            raise
        return cls.open(p)

    @classmethod
    def replace_into(cls, built: Path, target: Path) -> None:
        """Rename a finished build onto ``target``, atomically, under the target's writer lock.

        The old project stays whole until the rename; its SQLite side files
        (``-wal``/``-shm``/``-journal``, left by a crash) are removed first,
        so they are never applied to the new file.
        """
        fd = None
        if target.exists():
            fd = os.open(target, os.O_RDONLY | os.O_CLOEXEC)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise ProjectError(f"{target}: is open in another hieradjudicate; not overwritten") \
                    from None
        try:
            remove_sidecars(target)
            os.replace(built, target)
        finally:
            if fd is not None:
                os.close(fd)

    @staticmethod
    def ensure_not_in_use(p: Path) -> None:
        """Raise :class:`ProjectError` when another process holds the writer lock on ``p``."""
        fd = os.open(p, os.O_RDONLY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ProjectError(f"{p}: is open in another hieradjudicate; not overwritten") from None
        finally:
            os.close(fd)

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, read_only: bool = False,
             check: bool = True) -> Store:
        """Open a project, read-only when asked or when another process is writing it.

        Parameters
        ----------
        path : the ``.hadj`` file.
        read_only : open without taking the writer lock.
        check : run ``PRAGMA quick_check`` before opening (milliseconds; keep it on).

        Raises
        ------
        ProjectError
            One line naming the file and the problem; the file is left untouched.
        """
        p = Path(path)
        name = str(p)
        if p.is_symlink():
            # SQLite keeps its journal beside the link's target; so do we (lock, checks, messages)
            p = p.resolve()
            if not p.exists():
                raise ProjectError(f"{name}: is a symbolic link to {p}, which does not exist")
        schema.check_header(p)
        schema.recover_journal(p)
        from hieradjudicate.io.store.journal import interrupted_save

        if interrupted_save(p):  # still there: we may not write here, so it cannot be rolled back
            raise ProjectError(f"{name}: a save was interrupted and cannot be rolled back here (you may "
                               "not write to the file or its folder); copy the project together with "
                               f"its {p.name}-journal file to a folder you may write to, or open it "
                               "where you may: do not delete the -journal file (`project check` "
                               "checks it as it will be)")
        st = os.stat(p)
        if (st.st_dev, st.st_ino) in _OPEN_IN_PROCESS:
            raise ProjectError(f"{name}: is already open in this program")
        version, chain = schema.validate_read_only(p, check)
        reason: str | None = "opened read-only on request" if read_only else None
        bad: tuple[int, ...] = ()
        left_out: list[str] = []
        if chain is not None and not chain.sound:
            # never show a decision that is not what was saved; never write on top of damage
            bad = tuple(chain.left_out_ids)
            left_out = chain.left_out()
            reason = (f"{name}: the project is damaged: {chain.summary()}; opened read-only without "
                      "them (`hieradjudicate project check` lists them, `project repair` makes a "
                      "sound copy of what is intact)")
            read_only = True
        lock_fd: int | None = None
        if not read_only:
            if not os.access(p, os.W_OK) or not os.access(p.parent, os.W_OK):
                reason = f"{name}: you may not write to this file or its folder; opened read-only"
            else:
                lock_fd = os.open(p, os.O_RDONLY | os.O_CLOEXEC)
                try:
                    fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    reason = f"{name}: is open in another hieradjudicate ({schema.lock_owner(p)}); " \
                             "opened read-only"
        if reason is not None:
            # an older project is read as it is: reading needs nothing a later schema added (its
            # decisions have no checksums yet: they are chained when it is next opened for writing)
            conn = schema.read_only_connection(p)
            return cls(p, conn, lock_fd, version, reason, bad, left_out)
        try:
            conn = schema.connect(str(p), uri=False)
            conn.execute("PRAGMA journal_mode = DELETE")  # an old project's log is folded in
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            version = schema.inspect_schema(conn, name)  # again: we now hold the lock
            if version < schema.SCHEMA_VERSION:
                cls._migrate(p, conn, version)
                version = schema.SCHEMA_VERSION
            owner = {"pid": os.getpid(), "host": socket.gethostname(), "user": login_name(),
                     "since": utc_now(), "app_version": __version__}
        except sqlite3.Error as exc:
            assert lock_fd is not None
            os.close(lock_fd)
            hint = "; the disk is full: free some space and try again" if "full" in str(exc) else ""
            raise ProjectError(f"{name}: could not open the project for writing ({exc}){hint}") from None
        except ProjectError:
            assert lock_fd is not None
            os.close(lock_fd)
            raise
        store = cls(p, conn, lock_fd, version, None)
        # recorded with the first change, not at opening: a command that is refused (or only
        # reads) leaves the file byte for byte as it was
        store._owner = [("lock_owner", json.dumps(owner)), ("app_version_last", __version__)]
        return store

    @staticmethod
    def _migrate(p: Path, conn: sqlite3.Connection, version: int) -> None:
        """Back the file up as ``NAME.hadj.bak-v<old>``, then migrate in one transaction."""
        target = schema.backup_path(p, version)
        try:
            dest = sqlite3.connect(target)
            try:
                conn.backup(dest)
            finally:
                dest.close()
        except (sqlite3.Error, OSError) as exc:
            Path(target).unlink(missing_ok=True)
            raise ProjectError(f"{p}: could not write the backup {target.name} before "
                               f"upgrading ({exc}); the project was not changed") from None
        conn.execute("BEGIN IMMEDIATE")
        try:
            schema.migrate(conn, version)
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            conn.execute("ROLLBACK")
            raise ProjectError(f"{p}: upgrading from schema version {version} failed ({exc}); "
                               f"the project was not changed") from None

    # ---------------------------------------------------------------- lifetime
    @property
    def read_only(self) -> bool:
        return self.read_only_reason is not None

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise ProjectError(f"{self.path}: the project is closed")
        return self._conn

    def close(self) -> None:
        """Close the connection (SQLite checkpoints the log) and release the writer lock."""
        if self._conn is None:
            return
        try:
            self._conn.close()
        finally:
            self._conn = None
            if self._lock_fd is not None:
                os.close(self._lock_fd)  # releases the flock
                self._lock_fd = None
            _OPEN_IN_PROCESS.pop(self._key, None)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        """One committed transaction; any failure rolls back and becomes a ProjectError."""
        if self.read_only_reason is not None:
            raise ProjectError(f"cannot {what}: {self.read_only_reason}")
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise ProjectError(f"{self.path}: cannot {what} ({exc})") from None
        try:
            if self._owner:
                conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", self._owner)
            yield conn
            conn.execute("COMMIT")
            self._owner = None
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                hint = " (the disk is full)" if "full" in str(exc) else ""
                raise ProjectError(f"{self.path}: could not {what}{hint}; nothing of this change "
                                   f"was saved ({exc})") from None
            raise

    def transaction(self, what: str) -> Any:
        """One committed write transaction (``with store.transaction("restore"): ...``)."""
        return self._write(what)

    def integrity_check(self) -> list[str]:
        """``PRAGMA integrity_check``: ``["ok"]`` for a sound file."""
        return [r[0] for r in self.conn.execute("PRAGMA integrity_check")]

    # ------------------------------------------------------- meta and settings
    def meta(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT key, value FROM meta").fetchall())

    def get_setting(self, key: str, default: Any = None) -> Any:
        row = self.conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def set_setting(self, key: str, value: Any) -> None:
        with self._write(f"save the setting {key!r}") as conn:
            conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                         (key, json.dumps(value)))

    def settings(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self.conn.execute("SELECT key, value FROM settings")}

    def user(self) -> str:
        """Who decides: the ``user`` setting, else the login name."""
        name = self.get_setting("user")
        return str(name) if name else login_name()

    # ------------------------------------------------------------------ files
    def add_file(self, kind: str, source_path: str | os.PathLike[str], *,
                 data: bytes | None = None, role: str | None = None,
                 set_names: Sequence[str] = (), format: str | None = None,
                 options: Mapping[str, Any] | None = None) -> FileRecord:
        """Keep a copy of an imported file (its bytes as on disk) with its size and SHA-256."""
        if kind not in schema.FILE_KINDS:
            raise ValueError(f"kind must be one of {schema.FILE_KINDS}, not {kind!r}")
        src = os.fspath(source_path)
        if data is None:
            try:
                data = Path(src).read_bytes()
            except OSError as exc:
                raise ProjectError(f"{src}: cannot read the file to import ({exc.strerror})") \
                    from None
        digest = hashlib.sha256(data).hexdigest()
        blob, compression = pack_blob(data)
        now = utc_now()
        with self._write(f"store a copy of {src}") as conn:
            cur = conn.execute(
                "INSERT INTO files (kind, role, set_names, format, options, source_path, size,"
                " sha256, imported_at, compression, data) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (kind, role, json.dumps(list(set_names)), format, json.dumps(dict(options or {})),
                 os.path.abspath(src), len(data), digest, now, compression, blob))
            fid = int(cur.lastrowid or 0)
        return FileRecord(fid, kind, role, tuple(set_names), format, dict(options or {}),
                          os.path.abspath(src), len(data), digest, now, True)

    def files(self, kind: str | None = None, *, active_only: bool = True) -> list[FileRecord]:
        sql = ("SELECT id, kind, role, set_names, format, options, source_path, size, sha256,"
               " imported_at, active FROM files WHERE (? IS NULL OR kind = ?)")
        if active_only:
            sql += " AND active = 1"
        out = []
        for r in self.conn.execute(sql + " ORDER BY id", (kind, kind)):
            try:
                names, options = tuple(json.loads(r[3])), json.loads(r[5])
            except (ValueError, TypeError):  # a damaged byte in the record: refused, never guessed
                raise ProjectError(f"{self.path}: the record of stored input file #{r[0]} is damaged "
                                   "(its set names or options are not valid JSON); run `hieradjudicate "
                                   "project repair` to keep what is intact") from None
            out.append(FileRecord(r[0], r[1], r[2], names, r[4], options, r[6], r[7], r[8], r[9],
                                  bool(r[10])))
        return out

    def file_bytes(self, file_id: int) -> bytes:
        """The stored copy, checked against its SHA-256."""
        row = self.conn.execute("SELECT compression, data, sha256, source_path FROM files"
                                " WHERE id = ?", (file_id,)).fetchone()
        if row is None:
            raise ProjectError(f"{self.path}: no stored file with id {file_id}")
        data = unpack_blob(row[0], row[1], row[2])
        if data is None:
            raise ProjectError(f"{self.path}: the stored copy of {row[3]} is damaged")
        return data

    def deactivate_file(self, file_id: int) -> None:
        """Mark a stored file as replaced (kept for the record, no longer loaded)."""
        with self._write("mark a file as replaced") as conn:
            conn.execute("UPDATE files SET active = 0 WHERE id = ?", (file_id,))

    # ----------------------------------------------------------------- arrays
    def put_arrays(self, name: str, arrays: Mapping[str, np.ndarray],
                   meta: Mapping[str, Any] | None = None, *, compress: bool = False) -> None:
        """Cache named arrays (e.g. a compiled corpus) as one ``.npz`` blob."""
        buf = io.BytesIO()
        named: dict[str, Any] = dict(arrays)
        if compress:
            np.savez_compressed(buf, **named)
        else:
            np.savez(buf, **named)
        with self._write(f"store the arrays {name!r}") as conn:
            conn.execute("INSERT OR REPLACE INTO arrays (name, meta, updated_at, data)"
                         " VALUES (?, ?, ?, ?)",
                         (name, json.dumps(dict(meta or {})), utc_now(), buf.getvalue()))

    def get_arrays(self, name: str) -> tuple[dict[str, np.ndarray], dict[str, Any]] | None:
        """``(arrays, meta)`` stored under ``name``, or ``None``."""
        row = self.conn.execute("SELECT data, meta FROM arrays WHERE name = ?", (name,)).fetchone()
        if row is None:
            return None
        with np.load(io.BytesIO(row[0]), allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
        return arrays, json.loads(row[1])

    def array_names(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM arrays ORDER BY name")]

    # -------------------------------------------------------------- decisions
    def append_decisions(self, decisions: Sequence[DecisionFields], *,
                         batch_label: str | None = None, batch_kind: str = "do",
                         created_by: str | None = None) -> list[DecisionRow]:
        """Append decisions in one committed transaction and return the stored rows.

        With ``batch_label`` a batch row is written too and every decision
        points at it.  Returns only after the commit is on disk.
        """
        try:
            rows = [check_decision(d) for d in decisions]
        except ValueError as exc:  # e.g. a control character in a note: a message, nothing saved
            raise InvalidDecision(f"{self.path}: not saved: {exc}") from None
        if not rows:
            return []
        label = f"{len(rows)} decision(s)" if batch_label is None else batch_label
        with self._write(f"save {label}") as conn:
            batch = None
            if batch_label is not None:
                cur = conn.execute("INSERT INTO batches (label, kind, created_by, created_at)"
                                   " VALUES (?, ?, ?, ?)",
                                   (batch_label, batch_kind, created_by or self.user(), utc_now()))
                batch = cur.lastrowid
            # Inside our write transaction every id above the previous maximum is ours.
            before = conn.execute("SELECT COALESCE(MAX(id), 0) FROM decisions").fetchone()[0]
            conn.executemany(
                "INSERT INTO decisions (lexelt, instance, tags, source, status, note,"
                " decided_by, decided_at, batch, basis) VALUES (?,?,?,?,?,?,?,?,?,?)",
                [(*values[:8], batch, values[8]) for values in rows])
            ids = [r[0] for r in conn.execute("SELECT id FROM decisions WHERE id > ? ORDER BY id",
                                              (before,))]
            if len(ids) != len(rows):
                raise sqlite3.IntegrityError(f"expected {len(rows)} new rows, found {len(ids)}")
            extend_chain(conn, ids)
        return [row_from_db((i, *v[:8], batch, v[8])) for i, v in zip(ids, rows, strict=True)]

    def latest_decisions(self, *, include_withdrawn: bool = True) -> list[DecisionRow]:
        """The current (latest) row of every instance that has one, in id order.

        With ``include_withdrawn=False`` instances whose latest row is a
        withdrawal (status ``unresolved``) are left out.
        """
        sql = (f"SELECT {self._columns} FROM decisions WHERE id IN"
               f" (SELECT MAX(id) FROM decisions WHERE 1{self._trusted} GROUP BY lexelt, instance)")
        if not include_withdrawn:
            sql += " AND status != 'unresolved'"
        return [row_from_db(r) for r in self.conn.execute(sql + " ORDER BY id")]

    def history(self, lexelt: str, instance: str) -> list[DecisionRow]:
        """Every row of one instance, oldest first."""
        sql = f"SELECT {self._columns} FROM decisions WHERE lexelt = ? AND instance = ?" \
              f"{self._trusted} ORDER BY id"
        return [row_from_db(r) for r in self.conn.execute(sql, (lexelt, instance))]

    def iter_history(self) -> Iterator[DecisionRow]:
        """Every decision row, oldest first."""
        for r in self.conn.execute(self._all_rows_sql(self._columns)):
            yield row_from_db(r)

    def _all_rows_sql(self, columns: str) -> str:
        """``columns`` of every trusted decision row, oldest first (the whole history's one query)."""
        return f"SELECT {columns} FROM decisions WHERE 1{self._trusted} ORDER BY id"

    def brief_history(self) -> list[BriefRow]:
        """Every decision row, oldest first, with only the columns the timeline reads (:class:`BriefRow`)."""
        return brief_rows(self.conn.execute(self._all_rows_sql(BRIEF_COLUMNS)))

    def history_reader(self, *, brief: bool = False) -> Callable[[], list[Any]]:
        """:meth:`iter_history` (``brief``: :meth:`brief_history`) as a function that reads through its
        own read-only connection, so that it may run in another thread (this store's connection stays in
        the thread that opened it): every trusted row saved when it is called, oldest first."""
        path, sql = self.path, self._all_rows_sql(BRIEF_COLUMNS if brief else self._columns)

        def read() -> list[Any]:
            conn = schema.read_only_connection(path)
            try:
                cur = conn.execute(sql)
                return brief_rows(cur) if brief else [row_from_db(r) for r in cur]
            finally:
                conn.close()
        return read

    def count_decisions(self) -> int:
        return int(self.conn.execute(f"SELECT COUNT(*) FROM decisions WHERE 1{self._trusted}")
                   .fetchone()[0])

    def batches(self) -> list[BatchRow]:
        return [BatchRow(*r) for r in self.conn.execute(
            "SELECT id, label, kind, created_by, created_at FROM batches ORDER BY id")]
