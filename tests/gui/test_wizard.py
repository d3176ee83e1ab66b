"""The new-project wizard: files and roles, column mapping, preview with problems, create, cancel."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from PySide6.QtWidgets import QPushButton, QWizard

import hieradjudicate.gui.wizard.wizard as wizard_mod
from hieradjudicate.app.demo import DEMO_SETS, demo_inputs
from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.app.session.session import Session
from hieradjudicate.gui.wizard.wizard import NewProjectWizard


@pytest.fixture
def demo(private_dirs: Path) -> Path:
    return demo_inputs()


def _wizard(qtbot) -> NewProjectWizard:
    wiz = NewProjectWizard()
    qtbot.addWidget(wiz)
    wiz.show()
    qtbot.waitExposed(wiz)
    return wiz


def _fill(qtbot, wiz: NewProjectWizard, demo: Path, annotations: list[tuple[str, str, str]]) -> None:
    wiz.inventory.add_paths([str(demo / "inventory.txt")])
    wiz.next()
    wiz.annotation.add_paths([str(demo / f) if "/" not in f else f for f, _, _ in annotations])
    for row, (_, name, role) in enumerate(annotations):
        wiz.annotation.set_role(row, role)
        wiz.annotation.set_name(row, name)
    table = wiz.annotation.table
    qtbot.waitUntil(lambda: all(table.item(r, 1).text() != "reading…" for r in range(table.rowCount())))
    wiz.next()
    wiz.contexts.add_paths([str(demo / "contexts.tsv")])
    wiz.next()
    assert wiz.currentPage() is wiz.mapping
    wiz.next()
    assert wiz.currentPage() is wiz.preview
    qtbot.waitUntil(lambda: wiz.preview.report is not None, timeout=60_000)


def test_demo_files_preview_and_create(qtbot, demo: Path, private_dirs: Path) -> None:
    wiz = _wizard(qtbot)
    _fill(qtbot, wiz, demo, list(DEMO_SETS))
    table = wiz.annotation.table
    assert [table.item(r, 1).text() for r in range(table.rowCount())] == ["senseval"] * 5
    assert table.cellWidget(3, 3).currentText() == "system"
    report = wiz.preview.report
    assert report["errors"] == []
    tree = wiz.preview.files
    rows = [[tree.topLevelItem(r).text(c) for c in range(4)] for r in range(tree.topLevelItemCount())]
    assert [r[2] for r in rows] == ["outline"] + ["senseval"] * 5 + ["table"]
    assert [r[3] for r in rows[1:6]] == [name for _, name, _ in DEMO_SETS]
    assert "Ready to create" in wiz.preview.summary.text()
    # HIERADJ_SHOT_DIR=/tmp keeps a picture of the preview page for a person to look at
    shots = Path(os.environ.get("HIERADJ_SHOT_DIR", private_dirs))
    wiz.resize(900, 640)
    assert wiz.grab().save(str(shots / "wizard_preview.png"))

    out = private_dirs / "made.hadj"
    wiz.preview.output.setText(str(out))
    assert wiz.preview.isComplete()
    wiz.button(QWizard.WizardButton.FinishButton).click()
    qtbot.waitUntil(lambda: wiz.created_path is not None, timeout=60_000)
    assert wiz.result() == QWizard.DialogCode.Accepted
    with Session.open(out) as session:
        got = {s.name: s.role for s in session.corpus.sets}
        assert got == {name: role for _, name, role in DEMO_SETS}
        assert session.corpus.contexts and session.corpus.n > 50


def test_bad_file_shows_its_problem_line(qtbot, demo: Path, private_dirs: Path) -> None:
    bad = private_dirs / "bad.key"
    lines = (demo / "annotator_ann.key").read_text(encoding="utf-8").splitlines()
    lines.insert(4, "bank.n")  # a line without instance and tag: line 5
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    wiz = _wizard(qtbot)
    _fill(qtbot, wiz, demo, [(str(bad), "bad", "annotator"), ("annotator_ben.key", "ben", "annotator")])
    problems = [wiz.preview.problems.item(k).text() for k in range(wiz.preview.problems.count())]
    assert any("bad.key:5:" in p for p in problems), problems
    # the bad line does not block the button: creating asks first (next test)
    assert "1 line(s) with problems" in wiz.preview.summary.text()
    wiz.resize(900, 640)
    assert wiz.grab().save(str(Path(os.environ.get("HIERADJ_SHOT_DIR", private_dirs)) / "wizard_bad.png"))
    assert wiz.preview.files.topLevelItem(1).text(4) != ""  # the file's row counts its problems


def _bad_key(demo: Path, private_dirs: Path) -> Path:
    bad = private_dirs / "bad.key"
    lines = (demo / "annotator_ann.key").read_text(encoding="utf-8").splitlines()
    lines.insert(4, "bank.n")  # a line without instance and tag: line 5
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return bad


@pytest.mark.parametrize("answer", ["No", "Yes"])
def test_creating_from_a_file_with_bad_lines_asks_first(qtbot, demo: Path, private_dirs: Path, monkeypatch,
                                                        answer: str) -> None:
    """#13 item 1: the wizard does not drop lines silently; it asks, and No creates nothing."""
    from PySide6.QtWidgets import QMessageBox

    asked: list[str] = []

    def question(parent, title, text, buttons, default):
        asked.append(text)
        assert default == QMessageBox.StandardButton.No  # going on must be a choice
        return getattr(QMessageBox.StandardButton, answer)

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    bad = _bad_key(demo, private_dirs)
    wiz = _wizard(qtbot)
    _fill(qtbot, wiz, demo, [(str(bad), "bad", "annotator"), ("annotator_ben.key", "ben", "annotator")])
    assert "1 line(s) with problems" in wiz.preview.summary.text()
    out = private_dirs / "withbad.hadj"
    wiz.preview.output.setText(str(out))
    assert wiz.preview.isComplete()
    wiz.button(QWizard.WizardButton.FinishButton).click()
    assert len(asked) == 1 and "1 line(s)" in asked[0] and "bad.key:5:" in asked[0]
    if answer == "No":
        qtbot.wait(100)
        assert wiz.created_path is None and not out.exists()
        assert "Not created" in wiz.preview.status.text()
        return
    qtbot.waitUntil(lambda: wiz.created_path is not None, timeout=60_000)
    with Session.open(out) as session:
        assert {s.name for s in session.corpus.sets} == {"bad", "ben"}


def test_create_job_refuses_bad_lines_unless_told(demo: Path, private_dirs: Path) -> None:
    """The file may change between preview and creation: the job itself applies the policy."""
    from hieradjudicate.app.loading.policy import BadInputError

    bad = _bad_key(demo, private_dirs)
    inputs = ([str(demo / "inventory.txt")], [AnnotationSpec(str(bad), "bad")], [], None)
    out = private_dirs / "job.hadj"
    with pytest.raises(BadInputError, match="bad.key:5"):
        wizard_mod.create_job(str(out), inputs, overwrite=False)(lambda *a: None)
    assert not out.exists()
    assert wizard_mod.create_job(str(out), inputs, overwrite=False, skip_bad_lines=True)(lambda *a: None)
    assert out.exists()


def test_wide_table_lists_its_sets_and_takes_a_column_mapping(qtbot, demo: Path, private_dirs: Path) -> None:
    table = private_dirs / "wide.tsv"
    rows = ["word\tinst\tx1\tx2"]
    for line in (demo / "annotator_ann.key").read_text(encoding="utf-8").splitlines()[:30]:
        lex, inst, tag = line.split()[:3]
        rows.append(f"{lex}\t{inst}\t{tag}\t{tag}")
    table.write_text("\n".join(rows) + "\n", encoding="utf-8")
    wiz = _wizard(qtbot)
    wiz.inventory.add_paths([str(demo / "inventory.txt")])
    wiz.next()
    wiz.annotation.add_paths([str(table)])
    fmt = wiz.annotation.table.item(0, 1)
    qtbot.waitUntil(lambda: fmt.text() != "reading…")
    # "word" and "inst" are not names the reader knows: refused as Senseval lines, a mapping is asked for
    assert fmt.text() == "needs a column mapping (step 4)"
    assert "does not make an annotation table" in fmt.toolTip()
    wiz.next()
    wiz.next()
    wiz.mapping.set_mapping(str(table), "lexelt", "word")
    wiz.mapping.set_mapping(str(table), "instance", "inst")
    assert wiz.inputs()[1][0].columns == {"lexelt": "word", "instance": "inst"}
    wiz.next()
    qtbot.waitUntil(lambda: wiz.preview.report is not None, timeout=60_000)
    assert wiz.preview.report["errors"] == []
    assert wiz.preview.files.topLevelItem(1).text(3) == "x1, x2"


def test_cancel_discards_the_project(qtbot, demo: Path, private_dirs: Path, monkeypatch) -> None:
    gate = threading.Event()
    real = wizard_mod.create_job

    def slow(path, inputs, *, overwrite, skip_bad_lines=False):
        job = real(path, inputs, overwrite=overwrite, skip_bad_lines=skip_bad_lines)

        def run(report):
            report(0, 9, "waiting")
            gate.wait(10)
            return job(report)
        return run

    monkeypatch.setattr(wizard_mod, "create_job", slow)
    wiz = _wizard(qtbot)
    _fill(qtbot, wiz, demo, list(DEMO_SETS))
    out = private_dirs / "cancelled.hadj"
    wiz.preview.output.setText(str(out))
    wiz.button(QWizard.WizardButton.FinishButton).click()
    dlg = wiz.progress
    assert dlg is not None and wiz.runner.busy
    dlg.findChild(QPushButton).click()  # the dialog's Cancel button
    gate.set()
    assert wiz.runner.wait(10000)
    qtbot.wait(50)  # let the discarded result arrive (and be dropped)
    assert wiz.created_path is None and not out.exists()
    assert not list(private_dirs.glob(".cancelled.hadj*"))
    assert "Cancelled" in wiz.preview.status.text() and wiz.isVisible()


def test_file_new_and_start_page_open_the_wizard(qtbot, private_dirs: Path) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from hieradjudicate.gui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    seen: list[str] = []

    def close_it() -> None:
        w = QApplication.activeModalWidget()
        seen.append(type(w).__name__)
        w.reject()

    QTimer.singleShot(100, close_it)
    win.actions["new"].trigger()
    QTimer.singleShot(100, close_it)
    win.start.new_requested.emit()
    assert seen == ["NewProjectWizard", "NewProjectWizard"] and win.session is None
    win.close()


def test_xmi_file_offers_its_layers_with_counts_and_reads_the_chosen_one(qtbot, private_dirs: Path) -> None:
    """INCEpTION XMI: the mapping step lists the span layers and string features found, with
    counts; the chosen layer/feature is what the preview reads (76 spans, 71 with a value)."""
    from tests.conftest import skip_without_realdata

    root = skip_without_realdata("inception")
    xmi = str(root / "inception" / "moralistik.xmi")
    wiz = _wizard(qtbot)
    wiz.next()
    wiz.annotation.add_paths([xmi])
    fmt = wiz.annotation.table.item(0, 1)
    qtbot.waitUntil(lambda: fmt.text() != "reading…", timeout=60_000)
    wiz.next()
    wiz.next()
    assert wiz.currentPage() is wiz.mapping
    combo = wiz.mapping.boxes[xmi]["sense layer"]
    choices = [combo.itemText(k) for k in range(combo.count())]
    choice = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity / identifier (76 spans, 71 with a value)"
    assert choice in choices
    wiz.mapping.set_mapping(xmi, "sense layer", choice)
    assert wiz.inputs()[1][0].columns == {"layer": "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity",
                                          "feature": "identifier"}
    wiz.next()
    qtbot.waitUntil(lambda: wiz.preview.report is not None, timeout=60_000)
    assert wiz.preview.report["instances"] == 71


@pytest.mark.skipif(not Path("/usr/share/wordnet/index.noun").is_file(),
                    reason="WordNet is not installed at /usr/share/wordnet (Debian: apt install wordnet-base)")
def test_wordnet_inventory_from_its_button(qtbot, private_dirs: Path, tmp_path: Path) -> None:
    """#11: the wizard offers WordNet (a database folder no file dialog can pick) and builds from it."""
    key = tmp_path / "gold.key.txt"
    key.write_text("d0.s0.t0 bank%1:14:00::\nd0.s0.t1 bank%1:17:01::\n")
    lesk = tmp_path / "lesk.key.txt"
    lesk.write_text("d0.s0.t0 bank%1:14:00::\nd0.s0.t1 bank%1:14:00::\n")
    wiz = _wizard(qtbot)
    button = wiz.inventory.findChild(QPushButton, "add_wordnet")
    assert button is not None and button.isEnabled()
    button.click()
    table = wiz.inventory.table
    qtbot.waitUntil(lambda: table.item(0, 1).text() != "reading…")
    assert table.item(0, 1).text() == "wordnet"
    wiz.next()
    wiz.annotation.add_paths([str(key), str(lesk)])
    qtbot.waitUntil(lambda: all(wiz.annotation.table.item(r, 1).text() != "reading…" for r in range(2)))
    assert wiz.annotation.table.item(0, 1).text() == "wsd-key"
    wiz.next()
    wiz.next()
    wiz.next()
    qtbot.waitUntil(lambda: wiz.preview.report is not None, timeout=60_000)
    assert wiz.preview.report["errors"] == [] and wiz.preview.report["senses"] >= 10
    out = private_dirs / "wn.hadj"
    wiz.preview.output.setText(str(out))
    wiz.button(QWizard.WizardButton.FinishButton).click()
    qtbot.waitUntil(lambda: wiz.created_path is not None, timeout=60_000)
    with Session.open(out) as session:
        assert session.corpus.inventory.summary()["outside_tags"] == 0
