"""The main window's side of the dashboard: the "Workbench | Dashboard" tabs, clicks that filter, exports.

:class:`DashboardController` is an object the window owns (``window.dashboard``), not a mixin:
it holds typed references to exactly the parts of the window it works with (the central stack,
the docks, the status bar and the error dialog) and, while a project is open, to its session,
workbench and workspace, and to its :class:`DashboardWork` (``dashboard.work``: the figures' warm-up
and the competence estimate, which the workbench's weighted suggestion needs).  The tab's widgets
(:class:`DashboardView`, ``dashboard.view``) are built when the tab is first shown: building its
pyqtgraph panels took about a second of every open on MASC, while the user is on the workbench.
The first click on "Dashboard" shows the step box at once, naming each slice of panels being
built, then the figures being computed and drawn.  (Building them in idle time instead would spend
that second anyway, in slices in which a key waits, however small: a pyqtgraph panel alone
takes tens of ms; on the click the user waits for the dashboard anyway.)  The action table reaches its handlers as ``dashboard.show_dashboard``
and so on.  While the Dashboard tab is shown the workbench's docks are hidden (the plots get
the whole window); they come back with the Workbench tab, and before the window state is saved.

Why not glue's pattern of a Qt-free application object here: what this class does is purely
widget wiring (tabs, dock visibility, file dialogs); the figures themselves are computed in the
Qt-free :mod:`hieradjudicate.app.dashboard`, which the CLI's report uses too.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QByteArray, QTimer
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.gui.dashboard.dashboard import DashboardView
from hieradjudicate.gui.dashboard.work import DashboardWork
from hieradjudicate.gui.dock_layout import size_to_current_page
from hieradjudicate.gui.workbench.workspace import Workspace

#: how soon after a project opens the dashboard starts computing in the background (ms)
PREFETCH_MS = 300


@dataclass
class _Open:
    """The open project's parts the dashboard works with."""

    session: Session
    wb: Workbench
    ws: Workspace
    tabs: QTabWidget
    page: QWidget  # the Dashboard tab's page; the view goes into it when first shown
    work: DashboardWork
    view: DashboardView | None = None


class DashboardController:
    def __init__(self, parent: QWidget, stack: QStackedWidget, docks: Mapping[str, QDockWidget],
                 status: Callable[[str, int], None], error: Callable[[str, BaseException], None]) -> None:
        self._parent = parent
        self._stack = stack
        self._docks = docks
        self._status = status
        self._error = error
        self._open: _Open | None = None
        self.timeline = None  # the open project's Timeline page (see attach)
        self._fit_page: Callable[[int], None] = lambda _index: None  # see attach
        self._docks_left: QByteArray | None = None  # the window's state when the docks were hidden

    # ------------------------------------------------------------------ state
    @property
    def tabs(self) -> QTabWidget | None:
        return self._open.tabs if self._open else None

    @property
    def view(self) -> DashboardView | None:
        """The tab's widgets; None until the tab was first shown (see :meth:`ensure_view`)."""
        return self._open.view if self._open else None

    @property
    def work(self) -> DashboardWork | None:
        return self._open.work if self._open else None

    # ------------------------------------------------------------------ set-up
    def attach(self, session: Session, wb: Workbench, ws: Workspace,
               progress: Callable[[int, int, str], None] | None = None) -> QWidget:
        """Wrap the workspace in tabs with a dashboard; returns the widget for the central stack
        (``progress(done, total, what)`` hears the dashboard's parts being made)."""
        tabs = QTabWidget()
        tabs.setObjectName("project_tabs")
        tabs.setDocumentMode(True)
        tabs.addTab(ws, "Workbench")
        tell = progress or (lambda _done, _total, _what: None)
        tell(0, 1, "the decisions' history")
        work = DashboardWork(session, wb, tabs)
        page = QWidget(objectName="dashboard_page")
        QVBoxLayout(page).setContentsMargins(0, 0, 0, 0)
        tabs.addTab(page, "Dashboard")
        from hieradjudicate.gui.dashboard.timeline.timeline_page import attach_timeline

        self.timeline = attach_timeline(tabs, session, ws)  # the Timeline tab (issue 32)
        self._open = _Open(session, wb, ws, tabs, page, work)
        # the workbench's docks get the room a hidden tab would hold (see _tab_changed)
        self._fit_page = size_to_current_page(tabs, follow=False)
        tabs.currentChanged.connect(self._tab_changed)
        work.comp.ready.connect(self._competence_ready)
        QTimer.singleShot(PREFETCH_MS, self._prefetch)
        return tabs

    def ensure_view(self) -> DashboardView | None:
        """The tab's view, built now if it was not yet (the first show of the tab, or an export)."""
        o = self._open
        if o is None:
            return None
        if o.view is None:
            view = DashboardView(o.work, o.page)
            o.page.layout().addWidget(view)
            o.view = view
            o.ws.filter_changed.connect(view.filter_changed)
            view.pair_requested.connect(self.filter_to_pair)
            view.lexelt_requested.connect(self.filter_to_lexelt)
            view.instance_requested.connect(self.open_instance)
            view.show()  # shown (the tab's first show): its step box is shown too
            if view.isVisible():
                # the window laid out now (the docks just hidden, the tab its whole width) and painted,
                # the box over the tab, before the GUI thread builds the panels
                for w in (self._parent, o.page):
                    if w.layout() is not None:
                        w.layout().activate()
                self._parent.repaint()
            view.build_all()
        return o.view

    def _competence_ready(self) -> None:
        """The workbench's detail panel shows the competence-weighted suggestion from now on."""
        if self._open is None:
            return
        if self._open.wb.sort_key == "uncertainty":  # another model: the queue follows its order
            self._open.ws.sort_most_uncertain(keep_place=True)  # never moves the highlight by itself
        if self._open.ws.current >= 0:
            self._open.ws.detail.show_instance(self._open.ws.current)

    def _prefetch(self) -> None:
        """Warm the dashboard once the workbench's own first figures are in (two cores, one at a time)."""
        if self._open is None:
            return
        if self._open.ws.live.updating or not self._open.wb.cols.ready:  # (the columns: see Workspace)
            QTimer.singleShot(PREFETCH_MS, self._prefetch)
        else:
            self._open.work.prefetch()

    def detach(self) -> None:
        """Stop the dashboard's work and show the docks again (before the window state is saved)."""
        if self._open is None:
            return
        o = self._open
        o.tabs.setCurrentIndex(0)  # the docks are shown again (see _tab_changed)
        if o.view is not None:
            o.view.shutdown()
        o.work.shutdown()
        self._open = None
        self.timeline = None  # it holds the closed project's session and workspace (MASC: its whole corpus)
        self._stack.removeWidget(o.tabs)
        o.tabs.deleteLater()
        # the plots' reference cycles are collected here, in the GUI thread: a collection that
        # happens to run in a worker thread must not be the one that destroys Qt objects
        QTimer.singleShot(0, gc.collect)

    def _tab_changed(self, index: int) -> None:
        shown = index == 0 and self._open is not None
        if not shown and any(d.isVisible() for d in self._docks.values()):
            self._docks_left = self._parent.saveState()  # their sizes, given back with the workbench
        if shown:  # the page as short as the workbench lets it be, then the docks back
            self._fit_page(index)
        for d in self._docks.values():
            d.setVisible(shown)
        if shown and self._docks_left is not None:
            self._parent.restoreState(self._docks_left)
            self._docks_left = None
        if self._open is not None and not shown:  # the docks gone, then the page as tall as its tab needs
            self._fit_page(index)
        if index == 1 and self._open is not None and self._open.view is None:
            self.ensure_view()  # the step box, then the panels under it

    # ------------------------------------------------------------------ tabs
    def show_workbench(self) -> None:
        if self._open is not None:
            self._open.tabs.setCurrentIndex(0)

    def show_dashboard(self) -> None:
        if self._open is not None:
            self._open.tabs.setCurrentIndex(1)

    def show_tab(self, name: str) -> None:
        (self.show_dashboard if name == "dashboard" else self.show_workbench)()

    def busy(self) -> bool:
        o = self._open
        return o is not None and o.tabs.currentIndex() == 1 and o.view is not None and o.view.updating

    # ------------------------------------------------------------------ clicks from the plots
    def filter_to_pair(self, a: int, b: int) -> None:
        """The workbench shows the instances where sets ``a`` and ``b`` disagree (any category)."""
        if self._open is None:
            return
        ws = self._open.ws
        ka, kb = ws.pair_a.findData(a), ws.pair_b.findData(b)
        if ka < 0 or kb < 0:
            self._status("That pair cannot be chosen in the filter bar (too many sets)", 4000)
            return
        for box, k in ((ws.category_box, 0), (ws.pair_a, ka), (ws.pair_b, kb)):
            box.blockSignals(True)
            box.setCurrentIndex(k)
            box.blockSignals(False)
        ws.apply_filter()
        self.show_workbench()
        ws.table.setFocus()

    def filter_to_lexelt(self, x: int) -> None:
        if self._open is None:
            return
        ws = self._open.ws
        box = ws.lexelt_box
        k = next((j for j in range(box.count()) if tuple(box.itemData(j) or ()) == (x,)), -1)
        if k >= 0:
            if box.currentIndex() == k:
                ws.apply_filter()
            box.setCurrentIndex(k)
        self.show_workbench()
        ws.table.setFocus()

    def open_instance(self, i: int) -> None:
        if self._open is None:
            return
        ws = self._open.ws
        if self._open.wb.row_of(i) < 0:
            ws.clear_filter()
        ws.select_instance(i)
        self.show_workbench()
        ws.table.setFocus()

    # ------------------------------------------------------------------ exports (File menu)
    def _folder(self, title: str) -> str:
        if os.environ.get("HIERADJ_NO_DIALOGS"):
            return ""
        return QFileDialog.getExistingDirectory(self._parent, title)

    def export_plots(self) -> None:
        if self._open is None:
            return
        folder = self._folder("Export every dashboard plot as PNG into…")
        if folder:
            try:
                paths = self.ensure_view().export_plots(folder)
            except OSError as exc:
                self._status(f"The plots were not exported: {folder}: {exc.strerror or exc}", 0)
                return
            self._status(f"{len(paths)} PNG file(s) written to {folder}", 6000)

    def export_tables(self) -> None:
        if self._open is None:
            return
        fmt, ok = QInputDialog.getItem(self._parent, "Export tables", "Format:", ["csv", "json"], 0, False)
        folder = self._folder("Export every dashboard table into…") if ok else ""
        if folder:
            paths = self.ensure_view().export_tables(folder, fmt)
            self._status(f"{len(paths)} table(s) written to {folder}", 6000)

    def export_report(self) -> None:
        if self._open is None:
            return
        default = str(Path(self._open.session.path).with_suffix(".report.html"))
        path, _ = QFileDialog.getSaveFileName(self._parent, "Export report", default, "HTML (*.html)")
        if not path:
            return
        self._status("Writing the report (bootstrap intervals are computed first)…", 0)
        def failed(exc: BaseException) -> None:
            self._status("The report was not written", 0)  # not "Writing the report…" any more
            self._error("The report could not be written", exc)

        store = getattr(self._open.session, "store", None)
        self.ensure_view().export_report(path, lambda p: self._status(f"Report written: {p}", 8000), failed,
                                      left_out=tuple(getattr(store, "left_out", ())))
