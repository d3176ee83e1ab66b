"""The Timeline tab's part for the dates inside the inputs (issue 32): agreement by week of
annotation (mean pairwise Cohen's kappa, Fleiss' kappa), each annotator's drift (their agreement
with the others on the instances they answered that week) and the time spent per item.  Computed by
:mod:`hieradjudicate.app.timeline.dated` in another thread from the stored copies; hidden where the
inputs carry no dates (the page's note then says the timeline rests on import and decision times)."""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from hieradjudicate.app.timeline.dated import (
    DatedTimeline,
    cached_answers,
    dated_answers,
    dated_timeline,
    input_sources,
    made_before_after,
    save_answers,
)
from hieradjudicate.core.errors import HieradjError
from hieradjudicate.gui.workers import BackgroundRunner

MAX_DRIFT_LINES = 8  # a crowd's drift is in the command line's csv/json, not 200 lines on one plot
MARKER_PEN = pg.mkPen("#8172b3", width=2, style=Qt.PenStyle.DashLine)
COLOURS = ("#4c72b0", "#55a868", "#dd8452", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c",
           "#ccb974", "#64b5cd")


def _t(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def _fig(x: Any) -> str:
    if x is None or x.value is None:
        return "undefined"
    if x.low is not None and x.high is not None:
        return f"{x.value:.3f} [{x.low:.3f}, {x.high:.3f}] (n = {x.n})"
    return f"{x.value:.3f} (n = {x.n})" + (f"; {x.why}" if x.why else "")


def _day(week: str) -> float:
    return datetime.strptime(week, "%Y-%m-%d").replace(tzinfo=timezone.utc).timestamp() / 86400.0


def legend_beside(plot: pg.PlotWidget) -> pg.LegendItem:
    """A legend in its own column right of the plot: the lines' names never cover their last points
    (drawn over the view, top right, it hid the last days of a share rising towards 1), and the
    plot keeps its height, the scarce side of a small screen.  Lines plotted with a ``name`` join
    it, as with ``addLegend``."""
    item = plot.getPlotItem()
    legend = pg.LegendItem()
    item.layout.addItem(legend, 2, 3)  # beside the view (row 2), right of the right axis (column 2)
    item.legend = legend
    return legend


def same_legend_width(*plots: pg.PlotWidget) -> None:
    """Give the legends of plots whose x axes are linked one width: the link maps their views pixel
    for pixel, so a narrower view would cut off the last days."""
    legends = [p.getPlotItem().legend for p in plots]
    hint = Qt.SizeHint.PreferredSize
    width = max(g.layout.effectiveSizeHint(hint).width() for g in legends)
    for p in plots:
        p.getPlotItem().layout.setColumnFixedWidth(3, width)


class DatedPanel(QWidget):
    """Plot and summary of the dated answers; ``ready`` hears the result (or ``None``: no dates)."""

    def __init__(self, parent: QWidget | None = None, *, ready: Callable[[DatedTimeline | None], None] | None = None):
        super().__init__(parent)
        self.setObjectName("timeline_dated")
        self.result: DatedTimeline | None = None
        self.ready = ready
        self.plot = pg.PlotWidget(title="Agreement by week of annotation (the dates inside the inputs)")
        self.plot.setLabel("bottom", "weeks since the first week annotated")
        legend_beside(self.plot)
        self.plot.showGrid(y=True, alpha=0.2)
        self.plot.scene().sigMouseMoved.connect(self._hover)
        self.points: list[tuple[float, float, str]] = []  # drawn points: x, y, hover text
        self.markers: list[Any] = []  # the page's markers (set before a refresh)
        self.before_after: list[Any] = []  # (marker, Difference): the answers made before / after it
        self.hover = QLabel(objectName="timeline_dated_hover")
        self.summary = QLabel(objectName="timeline_dated_summary", wordWrap=True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.plot, 3)
        lay.addWidget(self.hover)
        lay.addWidget(self.summary)
        self.runner = BackgroundRunner(self)
        self.generation = self.done = 0  # the last refresh and the last one computed
        self.setVisible(False)

    def refresh(self, store: Any, copies: Any, corpus: Any) -> None:
        """The dated answers the project keeps (read here: the store stays in this thread), else read
        again from the stored copies (``copies`` holds their bytes: any thread); computed off it."""
        self.generation += 1
        gen = self.generation
        try:
            hit, kept = cached_answers(store)
        except HieradjError:
            hit, kept = False, None

        marks = list(self.markers)

        def work(_report: Any) -> tuple[Any, DatedTimeline | None, list[Any]]:
            ans = kept if hit else dated_answers(corpus, input_sources(copies))
            made = [(m, made_before_after(corpus, ans, m.at)) for m in marks] if ans is not None else []
            return ans, dated_timeline(corpus, ans), made

        def done(result: tuple[Any, DatedTimeline | None, list[Any]]) -> None:
            if not hit:
                save_answers(store, result[0])
            self.before_after = result[2]
            self._done(gen, result[1])

        self.runner.start(work, done, failed=self._failed)

    def _hover(self, pos: Any) -> None:
        """The figure and interval of the drawn point within 10 pixels of the pointer."""
        vb = self.plot.getPlotItem().vb
        if not self.points or not vb.sceneBoundingRect().contains(pos):
            return
        at = [vb.mapViewToScene(QPointF(x, y)) for x, y, _ in self.points]
        d = [(q.x() - pos.x()) ** 2 + (q.y() - pos.y()) ** 2 for q in at]
        j = int(np.argmin(d))
        if d[j] <= 100.0:
            self.hover.setText(self.points[j][2])

    def _failed(self, exc: BaseException) -> None:
        self.setVisible(True)
        self.plot.clear()
        self.summary.setText(html.escape(f"Agreement by week of annotation could not be computed: {exc}"))

    def _done(self, gen: int, d: DatedTimeline | None) -> None:
        if gen != self.generation:
            return
        self.result, self.done = d, gen
        self.setVisible(d is not None)
        if d is not None:
            self._draw(d)
        if self.ready is not None:
            self.ready(d)

    def _draw(self, d: DatedTimeline) -> None:
        p = self.plot
        p.clear()
        x0 = _day(d.weeks[0].week)
        x = np.array([(_day(w.week) - x0) / 7.0 for w in d.weeks])
        series = [("mean pairwise kappa", [w.figures["mean_kappa_cohen"].value for w in d.weeks], 3),
                  ("Fleiss' kappa", [w.figures["fleiss"].value for w in d.weeks], 3)]
        names = list(dict.fromkeys(n for w in d.weeks for n in w.drift))
        if len(names) <= MAX_DRIFT_LINES:
            series += [(f"drift {n}", [w.drift[n].value if n in w.drift else None for w in d.weeks], 1)
                       for n in names]
        figs = [[w.figures["mean_kappa_cohen"] for w in d.weeks], [w.figures["fleiss"] for w in d.weeks],
                *[[w.drift.get(n) for w in d.weeks] for n in names[:len(series) - 2]]]
        self.points = []
        for j, ((name, ys, width), fs) in enumerate(zip(series, figs)):
            y = np.array([np.nan if v is None else v for v in ys], float)
            ok = ~np.isnan(y)
            if ok.any():
                colour = COLOURS[j % len(COLOURS)]
                p.plot(x[ok], y[ok], pen=pg.mkPen(colour, width=width), symbol="o",
                       symbolSize=6 if width > 1 else 4, name=name)
                lo = np.array([np.nan if f is None or f.low is None else f.low for f in fs], float)
                hi = np.array([np.nan if f is None or f.high is None else f.high for f in fs], float)
                ci = ok & ~np.isnan(lo) & ~np.isnan(hi)
                if ci.any():  # each point's BCa interval
                    p.addItem(pg.ErrorBarItem(x=x[ci], y=y[ci], top=hi[ci] - y[ci], bottom=y[ci] - lo[ci],
                                              beam=0.05, pen=pg.mkPen(colour)))
                self.points += [(float(x[k]), float(y[k]), f"week of {d.weeks[k].week}: {name} {_fig(fs[k])}")
                                for k in np.flatnonzero(ok)]
        for m in self.markers:  # the project's markers, where they fall among the weeks
            line = pg.InfiniteLine(pos=(_t(m.at) / 86400.0 - x0) / 7.0, angle=90, pen=MARKER_PEN, label=m.label,
                                   labelOpts={"position": 0.9, "color": "#8172b3"})
            line.setObjectName(f"marker:{m.label}")
            p.addItem(line)
        rows = []
        for w in d.weeks:
            secs = "" if w.seconds_per_item is None else f"{w.seconds_per_item:.1f} s per item"
            k = w.figures["mean_kappa_cohen"].value
            rows.append(f"<tr><td>{w.week}</td><td>{w.answers} answers</td>"
                        f"<td>kappa {'undefined' if k is None else f'{k:.3f}'}</td><td>{secs}</td></tr>")
        more = ("" if len(names) <= MAX_DRIFT_LINES else
                f"<br>{len(names)} annotators: their drift is in <code>project timeline --measure drift "
                "--format csv</code>.")
        made = []
        for m, x in self.before_after:
            if x is None:
                continue
            if x.difference is None:
                made.append(f"{html.escape(m.label)}: {html.escape(x.why or 'undefined')}")
                continue
            made.append(f"<b>{html.escape(m.label)}</b>: Fleiss' kappa of the answers made before / after it "
                        f"{x.before:.3f} &rarr; {x.after:.3f}, difference {x.difference:+.3f} [{x.low:.3f}, "
                        f"{x.high:.3f}] ({'paired by instance' if x.paired else 'unpaired'}, {x.n_before} / "
                        f"{x.n_after} instances)")
        made_html = "<br>".join(made)
        self.summary.setText(f"<small>{html.escape(d.note)}</small><table>{''.join(rows)}</table>{more}"
                             + (f"<br>{made_html}" if made_html else ""))
