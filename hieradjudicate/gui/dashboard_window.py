"""The main window's side of the dashboard: the "Workbench | Dashboard" tabs, clicks that filter, exports.

A mixin of :class:`~hieradjudicate.gui.main_window.MainWindow`, so that the
action table's handlers (``show_dashboard``, ``export_report``, ...) are
methods of the window.  While the Dashboard tab is shown the workbench's
docks are hidden (the plots get the whole window); they come back with the
Workbench tab, and before the window state is saved.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog, QInputDialog, QTabWidget, QWidget

from hieradjudicate.gui.dashboard import DashboardView


class DashboardWindowMixin:
    tabs: QTabWidget | None = None
    dashboard: DashboardView | None = None

    # ------------------------------------------------------------------ set-up
    def _attach_dashboard(self) -> QWidget:
        """Wrap the workspace in tabs with a dashboard; returns the widget for the central stack."""
        w: Any = self
        self.tabs = QTabWidget()
        self.tabs.setObjectName("project_tabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(w.ws, "Workbench")
        self.dashboard = DashboardView(w.session, w.wb)
        self.tabs.addTab(self.dashboard, "Dashboard")
        self.tabs.currentChanged.connect(self._tab_changed)
        w.ws.filter_changed.connect(self.dashboard.filter_changed)
        self.dashboard.pair_requested.connect(self.filter_to_pair)
        self.dashboard.lexelt_requested.connect(self.filter_to_lexelt)
        self.dashboard.instance_requested.connect(self.open_instance)
        return self.tabs

    def _detach_dashboard(self) -> None:
        """Stop the dashboard's work and show the docks again (before the window state is saved)."""
        if self.tabs is None:
            return
        self.tabs.setCurrentIndex(0)
        if self.dashboard is not None:
            self.dashboard.shutdown()
        w: Any = self
        w.stack.removeWidget(self.tabs)
        self.tabs.deleteLater()
        self.tabs, self.dashboard = None, None
        # the plots' reference cycles are collected here, in the GUI thread: a collection that
        # happens to run in a worker thread must not be the one that destroys Qt objects
        QTimer.singleShot(0, gc.collect)

    def _tab_changed(self, index: int) -> None:
        w: Any = self
        for d in w.docks.values():
            d.setVisible(index == 0 and w.session is not None)

    # ------------------------------------------------------------------ tabs
    def show_workbench(self) -> None:
        if self.tabs is not None:
            self.tabs.setCurrentIndex(0)

    def show_dashboard(self) -> None:
        if self.tabs is not None:
            self.tabs.setCurrentIndex(1)

    def show_tab(self, name: str) -> None:
        (self.show_dashboard if name == "dashboard" else self.show_workbench)()

    def dashboard_busy(self) -> bool:
        return self.dashboard is not None and self.tabs is not None and self.tabs.currentIndex() == 1 \
            and self.dashboard.updating

    # ------------------------------------------------------------------ clicks from the plots
    def filter_to_pair(self, a: int, b: int) -> None:
        """The workbench shows the instances where sets ``a`` and ``b`` disagree (any category)."""
        w: Any = self
        ws = w.ws
        ka, kb = ws.pair_a.findData(a), ws.pair_b.findData(b)
        if ka < 0 or kb < 0:
            w.statusBar().showMessage("That pair cannot be chosen in the filter bar (too many sets)", 4000)
            return
        for box, k in ((ws.category_box, 0), (ws.pair_a, ka), (ws.pair_b, kb)):
            box.blockSignals(True)
            box.setCurrentIndex(k)
            box.blockSignals(False)
        ws.apply_filter()
        self.show_workbench()
        ws.table.setFocus()

    def filter_to_lexelt(self, x: int) -> None:
        w: Any = self
        ws = w.ws
        box = ws.lexelt_box
        k = next((j for j in range(box.count()) if tuple(box.itemData(j) or ()) == (x,)), -1)
        if k >= 0:
            if ws.lexelt_box.currentIndex() == k:
                ws.apply_filter()
            ws.lexelt_box.setCurrentIndex(k)
        self.show_workbench()
        ws.table.setFocus()

    def open_instance(self, i: int) -> None:
        w: Any = self
        if w.wb.row_of(i) < 0:
            w.ws.clear_filter()
        w.ws.select_instance(i)
        self.show_workbench()
        w.ws.table.setFocus()

    # ------------------------------------------------------------------ exports (File menu)
    def _folder(self, title: str) -> str:
        if os.environ.get("HIERADJ_NO_DIALOGS"):
            return ""
        return QFileDialog.getExistingDirectory(self, title)  # type: ignore[arg-type]

    def export_plots(self) -> None:
        if self.dashboard is None:
            return
        folder = self._folder("Export every dashboard plot as PNG into…")
        if folder:
            paths = self.dashboard.export_plots(folder)
            self.statusBar().showMessage(f"{len(paths)} PNG file(s) written to {folder}", 6000)  # type: ignore

    def export_tables(self) -> None:
        if self.dashboard is None:
            return
        fmt, ok = QInputDialog.getItem(self, "Export tables", "Format:", ["csv", "json"], 0, False)  # type: ignore
        folder = self._folder("Export every dashboard table into…") if ok else ""
        if folder:
            paths = self.dashboard.export_tables(folder, fmt)
            self.statusBar().showMessage(f"{len(paths)} table(s) written to {folder}", 6000)  # type: ignore

    def export_report(self) -> None:
        w: Any = self
        if self.dashboard is None or w.session is None:
            return
        default = str(Path(w.session.path).with_suffix(".report.html"))
        path, _ = QFileDialog.getSaveFileName(self, "Export report", default, "HTML (*.html)")  # type: ignore
        if not path:
            return
        w.statusBar().showMessage("Writing the report (bootstrap intervals are computed first)…")
        self.dashboard.export_report(path, lambda p: w.statusBar().showMessage(f"Report written: {p}", 8000),
                                     lambda exc: w.error("The report could not be written", exc))
