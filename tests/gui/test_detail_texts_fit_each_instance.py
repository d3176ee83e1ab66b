"""The detail panel's texts at each instance shown from the keyboard: the suggestion takes the
height its text needs at the width it has (after a window resize too), and the answers view shows a
vertical scroll bar exactly when its text is taller than the view, with the instance's own text."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from hieradjudicate.gui.main_window import MainWindow
from hieradjudicate.gui.workbench.panels.crowd_detail import groups_html
from tests.crowd import crowd_project
from tests.gui.journey import background_settled, open_window


@pytest.fixture(scope="module")
def crowd40(tmp_path_factory) -> Path:
    return crowd_project(tmp_path_factory.mktemp("crowd") / "crowd40.hadj", 40, per_item=9)


@pytest.fixture
def win(qtbot, private_dirs, crowd40: Path) -> Iterator[MainWindow]:
    w = open_window(qtbot, crowd40)
    background_settled(qtbot, w)  # nothing rewrites the suggestion between a key and the check
    yield w
    w.close_project()
    QApplication.processEvents()
    gc.collect()


def _check_texts(w: MainWindow) -> None:
    d = w.ws.detail
    label = d.suggestion
    assert "Suggestion" in label.text()
    assert label.isVisible() and label.width() > 0
    assert label.height() == label.heightForWidth(label.width())  # every line in sight, no blank below
    assert label.parentWidget().height() == label.height()
    view = d.answers_view
    groups = w.wb.answer_groups(w.ws.current)
    assert view.toPlainText().split()[0] == str(sum(g.votes for g in groups))  # "N sets answered ..."
    assert view.document().toPlainText() == _plain(groups_html(groups, sum(g.votes for g in groups),
                                                               w.wb.competence is not None))
    taller = view.document().size().height() > view.viewport().height()
    assert view.verticalScrollBar().isVisible() == taller


def _plain(html: str) -> str:
    from PySide6.QtGui import QTextDocument

    doc = QTextDocument()
    doc.setHtml(html)
    return doc.toPlainText()


def test_each_instance_shown_by_key_has_its_texts_whole(qtbot, win: MainWindow) -> None:
    w = win
    qtbot.keyClick(w.ws.table, Qt.Key.Key_Down)
    heights = set()
    for _ in range(12):
        qtbot.keyClick(w.ws.table, Qt.Key.Key_Down)
        QApplication.processEvents()
        _check_texts(w)
        heights.add(w.ws.detail.suggestion.height())
    w.resize(int(w.width() * 0.8), w.height())  # a narrower window: the suggestion wraps anew
    qtbot.waitUntil(lambda: w.ws.detail.suggestion.height()
                    == w.ws.detail.suggestion.heightForWidth(w.ws.detail.suggestion.width()), timeout=5_000)
    _check_texts(w)
    qtbot.keyClick(w.ws.table, Qt.Key.Key_Down)
    QApplication.processEvents()
    _check_texts(w)
    assert min(heights) > 0
