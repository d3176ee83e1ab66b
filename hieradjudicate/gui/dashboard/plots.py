"""Agreement plots of the dashboard: pairwise heatmap, per-lexelt bars, agreement against depth, confusion.

Every plot item is created once; :meth:`update` only calls ``setImage``,
``setOpts`` and ``setData`` (text items come from a pool that grows when a
larger matrix needs more).  Hovering a cell, bar or point shows its own
explanation; the panel's tooltip and "?" give the figure's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QComboBox, QLabel

from hieradjudicate.app.dashboard.thin import FEW_INSTANCES  # one threshold for every panel
from hieradjudicate.core.palette import scale_color, text_color_on
from hieradjudicate.core.tags_only import NO_INVENTORY
from hieradjudicate.gui.dashboard.common import (
    Panel,
    TextPool,
    fmt,
    matrix_plot,
    nan_or,
    nearest_slot,
    none_in_view,
    scale_lut,
    set_line,
    set_ticks,
    theme,
    tip,
    view_pos,
)

MAX_SENSES = 15  # confusion rows and columns, "N others" included (as in the report)
PAIR_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00")  # as in the report
MAX_PAIR_LINES = len(PAIR_COLORS)  # more pairs: one grey item for all, colours would repeat
MAX_PAIR_TRACES = 300  # more pairs (a crowd): their spread as quantile bands, not a line each
PAIR_SPREAD = 0.3  # the pairs' lines side by side across this much of a level's slot (equal figures never hide)


def pair_offsets(n: int) -> np.ndarray:
    """Horizontal offset of each pair's line from its level: ``n`` evenly spaced, symmetric about the
    level and never 0 (the group's line stays at the level itself); two pairs with the same figure are
    two points side by side, not one."""
    m = n + n % 2
    half = np.arange(m // 2) + 0.5
    return (np.concatenate([-half[::-1], half]) * (PAIR_SPREAD / max(m, 1)))[:n]


def lexelt_note(n: int, few: int, pooled: float | None, macro: float | None, rows: int) -> str:
    """The line under the per-lexelt title: the two lines, the scrolling, the lexelts too small to judge."""
    parts = [f"solid line: pooled {fmt(pooled)}; dashed: mean of the lexelts {fmt(macro)}"]
    if n > rows:
        parts.append(f"{n:,} lexelts: scroll for the rest, or sort")
    if few:
        parts.append(f"<b>{few:,} of {n:,} lexelts have fewer than {FEW_INSTANCES} instances</b> (grey): their "
                     "chance correction rests on too few instances to mean much")
    return "<small>" + " · ".join(parts) + "</small>"


class LexeltPanel(Panel):
    """Per-lexelt agreement of the annotator group with bootstrap intervals (horizontal bars)."""

    lexelt_clicked = Signal(int)  # lexelt index

    SORTS = (("by value ↑", "value", False), ("by value ↓", "value", True), ("by name", "lexelt", False),
             ("by instances ↓", "n", True))

    def __init__(self, parent=None) -> None:
        super().__init__("lexelts", "Agreement per lexelt", parent)
        self.sort = QComboBox()
        self.sort.setObjectName("lexelt_sort")
        for text, _, _ in self.SORTS:
            self.sort.addItem(text)
        self.sort.currentIndexChanged.connect(lambda _: self.update_data(self.data) if self.data else None)
        self.controls.addWidget(QLabel("Sort"))
        self.controls.addWidget(self.sort)
        self.controls.addStretch(1)
        self.plot = self.add_plot()
        self.plot.getPlotItem().getViewBox().invertY(True)
        self.plot.setMouseEnabled(x=False, y=True)
        self.bars = pg.BarGraphItem(x0=[], y=[], width=[], height=0.7)
        self.errors = pg.ErrorBarItem(x=np.zeros(0), y=np.zeros(0), beam=0.25, pen=pg.mkPen(theme()["fg"]))
        # the two lines are named in the title, not by labels drawn over the bars
        self.pooled = pg.InfiniteLine(angle=90, pen=pg.mkPen(theme()["fg"], width=1.5))
        self.macro = pg.InfiniteLine(angle=90, pen=pg.mkPen(theme()["muted"], style=Qt.PenStyle.DashLine))
        self.note = QLabel()
        self.note.setObjectName("lexelt_note")
        self.note.setWordWrap(True)
        self.body.insertWidget(self.body.count() - 1, self.note)
        for item in (self.bars, self.errors, self.pooled, self.macro):
            self.plot.addItem(item)
        self.data: Any = None
        self.order: list[Any] = []
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        self.plot.scene().sigMouseMoved.connect(self._moved)

    def update_data(self, data: Any) -> None:
        self.data = data
        lb = data.lexelts
        _, key, desc = self.SORTS[self.sort.currentIndex()]
        self.order = lb.sorted(key, descending=desc)
        n = len(self.order)
        y = np.arange(n, dtype=float)
        values = np.array([nan_or(b.value) for b in self.order], float)
        width = np.nan_to_num(values)
        few = np.array([b.n < FEW_INSTANCES for b in self.order], bool)
        grey = pg.mkBrush(theme()["muted"])
        self.bars.setOpts(x0=np.zeros(n), y=y, width=width, height=0.7,
                          brushes=[grey if f else pg.mkBrush(scale_color(b.value)) for b, f in zip(self.order, few)],
                          pen=pg.mkPen(None))
        low = np.array([nan_or(b.low) for b in self.order], float)
        high = np.array([nan_or(b.high) for b in self.order], float)
        has = ~np.isnan(low) & ~np.isnan(high) & ~np.isnan(values)
        self.errors.setData(x=values[has], y=y[has], left=(values - low)[has], right=(high - values)[has],
                            beam=0.25)
        for line, v in ((self.pooled, lb.overall.value), (self.macro, lb.macro)):
            line.setVisible(v is not None)
            if v is not None:
                line.setValue(float(v))
        # every bar named; as many rows shown as fit at a readable height, the rest scroll (2,808 lexelts
        # were 2,808 bars in 170 px with one label in 94)
        self.plot.getAxis("left").setTicks([[(k, b.lexelt) for k, b in enumerate(self.order)], []])
        lows = [v for v in [*low[has], *values[~np.isnan(values)]]]
        self.plot.setXRange(min([0.0, *lows]), 1.0, padding=0.02)
        self.plot.setYRange(-0.6, min(n, self.rows_shown()) - 0.4, padding=0)
        ci = (f"{lb.n_resamples} bootstrap resamples, 95% BCa intervals" if has.any()
              else "intervals not computed yet: Compute intervals, above")
        name = "Krippendorff's alpha" if lb.measure == "alpha" else "Fleiss' kappa"
        self.title_label.setText(f"<b>{name} per lexelt</b> <small>({ci})</small>")
        self.title_label.setToolTip(ci)
        self.note.setText(lexelt_note(n, int(few.sum()), lb.overall.value, lb.macro, self.rows_shown()))
        self.set_empty(none_in_view(data) or (None if np.isfinite(values).any() else
                       "No lexelt has a defined figure here" + (f": {lb.overall.reason}" if lb.overall.reason
                                                                else " (fewer than two annotators per instance?)")))
        self.set_explain(lb.explain.text() + f"\nPooled: {fmt(lb.overall.value)}; macro mean: {fmt(lb.macro)}"
                         "\n\nClick a bar: filter the workbench to that lexelt.")

    def rows_shown(self) -> int:
        """Bars shown at once: one per 16 px of the plot (labels never overprint), the rest scroll."""
        return max(5, int(self.plot.getPlotItem().getViewBox().height() // 16) or 12)

    def bar_at(self, scene_pos) -> int:
        p = view_pos(self.plot, scene_pos)
        return -1 if p is None else nearest_slot(p.y(), len(self.order), 0.4)

    def _clicked(self, ev) -> None:
        if ev.button() == Qt.MouseButton.LeftButton and (k := self.bar_at(ev.scenePos())) >= 0:
            self.lexelt_clicked.emit(int(self.order[k].x))

    def _moved(self, pos) -> None:
        k = self.bar_at(pos)
        if k >= 0:
            tip(self.plot, self.order[k].explain.text())


class DepthPanel(Panel):
    """Agreement at each cut of the sense tree: one line per annotator pair and the group."""

    def __init__(self, parent=None) -> None:
        super().__init__("depth", "Agreement against depth of the sense tree", parent)
        self.plot = self.add_plot()
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.showGrid(x=False, y=True, alpha=0.25)
        self.legend = self.plot.addLegend(offset=(-8, -8), labelTextColor=theme()["fg"])
        self.lines: list[pg.PlotDataItem] = []
        self.pairs_item: pg.PlotDataItem | None = None
        self.bands: dict[str, Any] = {}
        self.group: pg.PlotDataItem | None = None
        self.data: Any = None
        self.offsets = np.zeros(0)  # each pair's line, shifted so that equal figures stay visible
        self.plot.scene().sigMouseMoved.connect(self._moved)

    def _add_bands(self, n_pairs: int) -> None:
        """Median and the middle 50% and 80% of the pairs at each level: five items whatever the crowd."""
        muted = pg.mkColor(theme()["muted"])
        curves = {q: pg.PlotDataItem([], [], pen=pg.mkPen(None)) for q in (10, 25, 75, 90)}
        for c in curves.values():
            self.plot.addItem(c)
        for (lo, hi), alpha, name in (((10, 90), 45, f"middle 80% of {n_pairs} pairs"),
                                      ((25, 75), 90, "middle 50%")):
            col = pg.mkColor(muted)
            col.setAlpha(alpha)
            fill = pg.FillBetweenItem(curves[lo], curves[hi], brush=pg.mkBrush(col))
            self.plot.addItem(fill)
            self.legend.addItem(pg.BarGraphItem(x=[0], height=[0], width=0, brush=pg.mkBrush(col), pen=None), name)
        med = self.plot.plot([], [], pen=pg.mkPen(theme()["muted"], width=2, style=Qt.PenStyle.DashLine),
                             name="median pair")
        self.bands = {"curves": curves, "median": med}

    def _set_bands(self, x: np.ndarray, vals: np.ndarray) -> None:
        ok = np.isfinite(vals).any(axis=0)
        with np.errstate(all="ignore"):
            qs = {q: np.full(x.size, np.nan) for q in (10, 25, 50, 75, 90)}
            for j in np.flatnonzero(ok):
                col = vals[:, j][np.isfinite(vals[:, j])]
                for q in qs:
                    qs[q][j] = np.percentile(col, q)
        for q, c in self.bands["curves"].items():
            set_line(c, x, np.nan_to_num(qs[q], nan=0.0) if ok.all() else qs[q])
        set_line(self.bands["median"], x, qs[50])

    def update_data(self, data: Any) -> None:
        d = self.data = data.depth
        x = np.arange(len(d.levels), dtype=float)
        many = len(d.pairs) > MAX_PAIR_LINES
        if self.group is None:  # the pairs never change while a project is open
            if len(d.pairs) > MAX_PAIR_TRACES:  # a crowd: the pairs' spread per level, a few items
                self._add_bands(len(d.pairs))
            elif many:  # every pair in ONE item (NaN-separated), not one line and legend row each
                self.pairs_item = self.plot.plot([], [], pen=pg.mkPen(theme()["muted"], width=1),
                                                 name=f"each of {len(d.pairs)} pairs", connect="finite")
                self.pairs_item.setOpacity(0.35 if len(d.pairs) <= 100 else 0.1)
            else:
                for p, (a, b) in enumerate(d.pairs):
                    c = PAIR_COLORS[p % len(PAIR_COLORS)]
                    self.lines.append(self.plot.plot([], [], pen=pg.mkPen(c, width=2), symbol="o", symbolSize=7,
                                                     symbolBrush=c, symbolPen=None, name=f"{a}–{b}",
                                                     connect="finite"))
            fg = theme()["fg"]
            self.group = self.plot.plot([], [], pen=pg.mkPen(fg, width=3.5), symbol="s", symbolSize=8,
                                        symbolBrush=fg, symbolPen=None, name=f"group ({d.group_name})",
                                        connect="finite")
            self.group.setZValue(-1)  # under the pairs' points: a pair with the group's figure stays in sight
        vals = np.ma.filled(np.ma.asarray(d.pair_values, float), np.nan).reshape(len(d.pairs), x.size)
        self.offsets = np.zeros(len(d.pairs)) if self.bands else pair_offsets(len(d.pairs))
        if self.bands:
            self._set_bands(x, vals)
        elif self.pairs_item is not None:
            sep = np.full((vals.shape[0], 1), np.nan)
            xs = x[None, :] + self.offsets[:, None]
            self.pairs_item.setData(np.hstack([xs, sep]).ravel(), np.hstack([vals, sep]).ravel())
        for p, line in enumerate(self.lines):
            set_line(line, x + self.offsets[p], vals[p] if p < len(vals) else np.full(x.size, np.nan))
        gv = np.array([nan_or(v) for v in d.group_values], float)
        set_line(self.group, x, gv)
        flat = (getattr(data, "summary", None) or {}).get("inventory", {}).get("senses", 1) == 0
        if flat:  # no tree: the sentence alone, not one point and a legend under it
            for item in (*self.lines, self.group, self.pairs_item):
                if item is not None:
                    item.setData([], [])
        self.legend.setVisible(not flat)
        self.set_empty(none_in_view(data) or (
            f"{NO_INVENTORY}:\nno sense tree, so no depth to cut it at" if flat else None) or (
            None if np.isfinite(gv).any() or np.isfinite(vals).any() else
            "No level has a defined agreement " + (_why_no_level(d) if max(d.group_n, default=0)
                                                   else "(no pair of annotators shares an instance here)")))
        set_ticks(self.plot, "bottom", d.levels)
        finite = np.concatenate([vals[np.isfinite(vals)], gv[np.isfinite(gv)], [0.0, 1.0]])
        self.plot.setYRange(min(0.0, float(finite.min())), 1.0, padding=0.05)
        self.plot.setXRange(-0.3, max(len(d.levels) - 1, 1) + 0.3, padding=0)
        self.set_explain(d.explain.text())

    def point_at(self, x: float, y: float) -> tuple[int, int] | None:
        """``(pair, level)`` of the point drawn nearest ``(x, y)`` (pair -1: the group), within 12 px."""
        d = self.data
        if d is None:
            return None
        j = nearest_slot(x, len(d.levels), 0.45)
        if j < 0:
            return None
        vals = np.ma.filled(np.ma.asarray(d.pair_values, float), np.nan).reshape(len(d.pairs), len(d.levels))
        px, py = self.plot.getPlotItem().getViewBox().viewPixelSize()
        offs = self.offsets if self.offsets.size == len(d.pairs) else np.zeros(len(d.pairs))
        # distances in pixels to every pair's point at level j and to the group's (no loop over pairs)
        dx = np.append(j + offs, j) - x
        gv = d.group_values[j]
        dy = np.append(vals[:, j], np.nan if gv is None else gv) - y
        dist = np.hypot(dx / (px or 1), dy / (py or 1))
        if not np.isfinite(dist).any():
            return None
        q = int(np.nanargmin(dist))
        if dist[q] > 12:
            return None
        return (-1 if q == len(d.pairs) else q), j

    def point_tip(self, p: int, j: int) -> str | None:
        """The hovered point's explanation, its exact value first, with the pairs whose figure at this
        level is within 0.01 of it (their lines run close; each is named with its own value)."""
        d = self.data
        e = d.point_explain.get((p, j))
        if e is None:
            return None
        vals = np.ma.filled(np.ma.asarray(d.pair_values, float), np.nan).reshape(len(d.pairs), len(d.levels))
        v = d.group_values[j] if p < 0 else vals[p, j]
        name = f"group ({d.group_name})" if p < 0 else "–".join(d.pairs[p])
        head = f"{name} at {d.levels[j]}: {fmt(None if v is None or not np.isfinite(v) else float(v), 4)}"
        if v is not None and np.isfinite(v) and len(d.pairs) <= MAX_PAIR_TRACES:
            near = np.flatnonzero(np.abs(vals[:, j] - v) <= 0.01)
            near = near[near != p][:8]
            if near.size:
                head += "\nClose to it (within 0.01): " + ", ".join(
                    f"{'–'.join(d.pairs[k])} {vals[k, j]:.4f}" for k in near)
        return head + "\n\n" + e.text()

    def _moved(self, pos) -> None:
        p = view_pos(self.plot, pos)
        if p is None or self.data is None:
            return
        hit = self.point_at(p.x(), p.y())
        if hit is not None:
            tip(self.plot, self.point_tip(*hit))


def _letter(j: int) -> str:
    """A, B, … Z, AA, AB, …: a column's name when its sense label is too wide for it."""
    return (_letter(j // 26 - 1) if j >= 26 else "") + chr(65 + j % 26)


class ConfusionPanel(Panel):
    """Expected confusion of a pair within a lexelt at a chosen level; a click lists the cell's instances."""

    selection_changed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__("confusion", "Which senses get confused", parent)
        self.pair_box, self.lexelt_box, self.level_box = QComboBox(), QComboBox(), QComboBox()
        for box, name in ((self.pair_box, "pair"), (self.lexelt_box, "lexelt"), (self.level_box, "level")):
            box.setObjectName(f"confusion_{name}")
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(6)
            self.controls.addWidget(box, 1)
            box.currentIndexChanged.connect(lambda _=0: self._changed())
        self.plot, self.image = matrix_plot(self)
        self.texts = TextPool(self.plot)
        self.plot.getPlotItem().getViewBox().sigResized.connect(lambda *_: self._place_texts())
        self.cf: Any = None
        self.lettered = False  # columns named A, B, C… (their sense labels do not fit)
        self._filling = False
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        self.plot.scene().sigMouseMoved.connect(self._moved)
        self.plot.getPlotItem().getViewBox().sigResized.connect(lambda *_: self._set_column_labels())
        self.why = QLabel()  # why this pair and lexelt were opened (the dashboard chose them)
        self.why.setObjectName("confusion_why")
        self.why.setWordWrap(True)
        self.why.hide()
        self.body.insertWidget(self.body.count() - 1, self.why)

    def fill_choices(self, set_names: list[str], pairs: list[tuple[int, int]], lexelts: list[str],
                     levels: list[tuple[str, int | None]]) -> None:
        """Selector contents (once per project): pairs of set indices, lexelt names, tree levels."""
        self._filling = True
        for box in (self.pair_box, self.lexelt_box, self.level_box):
            box.clear()
        for a, b in pairs:
            self.pair_box.addItem(f"{set_names[a]} × {set_names[b]}", (a, b))
        for x, name in enumerate(lexelts):
            self.lexelt_box.addItem(name, x)
        for text, depth in levels:
            self.level_box.addItem(text, depth)
        self.level_box.setCurrentIndex(self.level_box.count() - 1)
        self._filling = False

    def choice(self) -> dict[str, Any]:
        """The options the dashboard computes the matrix for."""
        return {"confusion_pair": self.pair_box.currentData(), "confusion_lexelt": self.lexelt_box.currentData(),
                "confusion_depth": self.level_box.currentData()}

    def show_choice(self, cf: Any, pair: tuple[int, int] | None) -> None:
        self._filling = True
        if pair is not None and self.pair_box.findData(pair) < 0:  # a crowd's box lists the most shared pairs
            self.pair_box.insertItem(0, f"{cf.a} × {cf.b}", pair)
        for box, val in ((self.pair_box, pair), (self.lexelt_box, cf.x), (self.level_box, cf.depth)):
            k = box.findData(val)
            if k >= 0:
                box.setCurrentIndex(k)
        self._filling = False
        why = getattr(cf, "why", "")
        self.why.setText(f"<small>{why}</small>" if why else "")
        self.why.setVisible(bool(why))

    def _changed(self) -> None:
        if not self._filling:
            self.selection_changed.emit()

    def update_data(self, cf: Any) -> None:
        # more than MAX_SENSES senses (make.v: 49): the most used and one "N others" row and column,
        # so that every label is written (a 49-row axis dropped most of them)
        self.cf = cf = cf.summed(MAX_SENSES) if cf is not None else None
        if cf is None or not len(cf.labels) or not (cf.matrix > 0).any():
            self.image.clear()
            self.texts.hide_from(0)
            self.set_explain("No annotator pair to compare." if cf is None else cf.explain.text())
            self.set_empty("No pair of sets to compare on the instances in view" if cf is None else
                           f"{cf.a} and {cf.b} answered no instance of {cf.lexelt} together")
            return
        self.set_empty(None)
        G = len(cf.labels)
        top = max(float(cf.matrix.max()) if G else 0.0, 1e-9)
        vals = np.where(cf.matrix > 0, cf.matrix / top, np.nan) if G else np.zeros((0, 0))
        self.image.setLookupTable(scale_lut(0.0, 1.0))
        self.image.setImage(vals.astype(float), levels=(0.0, 1.0), autoLevels=False)
        self._place_texts()
        self._set_column_labels()  # "make#3" with its lemma, as everywhere; the gloss on hover
        self.plot.getAxis("left").setLabel(cf.a)
        self.plot.getAxis("bottom").setLabel(cf.b)
        self.plot.setXRange(0, max(G, 1), padding=0)
        self.plot.setYRange(0, max(G, 1), padding=0)
        self.set_explain(cf.explain.text() + "\n\nClick a cell: list the instances behind it.")

    def _place_texts(self) -> None:
        """Each cell's count in the cell, when every count fits its cell ("192156" ran together in a
        1024 px window); else none, and a hover gives them."""
        cf = self.cf
        if cf is None or not len(cf.labels) or not (cf.matrix > 0).any():
            self.texts.hide_from(0)
            return
        G = len(cf.labels)
        top = max(float(cf.matrix.max()), 1e-9)
        labels = {(r, c): f"{float(cf.matrix[r, c]):.2f}".rstrip("0").rstrip(".")
                  for r, c in zip(*np.nonzero(cf.matrix > 0))}
        vb = self.plot.getPlotItem().getViewBox()
        fm = QFontMetrics(self.plot.font())
        if vb.width() > 10 and max(fm.horizontalAdvance(t) for t in labels.values()) + 4 > vb.width() / G:
            self.texts.hide_from(0)
            return
        k = 0
        for (r, c), label in labels.items():
            v = float(cf.matrix[r, c])
            self.texts.place(k, c + 0.5, r + 0.5, label, text_color_on(scale_color(v / top, 0.0, 1.0)))
            k += 1
        self.texts.hide_from(k)

    def _set_column_labels(self) -> None:
        """Every sense labelled on both axes.  The x axis has less room per label than the y axis: when
        ``lemma#N`` does not fit its column the columns are lettered A, B, C… and each row label ends
        with its letter (``make#3 (C)``); the gloss of each is on hover."""
        cf = self.cf
        if cf is None or not len(cf.labels):
            return
        labels = list(cf.labels)
        fm = QFontMetrics(self.plot.font())
        col = max(self.plot.getPlotItem().getViewBox().width(), 100.0) / len(labels)
        self.lettered = max(fm.horizontalAdvance(t) for t in labels) + 8 > col
        rows = [f"{t} ({_letter(j)})" for j, t in enumerate(labels)] if self.lettered else labels
        cols = [_letter(j) for j in range(len(labels))] if self.lettered else labels
        self.plot.getAxis("left").setTicks([[(j + 0.5, t) for j, t in enumerate(rows)], []])
        self.plot.getAxis("bottom").setTicks([[(j + 0.5, t) for j, t in enumerate(cols)], []])

    def axis_labels(self, side: str) -> list[tuple[float, str]]:
        """What the ``"left"`` or ``"bottom"`` axis writes: (row or column centre, label)."""
        return list(self.plot.getAxis(side)._tickLevels[0])

    def cell_at(self, scene_pos) -> tuple[int, int] | None:
        p = view_pos(self.plot, scene_pos)
        if p is None or self.cf is None:
            return None
        r, c = int(np.floor(p.y())), int(np.floor(p.x()))
        G = len(self.cf.labels)
        return (r, c) if 0 <= r < G and 0 <= c < G else None

    def cell_text(self, r: int, c: int) -> str:
        cf = self.cf
        return (f"{cf.a}: {cf.labels[r]} — {cf.glosses[r]}\n{cf.b}: {cf.labels[c]} — {cf.glosses[c]}\n"
                f"expected count {cf.matrix[r, c]:.3f} over {cf.cell_instances(r, c).size} instance(s)")

    def _clicked(self, ev) -> None:
        if ev.button() == Qt.MouseButton.LeftButton and (cell := self.cell_at(ev.scenePos())) is not None:
            r, c = cell
            self.instances_requested.emit(
                f"{self.cf.lexelt}: {self.cf.a} {self.cf.labels[r]} × {self.cf.b} {self.cf.labels[c]}",
                self.cf.cell_instances(r, c))

    def _moved(self, pos) -> None:
        if (cell := self.cell_at(pos)) is not None:
            tip(self.plot, self.cell_text(*cell))
        elif self.cf is not None and (k := self.label_at(pos)) is not None:
            tip(self.plot, self.label_text(*k))

    def label_at(self, scene_pos) -> tuple[str, int] | None:
        """``("row" | "column", index)`` of the sense label under the pointer, on either axis."""
        p = self.plot.getPlotItem().getViewBox().mapSceneToView(scene_pos)
        G = len(self.cf.labels)
        for side, coord in (("left", p.y()), ("bottom", p.x())):
            if self.plot.getAxis(side).sceneBoundingRect().contains(scene_pos) and 0 <= coord < G:
                return ("row" if side == "left" else "column", int(coord))
        return None

    def label_text(self, which: str, k: int) -> str:
        """A sense label's hover text: its set, ``lemma#N`` and gloss (the axis writes lemma#N only)."""
        cf = self.cf
        return f"{cf.a if which == 'row' else cf.b}: {cf.labels[k]} — {cf.glosses[k]}"


__all__ = ["PAIR_COLORS", "ConfusionPanel", "DepthPanel", "LexeltPanel"]


def _why_no_level(d) -> str:
    """Why a depth curve whose group shares instances has no figure at any level, in agree's words."""
    if d.measure == "alpha":
        return (f"on the {max(d.group_n)} pairable values: expected disagreement D_e is 0 at every level "
                "(a single category in use), alpha is 0/0")
    return (f"on the {max(d.group_n)} instances annotated twice or more: chance agreement Pr(E) is 1 at "
            "every level (a single category in use), kappa is 0/0")

