"""Ctrl-C during ``report`` (issue #35): the command stops at once, exit 130, and leaves no file
behind -- neither the report nor a temporary file.  The competence estimate runs in a daemon
thread that the interrupt stops; a pool's worker thread used to be joined at exit (5-6 s on
Senseval-3)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from hieradjudicate.cli import report as report_cli
from tests.conftest import DEMO, ROOT


@pytest.fixture(scope="module")
def demo_project(tmp_path_factory):
    from hieradjudicate.cli.entry import main

    path = tmp_path_factory.mktemp("proj") / "demo.hadj"
    sets = [a for who in ("ann", "ben", "cho") for a in ("--annotations", f"{who}={DEMO / f'annotator_{who}.key'}")]
    assert main(["project", "new", str(path), "--inventory", str(DEMO / "inventory.txt"), *sets]) == 0
    return path


def _ctrl_c_as_in_a_terminal() -> None:
    """The child starts as from a shell: SIGINT at its default and not blocked.  Both are inherited
    through exec, and the test runner's process may have either changed by an earlier test (Qt, a
    server's tools); a child started with SIGINT ignored rightly ignores Ctrl-C (as under nohup)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupted_report(project, out_dir, after: str, *extra: str):
    """``report`` in a child process, SIGINT once its stderr shows a line starting with ``after``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_STATE_HOME=str(out_dir / "state"))
    proc = subprocess.Popen([sys.executable, "-m", "hieradjudicate", "report", str(project), "-o",
                             str(out_dir / "r.html"), *extra], stderr=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, env=env, cwd=out_dir, preexec_fn=_ctrl_c_as_in_a_terminal)
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if line.startswith(after):
            break
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, rest = proc.communicate(timeout=120)  # a hang guard, not a timing claim
    return proc.returncode, "".join(seen) + rest, time.monotonic() - sent


@pytest.mark.parametrize("after", ["report: reading", "report: annotator competence"])
def test_ctrl_c_during_report_stops_it_and_leaves_no_file(demo_project, tmp_path, after):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    code, err, seconds = _interrupted_report(demo_project, out_dir, after, "--resamples", "20000")
    print(f"stopped {seconds:.2f} s after SIGINT")  # the figure issue #35 asks for (0.5 s)
    assert code == 130, err
    assert err.rstrip().endswith("hieradjudicate: interrupted") and "Traceback" not in err
    assert [p.name for p in out_dir.iterdir() if p.name != "state"] == []  # no report, no temporary file


def test_the_competence_thread_stops_when_told_and_does_not_hold_the_exit():
    iterations = []

    def endless(*, progress):  # Dawid & Skene's loop: progress after every iteration, which may raise
        while True:
            iterations.append(1)
            progress(len(iterations), 10**9)
            time.sleep(0.001)

    job = report_cli._Background(endless)
    (thread,) = [t for t in threading.enumerate() if t.name == "report-competence"]
    assert thread.daemon  # the interpreter's exit does not wait for it
    while not iterations:
        time.sleep(0.001)
    job.stop()
    thread.join(timeout=60)
    assert not thread.is_alive()
    with pytest.raises(report_cli._Stopped):
        job.result()


def test_report_prints_its_steps_on_stderr(demo_project, tmp_path, capsys):
    from hieradjudicate.cli.entry import main

    assert main(["report", str(demo_project), "-o", str(tmp_path / "r.html"), "--resamples", "0"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"report: reading {demo_project} ..."
    assert "report: Pairwise agreement of 3 sets ..." in err and f"report: writing {tmp_path / 'r.html'} ..." in err
    assert err[-1] == f"report written to {tmp_path / 'r.html'}"
