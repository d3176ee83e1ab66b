"""Cost of saving one decision (rollback journal vs WAL) and of checking the history on open.

The project file uses a rollback journal (``journal_mode=DELETE``) so that no
saved decision lives only in a side file (#12).  This prints what that costs
per decision against the write-ahead log it replaced, on this machine's disk.

    python benchmarks/bench_decision_commit.py [N] [FOLDER]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

from hieradjudicate.io.store.project_store import Store


def one(i: int) -> SimpleNamespace:
    return SimpleNamespace(lexelt="bank.n", instance=str(i), tags=("bank%1:14:00::",), source="manual",
                           status="resolved", note="", decided_by="ann",
                           decided_at="2026-01-01T00:00:00Z", basis=None)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    folder = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.mkdtemp())
    for mode in ("delete", "wal"):
        path = folder / f"bench-{mode}.hadj"
        path.unlink(missing_ok=True)
        with Store.create(path) as s:
            s.conn.execute(f"PRAGMA journal_mode = {mode}")
            t0 = time.perf_counter()
            for i in range(n):
                s.append_decisions([one(i)])
            dt = time.perf_counter() - t0
        print(f"journal_mode={mode:6s}: {n} decisions, {1000 * dt / n:.2f} ms per decision "
              f"(synchronous=FULL)")
        path.unlink(missing_ok=True)
    # opening checks the decision history's hash chain and the decisions' index: at MASC size
    path = folder / "bench-chain.hadj"
    path.unlink(missing_ok=True)
    with Store.create(path) as s:
        s.append_decisions([one(i) for i in range(44_682)], batch_label="all")
        t0 = time.perf_counter()
        for i in range(100):
            s.append_decisions([one(i)])
        per = (time.perf_counter() - t0) / 100
    print(f"one decision after 44,682 others: {1000 * per:.2f} ms (chain link included)")
    for check in (False, True):
        t0 = time.perf_counter()
        Store.open(path, check=check).close()
        print(f"open with {'quick_check + decisions check + chain' if check else 'no checks'}: "
              f"{1000 * (time.perf_counter() - t0):.0f} ms")
    path.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
