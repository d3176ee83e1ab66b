"""Records of the project store: decision rows, batches, file copies, and their SQL mapping.

Kept apart from :mod:`hieradjudicate.io.store.project_store` (which re-exports them) so that
the store module stays about opening, locking and transactions.
"""

from __future__ import annotations

import getpass
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

from hieradjudicate.core.gc_policy import gc_paused
from hieradjudicate.io.store.schema import STATUSES

#: the status of an instance whose adjudicators' answers differ on a server project (never stored:
#: the store reports it, see :mod:`hieradjudicate.io.store.pg.current`); not resolved until the
#: lead decides
CONFLICT = "conflict"


def utc_now() -> str:
    """The current time as ISO 8601 UTC with milliseconds, e.g. ``2026-01-31T12:00:00.000Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def login_name() -> str:
    """The login name of the user, or ``"unknown"`` when the system cannot say."""
    try:
        return getpass.getuser()
    except (KeyError, OSError, ImportError):  # no name configured for this uid
        return "unknown"


class DecisionFields(Protocol):
    """What the store needs of a decision (``app.decisions.Decision`` has these)."""

    @property
    def lexelt(self) -> str: ...
    @property
    def instance(self) -> str: ...
    @property
    def tags(self) -> Sequence[str]: ...
    @property
    def source(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def note(self) -> str: ...
    @property
    def decided_by(self) -> str: ...
    @property
    def decided_at(self) -> str: ...
    @property
    def basis(self) -> Mapping[str, Any] | None: ...


@dataclass(frozen=True, slots=True)
class DecisionRow:
    """One stored row of the decision history."""

    id: int
    lexelt: str
    instance: str
    tags: tuple[str, ...]
    source: str
    status: str
    note: str
    decided_by: str
    decided_at: str
    batch: int | None = None
    basis: dict[str, Any] | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.lexelt, self.instance)


@dataclass(frozen=True)
class BatchRow:
    """One command's worth of decisions (a batch, an undo, a redo)."""

    id: int
    label: str
    kind: str
    created_by: str
    created_at: str


@dataclass(frozen=True)
class FileRecord:
    """An imported file whose bytes the project keeps a copy of."""

    id: int
    kind: str
    role: str | None
    set_names: tuple[str, ...]
    format: str | None
    options: dict[str, Any]
    source_path: str
    size: int
    sha256: str
    imported_at: str
    active: bool = field(default=True)



#: the longest note the program stores (characters); a server refuses a longer one too
NOTE_MAX = 10_000

#: control characters no stored text may hold (LF, CR and TAB may: notes keep line breaks)
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # C1 too: U+009B is a terminal's CSI


def check_decision(d: DecisionFields) -> tuple[Any, ...]:
    """Validate one decision and return its column values (tags and basis as JSON)."""
    where = f"decision for {d.lexelt!r} {d.instance!r}"
    for name in ("lexelt", "instance", "source", "status", "note", "decided_by", "decided_at"):
        value = getattr(d, name) or ""
        if isinstance(value, str) and CONTROL.search(value):
            raise ValueError(f"{where}: the {name} holds a control character "
                             f"(0x{ord(CONTROL.search(value).group()):02x}); expected text")
    if not d.lexelt or not d.instance:
        raise ValueError(f"{where}: lexelt and instance must not be empty")
    if len(d.note or "") > NOTE_MAX:
        raise ValueError(f"{where}: the note has {len(d.note):,} characters; at most {NOTE_MAX:,} "
                         "are kept")
    if d.status not in STATUSES:
        raise ValueError(f"{where}: status must be one of {STATUSES}, not {d.status!r}")
    tags = list(d.tags)
    if any(not isinstance(t, str) or not t for t in tags):
        raise ValueError(f"{where}: tags must be non-empty strings")
    if any(CONTROL.search(t) for t in tags):
        raise ValueError(f"{where}: a tag holds a control character; expected a sense id")
    if d.status == "resolved" and not tags:
        raise ValueError(f"{where}: a resolved decision needs at least one tag")
    if not d.source or not d.decided_by or not d.decided_at:
        raise ValueError(f"{where}: source, decided_by and decided_at are required")
    basis = None if d.basis is None else json.dumps(dict(d.basis), sort_keys=True)
    return (d.lexelt, d.instance, _tags_json(tuple(tags)), d.source, d.status, d.note or "",
            d.decided_by, d.decided_at, basis)


@lru_cache(maxsize=65536)
def _tags_json(tags: tuple[str, ...]) -> str:
    return json.dumps(list(tags))


@lru_cache(maxsize=65536)
def _tags(text: str) -> tuple[str, ...]:
    # Projects repeat few distinct tag lists; parsing each once halves the load time.
    return tuple(json.loads(text))


class BriefRow(NamedTuple):
    """The columns of a decision row that the timeline reads: one tuple per row (building a
    :class:`DecisionRow` field by field took half of reading MASC's 44,682 rows)."""

    id: int
    lexelt: str
    instance: str
    tags: tuple[str, ...]
    status: str
    decided_by: str
    decided_at: str


#: the columns of :class:`BriefRow`, in its order
BRIEF_COLUMNS = "id, lexelt, instance, tags, status, decided_by, decided_at"


def brief_rows(rows: Iterable[Sequence[Any]]) -> list[BriefRow]:
    """Rows of :data:`BRIEF_COLUMNS` as :class:`BriefRow` (the tags parsed once per distinct list)."""
    tags, make = _tags, BriefRow
    with gc_paused():  # tens of thousands of tuples and no cycle among them
        return [make(i, lex, inst, tags(t), st, by, at) for i, lex, inst, t, st, by, at in rows]


def row_from_db(r: Sequence[Any]) -> DecisionRow:
    return DecisionRow(r[0], r[1], r[2], _tags(r[3]), r[4], r[5], r[6], r[7], r[8], r[9],
                       None if r[10] is None else json.loads(r[10]))
