"""Decisions and the in-memory state of a project's adjudication.

A :class:`Decision` is what the lexicographer decided for one instance: the
gold tags (inventory node ids at any depth), where they came from
(``source``), a status, a note, who and when.  The store keeps every
decision ever made (append-only); :class:`DecisionState` holds the current
one per instance (the latest row) and asks the store for the history.

An instance without a decision is *unresolved*.  A row with status
``unresolved`` withdraws the previous decision (that is what undoing a first
decision writes), so the state treats it as no decision.

Markers: the note and the flag
    A note and a flag are the lexicographer's marks on the *instance*, not
    decisions: they stay through every later decision (a key, a suggestion,
    a batch, an import) until the user changes them (edits or clears the
    note, unflags).  Every row holds the instance's whole state, so a later
    decision carries them forward (:func:`compose`); history, export and
    both stores read the same rows.

    * The note is the row's ``note``.  A note on an instance without a
      decision is a row of status ``unresolved`` with that note (a *note
      row*): the instance stays unresolved -- a note alone is no status --
      and :meth:`DecisionState.current` still says "no decision".
    * The flag is status ``flagged``; the row keeps the tags of the decision
      under it, which is not gold while the flag is on (a flag means "to
      discuss").  Deciding a flagged instance changes the tags under the
      flag; skipping it leaves it flagged; only unflagging removes the flag
      (the decision under it is then resolved, or unresolved without tags).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hieradjudicate.io.store.project_store import DecisionRow, Store, utc_now
from hieradjudicate.io.store.records import CONFLICT
from hieradjudicate.io.store.schema import STATUSES

#: Usual sources besides ``set:<name>`` (others are allowed, e.g. by later features).
SOURCES = ("manual", "auto-agreement", "suggestion", "import", "undo")

Key = tuple[str, str]
Listener = Callable[[list[DecisionRow]], None]


@dataclass(frozen=True)
class Decision:
    """One decision about one instance.

    ``decided_by`` and ``decided_at`` may be left empty: the state fills them
    in (the project's user, the current UTC time) when it records the decision.
    ``basis`` says what the decision rested on, e.g. ``{"set": "A", "tags":
    ["1", "2"]}`` for an annotation set's answer; re-import compares it.
    """

    lexelt: str
    instance: str
    tags: tuple[str, ...] = ()
    source: str = "manual"
    status: str = "resolved"
    note: str = ""
    decided_by: str = ""
    decided_at: str = ""
    basis: Mapping[str, Any] | None = field(default=None, compare=True)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", tuple(self.tags))
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, not {self.status!r}")
        if self.status == "resolved" and not self.tags:
            raise ValueError(f"{self.lexelt} {self.instance}: a resolved decision needs a tag")
        if self.status == "unresolved" and self.tags:
            raise ValueError(f"{self.lexelt} {self.instance}: a withdrawal carries no tags")
        if not self.source or not self.source.isprintable():
            raise ValueError(f"source must be set:<name> or e.g. one of {SOURCES}")

    @property
    def key(self) -> Key:
        return (self.lexelt, self.instance)

    @classmethod
    def from_row(cls, row: DecisionRow) -> Decision:
        """The decision a stored row holds (its id and batch dropped)."""
        return cls(row.lexelt, row.instance, row.tags, row.source, row.status, row.note,
                   row.decided_by, row.decided_at, row.basis)

    @classmethod
    def withdrawal(cls, lexelt: str, instance: str, note: str = "",
                   source: str = "undo") -> Decision:
        """The row that makes an instance unresolved again."""
        return cls(lexelt, instance, (), source, "unresolved", note)


def is_note_row(row: DecisionRow | Decision | None) -> bool:
    """A row that only keeps a note on an instance without a decision (status ``unresolved``; the
    program's own words on a reopened conflict are no note)."""
    return row is not None and row.status == "unresolved" and bool(row.note) and row.source != "reopen"


def compose(lexelt: str, instance: str, shown: DecisionRow | None, *, tags: Sequence[str] | None = None,
            status: str | None = None, source: str | None = None, basis: Mapping[str, Any] | None = None,
            flag: bool | None = None, note: str | None = None) -> Decision:
    """The row that applies one change to an instance and keeps everything the change leaves alone.

    ``shown``: the instance's current row (a decision or a note row; ``None``: nothing yet).
    ``status``: the decision's own status -- ``resolved``, ``skipped``, ``unresolved`` (no decision);
    ``tags``, ``source`` and ``basis`` come with a new decision.  ``flag`` and ``note`` set the
    markers; ``None`` keeps them as they are (the module docstring: a decision never drops them).
    """
    real = shown is not None and shown.status != CONFLICT
    flag0 = real and shown.status == "flagged"
    tags0 = tuple(shown.tags) if real else ()
    base0 = shown.status if real else "unresolved"
    if base0 == "flagged":  # the decision under the flag
        base0 = "resolved" if tags0 else "unresolved"
    base = base0 if status is None else status
    new_tags = tags0 if tags is None else tuple(tags)
    if base == "unresolved":
        new_tags = ()
    on = flag0 if flag is None else flag
    final = "flagged" if on else base
    if final == "resolved" and not new_tags:
        final = "unresolved"
    keep = real and tags is None
    if source is None:
        source = shown.source if keep and shown.source not in ("undo", "reopen") else "manual"
    if basis is None and keep:
        basis = shown.basis
    text = (shown.note if real else "") if note is None else note
    return Decision(lexelt, instance, new_tags, source, final, text, basis=basis)


def keep_markers(d: Decision, shown: DecisionRow | None) -> Decision:
    """``d`` as a later decision of an instance writes it: with the note and the flag ``shown`` has.

    A note ``d`` gives replaces the note; status ``flagged`` adds the flag; skipping a flagged
    instance leaves it as it is (flagged, with its tags)."""
    if shown is None or shown.status == CONFLICT:
        return d
    if d.status == "skipped" and shown.status == "flagged":
        out = compose(d.lexelt, d.instance, shown, note=d.note or None)
    else:
        status = ("resolved" if d.tags else None) if d.status == "flagged" else d.status
        out = compose(d.lexelt, d.instance, shown, tags=d.tags if d.tags or status == "unresolved" else None,
                      status=status, source=d.source, basis=d.basis, note=d.note or None,
                      flag=True if d.status == "flagged" else None)
    return replace(out, decided_by=d.decided_by, decided_at=d.decided_at)


class DecisionState:
    """The current decision per instance, kept in step with the store.

    Parameters
    ----------
    store : the open project.
    clock : returns the time stamp of new decisions (tests pass a fixed one).
    """

    def __init__(self, store: Store, *, clock: Callable[[], str] = utc_now) -> None:
        self.store = store
        self.clock = clock
        self._current: dict[Key, DecisionRow] = {}
        self._listeners: list[Listener] = []
        self.reload()

    # ------------------------------------------------------------- reading
    def reload(self) -> None:
        """Re-read the current decisions from the store (e.g. a read-only view of a live project)."""
        self._current = {}
        self._noted = 0
        for row in self.store.latest_decisions(include_withdrawn=True):
            self._put(row)

    def _put(self, row: DecisionRow) -> None:
        """Make ``row`` the instance's current row (a withdrawal without a note: none)."""
        was = self._current.get(row.key)
        self._noted -= int(is_note_row(was))
        if row.status == "unresolved" and not is_note_row(row):
            self._current.pop(row.key, None)
        else:
            self._current[row.key] = row
            self._noted += int(is_note_row(row))

    def current(self, lexelt: str, instance: str) -> DecisionRow | None:
        """The current decision of an instance, or ``None`` when it is unresolved (a note alone is
        no decision: :meth:`row` has it) or in conflict (a server project's adjudicators differ:
        :meth:`status` says ``conflict``)."""
        row = self._current.get((lexelt, instance))
        return None if row is None or row.status in (CONFLICT, "unresolved") else row

    def row(self, lexelt: str, instance: str) -> DecisionRow | None:
        """What stands for the instance now: its decision, its note row or its conflict row."""
        return self._current.get((lexelt, instance))

    def note(self, lexelt: str, instance: str) -> str:
        """The instance's note (``""``: none), with or without a decision."""
        row = self._current.get((lexelt, instance))
        return row.note if row is not None and row.status != CONFLICT else ""

    def conflict_row(self, lexelt: str, instance: str) -> DecisionRow | None:
        """The row standing for an instance in conflict (``None`` when it is not)."""
        row = self._current.get((lexelt, instance))
        return row if row is not None and row.status == CONFLICT else None

    def conflicts(self) -> list[DecisionRow]:
        """The instances in conflict (a server project's adjudicators differ and the lead has not
        decided since), as rows of status ``conflict`` naming the answers in their note."""
        return [r for r in self if r.status == CONFLICT]

    def status(self, lexelt: str, instance: str) -> str:
        row = self._current.get((lexelt, instance))
        return "unresolved" if row is None else row.status

    def __len__(self) -> int:
        """How many instances have a decision (note rows are no decisions)."""
        return len(self._current) - self._noted

    def __contains__(self, key: object) -> bool:
        row = self._current.get(key)  # type: ignore[call-overload]
        return row is not None and row.status != "unresolved"

    def __iter__(self) -> Iterator[DecisionRow]:
        """The current decisions (conflict rows included, note rows not: :meth:`rows`), oldest first."""
        return iter(sorted((r for r in self._current.values() if r.status != "unresolved"),
                           key=lambda r: r.id))

    def rows(self) -> list[DecisionRow]:
        """Every current row: decisions, conflict rows and note rows, oldest first."""
        return sorted(self._current.values(), key=lambda r: r.id)

    def snapshot(self) -> dict[Key, Decision]:
        """Current decisions and note rows as plain values (for comparing states)."""
        return {k: Decision.from_row(r) for k, r in self._current.items() if r.status != CONFLICT}

    def counts(self, instances: Iterable[Key] | None = None) -> Counter[str]:
        """Instances per status; with ``instances`` given, those without a decision count as
        unresolved (and decisions for other keys are ignored)."""
        if instances is None:
            return Counter(r.status for r in self)
        return Counter(self.status(*k) for k in instances)

    def history(self, lexelt: str, instance: str) -> list[DecisionRow]:
        """Every decision ever recorded for the instance, oldest first."""
        return self.store.history(lexelt, instance)

    def all_history(self) -> Iterator[DecisionRow]:
        """Every decision row of the project, oldest first."""
        return self.store.iter_history()

    # ------------------------------------------------------------- writing
    @property
    def user(self) -> str:
        return self.store.user()

    def stamp(self, decision: Decision, *, user: str | None = None,
              now: str | None = None) -> Decision:
        """Fill in who and when where the decision leaves them empty."""
        if decision.decided_by and decision.decided_at:
            return decision
        return replace(decision, decided_by=decision.decided_by or user or self.user,
                       decided_at=decision.decided_at or now or self.clock())

    def record(self, decisions: Sequence[Decision], *, label: str | None = None,
               kind: str = "do") -> list[DecisionRow]:
        """Save decisions in one transaction; the state changes only once they are on disk.

        Raises :class:`~hieradjudicate.core.errors.ProjectError` when the
        project is read-only or the write fails (nothing is saved then).
        """
        user, now = self.user, self.clock()  # a batch is decided by one person at one moment
        stamped = [self.stamp(d, user=user, now=now) for d in decisions]
        if not stamped:
            return []
        if label is None and (len(stamped) > 1 or kind != "do"):
            label = f"{kind}: {len(stamped)} decision(s)"
        rows = self.store.append_decisions(stamped, batch_label=label, batch_kind=kind,
                                           created_by=user)
        for row in rows:
            self._put(row)
        rows = self._reopened(rows)
        for listener in list(self._listeners):
            listener(rows)
        return rows

    def _reopened(self, rows: list[DecisionRow]) -> list[DecisionRow]:
        """After an undo that opened a server project's conflict again: its conflict row, as the
        server now holds it, in the state and for the listeners (saved rows otherwise)."""
        keys = {r.key for r in rows if r.source == "reopen" and r.id > 0}
        if not keys or not hasattr(self.store, "current_of"):
            return rows
        try:
            now = self.store.current_of(keys)
        except Exception:  # noqa: BLE001 - saved; the follower brings the conflict back on its next poll
            return rows
        for row in now.values():
            self._put(row)
        return [now.get(r.key, r) if r.key in keys else r for r in rows]

    def apply_external(self, rows: Sequence[DecisionRow], *,
                       current: Mapping[Key, DecisionRow] | None = None) -> list[DecisionRow]:
        """Rows others saved (a server project's notifications): each instance follows its latest
        row; rows older than what is shown are ignored.  Listeners are told as after a save.

        ``current``: the server's current row of each instance of ``rows`` (a conflict row where
        adjudicators differ); then each instance follows it, not simply its latest row."""
        if current is not None:
            return self._apply_current(rows, current)
        fresh = []
        for row in sorted(rows, key=lambda r: r.id):
            shown = self._current.get(row.key)
            if shown is not None and shown.id > 0 and shown.id >= row.id:
                continue
            self._put(row)
            fresh.append(row)
        if fresh:
            for listener in list(self._listeners):
                listener(fresh)
        return fresh

    def _apply_current(self, rows: Sequence[DecisionRow], current: Mapping[Key, DecisionRow]) -> list[DecisionRow]:
        latest = {r.key: r for r in sorted(rows, key=lambda r: r.id)}
        fresh = []
        for key, last in latest.items():
            new = current.get(key, last)
            shown = self._current.get(key)
            if shown is not None and shown.id < 0:
                continue  # made offline and not yet on the server: the local row stays
            if new == shown or (shown is None and new.status == "unresolved" and not is_note_row(new)):
                continue
            self._put(new)
            fresh.append(new)
        fresh.sort(key=lambda r: r.id)
        if fresh:
            for listener in list(self._listeners):
                listener(fresh)
        return fresh

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(rows)`` after every saved change; returns the unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)
