"""File ▸ Export gold…, Decide ▸ Resolve what the annotators agree on…, File ▸ Re-import a set…,
File ▸ Import decisions (CSV)… and the report's status line, driven in the real window."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from hieradjudicate.app.demo import DEMO_SETS, demo_inputs
from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.session import Session
from hieradjudicate.gui.project import project_dialogs
from tests.conftest import ROOT
from tests.gui.journey import CTRL_SHIFT, back_to, choose_combo, export_gold, open_window, resolve_agreed, type_into


def _cli(capsys, *args: str) -> str:
    """The command line in its own process (the window holds the project open), its stdout."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "hieradjudicate", *args], capture_output=True, text=True,
                         env=env, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def _undo(qtbot, win) -> None:
    back_to(qtbot, win)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)


def test_export_gold_dialog_offers_every_format_and_prints_the_cli_line(qtbot, demo_project: Path,
                                                                        tmp_path: Path, capsys) -> None:
    win = open_window(qtbot, demo_project)
    for key in (Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_A):
        qtbot.keyClick(win.ws.table, key)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_F)  # one flagged
    assert len(win.session.decisions) == 4
    # every format of `project export`, the tools' own ones greyed out with the reason
    qtbot.keyClick(win.ws.table, Qt.Key.Key_E, CTRL_SHIFT)
    dlg = win.project_ops.export_dialog
    box = dlg.format
    assert [box.itemData(k) for k in range(box.count())] == ["senseval", "wsdeval", "csv", "jsonl", "xmi",
                                                              "labelstudio", "prodigy"]
    for k in range(4, 7):
        assert not box.model().item(k).isEnabled()
        assert "file the project was built from" in box.itemData(k, Qt.ItemDataRole.ToolTipRole)
    assert dlg.path.text() == str(demo_project.with_name("demo.gold.key"))
    # why they are greyed is said in sight, not only in a disabled item's tooltip (issue 31)
    assert dlg.unavailable.isVisible()
    assert "Not available here: xmi, labelstudio, prodigy: each writes the gold back into its tool's file" \
        in dlg.unavailable.text()
    choose_combo(qtbot, box, "csv")  # the default file follows the format
    assert dlg.path.text() == str(demo_project.with_name("demo.gold.csv")) and dlg.unresolved.isEnabled()
    type_into(qtbot, dlg.path, str(demo_project))  # an existing file: said before it is replaced
    assert dlg.result.text() == f"{demo_project} exists: Export replaces it."
    qtbot.mouseClick(dlg.close_button, Qt.MouseButton.LeftButton)
    for fmt, unresolved in (("senseval", False), ("wsdeval", False), ("csv", False), ("csv", True),
                            ("jsonl", True)):
        out = tmp_path / f"window-{fmt}-{unresolved}"
        said = export_gold(qtbot, win, fmt, out, unresolved=unresolved)
        cli_out = tmp_path / f"cli-{fmt}-{unresolved}"
        printed = _cli(capsys, "project", "export", str(demo_project), "--format", fmt, "-o", str(cli_out),
                       *(["--include-unresolved"] if unresolved else []))
        assert said == printed.replace(str(cli_out), str(out))
        assert win.statusBar().currentMessage() == said
        assert out.read_bytes() == cli_out.read_bytes()
        if not unresolved:
            assert said.startswith("wrote 3 instance(s)") and "left out 397 not resolved (1 flagged, 396 unresolved)" in said


def test_export_failure_is_said_and_the_status_line_moves_on(qtbot, demo_project: Path, tmp_path: Path) -> None:
    win = open_window(qtbot, demo_project)
    said = export_gold(qtbot, win, "csv", tmp_path / "missing" / "gold.csv")
    assert said.startswith("Not exported:") and "missing" in said and "Traceback" not in said
    assert win.statusBar().currentMessage() == "The gold was not exported"


def test_resolve_agreed_previews_resolves_as_one_step_and_undoes(qtbot, demo_project: Path, tmp_path: Path,
                                                                 capsys) -> None:
    copy = tmp_path / "copy.hadj"
    shutil.copy(demo_project, copy)
    win = open_window(qtbot, demo_project)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_1)  # one decided by hand first
    preview, message = resolve_agreed(qtbot, win)
    n = int(preview.split()[0])
    printed = _cli(capsys, "project", "resolve-agreed", str(copy))
    # the window resolves the instances the CLI resolves, less the one decided by hand if they agreed on it
    m = int(printed.split(": resolved ")[1].split()[0])
    assert n in (m, m - 1) and n > 100
    assert message.split(" instance(s) ")[1].split("; left out")[0] == printed.split(" instance(s) ")[1]
    assert message.endswith("; left out 1 already decided") == (n == m - 1)
    assert f"resolved {n} instance(s)" in message and win.statusBar().currentMessage() == message
    assert len(win.session.decisions) == n + 1
    assert win.actions["undo"].text() == "&Undo accept agreed (identical)"
    assert win.windowTitle().count(f"{n + 1} decisions") == 1
    assert int((win.wb.status == 1).sum()) == n + 1  # the table shows them resolved
    _undo(qtbot, win)
    assert len(win.session.decisions) == 1 and int((win.wb.status == 1).sum()) == 1


def test_resolve_agreed_with_fewer_than_two_annotators_says_so(qtbot, private_dirs: Path) -> None:
    demo = demo_inputs()
    path = private_dirs / "one.hadj"
    Session.create(path, [str(demo / "inventory.txt")],
                   [AnnotationSpec(str(demo / "annotator_ann.key"), "ann", "annotator"),
                    AnnotationSpec(str(demo / "system_lesk.ans"), "lesk", "system")]).close()
    win = open_window(qtbot, path)
    win.actions["resolve_agreed"].trigger()  # the menu item
    dlg = win.project_ops.agreed_dialog
    assert "needs at least 2 annotator set(s) and this project has 1" in dlg.preview.text()
    assert not dlg.resolve_button.isEnabled()
    qtbot.mouseClick(dlg.systems, Qt.MouseButton.LeftButton, pos=dlg.systems.rect().center())
    assert dlg.systems.isChecked() and dlg.resolve_button.isEnabled()
    assert "systems included: lesk" in dlg.preview.text()


def test_reimport_rebuilds_the_views_and_undo_takes_it_back(qtbot, demo_project: Path, tmp_path: Path,
                                                            monkeypatch) -> None:
    win = open_window(qtbot, demo_project)
    session = win.session
    i = win.ws.current
    key = win.wb.key_of(i)
    ben = win.wb.corpus.get_set("ben")
    old = win.wb.answer_of_key(i, 2)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_2)  # take ben's answer: re-importing ben flags it
    assert session.decisions.current(*key).status == "resolved"
    lines = (demo_inputs() / "annotator_ben.key").read_text(encoding="utf-8").splitlines()
    inv = win.wb.corpus.inventory
    leaves = [inv.node_id[int(n)] for n in inv.lexelt_nodes[inv.lexelts.index(key[0])] if inv.node_is_leaf[int(n)]]
    new_tag = next(t for t in leaves if t not in old.tags)
    k = next(j for j, line in enumerate(lines) if line.split()[:2] == list(key))
    lines[k] = f"{key[0]} {key[1]} {new_tag}"
    changed = tmp_path / "ben_v2.key"
    changed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(project_dialogs, "CHOOSER", lambda *_a: str(changed))

    here = win.wb.key_of(win.ws.current)  # moved on after deciding
    win.actions["reimport"].trigger()
    dlg = win.project_ops.reimport_dialog
    choose_combo_text(qtbot, dlg.set_box, "ben")
    qtbot.mouseClick(dlg.findChild(type(dlg.go), "browse"), Qt.MouseButton.LeftButton)  # Browse… asks the chooser
    assert dlg.path.text() == str(changed)
    qtbot.mouseClick(dlg.go, Qt.MouseButton.LeftButton)
    assert dlg.lines[0].startswith("re-imported ben from") and "1 instance(s) changed, 1 decision(s) flagged" in dlg.lines[0]
    assert dlg.lines[1].startswith(f"flagged {key[0]} {key[1]}:")
    qtbot.waitUntil(lambda: win.wb.corpus is session.corpus, timeout=60_000)
    assert win.wb.corpus.get_set("ben") is not ben
    assert win.wb.key_of(win.ws.current) == here  # the same instance, in the new views
    assert tuple(win.wb.answer_of_key(win.wb.corpus.instance_index(*key), 2).tags) == (new_tag,)
    assert session.decisions.current(*key).status == "flagged"
    assert win.statusBar().currentMessage() == dlg.lines[0]
    qtbot.mouseClick(dlg.buttons.button(dlg.buttons.StandardButton.Close), Qt.MouseButton.LeftButton)
    _undo(qtbot, win)  # the whole re-import, in one step
    qtbot.waitUntil(lambda: win.wb.corpus is session.corpus and tuple(
        win.wb.answer_of_key(win.wb.corpus.instance_index(*key), 2).tags) == tuple(old.tags), timeout=60_000)
    assert session.decisions.current(*key).status == "resolved"


def choose_combo_text(qtbot, box, text: str) -> None:
    k = box.findText(text)
    assert k >= 0
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Home)
    for _ in range(k):
        qtbot.keyClick(box, Qt.Key.Key_Down)
    assert box.currentText() == text


def test_import_decisions_from_csv_and_a_bad_line_named(qtbot, demo_project: Path, tmp_path: Path,
                                                        monkeypatch) -> None:
    win = open_window(qtbot, demo_project)
    (lex, inst), (lex2, inst2) = win.session.instances()[:2]
    inv = win.wb.corpus.inventory
    tag = next(inv.node_id[int(n)] for n in inv.lexelt_nodes[inv.lexelts.index(lex)] if inv.node_is_leaf[int(n)])
    bad = tmp_path / "bad.csv"
    bad.write_text(f"lexelt,instance,tags\n{lex},{inst},{tag}\n{lex2},{inst2},nosuch\n", encoding="utf-8")
    monkeypatch.setattr(project_dialogs, "CHOOSER", lambda *_a: str(bad))
    win.actions["import_decisions"].trigger()  # read in the background
    qtbot.waitUntil(lambda: "nosuch" in win.statusBar().currentMessage(), timeout=60_000)
    assert len(win.session.decisions) == 0
    assert f"{bad}:3: nosuch is not a sense of {lex2}" in win.statusBar().currentMessage()
    good = tmp_path / "good.csv"
    good.write_text(f"lexelt,instance,tags,note\n{lex},{inst},{tag},from the meeting\n", encoding="utf-8")
    monkeypatch.setattr(project_dialogs, "CHOOSER", lambda *_a: str(good))
    win.actions["import_decisions"].trigger()
    # read and checked, then previewed: nothing is recorded before the user says Import (issue 31)
    qtbot.waitUntil(lambda: win.project_ops.import_dialog is not None
                    and win.project_ops.import_dialog.isVisible(), timeout=60_000)
    dlg = win.project_ops.import_dialog
    assert dlg.preview.text().startswith("1 decision(s) in good.csv: 1 for instances without a decision, "
                                         "0 replace the current decision, 0 equal to it")
    assert len(win.session.decisions) == 0
    qtbot.mouseClick(dlg.import_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.statusBar().currentMessage().startswith("imported"), timeout=60_000)
    assert win.statusBar().currentMessage() == f"imported 1 decision(s) from {good}"
    i = win.wb.corpus.instance_index(lex, inst)
    assert win.wb.status[i] == 1 and win.wb.gold[i] == tag
    assert win.actions["undo"].text() == "&Undo import good.csv"
    other = next(t for n in inv.lexelt_nodes[inv.lexelts.index(lex)]
                 if inv.node_is_leaf[int(n)] and (t := inv.node_id[int(n)]) != tag)
    again = tmp_path / "again.csv"  # a second import would replace that decision: said, then Cancel
    again.write_text(f"lexelt,instance,tags\n{lex},{inst},{other}\n", encoding="utf-8")
    monkeypatch.setattr(project_dialogs, "CHOOSER", lambda *_a: str(again))
    win.actions["import_decisions"].trigger()
    qtbot.waitUntil(lambda: win.project_ops.import_dialog is not dlg
                    and win.project_ops.import_dialog.isVisible(), timeout=60_000)
    dlg = win.project_ops.import_dialog
    assert "0 for instances without a decision, 1 replace the current decision" in dlg.preview.text()
    dlg.reject()
    assert win.wb.gold[i] == tag and win.statusBar().currentMessage() == "Not imported: again.csv"


def test_a_failed_report_does_not_keep_saying_writing(qtbot, demo_project: Path, tmp_path: Path,
                                                     monkeypatch) -> None:
    monkeypatch.delenv("HIERADJ_NO_DIALOGS")  # the real path: a message box (answered here)
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, _t, text: warned.append(text)))
    target = tmp_path / "gone" / "r.html"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *_a, **_k: (str(target), "")))
    win = open_window(qtbot, demo_project)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_R, CTRL_SHIFT)
    qtbot.waitUntil(lambda: bool(warned), timeout=60_000)
    assert "The report could not be written" in warned[0]
    assert "Writing the report" not in win.statusBar().currentMessage()


@pytest.mark.parametrize(("sets", "inventory"), [(["ann"], True), (["lesk", "neural"], True), (["ann", "ben"], False),
                                                (["cho"], False)],
                         ids=["one set", "only systems", "no inventory", "one set, no inventory"])
def test_report_and_dashboard_with_one_set_only_systems_no_inventory(qtbot, private_dirs: Path, tmp_path: Path,
                                                                     sets, inventory) -> None:
    demo = demo_inputs()
    path = private_dirs / "few.hadj"
    Session.create(path, [str(demo / "inventory.txt")] if inventory else [],
                   [AnnotationSpec(str(demo / f), n, r) for f, n, r in DEMO_SETS if n in sets]).close()
    win = open_window(qtbot, path)
    win.actions["dashboard_tab"].trigger()
    view = win.dashboard.view
    qtbot.waitUntil(lambda: view.data is not None and not view.updating, timeout=60_000)
    done: list[Path] = []
    view.export_report(tmp_path / "r.html", done.append, lambda exc: done.append(exc))
    qtbot.waitUntil(lambda: bool(done), timeout=60_000)
    assert isinstance(done[0], Path), done[0]
    assert "<!DOCTYPE html>" in done[0].read_text(encoding="utf-8")


def test_export_runs_in_the_background_behind_a_progress_dialog(qtbot, demo_project: Path, tmp_path: Path,
                                                                monkeypatch) -> None:
    import threading

    from hieradjudicate.app.session import project_ops

    gate = threading.Event()
    real = project_ops.export_job

    def slow(*args, **kwargs):
        job = real(*args, **kwargs)

        def run():
            gate.wait(20)
            return job()
        return run

    monkeypatch.setattr(project_ops, "export_job", slow)
    win = open_window(qtbot, demo_project)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_E, CTRL_SHIFT)
    dlg = win.project_ops.export_dialog
    type_into(qtbot, dlg.path, str(tmp_path / "slow.key"))
    qtbot.mouseClick(dlg.export_button, Qt.MouseButton.LeftButton)
    progress = win.project_ops.progress
    assert progress is not None and win.project_ops.runner.busy  # the window is free meanwhile
    assert progress.labelText() == "Writing the gold…" and progress.maximum() == 0  # no false percentage
    assert win.statusBar().currentMessage() == "Writing the gold…" and not dlg.export_button.isEnabled()
    gate.set()
    qtbot.waitUntil(lambda: dlg.result.text().startswith("wrote"), timeout=60_000)
    assert win.project_ops.progress is None and win.statusBar().currentMessage() == dlg.result.text()
    assert (tmp_path / "slow.key").exists() and dlg.export_button.isEnabled()


def test_resolve_agreed_offers_counting_systems_only_where_there_are_some(qtbot, demo_project: Path,
                                                                          private_dirs: Path) -> None:
    win = open_window(qtbot, demo_project)  # the demo has two systems: the choice is there
    resolve_agreed_dialog = _open_agreed(qtbot, win)
    assert resolve_agreed_dialog.systems.isVisible()
    qtbot.mouseClick(resolve_agreed_dialog.buttons.button(resolve_agreed_dialog.buttons.StandardButton.Cancel),
                     Qt.MouseButton.LeftButton)
    win.close()
    inputs = demo_inputs()
    path = private_dirs / "annotators.hadj"
    Session.create(path, [str(inputs / "inventory.txt")],
                   [AnnotationSpec(str(inputs / f"annotator_{n}.key"), n, "annotator") for n in ("ann", "ben")]).close()
    win = open_window(qtbot, path)  # annotators only (as MASC): no such choice
    dlg = _open_agreed(qtbot, win)
    assert not dlg.systems.isVisible() and dlg.preview.text()
    win.close()


def _open_agreed(qtbot, win):
    back_to(qtbot, win)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_G, CTRL_SHIFT)
    dlg = win.project_ops.agreed_dialog
    assert dlg is not None and dlg.isVisible()
    return dlg
