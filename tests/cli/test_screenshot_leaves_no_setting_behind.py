"""A ``--screenshot`` run in-process fixes the geometry for itself only: the environment it sets
(fixed geometry, no dialogs) is put back, so a later window remembers its size as a user's does."""

from __future__ import annotations

import os
from pathlib import Path

from hieradjudicate.cli.entry import main


def test_a_screenshot_run_puts_the_environment_back(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("HIERADJ_FIXED_GEOMETRY", raising=False)
    monkeypatch.delenv("HIERADJ_NO_DIALOGS", raising=False)
    junk = tmp_path / "junk.hadj"  # opened by the window (a missing file is refused before it)
    junk.write_text("not a project\n")
    assert main([str(junk), "--screenshot", str(tmp_path / "shot.png")]) == 1
    assert "HIERADJ_FIXED_GEOMETRY" not in os.environ and "HIERADJ_NO_DIALOGS" not in os.environ
