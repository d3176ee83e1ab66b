"""GUI fixtures: private settings, data and log folders; a fresh demo project per test."""

from __future__ import annotations

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


@pytest.fixture
def demo_project(private_dirs: Path) -> Path:
    from hieradjudicate.app.demo import ensure_demo_project

    return ensure_demo_project(private_dirs / "demo.hadj")
