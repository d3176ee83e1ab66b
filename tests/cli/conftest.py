"""Fixtures of the command-line tests."""

from __future__ import annotations

from pathlib import Path

import pytest

import hieradjudicate

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


def demo_project(path: Path, *names: str) -> Path:
    """A project made by ``project new`` from the demo's inventory and the annotator files ``names``."""
    from hieradjudicate.cli.entry import main

    sets = [a for n in names for a in ("--annotations", f"{n}={DEMO / f'annotator_{n}.key'}")]
    assert main(["project", "new", str(path), "--inventory", str(DEMO / "inventory.txt"), *sets]) == 0
    return path


@pytest.fixture
def ann_project(tmp_path) -> Path:
    """The demo's inventory and ann's answers, as a project."""
    return demo_project(tmp_path / "demo.hadj", "ann")


@pytest.fixture
def ann_ben_project(tmp_path) -> Path:
    """The demo's inventory and ann's and ben's answers, as a project."""
    return demo_project(tmp_path / "demo.hadj", "ann", "ben")
