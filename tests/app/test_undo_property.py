"""Property: after any decisions, batches, undos and redos, the state equals a replay of the
remaining commands on a fresh project, and the state on disk equals the state in memory."""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from hieradjudicate.app.session.commands import CommandStack, Decide
from hieradjudicate.app.session.decisions import Decision, DecisionState
from hieradjudicate.io.store.project_store import Store

_counter = iter(range(10**9))


def latest_on_disk(path: Path) -> dict[tuple[str, str], Decision]:
    """The current decisions read by a separate SQLite connection."""
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        store_rows = conn.execute(
            "SELECT lexelt, instance, tags, source, status, note, decided_by, decided_at, basis"
            " FROM decisions WHERE id IN (SELECT MAX(id) FROM decisions GROUP BY lexelt,"
            " instance)").fetchall()
    finally:
        conn.close()
    return {(r[0], r[1]): Decision(r[0], r[1], tuple(json.loads(r[2])), r[3], r[4], r[5], r[6],
                                   r[7], None if r[8] is None else json.loads(r[8]))
            for r in store_rows if r[4] != "unresolved"}



@st.composite
def decisions(draw: st.DrawFn) -> Decision:
    status = draw(st.sampled_from(["resolved", "resolved", "flagged", "skipped"]))
    tags = draw(st.lists(st.sampled_from(["1", "2", "1.a", "1.b"]), min_size=1, max_size=2,
                         unique=True))
    if status != "resolved" and draw(st.booleans()):
        tags = []
    return Decision(draw(st.sampled_from(["bank.n", "art.n"])), draw(st.sampled_from("123")),
                    tuple(tags), draw(st.sampled_from(["manual", "set:A", "auto-agreement"])),
                    status, draw(st.sampled_from(["", "note"])), "ann",
                    f"2026-01-01T00:00:00.{next(_counter):06d}Z")


class UndoMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="undo-prop-"))
        self.store = Store.create(self.dir / "p.hadj")
        self.stack = CommandStack(DecisionState(self.store))
        self.done: list[list[Decision]] = []  # the effective commands, in order
        self.undone: list[list[Decision]] = []

    def _run(self, batch: list[Decision]) -> None:
        self.stack.execute(Decide(batch))
        self.done.append(batch)
        self.undone.clear()

    @rule(decision=decisions())
    def decide(self, decision: Decision) -> None:
        self._run([decision])

    @rule(batch=st.lists(decisions(), min_size=2, max_size=5))
    def decide_batch(self, batch: list[Decision]) -> None:
        self._run(batch)

    @precondition(lambda self: bool(self.done))
    @rule()
    def undo(self) -> None:
        assert self.stack.undo()
        self.undone.append(self.done.pop())

    @precondition(lambda self: bool(self.undone))
    @rule()
    def redo(self) -> None:
        assert self.stack.redo()
        self.done.append(self.undone.pop())

    @invariant()
    def disk_equals_memory(self) -> None:
        assert latest_on_disk(self.store.path) == self.stack.state.snapshot()
        assert self.stack.can_undo == bool(self.done)
        assert self.stack.can_redo == bool(self.undone)

    @rule()
    def replay_equals_state(self) -> None:
        path = self.dir / f"replay-{next(_counter)}.hadj"
        with Store.create(path) as fresh:
            replay = CommandStack(DecisionState(fresh))
            for batch in self.done:
                replay.execute(Decide(batch))
            assert replay.state.snapshot() == self.stack.state.snapshot()

    def teardown(self) -> None:
        try:
            self.replay_equals_state()
        finally:
            self.store.close()
            shutil.rmtree(self.dir, ignore_errors=True)


UndoMachine.TestCase.settings = settings(
    max_examples=40, stateful_step_count=25, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
TestUndoProperty = UndoMachine.TestCase
