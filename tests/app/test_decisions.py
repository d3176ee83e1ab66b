"""Decisions and the in-memory decision state."""

from __future__ import annotations

from pathlib import Path

import pytest

from hieradjudicate.app.session.decisions import Decision, DecisionState
from hieradjudicate.io.store.project_store import Store, login_name


@pytest.fixture
def state(tmp_path: Path):
    store = Store.create(tmp_path / "p.hadj")
    yield DecisionState(store, clock=lambda: "2026-05-01T10:00:00.000Z")
    store.close()


def test_decision_validation() -> None:
    assert Decision("bank.n", "1", ["a", "b"]).tags == ("a", "b")
    Decision("bank.n", "1", (), status="flagged")
    Decision("bank.n", "1", (), source="set:A", status="skipped")
    with pytest.raises(ValueError, match="needs a tag"):
        Decision("bank.n", "1", ())
    with pytest.raises(ValueError, match="status"):
        Decision("bank.n", "1", ("a",), status="done")
    with pytest.raises(ValueError, match="no tags"):
        Decision("bank.n", "1", ("a",), status="unresolved")
    with pytest.raises(ValueError, match="source"):
        Decision("bank.n", "1", ("a",), source="")


def test_record_stamps_user_and_time(state: DecisionState) -> None:
    (row,) = state.record([Decision("bank.n", "1", ("a",))])
    assert row.decided_by == login_name() and row.decided_at == "2026-05-01T10:00:00.000Z"
    state.store.set_setting("user", "Ines")
    (row,) = state.record([Decision("bank.n", "2", ("a",), decided_at="2020-01-01T00:00:00Z")])
    assert row.decided_by == "Ines" and row.decided_at == "2020-01-01T00:00:00Z"


def test_current_history_and_withdrawal(state: DecisionState) -> None:
    state.record([Decision("bank.n", "1", ("a",), note="first")])
    state.record([Decision("bank.n", "1", ("a.1",), source="set:B", basis={"set": "B"})])
    state.record([Decision("bank.n", "2", (), status="flagged", note="ask Ana")])
    assert state.current("bank.n", "1").tags == ("a.1",)  # type: ignore[union-attr]
    assert state.status("bank.n", "2") == "flagged"
    assert state.status("bank.n", "3") == "unresolved"
    assert [r.note for r in state.history("bank.n", "1")] == ["first", ""]
    state.record([Decision.withdrawal("bank.n", "1")])
    assert state.current("bank.n", "1") is None and ("bank.n", "1") not in state
    assert len(state.history("bank.n", "1")) == 3  # nothing is ever deleted
    assert len(list(state.all_history())) == 4
    assert state.counts() == {"flagged": 1}
    keys = [("bank.n", "1"), ("bank.n", "2"), ("bank.n", "3")]
    assert state.counts(keys) == {"unresolved": 2, "flagged": 1}


def test_state_reloads_from_disk(state: DecisionState, tmp_path: Path) -> None:
    state.record([Decision("bank.n", str(i), ("a",)) for i in range(5)], label="batch")
    state.record([Decision.withdrawal("bank.n", "0")])
    memory = state.snapshot()
    path = state.store.path
    state.store.close()
    with Store.open(path) as store:
        assert DecisionState(store).snapshot() == memory
        assert len(memory) == 4


def test_listeners_hear_saved_rows(state: DecisionState) -> None:
    heard: list[int] = []
    unsubscribe = state.subscribe(lambda rows: heard.append(len(rows)))
    state.record([Decision("bank.n", "1", ("a",)), Decision("bank.n", "2", ("b",))])
    unsubscribe()
    state.record([Decision("bank.n", "3", ("a",))])
    assert heard == [2]


def test_batch_rows_carry_a_label(state: DecisionState) -> None:
    rows = state.record([Decision("bank.n", "1", ("a",)), Decision("bank.n", "2", ("b",))],
                        label="accept agreed")
    (batch,) = state.store.batches()
    assert batch.label == "accept agreed" and {r.batch for r in rows} == {batch.id}
