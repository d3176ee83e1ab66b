"""The current decision of a server project's instances, conflicts included.

In a file project the current decision of an instance is its latest row.  On a server, two
adjudicators may decide one instance (the two halves of a blind pair, or two people at the
same moment): when their current answers differ, the instance is *in conflict* until the lead
(or a published file row) decides it.  Then no adjudicator's row is the project's decision,
whichever was committed last: :func:`current_rows` gives such an instance a row of status
:data:`~hieradjudicate.io.store.records.CONFLICT` (no tags, the differing answers in its
note), so status, export, report and the live figures count it "in conflict", not resolved.

The rule (one SQL query, run with the caller's login: an adjudicator sees a conflict only once
row-level security shows both halves): after the last lead or file row of an instance, take
each adjudicator's latest row; if those that are not withdrawals differ in tags or status, the
instance is in conflict.  The lead's next decision closes it.  Undoing that decision writes a
withdrawal of source ``reopen`` whose basis names the row the conflict followed (``after``):
the conflict is open again, as it was.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from typing import Any

from hieradjudicate.io.store.pg.ddl import sound_sql
from hieradjudicate.io.store.records import CONFLICT, DecisionRow

#: latest adjudicator row per (instance, person) after the last lead (or file) row of the instance;
#: on a blind pair that has opened, each person's answer given while it was blind (``changed``:
#: they answered otherwise after it opened); ``{where}`` narrows both to some instances
_ADJ_LATEST = """
WITH last_lead AS (
    SELECT DISTINCT ON (lexelt, instance) lexelt, instance,
           CASE WHEN source = 'reopen' THEN COALESCE(substring(basis FROM '"after": *([0-9]{{1,18}})')::bigint, id)
                ELSE id END AS lid
    FROM decisions WHERE team_role <> 'adjudicator' AND {sound} {where} ORDER BY lexelt, instance, id DESC),
adj AS (
    SELECT DISTINCT ON (d.lexelt, d.instance, d.decided_by)
           d.lexelt, d.instance, d.decided_by, d.tags, d.status, d.note, d.id, d.decided_at,
           COALESCE(l.lid, 0) AS after,
           (p.opened IS NOT NULL AND EXISTS (
               SELECT 1 FROM decisions e WHERE e.lexelt = d.lexelt AND e.instance = d.instance
               AND e.decided_by = d.decided_by AND e.team_role = 'adjudicator' AND e.committed_at > p.opened
               AND e.id > COALESCE(l.lid, 0) AND (e.tags, e.status) <> (d.tags, d.status))) AS changed
    FROM decisions d LEFT JOIN last_lead l ON l.lexelt = d.lexelt AND l.instance = d.instance
    LEFT JOIN blind_pairs({pairs}) p ON p.lexelt = d.lexelt AND p.instance = d.instance
    WHERE d.team_role = 'adjudicator' AND d.id > COALESCE(l.lid, 0) AND {sound_d} {where_d}
      AND (p.opened IS NULL OR d.committed_at <= p.opened)
    ORDER BY d.lexelt, d.instance, d.decided_by, d.id DESC)
"""

_CONFLICTS = """,
decided AS (SELECT * FROM adj WHERE status <> 'unresolved')
SELECT lexelt, instance, decided_by, tags, status, note, id, decided_at, after, changed FROM decided
WHERE (lexelt, instance) IN (
    SELECT lexelt, instance FROM decided GROUP BY lexelt, instance
    HAVING count(DISTINCT (tags, status)) > 1 OR bool_or(changed))
ORDER BY lexelt, instance, decided_by
"""

_KEYS = "AND (lexelt, instance) IN (SELECT * FROM unnest(%s::text[], %s::text[]))"
_KEYS_D = "AND (d.lexelt, d.instance) IN (SELECT * FROM unnest(%s::text[], %s::text[]))"


def conflicts_sql(keyed: bool = False) -> str:
    """The conflict query: rows ``(lexelt, instance, decided_by, tags, status, note, id,
    decided_at, after, changed)``, one per adjudicator's current answer on an instance in conflict
    (``after``: the lead or file row the answers follow, 0 for none; on a blind pair, the answer
    given while it was blind, ``changed`` when the person answered otherwise after it opened: such
    an instance goes to the lead too).  ``keyed``: six parameters (lexelts, instances, three
    times) narrow it to some instances."""
    return _ADJ_LATEST.format(where=_KEYS if keyed else "", where_d=_KEYS_D if keyed else "",
                              pairs="%s::text[], %s::text[]" if keyed else "NULL, NULL",
                              sound=sound_sql(), sound_d=sound_sql("d")) + _CONFLICTS


def conflict_row(answers: list[tuple[Any, ...]]) -> DecisionRow:
    """The row standing for an instance in conflict (``answers``: its rows of the conflict query)."""
    parts = []
    for a in answers:
        tags = " ".join(json.loads(a[3]))
        parts.append(f"{a[2]}: {tags}" + ("" if a[4] == "resolved" else f" ({a[4]})")
                     + (" (changed after the pair opened)" if len(a) > 9 and a[9] else ""))
    return DecisionRow(max(int(a[6]) for a in answers), answers[0][0], answers[0][1], (), CONFLICT,
                       CONFLICT, "adjudicators differ: " + "; ".join(parts),
                       ", ".join(a[2] for a in answers), max(str(a[7]) for a in answers), None,
                       {"after": int(answers[0][8])})


def apply_conflicts(rows: Iterable[DecisionRow], found: list[tuple[Any, ...]]) -> list[DecisionRow]:
    """``rows`` (latest row per instance) with each instance in conflict given its conflict row."""
    grouped: dict[tuple[str, str], list[tuple[Any, ...]]] = {}
    for a in found:
        grouped.setdefault((a[0], a[1]), []).append(a)
    out = {r.key: r for r in rows}
    for key, answers in grouped.items():
        out[key] = conflict_row(answers)
    return sorted(out.values(), key=lambda r: r.id)


def key_params(keys: Collection[tuple[str, str]]) -> tuple[list[str], list[str]]:
    ks = sorted(keys)
    return [k[0] for k in ks], [k[1] for k in ks]
