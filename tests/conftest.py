"""Shared fixtures.  The offscreen platform is set before any QApplication exists."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "resources" / "demo"


def realdata_dir() -> Path | None:
    value = os.environ.get("HIERADJ_REALDATA")
    if not value:
        return None
    p = Path(value)
    return p if p.is_dir() else None


@pytest.fixture
def realdata() -> Path:
    """The shared real data folder; the test is skipped when HIERADJ_REALDATA is unset."""
    p = realdata_dir()
    if p is None:
        pytest.skip("HIERADJ_REALDATA is unset (point it at ../shared/data to run real-data tests)")
    return p
