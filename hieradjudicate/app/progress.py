"""Named steps of a job the user waits on, told to a plain callback (no Qt here).

The whole program reports progress as ``progress(done, total, what)``: ``done``
of ``total`` units are finished and ``what`` is being done now (``load``,
``Session.create``, the background runner's ``report``).  :class:`Steps` gives a
job's named steps their slots on one bar: ``step(what)`` starts the next one
(and returns a callback for progress inside it), ``part(span)`` hands a number
of slots to code that numbers its own steps (``Session.open`` inside the
window's opening), and ``finish`` reports the whole bar as done.

A step may take more than one slot (``span``) so that the bar moves roughly
with the time spent: the spans are rough shares measured on a large project,
not promises.  The callback may raise (a cancellation); the exception goes
through to the job, which stops there.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int, str], None]

#: bar units per slot: progress inside a step moves the bar within its slots
UNITS = 100


class Steps:
    """``total`` slots of named steps reported to ``progress`` (see the module docstring)."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress = progress
        self.total = max(int(total), 1)
        self.at = 0  # the next free slot

    def step(self, what: str, span: int = 1) -> Progress:
        """Start the next step, ``what``, taking ``span`` slots; returns ``within(done, total, sub)``,
        which moves the bar inside the step (``sub``, when given, follows ``what`` after a colon)."""
        nested = self.part(span)
        nested(0, 1, what)

        def within(done: int, total: int, sub: str = "") -> None:
            nested(done, total, f"{what}: {sub}" if sub else what)
        return within

    def part(self, span: int) -> Progress:
        """The next ``span`` slots as a ``progress`` callback for code that reports its own
        ``(done, total, what)``: its whole bar fills these slots."""
        start, span = self.at, max(min(span, self.total - self.at), 0)
        self.at += span

        def nested(done: int, total: int, what: str) -> None:
            frac = min(max(done / total, 0.0), 1.0) if total else 1.0
            self._tell(start * UNITS + int(frac * span * UNITS), what)
        return nested

    def skip_to(self, slot: int) -> None:
        """Go on from ``slot`` (a path that needs fewer steps than were counted)."""
        self.at = max(self.at, min(slot, self.total))

    def finish(self, what: str = "Ready") -> None:
        """The whole bar is done."""
        self.at = self.total
        self._tell(self.total * UNITS, what)

    def _tell(self, done: int, what: str) -> None:
        if self.progress is not None:
            self.progress(done, self.total * UNITS, what)
