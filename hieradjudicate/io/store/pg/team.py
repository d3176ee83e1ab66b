"""The lead's queries on a server project: assignments, the conflict queue, per-adjudicator rows.

Plain SQL over the project's tables, run with the caller's login (row-level security applies:
an adjudicator who runs them sees only what they may see).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.pg.current import conflicts_sql
from hieradjudicate.io.store.pg.ddl import sound_sql
from hieradjudicate.io.store.pg.store import SOUND, PgStore, _first_line, _psycopg


@dataclass(frozen=True)
class ConflictRow:
    """One adjudicator's current answer on an instance in conflict."""

    lexelt: str
    instance: str
    decided_by: str
    tags: str  # JSON list, as stored
    status: str
    note: str
    id: int
    decided_at: str = ""
    after: int = 0  # the lead or file row the answers follow (0: none)
    #: on a blind pair: this is the answer given while it was blind, and the person answered
    #: otherwise after it opened (the window and ``conflicts`` say so)
    changed: bool = False


def require_lead(store: PgStore, what: str) -> None:
    if "lead" not in store.roles:
        raise ProjectError(f"{store.location}: only the project's lead may {what} ({store.login} is "
                           f"{', '.join(sorted(store.roles)) or 'not a member'})")


def conflicts(store: PgStore) -> list[ConflictRow]:
    """Instances whose adjudicators' current answers differ and that the lead has not decided
    since (a blind pair that disagrees, or two people deciding one instance at once)."""
    return [ConflictRow(*r) for r in store._read(conflicts_sql())]


def assigned(store: PgStore) -> list[tuple[str, str, str, bool]]:
    """Every assignment this login may see: (lexelt, instance, adjudicator, blind)."""
    return [tuple(r) for r in store._read(
        "SELECT lexelt, instance, adjudicator, blind FROM assignments"
        " ORDER BY lexelt, instance, adjudicator")]


def write_assignments(store: PgStore, rows: Sequence[tuple[str, str, str, bool]]) -> int:
    """Record assignments in one transaction (the lead's); an existing one is left as it is."""
    require_lead(store, "assign work")
    psycopg = _psycopg()
    conn = store.conn
    try:
        with conn.transaction(), conn.cursor() as cur:
            cur.execute("CREATE TEMP TABLE new_assign (lexelt text, instance text, adjudicator text,"
                        " blind boolean) ON COMMIT DROP")
            with cur.copy("COPY new_assign FROM STDIN") as cp:
                for row in rows:
                    cp.write_row(row)
            cur.execute("INSERT INTO assignments (lexelt, instance, adjudicator, blind)"
                        " SELECT lexelt, instance, adjudicator, blind FROM new_assign"
                        " ON CONFLICT DO NOTHING")
            return int(cur.rowcount)
    except psycopg.Error as exc:
        raise ProjectError(f"{store.location}: could not record the assignments ({_first_line(exc)}); "
                           "nothing was assigned") from None


def team_members(store: PgStore) -> dict[str, list[str]]:
    """Logins per project role."""
    from hieradjudicate.io.store.pg.transfer import members

    with store.conn.cursor() as cur:
        return {kind: members(cur, store.location, kind) for kind in ("lead", "adjudicator", "viewer")}


def adjudicator_rows(store: PgStore) -> list[tuple[Any, ...]]:
    """Every adjudicator decision: (lexelt, instance, decided_by, tags, status, id, committed_at
    as seconds since the epoch, when its blind pair opened, same unit (None when it is not on an
    open blind pair), and its batch)."""
    return store._read("SELECT d.lexelt, d.instance, d.decided_by, d.tags, d.status, d.id,"
                       " extract(epoch FROM d.committed_at)::float8, extract(epoch FROM p.opened)::float8,"
                       " d.batch FROM decisions d LEFT JOIN blind_pairs() p ON p.lexelt = d.lexelt"
                       f" AND p.instance = d.instance WHERE d.team_role = 'adjudicator' AND {sound_sql('d')}"
                       " ORDER BY d.id")


def lead_rows(store: PgStore) -> list[tuple[Any, ...]]:
    """The lead's decisions made in the server project: (lexelt, instance, tags, status, id,
    committed_at as seconds since the epoch)."""
    return store._read("SELECT lexelt, instance, tags, status, id, extract(epoch FROM committed_at)::float8"
                       " FROM decisions"
                       f" WHERE team_role = 'lead' AND {SOUND} ORDER BY id")
