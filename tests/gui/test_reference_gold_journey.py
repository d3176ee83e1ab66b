"""#21 items 3 and 5, journey "WSD framework ALL + WordNet -> system scores equal score's", through the real
window: the project is made in the wizard (WordNet button, the framework's files, the roles it guesses),
opened with File > Open, and the live panel's and the dashboard's scores against the reference gold are
compared with what `hieradjudicate score` prints for the same files, policy by policy and per data set.
A demo variant (a gold given as input, two systems) runs without the real data."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QTabBar, QWizard

from hieradjudicate.app.workbench.columns import NO_PAIR
from hieradjudicate.gui.main_window import MainWindow
from hieradjudicate.gui.wizard.wizard import NewProjectWizard
from tests.conftest import DEMO, skip_without_realdata

WORDNET = "/usr/share/wordnet"


def cli_score(inventory: str, gold: Path, systems: list[tuple[str, Path]], policy: str) -> dict:
    args = [sys.executable, "-m", "hieradjudicate", "score", "--inventory", inventory, "--gold", str(gold),
            "--policy", policy, "--format", "json"]
    for name, path in systems:
        args += ["--system", f"{name}={path}"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=300, check=True)
    return {s["name"]: s for s in json.loads(done.stdout)["systems"]}


def open_with_file_menu(qtbot, path: Path, monkeypatch) -> MainWindow:
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))
    win.actions["open"].trigger()  # File > Open project…
    assert win.session is not None and win.session.path == path
    return win


def shown_rows(widget) -> list[list[str]]:
    m = widget.table.model()
    return [[m.index(r, c).data() for c in range(m.columnCount())] for r in range(m.rowCount())]


def choose_policy(qtbot, widget, policy: str) -> None:
    box = widget.policy
    while box.currentData() != policy:  # the keyboard walks the choices, as a user would
        before = box.currentIndex()
        qtbot.keyClick(box, Qt.Key.Key_Down if box.findData(policy) > before else Qt.Key.Key_Up)
        assert box.currentIndex() != before


def check_against_cli(qtbot, widget, printed_by_policy: dict[str, dict]) -> None:
    """The table shows, for each policy, every system's figures and data sets as `score` prints them."""
    f = widget.figures
    for policy, printed in printed_by_policy.items():
        choose_policy(qtbot, widget, policy)
        rows = shown_rows(widget)
        for name, s in printed.items():
            r = f.get(name, policy)
            for key in ("precision", "recall", "coverage", "f1"):
                assert getattr(r, key) == pytest.approx(s[key], abs=1e-12), (name, policy, key)
            line = next(x for x in rows if x[0] in (name, f"{name} vs {r.gold}"))
            assert line[1:6] == ["all", f"{s['precision']:.3f}", f"{s['recall']:.3f}", f"{s['f1']:.3f}",
                                 f"{s['coverage']:.3f}"]
            for ds, d in s.get("by_dataset", {}).items():
                got = f.get(name, policy, ds)
                assert (got.precision, got.recall, got.f1) == pytest.approx((d["precision"], d["recall"], d["f1"]),
                                                                            abs=1e-12)
                assert [ds, f"{d['precision']:.3f}", f"{d['recall']:.3f}", f"{d['f1']:.3f}"] in \
                    [x[1:5] for x in rows]


def open_dashboard(qtbot, win: MainWindow):
    bar = win.dashboard.tabs.findChild(QTabBar)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    assert win.dashboard.tabs.currentIndex() == 1
    view = win.dashboard.view
    assert view.reference is not None
    qtbot.waitUntil(lambda: view.reference.scores.figures is not None, timeout=60_000)
    return view.reference


def test_demo_reference_gold_in_the_window(qtbot, private_dirs: Path, monkeypatch) -> None:
    out = private_dirs / "ref.hadj"
    subprocess.run([sys.executable, "-m", "hieradjudicate", "project", "new", str(out), "--inventory",
                    str(DEMO / "inventory.txt"), "--annotations", f"ann={DEMO / 'annotator_ann.key'}:gold",
                    "--annotations", f"lesk={DEMO / 'system_lesk.ans'}:system",
                    "--annotations", f"neural={DEMO / 'system_neural.ans'}:system"], check=True, timeout=300)
    win = open_with_file_menu(qtbot, out, monkeypatch)
    ref = win.ws.live.reference
    assert ref is not None and ref.isVisible()
    qtbot.waitUntil(lambda: ref.figures is not None, timeout=60_000)
    assert "reference gold" in ref.title.text() and "ann" in ref.title.text()
    printed = {p: cli_score(str(DEMO / "inventory.txt"), DEMO / "annotator_ann.key",
                            [("lesk", DEMO / "system_lesk.ans"), ("neural", DEMO / "system_neural.ans")], p)
               for p in ("leaf", "fine", "coarse", "mixed")}
    check_against_cli(qtbot, ref, printed)
    # roles where they cannot be missed: the table's and the breakdown's headers
    model = win.ws.model
    titles = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert "[1] lesk (system)" in titles and "[2] neural (system)" in titles and "[3] ann (reference gold)" in titles
    leaf = win.ws.detail.leaf_model
    assert "(reference gold)" in leaf.headerData(3, Qt.Orientation.Horizontal)
    # rows coloured where a system differs from the reference, not grey "single"
    cat = win.wb.cols.category
    assert (cat == 3).sum() > 10 and (cat >= 0).sum() > 300  # 400 instances: nearly all compared
    win.close()


def test_wsd_framework_all_wordnet_journey(qtbot, private_dirs: Path, monkeypatch) -> None:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    if not Path(WORDNET, "index.noun").is_file():
        pytest.skip(f"WordNet 3.0 is not installed at {WORDNET} (Debian: apt install wordnet-base)")
    gold, lesk = d / "ALL.gold.key.txt", d / "ALL.lesk_example.key.txt"
    # the wizard: WordNet with its button, the two files, the roles it guesses
    wiz = NewProjectWizard()
    qtbot.addWidget(wiz)
    wiz.show()
    qtbot.waitExposed(wiz)
    qtbot.mouseClick(wiz.inventory.wordnet, Qt.MouseButton.LeftButton)
    assert wiz.inventory.paths() == [WORDNET]
    wiz.next()
    wiz.annotation.add_paths([str(gold), str(lesk)])
    table = wiz.annotation.table
    heads = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert "Role" in heads
    role_col = heads.index("Role")
    assert [table.cellWidget(r, role_col).currentText() for r in range(2)] == ["gold", "system"]
    qtbot.waitUntil(lambda: all(table.item(r, 1).text() != "reading…" for r in range(2)), timeout=60_000)
    wiz.next()
    wiz.next()
    wiz.next()
    assert wiz.currentPage() is wiz.preview
    qtbot.waitUntil(lambda: wiz.preview.report is not None, timeout=60_000)
    out = private_dirs / "wsd_all.hadj"
    wiz.preview.output.setText(str(out))
    wiz.button(QWizard.WizardButton.FinishButton).click()
    qtbot.waitUntil(lambda: wiz.created_path is not None, timeout=120_000)
    wiz.close()

    win = open_with_file_menu(qtbot, out, monkeypatch)
    roles = {s.name: s.role for s in win.wb.corpus.sets}
    assert sorted(roles.values()) == ["gold", "system"]
    lesk_name = next(n for n, r in roles.items() if r == "system")
    ref = win.ws.live.reference
    qtbot.waitUntil(lambda: ref.figures is not None, timeout=60_000)
    printed = {p: cli_score(WORDNET, gold, [(lesk_name, lesk)], p) for p in ("leaf", "fine", "coarse", "mixed")}
    assert printed["fine"][lesk_name]["f1"] == pytest.approx(0.322, abs=5e-4)
    check_against_cli(qtbot, ref, printed)
    choose_policy(qtbot, ref, "fine")
    assert shown_rows(ref)[0][:5] == [lesk_name, "all", "0.338", "0.307", "0.322"]

    # rows: single where lesk gave no answer, disjoint where no key of lesk is a gold key (the files say)
    keys = {ln.split()[0]: set(ln.split()[1:]) for ln in gold.read_text().splitlines() if ln.strip()}
    answers = {ln.split()[0]: set(ln.split()[1:]) for ln in lesk.read_text().splitlines() if ln.strip()}
    cat = win.wb.cols.category
    ids = np.asarray(win.wb.cols.inst_id, dtype=object)
    single = {str(i) for i in ids[cat == NO_PAIR]}
    assert single == set(keys) - set(answers)
    disjoint = {str(i) for i in ids[cat == 3]}
    assert disjoint == {i for i, a in answers.items() if i in keys and not (a & keys[i])}

    # the dashboard: the same figures, first, under the reference's name; the adjudicated gold apart
    panel = open_dashboard(qtbot, win)
    assert "reference gold" in panel.title_label.text()
    check_against_cli(qtbot, panel.scores, {"fine": printed["fine"]})
    assert "adjudicated" in win.dashboard.view.scores.title
    win.close()
    QApplication.processEvents()
