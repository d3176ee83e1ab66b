"""Team mode against a throwaway local PostgreSQL server: commits under load, live visibility,
publishing MASC and opening it from the server (CLI session and the window).

    python benchmarks/bench_team.py [--adjudicators 20] [--rate 10] [--seconds 60] [--no-masc]

Each simulated adjudicator is a thread with its own connection (a PgStore, as the window has)
deciding its assigned instances at ``--rate`` decisions a second.  Printed: commit latency
p50/p95/max, decisions reported saved and how many of them are on the server afterwards (lost
must be 0), and the time from a commit returning to another connection having read the row
(LISTEN/NOTIFY + the follower's query; the window polls every 200 ms on top).  The MASC part
needs ``HIERADJ_REALDATA`` (or ../shared/data) with masc_amt/.  Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench_util import realdata

from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.io.store.pg.local_cluster import LocalCluster
from hieradjudicate.io.store.pg.setup import setup
from hieradjudicate.io.store.pg.store import PgStore
from hieradjudicate.io.store.pg.team import write_assignments
from hieradjudicate.app.team import publish_project as publish
from hieradjudicate.io.store.pg.transfer import grant

DEMO = Path(__file__).resolve().parent.parent / "resources" / "demo"


def load_note() -> str:
    return f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"


def pct(values: list[float], q: float) -> float:
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))]


def bench_load(c: LocalCluster, folder: Path, n_adj: int, rate: float, seconds: float) -> None:
    path = folder / "demo.hadj"
    with Session.create(path, [str(DEMO / "inventory.txt")],
                        [AnnotationSpec(str(DEMO / f"annotator_{a}.key")) for a in ("ann", "ben", "cho")]):
        pass
    people = [f"adj{k:02d}" for k in range(n_adj)]
    with c.admin() as conn:
        for p in people:
            conn.execute(f'CREATE ROLE "{p}" LOGIN')
    lead_url = c.url("lead", "team", "load")
    publish(path, lead_url)
    grant(lead_url, {"adjudicator": people})
    with Session.open(lead_url) as s:
        keys = s.instances()
        write_assignments(s.store, [(*k, people[i % n_adj], False) for i, k in enumerate(keys)])
    mine = {p: [k for i, k in enumerate(keys) if i % n_adj == j] for j, p in enumerate(people)}

    commit_ms: list[float] = []
    returned_at: dict[int, float] = {}
    reported: list[tuple[int, str]] = []
    queued = [0]
    lock = threading.Lock()
    seen_at: dict[int, float] = {}
    stop = threading.Event()

    def adjudicator(p: str) -> None:
        with PgStore.open(c.url(p, "team", "load")) as store:
            start = time.monotonic()
            k = 0
            while True:
                due = start + k / rate
                if due - start >= seconds:
                    break
                delay = due - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                key = mine[p][k % len(mine[p])]
                note = f"{p}-{k}"
                d = Decision(*key, ("1",), note=note, decided_by=p, decided_at="2026-01-01T00:00:00.000Z")
                t0 = time.perf_counter()
                row = store.append_decisions([d])[0]
                t1 = time.perf_counter()
                with lock:
                    commit_ms.append(1000 * (t1 - t0))
                    if row.id > 0:
                        returned_at[row.id] = t1
                        reported.append((row.id, note))
                    else:
                        queued[0] += 1
                k += 1

    def watcher() -> None:  # another window: LISTEN, then read the new rows as the follower does
        import psycopg

        with PgStore.open(lead_url, read_only=True) as store:
            conn = psycopg.connect(c.url("lead", "team"), autocommit=True)
            conn.execute('LISTEN "hadj_load"')
            while not stop.is_set():
                got = [n.payload for n in conn.notifies(timeout=0.5, stop_after=1)]
                if not got:
                    continue
                got += [n.payload for n in conn.notifies(timeout=0)]
                rows = store.rows_in([tuple(int(x) for x in p.split()) for p in got])
                now = time.perf_counter()
                for r in rows:
                    seen_at.setdefault(r.id, now)
            conn.close()

    w = threading.Thread(target=watcher)
    w.start()
    time.sleep(0.5)
    threads = [threading.Thread(target=adjudicator, args=(p,)) for p in people]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    time.sleep(1.0)
    stop.set()
    w.join()
    with PgStore.open(lead_url, read_only=True) as store:
        on_server = {r.id: r.note for r in store.iter_history() if r.decided_by.startswith("adj")}
    lost = sum(1 for rid, note in reported if on_server.get(rid) != note)
    dup = len(on_server) - len(set(on_server.values()))
    lag = [1000 * (seen_at[i] - returned_at[i]) for i in returned_at if i in seen_at]
    print(f"load: {n_adj} adjudicators x {rate:g} decisions/s x {seconds:g} s: {len(commit_ms)} decisions in "
          f"{wall:.1f} s ({len(commit_ms) / wall:.0f}/s); commit p50 {statistics.median(commit_ms):.1f} ms, "
          f"p95 {pct(commit_ms, 0.95):.1f} ms, max {max(commit_ms):.1f} ms ({load_note()})")
    print(f"load: reported saved {len(reported)}, queued offline {queued[0]}, on the server "
          f"{len(on_server)}, lost {lost}, stored twice {dup}")
    print(f"load: commit returned -> another connection has read the row: p50 {statistics.median(lag):.1f} ms, "
          f"p95 {pct(lag, 0.95):.1f} ms, max {max(lag):.1f} ms over {len(lag)} decisions (not seen: "
          f"{len(returned_at) - len(lag)}); the window polls every 200 ms on top of this")


def _app():  # type: ignore[no-untyped-def]
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


def bench_window(c: LocalCluster, n: int = 30) -> None:
    """A decision committed by another connection until the lead's window shows it (its poll
    timer, the notification, the query, the table), the real window offscreen."""
    from hieradjudicate.gui.main_window import MainWindow

    app = _app()
    lead_url = c.url("lead", "team", "load")
    win = MainWindow()
    win.load_project(lead_url)
    keys = win.session.instances()
    lags = []
    with PgStore.open(c.url("adj00", "team", "load")) as other:
        mine = [k for k in keys if other._read("SELECT 1 FROM assignments WHERE lexelt = %s AND instance = %s"
                                              " AND adjudicator = current_user", k)]
        for k in range(n):
            key = mine[k % len(mine)]
            i = win.wb.corpus.instance_index(*key)
            tag = ("1",) if win.wb.gold[i] != "1" else ("2",)
            d = Decision(*key, tag, decided_by="adj00", decided_at="2026-01-01T00:00:00.000Z")
            app.processEvents()
            other.append_decisions([d])
            t0 = time.perf_counter()
            while win.wb.gold[i] != " ".join(tag) and time.perf_counter() - t0 < 5:
                app.processEvents()
                time.sleep(0.002)
            lags.append(1000 * (time.perf_counter() - t0))
            time.sleep(0.05 * (k % 5))  # commits at different moments of the poll cycle
    win.close_project()
    win.close()
    print(f"window: another person's decision shown in the lead's window after p50 {statistics.median(lags):.0f} ms, "
          f"p95 {pct(lags, 0.95):.0f} ms, max {max(lags):.0f} ms over {n} decisions (poll every 200 ms)")


def bench_masc(c: LocalCluster, folder: Path) -> None:
    masc = realdata() / "masc_amt"
    if not (masc / "masc_amt_labels_wide.tsv.gz").exists():
        print(f"MASC: skipped ({masc} has no masc_amt_labels_wide.tsv.gz; set HIERADJ_REALDATA)")
        return
    path = folder / "masc.hadj"
    t0 = time.perf_counter()
    with Session.create(path, [str(masc / "inventory_tree.tsv")],
                        [AnnotationSpec(str(masc / "masc_amt_labels_wide.tsv.gz"))]) as s:
        s.accept_agreed(compatible=True)
        labels = sum(int(x.tag_node.size) for x in s.corpus.sets)
        n, sets, decided = s.corpus.n, len(s.corpus.sets), len(s.decisions)
    print(f"MASC: file project made in {time.perf_counter() - t0:.1f} s ({n} instances, {sets} sets, "
          f"{labels} labels, {decided} decisions)")
    u = c.url("lead", "team", "masc")
    t0 = time.perf_counter()
    counts = publish(path, u)
    print(f"MASC: publish {time.perf_counter() - t0:.2f} s ({counts}; {path.stat().st_size / 2**20:.0f} MiB file; "
          f"{load_note()})")
    for run in range(3):
        t0 = time.perf_counter()
        with Session.open(u) as s:
            print(f"MASC: Session.open from the server #{run + 1}: {time.perf_counter() - t0:.2f} s "
                  f"(corpus from cache: {s.from_cache}, {len(s.decisions)} decisions)")
    t0 = time.perf_counter()
    with Session.open(path):
        print(f"MASC: the same from the .hadj file: {time.perf_counter() - t0:.2f} s")
    bench_masc_team(c, u)
    from hieradjudicate.gui.main_window import MainWindow

    app = _app()
    win = MainWindow()
    for where, target in (("the server", u), ("the .hadj file", str(path)), ("the server", u)):
        t0 = time.perf_counter()
        ok = win.load_project(target)
        app.processEvents()
        print(f"MASC: window opens it from {where}: {time.perf_counter() - t0:.2f} s (ok {ok})")
        win.close_project()
    win.close()


def bench_masc_team(c: LocalCluster, u: str, n_adj: int = 20) -> None:
    """MASC split among 20 adjudicators with 10 % blind overlap, every instance decided (each
    adjudicator picks a lexelt's first leaf with probability 0.8, independently: kappa near 0 and
    about 32 % of the blind pairs in conflict): assignment, an adjudicator opening it, the conflict
    queue, the lead's figures."""
    import numpy as np

    from hieradjudicate.app.team import figures, plan_assignment
    from hieradjudicate.io.store.pg.team import adjudicator_rows, assigned, conflicts, lead_rows

    people = [f"madj{k:02d}" for k in range(n_adj)]
    with c.admin() as conn:
        for p in people:
            conn.execute(f'CREATE ROLE "{p}" LOGIN')
    grant(u, {"adjudicator": people})
    with Session.open(u) as s:
        corpus = s.corpus
        keys = [k for k in s.instances() if s.decisions.current(*k) is None]
        t0 = time.perf_counter()
        rows = plan_assignment(keys, people, overlap=0.1)
        n = write_assignments(s.store, rows)
        print(f"MASC team: assign {len(keys)} open instances to {n_adj} adjudicators, 10 % blind: {n} rows in "
              f"{time.perf_counter() - t0:.2f} s")
    inv = corpus.inventory
    rng = np.random.default_rng(0)
    by: dict[str, list[tuple[str, str]]] = {}
    for lex, inst, who, _blind in rows:
        by.setdefault(who, []).append((lex, inst))
    t0 = time.perf_counter()
    for p in people:
        ds = []
        for lex, inst in by[p]:
            leaves = inv.lexelt_leaf_nodes[inv.lexelt_index(lex)]
            pick = 0 if rng.random() < 0.8 or len(leaves) < 2 else 1
            ds.append(Decision(lex, inst, (inv.node_id[int(leaves[pick])],), decided_by=p,
                               decided_at="2026-01-01T00:00:00.000Z"))
        with PgStore.open(c.url(p, "team", "masc")) as store:
            store.append_decisions(ds, batch_label="bench")
    print(f"MASC team: {len(rows)} decisions, one batch per adjudicator, in {time.perf_counter() - t0:.2f} s")
    for run in range(2):
        t0 = time.perf_counter()
        with Session.open(c.url(people[0], "team", "masc")) as s:
            print(f"MASC team: an adjudicator opens it #{run + 1} (row-level security on every row): "
                  f"{time.perf_counter() - t0:.2f} s ({len(s.decisions)} decisions visible)")
    with Session.open(u, read_only=True) as s:
        t0 = time.perf_counter()
        queue = conflicts(s.store)
        print(f"MASC team: conflict queue {len({(q.lexelt, q.instance) for q in queue})} instances in "
              f"{time.perf_counter() - t0:.2f} s")
        t0 = time.perf_counter()
        figs = figures(s.corpus, assigned(s.store), adjudicator_rows(s.store), lead_rows(s.store))
        f = figs[0]
        print(f"MASC team: the lead's figures for {len(figs)} adjudicators (kappa with 1000-resample BCa "
              f"intervals) in {time.perf_counter() - t0:.2f} s; e.g. {f.name}: {f.overlap_pairs} overlap pairs, "
              f"Cohen {f.cohen.estimate.value:.3f} [{f.cohen.low:.3f}, {f.cohen.high:.3f}]")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--adjudicators", type=int, default=20)
    ap.add_argument("--rate", type=float, default=10.0)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--no-masc", action="store_true")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="hadj-bench-"))
    os.environ.setdefault("HIERADJ_QUEUE_DIR", str(folder / "queue"))
    with LocalCluster.start(settings={"max_connections": "200"}) as c:
        with c.admin() as conn:
            conn.execute('CREATE ROLE "lead" LOGIN')  # a plain login, made a lead by server setup
            conn.execute("CREATE DATABASE team")
        setup(c.url(db="team"), ["lead"])
        bench_load(c, folder, args.adjudicators, args.rate, args.seconds)
        bench_window(c)
        if not args.no_masc:
            bench_masc(c, folder)


if __name__ == "__main__":
    main()
