"""Python's cycle collector never runs in a worker thread once a window exists: garbage holding a
Qt object from a closed window, destroyed in a worker, deadlocked the GUI thread (a full test run
froze with the GUI thread in QObject::~QObject and a worker in the collector under a numpy call)."""

from __future__ import annotations

import gc
import threading
from pathlib import Path

from tests.gui.journey import open_window


def test_garbage_made_by_a_worker_is_collected_by_the_gui_thread(qtbot, demo_project: Path) -> None:
    win = open_window(qtbot, demo_project)
    assert not gc.isenabled()  # the window switched automatic collection off
    threads: list[int] = []

    def seen(phase, info):
        if phase == "start":
            threads.append(threading.get_ident())

    def make_cycles() -> None:  # far past every generation's threshold: the interpreter would collect here
        for _ in range(50 * sum(gc.get_threshold())):
            a: list = []
            a.append(a)

    gc.callbacks.append(seen)
    try:
        worker = threading.Thread(target=make_cycles)
        worker.start()
        worker.join()
        assert threads == []  # the worker allocated all that and collected nothing
        qtbot.waitUntil(lambda: bool(threads), timeout=60_000)  # the GUI thread's timer collects it
    finally:
        gc.callbacks.remove(seen)
    assert set(threads) == {threading.main_thread().ident}
    gc.enable()  # a library's own pause ending switched it back on: the GUI thread's timer undoes it
    qtbot.waitUntil(lambda: not gc.isenabled(), timeout=60_000)
    win.close()
