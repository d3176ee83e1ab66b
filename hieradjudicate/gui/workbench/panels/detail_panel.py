"""Instance detail: context with the head word, each set's answer, the leaf-level breakdown."""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QSizePolicy,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate.app.workbench.instance_answers import MAX_BARS, top_leaves
from hieradjudicate.app.workbench.queue import ROLE_SHORT, Answer, Workbench
from hieradjudicate.core.inventory.labels import (
    gloss_words,
    node_short_labels,
    tooltip,
    without_rank,
)
from hieradjudicate.core.tags_only import tags_only
from hieradjudicate.gui.colors import GOLD, HELD, HELD_TIP, head_color, is_dark, set_color
from hieradjudicate.gui.opaque import paint_alone
from hieradjudicate.gui.workbench.panels.crowd_detail import VoteModel, VoteTable, gold_mark, groups_html
from hieradjudicate.gui.workbench.fill_width import FillWidth, least_in_sight
from hieradjudicate.gui.workbench.suggestion_text import suggestion_html

_Index = QModelIndex | QPersistentModelIndex
ProbabilityRole = Qt.ItemDataRole.UserRole + 20
GoldRole = Qt.ItemDataRole.UserRole + 21


def set_html(view: QTextBrowser, text: str) -> None:
    """``view.setHtml(text)``, laid out once: nothing when the view already shows ``text`` (a decision's
    refresh of the same instance), and a vertical scroll bar that shows stays during the change -- the
    old text cleared hid it and the new one brought it back, laying the new text out at two widths."""
    doc = view.document()
    if view.__dict__.get("_shown") == (text, doc, doc.revision()):
        return
    bar = view.verticalScrollBar()
    pin = bar.isVisible() and view.verticalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAsNeeded
    if pin:
        view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
    view.setHtml(text)
    if pin:
        view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)  # gone if the text fits
    doc = view.document()
    view.__dict__["_shown"] = (text, doc, doc.revision())


class TextHeight(QWidget):
    """Holds a word-wrapped ``label`` at the height its text takes at this width, as a vertical box
    layout gives it: a new text of the same height lays nothing out again (a label's ``setText`` has
    the whole window laid out again, ~3 ms of a step to the next MASC instance); a text of another
    height, or another width, lays the window out as the label itself did."""

    def __init__(self, label: QLabel, parent=None) -> None:
        super().__init__(parent)
        self.label = label
        label.setParent(self)  # no layout here: the label's size requests come to :meth:`event`
        self.setSizePolicy(label.sizePolicy().horizontalPolicy(), QSizePolicy.Policy.Fixed)
        self._fit()

    def _fit(self) -> None:
        h = max(0, self.label.heightForWidth(self.width()))
        if self.minimumHeight() != h or self.maximumHeight() != h:
            self.setFixedHeight(h)
        self.label.setGeometry(0, 0, self.width(), h)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(self.label.sizeHint().width(), self.minimumHeight())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(self.label.minimumSizeHint().width(), self.minimumHeight())

    def event(self, ev: QEvent) -> bool:
        if ev.type() in (QEvent.Type.LayoutRequest, QEvent.Type.Resize, QEvent.Type.Show):
            self._fit()  # a new text (or font), a new width
        return super().event(ev)


def _with_gloss(short: str, key: str, gloss: str) -> str:
    """A sense row's label: the short label and the first words of its gloss (when it says more)."""
    if not gloss or gloss == key:  # tree tables often repeat the id as the label
        return short
    return f"{short}  {gloss_words(gloss, 24)}"


class LeafModel(QAbstractTableModel):
    """Senses of the lexelt in tree order (leaves indented) × sets; cells = probability mass."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.labels: list[str] = []
        self.glosses: list[str] = []
        self.depth = np.zeros(0, np.int64)
        self.is_leaf = np.zeros(0, bool)
        self.mass = np.zeros((0, 0))  # (rows, sets)
        self.gold = np.zeros(0, bool)
        #: the marked senses are the tags a flag holds (not a gold decision until unflagged)
        self.held = False
        self.set_names: list[str] = []
        self.role_marks: list[str] = []  # " (system)", " (reference gold)"; "" for an annotator
        self._shade: dict[tuple[int, int], QBrush] = {}
        self._gold_brush = QBrush(QColor(GOLD))
        self._italic = QFont()
        self._italic.setItalic(True)

    def update(self, wb: Workbench, i: int, answers: list[Answer], gold: np.ndarray) -> None:
        inv = wb.corpus.inventory
        x = int(wb.cols.lexelt[i])
        nodes = inv.lexelt_nodes[x]
        nl = int(inv.n_leaves[x])
        self.beginResetModel()
        short = node_short_labels(inv)
        self.labels = [_with_gloss(short[int(n)], inv.node_id[int(n)], inv.node_gloss[int(n)]) for n in nodes]
        self.glosses = [tooltip(inv.label(int(n)), inv.node_gloss[int(n)]) for n in nodes]
        self.depth = inv.node_depth[nodes] - 1
        self.is_leaf = inv.node_is_leaf[nodes]
        # mass of a node = sum over its leaves: D-matrix support rows of each node
        below = np.zeros((nodes.size, nl))
        for r, n in enumerate(nodes.tolist()):
            below[r, inv.d_leaf[inv.d_ptr[n]:inv.d_ptr[n + 1]]] = 1.0
        P = np.stack([a.leaves for a in answers], axis=1) if answers else np.zeros((nl, 0))
        self.mass = below @ P
        self.gold = (below @ gold.astype(float) > 0) & self.is_leaf if gold.size else np.zeros(nodes.size, bool)
        self.set_names = [a.name for a in answers]
        self.role_marks = ["" if a.role == "annotator" else f" ({ROLE_SHORT.get(a.role, a.role)})" for a in answers]
        self.endResetModel()

    def clear(self) -> None:
        self.beginResetModel()
        self.labels, self.glosses, self.set_names, self.role_marks = [], [], [], []
        self.depth, self.is_leaf = np.zeros(0, np.int64), np.zeros(0, bool)
        self.mass, self.gold = np.zeros((0, 0)), np.zeros(0, bool)
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.labels)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.set_names) + 2

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            n = len(self.set_names)
            if section == 0:
                return getattr(self, "first_head", "Sense")  # "Tag" in a project without an inventory
            if 1 <= section <= n:
                name = self.set_names[section - 1] + self.role_marks[section - 1]
                return f"[{section}] {name}" if section <= 9 else name  # never "1 1": ids are often numbers
            if section == n + 1:
                return "Gold"
            return None
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self.labels):
            return None
        r, c = index.row(), index.column()
        n = len(self.set_names)
        if c == 0:
            if role == Qt.ItemDataRole.DisplayRole:
                return "    " * int(self.depth[r]) + self.labels[r]
            if role == Qt.ItemDataRole.ToolTipRole:
                return self.glosses[r]
            if role == Qt.ItemDataRole.FontRole and not self.is_leaf[r]:
                return self._italic
            if role == GoldRole:
                return bool(self.gold[r])
            return None
        if c == n + 1:
            if role == Qt.ItemDataRole.DisplayRole:
                return gold_mark(self.held) if self.gold[r] else ""
            if role == Qt.ItemDataRole.ToolTipRole and self.gold[r] and self.held:
                return HELD_TIP
            if role == GoldRole:
                return bool(self.gold[r])
            if role == Qt.ItemDataRole.ForegroundRole and self.gold[r]:
                return QBrush(QColor(HELD)) if self.held else self._gold_brush
            return None
        if not 1 <= c <= n:
            return None
        p = float(self.mass[r, c - 1])
        if role == Qt.ItemDataRole.DisplayRole:
            return "" if p <= 0 else f"{p:.2f}"
        if role == ProbabilityRole:
            return p
        if role == Qt.ItemDataRole.BackgroundRole and p > 0:
            key = (c - 1, int(round(p * 10)))
            if key not in self._shade:
                col = QColor(set_color(c - 1))
                col.setAlphaF(0.12 + 0.6 * key[1] / 10)
                self._shade[key] = QBrush(col)
            return self._shade[key]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and not self.is_leaf[r]:
            return self._italic
        return None


class LeafChart(pg.PlotWidget):
    """Horizontal grouped bars: probability of each leaf under each set, one row per leaf with its
    ``lemma#N`` label beside it; the gold leaves framed.

    Every row shown is labelled whatever the chart's width (#23: a narrow chart wrote every fourth
    label): the chart shows as many rows as fit its height at :data:`ROW_PX`, the largest leaves,
    and sums the rest into one "N others" row.  Bar items are created once per set and updated
    with ``setOpts``.
    """

    ROW_PX = 4  # pixels between two rows beyond the font's height

    def __init__(self, parent=None) -> None:
        super().__init__(parent, background=None)
        self.setMinimumHeight(120)
        self.getPlotItem().setMenuEnabled(False)
        self.getPlotItem().hideButtons()
        self.setMouseEnabled(False, False)
        self.getPlotItem().getViewBox().invertY(True)  # the first leaf on top, as in the table
        self.setXRange(0, 1.05, padding=0)
        self.getAxis("bottom").setTicks([[(v, f"{v:g}") for v in (0, 0.5, 1.0)], [(v, "") for v in (0.25, 0.75)]])
        self.bars: list[pg.BarGraphItem] = []
        self.held = False  # the framed senses are a flag's held tags, not gold
        self.gold_bars = pg.BarGraphItem(x0=[], y=[], width=1.0, height=0.92, brush=None,
                                         pen=pg.mkPen(GOLD, width=2, style=Qt.PenStyle.DashLine))
        self.addItem(self.gold_bars)
        self.empty_text = pg.TextItem("", color="gray", anchor=(0.5, 0.5))
        self.addItem(self.empty_text)
        self.tick_labels: list[str] = []
        self.tick_tips: list[str] = []
        self.shown_leaves = np.zeros(0, np.int64)
        self.values = np.zeros((0, 0))  # (rows shown, sets): the bars' lengths
        self._data: tuple | None = None
        #: what each item was last set to draw (see _draw): an item is set again only when it changes
        self._drawn: dict = {}
        self._rows = 0
        self.scene().sigMouseMoved.connect(self._hover)

    def _hover(self, scene_pos) -> None:
        """The sense under the pointer: its full id and gloss (the axis shows lemma#N only)."""
        vb = self.getPlotItem().getViewBox()
        inside = self.getPlotItem().sceneBoundingRect().contains(scene_pos)  # the bars and their labels
        k = int(round(vb.mapSceneToView(scene_pos).y())) if inside else -1
        self.setToolTip(self.tick_tips[k] if 0 <= k < len(self.tick_tips) else "")

    def ensure_sets(self, names: list[str]) -> None:
        if len(self.bars) == len(names):
            return
        for b in self.bars:
            self.removeItem(b)
        self.bars = []
        self._drawn.clear()  # new items: none has drawn anything yet
        for k in range(len(names)):
            b = pg.BarGraphItem(x0=[], y=[], width=[], height=0.1, brush=set_color(k), pen=None)
            self.addItem(b)
            self.bars.append(b)

    @staticmethod
    def legend_html(names: list[str], numbered: bool = True, held: bool = False) -> str:
        """Colour key of the bars (a label above the plot: never covers a bar); the frame is the gold,
        or under a flag the tags it holds (``held``), which are no gold decision."""
        keys = [f"<span style='color:{set_color(k).name()}; font-size:14pt'>■</span>&nbsp;"
                + (f"[{k + 1}]&nbsp;" if numbered else "") + html.escape(name) for k, name in enumerate(names)]
        frame = (f"<span style='color:{HELD}'>┈ held under the flag (not gold)</span>" if held
                 else f"<span style='color:{GOLD}'>┅ gold</span>")
        return "&nbsp;&nbsp; ".join(keys) + "&nbsp;&nbsp; " + frame

    def rows_fit(self) -> int:
        """How many rows the plot's height holds with every label readable (at least three)."""
        vb = self.getPlotItem().getViewBox()
        height = vb.height() if vb.height() > 20 else self.height() - 40
        return max(3, int(height // (QFontMetrics(self.font()).height() + self.ROW_PX)))

    def show_data(self, labels: list[str], P: np.ndarray, gold: np.ndarray, tips: list[str] | None = None,
                  held: bool = False) -> None:
        """``P`` (leaves, sets), one column per bar item.  More leaves than rows fit (``make.v``: 49):
        the largest (gold first) and one row summing the rest, so every row is labelled.  ``held``:
        ``gold`` is what a flag holds, framed apart (dotted, grey), not as gold."""
        if held != self.held:
            self.held = held
            self.gold_bars.setOpts(pen=pg.mkPen(HELD, width=2, style=Qt.PenStyle.DotLine) if held
                                   else pg.mkPen(GOLD, width=2, style=Qt.PenStyle.DashLine))
        self._data = (list(labels), P, gold, tips)
        self._draw()

    def _draw(self) -> None:
        labels, P, gold, tips = self._data
        P = np.nan_to_num(np.asarray(P, dtype=float))
        gold = np.asarray(gold, dtype=bool)
        self._rows = self.rows_fit()
        keep, rest = top_leaves(P, gold, min(MAX_BARS, self._rows))
        shown = [labels[j] for j in keep.tolist()]
        tips = [tips[j] for j in keep.tolist()] if tips is not None else list(shown)
        shown_gold = gold[keep] if gold.size else np.zeros(keep.size, bool)
        P_shown = P[keep]
        if rest.size:
            P_shown = np.vstack([P_shown, P[rest].sum(axis=0, keepdims=True)])
            shown.append(f"{rest.size} others")
            tips.append(f"the sum of the other {rest.size} senses")
            shown_gold = np.append(shown_gold, bool(gold[rest].any()) if gold.size else False)
        self.shown_leaves = keep
        self.tick_tips = tips
        nl, m = P_shown.shape
        m = min(m, len(self.bars))
        self.values = P_shown[:, :m]
        h = 0.8 / max(m, 1)
        ys = np.arange(nl, dtype=float)
        # each item set again only when what it draws changes (the next instance of a word often
        # keeps the gold frame, an empty posterior or a set's bars): every setOpts redraws the item
        drawn = self._drawn

        def put(item, key, **opts) -> None:
            if drawn.get(id(item)) != key:
                drawn[id(item)] = key
                item.setOpts(**opts)

        for k, b in enumerate(self.bars[:m]):
            put(b, (nl, m, P_shown[:, k].tobytes()), x0=np.zeros(nl), y=ys - 0.4 + h * (k + 0.5),
                width=P_shown[:, k], height=h)
        for b in self.bars[m:]:  # emptied once, not at every instance
            put(b, (), x0=np.zeros(0), y=np.zeros(0), width=np.zeros(0))
        g = np.flatnonzero(shown_gold)
        put(self.gold_bars, (nl, g.tobytes()), x0=np.zeros(g.size), y=ys[g], width=np.ones(g.size), height=0.92)
        empty = not P_shown[:, :m].any() and not g.size
        text = "No answer to chart for this instance" if empty else ""
        if (text, nl) != drawn.get("empty"):
            drawn["empty"] = (text, nl)
            self.empty_text.setText(text)
            self.empty_text.setPos(0.5, max(nl - 1, 0) / 2)
        self.tick_labels = shown
        self._set_ticks()
        want = (-0.6, max(nl, 1) - 0.4)
        if tuple(self.getPlotItem().getViewBox().viewRange()[1]) != want:
            self.setYRange(*want, padding=0)

    def _set_ticks(self) -> None:
        """Every row's label beside it, elided in the middle only when wider than 45% of the chart."""
        fm = QFontMetrics(self.font())
        room = max(40, int(self.width() * 0.45))
        texts = [fm.elidedText(t, Qt.TextElideMode.ElideMiddle, room) for t in self.tick_labels]
        axis = self.getAxis("left")
        width = max([fm.horizontalAdvance(t) for t in texts], default=20) + 10
        if axis.fixedWidth != width:  # (re-lays out the plot)
            axis.setWidth(width)
        ticks = [[(float(j), t) for j, t in enumerate(texts)], []]
        if ticks != self.__dict__.get("_ticks"):  # the same labels (the next instance of a lexelt):
            self._ticks = ticks  # the axis keeps its drawing instead of laying the labels out anew
            axis.setTicks(ticks)

    def axis_labels(self) -> list[tuple[float, str]]:
        """The labels the left axis writes, with their rows (what a reader sees beside the bars)."""
        return list(self.getAxis("left")._tickLevels[0])

    def resizeEvent(self, ev) -> None:
        super().resizeEvent(ev)
        if self.__dict__.get("_data") is not None and self.rows_fit() != self._rows:
            self._draw()  # a taller chart holds more rows, a shorter one sums more into "others"
        elif "tick_labels" in self.__dict__:  # (resized once inside the base constructor already)
            self._set_ticks()


class DetailPanel(QWidget):
    """Context, answers, suggestion, leaf table and chart of one instance."""

    def __init__(self, wb: Workbench, parent=None) -> None:
        super().__init__(parent)
        self.wb = wb
        self.context = QTextBrowser()
        self.context.setObjectName("context")
        self.context.setOpenLinks(False)
        self.context.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.answers_view = QTextBrowser()
        self.answers_view.setObjectName("answers")
        self.answers_view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.suggestion = QLabel()
        self.suggestion.setObjectName("suggestion")
        self.suggestion.setWordWrap(True)
        # what changes at every instance paints its own background (nothing under it is painted again)
        paint_alone(self.suggestion, self.context.verticalScrollBar(), self.answers_view.verticalScrollBar())
        self.crowd = wb.crowd
        self.leaf_model = VoteModel(self) if self.crowd else LeafModel(self)
        flat = tags_only(wb.corpus.inventory)  # no inventory: every tag is its own sense, named a tag
        self.leaf_model.first_head = "Tag" if flat else "Sense"
        self.leaf_table = VoteTable() if self.crowd else QTableView()
        self.leaf_table.setObjectName("leaf_table")
        self.leaf_table.setModel(self.leaf_model)
        self.leaf_table.verticalHeader().hide()
        self.leaf_table.verticalHeader().setDefaultSectionSize(20)
        head = self.leaf_table.horizontalHeader()
        head.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # the sense column takes what the answer columns leave and elides its gloss: the columns of
        # the sets (or the votes) stay in view on a 1024 px screen
        head.setMinimumSectionSize(36)
        self.leaf_table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.leaf_table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.chart = LeafChart()
        names = [wb.corpus.sets[k].name for k in wb.shown_sets()][:8] if not self.crowd \
            else ["share of the votes", "competence posterior"]
        self.chart.ensure_sets(names)
        chart_box = QWidget()
        cl = QVBoxLayout(chart_box)
        cl.setContentsMargins(0, 0, 0, 0)
        key = self.chart_key = QLabel(LeafChart.legend_html(names, numbered=not self.crowd))
        self._key_names = names
        self._key_held = False  # the key as built: gold framed, no flag's held tags
        key.setObjectName("chart_legend")
        key.setWordWrap(True)
        what = "tag" if flat else "leaf sense"
        cl.addWidget(QLabel(f"<b>Votes for each {what}</b>" if self.crowd
                            else f"<b>Probability of each {what}</b>"))
        cl.addWidget(key)
        cl.addWidget(self.chart, 1)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.context, 2)
        ll.addWidget(TextHeight(self.suggestion))
        ll.addWidget(self.answers_view, 3)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.leaf_table)
        split.addWidget(chart_box)
        split.setSizes([330, 372, 280])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(split)
        self.instance = -1

    def show_instance(self, i: int) -> None:
        self.instance = i
        wb = self.wb
        gold = wb.gold_region(i)
        held = wb.cell("status", i) == "flagged" and bool(gold.any())  # a flag's tags are no gold decision
        self.leaf_model.held = held
        if held != self._key_held:  # the key changes only with a flag's held tags
            self._key_held = held
            self.chart_key.setText(LeafChart.legend_html(self._key_names, numbered=not self.crowd, held=held))
        set_html(self.context, self._context_html(i))
        self.suggestion.setText(suggestion_html(wb, i))
        inv = wb.corpus.inventory
        x = int(wb.cols.lexelt[i])
        leaves = inv.lexelt_leaf_nodes[x]
        short = node_short_labels(inv)
        labels = [short[int(n)] for n in leaves]
        tips = [tooltip(inv.label(int(n)), inv.node_gloss[int(n)]) for n in leaves]
        if self.crowd:  # the sets that answered this instance, grouped by answer
            groups = wb.answer_groups(i)
            lv = wb.leaf_votes(i, groups)
            set_html(self.answers_view, groups_html(groups, lv.voters, wb.competence is not None))
            self.leaf_model.update(wb, i, lv, gold)
            P = np.stack([lv.share, np.nan_to_num(lv.posterior)], axis=1)
        else:
            answers = wb.answers(i)
            shown = answers[:8]
            set_html(self.answers_view, self._answers_html(answers))
            self.leaf_model.update(wb, i, shown, gold)
            P = np.stack([a.leaves for a in shown], axis=1) if shown else np.zeros((leaves.size, 0))
        self.chart.show_data(labels, P, gold, tips, held=held)
        self._sense_column()

    def _sense_column(self) -> None:
        """The sense column takes what the answer columns leave, at least 120 px (it elides; drag it
        wider): a model reset forgets per-section modes, so this is set after every update."""
        head = self.leaf_table.horizontalHeader()
        if head.sectionResizeMode(0) != QHeaderView.ResizeMode.Interactive:  # (setting it again measured
            head.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)  # every column anew)
        # (#23: the table stopped short of a 1920 px window's edge; the set columns scrolled out of sight)
        if not hasattr(self, "_fill"):
            self._fill = FillWidth(self.leaf_table, lambda: 0, least_in_sight(self.leaf_table, lambda: 0, 120))
        self._fill.fit()

    def show_none(self, reason: str) -> None:
        """No instance (a search that finds nothing): empty panels that say why, not the last instance."""
        self.instance = -1
        set_html(self.context, f"<i>{html.escape(reason)}</i>")
        set_html(self.answers_view, "")
        self.suggestion.setText("")
        self.leaf_model.clear()
        self.chart.show_data([], np.zeros((0, 0)), np.zeros(0, bool))

    def _context_html(self, i: int) -> str:
        lex, inst = self.wb.key_of(i)
        c = self.wb.context(i)
        status = self.wb.cell('status', i)
        if status == "flagged" and self.wb.gold[i]:  # the decision under the flag: kept, not gold yet
            status = f"flagged; decided {self.wb.cell('gold', i)}, not gold until you unflag it (F)"
        title = f"<b>{html.escape(inst)}</b> <span style='color:gray'>({html.escape(lex)}, " \
                f"{html.escape(status)})</span><br>"
        note = str(self.wb.note[i])
        if note:
            title += ("<div style='background:#fff4c2; color:black; padding:2px'><b>Note:</b> "
                      + html.escape(note).replace("\n", "<br>") + "</div>")
        if c is None:
            return title + "<i>No context for this instance.</i>"
        if c.head is None:
            return title + f"<span style='font-size:12pt'>{html.escape(c.text)}</span>"
        a, b = c.head
        bg = head_color()
        fg = "white" if is_dark() else "black"
        return (title + "<span style='font-size:12pt'>" + html.escape(c.text[:a])
                + f"<b style='background:{bg}; color:{fg}'>&nbsp;{html.escape(c.text[a:b])}&nbsp;</b>"
                + html.escape(c.text[b:]) + "</span>")

    def _answers_html(self, answers: list[Answer]) -> str:
        rows = []
        for j, a in enumerate(answers[:9]):
            color = set_color(j).name()
            if not a.tags:
                body = "<i style='color:gray'>no answer</i>"
            else:
                parts = []
                for t, s, w, g in zip(a.tags, a.short or a.tags, a.weights, a.glosses):
                    wt = f" <span style='color:gray'>{w:.2f}</span>" if len(a.tags) > 1 else ""
                    key = f" <span style='color:gray'>({html.escape(t)})</span>" if s != t else ""
                    parts.append(f"<b>{html.escape(s)}</b>{wt} {html.escape(without_rank(g))}{key}")
                body = "<br>".join(parts)
            rows.append(f"<tr><td style='color:{color}'><b>{j + 1}</b></td>"
                        f"<td style='color:{color}'>{html.escape(a.name)}</td><td>{body}</td></tr>")
        more = f"<p>… and {len(answers) - 9} more sets</p>" if len(answers) > 9 else ""
        return "<table cellspacing=2>" + "".join(rows) + "</table>" + more
