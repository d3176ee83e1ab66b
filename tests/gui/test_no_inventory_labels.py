"""#31: a project from an INCEpTION export without an inventory read as if its inventory were broken
("Sense inventory", "(not in the inventory)" on every row, "Probability of each leaf sense", a depth
chart of one level).  The window now names the tags as tags and says "No inventory: every tag is its
own sense" where the tree would be; a project with an inventory keeps its sense labels."""

from __future__ import annotations

import gc
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel

from hieradjudicate.core.tags_only import NO_INVENTORY
from tests.conftest import skip_without_realdata
from tests.gui.journey import open_window
from tests.gui.test_journeys import _cli


def _labels(win) -> dict:
    ws = win.ws
    tree = ws.tree
    rows = [tree.tree.topLevelItem(k) for k in range(tree.tree.topLevelItemCount())]
    head = ws.detail.leaf_model.headerData(0, Qt.Orientation.Horizontal)
    titles = [w.text() for w in ws.detail.findChildren(QLabel) if "Probability of each" in w.text()
              or "Votes for each" in w.text()]
    return {"dock": win.docks["tree"].windowTitle(), "tree_head": tree.tree.headerItem().text(0),
            "glosses": [r.text(3) for r in rows], "note": (note := getattr(tree, "note", None)) is not None and note.isVisibleTo(tree) and note.text(),
            "detail_head": head, "chart": titles, "placeholder": tree.search.placeholderText()}


def _depth_sentence(win, qtbot) -> str:
    win.dashboard.show_dashboard()
    dv = win.dashboard.view
    qtbot.waitUntil(lambda: dv.data is not None and not dv.updating and not dv.slow.busy, timeout=60_000)
    item = dv.depth_panel.plot.__dict__.get("_empty_text")
    return item.toPlainText() if item is not None and item.isVisible() else ""


def test_a_project_without_inventory_names_tags_and_says_there_is_none(qtbot, tmp_path: Path) -> None:
    xmi = skip_without_realdata("inception") / "inception" / "diderot_rousseau.xmi"
    project = tmp_path / "xmi.hadj"
    layer = ("--xmi-layer", "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity", "--xmi-feature", "identifier")
    _cli("project", "new", str(project), "--annotations", f"a={xmi}", "--annotations", f"b={xmi}", *layer)
    win = open_window(qtbot, project)
    win.resize(1024, 700)
    seen = _labels(win)
    assert seen["dock"] == "Tags (no inventory)" and seen["tree_head"] == "Tag" and seen["detail_head"] == "Tag"
    assert seen["note"] and NO_INVENTORY in seen["note"]
    assert seen["glosses"] and not any("not in the inventory" in g for g in seen["glosses"])
    assert seen["chart"] and all("each tag" in t and "sense" not in t for t in seen["chart"])
    assert seen["placeholder"] == "Search tags…"
    assert _depth_sentence(win, qtbot).startswith(NO_INVENTORY)
    depth = win.dashboard.view.depth_panel  # the sentence alone: no point or legend under it
    assert all(len(line.yData if line.yData is not None else []) == 0 for line in [*depth.lines, depth.group])
    assert not depth.legend.isVisible()
    win.close_project()
    QApplication.processEvents()
    gc.collect()


def test_a_project_with_an_inventory_keeps_its_sense_labels(qtbot, demo_project: Path) -> None:
    win = open_window(qtbot, demo_project)
    seen = _labels(win)
    assert seen["dock"] == "Sense inventory" and seen["tree_head"] == "Sense" and seen["detail_head"] == "Sense"
    assert not seen["note"]
    assert seen["chart"] and all("each leaf sense" in t for t in seen["chart"])
    assert NO_INVENTORY not in _depth_sentence(win, qtbot)
    win.close_project()
    QApplication.processEvents()
    gc.collect()
