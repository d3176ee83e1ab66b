"""The main window: docks around the instance table, one action table, decisions saved at once.

Opening, closing and reopening a project are in :class:`~hieradjudicate.gui.window.projects.ProjectsSection`.
"""

from __future__ import annotations

import os
from contextlib import nullcontext

from PySide6.QtCore import QEvent, QSettings, Qt
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate import __version__
from hieradjudicate.app.logs import log_exception, log_path
from hieradjudicate.app.memory import fix_mmap_threshold
from hieradjudicate.app.session import markers
from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.goto import find_instance
from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.core.errors import HieradjError
from hieradjudicate.gui.actions import DECIDING, build_actions
from hieradjudicate.gui.dashboard.controller import DashboardController
from hieradjudicate.gui.dock_layout import DockFitter, size_to_current_page
from hieradjudicate.gui.gc_guard import collect_in_gui_thread
from hieradjudicate.gui.project.project_actions import ProjectActions
from hieradjudicate.gui.project.start_page import StartPage
from hieradjudicate.gui.team.team_live import ServerPanel
from hieradjudicate.gui.window.markers import MarkersSection, window_title
from hieradjudicate.gui.window.projects import ProjectsSection
from hieradjudicate.gui.window_geometry import place, remember
from hieradjudicate.gui.workbench.help_overlay import HelpOverlay
from hieradjudicate.gui.workbench.panels.document_panel import show_document
from hieradjudicate.gui.workbench.pick_dialog import PickDialog
from hieradjudicate.gui.workbench.read_only_banner import ReadOnlyBanner
from hieradjudicate.gui.workbench.small_dialogs import GoToDialog, go_to
from hieradjudicate.gui.workbench.workspace import Workspace

STATE_VERSION = 1


class MainWindow(ProjectsSection, MarkersSection, QMainWindow):
    def __init__(self) -> None:
        super().__init__()
        fix_mmap_threshold()  # a crowd's freed temporaries leave the process (see app.memory)
        collect_in_gui_thread()  # Qt objects in garbage are never destroyed in a worker (see gc_guard)
        self.setObjectName("main_window")
        self.setMinimumSize(640, 480)  # the layout's own minimum decides above this (fits 1024×700)
        self.setAcceptDrops(True)
        self.session: Session | None = None
        self.open_progress: list = []  # the steps the last opening showed (gui.busy.Step)
        self.wb: Workbench | None = None
        self.ws: Workspace | None = None
        self.auto_advance = True
        self.stack = QStackedWidget()
        self.start = StartPage()
        self.start.new_requested.connect(self.new_project)
        self.start.open_requested.connect(self.open_project)
        self.start.demo_requested.connect(self.open_demo)
        self.start.recent_requested.connect(self.load_project)
        self.stack.addWidget(self.start)
        size_to_current_page(self.stack)  # a project's page does not keep the start page's minimum
        self.banner = ReadOnlyBanner()
        self.banner.reopen_requested.connect(self.reopen_project)
        central = QWidget()
        central_lay = QVBoxLayout(central)
        central_lay.setContentsMargins(0, 0, 0, 0)
        central_lay.setSpacing(0)
        central_lay.addWidget(self.banner)
        central_lay.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.docks: dict[str, QDockWidget] = {}
        for name, title, area in (("tree", "Sense inventory", Qt.DockWidgetArea.LeftDockWidgetArea),
                                  ("live", "Live figures", Qt.DockWidgetArea.LeftDockWidgetArea),
                                  ("detail", "Instance", Qt.DockWidgetArea.BottomDockWidgetArea)):
            d = QDockWidget(title, self)
            d.setObjectName(f"dock_{name}")
            d.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                          | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
            self.addDockWidget(area, d)
            d.hide()
            self.docks[name] = d
        self.fitter = DockFitter(self, self.docks["tree"], self.docks["live"], self.docks["detail"])
        self.dashboard = DashboardController(self, self.stack, self.docks,
                                             lambda text, ms: self.statusBar().showMessage(text, ms), self.error)
        self.project_ops = ProjectActions(self)  # export gold, resolve agreed, re-import, import decisions
        self.server = ServerPanel(self)  # team mode: open from a server, live updates
        self.actions = build_actions(self)
        self.help = HelpOverlay(self)
        self._restore()
        self._update_title()
        self._enable()

    # ------------------------------------------------------------------ deciding
    def _current(self) -> int:
        """The highlighted row's instance (what every key acts on); -1, said in the status bar, when none."""
        i = self.ws.current if self.ws is not None else -1
        if i < 0 and self.ws is not None:
            self.statusBar().showMessage(self.ws.no_instance_reason(), 5000)
        return i

    def _decide(self, decision: Decision, advance: bool) -> None:
        assert self.session is not None and self.ws is not None
        if self.session.read_only:
            self.statusBar().showMessage("This project is open read-only: nothing can be decided here", 4000)
            return
        advancing = advance and self.auto_advance
        try:  # moving on: the panels are drawn for the next instance only (see Workspace.moving_on)
            with self.ws.moving_on() if advancing else nullcontext():
                self.session.execute(Decide([decision]))
        except Exception as exc:
            self.ws.refresh_if_stale()
            self.error("The decision was not saved", exc)
            return
        finally:
            self._update_title()
            self._enable()
        if markers.flagged(self.session.decisions, decision.lexelt, decision.instance):
            self.statusBar().showMessage(f"Decided {decision.instance}; it stays flagged, not gold until "
                                         "you unflag it (F)", 6000)
        if advancing:
            self.next_unresolved()
        self.ws.refresh_if_stale()

    def _saved(self, rows) -> None:
        assert self.wb is not None and self.ws is not None
        changed = self.wb.apply_rows(rows)
        self.ws.decisions_saved(changed)
        self._update_title()
        self._enable()

    def take_set(self, k: int) -> None:
        i = self._current()
        if i < 0 or self.wb is None:
            return
        a = self.wb.answer_of_key(i, k)
        if a is None:
            self.statusBar().showMessage(f"Set {k} gave no answer for this instance", 4000)
            return
        lex, inst = self.wb.key_of(i)
        self._decide(Decision(lex, inst, tuple(a.tags), source=f"set:{a.name}",
                              basis={"set": a.name, "tags": list(a.tags)}), True)

    def take_suggestion(self) -> None:
        i = self._current()
        if i < 0 or self.wb is None:
            return
        s = self.wb.suggestion(i)
        if s is None:
            self.statusBar().showMessage("No suggestion for this instance", 4000)
            return
        lex, inst = self.wb.key_of(i)
        self._decide(Decision(lex, inst, s.tags, source="suggestion",
                              basis={"support": s.support, "of": s.of, "sets": s.sets}), True)

    def take_weighted_suggestion(self) -> None:
        i = self._current()
        if i < 0 or self.wb is None:
            return
        s = self.wb.suggestion(i)
        if s is None or not s.weighted:
            work = self.dashboard.work
            refused = self._competence_refused()
            if refused:
                msg = f"No competence-weighted suggestion: {refused}"
            elif self.wb.competence is None and work is not None:
                work.request_competence()
                msg = "Estimating annotator competence in the background; try again in a moment"
            else:
                msg = "No competence-weighted suggestion for this instance"
            self.statusBar().showMessage(msg, 5000)
            return
        lex, inst = self.wb.key_of(i)
        self._decide(Decision(lex, inst, s.weighted, source="suggestion",
                              basis={"model": s.weighted_model, "posterior": round(s.weighted_posterior, 4)}), True)

    def order_most_uncertain(self) -> None:
        """Go > Most uncertain first: estimate competence if needed (in the background), then sort.

        While the estimate runs the status bar says that Ctrl+U waits and how far the estimate is;
        when it arrives the table is sorted and the highlighted instance stays highlighted."""
        work = self.dashboard.work
        if self.ws is None or work is None:
            return
        refused = self._competence_refused()
        if refused:  # the model cannot be estimated on these data: say why, do not wait for it
            self.statusBar().showMessage(f"Most uncertain first needs the competence estimate: {refused}")
            return
        if self.wb is not None and self.wb.competence is None:
            self._uncertain_waiting = True
            self.statusBar().showMessage("Most uncertain first waits for the competence estimate (running in the "
                                         "background); the highlighted instance stays where it is")
            try:
                work.comp.said.connect(self._uncertain_progress, Qt.ConnectionType.UniqueConnection)
            except (RuntimeError, TypeError):  # already connected
                pass
            work.request_competence(then=lambda: self._sort_uncertain(later=True))
            return
        work.request_competence(then=self._sort_uncertain)

    def _competence_refused(self) -> str:
        """Why the competence model was refused on this project's data (two sets per instance), else ""."""
        work = self.dashboard.work
        comp = getattr(work, "comp", None) if work is not None else None
        return comp.refused.get(comp.model, "") if comp is not None else ""

    def _uncertain_progress(self, text: str) -> None:
        refused = self._competence_refused()
        if refused and getattr(self, "_uncertain_waiting", False):
            self._uncertain_waiting = False
            self.statusBar().showMessage(f"Most uncertain first needs the competence estimate: {refused}")
        elif getattr(self, "_uncertain_waiting", False):
            self.statusBar().showMessage(f"Most uncertain first waits for the competence estimate: {text}")

    def _sort_uncertain(self, later: bool = False) -> None:
        self._uncertain_waiting = False
        if self.ws is None or self.wb is None or self.wb.competence is None:
            return
        self.ws.sort_most_uncertain(keep_place=later)
        where = "; the highlighted instance stayed where it was" if later else ""
        self.statusBar().showMessage(f"Most uncertain first ({self.wb.competence.model} posterior entropy){where}",
                                     6000)

    def pick_senses(self) -> None:
        i = self._current()
        if i < 0 or self.wb is None:
            return
        if self.session is not None and self.session.read_only:
            self.statusBar().showMessage("This project is open read-only: nothing can be decided here", 4000)
            return
        dlg = PickDialog(self.wb, i, self)
        accepted = dlg.exec()
        self.activateWindow()  # keys go back to the window (some platforms leave none active)
        if accepted and dlg.chosen():
            lex, inst = self.wb.key_of(i)
            self._decide(Decision(lex, inst, tuple(dlg.chosen()), source="manual"), True)

    def undo(self) -> None:
        self._undo_redo(True)

    def redo(self) -> None:
        self._undo_redo(False)

    def _undo_redo(self, undo: bool) -> None:
        if self.session is None or self.wb is None or self.ws is None:
            return
        commands = self.session.commands
        label = commands.undo_label if undo else commands.redo_label
        try:
            rows = self.session.undo() if undo else self.session.redo()
        except Exception as exc:
            self.error("Undo failed" if undo else "Redo failed", exc)
            return
        finally:
            self._update_title()
            self._enable()
        if rows:
            shown = self.ws.select_instance(self.wb.corpus.instance_index(rows[0].lexelt, rows[0].instance))
            where = "" if shown else " (not shown by the current filter; the highlighted row is unchanged)"
            self.statusBar().showMessage(("Undone: " if undo else "Redone: ") + f"{rows[0].instance}{where}", 5000)
        elif label:  # a step that changed no decision (a re-import that flagged none): never the old message
            self.statusBar().showMessage(("Undone: " if undo else "Redone: ") + label, 5000)

    # ------------------------------------------------------------------ navigation
    def next_unresolved(self) -> None:
        self._step(1)

    def prev_unresolved(self) -> None:
        self._step(-1)

    def _step(self, step: int) -> None:
        if self.ws is None or self.wb is None:
            return
        row = self.wb.next_unresolved(self.ws.current_row(), step)
        if row < 0:
            self.statusBar().showMessage("No more unresolved instances in this filter", 4000)
            return
        self.ws.select_row(row)

    def go_to_instance(self) -> None:
        """Go > Go to instance (Ctrl+G): select it in the table (clearing a filter that hides it)."""
        if self.ws is None or self.wb is None:
            return
        wb = self.wb
        dlg = GoToDialog(self, check=lambda text: find_instance(wb, text)[1])
        ok, text = dlg.exec(), dlg.text()
        dlg.deleteLater()
        self.activateWindow()
        if ok:
            go_to(self.ws, text, lambda msg: self.statusBar().showMessage(msg, 6000))

    def show_document(self) -> None:
        show_document(self)  # Go > Document context (D): gui.workbench.panels.document_panel

    def toggle_auto_advance(self, on: bool) -> None:
        self.auto_advance = bool(on)

    def focus_search(self) -> None:
        if self.ws is not None:
            self.ws.search.setFocus()
            self.ws.search.selectAll()

    def clear_filter(self) -> None:
        if self.ws is not None:
            self.ws.clear_filter()
            self.ws.table.setFocus()

    def filter_disjoint(self) -> None:
        if self.ws is not None:
            self.ws.set_category((3,))
            self.ws.table.setFocus()

    # ------------------------------------------------------------------ help, errors, title
    def show_help(self) -> None:
        self.help.popup()

    def show_guide(self) -> None:
        """Help ▸ User guide: the built guide, else its Markdown pages, else where to read it."""
        from PySide6.QtCore import QUrl
        from PySide6.QtGui import QDesktopServices

        from hieradjudicate.app.guide import NOT_FOUND, guide_entry

        page = guide_entry()
        if page is None or not QDesktopServices.openUrl(QUrl.fromLocalFile(str(page))):
            what = NOT_FOUND if page is None else f"No program opens {page} here; open it in a browser or editor."
            if os.environ.get("HIERADJ_NO_DIALOGS"):
                self.statusBar().showMessage(what)
            else:
                QMessageBox.information(self, "User guide", what)
            return
        self.statusBar().showMessage(f"Opened the user guide: {page}", 8000)

    def show_about(self) -> None:
        QMessageBox.about(self, "About hieradjudicate",
                          f"<b>hieradjudicate {__version__}</b><p>Adjudication of word-sense annotations over "
                          f"hierarchical sense inventories.</p><p>Every decision is saved as it is made.</p>"
                          f"<p>Log file: <code>{log_path()}</code></p>")

    def error(self, what: str, exc: BaseException) -> None:
        """Tell the user in words; log unexpected errors with their traceback."""
        if isinstance(exc, HieradjError):
            msg = str(exc)
        else:
            path = log_exception(exc)
            msg = f"Something unexpected went wrong ({type(exc).__name__}: {exc}).\nDetails are in {path}."
        if os.environ.get("HIERADJ_NO_DIALOGS"):
            self.statusBar().showMessage(f"{what}: {msg}")
            return
        QMessageBox.warning(self, "hieradjudicate", f"{what}.\n\n{msg}")

    def _update_title(self) -> None:
        if self.session is None:
            self.setWindowTitle("hieradjudicate")
            return
        store = self.session.store
        waiting = len(store.queue) if hasattr(store, "queue") else 0  # made offline, not yet sent
        self.setWindowTitle(window_title(self.session.path.name, len(self.session.decisions),
                                         self.session.read_only_reason or "", waiting))

    def _enable(self) -> None:
        has = self.session is not None
        for key, act in self.actions.items():
            if key in ("new", "open", "open_server", "demo", "quit", "help", "about"):
                continue
            act.setEnabled(has)
        if has and self.session is not None:
            if self.session.read_only:
                for key in DECIDING:
                    self.actions[key].setEnabled(False)
            commands = self.session.commands
            self.actions["undo"].setEnabled(commands.can_undo and not self.session.read_only)
            self.actions["redo"].setEnabled(commands.can_redo and not self.session.read_only)
            lbl = commands.undo_label
            self.actions["undo"].setText(f"&Undo {lbl}" if lbl else "&Undo")
        else:  # the start page offers nothing of the project just closed
            self.actions["undo"].setText("&Undo")

    # ------------------------------------------------------------------ state, drops, closing
    def _restore(self) -> None:
        place(self)  # the size remembered for this screen, else most of the screen's available area

    def _restore_docks(self) -> None:
        scores = self.ws is not None and self.ws.live.reference is not None  # a reference gold's table too
        self.fitter.heights = (260, 460) if scores else (420, 300)
        self.fitter.restore(STATE_VERSION, lambda: self.session is not None)

    def _save_state(self) -> None:
        if os.environ.get("HIERADJ_FIXED_GEOMETRY"):
            return  # a screenshot run leaves the user's saved layout alone
        remember(self)
        if self.session is not None:
            QSettings().setValue("window/state", self.saveState(STATE_VERSION))

    def closeEvent(self, ev: QCloseEvent) -> None:
        self.close_project()
        self._save_state()
        ev.accept()

    def dragEnterEvent(self, ev: QDragEnterEvent) -> None:
        if ev.mimeData().hasUrls():
            ev.acceptProposedAction()

    def dropEvent(self, ev: QDropEvent) -> None:
        for url in ev.mimeData().urls():
            p = url.toLocalFile()
            if p.endswith(".hadj"):
                self.load_project(p)
                return
        self.statusBar().showMessage("Drop a .hadj project file to open it (use File ▸ New for input files)", 5000)

    def event(self, ev: QEvent) -> bool:
        if ev.type() == QEvent.Type.Resize and self.help.isVisible():
            self.help.popup()
        return super().event(ev)
