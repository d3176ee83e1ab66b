"""Python's cycle collector runs in the GUI thread only.

The collector runs in whichever thread happens to allocate when a generation's count passes its
threshold.  When that is a worker thread (a dashboard or competence job) and the garbage holds a
Qt object from a closed window (a widget in a reference cycle), the object's destructor runs
there: it takes Qt's object lock and then waits for the interpreter lock, while the GUI thread,
holding the interpreter lock, waits for Qt's object lock -- the window freezes for good (seen in a
full test run: the GUI thread in ``QObject::~QObject``, a worker in ``gc_collect_main`` under a
numpy call).  So, as pyqtgraph's ``GarbageCollector`` does, automatic collection is switched off
once a window exists, and a timer in the GUI thread collects each generation when its count is
past the threshold Python would have used.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QObject, QTimer

from hieradjudicate.core.gc_policy import keep_disabled

#: how often the GUI thread looks at the collector's counts
INTERVAL_MS = 250

_collector: _Collector | None = None


class _Collector(QObject):
    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.timer = QTimer(self)
        self.timer.timeout.connect(collect_if_due)
        self.timer.start(INTERVAL_MS)


def collect_if_due() -> int:
    """Collect, in the calling thread, each generation whose count is past its threshold (as the
    interpreter itself would have); the number of objects found unreachable.  Anything that
    switched automatic collection back on (a library's own pause ending) is switched off again."""
    if gc.isenabled():
        gc.disable()
    t0, t1, t2 = gc.get_threshold()
    c0, c1, c2 = gc.get_count()
    if c0 <= t0:
        return 0
    if c1 + 1 <= t1:  # the interpreter's own order: the youngest first, an older one when its turn has come
        return gc.collect(0)
    if c2 + 1 <= t2:
        return gc.collect(1)
    return gc.collect(2)


def collect_in_gui_thread() -> None:
    """Switch automatic collection off and collect on a GUI-thread timer instead (the timer once
    per application; a no-op without a QApplication).  Called by every window: each call switches
    collection off again, whatever switched it on since."""
    global _collector
    app = QCoreApplication.instance()
    if app is None:
        return
    keep_disabled()
    if _collector is None:
        _collector = _Collector(app)
