"""#22 item 5 (gap): killed exports and reports leave no temporary files behind.

A writer is killed with a real SIGKILL at each moment of a write (``HIERADJ_TEST_KILL_AT``): before
its temporary file exists, once it exists but is empty, once it is written, and once it is renamed.
At every moment the target holds the old file or the complete new one, and the next start of the
program -- any command, in another folder -- removes the temporary and the writer's record.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hieradjudicate.app.session.session import Session
from tests.app.test_session import demo_args

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str], state: Path, kill_at: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(state)}
    env.pop("HIERADJ_TEST_KILL_AT", None)
    if kill_at:
        env["HIERADJ_TEST_KILL_AT"] = kill_at
    return subprocess.run([sys.executable, "-m", "hieradjudicate", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, str]:
    """The demo project and its CSV export written by an undisturbed run."""
    tmp = tmp_path_factory.mktemp("killed")
    inv, specs, ctx = demo_args(tmp)
    path = tmp / "demo.hadj"
    with Session.create(path, inv, specs, ctx):
        pass
    whole = tmp / "whole.csv"
    proc = _run(["project", "export", str(path), "--format", "csv", "-o", str(whole)], tmp / "state")
    assert proc.returncode == 0, proc.stderr
    return path, whole.read_text()


@pytest.mark.parametrize("moment", ["recorded", "temporary", "written", "renamed"])
def test_a_killed_export_leaves_the_old_or_new_file_and_nothing_after_the_next_start(
        project: tuple[Path, str], tmp_path: Path, moment: str) -> None:
    out, state = tmp_path / "out", tmp_path / "state"
    out.mkdir()
    target = out / "gold.csv"
    target.write_text("old\n")
    proc = _run(["project", "export", str(project[0]), "--format", "csv", "-o", str(target)], state, moment)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    content = target.read_text()
    left = sorted(p.name for p in out.iterdir() if p.name != "gold.csv")
    assert content == (project[1] if moment == "renamed" else "old\n")
    # the moment is real: a named temporary exists once it was created, and a record of the write
    assert len(left) == (1 if moment in ("temporary", "written") else 0), left
    assert all(n.startswith(".gold.csv.") and n.endswith(".tmp") for n in left)
    assert len(os.listdir(state / "hieradjudicate" / "writing")) == 1
    # the next start of the program, for another command in another folder, sweeps it
    elsewhere = _run(["validate", "--help"], state)
    assert elsewhere.returncode == 0, elsewhere.stderr
    assert sorted(p.name for p in out.iterdir()) == ["gold.csv"]
    assert os.listdir(state / "hieradjudicate" / "writing") == []


def test_a_temporary_of_a_live_writer_is_left_alone(tmp_path: Path, monkeypatch) -> None:
    """Only dead writers are swept: a record of this (living) process keeps its temporary."""
    from hieradjudicate.io import atomic

    state = tmp_path / "state"
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    record = atomic._record(out, "gold.csv")
    tmp = out / f".gold.csv.{os.getpid()}-abcd1234.tmp"
    tmp.write_text("half")
    assert atomic.sweep_pending() == 0
    assert tmp.exists() and record is not None and record.exists()


def test_the_next_start_sweeps_a_temporary_left_mid_write(tmp_path: Path) -> None:
    """Without the test hook: a writer dying (os._exit) halfway through writing its temporary; the
    next start of the program (another command) removes the temporary, not only the next write."""
    out, state = tmp_path / "out", tmp_path / "state"
    out.mkdir()
    code = ("import os, sys\n"
            "import hieradjudicate.io.atomic as a\n"
            "def stop(fd, payload):\n"
            "    os.write(fd, payload[:3]); os._exit(9)\n"
            "a._write_all = stop\n"
            "a._unnamed = lambda folder: None\n"  # a named temporary, as where O_TMPFILE is missing
            "a.write_atomic(sys.argv[1], 'x' * 100000)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(state)}
    env.pop("HIERADJ_TEST_KILL_AT", None)
    proc = subprocess.run([sys.executable, "-c", code, str(out / "gold.csv")], env=env, cwd=ROOT)
    assert proc.returncode == 9
    assert [p.name.startswith(".gold.csv.") for p in out.iterdir()] == [True]  # the half temporary
    assert _run(["--version"], state).returncode == 0
    assert list(out.iterdir()) == []
