"""The *Timeline* tab (issue 32): agreement at each import and the adjudication over time, with the
project's markers as vertical lines, hover for a point's figure and interval, a marker added here.

The figures come from :func:`hieradjudicate.app.timeline.view.project_timeline` (the command
line's and the report's); this module only draws them.  Both plots share one time axis: days since
the first event (its ticks in s, min, h or d: :mod:`.time_axis`) (the project's creation or its first decision).  The page computes when it is
first shown and again after a marker is added or the "By" choice changes: the decisions' figures at
once, the agreement at each import (older states rebuilt from the stored copies, kept in the
project after the first time) in another thread.

The page is made with the project (its minimum size bounds the window's docks, as every tab's does), but
its plots are made when it is first shown (:meth:`TimelinePage.build_plots`): pyqtgraph's plot items and
the timeline's modules were 0.2 CPU-s of every opening of MASC.  Until then each plot's place holds a
bare :class:`pyqtgraph.GraphicsView` (the class a plot widget is made of: the same minimum size), so the
window is laid out the same before and after.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate.core.errors import HieradjError
from hieradjudicate.gui.workers import BackgroundRunner

if TYPE_CHECKING:  # the timeline's own modules are imported when the page is first shown
    from hieradjudicate.app.timeline.imports import StoredCopies
    from hieradjudicate.app.timeline.view import TimelineView
    from hieradjudicate.gui.dashboard.timeline.timeline_dated import DatedPanel

RESAMPLES = 1000
MARKER_PEN = pg.mkPen("#8172b3", width=2, style=Qt.PenStyle.DashLine)


def _t(iso: str) -> float:
    """Seconds since the epoch of an ISO UTC time (``...Z``)."""
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def _fig(x: Any) -> str:
    v = "undefined" if x.value is None else f"{x.value:.3f}"
    if x.low is not None and x.high is not None:
        return f"{v} [{x.low:.3f}, {x.high:.3f}] (n = {x.n})"
    return f"{v} (n = {x.n})" + (f"; {x.why}" if x.why else "")


class TimelinePage(QWidget):
    """The Timeline tab of an open project."""

    def __init__(self, session: Any, parent: QWidget | None = None, *, ws: Any = None, tabs: Any = None) -> None:
        super().__init__(parent)
        self.setObjectName("timeline_page")
        self.session = session
        self.ws, self.tabs = ws, tabs  # a click on a day: the workbench shows that day's instances
        self.view: TimelineView | None = None
        self.origin = 0.0
        self.points: dict[str, list[tuple[float, float, str, int]]] = {}  # plot -> (x, y, hover text, point)
        top = QHBoxLayout()
        self.by = QComboBox(objectName="timeline_by")
        for text, key in (("Each day", "day"), ("Each week", "week"), ("Every 100 decisions", 100)):
            self.by.addItem(text, key)
        self.marker_label = QLineEdit(objectName="timeline_marker_label", placeholderText="Marker, e.g. guidelines v2")
        self.marker_at = QLineEdit(objectName="timeline_marker_at", placeholderText="YYYY-MM-DD (empty: now)")
        self.add_button = QPushButton("Add marker", objectName="timeline_add_marker")
        self.show_all = QPushButton("Show every instance", objectName="timeline_show_all")
        self.show_all.setToolTip("Undo a click on a point: the workbench shows every instance again")
        self.show_all.setEnabled(False)
        for w in (QLabel("By"), self.by, self.marker_label, self.marker_at, self.add_button, self.show_all):
            top.addWidget(w)
        top.addStretch(1)
        self.note = QLabel(objectName="timeline_note", wordWrap=True)
        self.note.setStyleSheet("color: gray")
        #: the two plots and the dated answers' panel: None until :meth:`build_plots` (the first show)
        self.imports_plot: Any = None
        self.decisions_plot: Any = None
        self.dated: DatedPanel | None = None
        self._stand_ins = [pg.GraphicsView(), pg.GraphicsView()]  # the plots' places, their minimum size
        for v in self._stand_ins:
            v.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)  # as a PlotWidget's
        self.hover = QLabel(objectName="timeline_hover")
        self.rebuilding = QLabel(objectName="timeline_rebuilding")
        self.rebuilding.setStyleSheet("color: gray")
        self.runner = BackgroundRunner(self)  # the import points
        self.fast = BackgroundRunner(self)  # the decisions' figures
        self.generation = self.view_generation = 0
        self._rebuilt_result: Any = None
        self._copies: StoredCopies | None = None
        self.details = QTextBrowser(objectName="timeline_details")
        from hieradjudicate.gui.dashboard.timeline.timeline_team import TeamTimelinePanel

        self.team = TeamTimelinePanel(self)  # a server project's lead: the adjudicators over time
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.note)
        lay.addWidget(self.rebuilding)
        for v in self._stand_ins:
            lay.addWidget(v, 3)
        # (the dated answers' panel goes here, stretch 3: hidden until its figures are in)
        lay.addWidget(self.hover)
        lay.addWidget(self.details, 2)
        lay.addWidget(self.team, 2)
        self.add_button.clicked.connect(self.add_marker)
        self.show_all.clicked.connect(self.show_every_instance)
        self.marker_label.returnPressed.connect(self.add_marker)
        self.by.currentIndexChanged.connect(lambda _: self.refresh())

    def build_plots(self) -> None:
        """Make the plots in their stand-ins' places and the dated answers' panel (once; see the module)."""
        if self.imports_plot is not None:
            return
        from hieradjudicate.gui.dashboard.timeline.timeline_dated import DatedPanel, legend_beside

        from hieradjudicate.gui.dashboard.timeline.time_axis import TimeAxis

        self.imports_plot = pg.PlotWidget(title="Annotator agreement at each import",
                                          axisItems={"bottom": TimeAxis("bottom")})
        self.decisions_plot = pg.PlotWidget(title="The adjudication (share) and the gold overturning the majority",
                                            axisItems={"bottom": TimeAxis("bottom")})
        for p in (self.imports_plot, self.decisions_plot):
            p.setLabel("bottom", "time since the first event")
            legend_beside(p)
            p.showGrid(y=True, alpha=0.2)
            p.scene().sigMouseMoved.connect(lambda pos, p=p: self._hover(p, pos))
        self.decisions_plot.scene().sigMouseClicked.connect(self._clicked)
        self.imports_plot.scene().sigMouseClicked.connect(self._clicked_import)
        self.decisions_plot.setXLink(self.imports_plot)  # one time axis: a marker stands at one x in both
        self.dated = DatedPanel(self, ready=lambda _d: self._dated_note())  # the dates inside the inputs
        lay = self.layout()
        for stand_in, plot in zip(self._stand_ins, (self.imports_plot, self.decisions_plot)):
            lay.replaceWidget(stand_in, plot)  # its place and stretch
            stand_in.setParent(None)  # out of the page at once
            stand_in.deleteLater()
        self._stand_ins = []
        lay.insertWidget(lay.indexOf(self.decisions_plot) + 1, self.dated, 3)

    # ------------------------------------------------------------------ computing
    def refresh(self) -> None:
        """Read the markers and the stored copies here (the store's connection stays in this thread),
        then compute off it -- the decision rows read there, through a connection of its own: the
        decisions' figures (drawn when ready) and, beside them, the import points and the markers'
        Fleiss before/after (kept when each state came to be; a project made by an older version
        rebuilds its older states once: a crowd's take a minute)."""
        from hieradjudicate.app.timeline.dated import files_without_kept_dates
        from hieradjudicate.app.timeline.imports import StoredCopies
        from hieradjudicate.app.timeline.marks import markers
        from hieradjudicate.app.timeline.view import decisions_view, kept_points, rebuilt_parts

        self.build_plots()
        s = self.session
        try:
            read_rows = self._history_reader()
            marks = markers(s.store)
            copies = StoredCopies(s.store, marks, n_resamples=RESAMPLES,  # only the copies still needed
                                  also=files_without_kept_dates(s.store))
        except HieradjError as exc:
            self.note.setText(f"No timeline: {exc}")
            return
        self.generation += 1
        gen, corpus, by = self.generation, s.corpus, self.by.currentData()
        self._rebuilt_result = None
        self.note.setText("Computing the timeline...")
        from hieradjudicate.app.timeline.imports import REBUILD_NOTE, states_to_rebuild

        n = states_to_rebuild(copies, n_resamples=RESAMPLES)
        self.rebuilding.setText("Agreement at each import: " + (REBUILD_NOTE.format(n=n) if n else "being computed")
                                + "...")
        key, kept = kept_points(s.store, by, RESAMPLES, None)  # the closed points kept in the project
        self._copies = copies
        self.fast.start(lambda _report: decisions_view(corpus, read_rows(), marks, by=by, n_resamples=RESAMPLES,
                                                       resume=kept, key=key),
                        lambda view: self._decided(gen, view, kept), failed=self._failed)
        self.runner.start(lambda _report: rebuilt_parts(copies, corpus, marks, n_resamples=RESAMPLES),
                          lambda result: self._rebuilt(gen, result), failed=self._rebuild_failed)
        if hasattr(s.store, "location"):
            self.team.refresh(s, by, RESAMPLES)
        self.dated.markers = marks  # drawn on the weeks' plot too
        self.dated.refresh(s.store, copies, corpus)

    def _history_reader(self) -> Any:
        """A function giving the decision rows: read in the background job through its own connection
        where the store offers one (a project file), else read here (a server's store) and handed over."""
        store = self.session.store
        reader = getattr(store, "history_reader", None)
        if reader is not None:
            return reader(brief=True)  # only the columns the timeline reads
        rows = list(store.iter_history())
        return lambda: rows

    def _decided(self, gen: int, view: TimelineView, kept: Any = None) -> None:
        from hieradjudicate.app.timeline.view import keep_points

        if gen != self.generation:  # superseded by a newer refresh
            return
        self._keep(lambda store: keep_points(store, view, kept))  # the closed points, for the next view
        self.view, self.view_generation = view, gen
        if self._rebuilt_result is not None:
            self._merge(self._rebuilt_result)
        self._draw()

    def _rebuilt(self, gen: int, result: Any) -> None:
        if gen != self.generation:
            return
        self._rebuilt_result = result
        if self.view is not None and self.view_generation == gen:  # else merged when the decisions' arrive
            self._merge(result)
            self._draw()
        points, added, _ = result
        if added:
            from hieradjudicate.app.timeline.imports import import_plan, save_import_cache

            self._keep(lambda store: save_import_cache(store, import_plan(store, n_resamples=RESAMPLES,
                                                                          fetch=False), added))
        if self._copies is not None:
            self._keep(self._copies.keep_held)
        self.rebuilding.setText("")

    def _keep(self, write) -> None:
        """Keep computed points in the project for the next view: only a saving, so a project closed
        (or a server gone, or a login without the right) while they were computed keeps nothing and
        the figures on screen stand."""
        try:
            write(self.session.store)
        except HieradjError:
            pass

    def _merge(self, result: Any) -> None:
        points, _, diffs = result
        self.view.imports = points
        for ba, d in zip(self.view.before_after, diffs):
            ba["fleiss"] = d

    def _failed(self, exc: BaseException) -> None:
        self.note.setText(f"The timeline could not be computed: {exc}")

    def _dated_note(self) -> None:
        if self.view is not None:
            from hieradjudicate.app.timeline.dated import with_dates

            self.note.setText(with_dates(self.view.note, self.dated.result))

    def _rebuild_failed(self, exc: BaseException) -> None:
        self.rebuilding.setText(f"Agreement at each import could not be computed: {exc}")

    def add_marker(self) -> None:
        from hieradjudicate.app.timeline.marks import add_marker

        try:
            m = add_marker(self.session.store, self.marker_label.text(), self.marker_at.text().strip() or None)
        except HieradjError as exc:
            self.hover.setText(str(exc))
            return
        self.marker_label.clear()
        self.marker_at.clear()
        self.refresh()
        self.hover.setText(f"Marker added: {m.label} at {m.at}")

    # ------------------------------------------------------------------ drawing
    def _x(self, iso: str) -> float:
        return (_t(iso) - self.origin) / 86400.0

    def _draw(self) -> None:
        from hieradjudicate.gui.dashboard.timeline.timeline_dated import same_legend_width

        v = self.view
        assert v is not None
        times = [p.event.at for p in v.imports] + [p.end for p in v.decisions.points]
        self.origin = min(map(_t, times)) if times else 0.0
        self._dated_note()
        self.points = {"imports": [], "decisions": []}
        colours = ("#4c72b0", "#55a868", "#dd8452", "#c44e52")
        ip = self.imports_plot
        ip.clear()
        if v.imports:
            x = np.array([self._x(p.event.at) for p in v.imports])
            for j, (key, name) in enumerate((("fleiss", "Fleiss' kappa"), ("alpha", "Krippendorff's alpha"))):
                self._series(ip, "imports", x, [p.figures[key] for p in v.imports], name, colours[j],
                             [p.event.label for p in v.imports], " (click: the instances its sets answer)")
        dp = self.decisions_plot
        dp.clear()
        pts = v.decisions.points
        dp.setVisible(bool(pts))  # no decision yet: its room goes to the plots that have points
        if pts:
            x = np.array([self._x(p.end) for p in pts])
            n = max(v.decisions.n_instances, 1)
            share = [p.counts.get("resolved", 0) / n for p in pts]
            dp.plot(x, share, pen=pg.mkPen(colours[0], width=2), symbol="o", symbolSize=6, name="resolved share")
            self.points["decisions"] += [(xi, yi, f"{p.label}: resolved {p.counts.get('resolved', 0)} of {n}, "
                                          f"{p.decisions} decisions (click: its instances)", k)
                                         for k, (xi, yi, p) in enumerate(zip(x, share, pts))]
            self._series(dp, "decisions", x, [p.overturn for p in pts], "gold overturns the majority",
                         colours[3], [p.label for p in pts])
            roles = {x.name: x.role for x in self.session.corpus.sets}  # the systems first, then annotators
            ranked = sorted(pts[-1].scores, key=lambda k: roles.get(k) != "system")
            systems = [k for k in ranked if pts[-1].scores[k].low is not None][:2]
            for j, name in enumerate(systems):
                self._series(dp, "decisions", x, [p.scores.get(name) for p in pts], f"score {name}",
                             colours[1 + j], [p.label for p in pts])
        xs = [self._x(t) for t in times] + [self._x(m.at) for m in v.markers]
        if xs:  # both plots over every event and marker (their x axes are linked)
            ip.setXRange(min(xs), max(xs), padding=0.04)
        for plot in (ip, dp):
            for m in v.markers:
                line = pg.InfiniteLine(pos=self._x(m.at), angle=90, pen=MARKER_PEN, label=m.label,
                                       labelOpts={"position": 0.9, "color": "#8172b3"})
                line.setObjectName(f"marker:{m.label}")
                plot.addItem(line)
        same_legend_width(ip, dp)  # linked x axes: both views end at the same pixel
        self.details.setHtml(self._details_html())

    def _series(self, plot: Any, key: str, x: np.ndarray, figs: list[Any], name: str, colour: str,
                labels: list[str], tail: str = "") -> None:
        y = np.array([np.nan if f is None or f.value is None else f.value for f in figs], float)
        ok = ~np.isnan(y)
        if not ok.any():
            return
        plot.plot(x[ok], y[ok], pen=pg.mkPen(colour, width=2), symbol="o", symbolSize=6, name=name)
        lo = np.array([np.nan if f is None or f.low is None else f.low for f in figs], float)
        hi = np.array([np.nan if f is None or f.high is None else f.high for f in figs], float)
        ci = ok & ~np.isnan(lo) & ~np.isnan(hi)
        if ci.any():
            plot.addItem(pg.ErrorBarItem(x=x[ci], y=y[ci], top=hi[ci] - y[ci], bottom=y[ci] - lo[ci],
                                         beam=0.1, pen=pg.mkPen(colour)))
        self.points[key] += [(float(x[j]), float(y[j]), f"{labels[j]}: {name} {_fig(figs[j])}{tail}", int(j))
                             for j in np.flatnonzero(ok)]

    def _nearest(self, plot: Any, pos: Any) -> tuple[float, float, str, int] | None:
        """The drawn point within 10 pixels of scene position ``pos``, or None."""
        key = "imports" if plot is self.imports_plot else "decisions"
        pts = self.points.get(key) or []
        vb = plot.getPlotItem().vb
        if not pts or not vb.sceneBoundingRect().contains(pos):
            return None
        at = [vb.mapViewToScene(QPointF(x, y)) for x, y, _, _ in pts]
        d = [(q.x() - pos.x()) ** 2 + (q.y() - pos.y()) ** 2 for q in at]
        j = int(np.argmin(d))
        return pts[j] if d[j] <= 100.0 else None

    def _hover(self, plot: Any, pos: Any) -> None:
        hit = self._nearest(plot, pos)
        if hit is not None:
            self.hover.setText(hit[2])

    def _clicked(self, ev: Any) -> None:
        hit = self._nearest(self.decisions_plot, ev.scenePos())
        if hit is not None and self.view is not None:
            self.filter_to(hit[3])

    def _clicked_import(self, ev: Any) -> None:
        hit = self._nearest(self.imports_plot, ev.scenePos())
        if hit is not None and self.view is not None:
            self.filter_to_import(hit[3])

    def filter_to_import(self, k: int) -> None:
        """The workbench shows the instances the sets of import ``k`` answer (as the project holds
        them now), and the Workbench tab."""
        if self.ws is None or self.view is None:
            return
        e = self.view.imports[k].event
        c = self.session.corpus
        sets = [s for s in c.sets if s.name in set(e.sets)]
        inst = np.unique(np.concatenate([s.rows for s in sets])) if sets else np.zeros(0, np.int64)
        self._show(tuple(int(i) for i in inst), f"the {inst.size} instances answered by the sets of '{e.label}'")

    def _show(self, instances: tuple[int, ...], what: str) -> None:
        self.ws.clear_filter()
        self.ws.set_only(instances)
        self.show_all.setEnabled(True)
        self.hover.setText(f"The workbench shows {what}")
        if self.tabs is not None:
            self.tabs.setCurrentIndex(0)

    def filter_to(self, k: int) -> None:
        """The workbench shows the instances decided in point ``k`` (and the Workbench tab)."""
        if self.ws is None or self.view is None:
            return
        p = self.view.decisions.points[k]
        self.ws.clear_filter()
        self.ws.set_only(tuple(int(i) for i in p.instances))
        self.show_all.setEnabled(True)
        self.hover.setText(f"The workbench shows the {p.instances.size} instances decided in {p.label}")
        if self.tabs is not None:
            self.tabs.setCurrentIndex(0)

    def show_every_instance(self) -> None:
        if self.ws is not None:
            self.ws.set_only(())
        self.show_all.setEnabled(False)

    def _details_html(self) -> str:
        from hieradjudicate.app.timeline.view import before_after_figures

        v = self.view
        assert v is not None
        out = []
        for m, ba in zip(v.markers, v.before_after):
            out.append(f"<b>{m.label}</b> ({m.at}):<ul>")
            for k, name in [kn for kn in before_after_figures(ba) if kn[0] != "made"]:
                d = ba[k]
                if d.difference is None:
                    out.append(f"<li>{name}: {d.why}</li>")
                    continue
                out.append(f"<li>{name}: {d.before:.3f} &rarr; {d.after:.3f}, difference {d.difference:+.3f} "
                           f"[{d.low:.3f}, {d.high:.3f}] ({'paired by instance' if d.paired else 'unpaired'}, "
                           f"{d.n_before} / {d.n_after} instances)</li>")
            out.append("</ul>")
        f = v.forecast
        if v.dates[0]:
            ci = f" (95% interval {v.dates[1]} to {v.dates[2] or 'open-ended'})" if v.dates[1] else ""
            out.append(f"<p>Forecast: {f.open} open at {f.per_day:.1f} resolved per calendar day: done about "
                       f"<b>{v.dates[0]}</b>{ci}.</p>")
        else:
            out.append(f"<p>Forecast: {f.open} open; {f.why or 'done'}.</p>")
        if not v.decisions.points:
            out.append("<p>No decision saved yet: the adjudication's plot appears with the first.</p>")
        return "".join(out)


def attach_timeline(tabs: Any, session: Any, ws: Any = None) -> TimelinePage:
    """Add the Timeline tab to the project's tabs; its plots are made and its figures computed when it is
    first shown.  The page itself is made now: its minimum height is the tabs', which bounds the
    detail dock's (without it a 700 px window's dock would take more room and the table show two rows
    fewer), and its stand-ins keep that height until the plots take their places."""
    page = TimelinePage(session, ws=ws, tabs=tabs)
    index = tabs.addTab(page, "Timeline")

    def shown(k: int) -> None:
        if k == index and page.view is None:
            page.refresh()

    tabs.currentChanged.connect(shown)
    return page
