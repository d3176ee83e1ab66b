"""Shared fixtures.  The offscreen platform is set before any QApplication exists."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "resources" / "demo"


def realdata_problem(sub: str | None = None) -> str | None:
    """Why the shared real data (or its folder ``sub``) cannot be used, or None when it can.

    Unset, set to something that is not a folder, and a folder without ``sub`` are told apart,
    so a skipped test says what to fix."""
    value = os.environ.get("HIERADJ_REALDATA")
    if not value:
        return "HIERADJ_REALDATA is unset (point it at ../shared/data to run real-data tests)"
    p = Path(value)
    if not p.exists():
        return f"HIERADJ_REALDATA={value} does not exist (point it at ../shared/data)"
    if not p.is_dir():
        return f"HIERADJ_REALDATA={value} is not a folder (point it at ../shared/data)"
    if sub is not None and not (p / sub).is_dir():
        return f"HIERADJ_REALDATA={value} has no {sub}/ folder"
    return None


def realdata_dir(sub: str | None = None) -> Path | None:
    """The real data folder when :func:`realdata_problem` finds nothing wrong, else None."""
    if realdata_problem(sub) is not None:
        return None
    return Path(os.environ["HIERADJ_REALDATA"]).resolve()


def skip_without_realdata(sub: str | None = None) -> Path:
    """The real data folder, or skip the calling test saying exactly what is wrong."""
    problem = realdata_problem(sub)
    if problem is not None:
        pytest.skip(problem)
    return Path(os.environ["HIERADJ_REALDATA"]).resolve()


@pytest.fixture
def realdata() -> Path:
    """The shared real data folder; the test is skipped (saying why) when it cannot be used."""
    return skip_without_realdata()


# the product's own code raises no warning: listed at the end of a run, which then fails (#35)
from tests.product_warnings import (  # noqa: E402,F401
    pytest_sessionfinish,
    pytest_terminal_summary,
    pytest_warning_recorded,
)
