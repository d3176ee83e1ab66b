"""``project publish P.hadj URL`` and ``project pull URL P.hadj``: a project between file and server.

Publishing copies everything the file holds (meta, settings, stored input files, the corpus cache,
batches and every decision row with its id) into a new schema in one transaction, then switches
on the rights (:mod:`.ddl`); a failure leaves nothing on the server.  The history rows keep who
made them in the file (``team_role = 'file'``).  Pulling writes a new ``.hadj`` (built under a
temporary name and renamed into place) with the rows the login may read, ids kept, and the hash
chain of the file store computed over them.
"""

from __future__ import annotations

import os
from pathlib import Path
from collections.abc import Sequence
from typing import Any

from hieradjudicate import __version__
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.pg import ddl
from hieradjudicate.io.store.pg.location import ServerLocation, parse_location
from hieradjudicate.io.store.pg.store import SOUND, PgStore, _first_line, _psycopg, connect
from hieradjudicate.io.store.records import login_name, utc_now

_DECISION_COLS = ("id", "lexelt", "instance", "tags", "source", "status", "note", "decided_by",
                  "decided_at", "batch", "basis")
_FILE_COLS = ("id", "kind", "role", "set_names", "format", "options", "source_path", "size", "sha256",
              "imported_at", "compression", "active", "data")


def publish(path: str | os.PathLike[str], url: str, *, senses: Sequence[tuple[str, str]]) -> dict[str, int]:
    """Copy a file project into a new server project; returns counts of what was copied.

    ``senses``: every (lexelt, tag) of its inventory, the tags the server will accept
    (:func:`hieradjudicate.app.team.publish_project` reads them from the project)."""
    from hieradjudicate.io.store.project_store import Store

    loc = parse_location(url)
    psycopg = _psycopg()
    counts = {"files": 0, "arrays": 0, "batches": 0, "decisions": 0}
    with Store.open(path, read_only=True) as src:
        if src.bad_ids:
            raise ProjectError(f"{path}: {len(src.bad_ids)} decision row(s) fail their checksum; "
                               "run hieradjudicate project check / repair before publishing")
        conn = connect(loc, autocommit=False)
        try:
            with conn.cursor() as cur:
                cur.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (loc.schema,))
                if cur.fetchone() is not None:
                    raise ProjectError(f"{loc}: a project {loc.project!r} exists already in "
                                       f"{loc.dbname}; choose another ?project= name")
                _create(cur, loc)
                cur.execute("SELECT set_config('search_path', %s, true)", (loc.schema,))
                meta = {k: v for k, v in src.meta().items() if k not in ("lock_owner", "schema_version")
                        and not k.startswith("decisions_head")}
                meta.update({"schema_version": ddl.PG_SCHEMA_VERSION, "project": loc.project,
                             "published_from": str(Path(path).resolve()), "published_at": utc_now(),
                             "published_by": login_name(), "app_version_published": __version__})
                cur.executemany("INSERT INTO meta (key, value) VALUES (%s, %s)", list(meta.items()))
                cur.executemany("INSERT INTO settings (key, value) VALUES (%s, %s)",
                                src.conn.execute("SELECT key, value FROM settings").fetchall())
                for row in src.conn.execute(f"SELECT {', '.join(_FILE_COLS)} FROM files ORDER BY id"):
                    cur.execute(f"INSERT INTO files ({', '.join(_FILE_COLS)}) VALUES "
                                f"({', '.join(['%s'] * len(_FILE_COLS))})",
                                (*row[:11], bool(row[11]), bytes(row[12])))
                    counts["files"] += 1
                for row in src.conn.execute("SELECT name, meta, updated_at, data FROM arrays"):
                    cur.execute("INSERT INTO arrays (name, meta, updated_at, data) VALUES (%s,%s,%s,%s)",
                                (row[0], row[1], row[2], bytes(row[3])))
                    counts["arrays"] += 1
                with cur.copy("COPY batches (id, label, kind, created_by, created_at) FROM STDIN") as cp:
                    for row in src.conn.execute("SELECT id, label, kind, created_by, created_at "
                                                "FROM batches ORDER BY id"):
                        cp.write_row(row)
                        counts["batches"] += 1
                cols = src._columns  # NULL basis for an old file read as it is
                with cur.copy(f"COPY decisions ({', '.join(_DECISION_COLS)}, team_role) FROM STDIN") as cp:
                    for row in src.conn.execute(f"SELECT {cols} FROM decisions ORDER BY id"):
                        cp.write_row((*row, "file"))
                        counts["decisions"] += 1
                with cur.copy("COPY senses (lexelt, sense) FROM STDIN") as cp:
                    for row in senses:
                        cp.write_row(row)
                # ids, rights, checks: from here on every row is written as the program writes it
                cur.execute("SELECT hieradjudicate.seal_project(%s)", (loc.project,))
            conn.commit()
        except ProjectError:
            conn.rollback()
            raise
        except psycopg.Error as exc:
            conn.rollback()
            hint = ""
            if isinstance(exc, psycopg.errors.InsufficientPrivilege):
                hint = ("; the database's administrator names the logins that may publish: "
                        "hieradjudicate server setup ADMIN_URL --leads LOGIN")
            raise ProjectError(f"{loc}: publishing failed, nothing was stored on the server "
                               f"({_first_line(exc)}){hint}") from None
        finally:
            conn.close()
    return counts


def _create(cur: Any, loc: ServerLocation) -> None:
    """The project's schema and roles, by the database's set-up function (the caller becomes lead)."""
    from hieradjudicate.io.store.pg.setup import not_set_up

    psycopg = _psycopg()
    try:
        cur.execute("SELECT hieradjudicate.create_project(%s)", (loc.project,))
    except psycopg.Error as exc:
        why = not_set_up(loc, exc)
        if why is not None:
            raise ProjectError(why + "; nothing was stored on the server") from None
        raise


def inventory_senses(inv: Any) -> list[tuple[str, str]]:
    """Every (lexelt, sense id or alias) of an inventory, tags outside the inventory files included."""
    out: set[tuple[str, str]] = set()
    for x, lexelt in enumerate(inv.lexelts):
        out.update((lexelt, inv.node_id[int(n)]) for n in inv.lexelt_nodes[x])
        out.update((lexelt, tag) for tag in inv._lookup[x])
    return sorted(out)


def pull(url: str, path: str | os.PathLike[str], *, overwrite: bool = False) -> dict[str, int]:
    """Write a server project (what this login may read) into a new ``.hadj`` file."""
    from hieradjudicate.io.store.chain import extend
    from hieradjudicate.io.store.project_store import Store
    from hieradjudicate.io.store.sidecars import remove_build

    target = Path(path)
    if target.exists() and not overwrite:
        raise ProjectError(f"{target}: already exists (choose another name or --overwrite)")
    if not target.parent.is_dir():
        raise ProjectError(f"{target}: the folder {target.parent} does not exist")
    loc: ServerLocation = parse_location(url)
    counts = {"files": 0, "arrays": 0, "batches": 0, "decisions": 0}
    tmp = target.with_name(f".{target.name}.pull-{os.getpid()}")
    remove_build(tmp)
    try:
        with PgStore.open(loc, read_only=True) as server, Store.create(tmp) as dest:
            read = server._read
            with dest.transaction("copy the server project") as conn:
                skip = {"schema_version", "project", "app_version", "created", "created_by"}
                conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                                 [(k, v) for k, v in server.meta().items() if k not in skip]
                                 + [("pulled_from", str(loc)), ("pulled_at", utc_now())])
                conn.executemany("INSERT INTO settings (key, value) VALUES (?, ?)",
                                 read("SELECT key, value FROM settings"))
                for row in read(f"SELECT {', '.join(_FILE_COLS)} FROM files ORDER BY id", binary=True):
                    conn.execute(f"INSERT INTO files ({', '.join(_FILE_COLS)}) VALUES "
                                 f"({', '.join('?' * len(_FILE_COLS))})",
                                 (*row[:11], int(row[11]), bytes(row[12])))
                    counts["files"] += 1
                for row in read("SELECT name, meta, updated_at, data FROM arrays", binary=True):
                    conn.execute("INSERT INTO arrays VALUES (?, ?, ?, ?)", (*row[:3], bytes(row[3])))
                    counts["arrays"] += 1
                batches = read("SELECT id, label, kind, created_by, created_at FROM batches ORDER BY id")
                conn.executemany("INSERT INTO batches VALUES (?, ?, ?, ?, ?)", batches)
                counts["batches"] = len(batches)
                # a row the program cannot use stays out of the file (named by every command)
                rows = read(f"SELECT {', '.join(_DECISION_COLS)} FROM decisions WHERE {SOUND} ORDER BY id")
                conn.executemany(f"INSERT INTO decisions ({', '.join(_DECISION_COLS)}) VALUES "
                                 f"({', '.join('?' * len(_DECISION_COLS))})", rows)
                counts["decisions"] = len(rows)
                if rows:
                    extend(conn, [r[0] for r in rows])
        Store.replace_into(tmp, target)
    except BaseException:
        remove_build(tmp)
        raise
    return counts


def grant(url: str, people: dict[str, list[str]], *, remove: bool = False) -> list[str]:
    """Give logins a role in the project (``{"adjudicator": ["alice"], ...}``), or take it back
    (``remove``); the lead's command, through the database's set-up function (no CREATEROLE).

    The logins must exist on the server (the database administrator makes them, with their
    passwords); nothing here sees or sets a password.
    """
    loc = parse_location(url)
    psycopg = _psycopg()
    done = []
    with connect(loc, autocommit=False) as conn:
        try:
            with conn.cursor() as cur:
                for kind, logins in people.items():
                    for login in logins:
                        cur.execute("SELECT hieradjudicate.set_member(%s, %s, %s, %s)",
                                    (loc.project, kind, login, not remove))
                        done.append(f"{login}: {kind}")
            conn.commit()
        except psycopg.Error as exc:
            conn.rollback()
            from hieradjudicate.io.store.pg.setup import not_set_up

            verb = "take back" if remove else "give"
            why = not_set_up(loc, exc) or f"{loc}: could not {verb} the roles ({_first_line(exc)})"
            raise ProjectError(f"{why}; nothing was changed") from None
    return done


def members(cur: Any, loc: ServerLocation, kind: str) -> list[str]:
    """The logins holding a project role."""
    cur.execute("SELECT r.rolname FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member"
                " WHERE m.roleid = (SELECT oid FROM pg_roles WHERE rolname = %s) AND r.rolcanlogin"
                " ORDER BY r.rolname", (loc.role(kind),))
    return [r[0] for r in cur.fetchall()]
