"""A standard key has every binding the platform gives it: File > Close answers Ctrl+W as well as
Ctrl+F4 (QKeySequence(StandardKey.Close) alone keeps only the first)."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

from hieradjudicate.gui.main_window import MainWindow


def test_every_binding_of_a_standard_key_is_bound(qtbot) -> None:
    w = MainWindow()
    qtbot.addWidget(w)
    wanted = {s.toString() for s in QKeySequence.keyBindings(QKeySequence.StandardKey.Close)}
    assert len(wanted) > 1, wanted  # the platform gives Close more than one binding
    assert {s.toString() for s in w.actions["close"].shortcuts()} == wanted
    w.close()
