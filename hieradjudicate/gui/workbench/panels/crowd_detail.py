"""The detail panel of a crowd instance: the people who answered *this* instance, and the votes per leaf.

A crowd (MASC: 228 workers, 13-25 per sentence) cannot be one column per set:
the answers are listed as groups (one per distinct answer, most votes first,
each with its voters by competence) numbered 1-9 for the keys, and the leaf
table has one row per sense with its votes, their share and the competence
model's posterior when an estimate exists.
"""

from __future__ import annotations

import html
import math

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont, QStandardItem, QStandardItemModel

from hieradjudicate.app.workbench.instance_answers import AnswerGroup, LeafVotes
from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.core.inventory.labels import gloss_words, node_short_labels, tooltip, without_rank
from hieradjudicate.gui.colors import GOLD, HELD, HELD_TIP, set_color
from hieradjudicate.gui.workbench.text_widths import TextSizedTable

_DISPLAY, _TOOLTIP, _FONT = int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.ToolTipRole), int(Qt.ItemDataRole.FontRole)
_HORIZONTAL = Qt.Orientation.Horizontal
_ALIGN, _BACKGROUND = int(Qt.ItemDataRole.TextAlignmentRole), int(Qt.ItemDataRole.BackgroundRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
#: a cell's flags: Qt's table model's (enabled, selectable, no children), never editable
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
#: the roles of a cell's look after its text (see :meth:`VoteModel._look`)
_LOOK_ROLES = (_FONT, _TOOLTIP, _FOREGROUND, _BACKGROUND, _ALIGN)
#: what each column's title says when the pointer rests on it
_HEADER_TIPS = ("", "sets whose answer includes the sense (a label spread over several leaves counts in parts)",
                "votes / sets that answered", "competence model's posterior (once estimated)", "")
#: voters named in a group before "and N more"
NAMES_SHOWN = 12


def voters_text(g: AnswerGroup, competence: bool) -> str:
    names = [f"{n} ({c:.2f})" if competence and np.isfinite(c) else n for n, c in zip(g.names, g.competence)]
    more = f", … and {len(names) - NAMES_SHOWN} more" if len(names) > NAMES_SHOWN else ""
    return ", ".join(names[:NAMES_SHOWN]) + more


def groups_html(groups: list[AnswerGroup], voters: int, competence: bool) -> str:
    """The answers listed by distinct answer: key number, votes, senses with gloss, who gave it."""
    if not groups:
        return "<i>No set answered this instance.</i>"
    rows = [f"<p style='margin:0'><b>{voters}</b> sets answered this instance"
            + (" (voters ordered by estimated competence)" if competence else "") + "</p><table cellspacing=2>"]
    for j, g in enumerate(groups):
        color = set_color(j).name()
        key = f"{j + 1}" if j < 9 else ""
        senses = "<br>".join(f"<b>{html.escape(s)}</b> {html.escape(without_rank(gl))}"
                             for s, gl in zip(g.short, g.glosses)) or "<i>no sense</i>"
        rows.append(f"<tr><td style='color:{color}'><b>{key}</b></td>"
                    f"<td style='color:{color}' align=right><b>×{g.votes}</b></td><td>{senses}"
                    f"<br><span style='color:gray'>{html.escape(voters_text(g, competence))}</span></td></tr>")
    rows.append("</table>")
    return "".join(rows)


def gold_mark(held: bool) -> str:
    """The sense tables' mark of a decided sense: ``★ gold``, or ``⚑ held`` under a flag (a flagged
    instance's tags are no gold decision until it is unflagged)."""
    return "⚑ held" if held else "★ gold"


class VoteModel(QStandardItemModel):
    """Senses of the lexelt in tree order × (votes, share, posterior, gold) for one crowd instance.

    Its cells are Qt items filled at each instance shown (a few dozen): painting and measuring them
    asks Qt, not Python (seven calls into Python a cell painted, as an item model written in Python
    answers them, were a tenth of a step to the next instance)."""

    HEADERS = ("Sense", "Votes", "Share", "Posterior", "Gold")
    _italic_font: QFont | None = None  # the non-leaf senses' font (made with the first model)

    def __init__(self, parent=None) -> None:
        super().__init__(0, len(self.HEADERS), parent)
        if VoteModel._italic_font is None:
            VoteModel._italic_font = QFont()
            VoteModel._italic_font.setItalic(True)
        self.labels: list[str] = []
        self.tips: list[str] = []
        self.depth = np.zeros(0, np.int64)
        self.is_leaf = np.zeros(0, bool)
        self.votes = np.zeros(0)
        self.share = np.zeros(0)
        self.posterior = np.zeros(0)
        self.gold = np.zeros(0, bool)
        self.held = False  # the marked senses are what a flag holds, not gold
        self._gold_brush = QBrush(QColor(GOLD))
        self._held_brush = QBrush(QColor(HELD))
        self._shade: dict[tuple[int, int], QBrush] = {}
        self._texts: list[list[str]] = [[], [], [], []]  # what columns 0-3 write, row by row
        self._lexelt: tuple | None = None  # (inventory, lexelt) whose rows ``_rows_of`` holds
        self._rows_of: tuple = ()
        self._filled: tuple | None = None  # (inventory, lexelt, rows) whose items the model holds
        self._looks: list[list[tuple]] = []  # each cell as drawn (:meth:`_look`)
        # the column titles and their tooltips are the model's own header items: the header paints and
        # measures them without a call into Python (a headerData written in Python was asked some 70
        # times a step to the next instance, each with its arguments made into Python objects)
        self.setHorizontalHeaderLabels(list(self.HEADERS))
        for section, tip in enumerate(_HEADER_TIPS):
            if tip:
                self.setHeaderData(section, _HORIZONTAL, tip, Qt.ItemDataRole.ToolTipRole)

    @property
    def first_head(self) -> str:
        """The first column's title: "Sense", or "Tag" in a project without an inventory."""
        return self.horizontalHeaderItem(0).text()

    @first_head.setter
    def first_head(self, title: str) -> None:
        self.horizontalHeaderItem(0).setText(title)

    def text(self, r: int, c: int) -> str:
        """What cell (``r``, ``c``) writes (its display role)."""
        if c == 4:
            return gold_mark(self.held) if self.gold[r] else ""
        return self._texts[c][r]

    def update(self, wb: Workbench, i: int, lv: LeafVotes, gold: np.ndarray) -> None:
        inv = wb.corpus.inventory
        x = int(wb.cols.lexelt[i])
        nodes = inv.lexelt_nodes[x]
        if self._lexelt is None or self._lexelt[0] is not inv or self._lexelt[1] != x:  # a lexelt's rows: the
            # same for each of its instances
            short = node_short_labels(inv)
            self._rows_of = (
                [short[int(n)] + (f"  {gloss_words(inv.node_gloss[int(n)], 24)}"
                                  if inv.node_gloss[int(n)] and inv.node_gloss[int(n)] != inv.node_id[int(n)]
                                  else "") for n in nodes],
                [tooltip(inv.label(int(n)), inv.node_gloss[int(n)]) for n in nodes],
                inv.node_depth[nodes] - 1, inv.node_is_leaf[nodes], _below(inv, nodes, int(inv.n_leaves[x])))
            self._lexelt = (inv, x)
        self.labels, self.tips, self.depth, self.is_leaf, below = self._rows_of
        self.labels, self.tips = list(self.labels), list(self.tips)
        self.votes = below @ lv.votes
        self.share = below @ lv.share
        self.posterior = below @ np.nan_to_num(lv.posterior, nan=0.0) if np.isfinite(lv.posterior).all() \
            else np.full(nodes.size, np.nan)
        self.gold = (below @ gold.astype(float) > 0) & self.is_leaf if gold.size else np.zeros(nodes.size, bool)
        self._texts = [["    " * int(d) + t for d, t in zip(self.depth.tolist(), self.labels)],
                       _number_texts(self.votes, "g"), _number_texts(self.share, ".2f"),
                       _number_texts(self.posterior, ".2f")]
        self._fill()

    def clear(self) -> None:
        """No instance shown (a search that finds nothing)."""
        self.labels, self.tips = [], []
        self.depth, self.is_leaf = np.zeros(0, np.int64), np.zeros(0, bool)
        self.votes = self.share = self.posterior = np.zeros(0)
        self.gold = np.zeros(0, bool)
        self._texts = [[], [], [], []]
        self._fill()

    def _fill(self) -> None:
        """The items of the rows now held: a lexelt's rows again (its next instance) keep their items
        and change only the cells whose text or colour changed, with one ``dataChanged`` (the columns
        measured again, the rows repainted); other rows come as new items in one model reset."""
        n = len(self.labels)
        looks = [[self._look(r, c) for c in range(len(self.HEADERS))] for r in range(n)]
        held = self._filled
        if n and held is not None and self._lexelt is not None and held[0] is self._lexelt[0] \
                and held[1:] == (self._lexelt[1], n):
            self.blockSignals(True)  # one signal for the cells changed below, not one a cell
            rows, cols = set(), set()
            try:
                for r, (row, was) in enumerate(zip(looks, self._looks)):
                    for c, (look, old) in enumerate(zip(row, was)):
                        if look != old:
                            self._restyle(self.item(r, c), look, old)
                            rows.add(r)
                            cols.add(c)
            finally:
                self.blockSignals(False)
            if rows:  # the block of rows and columns that changed: the senses' column is repainted
                # only when a label changed (within a word they stay; the counts beside them change)
                self._looks = looks
                self.dataChanged.emit(self.index(min(rows), min(cols)), self.index(max(rows), max(cols)))
            return
        self.beginResetModel()
        self.blockSignals(True)  # no per-row signals inside the reset: the views hear of it at its end
        try:
            self.setRowCount(0)
            self.setRowCount(n)
            for r in range(n):
                for c in range(len(self.HEADERS)):
                    self.setItem(r, c, self._item(looks[r][c]))
        finally:
            self.blockSignals(False)
        self._looks = looks
        self._filled = (self._lexelt[0], self._lexelt[1], n) if n and self._lexelt is not None else None
        self.endResetModel()

    def _look(self, r: int, c: int) -> tuple:
        """Cell (``r``, ``c``) as drawn: text, italic (a sense above the leaves), tooltip, text colour,
        background and alignment (``None`` where it has none)."""
        italic = not self.is_leaf[r]
        if c == 0:
            return self.text(r, c), italic, self.tips[r], None, None, None
        if c == 4:
            gold = bool(self.gold[r])
            return (self.text(r, c), italic, HELD_TIP if gold and self.held else None,
                    (self._held_brush if self.held else self._gold_brush) if gold else None, None, None)
        v = float((self.votes, self.share, self.posterior)[c - 1][r])
        shade = None
        if c in (2, 3) and math.isfinite(v) and v > 0:
            key = (c, int(round(v * 10)))
            if key not in self._shade:
                col = QColor(set_color(c - 2))
                col.setAlphaF(0.12 + 0.6 * key[1] / 10)
                self._shade[key] = QBrush(col)
            shade = self._shade[key]
        return self.text(r, c), italic, None, None, shade, _RIGHT

    @staticmethod
    def _item(look: tuple) -> QStandardItem:
        """A new cell drawn as ``look`` (see :meth:`_look`)."""
        text, italic, tip, fg, bg, align = look
        item = QStandardItem(text)
        item.setFlags(_FLAGS)
        for role, value in zip(_LOOK_ROLES, (VoteModel._italic_font if italic else None, tip, fg, bg, align)):
            if value is not None:
                item.setData(value, role)
        return item

    @staticmethod
    def _restyle(item: QStandardItem, look: tuple, old: tuple) -> None:
        """Cell ``item`` drawn as ``look`` instead of ``old``: only the roles that differ are set (a role
        no longer drawn is removed, as a new item would not have it)."""
        if look[0] != old[0]:
            item.setText(look[0])
        new = (VoteModel._italic_font if look[1] else None,) + look[2:]
        was = (VoteModel._italic_font if old[1] else None,) + old[2:]
        for role, value, before in zip(_LOOK_ROLES, new, was):
            if value is not before and value != before:
                item.setData(value, role)

def _below(inv, nodes: np.ndarray, n_leaves: int) -> np.ndarray:
    """``(nodes, leaves)``: 1 where a leaf is under the node (its ``D`` support)."""
    below = np.zeros((nodes.size, n_leaves))
    for r, n in enumerate(nodes.tolist()):
        below[r, inv.d_leaf[inv.d_ptr[n]:inv.d_ptr[n + 1]]] = 1.0
    return below


def _number_texts(values: np.ndarray, spec: str) -> list[str]:
    """A number column's cells: "–" where unknown, empty where none, else the value as ``spec``."""
    return ["–" if not math.isfinite(v) else "" if v <= 0 else format(v, spec) for v in values.tolist()]


class VoteTable(TextSizedTable):
    """The vote table: its columns sized from a :class:`VoteModel`'s texts and fonts (non-leaf senses in
    italic), not through the delegate (seven calls into Python a cell at every instance shown)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.cell_text = self._text

    def _text(self, r: int, c: int) -> tuple[str, bool]:
        m = self.model()
        return m.text(r, c), not m.is_leaf[r]
