"""The document panel (key ``D``): the sentences around the highlighted instance, or its whole document,
with the target and the other instances of its lemma marked (a click goes to one), and the senses of
its lexelt with their definitions and examples.  Where the inputs carry no documents it says so.

A window beside the main one (not modal): it follows the highlighted instance while it is open.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer, QUrl
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate.app.workbench.documents import DocumentContext, SenseInfo, document_context, senses_in_question
from hieradjudicate.gui.colors import head_color, is_dark
from hieradjudicate.io.contexts.document import DocumentView

#: sentences shown before and after the target's when "Whole document" is off
AROUND = 2
SAME_LIGHT, SAME_DARK = "#cfe3ff", "#23456e"
TARGET_ROW_LIGHT, TARGET_ROW_DARK = "#fff8d6", "#3d3418"


def own_context_html(text: str, head: tuple[int, int] | None) -> str:
    """An instance's own context (no document holds it), its target highlighted as in the sentences."""
    if head is None:
        return html.escape(text)
    a, b = head
    style = f"background:{head_color()}; color:{'white' if is_dark() else 'black'}; font-weight:bold"
    return (html.escape(text[:a]) + f"<a name='target'></a><span style='{style}'>{html.escape(text[a:b])}</span>"
            + html.escape(text[b:]))


def sentences_html(view: DocumentView, first: int, last: int, number_of: dict[str, int]) -> str:
    """Sentences ``first``..``last`` of the document: the target highlighted (anchor ``target``), the
    other instances of its lemma as links ``inst:ID`` numbered as in the list beside."""
    same = set(view.same_lemma)
    fg = "white" if is_dark() else "black"
    rows = []
    for k in range(first, last):
        s = view.sentences[k]
        out, pos = [], 0
        for m in s.marks:
            if m.instance == view.target.instance:
                style = f"background:{head_color()}; color:{fg}; font-weight:bold"
                piece = f"<a name='target'></a><span style='{style}'>{html.escape(s.text[m.start:m.end])}</span>"
            elif m.instance in same:
                bg = SAME_DARK if is_dark() else SAME_LIGHT
                piece = (f"<a href='inst:{html.escape(m.instance)}' style='background:{bg}; color:{fg}'>"
                         f"{html.escape(s.text[m.start:m.end])}</a><sup>{number_of[m.instance]}</sup>")
            else:
                continue
            if m.start < pos:  # overlapping spans (an export may hold them): the first one is marked
                continue
            out.append(html.escape(s.text[pos:m.start]) + piece)
            pos = m.end
        out.append(html.escape(s.text[pos:]))
        body = "".join(out)
        shade = f" bgcolor='{TARGET_ROW_DARK if is_dark() else TARGET_ROW_LIGHT}'" if k == view.at else ""
        rows.append(f"<tr{shade}><td align=right style='color:gray; font-size:9pt'>{k + 1}</td><td>{body}</td></tr>")
    return "<table cellspacing=0 cellpadding=3>" + "".join(rows) + "</table>"


def senses_html(senses: list[SenseInfo]) -> str:
    if not senses:
        return "<i>No senses in the inventory for this lexelt.</i>"
    rows = []
    for s in senses:
        who = (f" <span style='color:gray'>— chosen by {html.escape(', '.join(s.chosen_by))}</span>"
               if s.chosen_by else "")
        key = f" <span style='color:gray; font-size:9pt'>{html.escape(s.key)}</span>" if s.key != s.label else ""
        ex = "".join(f"<br>&nbsp;&nbsp;<i>“{html.escape(e)}”</i>" for e in s.examples)
        weight = "bold" if s.chosen_by else "normal"
        rows.append(f"<p style='margin:0 0 6px 0'><span style='font-weight:{weight}'>{html.escape(s.label)}</span>"
                    f"{key}{who}<br>{html.escape(s.definition) or '<i>no gloss</i>'}{ex}</p>")
    return "".join(rows)


class DocumentDialog(QDialog):
    """The document around the highlighted instance; follows the window's highlighted instance."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window_ = window
        self.setObjectName("document_dialog")
        self.setWindowTitle("Document context")
        self.session = None
        self.context: DocumentContext | None = None
        self.instance = -1
        self.view: DocumentView | None = None
        self.title = QLabel()
        self.title.setObjectName("document_title")
        self.title.setWordWrap(True)
        self.whole = QCheckBox("&Whole document")
        self.whole.setObjectName("document_whole")
        self.whole.toggled.connect(lambda _on: self.refresh())
        self.text = QTextBrowser()
        self.text.setObjectName("document_text")
        self.text.setOpenLinks(False)
        self.text.anchorClicked.connect(self._link)
        self.same = QListWidget()
        self.same.setObjectName("document_same_lemma")
        self.same.setWordWrap(True)
        self.same.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.same.itemActivated.connect(self._go_item)
        self.same.itemClicked.connect(self._go_item)
        self.same_label = QLabel()
        self.senses = QTextBrowser()
        self.senses.setObjectName("document_senses")
        side = QWidget()
        sl = QVBoxLayout(side)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.addWidget(self.same_label)
        sl.addWidget(self.same, 1)
        sl.addWidget(QLabel("<b>Senses</b> (the ones chosen first; definition and <i>examples</i>)"))
        sl.addWidget(self.senses, 3)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.text)
        split.addWidget(side)
        split.setSizes([560, 380])
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.whole)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(split, 1)
        QShortcut(QKeySequence("D"), self, activated=self.close)  # the key that opened it closes it
        screen = QGuiApplication.primaryScreen().availableGeometry()
        self.resize(min(980, screen.width() - 40), min(620, screen.height() - 60))

    # ------------------------------------------------------------------ following the window
    def show_for(self, session, i: int) -> None:
        """Show instance ``i`` of ``session`` (the documents are indexed on the first call per session)."""
        if session is not self.session:
            self.session, self.context = session, None
        if self.context is None:
            QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
            try:
                self.context = document_context(session.store, lambda: self._instances(session))
            finally:
                QApplication.restoreOverrideCursor()
        self.instance = i
        self.refresh()

    @staticmethod
    def _instances(session):
        """The project's (lexelt, id) pairs: an INCEpTION export's instance ids locate them."""
        corpus = session.corpus
        lexelts = corpus.inventory.lexelts
        return zip([lexelts[x] for x in corpus.inst_lexelt.tolist()], corpus.inst_id, strict=True)

    def follow(self, i: int) -> None:
        if self.isVisible() and i >= 0 and self.session is not None:
            self.show_for(self.session, i)

    def refresh(self) -> None:
        wb, i = self.window_.wb, self.instance
        if wb is None or i < 0 or self.context is None:
            return
        lex, inst = wb.key_of(i)
        self.senses.setHtml(senses_html(senses_in_question(wb, i)))
        self.same.clear()
        index = self.context.index
        self.view = index.view(inst) if index is not None else None
        if self.view is None:
            self._no_document(wb, i, lex, inst)
            return
        v = self.view
        number_of = {x: k + 1 for k, x in enumerate(v.same_lemma)}
        first, last = (0, len(v.sentences)) if self.whole.isChecked() else v.window(AROUND, AROUND)
        self.title.setText(f"<b>{html.escape(inst)}</b> ({html.escape(lex)}) — document "
                           f"<b>{html.escape(v.document)}</b>, sentence {v.at + 1} of {len(v.sentences)}"
                           + ("" if self.whole.isChecked() else f"; showing {first + 1}–{last}"))
        more = "" if self.whole.isChecked() or (first == 0 and last == len(v.sentences)) else \
            "<p style='color:gray'><i>Tick “Whole document” (Alt+W) for all of it.</i></p>"
        self.text.setHtml(sentences_html(v, first, last, number_of) + more)
        self.text.scrollToAnchor("target")
        self.same_label.setText(f"<b>{len(v.same_lemma)}</b> other instance(s) of <b>{html.escape(v.target.lexelt)}"
                                f"</b> in this document (click to go)")
        for x in v.same_lemma:
            item = QListWidgetItem(f"{number_of[x]}. {self._sentence_of(x)}")
            item.setToolTip(x)
            item.setData(Qt.ItemDataRole.UserRole, x)
            self.same.addItem(item)

    def _sentence_of(self, instance: str) -> str:
        w = self.context.index.where[instance]
        s = self.context.index.documents[w[0]][w[1]]
        m = s.marks[w[2]]
        left, right = s.text[:m.start][-40:], s.text[m.end:][:40]
        return f"…{left}[{s.text[m.start:m.end]}]{right}…"

    def _no_document(self, wb, i: int, lex: str, inst: str) -> None:
        reason = self.context.reason or "This instance is not in the documents the project holds."
        self.title.setText(f"<b>{html.escape(inst)}</b> ({html.escape(lex)}) — no document context")
        c = wb.context(i)
        own = "" if c is None else f"<p><b>Its own context:</b> {own_context_html(c.text, c.head)}</p>"
        self.text.setHtml(f"<p><i>{html.escape(reason)}</i></p>{own}")
        self.same_label.setText("No other instances to mark: no document.")

    # ------------------------------------------------------------------ going to an instance
    def _link(self, url: QUrl) -> None:
        s = url.toString()
        if s.startswith("inst:"):
            self.go(s[5:])

    def _go_item(self, item: QListWidgetItem) -> None:
        # after the click's own signals: going there rebuilds this list (its items are deleted)
        instance = item.data(Qt.ItemDataRole.UserRole)
        QTimer.singleShot(0, lambda: self.go(instance))

    def go(self, instance: str) -> None:
        """Highlight ``instance`` in the window's table (showing all instances if a filter hides it)."""
        win, v = self.window_, self.view
        if win.wb is None or win.ws is None or v is None:
            return
        w = self.context.index.where[instance]
        lexelt = self.context.index.documents[w[0]][w[1]].marks[w[2]].lexelt
        lex_target = win.wb.key_of(self.instance)[0]
        i = win.wb.corpus.instance_index(lex_target, instance)
        if i < 0:
            i = win.wb.corpus.instance_index(lexelt, instance)
        if i < 0:
            win.statusBar().showMessage(f"{instance} is not among the project's instances", 5000)
            return
        if win.wb.row_of(i) < 0:
            win.ws.clear_filter()
            win.statusBar().showMessage("The filter hid that instance: showing all instances", 5000)
        win.ws.select_instance(i)  # the window's instance_changed brings this panel along


def show_document(window) -> None:
    """Go ▸ Document context (``D``): open (or bring forward) the panel on the highlighted instance."""
    i = window._current()
    if i < 0 or window.session is None:
        return
    dlg = getattr(window, "document_dialog", None)
    if dlg is None:
        dlg = window.document_dialog = DocumentDialog(window)
    if getattr(dlg, "_following", None) is not window.ws:
        window.ws.instance_changed.connect(dlg.follow)
        window.ws.destroyed.connect(dlg.close)  # the project closed: nothing to follow
        dlg._following = window.ws
    try:
        dlg.show_for(window.session, i)
    except Exception as exc:
        window.error("The document context could not be read", exc)
        return
    dlg.show()
    dlg.raise_()
    dlg.activateWindow()
