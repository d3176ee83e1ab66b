"""Every command in the README's ``sh`` blocks runs as written (issue #35).

The blocks a reader pastes are run in README order as one shell session (a ``cd`` or a file made
by one block holds for the next), in a throw-away folder holding a copy of the demo as the
checkout has it (``resources/demo``), with a throw-away home and no display.  ``hieradjudicate``
there is this checkout's code.  The few blocks that cannot run here are named below, each with
the reason and where it is checked instead; every other ``sh`` block is run.  Synopses (``[...]``,
``a|b``) are ``text`` blocks, never ``sh``.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

#: ``(pattern found in the block, why it is not run here)``
NOT_RUN = (
    (r"python3 -m venv \.venv", "makes the environment these tests run in (a network install); .ci/run "
                                 "runs it as written on a fresh machine"),
    (r"python -m pytest", "runs this test suite itself"),
    (r"packaging/build_bundle\.sh", "a PyInstaller build of minutes; tests/test_packaging.py checks that it "
                                    "says what it needs without the development environment"),
    (r"pipx install", "installs into the user's pipx folder; tests/test_packaging.py builds with python -m "
                      "build and installs the wheel into a fresh environment"),
)
TEAM = ("## Working as a team", "needs a PostgreSQL server and its administrator; tests/team runs these "
                                "commands against a throw-away cluster")


def sh_blocks() -> list[tuple[int, str, str]]:
    """``(line, section, text)`` of every ```` ```sh ```` block of the README."""
    blocks, section, inside, start, body = [], "", False, 0, []
    for n, line in enumerate(README.read_text(encoding="utf-8").splitlines(), 1):
        if not inside and line.startswith("## "):
            section = line
        if not inside and line.strip() == "```sh":
            inside, start, body = True, n, []
        elif inside and line.strip() == "```":
            inside = False
            blocks.append((start, section, "\n".join(body)))
        elif inside:
            body.append(line)
    return blocks


def why_not_run(section: str, text: str) -> str | None:
    if section == TEAM[0]:
        return TEAM[1]
    return next((why for pattern, why in NOT_RUN if re.search(pattern, text)), None)


def test_the_readme_has_runnable_blocks_and_says_why_of_each_other():
    blocks = sh_blocks()
    run = [b for b in blocks if why_not_run(b[1], b[2]) is None]
    assert len(run) >= 2, "the first hour's blocks"
    for pattern, _ in NOT_RUN:  # every exception still stands for a block: none outlives its reason
        assert any(re.search(pattern, text) for _, _, text in blocks), pattern


def test_no_sh_block_holds_a_synopsis():
    """``[--granularity leaf|top|depth=N]`` in a shell runs ``top`` as a command: synopses are text."""
    for line, _, text in sh_blocks():
        for cmd in text.splitlines():
            code = cmd.split(" #", 1)[0]
            assert not re.search(r"\[--|\w\|\w", code), f"README.md:{line}: a synopsis in an sh block: {cmd}"


def _checkout_copy(tmp: Path) -> Path:
    folder = tmp / "checkout"
    shutil.copytree(ROOT / "resources" / "demo", folder / "resources" / "demo",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def _program(tmp: Path) -> Path:
    """A ``hieradjudicate`` on PATH that runs this checkout's code with this interpreter."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "hieradjudicate"
    exe.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m hieradjudicate "$@"\n')
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return bin_dir


def test_every_readme_command_runs_as_written(tmp_path):
    blocks = [(line, text) for line, section, text in sh_blocks() if why_not_run(section, text) is None]
    script = ["set -e -o pipefail", "trap 'echo \"FAILED: $BASH_COMMAND\" >&2' ERR"]
    for line, text in blocks:
        script += [f"echo '== README.md:{line}' >&2", text]
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "PYTHONPATH")}
    home = tmp_path / "home"
    home.mkdir()
    env.update(HOME=str(home), PATH=f"{_program(tmp_path)}{os.pathsep}{env.get('PATH', '')}",
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_STATE_HOME=str(tmp_path / "state"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    r = subprocess.run(["bash", "-c", "\n".join(script)], cwd=_checkout_copy(tmp_path), env=env,
                       capture_output=True, text=True, timeout=900)
    said = r.stdout + r.stderr
    assert r.returncode == 0, said[-4000:]
    assert "Traceback" not in said and "error:" not in said, said[-4000:]
    made = home / "hadj-first-hour"
    for name in ("demo.hadj", "gold.key", "report.html"):
        assert (made / name).stat().st_size > 0, name


@pytest.mark.parametrize("line", ["[--granularity leaf|top|depth=N]", "--policy fine|coarse|leaf"])
def test_a_synopsis_would_be_caught(line):
    """The synopsis check above is not vacuous: the README's old lines trip it."""
    assert re.search(r"\[--|\w\|\w", line)
