"""A user's worst day (#12): killed builds, stale side files, deleted logs, read-only opens."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.project_store import Store
from hieradjudicate.io.store.sidecars import sweep_stale_builds


def _decisions(n: int, start: int = 0) -> list[SimpleNamespace]:
    return [SimpleNamespace(lexelt="bank.n", instance=str(i), tags=("a",), source="manual",
                            status="resolved", note="", decided_by="ann",
                            decided_at="2026-01-01T00:00:00Z", basis=None)
            for i in range(start, start + n)]


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_killed_build_is_swept_by_the_next_creation(tmp_path: Path) -> None:
    dead = _dead_pid()
    junk = [tmp_path / f".p.hadj.new-{dead}", tmp_path / f".p.hadj.new-{dead}-wal",
            tmp_path / f"..p.hadj.new-{dead}.creating-{dead}", tmp_path / f".q.hadj.creating-{dead}-shm"]
    for j in junk:
        j.write_bytes(b"x" * 1000)
    alive = tmp_path / f".r.hadj.new-{os.getpid()}"  # a build in progress (ours): left alone
    alive.write_bytes(b"y")
    Store.create(tmp_path / "other.hadj").close()
    assert not any(j.exists() for j in junk)
    assert alive.exists()
    assert sorted(os.listdir(tmp_path)) == sorted([alive.name, "other.hadj"])


def test_sweep_ignores_other_files(tmp_path: Path) -> None:
    keep = ["p.hadj", ".hidden", "notes.new-12", ".p.hadj.bak-v1", ".p.hadj.new-abc"]
    for k in keep:
        (tmp_path / k).write_text("k")
    assert sweep_stale_builds(tmp_path) == []
    assert sorted(os.listdir(tmp_path)) == sorted(keep)


def _old_wal_beside(path: Path) -> bytes:
    """A write-ahead log of an earlier database at ``path``, as a killed overwrite leaves it."""
    other = path.with_name("other.db")
    conn = sqlite3.connect(other)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("CREATE TABLE t (x BLOB)")
    conn.executemany("INSERT INTO t VALUES (randomblob(3000))", [()] * 300)
    conn.commit()
    wal = Path(f"{other}-wal").read_bytes()
    conn.close()
    return wal


@pytest.mark.parametrize("overwrite", [False, True])
def test_a_stale_log_beside_the_target_is_never_applied(tmp_path: Path, overwrite: bool) -> None:
    path = tmp_path / "p.hadj"
    if overwrite:
        with Store.create(path) as s:
            s.append_decisions(_decisions(5))
    Path(f"{path}-wal").write_bytes(_old_wal_beside(path))
    with Store.create(path, overwrite=overwrite) as s:
        assert s.count_decisions() == 0
        assert s.integrity_check() == ["ok"]
    with Store.open(path) as s:
        assert s.integrity_check() == ["ok"]


def test_no_saved_decision_lives_only_in_a_side_file(tmp_path: Path) -> None:
    """Deleting every side file while a writer is open, then crashing, loses nothing reported saved."""
    path = tmp_path / "p.hadj"
    Store.create(path).close()
    code = (
        "import os, sys\n"
        "from types import SimpleNamespace as N\n"
        "from hieradjudicate.io.store.project_store import Store\n"
        f"s = Store.open({str(path)!r})\n"
        "for i in range(40):\n"
        "    s.append_decisions([N(lexelt='bank.n', instance=str(i), tags=('a',), source='manual',"
        " status='resolved', note='', decided_by='ann', decided_at='2026-01-01T00:00:00Z', basis=None)])\n"
        "    for suffix in ('-wal', '-shm', '-journal'):\n"
        "        p = sys.argv[1] + suffix\n"
        "        if os.path.exists(p): os.unlink(p)\n"
        "print('saved', flush=True)\n"
        "os._exit(9)\n"  # a crash: no close, no checkpoint
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], check=False, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert "saved" in out.stdout, out.stderr
    with Store.open(path) as s:
        assert s.count_decisions() == 40


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_read_only_open_leaves_no_file_and_no_change(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    with Store.create(path) as s:
        s.append_decisions(_decisions(10))
    path.chmod(0o444)
    before, listing = _sha(path), sorted(os.listdir(tmp_path))
    for ro in (True, False):  # a 0444 file opens read-only even when writing was asked for
        with Store.open(path, read_only=ro) as s:
            assert len(s.latest_decisions()) == 10
            if os.geteuid() != 0:
                assert s.read_only
    assert sorted(os.listdir(tmp_path)) == listing
    if os.geteuid() != 0:  # root may write a 0444 file (and then takes the writer's path)
        assert _sha(path) == before


def test_an_old_write_ahead_log_project_is_read_and_converted(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    with Store.create(path) as s:
        s.append_decisions(_decisions(3))
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    listing = sorted(os.listdir(tmp_path))
    with Store.open(path, read_only=True) as s:  # immutable: no -shm appears
        assert s.count_decisions() == 3
    assert sorted(os.listdir(tmp_path)) == listing
    with Store.open(path) as s:
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert s.count_decisions() == 3


def test_symlinks(tmp_path: Path) -> None:
    real = tmp_path / "real.hadj"
    with Store.create(real) as s:
        s.append_decisions(_decisions(2))
    link = tmp_path / "link.hadj"
    link.symlink_to(real)
    with Store.open(link) as s:
        assert s.count_decisions() == 2 and s.path == real
    dangling = tmp_path / "dangling.hadj"
    dangling.symlink_to(tmp_path / "gone.hadj")
    with pytest.raises(ProjectError, match="symbolic link to .*gone.hadj, which does not exist"):
        Store.open(dangling)


def test_a_crash_mid_transaction_is_rolled_back_on_open(tmp_path: Path) -> None:
    """A hot journal left by a killed writer: the interrupted batch never appears, the rest does."""
    path = tmp_path / "p.hadj"
    with Store.create(path) as s:
        s.append_decisions(_decisions(5))
    code = (
        "import os, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('PRAGMA cache_size = 1')\n"  # spill pages to the file before commit
        "c.execute('BEGIN IMMEDIATE')\n"
        "c.executemany(\"INSERT INTO decisions (lexelt, instance, tags, source, status, decided_by,"
        " decided_at) VALUES ('bank.n', ?, '[]', 'manual', 'resolved', 'x', 'y')\","
        " [(str(i),) for i in range(5000)])\n"
        "os._exit(9)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(path)], check=False)
    assert Path(f"{path}-journal").exists()
    with Store.open(path) as s:
        assert s.count_decisions() == 5 and s.integrity_check() == ["ok"]
    assert not Path(f"{path}-journal").exists()


def test_copy_of_a_project_opens(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    with Store.create(path) as s:
        s.append_decisions(_decisions(2))
    shutil.copy(path, tmp_path / "copy.hadj")
    with Store.open(tmp_path / "copy.hadj") as s:
        assert s.count_decisions() == 2
