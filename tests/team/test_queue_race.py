"""Two processes of one login share the offline queue: a process that sends the queue never
removes what the other appended meanwhile, and nothing reaches the server twice.

The interleavings are explicit, not timed: the sending process stops inside its send (before
the row of its n-th queued batch goes to the server) and says so over a pipe; the other process
then decides (its decisions go to the queue), and only then is the sender told to go on.
"""

from __future__ import annotations

import multiprocessing
import traceback
from pathlib import Path
from typing import Any

import pytest

from hieradjudicate.io.store.pg.queue import OfflineQueue
from hieradjudicate.io.store.pg.store import PgStore
from tests.team.conftest import url
from tests.team.test_worst_day import _alice_on_bank

WHEN = "2026-01-01T00:00:00.000Z"


def _worker(pipe: Any, location: str) -> None:
    """One process of alice's: runs the commands the test sends (see :func:`_ask`)."""
    from hieradjudicate.app.session.decisions import Decision

    try:
        store = PgStore.open(location)
        pipe.send(("ready",))
        while True:
            cmd, *args = pipe.recv()
            if cmd == "decide":
                out = []
                for lexelt, instance, note in args[0]:
                    row = store.append_decisions([Decision(lexelt, instance, ("1.1",), note=note,
                                                           decided_by="alice", decided_at=WHEN)])[0]
                    out.append((note, row.id))
                pipe.send(("decided", out))
            elif cmd == "retry":
                store.retry_seconds = args[0]
                store._failed_at = None
                pipe.send(("ok",))
            elif cmd == "flush":
                pause_at, calls, send = set(args[0]), [0], store._send

                def paused_send(entry: dict, send: Any = send) -> Any:
                    calls[0] += 1
                    if calls[0] in pause_at:  # stop here until the other process has decided
                        pipe.send(("paused", calls[0]))
                        assert pipe.recv() == ("go",)
                    return send(entry)

                store._send = paused_send  # type: ignore[method-assign]
                sent = store.flush_queue()
                store._send = send  # type: ignore[method-assign]
                pipe.send(("flushed", sent, len(store.queue)))
            elif cmd == "stop":
                store.close()
                pipe.send(("stopped",))
                return
    except BaseException:  # noqa: BLE001 - the test shows the child's traceback
        pipe.send(("error", traceback.format_exc()))


def _ask(pipe: Any, *msg: Any, expect: str, timeout: float = 180) -> tuple:
    if msg:
        pipe.send(msg)
    assert pipe.poll(timeout), f"no answer to {msg} within {timeout} s"
    got = pipe.recv()
    assert got[0] != "error", got[1]
    assert got[0] == expect, got
    return got


@pytest.fixture
def restart(cluster):  # type: ignore[no-untyped-def]
    yield cluster
    if cluster.pid is None:
        cluster.start_server()


def test_two_processes_lose_no_queued_decision_across_three_server_stops(
        restart, published: str, queue_dir: Path) -> None:
    cluster = restart
    keys = _alice_on_bank(cluster, published)
    ctx = multiprocessing.get_context("spawn")
    pipes, procs = {}, {}
    for name in "AB":
        here, there = ctx.Pipe()
        procs[name] = ctx.Process(target=_worker, args=(there, url(cluster, "alice", published)))
        procs[name].start()
        pipes[name] = here
    reported: dict[str, int] = {}
    serial = iter(range(10**6))

    def decide(who: str, n: int) -> list[tuple[str, int]]:
        items = [(*keys[k % len(keys)], f"{who}{k}") for k in (next(serial) for _ in range(n))]
        got = _ask(pipes[who], "decide", items, expect="decided")[1]
        reported.update(got)
        return got

    try:
        for name in "AB":
            _ask(pipes[name], expect="ready")
        queued = 0
        for stop in range(3):
            sender, other = ("A", "B") if stop % 2 == 0 else ("B", "A")
            for name in "AB":  # while the server is down neither reconnects by itself
                _ask(pipes[name], "retry", 1e9, expect="ok")
            cluster.kill()
            for _ in range(5):
                for name in "AB":
                    assert all(rid < 0 for _n, rid in decide(name, 50))
            queued += 500
            cluster.start_server()
            _ask(pipes[sender], "retry", 0, expect="ok")
            # the sender stops twice inside its send: first among the 500 lines it read, then
            # among the lines appended during that first stop; the other appends 20 each time
            pipes[sender].send(("flush", [3, 510]))
            while True:
                assert pipes[sender].poll(180), "the sender neither stopped nor finished"
                got = pipes[sender].recv()
                assert got[0] in ("paused", "flushed"), got
                if got[0] == "flushed":
                    break
                assert all(rid < 0 for _n, rid in decide(other, 20))
                queued += 20
                pipes[sender].send(("go",))
            assert got[2] == 0  # nothing left in the queue
            _ask(pipes[other], "retry", 0, expect="ok")
            assert all(rid > 0 for _n, rid in decide(other, 10))  # back online: sent at once
        for name in "AB":
            _ask(pipes[name], "stop", expect="stopped")
    finally:
        for name in "AB":
            procs[name].join(timeout=30)
            if procs[name].is_alive():
                procs[name].kill()
    assert queued >= 1500
    with PgStore.open(url(cluster, "lead", published)) as lead:
        notes = [r.note for r in lead.iter_history() if r.decided_by == "alice"]
    lost = set(reported) - set(notes)
    twice = len(notes) - len(set(notes))
    assert (len(lost), twice) == (0, 0), f"lost {len(lost)} (e.g. {sorted(lost)[:5]}), twice {twice}"
    assert len(notes) == len(reported)
    assert not OfflineQueue(f"{lead.location.queue_key}", "alice").pending()
