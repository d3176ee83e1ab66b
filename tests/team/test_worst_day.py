"""The worst day: the server dies while people decide.  Nothing reported saved is lost, the
decisions made meanwhile wait in a queue on disk and reach the server once, without duplicates."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.io.store.pg.queue import OfflineQueue
from hieradjudicate.io.store.pg.store import PgStore
from hieradjudicate.io.store.pg.team import write_assignments
from tests.team.conftest import url


@pytest.fixture
def restart(cluster):  # type: ignore[no-untyped-def]
    """The server is running again after the test, whatever happened."""
    yield cluster
    if cluster.pid is None:
        cluster.start_server()


def _alice_on_bank(cluster, project: str) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    with Session.open(url(cluster, "lead", project)) as s:
        keys = [k for k in s.instances() if k[0] == "bank.n"]
        write_assignments(s.store, [(*k, "alice", False) for k in keys])
    return keys


def test_decisions_made_while_the_server_is_down_are_queued_and_sent_once(
        restart, published: str, queue_dir: Path) -> None:
    cluster = restart
    keys = _alice_on_bank(cluster, published)
    with Session.open(url(cluster, "alice", published)) as s:
        s.execute(Decide([Decision(*keys[0], ("1.1",))]))
        cluster.kill()
        rows = s.execute(Decide([Decision(*keys[1], ("1.2",), note="offline 'one'")]))
        rows += s.execute(Decide([Decision(*keys[2], ("4",)), Decision(*keys[3], ("2.1",))], "two at once"))
        assert [r.id < 0 for r in rows] == [True, True, True] and s.store.offline
        assert s.decisions.current(*keys[1]).tags == ("1.2",)  # the window shows them meanwhile
        queue = OfflineQueue(str(s.store.location), "alice")
        assert queue.path.parent == queue_dir and len(queue) == 3
        cluster.start_server()
        s.store.retry_seconds = 0  # (the window retries every few seconds; here at once)
        rows = s.execute(Decide([Decision(*keys[4], ("1.1",))]))  # the next decision sends the queue first
        assert rows[0].id > 0 and not s.store.offline and len(queue) == 0
    with PgStore.open(url(cluster, "lead", published)) as lead:
        mine = [r for r in lead.iter_history() if r.decided_by == "alice"]
        assert [(r.instance, r.tags, r.note) for r in mine] == [
            (keys[0][1], ("1.1",), ""), (keys[1][1], ("1.2",), "offline 'one'"),
            (keys[2][1], ("4",), ""), (keys[3][1], ("2.1",), ""), (keys[4][1], ("1.1",), "")]
        assert mine[2].batch is not None and mine[2].batch == mine[3].batch
        assert [b.label for b in lead.batches()][-1] == "two at once"


def test_a_batch_that_reached_the_server_before_the_connection_broke_is_not_stored_twice(
        cluster, published: str, queue_dir: Path) -> None:
    keys = _alice_on_bank(cluster, published)
    with PgStore.open(url(cluster, "alice", published)) as store:
        entry = {"batch": {"label": "b", "kind": "do", "client_id": "6f1c1a2e-0000-4000-8000-000000000001"},
                 "role": "adjudicator",
                 "rows": [[*keys[0], '["1.1"]', "manual", "resolved", "", "alice", "2026-01-01T00:00:00.000Z",
                           None, "6f1c1a2e-0000-4000-8000-0000000000aa"]]}
        first = store._send(entry)  # committed, but (say) the reply was lost: the client queued it
        store.queue.append(entry)
        assert store.flush_queue() == 1 and len(store.queue) == 0
        again = store.history(*keys[0])
    assert [r.id for r in again] == [first[0].id]


def test_a_torn_last_line_of_the_queue_is_dropped(tmp_path: Path) -> None:
    q = OfflineQueue("postgresql://a@h/db?project=p", "alice", tmp_path)
    q.append({"batch": None, "role": "adjudicator", "rows": [[1]]})
    with open(q.path, "ab") as fh:
        fh.write(b'{"batch": null, "rows": [[2')  # the machine stopped while writing
    assert [e["rows"] for e in q.entries()] == [[[1]]]


def test_killing_the_server_mid_commit_loses_nothing_reported_saved(
        restart, published: str, queue_dir: Path) -> None:
    cluster = restart
    keys = _alice_on_bank(cluster, published)
    reported: list[tuple[int, str]] = []
    queued: list[str] = []
    stop = threading.Event()

    def decide() -> None:
        with PgStore.open(url(cluster, "alice", published)) as store:
            for k, key in enumerate(keys * 20):
                if stop.is_set():
                    break
                row = store.append_decisions([Decision(*key, ("1.1",), note=f"n{k}", decided_by="alice",
                                                       decided_at="2026-01-01T00:00:00.000Z")])[0]
                (reported if row.id > 0 else queued).append((row.id, row.note) if row.id > 0 else row.note)
                if k == 40:
                    killer.start()  # the server dies while decisions are being committed
                if store.offline and len(queued) >= 5:
                    stop.set()

    killer = threading.Thread(target=cluster.kill)
    worker = threading.Thread(target=decide)
    worker.start()
    worker.join(timeout=120)
    killer.join(timeout=30)
    assert not worker.is_alive() and len(reported) > 40 and len(queued) >= 5
    cluster.start_server()
    with PgStore.open(url(cluster, "lead", published)) as lead:
        on_server = {r.note: r.id for r in lead.iter_history() if r.decided_by == "alice"}
    for rid, note in reported:  # every decision reported saved survived the crash, with its id
        assert on_server.get(note) == rid
    with PgStore.open(url(cluster, "alice", published)) as store:  # opening sends the queue
        assert len(store.queue) == 0
    with PgStore.open(url(cluster, "lead", published)) as lead:
        notes = [r.note for r in lead.iter_history() if r.decided_by == "alice"]
    assert len(notes) == len(set(notes))  # nothing twice
    assert set(queued) <= set(notes) and {n for _i, n in reported} <= set(notes)


def test_a_queued_decision_the_server_refuses_is_kept_aside_and_blocks_nothing(
        cluster, published: str, queue_dir: Path) -> None:
    keys = _alice_on_bank(cluster, published)
    with PgStore.open(url(cluster, "alice", published)) as store:
        def entry(key: tuple[str, str], cid: str) -> dict:
            return {"batch": None, "role": "adjudicator",
                    "rows": [[*key, '["1.1"]', "manual", "resolved", "", "alice", "2026-01-01T00:00:00.000Z",
                              None, cid]]}

        store.queue.append(entry(("bank.n", "not-assigned-to-alice"), "6f1c1a2e-0000-4000-8000-0000000000b1"))
        store.queue.append(entry(keys[5], "6f1c1a2e-0000-4000-8000-0000000000b2"))
        rows = store.append_decisions([Decision(*keys[6], ("4",), decided_by="alice",
                                                decided_at="2026-01-01T00:00:00.000Z")])
        assert rows[0].id > 0 and len(store.queue) == 0
        assert store.rejected is not None and "1 decision(s) made offline were refused" in store.rejected
        aside = store.queue.rejected_path.read_text(encoding="utf-8")
        assert "not-assigned-to-alice" in aside and "row-level security" in aside
        assert [r.tags for r in store.history(*keys[5]) if r.decided_by == "alice"] == [("1.1",)]
