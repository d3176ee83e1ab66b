"""GUI fixtures: private settings, data and log folders; a fresh demo project per test (a copy of
one made once per session)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")


@pytest.fixture
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from PySide6.QtCore import QCoreApplication, QSettings

    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(var, str(tmp_path / var.lower()))
    monkeypatch.setenv("HIERADJ_NO_DIALOGS", "1")
    QCoreApplication.setOrganizationName("hieradjudicate-tests")
    QCoreApplication.setApplicationName("hieradjudicate-tests")
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    QSettings().clear()
    return tmp_path


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo project, created once for the session (nothing opens it for writing)."""
    from hieradjudicate.app.demo import ensure_demo_project

    return ensure_demo_project(tmp_path_factory.mktemp("demo-template") / "demo.hadj")


@pytest.fixture
def demo_project(private_dirs: Path, demo_template: Path) -> Path:
    """A fresh demo project of the test's own: a byte copy of :func:`demo_template` (the same
    project ``ensure_demo_project`` makes, without reading the demo's files again)."""
    target = private_dirs / "demo.hadj"
    shutil.copyfile(demo_template, target)
    return target
