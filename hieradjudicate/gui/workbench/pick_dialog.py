"""Pick one or more senses by hand: type to search glosses, Space ticks, Enter confirms."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QBrush, QColor, QKeyEvent
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QTreeWidget, QVBoxLayout

from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.gui.workbench.inventory_tree import NodeRole, build_tree


class PickDialog(QDialog):
    """Enter takes the ticked senses, or the highlighted one when none is ticked."""

    def __init__(self, wb: Workbench, i: int, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Pick senses")
        self.setObjectName("pick_dialog")
        self.resize(560, 420)
        self.wb = wb
        self.search = QLineEdit(placeholderText="Type to search senses and glosses")
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Sense", "Gloss"])
        self.tree.setColumnCount(2)
        self.items = build_tree(self.tree, wb, int(wb.cols.lexelt[i]), checkable=True)
        self.tree.resizeColumnToContents(0)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("Type to search · ↑/↓ move · Space ticks the highlighted sense · Enter confirms"))
        lay.addWidget(self.search)
        lay.addWidget(self.tree)
        lay.addWidget(buttons)
        self.misses: set[int] = set()
        self.search.textChanged.connect(self._search)
        self.search.installEventFilter(self)
        self.tree.installEventFilter(self)
        for t in str(wb.gold[i]).split():
            node = wb.corpus.inventory.lookup(int(wb.cols.lexelt[i]), t)
            if node in self.items:
                self.items[node].setCheckState(0, Qt.CheckState.Checked)
        first = self.tree.topLevelItem(0)
        if first is not None:
            self.tree.setCurrentItem(first)
        self.search.setFocus()

    def _search(self, text: str) -> None:
        needle = text.strip().lower()
        first = None
        self.misses = set()
        for node, item in self.items.items():
            hit = not needle or needle in item.toolTip(0).lower() or needle in item.text(0).lower() \
                or needle in item.text(1).lower()
            # grey, not disabled: disabling a parent would disable the matching children too
            brush = QBrush() if hit else QBrush(QColor("gray"))
            item.setForeground(0, brush)
            item.setForeground(1, brush)
            if not hit:
                self.misses.add(node)
            if hit and first is None and needle:
                first = item
        if first is not None:
            self.tree.setCurrentItem(first)
            self.tree.scrollToItem(first)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        if ev.type() == QEvent.Type.KeyPress and isinstance(ev, QKeyEvent):
            key = ev.key()
            if obj is self.search and key in (Qt.Key.Key_Down, Qt.Key.Key_Up):
                self._move(1 if key == Qt.Key.Key_Down else -1)
                return True
            if obj is self.search and key == Qt.Key.Key_Space:  # as the help line says: Space ticks,
                self._toggle()  # wherever the focus is (a search is a word: it needs no space)
                return True
            if obj is self.tree and key == Qt.Key.Key_Space:
                self._toggle()
                return True
        return super().eventFilter(obj, ev)

    def _move(self, step: int) -> None:
        cur = self.tree.currentItem()
        nxt = self.tree.itemBelow(cur) if step > 0 else self.tree.itemAbove(cur)
        while nxt is not None and int(nxt.data(0, NodeRole)) in self.misses:
            nxt = self.tree.itemBelow(nxt) if step > 0 else self.tree.itemAbove(nxt)
        if nxt is not None:
            self.tree.setCurrentItem(nxt)

    def _toggle(self) -> None:
        cur = self.tree.currentItem()
        if cur is not None:
            checked = cur.checkState(0) == Qt.CheckState.Checked
            cur.setCheckState(0, Qt.CheckState.Unchecked if checked else Qt.CheckState.Checked)

    def chosen(self) -> list[str]:
        """Tags of the ticked senses, else the highlighted one."""
        inv = self.wb.corpus.inventory
        ticked = [n for n, it in self.items.items() if it.checkState(0) == Qt.CheckState.Checked]
        if not ticked:
            cur = self.tree.currentItem()
            if cur is None:
                return []
            ticked = [int(cur.data(0, NodeRole))]
        return [inv.node_id[n] for n in ticked if inv.node_self_of[n] < 0]
