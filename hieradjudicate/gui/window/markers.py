"""The main window's marks on an instance: flag and unflag (F), skip (S), the note (E).

:class:`MarkersSection` is a part of :class:`~hieradjudicate.gui.main_window.MainWindow` (as
:class:`~hieradjudicate.gui.window.projects.ProjectsSection` is): each key is one edit of the
highlighted instance's marks through :func:`hieradjudicate.app.session.markers.edit`, the rule the
command line follows too -- a note and a flag stay through every later decision until the user
changes them; a note alone is no status.
"""

from __future__ import annotations

from contextlib import nullcontext

from hieradjudicate.app.session import markers
from hieradjudicate.gui.workbench.small_dialogs import NoteDialog


def window_title(name: str, decisions: int, read_only_reason: str = "", waiting: int = 0) -> str:
    """``demo.hadj — all saved · 1 decision — hieradjudicate``; never "all saved" while decisions
    made offline wait on this computer for the server."""
    count = f"{decisions} decision{'' if decisions == 1 else 's'}"
    if read_only_reason:
        state = ("read-only: open in another hieradjudicate" if "another hieradjudicate" in read_only_reason
                 else "read-only")
    elif waiting:
        state = f"offline: {waiting} decision{'' if waiting == 1 else 's'} not yet on the server · {count}"
    else:
        state = f"all saved · {count}"
    return f"{name} — {state} — hieradjudicate"


class MarkersSection:
    """Flag, unflag, skip and note the highlighted instance (see the module docstring)."""

    def _mark(self, what: str, advance: bool = False, **change) -> None:
        """Flag, unflag, skip or note the highlighted instance: one edit of its markers
        (:func:`~hieradjudicate.app.session.markers.edit`), everything else kept."""
        i = self._current()
        if i < 0 or self.wb is None or self.session is None or self.ws is None:
            return
        lex, inst = self.wb.key_of(i)
        d = markers.edit(self.session.decisions, lex, inst, **change)
        if d is None:
            if change.get("skip") and markers.flagged(self.session.decisions, lex, inst):
                self.statusBar().showMessage(f"{inst} stays flagged (F unflags); moved on", 5000)
            if advance and self.auto_advance:
                self.next_unresolved()
            return
        if self.session.read_only:
            self.statusBar().showMessage("This project is open read-only: nothing can be decided here", 4000)
            return
        advancing = advance and self.auto_advance
        try:
            with self.ws.moving_on() if advancing else nullcontext():
                self.session.execute(markers.command(d, what))
        except Exception as exc:
            self.ws.refresh_if_stale()
            self.error("The change was not saved", exc)
            return
        finally:
            self._update_title()
            self._enable()
        if advancing:
            self.next_unresolved()
        self.ws.refresh_if_stale()

    def flag(self) -> None:
        """F flags the instance, or unflags a flagged one (the decision under the flag stays)."""
        i = self._current()
        if i < 0 or self.wb is None or self.session is None:
            return
        on = not markers.flagged(self.session.decisions, *self.wb.key_of(i))
        self._mark("flag" if on else "unflag", flag=on)
        if not on:
            self.statusBar().showMessage("Unflagged: the decision (if any) is what the instance keeps", 5000)

    def skip(self) -> None:
        self._mark("skip", advance=True, skip=True)

    def edit_note(self) -> None:
        i = self._current()
        if i < 0 or self.wb is None or self.session is None:
            return
        lex, inst = self.wb.key_of(i)
        dlg = NoteDialog(self.session.decisions.note(lex, inst), f"{lex} {inst}", self)
        ok = dlg.exec()
        text = dlg.text()
        dlg.deleteLater()
        self.activateWindow()
        if ok:  # a note is a mark on the instance, never a status: the decision (or none) stays
            self._mark("note on", note=text)
