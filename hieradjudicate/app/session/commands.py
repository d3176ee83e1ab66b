"""Undoable edits: command objects that return their inverse, and the undo/redo stacks.

Front ends (GUI, CLI) map every interaction to a command and run it through a
:class:`CommandStack` (glue's ``core/command.py``).  Executing a command
returns its inverse (Orange3's pattern), so undo is "execute the inverse"
and redo is "execute the inverse's inverse".  Nothing is ever deleted from
the project: undoing a saved decision appends rows that restore the previous
decision (with its original provenance) or withdraw it (status
``unresolved``), so the undo itself is a saved change in the audit trail.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import NamedTuple

from hieradjudicate.app.session.decisions import Decision, DecisionState, keep_markers
from hieradjudicate.io.store.project_store import DecisionRow


class Applied(NamedTuple):
    """What executing a command did: its inverse and the rows it saved."""

    inverse: Command
    rows: list[DecisionRow]


class Command(ABC):
    """An edit of the decision state.  ``execute`` returns its inverse."""

    label: str

    @abstractmethod
    def execute(self, state: DecisionState, *, kind: str = "do") -> Applied:
        """Apply the edit (saved before returning) and return the inverse and the saved rows."""

    def is_empty(self) -> bool:
        """An empty command changes nothing and is not put on the undo stack."""
        return False


class Decide(Command):
    """Record one or more decisions as one undoable step (a batch is one ``Decide``).

    The inverse re-records, for every instance touched, the decision that was
    current before (unchanged provenance), or withdraws the decision where
    there was none.  When the batch names an instance twice, the last wins
    and the inverse still restores the state from before the batch.

    The note and the flag of an instance stay (:func:`~.decisions.keep_markers`) unless
    ``markers=False``: the decisions are then written as given (an edit of the markers themselves,
    an undo or a redo, which restore rows exactly).
    """

    def __init__(self, decisions: Sequence[Decision], label: str | None = None, *,
                 markers: bool = True) -> None:
        self.decisions = list(decisions)
        self.markers = markers
        if label is None:
            if len(self.decisions) == 1:
                d = self.decisions[0]
                label = f"decide {d.lexelt} {d.instance}"
            else:
                label = f"{len(self.decisions)} decisions"
        self.label = label

    def is_empty(self) -> bool:
        return not self.decisions

    def execute(self, state: DecisionState, *, kind: str = "do") -> Applied:
        previous: list[Decision] = []
        seen: set[tuple[str, str]] = set()
        for d in self.decisions:
            if d.key in seen:
                continue
            seen.add(d.key)
            row = state.current(*d.key) or (state.row(*d.key) if state.note(*d.key) else None)
            previous.append(Decision.from_row(row) if row is not None else _undoing(state, d.key))
        batch_label: str | None = self.label if kind == "do" else f"{kind}: {self.label}"
        if kind == "do" and len(self.decisions) == 1:
            batch_label = None  # a single decision needs no batch row
        decisions = self.decisions
        if self.markers and kind == "do":
            decisions = [keep_markers(d, state.row(*d.key)) for d in decisions]
        rows = state.record(decisions, label=batch_label, kind=kind)
        return Applied(Decide(previous, self.label, markers=False), rows)

    def __repr__(self) -> str:
        return f"Decide({self.label!r}, {len(self.decisions)} decision(s))"


def _undoing(state: DecisionState, key: tuple[str, str]) -> Decision:
    """What undoing a decision of an instance without a current one writes: a withdrawal; for an
    instance in conflict (a server project), one that opens the conflict again (``reopen``)."""
    if state.status(*key) != "conflict":
        return Decision.withdrawal(*key)
    shown = state.conflict_row(*key)
    return Decision(*key, (), "reopen", "unresolved", "the conflict is open again",
                    basis={"after": int((shown.basis or {}).get("after", 0))})


class CommandStack:
    """Undo and redo stacks over one :class:`DecisionState`.

    A command that fails (read-only project, full disk) raises
    :class:`~hieradjudicate.core.errors.ProjectError` and leaves both stacks
    and the state as they were.

    Parameters
    ----------
    state : the decision state the commands edit.
    limit : how many steps can be undone (older ones are forgotten, never the data).
    """

    def __init__(self, state: DecisionState, *, limit: int = 1000) -> None:
        self.state = state
        self.limit = limit
        self._undo: list[tuple[str, Command]] = []
        self._redo: list[tuple[str, Command]] = []
        self._listeners: list[Callable[[], None]] = []

    def execute(self, command: Command) -> list[DecisionRow]:
        """Run a command; returns the saved rows (one per decision, with their ids)."""
        if command.is_empty():
            return []
        inverse, rows = command.execute(self.state, kind="do")
        self._undo.append((command.label, inverse))
        del self._undo[: max(0, len(self._undo) - self.limit)]
        self._redo.clear()
        self._changed()
        return rows

    def undo(self) -> list[DecisionRow]:
        """Undo the last step (a saved change itself); ``[]`` when there is nothing to undo."""
        if not self._undo:
            return []
        label, inverse = self._undo[-1]
        redo, rows = inverse.execute(self.state, kind="undo")
        self._undo.pop()
        self._redo.append((label, redo))
        self._changed()
        return rows

    def redo(self) -> list[DecisionRow]:
        """Redo the last undone step; ``[]`` when there is nothing to redo."""
        if not self._redo:
            return []
        label, command = self._redo[-1]
        inverse, rows = command.execute(self.state, kind="redo")
        self._redo.pop()
        self._undo.append((label, inverse))
        self._changed()
        return rows

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_label(self) -> str | None:
        """What undo would undo (for a menu entry "Undo <label>")."""
        return self._undo[-1][0] if self._undo else None

    @property
    def redo_label(self) -> str | None:
        return self._redo[-1][0] if self._redo else None

    def clear(self) -> None:
        self._undo.clear()
        self._redo.clear()
        self._changed()

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` whenever the stacks change; returns the unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()
