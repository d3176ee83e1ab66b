"""#31: the gained/lost list under the paired panel follows the Group box (it listed every instance
whatever the group): semeval2015's key as reference gold, lesk and resnik, group "part of speech n"
chosen with the keyboard; the counts are compare's McNemar counts for that group."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QApplication, QScrollArea

from tests.app.test_paired_everywhere import compare_json
from tests.gui.test_paired_reference_journey import choose, dashboard_tab, s15  # noqa: F401  (fixture)
from tests.gui.test_reference_gold_journey import open_with_file_menu


def _listed(panel) -> list[tuple[str, str]]:
    t = panel.changes
    return [(t.item(r, 0).text(), t.item(r, 1).text()) for r in range(t.rowCount())]


def test_gained_and_lost_list_only_the_group_chosen(qtbot, s15, monkeypatch) -> None:  # noqa: F811
    project, gold, lesk, resnik = s15
    printed = compare_json(str(gold), [("lesk", lesk), ("resnik", resnik)], "leaf")["tests"]
    win = open_with_file_menu(qtbot, project, monkeypatch)
    dv = dashboard_tab(qtbot, win)
    panel = dv.significance
    dv.findChild(QScrollArea, "dash_scroll").ensureWidgetVisible(panel)
    assert (panel.baseline.currentText(), panel.system.currentText()) == ("lesk", "resnik")
    every = printed["all instances"]["all instances"][0]["mcnemar"]
    rows = _listed(panel)  # baseline lesk (a), system resnik (b): gained = b_only, lost = a_only
    assert [c for c, _ in rows].count("gained") == every["b_only"] and \
        [c for c, _ in rows].count("lost") == every["a_only"]
    for pos in ("n", "v"):
        choose(qtbot, panel.group, f"part of speech {pos}")
        mc = printed["part of speech"][pos][0]["mcnemar"]
        rows = _listed(panel)
        assert [c for c, _ in rows].count("gained") == mc["b_only"] and \
            [c for c, _ in rows].count("lost") == mc["a_only"], (pos, len(rows), mc)
        assert rows and all(re.search(rf"\.{pos}$|%{'1' if pos == 'n' else '2'}:", lx) for _, lx in rows), rows[:3]
        assert f"part of speech {pos}" in panel.counts.text()
        assert f"{mc['b_only']} instance(s) gained, {mc['a_only']} lost" in panel.counts.text()
    win.close()
    QApplication.processEvents()
