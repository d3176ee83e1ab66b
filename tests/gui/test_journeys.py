"""Issue 21, item 5: whole journeys in the real window, with keys, shortcuts, menu actions and buttons.

* open → sort (a header click) → decide with keys → the decided instances are the highlighted ones →
  export gold through the dialog → reopen → the same decisions (demo; Senseval-3 where HIERADJ_REALDATA
  is set);
* INCEpTION XMI through the wizard (File ▸ New) with no inventory → the project opens;
* MASC (228 crowd workers) → resolve what the annotators agree on → export, equal to the command line.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QWizard

from hieradjudicate.app.demo import ensure_demo_project
from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.session import Session
from hieradjudicate.gui.main_window import MainWindow
from tests.conftest import ROOT, skip_without_realdata
from tests.gui.journey import back_to, click_header, export_gold, highlighted, open_window, resolve_agreed


def _cli(*args: str, ok: int = 0) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "hieradjudicate", *args], capture_output=True, text=True,
                         env=env, timeout=600, check=False)
    assert out.returncode == ok, out.stderr
    return out.stdout.strip()


def _project(kind: str, folder: Path) -> Path:
    if kind == "demo":
        return ensure_demo_project(folder / "demo.hadj")
    d = skip_without_realdata("senseval3") / "senseval3"
    path = folder / "senseval3.hadj"
    Session.create(path, [str(d / "EnglishLS.sensemap")],
                   [AnnotationSpec(str(d / "answers" / "baseline_responses.txt"), "baseline", "annotator"),
                    AnnotationSpec(str(d / "answers" / "common_words_run.txt"), "common", "annotator"),
                    AnnotationSpec(str(d / "answers" / "tmp26"), "tmp26", "annotator")]).close()
    return path


@pytest.mark.parametrize("kind", ["demo", "senseval3"])
def test_decide_with_keys_export_gold_reopen(qtbot, private_dirs: Path, tmp_path: Path, kind: str) -> None:
    path = _project(kind, private_dirs)
    win = open_window(qtbot, path)
    ws, wb = win.ws, win.wb
    first = highlighted(win)
    # sort by "Leaf agr." (a click on the real header), then by it descending: the order the table shows
    # is no longer the corpus order, and the instance highlighted before is still the one highlighted
    click_header(qtbot, win, "agreement")
    click_header(qtbot, win, "agreement")
    assert wb.sort_key == "agreement" and wb.sort_descending
    assert (wb.view != np.sort(wb.view)).any()
    agr = np.nan_to_num(wb.cols.agreement, nan=-1.0)[wb.view]  # no figure: last
    assert (np.diff(agr) <= 0).all() and agr[0] > agr[-1]
    assert highlighted(win) == first
    row = wb.row_of(first)
    ws.table.setFocus()
    for _ in range(3):  # a few rows down the sorted table, with the arrow key
        qtbot.keyClick(ws.table, Qt.Key.Key_Down)
    assert highlighted(win) == int(wb.view[row + 3])
    expected: dict[tuple[str, str], tuple[str, ...]] = {}
    for step in "12A31A2A":
        i = highlighted(win)
        assert i >= 0 and wb.status[i] == 0
        key = wb.key_of(i)
        if step != "A" and wb.answer_of_key(i, int(step)) is None:
            step = "A"
        tags = tuple(wb.suggestion(i).tags) if step == "A" else tuple(wb.answer_of_key(i, int(step)).tags)
        qtbot.keyClick(ws.table, getattr(Qt.Key, f"Key_{step}"))
        qtbot.waitUntil(lambda i=i: ws.current != i, timeout=60_000)  # moved on by itself
        assert wb.status[i] == 1 and wb.gold[i] == " ".join(tags)  # the one that was highlighted
        assert wb.status.sum() == len(expected) + 1  # and no other
        nxt = highlighted(win)  # the next unresolved row of the sorted table is the one highlighted
        assert nxt == int(wb.view[wb.next_unresolved(wb.row_of(i))])
        expected[key] = tags
    flagged = wb.key_of(ws.current)
    qtbot.keyClick(ws.table, Qt.Key.Key_F)
    # export through the dialog: the summary the command line prints, the decisions in the file
    said = export_gold(qtbot, win, "csv", tmp_path / "gold.csv")
    n = wb.corpus.n
    assert said == (f"wrote 8 instance(s) to {tmp_path / 'gold.csv'} (csv); left out {n - 8} not resolved "
                    f"(1 flagged, {n - 9} unresolved)")
    printed = _cli("project", "export", str(path), "--format", "csv", "-o", str(tmp_path / "cli.csv"))
    assert printed == said.replace(str(tmp_path / "gold.csv"), str(tmp_path / "cli.csv"))
    with open(tmp_path / "gold.csv", encoding="utf-8", newline="") as fh:
        rows = {(r["lexelt"], r["instance"]): tuple(r["tags"].split(";")) for r in csv.DictReader(fh)}
    assert rows == expected
    said = export_gold(qtbot, win, "senseval", tmp_path / "gold.key")
    assert said.startswith("wrote 8 instance(s)")
    win.close()  # File ▸ Quit's path: the project is closed

    again = open_window(qtbot, path)
    snap = again.session.decisions.snapshot()
    assert {k: d.tags for k, d in snap.items() if d.status == "resolved"} == expected
    assert snap[flagged].status == "flagged"
    for key, tags in expected.items():  # the table shows them too
        i = again.wb.corpus.instance_index(*key)
        assert again.wb.status[i] == 1 and again.wb.gold[i] == " ".join(tags)
    again.close()


def test_inception_xmi_through_the_wizard_without_inventory_opens(qtbot, private_dirs: Path, monkeypatch,
                                                                   tmp_path: Path) -> None:
    xmi = skip_without_realdata("inception") / "inception" / "diderot_rousseau.xmi"
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    seen: dict[str, object] = {}

    def drive() -> None:
        wiz = QApplication.activeModalWidget()
        seen["wizard"] = type(wiz).__name__
        next_button = wiz.button(QWizard.WizardButton.NextButton)
        next_button.click()  # no inventory: Next goes on
        wiz.annotation.add_paths([str(xmi)])
        fmt = wiz.annotation.table.item(0, 1)
        qtbot.waitUntil(lambda: fmt.text() != "reading…", timeout=60_000)
        next_button.click()
        next_button.click()
        assert wiz.currentPage() is wiz.mapping
        combo = wiz.mapping.boxes[str(xmi)]["sense layer"]
        choice = next(combo.itemText(k) for k in range(combo.count())
                      if combo.itemText(k).startswith("de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity / identifier"))
        combo.setCurrentText(choice)
        next_button.click()
        qtbot.waitUntil(lambda: wiz.preview.report is not None, timeout=60_000)
        seen["summary"] = wiz.preview.summary.text()
        seen["output"] = wiz.preview.output_path()
        wiz.button(QWizard.WizardButton.FinishButton).click()

    QTimer.singleShot(0, drive)
    win.actions["new"].trigger()  # File ▸ New project…: the wizard, then the new project opens
    assert seen["wizard"] == "NewProjectWizard"
    assert "No inventory: every tag becomes a sense of its own" in seen["summary"]
    out = home / "Documents" / "diderot_rousseau.hadj"
    assert seen["output"] == str(out)
    assert win.session is not None and win.session.path == out.resolve()
    cli = tmp_path / "cli.hadj"
    printed = _cli("project", "new", str(cli), "--annotations", str(xmi),
                   "--xmi-layer", "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity", "--xmi-feature", "identifier")
    assert printed.startswith(f"created {cli}: {win.session.corpus.n} instances, "
                              f"{len(win.session.corpus.inventory.lexelts)} lexelts")
    assert win.ws.model.rowCount() == win.session.corpus.n
    # a decision with a key, and the gold written back into INCEpTION's own format
    back_to(qtbot, win)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_1)
    said = export_gold(qtbot, win, "xmi", tmp_path / "gold.zip")
    assert said.startswith(f"wrote 1 instance(s) to {tmp_path / 'gold.zip'}"), said
    assert (tmp_path / "gold.zip").read_bytes()[:2] == b"PK"
    win.close()


@pytest.fixture(scope="module")
def masc(tmp_path_factory) -> Path:
    d = skip_without_realdata("masc_amt") / "masc_amt"
    path = tmp_path_factory.mktemp("masc") / "masc.hadj"
    Session.create(path, [str(d / "inventory_tree.tsv")],
                   [AnnotationSpec(str(d / "masc_amt_labels_wide.tsv.gz"), None, "annotator")]).close()
    return path


def test_masc_resolve_agreed_then_export(qtbot, private_dirs: Path, tmp_path: Path, masc: Path) -> None:
    path = tmp_path / "masc.hadj"
    shutil.copy(masc, path)
    copy = tmp_path / "masc-cli.hadj"
    shutil.copy(masc, copy)
    win = open_window(qtbot, path)
    assert len(win.wb.corpus.sets) == 228 and win.wb.corpus.n == 44_682
    preview, message = resolve_agreed(qtbot, win)
    n = int(preview.split()[0])
    printed = _cli("project", "resolve-agreed", str(copy))
    assert printed == message  # the same count and the same sets compared, word for word
    assert n > 0 and len(win.session.decisions) == n
    assert int((win.wb.status == 1).sum()) == n
    said = export_gold(qtbot, win, "senseval", tmp_path / "masc.key")
    assert said == (f"wrote {n} instance(s) to {tmp_path / 'masc.key'} (senseval); "
                    f"left out {44_682 - n} not resolved ({44_682 - n} unresolved)")
    printed = _cli("project", "export", str(copy), "--format", "senseval", "-o", str(tmp_path / "cli.key"))
    assert printed == said.replace(str(tmp_path / "masc.key"), str(tmp_path / "cli.key"))
    assert (tmp_path / "masc.key").read_bytes() == (tmp_path / "cli.key").read_bytes()
    # File ▸ Re-import a set… offers the one file of 228 sets once, not 228 times
    win.actions["reimport"].trigger()
    box = win.project_ops.reimport_dialog.set_box
    assert [box.itemText(k) for k in range(box.count())] == ["masc_amt_labels_wide.tsv.gz (228 sets)"]
    win.project_ops.reimport_dialog.reject()
    win.close()
