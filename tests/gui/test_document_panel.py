"""Go ▸ Document context (``D``, #31): through the real window and real keys, the sentences around the
highlighted instance with the target and the other instances of its lemma marked, a click on one going
to it, the senses' definitions and examples beside; a project without documents says so."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.session import Session
from hieradjudicate.gui.actions import help_html
from tests.gui.journey import back_to, highlighted, open_window
from tests.gui.test_crowd_panel_small_screens_and_notes import _go_to  # Go ▸ Go to instance (Ctrl+G)
from tests.io.test_document_context import SMALL

# the same document with three more sentences: the window of two around s001 stops before s004
XML = SMALL.replace('</sentence>\n</text>\n<text id="d001">', "</sentence>\n" + "".join(
    f'<sentence id="d000.s00{k}">\n<wf lemma="x" pos="X">Filler{k}</wf>\n</sentence>\n' for k in (3, 4, 5))
    + '</text>\n<text id="d001">', 1)
INVENTORY = """lexelt\tsense\tparent\tgloss
bank.n\tbank%1:17:01::\t\tbank#1: sloping land beside a body of water; "they pulled the canoe up on the bank"
bank.n\tbank%1:14:00::\t\tbank#2: a financial institution; "he cashed a check at the bank"; "that bank holds the mortgage"
close.a\tclose%3:00:00::\t\tclose#1: not open
walk.v\twalk%2:38:00::\t\twalk#1: use one's feet to advance
river.n\triver%1:17:00::\t\triver#1: a large natural stream of water
bank.v\tbank%2:38:00::\t\tbank#1: tip laterally
"""
GOLD = """d000.s000.t000 bank%1:14:00::
d000.s000.t001 close%3:00:00::
d000.s001.t000 walk%2:38:00::
d000.s001.t001 bank%1:17:01::
d000.s001.t002 river%1:17:00::
d000.s002.t000 bank%2:38:00::
d001.s000.t000 bank%1:14:00::
"""


def _project(folder: Path, *, contexts: bool) -> Path:
    (folder / "inv.tsv").write_text(INVENTORY)
    (folder / "gold.key.txt").write_text(GOLD)
    (folder / "sys.key.txt").write_text(GOLD.replace("d000.s001.t001 bank%1:17:01::", "d000.s001.t001 bank%1:14:00::"))
    (folder / "small.data.xml").write_text(XML)
    path = folder / ("wsd.hadj" if contexts else "bare.hadj")
    Session.create(path, [str(folder / "inv.tsv")],
                   [AnnotationSpec(str(folder / "gold.key.txt"), "gold", "gold"),
                    AnnotationSpec(str(folder / "sys.key.txt"), "sys", "system")],
                   [str(folder / "small.data.xml")] if contexts else []).close()
    return path


def test_d_shows_the_sentences_around_with_the_lemma_marked_and_a_click_goes_there(qtbot, private_dirs: Path):
    win = open_window(qtbot, _project(private_dirs, contexts=True))
    _go_to(qtbot, win, "bank.n d000.s001.t001")
    back_to(qtbot, win)
    i = highlighted(win)
    assert win.wb.key_of(i)[1] == "d000.s001.t001"
    qtbot.keyClick(win.ws.table, Qt.Key.Key_D)
    dlg = win.document_dialog
    qtbot.waitUntil(dlg.isVisible, timeout=60_000)
    text = dlg.text.toPlainText()
    # the sentence before, the target's and two after; not the fourth after nor the other document
    # (the other bank.n carries its number in the list beside: "bank¹")
    assert "The bank1 was closed" in text and "We walked to the bank of the river" in text
    assert "It banked" in text and "Filler3" in text and "Filler4" not in text and "A bank" not in text
    page = dlg.text.toHtml()
    assert "d000.s000.t000" in page  # the other bank.n of d000 is a link; the verb bank.v is not
    assert "d000.s002.t000" not in page and "d001.s000.t000" not in page
    assert "document <b>d000</b>" in dlg.title.text() and "sentence 2 of 6" in dlg.title.text()
    assert dlg.same.count() == 1 and dlg.same.item(0).data(Qt.ItemDataRole.UserRole) == "d000.s000.t000"
    senses = dlg.senses.toPlainText()
    # definitions and examples apart, the chosen senses first with who chose them
    assert "sloping land beside a body of water" in senses and "“they pulled the canoe up on the bank”" in senses
    assert "“he cashed a check at the bank”" in senses and "chosen by gold" in senses and "chosen by sys" in senses
    # the whole document on demand (the panel is a window of its own: its keys are its own)
    dlg.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dlg, timeout=60_000)
    dlg.whole.setFocus()
    qtbot.keyClick(dlg.whole, Qt.Key.Key_Space)
    assert "Filler5" in dlg.text.toPlainText()
    # a click on the other instance of the lemma goes to it, and the panel follows
    rect = dlg.same.visualItemRect(dlg.same.item(0))
    qtbot.mouseClick(dlg.same.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.center()))
    qtbot.waitUntil(lambda: win.wb.key_of(win.ws.current)[1] == "d000.s000.t000", timeout=60_000)
    qtbot.waitUntil(lambda: "sentence 1 of 6" in dlg.title.text(), timeout=60_000)
    assert dlg.same.item(0).data(Qt.ItemDataRole.UserRole) == "d000.s001.t001"
    assert "Document context" in help_html()


def test_d_on_a_project_without_documents_says_so(qtbot, private_dirs: Path):
    win = open_window(qtbot, _project(private_dirs, contexts=False))
    win.ws.table.setFocus()
    qtbot.keyClick(win.ws.table, Qt.Key.Key_Down)
    assert highlighted(win) >= 0
    qtbot.keyClick(win.ws.table, Qt.Key.Key_D)
    dlg = win.document_dialog
    qtbot.waitUntil(dlg.isVisible, timeout=60_000)
    assert "without a contexts file" in dlg.text.toPlainText() and "no document context" in dlg.title.text()
    assert dlg.same.count() == 0 and dlg.senses.toPlainText().strip()
    # closing the project (File > Close, Ctrl+F4) closes the panel with it
    win.activateWindow()
    back_to(qtbot, win)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_F4, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: win.session is None, timeout=60_000)
    qtbot.waitUntil(lambda: not dlg.isVisible(), timeout=60_000)
