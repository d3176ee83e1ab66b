"""The pairwise heat map of the dashboard: one image whatever the number of sets, ordered, focusable."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit

from hieradjudicate.core.inventory.labels import elide
from hieradjudicate.core.palette import scale_color, text_color_on
from hieradjudicate.core.seriation import cluster_order, mean_order
from hieradjudicate.gui.dashboard.common import (
    Panel,
    TextPool,
    fmt,
    matrix_plot,
    none_in_view,
    scale_lut,
    theme,
    tip,
    view_pos,
)

ORDERS = (("Order: clustered", "cluster"), ("Order: mean agreement", "mean"), ("Order: as loaded", "loaded"))
SHOW = (("All sets", 0), ("Top 30", 30), ("Top 60", 60), ("Top 100", 100))
TEXT_MAX = 30  # cell text only where it fits


class HeatmapPanel(Panel):
    """Pairwise agreement of all sets as one image; cell text only for a few sets.

    The sets are ordered so that structure shows (average-linkage clustering,
    or mean agreement) and can be narrowed to a subset: a name filter and a
    top-N by mean agreement.  The number of plot items never depends on the
    number of pairs: one image, and text items for at most ``TEXT_MAX``² cells.
    """

    cell_clicked = Signal(int, int)  # positions in Heatmap.names

    def __init__(self, parent=None) -> None:
        super().__init__("heatmap", "Pairwise agreement", parent)
        self.order_box, self.show_box = QComboBox(), QComboBox()
        self.order_box.setObjectName("heatmap_order")
        self.show_box.setObjectName("heatmap_top")
        for box, items in ((self.order_box, ORDERS), (self.show_box, SHOW)):
            for text, val in items:
                box.addItem(text, val)
            box.currentIndexChanged.connect(lambda _=0: self._redraw())
        self.show_box.setToolTip("Show only the sets with the highest mean agreement")
        self.filter = QLineEdit(placeholderText="sets…")
        self.filter.setObjectName("heatmap_filter")
        self.filter.setToolTip("Show only sets whose name holds this text (several: separate by spaces)")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(lambda _=0: self._redraw())
        self.controls.addWidget(self.order_box, 1)
        self.controls.addWidget(self.show_box, 1)
        self.controls.addWidget(self.filter, 1)
        self.plot, self.image = matrix_plot(self)
        self.image.setLookupTable(scale_lut())
        self.texts = TextPool(self.plot)
        self.hover = QLabel()
        self.hover.setObjectName("heatmap_hover")
        self.hover.setWordWrap(True)
        self.hover.setStyleSheet("color: gray")
        self.body.addWidget(self.hover)
        # "rests on too few instances": said under the map, as the per-lexelt panel does
        self.thin = QLabel()
        self.thin.setObjectName("heatmap_thin")
        self.thin.setWordWrap(True)
        self.thin.setTextFormat(Qt.TextFormat.RichText)
        self.thin.hide()
        self.body.addWidget(self.thin)
        self.hm: Any = None
        self._none = ""
        self.shown = np.zeros(0, np.int64)  # positions in hm.names, in display order
        self._orders: dict[str, np.ndarray] = {}
        self._hovered: tuple[int, int] | None = None
        self._tick_names: list[str] = []
        self.plot.getPlotItem().getViewBox().sigResized.connect(lambda *_: self._set_ticks())
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        self.plot.scene().sigMouseMoved.connect(self._moved)

    def update_data(self, data: Any) -> None:
        self.hm = data.heatmap
        self._none = none_in_view(data)
        self._orders = {}
        note = self.hm.thin_note
        self.thin.setText(f"<small><b>{note[0].upper() + note[1:]}.</b></small>" if note else "")
        self.thin.setVisible(bool(note))
        self._redraw()
        self.set_explain(self.hm.explain.text() + (f"\n\n{note[0].upper() + note[1:]}." if note else "")
                         + "\n\nClick a cell: show the pair's disagreements in the "
                         "workbench. Hover a cell: its figures below the map.")

    def order(self, how: str) -> np.ndarray:
        """Display order of every set (cached per data)."""
        if how not in self._orders:
            v = self.hm.value
            m = len(self.hm.names)
            self._orders[how] = (cluster_order(v) if how == "cluster" else mean_order(v) if how == "mean"
                                 else np.arange(m))
        return self._orders[how]

    def visible_sets(self) -> np.ndarray:
        """Positions in ``hm.names`` shown, in display order: filter, then top-N by mean agreement."""
        hm = self.hm
        order = self.order(str(self.order_box.currentData()))
        words = self.filter.text().lower().split()
        if words:
            keep = np.array([any(w in hm.names[j].lower() for w in words) for j in order], dtype=bool)
            order = order[keep]
        top = int(self.show_box.currentData() or 0)
        if top and order.size > top:
            rank = np.empty(len(hm.names), np.int64)
            rank[mean_order(hm.value)] = np.arange(len(hm.names))
            best = order[np.argsort(rank[order], kind="stable")[:top]]
            order = order[np.isin(order, best)]  # keep the display order among the best
        return order

    def _redraw(self) -> None:
        hm = self.hm
        if hm is None:
            return
        idx = self.shown = self.visible_sets()
        m = idx.size
        values = np.ma.filled(np.ma.asarray(hm.value, float), np.nan).astype(float)[np.ix_(idx, idx)]
        why = self.why_empty(values)
        self.set_empty(why or None)
        if m and not why:
            self.image.setImage(values, levels=(-1.0, 1.0), autoLevels=False)
            self.image.setRect(0, 0, m, m)
        else:
            self.image.clear()
        names = [hm.names[j] for j in idx.tolist()]
        k = 0
        if m <= TEXT_MAX and not why:
            t = theme()
            n = hm.n[np.ix_(idx, idx)]
            for r in range(m):
                for c in range(m):
                    if r == c:
                        self.texts.place(k, c + 0.5, r + 0.5, elide(names[r], 8), t["muted"])
                    else:
                        v = None if np.isnan(values[r, c]) else float(values[r, c])
                        text = f"{fmt(v, 2)}\nn={int(n[r, c])}" if m <= 12 else fmt(v, 2)
                        self.texts.place(k, c + 0.5, r + 0.5, text, text_color_on(scale_color(v)))
                    k += 1
        self.texts.hide_from(k)
        self._tick_names = names
        self._set_ticks()
        self.plot.setXRange(0, max(m, 1), padding=0)
        self.plot.setYRange(0, max(m, 1), padding=0)
        total = len(hm.names)
        # an empty map says why in its middle; a count under it ("1 of 1 sets shown") only repeated it
        self.hover.setText("" if why else f"{m} of {total} sets shown" + ("" if m <= TEXT_MAX else
                                                                         "; hover a cell for its value"))

    def why_empty(self, values: np.ndarray) -> str:
        """Why the map of the sets shown has no figure to draw ("" when it has one)."""
        m = values.shape[0]
        if m == 0:
            return "No set shown: clear the sets box or choose All sets"
        if self._none:
            return self._none
        if m == 1:
            return "One set shown: a pair needs two" + (" (clear the sets box)" if len(self.hm.names) > 1 else "")
        if not np.isfinite(values[~np.eye(m, dtype=bool)]).any():
            return self._all_undefined()
        return ""

    def _all_undefined(self) -> str:
        """Why no pair shown has a figure: none shares an instance, or (as ``hieradjudicate agree``
        says of them) the figure is undefined on what they share, with the reason and how many."""
        hm, idx = self.hm, self.shown
        n = np.asarray(hm.n)[np.ix_(idx, idx)]
        if not n[~np.eye(idx.size, dtype=bool)].any():
            return "No pair of these sets answered an instance in common"
        pairs = [(int(a), int(b)) for a, b in zip(*np.triu_indices(idx.size, 1)) if n[a, b]]
        why = sorted({hm.reasons.get((min(int(idx[a]), int(idx[b])), max(int(idx[a]), int(idx[b]))), "")
                      for a, b in pairs} - {""})
        shared = int(max(n[a, b] for a, b in pairs))
        return (f"Undefined for {'every pair' if len(pairs) > 1 else 'the pair'} shown, as "
                f"'hieradjudicate agree' says: {'; '.join(why) or 'no defined figure'} "
                f"(the sets share {'up to ' if len(pairs) > 1 else ''}{shared} instances)")

    def _set_ticks(self) -> None:
        """Set names on both axes, every k-th so that labels never overprint (again on resize)."""
        names = self._tick_names
        vb = self.plot.getPlotItem().getViewBox()
        room = min(vb.width(), vb.height()) if vb.width() > 10 else 300.0  # pixels for the rows
        stride = max(1, int(np.ceil(len(names) * 16 / room)))  # at most one label per 16 px
        # side by side on the bottom axis a label needs its own width and a gap ("162156150" ran together)
        shown = [elide(s, 10) for s in names]
        fm = QFontMetrics(self.plot.getAxis("bottom").style.get("tickFont") or self.plot.font())
        wide = max((fm.horizontalAdvance(s) for s in shown), default=0) + fm.horizontalAdvance("  ")
        across = max(stride, int(np.ceil(len(names) * wide / (vb.width() if vb.width() > 10 else 300.0))))
        # every k-th from the first row whose label clears the map's edge: the top "1" was drawn half
        # above the axis (cut), the first column's name dropped
        m = max(len(names), 1)
        for ax, k, px, half in (("bottom", across, vb.width(), wide / 2), ("left", stride, vb.height(),
                                                                          fm.height() / 2 + 1)):
            step = (px if px > 10 else 300.0) / m  # pixels per row (column)
            first = min(int(np.ceil(max(half / step - 0.5, 0.0))), max(len(names) - 1, 0))
            self.plot.getAxis(ax).setTicks([[(j + 0.5, s) for j, s in enumerate(shown)
                                             if j >= first and (j - first) % k == 0], []])

    def cell_at(self, scene_pos) -> tuple[int, int] | None:
        """The cell under a scene position as positions in ``hm.names`` (row set, column set)."""
        p = view_pos(self.plot, scene_pos)
        if p is None or self.hm is None:
            return None
        r, c = int(np.floor(p.y())), int(np.floor(p.x()))
        m = self.shown.size
        return (int(self.shown[r]), int(self.shown[c])) if 0 <= r < m and 0 <= c < m else None

    def cell_text(self, a: int, b: int) -> str:
        hm = self.hm
        v = hm.value[a, b]
        head = (f"{hm.names[a]} × {hm.names[b]}: {fmt(None if np.ma.is_masked(v) or np.isnan(v) else float(v))}"
                f", n={int(hm.n[a, b])}")
        reason = hm.reasons.get((min(a, b), max(a, b)))
        po, pe = hm.observed[a, b], hm.expected[a, b]
        if hm.measure != "alpha" and not (np.ma.is_masked(po) or np.ma.is_masked(pe) or np.isnan(po) or np.isnan(pe)):
            head += f" (Pr(A) {fmt(float(po))}, Pr(E) {fmt(float(pe))}, as 'hieradjudicate agree' lists them)"
            if abs(float(po) - float(pe)) < 1e-9 and not hm.pair_counts(a, b)[1:].any():
                head += (". The two answer alike on every shared instance, yet agree no more than chance: "
                         "where a lexelt has one tag in use its chance agreement is 1 (it adds nothing), and "
                         "an instance given several tags is spread over them, so that two identical answers "
                         "{X, Y} agree 1/2, as chance does")
        thin = hm.pair_thin(a, b) if hm.pair_thin is not None else ""
        return head + (f" ({reason})" if reason else "") + (f". {thin[0].upper() + thin[1:]}." if thin else "")

    def _thin_tail(self, cell: tuple[int, int]) -> str:
        f = self.hm.pair_thin
        thin = f(*cell) if f is not None else ""
        return f"\n\n{thin[0].upper() + thin[1:]}." if thin else ""

    def _clicked(self, ev) -> None:
        if ev.button() != Qt.MouseButton.LeftButton:
            return
        cell = self.cell_at(ev.scenePos())
        if cell is not None and cell[0] != cell[1]:
            self.cell_clicked.emit(*cell)

    def _moved(self, pos) -> None:
        cell = self.cell_at(pos)
        if cell is None or self.hm is None or cell[0] == cell[1] or cell == self._hovered:
            return
        self._hovered = cell
        self.hover.setText(self.cell_text(*cell))
        e = self.hm.cell_explain.get((min(cell), max(cell)))
        tip(self.plot, e.text() + self._thin_tail(cell) if e is not None else self.cell_text(*cell))
        if e is not None:  # the explain panel follows the cell under the mouse
            self.explain_requested.emit(f"{self.title}: {self.hm.names[cell[0]]} × {self.hm.names[cell[1]]}",
                                        e.text())
