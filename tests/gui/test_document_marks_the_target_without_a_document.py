"""D on an instance whose input carries no documents (a Senseval lexical sample, the demo's context
table) shows its own context with the target word marked, as the instance panel does (before: the
passage was plain text, the target to be found by reading a whole paragraph)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont

from tests.gui.journey import back_to, highlighted, open_window


def _bold_fragments(doc) -> list[str]:
    """The runs of bold text of ``doc`` (neighbouring bold fragments joined)."""
    out, run, block = [], "", doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            if frag.isValid() and frag.charFormat().fontWeight() >= QFont.Weight.Bold:
                run += frag.text()
            elif run:
                out.append(run.strip())
                run = ""
            it += 1
        block = block.next()
    return out + ([run.strip()] if run else [])


def test_d_without_a_document_marks_the_target_in_its_own_context(qtbot, demo_project: Path) -> None:
    win = open_window(qtbot, demo_project)
    back_to(qtbot, win)
    i = highlighted(win)
    c = win.wb.context(i)
    assert c is not None and c.head is not None
    target = c.text[c.head[0]:c.head[1]].strip()
    qtbot.keyClick(win.ws.table, Qt.Key.Key_D)
    dlg = win.document_dialog
    qtbot.waitUntil(dlg.isVisible, timeout=60_000)
    assert "no document context" in dlg.title.text()
    assert target in _bold_fragments(dlg.text.document()), _bold_fragments(dlg.text.document())
    win.close()
