"""#31 items 2 and 4 through the real window: WordNet + semeval2015's key as the reference gold + lesk
and resnik.  The paired panel shows the tests against the reference gold (it said "No adjudicated
gold yet"), the group and policy chosen with the keyboard, and the figures are those `compare`
prints; the report written from the window carries them.  With the key imported as decisions too,
the paired panel (either gold) and the stored-runs panel give compare's p-value and interval under
one seed (they gave 0.0197, 0.0189 and 0.0196)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QScrollArea, QTabBar

from hieradjudicate.app.paired import p_text
from hieradjudicate.app.session.session import Session
from tests.app.test_paired_everywhere import WORDNET, _data, cli, compare_json
from tests.gui.test_reference_gold_journey import open_with_file_menu


@pytest.fixture
def s15(tmp_path) -> tuple[Path, Path, Path, Path]:
    d = _data()
    out = tmp_path / "s15.hadj"
    gold = d / "semeval2015.gold.key.txt"
    lesk, resnik = d / "semeval2015.lesk_example.key.txt", d / "semeval2015.resnik_example.key.txt"
    cli("project", "new", str(out), "--inventory", WORDNET, "--annotations", f"gold={gold}:gold",
        "--annotations", f"lesk={lesk}:system", "--annotations", f"resnik={resnik}:system")
    return out, gold, lesk, resnik


def dashboard_tab(qtbot, win):
    bar = win.dashboard.tabs.findChild(QTabBar)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    dv = win.dashboard.view
    qtbot.waitUntil(lambda: dv is not None and dv.data is not None and dv.data.options.intervals
                    and not dv.slow.busy and not dv.updating, timeout=180_000)
    return dv


def choose(qtbot, box, text: str) -> None:
    """Walk a combo box with the keyboard to the item whose text holds ``text``."""
    box.setFocus()
    want = next(k for k in range(box.count()) if text in box.itemText(k))
    while box.currentIndex() != want:
        before = box.currentIndex()
        qtbot.keyClick(box, Qt.Key.Key_Down if want > before else Qt.Key.Key_Up)
        assert box.currentIndex() != before


def shown(panel) -> dict[str, list[str]]:
    t = panel.tests
    return {t.item(r, 0).text(): [t.item(r, c).text() for c in range(t.columnCount())] for r in range(t.rowCount())}


def check_panel(panel, test: dict) -> None:
    """The panel (baseline lesk, system resnik: resnik - lesk) shows compare's lesk - resnik, negated."""
    rows = shown(panel)
    for m, label in (("precision", "P"), ("recall", "R"), ("f1", "F1")):
        q = test[m]
        if q["difference"] is None:
            assert rows[label][1] in ("", "–", "undefined")
            continue
        assert float(rows[label][1]) == pytest.approx(-q["difference"], abs=5e-4)
        assert rows[label][2] == f"[{-q['ci'][1]:.3f}, {-q['ci'][0]:.3f}]"
        assert rows[label][3] == p_text(q["p_randomization"])
    mc = rows["McNemar (right)"]
    assert (int(mc[5]), int(mc[6])) == (test["mcnemar"]["a_only"], test["mcnemar"]["b_only"])
    assert mc[3] == p_text(test["mcnemar"]["p"])


def test_paired_tests_against_the_reference_gold_in_the_window_and_its_report(qtbot, s15, monkeypatch,
                                                                              tmp_path) -> None:
    project, gold, lesk, resnik = s15
    printed = {p: compare_json(str(gold), [("lesk", lesk), ("resnik", resnik)], p) for p in ("leaf", "fine")}
    win = open_with_file_menu(qtbot, project, monkeypatch)
    dv = dashboard_tab(qtbot, win)
    panel = dv.significance
    dv.findChild(QScrollArea, "dash_scroll").ensureWidgetVisible(panel)
    assert "reference gold gold" in panel.gold.currentText() and panel.gold.count() == 1  # no decision yet
    assert not panel.note.isVisible() or "No adjudicated gold" not in panel.note.text()
    assert (panel.baseline.currentText(), panel.system.currentText(), panel.policy.currentText()) == \
        ("lesk", "resnik", "leaf")
    assert "seed 0" in panel.settings.text() and "1022 instance(s)" in panel.settings.text()
    tests = printed["leaf"]["tests"]
    check_panel(panel, tests["all instances"]["all instances"][0])
    assert shown(panel)["McNemar (right)"][3] == "0.8472"  # the figures
    assert "no instance is open" in panel.open.text()
    choose(qtbot, panel.group, "part of speech n")
    check_panel(panel, tests["part of speech"]["n"][0])
    choose(qtbot, panel.policy, "fine")
    assert panel.group.currentText() == "part of speech n"
    check_panel(panel, printed["fine"]["tests"]["part of speech"]["n"][0])

    # the report written from the window: the same figures, as compare prints them
    out = tmp_path / "report.html"
    dv.export_report(out, wait=True)
    qtbot.waitUntil(lambda: out.exists(), timeout=120_000)
    page = out.read_text()
    t = tests["all instances"]["all instances"][0]
    assert "Paired significance tests against the reference gold gold" in page
    assert f"<td>[{t['f1']['ci'][0]:.3f}, {t['f1']['ci'][1]:.3f}]</td><td>{p_text(t['f1']['p_randomization'])}</td>" \
        in page
    assert "<h3>fine policy</h3>" in page and "No system scores: there are no systems" not in page
    win.close()
    QApplication.processEvents()


def test_one_seed_one_p_value_in_every_panel(qtbot, s15, monkeypatch, tmp_path) -> None:
    first, gold, lesk, resnik = s15
    project = tmp_path / "decided.hadj"
    shutil.copyfile(first, project)
    keys = {ln.split()[0]: ln.split()[1:] for ln in gold.read_text().splitlines() if ln.strip()}
    with Session.open(str(project), read_only=True) as s:
        rows = [(lx, i, " ".join(keys[i])) for lx, i in s.instances() if i in keys]
    table = tmp_path / "gold.csv"
    with table.open("w", newline="") as f:
        csv.writer(f).writerows([("lexelt", "instance", "tags"), *rows])
    cli("project", "import-decisions", str(project), str(table))
    cli("project", "add-run", str(project), f"lesk={lesk}")
    cli("project", "add-run", str(project), f"resnik={resnik}")
    printed = compare_json(str(project), [("lesk", lesk), ("resnik", resnik)], "leaf")
    t = printed["tests"]["all instances"]["all instances"][0]
    win = open_with_file_menu(qtbot, project, monkeypatch)
    dv = dashboard_tab(qtbot, win)
    panel = dv.significance
    assert panel.gold.count() == 2 and "adjudicated" in panel.gold.currentText()
    check_panel(panel, t)
    choose(qtbot, panel.gold, "reference gold")  # the same key given as input: the same figures
    check_panel(panel, t)
    # the stored runs: scored under the paired panel's policy, the same test
    runs = dv.runs
    assert runs.policy.currentText() == "leaf"
    f1 = t["f1"]
    verdict = runs.verdict.text()
    assert (runs.base_run.currentText(), runs.other_run.currentText()) == ("lesk", "resnik")
    assert f"randomization p = {p_text(f1['p_randomization'])}" in verdict
    assert f"interval [{-f1['ci'][1]:.3f}, {-f1['ci'][0]:.3f}]" in verdict and "seed 0" in verdict
    win.close()
    QApplication.processEvents()
