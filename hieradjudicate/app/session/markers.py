"""The lexicographer's edits of one instance -- decide, skip, flag, unflag, note -- as one rule for the
window and the command line.

The note and the flag are markers on the instance (see :mod:`~hieradjudicate.app.session.decisions`):
an edit changes what it names and keeps the rest, so a note written before deciding is still there
after the decision, and skipping a flagged instance leaves it flagged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision, DecisionState, compose


def edit(state: DecisionState, lexelt: str, instance: str, *, tags: Sequence[str] | None = None,
         source: str | None = None, basis: Mapping[str, Any] | None = None, skip: bool = False,
         flag: bool | None = None, note: str | None = None) -> Decision | None:
    """The row that applies the edit to the instance, or ``None`` when it changes nothing.

    ``tags``: decide them (source ``manual`` unless given); ``skip``: mark the decision skipped (a
    flagged instance stays flagged); ``flag``: ``True`` flags, ``False`` unflags; ``note``: the new
    note (``""`` clears it).  What is not given stays as it is.
    """
    shown = state.row(lexelt, instance)
    flagged = shown is not None and shown.status == "flagged"
    status = None
    if tags is not None:
        status = "resolved"
        source = source or "manual"
    elif skip and not flagged:
        status = "skipped"
    d = compose(lexelt, instance, shown, tags=tags, status=status, source=source, basis=basis,
                flag=flag, note=note)
    if shown is not None and (d.status, d.tags, d.note) == (shown.status, tuple(shown.tags), shown.note):
        return None
    if shown is None and d.status == "unresolved" and not d.note:
        return None
    return d


def command(d: Decision, what: str) -> Decide:
    """The undoable step writing ``d`` as it is (its markers already set by :func:`edit`)."""
    return Decide([d], f"{what} {d.lexelt} {d.instance}", markers=False)


def flagged(state: DecisionState, lexelt: str, instance: str) -> bool:
    row = state.row(lexelt, instance)
    return row is not None and row.status == "flagged"
