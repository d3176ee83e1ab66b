"""Two processes on one project: the second is read-only and says so; the first keeps writing."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.app.session.decisions import Decision, DecisionState
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.project_store import Store

ROOT = str(Path(hieradjudicate.__file__).resolve().parent.parent)

WRITER = textwrap.dedent("""
    import sys
    from hieradjudicate.app.session.decisions import Decision, DecisionState
    from hieradjudicate.io.store.project_store import Store
    store = Store.open(sys.argv[1])
    state = DecisionState(store)
    print("ready", store.read_only, flush=True)
    for n in (100, 200):
        sys.stdin.readline()
        for i in range(n - 100, n):
            state.record([Decision("bank.n", str(i), ("a",))])
        print("wrote", n, flush=True)
    sys.stdin.readline()
    store.close()
    print("closed", flush=True)
""")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_second_process_is_read_only_and_first_keeps_writing(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    Store.create(path).close()
    child = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env=_env())
    assert child.stdin is not None and child.stdout is not None

    def say(expected: str) -> None:
        child.stdin.write("go\n")  # type: ignore[union-attr]
        child.stdin.flush()  # type: ignore[union-attr]
        assert child.stdout.readline().strip() == expected  # type: ignore[union-attr]

    try:
        assert child.stdout.readline().split() == ["ready", "False"]
        say("wrote 100")
        with Store.open(path) as second:
            assert second.read_only
            reason = second.read_only_reason or ""
            assert "open in another hieradjudicate" in reason and f"pid {child.pid}" in reason
            assert reason.endswith("opened read-only") and "\n" not in reason
            state = DecisionState(second)
            assert len(state) == 100
            with pytest.raises(ProjectError, match="open in another hieradjudicate"):
                state.record([Decision("bank.n", "x", ("b",))])
            say("wrote 200")  # the writer is not disturbed by the reader
            state.reload()
            assert len(state) == 200
        say("closed")
        assert child.wait(timeout=20) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    with Store.open(path) as again:  # the lock is released with the writer
        assert not again.read_only and again.count_decisions() == 200
