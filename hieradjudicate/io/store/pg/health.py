"""``project check URL``: is a server project as the program wrote it?

Three checks, read-only, each a :class:`~hieradjudicate.io.store.health.Finding`:

* **rights**: the tables are owned by the database's owner role, the append-only, check and
  chain triggers are on and row-level security is forced (an administrator may have switched
  them off);
* **decision rows**: every row is one the program can use (the rest are named: id, instance,
  why; every command leaves them out);
* **chain**: every login's rows follow their chain (``seq``, ``link``; see :mod:`.ddl`): a row
  changed after it was written, a row removed, or a row added with the checks off is named.
  The chain is recomputed here, in the program, from the rows as the server returns them.

The whole history is read only by a lead or a viewer; an adjudicator's check says so.
"""

from __future__ import annotations

import hashlib
from typing import Any

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.health import Finding
from hieradjudicate.io.store.pg import ddl
from hieradjudicate.io.store.pg.store import PgStore

_TRIGGERS = ("decisions_1_check", "decisions_append_only", "decisions_no_truncate",
             "decisions_notify", "batches_append_only", "batches_no_truncate", "batches_1_check")


def check_server(url: str) -> list[Finding]:
    try:
        store = PgStore.open(url, read_only=True)
    except ProjectError as exc:
        return [Finding("project", False, str(exc))]
    with store:
        out = [Finding("project", True, f"server project {store.location.project} in {store.location.dbname}, "
                       f"opened as {store.login} ({', '.join(sorted(store.roles))})")]
        out.append(_rights(store))
        left = store.left_out
        out.append(Finding("decision rows", not left, "every row readable by this login is usable" if not left
                           else f"{len(left)} row(s) the program cannot use (left out of everything): "
                           + "; ".join(left[:20]) + ("; ..." if len(left) > 20 else "")))
        if not ({"lead", "viewer"} & store.roles):
            out.append(Finding("chain", True, "not verified: only the project's lead or a viewer reads "
                               "every row"))
        else:
            problems, n = verify_chain(store)
            out.append(Finding("chain", not problems, f"{n} row(s) verified" if not problems
                               else f"{len(problems)} problem(s): " + "; ".join(problems[:20])
                               + ("; ..." if len(problems) > 20 else "")))
    return out


def _rights(store: PgStore) -> Finding:
    loc = store.location
    owner = loc.db_role("owner")
    rows = store._read(
        "SELECT c.relname, pg_get_userbyid(c.relowner), c.relrowsecurity, c.relforcerowsecurity"
        " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = %s AND c.relkind = 'r'", (loc.schema,))
    wrong = [f"table {name} is owned by {who}, not {owner}" for name, who, _r, _f in rows if who != owner]
    wrong += [f"row-level security of {name} is not forced" for name, _w, on, forced in rows
              if name in ("decisions", "batches", "assignments") and not (on and forced)]
    triggers = dict(store._read(
        "SELECT t.tgname, t.tgenabled FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
        " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND NOT t.tgisinternal",
        (loc.schema,)))
    wrong += [f"trigger {t} is {'missing' if t not in triggers else 'switched off'}" for t in _TRIGGERS
              if triggers.get(t, "D") == "D"]
    return Finding("rights", not wrong, "tables owned by the database's owner role, triggers on, "
                   "row-level security forced" if not wrong else "; ".join(wrong))


def verify_chain(store: PgStore) -> tuple[list[str], int]:
    """Problems of every login's chain (``#id (lexelt instance): what``) and the rows checked."""
    text = ddl.CHAIN_TEXT.format(r="")
    rows = store._read(
        "SELECT CASE WHEN team_role = 'file' THEN '' ELSE decided_by END, seq, link, id, lexelt, instance,"
        f" {text} FROM decisions ORDER BY 1, seq NULLS FIRST, id")
    heads = {who: (int(n), link) for who, n, link in store._read("SELECT who, n, link FROM chain_heads")}
    problems: list[str] = []
    last: dict[str, int] = {}
    prev_link, prev_seq, prev_who = "", 0, None
    for who, seq, link, ident, lexelt, instance, fields in rows:
        if who != prev_who:
            prev_link, prev_seq, prev_who = "", 0, who
        name = f"#{ident} ({lexelt} {instance})"
        if seq is None:
            problems.append(f"{name}: not chained (written with the server's checks off)")
            continue
        if seq != prev_seq + 1:
            gap = f"{prev_seq + 1}" if seq == prev_seq + 2 else f"{prev_seq + 1}-{seq - 1}"
            problems.append(f"{name}: row(s) {gap} of {_chain_name(who)} before it are missing"
                            if seq > prev_seq + 1 else f"{name}: repeats place {seq} of {_chain_name(who)}")
        if _link(prev_link, fields) != link:
            problems.append(f"{name}: changed after it was written")
        prev_link, prev_seq = link or "", int(seq)
        last[who] = int(seq)
    for who, (n, _link_head) in heads.items():
        if n > last.get(who, 0):
            problems.append(f"{n - last.get(who, 0)} row(s) at the end of {_chain_name(who)} are missing")
    return problems, len(rows)


def _chain_name(who: str) -> str:
    return "the published history" if who == "" else f"{who}'s rows"


def _link(previous: str, fields: Any) -> str:
    return hashlib.sha256((previous + "|" + str(fields)).encode("utf-8")).hexdigest()
