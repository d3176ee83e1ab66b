"""Shared fixtures.  The offscreen platform is set before any QApplication exists."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# the window's competence estimates are not kept on disk between tests (each would read another's);
# the tests of that cache turn it on in a folder of their own
os.environ["HIERADJ_NO_CACHE"] = "1"


def _hypothesis_is_deterministic() -> None:
    """Every property test draws the same examples on every run (a run that fails fails again, with the
    same input), and Hypothesis skips its "explain" phase, which traces every line: an input a reader
    parses in 2.6 s took more than the fuzz tests' 30 s per input under that tracing, and a fresh clone's
    run failed on an input the next run did not draw."""
    try:
        from hypothesis import Phase, settings
    except ImportError:
        return
    settings.register_profile("hieradjudicate", derandomize=True,
                              phases=[p for p in Phase if p is not Phase.explain])
    settings.load_profile("hieradjudicate")


_hypothesis_is_deterministic()


#: how long a GUI wait may take before the test fails: a guard against a hang, never a speed limit.
#: pytest-qt's own default (5 s) failed journeys on a slower CI machine whose re-import took longer.
WAIT_GUARD_MS = 60_000


def _patient_waits() -> None:
    """``qtbot.waitUntil``/``waitSignal``/... without a ``timeout`` wait up to WAIT_GUARD_MS (they
    still return the moment their condition holds)."""
    try:
        from pytestqt.qtbot import QtBot
    except ImportError:
        return
    import functools

    def patient(method):
        @functools.wraps(method)
        def wait(self, *args, timeout: int = WAIT_GUARD_MS, **kwargs):
            return method(self, *args, timeout=timeout, **kwargs)
        return wait

    for name in ("waitUntil", "waitSignal", "waitSignals", "waitCallback", "waitActive", "waitExposed"):
        setattr(QtBot, name, patient(getattr(QtBot, name)))


_patient_waits()


def pytest_runtest_teardown(item, nextitem):
    """A window switched Python's automatic cycle collection off (hieradjudicate/gui/gc_guard.py: the
    collector must not run in a worker thread); between tests no event loop runs its timer, so the
    collection that is due happens here, in the main thread."""
    import gc

    if not gc.isenabled():
        from hieradjudicate.gui.gc_guard import collect_if_due

        collect_if_due()

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


WORDNET = Path("/usr/share/wordnet")


def wsd_framework_with_wordnet() -> Path:
    """The WSD evaluation framework's folder when it and WordNet 3.0 can be used, else skip saying why."""
    d = skip_without_realdata("wsdeval") / "wsdeval"
    if not (WORDNET / "index.noun").is_file():
        pytest.skip(f"WordNet 3.0 is not installed at {WORDNET} (Debian: apt install wordnet-base)")
    return d


@pytest.fixture(scope="session")
def wsd_all_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The WSD framework's ALL with its gold key and the Lesk baseline both as annotators, over
    WordNet 3.0, made once per session with ``project new`` as a user makes it.  Shared: open it
    read-only, or copy it (``shutil.copyfile``) before anything may write to it."""
    d = wsd_framework_with_wordnet()
    out = tmp_path_factory.mktemp("wsd-all") / "all.hadj"
    subprocess.run([sys.executable, "-m", "hieradjudicate", "project", "new", str(out), "--inventory", str(WORDNET),
                    "--annotations", f"gold={d / 'ALL.gold.key.txt'}",
                    "--annotations", f"lesk={d / 'ALL.lesk_example.key.txt'}"],
                   check=True, timeout=600, capture_output=True)
    return out


# the product's own code raises no warning: listed at the end of a run, which then fails (#35)
from tests.product_warnings import (  # noqa: E402,F401
    pytest_sessionfinish,
    pytest_terminal_summary,
    pytest_warning_recorded,
)
