"""The main window's projects: open (under the named steps of :mod:`hieradjudicate.gui.busy`), close, reopen.

:class:`ProjectsSection` is a part of :class:`~hieradjudicate.gui.main_window.MainWindow`, not an object
it owns: opening and closing set the window's own state (its session, workbench and workspace, the
docks' widgets, the central stack, the banner, the title and the actions' enabled state), which an
object apart would reach through as many references back into the window.  Its methods read and
set only what the window's ``__init__`` makes.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog

from hieradjudicate.app.progress import Steps
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.gui.busy import SCALE, VIEW_SLOTS, StepDialog
from hieradjudicate.gui.dock_layout import scrolling
from hieradjudicate.gui.project.start_page import remember_project
from hieradjudicate.gui.workbench.workspace import Workspace
from hieradjudicate.io.store.locations import is_server_location


class ProjectsSection:
    """Open, close, reopen; New project and the demo (see the module docstring)."""

    def load_project(self, path: str | os.PathLike[str], progress: StepDialog | None = None) -> bool:
        """Open ``path`` under a dialog naming each step (shown when it takes over half a second; see
        :mod:`hieradjudicate.gui.busy`).  ``progress``: the wizard's dialog, going on from *Create project*."""
        title = f"Opening {Path(str(path)).name}"
        dlg = progress if progress is not None else StepDialog(self, title)
        dlg.take_over()
        dlg.phase(title, dlg.value() / SCALE if progress is not None else 0.0, 1.0)
        self.open_progress = dlg.record  # the steps shown, for tests and benchmarks
        steps = Steps(dlg.report, Session.OPEN_SLOTS + VIEW_SLOTS)
        failure: Exception | None = None
        with dlg.blocking_run():  # no key or click reaches the window until it is whole
            try:
                session = Session.open(path, progress=steps.part(Session.OPEN_SLOTS))
            except Exception as exc:
                failure = exc
            else:
                if self.session is not None:
                    steps.step(f"Closing {self.session.path.name}")
                steps.skip_to(Session.OPEN_SLOTS + 1)
                self.close_project()
                self.session = session
                self._attach_views(session, steps)
                self._restore_docks()
                session.decisions.subscribe(self._saved)
                session.subscribe_corpus(lambda _corpus: QTimer.singleShot(0, self.project_ops.corpus_replaced))
                self.banner.show_reason(session.read_only_reason)
                remember_project(str(path) if is_server_location(path) else str(Path(path).resolve()))
                self.server.attach(session)
                # the annotators are weighed (the suggestion's most reliable set) in the background once
                # the window is shown (``Workspace._weigh``): MASC's 228 sets were 0.7-1.4 s here
                steps.step("Showing the first instance and its suggestion", 1)
                row = self.wb.next_unresolved(-1)
                self.ws.select_row(row if row >= 0 else 0)
                self.ws.table.setFocus()
                self._update_title()
                self._enable()
                steps.finish()
        if failure is not None:  # said once the dialog is gone
            self.error(f"Could not open {path}", failure)
            return False
        return True

    def _attach_views(self, session: Session, steps: Steps | None = None) -> None:
        """The workbench, its docks and the dashboard for the session's corpus."""
        steps = steps if steps is not None else Steps(None, 0)
        within = steps.step(f"Building the instance table of {session.corpus.n:,} instances", 4)
        # a crowd's category, leaf agreement and answers columns are computed once the window is shown
        self.wb = Workbench(session.corpus, session.decisions.rows(), progress=within, late=True)
        steps.step("Laying out the workbench")
        self.ws = Workspace(self.wb)
        within = steps.step("Preparing the dashboard")  # its widgets are built when the tab is first shown
        host = self.dashboard.attach(session, self.wb, self.ws, within)  # "Workbench | Dashboard" tabs
        self.stack.addWidget(host)
        self.stack.setCurrentWidget(host)
        self.docks["tree"].setWidget(self.ws.tree)
        self.docks["tree"].setWindowTitle("Tags (no inventory)" if self.ws.tree.flat else "Sense inventory")
        self.docks["live"].setWidget(scrolling(self.ws.live))  # a short dock scrolls, never overprints
        self.docks["detail"].setWidget(self.ws.detail)
        for d in self.docks.values():
            d.show()

    def close_project(self) -> None:
        if self.session is None:
            return
        self.server.detach()
        self.project_ops.shutdown()
        self.dashboard.detach()  # docks shown again before their state is saved
        self._save_state()
        if self.ws is not None:
            self.ws.shutdown()  # no figures computed on a closed project
        self.session.close()
        self.session = None
        self.banner.show_reason(None)
        for d in self.docks.values():
            w = d.widget()
            d.setWidget(None)  # the widget stays the dock's child (Qt deletes only the layout item) ...
            if w is not None:  # ... so it is deleted: the tree and the detail hold the closed project's
                w.deleteLater()  # workbench (MASC: 90 MiB more at every reopening, kept to the window's end)
            d.hide()
        if self.ws is not None:
            self.stack.removeWidget(self.ws)
            self.ws.deleteLater()
        self.ws, self.wb = None, None
        self.stack.setCurrentWidget(self.start)
        self.statusBar().clearMessage()  # what was said of the closed project is no longer true
        self._update_title()
        self._enable()

    def reopen_project(self) -> None:
        """Open the project again (writable once the other program has closed it), on the same instance."""
        if self.session is not None and self.ws is not None and self.wb is not None:
            path = self.session.path
            place = self.wb.key_of(self.ws.place) if self.ws.place >= 0 else None
            self.close_project()
            if self.load_project(path) and place is not None and self.wb is not None and self.ws is not None:
                self.ws.select_instance(self.wb.corpus.instance_index(*place))

    def open_project(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open project", "", "Projects (*.hadj)")
        if path:
            self.load_project(path)

    def open_demo(self) -> None:
        from hieradjudicate.app.demo import ensure_demo_project
        try:
            path = ensure_demo_project()
        except Exception as exc:
            self.error("Could not create the demo project", exc)
            return
        self.load_project(path)

    def new_project(self) -> None:
        from hieradjudicate.gui.wizard.wizard import NewProjectWizard
        wiz = NewProjectWizard(self, open_after=True)
        created = wiz.created_path if wiz.exec() else None
        handed = wiz.handed_over  # the dialog of Create project goes on with the opening: no gap
        wiz.deleteLater()
        self.activateWindow()
        if created:
            self.load_project(created, handed)
        elif handed is not None:
            handed.dismiss()
