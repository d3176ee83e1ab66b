"""The main window: docks around the instance table, one action table, decisions saved at once."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate import __version__
from hieradjudicate.app.logs import log_exception, log_path
from hieradjudicate.app.memory import fix_mmap_threshold
from hieradjudicate.app.progress import Steps
from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.core.errors import HieradjError
from hieradjudicate.io.store.locations import is_server_location
from hieradjudicate.gui.actions import DECIDING, build_actions
from hieradjudicate.gui.dashboard.controller import DashboardController
from hieradjudicate.gui.busy import SCALE, VIEW_SLOTS, StepDialog
from hieradjudicate.gui.dock_layout import DockFitter, scrolling
from hieradjudicate.gui.project_actions import ProjectActions
from hieradjudicate.gui.start_page import StartPage, remember_project
from hieradjudicate.gui.team_live import ServerPanel
from hieradjudicate.gui.window_geometry import place, remember
from hieradjudicate.gui.workbench.help_overlay import HelpOverlay
from hieradjudicate.gui.workbench.pick_dialog import PickDialog
from hieradjudicate.gui.workbench.read_only_banner import ReadOnlyBanner
from hieradjudicate.gui.workbench.small_dialogs import GoToDialog, NoteDialog, go_to
from hieradjudicate.gui.workbench.workspace import Workspace

STATE_VERSION = 1


class MainWindow(QMainWindow):
    def __init__(self) -> None:
        super().__init__()
        fix_mmap_threshold()  # a crowd's freed temporaries leave the process (see app.memory)
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

    # ------------------------------------------------------------------ projects
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
                steps.step("Showing the first instance and its suggestion", 3)
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
        self.wb = Workbench(session.corpus, list(session.decisions), progress=within)
        steps.step("Laying out the workbench")
        self.ws = Workspace(self.wb)
        within = steps.step("Preparing the dashboard")  # its widgets are built when the tab is first shown
        host = self.dashboard.attach(session, self.wb, self.ws, within)  # "Workbench | Dashboard" tabs
        self.stack.addWidget(host)
        self.stack.setCurrentWidget(host)
        self.docks["tree"].setWidget(self.ws.tree)
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
            d.setWidget(None)
            if w is not None and w.objectName().endswith("_scroll"):
                w.deleteLater()
            d.hide()
        if self.ws is not None:
            self.stack.removeWidget(self.ws)
            self.ws.deleteLater()
        self.ws, self.wb = None, None
        self.stack.setCurrentWidget(self.start)
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
        try:
            self.session.execute(Decide([decision]))
        except Exception as exc:
            self.error("The decision was not saved", exc)
            return
        finally:
            self._update_title()
            self._enable()
        if advance and self.auto_advance:
            self.next_unresolved()

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
            if self.wb.competence is None and work is not None:
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
        """Go > Most uncertain first: estimate competence if needed (in the background), then sort."""
        work = self.dashboard.work
        if self.ws is None or work is None:
            return
        if self.wb is not None and self.wb.competence is None:
            self.statusBar().showMessage("Estimating annotator competence in the background…", 5000)
        work.request_competence(then=self._sort_uncertain)

    def _sort_uncertain(self) -> None:
        if self.ws is None or self.wb is None or self.wb.competence is None:
            return
        self.ws.sort_most_uncertain()
        self.statusBar().showMessage(f"Most uncertain first ({self.wb.competence.model} posterior entropy)", 5000)

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

    def _with_status(self, status: str, note: str | None = None, advance: bool = False) -> None:
        i = self._current()
        if i < 0 or self.wb is None or self.session is None:
            return
        lex, inst = self.wb.key_of(i)
        cur = self.session.decisions.current(lex, inst)
        tags = cur.tags if cur is not None else ()
        self._decide(Decision(lex, inst, tags, source=cur.source if cur else "manual", status=status,
                              note=cur.note if (cur and note is None) else (note or "")), advance)

    def flag(self) -> None:
        self._with_status("flagged")

    def skip(self) -> None:
        self._with_status("skipped", advance=True)

    def edit_note(self) -> None:
        i = self._current()
        if i < 0 or self.wb is None or self.session is None:
            return
        lex, inst = self.wb.key_of(i)
        cur = self.session.decisions.current(lex, inst)
        dlg = NoteDialog(cur.note if cur else "", f"{lex} {inst}", self)
        ok = dlg.exec()
        text = dlg.text()
        dlg.deleteLater()
        self.activateWindow()
        if ok:
            # a note on an undecided instance flags it: a note usually means "to discuss"
            status = cur.status if cur is not None else "flagged"
            self._with_status(status, note=text)

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
        dlg = GoToDialog(self)
        ok, text = dlg.exec(), dlg.text()
        dlg.deleteLater()
        self.activateWindow()
        if ok:
            go_to(self.ws, text, lambda msg: self.statusBar().showMessage(msg, 6000))

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
        n = len(self.session.decisions)
        reason = self.session.read_only_reason or ""
        state = (f"all saved · {n} decisions" if not reason
                 else "read-only: open in another hieradjudicate" if "another hieradjudicate" in reason
                 else "read-only")
        self.setWindowTitle(f"{self.session.path.name} — {state} — hieradjudicate")

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
