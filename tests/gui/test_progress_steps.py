"""Issue #23 point 5: every wait over half a second shows its named steps and a bar that advances.

Opening with Ctrl+O, File > New's *Create project* going on into the opening in one dialog, and the
Dashboard tab's first figures, each through the user's keys and clicks.  The dialogs are made to show
at once (``busy.SHOW_AFTER_MS = 0``) rather than depending on how fast this machine is."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QWizard

import hieradjudicate.gui.busy as busy
from hieradjudicate.app.dashboard.dashboard import COMPUTE_STEPS
from hieradjudicate.app.demo import DEMO_SETS, demo_inputs
from hieradjudicate.app.session.session import Session
from hieradjudicate.gui.main_window import MainWindow
from tests.conftest import skip_without_realdata

CTRL = Qt.KeyboardModifier.ControlModifier

#: the opening's steps, in order (a step's own progress follows its name after a colon)
OPEN_STEPS = ["Opening the project file", "Reading the stored corpus", "Reading the sense inventory",
              "Laying out", "Reading", "Reading the decisions", "Building the instance table",
              "Laying out the workbench", "Preparing the dashboard", "Showing the first instance", "Ready"]


@pytest.fixture
def at_once(monkeypatch) -> None:
    monkeypatch.setattr(busy, "SHOW_AFTER_MS", 0)


def _window(qtbot) -> MainWindow:
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=60_000)
    return win


def _ctrl_o(qtbot, win: MainWindow, path: Path, monkeypatch, asked: list | None = None) -> None:
    def answer(*_a, **_k):
        if asked is not None:
            asked.append(str(path))
        return str(path), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(answer))
    qtbot.keyClick(win, Qt.Key.Key_O, CTRL)
    assert QApplication.activeWindow() is win  # the keys are the window's again, at once


def _in_order(texts: list[str], names: list[str]) -> list[int]:
    """Where each of ``names`` first starts a text, in order (fails when one is missing or out of order)."""
    at, k = [], 0
    for name in names:
        while k < len(texts) and not texts[k].startswith(name):
            k += 1
        assert k < len(texts), f"{name!r} is not among the steps after {texts[at[-1]] if at else 'the start'!r}: {texts}"
        at.append(k)
        k += 1
    return at


def _check_bar(record) -> None:
    percents = [s.percent for s in record]
    assert percents == sorted(percents), percents  # the bar never goes back
    assert percents[-1] == 100.0 and record[-1].text == "Ready"


def test_ctrl_o_shows_every_named_step_in_order_up_to_100_percent(qtbot, demo_project: Path, monkeypatch,
                                                                  at_once) -> None:
    win = _window(qtbot)
    _ctrl_o(qtbot, win, demo_project, monkeypatch)
    assert win.session is not None and win.session.path == demo_project
    rec = win.open_progress
    texts = [s.text for s in rec]
    _in_order(texts, OPEN_STEPS)
    corpus = win.session.corpus
    answers = sum(int(s.tag_node.size) for s in corpus.sets)
    assert f"Laying out {answers:,} answers of {len(corpus.sets)} sets" in texts
    assert f"Reading {len(corpus.contexts):,} contexts" in texts
    assert f"Building the instance table of {corpus.n:,} instances" in texts
    _check_bar(rec)
    assert rec[-1].visible and all(s.visible for s in rec[1:])  # shown from the first step on, to the end
    assert QApplication.activeModalWidget() is None  # gone once the window is usable
    assert win.ws.table.hasFocus() or win.ws.current >= 0


def test_a_short_open_shows_no_dialog(qtbot, demo_project: Path, monkeypatch) -> None:
    """Shown only once the open took, or Qt estimates it takes, SHOW_AFTER_MS: never for this one."""
    monkeypatch.setattr(busy, "SHOW_AFTER_MS", 600_000)
    win = _window(qtbot)
    _ctrl_o(qtbot, win, demo_project, monkeypatch)
    assert win.session is not None
    _in_order([s.text for s in win.open_progress], OPEN_STEPS)  # the steps are told all the same
    assert not any(s.visible for s in win.open_progress)


def test_keys_while_a_project_opens_reach_nothing(qtbot, demo_project: Path, private_dirs: Path, monkeypatch,
                                                  at_once) -> None:
    """While B opens, a set's key on A's table and Ctrl+O (which would open a third project inside the
    half-done opening) are dropped: A keeps no decision, the file dialog is asked once per Ctrl+O typed."""
    other = private_dirs / "other.hadj"
    shutil.copy(demo_project, other)
    win = _window(qtbot)
    asked: list[str] = []
    _ctrl_o(qtbot, win, demo_project, monkeypatch, asked)
    table = win.ws.table
    real = busy.StepDialog.report
    pressed: list[str] = []

    def report(self, done, total, what):
        real(self, done, total, what)
        if what == "Reading the stored corpus" and not pressed:  # A is open and whole, B half read
            qtbot.keyClick(table, Qt.Key.Key_1)
            pressed.append(what)
        elif what.startswith("Preparing the dashboard") and len(pressed) == 1:  # A closed, B half built
            qtbot.keyClick(win, Qt.Key.Key_O, CTRL)
            qtbot.keyClick(win.ws.table, Qt.Key.Key_2)
            pressed.append(what)

    monkeypatch.setattr(busy.StepDialog, "report", report)
    _ctrl_o(qtbot, win, other, monkeypatch, asked)
    assert len(pressed) == 2
    assert win.session is not None and win.session.path == other
    assert asked == [str(demo_project), str(other)]
    assert len(win.session.decisions) == 0
    with Session.open(demo_project) as a:
        assert len(a.decisions) == 0
    monkeypatch.setattr(busy.StepDialog, "report", real)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_1)  # and once open, the keys act again
    assert len(win.session.decisions) == 1


def test_create_project_goes_on_into_the_opening_in_one_dialog(qtbot, private_dirs: Path, at_once) -> None:
    """File > New (Ctrl+N), the demo's files, Create project: one dialog from the first file read to the
    window being usable, its bar half way when the project is made, at 100 % when it is open."""
    demo = demo_inputs()
    out = private_dirs / "made.hadj"
    win = _window(qtbot)
    problems: list[BaseException] = []

    def fill() -> None:
        wiz = QApplication.activeModalWidget()
        if not isinstance(wiz, QWizard):
            QTimer.singleShot(20, fill)
            return
        try:
            wiz.inventory.add_paths([str(demo / "inventory.txt")])
            wiz.next()
            wiz.annotation.add_paths([str(demo / f) for f, _, _ in DEMO_SETS])
            for row, (_, name, role) in enumerate(DEMO_SETS):
                wiz.annotation.set_role(row, role)
                wiz.annotation.set_name(row, name)
            table = wiz.annotation.table
            qtbot.waitUntil(lambda: all(table.item(r, 1).text() != "reading…" for r in range(table.rowCount())))
            wiz.next()
            wiz.contexts.add_paths([str(demo / "contexts.tsv")])
            wiz.next()
            wiz.next()
            qtbot.waitUntil(lambda: wiz.preview.report is not None, timeout=60_000)
            wiz.preview.output.setText(str(out))
            qtbot.mouseClick(wiz.button(QWizard.WizardButton.FinishButton), Qt.MouseButton.LeftButton)
        except BaseException as exc:  # never leave the wizard open: the test would hang
            problems.append(exc)
            wiz.reject()

    QTimer.singleShot(50, fill)
    qtbot.keyClick(win, Qt.Key.Key_N, CTRL)  # returns once the wizard is done and the project open
    assert not problems, problems
    assert win.session is not None and win.session.path == out
    rec = win.open_progress
    texts = [s.text for s in rec]
    made = _in_order(texts, ["Reading inventory.txt", "Writing the project file", "Finishing", "Project created"])
    opened = _in_order(texts, OPEN_STEPS)
    assert made[-1] < opened[0]
    assert all(s.percent <= 50.0 for s in rec[:made[-1] + 1]) and rec[made[-1]].percent == 50.0
    assert all(s.percent >= 50.0 for s in rec[opened[0]:])
    _check_bar(rec)
    first = next(k for k, s in enumerate(rec) if s.visible)
    assert first <= made[0] + 1 and all(s.visible for s in rec[first:])  # never hidden: no dead gap
    assert QApplication.activeModalWidget() is None


def test_first_dashboard_shows_its_steps_not_a_blank(qtbot, demo_project: Path, monkeypatch, at_once) -> None:
    """The Dashboard tab clicked as soon as the project is open: a box names each figure being computed
    over a bar, then "Drawing the figures", and goes once the panels are drawn.  (Intervals are not
    computed beside them, as on a large project: on the demo they may otherwise draw first.)"""
    import hieradjudicate.gui.dashboard.dashboard as dashboard_mod

    monkeypatch.setattr(dashboard_mod, "AUTO_CI_MAX", 0)
    win = _window(qtbot)
    _ctrl_o(qtbot, win, demo_project, monkeypatch)
    tabs = win.dashboard.tabs
    bar = tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    view = win.dashboard.view
    assert tabs.currentIndex() == 1
    assert view.data is None and view.first.isVisible()  # never a blank tab
    qtbot.waitUntil(lambda: view.first.finished, timeout=60_000)
    assert not view.first.isVisible() and view.data is not None
    rec = view.first.record
    texts = [s.text for s in rec]
    dash = view.dash
    names = [COMPUTE_STEPS[0].format(sets=f"{len(dash.group)} sets"), *COMPUTE_STEPS[1:5], COMPUTE_STEPS[7],
             "Figures computed", "Drawing the figures"]
    _in_order(texts, names)
    percents = [s.percent for s in rec]
    assert percents == sorted(percents) and percents[-1] == 100.0
    assert rec[-1].visible and rec[-1].text == "Drawing the figures"


def test_masc_open_names_its_answers(qtbot, tmp_path: Path, monkeypatch, at_once) -> None:
    """MASC (228 workers): the steps name its 1,084,551 answers and 44,682 instances; the crowd's answers
    per instance are not a step of the opening (computed in the background once the window is shown)."""
    root = skip_without_realdata("masc_amt")
    from hieradjudicate.app.loading.specs import AnnotationSpec

    path = tmp_path / "masc.hadj"
    Session.create(path, [str(root / "masc_amt" / "inventory_tree.tsv")],
                   [AnnotationSpec(str(root / "masc_amt" / "masc_amt_labels_wide.tsv.gz"))]).close()
    win = _window(qtbot)
    _ctrl_o(qtbot, win, path, monkeypatch)
    texts = [s.text for s in win.open_progress]
    _in_order(texts, OPEN_STEPS)
    assert "Laying out 1,084,551 answers of 228 sets" in texts
    assert any(t.startswith("Building the instance table of 44,682 instances") for t in texts)
    # the answers of its 228 annotators per instance (a column of the table) come after the window is usable
    assert not any("the answers of 228 annotators" in t for t in texts)
    _check_bar(win.open_progress)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # QDragEnterEvent takes a QPoint only
def test_open_recent_drop_and_the_command_line_show_the_steps(qtbot, demo_project: Path, private_dirs: Path,
                                                             monkeypatch, at_once) -> None:
    """The other ways in: Return on a recent project of the start page, a .hadj dropped on the window,
    and the command line (``hieradjudicate gui P.hadj``, here in its screenshot mode, which quits)."""
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDragEnterEvent, QDropEvent

    from hieradjudicate.gui.project.start_page import remember_project

    remember_project(str(demo_project.resolve()))
    win = _window(qtbot)
    recent = win.start.recent
    assert recent.count() == 1
    recent.setFocus()
    recent.setCurrentRow(0)
    qtbot.keyClick(recent, Qt.Key.Key_Return)
    assert win.session is not None and win.session.path == demo_project.resolve()
    _in_order([s.text for s in win.open_progress], OPEN_STEPS)
    _check_bar(win.open_progress)

    other = private_dirs / "dropped.hadj"
    shutil.copy(demo_project, other)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(other))])
    where = win.stack.mapTo(win, win.stack.rect().center())
    enter = QDragEnterEvent(where, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(win, enter)  # Qt takes a drop only where a drag entered first
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(where), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(win, drop)
    assert win.session is not None and win.session.path == other
    texts = [s.text for s in win.open_progress]
    _in_order(texts, ["Opening the project file", "Reading the decisions", f"Closing {demo_project.name}",
                      "Building the instance table", "Ready"])
    _check_bar(win.open_progress)
    win.close()

    # the command line, in a process of its own (its screenshot mode quits when the window is drawn);
    # the steps and their times are in the log
    from hieradjudicate.app.logs import log_path

    done = subprocess.run([sys.executable, "-m", "hieradjudicate", "gui", str(other), "--screenshot",
                           str(private_dirs / "shot.png")], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    line = next(x for x in reversed(log_path().read_text(encoding="utf-8").splitlines())
                if f"Opening {other.name}: " in x)
    _in_order([p.rsplit(" ", 2)[0] for p in line.split(": ", 2)[2].split("; ")], OPEN_STEPS)


def test_reimport_shows_the_views_being_rebuilt(qtbot, demo_project: Path, tmp_path: Path, at_once) -> None:
    """File > Re-import a set builds the views again (seconds on MASC): the same steps, in a dialog,
    and the keys go back to the Re-import dialog that was in front."""
    from tests.gui.journey import open_window
    from tests.gui.test_reimport_keeps_place import _changed_ben, _reimport

    win = open_window(qtbot, demo_project)
    win.ws.table.setFocus()
    qtbot.keyClick(win.ws.table, Qt.Key.Key_Down)
    here = win.wb.key_of(win.ws.current)
    _reimport(qtbot, win, "ben", _changed_ben(win, here, tmp_path))
    texts = [s.text for s in win.open_progress]
    _in_order(texts, ["Closing the old views", "Building the instance table", "Laying out the workbench",
                      "Preparing the dashboard", "Finding the same instance again", "Ready"])
    _check_bar(win.open_progress)
    assert all(s.visible for s in win.open_progress[1:])
    assert win.wb.key_of(win.ws.current) == here


def test_a_fast_jobs_steps_all_reach_the_gui_thread_in_order(qtbot) -> None:
    """Reports posted before the GUI thread looks keep their own texts, in order (the mailbox held one
    text per job: the first signal took the newest, the others reused it, and steps were never shown)."""
    import threading

    from hieradjudicate.gui.workers import BackgroundRunner

    runner = BackgroundRunner()
    seen: list[tuple[int, str]] = []
    gate = threading.Event()

    def job(report):
        for k, what in enumerate(("Pairwise agreement", "The heat map", "Agreement per lexelt")):
            report(k, 3, what)  # all three posted while the GUI thread waits below
        gate.set()
        return "ok"

    done: list[str] = []
    runner.start(job, done.append, progress=lambda k, n, text: seen.append((k, text)))
    assert gate.wait(10)
    runner.wait(10_000)
    qtbot.waitUntil(lambda: done == ["ok"], timeout=60_000)
    assert seen == [(0, "Pairwise agreement"), (1, "The heat map"), (2, "Agreement per lexelt")]
