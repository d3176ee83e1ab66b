"""A progress dialog with named steps, for the waits of more than half a second.

:class:`StepDialog` is a :class:`QProgressDialog` told ``report(done, total,
what)`` (the program's progress convention, see :mod:`hieradjudicate.app.progress`):
its label names the step being done, its bar advances, and :attr:`StepDialog.record`
keeps every step shown (label, percent, seconds since the start) for tests and
benchmarks.  It runs in one of two ways:

* **blocking**: opening a project runs on the GUI thread (the session's SQLite
  connection belongs to the thread that opened it, and nothing may act on a
  half-open project anyway).  After each step the dialog is painted at once,
  without processing events (but once, for the window system to map it when
  it first shows): a timer or a queued result processed there would start
  more work in the middle of the opening (processing every event made MASC's
  opening take 6-8 s instead of 3-4 s at load 6: work started by timers ran
  beside it).
  :class:`InputGuard` drops every key, click and shortcut meant for another
  widget meanwhile, so nothing reaches the half-built window.  There is no
  Cancel: an open stopped midway would have nothing to give back but the
  state before it.
* **background**: the wizard's reading and creating run in a worker thread;
  the event loop runs, the reports arrive by signal and Cancel is offered.

A short job shows nothing: Qt shows the dialog once the time so far, or the
time left it estimates from the bar, reaches :data:`SHOW_AFTER_MS`.  Tests set
it to 0 to see the dialog every time.

One dialog may carry two jobs (the wizard's *Create project*, then opening the
new project): :meth:`StepDialog.phase` maps each job's bar onto its part of the
one bar, so the dialog stays up, advancing, until the window is usable.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

from PySide6.QtCore import QEvent, QEventLoop, QObject, Qt
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import QApplication, QLabel, QProgressBar, QProgressDialog, QWidget

from hieradjudicate.app.logs import get_logger

#: a job shows its dialog once it took, or is estimated to take, this long (ms)
SHOW_AFTER_MS = 500
#: bar units (a per-mille bar: steps of a large project move it smoothly)
SCALE = 1000
#: the slots of the window's own steps of opening, after the session's: closing the last project 1, the
#: instance table 4, the workbench 1, the dashboard 1 (its history; its widgets wait for the tab), the
#: first instance and its suggestion 1 (rough shares of the time on MASC; the annotators' weighing,
#: 2 more, now runs in the background once the window is shown)
VIEW_SLOTS = 8
#: blocking mode draws the dialog at each new step, and within a step at most this often (s)
DRAW_S = 0.03

_INPUT = {QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.ShortcutOverride, QEvent.Type.Shortcut,
          QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick,
          QEvent.Type.Wheel, QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop,
          QEvent.Type.ContextMenu}


class Step(NamedTuple):
    text: str
    percent: float
    seconds: float  # since the dialog was made
    visible: bool  # whether the dialog was up when the step began


class InputGuard(QObject):
    """An application event filter that drops input meant for anything but ``keep`` (and what is in it)."""

    def __init__(self, keep: QWidget) -> None:
        super().__init__(keep)
        self.keep = keep
        self.dropped = 0

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        if ev.type() not in _INPUT:
            return False
        if isinstance(obj, QWidget) and (obj is self.keep or self.keep.isAncestorOf(obj)):
            return False
        self.dropped += 1
        return True


class StepDialog(QProgressDialog):
    """See the module docstring.  ``cancellable``: offer Cancel (background jobs only)."""

    def __init__(self, parent: QWidget | None, title: str, *, cancellable: bool = False,
                 blocking: bool = True) -> None:
        super().__init__(parent)
        self.setObjectName("load_progress")
        self.setWindowTitle(title)
        label = QLabel(f"{title}…")
        label.setObjectName("load_progress_step")
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.setLabel(label)
        self.step_label = label
        self.setMinimumWidth(460)
        self.setWindowModality(Qt.WindowModality.ApplicationModal)
        self.setAutoClose(False)
        self.setAutoReset(False)
        self.bar = QProgressBar()
        self.setBar(self.bar)
        self.setRange(0, SCALE)
        self.blocking = blocking
        self.cancellable = cancellable
        if not cancellable:
            self.setCancelButton(None)
        self.record: list[Step] = []
        self.was_shown = False
        self._span = (0.0, 1.0)
        self._t0 = time.perf_counter()
        self._drawn = (0.0, "")  # when the dialog was last drawn, in which step
        self._top = 0  # the bar's value so far
        self._back_to: QWidget | None = None  # the window that was active when the dialog came up
        self.setMinimumDuration(SHOW_AFTER_MS)
        self.setValue(0)  # the clock of the minimum duration starts here

    # ------------------------------------------------------------------ the bar
    def phase(self, title: str, start: float, end: float) -> None:
        """The reports from now on fill the bar from ``start`` to ``end`` (fractions)."""
        self.setWindowTitle(title)
        self._span = (start, end)

    def report(self, done: int, total: int, what: str) -> None:
        """``done`` of ``total`` of the current phase are finished; ``what`` is being done now."""
        lo, hi = self._span
        frac = lo + (hi - lo) * (min(max(done / total, 0.0), 1.0) if total else 1.0)
        value = self._top = max(round(frac * SCALE), self._top)  # never backwards
        seconds = time.perf_counter() - self._t0
        # recorded first: a modal dialog's setValue() processes events, where the next reports may arrive
        k = len(self.record)
        self.record.append(Step(what, round(100.0 * value / SCALE, 1), seconds, self.isVisible()))
        if self.blocking:
            self._draw(value, what, seconds)
        else:  # the event loop runs: Qt's own way (its timer shows the dialog)
            self.setLabelText(what)
            self.setValue(value)
        self.record[k] = self.record[k]._replace(visible=self.isVisible())

    def finish(self, what: str = "Ready") -> None:
        """The current phase is done (the whole bar, after the last phase)."""
        self.report(1, 1, what)

    def _draw(self, value: int, what: str, seconds: float) -> None:
        """Blocking mode: show the dialog when due, and paint it now (the GUI thread goes back to work
        after this).  No events are processed but the first time it shows (for the window system to
        map it): a timer or a queued result must not start more work in the middle of the opening."""
        name = what.split(": ")[0]
        now = self._t0 + seconds
        if self.isVisible() and name == self._drawn[1] and now - self._drawn[0] < DRAW_S:
            return  # within a step, drawn at most every DRAW_S (its own progress may come every few ms)
        self._drawn = (now, name)
        self.setLabelText(what)
        self.bar.setValue(value)  # not QProgressDialog.setValue: a modal one processes every event
        if not self.isVisible():
            if not self._due(value / SCALE, seconds):
                return
            active = QApplication.activeWindow()
            self._back_to = active if active is not self else None  # the keys go back there after
            self.show()
            self.was_shown = True
            self._settle(0.2, self._exposed)  # until the window system has mapped it (bounded)
        self.repaint()

    def _due(self, frac: float, seconds: float) -> bool:
        """Qt's rule: shown once the time so far, or the time left estimated from the bar, reaches
        the minimum duration (estimated after 50 ms)."""
        ms = self.minimumDuration()
        if seconds * 1000 >= ms:
            return True
        return seconds > 0.05 and frac > 0 and seconds * (1 - frac) / frac * 1000 >= ms

    # ------------------------------------------------------------------ running
    @contextmanager
    def blocking_run(self) -> Iterator[StepDialog]:
        """Run a blocking job under this dialog: wait cursor, no input elsewhere; closed afterwards."""
        self.blocking = True
        guard = InputGuard(self)
        app = QApplication.instance()
        app.installEventFilter(guard)
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            yield self
        finally:
            QApplication.restoreOverrideCursor()
            get_logger().info(self.summary())  # where the time went, for a report of a slow opening
            self.dismiss()  # the keys typed meanwhile are dropped while it goes
            app.removeEventFilter(guard)

    def summary(self) -> str:
        """"Opening masc.hadj: 2.31 s: Opening the project file 0.06 s; Reading the stored corpus 0.20 s; …"
        (each step's own progress folded into it)."""
        total = time.perf_counter() - self._t0
        rows: list[tuple[str, float]] = []
        for s in self.record:
            name = s.text.split(": ")[0]
            if not rows or rows[-1][0] != name:
                rows.append((name, s.seconds))
        parts = [f"{name} {(rows[k + 1][1] if k + 1 < len(rows) else total) - t:.2f} s"
                 for k, (name, t) in enumerate(rows)]
        return f"{self.windowTitle()}: {total:.2f} s: " + "; ".join(parts)

    def dismiss(self) -> None:
        """Close and delete the dialog (its :attr:`record` stays readable until then)."""
        self.was_shown = self.was_shown or self.isVisible()
        self.reset()  # stops Qt's timer that would show it later
        self.close()
        self.deleteLater()
        back = self.parentWidget()
        try:
            if self._back_to is not None and self._back_to.isVisible():
                back = self._back_to
        except RuntimeError:  # gone meanwhile (the wizard, after Create project)
            pass
        if self.was_shown and back is not None and back.isVisible():
            back.activateWindow()  # the keys go back (some platforms leave no window active)
            QApplication.processEvents()  # now, as after every step shown: the window is whole

    def take_over(self) -> None:
        """Another job goes on in this dialog, on the GUI thread: no Cancel from here on."""
        if self.cancellable:
            try:
                self.canceled.disconnect()
            except (RuntimeError, TypeError):
                pass
            self.setCancelButton(None)
            self.cancellable = False
            self.resize(self.width(), self.sizeHint().height())  # no room kept for the button
        self.blocking = True
        if self.isVisible():  # the window under what closed (the wizard) is drawn before the work starts
            self.was_shown = True
            self._settle(0.1)

    def _settle(self, seconds: float, until: Callable[[], bool] | None = None) -> None:
        """Process events but input for up to ``seconds`` (or ``until()``): the window system maps,
        resizes and exposes windows only through them."""
        app = QApplication.instance()
        deadline = time.perf_counter() + seconds
        while True:
            app.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
            if time.perf_counter() >= deadline or (until is not None and until()):
                break
            time.sleep(0.005)

    def _exposed(self) -> bool:
        handle = self.windowHandle()
        return handle is None or handle.isExposed()

    # Escape and the window's close button would cancel: only where Cancel is offered
    def keyPressEvent(self, ev: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if ev.key() == Qt.Key.Key_Escape and not self.cancellable:
            ev.accept()
            return
        super().keyPressEvent(ev)

    def closeEvent(self, ev: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        if not self.cancellable and ev.spontaneous():
            ev.ignore()
            return
        super().closeEvent(ev)
