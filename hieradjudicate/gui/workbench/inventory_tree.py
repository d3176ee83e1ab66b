"""The sense tree of the current lexelt: glosses, uses per set, this instance's tags and gold."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QLabel, QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.core.inventory.labels import node_short_labels, tooltip
from hieradjudicate.core.tags_only import NO_INVENTORY, tags_only
from hieradjudicate.gui.colors import GOLD
from hieradjudicate.gui.workbench.fill_width import FillWidth

NodeRole = Qt.ItemDataRole.UserRole + 10


def build_tree(tree: QTreeWidget, wb: Workbench, x: int, *, checkable: bool = False) -> dict[int, QTreeWidgetItem]:
    """Fill ``tree`` with the senses of lexelt ``x``; returns node -> item."""
    inv = wb.corpus.inventory
    flat = tags_only(inv)
    tree.clear()
    items: dict[int, QTreeWidgetItem] = {}
    short = node_short_labels(inv)  # WordNet keys and URIs shown short; the full key in the tooltip
    for node in inv.lexelt_nodes[x].tolist():
        parent = int(inv.node_parent[node])
        label = short[node]
        # "(not in the inventory)" on every row of a project that has none read as a fault: blank there
        gloss = inv.node_gloss[node] or ("(not in the inventory)" if inv.node_outside[node] and not flat else "")
        item = QTreeWidgetItem([label, "", "", gloss] if not checkable else [label, gloss])
        item.setData(0, NodeRole, node)
        item.setToolTip(0, tooltip(inv.label(node), gloss))
        item.setToolTip(1 if checkable else 3, gloss)
        if checkable:
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(0, Qt.CheckState.Unchecked)
        (items[parent] if parent in items else tree.invisibleRootItem()).addChild(item)
        items[node] = item
    tree.expandAll()
    return items


class InventoryTree(QWidget):
    """Tree of the current lexelt; columns: sense, gloss, this instance (set numbers, ★ gold), uses."""

    def __init__(self, wb: Workbench, parent=None) -> None:
        super().__init__(parent)
        self.wb = wb
        self.flat = tags_only(wb.corpus.inventory)  # no inventory: the tags are the senses, no tree
        self.search = QLineEdit(placeholderText="Search tags…" if self.flat else "Search senses and glosses…")
        self.search.setClearButtonEnabled(True)
        self.note = QLabel(f"<small>{NO_INVENTORY} (no tree, no glosses).</small>")
        self.note.setObjectName("no_inventory_note")
        self.note.setWordWrap(True)
        self.note.setVisible(self.flat)
        self.tree = QTreeWidget()
        self.tree.setObjectName("inventory_tree")
        self.tree.setColumnCount(4)
        self.tree.setHeaderLabels(["Tag" if self.flat else "Sense", "Here", "Uses", "Gloss"])
        self.tree.headerItem().setToolTip(1, "which sets (by number) chose this sense for the selected "
                                             "instance; ★ = the gold; ⚑ = held under a flag, not gold yet")
        self.tree.headerItem().setToolTip(2, "how often each set used the sense in this lexelt "
                                             "(sets in table order)")
        self.tree.setUniformRowHeights(True)
        self.tree.setWordWrap(False)
        self.tree.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.search)
        lay.addWidget(self.note)
        lay.addWidget(self.tree)
        # the gloss takes what the other columns leave of the dock (it ran out of it at 1024 px): the uses,
        # then the sense, give way (elided; the tooltips hold them) before it goes under "a gloss…"
        fm = self.tree.fontMetrics()
        give = ((2, fm.horizontalAdvance("888888") + 8), (0, fm.horizontalAdvance("verb.comm…") + 24))
        self.fill = FillWidth(self.tree, lambda: 3, fm.horizontalAdvance("a gloss…"), give=give)
        self.search.textChanged.connect(self._filter)
        self.lexelt = -1
        self.items: dict[int, QTreeWidgetItem] = {}
        order = wb.shown_sets()
        inv = wb.corpus.inventory
        self.uses = np.zeros((len(order), inv.n_nodes), np.int64)
        for j, k in enumerate(order):
            self.uses[j] = np.bincount(wb.corpus.sets[k].tag_node, minlength=inv.n_nodes)
        self._bold = QFont()
        self._bold.setBold(True)
        self._gold = QBrush(QColor(GOLD))
        self._marked: list[int] = []

    def show_instance(self, i: int) -> None:
        x = int(self.wb.cols.lexelt[i])
        built = x != self.lexelt
        if built:
            self.lexelt = x
            self.items = build_tree(self.tree, self.wb, x)
            crowd = self.uses.shape[0] > 9
            for node, item in self.items.items():
                u = self.uses[:, node]
                item.setText(2, str(int(u.sum())) if crowd else " ".join(str(int(v)) for v in u))
            self._marked = []
            self._filter(self.search.text())
        marks: dict[int, list[str]] = {}
        inv = self.wb.corpus.inventory
        # a crowd: the answers listed for this instance (keys 1-9), not the project's first sets
        listed = self.wb.answer_groups(i) if self.wb.crowd else self.wb.answers(i)
        for j, a in enumerate(listed):
            for t in a.tags:
                node = inv.lookup(x, t.replace(" (itself)", "#self"))
                if node >= 0:
                    marks.setdefault(node, []).append(str(j + 1) if j < 9 else getattr(a, "name", "·"))
        star = "⚑" if self.wb.cell("status", i) == "flagged" else "★"  # a flag's tags are no gold
        for t in str(self.wb.gold[i]).split():
            node = inv.lookup(x, t)
            if node >= 0:
                marks.setdefault(node, []).append(star)
        # only the items whose marks change are touched: each change repaints and the columns are
        # measured again only then (the next instance of a lexelt often has the same marks)
        changed = False
        for node in self._marked:
            if node not in marks:
                item = self.items[node]
                item.setText(1, "")
                item.setFont(0, QFont())
                item.setForeground(1, QBrush())
                changed = True
        self._marked = []
        for node, m in marks.items():
            item = self.items.get(node)
            if item is None:
                continue
            text = " ".join(m[:8]) + (" …" if len(m) > 8 else "")
            if item.text(1) != text:
                item.setText(1, text)
                item.setFont(0, self._bold)
                item.setForeground(1, self._gold if "★" in m else QBrush())
                changed = True
            self._marked.append(node)
        if changed or built:
            self._fit_columns(built)

    def _fit_columns(self, built: bool = True) -> None:
        """The sense, here and uses columns to their contents and the gloss to what they leave, in one
        go: the view repaints once, in the step's own paint.  Each width change would otherwise reach
        the view through the header's signals (a timer, then a queued geometry update, then the gloss
        fitted on another timer): two more paints of the whole tree after the step's.  ``built``: the
        tree was just built; otherwise, when no width changed, only the rows whose marks changed are
        repainted (as their items asked), not the whole tree."""
        head = self.tree.header()
        widths = [head.sectionSize(c) for c in range(head.count())]
        head.blockSignals(True)
        try:
            for c in (0, 1, 2):
                self.tree.resizeColumnToContents(c)
            for c, _floor in self.fill.give:  # their own widths, as the fill hears of them otherwise
                self.fill.natural[c] = head.sectionSize(c)
            self.fill.fit()
        finally:
            head.blockSignals(False)
        if built or [head.sectionSize(c) for c in range(head.count())] != widths:
            self.tree.updateGeometries()  # the scroll bars' ranges and the header's place
            self.tree.viewport().update()
            head.viewport().update()
        # else the columns kept their widths: only the rows whose marks changed are repainted

    def show_none(self) -> None:
        """No instance: no lexelt's tree (it would say nothing about the empty table)."""
        self.tree.clear()
        self.items, self._marked, self.lexelt = {}, [], -1

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        for item in self.items.values():
            item.setHidden(False)
        if not needle:
            return
        for node, item in self.items.items():
            hit = needle in item.toolTip(0).lower() or needle in item.text(0).lower() or needle in item.text(3).lower()
            if not hit and item.childCount() == 0:
                item.setHidden(True)
        for item in self.items.values():  # hide internal nodes whose subtree has no hit
            if item.childCount() and not _any_visible(item) and needle not in item.toolTip(0).lower() \
                    and needle not in item.text(0).lower():
                item.setHidden(True)


def _any_visible(item: QTreeWidgetItem) -> bool:
    return any(not item.child(c).isHidden() or _any_visible(item.child(c)) for c in range(item.childCount()))
