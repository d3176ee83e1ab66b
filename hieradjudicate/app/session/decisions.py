"""Decisions and the in-memory state of a project's adjudication.

A :class:`Decision` is what the lexicographer decided for one instance: the
gold tags (inventory node ids at any depth), where they came from
(``source``), a status, a note, who and when.  The store keeps every
decision ever made (append-only); :class:`DecisionState` holds the current
one per instance (the latest row) and asks the store for the history.

An instance without a decision is *unresolved*.  A row with status
``unresolved`` withdraws the previous decision (that is what undoing a first
decision writes), so the state treats it as no decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hieradjudicate.io.store.project_store import DecisionRow, Store, utc_now
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
        for row in self.store.latest_decisions(include_withdrawn=False):
            self._current[row.key] = row

    def current(self, lexelt: str, instance: str) -> DecisionRow | None:
        """The current decision of an instance, or ``None`` when it is unresolved."""
        return self._current.get((lexelt, instance))

    def status(self, lexelt: str, instance: str) -> str:
        row = self._current.get((lexelt, instance))
        return "unresolved" if row is None else row.status

    def __len__(self) -> int:
        return len(self._current)

    def __contains__(self, key: object) -> bool:
        return key in self._current

    def __iter__(self) -> Iterator[DecisionRow]:
        return iter(sorted(self._current.values(), key=lambda r: r.id))

    def snapshot(self) -> dict[Key, Decision]:
        """Current decisions as plain values (for comparing states)."""
        return {k: Decision.from_row(r) for k, r in self._current.items()}

    def counts(self, instances: Iterable[Key] | None = None) -> Counter[str]:
        """Instances per status; with ``instances`` given, those without a decision count as
        unresolved (and decisions for other keys are ignored)."""
        if instances is None:
            return Counter(r.status for r in self._current.values())
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
            if row.status == "unresolved":
                self._current.pop(row.key, None)
            else:
                self._current[row.key] = row
        for listener in list(self._listeners):
            listener(rows)
        return rows

    def apply_external(self, rows: Sequence[DecisionRow]) -> list[DecisionRow]:
        """Rows others saved (a server project's notifications): each instance follows its latest
        row; rows older than what is shown are ignored.  Listeners are told as after a save."""
        fresh = []
        for row in sorted(rows, key=lambda r: r.id):
            shown = self._current.get(row.key)
            if shown is not None and shown.id > 0 and shown.id >= row.id:
                continue
            if row.status == "unresolved":
                self._current.pop(row.key, None)
            else:
                self._current[row.key] = row
            fresh.append(row)
        if fresh:
            for listener in list(self._listeners):
                listener(fresh)
        return fresh

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(rows)`` after every saved change; returns the unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)
