"""A click on the Context column's header sorts the rows by their whole sentences (case-folded, spaces
collapsed), not by the clipped snippets the column shows ("…tors worried that…"); a second click
reverses them.  The real window, its header clicked."""

from __future__ import annotations

from pathlib import Path

from hieradjudicate.gui.workbench.instance_model import InstanceRole
from tests.gui.journey import click_header, open_window


def _sentences(win) -> list[str]:
    """The sentences of the rows in the order the table shows them."""
    m, contexts = win.ws.model, win.wb.corpus.contexts
    rows = [int(m.data(m.index(r, 0), InstanceRole)) for r in range(m.rowCount())]
    return [" ".join(contexts[i].text.split()).casefold() for i in rows]


def test_clicking_the_context_header_sorts_by_the_whole_sentence(qtbot, demo_project: Path) -> None:
    win = open_window(qtbot, demo_project)
    shown = win.ws.model
    col = shown.keys.index("kwic")
    snippets = [str(shown.data(shown.index(r, col))) for r in range(shown.rowCount())]
    assert any(s.startswith("…") for s in snippets)  # the column shows clipped snippets
    click_header(qtbot, win, "kwic")
    qtbot.waitUntil(lambda: _sentences(win) == sorted(_sentences(win)), timeout=60_000)
    snippets = [str(shown.data(shown.index(r, col))) for r in range(shown.rowCount())]
    assert snippets != sorted(snippets)  # the snippets' own order would differ
    click_header(qtbot, win, "kwic")
    qtbot.waitUntil(lambda: _sentences(win) == sorted(_sentences(win), reverse=True), timeout=60_000)
    win.close()
