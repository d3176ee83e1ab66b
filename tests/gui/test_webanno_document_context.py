"""Go ▸ Document context (``D``) on a project made of WebAnno TSV 3 files: through the real window and
real keys, the sentences around the highlighted instance with the target and the other instances of its
lemma in that document marked, the whole document on demand; an instance whose input has no document
(a Senseval key beside it) is said to have none."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.session import Session
from tests.gui.journey import back_to, highlighted, open_window
from tests.gui.test_crowd_panel_small_screens_and_notes import _go_to  # Go ▸ Go to instance (Ctrl+G)

WS = "de.tudarmstadt.ukp.dkpro.core.api.semantics.type.WordSense"
SENTENCES = ["The bank was steep .", "Rain fell all day .", "We sat by the water .",
             "Then the bank closed .", "Night came .", "Birds sang loudly .", "It ended ."]
SENSE = {("bank", 0): "bank%1:17:01::", ("bank", 3): "bank%1:14:00::", ("water", 2): "water%1:27:00::"}


def _tsv(senses: dict[tuple[str, int], str]) -> str:
    """A WebAnno TSV 3.3 document of SENTENCES, the WordSense layer's value on the words of ``senses``."""
    out, at = ["#FORMAT=WebAnno TSV 3.3", f"#T_SP={WS}|value", "", ""], 0
    for s_no, sentence in enumerate(SENTENCES):
        out.append(f"#Text={sentence}")
        for t_no, word in enumerate(sentence.split(), start=1):
            value = senses.get((word, s_no), "_")
            out.append(f"{s_no + 1}-{t_no}\t{at}-{at + len(word)}\t{word}\t{value}\t")
            at += len(word) + 1
        out.append("")
    return "\n".join(out) + "\n"


def _project(folder: Path) -> Path:
    for who, senses in (("ann1", SENSE), ("ann2", {**SENSE, ("bank", 3): "bank%1:17:01::"})):
        (folder / who).mkdir()
        (folder / who / "story.tsv").write_text(_tsv(senses), encoding="utf-8")
    (folder / "other.key").write_text("fish.n fish.n.001 fish%1:13:00::\n")
    path = folder / "webanno.hadj"
    Session.create(path, [], [AnnotationSpec(str(folder / "ann1" / "story.tsv"), "ann1", "annotator"),
                              AnnotationSpec(str(folder / "ann2" / "story.tsv"), "ann2", "annotator"),
                              AnnotationSpec(str(folder / "other.key"), "ann3", "annotator")], []).close()
    return path


def test_d_on_a_webanno_tsv_project_shows_the_document_with_the_lemma_marked(qtbot, private_dirs: Path):
    win = open_window(qtbot, _project(private_dirs))
    at = len(" ".join(SENTENCES[:3])) + 1 + len("Then the ")
    bank2 = f"story:{at}-{at + 4}"  # the second bank, in the fourth sentence
    _go_to(qtbot, win, f"bank {bank2}")
    back_to(qtbot, win)
    assert win.wb.key_of(highlighted(win))[1] == bank2
    qtbot.keyClick(win.ws.table, Qt.Key.Key_D)
    dlg = win.document_dialog
    qtbot.waitUntil(dlg.isVisible, timeout=60_000)
    text = dlg.text.toPlainText()
    # two sentences before the target's and two after: not the first sentence nor the last
    assert "Rain fell all day" in text and "Then the bank closed" in text and "Birds sang loudly" in text
    assert "The bank was steep" not in text and "It ended" not in text
    assert "document <b>story</b>" in dlg.title.text() and "sentence 4 of 7" in dlg.title.text()
    assert "name=\"target\"" in dlg.text.toHtml()  # the target is marked (the panel scrolls to it)
    # the other bank of the document is listed (its own sentence is out of the window of two)
    assert dlg.same.count() == 1 and dlg.same.item(0).data(Qt.ItemDataRole.UserRole) == "story:4-8"
    assert "[bank]" in dlg.same.item(0).text() and "water" not in dlg.same_label.text()
    # the whole document on demand: the other bank is marked there as a link
    dlg.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dlg, timeout=60_000)
    dlg.whole.setFocus()
    qtbot.keyClick(dlg.whole, Qt.Key.Key_Space)
    assert "The bank1 was steep" in dlg.text.toPlainText() and "It ended" in dlg.text.toPlainText()
    assert "inst:story:4-8" in dlg.text.toHtml()
    # an instance from the Senseval key has no document: the panel says so and shows no list
    dlg.close()
    win.activateWindow()
    back_to(qtbot, win)
    _go_to(qtbot, win, "fish.n fish.n.001")
    back_to(qtbot, win)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_D)
    qtbot.waitUntil(dlg.isVisible, timeout=60_000)
    assert "no document context" in dlg.title.text() and dlg.same.count() == 0
    assert "not in the documents" in dlg.text.toPlainText()
