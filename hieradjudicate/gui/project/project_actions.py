"""The window's side of Export gold, Resolve agreed, Re-import a set and Import decisions.

:class:`ProjectActions` is owned by the main window (``window.project_ops``; the action table
reaches its handlers as ``project_ops.export_gold`` and so on).  Dialogs open window-modal and
without blocking (``open()``), so the window keeps painting while they are up; the last one
opened stays reachable as an attribute (``export_dialog``, ``agreed_dialog``, ``reimport_dialog``).
Writing the gold runs in a :class:`~hieradjudicate.gui.workers.BackgroundRunner` behind a
progress dialog; re-import and resolve are single undoable steps run in the GUI thread (they
write decisions, and the decisions' listeners are widgets).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QProgressDialog

from hieradjudicate.app.session import project_ops as ops
from hieradjudicate.core.errors import HieradjError
from hieradjudicate.app.progress import Steps
from hieradjudicate.gui.project import project_dialogs
from hieradjudicate.gui.busy import VIEW_SLOTS, StepDialog
from hieradjudicate.gui.project.project_dialogs import (
    ExportGoldDialog,
    ImportPreviewDialog,
    ReimportDialog,
    ResolveAgreedDialog,
)
from hieradjudicate.gui.workers import BackgroundRunner


class ProjectActions:
    def __init__(self, window: Any) -> None:
        """``window``: the main window (its session, workbench, views, status bar and error dialog)."""
        self.window = window
        self.runner = BackgroundRunner(window)
        self.progress: QProgressDialog | None = None
        self.export_dialog: ExportGoldDialog | None = None
        self.agreed_dialog: ResolveAgreedDialog | None = None
        self.reimport_dialog: ReimportDialog | None = None
        self.import_dialog: ImportPreviewDialog | None = None
        self.last_message = ""

    def _status(self, text: str, ms: int = 10000) -> None:
        self.last_message = text
        self.window.statusBar().showMessage(text, ms)

    def _writable(self) -> bool:
        s = self.window.session
        if s is None:
            return False
        if s.read_only:
            self._status("This project is open read-only: nothing can be changed here", 5000)
            return False
        return True

    def _replace(self, old: Any, new: Any) -> Any:
        if old is not None:
            old.close()
            old.deleteLater()
        new.setWindowModality(Qt.WindowModality.WindowModal)
        # keys go back to the window when the dialog closes (some platforms leave none active)
        new.finished.connect(lambda _r: self.window.activateWindow())
        new.open()
        return new

    # ------------------------------------------------------------------ export gold
    def export_gold(self) -> None:
        if self.window.session is None:
            return
        self.export_dialog = self._replace(self.export_dialog,
                                           ExportGoldDialog(self.window.session, self._start_export, self.window))

    def _start_export(self, job: Callable[[], Any], done: Callable[[Any], None],
                      failed: Callable[[BaseException], None]) -> None:
        def ok(summary: Any) -> None:
            self._status(str(summary), 0)
            done(summary)

        def bad(exc: BaseException) -> None:
            self._status("The gold was not exported", 0)  # never a stale "Writing…"
            failed(exc)

        self._background("Export gold", "Writing the gold…", job, ok, bad)

    def _background(self, title: str, text: str, job: Callable[[], Any], ok: Callable[[Any], None],
                    bad: Callable[[BaseException], None]) -> None:
        """Run ``job()`` in the worker behind a progress dialog (no percentage: one file is read or
        written whole); ``ok(value)`` or ``bad(error in words)`` afterwards, in the GUI thread."""
        dlg = QProgressDialog(text, "Hide", 0, 0, self.window)
        dlg.setObjectName("background_progress")
        dlg.setWindowTitle(title)
        dlg.setWindowModality(Qt.WindowModality.WindowModal)
        dlg.setMinimumDuration(300)  # no flash for a small project
        dlg.setAutoClose(False)
        dlg.setAutoReset(False)
        self._close_progress()
        self.progress = dlg
        self._status(text, 0)

        def done(value: Any) -> None:
            self._close_progress()
            ok(value)

        def failed(exc: BaseException) -> None:
            self._close_progress()
            bad(exc if isinstance(exc, HieradjError) else _unexpected(exc))

        # a file cannot be read or written halfway (it is renamed into place when whole): "Hide" only hides
        dlg.canceled.connect(self._close_progress)
        self.runner.start(lambda _report: job(), done, failed=failed)

    def _close_progress(self) -> None:
        if self.progress is not None:
            dlg, self.progress = self.progress, None
            dlg.canceled.disconnect()
            dlg.close()
            dlg.deleteLater()

    # ------------------------------------------------------------------ resolve agreed
    def resolve_agreed(self) -> None:
        if not self._writable():
            return
        dlg = ResolveAgreedDialog(self.window.session, self.window)
        dlg.accepted.connect(lambda: self._resolved(dlg))
        self.agreed_dialog = self._replace(self.agreed_dialog, dlg)

    def _edited(self) -> None:
        """After an undoable step: the title counts it and Undo names it (the stack holds it only now)."""
        self.window._update_title()
        self.window._enable()

    def _resolved(self, dlg: ResolveAgreedDialog) -> None:
        self._edited()
        self._status(dlg.message, 0)

    # ------------------------------------------------------------------ re-import
    def reimport_set(self) -> None:
        if not self._writable():
            return
        self.reimport_dialog = self._replace(self.reimport_dialog, ReimportDialog(self.window.session, self.window))
        self.reimport_dialog.go.clicked.connect(self._reimported)

    def _reimported(self) -> None:
        dlg = self.reimport_dialog
        self._edited()
        if dlg is not None and dlg.lines:
            self._status(next((x for x in dlg.lines if x.startswith("re-imported")), dlg.lines[0]), 0)

    # ------------------------------------------------------------------ import decisions
    def import_decisions(self) -> None:
        if not self._writable():
            return
        session = self.window.session
        start = str(Path(session.path).parent)
        path = project_dialogs.CHOOSER(self.window, "Import decisions (CSV: lexelt, instance, tags; optional "
                                       "status, note, source)", start, "CSV (*.csv *.tsv);;All files (*)", False)
        if not path:
            return

        def record(decisions: list[Any]) -> None:
            if self.window.session is not session:  # the project was closed meanwhile
                return
            try:
                message = ops.record_decisions(session, decisions, path)
            except HieradjError as exc:
                failed(exc)
                return
            self._edited()
            self._status(message, 0)

        def recorded(decisions: list[Any]) -> None:  # read and checked: preview, then the user decides
            if self.window.session is not session:
                return
            self._status(f"{Path(path).name} read: nothing imported until you say Import", 0)
            dlg = ImportPreviewDialog(ops.import_preview(session, decisions, path), self.window)
            dlg.accepted.connect(lambda: record(decisions))
            dlg.rejected.connect(lambda: self._status(f"Not imported: {Path(path).name}", 5000))
            self.import_dialog = self._replace(self.import_dialog, dlg)

        def failed(exc: BaseException) -> None:
            self._status("No decision was imported", 0)
            self.window.error("No decision was imported", exc)

        # reading and checking every line runs in the worker; recording them is one step here
        self._background("Import decisions", f"Reading {Path(path).name}…",
                         lambda: ops.read_decisions_csv(path, session), recorded, failed)

    def corpus_replaced(self) -> None:
        """A re-import (or its undo) rebuilt the corpus: new views on it, on the same instance."""
        w = self.window
        session = w.session
        if session is None or w.wb is None or w.ws is None or w.wb.corpus is session.corpus:
            return
        place = w.ws.current if w.ws.current >= 0 else w.ws.place  # a search with no result: the place
        key = w.wb.key_of(place) if place >= 0 else None
        kept = _view_state(w.ws)
        dlg = StepDialog(w, "Showing the re-imported annotations")  # MASC: seconds, as when opening
        steps = Steps(dlg.report, VIEW_SLOTS)
        w.open_progress = dlg.record  # as an opening's (tests, benchmarks)
        with dlg.blocking_run():
            steps.step("Closing the old views")
            w.dashboard.detach()
            w.ws.shutdown()
            for d in w.docks.values():
                d.setWidget(None)
            w.stack.removeWidget(w.ws)
            w.ws.deleteLater()
            w._attach_views(session, steps)
            steps.step("Finding the same instance again", 3)
            i = session.corpus.instance_index(*key) if key is not None else -1
            _restore_view_state(w.ws, kept, i)  # the same order and filter, on the same instance
            if not w.ws.select_instance(i):
                row = w.wb.next_unresolved(-1)
                w.ws.select_row(row if row >= 0 or w.wb.view.size == 0 else 0)
            w.ws.table.setFocus()
            steps.finish()
        new = w.ws
        QTimer.singleShot(0, lambda: _keys_to(w, new))  # after the old views are gone (they took the focus)
        w._update_title()
        w._enable()

    def shutdown(self) -> None:
        self.runner.cancel()
        self._close_progress()
        for dlg in (self.export_dialog, self.agreed_dialog, self.reimport_dialog, self.import_dialog):
            if dlg is not None:
                dlg.close()
                dlg.deleteLater()
        self.export_dialog = self.agreed_dialog = self.reimport_dialog = self.import_dialog = None


def _keys_to(w: Any, ws: Any) -> None:
    """Give ``ws``'s table the keys again when the old views, destroyed, took them (and the window's
    activation) along: nothing has the keys and no dialog is open (a dialog gives them back itself)."""
    if w.ws is ws and QApplication.focusWidget() is None and QApplication.activeModalWidget() is None \
            and w.isVisible():
        w.activateWindow()
        ws.table.setFocus()


def _view_state(ws: Any) -> dict[str, Any]:
    """What the user chose of the table's order and filter (to keep it in new views on a new corpus)."""
    head = ws.table.horizontalHeader()
    col = head.sortIndicatorSection() if head.isSortIndicatorShown() else -1
    boxes = {name: getattr(ws, name).currentText()
             for name in ("lexelt_box", "category_box", "status_box", "pair_a", "pair_b")}
    return {"sort": (ws.model.keys[col] if 0 <= col < len(ws.model.keys) else None, head.sortIndicatorOrder()),
            "boxes": boxes, "search": ws.search.text()}


def _restore_view_state(ws: Any, state: dict[str, Any], keep: int) -> None:
    """Put ``state`` (see :func:`_view_state`) on new views; a choice the new corpus lacks is left out.
    ``keep``: the instance the filter is applied around (highlighted first, so the filter keeps it)."""
    if keep >= 0:
        ws.select_instance(keep)
    for name, text in state["boxes"].items():
        box = getattr(ws, name)
        k = box.findText(text)
        if k > 0:
            box.blockSignals(True)
            box.setCurrentIndex(k)
            box.blockSignals(False)
    ws.search.blockSignals(True)
    ws.search.setText(state["search"])
    ws.search.blockSignals(False)
    key, order = state["sort"]
    if key in ws.model.keys:
        ws.table.sortByColumn(ws.model.keys.index(key), order)  # the header's indicator and the order
    ws.apply_filter()


def _unexpected(exc: BaseException) -> HieradjError:
    """An error a user did not cause, in words, with where its details were logged."""
    from hieradjudicate.app.logs import log_exception

    return HieradjError(f"something unexpected went wrong ({type(exc).__name__}: {exc}); details are in "
                        f"{log_exception(exc)}")

