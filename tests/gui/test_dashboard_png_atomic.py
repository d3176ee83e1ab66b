"""#22 item 5 (gap): a dashboard figure saved as PNG (the panel's PNG button) is written whole or not
at all and never through a link planted at its name (QImage.save opened the name and followed it)."""

from __future__ import annotations

import gc
import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QToolButton

from hieradjudicate.gui.main_window import MainWindow
from tests.gui.journey import open_window


def _window(qtbot, project: Path) -> MainWindow:
    w = open_window(qtbot, project)
    w.dashboard.show_dashboard()
    dv = w.dashboard.view
    qtbot.waitUntil(lambda: dv.data is not None and not dv.updating and not dv.slow.busy, timeout=60_000)
    return w


def test_the_png_button_replaces_a_planted_link_and_never_writes_through_it(
        qtbot, demo_project: Path, tmp_path: Path, monkeypatch) -> None:
    win = _window(qtbot, demo_project)
    try:
        panel = win.dashboard.view.panels[0]
        victim = tmp_path / "victim.txt"
        victim.write_text("precious\n")
        target = tmp_path / "figure.png"
        os.symlink(victim, target)
        monkeypatch.setattr(QFileDialog, "getSaveFileName",
                            staticmethod(lambda *_a, **_k: (str(target), "PNG (*.png)")))
        button = panel.findChild(QToolButton, f"png_{panel.key}")
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert victim.read_text() == "precious\n"
        assert not target.is_symlink() and target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    finally:
        win.close_project()
        QApplication.processEvents()
        gc.collect()


def test_a_png_that_cannot_be_written_is_said_in_words(qtbot, demo_project: Path, tmp_path: Path,
                                                       monkeypatch) -> None:
    win = _window(qtbot, demo_project)
    try:
        panel = win.dashboard.view.panels[0]
        target = tmp_path / "no-such-folder" / "figure.png"
        monkeypatch.setattr(QFileDialog, "getSaveFileName",
                            staticmethod(lambda *_a, **_k: (str(target), "PNG (*.png)")))
        qtbot.mouseClick(panel.findChild(QToolButton, f"png_{panel.key}"), Qt.MouseButton.LeftButton)
        said = win.statusBar().currentMessage()
        assert said.startswith("The PNG was not saved") and str(target) in said, said
        assert not target.exists()
    finally:
        win.close_project()
        QApplication.processEvents()
        gc.collect()
