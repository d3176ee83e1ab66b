"""Run work off the GUI thread: one job at a time per owner, stale results dropped.

A :class:`BackgroundRunner` belongs to a widget.  ``start(fn, done)`` runs
``fn(report)`` in the runner's own :class:`QThreadPool`; ``report(k, n,
text)`` forwards progress and raises :class:`Cancelled` once the job was
cancelled or superseded, so the work stops at its next step (a step such as
reading one file runs to its end).  Every ``start`` takes a new generation
number; only the newest generation's result reaches its callbacks, so a
result that arrives after the user moved on is dropped.  While a job runs, a
newer request waits (only the newest one) and starts when the pool is free:
requests never pile up behind slow work.

Results travel by queued signals of a relay object that lives in the GUI
thread; callbacks therefore run in the GUI thread.  The signals carry only
integers: the values themselves wait in a locked mailbox (handing Python
objects through queued cross-thread signals crashed PySide6 6.12 with a
reference-count error under load); progress texts wait there in order, one
per signal, so that every named step of a fast job reaches the callback.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QEvent, QObject, QRunnable, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import QWidget

Report = Callable[[int, int, str], None]
#: how long :func:`hold_until_painted` waits at most for a paint of a widget on screen (ms)
PAINT_WAIT_MS = 1000


class Cancelled(Exception):
    """The job was cancelled (or superseded); raised inside the job by ``report``."""


class _Relay(QObject):
    progress = Signal(int, int, int)  # generation, done, total (the text waits in the mailbox)
    done = Signal(int)  # generation; the value or the exception waits in the mailbox
    failed = Signal(int)

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._lock = threading.Lock()
        self._box: dict[tuple[str, int], Any] = {}

    def post(self, signal: Any, kind: str, generation: int, value: Any, *extra: int) -> None:
        with self._lock:
            if kind == "progress":  # one text per signal, in order: a fast job's steps are all shown
                self._box.setdefault((kind, generation), []).append(value)
            else:
                self._box[(kind, generation)] = value
        signal.emit(generation, *extra)

    def take(self, kind: str, generation: int) -> Any:
        with self._lock:
            if kind == "progress":
                texts = self._box.get((kind, generation))
                if not texts:
                    return None
                text = texts.pop(0)
                if not texts:
                    del self._box[(kind, generation)]
                return text
            return self._box.pop((kind, generation), None)


class _Job(QRunnable):
    def __init__(self, relay: _Relay, generation: int, fn: Callable[[Report], Any],
                 cancel: threading.Event) -> None:
        super().__init__()
        self.relay, self.generation, self.fn, self.cancel = relay, generation, fn, cancel
        self.setAutoDelete(True)

    def _report(self, done: int, total: int, text: str) -> None:
        if self.cancel.is_set():
            raise Cancelled
        self._post("progress", text, done, total)

    def run(self) -> None:
        try:
            value = self.fn(self._report)
        except BaseException as exc:  # noqa: BLE001 - handed to the GUI thread, shown in words there
            self._post("failed", exc)
        else:
            self._post("done", value)

    def _post(self, kind: str, value: Any, *extra: int) -> None:
        try:
            self.relay.post(getattr(self.relay, kind), kind, self.generation, value, *extra)
        except RuntimeError:  # the owner was deleted meanwhile: nobody wants the result
            pass


class BackgroundRunner(QObject):
    """One background job at a time for its owner (see the module docstring)."""

    #: a job ended (done, failed or cancelled), in the GUI thread; see :func:`one_after_another`
    job_ended = Signal()

    def __init__(self, parent: QObject | None = None, *, background: bool = False) -> None:
        super().__init__(parent)
        #: work nobody waits for (warming caches, estimates): a runner of its own, so a refresh waits for
        #: it instead of computing beside it.  It runs at the process's own CPU priority: niced (10), as
        #: it once was, a job running Python holds the interpreter lock (GIL) for its slices while it
        #: waits long for a core on a busy machine, and the GUI thread (each event the window's Python
        #: filters see) and the jobs the user waits for (an export, the wizard's preview) wait on the
        #: lock it holds -- their priority fell to its own.  MASC's resolve-and-export journey took
        #: 71-158 s with the niced warm-up and estimate beside it, 34-56 s without (load 15-18, 2 cores).
        self.background = background
        # the pool first: as a child it is destroyed (waiting for its job) before the relay
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.progress.connect(self._on_progress)
        self._relay.done.connect(self._on_done)
        self._relay.failed.connect(self._on_failed)
        self.generation = 0
        self._running: int | None = None
        self._cancel = threading.Event()
        self._pending: tuple | None = None
        self._callbacks: dict[str, Callable[..., None] | None] = {}
        self._progress_text: tuple[int, str] = (0, "")
        self._held = 0  # how many holders wait before a job may start: see ``hold``

    @property
    def busy(self) -> bool:
        """Whether a job is running or waiting."""
        return self._running is not None or self._pending is not None

    def start(self, fn: Callable[[Report], Any], done: Callable[[Any], None], *,
              failed: Callable[[BaseException], None] | None = None,
              progress: Callable[[int, int, str], None] | None = None) -> int:
        """Run ``fn(report)`` off the GUI thread; supersedes any earlier job.  Returns the generation."""
        self.generation += 1
        self._cancel.set()  # an earlier job stops at its next step
        self._callbacks = {"done": done, "failed": failed, "progress": progress}
        self._pending = (self.generation, fn)
        if self._running is None and not self._held:
            self._launch()
        return self.generation

    def hold(self) -> None:
        """Jobs started from now on wait (the newest only, as behind a running job) until :meth:`release`;
        :attr:`busy` is true meanwhile.  See :func:`hold_until_painted`.  Holds count: each
        :meth:`hold` needs its :meth:`release`."""
        self._held += 1

    def release(self) -> None:
        """The job waiting since :meth:`hold`, if any, starts now (once every hold is released); later
        ones at once."""
        self._held = max(self._held - 1, 0)
        if not self._held and self._running is None and self._pending is not None:
            self._launch()

    def cancel(self) -> None:
        """Drop the current job's result (it stops at its next step) and any waiting request."""
        self.generation += 1
        self._cancel.set()
        self._pending = None

    def wait(self, msecs: int = -1) -> bool:
        """Block until no job runs (tests, closing); ``True`` when done in time."""
        return self.pool.waitForDone(msecs)

    def _launch(self) -> None:
        assert self._pending is not None
        generation, fn = self._pending
        self._pending = None
        self._cancel = threading.Event()
        self._running = generation
        self.pool.start(_Job(self._relay, generation, fn, self._cancel))

    def _finished(self) -> None:
        self._running = None
        if self._pending is not None and not self._held:
            self._launch()
        self.job_ended.emit()

    def _on_progress(self, generation: int, done: int, total: int) -> None:
        # each report's text waits in the mailbox in order, one per signal; a signal that finds
        # none (never expected) reuses the last text rather than showing an empty one
        text = self._relay.take("progress", generation)
        if text is None:
            text = self._progress_text[1] if self._progress_text[0] == generation else ""
        self._progress_text = (generation, text)
        cb = self._callbacks.get("progress")
        if generation == self.generation and cb is not None:
            cb(done, total, text)

    def _on_done(self, generation: int) -> None:
        value = self._relay.take("done", generation)
        self._finished()
        cb = self._callbacks.get("done")
        if generation == self.generation and cb is not None:
            cb(value)

    def _on_failed(self, generation: int) -> None:
        exc = self._relay.take("failed", generation)
        self._finished()
        cb = self._callbacks.get("failed")
        if generation == self.generation and cb is not None and not isinstance(exc, Cancelled):
            assert isinstance(exc, BaseException)
            cb(exc)


class _FirstPaint(QObject):
    """See :func:`hold_until_painted`."""

    def __init__(self, widget: QWidget, runners: Sequence[BackgroundRunner]) -> None:
        super().__init__(widget)
        self.widget, self.runners = widget, list(runners)
        for r in self.runners:
            r.hold()
        widget.installEventFilter(self)
        # counted from when the event loop first runs (the window may still be in the making before)
        QTimer.singleShot(0, self, lambda: QTimer.singleShot(PAINT_WAIT_MS, self, self._release))

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        if ev.type() in (QEvent.Type.Paint, QEvent.Type.Hide):
            QTimer.singleShot(0, self, self._release)  # once this paint is done
        return False

    def _release(self) -> None:
        if self.runners:
            self.widget.removeEventFilter(self)
            for r in self.runners:
                r.release()
            self.runners = []


def hold_until_painted(widget: QWidget, runners: Sequence[BackgroundRunner]) -> None:
    """The jobs ``runners`` are asked to start wait until ``widget`` has been painted once (then start
    right after that paint), or is hidden first, or for at most :data:`PAINT_WAIT_MS` once the event loop
    runs (a window never shown: a script, a test; one minimised meanwhile).  A project's first look is
    not shared with its background work: a job running Python holds the interpreter lock in turns with
    the GUI thread, whose first paint calls into Python for every cell of the table."""
    _FirstPaint(widget, runners)


class _After(QObject):
    """See :func:`one_after_another`."""

    def __init__(self, first: BackgroundRunner, then: BackgroundRunner) -> None:
        super().__init__(then)
        self.first, self.then = first, then
        then.hold()
        first.job_ended.connect(self._release)

    def _release(self) -> None:
        if self.then is not None:
            self.first.job_ended.disconnect(self._release)
            self.then.release()
            self.then = None


def one_after_another(first: BackgroundRunner, then: BackgroundRunner) -> None:
    """The jobs ``then`` is asked to start wait until a job of ``first`` has ended (the next one to end:
    ask ``first`` for its job before, or at the same time).  Two memory-heavy jobs of an opening run
    one after the other instead of side by side, each freeing its temporaries before the next one makes
    its own: on MASC the live figures' first job (the agreement's layout, the scores' answer index:
    ~95 MiB at its peak) and a crowd's late columns (~60 MiB) added up to the window's peak when
    they overlapped."""
    _After(first, then)
