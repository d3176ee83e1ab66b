"""Issue 31, item 1, as a lexicographer meets it in the window: a note and a flag are marks on the
instance.  A note written before deciding stays through the decision, the Note column, the "Has a note"
filter, the exports and an undo; skipping a flagged instance leaves it flagged, deciding it keeps the
flag, and F unflags it.  Keys, dialogs and buttons of the real window; the saved project is then read
by the command line."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from PySide6.QtCore import Qt

from hieradjudicate.cli.entry import main
from tests.gui.journey import back_to, export_gold, highlighted, open_window, write_note

NOTE = "ask Ann: is this the river bank?"
CTRL = Qt.KeyboardModifier.ControlModifier
UNRESOLVED, RESOLVED, FLAGGED = 0, 1, 2


def _csv(path: Path) -> dict[tuple[str, str], dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return {(r["lexelt"], r["instance"]): r for r in csv.DictReader(fh)}


def test_a_note_written_before_deciding_stays_through_the_decision_the_exports_and_undo(
        qtbot, demo_project: Path, tmp_path: Path) -> None:
    win = open_window(qtbot, demo_project)
    wb, ws = win.wb, win.ws
    i = highlighted(win)
    key = wb.key_of(i)
    assert wb.status[i] == UNRESOLVED
    write_note(qtbot, win, NOTE)
    assert highlighted(win) == i
    # a note alone is no status: the instance is still unresolved, and shows its note
    assert (int(wb.status[i]), wb.note[i]) == (UNRESOLVED, NOTE)
    assert win.session.decisions.current(*key) is None
    assert NOTE in ws.detail.context.toPlainText()
    answer = wb.answer_of_key(i, 1)
    assert answer is not None
    qtbot.keyClick(ws.table, Qt.Key.Key_1)  # take set 1's answer and move on
    qtbot.waitUntil(lambda: ws.current != i, timeout=60_000)
    assert (int(wb.status[i]), wb.gold[i], wb.note[i]) == (RESOLVED, " ".join(answer.tags), NOTE)
    col = ws.model.keys.index("note")
    assert ws.model.data(ws.model.index(wb.row_of(i), col)) == NOTE
    box = ws.status_box
    box.setCurrentIndex(box.findText("Has a note"))
    assert wb.view.tolist() == [i]
    box.setCurrentIndex(0)
    said = export_gold(qtbot, win, "csv", tmp_path / "gold.csv")
    assert said.startswith("wrote 1 instance(s)")
    row = _csv(tmp_path / "gold.csv")[key]
    assert (row["status"], row["tags"], row["note"]) == ("resolved", ";".join(answer.tags), NOTE)
    # undo takes the decision back and leaves the note as it was before it; redo brings the decision
    back_to(qtbot, win)
    qtbot.keyClick(ws.table, Qt.Key.Key_Z, CTRL)
    assert (int(wb.status[i]), wb.note[i]) == (UNRESOLVED, NOTE)
    assert highlighted(win) == i and NOTE in ws.detail.context.toPlainText()
    said = export_gold(qtbot, win, "csv", tmp_path / "open.csv", unresolved=True)
    row = _csv(tmp_path / "open.csv")[key]
    assert (row["status"], row["tags"], row["note"]) == ("unresolved", "", NOTE)
    back_to(qtbot, win)
    qtbot.keyClick(ws.table, Qt.Key.Key_Y, CTRL)
    assert (int(wb.status[i]), wb.note[i]) == (RESOLVED, NOTE)
    win.close()
    # the command line reads the same project: the JSON Lines gold and a reopened window keep the note
    out = tmp_path / "gold.jsonl"
    assert main(["project", "export", str(demo_project), "--format", "jsonl", "-o", str(out)]) == 0
    (line,) = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert (line["instance"], line["status"], line["note"]) == (key[1], "resolved", NOTE)
    again = open_window(qtbot, demo_project)
    j = again.wb.corpus.instance_index(*key)
    assert (int(again.wb.status[j]), again.wb.note[j]) == (RESOLVED, NOTE)
    again.close()


def test_a_flag_stays_through_skip_and_decide_until_f_unflags(qtbot, demo_project: Path,
                                                               tmp_path: Path) -> None:
    win = open_window(qtbot, demo_project)
    wb, ws = win.wb, win.ws
    i = highlighted(win)
    key = wb.key_of(i)
    qtbot.keyClick(ws.table, Qt.Key.Key_F)
    assert wb.status[i] == FLAGGED
    qtbot.keyClick(ws.table, Qt.Key.Key_S)  # skip: moves on, the flag stays
    qtbot.waitUntil(lambda: ws.current != i, timeout=60_000)
    assert wb.status[i] == FLAGGED
    assert "stays flagged" in win.statusBar().currentMessage()
    qtbot.keyClick(ws.table, Qt.Key.Key_Up)  # back to it
    assert highlighted(win) == i
    answer = wb.answer_of_key(i, 2)
    assert answer is not None
    qtbot.keyClick(ws.table, Qt.Key.Key_2)  # deciding keeps the flag; the tags wait under it
    assert (int(wb.status[i]), wb.gold[i]) == (FLAGGED, " ".join(answer.tags))
    assert "stays flagged" in win.statusBar().currentMessage()
    said = export_gold(qtbot, win, "csv", tmp_path / "all.csv", unresolved=True)
    row = _csv(tmp_path / "all.csv")[key]
    assert (row["status"], row["tags"]) == ("flagged", ";".join(answer.tags))
    win.close()
    again = open_window(qtbot, demo_project)  # saved as such
    j = again.wb.corpus.instance_index(*key)
    assert again.wb.status[j] == FLAGGED
    again.ws.select_instance(j)
    again.ws.table.setFocus()
    qtbot.keyClick(again.ws.table, Qt.Key.Key_F)  # F again unflags: the decision under the flag is gold
    assert (int(again.wb.status[j]), again.wb.gold[j]) == (RESOLVED, " ".join(answer.tags))
    said = export_gold(qtbot, again, "senseval", tmp_path / "gold.key")
    assert said.startswith("wrote 1 instance(s)")
    assert (tmp_path / "gold.key").read_text().split() == [*key, *answer.tags]
    again.close()
