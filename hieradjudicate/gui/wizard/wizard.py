"""New project wizard: inventory, annotation and context files, column mapping, preview, create.

Reading the files (for the preview and again for creating the project) runs
off the GUI thread (:mod:`hieradjudicate.gui.workers`) behind a progress
dialog that can be cancelled.  Cancelling discards the result: the work
stops before the next file, and a file being read is read to its end first
(reading one file is not interruptible midway).  A cancelled creation leaves
no project behind; when the file was being replaced, the replacement either
did not happen yet or is complete.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QWidget, QWizard

from hieradjudicate.app.loading.load import AnnotationSpec, load, validation_report
from hieradjudicate.app.loading.sniff import XMI_FIELD, Sniffed, sniff
from hieradjudicate.app.logs import log_exception
from hieradjudicate.core.errors import HieradjError
from hieradjudicate.gui.busy import StepDialog
from hieradjudicate.gui.wizard.pages import FIELDS, FilesPage, MappingPage, PreviewPage
from hieradjudicate.gui.workers import BackgroundRunner, Cancelled, Report

Inputs = tuple[list[str], list[AnnotationSpec], list[str], dict[str, str] | None]
CREATING = "Creating the project"
#: the part of the bar creating takes when the project is opened in the same dialog next
CREATE_SHARE = 0.5


def preview_job(inputs: Inputs) -> Callable[[Report], dict]:
    """Read every file as ``validate`` does (problems collected, nothing written)."""
    inv, specs, ctx, tree_columns = inputs

    def run(report: Report) -> dict:
        return validation_report(load(inv, specs, ctx, tree_columns=tree_columns, strict=False,
                                      progress=report))
    return run


def create_job(path: str, inputs: Inputs, *, overwrite: bool,
               skip_bad_lines: bool = False) -> Callable[[Report], str]:
    """Create the project (closed again: the window opens it in the GUI thread).

    Lines with problems stop the creation (the reading policy of every command) unless
    ``skip_bad_lines``: the user was asked and chose to go on without them."""
    from hieradjudicate.app.loading.policy import check_load
    from hieradjudicate.app.session.session import Session

    inv, specs, ctx, tree_columns = inputs

    from hieradjudicate.io.store.locations import is_server_location

    if is_server_location(path):
        return _server_job(path, inputs, skip_bad_lines)

    def run(report: Report) -> str:
        existed = Path(path).exists()
        Session.create(path, inv, specs, ctx, tree_columns=tree_columns, overwrite=overwrite,
                       progress=report, check=lambda res: check_load(res, skip=skip_bad_lines)).close()
        try:
            report(1, 1, "Project created")
        except Cancelled:  # cancelled in the last instant: discard what was made
            if not existed:
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{path}{suffix}").unlink(missing_ok=True)
            raise
        return path
    return run


def _server_job(url: str, inputs: Inputs, skip_bad_lines: bool) -> Callable[[Report], str]:
    """As ``project new … -o URL``: built in a temporary file, then published (you become the lead).
    Cancelled before publishing, nothing reaches the server; publishing is one transaction."""
    import tempfile

    from hieradjudicate.app.loading.policy import check_load
    from hieradjudicate.app.session.session import Session
    from hieradjudicate.app.team import publish_project as publish

    inv, specs, ctx, tree_columns = inputs

    def run(report: Report) -> str:
        with tempfile.TemporaryDirectory(prefix="hadj-") as tmp:
            made = Path(tmp) / "new.hadj"
            Session.create(made, inv, specs, ctx, tree_columns=tree_columns, progress=report,
                           check=lambda res: check_load(res, skip=skip_bad_lines)).close()
            report(0, 1, "Publishing to the server")
            publish(made, url)
        try:
            report(1, 1, "Project published")
        except Cancelled:  # too late: the project is on the server; say so rather than "cancelled"
            pass
        return url
    return run


def sniff_job(todo: list[tuple[str, str, dict[str, str] | None]]) -> Callable[[Report], list[Sniffed]]:
    def run(report: Report) -> list[Sniffed]:
        out = []
        for k, (kind, path, columns) in enumerate(todo):
            report(k, len(todo), f"Looking at {os.path.basename(path)}")
            out.append(sniff(path, kind, columns))
        return out
    return run


class NewProjectWizard(QWizard):
    """File ▸ New Project.  After ``exec()``, :attr:`created_path` is the new project (or ``None``)."""

    def __init__(self, parent: QWidget | None = None, *, open_after: bool = False) -> None:
        super().__init__(parent)
        #: the window opens the new project next: the creation's dialog stays up and goes on with
        #: the opening (:attr:`handed_over`), the bar's first half for creating, the second for opening
        self.open_after = open_after and parent is not None
        self.handed_over: StepDialog | None = None
        self.setObjectName("new_project_wizard")
        self.setWindowTitle("New project")
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.setButtonText(QWizard.WizardButton.FinishButton, "Create project")
        self.resize(860, 620)
        self.inventory = FilesPage("inventory", "Sense inventory",
                                   "The sense trees: outlines, sense maps, Senseval dictionaries, tree "
                                   "tables or JSON. Optional: without one every tag becomes a sense of its own "
                                   "(a flat inventory per lexelt), as for entity links from INCEpTION.",
                                   "Inventories (*.txt *.tsv *.csv *.xml *.json *.gz);;"
                                   "All files (*)", required=False)
        self.annotation = FilesPage("annotations", "Annotations",
                                    "Each file's role, and a name for a file holding one set. A long or wide "
                                    "table holds several sets: they are listed.",
                                    "Annotations (*.key *.ans *.txt *.tsv *.csv *.jsonl *.gz);;All files (*)",
                                    required=True)
        self.contexts = FilesPage("contexts", "Contexts (optional)",
                                  "The sentences around each instance: Senseval XML or a table.",
                                  "Contexts (*.xml *.tsv *.csv *.gz);;All files (*)", required=False)
        self.mapping = MappingPage()
        self.preview = PreviewPage()
        for page in (self.inventory, self.annotation, self.contexts, self.mapping, self.preview):
            self.addPage(page)
        self.runner = BackgroundRunner(self)
        self.sniffer = BackgroundRunner(self)
        self.sniffed: dict[tuple[str, str, str], Sniffed] = {}
        self.progress: StepDialog | None = None
        self.created_path: str | None = None

    # ------------------------------------------------------------------ inputs
    def _pages(self) -> tuple[FilesPage, ...]:
        return (self.inventory, self.annotation, self.contexts)

    def found(self, kind: str, path: str) -> Sniffed | None:
        columns = self.mapping.mapping(self._map_key(kind, path))
        return self.sniffed.get((kind, path, repr(sorted((columns or {}).items()))))

    @staticmethod
    def _map_key(kind: str, path: str) -> str:
        return MappingPage.INVENTORY_KEY if kind == "inventory" else path

    def table_files(self) -> list[tuple[str, str, list[str], tuple[str, ...]]]:
        """``(key, title, header columns, fields)`` of every table the mapping page offers."""
        out = []
        inv = [s for p in self.inventory.paths() if (s := self.found("inventory", p)) and s.is_table]
        if inv:
            out.append((MappingPage.INVENTORY_KEY, f"Inventory tables ({os.path.basename(inv[0].path)})",
                        inv[0].columns, FIELDS["inventory"]))
        for p in self.annotation.paths():
            s = self.found("annotations", p) or self.sniffed.get(("annotations", p, "[]"))
            if s is not None and s.is_table:
                what = ("XMI layer holding the sense" if s.mapping_fields == (XMI_FIELD,) else
                        "Label Studio / Prodigy fields" if s.mapping_fields else "Annotations")
                out.append((p, f"{what}: {os.path.basename(p)}", s.columns,
                            s.mapping_fields or FIELDS["annotations"]))
        return out

    def inputs(self) -> Inputs:
        mappings = {p: self.mapping.mapping(p) for p in self.annotation.paths()}
        return (self.inventory.paths(), self.annotation.specs(mappings), self.contexts.paths(),
                self.mapping.mapping(MappingPage.INVENTORY_KEY))

    # ------------------------------------------------------------------ detecting formats
    def sniff_files(self) -> None:
        """Detect the format (and sets) of every file not looked at yet, in the background."""
        todo = []
        for page in self._pages():
            for p in page.paths():
                columns = self.mapping.mapping(self._map_key(page.kind, p))
                if self.found(page.kind, p) is None:
                    todo.append((page.kind, p, columns))
        if todo:
            self.sniffer.start(sniff_job(todo), self._sniffed, failed=self._sniff_failed)
        else:
            self._show_sniffed()

    def _sniffed(self, results: list[Sniffed]) -> None:
        for s in results:
            columns = self.mapping.mapping(self._map_key(s.kind, s.path))
            self.sniffed[(s.kind, s.path, repr(sorted((columns or {}).items())))] = s
        self._show_sniffed()

    def _show_sniffed(self) -> None:
        for page in self._pages():
            page.show_sniffed({p: s for p in page.paths() if (s := self.found(page.kind, p)) is not None})

    def _sniff_failed(self, exc: BaseException) -> None:
        log_exception(exc)

    # ------------------------------------------------------------------ preview and creation
    def run_preview(self) -> None:
        self.preview.show_report(None)
        self.preview.summary.setText("Reading the files…")
        self._run("Reading the files", preview_job(self.inputs()), self.preview.show_report,
                  on_cancel=lambda: self.preview.show_report(None))

    def create_project(self, *, skip_bad_lines: bool = False) -> None:
        path = self.preview.output_path()
        self.preview.status.setText("Creating the project…")
        job = create_job(path, self.inputs(), overwrite=self.preview.replace.isChecked(),
                         skip_bad_lines=skip_bad_lines)
        self._run(CREATING, job, self._created,
                  on_cancel=lambda: self.preview.status.setText("Cancelled: no project was created."))

    def _created(self, path: str) -> None:
        self.created_path = path
        if self.open_after and self.progress is not None:  # kept open: the window opens the project in it
            self.handed_over, self.progress = self.progress, None
        self.preview.created = True
        self.preview.status.setText(f"Created {path}.")
        self.accept()

    def _run(self, title: str, job: Callable[[Report], Any], done: Callable[[Any], None], *,
             on_cancel: Callable[[], None]) -> None:
        creating = title == CREATING
        # the creation's dialog belongs to the window when the window opens the project in it next
        owner = self.parentWidget() if creating and self.open_after else self
        dlg = StepDialog(owner, title, cancellable=True, blocking=False)
        if creating and self.open_after:
            dlg.phase(title, 0.0, CREATE_SHARE)
        self._close_progress()
        self.progress = dlg

        def cancelled() -> None:
            self.runner.cancel()
            self._close_progress()
            on_cancel()

        def finished(value: Any) -> None:
            if not (creating and self.open_after):  # else handed over to the window (see _created)
                self._close_progress()
            done(value)

        dlg.canceled.connect(cancelled)
        self.runner.start(job, finished, failed=self._failed, progress=self._progress)

    def _progress(self, done: int, total: int, text: str) -> None:
        # A modal QProgressDialog processes events inside setValue(), where the job's end may
        # close the dialog (self.progress becomes None): keep a local reference.
        dlg = self.progress
        if dlg is not None:
            dlg.report(done, total, text)

    def _close_progress(self) -> None:
        if self.progress is not None:
            dlg, self.progress = self.progress, None
            dlg.canceled.disconnect()
            dlg.close()
            dlg.deleteLater()

    def _failed(self, exc: BaseException) -> None:
        self._close_progress()
        if isinstance(exc, HieradjError):
            msg = str(exc)
        else:
            msg = f"Something unexpected went wrong ({type(exc).__name__}: {exc}); details are in " \
                  f"{log_exception(exc)}."
        self.preview.status.setText(f"<span style='color:#b00020'>Could not finish: {msg}</span>")
        if self.preview.report is None:
            self.preview.summary.setText("The files could not be read (see below).")

    def done(self, result: int) -> None:
        self.runner.cancel()
        self.sniffer.cancel()
        self._close_progress()
        super().done(result)
