"""Decisions from a CSV file (``project import-decisions``) and the tags of one decision.

Every problem names the file and line; nothing is recorded unless the whole file is valid.
A note may hold line breaks but no other control character (NUL, ESC...): they would reach
the terminal, the project and every export.  A sense id holding ``;`` (the export's tag
separator) is recognised against the inventory, so that an export imports back unchanged.
"""

from __future__ import annotations

import csv
import io
import os
from typing import Any

from hieradjudicate.core.errors import HieradjError
from hieradjudicate.core.inventory.inventory import SELF_SUFFIX
from hieradjudicate.io.store.records import CONTROL, NOTE_MAX

#: sources the program writes itself, never taken from a file: re-import replaces an
#: ``auto-agreement`` decision when the annotations change, and ``undo`` marks a withdrawal
RESERVED_SOURCES = {"auto-agreement": "decisions it took from the annotators' agreement",
                    "undo": "the rows an undo writes"}


def split_tags(session: Any, lexelt: str, cell: str) -> list[str]:
    """The tags of a CSV cell: separated by ``;`` or spaces, except that a sense id holding ``;``
    (known to the lexelt's inventory) is kept whole, so that the export round-trips."""
    inv = session.corpus.inventory
    out: list[str] = []
    for word in cell.split():
        parts = word.split(";")
        k = 0
        while k < len(parts):
            for j in range(min(len(parts), k + 8), k + 1, -1):  # the longest run that is one id
                joined = ";".join(parts[k:j])
                if inv.lookup(lexelt, joined) >= 0:
                    out.append(joined)
                    k = j
                    break
            else:
                if parts[k]:
                    out.append(parts[k])
                k += 1
    return out


def check_tags(session: Any, lexelt: str, instance: str, tags: list[str],
                where: str) -> tuple[str, ...]:
    """The tags as inventory sense ids (an alias becomes its sense id); errors name ``where``."""
    corpus = session.corpus
    inv = corpus.inventory
    if corpus.instance_index(lexelt, instance) < 0:
        # all-words data: the lexelt comes from the key's first sense, so the id alone may not say it
        owners = [inv.lexelts[int(corpus.inst_lexelt[i])] for i, x in enumerate(corpus.inst_id) if x == instance]
        hint = f"; {instance} is an instance of {', '.join(owners[:3])}" if owners else ""
        raise HieradjError(f"{where}: no instance {lexelt} {instance} in the project{hint}")
    nodes = [inv.lookup(lexelt, t) for t in tags]
    unknown = [t for t, n in zip(tags, nodes, strict=True) if n < 0]
    if unknown:
        every = [inv.node_id[n] for n in inv.lexelt_nodes[inv.lexelt_index(lexelt)].tolist()]
        every = [x for x in every if not x.endswith(SELF_SUFFIX)]  # a group head's own leaf: its head's id
        ids, more = every[:12], len(every) - 12
        raise HieradjError(f"{where}: {', '.join(unknown)} is not a sense of {lexelt} (its senses: "
                           f"{', '.join(ids)}{f' and {more} more' if more > 0 else ''})")
    return tuple(dict.fromkeys(inv.node_id[n] for n in nodes))


def read_decisions_csv(path: str, session: Any) -> list[Any]:
    """Decisions of a CSV file; every problem names the file and line (nothing is recorded
    unless the whole file is valid)."""
    from hieradjudicate.app.session.decisions import Decision
    from hieradjudicate.io.exports.csvsafe import restore_csv_cell
    from hieradjudicate.io.store.schema import STATUSES
    from hieradjudicate.io.textfile import read_bytes

    from hieradjudicate.io.textfile import SAVE_AS_CSV, spreadsheet_kind

    try:  # bounded like every input (size and line limits), then UTF-8 with or without a BOM
        raw = read_bytes(path, line_limit=False)
        office = spreadsheet_kind(raw)
        if office is not None:
            raise HieradjError(f"{path}: this is {office}, not a CSV file; {SAVE_AS_CSV}")
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise HieradjError(f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    except OSError as exc:
        raise HieradjError(f"{path}: cannot read the file ({exc})") from None
    bad = CONTROL.search(text)
    if bad is not None:  # NUL, ESC...: never part of a note or an id (LF, CR and TAB are)
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise HieradjError(f"{path}:{line}:{col}: control character 0x{ord(bad.group()):02x}; "
                           "expected text (notes keep line breaks and tabs, no other control "
                           "characters)")
    first = text.split("\n", 1)[0]
    # a comma, a tab, or (a spreadsheet's CSV in many locales) a semicolon between the header's columns
    delim = next((d for d in ("\t", ";") if d in first and "," not in first), ",")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim)
    header = [h.strip().lower() for h in next(reader, [])]
    missing = [c for c in ("lexelt", "instance", "tags") if c not in header]
    if missing:
        found = ", ".join(repr(h) for h in header[:8]) + (" ..." if len(header) > 8 else "")
        raise HieradjError(f"{path}:1: missing column(s) {', '.join(missing)} (need lexelt, "
                           f"instance, tags; optional status, note, source); the header has {found or 'nothing'}")
    col = {h: k for k, h in enumerate(header)}
    out: list[Any] = []
    seen: dict[tuple[str, str], int] = {}
    for values in reader:
        line = reader.line_num
        if not any(v.strip() for v in values):
            continue
        if len(values) != len(header):
            raise HieradjError(f"{path}:{line}: expected {len(header)} fields, got {len(values)}")
        # our exports guard cells against spreadsheet formulas ('=x); undo it exactly. A note keeps
        # its spaces and line breaks; the other fields are ids and words
        f = {h: restore_csv_cell(values[k]) if h == "note" else restore_csv_cell(values[k].strip())
             for h, k in col.items()}
        tags = split_tags(session, f["lexelt"], f["tags"])
        status = f.get("status") or "resolved"
        where = f"{path}:{line}"
        if status not in STATUSES:
            raise HieradjError(f"{where}: status must be one of {', '.join(STATUSES)}, "
                               f"not {status!r}")
        canonical = check_tags(session, f["lexelt"], f["instance"], tags, where)
        key = (f["lexelt"], f["instance"])
        if key in seen:
            raise HieradjError(f"{where}: {key[0]} {key[1]} is already decided on line {seen[key]}")
        seen[key] = line
        source, note = f.get("source") or "import", f.get("note", "")
        if source in RESERVED_SOURCES:
            raise HieradjError(f"{where}: the source {source!r} is the program's own (it marks "
                               f"{RESERVED_SOURCES[source]}); give another, e.g. import or set:NAME")
        if len(note) > NOTE_MAX:
            raise HieradjError(f"{where}: the note has {len(note):,} characters; at most "
                               f"{NOTE_MAX:,} are kept")
        try:
            out.append(Decision(key[0], key[1], canonical, source, status,
                                note, basis={"file": os.path.abspath(path),
                                                          "line": line}))
        except ValueError as exc:
            raise HieradjError(f"{where}: {str(exc).split(': ', 1)[-1]}") from None
    return out
