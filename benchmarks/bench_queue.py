"""The offline queue: milliseconds to keep one decision while the server is away, at the 1st,
1,000th and 10,000th queued decision, and to count what waits (the window's status bar does
every 200 ms).  No server needed: the store's connection is a broken one.

    python benchmarks/bench_queue.py [--n 10000]

Each decision is appended and fsync-ed: the disk's fsync is most of the figure, and is printed
alone for comparison.  Prints figures,
asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.io.store.pg.location import parse_location
from hieradjudicate.io.store.pg.store import PgStore


class _Gone:
    """A connection to a server that went away."""

    closed = True
    broken = True

    def close(self) -> None:
        pass


def offline_store() -> PgStore:
    store = PgStore(parse_location("postgresql://alice@127.0.0.1:5999/team?project=bench"), _Gone(),
                    {"adjudicator"}, "alice", None)
    store.retry_seconds = 1e9
    store._failed_at = time.monotonic()  # it failed just now: no reconnection is tried
    return store


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HIERADJ_QUEUE_DIR"] = tmp
        store = offline_store()
        marks = {1, 1_000, args.n}
        around: dict[int, list[float]] = {m: [] for m in marks}
        count_ms: dict[int, float] = {}
        for k in range(1, args.n + 1):
            d = Decision("bank.n", f"bank.n.{k % 500:03d}", ("1.1",), note=f"n{k}", decided_by="alice",
                         decided_at="2026-01-01T00:00:00.000Z")
            t = time.perf_counter()
            store.append_decisions([d])
            ms = (time.perf_counter() - t) * 1e3
            for m in marks:
                if m - 5 <= k <= m + 5:
                    around[m].append(ms)
            t = time.perf_counter()
            assert len(store.queue) == k  # as the window's status bar does after each poll
            if k in marks:
                count_ms[k] = (time.perf_counter() - t) * 1e3
        floor = []
        for _ in range(20):  # what the disk alone costs: a line appended and fsync-ed
            t = time.perf_counter()
            fd = os.open(Path(tmp) / "floor", os.O_WRONLY | os.O_APPEND | os.O_CREAT)
            os.write(fd, b"x" * 300 + b"\n")
            os.fsync(fd)
            os.close(fd)
            floor.append((time.perf_counter() - t) * 1e3)
        print(f"offline queue, {args.n} decisions, one fsync each ({os.getloadavg()[0]:.2f} load; "
              f"the disk alone: {statistics.median(floor):.2f} ms per appended line and fsync)")
        for m in sorted(marks):
            print(f"  decision {m:>6}: {statistics.median(around[m]):6.2f} ms to queue (median of "
                  f"{len(around[m])} around it); counting what waits: {count_ms[m]:.2f} ms")


if __name__ == "__main__":
    main()
