"""Who may switch Python's cycle collector on and off, from any thread.

Two needs meet here.  Readers pause the collector while they make millions of small objects
(:func:`gc_paused`), and a window switches automatic collection off for good, collecting in its
GUI thread instead (``hieradjudicate/gui/gc_guard.py``: a collection in a worker thread can
destroy a Qt object there and deadlock the window).  A pause that began before the window's
switch must not turn the collector back on when it ends -- a reader in a worker thread did
exactly that, and the next collection ran in a worker again.  So pauses are counted under one
lock, and once :func:`keep_disabled` has been called no pause ever re-enables collection.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_pauses = 0
_enabled_before = False
_kept_off = False


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause automatic collection while the block runs (the readers make no reference cycles;
    without the pause CPython runs full collections over the growing heap and reading takes
    several times longer).  Nested and concurrent pauses end with the last one, which restores
    the collector as the first one found it -- unless it is kept off meanwhile."""
    global _pauses, _enabled_before
    with _lock:
        if _pauses == 0:
            _enabled_before = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _enabled_before and not _kept_off:
                gc.enable()


def keep_disabled() -> None:
    """Switch automatic collection off for the rest of the process: the caller collects itself."""
    global _kept_off
    with _lock:
        _kept_off = True
        gc.disable()


def kept_disabled() -> bool:
    """Whether :func:`keep_disabled` has been called."""
    return _kept_off
