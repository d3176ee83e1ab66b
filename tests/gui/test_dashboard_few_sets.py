"""#21 item 3: the dashboard with one set, only systems, a reference gold and one system (the WSD
framework's ALL with WordNet 3.0), and no inventory: every panel either draws its figure or says in a
sentence why it cannot, and the dashboard's "updating…" ends.  Driven in the real window (the tab is
opened with a click on its tab bar)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTabBar

from hieradjudicate.gui.main_window import MainWindow
from tests.conftest import DEMO, skip_without_realdata
from tests.gui.journey import open_window

WORDNET = "/usr/share/wordnet"


def _new(out: Path, *args: str) -> Path:
    subprocess.run([sys.executable, "-m", "hieradjudicate", "project", "new", str(out), *args], check=True,
                   timeout=600, capture_output=True)
    return out


def _dashboard(qtbot, win: MainWindow):
    bar = win.dashboard.tabs.findChild(QTabBar)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    view = win.dashboard.view
    # "updating…" ends, with the figures of the whole project
    qtbot.waitUntil(lambda: not view.updating and view.state.text().startswith("whole project"), timeout=60_000)
    return view


def _why_not(panel) -> str:
    label = panel.findChild(QLabel, "why_not")
    return label.text() if label is not None and label.isVisible() else ""


def _agreement_panels(view) -> list:
    return [view.heatmap, view.lexelts, view.depth_panel, view.confusion]


def test_reference_gold_and_one_system(qtbot, private_dirs: Path) -> None:
    path = _new(private_dirs / "ref.hadj", "--inventory", str(DEMO / "inventory.txt"),
                "--annotations", f"gold={DEMO / 'annotator_ann.key'}:gold",
                "--annotations", f"lesk={DEMO / 'system_lesk.ans'}:system")
    win = open_window(qtbot, path)
    view = _dashboard(qtbot, win)
    for panel in _agreement_panels(view):
        said = _why_not(panel)
        assert said.startswith("Not computed: agreement needs at least two sets to compare"), panel.title
        assert "this project has one (lesk)" in said and "The reference gold (gold) is not compared" in said
        assert not any(p.isVisible() for p in panel.plots)  # no empty axes standing alone
    # no count under the empty map ("1 of 1 sets shown") beside the sentence that says why
    assert view.heatmap.hover.text() == ""
    assert not view.lexelts.note.isVisible()  # nor "solid line: pooled undefined" under no plot
    assert view.competence_panel.status.text() == \
        "Competence needs three or more annotator sets on an instance; this project has 0."
    qtbot.waitUntil(lambda: view.reference.scores.figures is not None, timeout=60_000)
    assert view.reference.scores.table.model().rowCount() >= 1  # the systems' scores, above them
    win.close()


def test_two_systems_only_are_compared(qtbot, private_dirs: Path) -> None:
    path = _new(private_dirs / "sys.hadj", "--inventory", str(DEMO / "inventory.txt"),
                "--annotations", f"lesk={DEMO / 'system_lesk.ans'}:system",
                "--annotations", f"neural={DEMO / 'system_neural.ans'}:system")
    win = open_window(qtbot, path)
    view = _dashboard(qtbot, win)
    for panel in _agreement_panels(view):
        assert _why_not(panel) == "", panel.title
    assert view.data.heatmap.names == ["lesk", "neural"]
    assert any(p.isVisible() for p in view.heatmap.plots)
    assert view.heatmap.hover.text() == "2 of 2 sets shown"
    assert view.lexelts.note.isVisible() and "solid line: pooled" in view.lexelts.note.text()
    win.close()


def test_one_annotator_without_inventory(qtbot, private_dirs: Path) -> None:
    """No inventory (every tag a sense of its own) and one annotator set: the project opens, the
    workbench and the dashboard say what they cannot compute, and the rest is drawn."""
    path = _new(private_dirs / "one.hadj", "--annotations", f"ann={DEMO / 'annotator_ann.key'}")
    win = open_window(qtbot, path)
    live = win.ws.live
    qtbot.waitUntil(lambda: live.figures is not None and not live.updating, timeout=60_000)
    assert "this project has one." in live.scope.text()
    view = _dashboard(qtbot, win)
    for panel in _agreement_panels(view):
        assert "this project has one (ann)" in _why_not(panel), panel.title
    assert view.progress.isVisible() and any(p.isVisible() for p in view.progress.plots)
    win.close()


def test_wsd_framework_all_with_wordnet(qtbot, private_dirs: Path) -> None:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    if not Path(WORDNET, "index.noun").is_file():
        pytest.skip(f"WordNet 3.0 is not installed at {WORDNET} (Debian: apt install wordnet-base)")
    path = _new(private_dirs / "all.hadj", "--inventory", WORDNET,
                "--annotations", f"gold={d / 'ALL.gold.key.txt'}:gold",
                "--annotations", f"lesk={d / 'ALL.lesk_example.key.txt'}:system")
    win = open_window(qtbot, path)
    live = win.ws.live
    qtbot.waitUntil(lambda: live.figures is not None and not live.updating, timeout=60_000)
    assert "0 instances shown" not in live.scope.text()
    assert "needs at least two annotator sets; this project has none" in live.scope.text()
    qtbot.waitUntil(lambda: live.reference.figures is not None, timeout=60_000)
    view = _dashboard(qtbot, win)
    for panel in _agreement_panels(view):
        assert "this project has one (lesk)" in _why_not(panel), panel.title
    win.close()
