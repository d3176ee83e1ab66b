"""Trials of the integrity classes of #22 (used by tests/io/test_reliability_integrity.py and printed by
benchmarks/reliability_trials.py).

Every trial damages or interrupts a project at a random place or moment (seeded) and asserts what
must hold for *every* place and moment: nothing is an exception, nothing kept differs from what
was saved without being flagged, nothing saved is called lost, nothing is left behind.  A trial
returns a short outcome label; an AssertionError is a failure.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

from hieradjudicate.io.store.chain import verify
from hieradjudicate.io.store.health import check, salvage
from hieradjudicate.io.store.project_store import Store

ROOT = Path(__file__).resolve().parent.parent


def _dec(i: int) -> SimpleNamespace:
    return SimpleNamespace(lexelt="bank.n", instance=str(i), tags=(f"sense{i % 3}",), source="manual",
                           status="resolved", note=f"note-{i:04d}", decided_by="ann",
                           decided_at="2026-01-01T00:00:00Z", basis=None)


def _project(path: Path, n: int, per_commit: int = 1) -> dict[int, tuple]:
    with Store.create(path) as s:
        for start in range(0, n, per_commit):
            s.append_decisions([_dec(i) for i in range(start, min(n, start + per_commit))])
    return _rows(path)


def _rows(path: Path) -> dict[int, tuple]:
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return {r[0]: tuple(r[1:]) for r in conn.execute(
            "SELECT id, lexelt, instance, tags, source, status, note, decided_by, decided_at FROM decisions")}
    finally:
        conn.close()


def _kept_are_saved_or_flagged(path: Path, saved: dict[int, tuple]) -> tuple[int, int]:
    """salvage never raises; a kept row differs from what was saved only when it is flagged."""
    found = salvage(path)
    flagged = {int(f[1:].split(" ", 1)[0]) for f in found.flagged}
    for r in found.decisions:
        if saved.get(r[0]) != tuple(r[1:9]):
            assert r[0] in flagged, f"row #{r[0]} kept silently different: {r[1:9]} != {saved.get(r[0])}"
    assert all(f.check for f in check(path))  # check answers, never raises
    return len(found.decisions), len(flagged)


def checksum_byte(rng: random.Random, folder: Path) -> str:
    """Item 2: one byte of one row's stored checksum becomes any byte (non-ASCII included)."""
    path = folder / "p.hadj"
    saved = _project(path, 40)
    victim = rng.randrange(1, 41)
    conn = sqlite3.connect(path)
    old = conn.execute("SELECT chain FROM decisions WHERE id = ?", (victim,)).fetchone()[0].encode()
    at = rng.randrange(len(old))
    new = old[:at] + bytes([rng.choice([b for b in range(1, 256) if b != old[at]])]) + old[at + 1:]
    conn.execute("UPDATE decisions SET chain = CAST(? AS TEXT) WHERE id = ?", (new, victim))
    conn.commit()
    conn.close()
    kept, flagged = _kept_are_saved_or_flagged(path, saved)
    assert kept == 40 and flagged == 1, (kept, flagged)  # every row kept: the next row vouches
    with Store.open(path) as s:  # status and history stay usable
        assert s.read_only and len(s.latest_decisions()) == 40
    return "all 40 kept, 1 flagged"


def page_damage(rng: random.Random, folder: Path) -> str:
    """Item 3: one page of the decisions table is damaged (its header, its cell pointers or
    random bytes of its cells); every row on the other pages is recovered."""
    path = folder / "p.hadj"
    saved = _project(path, 600, per_commit=600)
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    pages = []
    for n in range(1, len(data) // size):
        base = n * size
        if data[base] == 0x0D and b"note-" in data[base:base + size]:
            pages.append(n)
    page = rng.choice(pages)
    base = page * size
    on_page = {int(m[:4]) + 1 for m in bytes(data[base:base + size]).split(b"note-")[1:] if m[:4].isdigit()}
    how = rng.choice(["cell count", "cell pointers", "cell bytes"])
    if how == "cell count":
        data[base + 3:base + 5] = rng.randbytes(2)
    elif how == "cell pointers":
        at = base + 8 + 2 * rng.randrange(max(1, int.from_bytes(data[base + 3:base + 5], "big")))
        data[at:at + 2] = rng.randbytes(2)
    else:
        start = base + int.from_bytes(data[base + 5:base + 7], "big") or base + size // 2
        at = rng.randrange(min(start, base + size - 16), base + size - 8)
        data[at:at + 8] = rng.randbytes(8)
    path.write_bytes(bytes(data))
    kept, flagged = _kept_are_saved_or_flagged(path, saved)
    ids = {r[0] for r in salvage(path).decisions}
    lost = set(saved) - on_page - ids
    assert not lost, f"{how}: rows on sound pages lost: {sorted(lost)[:5]}"
    return f"{how}: {kept} of 600 kept ({len(on_page)} on the page)"


def row_deleted(rng: random.Random, folder: Path) -> str:
    """Item 3: one row deleted; the next one is kept (flagged), nothing else is lost."""
    path = folder / "p.hadj"
    saved = _project(path, 30)
    victim = rng.randrange(1, 31)
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM decisions WHERE id = ?", (victim,))
    conn.commit()
    conn.close()
    kept, _ = _kept_are_saved_or_flagged(path, saved)
    assert kept == 29, kept
    return "29 of 29 kept"


_WRITER = ("import os, sqlite3, sys\n"
           "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
           "c.execute('PRAGMA cache_size = 1')\n"
           "c.execute('BEGIN IMMEDIATE')\n"
           "for i in range(int(sys.argv[2])):\n"
           "    c.execute(\"INSERT INTO decisions (lexelt, instance, tags, source, status, decided_by,"
           " decided_at) VALUES ('bank.n', ?, '[]', 'manual', 'resolved', 'x', 'y')\", (str(i),))\n"
           "os._exit(9)\n")


def interrupted_save(rng: random.Random, folder: Path) -> str:
    """Item 4a: a writer dies in the middle of a save (after a random number of rows): `check` says
    so and finds the project sound; `repair` and the next open roll it back; nothing saved is lost."""
    path = folder / "p.hadj"
    saved = _project(path, 20)
    subprocess.run([sys.executable, "-c", _WRITER, str(path), str(rng.randrange(1, 4000))], check=False)
    journal = Path(f"{path}-journal")
    findings = check(path)
    assert all(f.ok for f in findings), [f for f in findings if not f.ok]
    hot = journal.exists()
    if hot:
        assert findings[0].check == "interrupted save"
    with Store.open(path) as s:
        assert s.count_decisions() == 20 and not s.read_only
    assert _rows(path) == saved and not journal.exists()
    return "interrupted save recognised" if hot else "nothing to roll back"


_COLLEAGUE = ("import sys, time\n"
              "from types import SimpleNamespace\n"
              "from hieradjudicate.io.store.project_store import Store\n"
              "with Store.open(sys.argv[1]) as s:\n"
              "    print('open', flush=True)\n"
              "    for i in range(int(sys.argv[2])):\n"
              "        s.append_decisions([SimpleNamespace(lexelt='bank.n', instance=f'c{i}', tags=('a',),"
              " source='manual', status='resolved', note='', decided_by='ben',"
              " decided_at='2026-01-01T00:00:00Z', basis=None)])\n")


def colleague_saving(rng: random.Random, folder: Path) -> str:
    """Item 4b: checks while a colleague commits decision after decision: never "damaged"."""
    path = folder / "p.hadj"
    _project(path, 50)
    proc = subprocess.Popen([sys.executable, "-c", _COLLEAGUE, str(path), str(rng.randrange(100, 300))],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None and proc.stdout.readline().strip() == "open"
    checks = 0
    try:
        while proc.poll() is None and checks < 20:
            conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, isolation_level=None, timeout=10)
            try:
                report = verify(conn)
            finally:
                conn.close()
            assert report.sound, report.summary()
            checks += 1
    finally:
        proc.wait()
    return f"checks during commits: {checks}"


_KILLED = ("import os, sys\n"
           "import hieradjudicate.io.atomic as a\n"
           "a.write_atomic(sys.argv[1], 'new' * int(sys.argv[2]))\n")


def killed_export(rng: random.Random, folder: Path) -> str:
    """Item 5: an export killed at a random moment leaves the old file or the new one, and the next
    write leaves no temporary file; a link planted at any name is never followed."""
    from hieradjudicate.io.atomic import write_atomic

    target = folder / "gold.csv"
    victim = folder / "victim"
    victim.write_text("precious")
    target.write_text("old")
    os.symlink(victim, folder / f".gold.csv.tmp-{os.getpid()}")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(folder / "state")}
    proc = subprocess.Popen([sys.executable, "-c", _KILLED, str(target), str(rng.randrange(10**5, 10**7))],
                            cwd=ROOT, env=env)
    time.sleep(rng.uniform(0.05, 0.6))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    content = target.read_text()
    assert content == "old" or (set(content) <= set("new") and len(content) % 3 == 0), content[:20]
    write_atomic(folder / "gold.csv", "after")
    (folder / f".gold.csv.tmp-{os.getpid()}").unlink()
    assert sorted(p.name for p in folder.iterdir() if p.name != "state") == ["gold.csv", "victim"]
    assert victim.read_text() == "precious"
    return "old file kept" if content == "old" else "new file complete"


def killed_next_start(rng: random.Random, folder: Path) -> str:
    """Item 5: an export killed at a random moment leaves nothing behind once the program starts
    again, whatever the command and wherever it runs (its temporary file and its record are swept)."""
    out, state = folder / "out", folder / "state"
    out.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(state)}
    env.pop("HIERADJ_TEST_KILL_AT", None)
    moment = rng.choice([None, "recorded", "temporary", "written", "renamed"])
    if moment:  # the writer kills itself there (SIGKILL); else it is killed at a random time
        env["HIERADJ_TEST_KILL_AT"] = moment
    target = out / "gold.csv"
    target.write_text("old")
    proc = subprocess.Popen([sys.executable, "-c", _KILLED, str(target), str(rng.randrange(10**5, 10**7))],
                            cwd=ROOT, env=env)
    if moment:
        proc.wait()
    else:
        time.sleep(rng.uniform(0.05, 0.6))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    content = target.read_text()
    assert content == "old" or (set(content) <= set("new") and len(content) % 3 == 0), content[:20]
    left = [p.name for p in out.iterdir() if p.name != "gold.csv"]
    env.pop("HIERADJ_TEST_KILL_AT", None)
    subprocess.run([sys.executable, "-m", "hieradjudicate", "--version"], cwd=folder, env=env,
                   check=True, capture_output=True)
    assert sorted(p.name for p in out.iterdir()) == ["gold.csv"]
    writing = state / "hieradjudicate" / "writing"
    assert not writing.exists() or os.listdir(writing) == [], os.listdir(writing)
    if left:
        return "temporary swept at the next start"
    return "old file kept" if content == "old" else "new file complete"


CLASSES = {"checksum byte": checksum_byte, "page damage": page_damage, "row deleted": row_deleted,
           "interrupted save": interrupted_save, "colleague saving": colleague_saving,
           "killed export": killed_export, "killed, next start": killed_next_start}
