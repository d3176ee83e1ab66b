"""On a project whose intervals are not computed by themselves (more than AUTO_CI_MAX instances), the per-lexelt
panel's title says how to get them with the button there is ("Compute intervals"); before, it sent the user to
"'Confidence intervals' above", which no control is called (found by helper trial48)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QPushButton

from tests.gui.journey import open_dashboard, open_window


def test_the_lexelt_panel_names_the_compute_intervals_button(qtbot, demo_project: Path, monkeypatch) -> None:
    import hieradjudicate.gui.dashboard.dashboard as dashboard_mod

    monkeypatch.setattr(dashboard_mod, "AUTO_CI_MAX", 0)  # as on a large project: intervals on request
    win = open_window(qtbot, demo_project)
    view = open_dashboard(qtbot, win)
    title = view.lexelts.title_label.text()
    assert "intervals not computed yet: Compute intervals, above" in title
    buttons = [b.text() for b in win.findChildren(QPushButton) if b.isVisible()]
    assert "Compute intervals" in buttons
    win.close_project()
