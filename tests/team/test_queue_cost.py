"""Queueing a decision while the server is away costs the same at the 300th as at the first:
neither the decision nor the window's count of waiting decisions re-reads the queue
(counted in lines parsed, not in time; ``benchmarks/bench_queue.py`` prints the milliseconds)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.io.store.pg import queue as queue_module
from hieradjudicate.io.store.pg.location import parse_location
from hieradjudicate.io.store.pg.store import PgStore


class _Gone:
    """A connection to a server that went away."""

    closed = True
    broken = True

    def close(self) -> None:
        pass


class _CountingJson:
    def __init__(self) -> None:
        self.parsed = 0

    def loads(self, raw: Any) -> Any:
        self.parsed += 1
        return json.loads(raw)

    dumps = staticmethod(json.dumps)


def offline_store() -> PgStore:
    loc = parse_location("postgresql://alice@127.0.0.1:5999/team?project=cost")
    store = PgStore(loc, _Gone(), {"adjudicator"}, "alice", None)
    store.retry_seconds = 1e9
    store._failed_at = time.monotonic()  # it failed just now: no reconnection is tried
    return store


def test_queueing_and_counting_do_not_reread_the_queue(queue_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counting = _CountingJson()
    monkeypatch.setattr(queue_module, "json", counting)
    store = offline_store()
    per_append, per_count = [], []
    for k in range(300):
        before = counting.parsed
        row = store.append_decisions([Decision("bank.n", f"bank.n.{k:03d}", ("1.1",), note=f"n{k}",
                                               decided_by="alice", decided_at="2026-01-01T00:00:00.000Z")])[0]
        assert row.id < 0 and store.offline
        per_append.append(counting.parsed - before)
        before = counting.parsed
        assert len(store.queue) == k + 1  # what the window's status bar shows every 200 ms
        per_count.append(counting.parsed - before)
    assert max(per_append) == 0, f"lines parsed per queued decision: {per_append[:3]} … {per_append[-3:]}"
    assert max(per_count) <= 1, f"lines parsed per count: {per_count[:3]} … {per_count[-3:]}"
    assert [e["rows"][0][5] for e in store.queue.entries()] == [f"n{k}" for k in range(300)]
