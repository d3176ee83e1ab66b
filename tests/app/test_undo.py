"""Undo and redo: commands return their inverse; undo is itself a saved change."""

from __future__ import annotations

from pathlib import Path

import pytest

from hieradjudicate.app.session.commands import CommandStack, Decide
from hieradjudicate.app.session.decisions import Decision, DecisionState
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.project_store import Store


@pytest.fixture
def stack(tmp_path: Path):
    store = Store.create(tmp_path / "p.hadj")
    yield CommandStack(DecisionState(store))
    store.close()


def d(instance: str, *tags: str, **kw: object) -> Decision:
    kw.setdefault("decided_by", "ann")
    kw.setdefault("decided_at", f"2026-01-01T00:00:0{instance}Z")
    return Decision("bank.n", instance, tags, **kw)  # type: ignore[arg-type]


def test_undo_of_first_decision_withdraws_it_and_is_saved(stack: CommandStack) -> None:
    stack.execute(Decide([d("1", "a")]))
    assert stack.undo_label == "decide bank.n 1"
    rows = stack.undo()
    assert [r.status for r in rows] == ["unresolved"] and rows[0].source == "undo"
    state = stack.state
    assert state.current("bank.n", "1") is None
    assert [r.status for r in state.history("bank.n", "1")] == ["resolved", "unresolved"]
    (batch,) = state.store.batches()
    assert batch.kind == "undo" and batch.label == "undo: decide bank.n 1"
    assert stack.can_redo and not stack.can_undo


def test_undo_restores_previous_decision_with_its_provenance(stack: CommandStack) -> None:
    stack.execute(Decide([d("1", "a", source="set:A", note="from A", basis={"set": "A"})]))
    stack.execute(Decide([d("1", "b", decided_at="2026-02-02T00:00:00Z")]))
    stack.undo()
    cur = stack.state.current("bank.n", "1")
    assert cur is not None
    assert (cur.tags, cur.source, cur.note, cur.decided_at, cur.basis) == (
        ("a",), "set:A", "from A", "2026-01-01T00:00:01Z", {"set": "A"})
    stack.redo()
    assert stack.state.current("bank.n", "1").tags == ("b",)  # type: ignore[union-attr]
    assert len(stack.state.history("bank.n", "1")) == 4


def test_batch_is_one_step_even_when_it_names_an_instance_twice(stack: CommandStack) -> None:
    stack.execute(Decide([d("1", "a")]))
    stack.execute(Decide([d("1", "b"), d("2", "c"), d("1", "c")], label="batch"))
    assert stack.state.current("bank.n", "1").tags == ("c",)  # type: ignore[union-attr]
    stack.undo()
    assert stack.state.current("bank.n", "1").tags == ("a",)  # type: ignore[union-attr]
    assert stack.state.current("bank.n", "2") is None
    stack.redo()
    assert stack.state.current("bank.n", "1").tags == ("c",)  # type: ignore[union-attr]
    assert stack.state.current("bank.n", "2").tags == ("c",)  # type: ignore[union-attr]


def test_new_command_clears_redo_and_empty_command_is_ignored(stack: CommandStack) -> None:
    stack.execute(Decide([d("1", "a")]))
    stack.undo()
    assert stack.execute(Decide([])) == [] and stack.can_redo
    stack.execute(Decide([d("2", "b")]))
    assert not stack.can_redo and stack.redo() == []
    assert stack.undo() and stack.undo() == []


def test_failed_command_leaves_stacks_and_state(stack: CommandStack, tmp_path: Path) -> None:
    stack.execute(Decide([d("1", "a")]))
    store = stack.state.store
    store.conn.execute("CREATE TRIGGER full BEFORE INSERT ON decisions"
                       " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
    with pytest.raises(ProjectError, match="disk is full"):
        stack.execute(Decide([d("2", "b")]))
    with pytest.raises(ProjectError):
        stack.undo()
    assert stack.can_undo and not stack.can_redo
    assert stack.state.current("bank.n", "1") is not None
    assert stack.state.current("bank.n", "2") is None


def test_stack_listeners(stack: CommandStack) -> None:
    calls: list[bool] = []
    stack.subscribe(lambda: calls.append(stack.can_undo))
    stack.execute(Decide([d("1", "a")]))
    stack.undo()
    stack.redo()
    assert calls == [True, False, True]
